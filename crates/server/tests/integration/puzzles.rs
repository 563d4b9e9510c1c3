//! The puzzle trainer over real HTTP, on SQLite and PostgreSQL: puzzles
//! for visitors and players, moves judged with the solver's proof, Glicko-2
//! ratings on a player's first attempt, the history and the daily puzzle.

use crate::common;

use common::{TestDb, TestServer};
use epaminondas_learn::puzzles::{Puzzle, shipped};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn shipped_puzzle(id: &str) -> Puzzle {
    shipped()
        .into_iter()
        .find(|p| p.id == id)
        .expect("a shipped puzzle")
}

/// Plays puzzle `view` to the end with the solution's moves; the last
/// answer.
async fn solve(server: &TestServer, token: Option<&str>, view: &Value) -> Value {
    let id = view["id"].as_str().unwrap();
    let puzzle = shipped_puzzle(id);
    let mut moves: Vec<String> = Vec::new();
    for (i, mv) in puzzle.solution.iter().enumerate().step_by(2) {
        moves.push(mv.to_string());
        let (status, answer) = server
            .call(
                "POST",
                &format!("/api/puzzles/{id}/answer"),
                token,
                Some(json!({"moves": moves})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        if answer["result"] == "solved" {
            return answer;
        }
        assert_eq!(answer["result"], "reply", "{answer}");
        assert_eq!(answer["reply"], puzzle.solution[i + 1].to_string());
        assert!(answer["solution"].is_null(), "no solution before the end");
        moves.push(answer["reply"].as_str().unwrap().to_string());
    }
    panic!("puzzle {id} was not solved by its solution");
}

async fn puzzles_are_judged_and_rated(server: &TestServer, _db: &TestDb) {
    // A visitor gets puzzles and plays them, unrated.
    let (status, view) = server
        .call("GET", "/api/puzzles/next?board=8x8", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert!(
        view.get("solution").is_none(),
        "the solution is not sent: {view}"
    );
    assert_eq!(view["state"]["board"], "8x8");
    let solved = solve(server, None, &view).await;
    assert_eq!(solved["rating"], Value::Null);
    assert_eq!(
        solved["solution"].as_array().unwrap().len(),
        shipped_puzzle(view["id"].as_str().unwrap()).solution.len()
    );

    // Alice solves one: her puzzle rating goes up, and the puzzle's down.
    let alice = server.user("alicepz", false, &["read", "play"]).await;
    let (_, first) = server
        .call(
            "GET",
            "/api/puzzles/next?board=8x8",
            Some(&alice.token),
            None,
        )
        .await;
    let puzzle_before = first["rating"].as_f64().unwrap();
    let solved = solve(server, Some(&alice.token), &first).await;
    let (before, after) = (
        solved["rating"]["before"].as_f64().unwrap(),
        solved["rating"]["after"].as_f64().unwrap(),
    );
    assert_eq!(before, 1500.0);
    assert!(after > before, "{solved}");
    let id = first["id"].as_str().unwrap();
    let (_, again) = server
        .call("GET", &format!("/api/puzzles/{id}"), None, None)
        .await;
    assert!(again["rating"].as_f64().unwrap() < puzzle_before, "{again}");
    assert_eq!(
        (again["attempts"].clone(), again["solved"].clone()),
        (json!(1), json!(1))
    );

    // She fails the next one: any other first move is wrong, and the
    // solution is shown.
    let (_, second) = server
        .call(
            "GET",
            "/api/puzzles/next?board=8x8",
            Some(&alice.token),
            None,
        )
        .await;
    assert_ne!(second["id"], first["id"], "a puzzle she has not tried");
    let puzzle = shipped_puzzle(second["id"].as_str().unwrap());
    let wrong = puzzle
        .position
        .legal_moves()
        .iter()
        .find(|&&m| m != puzzle.solution[0])
        .map(|m| m.to_string())
        .unwrap();
    let path = format!("/api/puzzles/{}/answer", puzzle.id);
    let (status, failed) = server
        .call(
            "POST",
            &path,
            Some(&alice.token),
            Some(json!({"moves": [wrong]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{failed}");
    assert_eq!(failed["result"], "wrong");
    assert_eq!(failed["solution"][0], puzzle.solution[0].to_string());
    assert!(failed["rating"]["after"].as_f64().unwrap() < after);
    // A second try at the same puzzle is practice: unrated.
    let (_, practice) = server
        .call(
            "POST",
            &path,
            Some(&alice.token),
            Some(json!({"moves": [puzzle.solution[0].to_string()]})),
        )
        .await;
    assert_ne!(practice["result"], "wrong");
    assert_eq!(practice["rating"], Value::Null);

    // Her rating and history.
    let (status, record) = server
        .call("GET", "/api/account/puzzles", Some(&alice.token), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (record["attempts"].clone(), record["solved"].clone()),
        (json!(2), json!(1))
    );
    let history = record["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["puzzle"], second["id"], "newest first");
    assert_eq!(history[0]["solved"], false);
    assert_eq!(record["rating"], failed["rating"]["after"]);

    // The daily puzzle is the same for everyone.
    let (status, daily) = server.call("GET", "/api/puzzles/daily", None, None).await;
    assert_eq!(status, StatusCode::OK);
    let (_, daily_again) = server
        .call("GET", "/api/puzzles/daily", Some(&alice.token), None)
        .await;
    assert_eq!(daily["id"], daily_again["id"]);

    // Bad input gets a clear answer.
    let bad = |path: &str, body: Value| {
        let path = path.to_string();
        async move { server.call("POST", &path, None, Some(body)).await }
    };
    let (status, body) = bad("/api/puzzles/nope/answer", json!({"moves": ["a1-a2"]})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("no puzzle"), "{body}");
    let (status, body) = bad(&path, json!({"moves": ["z9-z10"]})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = bad(&path, json!({"moves": []})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) = bad(&path, json!({"moves": ["a1-a2"], "extra": 1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server
        .call("GET", "/api/puzzles/next?board=banana", None, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server.call("GET", "/api/account/puzzles", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = server
        .call("GET", "/api/puzzles/next?board=5x5", None, None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "no puzzles on that board");

    // A flood of answers is cut at 60 a minute per client.
    let mut statuses = Vec::new();
    for _ in 0..61 {
        let (status, _) = server
            .call(
                "POST",
                &path,
                Some(&alice.token),
                Some(json!({"moves": [puzzle.solution[0].to_string()]})),
            )
            .await;
        statuses.push(status);
    }
    let answered = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    assert!(answered < 60, "her earlier answers count too: {answered}");
    assert_eq!(statuses[60], StatusCode::TOO_MANY_REQUESTS);
}

on_both!(puzzles_are_judged_and_rated);
