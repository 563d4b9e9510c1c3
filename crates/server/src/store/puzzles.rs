//! The puzzle trainer's storage: puzzles' and players' Glicko-2 puzzle
//! ratings and the rated attempts.

use std::collections::HashMap;

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::db::Database;
use crate::error::Result;
use crate::glicko::Rating;

/// A puzzle rating with its counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleStanding {
    /// The Glicko-2 rating.
    pub rating: Rating,
    /// Rated attempts.
    pub attempts: i64,
    /// Of those, solved.
    pub solved: i64,
}

fn standing(row: &AnyRow) -> Result<PuzzleStanding> {
    Ok(PuzzleStanding {
        rating: Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        },
        attempts: row.try_get("attempts")?,
        solved: row.try_get("solved")?,
    })
}

/// Every puzzle that has been played, by id.
pub async fn puzzle_standings(db: &Database) -> Result<HashMap<String, PuzzleStanding>> {
    let rows = sqlx::query("SELECT * FROM puzzle_ratings")
        .fetch_all(&db.read)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("puzzle_id")?, standing(r)?)))
        .collect()
}

/// Puzzle `id`'s rating, once it has been played.
pub async fn puzzle_standing(db: &Database, id: &str) -> Result<Option<PuzzleStanding>> {
    let row = sqlx::query("SELECT * FROM puzzle_ratings WHERE puzzle_id = $1")
        .bind(id)
        .fetch_optional(&db.read)
        .await?;
    row.as_ref().map(standing).transpose()
}

/// Player `user`'s puzzle rating, once they have played one.
pub async fn player_puzzle_standing(db: &Database, user: i64) -> Result<Option<PuzzleStanding>> {
    let row = sqlx::query("SELECT * FROM player_puzzle_ratings WHERE user_id = $1")
        .bind(user)
        .fetch_optional(&db.read)
        .await?;
    row.as_ref().map(standing).transpose()
}

/// The puzzles `user` has had a rated attempt at.
pub async fn attempted_puzzles(db: &Database, user: i64) -> Result<Vec<String>> {
    let rows = sqlx::query("SELECT puzzle_id FROM puzzle_attempts WHERE user_id = $1")
        .bind(user)
        .fetch_all(&db.read)
        .await?;
    rows.iter().map(|r| Ok(r.try_get("puzzle_id")?)).collect()
}

/// One rated attempt.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleAttempt {
    /// The puzzle.
    pub puzzle_id: String,
    /// Whether it was solved.
    pub solved: bool,
    /// The player's puzzle rating before.
    pub rating_before: f64,
    /// And after.
    pub rating_after: f64,
    /// When.
    pub created_at: i64,
}

/// The new ratings of one rated attempt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedAttempt<'a> {
    /// The player.
    pub user: i64,
    /// The puzzle.
    pub puzzle: &'a str,
    /// Whether it was solved.
    pub solved: bool,
    /// The player's rating before.
    pub player_before: Rating,
    /// The player's rating after.
    pub player_after: Rating,
    /// The puzzle's rating after.
    pub puzzle_after: Rating,
}

/// Records `attempt` and both new ratings, in one transaction; false (and
/// nothing changed) if the player had already had a rated attempt at the
/// puzzle.
pub async fn record_puzzle_attempt(
    db: &Database,
    attempt: &RatedAttempt<'_>,
    now: i64,
) -> Result<bool> {
    let mut tx = db.write.begin().await?;
    let inserted = sqlx::query(
        "INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, rating_before, rating_after, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, puzzle_id) DO NOTHING",
    )
    .bind(attempt.user)
    .bind(attempt.puzzle)
    .bind(i64::from(attempt.solved))
    .bind(attempt.player_before.rating)
    .bind(attempt.player_after.rating)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(false);
    }
    let solved = i64::from(attempt.solved);
    let player = attempt.user.to_string();
    for (table, key, id, rating) in [
        (
            "player_puzzle_ratings",
            "user_id",
            player.as_str(),
            attempt.player_after,
        ),
        (
            "puzzle_ratings",
            "puzzle_id",
            attempt.puzzle,
            attempt.puzzle_after,
        ),
    ] {
        // The key is bound as text and cast, so that one statement serves
        // the numeric and the text key.
        let cast = if key == "user_id" {
            "CAST($1 AS BIGINT)"
        } else {
            "$1"
        };
        sqlx::query(&format!(
            "INSERT INTO {table} ({key}, rating, deviation, volatility, attempts, solved) \
             VALUES ({cast}, $2, $3, $4, 1, $5) ON CONFLICT ({key}) DO UPDATE SET rating = $2, \
             deviation = $3, volatility = $4, attempts = {table}.attempts + 1, \
             solved = {table}.solved + $5"
        ))
        .bind(id)
        .bind(rating.rating)
        .bind(rating.deviation)
        .bind(rating.volatility)
        .bind(solved)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// Player `user`'s latest `limit` rated attempts, newest first.
pub async fn puzzle_history(db: &Database, user: i64, limit: i64) -> Result<Vec<PuzzleAttempt>> {
    let rows = sqlx::query(
        "SELECT puzzle_id, solved, rating_before, rating_after, created_at FROM puzzle_attempts \
         WHERE user_id = $1 ORDER BY id DESC LIMIT $2",
    )
    .bind(user)
    .bind(limit)
    .fetch_all(&db.read)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(PuzzleAttempt {
                puzzle_id: r.try_get("puzzle_id")?,
                solved: r.try_get::<i64, _>("solved")? != 0,
                rating_before: r.try_get("rating_before")?,
                rating_after: r.try_get("rating_after")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect()
}
