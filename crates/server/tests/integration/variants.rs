//! The game's family on the server (RULES.md section 7), over real HTTP on
//! SQLite and PostgreSQL: a rated Crossings game rated on its own list, the
//! repetition draw, Stumbling Blocks' placements against the computer, an
//! Abanondas sidestep through the pbmserv door, and the refusals.

use crate::common;

use common::{TestDb, TestServer, racing_move};
use epaminondas_rules::{BoardSize, Color, GameRecord, Position, Symmetry, Variant};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn a_rated_crossings_game_is_rated_on_its_own_list(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("x").await;
    let game = server
        .new_game(&alice, &bob, json!({"variant": "crossings", "rated": true}))
        .await;
    let id = game["id"].as_i64().unwrap();
    assert_eq!(game["variant"], "crossings", "{game}");
    assert_eq!(game["variant_title"], "Crossings");
    // The common helper asks for a 6x6 board; Crossings' own symmetry
    // option (off) is the default.
    assert_eq!(game["board"], "6x6");
    assert_eq!(game["symmetry"], "off", "{game}");

    let mut pos = Position::new_variant(
        Variant::Crossings,
        BoardSize::new(6, 6).unwrap(),
        Symmetry::Off,
    )
    .unwrap();
    let mut ply = 0;
    let mut last = Value::Null;
    while !pos.is_terminal() && ply < 300 {
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
        last = state;
    }
    assert_eq!(last["status"], "finished", "{last}");
    assert_eq!(last["reason"], "crossing", "{last}");
    let winner = if last["winner"] == "white" {
        "alicex"
    } else {
        "bobx"
    };

    // The Crossings rating moved; the standard game's did not.
    let (_, profile) = server
        .call("GET", &format!("/api/users/{winner}"), None, None)
        .await;
    assert_eq!(profile["rating"], 1500.0, "{profile}");
    assert_eq!(profile["rated_games"], 0, "{profile}");
    let ratings = profile["ratings"].as_array().unwrap();
    assert_eq!(ratings[0]["variant"], "epaminondas");
    let crossings = ratings
        .iter()
        .find(|r| r["variant"] == "crossings")
        .unwrap_or_else(|| panic!("{profile}"));
    assert!(crossings["rating"].as_f64().unwrap() > 1500.0, "{profile}");
    assert_eq!(crossings["rated_games"], 1);
    assert_eq!(profile["rating_history"][0]["variant"], "crossings");

    let (_, standard) = server.call("GET", "/api/leaderboard", None, None).await;
    assert!(
        standard["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["name"] != winner),
        "{standard}"
    );
    let (status, list) = server
        .call("GET", "/api/leaderboard?variant=crossings", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["variant"], "crossings");
    assert_eq!(list["players"][0]["name"], winner, "{list}");
    let (status, bad) = server
        .call("GET", "/api/leaderboard?variant=chess", None, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(bad["error"].as_str().unwrap().contains("unknown variant"));
    // A huge name is refused without being echoed back whole.
    let huge = "x".repeat(6_000);
    let (status, bad) = server
        .call(
            "GET",
            &format!("/api/leaderboard?variant={huge}"),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(bad["error"].as_str().unwrap().len() < 300, "{bad}");

    // The record names its variant and reads back as a Crossings game.
    let record = server
        .http
        .get(format!("{}/api/games/{id}/record", server.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(record.contains("[Variant \"crossings\"]"), "{record}");
    let parsed: GameRecord = record.parse().unwrap();
    assert_eq!(parsed.start().variant(), Variant::Crossings);
    assert_eq!(parsed.moves().len(), ply);
    // The pbmserv rating list of the variant.
    let (status, reply) = server.pbm("epaminondas ratings crossings").await;
    assert_eq!(status, StatusCode::OK);
    assert!(reply.starts_with("Crossings ratings"), "{reply}");
    assert!(reply.contains(winner), "{reply}");
}

async fn crossings_is_drawn_by_the_third_repetition(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("r").await;
    let game = server
        .new_game(&alice, &bob, json!({"variant": "crossings", "rated": true}))
        .await;
    let id = game["id"].as_i64().unwrap();
    let shuffle = ["a2-a3", "a5-a4", "a3-a2", "a4-a5"];
    let mut last = Value::Null;
    for ply in 0..8 {
        let who = if ply % 2 == 0 { &alice } else { &bob };
        let (status, state) = server.post_move(id, who, shuffle[ply % 4], Some(ply)).await;
        assert_eq!(status, StatusCode::OK, "ply {ply}: {state}");
        if ply < 7 {
            assert_eq!(state["status"], "active", "ply {ply}: {state}");
        }
        last = state;
    }
    assert_eq!(last["status"], "finished", "{last}");
    assert_eq!(last["reason"], "repetition", "{last}");
    assert_eq!(last["result"], "1/2-1/2", "{last}");
    // A draw is rated too, on the Crossings list.
    let (_, profile) = server.call("GET", "/api/users/alicer", None, None).await;
    let ratings = profile["ratings"].as_array().unwrap();
    assert!(
        ratings
            .iter()
            .any(|r| r["variant"] == "crossings" && r["rated_games"] == 1),
        "{profile}"
    );
}

async fn stumbling_blocks_begins_with_placements_against_the_computer(
    server: &TestServer,
    _db: &TestDb,
) {
    let alice = server.user("alices", false, &["read", "play"]).await;
    let (status, made) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&alice.token),
            Some(
                json!({"level": 1, "variant": "stumbling-blocks", "board": "8x8",
                        "color": "white"}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let game = &made["game"];
    let id = game["id"].as_i64().unwrap();
    assert_eq!(game["variant"], "stumbling-blocks");
    assert_eq!(game["stones_to_place"], 3);
    // The legal moves are the placements on ranks 4 and 5 of 8.
    let legal = game["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 16, "{game}");
    assert!(legal.iter().all(|m| m["kind"] == "placement"), "{game}");
    assert!(legal.iter().any(|m| m["text"] == "@d4" && m["to"] == "d4"));
    // A piece cannot move yet, and a stone cannot go on rank 3.
    for refused in ["a2-a3", "@c3"] {
        let (status, body) = server.post_move(id, &alice, refused, Some(0)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}: {body}");
        assert_eq!(body["code"], "illegal_move", "{refused}: {body}");
    }
    // A player by mail is told what to do.
    let (_, reply) = server.pbm(&format!("epaminondas board {id}")).await;
    assert!(
        reply.contains("to place a stone (like @d6; 3 left"),
        "{reply}"
    );
    let (status, state) = server.post_move(id, &alice, "@d4", Some(0)).await;
    assert_eq!(status, StatusCode::OK, "{state}");

    // The computer places the second stone; the third is White's, then
    // the computer (Black) moves first.
    let after_computer = |ply: i64| async move {
        for _ in 0..200 {
            let (_, view) = server
                .call("GET", &format!("/api/games/{id}"), None, None)
                .await;
            if view["ply"].as_i64() >= Some(ply) {
                return view;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("the computer did not play ply {ply}");
    };
    let view = after_computer(2).await;
    assert_eq!(view["stones_to_place"], 1, "{view}");
    let placement = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "placement")
        .unwrap_or_else(|| panic!("{view}"))["text"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, state) = server.post_move(id, &alice, &placement, Some(2)).await;
    assert_eq!(status, StatusCode::OK, "{state}");
    let view = after_computer(4).await;
    assert_eq!(view["stones_to_place"], 0, "{view}");
    assert_eq!(view["turn"], "white", "{view}");
    let moves: Vec<&str> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(moves[..3].iter().all(|m| m.starts_with('@')), "{moves:?}");
    assert!(!moves[3].starts_with('@'), "Black's first move: {moves:?}");
    // Three stones stand on the board ('s' in the position text).
    let stones = view["position"]
        .as_str()
        .unwrap()
        .chars()
        .filter(|&c| c == 's')
        .count();
    assert_eq!(stones, 3, "{view}");
    let (_, reply) = server.pbm(&format!("epaminondas board {id}")).await;
    assert!(reply.starts_with("Stumbling Blocks board"), "{reply}");
    assert_eq!(reply.matches('#').count(), 3, "the stones: {reply}");
}

async fn abanondas_through_the_pbmserv_door(server: &TestServer, _db: &TestDb) {
    for line in [
        "signup ann3 secret-pw ann3@example.org",
        "signup ben3 secret-pw2 ben3@example.org",
    ] {
        assert_eq!(server.pbm(line).await.0, StatusCode::OK);
    }
    let (status, reply) = server
        .pbm("epaminondas challenge -variant=abanondas -size=8x8 ann3 ben3 secret-pw")
        .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert!(reply.contains("Abanondas"), "{reply}");
    let challenge: i64 = reply
        .strip_prefix("Challenge ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{reply}"));
    let (status, reply) = server
        .pbm(&format!("epaminondas accept {challenge} ben3 secret-pw2"))
        .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert!(reply.contains("Abanondas board"), "{reply}");
    let board: i64 = reply
        .split("board ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{reply}"));
    // A sidestep: the pair a2,b2 steps north onto a3,b3.
    let (status, reply) = server
        .pbm(&format!("epaminondas move {board} ann3 secret-pw a2,b2-b3"))
        .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let (_, view) = server
        .call("GET", &format!("/api/games/{board}"), None, None)
        .await;
    assert_eq!(view["variant"], "abanondas");
    assert_eq!(view["moves"][0], "a2,b2-b3", "{view}");
    let sidesteps = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "sidestep")
        .count();
    assert!(sidesteps > 0, "Black has sidesteps too: {view}");

    // Refusals that say what is wrong, and make nothing.
    for (line, says) in [
        (
            "epaminondas challenge -variant=chess ann3 ben3 secret-pw",
            "unknown variant",
        ),
        (
            "epaminondas challenge -variant=stumbling-blocks -size=4x6 ann3 ben3 secret-pw",
            "ranks",
        ),
        ("epaminondas ratings go", "unknown variant"),
    ] {
        let (status, reply) = server.pbm(line).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{line}: {reply}");
        assert!(reply.contains(says), "{line}: {reply}");
    }
    let (_, games) = server
        .call("GET", "/api/users/ann3/games", None, None)
        .await;
    assert_eq!(games["games"].as_array().unwrap().len(), 1, "{games}");
}

on_both!(
    a_rated_crossings_game_is_rated_on_its_own_list,
    crossings_is_drawn_by_the_third_repetition,
    stumbling_blocks_begins_with_placements_against_the_computer,
    abanondas_through_the_pbmserv_door,
);
