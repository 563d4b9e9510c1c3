//! The puzzle trainer over HTTP: a next puzzle, the daily one, one by id,
//! the moves judged (the solution only once the attempt is over), and a
//! player's puzzle rating and history. Reads are for anyone; ratings for
//! signed-in players.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use epaminondas_learn::puzzles::Answer;
use epaminondas_rules::BoardSize;
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{ApiJson, Caller, ClientIp, MaybeCaller};
use super::views::{move_view, position_view};
use super::{App, Shared};
use crate::error::{Error, Result};
use crate::service::RatedPuzzle;

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/daily", get(daily))
        .route("/api/puzzles/{id}", get(one))
        .route("/api/puzzles/{id}/answer", post(answer))
        .route("/api/account/puzzles", get(record))
}

/// A puzzle as the trainer shows it, without its solution.
fn puzzle_view(rated: &RatedPuzzle) -> Value {
    let puzzle = rated.puzzle;
    json!({
        "id": puzzle.id,
        "rating": rated.rating.round(),
        "attempts": rated.attempts,
        "solved": rated.solved,
        "plies": puzzle.plies,
        "winner": puzzle.winner().name(),
        "moves_to_find": puzzle.plies.div_ceil(2),
        "state": position_view(&puzzle.position),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NextQuery {
    /// The board size, such as `8x8` (default 14x12).
    board: Option<String>,
}

/// `GET /api/puzzles/next?board=8x8`: a puzzle near the caller's rating.
async fn next(
    State(app): Shared,
    MaybeCaller(user): MaybeCaller,
    Query(query): Query<NextQuery>,
) -> Result<Json<Value>> {
    let board = match &query.board {
        Some(text) => text
            .parse::<BoardSize>()
            .map_err(|e| Error::invalid(format!("board: {e}")))?,
        None => BoardSize::STANDARD,
    };
    let rated = app.service.next_puzzle(user.as_ref(), board).await?;
    Ok(Json(puzzle_view(&rated)))
}

/// `GET /api/puzzles/daily`: the puzzle of the day.
async fn daily(State(app): Shared) -> Result<Json<Value>> {
    Ok(Json(puzzle_view(&app.service.daily_puzzle().await?)))
}

/// `GET /api/puzzles/{id}`.
async fn one(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>> {
    Ok(Json(puzzle_view(&app.service.puzzle(&id).await?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerForm {
    /// The attempt's moves so far, the newest last.
    moves: Vec<String>,
}

/// `POST /api/puzzles/{id}/answer`: judges the newest move.
async fn answer(
    State(app): Shared,
    MaybeCaller(user): MaybeCaller,
    client: ClientIp,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<AnswerForm>,
) -> Result<Json<Value>> {
    let judged = app
        .service
        .answer_puzzle(user.as_ref(), client.key(user.as_ref()), &id, &form.moves)
        .await?;
    let (result, reply) = match judged.answer {
        Answer::Reply(reply) => ("reply", Some(reply)),
        Answer::Solved(reply) => ("solved", reply),
        Answer::Wrong => ("wrong", None),
    };
    let mut state = position_view(&judged.position);
    state["last"] = reply.map_or(Value::Null, move_view);
    Ok(Json(json!({
        "result": result,
        "reply": reply.map(|m| m.to_string()),
        "state": state,
        "solution": judged
            .solution
            .map(|line| line.iter().map(|m| m.to_string()).collect::<Vec<_>>()),
        "rating": judged.rated.map(|(before, after)| json!({
            "before": before.round(),
            "after": after.round(),
        })),
    })))
}

/// `GET /api/account/puzzles`: the caller's puzzle rating and history.
async fn record(State(app): Shared, Caller(user): Caller) -> Result<Json<Value>> {
    let record = app.service.puzzle_record(&user).await?;
    let history: Vec<Value> = record
        .history
        .iter()
        .map(|a| {
            json!({
                "puzzle": a.puzzle_id,
                "solved": a.solved,
                "rating_before": a.rating_before.round(),
                "rating_after": a.rating_after.round(),
                "at": a.created_at,
            })
        })
        .collect();
    Ok(Json(json!({
        "rating": record.rating.rating.round(),
        "deviation": record.rating.deviation.round(),
        "attempts": record.attempts,
        "solved": record.solved,
        "history": history,
    })))
}
