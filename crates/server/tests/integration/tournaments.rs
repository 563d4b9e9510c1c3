//! Tournaments and leagues over real HTTP, on SQLite and on PostgreSQL,
//! with the test's clock moved by hand: a Swiss paired round by round with
//! a bye, a round robin started by its start time with a withdrawal and
//! forfeits, a correspondence round robin begun all at once, a league's
//! promotion and relegation, and the endpoints' refusals.

use crate::common;

use std::collections::{HashMap, HashSet};

use common::{TestDb, TestServer, User};
use reqwest::StatusCode;
use serde_json::{Value, json};

const DAY: i64 = 24 * 60 * 60 * 1000;

async fn tournament(server: &TestServer, id: i64) -> Value {
    let (status, body) = server
        .call("GET", &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

async fn act(server: &TestServer, who: &User, id: i64, action: &str) -> (StatusCode, Value) {
    server
        .call(
            "POST",
            &format!("/api/tournaments/{id}/{action}"),
            Some(&who.token),
            None,
        )
        .await
}

async fn players(server: &TestServer, tag: &str, count: usize) -> Vec<User> {
    let mut users = Vec::new();
    for i in 0..count {
        users.push(
            server
                .user(&format!("{tag}{i}"), false, &["read", "play"])
                .await,
        );
    }
    users
}

/// Ends every running game of tournament `id`: the player `loses` picks
/// resigns. Returns how many games ended.
async fn play_round(
    server: &TestServer,
    id: i64,
    users: &HashMap<String, User>,
    loses: impl Fn(&str, &str) -> bool,
) -> usize {
    let t = tournament(server, id).await;
    let mut ended = 0;
    for p in t["pairings"].as_array().unwrap() {
        let (Some(game), "") = (p["game"].as_i64(), p["result"].as_str().unwrap()) else {
            continue;
        };
        let white = p["white"].as_str().unwrap();
        let black = p["black"].as_str().unwrap();
        let loser = if loses(white, black) { white } else { black };
        let (status, body) = server
            .call(
                "POST",
                &format!("/api/games/{game}/resign"),
                Some(&users[loser].token),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        ended += 1;
    }
    ended
}

fn by_name(users: &[User]) -> HashMap<String, User> {
    users.iter().map(|u| (u.name.clone(), u.clone())).collect()
}

async fn a_swiss_is_paired_round_by_round(server: &TestServer, _db: &TestDb) {
    let users = players(server, "sw", 5).await;
    let named = by_name(&users);
    let (status, made) = server
        .call(
            "POST",
            "/api/tournaments",
            Some(&users[0].token),
            Some(json!({
                "name": "Autumn Swiss",
                "format": {"kind": "swiss", "rounds": 3},
                "board": "6x6",
                "time": {"kind": "correspondence", "days_per_move": 2},
                "max_players": 5,
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_i64().unwrap();
    assert_eq!(made["status"], "signup");
    for (i, user) in users.iter().enumerate().take(4) {
        let (status, body) = act(server, user, id, "join").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["status"], "signup", "player {i}");
    }
    // The fifth enters by pbmserv command, which fills it: it starts.
    let (_, reply) = server
        .pbm(&format!("epaminondas enter {id} sw4 password-123"))
        .await;
    assert!(
        reply.starts_with(&format!("You are in tournament {id}.")),
        "{reply}"
    );
    assert!(
        reply.contains("Round 1:") && reply.contains(": bye"),
        "{reply}"
    );
    assert_eq!(tournament(server, id).await["status"], "running");
    let (status, body) = act(server, &users[0], id, "join").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    let mut met = HashSet::new();
    let mut byes = Vec::new();
    for round in 1..=3 {
        let t = tournament(server, id).await;
        assert_eq!(t["round"], round);
        assert_eq!(t["rounds"], 3);
        let this: Vec<&Value> = t["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["round"] == round)
            .collect();
        assert_eq!(this.len(), 3, "two games and a bye: {this:?}");
        for p in &this {
            match p["black"].as_str() {
                None => {
                    assert_eq!(p["result"], "bye");
                    byes.push(p["white"].as_str().unwrap().to_string());
                }
                Some(black) => {
                    let white = p["white"].as_str().unwrap();
                    let pair = if white < black {
                        (white.to_string(), black.to_string())
                    } else {
                        (black.to_string(), white.to_string())
                    };
                    assert!(met.insert(pair), "a repeat pairing in round {round}");
                    let game = p["game"].as_i64().expect("a game");
                    let (_, view) = server
                        .call("GET", &format!("/api/games/{game}"), None, None)
                        .await;
                    assert_eq!(view["tournament"]["id"], id, "{view}");
                    assert_eq!(view["tournament"]["round"], round);
                    assert_eq!(view["board"], "6x6");
                }
            }
        }
        // The lower name always wins.
        let ended = play_round(server, id, &named, |w, b| w > b).await;
        assert_eq!(ended, 2);
    }
    let unique: HashSet<&String> = byes.iter().collect();
    assert_eq!(unique.len(), 3, "nobody sits out twice: {byes:?}");

    let t = tournament(server, id).await;
    assert_eq!(t["status"], "finished", "{t}");
    let standings = t["standings"].as_array().unwrap();
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 9.0, "six games and three byes");
    // Buchholz is the sum of the opponents' points over the board.
    let points: HashMap<&str, f64> = standings
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["points"].as_f64().unwrap()))
        .collect();
    for s in standings {
        let expected: f64 = s["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["score"] != "bye")
            .map(|r| points[r["opponent"].as_str().unwrap()])
            .sum();
        assert_eq!(s["buchholz"].as_f64().unwrap(), expected, "{s}");
        assert_eq!(s["results"].as_array().unwrap().len(), 3);
    }
    let order: Vec<f64> = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] >= w[1]), "{order:?}");
    // sw0 wins every game it plays.
    assert_eq!(standings[0]["name"], "sw0");

    // Every game's record, in one file.
    let response = reqwest::get(format!("{}/api/tournaments/{id}/records", server.base))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = response.text().await.unwrap();
    assert_eq!(
        text.matches("[Event \"Autumn Swiss\"]").count(),
        6,
        "{text}"
    );
    assert_eq!(text.matches("[Round \"3\"]").count(), 2);
    assert!(text.contains("[Result \"1-0\"]") || text.contains("[Result \"0-1\"]"));
    let (_, text) = server.pbm(&format!("epaminondas tournament {id}")).await;
    assert!(
        text.contains("Autumn Swiss") && text.contains("finished"),
        "{text}"
    );
    assert!(text.contains("  1  sw0"), "{text}");
    let (_, text) = server.pbm("epaminondas tournaments").await;
    assert!(text.contains("Swiss, 3 rounds"), "{text}");
    let (_, list) = server.call("GET", "/api/tournaments", None, None).await;
    assert!(
        list["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id && t["status"] == "finished")
    );
}

async fn a_round_robin_with_a_withdrawal(server: &TestServer, _db: &TestDb) {
    let users = players(server, "rr", 4).await;
    let named = by_name(&users);
    let now = server.service.now();
    let (status, made) = server
        .call(
            "POST",
            "/api/tournaments",
            Some(&users[0].token),
            Some(json!({
                "name": "Live double",
                "format": {"kind": "round-robin", "cycles": 2},
                "board": "6x6",
                "time": {"kind": "live", "initial_ms": 600_000, "increment_ms": 5000},
                "starts_at": now + 60 * 60 * 1000,
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_i64().unwrap();
    for user in &users {
        let (status, body) = act(server, user, id, "join").await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // Leaving before the start takes the player off the list.
    let (status, body) = act(server, &users[3], id, "withdraw").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["players"], 3);
    let (status, body) = act(server, &users[3], id, "join").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Only the organizer may start it early.
    let (status, _) = act(server, &users[1], id, "start").await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    server.clock.advance(60 * 60 * 1000);
    server.service.sweep().await.unwrap();
    let t = tournament(server, id).await;
    assert_eq!(t["status"], "running", "{t}");
    assert_eq!(t["rounds"], 6, "three rounds, twice");
    assert_eq!(
        t["all_at_once"], false,
        "a live round robin goes round by round"
    );
    let pairings = t["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 12, "every pair twice");
    let started = pairings.iter().filter(|p| p["game"].is_i64()).count();
    assert_eq!(started, 2, "round 1 only");
    // The second cycle swaps the first's colours.
    for p in pairings
        .iter()
        .filter(|p| p["round"].as_i64().unwrap() <= 3)
    {
        let round = p["round"].as_i64().unwrap();
        assert!(
            pairings.iter().any(|q| q["round"] == round + 3
                && q["white"] == p["black"]
                && q["black"] == p["white"]),
            "{p}"
        );
    }
    // The organizer may open the spectators' chat of a game they do not
    // play; another entrant may not.
    let organizer = users[0].name.as_str();
    let other = pairings
        .iter()
        .find(|p| p["game"].is_i64() && p["white"] != organizer && p["black"] != organizer)
        .expect("a game without the organizer");
    let open = format!("/api/games/{}/chat/spectators/open", other["game"]);
    let (status, _) = server
        .call(
            "POST",
            &open,
            Some(&users[0].token),
            Some(json!({"open": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let stranger = users
        .iter()
        .find(|u| {
            other["white"] != u.name.as_str()
                && other["black"] != u.name.as_str()
                && u.name != organizer
        })
        .unwrap();
    let (status, _) = server
        .call(
            "POST",
            &open,
            Some(&stranger.token),
            Some(json!({"open": false})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // Round 1 ends; then rr3 withdraws in the middle of round 2: the
    // running game is resigned and the later ones are lost by forfeit.
    play_round(server, id, &named, |w, b| w > b).await;
    let t = tournament(server, id).await;
    assert_eq!(t["round"], 2, "{t}");
    let (status, body) = act(server, &users[3], id, "withdraw").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let quitter = body["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "rr3")
        .unwrap()
        .clone();
    assert_eq!(quitter["withdrawn"], true);
    let marks: Vec<&str> = quitter["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_str().unwrap())
        .collect();
    assert_eq!(marks.len(), 6);
    assert_eq!(marks[1], "0", "the running game was resigned: {marks:?}");
    assert_eq!(marks.iter().filter(|m| **m == "-").count(), 4, "{marks:?}");
    let (status, _) = act(server, &users[3], id, "withdraw").await;
    assert_eq!(status, StatusCode::CONFLICT);

    // The others play on round by round to the end.
    for _ in 2..=6 {
        play_round(server, id, &named, |w, b| w > b).await;
    }
    let t = tournament(server, id).await;
    assert_eq!(t["status"], "finished", "{t}");
    let standings = t["standings"].as_array().unwrap();
    let names: Vec<&str> = standings
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["rr0", "rr1", "rr2", "rr3"]);
    assert_eq!(standings[0]["points"], 6.0);
    assert_eq!(standings[3]["points"], 0.0);
    // rr2 beat rr3 over the board once and by forfeit once: only the first
    // counts for Sonneborn-Berger (rr3 has no points anyway) and Buchholz.
    let rr2 = &standings[2];
    assert_eq!(rr2["points"], 2.0);
    let over_the_board: f64 = rr2["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| ["1", "0", "½"].contains(&r["score"].as_str().unwrap()))
        .map(|r| {
            standings[r["opponent_rank"].as_u64().unwrap() as usize - 1]["points"]
                .as_f64()
                .unwrap()
        })
        .sum();
    assert_eq!(rr2["buchholz"].as_f64().unwrap(), over_the_board);

    // A correspondence round robin begins every game at once.
    let (_, made) = server
        .call(
            "POST",
            "/api/tournaments",
            Some(&users[1].token),
            Some(json!({
                "name": "Correspondence trio",
                "format": {"kind": "round-robin", "cycles": 1},
                "board": "6x6",
                "time": {"kind": "bank", "initial_ms": 2 * DAY, "increment_ms": DAY, "max_ms": 3 * DAY},
            })),
        )
        .await;
    let id = made["id"].as_i64().unwrap();
    for user in &users[..3] {
        act(server, user, id, "join").await;
    }
    let (status, t) = act(server, &users[1], id, "start").await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(t["all_at_once"], true);
    let games = t["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["game"].is_i64())
        .count();
    assert_eq!(games, 3, "all three games at once");
    // Time runs out in one of them: the loss counts like any other.
    server.no_auto_vacation(&users[0]).await;
    server.no_auto_vacation(&users[1]).await;
    server.no_auto_vacation(&users[2]).await;
    server.clock.advance(3 * DAY);
    server.service.sweep().await.unwrap();
    let t = tournament(server, id).await;
    assert_eq!(t["status"], "finished", "every white lost on time: {t}");
}

async fn a_league_promotes_and_relegates(server: &TestServer, _db: &TestDb) {
    let users = players(server, "lg", 8).await;
    let named = by_name(&users);
    let (status, league) = server
        .call(
            "POST",
            "/api/leagues",
            Some(&users[0].token),
            Some(json!({
                "name": "Little League",
                "group_size": 4,
                "movers": 1,
                "board": "6x6",
                "time": {"kind": "correspondence", "days_per_move": 5},
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{league}");
    let id = league["id"].as_i64().unwrap();
    let (_, reply) = server
        .pbm(&format!("epaminondas league {id} join lg7 password-123"))
        .await;
    assert!(reply.contains("Members (1): lg7"), "{reply}");
    for user in &users[..7] {
        let (status, body) = server
            .call(
                "POST",
                &format!("/api/leagues/{id}/join"),
                Some(&user.token),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, view) = server
        .call(
            "POST",
            &format!("/api/leagues/{id}/start"),
            Some(&users[0].token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["season"], 1);
    let divisions = view["divisions"].as_array().unwrap().clone();
    assert_eq!(divisions.len(), 2, "{view}");
    let division_players = |t: &Value| -> Vec<String> {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    };
    let first = tournament(server, divisions[0]["id"].as_i64().unwrap()).await;
    let second = tournament(server, divisions[1]["id"].as_i64().unwrap()).await;
    assert_eq!(first["league"]["division"], 1);
    assert_eq!(first["name"], "Little League, season 1, division 1");
    // A division is not joined directly.
    let (status, _) = act(server, &users[0], first["id"].as_i64().unwrap(), "join").await;
    assert_eq!(status, StatusCode::CONFLICT);
    // The higher name wins everywhere: the top of each division is its
    // highest name.
    for t in [&first, &second] {
        let ended = play_round(server, t["id"].as_i64().unwrap(), &named, |w, b| w < b).await;
        assert_eq!(
            ended, 6,
            "a correspondence round robin of four: all at once"
        );
    }
    let first = tournament(server, first["id"].as_i64().unwrap()).await;
    let second = tournament(server, second["id"].as_i64().unwrap()).await;
    assert_eq!(first["status"], "finished");
    let top = division_players(&first);
    let bottom = division_players(&second);
    let (_, view) = server
        .call("GET", &format!("/api/leagues/{id}"), None, None)
        .await;
    assert_eq!(view["season"], 2, "the next season began by itself: {view}");
    let next: Vec<Value> = view["divisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["league"]["season"] == 2)
        .cloned()
        .collect();
    assert_eq!(next.len(), 2);
    let new_top = division_players(&tournament(server, next[0]["id"].as_i64().unwrap()).await);
    let new_bottom = division_players(&tournament(server, next[1]["id"].as_i64().unwrap()).await);
    assert!(new_top.contains(&bottom[0]), "the winner below goes up");
    assert!(new_bottom.contains(&top[3]), "the last above goes down");
    assert!(new_top.contains(&top[0]) && new_bottom.contains(&bottom[3]));
}

async fn the_tournament_endpoints_refuse_what_they_must(server: &TestServer, _db: &TestDb) {
    let users = players(server, "no", 2).await;
    let form = |name: &str| {
        json!({"name": name, "format": {"kind": "swiss", "rounds": 3},
               "time": {"kind": "correspondence", "days_per_move": 2}})
    };
    let (status, _) = server
        .call("POST", "/api/tournaments", None, Some(form("Anonymous")))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let reader = server.user("noreader", false, &["read"]).await;
    let (status, _) = server
        .call(
            "POST",
            "/api/tournaments",
            Some(&reader.token),
            Some(form("Reader")),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for (body, wanted) in [
        (form("x"), "3 to 60 characters"),
        (
            json!({"name": "Endless", "format": {"kind": "swiss", "rounds": 3}, "time": {"kind": "unlimited"}}),
            "needs a clock",
        ),
        (
            json!({"name": "Long", "format": {"kind": "swiss", "rounds": 99}}),
            "1 to 15 rounds",
        ),
        (
            json!({"name": "Triple", "format": {"kind": "round-robin", "cycles": 3}}),
            "once or twice",
        ),
        (
            json!({"name": "Crowd", "format": {"kind": "round-robin", "cycles": 1}, "max_players": 40}),
            "2 to 20 players",
        ),
        (
            json!({"name": "Past", "format": {"kind": "swiss", "rounds": 3}, "starts_at": 1}),
            "in the future",
        ),
    ] {
        let (status, refused) = server
            .call(
                "POST",
                "/api/tournaments",
                Some(&users[0].token),
                Some(body),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
        assert!(
            refused["error"].as_str().unwrap().contains(wanted),
            "{refused}"
        );
    }
    for i in 0..3 {
        let (status, _) = server
            .call(
                "POST",
                "/api/tournaments",
                Some(&users[0].token),
                Some(form(&format!("Mine {i}"))),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, refused) = server
        .call(
            "POST",
            "/api/tournaments",
            Some(&users[0].token),
            Some(form("Fourth")),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    let (status, _) = server
        .call("GET", "/api/tournaments/999999", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server
        .call("GET", "/api/tournaments/abc/records", None, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, list) = server.call("GET", "/api/tournaments", None, None).await;
    let mine = list["tournaments"][0]["id"].as_i64().unwrap();
    let (status, _) = act(server, &users[1], mine, "dance").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = act(server, &users[1], mine, "withdraw").await;
    assert_eq!(status, StatusCode::CONFLICT, "not in it");
    let (status, _) = act(server, &users[0], mine, "start").await;
    assert_eq!(status, StatusCode::CONFLICT, "nobody signed up");
    // A start time with nobody signed up calls it off.
    let now = server.service.now();
    let (status, made) = server
        .call(
            "POST",
            "/api/tournaments",
            Some(&users[1].token),
            Some(
                json!({"name": "Lonely", "format": {"kind": "swiss", "rounds": 3},
                        "starts_at": now + 1000}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_i64().unwrap();
    act(server, &users[1], id, "join").await;
    server.clock.advance(2000);
    server.service.sweep().await.unwrap();
    assert_eq!(tournament(server, id).await["status"], "canceled");
    let (status, _) = act(server, &users[0], id, "join").await;
    assert_eq!(status, StatusCode::CONFLICT);
}

on_both!(
    a_swiss_is_paired_round_by_round,
    a_round_robin_with_a_withdrawal,
    a_league_promotes_and_relegates,
    the_tournament_endpoints_refuse_what_they_must,
);
