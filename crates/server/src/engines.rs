//! The engine workers that play the computer's moves: a bounded pool, so
//! that however many games against the computer run, searches never take
//! more than their share of the CPU and requests stay fast.

use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use epaminondas_engine::{Engine, Level, Limits};
use epaminondas_rules::{Move, Position};
use tokio::sync::Semaphore;

/// Transposition-table size per worker, in MiB.
const HASH_MB: usize = 16;

/// Searches at most `workers` positions at once; the rest wait their turn.
pub struct EnginePool {
    permits: Semaphore,
    idle: Mutex<Vec<Engine>>,
    full_strength_time: Duration,
}

impl EnginePool {
    /// A pool of `workers` searches at once; level 10 thinks for
    /// `full_strength_time` per move, lower levels are limited by nodes.
    pub fn new(workers: usize, full_strength_time: Duration) -> EnginePool {
        EnginePool {
            permits: Semaphore::new(workers.max(1)),
            idle: Mutex::new(Vec::new()),
            full_strength_time,
        }
    }

    /// The move the engine plays in `pos` at `level` (`None` without a
    /// legal move).
    pub async fn choose(&self, pos: Position, level: Level) -> Option<Move> {
        let _permit = self.permits.acquire().await.ok()?;
        let engine = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_else(|| Engine::new(HASH_MB));
        let limits = Limits {
            nodes: level.node_cap(),
            movetime: Some(self.full_strength_time),
            ..Limits::default()
        };
        let searched = tokio::task::spawn_blocking(move || {
            let mut engine = engine;
            let stop = AtomicBool::new(false);
            let found = engine.search(&pos, &limits, &stop, |_| {});
            let chosen = level.choose(&pos, found.best);
            (engine, chosen)
        })
        .await;
        let (engine, chosen) = searched.ok()?;
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(engine);
        chosen
    }
}
