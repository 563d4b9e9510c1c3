//! The real `epaminondas serve`: it starts with no database and creates
//! one, answers the pbmserv client `epaminondas pbm`, and a server killed
//! with SIGKILL loses no move it acknowledged: after a restart the game
//! goes on.

use std::process::{Command, Output};

use epaminondas_rules::{BoardSize, Position, Symmetry};

mod common;
use common::{BIN, free_port, start};

fn pbm(port: u16, words: &str) -> Output {
    Command::new(BIN)
        .args(["pbm", "--server", &format!("http://127.0.0.1:{port}")])
        .args(words.split_whitespace())
        .output()
        .expect("epaminondas pbm runs")
}

fn ok(port: u16, words: &str) -> String {
    let out = pbm(port, words);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{words}: {text}");
    text
}

#[test]
fn a_killed_server_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().join("data");
    let port = free_port();
    let mut server = start(&data, port);
    assert!(
        data.join("epaminondas.db").exists(),
        "the data directory and database are created"
    );
    ok(port, "signup kim password-1 kim@example.org");
    ok(port, "signup lee password-2 lee@example.org");
    let reply = ok(port, "epaminondas challenge -size=8x8 kim lee password-1");
    let challenge = reply
        .split_whitespace()
        .nth(1)
        .expect("a challenge number")
        .to_string();
    let reply = ok(
        port,
        &format!("epaminondas accept {challenge} lee password-2"),
    );
    let board = reply
        .split("board ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("a board number")
        .to_string();
    let mut pos = Position::new(BoardSize::new(8, 8).unwrap(), Symmetry::Mirror);
    let players = [("kim", "password-1"), ("lee", "password-2")];
    for ply in 0..6 {
        let mv = pos.legal_moves()[ply * 7 % 20];
        let (user, password) = players[ply % 2];
        ok(
            port,
            &format!("epaminondas move {board} {user} {password} {mv}"),
        );
        pos.play(mv).unwrap();
    }
    // Bad input through the client: a clear error and a failing exit.
    let refused = pbm(
        port,
        &format!("epaminondas move {board} kim password-1 a1-a8"),
    );
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stdout).starts_with("Error: "));

    // A rude message, reported; the operator reads it with `reports`.
    ok(
        port,
        &format!("epaminondas chat {board} lee password-2 you play like a potato"),
    );
    let reported = ok(
        port,
        &format!("epaminondas report {board} kim password-1 insults"),
    );
    assert!(reported.contains("is reported"), "{reported}");
    let reports = Command::new(BIN)
        .args(["reports", "--data-dir"])
        .arg(&data)
        .output()
        .expect("epaminondas reports runs");
    let listed = String::from_utf8_lossy(&reports.stdout);
    assert!(reports.status.success(), "{listed}");
    assert!(
        listed.contains("lee wrote \"you play like a potato\"; reported by kim: insults"),
        "{listed}"
    );

    server.kill().expect("SIGKILL");
    server.wait().expect("the server is gone");
    let mut server = start(&data, port);
    let history = ok(port, &format!("epaminondas history {board}"));
    assert!(history.contains("Move 7: kim (o) to play."), "{history}");
    assert!(
        history.contains("  3. "),
        "all six moves are there: {history}"
    );
    let mv = pos.legal_moves()[0];
    ok(
        port,
        &format!("epaminondas move {board} kim password-1 {mv}#7"),
    );
    server.kill().expect("stop");
    let _ = server.wait();
}
