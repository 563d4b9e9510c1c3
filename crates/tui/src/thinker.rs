//! The engine, thinking on a thread of its own so that the screen stays
//! live: a search is started, polled for its move, or cancelled.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use epaminondas_engine::book::{Book, BookRandom};
use epaminondas_engine::{Engine, Level, Limits};
use epaminondas_rules::{Move, Position};

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's own move in the game.
    Reply,
    /// A suggestion for the player.
    Hint,
}

/// Time per move at full strength (level 10); lower levels are limited by
/// nodes and finish far sooner.
const FULL_STRENGTH_TIME: Duration = Duration::from_millis(1500);

/// A move of the built-in opening book for `pos`, chosen at random by the
/// book's weights, with the score the book gives it.
fn book_move(pos: &Position) -> Option<(Move, i32)> {
    let book = Book::embedded(pos)?;
    let mv = book.choose(pos, BookRandom::from_time().next_u64())?;
    let score = book.moves(pos)?.iter().find(|m| m.mv == mv)?.score;
    Some((mv, score))
}

/// A search under way.
struct Job {
    purpose: Purpose,
    /// The number of moves in the game when the search started, so that a
    /// result for a position since taken back is recognised.
    ply: usize,
    stop: Arc<AtomicBool>,
    result: Receiver<(Option<Move>, i32)>,
    started: Instant,
}

/// The engine and at most one search.
pub struct Thinker {
    engine: Arc<Mutex<Engine>>,
    job: Option<Job>,
}

/// A finished search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    /// What it was for.
    pub purpose: Purpose,
    /// The number of moves in the game when it started.
    pub ply: usize,
    /// The move found (`None` only without a legal move).
    pub best: Option<Move>,
    /// The search's score for the side to move (see
    /// [`epaminondas_engine::score`]).
    pub score: i32,
}

impl Thinker {
    /// An idle engine with a small transposition table.
    pub fn new() -> Thinker {
        Thinker {
            engine: Arc::new(Mutex::new(Engine::new(32))),
            job: None,
        }
    }

    /// Starts searching `pos` at `level` (cancelling any search under way).
    pub fn start(&mut self, pos: &Position, level: Level, purpose: Purpose, ply: usize) {
        self.cancel();
        let limits = Limits {
            nodes: level.node_cap(),
            movetime: Some(FULL_STRENGTH_TIME),
            ..Limits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let (send, result) = channel();
        let (engine, flag, pos) = (Arc::clone(&self.engine), Arc::clone(&stop), pos.clone());
        std::thread::spawn(move || {
            // The engine's own move comes from the opening book while the
            // position is in it; a hint is always searched.
            if purpose == Purpose::Reply
                && let Some((mv, score)) = book_move(&pos)
            {
                let _ = send.send((level.choose(&pos, Some(mv)), score));
                return;
            }
            let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
            let found = engine.search(&pos, &limits, &flag, |_| {});
            drop(engine);
            // The receiver is gone when the search was cancelled.
            let _ = send.send((level.choose(&pos, found.best), found.score));
        });
        self.job = Some(Job {
            purpose,
            ply,
            stop,
            result,
            started: Instant::now(),
        });
    }

    /// The search under way: what for, and for how long it has run.
    pub fn busy(&self) -> Option<(Purpose, Duration)> {
        self.job
            .as_ref()
            .map(|job| (job.purpose, job.started.elapsed()))
    }

    /// The finished search's result, if the search under way has finished.
    pub fn poll(&mut self) -> Option<Thought> {
        let job = self.job.as_ref()?;
        let (best, score) = match job.result.try_recv() {
            Ok(found) => found,
            Err(TryRecvError::Empty) => return None,
            // The thread ended without a word: treat it as no move found.
            Err(TryRecvError::Disconnected) => (None, 0),
        };
        let thought = Thought {
            purpose: job.purpose,
            ply: job.ply,
            best,
            score,
        };
        self.job = None;
        Some(thought)
    }

    /// Waits for the search under way (for tests and scripts), at most `limit`.
    pub fn wait(&mut self, limit: Duration) -> Option<Thought> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            self.job.as_ref()?;
            if let Some(thought) = self.poll() {
                return Some(thought);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }

    /// Stops the search under way and forgets it.
    pub fn cancel(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl Default for Thinker {
    fn default() -> Self {
        Thinker::new()
    }
}

impl Drop for Thinker {
    fn drop(&mut self) {
        self.cancel();
    }
}
