//! Correspondence play over real HTTP, on SQLite and on PostgreSQL, with
//! the test's clock moved by hand: time banks, vacations (booked, and taken
//! automatically when time runs out), conditional moves over the API and
//! the pbmserv commands, the chat's mute and report, the games waiting for
//! a player's move, the cap on running correspondence games, and the
//! spectators' chat.

use crate::common;

use common::{TestDb, TestServer};
use epaminondas_rules::{BoardSize, Position, Symmetry};
use reqwest::StatusCode;
use serde_json::{Value, json};

const DAY: i64 = 24 * 60 * 60 * 1000;

async fn game(server: &TestServer, id: i64) -> Value {
    server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await
        .1
}

/// The position of a 6x6 game after `moves`.
fn position(moves: &[Value]) -> Position {
    let mut pos = Position::new(BoardSize::new(6, 6).unwrap(), Symmetry::default());
    for text in moves {
        let mv = pos.parse_move(text.as_str().unwrap()).unwrap();
        pos.play(mv).unwrap();
    }
    pos
}

async fn time_banks_and_vacations(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("t").await;
    let bank =
        json!({"kind": "bank", "initial_ms": 2 * DAY, "increment_ms": DAY, "max_ms": 3 * DAY});
    let started = server.new_game(&alice, &bob, json!({"time": bank})).await;
    let id = started["id"].as_i64().unwrap();
    assert_eq!(started["clocks"]["white_ms"], 2 * DAY);
    // A bank outside what the server offers is refused.
    let (status, refused) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&alice.token),
            Some(json!({"opponent": bob.name, "time": {"kind": "bank", "initial_ms": 1000, "increment_ms": 0, "max_ms": 1000}})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("time bank"));

    server.clock.advance(DAY);
    let first = started["legal_moves"][0].as_str().unwrap();
    let (status, _) = server.post_move(id, &alice, first, None).await;
    assert_eq!(status, StatusCode::OK);
    let after = game(server, id).await;
    assert_eq!(
        after["clocks"]["white_ms"],
        2 * DAY,
        "2 days - 1 used + 1 added"
    );
    assert_eq!(after["clock_running"], true);

    // Bob goes on vacation for two days: his clock stops, and everyone sees it.
    let (status, taken) = server
        .call(
            "POST",
            "/api/account/vacation",
            Some(&bob.token),
            Some(json!({"days": 2})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{taken}");
    let away = game(server, id).await;
    assert_eq!(away["clock_running"], false);
    assert_eq!(away["vacations"][0]["color"], "black");
    assert_eq!(
        away["deadline_at"].as_i64().unwrap(),
        taken["ends_at"].as_i64().unwrap() + 2 * DAY
    );
    let (_, board) = server.pbm(&format!("epaminondas board {id}")).await;
    assert!(board.contains("is on vacation until"), "{board}");
    assert!(board.contains("Time banks: o 2 days, x 2 days."), "{board}");

    // Three days on: the vacation is over and one day of Bob's bank used.
    server.clock.advance(3 * DAY);
    server.service.sweep().await.unwrap();
    let later = game(server, id).await;
    assert_eq!(later["status"], "active");
    assert_eq!(later["clocks"]["black_ms"], DAY);

    // Bob's time runs out: a vacation day is taken for him, and announced.
    server.clock.advance(DAY + 1);
    server.service.sweep().await.unwrap();
    let saved = game(server, id).await;
    assert_eq!(saved["status"], "active", "{saved}");
    let automatic = saved["vacations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["automatic"] == true)
        .expect("an automatic vacation");
    assert_eq!(automatic["color"], "black");
    let (_, info) = server
        .call("GET", "/api/account/vacation", Some(&bob.token), None)
        .await;
    assert_eq!(info["used_days"], 3, "{info}");
    assert_eq!(info["left_days"], 27);

    // Bob would rather lose on time than use more days.
    server.no_auto_vacation(&bob).await;
    server.clock.advance(DAY);
    server.service.sweep().await.unwrap();
    let over = game(server, id).await;
    assert_eq!(over["status"], "finished");
    assert_eq!(over["reason"], "time");
    assert_eq!(over["winner"], "white");

    // The allowance holds: 27 days are left this year, no more.
    let ask = |days: i64, starts_at: Option<i64>| {
        server.call(
            "POST",
            "/api/account/vacation",
            Some(&bob.token),
            Some(json!({"days": days, "starts_at": starts_at})),
        )
    };
    let now = server.service.now();
    // (Late in December the rest of the year may hold fewer days.)
    let (status, body) = ask(28, None).await;
    assert!(
        status == StatusCode::FORBIDDEN || status == StatusCode::BAD_REQUEST,
        "{body}"
    );
    let (status, body) = ask(2, Some(now - DAY)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().contains("past"));
    let (status, body) = ask(0, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, future) = ask(3, Some(now + 10 * DAY)).await;
    assert_eq!(status, StatusCode::CREATED, "{future}");
    let (status, body) = ask(3, Some(now + 11 * DAY)).await;
    assert_eq!(status, StatusCode::CONFLICT, "overlapping: {body}");
    // Cancelled before it begins, it costs nothing.
    let (status, info) = server
        .call(
            "DELETE",
            &format!("/api/account/vacation/{}", future["id"]),
            Some(&bob.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{info}");
    assert!(info["vacations"].as_array().unwrap().is_empty(), "{info}");
    let (status, _) = server
        .call(
            "DELETE",
            &format!("/api/account/vacation/{}", future["id"]),
            Some(&alice.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "not Alice's vacation");
    // The same over pbmserv's commands.
    let (status, reply) = server
        .pbm(&format!("epaminondas vacation {} password-123", bob.name))
        .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert!(reply.contains("automatic vacation off"), "{reply}");
    let (_, reply) = server
        .pbm(&format!(
            "epaminondas vacation {} password-123 99",
            alice.name
        ))
        .await;
    assert!(
        reply.starts_with("Error: a vacation is 1 to 60 days"),
        "{reply}"
    );
    let (_, reply) = server
        .pbm(&format!(
            "epaminondas challenge -size=6x6 -bank=10d+36h/10d {} {} password-123",
            alice.name, bob.name
        ))
        .await;
    assert!(
        reply.contains("time bank of 10 days + 1 day 12 hours a move, at most 10 days"),
        "{reply}"
    );
}

async fn conditional_moves(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("q").await;
    let carol = server.user("carolq", false, &["read", "play"]).await;
    let started = server
        .new_game(
            &alice,
            &bob,
            json!({"time": {"kind": "correspondence", "days_per_move": 3}}),
        )
        .await;
    let id = started["id"].as_i64().unwrap();
    let path = format!("/api/games/{id}/conditional");
    // Not while it is your own move.
    let (status, body) = server
        .call(
            "PUT",
            &path,
            Some(&alice.token),
            Some(json!({"lines": ["a5-a4 a2-a3"]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "bad_conditional_moves");
    let first = started["legal_moves"][0].as_str().unwrap();
    server.post_move(id, &alice, first, None).await;

    let moves = game(server, id).await["moves"].as_array().unwrap().clone();
    let pos = position(&moves);
    let theirs = pos.legal_moves()[0];
    let other = pos.legal_moves()[1];
    let mut after = pos.clone();
    after.play(theirs).unwrap();
    let mine = after.legal_moves()[0];
    let mut later = after.clone();
    later.play(mine).unwrap();
    let theirs2 = later.legal_moves()[0];
    let mut later2 = later.clone();
    later2.play(theirs2).unwrap();
    let mine2 = later2.legal_moves()[0];
    let mut after_other = pos.clone();
    after_other.play(other).unwrap();
    let reply_other = after_other.legal_moves()[0];

    let lines = json!({"lines": [
        format!("{theirs} {mine} {theirs2} {mine2}"),
        format!("{other} {reply_other}"),
    ]});
    let (status, set) = server
        .call("PUT", &path, Some(&alice.token), Some(lines))
        .await;
    assert_eq!(status, StatusCode::OK, "{set}");
    assert_eq!(set["lines"].as_array().unwrap().len(), 2);
    // Private: not in the game, not to the opponent or a stranger.
    let shown = game(server, id).await.to_string();
    assert!(!shown.contains(&reply_other.to_string()) || shown.contains("legal"));
    let (_, bobs) = server.call("GET", &path, Some(&bob.token), None).await;
    assert_eq!(bobs["lines"], json!([]));
    let (status, _) = server.call("GET", &path, Some(&carol.token), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A bad line is refused with its number and the rules' reason.
    let (status, bad) = server
        .call(
            "PUT",
            &path,
            Some(&alice.token),
            Some(json!({"lines": [format!("{theirs} zz")]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        bad["error"].as_str().unwrap().starts_with("line 1, move 2"),
        "{bad}"
    );

    // Bob plays the foreseen move: Alice's reply comes at once.
    let (status, played) = server
        .post_move(id, &bob, &theirs.to_string(), Some(1))
        .await;
    assert_eq!(status, StatusCode::OK, "{played}");
    let now = game(server, id).await;
    assert_eq!(now["ply"], 3);
    assert_eq!(now["moves"][2], mine.to_string());
    assert_eq!(now["turn"], "black");
    let (_, left) = server.call("GET", &path, Some(&alice.token), None).await;
    assert_eq!(left["lines"], json!([format!("{theirs2} {mine2}")]));

    // Over pbmserv: Alice replaces the tree; Bob's unforeseen move drops it.
    let pos = position(now["moves"].as_array().unwrap());
    let (a, b) = (pos.legal_moves()[0], pos.legal_moves()[1]);
    let mut next = pos.clone();
    next.play(a).unwrap();
    let reply = next.legal_moves()[0];
    let (_, shown) = server
        .pbm(&format!(
            "epaminondas queue {id} {} password-123 {a} {reply}",
            alice.name
        ))
        .await;
    assert!(shown.contains(&format!("1. {a} {reply}")), "{shown}");
    let (status, _) = server.post_move(id, &bob, &b.to_string(), Some(3)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game(server, id).await["ply"], 4);
    let (_, shown) = server
        .pbm(&format!(
            "epaminondas queue {id} {} password-123",
            alice.name
        ))
        .await;
    assert!(shown.contains("none"), "{shown}");
}

async fn chat_waiting_games_and_the_cap(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("m").await;
    let carol = server.user("carolm", false, &["read", "play"]).await;
    let slow = server
        .new_game(
            &alice,
            &bob,
            json!({"time": {"kind": "correspondence", "days_per_move": 5}}),
        )
        .await;
    let fast = server
        .new_game(
            &alice,
            &bob,
            json!({"time": {"kind": "correspondence", "days_per_move": 1}}),
        )
        .await;
    let id = slow["id"].as_i64().unwrap();
    // The games waiting for Alice's move: the least time left first.
    let (_, waiting) = server
        .call("GET", "/api/account/waiting", Some(&alice.token), None)
        .await;
    let order: Vec<i64> = waiting["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(order, vec![fast["id"].as_i64().unwrap(), id], "{waiting}");
    assert!(waiting["games"][0]["left_ms"].as_i64().unwrap() <= DAY);
    let (_, none) = server
        .call("GET", "/api/account/waiting", Some(&bob.token), None)
        .await;
    assert_eq!(none["games"], json!([]));

    // Chat: Bob writes; Alice mutes him and reports the message.
    let chat = format!("/api/games/{id}/chat");
    let (status, posted) = server
        .call(
            "POST",
            &chat,
            Some(&bob.token),
            Some(json!({"body": "hurry up"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let message = posted["id"].as_i64().unwrap();
    let (_, seen) = server.call("GET", &chat, Some(&alice.token), None).await;
    assert_eq!(seen["messages"][0]["body"], "hurry up");
    let (status, _) = server
        .call(
            "POST",
            &format!("{chat}/mute"),
            Some(&alice.token),
            Some(json!({"muted": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, seen) = server.call("GET", &chat, Some(&alice.token), None).await;
    assert_eq!(seen["messages"], json!([]));
    assert_eq!(seen["muted"], true);
    let (_, theirs) = server.call("GET", &chat, Some(&bob.token), None).await;
    assert_eq!(
        theirs["messages"][0]["body"], "hurry up",
        "Bob still sees his own"
    );
    let report = format!("/api/chat/{message}/report");
    let (status, body) = server
        .call(
            "POST",
            &report,
            Some(&alice.token),
            Some(json!({"reason": "rude"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, _) = server
        .call(
            "POST",
            &report,
            Some(&alice.token),
            Some(json!({"reason": "rude"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "reported once");
    let (status, _) = server
        .call("POST", &report, Some(&bob.token), Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "not one's own message");
    let (status, _) = server
        .call("POST", &report, Some(&carol.token), Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "not a stranger");
    let (status, _) = server
        .call(
            "POST",
            "/api/chat/999999/report",
            Some(&alice.token),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let reports = epaminondas_server::store::chat_reports(&server.service.db, 10)
        .await
        .unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].body, "hurry up");
    assert_eq!(reports[0].reason, "rude");

    // Bob runs two correspondence games and caps himself at two.
    let (status, options) = server
        .call(
            "POST",
            "/api/account/correspondence",
            Some(&bob.token),
            Some(json!({"max_correspondence": 2})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{options}");
    let (status, refused) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&carol.token),
            Some(json!({"opponent": bob.name})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains(&bob.name),
        "{refused}"
    );
    // A live game is not capped.
    let (status, _) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&carol.token),
            Some(json!({"opponent": bob.name, "time": {"kind": "live", "initial_ms": 300000, "increment_ms": 0}})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = server
        .call(
            "POST",
            "/api/account/correspondence",
            Some(&bob.token),
            Some(json!({"max_correspondence": -1})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// Who may call the correspondence endpoints, how often, and with how much.
async fn the_correspondence_endpoints_refuse_strangers_floods_and_huge_input(
    server: &TestServer,
    _db: &TestDb,
) {
    let (alice, bob) = server.two_players("x").await;
    let started = server
        .new_game(
            &alice,
            &bob,
            json!({"time": {"kind": "correspondence", "days_per_move": 3}}),
        )
        .await;
    let id = started["id"].as_i64().unwrap();
    // Without credentials: refused, whatever the endpoint.
    let conditional = format!("/api/games/{id}/conditional");
    let mute = format!("/api/games/{id}/chat/mute");
    for (method, path, body) in [
        ("GET", "/api/account/vacation", None),
        ("POST", "/api/account/vacation", Some(json!({"days": 1}))),
        ("DELETE", "/api/account/vacation/1", None),
        (
            "POST",
            "/api/account/correspondence",
            Some(json!({"auto_vacation": false})),
        ),
        ("GET", "/api/account/waiting", None),
        ("GET", conditional.as_str(), None),
        ("PUT", conditional.as_str(), Some(json!({"lines": []}))),
        ("POST", mute.as_str(), Some(json!({"muted": true}))),
        ("POST", "/api/chat/1/report", Some(json!({}))),
    ] {
        let (status, _) = server.call(method, path, None, body).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path}");
    }
    // A token that may only read cannot change anything.
    let reader = server.user("readerx", false, &["read"]).await;
    let (status, _) = server
        .call(
            "POST",
            "/api/account/vacation",
            Some(&reader.token),
            Some(json!({"days": 1})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Not a player of the game.
    let (status, _) = server
        .call(
            "POST",
            &mute,
            Some(&reader.token),
            Some(json!({"muted": true})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Huge input is refused before any work.
    server
        .post_move(
            id,
            &alice,
            started["legal_moves"][0].as_str().unwrap(),
            None,
        )
        .await;
    // Ten lines of 12,000 bytes are refused by their announced size.
    let huge = json!({"lines": vec!["a1-a2 ".repeat(2_000); 10]});
    let (status, body) = server
        .announce(
            "PUT",
            &conditional,
            Some(&alice.token),
            huge.to_string().len(),
        )
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert_eq!(body["code"], "too_large", "{body}");
    // Three such lines fit the body limit but not the lines' own limits.
    let (status, body) = server
        .call(
            "PUT",
            &conditional,
            Some(&alice.token),
            Some(json!({"lines": vec!["a1-a2 ".repeat(2_000); 3]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) = server
        .call(
            "POST",
            "/api/chat/1/report",
            Some(&alice.token),
            Some(json!({"reason": "x".repeat(501)})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Floods: conditional moves rewrite the game, so they are limited.
    let mut last = StatusCode::OK;
    for _ in 0..40 {
        last = server
            .call(
                "PUT",
                &conditional,
                Some(&alice.token),
                Some(json!({"lines": []})),
            )
            .await
            .0;
        if last != StatusCode::OK {
            break;
        }
    }
    assert_eq!(last, StatusCode::TOO_MANY_REQUESTS);
    // Reports: ten in any hour. The hour slides with the clock, so the
    // minute it moves on below ends no count, whenever the test runs (with
    // hours fixed to the clock's, it failed when begun at 12:59).
    let chat = format!("/api/games/{id}/chat");
    let mut statuses = Vec::new();
    for i in 0..11 {
        if i == 10 {
            // (Bob's chat allows ten a minute; the reports' hour goes on.)
            server.clock.advance(61_000);
        }
        let (_, posted) = server
            .call(
                "POST",
                &chat,
                Some(&bob.token),
                Some(json!({"body": format!("spam {i}")})),
            )
            .await;
        let message = posted["id"].as_i64().unwrap();
        let (status, _) = server
            .call(
                "POST",
                &format!("/api/chat/{message}/report"),
                Some(&alice.token),
                Some(json!({})),
            )
            .await;
        statuses.push(status);
    }
    assert!(
        statuses[..10].iter().all(|s| *s == StatusCode::CREATED),
        "{statuses:?}"
    );
    assert_eq!(statuses[10], StatusCode::TOO_MANY_REQUESTS);
}

async fn the_spectators_chat(server: &TestServer, _db: &TestDb) {
    let (alice, bob) = server.two_players("s").await;
    let carol = server.user("carols", false, &["read", "play"]).await;
    let dave = server.user("daves", false, &["read", "play"]).await;
    let reader = server.user("readers", false, &["read"]).await;
    let made = server
        .new_game(
            &alice,
            &bob,
            json!({"time": {"kind": "correspondence", "days_per_move": 3}}),
        )
        .await;
    let id = made["id"].as_i64().unwrap();
    let room = format!("/api/games/{id}/chat/spectators");
    let switch = format!("{room}/open");
    let say = |text: &str| Some(json!({"body": text}));

    // Closed by default: anyone may look, no one may write.
    let (status, closed) = server.call("GET", &room, None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(closed["open"], false);
    assert_eq!(closed["may_post"], false);
    assert_eq!(closed["may_switch"], false);
    let (status, body) = server
        .call("POST", &room, Some(&carol.token), say("hello"))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body.to_string().contains("closed"), "{body}");

    // Only a player opens it; a read-only token cannot.
    let (status, _) = server
        .call(
            "POST",
            &switch,
            Some(&carol.token),
            Some(json!({"open": true})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server
        .call(
            "POST",
            &switch,
            Some(&reader.token),
            Some(json!({"open": true})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server
        .call("POST", &switch, None, Some(json!({"open": true})))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (_, seen) = server.call("GET", &room, Some(&alice.token), None).await;
    assert_eq!(seen["may_switch"], true);
    let (status, _) = server
        .call(
            "POST",
            &switch,
            Some(&alice.token),
            Some(json!({"open": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);

    // Watchers write; the players' own chat stays private.
    let (_, seen) = server.call("GET", &room, Some(&carol.token), None).await;
    assert_eq!(
        (seen["open"].clone(), seen["may_post"].clone()),
        (json!(true), json!(true))
    );
    let (status, posted) = server
        .call("POST", &room, Some(&carol.token), say("  nice   opening "))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    let carols = posted["id"].as_i64().unwrap();
    let (status, _) = server
        .call("POST", &room, Some(&dave.token), say("agreed"))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, seen) = server.call("GET", &room, None, None).await;
    let bodies: Vec<&str> = seen["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["body"].as_str().unwrap())
        .collect();
    assert_eq!(bodies, ["nice opening", "agreed"], "{seen}");
    assert_eq!(seen["may_post"], false, "anonymous visitors read only");
    let (_, private) = server
        .call(
            "GET",
            &format!("/api/games/{id}/chat"),
            Some(&alice.token),
            None,
        )
        .await;
    assert_eq!(private["messages"], json!([]), "the rooms are apart");

    // The players do not see it, nor write in it, while the game runs.
    let (_, hidden) = server.call("GET", &room, Some(&bob.token), None).await;
    assert_eq!(hidden["hidden"], true);
    assert_eq!(hidden["messages"], json!([]));
    let (status, _) = server
        .call("POST", &room, Some(&bob.token), say("thanks"))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server
        .call(
            "POST",
            &format!("/api/chat/{carols}/report"),
            Some(&bob.token),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "unseen, so not reportable");

    // Checked like the players' chat: empty, too long.
    let (status, _) = server
        .call("POST", &room, Some(&dave.token), say("   "))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server
        .call("POST", &room, Some(&dave.token), say(&"x".repeat(501)))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // A watcher reports another; the room's flood limit holds for all.
    let (status, _) = server
        .call(
            "POST",
            &format!("/api/chat/{carols}/report"),
            Some(&dave.token),
            Some(json!({"reason": "spoiler"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let mut writers = Vec::new();
    for n in 0..3 {
        writers.push(server.user(&format!("fan{n}s"), false, &["play"]).await);
    }
    let mut statuses = Vec::new();
    for writer in &writers {
        for n in 0..10 {
            let (status, _) = server
                .call("POST", &room, Some(&writer.token), say(&format!("go {n}")))
                .await;
            statuses.push(status);
        }
    }
    // Carol and Dave wrote 2: 28 more are taken this minute, then none.
    let taken = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    assert_eq!(taken, 28, "{statuses:?}");
    assert_eq!(statuses[29], StatusCode::TOO_MANY_REQUESTS);

    // Once the game is over, its players see the room; closing hides it.
    let (status, _) = server
        .call(
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(&bob.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, after) = server.call("GET", &room, Some(&bob.token), None).await;
    assert_eq!(after["hidden"], false);
    assert_eq!(after["messages"][0]["body"], "nice opening");
    let (status, _) = server
        .call(
            "POST",
            &switch,
            Some(&bob.token),
            Some(json!({"open": false})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, shut) = server.call("GET", &room, None, None).await;
    assert_eq!(
        (shut["open"].clone(), shut["messages"].clone()),
        (json!(false), json!([]))
    );
    let (status, _) = server
        .call("GET", "/api/games/999999/chat/spectators", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server
        .call("GET", "/api/games/x/chat/spectators", None, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // A guest may read but not write.
    let response = server
        .http
        .post(format!("{}/api/guest", server.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let cookie = common::session_cookie(&response);
    let guest: Value = response.json().await.unwrap();
    let (status, _) = server
        .call(
            "POST",
            &switch,
            Some(&alice.token),
            Some(json!({"open": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let response = server
        .http
        .post(format!("{}{room}", server.base))
        .header("cookie", cookie)
        .header("x-csrf-token", guest["csrf"].as_str().unwrap())
        .json(&json!({"body": "hi"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
}

on_both!(
    time_banks_and_vacations,
    conditional_moves,
    chat_waiting_games_and_the_cap,
    the_spectators_chat,
    the_correspondence_endpoints_refuse_strangers_floods_and_huge_input,
);
