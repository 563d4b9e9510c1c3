//! Plays Epaminondas engines against each other and measures the difference.
//!
//! A match is a series of game pairs: each pair starts from a random,
//! balanced opening of 2 to 6 plies and is played twice with colours
//! swapped. Results are kept as pentanomial counts ([`stats`]), from which
//! come an Elo estimate with its error bar and, when asked for, an SPRT
//! that stops the match as soon as it is decided. Adjudication (a move cap,
//! and resignation on a lopsided score) is off the official rules and is
//! written into each game record.

#![deny(missing_docs)]

pub mod players;
pub mod selfplay;
pub mod stats;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use epaminondas_engine::{Engine, Limits};
use epaminondas_rules::{
    BoardSize, Color, GameRecord, GameResult, Move, Position, Symmetry, Variant,
};

use players::{Clocks, GreedyPlayer, MoveLimit, Player, PlayerError, RandomPlayer, Rng, UgiPlayer};
use stats::{Pentanomial, Sprt, SprtVerdict};

/// What kind of player: a built-in baseline or a UGI engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// Uniformly random legal moves.
    Random,
    /// The best one-ply material and crossing gain.
    Greedy,
    /// A command line that starts a UGI engine (run by `sh -c`).
    Command(String),
}

/// Who plays, under what name, with which engine options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// The player.
    pub kind: PlayerKind,
    /// The name in tables and records; `None` for the engine's own
    /// (`id name`) or the built-in's.
    pub name: Option<String>,
    /// Engine options set before the first game (`setoption`), by name.
    pub options: Vec<(String, String)>,
}

impl PlayerSpec {
    /// A player of `kind` under its own name, with no options.
    pub fn of(kind: PlayerKind) -> PlayerSpec {
        PlayerSpec {
            kind,
            name: None,
            options: Vec::new(),
        }
    }

    /// Reads a player as cutechess-cli and fastchess take one: words
    /// `cmd=COMMAND`, `name=NAME` and `option.NAME=VALUE`, or a plain
    /// `random`, `greedy` or command line (which may be followed by
    /// `name=` and `option.` words too).
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<PlayerSpec, String> {
        let mut command: Option<String> = None;
        let mut name = None;
        let mut options = Vec::new();
        for word in words.iter().map(|w| w.as_ref().trim()) {
            if let Some(value) = word.strip_prefix("cmd=") {
                command = Some(value.to_owned());
            } else if let Some(value) = word.strip_prefix("name=") {
                if value.trim().is_empty() {
                    return Err("name= needs a name".to_owned());
                }
                name = Some(value.trim().to_owned());
            } else if let Some(setting) = word.strip_prefix("option.") {
                let Some((option, value)) = setting.split_once('=') else {
                    return Err(format!("'{word}' is not option.NAME=VALUE"));
                };
                options.push((option.trim().to_owned(), value.trim().to_owned()));
            } else if command.is_none() && !word.is_empty() {
                command = Some(word.to_owned());
            } else {
                return Err(format!(
                    "'{word}': expected cmd=COMMAND, name=NAME or option.NAME=VALUE"
                ));
            }
        }
        let kind = match command.as_deref().map(str::trim) {
            None | Some("") => return Err("an engine needs a command (cmd=...)".to_owned()),
            Some("random") => PlayerKind::Random,
            Some("greedy") => PlayerKind::Greedy,
            Some(command) => PlayerKind::Command(command.to_owned()),
        };
        if !options.is_empty() && !matches!(kind, PlayerKind::Command(_)) {
            return Err("the built-in players random and greedy take no options".to_owned());
        }
        Ok(PlayerSpec {
            kind,
            name,
            options,
        })
    }

    /// The command line, for an engine.
    pub fn command(&self) -> Option<&str> {
        match &self.kind {
            PlayerKind::Command(command) => Some(command),
            _ => None,
        }
    }

    /// The name given, or else the built-in's name or the command line.
    pub fn name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        match &self.kind {
            PlayerKind::Random => "random".to_owned(),
            PlayerKind::Greedy => "greedy".to_owned(),
            PlayerKind::Command(c) => c.clone(),
        }
    }

    /// Starts the player under `name` (engines complete their handshake).
    fn start(&self, name: &str, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match &self.kind {
            PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
            PlayerKind::Greedy => Box::new(GreedyPlayer::new(seed)),
            PlayerKind::Command(command) => {
                Box::new(UgiPlayer::start(name, command, &self.options)?)
            }
        })
    }
}

/// Where a pair of games starts: a position, and moves played from it
/// before the players take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The starting position.
    pub start: Position,
    /// The moves played from it first.
    pub moves: Vec<Move>,
}

/// Reads an opening file: one opening a line, either position text
/// (`bbbb/4/4/wwww w`) or moves from the start of the board in record
/// notation (`1. c2-c3 c7-c6`); blank lines and lines starting with `#`
/// are skipped. Positions take `symmetry` and `variant`; move lines start
/// from the start position of `variant` on `size`. An error names the line.
pub fn read_openings(
    text: &str,
    variant: Variant,
    size: BoardSize,
    symmetry: Symmetry,
) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = if let Ok(pos) = line.parse::<Position>() {
            if pos.is_terminal() {
                return Err(format!("line {}: the game is already over there", i + 1));
            }
            Opening {
                start: pos
                    .with_symmetry(symmetry)
                    .with_variant(variant)
                    .map_err(|e| format!("line {}: {e}", i + 1))?,
                moves: Vec::new(),
            }
        } else {
            let text = format!(
                "[Variant \"{variant}\"]\n[Board \"{size}\"]\n[Symmetry \"{symmetry}\"]\n\n{line}\n"
            );
            let record: GameRecord = text.parse().map_err(|e| {
                format!(
                    "line {}: neither position text nor moves from the start: {e}",
                    i + 1
                )
            })?;
            if record.position().is_terminal() {
                return Err(format!("line {}: the game is already over after it", i + 1));
            }
            Opening {
                start: record.start().clone(),
                moves: record.moves().to_vec(),
            }
        };
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("the file holds no opening".to_owned());
    }
    Ok(openings)
}

/// Resign adjudication: a game ends when both players' own scores agree that
/// one side is at least `score` behind for `moves` moves in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    /// The score (engine units) at which a side is lost.
    pub score: i32,
    /// For how many consecutive moves of each side.
    pub moves: u32,
}

/// Everything a match needs to know.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two players; results are for the first.
    pub players: [PlayerSpec; 2],
    /// Number of game pairs at most.
    pub pairs: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// The budget per move.
    pub limit: MoveLimit,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// The variant played.
    pub variant: Variant,
    /// Seed of the random openings.
    pub seed: u64,
    /// The openings, taken in turn, one per pair; empty for random balanced
    /// openings from the start.
    pub openings: Vec<Opening>,
    /// Adjudicate a draw after this many plies (off the official rules).
    pub max_plies: Option<usize>,
    /// Resign adjudication (off the official rules).
    pub resign: Option<Resign>,
    /// Stop when this test is decided.
    pub sprt: Option<Sprt>,
    /// The `Date` tag of the records (`YYYY.MM.DD`, see
    /// [`epaminondas_rules::pgn_date`]).
    pub date: String,
}

impl MatchConfig {
    /// The `TimeControl` tag: `BASE+INCREMENT` in seconds for game clocks,
    /// `-` (none) for a fixed budget per move, which [`MatchConfig::limit_tag`]
    /// names.
    pub fn time_control_tag(&self) -> String {
        match self.limit {
            MoveLimit::Clock { base, increment } => {
                format!("{}+{}", seconds(base), seconds(increment))
            }
            MoveLimit::Nodes(_) | MoveLimit::MoveTime(_) => "-".to_owned(),
        }
    }

    /// The budget per move in words, for the `Limit` tag and reports.
    pub fn limit_tag(&self) -> String {
        match self.limit {
            MoveLimit::Nodes(n) => format!("{n} nodes a move"),
            MoveLimit::MoveTime(t) => format!("{} ms a move", t.as_millis()),
            MoveLimit::Clock { base, increment } => {
                format!("{} s + {} s a move", seconds(base), seconds(increment))
            }
        }
    }

    /// The start of the match's game (its variant's, on its board).
    pub fn start(&self) -> Position {
        Position::new_variant(self.variant, self.size, self.symmetry)
            .unwrap_or_else(|_| Position::new(self.size, self.symmetry))
    }

    /// The opening of pair `pair`.
    pub fn opening(&self, pair: usize) -> Opening {
        if self.openings.is_empty() {
            Opening {
                start: self.start(),
                moves: opening(self.variant, self.size, self.symmetry, self.seed, pair),
            }
        } else {
            self.openings[pair % self.openings.len()].clone()
        }
    }
}

/// Seconds as PGN writes them: no trailing zeros.
fn seconds(d: Duration) -> String {
    let text = format!("{:.3}", d.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number in the match, from 1 (pair `p` has games `2p+1`
    /// and `2p+2`).
    pub number: usize,
    /// The pair it belongs to.
    pub pair: usize,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// Points for the first player: 1, 0.5 or 0.
    pub first_points: f64,
    /// The record, with the players, result and how the game ended.
    pub record: GameRecord,
}

/// The state of a match, as reported after each game.
#[derive(Clone, Debug, Default)]
pub struct MatchState {
    /// The players' names, the first player's first (engines' own names
    /// unless named on the command line; made distinct when equal).
    pub names: [String; 2],
    /// Games finished.
    pub games: usize,
    /// Wins, draws and losses of the first player.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses of the first player.
    pub losses: usize,
    /// Completed pairs.
    pub pairs: Pentanomial,
    /// The SPRT verdict so far, if an SPRT runs.
    pub verdict: Option<SprtVerdict>,
    /// The SPRT log-likelihood ratio, if an SPRT runs (as of the decision,
    /// once there is one).
    pub llr: Option<f64>,
    /// The number of games after which the SPRT decided.
    pub decided_at: Option<usize>,
    /// Whether the match was interrupted before its end (games under way
    /// then are not counted).
    pub interrupted: bool,
}

/// An engine that failed so that the match could not go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchError {
    /// Which player, counted from 1 as on the command line.
    pub player: usize,
    /// Its name.
    pub name: String,
    /// Its command line.
    pub command: String,
    /// The game it failed in, if a game had begun.
    pub game: Option<usize>,
    /// What went wrong.
    pub error: PlayerError,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let when = match self.game {
            Some(game) => format!("failed in game {game}"),
            None => "could not start".to_owned(),
        };
        write!(
            f,
            "engine {} '{}' (command `{}`) {when}: {}",
            self.player, self.name, self.command, self.error
        )
    }
}

impl std::error::Error for MatchError {}

/// A random legal opening of `plies` plies from the start of `variant` on
/// `size`, one whose quick evaluation is within `balance` of level, for
/// pair `pair` of `seed`. (In Stumbling Blocks the three placements come
/// first, so its openings place the stones at random.)
pub fn opening(
    variant: Variant,
    size: BoardSize,
    symmetry: Symmetry,
    seed: u64,
    pair: usize,
) -> Vec<Move> {
    let start = Position::new_variant(variant, size, symmetry)
        .unwrap_or_else(|_| Position::new(size, symmetry));
    let mut rng = Rng::new(seed ^ (pair as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let mut engine = Engine::new(1);
    let stop = AtomicBool::new(false);
    let mut last = Vec::new();
    for _ in 0..50 {
        let plies = 2 + rng.below(5) + usize::from(start.stones_to_place());
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        if pos.is_terminal() {
            continue;
        }
        let score = engine.search(&pos, &Limits::depth(2), &stop, |_| {}).score;
        last = moves;
        if score.abs() <= 100 {
            break;
        }
    }
    last
}

/// How a game ended for the match.
#[derive(Debug)]
pub enum GameEnd {
    /// Played to a result (including forfeits on time or by illegal moves).
    Finished(Box<GameRecord>),
    /// Stopped by an interruption before its end; it does not count.
    Aborted,
    /// The player of this colour failed (its process died or stopped
    /// answering): the match cannot go on.
    Fault(Color, PlayerError),
}

/// Plays one game between `white` and `black` from `opening`; stops early
/// (as [`GameEnd::Aborted`]) once `interrupt` is set.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    config: &MatchConfig,
    opening: &Opening,
    interrupt: &AtomicBool,
) -> GameEnd {
    let start = opening.start.clone();
    let mut record = GameRecord::new(start.clone());
    let _ = record.set_tag("Event", "epaminondas match");
    let _ = record.set_tag("Date", &config.date);
    let _ = record.set_tag("White", white.name());
    let _ = record.set_tag("Black", black.name());
    let _ = record.set_tag("TimeControl", &config.time_control_tag());
    if !matches!(config.limit, MoveLimit::Clock { .. }) {
        let _ = record.set_tag("Limit", &config.limit_tag());
    }
    let mut adjudication = Vec::new();
    if let Some(cap) = config.max_plies {
        adjudication.push(format!("draw after {cap} plies"));
    }
    if let Some(r) = config.resign {
        adjudication.push(format!("resign at {} for {} moves", r.score, r.moves));
    }
    if !adjudication.is_empty() {
        let _ = record.set_tag("Adjudication", &adjudication.join(", "));
    }
    let _ = record.set_tag("Opening", &opening.moves.len().to_string());
    for &mv in &opening.moves {
        if record.push(mv).is_err() {
            break;
        }
    }
    let (mut clocks, increment): (Clocks, Duration) = match config.limit {
        MoveLimit::Clock { base, increment } => ([base; 2], increment),
        _ => ([Duration::MAX; 2], Duration::ZERO),
    };
    if let Err(e) = white.new_game(&start) {
        return GameEnd::Fault(Color::White, e);
    }
    if let Err(e) = black.new_game(&start) {
        return GameEnd::Fault(Color::Black, e);
    }
    let mut lost_streak = [0u32; 2];
    loop {
        if interrupt.load(Ordering::Relaxed) {
            return GameEnd::Aborted;
        }
        if record.is_drawn_by_repetition() {
            return GameEnd::Finished(Box::new(finish(
                record,
                GameResult::Draw,
                "threefold repetition",
            )));
        }
        if let Some(outcome) = record.position().outcome() {
            let reason = match outcome.reason {
                epaminondas_rules::WinReason::Crossing => "crossing",
                epaminondas_rules::WinReason::NoMoves => "no moves",
            };
            return GameEnd::Finished(Box::new(finish(
                record,
                GameResult::win(outcome.winner),
                reason,
            )));
        }
        if config
            .max_plies
            .is_some_and(|cap| record.moves().len() >= cap)
        {
            return GameEnd::Finished(Box::new(finish(
                record,
                GameResult::Draw,
                "adjudication: move cap",
            )));
        }
        let pos = record.position().clone();
        let turn = pos.turn();
        let player: &mut dyn Player = if turn == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let started = Instant::now();
        let choice = player.choose(&start, record.moves(), &pos, config.limit, clocks);
        let used = started.elapsed();
        let choice = match choice {
            Ok(choice) => choice,
            Err(e) if e.is_fault() => return GameEnd::Fault(turn, e),
            Err(e @ PlayerError::Timeout(_)) => {
                let why = format!("time forfeit: {turn} {e}");
                return GameEnd::Finished(Box::new(finish(record, GameResult::win(!turn), &why)));
            }
            Err(e) => {
                let why = format!("rules infraction: {turn} played an {e}");
                return GameEnd::Finished(Box::new(finish(record, GameResult::win(!turn), &why)));
            }
        };
        if let MoveLimit::Clock { .. } = config.limit {
            let left = &mut clocks[turn.index()];
            if used > *left {
                let why = format!("time forfeit: {turn} ran out of time");
                return GameEnd::Finished(Box::new(finish(record, GameResult::win(!turn), &why)));
            }
            *left = *left - used + increment;
        }
        if let (Some(resign), Some(score)) = (config.resign, choice.score) {
            let streak = &mut lost_streak[turn.index()];
            *streak = if score <= -resign.score {
                *streak + 1
            } else {
                0
            };
            if *streak >= resign.moves {
                let why = format!("adjudication: {turn} resigns");
                return GameEnd::Finished(Box::new(finish(record, GameResult::win(!turn), &why)));
            }
        }
        if let Err(e) = record.push(choice.mv) {
            let why = format!("rules infraction: {turn} played an illegal move ({e})");
            return GameEnd::Finished(Box::new(finish(record, GameResult::win(!turn), &why)));
        }
    }
}

/// Sets the result and the `Termination` and `PlyCount` tags.
fn finish(mut record: GameRecord, result: GameResult, reason: &str) -> GameRecord {
    if record.position().outcome().is_none() {
        let _ = record.set_result(result);
    }
    let _ = record.set_tag("Termination", reason);
    let _ = record.set_tag("PlyCount", &record.moves().len().to_string());
    record
}

/// The players' names: as given, else the engine's own, made distinct
/// when both are the same. Starts each player once (engines complete their
/// handshake), so that an engine that cannot start stops the match before
/// any game.
fn player_names(config: &MatchConfig) -> Result<[String; 2], MatchError> {
    let mut names = [String::new(), String::new()];
    for (i, spec) in config.players.iter().enumerate() {
        let fault = |error| MatchError {
            player: i + 1,
            name: spec.name(),
            command: spec.command().unwrap_or_default().to_owned(),
            game: None,
            error,
        };
        names[i] = match (&spec.name, &spec.kind) {
            (Some(name), _) => name.clone(),
            (None, PlayerKind::Command(command)) => {
                let engine = UgiPlayer::start(command, command, &spec.options).map_err(fault)?;
                engine.id_name().unwrap_or(command).to_owned()
            }
            (None, _) => spec.name(),
        };
        if spec.name.is_some() {
            drop(spec.start(&names[i], 0).map_err(fault)?);
        }
    }
    if names[0] == names[1] {
        names[0] += " (1)";
        names[1] += " (2)";
    }
    Ok(names)
}

/// What a worker sends back: a finished game, or an engine fault.
enum Outcome {
    Game(Box<GameReport>),
    Fault(MatchError),
}

/// Runs a match, calling `on_game` after every game with the game and the
/// state so far. Once `interrupt` is set no new game starts and the games
/// under way are dropped; the state then says `interrupted`. An engine
/// that cannot start, dies or stops answering ends the match with its
/// error.
pub fn run_match(
    config: &MatchConfig,
    interrupt: &AtomicBool,
    mut on_game: impl FnMut(&GameReport, &MatchState),
) -> Result<MatchState, MatchError> {
    let names = player_names(config)?;
    let next_pair = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, reports) = channel::<Outcome>();
    let mut state = MatchState {
        names: names.clone(),
        ..MatchState::default()
    };
    let mut fault = None;
    std::thread::scope(|scope| {
        for worker in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (next_pair, stop, names) = (&next_pair, &stop, &names);
            scope.spawn(move || {
                let seed = config.seed ^ worker as u64;
                let mut players = Vec::with_capacity(2);
                for (i, spec) in config.players.iter().enumerate() {
                    match spec.start(&names[i], seed + i as u64) {
                        Ok(player) => players.push(player),
                        Err(error) => {
                            let _ = sender.send(Outcome::Fault(MatchError {
                                player: i + 1,
                                name: names[i].clone(),
                                command: spec.command().unwrap_or_default().to_owned(),
                                game: None,
                                error,
                            }));
                            return;
                        }
                    }
                }
                let [first, second] = &mut players[..] else {
                    return;
                };
                loop {
                    let pair = next_pair.fetch_add(1, Ordering::Relaxed);
                    let halt = stop.load(Ordering::Relaxed) || interrupt.load(Ordering::Relaxed);
                    if pair >= config.pairs || halt {
                        return;
                    }
                    let opening = config.opening(pair);
                    for (k, first_is_white) in [true, false].into_iter().enumerate() {
                        let number = 2 * pair + k + 1;
                        let end = if first_is_white {
                            play_game(&mut **first, &mut **second, config, &opening, interrupt)
                        } else {
                            play_game(&mut **second, &mut **first, config, &opening, interrupt)
                        };
                        let record = match end {
                            GameEnd::Finished(record) => *record,
                            GameEnd::Aborted => return,
                            GameEnd::Fault(color, error) => {
                                let player = if (color == Color::White) == first_is_white {
                                    0
                                } else {
                                    1
                                };
                                let spec = &config.players[player];
                                let _ = sender.send(Outcome::Fault(MatchError {
                                    player: player + 1,
                                    name: names[player].clone(),
                                    command: spec.command().unwrap_or_default().to_owned(),
                                    game: Some(number),
                                    error,
                                }));
                                return;
                            }
                        };
                        let first_points = match (record.result(), first_is_white) {
                            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
                            (GameResult::Draw, _) | (GameResult::Unfinished, _) => 0.5,
                            _ => 0.0,
                        };
                        let report = GameReport {
                            number,
                            pair,
                            first_is_white,
                            first_points,
                            record,
                        };
                        if sender.send(Outcome::Game(Box::new(report))).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(sender);
        let mut halves: std::collections::HashMap<usize, f64> = std::collections::HashMap::new();
        for outcome in reports {
            let report = match outcome {
                Outcome::Game(report) => report,
                Outcome::Fault(error) => {
                    // The first fault ends the match; the other workers stop
                    // after their game.
                    stop.store(true, Ordering::Relaxed);
                    fault.get_or_insert(error);
                    continue;
                }
            };
            if fault.is_some() {
                continue;
            }
            state.games += 1;
            match report.first_points {
                p if p >= 1.0 => state.wins += 1,
                p if p <= 0.0 => state.losses += 1,
                _ => state.draws += 1,
            }
            if let Some(other) = halves.remove(&report.pair) {
                state.pairs.add(other + report.first_points);
            } else {
                halves.insert(report.pair, report.first_points);
            }
            // The verdict is taken once; games still under way when it
            // came are counted but do not reopen it.
            let decided = state.decided_at.is_some();
            if let (Some(sprt), false) = (config.sprt, decided) {
                let verdict = sprt.verdict(&state.pairs);
                state.llr = Some(state.pairs.llr(&sprt));
                state.verdict = Some(verdict);
                if verdict != SprtVerdict::Continue {
                    state.decided_at = Some(state.games);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            on_game(&report, &state);
        }
    });
    if let Some(error) = fault {
        return Err(error);
    }
    state.interrupted = interrupt.load(Ordering::Relaxed);
    Ok(state)
}
