//! Players over HTTP: the rating list, profiles, a player's games and the
//! export of their records. Anyone may read them.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::HeaderValue;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::views::{game_view, leaderboard_view, profile_view};
use super::{App, Shared};
use crate::error::Result;
use crate::service::read_variant;

/// The most games an export holds (the newest).
const EXPORTED: i64 = 10_000;

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/users/{name}", get(profile))
        .route("/api/users/{name}/games", get(user_games))
        .route("/api/users/{name}/export", get(user_export))
}

#[derive(Deserialize)]
struct RatingList {
    /// The variant whose list it is (default the standard game).
    variant: Option<String>,
}

async fn leaderboard(State(app): Shared, Query(list): Query<RatingList>) -> Result<Json<Value>> {
    let variant = read_variant(list.variant.as_deref())?;
    let rows = app.service.leaderboard(variant).await?;
    Ok(Json(leaderboard_view(variant, &rows)))
}

async fn profile(State(app): Shared, Path(name): Path<String>) -> Result<Json<Value>> {
    Ok(Json(profile_view(&app.service.profile(&name).await?)))
}

#[derive(Deserialize)]
struct GameList {
    /// Only running games.
    #[serde(default)]
    active: bool,
    /// At most this many (default and most: 200).
    limit: Option<i64>,
}

async fn user_games(
    State(app): Shared,
    Path(name): Path<String>,
    Query(list): Query<GameList>,
) -> Result<Json<Value>> {
    let limit = list.limit.map(|l| l.min(crate::service::GAMES_LISTED));
    let (_, games) = app.service.games_of(&name, list.active, limit).await?;
    let now = app.service.now();
    let games: Vec<_> = games.iter().map(|g| game_view(g, now, false)).collect();
    Ok(Json(json!({"games": games})))
}

async fn user_export(State(app): Shared, Path(name): Path<String>) -> Result<Response> {
    let (player, games) = app.service.games_of(&name, false, Some(EXPORTED)).await?;
    let text: Vec<String> = games.iter().rev().map(|g| g.record_text()).collect();
    Ok(text_file(
        text.join("\n"),
        &format!("{}-games.txt", player.name),
    ))
}

/// A text download named `name`.
pub fn text_file(text: String, name: &str) -> Response {
    let mut response = ([(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response();
    if let Ok(value) = HeaderValue::from_str(&format!("inline; filename=\"{name}\"")) {
        response.headers_mut().insert(CONTENT_DISPOSITION, value);
    }
    response
}
