//! A server on a loopback port for the tests, on SQLite (a temporary file)
//! or PostgreSQL (a fresh database on the server named by
//! `EPAMINONDAS_TEST_POSTGRES`; under CI that variable must be set), with a
//! clock the test moves by hand.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use epaminondas_rules::{Move, Position};
use epaminondas_server::clock::ManualClock;
use epaminondas_server::http::HttpConfig;
use epaminondas_server::service::{RateLimits, Service, Settings};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Connection;
use tokio_tungstenite::tungstenite::Message;

/// The move a player racing for the goal rank picks: the most pieces on the
/// goal rank, then the furthest advance of the moving group's head.
pub fn racing_move(pos: &Position) -> Move {
    let me = pos.turn();
    let goal = i32::from(pos.goal_rank(me));
    *pos.legal_moves()
        .iter()
        .max_by_key(|mv| {
            let mut after = pos.clone();
            after.play_unchecked(**mv);
            let distance = (goal - i32::from(mv.destination().rank())).abs();
            (after.goal_count(me), -distance, mv.to_bits())
        })
        .expect("a legal move")
}

/// Which database a test runs on.
#[derive(Clone, Copy, Debug)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// Numbers the test databases of this process.
static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A database for one test.
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

/// A fresh database, or `None` when PostgreSQL is not configured here
/// (never under CI).
pub async fn database(db: Db) -> Option<TestDb> {
    match db {
        Db::Sqlite => {
            let dir = tempfile::tempdir().expect("temporary directory");
            let url = format!("sqlite://{}", dir.path().join("test.db").display());
            Some(TestDb {
                url,
                _dir: Some(dir),
            })
        }
        Db::Postgres => {
            let Ok(admin) = std::env::var("EPAMINONDAS_TEST_POSTGRES") else {
                assert!(
                    std::env::var_os("CI").is_none(),
                    "EPAMINONDAS_TEST_POSTGRES must be set under CI (.ci/postgres.sh sets it)"
                );
                eprintln!("EPAMINONDAS_TEST_POSTGRES is not set: PostgreSQL test skipped");
                return None;
            };
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let name = format!(
                "epaminondas_test_{}_{}_{nanos}",
                std::process::id(),
                NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            );
            let mut conn = sqlx::PgConnection::connect(&admin)
                .await
                .expect("connect to PostgreSQL");
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&mut conn)
                .await
                .expect("create database");
            let base = admin.rsplit_once('/').map_or(admin.as_str(), |(b, _)| b);
            Some(TestDb {
                url: format!("{base}/{name}"),
                _dir: None,
            })
        }
    }
}

/// A running server.
pub struct TestServer {
    pub base: String,
    pub ws: String,
    pub clock: Arc<ManualClock>,
    pub service: Arc<Service>,
    pub http: reqwest::Client,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Limits loose enough for tests that sign up many players from one address.
pub fn loose_limits() -> RateLimits {
    RateLimits {
        signups_per_minute: 1000,
        guests_per_minute: 1000,
        ..RateLimits::default()
    }
}

/// The settings of a test server on `url`: one engine worker, a manual
/// clock and no background sweep.
pub fn settings(url: &str, clock: Arc<ManualClock>, limits: RateLimits) -> Settings {
    Settings {
        database_url: url.to_string(),
        clock,
        limits,
        engine_workers: 1,
        analysis_workers: 1,
        engine_time: Duration::from_millis(200),
        sweep_every: None,
        mail: None,
        vacation_days: epaminondas_server::service::DEFAULT_VACATION_DAYS,
        game_analysis_time: Duration::from_millis(20),
    }
}

/// Starts a server on `url` with `limits`.
pub async fn start_on(url: &str, clock: Arc<ManualClock>, limits: RateLimits) -> TestServer {
    start_with(
        settings(url, clock.clone(), limits),
        clock,
        HttpConfig::default(),
    )
    .await
}

/// Starts a server with `settings` (whose clock is `clock`) and the HTTP
/// door's `config`.
pub async fn start_with(
    settings: Settings,
    clock: Arc<ManualClock>,
    config: HttpConfig,
) -> TestServer {
    let service = Service::start(settings).await.expect("server starts");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr: SocketAddr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = service.clone();
    tokio::spawn(async move {
        let _ = epaminondas_server::serve(listener, served, config, async {
            let _ = stopped.await;
        })
        .await;
    });
    TestServer {
        base: format!("http://{addr}"),
        ws: format!("ws://{addr}"),
        clock,
        service,
        http: reqwest::Client::new(),
        stop: Some(stop),
    }
}

/// Starts a server on a fresh database of kind `db`.
pub async fn start(db: Db) -> Option<(TestServer, TestDb)> {
    let test_db = database(db).await?;
    let server = start_on(&test_db.url, Arc::new(ManualClock::new()), loose_limits()).await;
    Some((server, test_db))
}

/// The `name=value` of the cookie a response sets.
pub fn session_cookie(response: &reqwest::Response) -> String {
    let header = response.headers()["set-cookie"].to_str().expect("a cookie");
    header.split(';').next().unwrap_or_default().to_string()
}

/// A signed-up player with a play token.
#[derive(Clone, Debug)]
pub struct User {
    pub name: String,
    pub token: String,
    pub cookie: String,
    pub csrf: String,
}

impl TestServer {
    /// Sends a JSON request; returns the status and the JSON body.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request");
        let status = response.status();
        let text = response.text().await.expect("body");
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    /// Sends only the head of a JSON request announcing a body of `length`
    /// bytes, and returns the status and JSON body of the reply.
    ///
    /// This is how an over-large request is tested: the server must refuse
    /// it by its announced size, before reading it. Sending the body too
    /// would race the server closing the connection on an unread body (the
    /// client may see the connection reset instead of the reply).
    pub async fn announce(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        length: usize,
    ) -> (StatusCode, Value) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let host = self.base.trim_start_matches("http://");
        let mut stream = tokio::net::TcpStream::connect(host).await.expect("connect");
        let authorization = token
            .map(|token| format!("authorization: Bearer {token}\r\n"))
            .unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nhost: {host}\r\n{authorization}\
             content-type: application/json\r\ncontent-length: {length}\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.expect("head");
        let mut reply = Vec::new();
        let mut buffer = [0u8; 4096];
        while !whole_reply(&reply) {
            match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await {
                Ok(Ok(n)) if n > 0 => reply.extend_from_slice(&buffer[..n]),
                _ => break,
            }
        }
        let reply = String::from_utf8_lossy(&reply).into_owned();
        let status = reply
            .strip_prefix("HTTP/1.1 ")
            .and_then(|rest| rest.get(..3))
            .and_then(|code| code.parse::<u16>().ok())
            .and_then(|code| StatusCode::from_u16(code).ok())
            .unwrap_or_else(|| panic!("no status line in the reply: {reply:?}"));
        let body = reply.split_once("\r\n\r\n").map_or("", |(_, body)| body);
        let value = serde_json::from_str(body).unwrap_or(Value::String(reply.clone()));
        (status, value)
    }

    /// Sends a pbmserv command; returns the status and the reply.
    pub async fn pbm(&self, line: &str) -> (StatusCode, String) {
        let response = self
            .http
            .post(format!("{}/pbm", self.base))
            .body(line.to_string())
            .send()
            .await
            .expect("request");
        (response.status(), response.text().await.expect("body"))
    }

    /// Signs up `name` (a bot account if `bot`) and makes a token with `scopes`.
    pub async fn user(&self, name: &str, bot: bool, scopes: &[&str]) -> User {
        let response = self
            .http
            .post(format!("{}/api/signup", self.base))
            .json(&json!({"name": name, "password": "password-123", "email": format!("{name}@example.org"), "bot": bot}))
            .send()
            .await
            .expect("sign-up");
        assert_eq!(response.status(), StatusCode::CREATED, "sign-up of {name}");
        let cookie = session_cookie(&response);
        assert!(
            response.headers()["set-cookie"]
                .to_str()
                .unwrap()
                .contains("HttpOnly")
        );
        let body: Value = response.json().await.unwrap();
        let csrf = body["csrf"].as_str().unwrap().to_string();
        let response = self
            .http
            .post(format!("{}/api/tokens", self.base))
            .header("cookie", &cookie)
            .header("x-csrf-token", &csrf)
            .json(&json!({"label": "test", "scopes": scopes}))
            .send()
            .await
            .expect("token");
        assert_eq!(response.status(), StatusCode::CREATED);
        let body: Value = response.json().await.unwrap();
        User {
            name: name.into(),
            token: body["token"].as_str().unwrap().to_string(),
            cookie,
            csrf,
        }
    }

    /// `who` sends `mv` in game `id`, with the move-number guard `ply` if given.
    pub async fn post_move(
        &self,
        id: i64,
        who: &User,
        mv: &str,
        ply: Option<usize>,
    ) -> (StatusCode, Value) {
        self.call(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&who.token),
            Some(json!({"move": mv, "ply": ply})),
        )
        .await
    }

    /// Two players, `alice{tag}` and `bob{tag}`, with read and play tokens.
    pub async fn two_players(&self, tag: &str) -> (User, User) {
        (
            self.user(&format!("alice{tag}"), false, &["read", "play"])
                .await,
            self.user(&format!("bob{tag}"), false, &["read", "play"])
                .await,
        )
    }

    /// `who` switches automatic vacation off: their time may run out.
    pub async fn no_auto_vacation(&self, who: &User) {
        let (status, body) = self
            .call(
                "POST",
                "/api/account/correspondence",
                Some(&who.token),
                Some(json!({"auto_vacation": false})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    /// `challenger` challenges `opponent`, who accepts; returns the game.
    pub async fn new_game(&self, challenger: &User, opponent: &User, extra: Value) -> Value {
        let mut body = json!({"opponent": opponent.name, "color": "white", "board": "6x6"});
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let (status, made) = self
            .call(
                "POST",
                "/api/challenges",
                Some(&challenger.token),
                Some(body),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let id = made["challenge"]["id"].as_i64().unwrap();
        let (status, accepted) = self
            .call(
                "POST",
                &format!("/api/challenges/{id}/accept"),
                Some(&opponent.token),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{accepted}");
        accepted["game"].clone()
    }
}

/// A WebSocket client.
pub struct Socket(
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
);

impl Socket {
    /// Connects to `url`, with a bearer token if given.
    pub async fn connect(url: &str, bearer: Option<&str>) -> Socket {
        let headers: Vec<(&str, String)> = bearer
            .map(|token| ("authorization", format!("Bearer {token}")))
            .into_iter()
            .collect();
        Socket::try_connect(url, &headers)
            .await
            .expect("ws connect")
    }

    /// Connects to `url` with `headers`; the refusal's text if the server
    /// refuses the upgrade.
    pub async fn try_connect(url: &str, headers: &[(&str, String)]) -> Result<Socket, String> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = url.into_client_request().expect("ws url");
        for (name, value) in headers {
            request.headers_mut().insert(
                tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes())
                    .expect("header name"),
                value.parse().expect("header value"),
            );
        }
        match tokio_tungstenite::connect_async(request).await {
            Ok((stream, _)) => Ok(Socket(stream)),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The next JSON message (within 10 s).
    pub async fn next(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), self.0.next())
                .await
                .expect("a message within 10 s")
                .expect("open stream")
                .expect("message");
            if let Message::Text(text) = message {
                return serde_json::from_str(&text).expect("JSON message");
            }
        }
    }

    /// Skips messages until one satisfies `wanted`.
    pub async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.next().await;
            if wanted(&message) {
                return message;
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.0.send(Message::Close(None)).await;
    }
}

/// Runs each test body once per database.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some((server, db)) = $crate::common::start($crate::common::Db::Sqlite).await {
                        super::$name(&server, &db).await;
                    }
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some((server, db)) = $crate::common::start($crate::common::Db::Postgres).await {
                        super::$name(&server, &db).await;
                    }
                }
            )*
        }
    };
}

/// Whether `reply` holds a whole HTTP response: its head and as many body
/// bytes as its `content-length` says.
fn whole_reply(reply: &[u8]) -> bool {
    let text = String::from_utf8_lossy(reply);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    head.lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse::<usize>().ok())
        .is_some_and(|length| body.len() >= length)
}
