//! The real `epaminondas serve` with mail: messages piped through
//! `epaminondas mail-in` (as a mail server's pipe would), and mail sent
//! through a real relay (Debian's `python3-aiosmtpd`). The outbox survives
//! a relay that is down and a server killed with SIGKILL: once the relay is
//! back, every notification arrives exactly once.

mod common;
#[path = "../../server/tests/integration/relay/mod.rs"]
mod relay;

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::{BIN, free_port, start_with};
use epaminondas_rules::{BoardSize, Position, Symmetry};
use relay::Relay;

const DOMAIN: &str = "example.org";

/// Pipes `message` (headers and body) from `sender` to `epaminondas mail-in`.
fn mail_in(port: u16, sender: &str, message: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(["mail-in", "--server", &format!("http://127.0.0.1:{port}")])
        .args(["--sender", sender, "--recipient", &format!("pbm@{DOMAIN}")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mail-in runs");
    let message = format!("From: {sender}\r\nTo: pbm@{DOMAIN}\r\n{message}");
    child
        .stdin
        .take()
        .expect("standard input")
        .write_all(message.as_bytes())
        .expect("the message is written");
    child.wait_with_output().expect("mail-in ends")
}

/// Runs the pbmserv client against the server.
fn pbm(port: u16, words: &str) -> String {
    let out = Command::new(BIN)
        .args(["pbm", "--server", &format!("http://127.0.0.1:{port}")])
        .args(words.split_whitespace())
        .output()
        .expect("epaminondas pbm runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{words}: {text}");
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_survives_a_dead_relay_and_a_killed_server() {
    let Some(mut relay) = Relay::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().join("data");
    let port = free_port();
    let relay_url = format!("smtp://127.0.0.1:{}", relay.port);
    let options = ["--mail-domain", DOMAIN, "--smtp-relay", relay_url.as_str()];
    let mut server = start_with(&data, port, &options);
    let mut taken = Vec::new();

    // Both players sign up by mail, through the pipe, and confirm their
    // addresses by the mailed links.
    for name in ["kim", "lee"] {
        let email = format!("{name}@{DOMAIN}");
        let out = mail_in(
            port,
            &email,
            &format!("Subject: signup {name} {name}-password {email}\r\n\r\n"),
        );
        let answer = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{answer}");
        assert!(
            answer.contains(&format!("User {name} signed up.")),
            "{answer}"
        );
        assert!(answer.contains("no answer was mailed"), "{answer}");
        let mail = relay
            .expect(&email, "confirm your e-mail address", &mut taken)
            .await;
        let link = mail.link(&format!("http://127.0.0.1:{port}/mail/verify/"));
        let page = reqwest::Client::new()
            .post(&link)
            .send()
            .await
            .expect("the link opens");
        assert!(page.status().is_success(), "{link}: {}", page.status());
    }
    let reply = pbm(port, "epaminondas challenge -size=5x6 kim lee kim-password");
    assert!(reply.contains("Challenge 1"), "{reply}");
    let challenge = reply
        .split_whitespace()
        .nth(1)
        .expect("a number")
        .to_owned();
    let reply = pbm(
        port,
        &format!("epaminondas accept {challenge} lee lee-password"),
    );
    let board = reply
        .split("board ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("a board number")
        .to_owned();
    relay
        .expect(&format!("kim@{DOMAIN}"), "your move (move 1)", &mut taken)
        .await;

    // The relay goes down; moves are made; the server is killed; one more
    // move after the restart, the relay still down.
    relay.pause();
    let mut position = Position::new(BoardSize::new(6, 5).expect("5x6"), Symmetry::Mirror);
    let players = [("kim", "kim-password"), ("lee", "lee-password")];
    let mut play = |ply: usize| {
        let mv = position.legal_moves()[ply * 3 % 7];
        let (user, password) = players[ply % 2];
        pbm(
            port,
            &format!("epaminondas move {board} {user} {password} {mv}"),
        );
        position.play(mv).expect("a legal move");
    };
    for ply in 0..4 {
        play(ply);
    }
    // Long enough for the sender to try and fail.
    tokio::time::sleep(Duration::from_millis(800)).await;
    server.kill().expect("SIGKILL");
    server.wait().expect("the server is gone");
    let mut server = start_with(&data, port, &options);
    play(4);
    tokio::time::sleep(Duration::from_millis(500)).await;
    relay.resume();

    // Moves 2 to 6, each to the player whose turn it is, exactly once.
    for (ply, name) in ["lee", "kim", "lee", "kim", "lee"].iter().enumerate() {
        let subject = format!("your move (move {})", ply + 2);
        let to = format!("{name}@{DOMAIN}");
        let mail = tokio::time::timeout(
            Duration::from_secs(60),
            relay.expect(&to, &subject, &mut taken),
        )
        .await;
        assert!(mail.is_ok(), "{subject} to {to} did not arrive");
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let messages = relay.messages();
    let mut ids: Vec<&str> = messages.iter().map(|m| m.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), messages.len(), "no message was sent twice");
    let turns = messages
        .iter()
        .filter(|m| m.subject.contains("your move"))
        .count();
    assert_eq!(turns, 6, "one mail per move, and none more");
    let _ = server.kill();
    let _ = server.wait();
}
