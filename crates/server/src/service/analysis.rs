//! The engine's analysis of any position, for anyone, within limits: one
//! analysis at a time per client, a per-client allowance of engine time,
//! a few analyses at once in all, each at most [`MAX_ANALYSIS_MS`], and
//! never at the expense of a game against the computer (see
//! [`crate::engines`]).

use std::sync::{Arc, PoisonError};
use std::time::Duration;

use epaminondas_rules::Position;
use tokio::sync::{mpsc, oneshot};

use super::Service;
use crate::engines::{Analysed, Iteration};
use crate::error::{Error, Result};
use crate::limits::ClientKey;

/// The longest analysis one request may ask for.
pub const MAX_ANALYSIS_MS: u64 = 10_000;

/// How long a request waits for a free worker before it is told the engine
/// is busy.
const QUEUE_WAIT: Duration = Duration::from_secs(3);

/// A running analysis: its iterations as they complete, then how it ended.
pub struct AnalysisRun {
    /// Each completed iteration.
    pub progress: mpsc::UnboundedReceiver<Iteration>,
    /// The end, once the search stops.
    pub done: oneshot::Receiver<Analysed>,
}

/// Marks a client's analysis as running until dropped.
struct Running {
    service: Arc<Service>,
    client: ClientKey,
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut running = self
            .service
            .analysis
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = running.iter().position(|c| *c == self.client) {
            running.swap_remove(i);
        }
    }
}

impl Service {
    /// Starts searching `pos` for `time` for `client`, once a worker is
    /// free. Refused when the client already has an analysis running, has
    /// used its allowance of engine time, or no worker frees within a few
    /// seconds.
    pub async fn analyse(
        self: &Arc<Self>,
        client: ClientKey,
        pos: Position,
        time: Duration,
    ) -> Result<AnalysisRun> {
        let ms = u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
        if !(1..=MAX_ANALYSIS_MS).contains(&ms) {
            return Err(Error::invalid(format!(
                "the thinking time must be 1 to {MAX_ANALYSIS_MS} ms"
            )));
        }
        if pos.is_terminal() {
            return Err(Error::invalid("the game is over in this position"));
        }
        {
            let mut running = self
                .analysis
                .running
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if running.contains(&client) {
                return Err(Error::RateLimited {
                    what: "one analysis at a time: yours is still running".into(),
                    retry_after_s: ms.div_ceil(1000),
                });
            }
            running.push(client);
        }
        let running = Running {
            service: self.clone(),
            client,
        };
        let now = self.now();
        self.analysis
            .budget
            .spend(client, ms, now)
            .map_err(|retry_after_s| Error::RateLimited {
                what: "you have used your engine time for now".into(),
                retry_after_s,
            })?;
        let Some(slot) = self.engines.analysis_slot(QUEUE_WAIT).await else {
            self.analysis.budget.refund(client, ms, self.now());
            return Err(Error::EngineBusy);
        };
        let (progress_tx, progress) = mpsc::unbounded_channel();
        let (done_tx, done) = oneshot::channel();
        let service = self.clone();
        tokio::spawn(async move {
            let _running = running;
            let started = std::time::Instant::now();
            let end = service.engines.analyse(slot, pos, time, progress_tx).await;
            // Time not used (a search stopped early) is given back.
            let used = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            service
                .analysis
                .budget
                .refund(client, ms.saturating_sub(used), service.now());
            let _ = done_tx.send(end);
        });
        Ok(AnalysisRun { progress, done })
    }
}
