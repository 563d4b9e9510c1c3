//! The queries: every read and write of the database, written once for both
//! SQLite and PostgreSQL (numbered parameters, 64-bit integers, flags as 0
//! or 1).

use epaminondas_rules::{BoardSize, Color, GameRecord, GameResult, Position, Symmetry};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::auth::Scope;
use crate::challenge::{Challenge, ColorChoice};
use crate::db::Database;
use crate::error::{ApiError, ApiResult};
use crate::game::{EndReason, Game, Player, Seat, Status, TimeControl};
use crate::glicko::Rating;

/// A signed-in user as a request sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthUser {
    /// The account.
    pub player: Player,
    /// Whether it is a bot account.
    pub bot: bool,
    /// What the credentials allow.
    pub scopes: Vec<Scope>,
    /// The session's CSRF token, when signed in by cookie.
    pub csrf: Option<String>,
    /// Whether it is a guest account (made for a visitor without signing up).
    pub guest: bool,
}

/// An account as stored.
#[derive(Clone, Debug)]
pub struct UserRecord {
    /// Number and name.
    pub player: Player,
    /// The argon2id hash of the password.
    pub password_hash: String,
    /// Whether it is a bot account.
    pub bot: bool,
    /// The Glicko-2 rating.
    pub rating: Rating,
    /// Rated games played.
    pub rated_games: i64,
    /// When the account was made.
    pub created_at: i64,
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

const USER_COLUMNS: &str =
    "id, name, password_hash, bot, rating, deviation, volatility, rated_games, created_at";

fn user_from_row(row: &AnyRow) -> Result<UserRecord, sqlx::Error> {
    Ok(UserRecord {
        player: Player {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
        },
        password_hash: row.try_get("password_hash")?,
        bot: row.try_get::<i64, _>("bot")? != 0,
        rating: Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        },
        rated_games: row.try_get("rated_games")?,
        created_at: row.try_get("created_at")?,
    })
}

/// Creates an account; a name taken (in any letter case) is a conflict.
pub async fn create_user(
    db: &Database,
    name: &str,
    email: &str,
    password_hash: &str,
    bot: bool,
    now: i64,
) -> ApiResult<Player> {
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

/// A database error, read as "the name is taken" where it is one.
fn name_taken(error: sqlx::Error, name: &str) -> ApiError {
    if is_unique_violation(&error) {
        ApiError::conflict(format!("the name {name} is taken"))
    } else {
        error.into()
    }
}

/// Makes a guest account named `name`: no password (so nobody can sign in
/// to it), unrated, for a visitor who has not signed up.
pub async fn create_guest(db: &Database, name: &str, now: i64) -> ApiResult<Player> {
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
) -> ApiResult<Player> {
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
        return Err(ApiError::conflict("this account has already signed up"));
    }
    Ok(Player {
        id,
        name: name.to_string(),
    })
}

/// The account named `name` (any letter case).
pub async fn user_by_name(db: &Database, name: &str) -> ApiResult<Option<UserRecord>> {
    let row = sqlx::query(&format!(
        "SELECT {USER_COLUMNS} FROM users WHERE name_key = $1"
    ))
    .bind(name.to_ascii_lowercase())
    .fetch_optional(&db.read)
    .await?;
    Ok(row.as_ref().map(user_from_row).transpose()?)
}

/// The account numbered `id`.
pub async fn user_by_id(db: &Database, id: i64) -> ApiResult<Option<UserRecord>> {
    let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
        .bind(id)
        .fetch_optional(&db.read)
        .await?;
    Ok(row.as_ref().map(user_from_row).transpose()?)
}

/// Stores a browser session.
pub async fn create_session(
    db: &Database,
    token_hash: &str,
    user_id: i64,
    csrf: &str,
    expires_at: i64,
) -> ApiResult<()> {
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
pub async fn session_user(
    db: &Database,
    token_hash: &str,
    now: i64,
) -> ApiResult<Option<AuthUser>> {
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
        Some(csrf),
    )?))
}

/// The signed-in user of a row with `id`, `name`, `bot` and `guest`.
fn auth_user_from_row(
    row: &AnyRow,
    scopes: Vec<Scope>,
    csrf: Option<String>,
) -> Result<AuthUser, sqlx::Error> {
    Ok(AuthUser {
        player: Player {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
        },
        bot: row.try_get::<i64, _>("bot")? != 0,
        scopes,
        csrf,
        guest: row.try_get::<i64, _>("guest")? != 0,
    })
}

/// Ends a session.
pub async fn delete_session(db: &Database, token_hash: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(&db.write)
        .await?;
    Ok(())
}

/// Stores an API token's hash; returns its number.
pub async fn create_token(
    db: &Database,
    user_id: i64,
    token_hash: &str,
    label: &str,
    scopes: &[Scope],
    now: i64,
) -> ApiResult<i64> {
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
pub async fn token_user(db: &Database, token_hash: &str) -> ApiResult<Option<AuthUser>> {
    let row = sqlx::query(
        "SELECT u.id, u.name, u.bot, u.guest, t.scopes FROM api_tokens t JOIN users u ON u.id = t.user_id \
         WHERE t.token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(&db.read)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let scopes = Scope::split(&row.try_get::<String, _>("scopes")?);
    Ok(Some(auth_user_from_row(&row, scopes, None)?))
}

/// A user's tokens: (number, label, scopes, created).
pub async fn list_tokens(
    db: &Database,
    user_id: i64,
) -> ApiResult<Vec<(i64, String, String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT id, label, scopes, created_at FROM api_tokens WHERE user_id = $1 ORDER BY id",
    )
    .bind(user_id)
    .fetch_all(&db.read)
    .await?)
}

/// Revokes a token of the user; false if there was none.
pub async fn delete_token(db: &Database, user_id: i64, id: i64) -> ApiResult<bool> {
    let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .execute(&db.write)
        .await?;
    Ok(done.rows_affected() == 1)
}

fn color_text(color: Option<Color>) -> Option<String> {
    color.map(|c| crate::game::color_name(c).to_string())
}

fn color_from(text: Option<String>) -> Option<Color> {
    match text.as_deref() {
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        _ => None,
    }
}

/// Stores a new game and gives it its board number.
pub async fn insert_game(conn: &mut sqlx::AnyConnection, game: &mut Game) -> ApiResult<()> {
    let sql = format!(
        "INSERT INTO games ({GAME_COLUMNS}) VALUES \
         ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, \
          $20, $21, $22, $23, $24, $25) RETURNING id"
    );
    let row = bind_game(sqlx::query(&sql), game).fetch_one(conn).await?;
    game.id = row.try_get("id")?;
    game.name_players();
    Ok(())
}

const GAME_COLUMNS: &str = "white_id, black_id, engine_level, files, ranks, symmetry, rated, \
    time_kind, initial_ms, increment_ms, days_per_move, moves, status, result, reason, white_ms, \
    black_ms, turn_started_at, deadline_at, remind_at, draw_offer, takeback_offer, version, \
    created_at, ended_at";

fn bind_game<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    game: &Game,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let engine = match (&game.white, &game.black) {
        (Seat::Engine(level), _) | (_, Seat::Engine(level)) => Some(i64::from(*level)),
        _ => None,
    };
    let size = game.position().size();
    let (initial, increment, days) = game.control.columns();
    let (status, result, reason) = match game.status {
        Status::Active => ("active", None, None),
        Status::Finished { result, reason } => (
            "finished",
            Some(result.token().to_string()),
            Some(reason.name().to_string()),
        ),
    };
    query
        .bind(game.white.player_id())
        .bind(game.black.player_id())
        .bind(engine)
        .bind(i64::from(size.files()))
        .bind(i64::from(size.ranks()))
        .bind(game.position().symmetry().name())
        .bind(i64::from(game.rated))
        .bind(game.control.kind())
        .bind(initial)
        .bind(increment)
        .bind(days)
        .bind(game.move_texts().join(" "))
        .bind(status)
        .bind(result)
        .bind(reason)
        .bind(game.white_ms)
        .bind(game.black_ms)
        .bind(game.turn_started_at)
        .bind(game.deadline())
        .bind(game.remind_at())
        .bind(color_text(game.draw_offer))
        .bind(color_text(game.takeback_offer))
        .bind(game.version)
        .bind(game.created_at)
        .bind(game.ended_at)
}

/// Writes `game` over the stored game if the stored one is still at version
/// `read_version`; false if someone changed it meanwhile.
pub async fn update_game(db: &Database, game: &Game, read_version: i64) -> ApiResult<bool> {
    let sets: Vec<String> = GAME_COLUMNS
        .split(',')
        .map(str::trim)
        .enumerate()
        .map(|(i, c)| format!("{c} = ${}", i + 1))
        .collect();
    let sql = format!(
        "UPDATE games SET {} WHERE id = $26 AND version = $27",
        sets.join(", ")
    );
    let done = bind_game(sqlx::query(&sql), game)
        .bind(game.id)
        .bind(read_version)
        .execute(&db.write)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Loads the game numbered `id`.
pub async fn load_game(db: &Database, id: i64) -> ApiResult<Option<Game>> {
    let row = sqlx::query(
        "SELECT g.*, w.name AS white_name, b.name AS black_name FROM games g \
         LEFT JOIN users w ON w.id = g.white_id LEFT JOIN users b ON b.id = g.black_id \
         WHERE g.id = $1",
    )
    .bind(id)
    .fetch_optional(&db.read)
    .await?;
    row.as_ref().map(game_from_row).transpose()
}

fn game_from_row(row: &AnyRow) -> ApiResult<Game> {
    let corrupt = |what: &str| ApiError::Internal(format!("stored game has a bad {what}"));
    let seat = |id: Option<i64>, name: Option<String>, level: Option<i64>| match (id, name) {
        (Some(id), Some(name)) => Seat::Human(Player { id, name }),
        _ => Seat::Engine(level.and_then(|l| u8::try_from(l).ok()).unwrap_or(10)),
    };
    let level: Option<i64> = row.try_get("engine_level")?;
    let white = seat(row.try_get("white_id")?, row.try_get("white_name")?, level);
    let black = seat(row.try_get("black_id")?, row.try_get("black_name")?, level);
    let files = u8::try_from(row.try_get::<i64, _>("files")?).map_err(|_| corrupt("size"))?;
    let ranks = u8::try_from(row.try_get::<i64, _>("ranks")?).map_err(|_| corrupt("size"))?;
    let size = BoardSize::new(files, ranks).map_err(|_| corrupt("size"))?;
    let symmetry: Symmetry = row
        .try_get::<String, _>("symmetry")?
        .parse()
        .map_err(|_| corrupt("symmetry"))?;
    let mut record = GameRecord::new(Position::new(size, symmetry));
    for text in row.try_get::<String, _>("moves")?.split_whitespace() {
        record.push_text(text).map_err(|_| corrupt("move"))?;
    }
    let control = TimeControl::from_columns(
        &row.try_get::<String, _>("time_kind")?,
        row.try_get("initial_ms")?,
        row.try_get("increment_ms")?,
        row.try_get("days_per_move")?,
    );
    let status = match row.try_get::<String, _>("status")?.as_str() {
        "active" => Status::Active,
        _ => {
            let result = match row.try_get::<Option<String>, _>("result")?.as_deref() {
                Some("1-0") => GameResult::WhiteWins,
                Some("0-1") => GameResult::BlackWins,
                Some("1/2-1/2") => GameResult::Draw,
                _ => return Err(corrupt("result")),
            };
            let reason = row
                .try_get::<Option<String>, _>("reason")?
                .as_deref()
                .and_then(EndReason::from_name)
                .ok_or_else(|| corrupt("reason"))?;
            Status::Finished { result, reason }
        }
    };
    if let Status::Finished {
        result,
        reason: EndReason::Resignation | EndReason::Agreement | EndReason::Time,
    } = status
    {
        let _ = record.set_result(result);
    }
    let remind_at: Option<i64> = row.try_get("remind_at")?;
    let mut game = Game {
        id: row.try_get("id")?,
        white,
        black,
        rated: row.try_get::<i64, _>("rated")? != 0,
        control,
        record,
        status,
        white_ms: row.try_get("white_ms")?,
        black_ms: row.try_get("black_ms")?,
        turn_started_at: row.try_get("turn_started_at")?,
        reminded: false,
        draw_offer: color_from(row.try_get("draw_offer")?),
        takeback_offer: color_from(row.try_get("takeback_offer")?),
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        ended_at: row.try_get("ended_at")?,
    };
    game.reminded = remind_at.is_none() && matches!(control, TimeControl::Correspondence { .. });
    game.name_players();
    Ok(game)
}

/// Active games whose clock has run out or whose reminder is due at `now`.
pub async fn due_games(db: &Database, now: i64) -> ApiResult<Vec<i64>> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'active' AND (deadline_at <= $1 OR remind_at <= $1)",
    )
    .bind(now)
    .fetch_all(&db.read)
    .await?;
    Ok(rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?)
}

/// Active games against the engine (to resume after a restart).
pub async fn active_engine_games(db: &Database) -> ApiResult<Vec<i64>> {
    let rows =
        sqlx::query("SELECT id FROM games WHERE status = 'active' AND engine_level IS NOT NULL")
            .fetch_all(&db.read)
            .await?;
    Ok(rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?)
}

/// The games of a player, newest first; only active ones if `active_only`.
pub async fn games_of(db: &Database, user_id: i64, active_only: bool) -> ApiResult<Vec<i64>> {
    let sql = if active_only {
        "SELECT id FROM games WHERE (white_id = $1 OR black_id = $1) AND status = 'active' \
         ORDER BY id DESC"
    } else {
        "SELECT id FROM games WHERE white_id = $1 OR black_id = $1 ORDER BY id DESC"
    };
    let rows = sqlx::query(sql).bind(user_id).fetch_all(&db.read).await?;
    Ok(rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?)
}

/// Stores the new ratings of a finished rated game, once: false if the game
/// was already rated (by another server process).
pub async fn record_ratings(
    db: &Database,
    game_id: i64,
    changes: &[(i64, Rating)],
    now: i64,
) -> ApiResult<bool> {
    let mut tx = db.write.begin().await?;
    let already = sqlx::query("SELECT COUNT(*) AS n FROM rating_history WHERE game_id = $1")
        .bind(game_id)
        .fetch_one(&mut *tx)
        .await?
        .try_get::<i64, _>("n")?;
    if already > 0 {
        return Ok(false);
    }
    for (user_id, r) in changes {
        sqlx::query(
            "UPDATE users SET rating = $1, deviation = $2, volatility = $3, \
             rated_games = rated_games + 1 WHERE id = $4",
        )
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(*user_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO rating_history (user_id, game_id, rating, deviation, at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(*user_id)
        .bind(game_id)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// The best-rated players who have played rated games: (name, rating,
/// deviation, rated games).
pub async fn leaderboard(db: &Database, limit: i64) -> ApiResult<Vec<(String, f64, f64, i64)>> {
    // Tuples are read column by column, in the order selected.
    Ok(sqlx::query_as(
        "SELECT name, rating, deviation, rated_games FROM users WHERE rated_games > 0 \
         ORDER BY rating DESC, name LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&db.read)
    .await?)
}

/// A player's rating after each rated game: (game, rating, deviation, when).
pub async fn rating_history(db: &Database, user_id: i64) -> ApiResult<Vec<(i64, f64, f64, i64)>> {
    // Tuples are read column by column, in the order selected.
    Ok(sqlx::query_as(
        "SELECT game_id, rating, deviation, at FROM rating_history WHERE user_id = $1 \
         ORDER BY at, game_id",
    )
    .bind(user_id)
    .fetch_all(&db.read)
    .await?)
}

const CHALLENGE_SELECT: &str = "SELECT c.*, a.name AS challenger_name, t.name AS target_name \
    FROM challenges c JOIN users a ON a.id = c.challenger_id \
    LEFT JOIN users t ON t.id = c.target_id";

fn challenge_from_row(row: &AnyRow) -> ApiResult<Challenge> {
    let corrupt = || ApiError::Internal("stored challenge is malformed".into());
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
        color: ColorChoice::from_name(&row.try_get::<String, _>("color")?).ok_or_else(corrupt)?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        control: TimeControl::from_columns(
            &row.try_get::<String, _>("time_kind")?,
            row.try_get("initial_ms")?,
            row.try_get("increment_ms")?,
            row.try_get("days_per_move")?,
        ),
        status: row.try_get("status")?,
        game_id: row.try_get("game_id")?,
        created_at: row.try_get("created_at")?,
    })
}

/// Stores a new open challenge and gives it its number.
pub async fn insert_challenge(db: &Database, c: &mut Challenge) -> ApiResult<()> {
    let (initial, increment, days) = c.control.columns();
    let row = sqlx::query(
        "INSERT INTO challenges (challenger_id, target_id, files, ranks, symmetry, color, rated, \
         time_kind, initial_ms, increment_ms, days_per_move, status, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12) RETURNING id",
    )
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
    .bind(c.created_at)
    .fetch_one(&db.write)
    .await?;
    c.id = row.try_get("id")?;
    Ok(())
}

/// The challenge numbered `id`.
pub async fn load_challenge(db: &Database, id: i64) -> ApiResult<Option<Challenge>> {
    let row = sqlx::query(&format!("{CHALLENGE_SELECT} WHERE c.id = $1"))
        .bind(id)
        .fetch_optional(&db.read)
        .await?;
    row.as_ref().map(challenge_from_row).transpose()
}

/// The open challenges a user sees: their own, those to them, and open
/// seeks by anyone.
pub async fn open_challenges(db: &Database, user_id: i64) -> ApiResult<Vec<Challenge>> {
    let rows = sqlx::query(&format!(
        "{CHALLENGE_SELECT} WHERE c.status = 'open' AND \
         (c.challenger_id = $1 OR c.target_id = $1 OR c.target_id IS NULL) ORDER BY c.id"
    ))
    .bind(user_id)
    .fetch_all(&db.read)
    .await?;
    rows.iter().map(challenge_from_row).collect()
}

/// Closes an open challenge as `status` (declined or canceled); false if it
/// was no longer open.
pub async fn close_challenge(db: &Database, id: i64, status: &str) -> ApiResult<bool> {
    let done = sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
        .bind(status)
        .bind(id)
        .execute(&db.write)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Accepts an open challenge and stores its game, in one transaction:
/// false (and nothing stored) if it was no longer open.
pub async fn accept_challenge(db: &Database, id: i64, game: &mut Game) -> ApiResult<bool> {
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
    tx.commit().await?;
    Ok(true)
}
