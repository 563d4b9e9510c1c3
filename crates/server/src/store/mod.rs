//! The queries: every read and write of the database, written once for both
//! SQLite and PostgreSQL (numbered parameters, 64-bit integers, flags as 0
//! or 1), split by area. Only [`crate::service`] calls them.

mod accounts;
mod analyses;
mod challenges;
mod correspondence;
mod games;
mod mail;
mod puzzles;
mod ratings;
mod tournaments;

pub use accounts::*;
pub use analyses::*;
pub use challenges::*;
pub use correspondence::*;
pub use games::*;
pub use mail::*;
pub use puzzles::*;
pub use ratings::*;
pub use tournaments::*;

use sqlx::Row;

use crate::error::Result;

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// The next number for a game or challenge (`kind` says which), from the
/// one sequence both share.
async fn next_number(conn: &mut sqlx::AnyConnection, kind: &str) -> Result<i64> {
    let row = sqlx::query("INSERT INTO numbers (kind) VALUES ($1) RETURNING id")
        .bind(kind)
        .fetch_one(conn)
        .await?;
    Ok(row.try_get("id")?)
}

/// The `id` column of every row.
fn ids(rows: &[sqlx::any::AnyRow]) -> Result<Vec<i64>> {
    Ok(rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?)
}
