//! Mail over HTTP: the inbound endpoint `epaminondas mail-in` posts
//! received messages to (from the server's own machine, or with the
//! configured token), the account's mail choices and address, password
//! reset requests, the game chat, and the pages the mailed links open
//! (plain HTML forms that work without JavaScript: opening a link shows one
//! button, and only pressing it changes anything).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Form, Path, State};
use axum::http::header::{AUTHORIZATION, CACHE_CONTROL};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{ApiJson, Caller, ClientIp};
use super::{App, Shared};
use crate::error::{Error, Result};
use crate::mail::inbound::Envelope;
use crate::mail::{MailKind, MailMode};
use crate::service::parse_number;
use crate::store::ChatMessage;

/// The routes of this area with the usual body limit.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account/mail", get(choices).post(set_choices))
        .route("/api/account/email", post(change_email))
        .route("/api/account/reset", post(request_reset))
        .route("/api/games/{id}/chat", get(chat).post(post_chat))
        .route("/mail/verify/{token}", get(verify_page).post(verify))
        .route("/mail/reset/{token}", get(reset_page).post(reset))
        .route(
            "/mail/unsubscribe/{token}",
            get(unsubscribe_page).post(unsubscribe),
        )
}

/// The route that takes whole messages, with a body limit of their size.
pub fn inbound_routes(max_message: usize) -> Router<Arc<App>> {
    super::limit_bodies(
        Router::new().route("/api/mail/inbound", post(inbound)),
        max_message + 64 * 1024,
    )
}

/// `POST /api/mail/inbound`: a received message (its raw bytes), with its
/// envelope in `X-Envelope-From` and `X-Envelope-To` (comma-separated).
/// Only from this machine (the peer address, not a forwarded one) or with
/// the configured mail-in token.
async fn inbound(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let allowed = match (&app.config.mail_in_token, token) {
        (Some(expected), Some(given)) => {
            crate::auth::hash_secret(expected) == crate::auth::hash_secret(given)
        }
        (_, Some(_)) => false,
        // This machine, and not through a reverse proxy on it (a proxy
        // would pass the whole internet's requests from a loopback peer).
        (_, None) => {
            peer.ip().is_loopback()
                && ["forwarded", "x-forwarded-for", "x-real-ip"]
                    .iter()
                    .all(|h| !headers.contains_key(*h))
        }
    };
    if !allowed {
        return Err(Error::forbidden(
            "mail is taken from this machine only, or with the mail-in token",
        ));
    }
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let envelope = Envelope {
        mail_from: header("x-envelope-from"),
        rcpt_to: header("x-envelope-to")
            .map(|v| {
                v.split(',')
                    .map(|a| a.trim().to_owned())
                    .filter(|a| !a.is_empty())
                    .collect()
            })
            .unwrap_or_default(),
    };
    let outcome = app.service.receive_mail(&body, &envelope).await?;
    Ok(Json(json!({
        "ignored": outcome.ignored,
        "answers": outcome.answers,
        "replied": outcome.replied,
    })))
}

async fn choices(State(app): Shared, Caller(user): Caller) -> Result<Json<Value>> {
    let (profile, failure) = app.service.mail_choices(&user).await?;
    let kinds: Vec<Value> = MailKind::ALL
        .iter()
        .map(|k| json!({"kind": k.name(), "meaning": k.meaning(), "on": profile.kinds.contains(k)}))
        .collect();
    Ok(Json(json!({
        "email": profile.email,
        "verified": profile.verified,
        "mode": profile.mode.name(),
        "kinds": kinds,
        "failure": failure,
        "sending": app.service.sending().is_some(),
        "address": app.service.mail_settings().map(|m| m.address()),
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Choices {
    mode: String,
    kinds: Vec<String>,
}

async fn set_choices(
    State(app): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<Choices>,
) -> Result<Json<Value>> {
    user.require_password_session()?;
    let mode: MailMode = form.mode.parse().map_err(Error::invalid)?;
    let kinds = form
        .kinds
        .iter()
        .map(|k| k.parse::<MailKind>().map_err(Error::invalid))
        .collect::<Result<Vec<_>>>()?;
    app.service.set_mail_choices(&user, mode, &kinds).await?;
    choices(State(app), Caller(user)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EmailChange {
    email: String,
    password: String,
}

/// `POST /api/account/email`: a new address (or the same, to have the
/// verification mailed again), verified by a mailed link.
async fn change_email(
    State(app): Shared,
    Caller(user): Caller,
    ClientIp(ip): ClientIp,
    ApiJson(form): ApiJson<EmailChange>,
) -> Result<Json<Value>> {
    user.require_password_session()?;
    let mailed = app
        .service
        .change_email(&user, &form.password, &form.email, ip)
        .await?;
    Ok(Json(json!({"verification_mailed": mailed})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResetRequest {
    who: String,
}

/// `POST /api/account/reset`: mails a reset link to the verified address of
/// the account named (or with the address) `who`; the answer is the same
/// whether there is one or not. Limited per address.
async fn request_reset(
    State(app): Shared,
    ClientIp(ip): ClientIp,
    ApiJson(form): ApiJson<ResetRequest>,
) -> Result<Json<Value>> {
    app.service.reset_allowed(ip)?;
    app.service.request_password_reset(&form.who).await?;
    Ok(Json(json!({
        "mailed": "if an account with a verified address matches, a link is on its way"
    })))
}

async fn chat(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the game number")?;
    let (messages, muted) = app.service.chat_messages(&user, id).await?;
    Ok(Json(
        json!({"messages": chat_json(&messages), "muted": muted}),
    ))
}

/// Chat messages as the API shows them.
pub(super) fn chat_json(messages: &[ChatMessage]) -> Vec<Value> {
    messages
        .iter()
        .map(|m| json!({"id": m.id, "author": m.author, "body": m.body, "at": m.created_at}))
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatPost {
    body: String,
}

async fn post_chat(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<ChatPost>,
) -> Result<(StatusCode, Json<Value>)> {
    let id = parse_number(&id, "the game number")?;
    let message = app.service.chat(&user, id, &form.body).await?;
    Ok((StatusCode::CREATED, Json(json!({"id": message}))))
}

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A small page of the site's own, for the mailed links.
fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} - Epaminondas</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
         <body><main id=\"main\" class=\"panel\"><h1>{title}</h1>{body}\
         <p><a href=\"/\">Epaminondas</a></p></main></body></html>",
        title = escape(title)
    );
    (status, [(CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

/// The page for a refusal.
fn refusal(error: &Error) -> Response {
    let (status, _) = super::status_and_code(error);
    page(
        status,
        "That did not work",
        &format!("<p class=\"error\">{}</p>", escape(&error.to_string())),
    )
}

/// One button that posts back to the same address.
fn button_form(text: &str, fields: &str) -> String {
    format!(
        "<form method=\"post\">{fields}<button type=\"submit\">{}</button></form>",
        escape(text)
    )
}

async fn verify_page() -> Response {
    page(
        StatusCode::OK,
        "Confirm your e-mail address",
        &button_form("Confirm my address", ""),
    )
}

async fn verify(State(app): Shared, Path(token): Path<String>) -> Response {
    match app.service.verify_email(&token).await {
        Ok(email) => page(
            StatusCode::OK,
            "Address confirmed",
            &format!(
                "<p id=\"confirmed\">{} is confirmed. Mail from the site now reaches you there.</p>",
                escape(&email)
            ),
        ),
        Err(e) => refusal(&e),
    }
}

async fn reset_page() -> Response {
    page(
        StatusCode::OK,
        "Choose a new password",
        &button_form(
            "Set the new password",
            "<label>New password (8 characters or more)<input type=\"password\" name=\"password\" \
             autocomplete=\"new-password\" minlength=\"8\" required></label>",
        ),
    )
}

#[derive(Deserialize)]
struct NewPassword {
    password: String,
}

async fn reset(
    State(app): Shared,
    Path(token): Path<String>,
    Form(form): Form<NewPassword>,
) -> Response {
    match app.service.reset_password(&token, &form.password).await {
        Ok(name) => page(
            StatusCode::OK,
            "Password changed",
            &format!(
                "<p id=\"changed\">The password of {} is changed; every session has ended. <a href=\"/signin\">Sign in</a></p>",
                escape(&name)
            ),
        ),
        Err(e) => refusal(&e),
    }
}

async fn unsubscribe_page() -> Response {
    page(
        StatusCode::OK,
        "Stop the mail",
        &button_form("Stop all mail from the site", ""),
    )
}

async fn unsubscribe(State(app): Shared, Path(token): Path<String>) -> Response {
    match app.service.unsubscribe(&token).await {
        Ok(name) => page(
            StatusCode::OK,
            "No more mail",
            &format!(
                "<p id=\"stopped\">No more notifications go to {}. The settings page turns them on again.</p>",
                escape(&name)
            ),
        ),
        Err(e) => refusal(&e),
    }
}
