//! Two real `epaminondas serve` processes on one PostgreSQL database, each
//! with its own clock sweep and LISTEN connection, racing on the same
//! games: simultaneous moves through both (exactly one applies), a live
//! game running out of time in front of both sweeps (it ends once, is rated
//! once, and each player hears of it once), and one process's LISTEN
//! connection killed by the database (it reconnects, and its spectators
//! miss nothing). Needs `EPAMINONDAS_TEST_POSTGRES` (set by
//! `.ci/postgres.sh`); skipped without it, except under CI.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection};
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::{BIN, free_port};

/// A fresh database on the test server, or `None` when there is none here.
async fn database() -> Option<String> {
    let Ok(admin) = std::env::var("EPAMINONDAS_TEST_POSTGRES") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "EPAMINONDAS_TEST_POSTGRES must be set under CI (.ci/postgres.sh sets it)"
        );
        eprintln!("EPAMINONDAS_TEST_POSTGRES is not set: skipped");
        return None;
    };
    let name = format!("epaminondas_processes_{}", std::process::id());
    let mut conn = PgConnection::connect(&admin).await.expect("PostgreSQL");
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
        .execute(&mut conn)
        .await
        .expect("drop");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .expect("create database");
    let base = admin.rsplit_once('/').map_or(admin.as_str(), |(b, _)| b);
    Some(format!("{base}/{name}"))
}

/// A running `epaminondas serve`, killed when dropped.
struct Server {
    child: Child,
    base: String,
    ws: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(url: &str, log: &Path) -> Server {
        let port = free_port();
        let log = std::fs::File::create(log).expect("log file");
        let child = Command::new(BIN)
            .args(["serve", "--database", url])
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("the server starts");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the server did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
            ws: format!("ws://127.0.0.1:{port}"),
        }
    }

    async fn call(&self, method: &str, path: &str, token: &str, body: Value) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = reqwest::Client::new()
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(token);
        if !body.is_null() {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn game(&self, id: i64) -> Value {
        reqwest::get(format!("{}/api/games/{id}", self.base))
            .await
            .expect("request")
            .json()
            .await
            .expect("JSON")
    }

    /// Signs up `name` and makes a token with the read and play scopes.
    async fn player(&self, name: &str) -> String {
        let http = reqwest::Client::new();
        let response = http
            .post(format!("{}/api/signup", self.base))
            .json(&json!({"name": name, "password": "password-123", "email": format!("{name}@example.org")}))
            .send()
            .await
            .expect("sign-up");
        assert_eq!(response.status(), 201);
        let cookie = response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        let csrf = response.json::<Value>().await.unwrap()["csrf"]
            .as_str()
            .unwrap()
            .to_string();
        let made: Value = http
            .post(format!("{}/api/tokens", self.base))
            .header("cookie", cookie)
            .header("x-csrf-token", csrf)
            .json(&json!({"scopes": ["read", "play"]}))
            .send()
            .await
            .expect("token")
            .json()
            .await
            .unwrap();
        made["token"].as_str().unwrap().to_string()
    }
}

/// A WebSocket's JSON messages.
struct Socket(
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
);

impl Socket {
    async fn connect(url: &str, token: Option<&str>) -> Socket {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = url.into_client_request().unwrap();
        if let Some(token) = token {
            request
                .headers_mut()
                .insert("authorization", format!("Bearer {token}").parse().unwrap());
        }
        Socket(
            tokio_tungstenite::connect_async(request)
                .await
                .expect("ws")
                .0,
        )
    }

    /// The next message within `wait`, if one comes.
    async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let message = tokio::time::timeout_at(deadline, self.0.next())
                .await
                .ok()??;
            if let Ok(Message::Text(text)) = message {
                return serde_json::from_str(&text).ok();
            }
        }
    }

    /// Skips messages until one satisfies `wanted` (within 15 s).
    async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self
                .next_within(Duration::from_secs(15))
                .await
                .expect("a message within 15 s");
            if wanted(&message) {
                return message;
            }
        }
    }
}

/// A game between the holders of `tokens`, made through `a` and accepted
/// through `b`: the challenger plays White.
async fn new_game(
    a: &Server,
    b: &Server,
    tokens: &[String; 2],
    opponent: &str,
    options: Value,
) -> Value {
    let mut body = json!({"opponent": opponent, "board": "8x8", "color": "white"});
    body.as_object_mut()
        .unwrap()
        .extend(options.as_object().unwrap().clone());
    let (status, made) = a.call("POST", "/api/challenges", &tokens[0], body).await;
    assert_eq!(status, 201, "{made}");
    let id = made["challenge"]["id"].as_i64().unwrap();
    let (status, accepted) = b
        .call(
            "POST",
            &format!("/api/challenges/{id}/accept"),
            &tokens[1],
            Value::Null,
        )
        .await;
    assert_eq!(status, 200, "{accepted}");
    accepted["game"].clone()
}

async fn stored_version(db: &mut PgConnection, id: i64) -> i64 {
    sqlx::query_scalar("SELECT version FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .expect("version")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_race_on_one_database() {
    let Some(url) = database().await else { return };
    let logs = tempfile::tempdir().unwrap();
    let a = Server::start(&url, &logs.path().join("a.log"));
    let b = Server::start(&url, &logs.path().join("b.log"));
    let mut db = PgConnection::connect(&url).await.expect("test connection");
    let tokens = [a.player("alice").await, b.player("bob").await];

    // 1. The same game's moves sent through both processes at once.
    for _ in 0..3 {
        let game = new_game(&a, &b, &tokens, "bob", json!({})).await;
        let id = game["id"].as_i64().unwrap();
        let path = format!("/api/games/{id}/moves");
        let sends = game["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .take(8)
            .enumerate()
            .map(|(i, mv)| {
                let server = if i % 2 == 0 { &a } else { &b };
                server.call("POST", &path, &tokens[0], json!({"move": mv}))
            });
        let results = futures_util::future::join_all(sends).await;
        let applied = results.iter().filter(|(s, _)| *s == 200).count();
        assert_eq!(applied, 1, "{results:?}");
        assert!(
            results.iter().all(|(s, _)| *s == 200 || *s == 409),
            "{results:?}"
        );
        assert_eq!(
            stored_version(&mut db, id).await,
            1,
            "exactly one change stored"
        );
        for server in [&a, &b] {
            let seen = server.game(id).await;
            assert_eq!(seen["ply"], 1, "both processes see one move");
        }
    }

    // 2. Rated live games run out of time in front of both sweeps.
    let mut alice_events = Socket::connect(&format!("{}/api/stream", a.ws), Some(&tokens[0])).await;
    let mut bob_events = Socket::connect(&format!("{}/api/stream", b.ws), Some(&tokens[1])).await;
    alice_events.until(|m| m["type"] == "hello").await;
    bob_events.until(|m| m["type"] == "hello").await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        let live =
            json!({"rated": true, "time": {"kind": "live", "initial_ms": 1000, "increment_ms": 0}});
        ids.push(
            new_game(&a, &b, &tokens, "bob", live).await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    // Both sweeps run every second; wait until every game has ended and
    // both sweeps have run several times since.
    let mut finishes = std::collections::HashMap::new();
    let deadline = Instant::now() + Duration::from_secs(6);
    while Instant::now() < deadline {
        for events in [&mut alice_events, &mut bob_events] {
            while let Some(message) = events.next_within(Duration::from_millis(100)).await {
                if message["type"] == "gameFinish" {
                    assert_eq!(message["game"]["reason"], "time");
                    *finishes
                        .entry(message["game"]["id"].as_i64().unwrap())
                        .or_insert(0) += 1;
                }
            }
        }
    }
    for &id in &ids {
        assert_eq!(
            finishes.get(&id),
            Some(&2),
            "one gameFinish to each player: {finishes:?}"
        );
        assert_eq!(
            stored_version(&mut db, id).await,
            1,
            "the time-out was written once"
        );
        let rated: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM rating_history WHERE game_id = $1")
                .bind(id)
                .fetch_one(&mut db)
                .await
                .unwrap();
        assert_eq!(rated, 2, "rated once, for both players");
    }

    // 3. The database drops A's LISTEN connection; a move through B still
    // reaches A's spectators, and A's reads are current.
    let game = new_game(&a, &b, &tokens, "bob", json!({})).await;
    let id = game["id"].as_i64().unwrap();
    let mut watcher = Socket::connect(&format!("{}/api/games/{id}/stream", a.ws), None).await;
    watcher.until(|m| m["type"] == "gameFull").await;
    let listener = format!("epaminondas listener {}", a.child.id());
    let killed: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
    )
    .bind(&listener)
    .fetch_all(&mut db)
    .await
    .unwrap();
    assert_eq!(killed, [true], "A's LISTEN connection was found and ended");
    let mv = game["legal_moves"][0].as_str().unwrap();
    let (status, after) = b
        .call(
            "POST",
            &format!("/api/games/{id}/moves"),
            &tokens[0],
            json!({"move": mv}),
        )
        .await;
    assert_eq!(status, 200, "{after}");
    let seen = watcher.until(|m| m["game"]["ply"] == 1).await;
    assert_eq!(seen["type"], "gameState");
    assert_eq!(a.game(id).await["ply"], 1);
    // A listens again: the next move arrives as a plain notification.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let back: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1")
                .bind(&listener)
                .fetch_one(&mut db)
                .await
                .unwrap();
        if back == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "A did not listen again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let reply = b.game(id).await["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _) = b
        .call(
            "POST",
            &format!("/api/games/{id}/moves"),
            &tokens[1],
            json!({"move": reply}),
        )
        .await;
    assert_eq!(status, 200);
    watcher.until(|m| m["game"]["ply"] == 2).await;
}
