//! Games over HTTP: read one (with its legal moves) or its record, and the
//! players' moves, resignations, draw offers and takeback requests.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;

use super::extract::{ApiJson, Caller};
use super::players::text_file;
use super::views::game_view;
use super::{App, Shared};
use crate::error::{Error, Result};
use crate::game::{Offer, OfferAction};
use crate::service::parse_number;

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record", get(game_record))
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
