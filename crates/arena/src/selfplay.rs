//! Self-play for training data: the engine plays itself from random
//! balanced openings, and every quiet position of each game is kept with
//! the search's score and the game's result, in the binary layout of
//! [`epaminondas_engine::nnue::data`].

use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use epaminondas_engine::nnue::EvalKind;
use epaminondas_engine::nnue::data::TrainingRecord;
use epaminondas_engine::score::is_proven;
use epaminondas_engine::{Engine, Limits};
use epaminondas_rules::{BoardSize, Position, Variant};

use crate::opening;

/// How self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The variant played.
    pub variant: Variant,
    /// The board.
    pub size: BoardSize,
    /// Games to play.
    pub games: usize,
    /// Nodes searched for each move (fixed nodes: each game is the same
    /// for the same seed, whatever the machine's speed).
    pub nodes: u64,
    /// Games played at once, one thread each.
    pub threads: usize,
    /// Chooses the openings: the same seed gives the same games.
    pub seed: u64,
    /// A game still going after this many plies ends unfinished.
    pub max_plies: usize,
    /// The evaluation the engine plays with.
    pub eval: EvalKind,
}

/// How far a self-play run has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfplayProgress {
    /// Games finished (won by a side or stopped at the ply limit).
    pub games: usize,
    /// Of those, games stopped at the ply limit.
    pub unfinished: usize,
    /// Positions written.
    pub positions: usize,
    /// Plies played in all.
    pub plies: usize,
}

/// Plays one game from the opening of game `index` and returns its
/// training records, how many plies it lasted, and whether it reached the
/// ply limit unfinished.
fn play_one(
    config: &SelfplayConfig,
    engine: &mut Engine,
    index: usize,
) -> (Vec<TrainingRecord>, usize, bool) {
    let symmetry = Position::standard().symmetry();
    let mut pos = Position::new_variant(config.variant, config.size, symmetry)
        .unwrap_or_else(|_| Position::new(config.size, symmetry));
    for mv in opening(config.variant, config.size, symmetry, config.seed, index) {
        pos.play_unchecked(mv);
    }
    engine.clear();
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(config.nodes);
    // (position, score) of each quiet position, before the result is known.
    let mut kept: Vec<(Position, i32)> = Vec::new();
    let mut plies = 0;
    let winner = loop {
        if let Some(outcome) = pos.outcome() {
            break Some(outcome.winner);
        }
        if plies >= config.max_plies {
            break None;
        }
        let result = engine.search(&pos, &limits, &stop, |_| {});
        let Some(best) = result.best else {
            break None;
        };
        // Positions where tactics decide say little about the evaluation:
        // in check, with a capture as the best move, or with a proven score.
        if !pos.in_check() && !best.is_capture() && !is_proven(result.score) {
            kept.push((pos.clone(), result.score));
        }
        pos.play_unchecked(best);
        plies += 1;
    };
    let records = kept
        .iter()
        .map(|(pos, score)| {
            let result = match winner {
                None => 1,
                Some(color) if color == pos.turn() => 2,
                Some(_) => 0,
            };
            TrainingRecord::new(pos, *score, result)
        })
        .collect();
    (records, plies, winner.is_none())
}

/// Plays `config.games` self-play games on `config.threads` threads,
/// writing each game's records to `out` as soon as it ends (so a stopped
/// run keeps its finished games), until done or `interrupt` is set.
/// `progress` is called after each game.
pub fn run_selfplay(
    config: &SelfplayConfig,
    out: &mut (dyn Write + Send),
    interrupt: &AtomicBool,
    progress: &(dyn Fn(&SelfplayProgress) + Sync),
) -> io::Result<SelfplayProgress> {
    let next = AtomicUsize::new(0);
    let state = Mutex::new((out, SelfplayProgress::default(), None::<io::Error>));
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                let mut engine = Engine::new(16);
                engine.set_eval(config.eval);
                let mut bytes = Vec::new();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games || interrupt.load(Ordering::Relaxed) {
                        break;
                    }
                    let (records, plies, unfinished) = play_one(config, &mut engine, index);
                    bytes.clear();
                    for record in &records {
                        record.write_to(&mut bytes);
                    }
                    let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
                    let (out, done, error) = &mut *guard;
                    if error.is_some() {
                        break;
                    }
                    if let Err(e) = out.write_all(&bytes) {
                        *error = Some(e);
                        interrupt.store(true, Ordering::Relaxed);
                        break;
                    }
                    done.games += 1;
                    done.unfinished += usize::from(unfinished);
                    done.positions += records.len();
                    done.plies += plies;
                    progress(done);
                }
            });
        }
    });
    let (out, done, error) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    match error {
        Some(e) => Err(e),
        None => out.flush().map(|()| done),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_engine::nnue::data::{DataHeader, TrainingData};

    #[test]
    fn selfplay_writes_labelled_positions_of_finished_games() {
        let size = BoardSize::new(6, 6).unwrap();
        let config = SelfplayConfig {
            variant: Variant::Epaminondas,
            size,
            games: 4,
            nodes: 300,
            threads: 2,
            seed: 7,
            max_plies: 200,
            eval: EvalKind::Linear,
        };
        let header = DataHeader::new(size, Variant::Epaminondas);
        let mut file = header.to_bytes().to_vec();
        let calls = AtomicUsize::new(0);
        let done = run_selfplay(&config, &mut file, &AtomicBool::new(false), &|_| {
            calls.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(done.games, 4);
        assert_eq!(calls.load(Ordering::Relaxed), 4);
        let data = TrainingData::parse(file).unwrap();
        assert_eq!(data.len(), done.positions);
        assert!(done.positions > 4, "{done:?}");
        // Each position is a legal one's, and finished games label both
        // sides: some positions won, some lost.
        let mut results = [0; 3];
        for i in 0..data.len() {
            let record = data.record(i).unwrap();
            results[usize::from(record.result)] += 1;
            let white = record
                .squares(epaminondas_rules::Color::White, size)
                .count();
            assert!((1..=12).contains(&white));
        }
        assert!(results[0] > 0 && results[2] > 0, "{results:?}");
    }

    #[test]
    fn an_interrupted_run_plays_no_more_games() {
        let config = SelfplayConfig {
            variant: Variant::Epaminondas,
            size: BoardSize::new(6, 6).unwrap(),
            games: 100,
            nodes: 100,
            threads: 1,
            seed: 1,
            max_plies: 50,
            eval: EvalKind::Linear,
        };
        let mut out = Vec::new();
        let done = run_selfplay(&config, &mut out, &AtomicBool::new(true), &|_| {}).unwrap();
        assert_eq!(done.games, 0);
        assert!(out.is_empty());
    }
}
