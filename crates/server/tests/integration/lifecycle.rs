//! What happens over time, as in production: a session from sign-in to
//! sign-out or expiry, a token revoked, the clock sweep running by itself,
//! and games against the computer picked up again after a restart.

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestServer;
use epaminondas_server::clock::ManualClock;
use epaminondas_server::http::HttpConfig;
use epaminondas_server::service::SESSION_MS;
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn me(server: &TestServer, cookie: Option<&str>, token: Option<&str>) -> StatusCode {
    let mut request = server.http.get(format!("{}/api/me", server.base));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap().status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_from_sign_in_to_sign_out_and_expiry() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    let alice = server.user("alicel", false, &["read"]).await;
    let sign_in = || async {
        let response = server
            .http
            .post(format!("{}/api/signin", server.base))
            .json(&json!({"name": "alicel", "password": "password-123"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let cookie = common::session_cookie(&response);
        let csrf = response.json::<Value>().await.unwrap()["csrf"]
            .as_str()
            .unwrap()
            .to_string();
        (cookie, csrf)
    };
    // Sign in, then out: the cookie is cleared and the session is gone.
    let (cookie, csrf) = sign_in().await;
    assert_eq!(me(&server, Some(&cookie), None).await, StatusCode::OK);
    let response = server
        .http
        .post(format!("{}/api/signout", server.base))
        .header("cookie", &cookie)
        .header("x-csrf-token", &csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(
        me(&server, Some(&cookie), None).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        me(&server, Some(&alice.cookie), None).await,
        StatusCode::OK,
        "only that one"
    );
    // A session expires after 30 days, and the sweep drops it.
    let (cookie, _) = sign_in().await;
    server.clock.advance(SESSION_MS - 1_000);
    assert_eq!(me(&server, Some(&cookie), None).await, StatusCode::OK);
    server.clock.advance(2_000);
    assert_eq!(
        me(&server, Some(&cookie), None).await,
        StatusCode::UNAUTHORIZED
    );
    server.service.sweep().await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
        .fetch_one(&server.service.db.read)
        .await
        .unwrap();
    assert_eq!(left, 0, "expired sessions are dropped");
    // The token outlives the sessions until it is revoked.
    assert_eq!(me(&server, None, Some(&alice.token)).await, StatusCode::OK);
    let (cookie, csrf) = sign_in().await;
    let tokens: Value = server
        .http
        .get(format!("{}/api/tokens", server.base))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = tokens["tokens"][0]["id"].as_i64().unwrap();
    let revoked = server
        .http
        .delete(format!("{}/api/tokens/{id}", server.base))
        .header("cookie", &cookie)
        .header("x-csrf-token", &csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), StatusCode::OK);
    assert_eq!(
        me(&server, None, Some(&alice.token)).await,
        StatusCode::UNAUTHORIZED
    );
}

/// The sweep as `serve` runs it, on a timer: a correspondence game whose
/// days ran out ends by itself, with nobody calling anything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_sweep_runs_by_itself() {
    let db = common::database(common::Db::Sqlite).await.unwrap();
    let clock = Arc::new(ManualClock::new());
    let mut settings = common::settings(&db.url, clock.clone(), common::loose_limits());
    settings.sweep_every = Some(Duration::from_millis(50));
    let server = common::start_with(settings, clock, HttpConfig::default()).await;
    let alice = server.user("alicew", false, &["read", "play"]).await;
    let bob = server.user("bobw", false, &["read", "play"]).await;
    let game = server
        .new_game(
            &alice,
            &bob,
            json!({"time": {"kind": "correspondence", "days_per_move": 1}}),
        )
        .await;
    let id = game["id"].as_i64().unwrap();
    // Alice would rather lose on time than have a vacation day taken.
    server.no_auto_vacation(&alice).await;
    server.clock.advance(24 * 60 * 60 * 1000 + 1);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, view) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        if view["status"] == "finished" {
            assert_eq!(view["reason"], "time");
            assert_eq!(view["winner"], "black");
            break;
        }
        assert!(Instant::now() < deadline, "the sweep did not end the game");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A game against the computer whose move was pending when the server
/// stopped (the player's move stored, the computer's not yet) is played on
/// by the next server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_the_computer_resume_after_a_restart() {
    let db = common::database(common::Db::Sqlite).await.unwrap();
    let clock = Arc::new(ManualClock::new());
    let first = common::start_on(&db.url, clock.clone(), common::loose_limits()).await;
    let human = first.user("humanr", false, &["read", "play"]).await;
    let (status, made) = first
        .call(
            "POST",
            "/api/challenges",
            Some(&human.token),
            Some(json!({"level": 1, "board": "8x8", "color": "white"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = made["game"]["id"].as_i64().unwrap();
    let opening = made["game"]["legal_moves"][0].as_str().unwrap().to_string();
    let (status, _) = first
        .call(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&human.token),
            Some(json!({"move": opening})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let state = wait_for_ply(&first, id, 2).await;
    let db_handle = first.service.db.clone();
    drop(first);
    // The player's next move is stored as the server stops, before the
    // computer answers it.
    let reply = state["legal_moves"][0].as_str().unwrap();
    let moves = format!(
        "{} {reply}",
        state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect::<Vec<_>>()
            .join(" ")
    );
    sqlx::query("UPDATE games SET moves = $1, version = version + 1 WHERE id = $2")
        .bind(&moves)
        .bind(id)
        .execute(&db_handle.write)
        .await
        .unwrap();
    let second = common::start_on(&db.url, clock, common::loose_limits()).await;
    let resumed = wait_for_ply(&second, id, 4).await;
    assert_eq!(resumed["turn"], "white", "the computer answered: {resumed}");
}

async fn wait_for_ply(server: &TestServer, id: i64, ply: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, view) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        if view["ply"].as_u64() >= Some(ply) {
            return view;
        }
        assert!(
            Instant::now() < deadline,
            "no move {ply} in game {id}: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
