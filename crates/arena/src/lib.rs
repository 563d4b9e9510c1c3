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
pub mod stats;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use epaminondas_engine::{Engine, Limits};
use epaminondas_rules::{BoardSize, Color, GameRecord, GameResult, Move, Position, Symmetry};

use players::{Clocks, GreedyPlayer, MoveLimit, Player, PlayerError, RandomPlayer, Rng, UgiPlayer};
use stats::{Pentanomial, Sprt, SprtVerdict};

/// Who plays: a built-in baseline or a UGI engine command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The best one-ply material and crossing gain.
    Greedy,
    /// A command line that starts a UGI engine (run by `sh -c`).
    Command(String),
}

impl PlayerSpec {
    /// Reads `random`, `greedy`, or anything else as a command line.
    pub fn parse(text: &str) -> PlayerSpec {
        match text.trim() {
            "random" => PlayerSpec::Random,
            "greedy" => PlayerSpec::Greedy,
            command => PlayerSpec::Command(command.to_owned()),
        }
    }

    /// The name used in tables and records.
    pub fn name(&self) -> String {
        match self {
            PlayerSpec::Random => "random".to_owned(),
            PlayerSpec::Greedy => "greedy".to_owned(),
            PlayerSpec::Command(c) => c.clone(),
        }
    }

    fn start(&self, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Greedy => Box::new(GreedyPlayer::new(seed)),
            PlayerSpec::Command(command) => Box::new(UgiPlayer::start(&self.name(), command)?),
        })
    }
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
    /// Seed of the openings.
    pub seed: u64,
    /// Adjudicate a draw after this many plies (off the official rules).
    pub max_plies: Option<usize>,
    /// Resign adjudication (off the official rules).
    pub resign: Option<Resign>,
    /// Stop when this test is decided.
    pub sprt: Option<Sprt>,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
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
}

/// A random legal opening of `plies` plies from the start, one whose quick
/// evaluation is within `balance` of level, for pair `pair` of `seed`.
pub fn opening(size: BoardSize, symmetry: Symmetry, seed: u64, pair: usize) -> Vec<Move> {
    let mut rng = Rng::new(seed ^ (pair as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let mut engine = Engine::new(1);
    let stop = AtomicBool::new(false);
    let mut last = Vec::new();
    for _ in 0..50 {
        let plies = 2 + rng.below(5);
        let mut pos = Position::new(size, symmetry);
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

/// Plays one game between `white` and `black` after the `opening` moves.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    config: &MatchConfig,
    opening: &[Move],
) -> GameRecord {
    let start = Position::new(config.size, config.symmetry);
    let mut record = GameRecord::new(start.clone());
    let _ = record.set_tag("White", white.name());
    let _ = record.set_tag("Black", black.name());
    let _ = record.set_tag("Event", "epaminondas match");
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
    let _ = record.set_tag("Opening", &opening.len().to_string());
    for &mv in opening {
        if record.push(mv).is_err() {
            break;
        }
    }
    let (mut clocks, increment): (Clocks, Duration) = match config.limit {
        MoveLimit::Clock { base, increment } => ([base; 2], increment),
        _ => ([Duration::MAX; 2], Duration::ZERO),
    };
    if let Err(e) = white.new_game(&start) {
        return finish(
            record,
            GameResult::BlackWins,
            &format!("white forfeits: {e}"),
        );
    }
    if let Err(e) = black.new_game(&start) {
        return finish(
            record,
            GameResult::WhiteWins,
            &format!("black forfeits: {e}"),
        );
    }
    let mut lost_streak = [0u32; 2];
    loop {
        if let Some(outcome) = record.position().outcome() {
            let reason = match outcome.reason {
                epaminondas_rules::WinReason::Crossing => "crossing",
                epaminondas_rules::WinReason::NoMoves => "no moves",
            };
            return finish(record, GameResult::win(outcome.winner), reason);
        }
        if config
            .max_plies
            .is_some_and(|cap| record.moves().len() >= cap)
        {
            return finish(record, GameResult::Draw, "adjudicated: move cap");
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
            Err(e) => {
                return finish(
                    record,
                    GameResult::win(!turn),
                    &format!("{turn} forfeits: {e}"),
                );
            }
        };
        if let MoveLimit::Clock { .. } = config.limit {
            let left = &mut clocks[turn.index()];
            if used > *left {
                return finish(
                    record,
                    GameResult::win(!turn),
                    &format!("{turn} lost on time"),
                );
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
                return finish(
                    record,
                    GameResult::win(!turn),
                    &format!("adjudicated: {turn} resigns"),
                );
            }
        }
        if let Err(e) = record.push(choice.mv) {
            return finish(
                record,
                GameResult::win(!turn),
                &format!("{turn} forfeits: {e}"),
            );
        }
    }
}

/// Sets the result and the `Termination` tag.
fn finish(mut record: GameRecord, result: GameResult, reason: &str) -> GameRecord {
    if record.position().outcome().is_none() {
        let _ = record.set_result(result);
    }
    let _ = record.set_tag("Termination", reason);
    record
}

/// Runs a match, calling `on_game` after every game with the game and the
/// state so far. Returns the final state.
pub fn run_match(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameReport, &MatchState),
) -> Result<MatchState, PlayerError> {
    // Fail early if an engine cannot start.
    for spec in &config.players {
        drop(spec.start(0)?);
    }
    let next_pair = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, reports) = channel::<GameReport>();
    let mut state = MatchState::default();
    std::thread::scope(|scope| {
        for worker in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (next_pair, stop) = (&next_pair, &stop);
            scope.spawn(move || {
                let seed = config.seed ^ worker as u64;
                let (Ok(mut first), Ok(mut second)) = (
                    config.players[0].start(seed),
                    config.players[1].start(seed + 1),
                ) else {
                    return;
                };
                loop {
                    let pair = next_pair.fetch_add(1, Ordering::Relaxed);
                    if pair >= config.pairs || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let moves = opening(config.size, config.symmetry, config.seed, pair);
                    for first_is_white in [true, false] {
                        let record = if first_is_white {
                            play_game(&mut *first, &mut *second, config, &moves)
                        } else {
                            play_game(&mut *second, &mut *first, config, &moves)
                        };
                        let first_points = match (record.result(), first_is_white) {
                            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
                            (GameResult::Draw, _) | (GameResult::Unfinished, _) => 0.5,
                            _ => 0.0,
                        };
                        let report = GameReport {
                            pair,
                            first_is_white,
                            first_points,
                            record,
                        };
                        if sender.send(report).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(sender);
        let mut halves: std::collections::HashMap<usize, f64> = std::collections::HashMap::new();
        for report in reports {
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
    Ok(state)
}
