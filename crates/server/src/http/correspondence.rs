//! Correspondence play over HTTP: vacations and the correspondence
//! settings, conditional moves, the chat's mute and report, the
//! spectators' chat, and the games waiting for the player's move.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{ApiJson, Caller, MaybeCaller};
use super::{App, Shared};
use crate::error::Result;
use crate::service::{VacationInfo, parse_number};
use crate::store::{CorrespondenceOptions, VacationRow};

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account/vacation", get(vacation).post(take_vacation))
        .route("/api/account/vacation/{id}", delete(end_vacation))
        .route("/api/account/correspondence", post(set_options))
        .route("/api/account/waiting", get(waiting))
        .route(
            "/api/games/{id}/conditional",
            get(conditional)
                .put(set_conditional)
                .delete(clear_conditional),
        )
        .route("/api/games/{id}/chat/mute", post(mute))
        .route(
            "/api/games/{id}/chat/spectators",
            get(spectator_chat).post(post_spectator_chat),
        )
        .route(
            "/api/games/{id}/chat/spectators/open",
            post(open_spectator_chat),
        )
        .route("/api/chat/{message}/report", post(report))
}

fn vacation_row(v: &VacationRow) -> Value {
    json!({"id": v.id, "starts_at": v.starts_at, "ends_at": v.ends_at, "automatic": v.automatic})
}

fn vacation_view(info: &VacationInfo) -> Value {
    json!({
        "allowance_days": info.allowance_days,
        "used_days": info.used_days,
        "left_days": (info.allowance_days - info.used_days).max(0),
        "vacations": info.vacations.iter().map(vacation_row).collect::<Vec<_>>(),
        "auto_vacation": info.options.auto_vacation,
        "max_correspondence": info.options.max_correspondence,
    })
}

async fn vacation(State(app): Shared, Caller(user): Caller) -> Result<Json<Value>> {
    Ok(Json(vacation_view(
        &app.service.vacation_info(&user).await?,
    )))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VacationForm {
    days: i64,
    starts_at: Option<i64>,
}

async fn take_vacation(
    State(app): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<VacationForm>,
) -> Result<(StatusCode, Json<Value>)> {
    let taken = app
        .service
        .take_vacation(&user, form.starts_at, form.days)
        .await?;
    Ok((StatusCode::CREATED, Json(vacation_row(&taken))))
}

async fn end_vacation(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the vacation number")?;
    app.service.end_vacation(&user, id).await?;
    Ok(Json(vacation_view(
        &app.service.vacation_info(&user).await?,
    )))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsForm {
    auto_vacation: Option<bool>,
    max_correspondence: Option<i64>,
}

async fn set_options(
    State(app): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<OptionsForm>,
) -> Result<Json<Value>> {
    let now = app.service.vacation_info(&user).await?.options;
    let options = CorrespondenceOptions {
        auto_vacation: form.auto_vacation.unwrap_or(now.auto_vacation),
        max_correspondence: form.max_correspondence.unwrap_or(now.max_correspondence),
    };
    app.service
        .set_correspondence_options(&user, options)
        .await?;
    Ok(Json(vacation_view(
        &app.service.vacation_info(&user).await?,
    )))
}

async fn waiting(State(app): Shared, Caller(user): Caller) -> Result<Json<Value>> {
    let now = app.service.now();
    let games: Vec<Value> = app
        .service
        .waiting_games(&user)
        .await?
        .iter()
        .map(|w| {
            let color = w.game.turn();
            json!({
                "id": w.game.id,
                "color": color.name(),
                "opponent": w.game.seat(!color).name(),
                "board": w.game.position().size().to_string(),
                "variant": w.game.position().variant().name(),
                "variant_title": w.game.position().variant().title(),
                "time": w.game.control,
                "ply": w.game.ply(),
                "left_ms": w.left_ms,
                "deadline_at": w.game.deadline(),
                "on_vacation": w.game.on_vacation(color, now).is_some(),
            })
        })
        .collect();
    Ok(Json(json!({"games": games})))
}

fn conditional_view(game: &crate::game::Game, lines: &[Vec<String>]) -> Value {
    json!({
        "game": game.id,
        "ply": game.ply(),
        "lines": lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>(),
        "state": if game.is_finished() { "finished" } else { "active" },
    })
}

async fn conditional(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the game number")?;
    let (game, lines) = app.service.conditional(&user, id).await?;
    Ok(Json(conditional_view(&game, &lines)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConditionalForm {
    lines: Vec<String>,
}

async fn set_conditional(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<ConditionalForm>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the game number")?;
    if form.lines.iter().any(|l| l.contains([';', '\n'])) {
        return Err(crate::error::Error::invalid(
            "one line per entry: lines hold moves separated by spaces",
        ));
    }
    app.service
        .set_conditional(&user, id, &form.lines.join(";"))
        .await?;
    conditional(State(app), Caller(user), Path(id.to_string())).await
}

async fn clear_conditional(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the game number")?;
    app.service.set_conditional(&user, id, "").await?;
    conditional(State(app), Caller(user), Path(id.to_string())).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MuteForm {
    muted: bool,
}

async fn mute(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<MuteForm>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the game number")?;
    app.service.mute_chat(&user, id, form.muted).await?;
    Ok(Json(json!({"game": id, "muted": form.muted})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportForm {
    #[serde(default)]
    reason: String,
}

async fn report(
    State(app): Shared,
    Caller(user): Caller,
    Path(message): Path<String>,
    ApiJson(form): ApiJson<ReportForm>,
) -> Result<(StatusCode, Json<Value>)> {
    let message = parse_number(&message, "the message number")?;
    app.service
        .report_chat(&user, message, &form.reason)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"reported": message, "note": "the site's operator will read it"})),
    ))
}

/// `GET /api/games/{id}/chat/spectators`: the spectators' chat, for anyone
/// (hidden from the players until their game is over).
async fn spectator_chat(
    State(app): Shared,
    MaybeCaller(user): MaybeCaller,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the game number")?;
    let chat = app.service.spectator_chat(user.as_ref(), id).await?;
    let messages = super::mail::chat_json(&chat.messages);
    Ok(Json(json!({
        "open": chat.open,
        "hidden": chat.hidden,
        "may_switch": chat.may_switch,
        "may_post": chat.may_post,
        "messages": messages,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpectatorPost {
    body: String,
}

/// `POST /api/games/{id}/chat/spectators`: a watcher's message.
async fn post_spectator_chat(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<SpectatorPost>,
) -> Result<(StatusCode, Json<Value>)> {
    let id = parse_number(&id, "the game number")?;
    let message = app
        .service
        .spectator_chat_post(&user, id, &form.body)
        .await?;
    Ok((StatusCode::CREATED, Json(json!({"id": message}))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenForm {
    open: bool,
}

/// `POST /api/games/{id}/chat/spectators/open`: a player (or the
/// tournament's organizer) opens or closes the spectators' chat.
async fn open_spectator_chat(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<OpenForm>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the game number")?;
    app.service.set_spectator_chat(&user, id, form.open).await?;
    Ok(Json(json!({"game": id, "open": form.open})))
}
