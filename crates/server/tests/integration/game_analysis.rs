//! The computer analysis of finished games over real HTTP, on SQLite and
//! PostgreSQL: asked for by a player, run in the background, kept for
//! everyone, with its limits.

use crate::common;

use std::time::Duration;

use common::{TestDb, TestServer};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Plays the first legal move `n` times in game `id`, alternating players.
async fn play_moves(server: &TestServer, id: i64, players: [&common::User; 2], n: usize) {
    for ply in 0..n {
        let (_, game) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        let mv = game["legal_moves"][0].as_str().unwrap().to_string();
        let (status, body) = server.post_move(id, players[ply % 2], &mv, Some(ply)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
}

async fn finished_game(server: &TestServer, white: &common::User, black: &common::User) -> i64 {
    let made = server.new_game(white, black, json!({})).await;
    let id = made["id"].as_i64().unwrap();
    play_moves(server, id, [white, black], 4).await;
    let (status, _) = server
        .call(
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(&black.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    id
}

/// Polls the analysis of game `id` until it is done.
async fn analysis_when_done(server: &TestServer, id: i64) -> Value {
    for _ in 0..300 {
        let (status, view) = server
            .call("GET", &format!("/api/games/{id}/analysis"), None, None)
            .await;
        assert_eq!(status, StatusCode::OK);
        if view["status"] == "done" {
            return view;
        }
        assert_ne!(view["status"], "failed", "{view}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the analysis of game {id} did not finish");
}

async fn a_finished_game_is_analysed_once_for_everyone(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("ga").await;
    let reader = server.user("readerga", false, &["read"]).await;
    let made = server.new_game(&alice, &bob, json!({})).await;
    let running = made["id"].as_i64().unwrap();
    let path = |id: i64| format!("/api/games/{id}/analysis");

    // Not while the game runs, not anonymously, not with a read-only token.
    let (status, body) = server
        .call("POST", &path(running), Some(&alice.token), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body.to_string().contains("still being played"), "{body}");
    let id = finished_game(server, &alice, &bob).await;
    let (status, _) = server.call("POST", &path(id), None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = server
        .call("POST", &path(id), Some(&reader.token), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, none) = server.call("GET", &path(id), None, None).await;
    assert_eq!(none["status"], "none");
    let (status, _) = server
        .call("GET", &format!("{}/record", path(id)), None, None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "no record before it is done");

    // Asked once, run in the background, shown to anyone.
    let (status, asked) = server.call("POST", &path(id), Some(&bob.token), None).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{asked}");
    assert_eq!(asked["positions"], 5, "four moves, five positions");
    let done = analysis_when_done(server, id).await;
    assert_eq!(done["done_positions"], 5);
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(moves[0]["played"], Value::Null);
    for (ply, position) in moves.iter().enumerate() {
        assert_eq!(position["ply"], ply);
        assert!(
            position["best"].is_string(),
            "a best move at {ply}: {position}"
        );
        let expected = position["white_expected"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&expected), "{position}");
        assert!(!position["eval"].as_str().unwrap().is_empty());
        if ply > 0 {
            assert!(position["cost"].as_f64().unwrap() >= 0.0, "{position}");
        }
    }
    let (_, game) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    for (ply, mv) in game["moves"].as_array().unwrap().iter().enumerate() {
        assert_eq!(&moves[ply + 1]["played"], mv);
    }
    let response = server
        .http
        .get(format!("{}{}/record", server.base, path(id)))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let record = response.text().await.unwrap();
    assert_eq!(
        record.matches('{').count(),
        4,
        "each move annotated: {record}"
    );
    // Asking again gives the same analysis; so does the other player.
    let (status, again) = server
        .call("POST", &path(id), Some(&alice.token), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["moves"], done["moves"]);

    // At most two waiting per player: two held by another process are
    // enough to refuse a third.
    let now = server.service.now();
    for fake in [900_001_i64, 900_002] {
        sqlx::query(
            "INSERT INTO game_analyses (game_id, requested_by, status, positions, movetime_ms, \
             claimed_until, created_at) SELECT $1, id, 'running', 10, 20, $2, $3 FROM users WHERE name = $4",
        )
        .bind(fake)
        .bind(now + 3_600_000)
        .bind(now)
        .bind(&alice.name)
        .execute(&server.service.db.write)
        .await
        .unwrap();
    }
    let other = finished_game(server, &alice, &bob).await;
    let (status, body) = server
        .call("POST", &path(other), Some(&alice.token), None)
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(body.to_string().contains("2 analyses waiting"), "{body}");
    let (status, _) = server
        .call("POST", &path(other), Some(&bob.token), None)
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "Bob has none waiting");
    analysis_when_done(server, other).await;
    let (status, _) = server.call("GET", &path(999_999), None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server
        .call("GET", "/api/games/x/analysis", None, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

on_both!(a_finished_game_is_analysed_once_for_everyone);
