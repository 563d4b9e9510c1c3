//! Tournaments and leagues: made by a signed-in player, joined, started by
//! a start time, a player count or the organizer, paired round by round (a
//! correspondence round robin all at once) as their games end, with
//! withdrawals and forfeits; leagues begin each season's divisions when the
//! last one ends. The pairing rules themselves are in [`crate::tournament`].

use std::collections::HashMap;
use std::sync::Arc;

use epaminondas_rules::{BoardSize, Color, Position, Symmetry};

use super::Service;
use crate::auth::AuthUser;
use crate::error::{Error, Result};
use crate::game::{Game, NewGame, Player, Seat, TimeControl};
use crate::store::{self, League, RoundStart, TournamentSummary};
use crate::tournament::{
    Division, Format, Outcome, Pairing, SwissPlayer, Tournament, TournamentStatus, next_divisions,
    round_robin, swiss_round,
};

/// Unfinished tournaments and leagues one player may organize at once.
pub const MAX_OPEN_EVENTS: i64 = 3;
/// How far ahead a start time may be.
const MAX_START_AHEAD_MS: i64 = 90 * 24 * 60 * 60 * 1000;
/// The most tournaments a list shows (of each kind: open and finished).
const LISTED: i64 = 50;

/// What a new tournament is to be.
#[derive(Clone, Debug)]
pub struct NewTournament {
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
    /// When it starts by itself.
    pub starts_at: Option<i64>,
    /// The most players, and the count at which it starts by itself.
    pub max_players: Option<u32>,
}

/// What a new league is to be.
#[derive(Clone, Debug)]
pub struct NewLeague {
    /// Its name.
    pub name: String,
    /// Players per division (about).
    pub group_size: u32,
    /// Players going up and down after each season.
    pub movers: u32,
    /// Each division plays a round robin this many times (1 or 2).
    pub cycles: u32,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// The games' time control.
    pub control: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// When the first season starts by itself.
    pub starts_at: Option<i64>,
}

/// A league with its seasons' divisions.
pub struct LeagueView {
    /// The league and its members.
    pub league: League,
    /// Its division tournaments, latest season first, top division first.
    pub divisions: Vec<TournamentSummary>,
}

/// Checks an event's name: 3 to 60 characters of plain text.
fn event_name(name: &str) -> Result<String> {
    let name = name.trim();
    let length = name.chars().count();
    if !(3..=60).contains(&length) {
        return Err(Error::invalid("a name has 3 to 60 characters"));
    }
    if name.chars().any(char::is_control) {
        return Err(Error::invalid("a name is one line of plain text"));
    }
    Ok(name.to_string())
}

/// Checks a tournament's time control: any the server offers but unlimited
/// (a tournament must end).
fn event_control(control: TimeControl) -> Result<TimeControl> {
    if control == TimeControl::Unlimited {
        return Err(Error::invalid(
            "a tournament needs a clock: live, days per move or a time bank",
        ));
    }
    control
        .validate()
        .map_err(|e| Error::invalid(e.to_string()))
}

impl Service {
    fn check_start(&self, starts_at: Option<i64>) -> Result<()> {
        let now = self.now();
        if let Some(at) = starts_at
            && (at <= now || at > now + MAX_START_AHEAD_MS)
        {
            return Err(Error::invalid(
                "the start time must be in the future and at most 90 days ahead",
            ));
        }
        Ok(())
    }

    async fn check_organizer(&self, user: &AuthUser) -> Result<()> {
        user.require_play()?;
        if user.guest {
            return Err(Error::forbidden(
                "guests cannot organize tournaments: sign up first",
            ));
        }
        let open = store::open_events_of(&self.db, user.player.id).await?;
        if open >= MAX_OPEN_EVENTS {
            return Err(Error::conflict(format!(
                "you organize {open} tournaments or leagues already: wait until one ends"
            )));
        }
        Ok(())
    }

    /// Makes a tournament, taking sign-ups.
    pub async fn create_tournament(
        self: &Arc<Self>,
        user: &AuthUser,
        new: NewTournament,
    ) -> Result<Tournament> {
        self.check_organizer(user).await?;
        let name = event_name(&new.name)?;
        let format = new.format.validate().map_err(Error::Invalid)?;
        let control = event_control(new.control)?;
        self.check_start(new.starts_at)?;
        let limit = format.max_players();
        let max_players = match new.max_players {
            Some(n) if !(2..=limit).contains(&(n as usize)) => {
                return Err(Error::invalid(format!(
                    "this format takes 2 to {limit} players, not {n}"
                )));
            }
            Some(n) => n,
            None => 0,
        };
        let mut t = Tournament {
            id: 0,
            name,
            format,
            size: new.size,
            symmetry: new.symmetry,
            control,
            rated: new.rated,
            organizer: user.player.clone(),
            status: TournamentStatus::SignUp,
            starts_at: new.starts_at,
            max_players,
            round: 0,
            rounds: 0,
            division: None,
            created_at: self.now(),
            started_at: None,
            ended_at: None,
            entrants: Vec::new(),
            pairings: Vec::new(),
        };
        store::insert_tournament(&self.db, &mut t).await?;
        Ok(t)
    }

    /// Tournament `id` with its players and pairings.
    pub async fn tournament(&self, id: i64) -> Result<Tournament> {
        store::load_tournament(&self.db, id)
            .await?
            .ok_or(Error::NoSuchTournament(id))
    }

    /// The tournaments taking sign-ups and running, then the latest ended.
    pub async fn tournaments(&self) -> Result<Vec<TournamentSummary>> {
        store::list_tournaments(&self.db, None, LISTED).await
    }

    /// The tournament and league game `game` belongs to: (tournament,
    /// name, round).
    pub async fn tournament_of_game(&self, game: i64) -> Result<Option<(i64, String, u32)>> {
        store::tournament_of_game(&self.db, game).await
    }

    async fn seed_of(&self, player: i64) -> Result<f64> {
        Ok(store::user_by_id(&self.db, player)
            .await?
            .map_or(1500.0, |u| u.rating.rating))
    }

    /// Signs `user` up for tournament `id`; it starts at once when this
    /// fills it.
    pub async fn join_tournament(self: &Arc<Self>, user: &AuthUser, id: i64) -> Result<Tournament> {
        user.require_play()?;
        let t = self.tournament(id).await?;
        if t.division.is_some() {
            return Err(Error::conflict(
                "this is a league division: join the league for its next season",
            ));
        }
        if t.status != TournamentStatus::SignUp {
            return Err(Error::conflict(format!(
                "tournament {id} is {}: it takes no more players",
                t.status
            )));
        }
        if user.guest && t.rated {
            return Err(Error::forbidden(
                "guests play unrated games only: sign up to join a rated tournament",
            ));
        }
        if t.entrant(user.player.id).is_some() {
            return Err(Error::conflict("you are in this tournament already"));
        }
        if t.control.is_correspondence() {
            self.check_correspondence_room(user.player.id, "you")
                .await?;
        }
        let max = match t.max_players {
            0 => t.format.max_players(),
            n => n as usize,
        };
        let seed = self.seed_of(user.player.id).await?;
        let joined =
            store::join_tournament(&self.db, id, user.player.id, seed, max as i64, self.now())
                .await?;
        match joined {
            None => Err(Error::conflict(format!(
                "tournament {id} is full or has started"
            ))),
            Some(count) if t.max_players > 0 && count >= i64::from(t.max_players) => {
                let t = self.tournament(id).await?;
                self.start_tournament(t).await?;
                self.tournament(id).await
            }
            Some(_) => self.tournament(id).await,
        }
    }

    /// Takes `user` out of tournament `id`: before it starts, off the list;
    /// once running, withdrawn: their running games in it are resigned and
    /// their unplayed ones lost by forfeit.
    pub async fn withdraw_from_tournament(
        self: &Arc<Self>,
        user: &AuthUser,
        id: i64,
    ) -> Result<Tournament> {
        user.require_play()?;
        let t = self.tournament(id).await?;
        let me = user.player.id;
        if t.entrant(me).is_none_or(|e| e.withdrawn_at.is_some()) {
            return Err(Error::conflict(format!(
                "you are not playing in tournament {id}"
            )));
        }
        match t.status {
            TournamentStatus::SignUp => {
                store::leave_tournament(&self.db, id, me).await?;
                return self.tournament(id).await;
            }
            TournamentStatus::Running => {}
            status => {
                return Err(Error::conflict(format!("tournament {id} is {status}")));
            }
        }
        let gone = |player: i64| {
            player == me || t.entrant(player).is_some_and(|e| e.withdrawn_at.is_some())
        };
        let forfeits: Vec<(u32, u32, Outcome)> = t
            .pairings
            .iter()
            .filter(|p| p.outcome == Outcome::Pending && p.game_id.is_none())
            .filter(|p| p.color_of(me).is_some())
            .filter_map(|p| {
                let black = p.black?;
                let outcome = match (gone(p.white), gone(black)) {
                    (true, true) => Outcome::DoubleForfeit,
                    (true, false) => Outcome::BlackByForfeit,
                    _ => Outcome::WhiteByForfeit,
                };
                Some((p.round, p.board, outcome))
            })
            .collect();
        if !store::withdraw(&self.db, id, me, &forfeits, self.now()).await? {
            return Err(Error::conflict("you have withdrawn already"));
        }
        let running: Vec<(i64, Color)> = t
            .pairings
            .iter()
            .filter(|p| p.outcome == Outcome::Pending)
            .filter_map(|p| Some((p.game_id?, p.color_of(me)?)))
            .collect();
        for (game, side) in running {
            let resigned = self
                .change_game(game, |g, now| Ok(g.resign(side, now)?))
                .await;
            if let Err(e) = resigned {
                tracing::debug!("resigning game {game} on withdrawal: {e}");
            }
        }
        self.advance_tournament(id).await?;
        self.tournament(id).await
    }

    /// Starts tournament `id` now, for its organizer.
    pub async fn start_tournament_now(
        self: &Arc<Self>,
        user: &AuthUser,
        id: i64,
    ) -> Result<Tournament> {
        user.require_play()?;
        let t = self.tournament(id).await?;
        if t.organizer.id != user.player.id {
            return Err(Error::forbidden(
                "only the organizer can start a tournament early",
            ));
        }
        if t.status != TournamentStatus::SignUp {
            return Err(Error::conflict(format!("tournament {id} is {}", t.status)));
        }
        if t.seeded().len() < 2 {
            return Err(Error::conflict(
                "a tournament needs at least two players to start",
            ));
        }
        self.start_tournament(t).await?;
        self.tournament(id).await
    }

    /// Starts `t`: its first round (every round of a correspondence round
    /// robin), or calls it off with fewer than two players.
    async fn start_tournament(self: &Arc<Self>, t: Tournament) -> Result<()> {
        let seeded: Vec<i64> = t.seeded().iter().map(|e| e.player.id).collect();
        if seeded.len() < 2 {
            store::end_tournament(&self.db, t.id, 0, true, self.now()).await?;
            return Ok(());
        }
        let rounds = t.format.total_rounds(seeded.len());
        let (pairings, open) = match t.format {
            Format::RoundRobin { cycles } => {
                let pairings = round_robin(seeded.len(), cycles)
                    .iter()
                    .zip(1..)
                    .flat_map(|(round, number)| {
                        round
                            .iter()
                            .zip(1..)
                            .map(move |(&(w, b), board)| (number, board, w, b))
                    })
                    .map(|(round, board, w, b)| Pairing {
                        round,
                        board,
                        white: seeded[w],
                        black: Some(seeded[b]),
                        game_id: None,
                        outcome: Outcome::Pending,
                    })
                    .collect();
                (pairings, if t.all_at_once() { rounds } else { 1 })
            }
            Format::Swiss { .. } => (self.swiss_pairings(&t, 1), 1),
        };
        self.begin_tournament_round(&t, open, rounds, &pairings)
            .await
    }

    /// The pairings of Swiss round `round` of `t`, between its players who
    /// have not withdrawn.
    fn swiss_pairings(&self, t: &Tournament, round: u32) -> Vec<Pairing> {
        let standings = t.standings();
        // The ranking order: points, then seed.
        let mut active: Vec<(i64, f64, f64)> = t
            .seeded()
            .iter()
            .map(|e| {
                let points = standings
                    .iter()
                    .find(|s| s.player.id == e.player.id)
                    .map_or(0.0, |s| s.points);
                (e.player.id, points, e.seed)
            })
            .collect();
        active.sort_by(|a, b| b.1.total_cmp(&a.1));
        let index: HashMap<i64, usize> = active.iter().enumerate().map(|(i, a)| (a.0, i)).collect();
        let field: Vec<SwissPlayer> = active
            .iter()
            .map(|&(id, points, _)| {
                let mine = t.pairings.iter().filter(|p| p.color_of(id).is_some());
                SwissPlayer {
                    half_points: (points * 2.0).round() as u32,
                    met: mine
                        .clone()
                        .filter_map(|p| index.get(&p.opponent_of(id)?).copied())
                        .collect(),
                    colors: mine
                        .clone()
                        .filter(|p| p.black.is_some())
                        .filter_map(|p| p.color_of(id))
                        .collect(),
                    had_bye: mine.clone().any(|p| p.outcome == Outcome::Bye),
                }
            })
            .collect();
        let (pairs, bye) = swiss_round(&field);
        let mut pairings: Vec<Pairing> = pairs
            .iter()
            .zip(1..)
            .map(|(&(w, b), board)| Pairing {
                round,
                board,
                white: active[w].0,
                black: Some(active[b].0),
                game_id: None,
                outcome: Outcome::Pending,
            })
            .collect();
        if let Some(bye) = bye {
            pairings.push(Pairing {
                round,
                board: pairings.len() as u32 + 1,
                white: active[bye].0,
                black: None,
                game_id: None,
                outcome: Outcome::Bye,
            });
        }
        pairings
    }

    /// Stores `new` pairings and begins the games of every round after the
    /// current one up to `round`; the tournament moves to `round`.
    async fn begin_tournament_round(
        self: &Arc<Self>,
        t: &Tournament,
        round: u32,
        rounds: u32,
        new: &[Pairing],
    ) -> Result<()> {
        let now = self.now();
        let player = |id: i64| -> Player {
            t.entrant(id).map_or_else(
                || Player {
                    id,
                    name: String::new(),
                },
                |e| e.player.clone(),
            )
        };
        let mut games = Vec::new();
        for p in t.pairings.iter().chain(new) {
            let (Some(black), None, Outcome::Pending) = (p.black, p.game_id, p.outcome) else {
                continue;
            };
            if p.round <= t.round || p.round > round {
                continue;
            }
            let mut game = Game::new(
                NewGame {
                    white: Seat::Human(player(p.white)),
                    black: Seat::Human(player(black)),
                    start: Position::new(t.size, t.symmetry),
                    rated: t.rated,
                    control: t.control,
                },
                now,
            );
            self.with_vacations(&mut game).await?;
            games.push((p.round, p.board, game));
        }
        let mut profiles = HashMap::new();
        for e in &t.entrants {
            if let Some(profile) = self.profile_for_mail(e.player.id).await {
                profiles.insert(e.player.id, profile);
            }
        }
        let start = RoundStart {
            from_round: t.round,
            round,
            rounds,
            pairings: new,
            games: &mut games,
        };
        let begun = store::begin_round(
            &self.db,
            t.id,
            start,
            |g| {
                let both: Vec<_> = [g.white.player_id(), g.black.player_id()]
                    .into_iter()
                    .flatten()
                    .filter_map(|id| profiles.get(&id))
                    .collect();
                self.game_start_mails(g, None, "", &both)
            },
            now,
        )
        .await?;
        if !begun {
            return Ok(());
        }
        self.mail_waiting.notify_one();
        for (_, _, game) in &games {
            self.game_started(game).await;
        }
        Ok(())
    }

    /// Records the outcome of a finished tournament game and moves its
    /// tournament on.
    pub(super) async fn tournament_game_over(self: &Arc<Self>, game: &Game) {
        if !game.is_finished() {
            return;
        }
        let outcome = Outcome::of_game(game.winner());
        let recorded = store::record_outcome(&self.db, game.id, outcome).await;
        match recorded {
            Ok(Some(id)) => {
                if let Err(e) = Box::pin(self.advance_tournament(id)).await {
                    tracing::warn!("moving tournament {id} on: {e}");
                }
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("recording tournament game {}: {e}", game.id),
        }
    }

    /// Does what is due in tournament `id`: starts it at its start time,
    /// begins the next round once the current one is decided, or ends it.
    pub(super) async fn advance_tournament(self: &Arc<Self>, id: i64) -> Result<()> {
        let t = self.tournament(id).await?;
        match t.status {
            TournamentStatus::SignUp if t.starts_at.is_some_and(|at| at <= self.now()) => {
                return self.start_tournament(t).await;
            }
            TournamentStatus::Running => {}
            _ => return Ok(()),
        }
        if !t.round_complete() {
            return Ok(());
        }
        let next = t.round + 1;
        let swiss_field = t.seeded().len();
        let over =
            t.round >= t.rounds || (matches!(t.format, Format::Swiss { .. }) && swiss_field < 2);
        if over {
            let ended = store::end_tournament(&self.db, id, t.round, false, self.now()).await?;
            if ended && let Some(division) = t.division {
                Box::pin(self.advance_league(division.league_id)).await?;
            }
            return Ok(());
        }
        let new = match t.format {
            Format::RoundRobin { .. } => Vec::new(),
            Format::Swiss { .. } => self.swiss_pairings(&t, next),
        };
        self.begin_tournament_round(&t, next, t.rounds, &new).await
    }

    /// Moves every tournament and league on whose time has come (and
    /// records tournament games whose outcome a stopped process left
    /// unrecorded).
    pub(super) async fn sweep_tournaments(self: &Arc<Self>) -> Result<()> {
        for id in store::unrecorded_tournament_games(&self.db).await? {
            let game = self.game(id).await?;
            self.tournament_game_over(&game).await;
        }
        let now = self.now();
        for id in store::due_tournaments(&self.db, now).await? {
            if let Err(e) = self.advance_tournament(id).await {
                tracing::warn!("tournament {id}: {e}");
            }
        }
        for id in store::due_leagues(&self.db, now).await? {
            if let Err(e) = self.advance_league(id).await {
                tracing::warn!("league {id}: {e}");
            }
        }
        Ok(())
    }

    /// PGN records of every game of tournament `id`, with its name as the
    /// event and the round, for download.
    pub async fn tournament_records(&self, id: i64) -> Result<(Tournament, String)> {
        let t = self.tournament(id).await?;
        let games = store::tournament_games(&self.db, id).await?;
        let mut text = String::new();
        for game in &games {
            let round = t
                .pairings
                .iter()
                .find(|p| p.game_id == Some(game.id))
                .map_or(0, |p| p.round);
            let tags = [
                ("Event", t.name.clone()),
                ("Round", round.to_string()),
                ("Site", format!("board {}", game.id)),
            ];
            text.push_str(&game.record_text_with(&tags));
            text.push_str("\n\n");
        }
        Ok((t, text))
    }

    /// Makes a league; its first season begins at its start time or when
    /// the organizer starts it.
    pub async fn create_league(
        self: &Arc<Self>,
        user: &AuthUser,
        new: NewLeague,
    ) -> Result<League> {
        self.check_organizer(user).await?;
        let name = event_name(&new.name)?;
        let control = event_control(new.control)?;
        self.check_start(new.starts_at)?;
        if !(4..=crate::tournament::MAX_ROUND_ROBIN_PLAYERS as u32).contains(&new.group_size) {
            return Err(Error::invalid("a league's divisions have 4 to 20 players"));
        }
        if new.movers > new.group_size / 3 {
            return Err(Error::invalid(
                "at most a third of a division goes up or down after a season",
            ));
        }
        Format::RoundRobin { cycles: new.cycles }
            .validate()
            .map_err(Error::Invalid)?;
        let mut league = League {
            id: 0,
            name,
            organizer: user.player.clone(),
            group_size: new.group_size,
            movers: new.movers,
            cycles: new.cycles,
            size: new.size,
            symmetry: new.symmetry,
            rated: new.rated,
            control,
            season: 0,
            starts_at: new.starts_at,
            created_at: self.now(),
            members: Vec::new(),
        };
        store::insert_league(&self.db, &mut league).await?;
        Ok(league)
    }

    /// League `id` with its divisions.
    pub async fn league(&self, id: i64) -> Result<LeagueView> {
        let league = store::load_league(&self.db, id)
            .await?
            .ok_or(Error::NoSuchLeague(id))?;
        let mut divisions = store::list_tournaments(&self.db, Some(id), 500).await?;
        divisions.sort_by_key(|s| {
            let d = s.tournament.division;
            (
                std::cmp::Reverse(d.map_or(0, |d| d.season)),
                d.map_or(0, |d| d.division),
            )
        });
        Ok(LeagueView { league, divisions })
    }

    /// The latest leagues.
    pub async fn leagues(&self) -> Result<Vec<League>> {
        store::list_leagues(&self.db, LISTED).await
    }

    /// Adds `user` to league `id`, from its next season.
    pub async fn join_league(&self, user: &AuthUser, id: i64) -> Result<LeagueView> {
        user.require_play()?;
        let view = self.league(id).await?;
        if user.guest {
            return Err(Error::forbidden(
                "guests cannot join leagues: sign up first",
            ));
        }
        if view.league.control.is_correspondence() {
            self.check_correspondence_room(user.player.id, "you")
                .await?;
        }
        store::join_league(&self.db, id, user.player.id, self.now()).await?;
        self.league(id).await
    }

    /// Takes `user` out of league `id` from its next season (they finish
    /// the current one).
    pub async fn leave_league(&self, user: &AuthUser, id: i64) -> Result<LeagueView> {
        user.require_play()?;
        self.league(id).await?;
        if !store::leave_league(&self.db, id, user.player.id, self.now()).await? {
            return Err(Error::conflict(format!("you are not in league {id}")));
        }
        self.league(id).await
    }

    /// Begins league `id`'s first season now, for its organizer.
    pub async fn start_league_now(
        self: &Arc<Self>,
        user: &AuthUser,
        id: i64,
    ) -> Result<LeagueView> {
        user.require_play()?;
        let view = self.league(id).await?;
        if view.league.organizer.id != user.player.id {
            return Err(Error::forbidden("only the organizer can start a league"));
        }
        if view.league.season > 0 {
            return Err(Error::conflict("the league has begun already"));
        }
        let members = view.league.members.iter().filter(|m| m.2.is_none()).count();
        if members < 2 {
            return Err(Error::conflict("a league needs at least two players"));
        }
        self.begin_season(&view.league).await?;
        self.league(id).await
    }

    /// Begins league `id`'s next season if it is due.
    async fn advance_league(self: &Arc<Self>, id: i64) -> Result<()> {
        let view = self.league(id).await?;
        let league = &view.league;
        let due = if league.season == 0 {
            league.starts_at.is_some_and(|at| at <= self.now())
        } else {
            view.divisions.iter().all(|s| {
                s.tournament
                    .division
                    .is_none_or(|d| d.season != league.season)
                    || matches!(
                        s.tournament.status,
                        TournamentStatus::Finished | TournamentStatus::Canceled
                    )
            })
        };
        if due {
            self.begin_season(league).await?;
        }
        Ok(())
    }

    /// Begins the season after `league`'s current one: its divisions by
    /// promotion and relegation from the last, new members at the bottom.
    async fn begin_season(self: &Arc<Self>, league: &League) -> Result<()> {
        let season = league.season + 1;
        let mut last = Vec::new();
        for id in store::season_tournaments(&self.db, league.id, league.season).await? {
            let t = self.tournament(id).await?;
            last.push(
                t.standings()
                    .iter()
                    .map(|s| s.player.id)
                    .collect::<Vec<i64>>(),
            );
        }
        let members: Vec<i64> = league
            .members
            .iter()
            .filter(|m| m.2.is_none())
            .map(|m| m.0.id)
            .collect();
        let mut joining = Vec::new();
        for &id in &members {
            if !last.iter().any(|d| d.contains(&id)) {
                joining.push((id, self.seed_of(id).await?));
            }
        }
        joining.sort_by(|a, b| b.1.total_cmp(&a.1));
        let joining: Vec<i64> = joining.into_iter().map(|j| j.0).collect();
        let divisions = next_divisions(
            &last,
            |p| members.contains(&p),
            &joining,
            league.group_size as usize,
            league.movers as usize,
        );
        if divisions.is_empty() {
            return Ok(());
        }
        let now = self.now();
        let mut planned = Vec::new();
        for (division, players) in (1..).zip(&divisions) {
            let mut seeded = Vec::new();
            for &p in players {
                seeded.push((p, self.seed_of(p).await?));
            }
            let t = Tournament {
                id: 0,
                name: format!("{}, season {season}, division {division}", league.name),
                format: Format::RoundRobin {
                    cycles: league.cycles,
                },
                size: league.size,
                symmetry: league.symmetry,
                control: league.control,
                rated: league.rated,
                organizer: league.organizer.clone(),
                status: TournamentStatus::SignUp,
                starts_at: Some(now),
                max_players: 0,
                round: 0,
                rounds: 0,
                division: Some(Division {
                    league_id: league.id,
                    season,
                    division,
                }),
                created_at: now,
                started_at: None,
                ended_at: None,
                entrants: Vec::new(),
                pairings: Vec::new(),
            };
            planned.push((t, seeded));
        }
        let Some(ids) = store::begin_season(&self.db, league.id, season, &mut planned, now).await?
        else {
            return Ok(());
        };
        for id in ids {
            let t = self.tournament(id).await?;
            Box::pin(self.start_tournament(t)).await?;
        }
        Ok(())
    }
}
