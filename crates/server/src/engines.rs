//! The engine workers that play the computer's moves and analyse positions.
//!
//! At most `workers` searches run at once, so that however many games
//! against the computer run, searches never take more than their share of
//! the CPU. Games against the computer come first: an analysis may use at
//! most `analysis_slots` of the workers, starts only when no game is
//! waiting, and is stopped (ending with the best move found so far) the
//! moment a game needs its worker. So a game's move never waits behind an
//! analysis, however many analyses are asked for.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use epaminondas_engine::book::{Book, BookRandom};
use epaminondas_engine::review::{Line, search_lines};
use epaminondas_engine::{Engine, Level, Limits, SearchResult};
use epaminondas_rules::{Move, Position};
use tokio::sync::{Notify, mpsc};

/// Transposition-table size per worker, in MiB.
const HASH_MB: usize = 16;

/// One completed iteration of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The depth in plies.
    pub depth: u32,
    /// The score for the side to move (see [`epaminondas_engine::score`]).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The best line.
    pub pv: Vec<Move>,
}

/// How an analysis ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Analysed {
    /// It used its time, or stopped because its client went away.
    Done(SearchResult),
    /// A game against the computer needed the worker: the search stopped
    /// early with what it had found.
    Preempted(SearchResult),
    /// The search could not run (the worker failed).
    Failed,
}

struct PoolState {
    games_running: usize,
    games_waiting: usize,
    /// The stop flags of the running analyses, oldest first.
    analyses: Vec<Arc<AtomicBool>>,
    idle: Vec<Engine>,
}

struct Shared {
    state: Mutex<PoolState>,
    changed: Notify,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The pool of engine workers.
pub struct EnginePool {
    shared: Arc<Shared>,
    workers: usize,
    analysis_slots: usize,
    full_strength_time: Duration,
}

/// A worker held for a game's move; given back when dropped.
struct GameSlot(Arc<Shared>);

impl Drop for GameSlot {
    fn drop(&mut self) {
        self.0.lock().games_running -= 1;
        self.0.changed.notify_waiters();
    }
}

/// Counts a game as waiting until it gets a worker (or gives up).
struct Waiting<'a>(&'a Shared);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.lock().games_waiting -= 1;
    }
}

/// A worker held for an analysis; given back when dropped.
pub struct AnalysisSlot {
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
}

impl Drop for AnalysisSlot {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.analyses.retain(|flag| !Arc::ptr_eq(flag, &self.stop));
        drop(state);
        self.shared.changed.notify_waiters();
    }
}

impl EnginePool {
    /// A pool of `workers` searches at once, of which at most
    /// `analysis_slots` may be analyses; level 10 thinks for
    /// `full_strength_time` per move, lower levels are limited by nodes.
    pub fn new(workers: usize, analysis_slots: usize, full_strength_time: Duration) -> EnginePool {
        let workers = workers.max(1);
        // The built-in opening books are read once per process (a tenth of
        // a second): on a thread of their own, not on the first game's.
        std::thread::spawn(|| Book::embedded(&Position::standard()));
        EnginePool {
            shared: Arc::new(Shared {
                state: Mutex::new(PoolState {
                    games_running: 0,
                    games_waiting: 0,
                    analyses: Vec::new(),
                    idle: Vec::new(),
                }),
                changed: Notify::new(),
            }),
            workers,
            analysis_slots: analysis_slots.clamp(1, workers),
            full_strength_time,
        }
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.shared.lock()
    }

    /// Waits for a worker for a game, stopping analyses to free one.
    async fn game_slot(&self) -> GameSlot {
        self.lock().games_waiting += 1;
        let _waiting = Waiting(&self.shared);
        loop {
            let notified = self.shared.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut state = self.lock();
                if state.games_running + state.analyses.len() < self.workers {
                    state.games_running += 1;
                    return GameSlot(self.shared.clone());
                }
                // Leave the analyses only the workers no game wants.
                let keep = self
                    .workers
                    .saturating_sub(state.games_running + state.games_waiting);
                for flag in state.analyses.iter().skip(keep) {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            notified.await;
        }
    }

    /// A worker for an analysis, if one is free within `wait` (and no game
    /// is waiting for one).
    pub async fn analysis_slot(&self, wait: Duration) -> Option<AnalysisSlot> {
        let give_up = tokio::time::Instant::now() + wait;
        loop {
            let notified = self.shared.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut state = self.lock();
                if state.games_waiting == 0
                    && state.analyses.len() < self.analysis_slots
                    && state.games_running + state.analyses.len() < self.workers
                {
                    let stop = Arc::new(AtomicBool::new(false));
                    state.analyses.push(stop.clone());
                    return Some(AnalysisSlot {
                        shared: self.shared.clone(),
                        stop,
                    });
                }
            }
            if tokio::time::timeout_at(give_up, notified).await.is_err() {
                return None;
            }
        }
    }

    /// Runs `work` with an engine of the pool on a blocking thread. `None`
    /// if the work panicked.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<T> {
        let engine = self
            .lock()
            .idle
            .pop()
            .unwrap_or_else(|| Engine::new(HASH_MB));
        let (engine, out) = tokio::task::spawn_blocking(move || {
            let mut engine = engine;
            let out = work(&mut engine);
            (engine, out)
        })
        .await
        .ok()?;
        self.lock().idle.push(engine);
        Some(out)
    }

    /// The move the engine plays in `pos` at `level` (`None` without a
    /// legal move): from the opening book while the position is in it (no
    /// search, no worker), else searched. Never waits behind an analysis.
    pub async fn choose(&self, pos: Position, level: Level) -> Option<Move> {
        let from_book = Book::embedded(&pos)
            .and_then(|book| book.choose(&pos, BookRandom::from_time().next_u64()));
        if let Some(mv) = from_book {
            return level.choose(&pos, Some(mv));
        }
        let _slot = self.game_slot().await;
        let limits = Limits {
            nodes: level.node_cap(),
            movetime: Some(self.full_strength_time),
            ..Limits::default()
        };
        self.run(move |engine| {
            let found = engine.search(&pos, &limits, &AtomicBool::new(false), |_| {});
            level.choose(&pos, found.best)
        })
        .await
        .flatten()
    }

    /// Searches `pos` at full strength for `time` on the worker `slot`
    /// holds, sending each completed iteration to `progress`. Stops early
    /// once `progress` is closed (the client went away) or a game needs the
    /// worker.
    pub async fn analyse(
        &self,
        slot: AnalysisSlot,
        pos: Position,
        time: Duration,
        progress: mpsc::UnboundedSender<Iteration>,
    ) -> Analysed {
        let limits = Limits::movetime(time);
        let stop = slot.stop.clone();
        let preempted = slot.stop.clone();
        let found = self
            .run(move |engine| {
                engine.search(&pos, &limits, &stop, |info| {
                    let iteration = Iteration {
                        depth: info.depth,
                        score: info.score,
                        nodes: info.nodes,
                        elapsed: info.elapsed,
                        pv: info.pv.to_vec(),
                    };
                    if progress.send(iteration).is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                })
            })
            .await;
        drop(slot);
        match found {
            // The flag is also set when the client went away, but then
            // nobody reads the answer.
            Some(found) if preempted.load(Ordering::Relaxed) => Analysed::Preempted(found),
            Some(found) => Analysed::Done(found),
            None => Analysed::Failed,
        }
    }

    /// The best lines of `pos` (one, at full strength, for `time`) for a
    /// game's review, on the worker `slot` holds. `None` if a game needed
    /// the worker first (the search stopped early, so the position is to be
    /// searched again) or the worker failed.
    pub async fn review_lines(
        &self,
        slot: AnalysisSlot,
        pos: Position,
        time: Duration,
    ) -> Option<Vec<Line>> {
        let limits = Limits::movetime(time);
        let stop = slot.stop.clone();
        let lines = self
            .run(move |engine| search_lines(engine, &pos, &limits, 1, &stop))
            .await;
        let preempted = slot.stop.load(Ordering::Relaxed);
        drop(slot);
        lines.filter(|_| !preempted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// A standard position the opening book does not hold, so that the
    /// engine must search it.
    fn out_of_book() -> Position {
        let mut pos = Position::standard();
        let book = Book::embedded(&pos).expect("a built-in book for 14x12");
        let mv = *pos.legal_moves().last().unwrap();
        pos.play(mv).unwrap();
        assert!(!book.contains(&pos), "{mv} is in the book");
        pos
    }

    /// A book position's move needs no worker: it is answered while the
    /// only worker is held by a game.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn book_moves_need_no_worker() {
        let pool = Arc::new(EnginePool::new(1, 1, Duration::from_millis(100)));
        let _held = pool.game_slot().await;
        let start = Position::standard();
        let book = Book::embedded(&start).unwrap().moves(&start).unwrap();
        let mv = tokio::time::timeout(Duration::from_secs(5), pool.choose(start, Level::MAX))
            .await
            .expect("answered without a worker")
            .unwrap();
        assert!(book.iter().any(|m| m.mv == mv), "{mv} is a book move");
    }

    /// A game's move does not wait for a long analysis on the only worker:
    /// the analysis is stopped and says so.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_preempts_an_analysis() {
        let pool = Arc::new(EnginePool::new(1, 1, Duration::from_millis(100)));
        let slot = pool
            .analysis_slot(Duration::ZERO)
            .await
            .expect("a free worker");
        assert!(
            pool.analysis_slot(Duration::from_millis(50))
                .await
                .is_none(),
            "one analysis at a time here"
        );
        let (tx, _rx) = mpsc::unbounded_channel();
        let analysis = {
            let pool = pool.clone();
            tokio::spawn(async move {
                let started = Instant::now();
                let end = pool
                    .analyse(slot, Position::standard(), Duration::from_secs(30), tx)
                    .await;
                (end, started.elapsed())
            })
        };
        tokio::time::sleep(Duration::from_millis(200)).await;
        let started = Instant::now();
        let level = Level::new(1).unwrap();
        assert!(pool.choose(out_of_book(), level).await.is_some());
        assert!(started.elapsed() < Duration::from_secs(10));
        let (end, took) = analysis.await.unwrap();
        assert!(matches!(end, Analysed::Preempted(_)), "{end:?}");
        assert!(took < Duration::from_secs(20), "stopped early: {took:?}");
    }

    /// A game's review gives way the same way: the interrupted search
    /// reports nothing (so that its position is searched again), and the
    /// game's move does not wait.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_preempts_a_game_review() {
        let pool = Arc::new(EnginePool::new(1, 1, Duration::from_millis(100)));
        let slot = pool
            .analysis_slot(Duration::ZERO)
            .await
            .expect("a free worker");
        let review = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.review_lines(slot, Position::standard(), Duration::from_secs(30))
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(200)).await;
        let started = Instant::now();
        let level = Level::new(1).unwrap();
        assert!(pool.choose(out_of_book(), level).await.is_some());
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(review.await.unwrap(), None, "searched again later");
        // Uninterrupted, it gives the best line.
        let slot = pool.analysis_slot(Duration::ZERO).await.expect("free");
        let lines = pool
            .review_lines(slot, Position::standard(), Duration::from_millis(50))
            .await
            .expect("lines");
        assert!(!lines.is_empty() && !lines[0].pv.is_empty());
    }
}
