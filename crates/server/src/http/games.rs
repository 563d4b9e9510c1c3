//! Games over HTTP: read one (with its legal moves) or its record, the
//! players' moves, resignations, draw offers and takeback requests, and the
//! computer analysis of a finished game.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{ApiJson, Caller};
use super::players::text_file;
use super::views::game_view;
use super::{App, Shared};
use crate::error::{Error, Result};
use crate::game::{Offer, OfferAction};
use crate::service::{GameAnalysis, parse_number};

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record", get(game_record))
        .route(
            "/api/games/{id}/analysis",
            get(game_analysis).post(request_game_analysis),
        )
        .route("/api/games/{id}/analysis/record", get(analysis_record))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw/{action}", post(offer::<false>))
        .route("/api/games/{id}/takeback/{action}", post(offer::<true>))
}

fn game_number(text: &str) -> Result<i64> {
    parse_number(text, "the game number")
}

async fn game(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>> {
    let game = app.service.game(game_number(&id)?).await?;
    let mut view = game_view(&game, app.service.now(), true);
    if let Some((id, name, round)) = app.service.tournament_of_game(game.id).await? {
        view["tournament"] = serde_json::json!({"id": id, "name": name, "round": round});
    }
    Ok(Json(view))
}

async fn game_record(State(app): Shared, Path(id): Path<String>) -> Result<Response> {
    let game = app.service.game(game_number(&id)?).await?;
    Ok(text_file(
        game.record_text(),
        &format!("game-{}.txt", game.id),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveForm {
    #[serde(rename = "move")]
    text: String,
    ply: Option<usize>,
}

async fn play(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<MoveForm>,
) -> Result<Json<Value>> {
    let game = app
        .service
        .play(&user, game_number(&id)?, &form.text, form.ply)
        .await?;
    Ok(Json(game_view(&game, app.service.now(), false)))
}

async fn resign(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let game = app.service.resign(&user, game_number(&id)?).await?;
    Ok(Json(game_view(&game, app.service.now(), false)))
}

/// The action an offer's path names.
pub fn offer_action(text: &str) -> Result<OfferAction> {
    match text {
        "offer" => Ok(OfferAction::Offer),
        "accept" | "yes" => Ok(OfferAction::Accept),
        "decline" | "no" => Ok(OfferAction::Decline),
        other => Err(Error::invalid(format!(
            "unknown action {:?}: use offer, accept or decline",
            epaminondas_rules::excerpt(other)
        ))),
    }
}

/// A draw offer (`TAKEBACK` false) or takeback request, or an answer to one.
async fn offer<const TAKEBACK: bool>(
    State(app): Shared,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let kind = if TAKEBACK {
        Offer::Takeback
    } else {
        Offer::Draw
    };
    let game = app
        .service
        .offer(&user, game_number(&id)?, kind, offer_action(&action)?)
        .await?;
    Ok(Json(game_view(&game, app.service.now(), false)))
}

/// A game's analysis as the API shows it: where it stands and, once done,
/// every position (evaluation, best move, the mark of the move that led
/// there) and each side's count of marks.
fn analysis_view(id: i64, analysis: Option<&GameAnalysis>) -> Value {
    let Some(analysis) = analysis else {
        return json!({"game": id, "status": "none"});
    };
    let row = &analysis.row;
    let mut marks = json!({
        "white": {"?!": 0, "?": 0, "??": 0},
        "black": {"?!": 0, "?": 0, "??": 0},
    });
    for p in &analysis.positions {
        if let Some(mark) = &p.mark {
            // The move into ply n was made by White when n is odd.
            let side = if p.ply % 2 == 1 { "white" } else { "black" };
            if let Some(count) = marks[side][mark.as_str()].as_i64() {
                marks[side][mark.as_str()] = json!(count + 1);
            }
        }
    }
    json!({
        "game": id,
        "status": row.status.as_str(),
        "positions": row.positions,
        "done_positions": row.done_positions,
        "movetime_ms": row.movetime_ms,
        "requested_at": row.created_at,
        "finished_at": row.finished_at,
        "marks": marks,
        "moves": analysis.positions,
    })
}

/// `GET /api/games/{id}/analysis`: the game's computer analysis, for
/// anyone (`status` "none" before anyone asked).
async fn game_analysis(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>> {
    let id = game_number(&id)?;
    let analysis = app.service.game_analysis(id).await?;
    Ok(Json(analysis_view(id, analysis.as_ref())))
}

/// `POST /api/games/{id}/analysis`: asks for the computer analysis of a
/// finished game (202 while it waits or runs; the same analysis if one was
/// already asked for).
async fn request_game_analysis(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Value>)> {
    let id = game_number(&id)?;
    let analysis = app.service.request_game_analysis(&user, id).await?;
    let status = if analysis.positions.is_empty() {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(analysis_view(id, Some(&analysis)))))
}

/// `GET /api/games/{id}/analysis/record`: the record annotated with the
/// evaluations, the marks and the better moves.
async fn analysis_record(State(app): Shared, Path(id): Path<String>) -> Result<Response> {
    let id = game_number(&id)?;
    match app.service.game_analysis(id).await? {
        Some(analysis) if !analysis.row.record.is_empty() => Ok(text_file(
            analysis.row.record,
            &format!("game-{id}-analysed.txt"),
        )),
        _ => Err(Error::conflict(format!(
            "game {id} has no finished analysis yet"
        ))),
    }
}
