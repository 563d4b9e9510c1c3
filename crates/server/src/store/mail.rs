//! Mail: the outbox (written in the transaction of the change that causes
//! a mail, claimed and marked by the sender), the tokens mailed out, the
//! players' addresses and choices, and the game chat.

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::db::Database;
use crate::error::{Error, Result};
use crate::mail::{MailKind, MailMode, MailProfile, NewToken, OutMail};

/// Puts `mails` (and their tokens) in the outbox within `conn`'s
/// transaction, due at `now` (digest items wait for the digest).
pub async fn queue_mail(conn: &mut sqlx::AnyConnection, mails: &[OutMail], now: i64) -> Result<()> {
    for mail in mails {
        for token in &mail.tokens {
            insert_token(&mut *conn, token, now).await?;
        }
        sqlx::query(
            "INSERT INTO outbox (user_id, to_addr, kind, subject, text_body, html_body, reply_to, \
             unsubscribe, auto_reply, digest, created_at, due_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(mail.user_id)
        .bind(&mail.to)
        .bind(&mail.kind)
        .bind(&mail.subject)
        .bind(&mail.text)
        .bind(&mail.html)
        .bind(&mail.reply_to)
        .bind(&mail.unsubscribe)
        .bind(i64::from(mail.auto_reply))
        .bind(i64::from(mail.digest))
        .bind(now)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Puts `mails` in the outbox in a transaction of their own.
pub async fn queue_mail_now(db: &Database, mails: &[OutMail], now: i64) -> Result<()> {
    if mails.is_empty() {
        return Ok(());
    }
    let mut tx = db.write.begin().await?;
    queue_mail(&mut tx, mails, now).await?;
    tx.commit().await?;
    Ok(())
}

/// A mail taken from the outbox to send.
#[derive(Clone, Debug)]
pub struct Queued {
    /// Its number.
    pub id: i64,
    /// The mail.
    pub mail: OutMail,
    /// Tries so far.
    pub attempts: i64,
}

fn queued_from_row(row: &AnyRow) -> Result<Queued> {
    Ok(Queued {
        id: row.try_get("id")?,
        attempts: row.try_get("attempts")?,
        mail: OutMail {
            user_id: row.try_get("user_id")?,
            to: row.try_get("to_addr")?,
            kind: row.try_get("kind")?,
            subject: row.try_get("subject")?,
            text: row.try_get("text_body")?,
            html: row.try_get("html_body")?,
            reply_to: row.try_get("reply_to")?,
            unsubscribe: row.try_get("unsubscribe")?,
            auto_reply: row.try_get::<i64, _>("auto_reply")? != 0,
            digest: row.try_get::<i64, _>("digest")? != 0,
            tokens: Vec::new(),
        },
    })
}

/// Claims up to `limit` mails that are due (not digest items), for
/// `hold_ms`: a claim is taken by one sender only (in any process), and
/// one left by a sender that died is free again once it expires.
pub async fn claim_due(db: &Database, now: i64, limit: i64, hold_ms: i64) -> Result<Vec<Queued>> {
    let rows = sqlx::query(
        "SELECT id FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND digest = 0 \
         AND due_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1) ORDER BY id LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&db.read)
    .await?;
    let mut claimed = Vec::new();
    for row in rows {
        let id: i64 = row.try_get("id")?;
        let taken = sqlx::query(
            "UPDATE outbox SET claimed_until = $1 WHERE id = $2 AND sent_at IS NULL \
             AND failed_at IS NULL AND (claimed_until IS NULL OR claimed_until < $3)",
        )
        .bind(now + hold_ms)
        .bind(id)
        .bind(now)
        .execute(&db.write)
        .await?;
        if taken.rows_affected() == 1 {
            let row = sqlx::query("SELECT * FROM outbox WHERE id = $1")
                .bind(id)
                .fetch_one(&db.write)
                .await?;
            claimed.push(queued_from_row(&row)?);
        }
    }
    Ok(claimed)
}

/// Marks mail `id` sent.
pub async fn mark_sent(db: &Database, id: i64, now: i64) -> Result<()> {
    sqlx::query("UPDATE outbox SET sent_at = $1, claimed_until = NULL, attempts = attempts + 1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(&db.write)
        .await?;
    Ok(())
}

/// Schedules mail `id` for another try at `due_at` after `error`.
pub async fn mark_retry(db: &Database, id: i64, due_at: i64, error: &str) -> Result<()> {
    sqlx::query(
        "UPDATE outbox SET due_at = $1, claimed_until = NULL, attempts = attempts + 1, \
         last_error = $2 WHERE id = $3",
    )
    .bind(due_at)
    .bind(error)
    .bind(id)
    .execute(&db.write)
    .await?;
    Ok(())
}

/// Gives up on mail `id` for good, and records the failure on its
/// player's account.
pub async fn mark_failed(db: &Database, queued: &Queued, error: &str, now: i64) -> Result<()> {
    let mut tx = db.write.begin().await?;
    sqlx::query(
        "UPDATE outbox SET failed_at = $1, claimed_until = NULL, attempts = attempts + 1, \
         last_error = $2 WHERE id = $3",
    )
    .bind(now)
    .bind(error)
    .bind(queued.id)
    .execute(&mut *tx)
    .await?;
    if let Some(user) = queued.mail.user_id {
        sqlx::query(
            "UPDATE users SET mail_failure = $1, mail_failed_at = $2 WHERE id = $3 AND email = $4",
        )
        .bind(error)
        .bind(now)
        .bind(user)
        .bind(&queued.mail.to)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Records on the account that mail `outbox_id` bounced (a delivery report
/// came back for it), if the account still has the address it went to;
/// whether an account was marked.
pub async fn record_bounce(db: &Database, outbox_id: i64, reason: &str, now: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE users SET mail_failure = $1, mail_failed_at = $2 \
         WHERE id = (SELECT user_id FROM outbox WHERE id = $3) \
         AND email = (SELECT to_addr FROM outbox WHERE id = $3)",
    )
    .bind(reason)
    .bind(now)
    .bind(outbox_id)
    .execute(&db.write)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The players with digest items waiting since `before` or earlier.
pub async fn digest_due(db: &Database, before: i64) -> Result<Vec<i64>> {
    let rows = sqlx::query(
        "SELECT DISTINCT user_id FROM outbox WHERE digest = 1 AND sent_at IS NULL \
         AND failed_at IS NULL AND user_id IS NOT NULL AND created_at <= $1",
    )
    .bind(before)
    .fetch_all(&db.read)
    .await?;
    rows.iter()
        .map(|r| r.try_get("user_id").map_err(Error::from))
        .collect()
}

/// Gathers player `user`'s waiting digest items into `digest` (made from
/// their subjects and texts by `make`) in one transaction: the items are
/// marked sent and the digest queued.
pub async fn gather_digest(
    db: &Database,
    user: i64,
    now: i64,
    make: impl FnOnce(&[(String, String)]) -> Option<OutMail>,
) -> Result<bool> {
    let mut tx = db.write.begin().await?;
    let rows = sqlx::query(
        "SELECT id, subject, text_body FROM outbox WHERE digest = 1 AND sent_at IS NULL \
         AND failed_at IS NULL AND user_id = $1 ORDER BY id",
    )
    .bind(user)
    .fetch_all(&mut *tx)
    .await?;
    let items: Vec<(String, String)> = rows
        .iter()
        .map(|r| Ok((r.try_get("subject")?, r.try_get("text_body")?)))
        .collect::<Result<_, sqlx::Error>>()?;
    let Some(digest) = make(&items) else {
        return Ok(false);
    };
    for row in &rows {
        let id: i64 = row.try_get("id")?;
        sqlx::query("UPDATE outbox SET sent_at = $1, last_error = 'in a digest' WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
    }
    queue_mail(&mut tx, &[digest], now).await?;
    tx.commit().await?;
    Ok(true)
}

/// A mailed token found by its hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    /// `verify`, `reset`, `reply` or `unsubscribe`.
    pub kind: String,
    /// The player.
    pub user_id: i64,
    /// The game or challenge, for reply tokens.
    pub game_id: Option<i64>,
    /// The address being verified.
    pub email: Option<String>,
    /// When it stops working.
    pub expires_at: Option<i64>,
    /// When it was used (verification and reset tokens work once).
    pub used_at: Option<i64>,
}

async fn insert_token(conn: &mut sqlx::AnyConnection, token: &NewToken, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO mail_tokens (token_hash, kind, user_id, game_id, email, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&token.hash)
    .bind(&token.kind)
    .bind(token.user_id)
    .bind(token.game_id)
    .bind(&token.email)
    .bind(now)
    .bind(token.expires_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// The token with SHA-256 `hash`, if there is one.
pub async fn find_token(db: &Database, hash: &str) -> Result<Option<TokenRow>> {
    let row = sqlx::query(
        "SELECT kind, user_id, game_id, email, expires_at, used_at FROM mail_tokens WHERE token_hash = $1",
    )
    .bind(hash)
    .fetch_optional(&db.write)
    .await?;
    row.map(|r| {
        Ok(TokenRow {
            kind: r.try_get("kind")?,
            user_id: r.try_get("user_id")?,
            game_id: r.try_get("game_id")?,
            email: r.try_get("email")?,
            expires_at: r.try_get("expires_at")?,
            used_at: r.try_get("used_at")?,
        })
    })
    .transpose()
}

/// Marks the token with `hash` used; false if it was used already.
pub async fn use_token(db: &Database, hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE mail_tokens SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL",
    )
    .bind(now)
    .bind(hash)
    .execute(&db.write)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Revokes player `user`'s reply tokens for game `game` (all their reply
/// tokens when `None`).
pub async fn revoke_reply_tokens(
    db: &Database,
    user: i64,
    game: Option<i64>,
    now: i64,
) -> Result<u64> {
    let sql = "UPDATE mail_tokens SET used_at = $1 WHERE kind = 'reply' AND user_id = $2 \
               AND used_at IS NULL";
    let done = match game {
        Some(game) => {
            sqlx::query(&format!("{sql} AND game_id = $3"))
                .bind(now)
                .bind(user)
                .bind(game)
                .execute(&db.write)
                .await?
        }
        None => {
            sqlx::query(sql)
                .bind(now)
                .bind(user)
                .execute(&db.write)
                .await?
        }
    };
    Ok(done.rows_affected())
}

fn profile_from_row(row: &AnyRow) -> Result<MailProfile> {
    let mode: String = row.try_get("mail_mode")?;
    let kinds: String = row.try_get("mail_kinds")?;
    Ok(MailProfile {
        user_id: row.try_get("id")?,
        name: row.try_get("name")?,
        email: row.try_get("email")?,
        verified: row
            .try_get::<Option<i64>, _>("email_verified_at")?
            .is_some(),
        mode: mode.parse().unwrap_or(MailMode::Each),
        kinds: kinds
            .split(',')
            .filter_map(|k| k.parse::<MailKind>().ok())
            .collect(),
    })
}

const PROFILE_COLUMNS: &str = "id, name, email, email_verified_at, mail_mode, mail_kinds";

/// Player `id`'s address and choices (none for a deleted account or a
/// guest without an address).
pub async fn mail_profile(db: &Database, id: i64) -> Result<Option<MailProfile>> {
    let row = sqlx::query(&format!(
        "SELECT {PROFILE_COLUMNS} FROM users WHERE id = $1 AND deleted_at IS NULL AND email <> ''"
    ))
    .bind(id)
    .fetch_optional(&db.read)
    .await?;
    row.as_ref().map(profile_from_row).transpose()
}

/// The player whose verified address is `email` (any letter case).
pub async fn profile_by_email(db: &Database, email: &str) -> Result<Option<MailProfile>> {
    let row = sqlx::query(&format!(
        "SELECT {PROFILE_COLUMNS} FROM users WHERE lower(email) = $1 AND email_verified_at IS NOT NULL \
         AND deleted_at IS NULL ORDER BY id LIMIT 1"
    ))
    .bind(email.trim().to_ascii_lowercase())
    .fetch_optional(&db.read)
    .await?;
    row.as_ref().map(profile_from_row).transpose()
}

/// Sets player `id`'s address to `email`, verified at `now`.
pub async fn set_verified_email(db: &Database, id: i64, email: &str, now: i64) -> Result<()> {
    sqlx::query(
        "UPDATE users SET email = $1, email_verified_at = $2, mail_failure = NULL, \
         mail_failed_at = NULL WHERE id = $3",
    )
    .bind(email)
    .bind(now)
    .bind(id)
    .execute(&db.write)
    .await?;
    Ok(())
}

/// Sets what player `id` gets mailed.
pub async fn set_mail_choices(
    db: &Database,
    id: i64,
    mode: MailMode,
    kinds: &[MailKind],
) -> Result<()> {
    let kinds: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    sqlx::query("UPDATE users SET mail_mode = $1, mail_kinds = $2 WHERE id = $3")
        .bind(mode.name())
        .bind(kinds.join(","))
        .bind(id)
        .execute(&db.write)
        .await?;
    Ok(())
}

/// The last delivery failure recorded on player `id`'s address.
pub async fn mail_failure(db: &Database, id: i64) -> Result<Option<String>> {
    let row = sqlx::query("SELECT mail_failure FROM users WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.read)
        .await?;
    Ok(row
        .map(|r| r.try_get("mail_failure"))
        .transpose()?
        .flatten())
}

/// A chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatMessage {
    /// Its number.
    pub id: i64,
    /// Who wrote it.
    pub author: String,
    /// The text.
    pub body: String,
    /// When.
    pub created_at: i64,
}

/// The two rooms of a game's chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatRoom {
    /// Between the game's two players, private to them.
    Players,
    /// For those who watch the game, once a player opens it.
    Spectators,
}

impl ChatRoom {
    /// The room's name in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            ChatRoom::Players => "players",
            ChatRoom::Spectators => "spectators",
        }
    }

    /// The room a stored name stands for (unknown names are the players').
    pub fn from_stored(name: &str) -> ChatRoom {
        if name == "spectators" {
            ChatRoom::Spectators
        } else {
            ChatRoom::Players
        }
    }
}

/// Stores a chat message in `room` and queues its mails, in one transaction.
pub async fn insert_chat(
    db: &Database,
    game: i64,
    room: ChatRoom,
    user: i64,
    body: &str,
    mails: &[OutMail],
    now: i64,
) -> Result<i64> {
    let mut tx = db.write.begin().await?;
    let row = sqlx::query(
        "INSERT INTO chat_messages (game_id, room, user_id, body, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(game)
    .bind(room.as_str())
    .bind(user)
    .bind(body)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    queue_mail(&mut tx, mails, now).await?;
    tx.commit().await?;
    Ok(row.try_get("id")?)
}

/// The chat of game `game` in `room`, oldest first (the last `limit` messages).
pub async fn chat_of(
    db: &Database,
    game: i64,
    room: ChatRoom,
    limit: i64,
) -> Result<Vec<ChatMessage>> {
    let rows = sqlx::query(
        "SELECT c.id, u.name, c.body, c.created_at FROM chat_messages c JOIN users u ON u.id = c.user_id \
         WHERE c.game_id = $1 AND c.room = $2 ORDER BY c.id DESC LIMIT $3",
    )
    .bind(game)
    .bind(room.as_str())
    .bind(limit)
    .fetch_all(&db.read)
    .await?;
    let mut messages = rows
        .iter()
        .map(|r| {
            Ok(ChatMessage {
                id: r.try_get("id")?,
                author: r.try_get("name")?,
                body: r.try_get("body")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    messages.reverse();
    Ok(messages)
}

/// The outbox as the tests and the operator see it: every mail's address,
/// kind, subject and state.
pub async fn outbox_summary(db: &Database) -> Result<Vec<(String, String, String, bool)>> {
    let rows = sqlx::query("SELECT to_addr, kind, subject, sent_at FROM outbox ORDER BY id")
        .fetch_all(&db.read)
        .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("to_addr")?,
                r.try_get("kind")?,
                r.try_get("subject")?,
                r.try_get::<Option<i64>, _>("sent_at")?.is_some(),
            ))
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Error::from)
}
