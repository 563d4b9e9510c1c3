//! Challenges, and the transaction that turns an accepted one into a game.

use epaminondas_rules::BoardSize;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{insert_game, next_number};
use crate::challenge::{Challenge, ChallengeStatus};
use crate::db::Database;
use crate::error::{Error, Result};
use crate::game::{Game, Player, TimeControl};
use crate::mail::OutMail;

const CHALLENGE_SELECT: &str = "SELECT c.*, a.name AS challenger_name, t.name AS target_name \
    FROM challenges c JOIN users a ON a.id = c.challenger_id \
    LEFT JOIN users t ON t.id = c.target_id";

fn challenge_from_row(row: &AnyRow) -> Result<Challenge> {
    let corrupt = || Error::Internal("stored challenge is malformed".into());
    let files = u8::try_from(row.try_get::<i64, _>("files")?).map_err(|_| corrupt())?;
    let ranks = u8::try_from(row.try_get::<i64, _>("ranks")?).map_err(|_| corrupt())?;
    let target = match (
        row.try_get::<Option<i64>, _>("target_id")?,
        row.try_get::<Option<String>, _>("target_name")?,
    ) {
        (Some(id), Some(name)) => Some(Player { id, name }),
        _ => None,
    };
    Ok(Challenge {
        id: row.try_get("id")?,
        challenger: Player {
            id: row.try_get("challenger_id")?,
            name: row.try_get("challenger_name")?,
        },
        target,
        size: BoardSize::new(files, ranks).map_err(|_| corrupt())?,
        symmetry: row
            .try_get::<String, _>("symmetry")?
            .parse()
            .map_err(|_| corrupt())?,
        variant: row
            .try_get::<String, _>("variant")?
            .parse()
            .map_err(|_| corrupt())?,
        color: row
            .try_get::<String, _>("color")?
            .parse()
            .map_err(|_| corrupt())?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        control: TimeControl::from_columns(
            &row.try_get::<String, _>("time_kind")?,
            row.try_get("initial_ms")?,
            row.try_get("increment_ms")?,
            row.try_get("days_per_move")?,
            row.try_get("max_ms")?,
        ),
        status: row
            .try_get::<String, _>("status")?
            .parse()
            .map_err(|_| corrupt())?,
        game_id: row.try_get("game_id")?,
        created_at: row.try_get("created_at")?,
    })
}

/// Stores a new open challenge and gives it its number, with the mails
/// `mails` makes for it, in one transaction.
pub async fn insert_challenge(
    db: &Database,
    c: &mut Challenge,
    mails: impl FnOnce(&Challenge) -> Vec<OutMail>,
) -> Result<()> {
    let (initial, increment, days, max) = c.control.columns();
    let mut tx = db.write.begin().await?;
    c.id = next_number(&mut tx, "challenge").await?;
    sqlx::query(
        "INSERT INTO challenges (id, challenger_id, target_id, files, ranks, symmetry, color, \
         rated, time_kind, initial_ms, increment_ms, days_per_move, max_ms, status, created_at, \
         variant) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'open', $14, $15)",
    )
    .bind(c.id)
    .bind(c.challenger.id)
    .bind(c.target.as_ref().map(|p| p.id))
    .bind(i64::from(c.size.files()))
    .bind(i64::from(c.size.ranks()))
    .bind(c.symmetry.name())
    .bind(c.color.name())
    .bind(i64::from(c.rated))
    .bind(c.control.kind())
    .bind(initial)
    .bind(increment)
    .bind(days)
    .bind(max)
    .bind(c.created_at)
    .bind(c.variant.name())
    .execute(&mut *tx)
    .await?;
    super::queue_mail(&mut tx, &mails(c), c.created_at).await?;
    tx.commit().await?;
    Ok(())
}

/// The challenge numbered `id`.
pub async fn load_challenge(db: &Database, id: i64) -> Result<Option<Challenge>> {
    let row = sqlx::query(&format!("{CHALLENGE_SELECT} WHERE c.id = $1"))
        .bind(id)
        .fetch_optional(&db.read)
        .await?;
    row.as_ref().map(challenge_from_row).transpose()
}

/// The open challenges a user sees: their own, those to them, and open
/// seeks by anyone (the latest 200).
pub async fn open_challenges(db: &Database, user_id: i64) -> Result<Vec<Challenge>> {
    let rows = sqlx::query(&format!(
        "{CHALLENGE_SELECT} WHERE c.status = 'open' AND \
         (c.challenger_id = $1 OR c.target_id = $1 OR c.target_id IS NULL) ORDER BY c.id DESC LIMIT 200"
    ))
    .bind(user_id)
    .fetch_all(&db.read)
    .await?;
    let mut list = rows
        .iter()
        .map(challenge_from_row)
        .collect::<Result<Vec<_>>>()?;
    list.reverse();
    Ok(list)
}

/// How many open challenges `user_id` has made: (open seeks, challenges to
/// a named player).
pub async fn open_challenge_counts(db: &Database, user_id: i64) -> Result<(i64, i64)> {
    let row = sqlx::query(
        "SELECT \
         coalesce(sum(CASE WHEN target_id IS NULL THEN 1 ELSE 0 END), 0) AS seeks, \
         coalesce(sum(CASE WHEN target_id IS NULL THEN 0 ELSE 1 END), 0) AS named \
         FROM challenges WHERE challenger_id = $1 AND status = 'open'",
    )
    .bind(user_id)
    .fetch_one(&db.read)
    .await?;
    Ok((row.try_get("seeks")?, row.try_get("named")?))
}

/// Closes an open challenge as `status`; false if it was no longer open.
pub async fn close_challenge(
    db: &Database,
    id: i64,
    status: ChallengeStatus,
    mails: &[OutMail],
    now: i64,
) -> Result<bool> {
    let mut tx = db.write.begin().await?;
    let done = sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
        .bind(status.name())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    super::queue_mail(&mut tx, mails, now).await?;
    tx.commit().await?;
    Ok(true)
}

/// Accepts an open challenge and stores its game, in one transaction:
/// false (and nothing stored) if it was no longer open.
pub async fn accept_challenge(
    db: &Database,
    id: i64,
    game: &mut Game,
    mails: impl FnOnce(&Game) -> Vec<OutMail>,
) -> Result<bool> {
    let mut tx = db.write.begin().await?;
    let done =
        sqlx::query("UPDATE challenges SET status = 'accepted' WHERE id = $1 AND status = 'open'")
            .bind(id)
            .execute(&mut *tx)
            .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    insert_game(&mut tx, game).await?;
    sqlx::query("UPDATE challenges SET game_id = $1 WHERE id = $2")
        .bind(game.id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    super::queue_mail(&mut tx, &mails(game), game.created_at).await?;
    tx.commit().await?;
    Ok(true)
}
