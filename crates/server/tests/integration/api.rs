//! The server over real HTTP and WebSocket, on SQLite and on PostgreSQL:
//! whole games, ratings, the pbmserv commands, the engine, the bot API, bad
//! input, the simultaneous-move race and the correspondence forfeit.

use crate::common;

use std::sync::Arc;

use common::{Socket, TestDb, TestServer, racing_move};
use epaminondas_rules::{BoardSize, Color, GameRecord, Position, Symmetry};
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn whole_game_to_a_crossing_win_changes_ratings(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("").await;
    let game = server.new_game(&alice, &bob, json!({"rated": true})).await;
    let id = game["id"].as_i64().unwrap();
    assert!(id >= 101, "board numbers start at 101");
    assert_eq!(game["white"]["name"], "alice");
    assert!(!game["legal_moves"].as_array().unwrap().is_empty());
    let mut spectator =
        Socket::connect(&format!("{}/api/games/{id}/stream", server.ws), None).await;
    assert_eq!(spectator.next().await["type"], "gameFull");
    let mut alice_events =
        Socket::connect(&format!("{}/api/stream", server.ws), Some(&alice.token)).await;
    let hello = alice_events.next().await;
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["games"][0]["id"], id);

    let mut pos = Position::new(BoardSize::new(6, 6).unwrap(), Symmetry::Mirror);
    let mut ply = 0;
    let mut last = Value::Null;
    while !pos.is_terminal() {
        let mv = racing_move(&pos);
        let who = if pos.turn() == Color::White {
            &alice
        } else {
            &bob
        };
        let (status, state) = server.post_move(id, who, &mv.to_string(), Some(ply)).await;
        assert_eq!(status, StatusCode::OK, "{state}");
        pos.play(mv).unwrap();
        ply += 1;
        let seen = spectator.next().await;
        assert_eq!(seen["game"]["ply"], ply, "the spectator sees each move");
        last = state;
    }
    assert_eq!(last["status"], "finished");
    assert_eq!(last["reason"], "crossing", "{last}");
    let winner = last["winner"].as_str().unwrap();
    let (winner_name, loser_name) = if winner == "white" {
        ("alice", "bob")
    } else {
        ("bob", "alice")
    };
    alice_events.until(|e| e["type"] == "gameFinish").await;

    let (_, won) = server
        .call("GET", &format!("/api/users/{winner_name}"), None, None)
        .await;
    let (_, lost) = server
        .call("GET", &format!("/api/users/{loser_name}"), None, None)
        .await;
    assert!(won["rating"].as_f64().unwrap() > 1500.0, "{won}");
    assert!(lost["rating"].as_f64().unwrap() < 1500.0, "{lost}");
    assert_eq!(won["rating_history"].as_array().unwrap().len(), 1);
    let (_, board) = server.call("GET", "/api/leaderboard", None, None).await;
    assert_eq!(board["players"][0]["name"], winner_name);

    // Finished games are immutable.
    let (status, _) = server
        .call(
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(&alice.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Export: the game's record, and all of a player's games in one file.
    let record = server
        .http
        .get(format!("{}/api/games/{id}/record", server.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let parsed: GameRecord = record.parse().expect("the export reads back as a record");
    assert_eq!(parsed.moves().len(), ply);
    assert!(record.contains("[White \"alice\"]"), "{record}");
    let all = server
        .http
        .get(format!("{}/api/users/alice/export", server.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(GameRecord::read_all(&all).unwrap().len(), 1);
    spectator.close().await;
}

async fn bad_input_is_refused_and_changes_nothing(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("b").await;
    let carol = server.user("carolb", false, &["read"]).await;
    let game = server.new_game(&alice, &bob, json!({})).await;
    let id = game["id"].as_i64().unwrap();
    let legal = game["legal_moves"][0].as_str().unwrap().to_string();

    let cases: Vec<(StatusCode, (StatusCode, Value))> = vec![
        (
            StatusCode::BAD_REQUEST,
            server.post_move(id, &alice, "a1-a6", None).await,
        ),
        (
            StatusCode::BAD_REQUEST,
            server.post_move(id, &alice, "nonsense", None).await,
        ),
        (
            StatusCode::CONFLICT,
            server.post_move(id, &bob, &legal, None).await,
        ),
        (
            StatusCode::CONFLICT,
            server.post_move(id, &alice, &legal, Some(3)).await,
        ),
        (
            StatusCode::FORBIDDEN,
            server.post_move(id, &carol, &legal, None).await,
        ),
        (
            StatusCode::NOT_FOUND,
            server.post_move(99_999, &alice, &legal, None).await,
        ),
        (
            StatusCode::BAD_REQUEST,
            server.call("GET", "/api/games/abc", None, None).await,
        ),
        (
            StatusCode::NOT_FOUND,
            server.call("GET", "/api/games/99999", None, None).await,
        ),
        (
            StatusCode::UNAUTHORIZED,
            server
                .call("POST", &format!("/api/games/{id}/resign"), None, None)
                .await,
        ),
        (
            StatusCode::UNAUTHORIZED,
            server
                .call(
                    "POST",
                    &format!("/api/games/{id}/resign"),
                    Some("ep_forged"),
                    None,
                )
                .await,
        ),
        (
            StatusCode::BAD_REQUEST,
            server
                .call(
                    "POST",
                    "/api/challenges",
                    Some(&alice.token),
                    Some(json!({"board": "99x3"})),
                )
                .await,
        ),
        (
            StatusCode::BAD_REQUEST,
            server
                .call(
                    "POST",
                    "/api/challenges",
                    Some(&alice.token),
                    Some(json!({"level": 11})),
                )
                .await,
        ),
        (
            StatusCode::BAD_REQUEST,
            server
                .call(
                    "POST",
                    "/api/challenges",
                    Some(&alice.token),
                    Some(json!({"time": {"kind": "live", "initial_ms": 5, "increment_ms": 0}})),
                )
                .await,
        ),
        (
            StatusCode::NOT_FOUND,
            server
                .call(
                    "POST",
                    "/api/challenges",
                    Some(&alice.token),
                    Some(json!({"opponent": "nobody"})),
                )
                .await,
        ),
        (
            StatusCode::CONFLICT,
            server
                .call(
                    "POST",
                    &format!("/api/games/{id}/draw/accept"),
                    Some(&bob.token),
                    None,
                )
                .await,
        ),
        (
            StatusCode::BAD_REQUEST,
            server
                .call(
                    "POST",
                    "/api/signup",
                    None,
                    Some(json!({"name": "x y", "password": "password-123", "email": "a@b.c"})),
                )
                .await,
        ),
        (
            StatusCode::CONFLICT,
            server
                .call(
                    "POST",
                    "/api/signup",
                    None,
                    Some(json!({"name": "ALICEB", "password": "password-123", "email": "a@b.c"})),
                )
                .await,
        ),
        (
            StatusCode::UNAUTHORIZED,
            server
                .call(
                    "POST",
                    "/api/signin",
                    None,
                    Some(json!({"name": "aliceb", "password": "wrong-password"})),
                )
                .await,
        ),
    ];
    for (i, (expected, (status, body))) in cases.iter().enumerate() {
        assert_eq!(status, expected, "case {i}: {body}");
        let reason = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("case {i} has a reason: {body}"));
        assert!(
            !reason.is_empty() && !reason.contains('\n'),
            "case {i}: one line: {reason}"
        );
    }
    // Malformed JSON.
    let response = server
        .http
        .post(format!("{}/api/games/{id}/moves", server.base))
        .bearer_auth(&alice.token)
        .header("content-type", "application/json")
        .body("{\"move\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.text().await.unwrap().contains("error"));
    // A cookie without the CSRF header cannot change anything.
    let response = server
        .http
        .post(format!("{}/api/games/{id}/resign", server.base))
        .header("cookie", &alice.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    // A read-only token cannot play.
    let (status, _) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&carol.token),
            Some(json!({"opponent": "aliceb"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Nothing changed.
    let (_, after) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(after["ply"], 0);
    assert_eq!(after["status"], "active");
    // With the cookie and its CSRF token, it can.
    let response = server
        .http
        .post(format!("{}/api/games/{id}/resign", server.base))
        .header("cookie", &alice.cookie)
        .header("x-csrf-token", &alice.csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

async fn simultaneous_moves_apply_exactly_one(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("r").await;
    for _ in 0..5 {
        let game = server.new_game(&alice, &bob, json!({})).await;
        let id = game["id"].as_i64().unwrap();
        let moves: Vec<String> = game["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .take(8)
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let sends = moves
            .iter()
            .map(|mv| server.post_move(id, &alice, mv, None));
        let results = futures_util::future::join_all(sends).await;
        let ok = results.iter().filter(|(s, _)| *s == StatusCode::OK).count();
        assert_eq!(ok, 1, "{results:?}");
        assert!(
            results
                .iter()
                .all(|(s, _)| *s == StatusCode::OK || *s == StatusCode::CONFLICT)
        );
        let (_, after) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(after["ply"], 1);
    }
}

async fn correspondence_reminder_and_forfeit(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("c").await;
    let game = server
        .new_game(
            &alice,
            &bob,
            json!({"time": {"kind": "correspondence", "days_per_move": 2}}),
        )
        .await;
    let id = game["id"].as_i64().unwrap();
    // Alice would rather lose on time than have a vacation day taken.
    server.no_auto_vacation(&alice).await;
    let mut alice_events =
        Socket::connect(&format!("{}/api/stream", server.ws), Some(&alice.token)).await;
    alice_events.next().await;
    let day = 24 * 60 * 60 * 1000;
    server.clock.advance(day + 1);
    server.service.sweep().await.unwrap();
    let reminder = alice_events.until(|e| e["type"] == "reminder").await;
    assert_eq!(reminder["game"]["id"], id);
    let (_, still) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(still["status"], "active");
    server.clock.advance(day);
    server.service.sweep().await.unwrap();
    let (_, over) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(over["status"], "finished");
    assert_eq!(over["reason"], "time");
    assert_eq!(over["winner"], "black");
    let legal = game["legal_moves"][0].as_str().unwrap();
    let (status, _) = server.post_move(id, &alice, legal, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

async fn live_clock_runs_out_on_a_late_move(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("l").await;
    let game = server
        .new_game(
            &alice,
            &bob,
            json!({"time": {"kind": "live", "initial_ms": 60000, "increment_ms": 2000}}),
        )
        .await;
    let id = game["id"].as_i64().unwrap();
    server.clock.advance(10_000);
    let legal = game["legal_moves"][0].as_str().unwrap();
    let (status, state) = server.post_move(id, &alice, legal, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["clocks"]["white_ms"], 52_000);
    server.clock.advance(61_000);
    let (status, body) = server
        .call(
            "POST",
            &format!("/api/games/{id}/draw/offer"),
            Some(&bob.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (_, over) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(over["reason"], "time");
    assert_eq!(over["winner"], "white");
}

async fn draws_takebacks_and_challenge_answers(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("d").await;
    let game = server.new_game(&alice, &bob, json!({})).await;
    let id = game["id"].as_i64().unwrap();
    let first = game["legal_moves"][0].as_str().unwrap();
    assert_eq!(
        server.post_move(id, &alice, first, Some(0)).await.0,
        StatusCode::OK
    );
    let path = |what: &str| format!("/api/games/{id}/{what}");
    assert_eq!(
        server
            .call("POST", &path("takeback/offer"), Some(&alice.token), None)
            .await
            .0,
        StatusCode::OK
    );
    let (status, state) = server
        .call("POST", &path("takeback/accept"), Some(&bob.token), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["ply"], 0);
    assert_eq!(
        server
            .call("POST", &path("draw/offer"), Some(&alice.token), None)
            .await
            .0,
        StatusCode::OK
    );
    let (_, state) = server
        .call("POST", &path("draw/decline"), Some(&bob.token), None)
        .await;
    assert_eq!(state["draw_offer"], Value::Null);
    assert_eq!(
        server
            .call("POST", &path("draw/offer"), Some(&bob.token), None)
            .await
            .0,
        StatusCode::OK
    );
    let (_, state) = server
        .call("POST", &path("draw/accept"), Some(&alice.token), None)
        .await;
    assert_eq!(state["result"], "1/2-1/2");
    assert_eq!(state["reason"], "agreement");

    // Decline, cancel, open seeks.
    let (_, made) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&alice.token),
            Some(json!({"opponent": "bobd"})),
        )
        .await;
    let cid = made["challenge"]["id"].as_i64().unwrap();
    assert_eq!(
        server
            .call(
                "POST",
                &format!("/api/challenges/{cid}/cancel"),
                Some(&bob.token),
                None
            )
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        server
            .call(
                "POST",
                &format!("/api/challenges/{cid}/decline"),
                Some(&bob.token),
                None
            )
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(
        server
            .call(
                "POST",
                &format!("/api/challenges/{cid}/accept"),
                Some(&bob.token),
                None
            )
            .await
            .0,
        StatusCode::CONFLICT
    );
    let (_, seek) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&alice.token),
            Some(json!({"board": "8x8"})),
        )
        .await;
    let sid = seek["challenge"]["id"].as_i64().unwrap();
    let (_, listed) = server
        .call("GET", "/api/challenges", Some(&bob.token), None)
        .await;
    assert!(
        listed["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == sid)
    );
    let (status, game) = server
        .call(
            "POST",
            &format!("/api/challenges/{sid}/accept"),
            Some(&bob.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["game"]["files"], 8);
}

async fn a_game_against_the_engine(server: &TestServer, _db: &TestDb) {
    let human = server.user("humane", false, &["read", "play"]).await;
    let (status, made) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&human.token),
            Some(json!({"level": 1, "board": "6x6", "color": "black"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["game"]["id"].as_i64().unwrap();
    let mut watch = Socket::connect(&format!("{}/api/games/{id}/stream", server.ws), None).await;
    let mut state = watch.next().await["game"].clone();
    // The engine plays White: its first move comes by itself.
    let mut moves_made = 0;
    // A message may repeat what gameFull already showed (a change made while
    // the stream was being opened), so each wait is for a later ply.
    let later = |ply: u64| {
        move |m: &Value| {
            m["game"]["status"] == "finished"
                || (m["game"]["turn"] == "black" && m["game"]["ply"].as_u64() > Some(ply))
        }
    };
    while state["status"] == "active" && moves_made < 12 {
        let ply = state["ply"].as_u64().unwrap();
        if state["turn"] == "white" {
            state = watch.until(later(ply)).await["game"].clone();
            continue;
        }
        let mv = state["legal_moves"][0].as_str().unwrap().to_string();
        let (status, body) = server
            .post_move(id, &human, &mv, state["ply"].as_u64().map(|p| p as usize))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        moves_made += 1;
        state = watch.until(later(ply + 1)).await["game"].clone();
    }
    assert!(state["ply"].as_u64().unwrap() >= 2);
    // Every move on record is legal: the record reads back.
    let record = server
        .http
        .get(format!("{}/api/games/{id}/record", server.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(record.parse::<GameRecord>().is_ok(), "{record}");
    assert!(record.contains("computer level 1"));
}

async fn the_bot_api(server: &TestServer, _db: &TestDb) {
    let bot = server.user("robot", true, &["bot"]).await;
    let human = server.user("humanb", false, &["read", "play"]).await;
    let (status, _) = server
        .call(
            "POST",
            "/api/tokens",
            Some(&human.token),
            Some(json!({"scopes": ["bot"]})),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "tokens are made with a session, and bot scope needs a bot"
    );
    let response = server
        .http
        .get(format!("{}/api/bot/stream/event", server.base))
        .bearer_auth(&bot.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let mut events = lines(response);
    assert_eq!(events.next_json().await["type"], "hello");
    let (_, made) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&human.token),
            Some(json!({"opponent": "robot", "board": "6x6", "color": "white"})),
        )
        .await;
    let challenge = events.next_json().await;
    assert_eq!(challenge["type"], "challenge");
    let cid = challenge["challenge"]["id"].as_i64().unwrap();
    assert_eq!(cid, made["challenge"]["id"].as_i64().unwrap());
    let (status, accepted) = server
        .call(
            "POST",
            &format!("/api/challenges/{cid}/accept"),
            Some(&bot.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let id = accepted["game"]["id"].as_i64().unwrap();
    assert_eq!(events.next_json().await["type"], "gameStart");
    let response = server
        .http
        .get(format!("{}/api/bot/game/stream/{id}", server.base))
        .bearer_auth(&bot.token)
        .send()
        .await
        .unwrap();
    let mut game = lines(response);
    let full = game.next_json().await;
    assert_eq!(full["type"], "gameFull");
    let opening = full["game"]["legal_moves"][0].as_str().unwrap();
    assert_eq!(
        server.post_move(id, &human, opening, None).await.0,
        StatusCode::OK
    );
    let state = game.next_json().await;
    assert_eq!(state["type"], "gameState");
    assert_eq!(events.next_json().await["type"], "yourTurn");
    let reply = state["game"]["legal_moves"][0].as_str().unwrap();
    let (status, body) = server
        .call(
            "POST",
            &format!("/api/bot/game/{id}/move/{reply}"),
            Some(&bot.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(game.next_json().await["game"]["ply"], 2);
    let (status, _) = server
        .call(
            "POST",
            &format!("/api/bot/game/{id}/resign"),
            Some(&bot.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let end = game.next_json().await;
    assert_eq!(end["game"]["reason"], "resignation");
    assert!(
        game.next_line().await.is_none(),
        "the game stream ends with the game"
    );
    // A person's token cannot use the bot API.
    let (status, _) = server
        .call("GET", "/api/bot/stream/event", Some(&human.token), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

/// Reads an NDJSON response line by line.
struct Lines {
    stream:
        std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    buffer: String,
}

fn lines(response: reqwest::Response) -> Lines {
    Lines {
        stream: Box::pin(response.bytes_stream()),
        buffer: String::new(),
    }
}

impl Lines {
    async fn next_line(&mut self) -> Option<String> {
        loop {
            if let Some(end) = self.buffer.find('\n') {
                let line: String = self.buffer.drain(..=end).collect();
                return Some(line.trim_end().to_string());
            }
            let chunk =
                tokio::time::timeout(std::time::Duration::from_secs(10), self.stream.next())
                    .await
                    .expect("a line within 10 s")?;
            self.buffer
                .push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
        }
    }

    async fn next_json(&mut self) -> Value {
        loop {
            let line = self.next_line().await.expect("stream open");
            if !line.is_empty() {
                return serde_json::from_str(&line).expect("JSON line");
            }
        }
    }
}

async fn pbmserv_commands(server: &TestServer, _db: &TestDb) {
    let (status, reply) = server.pbm("help").await;
    assert_eq!(status, StatusCode::OK);
    assert!(reply.contains("epaminondas move BOARD USERID PASSWORD"));
    assert_eq!(
        server.pbm("signup ann secret-pw ann@example.org").await.0,
        StatusCode::OK
    );
    assert_eq!(
        server.pbm("signup ben secret-pw2 ben@example.org").await.0,
        StatusCode::OK
    );
    // The challenger gives their password; the game begins when the
    // opponent accepts the challenge by its number.
    let (status, reply) = server
        .pbm("epaminondas challenge -size=6x5 ann ben secret-pw")
        .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let challenge: i64 = reply
        .strip_prefix("Challenge ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{reply}"));
    let (status, reply) = server
        .pbm(&format!("epaminondas accept {challenge} ben secret-pw2"))
        .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let board: i64 = reply
        .split("board ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{reply}"));
    assert_ne!(board, challenge, "a board gets a number of its own");
    assert!(reply.contains("6 ranks x 5 files"), "{reply}");
    assert!(reply.contains("Move 1: ann (o) to play."), "{reply}");
    let mut pos = Position::new(BoardSize::new(5, 6).unwrap(), Symmetry::Mirror);
    let mut ply = 0;
    while !pos.is_terminal() {
        let mv = racing_move(&pos);
        let (who, pw) = if pos.turn() == Color::White {
            ("ann", "secret-pw")
        } else {
            ("ben", "secret-pw2")
        };
        let (status, reply) = server
            .pbm(&format!(
                "epaminondas move {board} {who} {pw} {mv}#{}",
                ply + 1
            ))
            .await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        if ply == 0 {
            // A stale move number, a wrong password, a move out of turn.
            let (status, stale) = server
                .pbm(&format!("epaminondas move {board} ann secret-pw {mv}#1"))
                .await;
            assert_eq!(status, StatusCode::CONFLICT);
            assert!(stale.starts_with("Error: "), "{stale}");
            assert_eq!(
                server
                    .pbm(&format!("epaminondas move {board} ben wrong {mv}"))
                    .await
                    .0,
                StatusCode::UNAUTHORIZED
            );
            // Ben reads the board from his side: rank 1 at the top.
            let (_, seen) = server.pbm(&format!("epaminondas board {board} ben")).await;
            let first_rank = seen
                .lines()
                .find(|l| l.trim_start().starts_with(char::is_numeric))
                .unwrap();
            assert!(first_rank.trim_start().starts_with('1'), "{seen}");
        }
        pos.play(mv).unwrap();
        ply += 1;
    }
    let (_, history) = server.pbm(&format!("epaminondas history {board}")).await;
    assert!(history.contains("Game over"), "{history}");
    assert!(history.contains("  1. "), "{history}");
    let (_, games) = server.pbm("epaminondas games ann").await;
    assert!(games.contains(&format!("board {board:>4}")), "{games}");
    let (_, ratings) = server.pbm("epaminondas ratings").await;
    assert!(ratings.starts_with("Epaminondas ratings"));
    // A second game: draws, undo and resignation.
    let (_, reply) = server.pbm("epaminondas challenge ann ben secret-pw").await;
    let challenge: i64 = reply.split_whitespace().nth(1).unwrap().parse().unwrap();
    let (_, reply) = server
        .pbm(&format!("epaminondas accept {challenge} ben secret-pw2"))
        .await;
    let second: i64 = reply
        .split("board ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{reply}"));
    let start = Position::new(BoardSize::STANDARD, Symmetry::Mirror);
    let opening = start.legal_moves()[0].to_string();
    assert_eq!(
        server
            .pbm(&format!(
                "epaminondas move {second} ann secret-pw {opening}"
            ))
            .await
            .0,
        StatusCode::OK
    );
    let (_, asked) = server
        .pbm(&format!("epaminondas undo {second} ann secret-pw"))
        .await;
    assert!(asked.contains("asks to undo"), "{asked}");
    let (_, undone) = server
        .pbm(&format!("epaminondas accept {second} ben secret-pw2"))
        .await;
    assert!(undone.contains("Move 1: ann (o) to play."), "{undone}");
    assert_eq!(
        server
            .pbm(&format!("epaminondas propose {second} ann secret-pw"))
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(
        server
            .pbm(&format!("epaminondas reject {second} ben secret-pw2"))
            .await
            .0,
        StatusCode::OK
    );
    let (_, resigned) = server
        .pbm(&format!("epaminondas resign {second} ben secret-pw2"))
        .await;
    assert!(
        resigned.contains("Game over: ann (o) wins (resignation)."),
        "{resigned}"
    );
    // Errors.
    for bad in [
        "",
        "epaminondas",
        "epaminondas fly 101",
        "epaminondas move 101 ann",
        "epaminondas board x",
        "chess move",
    ] {
        let (status, reply) = server.pbm(bad).await;
        assert!(status.is_client_error(), "{bad:?}: {status}");
        assert!(reply.starts_with("Error: "), "{bad:?}: {reply}");
    }
    assert_eq!(
        server.pbm("epaminondas board 99999").await.0,
        StatusCode::NOT_FOUND
    );
}

/// Sends a cookie-authenticated request (as the web page does).
async fn with_cookie(
    server: &TestServer,
    path: &str,
    cookie: &str,
    csrf: &str,
    body: Value,
) -> (StatusCode, Value, Option<String>) {
    let response = server
        .http
        .post(format!("{}{path}", server.base))
        .header("cookie", cookie)
        .header("x-csrf-token", csrf)
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = response.status();
    let set_cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    (
        status,
        response.json().await.unwrap_or(Value::Null),
        set_cookie,
    )
}

async fn a_guest_plays_the_computer_then_signs_up_keeping_the_game(
    server: &TestServer,
    _db: &TestDb,
) {
    let response = server
        .http
        .post(format!("{}/api/guest", server.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie = common::session_cookie(&response);
    let guest: Value = response.json().await.unwrap();
    let name = guest["name"].as_str().unwrap().to_string();
    let csrf = guest["csrf"].as_str().unwrap().to_string();
    assert!(name.starts_with("Guest-"), "{name}");
    // A guest plays the computer, but not rated games, and makes no tokens.
    let (status, made, _) = with_cookie(
        server,
        "/api/challenges",
        &cookie,
        &csrf,
        json!({"level": 1, "board": "8x8", "color": "white"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let game = &made["game"];
    let id = game["id"].as_i64().unwrap();
    // The game view carries the board and every legal move with its squares.
    assert_eq!(game["rows"][0], "bbbbbbbb");
    let legal = game["legal"].as_array().unwrap();
    assert_eq!(legal.len(), game["legal_moves"].as_array().unwrap().len());
    let shared: Vec<&Value> = legal
        .iter()
        .filter(|m| m["to"] == "c3" && m["from"].as_array().unwrap().contains(&json!("c2")))
        .collect();
    assert_eq!(shared.len(), 2, "c2-c3 and c1,c2-c3 share c3: {shared:?}");
    let (status, body, _) = with_cookie(
        server,
        "/api/challenges",
        &cookie,
        &csrf,
        json!({"board": "8x8", "rated": true}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _, _) = with_cookie(
        server,
        "/api/tokens",
        &cookie,
        &csrf,
        json!({"scopes": ["play"]}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Guest names are kept for guests.
    let (status, body, _) = with_cookie(
        server,
        "/api/signup",
        "x=y",
        "",
        json!({"name": "guest-me", "password": "password-123", "email": "g@example.org"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // Signing up as the guest keeps the game under the new name.
    let (status, body, new_cookie) = with_cookie(
        server,
        "/api/signup",
        &cookie,
        &csrf,
        json!({"name": "keeper", "password": "password-123", "email": "k@example.org"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["id"], guest["id"]);
    let (_, view) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(view["white"]["name"], "keeper");
    let (_, games) = server
        .call("GET", "/api/users/keeper/games", None, None)
        .await;
    assert_eq!(games["games"][0]["id"], id);
    // The new session works; the account is no longer a guest; nobody can
    // sign in with the old guest name.
    let me = server
        .http
        .get(format!("{}/api/me", server.base))
        .header("cookie", new_cookie.unwrap())
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(me["name"], "keeper");
    assert_eq!(me["guest"], false);
    let (status, _) = server
        .call(
            "POST",
            "/api/signin",
            None,
            Some(json!({"name": name, "password": ""})),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

async fn the_analysis_board(server: &TestServer, _db: &TestDb) {
    let (status, line) = server
        .call(
            "POST",
            "/api/analysis",
            None,
            Some(json!({"board": "8x8", "moves": ["c2-c3", "c7-c6"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{line}");
    assert_eq!(line["state"]["turn"], "white");
    assert_eq!(line["state"]["last"]["from"], json!(["c7"]));
    assert_eq!(
        line["start"],
        "bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww w"
    );
    // An illegal move is refused with its number.
    let (status, body) = server
        .call(
            "POST",
            "/api/analysis",
            None,
            Some(json!({"board": "8x8", "moves": ["c2-c3", "c2-c3"]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("c2-c3"), "{body}");
    // A record reads back into its line.
    let (status, read) = server
        .call(
            "POST",
            "/api/analysis/record",
            None,
            Some(json!({"record": "[Board \"8x8\"]\n\n1. c2-c3 c7-c6 *\n"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{read}");
    assert_eq!(read["moves"], json!(["c2-c3", "c7-c6"]));
    // The editor's rows: a white piece one step from Black's home rank.
    let (status, edited) = server
        .call(
            "POST",
            "/api/analysis",
            None,
            Some(json!({"rows": ["...b", "w...", "....", "...."], "turn": "white"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    // The engine streams its progress, then its answer: here a win.
    let response = server
        .http
        .post(format!("{}/api/analysis/engine", server.base))
        .json(&json!({"line": {"start": edited["start"]}, "movetime_ms": 300}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = response.text().await.unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["done"], true, "{text}");
    assert!(last["score"].as_str().unwrap().starts_with("win"), "{text}");
    assert!(
        ["a3-a4", "a3-b4"].contains(&last["best"].as_str().unwrap()),
        "{text}"
    );
    let (status, _) = server
        .call(
            "POST",
            "/api/analysis/engine",
            None,
            Some(json!({"line": {"board": "8x8"}, "movetime_ms": 60000})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The pages and their files are served.
    for path in ["/", "/game/101", "/analysis", "/assets/js/app.js"] {
        let response = server
            .http
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    let missing = server
        .http
        .get(format!("{}/assets/nothing.js", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
}

on_both!(
    a_guest_plays_the_computer_then_signs_up_keeping_the_game,
    the_analysis_board,
    whole_game_to_a_crossing_win_changes_ratings,
    bad_input_is_refused_and_changes_nothing,
    simultaneous_moves_apply_exactly_one,
    correspondence_reminder_and_forfeit,
    live_clock_runs_out_on_a_late_move,
    draws_takebacks_and_challenge_answers,
    a_game_against_the_engine,
    the_bot_api,
    pbmserv_commands,
);

/// Sign-up is rate limited per address.
#[tokio::test]
async fn sign_up_is_rate_limited() {
    let db = common::database(common::Db::Sqlite).await.unwrap();
    let limits = epaminondas_server::service::RateLimits {
        signups_per_minute: 2,
        ..Default::default()
    };
    let server = common::start_on(
        &db.url,
        Arc::new(epaminondas_server::clock::ManualClock::new()),
        limits,
    )
    .await;
    for (i, expected) in [
        StatusCode::CREATED,
        StatusCode::CREATED,
        StatusCode::TOO_MANY_REQUESTS,
    ]
    .iter()
    .enumerate()
    {
        let (status, _) = server
            .call("POST", "/api/signup", None, Some(json!({"name": format!("user{i}"), "password": "password-123", "email": "u@example.org"})))
            .await;
        assert_eq!(status, *expected);
    }
}

/// Two server processes on one PostgreSQL database: a move made through one
/// reaches a stream opened on the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_postgres_database() {
    let Some(db) = common::database(common::Db::Postgres).await else {
        return;
    };
    let clock = Arc::new(epaminondas_server::clock::ManualClock::new());
    let first = common::start_on(&db.url, clock.clone(), common::loose_limits()).await;
    let second = common::start_on(&db.url, clock, common::loose_limits()).await;
    let alice = first.user("alicem", false, &["read", "play"]).await;
    let bob = second.user("bobm", false, &["read", "play"]).await;
    let game = first.new_game(&alice, &bob, json!({})).await;
    let id = game["id"].as_i64().unwrap();
    let mut watch = Socket::connect(&format!("{}/api/games/{id}/stream", second.ws), None).await;
    assert_eq!(watch.next().await["game"]["ply"], 0);
    let mut bob_events =
        Socket::connect(&format!("{}/api/stream", second.ws), Some(&bob.token)).await;
    bob_events.next().await;
    let mv = game["legal_moves"][0].as_str().unwrap();
    assert_eq!(
        first.post_move(id, &alice, mv, None).await.0,
        StatusCode::OK
    );
    assert_eq!(
        watch.next().await["game"]["ply"],
        1,
        "the other process's stream sees the move"
    );
    assert_eq!(
        bob_events.until(|e| e["type"] == "yourTurn").await["game"]["id"],
        id
    );
    // Bob answers through the second process, which must see the new state.
    let (_, seen) = second
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    let reply = seen["legal_moves"][0].as_str().unwrap();
    assert_eq!(
        second.post_move(id, &bob, reply, Some(1)).await.0,
        StatusCode::OK
    );
    // Once the first process has seen Bob's move (its NOTIFY arrived and its
    // reads show it), a stale move through it is refused as stale. (The
    // other case, a process that has not seen the move yet, is
    // `concurrency::a_stale_cache_never_decides`.)
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (_, seen_first) = first
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        if seen_first["ply"] == 2 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the first process never saw the move"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (status, body) = first.post_move(id, &alice, mv, Some(1)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["code"], "stale_move", "{body}");
}
