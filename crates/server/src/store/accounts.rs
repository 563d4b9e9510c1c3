//! Accounts, browser sessions and API tokens.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::is_unique_violation;
use crate::auth::{AuthUser, Credential, Scope};
use crate::db::Database;
use crate::error::{Error, Result};
use crate::game::Player;
use crate::glicko::Rating;

/// An account as stored.
#[derive(Clone, Debug)]
pub struct UserRecord {
    /// Number and name.
    pub player: Player,
    /// The argon2id hash of the password (empty: nobody can sign in).
    pub password_hash: String,
    /// Whether it is a bot account.
    pub bot: bool,
    /// Whether it is a guest account.
    pub guest: bool,
    /// The Glicko-2 rating.
    pub rating: Rating,
    /// Rated games played.
    pub rated_games: i64,
    /// When the account was made.
    pub created_at: i64,
    /// When the account was deleted (its games stay, under its placeholder
    /// name).
    pub deleted_at: Option<i64>,
}

/// An API token as its owner sees it (never the secret).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenInfo {
    /// Its number.
    pub id: i64,
    /// The owner's label.
    pub label: String,
    /// What it allows.
    pub scopes: Vec<Scope>,
    /// When it was made.
    pub created_at: i64,
}

const USER_COLUMNS: &str = "id, name, password_hash, bot, guest, rating, deviation, volatility, \
    rated_games, created_at, deleted_at";

fn user_from_row(row: &AnyRow) -> Result<UserRecord, sqlx::Error> {
    Ok(UserRecord {
        player: Player {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
        },
        password_hash: row.try_get("password_hash")?,
        bot: row.try_get::<i64, _>("bot")? != 0,
        guest: row.try_get::<i64, _>("guest")? != 0,
        rating: Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        },
        rated_games: row.try_get("rated_games")?,
        created_at: row.try_get("created_at")?,
        deleted_at: row.try_get("deleted_at")?,
    })
}

/// A database error, read as "the name is taken" where it is one.
fn name_taken(error: sqlx::Error, name: &str) -> Error {
    if is_unique_violation(&error) {
        Error::conflict(format!("the name {name} is taken"))
    } else {
        error.into()
    }
}

/// Creates an account; a name taken (in any letter case) is a conflict.
pub async fn create_user(
    db: &Database,
    name: &str,
    email: &str,
    password_hash: &str,
    bot: bool,
    now: i64,
) -> Result<Player> {
    let row = sqlx::query(
        "INSERT INTO users (name, name_key, email, password_hash, bot, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(name)
    .bind(name.to_ascii_lowercase())
    .bind(email)
    .bind(password_hash)
    .bind(i64::from(bot))
    .bind(now)
    .fetch_one(&db.write)
    .await
    .map_err(|e| name_taken(e, name))?;
    Ok(Player {
        id: row.try_get("id")?,
        name: name.to_string(),
    })
}

/// Makes a guest account named `name`: no password (so nobody can sign in
/// to it), unrated, for a visitor who has not signed up.
pub async fn create_guest(db: &Database, name: &str, now: i64) -> Result<Player> {
    let row = sqlx::query(
        "INSERT INTO users (name, name_key, email, password_hash, bot, guest, created_at) \
         VALUES ($1, $2, '', '', 0, 1, $3) RETURNING id",
    )
    .bind(name)
    .bind(name.to_ascii_lowercase())
    .bind(now)
    .fetch_one(&db.write)
    .await?;
    Ok(Player {
        id: row.try_get("id")?,
        name: name.to_string(),
    })
}

/// Turns the guest account `id` into a full account with a name, e-mail and
/// password, keeping its games. Fails if the name is taken or the account is
/// no longer a guest.
pub async fn claim_guest(
    db: &Database,
    id: i64,
    name: &str,
    email: &str,
    password_hash: &str,
) -> Result<Player> {
    let done = sqlx::query(
        "UPDATE users SET name = $1, name_key = $2, email = $3, password_hash = $4, guest = 0 \
         WHERE id = $5 AND guest = 1",
    )
    .bind(name)
    .bind(name.to_ascii_lowercase())
    .bind(email)
    .bind(password_hash)
    .bind(id)
    .execute(&db.write)
    .await
    .map_err(|e| name_taken(e, name))?;
    if done.rows_affected() == 0 {
        return Err(Error::conflict("this account has already signed up"));
    }
    Ok(Player {
        id,
        name: name.to_string(),
    })
}

/// The account named `name` (any letter case).
pub async fn user_by_name(db: &Database, name: &str) -> Result<Option<UserRecord>> {
    let row = sqlx::query(&format!(
        "SELECT {USER_COLUMNS} FROM users WHERE name_key = $1"
    ))
    .bind(name.to_ascii_lowercase())
    .fetch_optional(&db.read)
    .await?;
    Ok(row.as_ref().map(user_from_row).transpose()?)
}

/// The account numbered `id`.
pub async fn user_by_id(db: &Database, id: i64) -> Result<Option<UserRecord>> {
    let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
        .bind(id)
        .fetch_optional(&db.read)
        .await?;
    Ok(row.as_ref().map(user_from_row).transpose()?)
}

/// Replaces the password hash of account `id`.
pub async fn set_password(db: &Database, id: i64, password_hash: &str) -> Result<()> {
    sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(password_hash)
        .bind(id)
        .execute(&db.write)
        .await?;
    Ok(())
}

/// Deletes account `id`: renames it to `placeholder`, forgets its e-mail
/// and password, ends its sessions, revokes its tokens and closes its open
/// challenges, in one transaction. Its games and ratings stay.
pub async fn delete_account(db: &Database, id: i64, placeholder: &str, now: i64) -> Result<()> {
    let mut tx = db.write.begin().await?;
    sqlx::query(
        "UPDATE users SET name = $1, name_key = $2, email = '', password_hash = '', \
         deleted_at = $3 WHERE id = $4",
    )
    .bind(placeholder)
    .bind(placeholder.to_ascii_lowercase())
    .bind(now)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM api_tokens WHERE user_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE challenges SET status = 'canceled' WHERE status = 'open' \
         AND (challenger_id = $1 OR target_id = $1)",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Stores a browser session.
pub async fn create_session(
    db: &Database,
    token_hash: &str,
    user_id: i64,
    csrf: &str,
    expires_at: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, csrf, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(csrf)
    .bind(expires_at)
    .execute(&db.write)
    .await?;
    Ok(())
}

/// The user of an unexpired session.
pub async fn session_user(db: &Database, token_hash: &str, now: i64) -> Result<Option<AuthUser>> {
    let row = sqlx::query(
        "SELECT u.id, u.name, u.bot, u.guest, s.csrf FROM sessions s JOIN users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(&db.read)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let csrf = row.try_get("csrf")?;
    Ok(Some(auth_user_from_row(
        &row,
        Scope::ALL.to_vec(),
        Credential::Session { csrf },
    )?))
}

/// The signed-in user of a row with `id`, `name`, `bot` and `guest`.
fn auth_user_from_row(
    row: &AnyRow,
    scopes: Vec<Scope>,
    credential: Credential,
) -> Result<AuthUser, sqlx::Error> {
    Ok(AuthUser {
        player: Player {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
        },
        bot: row.try_get::<i64, _>("bot")? != 0,
        scopes,
        credential,
        guest: row.try_get::<i64, _>("guest")? != 0,
    })
}

/// Ends a session.
pub async fn delete_session(db: &Database, token_hash: &str) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(&db.write)
        .await?;
    Ok(())
}

/// Ends every session of `user_id` but the one hashed `keep` (if given);
/// returns how many ended.
pub async fn delete_sessions_of(db: &Database, user_id: i64, keep: Option<&str>) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
        .bind(user_id)
        .bind(keep.unwrap_or(""))
        .execute(&db.write)
        .await?;
    Ok(done.rows_affected())
}

/// Drops the sessions that have expired by `now`.
pub async fn delete_expired_sessions(db: &Database, now: i64) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
        .bind(now)
        .execute(&db.write)
        .await?;
    Ok(done.rows_affected())
}

/// Stores an API token's hash; returns its number.
pub async fn create_token(
    db: &Database,
    user_id: i64,
    token_hash: &str,
    label: &str,
    scopes: &[Scope],
    now: i64,
) -> Result<i64> {
    let row = sqlx::query(
        "INSERT INTO api_tokens (user_id, token_hash, label, scopes, created_at) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(user_id)
    .bind(token_hash)
    .bind(label)
    .bind(Scope::join(scopes))
    .bind(now)
    .fetch_one(&db.write)
    .await?;
    Ok(row.try_get("id")?)
}

/// The user of an API token.
pub async fn token_user(db: &Database, token_hash: &str) -> Result<Option<AuthUser>> {
    let row = sqlx::query(
        "SELECT u.id, u.name, u.bot, u.guest, t.scopes FROM api_tokens t JOIN users u ON u.id = t.user_id \
         WHERE t.token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(&db.read)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let scopes = Scope::split(&row.try_get::<String, _>("scopes")?);
    Ok(Some(auth_user_from_row(&row, scopes, Credential::Token)?))
}

/// A user's tokens, oldest first.
pub async fn list_tokens(db: &Database, user_id: i64) -> Result<Vec<TokenInfo>> {
    let rows = sqlx::query(
        "SELECT id, label, scopes, created_at FROM api_tokens WHERE user_id = $1 ORDER BY id",
    )
    .bind(user_id)
    .fetch_all(&db.read)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(TokenInfo {
                id: row.try_get("id")?,
                label: row.try_get("label")?,
                scopes: Scope::split(&row.try_get::<String, _>("scopes")?),
                created_at: row.try_get("created_at")?,
            })
        })
        .collect()
}

/// Revokes a token of the user; false if there was none.
pub async fn delete_token(db: &Database, user_id: i64, id: i64) -> Result<bool> {
    let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .execute(&db.write)
        .await?;
    Ok(done.rows_affected() == 1)
}
