//! Challenges over HTTP: make one (to a player, as an open seek, or a game
//! against the computer at once), list those you may answer, accept,
//! decline or cancel.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{ApiJson, Caller};
use super::views::{challenge_view, game_view};
use super::{App, Shared};
use crate::error::{Error, Result};
use crate::game::TimeControl;
use crate::service::{ChallengeOptions, Created, Opponent, RulesText, parse_number};

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route(
            "/api/challenges",
            post(create_challenge).get(list_challenges),
        )
        .route("/api/challenges/{id}/{action}", post(answer_challenge))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewChallenge {
    opponent: Option<String>,
    level: Option<u8>,
    board: Option<String>,
    symmetry: Option<String>,
    variant: Option<String>,
    color: Option<String>,
    #[serde(default)]
    rated: bool,
    time: Option<TimeControl>,
}

async fn create_challenge(
    State(app): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<NewChallenge>,
) -> Result<(StatusCode, Json<Value>)> {
    let opponent = match (form.opponent, form.level) {
        (Some(_), Some(_)) => {
            return Err(Error::invalid(
                "give either an opponent or a level, not both",
            ));
        }
        (Some(name), None) => Opponent::Player(name),
        (None, Some(level)) => Opponent::Computer(level),
        (None, None) => Opponent::Anyone,
    };
    let options = ChallengeOptions::read(
        opponent,
        RulesText {
            variant: form.variant.as_deref(),
            board: form.board.as_deref(),
            symmetry: form.symmetry.as_deref(),
        },
        form.color.as_deref(),
        form.rated,
        form.time,
    )?;
    let body = match app.service.challenge(&user, options).await? {
        Created::Challenge(c) => json!({"challenge": challenge_view(&c)}),
        Created::Game(g) => json!({"game": game_view(&g, app.service.now(), true)}),
    };
    Ok((StatusCode::CREATED, Json(body)))
}

async fn list_challenges(State(app): Shared, Caller(user): Caller) -> Result<Json<Value>> {
    let list = app.service.challenges(&user.player).await?;
    let list: Vec<_> = list.iter().map(challenge_view).collect();
    Ok(Json(json!({"challenges": list})))
}

async fn answer_challenge(
    State(app): Shared,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the challenge number")?;
    match action.as_str() {
        "accept" => {
            let game = app.service.accept(&user, id).await?;
            Ok(Json(
                json!({"game": game_view(&game, app.service.now(), true)}),
            ))
        }
        "decline" | "cancel" => {
            let c = app
                .service
                .close_challenge(&user, id, action == "cancel")
                .await?;
            Ok(Json(json!({"challenge": challenge_view(&c)})))
        }
        other => Err(Error::invalid(format!(
            "unknown challenge action {:?}: use accept, decline or cancel",
            epaminondas_rules::excerpt(other)
        ))),
    }
}
