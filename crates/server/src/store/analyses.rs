//! Stored computer analyses of finished games: the queue the background
//! worker claims from (several processes share it), their progress, and
//! the finished results.

use sqlx::Row;

use crate::db::Database;
use crate::error::Result;

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisStatus {
    /// Waiting for a worker.
    Queued,
    /// Being searched.
    Running,
    /// Finished: the result is stored.
    Done,
    /// Given up (the game could not be read).
    Failed,
}

impl AnalysisStatus {
    /// Its name, in the database and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
            AnalysisStatus::Failed => "failed",
        }
    }

    fn from_stored(text: &str) -> AnalysisStatus {
        match text {
            "queued" => AnalysisStatus::Queued,
            "running" => AnalysisStatus::Running,
            "done" => AnalysisStatus::Done,
            _ => AnalysisStatus::Failed,
        }
    }
}

/// A stored analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    /// The game.
    pub game_id: i64,
    /// Who asked for it.
    pub requested_by: i64,
    /// Where it stands.
    pub status: AnalysisStatus,
    /// Positions to search (one more than the game's moves).
    pub positions: i64,
    /// Positions searched so far.
    pub done_positions: i64,
    /// Engine time per position.
    pub movetime_ms: i64,
    /// The positions' reviews, as stored (see the service), once done.
    pub result: String,
    /// The annotated record, once done.
    pub record: String,
    /// When it was asked for.
    pub created_at: i64,
    /// When it finished.
    pub finished_at: Option<i64>,
}

fn row_of(row: &sqlx::any::AnyRow) -> Result<AnalysisRow> {
    Ok(AnalysisRow {
        game_id: row.try_get("game_id")?,
        requested_by: row.try_get("requested_by")?,
        status: AnalysisStatus::from_stored(row.try_get("status")?),
        positions: row.try_get("positions")?,
        done_positions: row.try_get("done_positions")?,
        movetime_ms: row.try_get("movetime_ms")?,
        result: row.try_get("result")?,
        record: row.try_get("record")?,
        created_at: row.try_get("created_at")?,
        finished_at: row.try_get("finished_at")?,
    })
}

/// Queues an analysis of `game`; false if it already has one.
pub async fn insert_analysis(
    db: &Database,
    game: i64,
    user: i64,
    positions: i64,
    movetime_ms: i64,
    now: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO game_analyses (game_id, requested_by, status, positions, movetime_ms, created_at) \
         VALUES ($1, $2, 'queued', $3, $4, $5) ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game)
    .bind(user)
    .bind(positions)
    .bind(movetime_ms)
    .bind(now)
    .execute(&db.write)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The analysis of `game`, if one was asked for.
pub async fn analysis_of(db: &Database, game: i64) -> Result<Option<AnalysisRow>> {
    let row = sqlx::query("SELECT * FROM game_analyses WHERE game_id = $1")
        .bind(game)
        .fetch_optional(&db.read)
        .await?;
    row.as_ref().map(row_of).transpose()
}

/// How many unfinished analyses `user` asked for (`None`: everyone's).
pub async fn pending_analyses(db: &Database, user: Option<i64>) -> Result<i64> {
    const PENDING: &str =
        "SELECT COUNT(*) AS n FROM game_analyses WHERE status IN ('queued', 'running')";
    let row = match user {
        Some(user) => {
            sqlx::query(&format!("{PENDING} AND requested_by = $1"))
                .bind(user)
                .fetch_one(&db.read)
                .await?
        }
        None => sqlx::query(PENDING).fetch_one(&db.read).await?,
    };
    Ok(row.try_get("n")?)
}

/// Claims the oldest analysis waiting for a worker (or one whose worker
/// stopped holding it: a process that ended), holding it until
/// `now + hold_ms`; its game.
pub async fn claim_analysis(db: &Database, now: i64, hold_ms: i64) -> Result<Option<i64>> {
    let rows = sqlx::query(
        "SELECT game_id FROM game_analyses WHERE status = 'queued' \
         OR (status = 'running' AND claimed_until < $1) ORDER BY created_at, game_id LIMIT 5",
    )
    .bind(now)
    .fetch_all(&db.write)
    .await?;
    for row in rows {
        let game: i64 = row.try_get("game_id")?;
        let taken = sqlx::query(
            "UPDATE game_analyses SET status = 'running', claimed_until = $1 WHERE game_id = $2 \
             AND (status = 'queued' OR (status = 'running' AND claimed_until < $3))",
        )
        .bind(now + hold_ms)
        .bind(game)
        .bind(now)
        .execute(&db.write)
        .await?;
        if taken.rows_affected() == 1 {
            return Ok(Some(game));
        }
    }
    Ok(None)
}

/// Records that `done` positions of `game`'s analysis are searched, and
/// holds it until `until`.
pub async fn analysis_progress(db: &Database, game: i64, done: i64, until: i64) -> Result<()> {
    sqlx::query(
        "UPDATE game_analyses SET done_positions = $1, claimed_until = $2 \
         WHERE game_id = $3 AND status = 'running'",
    )
    .bind(done)
    .bind(until)
    .bind(game)
    .execute(&db.write)
    .await?;
    Ok(())
}

/// Ends `game`'s analysis with `status`, `done` positions searched and,
/// when done, its result and annotated record.
pub async fn finish_analysis(
    db: &Database,
    game: i64,
    (status, done): (AnalysisStatus, i64),
    result: &str,
    record: &str,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE game_analyses SET status = $1, result = $2, record = $3, finished_at = $4, \
         done_positions = $5, claimed_until = NULL WHERE game_id = $6",
    )
    .bind(status.as_str())
    .bind(result)
    .bind(record)
    .bind(now)
    .bind(done)
    .bind(game)
    .execute(&db.write)
    .await?;
    Ok(())
}
