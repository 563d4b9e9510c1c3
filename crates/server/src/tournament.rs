//! Tournaments and leagues, pure: the formats (round robin, once or twice
//! with colours swapped, and Swiss), their pairing rules, the scores and
//! tie-breaks of the standings, and the season-to-season moves of a league
//! (promotion and relegation). The service stores tournaments and starts
//! their games; everything decided here is a function of what it is given.
//!
//! The rules, as the README documents them:
//! - **Round robin**: the circle method (Berger tables); with an odd number
//!   of players one sits out each round. A double round robin plays the
//!   schedule twice, colours swapped.
//! - **Swiss** (Dutch-style): players are ordered by score, then seed
//!   (rating at sign-up). Within each score group the top half meets the
//!   bottom half in order (1st against the first of the bottom half, and so
//!   on); the last player of an odd group floats down to the next group.
//!   Nobody meets the same opponent twice: when the order would repeat a
//!   pairing, the next opponents in the same order are tried, then lower
//!   groups, searching back as far as needed. With an odd number of players
//!   the lowest-ranked player without a bye sits out and scores one point.
//!   Colours: the player who has had white less often (whites minus
//!   blacks) gets white; if equal, the one who had black last; if equal,
//!   the higher ranked alternately by board.
//! - **Scores**: a win 1, a draw ½, a loss 0; a bye and a forfeit win 1.
//! - **Tie-breaks**: Sonneborn-Berger (the final scores of the opponents
//!   beaten, plus half of those drawn) and Buchholz (the final scores of all
//!   opponents met), counting games played over the board only; a round
//!   robin ranks by Sonneborn-Berger first, a Swiss by Buchholz first; then
//!   wins, then seed.
//! - **Withdrawals**: a player who withdraws plays out their running games;
//!   their unplayed round-robin games are lost by forfeit, and a Swiss
//!   pairs them no more.
//! - **League**: divisions of about the group size, the top division first.
//!   After each season the best `movers` of each division go up one and the
//!   worst `movers` go down one; then players who left are taken out, new
//!   players join at the bottom, and the list is cut into divisions again
//!   (a last division under half the group size joins the one above).

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use epaminondas_rules::{BoardSize, Color, Symmetry, excerpt};
use serde::{Deserialize, Serialize};

use crate::game::{Player, TimeControl};

/// The most players a round robin takes.
pub const MAX_ROUND_ROBIN_PLAYERS: usize = 20;
/// The most players a Swiss takes.
pub const MAX_SWISS_PLAYERS: usize = 128;
/// The most rounds a Swiss may have.
pub const MAX_SWISS_ROUNDS: u32 = 15;

/// How a tournament pairs its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Format {
    /// Everyone plays everyone, `cycles` times (1 or 2, colours swapped in
    /// the second).
    RoundRobin {
        /// 1 or 2.
        cycles: u32,
    },
    /// A fixed number of rounds paired by score.
    Swiss {
        /// 1 to [`MAX_SWISS_ROUNDS`].
        rounds: u32,
    },
}

impl Format {
    /// The name stored in the database.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin { .. } => "round-robin",
            Format::Swiss { .. } => "swiss",
        }
    }

    /// The stored number: cycles or rounds.
    pub fn number(self) -> u32 {
        match self {
            Format::RoundRobin { cycles } => cycles,
            Format::Swiss { rounds } => rounds,
        }
    }

    /// The format stored as `name` and `number`.
    pub fn from_columns(name: &str, number: i64) -> Option<Format> {
        let number = u32::try_from(number).ok()?;
        match name {
            "round-robin" => Some(Format::RoundRobin { cycles: number }),
            "swiss" => Some(Format::Swiss { rounds: number }),
            _ => None,
        }
    }

    /// The most players the format takes.
    pub fn max_players(self) -> usize {
        match self {
            Format::RoundRobin { .. } => MAX_ROUND_ROBIN_PLAYERS,
            Format::Swiss { .. } => MAX_SWISS_PLAYERS,
        }
    }

    /// Checks the numbers are within what the server offers.
    pub fn validate(self) -> Result<Format, String> {
        match self {
            Format::RoundRobin { cycles } if !(1..=2).contains(&cycles) => Err(format!(
                "a round robin is played once or twice, not {cycles} times"
            )),
            Format::Swiss { rounds } if !(1..=MAX_SWISS_ROUNDS).contains(&rounds) => Err(format!(
                "a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds, not {rounds}"
            )),
            format => Ok(format),
        }
    }

    /// The rounds played by `players` players.
    pub fn total_rounds(self, players: usize) -> u32 {
        let players = u32::try_from(players).unwrap_or(u32::MAX);
        match self {
            Format::RoundRobin { cycles } => {
                let per_cycle = if players % 2 == 0 {
                    players.saturating_sub(1)
                } else {
                    players
                };
                per_cycle * cycles
            }
            // Never more rounds than there are opponents to meet.
            Format::Swiss { rounds } => rounds.min(players.saturating_sub(1)).max(1),
        }
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentStatus {
    /// Taking sign-ups.
    SignUp,
    /// Being played.
    Running,
    /// Over.
    Finished,
    /// Called off (fewer than two players when it was to start).
    Canceled,
}

impl TournamentStatus {
    /// The name in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            TournamentStatus::SignUp => "signup",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Canceled => "canceled",
        }
    }
}

impl FromStr for TournamentStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<TournamentStatus, String> {
        match s {
            "signup" => Ok(TournamentStatus::SignUp),
            "running" => Ok(TournamentStatus::Running),
            "finished" => Ok(TournamentStatus::Finished),
            "canceled" => Ok(TournamentStatus::Canceled),
            other => Err(format!("unknown tournament status {:?}", excerpt(other))),
        }
    }
}

impl fmt::Display for TournamentStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How one pairing ended (or that it has not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not decided yet (the game is running, or not begun).
    Pending,
    /// White won the game.
    WhiteWins,
    /// Black won the game.
    BlackWins,
    /// The game was drawn.
    Draw,
    /// The player sat out the round (one point).
    Bye,
    /// Not played: black withdrew, white wins by forfeit.
    WhiteByForfeit,
    /// Not played: white withdrew, black wins by forfeit.
    BlackByForfeit,
    /// Not played: both withdrew.
    DoubleForfeit,
}

impl Outcome {
    /// The token stored in the database and shown in the API.
    pub fn token(self) -> &'static str {
        match self {
            Outcome::Pending => "",
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Bye => "bye",
            Outcome::WhiteByForfeit => "+-",
            Outcome::BlackByForfeit => "-+",
            Outcome::DoubleForfeit => "--",
        }
    }

    /// The outcome stored as `token`.
    pub fn from_token(token: &str) -> Option<Outcome> {
        [
            Outcome::Pending,
            Outcome::WhiteWins,
            Outcome::BlackWins,
            Outcome::Draw,
            Outcome::Bye,
            Outcome::WhiteByForfeit,
            Outcome::BlackByForfeit,
            Outcome::DoubleForfeit,
        ]
        .into_iter()
        .find(|o| o.token() == token)
    }

    /// The outcome of a game with `winner` (none: a draw).
    pub fn of_game(winner: Option<Color>) -> Outcome {
        match winner {
            Some(Color::White) => Outcome::WhiteWins,
            Some(Color::Black) => Outcome::BlackWins,
            None => Outcome::Draw,
        }
    }

    /// The points `color`'s player scores.
    pub fn points(self, color: Color) -> f64 {
        let white = match self {
            Outcome::Pending | Outcome::DoubleForfeit => return 0.0,
            Outcome::Bye => return 1.0,
            Outcome::WhiteWins | Outcome::WhiteByForfeit => 1.0,
            Outcome::BlackWins | Outcome::BlackByForfeit => 0.0,
            Outcome::Draw => 0.5,
        };
        match color {
            Color::White => white,
            Color::Black => 1.0 - white,
        }
    }

    /// Whether the game was played over the board (and counts for the
    /// tie-breaks).
    pub fn over_the_board(self) -> bool {
        matches!(
            self,
            Outcome::WhiteWins | Outcome::BlackWins | Outcome::Draw
        )
    }
}

/// A player in a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// Who.
    pub player: Player,
    /// Their rating when they signed up: the seed order.
    pub seed: f64,
    /// When they signed up.
    pub joined_at: i64,
    /// When they withdrew, if they did.
    pub withdrawn_at: Option<i64>,
}

/// One board of one round.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// The round, from 1.
    pub round: u32,
    /// The board within the round, from 1.
    pub board: u32,
    /// White's player number (or the player who sits out, for a bye).
    pub white: i64,
    /// Black's player number (none: a bye).
    pub black: Option<i64>,
    /// The game, once it has begun.
    pub game_id: Option<i64>,
    /// How it ended.
    pub outcome: Outcome,
}

impl Pairing {
    /// The colour `player` has in this pairing, if they play in it.
    pub fn color_of(&self, player: i64) -> Option<Color> {
        if self.white == player {
            Some(Color::White)
        } else if self.black == Some(player) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The opponent of `player`.
    pub fn opponent_of(&self, player: i64) -> Option<i64> {
        match self.color_of(player)? {
            Color::White => self.black,
            Color::Black => Some(self.white),
        }
    }
}

/// Which league season and division a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Division {
    /// The league.
    pub league_id: i64,
    /// The season, from 1.
    pub season: u32,
    /// The division, 1 the top.
    pub division: u32,
}

/// A tournament with its players and pairings.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Its number.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// How it pairs.
    pub format: Format,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// The games' time control.
    pub control: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// Who made it.
    pub organizer: Player,
    /// Where it stands.
    pub status: TournamentStatus,
    /// When it starts by itself, if set.
    pub starts_at: Option<i64>,
    /// The most players; it starts by itself when this many have signed up
    /// (0: the format's limit, and no start by count).
    pub max_players: u32,
    /// The round being played (0 before the start; every round at once for
    /// a correspondence round robin).
    pub round: u32,
    /// The rounds it has (known once it starts).
    pub rounds: u32,
    /// The league division it is, if any.
    pub division: Option<Division>,
    /// When it was made, started and ended.
    pub created_at: i64,
    /// When it started.
    pub started_at: Option<i64>,
    /// When it ended.
    pub ended_at: Option<i64>,
    /// Its players in sign-up order.
    pub entrants: Vec<Entrant>,
    /// Its pairings, by round and board.
    pub pairings: Vec<Pairing>,
}

impl Tournament {
    /// Whether every game starts at once (a correspondence round robin, as
    /// on Little Golem) rather than round by round.
    pub fn all_at_once(&self) -> bool {
        matches!(self.format, Format::RoundRobin { .. }) && self.control.is_correspondence()
    }

    /// The entrant who is `player`.
    pub fn entrant(&self, player: i64) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.player.id == player)
    }

    /// The entrants who have not withdrawn, by seed (highest first, then
    /// the earlier sign-up).
    pub fn seeded(&self) -> Vec<&Entrant> {
        let mut list: Vec<&Entrant> = self
            .entrants
            .iter()
            .filter(|e| e.withdrawn_at.is_none())
            .collect();
        list.sort_by(|a, b| {
            b.seed
                .total_cmp(&a.seed)
                .then(a.joined_at.cmp(&b.joined_at))
                .then(a.player.id.cmp(&b.player.id))
        });
        list
    }

    /// The pairings of `round`.
    pub fn round_pairings(&self, round: u32) -> impl Iterator<Item = &Pairing> {
        self.pairings.iter().filter(move |p| p.round == round)
    }

    /// Whether every pairing up to the current round is decided.
    pub fn round_complete(&self) -> bool {
        self.pairings
            .iter()
            .filter(|p| p.round <= self.round)
            .all(|p| p.outcome != Outcome::Pending)
    }

    /// The standings, best first.
    pub fn standings(&self) -> Vec<Standing> {
        standings(&self.entrants, &self.pairings, self.format)
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Who.
    pub player: Player,
    /// Points.
    pub points: f64,
    /// Sonneborn-Berger.
    pub sonneborn_berger: f64,
    /// Buchholz.
    pub buchholz: f64,
    /// Games won (over the board or by forfeit).
    pub wins: u32,
    /// Pairings decided.
    pub played: u32,
    /// Whether they withdrew.
    pub withdrawn: bool,
}

/// The standings of `entrants` after `pairings`, best first (see the module
/// documentation for the order).
pub fn standings(entrants: &[Entrant], pairings: &[Pairing], format: Format) -> Vec<Standing> {
    let points_of = |player: i64| -> f64 {
        pairings
            .iter()
            .filter_map(|p| p.color_of(player).map(|c| p.outcome.points(c)))
            .sum()
    };
    let mut rows: Vec<(Standing, f64, i64)> = entrants
        .iter()
        .map(|e| {
            let id = e.player.id;
            let mut row = Standing {
                player: e.player.clone(),
                points: points_of(id),
                sonneborn_berger: 0.0,
                buchholz: 0.0,
                wins: 0,
                played: 0,
                withdrawn: e.withdrawn_at.is_some(),
            };
            for p in pairings {
                let Some(color) = p.color_of(id) else {
                    continue;
                };
                if p.outcome == Outcome::Pending {
                    continue;
                }
                row.played += 1;
                let scored = p.outcome.points(color);
                if scored == 1.0 && p.outcome != Outcome::Bye {
                    row.wins += 1;
                }
                if p.outcome.over_the_board()
                    && let Some(opponent) = p.opponent_of(id)
                {
                    let theirs = points_of(opponent);
                    row.buchholz += theirs;
                    row.sonneborn_berger += scored * theirs;
                }
            }
            (row, e.seed, e.joined_at)
        })
        .collect();
    let swiss = matches!(format, Format::Swiss { .. });
    rows.sort_by(|(a, seed_a, joined_a), (b, seed_b, joined_b)| {
        let (first_a, second_a, first_b, second_b) = if swiss {
            (
                a.buchholz,
                a.sonneborn_berger,
                b.buchholz,
                b.sonneborn_berger,
            )
        } else {
            (
                a.sonneborn_berger,
                a.buchholz,
                b.sonneborn_berger,
                b.buchholz,
            )
        };
        b.points
            .total_cmp(&a.points)
            .then(first_b.total_cmp(&first_a))
            .then(second_b.total_cmp(&second_a))
            .then(b.wins.cmp(&a.wins))
            .then(seed_b.total_cmp(seed_a))
            .then(joined_a.cmp(joined_b))
    });
    rows.into_iter().map(|(row, _, _)| row).collect()
}

/// The round robin of `players` players (indices in seed order), `cycles`
/// times: for each round, the pairs (white, black); a player missing from a
/// round sits it out (an odd number of players).
pub fn round_robin(players: usize, cycles: u32) -> Vec<Vec<(usize, usize)>> {
    if players < 2 {
        return Vec::new();
    }
    // The circle method: an even count (a ghost added when odd), the last
    // one fixed, the others turning one place a round.
    let n = players + players % 2;
    let mut once = Vec::with_capacity(n - 1);
    for round in 0..n - 1 {
        let mut pairs = Vec::with_capacity(n / 2);
        for i in 0..n / 2 {
            let a = if i == 0 { n - 1 } else { (round + i) % (n - 1) };
            let b = (round + n - 1 - i) % (n - 1);
            // The fixed player alternates colours; the others by board.
            let (white, black) = if i == 0 {
                if round % 2 == 0 { (b, a) } else { (a, b) }
            } else if i % 2 == 1 {
                (a, b)
            } else {
                (b, a)
            };
            if white < players && black < players {
                pairs.push((white, black));
            }
        }
        once.push(pairs);
    }
    let mut all = once.clone();
    for cycle in 1..cycles {
        for round in &once {
            all.push(
                round
                    .iter()
                    .map(|&(w, b)| if cycle % 2 == 1 { (b, w) } else { (w, b) })
                    .collect(),
            );
        }
    }
    all
}

/// What a Swiss pairing knows of one player.
#[derive(Clone, Debug, Default)]
pub struct SwissPlayer {
    /// Their score so far, in half points.
    pub half_points: u32,
    /// The players (indices) they have met.
    pub met: Vec<usize>,
    /// The colours they have had, in order.
    pub colors: Vec<Color>,
    /// Whether they have had a bye.
    pub had_bye: bool,
}

impl SwissPlayer {
    fn color_balance(&self) -> i32 {
        self.colors
            .iter()
            .map(|c| if *c == Color::White { 1 } else { -1 })
            .sum()
    }
}

/// The next Swiss round for `players`, given in ranking order (score, then
/// seed): the pairs (white, black) by board, and who sits out, if anyone.
pub fn swiss_round(players: &[SwissPlayer]) -> (Vec<(usize, usize)>, Option<usize>) {
    let all: Vec<usize> = (0..players.len()).collect();
    let met: HashSet<(usize, usize)> = players
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.met.iter().map(move |&j| (i, j)))
        .collect();
    let mut search = Search {
        players,
        met: &met,
        steps: 0,
    };
    // The bye: the lowest ranked who has had none and leaves a pairing of
    // the rest without repeats.
    let mut bye = None;
    let mut pairs = None;
    if players.len() % 2 == 1 {
        let mut candidates: Vec<usize> = all.iter().rev().copied().collect();
        candidates.sort_by_key(|&i| players[i].had_bye);
        // One budget for all the candidates: a field where no pairing
        // without repeats exists costs a bounded search, not one per player.
        search.steps = 0;
        for candidate in candidates {
            let rest: Vec<usize> = all.iter().copied().filter(|&i| i != candidate).collect();
            if let Some(found) = search.pair(&rest, false) {
                bye = Some(candidate);
                pairs = Some(found);
                break;
            }
        }
        if bye.is_none() {
            bye = all.last().copied();
        }
    } else {
        search.steps = 0;
        pairs = search.pair(&all, false);
    }
    let rest: Vec<usize> = all.iter().copied().filter(|&i| Some(i) != bye).collect();
    // No pairing without a repeat (a small field late in the event): the
    // same order, repeats allowed.
    let pairs = pairs.unwrap_or_else(|| {
        search.steps = 0;
        search.pair(&rest, true).unwrap_or_default()
    });
    let colored = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (a, b))| {
            if white_first(&players[a], &players[b], board) {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    (colored, bye)
}

/// Whether the higher-ranked `a` gets white against `b` on `board`.
fn white_first(a: &SwissPlayer, b: &SwissPlayer, board: usize) -> bool {
    let (balance_a, balance_b) = (a.color_balance(), b.color_balance());
    if balance_a != balance_b {
        return balance_a < balance_b;
    }
    match (a.colors.last(), b.colors.last()) {
        (Some(Color::Black), Some(Color::White)) => true,
        (Some(Color::White), Some(Color::Black)) => false,
        _ => board % 2 == 0,
    }
}

/// The backtracking search for a Swiss round's pairs.
struct Search<'a> {
    players: &'a [SwissPlayer],
    met: &'a HashSet<(usize, usize)>,
    steps: u32,
}

/// Steps after which a search without repeats gives up.
const SEARCH_STEPS: u32 = 200_000;

impl Search<'_> {
    /// Pairs `unpaired` (in ranking order), the top player first with the
    /// opponents the Dutch order prefers.
    fn pair(&mut self, unpaired: &[usize], repeats: bool) -> Option<Vec<(usize, usize)>> {
        let Some((&top, rest)) = unpaired.split_first() else {
            return Some(Vec::new());
        };
        self.steps += 1;
        if self.steps > SEARCH_STEPS && !repeats {
            return None;
        }
        for opponent in self.preferences(top, rest) {
            if !repeats && self.met.contains(&(top, opponent)) {
                continue;
            }
            let left: Vec<usize> = rest.iter().copied().filter(|&i| i != opponent).collect();
            if let Some(mut found) = self.pair(&left, repeats) {
                found.insert(0, (top, opponent));
                return Some(found);
            }
            if self.steps > SEARCH_STEPS && !repeats {
                return None;
            }
        }
        None
    }

    /// The opponents of `top` in order of preference: its score group's
    /// bottom half in order, then the top half upwards, then lower groups.
    fn preferences(&self, top: usize, rest: &[usize]) -> Vec<usize> {
        let score = self.players[top].half_points;
        let group: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&i| self.players[i].half_points == score)
            .collect();
        // `top` is the group's first; its half has (size / 2) players.
        let size = group.len() + 1;
        let half = size / 2;
        let mut order: Vec<usize> = Vec::with_capacity(rest.len());
        if half >= 1 {
            order.extend(group.iter().skip(half - 1));
            order.extend(group.iter().take(half - 1).rev());
        } else {
            order.extend(group.iter());
        }
        order.extend(
            rest.iter()
                .copied()
                .filter(|&i| self.players[i].half_points != score),
        );
        order
    }
}

/// The divisions of a league's next season: `last` is the previous
/// season's divisions, each in final standing order, top division first;
/// `stays` says who is still in the league; `joining` are new players in
/// seed order. See the module documentation for the rule.
pub fn next_divisions(
    last: &[Vec<i64>],
    stays: impl Fn(i64) -> bool,
    joining: &[i64],
    group_size: usize,
    movers: usize,
) -> Vec<Vec<i64>> {
    let count = last.len();
    let mut moved: Vec<Vec<i64>> = vec![Vec::new(); count];
    for (d, division) in last.iter().enumerate() {
        // Never move more than a third of a division either way.
        let k = movers.min(division.len() / 3);
        let up = if d > 0 { k } else { 0 };
        let down = if d + 1 < count { k } else { 0 };
        let (top, rest) = division.split_at(up);
        let (middle, bottom) = rest.split_at(rest.len() - down.min(rest.len()));
        if d > 0 {
            moved[d - 1].extend_from_slice(top);
        }
        moved[d].extend_from_slice(middle);
        if d + 1 < count {
            moved[d + 1].splice(0..0, bottom.iter().copied());
        }
    }
    let mut ladder: Vec<i64> = moved.into_iter().flatten().filter(|&p| stays(p)).collect();
    for &p in joining {
        if !ladder.contains(&p) {
            ladder.push(p);
        }
    }
    let size = group_size.max(2);
    let mut divisions: Vec<Vec<i64>> = ladder.chunks(size).map(<[i64]>::to_vec).collect();
    if divisions.len() > 1 && divisions.last().is_some_and(|d| d.len() * 2 < size) {
        let small = divisions.pop().unwrap_or_default();
        if let Some(above) = divisions.last_mut() {
            above.extend(small);
        }
    }
    divisions.retain(|d| d.len() >= 2);
    divisions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs_met(rounds: &[Vec<(usize, usize)>]) -> Vec<(usize, usize)> {
        let mut all: Vec<(usize, usize)> = rounds
            .iter()
            .flatten()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        all.sort_unstable();
        all
    }

    #[test]
    fn a_round_robin_pairs_everyone_once_per_cycle_and_balances_colours() {
        for n in 2..=12 {
            let rounds = round_robin(n, 1);
            assert_eq!(rounds.len(), if n % 2 == 0 { n - 1 } else { n });
            let met = pairs_met(&rounds);
            let mut expected = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    expected.push((a, b));
                }
            }
            assert_eq!(met, expected, "{n} players");
            for round in &rounds {
                let mut seen = HashSet::new();
                for &(w, b) in round {
                    assert!(seen.insert(w) && seen.insert(b), "twice in a round");
                }
                assert_eq!(round.len(), n / 2);
            }
            for player in 0..n {
                let whites = rounds.iter().flatten().filter(|p| p.0 == player).count();
                let games = n - 1;
                assert!(
                    whites.abs_diff(games - whites) <= 1 + usize::from(n % 2 == 0 && n > 2),
                    "{n} players: player {player} has {whites} whites of {games}"
                );
            }
        }
    }

    #[test]
    fn a_double_round_robin_swaps_colours_in_the_second_cycle() {
        let rounds = round_robin(4, 2);
        assert_eq!(rounds.len(), 6);
        for (first, second) in rounds[..3].iter().zip(&rounds[3..]) {
            let swapped: Vec<(usize, usize)> = first.iter().map(|&(w, b)| (b, w)).collect();
            assert_eq!(second, &swapped);
        }
    }

    fn swiss_field(n: usize) -> Vec<SwissPlayer> {
        vec![SwissPlayer::default(); n]
    }

    /// Plays `rounds` Swiss rounds in which the higher-ranked always wins,
    /// checking no pairing repeats and colours stay balanced.
    fn play_swiss(n: usize, rounds: usize) {
        let mut field = swiss_field(n);
        let mut met = HashSet::new();
        for _ in 0..rounds {
            // Ranking order: score, then index (the seed).
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| (std::cmp::Reverse(field[i].half_points), i));
            let ranked: Vec<SwissPlayer> = order
                .iter()
                .map(|&i| {
                    let mut p = field[i].clone();
                    p.met = p
                        .met
                        .iter()
                        .map(|m| order.iter().position(|o| o == m).unwrap_or(0))
                        .collect();
                    p
                })
                .collect();
            let (pairs, bye) = swiss_round(&ranked);
            assert_eq!(pairs.len(), n / 2);
            assert_eq!(bye.is_some(), n % 2 == 1);
            if let Some(b) = bye {
                let player = order[b];
                assert!(!field[player].had_bye, "a second bye");
                field[player].had_bye = true;
                field[player].half_points += 2;
            }
            for (w, b) in pairs {
                let (w, b) = (order[w], order[b]);
                assert!(met.insert((w.min(b), w.max(b))), "{w} met {b} twice");
                field[w].met.push(b);
                field[b].met.push(w);
                field[w].colors.push(Color::White);
                field[b].colors.push(Color::Black);
                field[w.min(b)].half_points += 2;
            }
        }
        for p in &field {
            assert!(p.color_balance().abs() <= 2, "colours {:?}", p.colors);
        }
    }

    #[test]
    fn a_swiss_never_repeats_a_pairing_and_balances_colours() {
        for n in 2..=17 {
            play_swiss(n, (n - 1).min(7));
        }
        play_swiss(64, 9);
    }

    #[test]
    fn the_first_swiss_round_pairs_the_top_half_against_the_bottom_half() {
        let (pairs, bye) = swiss_round(&swiss_field(8));
        assert_eq!(bye, None);
        let sorted: Vec<(usize, usize)> =
            pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        assert_eq!(sorted, vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
        // Alternate colours by board in the first round.
        assert_eq!(pairs[0], (0, 4));
        assert_eq!(pairs[1], (5, 1));
        let (_, bye) = swiss_round(&swiss_field(5));
        assert_eq!(bye, Some(4), "the lowest ranked sits out");
    }

    #[test]
    fn a_swiss_score_group_floats_its_last_player_down() {
        // Three players on 2 points and three on 0: the third of the top
        // group meets the first of the bottom group.
        let mut field = swiss_field(6);
        for p in field.iter_mut().take(3) {
            p.half_points = 2;
        }
        let (pairs, _) = swiss_round(&field);
        let sorted: Vec<(usize, usize)> =
            pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        assert_eq!(sorted, vec![(0, 1), (2, 3), (4, 5)]);
    }

    #[test]
    fn a_swiss_with_no_fresh_pairing_left_repeats_rather_than_fail() {
        // Four players who have all met: round 4 must repeat, and does.
        let mut field = swiss_field(4);
        for (i, p) in field.iter_mut().enumerate() {
            p.met = (0..4).filter(|&j| j != i).collect();
        }
        let (pairs, bye) = swiss_round(&field);
        assert_eq!(bye, None);
        assert_eq!(pairs.len(), 2);
        // Forty players who have all met each other: a bounded search,
        // then the fallback.
        let mut field = swiss_field(41);
        for (i, p) in field.iter_mut().enumerate() {
            p.met = (0..41).filter(|&j| j != i).collect();
        }
        let (pairs, bye) = swiss_round(&field);
        assert_eq!((pairs.len(), bye), (20, Some(40)));
    }

    fn entrant(id: i64, seed: f64) -> Entrant {
        Entrant {
            player: Player {
                id,
                name: format!("p{id}"),
            },
            seed,
            joined_at: id,
            withdrawn_at: None,
        }
    }

    fn pairing(round: u32, white: i64, black: Option<i64>, outcome: Outcome) -> Pairing {
        Pairing {
            round,
            board: 1,
            white,
            black,
            game_id: None,
            outcome,
        }
    }

    #[test]
    fn standings_count_points_and_break_ties_by_sonneborn_berger_and_buchholz() {
        // 1 beats 2, 2 beats 3, 3 beats 1, 4 loses to all: 1, 2 and 3 tie
        // on 2 points; 4 forfeits to 3 (no tie-break credit).
        let entrants: Vec<Entrant> = (1..=4).map(|i| entrant(i, 1500.0)).collect();
        let pairings = vec![
            pairing(1, 1, Some(2), Outcome::WhiteWins),
            pairing(1, 3, Some(4), Outcome::WhiteByForfeit),
            pairing(2, 2, Some(3), Outcome::WhiteWins),
            pairing(2, 4, Some(1), Outcome::BlackWins),
            pairing(3, 3, Some(1), Outcome::WhiteWins),
            pairing(3, 2, Some(4), Outcome::WhiteWins),
        ];
        let table = standings(&entrants, &pairings, Format::RoundRobin { cycles: 1 });
        let order: Vec<i64> = table.iter().map(|s| s.player.id).collect();
        // SB: 1 beat 2 (2) and 4 (0) = 2; 2 beat 3 (2) and 4 = 2; 3 beat 1
        // (2) = 2, the forfeit counting nothing. Buchholz: 1 met 2, 4, 3 =
        // 4; 2 met 1, 3, 4 = 4; 3 met 2, 1 = 4. Then wins: all 2. Then
        // seed and sign-up: 1, 2, 3.
        assert_eq!(order, vec![1, 2, 3, 4]);
        assert_eq!(table[0].points, 2.0);
        assert_eq!(table[0].sonneborn_berger, 2.0);
        assert_eq!(table[2].sonneborn_berger, 2.0);
        assert_eq!(table[2].buchholz, 4.0);
        assert_eq!(table[3].points, 0.0);
        // A draw gives half the opponent's score to Sonneborn-Berger.
        let pairings = vec![
            pairing(1, 1, Some(2), Outcome::Draw),
            pairing(1, 3, Some(4), Outcome::WhiteWins),
            pairing(2, 1, Some(3), Outcome::WhiteWins),
            pairing(2, 2, None, Outcome::Bye),
        ];
        let table = standings(&entrants, &pairings, Format::Swiss { rounds: 2 });
        let one = table
            .iter()
            .find(|s| s.player.id == 1)
            .map(|s| s.sonneborn_berger);
        // 2 scored 1.5 (draw + bye): half of it, plus 3's 1 point.
        assert_eq!(one, Some(0.75 + 1.0));
        let two = table.iter().find(|s| s.player.id == 2).map(|s| s.buchholz);
        assert_eq!(two, Some(1.5), "the bye adds nothing to Buchholz");
    }

    #[test]
    fn league_divisions_promote_and_relegate_and_take_in_new_players() {
        let last = vec![
            (1..=10).collect::<Vec<i64>>(),
            (11..=20).collect::<Vec<i64>>(),
            (21..=30).collect::<Vec<i64>>(),
        ];
        let next = next_divisions(&last, |p| p != 5, &[31, 32], 10, 2);
        // Division 1: 1-4, 6-8 (5 left), 11-12 up; 9-10 down.
        assert_eq!(next[0], vec![1, 2, 3, 4, 6, 7, 8, 11, 12, 9]);
        assert!(next[1].contains(&21) && next[1].contains(&22));
        // 19 and 20 went down, but 5's place pulled the list up one.
        assert!(next[1].contains(&19) && next[2].contains(&20));
        // The new players at the bottom, in the last division (30 + 2 - 1
        // players: the last 1 joins the division above).
        assert_eq!(next.len(), 3);
        assert_eq!(next[2].last(), Some(&32));
        assert_eq!(next.iter().map(Vec::len).sum::<usize>(), 31);
        // A first season: everyone joining, cut into divisions.
        let first = next_divisions(&[], |_| true, &(1..=23).collect::<Vec<i64>>(), 10, 2);
        assert_eq!(first.iter().map(Vec::len).collect::<Vec<_>>(), vec![10, 13]);
    }

    #[test]
    fn outcomes_score_and_round_trip() {
        for token in ["", "1-0", "0-1", "1/2-1/2", "bye", "+-", "-+", "--"] {
            let outcome = Outcome::from_token(token).map(Outcome::token);
            assert_eq!(outcome, Some(token));
        }
        assert_eq!(Outcome::BlackByForfeit.points(Color::Black), 1.0);
        assert_eq!(Outcome::Draw.points(Color::White), 0.5);
        assert!(!Outcome::WhiteByForfeit.over_the_board());
        assert_eq!(Format::Swiss { rounds: 9 }.total_rounds(4), 3);
        assert_eq!(Format::RoundRobin { cycles: 2 }.total_rounds(5), 10);
        assert!(Format::RoundRobin { cycles: 3 }.validate().is_err());
    }
}
