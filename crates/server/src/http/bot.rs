//! The bot API (lichess's shape): a bot account streams its events and its
//! games as NDJSON and answers with plain POSTs. Bot accounts with a `bot`
//! token only.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use super::extract::Caller;
use super::streams::{Feed, ndjson};
use super::{App, Shared};
use crate::auth::{AuthUser, Scope};
use crate::error::{Error, Result};
use crate::game::{Offer, OfferAction};
use crate::service::parse_number;

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/bot/stream/event", get(bot_events))
        .route("/api/bot/game/stream/{id}", get(bot_game_stream))
        .route("/api/bot/game/{id}/move/{mv}", post(bot_move))
        .route("/api/bot/game/{id}/resign", post(bot_resign))
        .route("/api/bot/game/{id}/draw/{answer}", post(bot_draw))
}

fn bot_only(user: &AuthUser) -> Result<()> {
    if !user.bot {
        return Err(Error::forbidden(
            "the bot API is for bot accounts (sign up with \"bot\": true)",
        ));
    }
    user.require(Scope::Bot)
}

fn game_number(text: &str) -> Result<i64> {
    parse_number(text, "the game number")
}

async fn bot_events(State(app): Shared, Caller(user): Caller) -> Result<Response> {
    bot_only(&user)?;
    Ok(ndjson(Feed::player(&app.service, &user).await?))
}

async fn bot_game_stream(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Response> {
    bot_only(&user)?;
    Ok(ndjson(Feed::game(&app.service, game_number(&id)?).await?))
}

async fn bot_move(
    State(app): Shared,
    Caller(user): Caller,
    Path((id, mv)): Path<(String, String)>,
) -> Result<Json<Value>> {
    bot_only(&user)?;
    app.service
        .play(&user, game_number(&id)?, &mv, None)
        .await?;
    Ok(Json(json!({"ok": true})))
}

async fn bot_resign(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    bot_only(&user)?;
    app.service.resign(&user, game_number(&id)?).await?;
    Ok(Json(json!({"ok": true})))
}

async fn bot_draw(
    State(app): Shared,
    Caller(user): Caller,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Json<Value>> {
    bot_only(&user)?;
    let action = match answer.as_str() {
        "yes" | "offer" => OfferAction::Offer,
        "no" => OfferAction::Decline,
        other => {
            return Err(Error::invalid(format!(
                "unknown answer {:?}: use yes or no",
                epaminondas_rules::excerpt(other)
            )));
        }
    };
    app.service
        .offer(&user, game_number(&id)?, Offer::Draw, action)
        .await?;
    Ok(Json(json!({"ok": true})))
}
