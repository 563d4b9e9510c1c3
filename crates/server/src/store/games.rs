//! Games: stored with a version number, so that a change is written only
//! over the state it was made from (see [`update_game`]).

use epaminondas_rules::{BoardSize, Color, GameRecord, GameResult, Position, Symmetry, Variant};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{ids, next_number};
use crate::conditional::Conditional;
use crate::db::Database;
use crate::error::{Error, Result};
use crate::game::{EndReason, Game, Player, Seat, Status, TimeControl, Vacation, color_index};
use crate::mail::OutMail;

const GAME_COLUMNS: &str = "white_id, black_id, engine_level, files, ranks, symmetry, rated, \
    time_kind, initial_ms, increment_ms, days_per_move, moves, status, result, reason, white_ms, \
    black_ms, turn_started_at, deadline_at, remind_at, draw_offer, takeback_offer, version, \
    created_at, ended_at, max_ms, vacations, white_conditional, black_conditional, variant";
/// The number of columns in [`GAME_COLUMNS`].
const GAME_COLUMN_COUNT: usize = 30;

const GAME_SELECT: &str = "SELECT g.*, w.name AS white_name, b.name AS black_name FROM games g \
    LEFT JOIN users w ON w.id = g.white_id LEFT JOIN users b ON b.id = g.black_id";

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

fn bind_game<'q>(query: AnyQuery<'q>, game: &Game) -> AnyQuery<'q> {
    let engine = match (&game.white, &game.black) {
        (Seat::Engine(level), _) | (_, Seat::Engine(level)) => Some(i64::from(*level)),
        _ => None,
    };
    let size = game.position().size();
    let (initial, increment, days, max) = game.control.columns();
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
        .bind(game.draw_offer.map(Color::name))
        .bind(game.takeback_offer.map(Color::name))
        .bind(game.version)
        .bind(game.created_at)
        .bind(game.ended_at)
        .bind(max)
        .bind(Vacation::list_text(&game.vacations))
        .bind(game.conditional[0].to_text())
        .bind(game.conditional[1].to_text())
        .bind(game.position().variant().name())
}

/// Stores a new game and gives it its board number.
pub async fn insert_game(conn: &mut sqlx::AnyConnection, game: &mut Game) -> Result<()> {
    game.id = next_number(&mut *conn, "game").await?;
    game.name_players();
    let placeholders: Vec<String> = (1..=GAME_COLUMN_COUNT + 1)
        .map(|i| format!("${i}"))
        .collect();
    let sql = format!(
        "INSERT INTO games ({GAME_COLUMNS}, id) VALUES ({})",
        placeholders.join(", ")
    );
    bind_game(sqlx::query(&sql), game)
        .bind(game.id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Writes `game` over the stored game if the stored one is still at version
/// `read_version`, and puts `mails` (the notifications the change causes)
/// in the outbox in the same transaction; false if someone changed the game
/// meanwhile (then nothing is written).
pub async fn update_game(
    db: &Database,
    game: &Game,
    read_version: i64,
    mails: &[OutMail],
    now: i64,
) -> Result<bool> {
    let sets: Vec<String> = GAME_COLUMNS
        .split(',')
        .map(str::trim)
        .enumerate()
        .map(|(i, c)| format!("{c} = ${}", i + 1))
        .collect();
    let sql = format!(
        "UPDATE games SET {} WHERE id = ${} AND version = ${}",
        sets.join(", "),
        GAME_COLUMN_COUNT + 1,
        GAME_COLUMN_COUNT + 2,
    );
    if mails.is_empty() {
        let done = bind_game(sqlx::query(&sql), game)
            .bind(game.id)
            .bind(read_version)
            .execute(&db.write)
            .await?;
        return Ok(done.rows_affected() == 1);
    }
    let mut tx = db.write.begin().await?;
    let done = bind_game(sqlx::query(&sql), game)
        .bind(game.id)
        .bind(read_version)
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(false);
    }
    super::queue_mail(&mut tx, mails, now).await?;
    tx.commit().await?;
    Ok(true)
}

/// The stored version of game `id`, if it exists.
pub async fn game_version(db: &Database, id: i64) -> Result<Option<i64>> {
    let row = sqlx::query("SELECT version FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.read)
        .await?;
    Ok(row.map(|r| r.try_get("version")).transpose()?)
}

/// Loads the game numbered `id`.
pub async fn load_game(db: &Database, id: i64) -> Result<Option<Game>> {
    let row = sqlx::query(&format!("{GAME_SELECT} WHERE g.id = $1"))
        .bind(id)
        .fetch_optional(&db.read)
        .await?;
    row.as_ref().map(game_from_row).transpose()
}

fn game_from_row(row: &AnyRow) -> Result<Game> {
    let corrupt = |what: &str| Error::Internal(format!("stored game has a bad {what}"));
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
    let variant: Variant = row
        .try_get::<String, _>("variant")?
        .parse()
        .map_err(|_| corrupt("variant"))?;
    let start = Position::new_variant(variant, size, symmetry).map_err(|_| corrupt("variant"))?;
    let mut record = GameRecord::new(start);
    for text in row.try_get::<String, _>("moves")?.split_whitespace() {
        record.push_text(text).map_err(|_| corrupt("move"))?;
    }
    let control = TimeControl::from_columns(
        &row.try_get::<String, _>("time_kind")?,
        row.try_get("initial_ms")?,
        row.try_get("increment_ms")?,
        row.try_get("days_per_move")?,
        row.try_get("max_ms")?,
    );
    let status = match row.try_get::<String, _>("status")?.as_str() {
        "active" => Status::Active,
        _ => {
            let result = row
                .try_get::<Option<String>, _>("result")?
                .as_deref()
                .and_then(GameResult::from_token)
                .filter(|r| *r != GameResult::Unfinished)
                .ok_or_else(|| corrupt("result"))?;
            let reason = row
                .try_get::<Option<String>, _>("reason")?
                .as_deref()
                .and_then(|r| r.parse::<EndReason>().ok())
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
    let offer = |column: &str| -> Result<Option<Color>> {
        Ok(row
            .try_get::<Option<String>, _>(column)?
            .and_then(|text| text.parse().ok()))
    };
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
        draw_offer: offer("draw_offer")?,
        takeback_offer: offer("takeback_offer")?,
        vacations: Vacation::parse_list(&row.try_get::<String, _>("vacations")?),
        conditional: Default::default(),
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        ended_at: row.try_get("ended_at")?,
    };
    game.reminded = remind_at.is_none() && control.is_correspondence();
    // Conditional moves wait for the opponent: only the side not to move
    // has any, and they are read from the position now.
    if !game.is_finished() {
        let waiting = !game.turn();
        let column = match waiting {
            Color::White => "white_conditional",
            Color::Black => "black_conditional",
        };
        let text: String = row.try_get(column)?;
        if let Ok(tree) = Conditional::parse(game.position(), &text) {
            game.conditional[color_index(waiting)] = tree;
        }
    }
    game.name_players();
    Ok(game)
}

/// Active games whose clock has run out or whose reminder is due at `now`.
pub async fn due_games(db: &Database, now: i64) -> Result<Vec<i64>> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'active' AND (deadline_at <= $1 OR remind_at <= $1)",
    )
    .bind(now)
    .fetch_all(&db.read)
    .await?;
    ids(&rows)
}

/// Active games against the engine (to resume after a restart).
pub async fn active_engine_games(db: &Database) -> Result<Vec<i64>> {
    let rows =
        sqlx::query("SELECT id FROM games WHERE status = 'active' AND engine_level IS NOT NULL")
            .fetch_all(&db.read)
            .await?;
    ids(&rows)
}

/// The latest `limit` games of a player, newest first; only active ones if
/// `active_only`.
pub async fn games_of(
    db: &Database,
    user_id: i64,
    active_only: bool,
    limit: i64,
) -> Result<Vec<Game>> {
    let active = if active_only {
        "AND g.status = 'active'"
    } else {
        ""
    };
    let rows = sqlx::query(&format!(
        "{GAME_SELECT} WHERE (g.white_id = $1 OR g.black_id = $1) {active} ORDER BY g.id DESC LIMIT $2"
    ))
    .bind(user_id)
    .bind(limit)
    .fetch_all(&db.read)
    .await?;
    rows.iter().map(game_from_row).collect()
}

/// The games of tournament `id`, by round and board.
pub async fn tournament_games(db: &Database, id: i64) -> Result<Vec<Game>> {
    let rows = sqlx::query(&format!(
        "{GAME_SELECT} JOIN tournament_games tg ON tg.game_id = g.id \
         WHERE tg.tournament_id = $1 ORDER BY tg.round, tg.board"
    ))
    .bind(id)
    .fetch_all(&db.read)
    .await?;
    rows.iter().map(game_from_row).collect()
}
