//! Computer analysis of finished games, as lichess offers it: a player asks,
//! a background worker searches every position of the game on the engine
//! workers that games do not need (a position a game's move interrupts is
//! searched again later, so games against the computer never wait), and the
//! result (every position's evaluation and best move, every move judged by
//! [`epaminondas_engine::review`]'s documented rule, and the annotated
//! record) is kept for everyone who opens the game afterwards.
//!
//! Limits: full accounts only, at most [`MAX_PENDING_PER_PLAYER`]
//! unfinished analyses per player and [`MAX_QUEUED`] in all; one analysis
//! per game, asked for once.

use std::sync::Arc;
use std::time::Duration;

use epaminondas_engine::review::{PositionReview, Reviewer, expected, format_white};
use serde::{Deserialize, Serialize};

use super::Service;
use crate::auth::AuthUser;
use crate::error::{Error, Result};
use crate::store::{self, AnalysisRow, AnalysisStatus};

/// Unfinished analyses one player may have asked for at once.
pub const MAX_PENDING_PER_PLAYER: i64 = 2;

/// Unfinished analyses the server keeps waiting at once, all players
/// together.
pub const MAX_QUEUED: i64 = 200;

/// How long a worker holds a claimed analysis without news before another
/// process may take it over.
const HOLD_MS: i64 = 5 * 60 * 1000;

/// How long the worker waits for a free engine worker before it looks
/// again.
const SLOT_WAIT: Duration = Duration::from_secs(30);

/// One position of an analysed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewedPosition {
    /// Plies played before it.
    pub ply: usize,
    /// The move that led here.
    pub played: Option<String>,
    /// That move's mark (`?!`, `?`, `??`), if it earned one.
    pub mark: Option<String>,
    /// How much of the mover's expected score that move gave away.
    pub cost: Option<f64>,
    /// The evaluation from White's side, in the engine's units (proven
    /// results near ±[`epaminondas_engine::score::WIN`]).
    pub white_score: Option<i32>,
    /// White's expected score here, from 0 to 1 (for the graph).
    pub white_expected: Option<f64>,
    /// The evaluation as text: `+0.74`, `white wins in 7`.
    pub eval: String,
    /// The engine's best move here (none once the game is over).
    pub best: Option<String>,
    /// The start of the engine's line.
    pub line: Vec<String>,
}

impl ReviewedPosition {
    fn from_review(review: &PositionReview) -> ReviewedPosition {
        let white_score = review.white_score();
        let best_line = review.lines.first();
        ReviewedPosition {
            ply: review.ply,
            played: review.played.map(|(mv, _)| mv.to_string()),
            mark: review
                .played
                .and_then(|(_, mark)| mark)
                .map(|m| m.symbol().to_owned()),
            cost: review.cost,
            white_score,
            white_expected: white_score.map(expected),
            eval: white_score.map(format_white).unwrap_or_default(),
            best: best_line.and_then(|l| l.pv.first()).map(|m| m.to_string()),
            line: best_line
                .map(|l| l.pv.iter().take(8).map(|m| m.to_string()).collect())
                .unwrap_or_default(),
        }
    }
}

/// A game's analysis as the service reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// The stored row (status, progress, annotated record).
    pub row: AnalysisRow,
    /// Every position, once done.
    pub positions: Vec<ReviewedPosition>,
}

impl GameAnalysis {
    fn from_row(row: AnalysisRow) -> GameAnalysis {
        let positions = if row.status == AnalysisStatus::Done {
            serde_json::from_str(&row.result).unwrap_or_default()
        } else {
            Vec::new()
        };
        GameAnalysis { row, positions }
    }
}

impl Service {
    /// Queues the computer analysis of finished game `id` for `user` (or
    /// gives the one already asked for).
    pub async fn request_game_analysis(&self, user: &AuthUser, id: i64) -> Result<GameAnalysis> {
        user.require(user.play_scope())?;
        if user.guest {
            return Err(Error::forbidden(
                "guests cannot ask for analyses: sign up first",
            ));
        }
        let game = self.game(id).await?;
        if !game.is_finished() {
            return Err(Error::conflict(format!(
                "game {id} is still being played: it can be analysed once it is over"
            )));
        }
        if let Some(existing) = store::analysis_of(&self.db, id).await? {
            return Ok(GameAnalysis::from_row(existing));
        }
        let pending = store::pending_analyses(&self.db, Some(user.player.id)).await?;
        if pending >= MAX_PENDING_PER_PLAYER {
            return Err(Error::RateLimited {
                what: format!("you have {pending} analyses waiting; ask again when one is done"),
                retry_after_s: 60,
            });
        }
        if store::pending_analyses(&self.db, None).await? >= MAX_QUEUED {
            return Err(Error::RateLimited {
                what: "the analysis queue is full".into(),
                retry_after_s: 300,
            });
        }
        let positions = i64::try_from(game.ply()).unwrap_or(i64::MAX) + 1;
        let movetime = i64::try_from(self.game_analysis_time.as_millis()).unwrap_or(i64::MAX);
        store::insert_analysis(
            &self.db,
            id,
            user.player.id,
            positions,
            movetime,
            self.now(),
        )
        .await?;
        self.analyses_waiting.notify_one();
        store::analysis_of(&self.db, id)
            .await?
            .map(GameAnalysis::from_row)
            .ok_or_else(|| Error::Internal(format!("the analysis of game {id} was not stored")))
    }

    /// The analysis of game `id`, if one was asked for (for anyone).
    pub async fn game_analysis(&self, id: i64) -> Result<Option<GameAnalysis>> {
        self.game(id).await?;
        Ok(store::analysis_of(&self.db, id)
            .await?
            .map(GameAnalysis::from_row))
    }

    /// Starts the background worker that runs queued analyses one at a
    /// time; it stops when the service is dropped.
    pub(super) fn start_analysis_worker(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let Some(service) = weak.upgrade() else { break };
                let claimed = store::claim_analysis(&service.db, service.now(), HOLD_MS).await;
                match claimed {
                    Ok(Some(game)) => {
                        if let Err(e) = service.run_game_analysis(game).await {
                            tracing::warn!("analysing game {game}: {e}");
                        }
                        continue;
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!("reading the analysis queue: {e}"),
                }
                // Waits without holding the service, so that it can end.
                let waiting = service.analyses_waiting.clone();
                drop(service);
                let _ = tokio::time::timeout(Duration::from_secs(10), waiting.notified()).await;
            }
        });
    }

    /// Searches every position of game `game` (claimed by this process)
    /// and stores the result.
    async fn run_game_analysis(&self, game: i64) -> Result<()> {
        let row = store::analysis_of(&self.db, game)
            .await?
            .ok_or_else(|| Error::Internal(format!("no analysis of game {game}")))?;
        let record = match self.game(game).await {
            Ok(found) => found.record,
            Err(e) => {
                store::finish_analysis(
                    &self.db,
                    game,
                    (AnalysisStatus::Failed, 0),
                    "",
                    "",
                    self.now(),
                )
                .await?;
                return Err(e);
            }
        };
        let time = Duration::from_millis(u64::try_from(row.movetime_ms).unwrap_or(1).max(1));
        let mut reviewer = Reviewer::new(&record);
        let mut reviewed = Vec::new();
        while let Some((pos, needs_search)) = reviewer.position() {
            let lines = if needs_search {
                self.search_for_review(pos.clone(), time).await
            } else {
                Vec::new()
            };
            reviewed.push(ReviewedPosition::from_review(&reviewer.add(lines)));
            let done = i64::try_from(reviewed.len()).unwrap_or(i64::MAX);
            store::analysis_progress(&self.db, game, done, self.now() + HOLD_MS).await?;
        }
        let result = serde_json::to_string(&reviewed)
            .map_err(|e| Error::Internal(format!("storing an analysis: {e}")))?;
        let annotated = reviewer.finish().to_string();
        let done = i64::try_from(reviewed.len()).unwrap_or(i64::MAX);
        store::finish_analysis(
            &self.db,
            game,
            (AnalysisStatus::Done, done),
            &result,
            &annotated,
            self.now(),
        )
        .await?;
        if let Ok(finished) = self.game(game).await {
            self.notify_game(&finished).await;
        }
        Ok(())
    }

    /// One position's best line, searched on a worker no game needs; a
    /// search a game interrupted is started again.
    async fn search_for_review(
        &self,
        pos: epaminondas_rules::Position,
        time: Duration,
    ) -> Vec<epaminondas_engine::review::Line> {
        loop {
            let Some(slot) = self.engines.analysis_slot(SLOT_WAIT).await else {
                continue;
            };
            if let Some(lines) = self.engines.review_lines(slot, pos.clone(), time).await {
                return lines;
            }
        }
    }
}
