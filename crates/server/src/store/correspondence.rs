//! Correspondence players' settings and vacations: the vacations taken,
//! automatic vacation, the cap on running correspondence games, and the
//! chat's mutes and reports.

use sqlx::Row;

use super::ids;
use super::mail::ChatRoom;
use crate::db::Database;
use crate::error::Result;

/// A vacation a player has taken (or the server took for them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VacationRow {
    /// Its number.
    pub id: i64,
    /// When the player's correspondence clocks stop.
    pub starts_at: i64,
    /// When they run again.
    pub ends_at: i64,
    /// Whether the server took it when the player's time ran out.
    pub automatic: bool,
}

/// A player's correspondence settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrespondenceOptions {
    /// Whether the server takes a vacation day when the player's time runs
    /// out (rather than losing the game).
    pub auto_vacation: bool,
    /// The most correspondence games the player runs at once (0: no cap).
    pub max_correspondence: i64,
}

/// Stores a vacation of `user`.
pub async fn insert_vacation(
    db: &Database,
    user: i64,
    starts_at: i64,
    ends_at: i64,
    automatic: bool,
    now: i64,
) -> Result<i64> {
    let row = sqlx::query(
        "INSERT INTO vacations (user_id, starts_at, ends_at, automatic, created_at) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(user)
    .bind(starts_at)
    .bind(ends_at)
    .bind(i64::from(automatic))
    .bind(now)
    .fetch_one(&db.write)
    .await?;
    Ok(row.try_get("id")?)
}

/// `user`'s vacations that end after `since`, earliest first.
pub async fn vacations_of(db: &Database, user: i64, since: i64) -> Result<Vec<VacationRow>> {
    let rows = sqlx::query(
        "SELECT id, starts_at, ends_at, automatic FROM vacations \
         WHERE user_id = $1 AND ends_at > $2 ORDER BY starts_at",
    )
    .bind(user)
    .bind(since)
    .fetch_all(&db.write)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(VacationRow {
                id: r.try_get("id")?,
                starts_at: r.try_get("starts_at")?,
                ends_at: r.try_get("ends_at")?,
                automatic: r.try_get::<i64, _>("automatic")? != 0,
            })
        })
        .collect()
}

/// `user`'s vacations that start within `from..to`, as (start, end) pairs.
pub async fn vacations_starting(
    db: &Database,
    user: i64,
    from: i64,
    to: i64,
) -> Result<Vec<(i64, i64)>> {
    let rows = sqlx::query(
        "SELECT starts_at, ends_at FROM vacations \
         WHERE user_id = $1 AND starts_at >= $2 AND starts_at < $3",
    )
    .bind(user)
    .bind(from)
    .bind(to)
    .fetch_all(&db.write)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("starts_at")?, r.try_get("ends_at")?)))
        .collect()
}

/// Ends `user`'s vacation `id` at `at` (deleting it if it has not begun);
/// false if the player has no such vacation.
pub async fn end_vacation(db: &Database, user: i64, id: i64, at: i64) -> Result<bool> {
    let deleted =
        sqlx::query("DELETE FROM vacations WHERE id = $1 AND user_id = $2 AND starts_at >= $3")
            .bind(id)
            .bind(user)
            .bind(at)
            .execute(&db.write)
            .await?;
    if deleted.rows_affected() == 1 {
        return Ok(true);
    }
    let ended = sqlx::query(
        "UPDATE vacations SET ends_at = $3 WHERE id = $1 AND user_id = $2 AND ends_at > $3",
    )
    .bind(id)
    .bind(user)
    .bind(at)
    .execute(&db.write)
    .await?;
    Ok(ended.rows_affected() == 1)
}

/// `user`'s correspondence settings.
pub async fn correspondence_options(db: &Database, user: i64) -> Result<CorrespondenceOptions> {
    let row = sqlx::query("SELECT auto_vacation, max_correspondence FROM users WHERE id = $1")
        .bind(user)
        .fetch_one(&db.read)
        .await?;
    Ok(CorrespondenceOptions {
        auto_vacation: row.try_get::<i64, _>("auto_vacation")? != 0,
        max_correspondence: row.try_get("max_correspondence")?,
    })
}

/// Stores `user`'s correspondence settings.
pub async fn set_correspondence_options(
    db: &Database,
    user: i64,
    options: CorrespondenceOptions,
) -> Result<()> {
    sqlx::query("UPDATE users SET auto_vacation = $1, max_correspondence = $2 WHERE id = $3")
        .bind(i64::from(options.auto_vacation))
        .bind(options.max_correspondence)
        .bind(user)
        .execute(&db.write)
        .await?;
    Ok(())
}

/// The active correspondence games (days per move or a time bank) of
/// `user`.
pub async fn active_correspondence_games(db: &Database, user: i64) -> Result<Vec<i64>> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'active' AND time_kind IN ('correspondence', 'bank') \
         AND (white_id = $1 OR black_id = $1) ORDER BY id",
    )
    .bind(user)
    .fetch_all(&db.write)
    .await?;
    ids(&rows)
}

/// Whether `user` has muted the chat of game `game`.
pub async fn chat_muted(db: &Database, user: i64, game: i64) -> Result<bool> {
    let row = sqlx::query("SELECT 1 AS one FROM chat_mutes WHERE user_id = $1 AND game_id = $2")
        .bind(user)
        .bind(game)
        .fetch_optional(&db.read)
        .await?;
    Ok(row.is_some())
}

/// Mutes (or unmutes) the opponent's chat in game `game` for `user`.
pub async fn set_chat_muted(
    db: &Database,
    user: i64,
    game: i64,
    muted: bool,
    now: i64,
) -> Result<()> {
    sqlx::query("DELETE FROM chat_mutes WHERE user_id = $1 AND game_id = $2")
        .bind(user)
        .bind(game)
        .execute(&db.write)
        .await?;
    if muted {
        sqlx::query("INSERT INTO chat_mutes (user_id, game_id, created_at) VALUES ($1, $2, $3)")
            .bind(user)
            .bind(game)
            .bind(now)
            .execute(&db.write)
            .await?;
    }
    Ok(())
}

/// Where a chat message was written, and by whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatOrigin {
    /// The game.
    pub game: i64,
    /// The room of its chat.
    pub room: ChatRoom,
    /// The author's account.
    pub author: i64,
}

/// Where chat message `message` was written and by whom.
pub async fn chat_message_origin(db: &Database, message: i64) -> Result<Option<ChatOrigin>> {
    let row = sqlx::query("SELECT game_id, room, user_id FROM chat_messages WHERE id = $1")
        .bind(message)
        .fetch_optional(&db.read)
        .await?;
    row.map(|r| {
        Ok(ChatOrigin {
            game: r.try_get("game_id")?,
            room: ChatRoom::from_stored(r.try_get("room")?),
            author: r.try_get("user_id")?,
        })
    })
    .transpose()
}

/// Whether the spectators' chat of game `game` is open.
pub async fn spectator_chat_open(db: &Database, game: i64) -> Result<bool> {
    let row = sqlx::query("SELECT 1 AS one FROM spectator_chats WHERE game_id = $1")
        .bind(game)
        .fetch_optional(&db.read)
        .await?;
    Ok(row.is_some())
}

/// Opens (by `user`) or closes the spectators' chat of game `game`.
pub async fn set_spectator_chat(
    db: &Database,
    game: i64,
    open: bool,
    user: i64,
    now: i64,
) -> Result<()> {
    let mut tx = db.write.begin().await?;
    sqlx::query("DELETE FROM spectator_chats WHERE game_id = $1")
        .bind(game)
        .execute(&mut *tx)
        .await?;
    if open {
        sqlx::query(
            "INSERT INTO spectator_chats (game_id, opened_by, opened_at) VALUES ($1, $2, $3)",
        )
        .bind(game)
        .bind(user)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Records `reporter`'s report of chat message `message`; false if they
/// had already reported it.
pub async fn insert_chat_report(
    db: &Database,
    message: i64,
    reporter: i64,
    reason: &str,
    now: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO chat_reports (message_id, reporter_id, reason, created_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(message)
    .bind(reporter)
    .bind(reason)
    .bind(now)
    .execute(&db.write)
    .await;
    match done {
        Ok(_) => Ok(true),
        Err(e) if super::is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// A reported chat message, for the site's operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatReport {
    /// The report's number.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// Who wrote the message.
    pub author: String,
    /// The message.
    pub body: String,
    /// Who reported it.
    pub reporter: String,
    /// Why.
    pub reason: String,
    /// When.
    pub created_at: i64,
}

/// The latest `limit` chat reports, newest first.
pub async fn chat_reports(db: &Database, limit: i64) -> Result<Vec<ChatReport>> {
    let rows = sqlx::query(
        "SELECT r.id, m.game_id, a.name AS author, m.body, p.name AS reporter, r.reason, \
         r.created_at FROM chat_reports r JOIN chat_messages m ON m.id = r.message_id \
         JOIN users a ON a.id = m.user_id JOIN users p ON p.id = r.reporter_id \
         ORDER BY r.id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&db.read)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(ChatReport {
                id: r.try_get("id")?,
                game_id: r.try_get("game_id")?,
                author: r.try_get("author")?,
                body: r.try_get("body")?,
                reporter: r.try_get("reporter")?,
                reason: r.try_get("reason")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect()
}
