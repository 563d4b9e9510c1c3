//! The HTTP interface: the JSON API, the WebSocket and NDJSON event
//! streams, the bot API and the pbmserv command endpoint, as an axum router
//! over the [`Service`].

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use epaminondas_rules::{BoardSize, Symmetry};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::analysis::{self, Line};
use crate::auth::Scope;
use crate::challenge::{Challenge, ColorChoice};
use crate::error::{ApiError, ApiResult};
use crate::game::TimeControl;
use crate::hub::Topic;
use crate::service::{ChallengeOptions, Created, Offer, OfferAction, Service};
use crate::store::AuthUser;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "epaminondas_session";
/// The header that must carry the session's CSRF token on state-changing
/// requests signed in by cookie.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// The OpenAPI description of this interface.
const OPENAPI: &str = include_str!("../openapi.json");
/// How often an idle NDJSON stream sends an empty line, so that clients and
/// proxies know it is alive.
const KEEPALIVE: Duration = Duration::from_secs(10);

type Shared = State<Arc<Service>>;

/// The router for the whole interface.
pub fn router(service: Arc<Service>) -> Router {
    Router::new()
        .route("/api/health", get(|| async { "ok" }))
        .route("/api/openapi.json", get(openapi))
        .route("/api/signup", post(sign_up))
        .route("/api/signin", post(sign_in))
        .route("/api/guest", post(guest))
        .route("/api/signout", post(sign_out))
        .route("/api/me", get(me))
        .route("/api/tokens", post(create_token).get(list_tokens))
        .route("/api/tokens/{id}", delete(delete_token))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/users/{name}", get(profile))
        .route("/api/users/{name}/games", get(user_games))
        .route("/api/users/{name}/export", get(user_export))
        .route(
            "/api/challenges",
            post(create_challenge).get(list_challenges),
        )
        .route("/api/challenges/{id}/{action}", post(answer_challenge))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record", get(game_record))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw/{action}", post(offer::<false>))
        .route("/api/games/{id}/takeback/{action}", post(offer::<true>))
        .route("/api/games/{id}/stream", get(game_socket))
        .route("/api/stream", get(player_socket))
        .route("/api/bot/stream/event", get(bot_events))
        .route("/api/bot/game/stream/{id}", get(bot_game_stream))
        .route("/api/bot/game/{id}/move/{mv}", post(bot_move))
        .route("/api/bot/game/{id}/resign", post(bot_resign))
        .route("/api/bot/game/{id}/draw/{answer}", post(bot_draw))
        .route("/api/analysis", post(analysis_line))
        .route("/api/analysis/record", post(analysis_record))
        .route("/api/analysis/engine", post(analysis_engine))
        .route("/pbm", post(pbm))
        .merge(crate::site::routes())
        .fallback(|| async { ApiError::not_found("no such page or API endpoint") })
        .with_state(service)
}

async fn openapi() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], OPENAPI)
}

// ---- extractors ----

/// A JSON body whose errors are answered as one-line API errors.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(ApiError::bad(rejection.body_text())),
        }
    }
}

/// The signed-in user (by API token or session cookie).
pub struct Caller(pub AuthUser);

fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

impl FromRequestParts<Arc<Service>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        service: &Arc<Service>,
    ) -> Result<Self, ApiError> {
        if let Some(token) = bearer(&parts.headers) {
            return match service.token_user(token).await? {
                Some(user) => Ok(Caller(user)),
                None => Err(ApiError::Unauthorized(
                    "the API token is unknown or revoked".into(),
                )),
            };
        }
        let Some(secret) = cookie(&parts.headers, SESSION_COOKIE) else {
            return Err(ApiError::Unauthorized(
                "sign in first, or send an API token as `Authorization: Bearer TOKEN`".into(),
            ));
        };
        let Some(user) = service.session_user(&secret).await? else {
            return Err(ApiError::Unauthorized(
                "the session has expired: sign in again".into(),
            ));
        };
        let safe = matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
        let sent = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
        if !safe && sent != user.csrf.as_deref() {
            return Err(ApiError::Forbidden(format!(
                "missing or wrong {CSRF_HEADER} header (the csrf value from sign-in or /api/me)"
            )));
        }
        Ok(Caller(user))
    }
}

fn require(user: &AuthUser, scope: Scope) -> ApiResult<()> {
    if user.scopes.contains(&scope) {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!(
            "this token lacks the {} scope",
            scope.name()
        )))
    }
}

fn number(text: &str, what: &str) -> ApiResult<i64> {
    text.parse()
        .map_err(|_| ApiError::bad(format!("{what} must be a number, not {text:?}")))
}

// ---- accounts ----

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

fn session_response(status: StatusCode, secret: &str, body: Value) -> Response {
    let cookie =
        format!("{SESSION_COOKIE}={secret}; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000");
    let mut response = (status, Json(body)).into_response();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    response
}

async fn sign_up(
    State(service): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ApiJson(form): ApiJson<SignUp>,
) -> ApiResult<Response> {
    // A guest who signs up keeps their games: the guest account becomes theirs.
    let guest = match cookie(&headers, SESSION_COOKIE) {
        Some(secret) => service.session_user(&secret).await?.filter(|u| u.guest),
        None => None,
    };
    let (player, secret, csrf) = service
        .sign_up(
            &form.name,
            &form.password,
            &form.email,
            form.bot,
            addr.ip(),
            guest.as_ref(),
        )
        .await?;
    Ok(session_response(
        StatusCode::CREATED,
        &secret,
        json!({"id": player.id, "name": player.name, "bot": form.bot, "csrf": csrf}),
    ))
}

async fn guest(
    State(service): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> ApiResult<Response> {
    let (player, secret, csrf) = service.guest(addr.ip()).await?;
    Ok(session_response(
        StatusCode::CREATED,
        &secret,
        json!({"id": player.id, "name": player.name, "guest": true, "csrf": csrf}),
    ))
}

async fn sign_in(
    State(service): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiJson(form): ApiJson<SignIn>,
) -> ApiResult<Response> {
    let (player, secret, csrf) = service
        .sign_in(&form.name, &form.password, addr.ip())
        .await?;
    Ok(session_response(
        StatusCode::OK,
        &secret,
        json!({"id": player.id, "name": player.name, "csrf": csrf}),
    ))
}

async fn sign_out(
    State(service): Shared,
    Caller(_): Caller,
    headers: HeaderMap,
) -> ApiResult<Response> {
    if let Some(secret) = cookie(&headers, SESSION_COOKIE) {
        service.sign_out(&secret).await?;
    }
    let mut response = Json(json!({"signed_out": true})).into_response();
    response.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_static("epaminondas_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"),
    );
    Ok(response)
}

async fn me(Caller(user): Caller) -> Json<Value> {
    let scopes: Vec<_> = user.scopes.iter().map(|s| s.name()).collect();
    Json(json!({
        "id": user.player.id, "name": user.player.name, "bot": user.bot,
        "guest": user.guest, "scopes": scopes, "csrf": user.csrf,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewToken {
    #[serde(default)]
    label: String,
    scopes: Vec<String>,
}

async fn create_token(
    State(service): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<NewToken>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    if user.csrf.is_none() || user.guest {
        return Err(ApiError::Forbidden(
            "sign in with a password to make tokens".into(),
        ));
    }
    let scopes = Scope::parse_list(&form.scopes)?;
    let (id, token) = service.create_token(&user, &form.label, &scopes).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": id, "token": token, "scopes": form.scopes, "label": form.label})),
    ))
}

async fn list_tokens(State(service): Shared, Caller(user): Caller) -> ApiResult<Json<Value>> {
    let tokens = crate::store::list_tokens(&service.db, user.player.id).await?;
    let tokens: Vec<_> = tokens
        .into_iter()
        .map(|(id, label, scopes, created)| {
            json!({"id": id, "label": label, "scopes": scopes.split_whitespace().collect::<Vec<_>>(),
                   "created_at": created})
        })
        .collect();
    Ok(Json(json!({"tokens": tokens})))
}

async fn delete_token(
    State(service): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = number(&id, "the token number")?;
    if crate::store::delete_token(&service.db, user.player.id, id).await? {
        Ok(Json(json!({"revoked": id})))
    } else {
        Err(ApiError::not_found(format!("you have no token {id}")))
    }
}

// ---- players and ratings ----

async fn leaderboard(State(service): Shared) -> ApiResult<Json<Value>> {
    let rows: Vec<_> = service
        .leaderboard()
        .await?
        .into_iter()
        .enumerate()
        .map(|(i, (name, rating, deviation, games))| {
            json!({"rank": i + 1, "name": name, "rating": rating.round(),
                   "deviation": deviation.round(), "rated_games": games})
        })
        .collect();
    Ok(Json(json!({"players": rows})))
}

async fn profile(State(service): Shared, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    let (user, history) = service.profile(&name).await?;
    let history: Vec<_> = history
        .into_iter()
        .map(|(game, rating, deviation, at)| {
            json!({"game": game, "rating": rating.round(), "deviation": deviation.round(), "at": at})
        })
        .collect();
    Ok(Json(json!({
        "id": user.player.id, "name": user.player.name, "bot": user.bot,
        "rating": user.rating.rating.round(), "deviation": user.rating.deviation.round(),
        "rated_games": user.rated_games, "created_at": user.created_at,
        "rating_history": history,
    })))
}

async fn user_games(State(service): Shared, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    let (_, games) = service.games_of(&name, false).await?;
    let now = service.now();
    let games: Vec<_> = games.iter().map(|g| g.view(now, false)).collect();
    Ok(Json(json!({"games": games})))
}

async fn user_export(State(service): Shared, Path(name): Path<String>) -> ApiResult<Response> {
    let (player, games) = service.games_of(&name, false).await?;
    let text: Vec<String> = games.iter().rev().map(|g| g.record_text()).collect();
    Ok(text_file(
        text.join("\n"),
        &format!("{}-games.txt", player.name),
    ))
}

fn text_file(text: String, name: &str) -> Response {
    let mut response = ([(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response();
    if let Ok(value) = HeaderValue::from_str(&format!("inline; filename=\"{name}\"")) {
        response
            .headers_mut()
            .insert(axum::http::header::CONTENT_DISPOSITION, value);
    }
    response
}

// ---- challenges ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewChallenge {
    opponent: Option<String>,
    level: Option<u8>,
    board: Option<String>,
    symmetry: Option<String>,
    color: Option<String>,
    #[serde(default)]
    rated: bool,
    time: Option<TimeControl>,
}

/// Reads the challenge options shared by the API and pbmserv commands.
pub fn challenge_options(
    opponent: Option<String>,
    level: Option<u8>,
    board: Option<&str>,
    symmetry: Option<&str>,
    color: Option<&str>,
    rated: bool,
    time: Option<TimeControl>,
) -> ApiResult<ChallengeOptions> {
    let size = match board {
        Some(text) => text
            .parse::<BoardSize>()
            .map_err(|e| ApiError::bad(format!("board {text:?}: {e}")))?,
        None => BoardSize::STANDARD,
    };
    let symmetry = match symmetry {
        Some(text) => text
            .parse::<Symmetry>()
            .map_err(|e| ApiError::bad(e.to_string()))?,
        None => Symmetry::default(),
    };
    let color = match color {
        Some(text) => ColorChoice::from_name(text)
            .ok_or_else(|| ApiError::bad(format!("colour {text:?}: use white, black or random")))?,
        None => ColorChoice::Random,
    };
    let default_time = if level.is_some() {
        TimeControl::Unlimited
    } else {
        TimeControl::Correspondence { days_per_move: 3 }
    };
    if level.is_some() && rated {
        return Err(ApiError::bad("games against the computer are not rated"));
    }
    Ok(ChallengeOptions {
        opponent,
        level,
        size,
        symmetry,
        color,
        rated,
        control: time.unwrap_or(default_time),
    })
}

async fn create_challenge(
    State(service): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<NewChallenge>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    require(&user, Scope::Play).or_else(|_| require(&user, Scope::Bot))?;
    if form.level.is_some() && form.opponent.is_some() {
        return Err(ApiError::bad(
            "give either an opponent or a level, not both",
        ));
    }
    let options = challenge_options(
        form.opponent,
        form.level,
        form.board.as_deref(),
        form.symmetry.as_deref(),
        form.color.as_deref(),
        form.rated,
        form.time,
    )?;
    let body = match service.challenge(&user, options).await? {
        Created::Challenge(c) => json!({"challenge": c.view()}),
        Created::Game(g) => json!({"game": g.view(service.now(), true)}),
    };
    Ok((StatusCode::CREATED, Json(body)))
}

async fn list_challenges(State(service): Shared, Caller(user): Caller) -> ApiResult<Json<Value>> {
    let list = service.challenges(&user).await?;
    let list: Vec<_> = list.iter().map(Challenge::view).collect();
    Ok(Json(json!({"challenges": list})))
}

async fn answer_challenge(
    State(service): Shared,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    require(&user, Scope::Play).or_else(|_| require(&user, Scope::Bot))?;
    let id = number(&id, "the challenge number")?;
    match action.as_str() {
        "accept" => {
            let game = service.accept(&user, id).await?;
            Ok(Json(json!({"game": game.view(service.now(), true)})))
        }
        "decline" | "cancel" => {
            let c = service
                .close_challenge(&user, id, action == "cancel")
                .await?;
            Ok(Json(json!({"challenge": c.view()})))
        }
        other => Err(ApiError::not_found(format!(
            "unknown challenge action {other:?}: use accept, decline or cancel"
        ))),
    }
}

// ---- games ----

async fn game(State(service): Shared, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let game = service.game(number(&id, "the game number")?).await?;
    Ok(Json(game.view(service.now(), true)))
}

async fn game_record(State(service): Shared, Path(id): Path<String>) -> ApiResult<Response> {
    let game = service.game(number(&id, "the game number")?).await?;
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
    State(service): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<MoveForm>,
) -> ApiResult<Json<Value>> {
    require(&user, Scope::Play)?;
    let id = number(&id, "the game number")?;
    let game = service.play(&user, id, &form.text, form.ply).await?;
    Ok(Json(game.view(service.now(), false)))
}

async fn resign(
    State(service): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    require(&user, Scope::Play)?;
    let game = service
        .resign(&user, number(&id, "the game number")?)
        .await?;
    Ok(Json(game.view(service.now(), false)))
}

fn offer_action(text: &str) -> ApiResult<OfferAction> {
    match text {
        "offer" => Ok(OfferAction::Offer),
        "accept" | "yes" => Ok(OfferAction::Accept),
        "decline" | "no" => Ok(OfferAction::Decline),
        other => Err(ApiError::not_found(format!(
            "unknown action {other:?}: use offer, accept or decline"
        ))),
    }
}

/// A draw offer (`TAKEBACK` false) or takeback request, or an answer to one.
async fn offer<const TAKEBACK: bool>(
    State(service): Shared,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    require(&user, Scope::Play)?;
    let id = number(&id, "the game number")?;
    let kind = if TAKEBACK {
        Offer::Takeback
    } else {
        Offer::Draw
    };
    let game = service
        .offer(&user, id, kind, offer_action(&action)?)
        .await?;
    Ok(Json(game.view(service.now(), false)))
}

// ---- streams ----

async fn game_socket(
    State(service): Shared,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let id = number(&id, "the game number")?;
    // Subscribe before reading the state, so that no change falls between.
    let rx = service.hub.subscribe(Topic::Game(id));
    let game = service.game(id).await?;
    let first = service.game_message(&game, true);
    Ok(upgrade.on_upgrade(move |socket| forward(socket, first, rx)))
}

async fn player_socket(
    State(service): Shared,
    Caller(user): Caller,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let rx = service.hub.subscribe(Topic::Player(user.player.id));
    let first = service.player_hello(&user).await?;
    Ok(upgrade.on_upgrade(move |socket| forward(socket, first, rx)))
}

async fn forward(
    mut socket: WebSocket,
    first: String,
    mut rx: tokio::sync::broadcast::Receiver<Arc<str>>,
) {
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            message = rx.recv() => match message {
                Ok(text) => {
                    if socket.send(Message::Text(text.to_string().into())).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => continue,
            },
        }
    }
}

/// An NDJSON response: `first`, then each message of `rx`, one per line,
/// with an empty line when idle; it ends after a message for which
/// `last` is true.
fn ndjson(
    first: String,
    rx: tokio::sync::broadcast::Receiver<Arc<str>>,
    last: fn(&str) -> bool,
) -> Response {
    let first_done = last(&first);
    let stream = futures_util::stream::unfold(
        (Some(first), rx, first_done),
        move |(pending, mut rx, done)| async move {
            if let Some(text) = pending {
                return Some((
                    Ok::<_, Infallible>(Bytes::from(text + "\n")),
                    (None, rx, done),
                ));
            }
            if done {
                return None;
            }
            loop {
                match tokio::time::timeout(KEEPALIVE, rx.recv()).await {
                    Err(_) => return Some((Ok(Bytes::from_static(b"\n")), (None, rx, false))),
                    Ok(Ok(text)) => {
                        let end = last(&text);
                        return Some((Ok(Bytes::from(format!("{text}\n"))), (None, rx, end)));
                    }
                    Ok(Err(RecvError::Lagged(_))) => continue,
                    Ok(Err(RecvError::Closed)) => return None,
                }
            }
        },
    );
    let mut response = Body::from_stream(stream).into_response();
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    response
}

// ---- the analysis board ----

async fn analysis_line(ApiJson(line): ApiJson<Line>) -> ApiResult<Json<Value>> {
    Ok(Json(analysis::line_view(&line.replay()?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordForm {
    record: String,
}

async fn analysis_record(ApiJson(form): ApiJson<RecordForm>) -> ApiResult<Json<Value>> {
    Ok(Json(analysis::line_view(&analysis::read_record(
        &form.record,
    )?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineForm {
    /// The position to search: the end of this line.
    line: Line,
    /// How long to think, in milliseconds (default 2000, at most 10000).
    movetime_ms: Option<u64>,
}

/// The longest analysis one request may ask for.
const MAX_ANALYSIS_MS: u64 = 10_000;

async fn analysis_engine(
    State(service): Shared,
    ApiJson(form): ApiJson<EngineForm>,
) -> ApiResult<Response> {
    let record = form.line.replay()?;
    let pos = record.position().clone();
    if pos.is_terminal() {
        return Err(ApiError::bad("the game is over in this position"));
    }
    let movetime = form.movetime_ms.unwrap_or(2_000);
    if !(1..=MAX_ANALYSIS_MS).contains(&movetime) {
        return Err(ApiError::bad(format!(
            "movetime_ms must be 1 to {MAX_ANALYSIS_MS}"
        )));
    }
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let worker = Arc::clone(&service);
    tokio::spawn(async move {
        worker
            .analyse(pos, Duration::from_millis(movetime), tx)
            .await;
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        let line = rx.recv().await?;
        Some((Ok::<_, Infallible>(Bytes::from(format!("{line}\n"))), rx))
    });
    let mut response = Body::from_stream(stream).into_response();
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    Ok(response)
}

fn game_over(message: &str) -> bool {
    message.contains("\"status\":\"finished\"")
}

fn bot_only(user: &AuthUser) -> ApiResult<()> {
    require(user, Scope::Bot)?;
    if user.bot {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "the bot API is for bot accounts".into(),
        ))
    }
}

async fn bot_events(State(service): Shared, Caller(user): Caller) -> ApiResult<Response> {
    bot_only(&user)?;
    let rx = service.hub.subscribe(Topic::Player(user.player.id));
    let first = service.player_hello(&user).await?;
    Ok(ndjson(first, rx, |_| false))
}

async fn bot_game_stream(
    State(service): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    bot_only(&user)?;
    let id = number(&id, "the game number")?;
    let rx = service.hub.subscribe(Topic::Game(id));
    let game = service.game(id).await?;
    Ok(ndjson(service.game_message(&game, true), rx, game_over))
}

async fn bot_move(
    State(service): Shared,
    Caller(user): Caller,
    Path((id, mv)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    bot_only(&user)?;
    let id = number(&id, "the game number")?;
    service.play(&user, id, &mv, None).await?;
    Ok(Json(json!({"ok": true})))
}

async fn bot_resign(
    State(service): Shared,
    Caller(user): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    bot_only(&user)?;
    service
        .resign(&user, number(&id, "the game number")?)
        .await?;
    Ok(Json(json!({"ok": true})))
}

async fn bot_draw(
    State(service): Shared,
    Caller(user): Caller,
    Path((id, answer)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    bot_only(&user)?;
    let id = number(&id, "the game number")?;
    let action = match answer.as_str() {
        "yes" | "offer" => OfferAction::Offer,
        "no" => OfferAction::Decline,
        other => {
            return Err(ApiError::not_found(format!(
                "unknown answer {other:?}: use yes or no"
            )));
        }
    };
    service.offer(&user, id, Offer::Draw, action).await?;
    Ok(Json(json!({"ok": true})))
}

// ---- pbmserv ----

async fn pbm(
    State(service): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: String,
) -> Response {
    let (status, text) = crate::pbm::execute(&service, &body, addr.ip()).await;
    (status, [(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}

#[cfg(test)]
mod tests {
    /// Every route of [`super::router`] is described in the OpenAPI document.
    #[test]
    fn the_openapi_document_lists_every_route() {
        let doc: serde_json::Value = serde_json::from_str(super::OPENAPI).expect("valid JSON");
        let paths = doc["paths"].as_object().expect("paths");
        let source = include_str!("http.rs");
        let routes: Vec<&str> = source
            .split(".route(\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        assert!(routes.len() > 20, "{routes:?}");
        for route in routes {
            assert!(
                paths.contains_key(route),
                "{route} is missing from openapi.json"
            );
        }
    }
}
