//! Accounts over HTTP: sign-up, sign-in, guests, sign-out (here or
//! everywhere), the signed-in user, password changes, account deletion and
//! API tokens. The session lives in an HttpOnly cookie; account management
//! needs a session signed in with a password.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{ApiJson, Caller, ClientIp, MaybeCaller, cookie};
use super::views::token_view;
use super::{App, SESSION_COOKIE, Shared};
use crate::error::Result;
use crate::service::{SESSION_MS, Session, parse_number};

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/signup", post(sign_up))
        .route("/api/signin", post(sign_in))
        .route("/api/guest", post(guest))
        .route("/api/signout", post(sign_out))
        .route("/api/signout/all", post(sign_out_everywhere))
        .route("/api/me", get(me))
        .route("/api/account/password", post(change_password))
        .route("/api/account/delete", post(delete_account))
        .route("/api/tokens", post(create_token).get(list_tokens))
        .route("/api/tokens/{id}", delete(revoke_token))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignUp {
    name: String,
    password: String,
    email: String,
    #[serde(default)]
    bot: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignIn {
    name: String,
    password: String,
}

/// The `Set-Cookie` value for a session secret (`None`: clear it).
fn session_cookie(app: &App, secret: Option<&str>) -> String {
    let secure = if app.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    match secret {
        Some(secret) => format!(
            "{SESSION_COOKIE}={secret}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}",
            SESSION_MS / 1000
        ),
        None => format!("{SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}"),
    }
}

fn with_cookie(mut response: Response, cookie: &str) -> Response {
    if let Ok(value) = HeaderValue::from_str(cookie) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    response
}

fn session_response(app: &App, status: StatusCode, session: &Session, extra: Value) -> Response {
    let mut body = json!({
        "id": session.player.id,
        "name": session.player.name,
        "csrf": session.csrf,
    });
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    with_cookie(
        (status, Json(body)).into_response(),
        &session_cookie(app, Some(&session.secret)),
    )
}

async fn sign_up(
    State(app): Shared,
    ClientIp(ip): ClientIp,
    MaybeCaller(signed_in): MaybeCaller,
    ApiJson(form): ApiJson<SignUp>,
) -> Result<Response> {
    // A guest who signs up keeps their games: the guest account becomes theirs.
    let guest = signed_in.filter(|u| u.guest);
    let session = app
        .service
        .sign_up(
            &form.name,
            &form.password,
            &form.email,
            form.bot,
            ip,
            guest.as_ref(),
        )
        .await?;
    Ok(session_response(
        &app,
        StatusCode::CREATED,
        &session,
        json!({"bot": form.bot}),
    ))
}

async fn guest(
    State(app): Shared,
    ClientIp(ip): ClientIp,
    MaybeCaller(signed_in): MaybeCaller,
) -> Result<Response> {
    let session = app.service.guest(ip, signed_in.as_ref()).await?;
    Ok(session_response(
        &app,
        StatusCode::CREATED,
        &session,
        json!({"guest": true}),
    ))
}

async fn sign_in(
    State(app): Shared,
    ClientIp(ip): ClientIp,
    ApiJson(form): ApiJson<SignIn>,
) -> Result<Response> {
    let session = app.service.sign_in(&form.name, &form.password, ip).await?;
    Ok(session_response(&app, StatusCode::OK, &session, json!({})))
}

async fn sign_out(State(app): Shared, Caller(_): Caller, headers: HeaderMap) -> Result<Response> {
    if let Some(secret) = cookie(&headers, SESSION_COOKIE) {
        app.service.sign_out(&secret).await?;
    }
    Ok(with_cookie(
        Json(json!({"signed_out": true})).into_response(),
        &session_cookie(&app, None),
    ))
}

async fn sign_out_everywhere(State(app): Shared, Caller(user): Caller) -> Result<Response> {
    let ended = app.service.sign_out_everywhere(&user).await?;
    Ok(with_cookie(
        Json(json!({"signed_out": true, "sessions": ended})).into_response(),
        &session_cookie(&app, None),
    ))
}

async fn me(Caller(user): Caller) -> Json<Value> {
    let scopes: Vec<_> = user.scopes.iter().map(|s| s.name()).collect();
    Json(json!({
        "id": user.player.id, "name": user.player.name, "bot": user.bot,
        "guest": user.guest, "scopes": scopes, "csrf": user.csrf(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    current: String,
    new: String,
}

async fn change_password(
    State(app): Shared,
    Caller(user): Caller,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(form): ApiJson<PasswordChange>,
) -> Result<Json<Value>> {
    let this_session = cookie(&headers, SESSION_COOKIE);
    let ended = app
        .service
        .change_password(&user, &form.current, &form.new, ip, this_session.as_deref())
        .await?;
    Ok(Json(
        json!({"changed": true, "other_sessions_ended": ended}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deletion {
    password: String,
}

async fn delete_account(
    State(app): Shared,
    Caller(user): Caller,
    ClientIp(ip): ClientIp,
    ApiJson(form): ApiJson<Deletion>,
) -> Result<Response> {
    let placeholder = app
        .service
        .delete_account(&user, &form.password, ip)
        .await?;
    Ok(with_cookie(
        Json(json!({"deleted": true, "games_kept_as": placeholder})).into_response(),
        &session_cookie(&app, None),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewToken {
    #[serde(default)]
    label: String,
    scopes: Vec<String>,
}

async fn create_token(
    State(app): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<NewToken>,
) -> Result<(StatusCode, Json<Value>)> {
    let (info, secret) = app
        .service
        .create_token(&user, &form.label, &form.scopes)
        .await?;
    let mut body = token_view(&info);
    body["token"] = secret.into();
    Ok((StatusCode::CREATED, Json(body)))
}

async fn list_tokens(State(app): Shared, Caller(user): Caller) -> Result<Json<Value>> {
    let tokens: Vec<Value> = app
        .service
        .tokens(&user)
        .await?
        .iter()
        .map(token_view)
        .collect();
    Ok(Json(json!({"tokens": tokens})))
}

async fn revoke_token(
    State(app): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the token number")?;
    app.service.revoke_token(&user, id).await?;
    Ok(Json(json!({"revoked": id})))
}
