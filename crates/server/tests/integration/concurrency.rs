//! A game changed by another process whose news has not arrived: this
//! process's cached copy is stale, and its decisions must still be the
//! stored state's. The other process is played by writing the database
//! behind the server's back (as a process whose NOTIFY is late would have),
//! on SQLite and on PostgreSQL.

use crate::common;

use common::{TestDb, TestServer};
use epaminondas_rules::{BoardSize, Position, Symmetry};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Plays `mv` in game `id` by writing the database directly, with the
/// version moved on, as another server process would.
async fn move_behind_the_back(server: &TestServer, id: i64, moves: &[String]) {
    let done = sqlx::query("UPDATE games SET moves = $1, version = version + 1 WHERE id = $2")
        .bind(moves.join(" "))
        .bind(id)
        .execute(&server.service.db.write)
        .await
        .unwrap();
    assert_eq!(done.rows_affected(), 1);
}

async fn game_view(server: &TestServer, id: i64) -> Value {
    server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await
        .1
}

/// The cached copy says Black is to move; the stored game has Black's move
/// already. White's move is judged on the stored state: the write on the
/// stale copy fails its version check, the game is read again, and the move
/// applies; a stale move number is refused as stale, not as out of turn.
async fn a_stale_cache_never_decides(server: &TestServer, _db: &TestDb) {
    let alice = server.user("alices", false, &["read", "play"]).await;
    let bob = server.user("bobs", false, &["read", "play"]).await;
    let game = server.new_game(&alice, &bob, json!({})).await;
    let id = game["id"].as_i64().unwrap();
    let mut pos = Position::new(BoardSize::new(6, 6).unwrap(), Symmetry::Mirror);
    let first = pos.legal_moves()[0];
    assert_eq!(
        server
            .post_move(id, &alice, &first.to_string(), Some(0))
            .await
            .0,
        StatusCode::OK
    );
    pos.play(first).unwrap();
    // Bob's answer arrives through "another process".
    let answer = pos.legal_moves()[0];
    pos.play(answer).unwrap();
    move_behind_the_back(server, id, &[first.to_string(), answer.to_string()]).await;
    assert_eq!(
        game_view(server, id).await["ply"],
        1,
        "this process has not seen it"
    );
    // Alice's next move, made on the stored position, is accepted.
    let next = pos.legal_moves()[0];
    let (status, body) = server
        .post_move(id, &alice, &next.to_string(), Some(2))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["ply"], 3);
    pos.play(next).unwrap();
    // Bob's answer, again behind the back; Alice replays an old move number.
    let answer = pos.legal_moves()[0];
    let (_, seen) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    let mut moves: Vec<String> = seen["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    moves.push(answer.to_string());
    move_behind_the_back(server, id, &moves).await;
    pos.play(answer).unwrap();
    let (status, body) = server
        .post_move(id, &alice, &pos.legal_moves()[0].to_string(), Some(3))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["code"], "stale_move",
        "judged on the stored game: {body}"
    );
    // A refusal does not change the stored game; the next read is fresh.
    assert_eq!(game_view(server, id).await["ply"], 4);
}

on_both!(a_stale_cache_never_decides);

/// Two server processes' clock sweeps at the same moment on one PostgreSQL
/// database, over many games that ran out of time and many reminders due:
/// each game is ended (or reminded) exactly once, rated once, and each
/// player hears of it once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sweeps_at_once_change_each_game_once() {
    let Some(db) = common::database(common::Db::Postgres).await else {
        return;
    };
    let clock = std::sync::Arc::new(epaminondas_server::clock::ManualClock::new());
    let first = common::start_on(&db.url, clock.clone(), common::loose_limits()).await;
    let second = common::start_on(&db.url, clock, common::loose_limits()).await;
    let alice = first.user("alicez", false, &["read", "play"]).await;
    let bob = first.user("bobz", false, &["read", "play"]).await;
    let mut live = Vec::new();
    let mut correspondence = Vec::new();
    for _ in 0..10 {
        let game = first
            .new_game(
                &alice,
                &bob,
                json!({"rated": true, "time": {"kind": "live", "initial_ms": 60000, "increment_ms": 0}}),
            )
            .await;
        live.push(game["id"].as_i64().unwrap());
        let game = first
            .new_game(
                &alice,
                &bob,
                json!({"time": {"kind": "correspondence", "days_per_move": 30}}),
            )
            .await;
        correspondence.push(game["id"].as_i64().unwrap());
    }
    let mut alice_events =
        common::Socket::connect(&format!("{}/api/stream", first.ws), Some(&alice.token)).await;
    alice_events.next().await;
    // Past the live games' time and the correspondence games' reminder.
    first.clock.advance(16 * 24 * 60 * 60 * 1000);
    let (a, b) = tokio::join!(first.service.sweep(), second.service.sweep());
    a.unwrap();
    b.unwrap();
    let version = |id: i64| {
        let pool = first.service.db.read.clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT version FROM games WHERE id = $1")
                .bind(id)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    for &id in live.iter().chain(&correspondence) {
        assert_eq!(version(id).await, 1, "game {id} was changed exactly once");
    }
    for &id in &live {
        let rated: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM rating_history WHERE game_id = $1")
                .bind(id)
                .fetch_one(&first.service.db.read)
                .await
                .unwrap();
        assert_eq!(rated, 2, "game {id} rated once");
    }
    let mut finished = std::collections::HashMap::new();
    let mut reminded = std::collections::HashMap::new();
    loop {
        let message =
            tokio::time::timeout(std::time::Duration::from_secs(2), alice_events.next()).await;
        let Ok(message) = message else { break };
        let id = message["game"]["id"].as_i64().unwrap_or(0);
        match message["type"].as_str() {
            Some("gameFinish") => *finished.entry(id).or_insert(0) += 1,
            Some("reminder") => *reminded.entry(id).or_insert(0) += 1,
            _ => {}
        }
    }
    assert_eq!(finished.len(), live.len(), "{finished:?}");
    assert!(
        finished.values().all(|&n| n == 1),
        "once each: {finished:?}"
    );
    assert_eq!(reminded.len(), correspondence.len(), "{reminded:?}");
    assert!(
        reminded.values().all(|&n| n == 1),
        "once each: {reminded:?}"
    );
}
