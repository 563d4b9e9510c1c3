//! The engine workers that play the computer's moves and analyse positions:
//! a bounded pool, so that however many games against the computer run,
//! searches never take more than their share of the CPU and requests stay
//! fast.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use epaminondas_engine::{Engine, Level, Limits, SearchInfo, score};
use epaminondas_rules::{Move, Position};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, mpsc};

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

    /// Runs `work` with an engine of the pool on a blocking thread, once a
    /// worker is free. `None` if the pool is closed or the work panicked.
    async fn with_engine<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<T> {
        let _permit = self.permits.acquire().await.ok()?;
        let engine = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_else(|| Engine::new(HASH_MB));
        let (engine, out) = tokio::task::spawn_blocking(move || {
            let mut engine = engine;
            let out = work(&mut engine);
            (engine, out)
        })
        .await
        .ok()?;
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(engine);
        Some(out)
    }

    /// The move the engine plays in `pos` at `level` (`None` without a
    /// legal move).
    pub async fn choose(&self, pos: Position, level: Level) -> Option<Move> {
        let limits = Limits {
            nodes: level.node_cap(),
            movetime: Some(self.full_strength_time),
            ..Limits::default()
        };
        self.with_engine(move |engine| {
            let found = engine.search(&pos, &limits, &AtomicBool::new(false), |_| {});
            level.choose(&pos, found.best)
        })
        .await
        .flatten()
    }

    /// Searches `pos` at full strength for `time`, sending each completed
    /// iteration to `progress` as [`info_view`] JSON, then a last message
    /// with `"done": true` and the best move. Stops early once `progress`
    /// is closed (the client went away).
    pub async fn analyse(
        &self,
        pos: Position,
        time: Duration,
        progress: mpsc::UnboundedSender<Value>,
    ) {
        let limits = Limits::movetime(time);
        let sender = progress.clone();
        let searched = self
            .with_engine(move |engine| {
                let stop = AtomicBool::new(false);
                engine.search(&pos, &limits, &stop, |info| {
                    if sender.send(info_view(info)).is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                })
            })
            .await;
        let last = match searched {
            Some(found) => json!({
                "done": true,
                "best": found.best.map(|m| m.to_string()),
                "depth": found.depth,
                "score": score::format(found.score),
                "nodes": found.nodes,
                "pv": found.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            }),
            None => json!({"done": true, "error": "the engine stopped"}),
        };
        let _ = progress.send(last);
    }
}

/// One completed iteration of a search, for a client: depth, score (as UGI
/// writes it: `cp N`, `win N`, `loss N`), nodes, time and best line.
pub fn info_view(info: &SearchInfo<'_>) -> Value {
    json!({
        "depth": info.depth,
        "score": score::format(info.score),
        "nodes": info.nodes,
        "elapsed_ms": info.elapsed.as_millis() as u64,
        "pv": info.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}
