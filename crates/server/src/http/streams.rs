//! Live streams over HTTP: a game's WebSocket (anyone may watch), a
//! player's WebSocket (their challenges, game starts, turns and ends), and
//! the NDJSON form of both that the bot API uses.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderValue;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

use super::extract::Caller;
use super::views::{game_message, hello_view, notice_text};
use super::{App, Shared};
use crate::auth::{AuthUser, Scope};
use crate::error::Result;
use crate::events::{Notice, Published, Topic};
use crate::service::{Service, parse_number};

/// How often an idle NDJSON stream sends an empty line, so that clients and
/// proxies know it is alive.
const KEEPALIVE: Duration = Duration::from_secs(10);

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/games/{id}/stream", get(game_socket))
        .route("/api/stream", get(player_socket))
}

/// A subscription and the first message to send on it.
pub struct Feed {
    first: String,
    rx: Receiver<Arc<Published>>,
    service: Arc<Service>,
    player: Option<i64>,
}

impl Feed {
    /// A game's feed: `gameFull`, then its state after each change.
    pub async fn game(service: &Arc<Service>, id: i64) -> Result<Feed> {
        // Subscribe before reading the state, so that no change falls between.
        let rx = service.hub.subscribe(Topic::Game(id));
        let game = service.game(id).await?;
        Ok(Feed {
            first: game_message(&game, service.now(), true),
            rx,
            service: service.clone(),
            player: None,
        })
    }

    /// A player's feed: `hello`, then their events.
    pub async fn player(service: &Arc<Service>, user: &AuthUser) -> Result<Feed> {
        let rx = service.hub.subscribe(Topic::Player(user.player.id));
        let hello = service.player_hello(user).await?;
        Ok(Feed {
            first: hello_view(&hello, user.player.id),
            rx,
            service: service.clone(),
            player: Some(user.player.id),
        })
    }

    fn render(&self, published: &Published) -> Arc<str> {
        let now = self.service.now();
        published.rendered(|notice| notice_text(notice, now, self.player))
    }
}

/// Whether a notice is the last of its game's stream.
fn game_over(notice: &Notice) -> bool {
    matches!(notice, Notice::Game(game) if game.is_finished())
}

async fn game_socket(
    State(app): Shared,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Result<Response> {
    let feed = Feed::game(&app.service, parse_number(&id, "the game number")?).await?;
    Ok(upgrade.on_upgrade(move |socket| forward(socket, feed)))
}

async fn player_socket(
    State(app): Shared,
    Caller(user): Caller,
    upgrade: WebSocketUpgrade,
) -> Result<Response> {
    if !user.scopes.contains(&Scope::Read) {
        user.require_play()?;
    }
    let feed = Feed::player(&app.service, &user).await?;
    Ok(upgrade.on_upgrade(move |socket| forward(socket, feed)))
}

async fn forward(mut socket: WebSocket, mut feed: Feed) {
    let first = std::mem::take(&mut feed.first);
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            message = feed.rx.recv() => match message {
                Ok(published) => {
                    let text = feed.render(&published);
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

/// A feed as an NDJSON response: one JSON message a line, an empty line
/// when idle; a game's feed ends with the game.
pub fn ndjson(feed: Feed) -> Response {
    let stream =
        futures_util::stream::unfold((feed, true, false), |(mut feed, first, done)| async move {
            if first {
                let text = std::mem::take(&mut feed.first);
                return Some((
                    Ok::<_, Infallible>(Bytes::from(text + "\n")),
                    (feed, false, false),
                ));
            }
            if done {
                return None;
            }
            loop {
                match tokio::time::timeout(KEEPALIVE, feed.rx.recv()).await {
                    Err(_) => return Some((Ok(Bytes::from_static(b"\n")), (feed, false, false))),
                    Ok(Ok(published)) => {
                        let end = game_over(&published.notice);
                        let text = feed.render(&published);
                        return Some((Ok(Bytes::from(format!("{text}\n"))), (feed, false, end)));
                    }
                    Ok(Err(RecvError::Lagged(_))) => continue,
                    Ok(Err(RecvError::Closed)) => return None,
                }
            }
        });
    let mut response = Body::from_stream(stream).into_response();
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    response
}
