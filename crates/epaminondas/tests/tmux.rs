//! `epaminondas play` run for real in a terminal: tmux runs the binary in a
//! detached session, the test types into it and reads the screen back.
//! Skipped (with a note) where tmux is missing, except under CI, whose
//! script installs it.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A tmux server and session of the test's own, killed when dropped.
struct Session {
    socket: String,
    name: String,
}

impl Session {
    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn screen(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-t", &self.name]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn send(&self, keys: &str) {
        let out = self.tmux(&["send-keys", "-t", &self.name, "-l", keys]);
        assert!(out.status.success(), "send-keys failed");
        let out = self.tmux(&["send-keys", "-t", &self.name, "Enter"]);
        assert!(out.status.success(), "send-keys failed");
    }

    /// Waits until the screen shows all of `texts`; returns the screen.
    fn wait_for(&self, texts: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen();
            if texts.iter().all(|t| screen.contains(t)) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {texts:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn alive(&self) -> bool {
        self.tmux(&["has-session", "-t", &self.name])
            .status
            .success()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

fn tmux_present() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_game_against_level_1_in_a_real_terminal() {
    if !tmux_present() {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmux is missing under CI; .ci/run installs it"
        );
        eprintln!("tmux is not installed: the terminal test is skipped");
        return;
    }
    let id = std::process::id();
    let save: PathBuf = std::env::temp_dir().join(format!("epaminondas-tmux-{id}.txt"));
    let session = Session {
        socket: format!("epaminondas-test-{id}"),
        name: "play".to_owned(),
    };
    let command = format!(
        "{} play --ai 1 --board 8x8 --save {}",
        env!("CARGO_BIN_EXE_epaminondas"),
        save.display()
    );
    let out = session.tmux(&[
        "new-session",
        "-d",
        "-s",
        &session.name,
        "-x",
        "80",
        "-y",
        "24",
        &command,
    ]);
    assert!(out.status.success(), "tmux new-session failed: {out:?}");
    let start = session.wait_for(&["Epaminondas 8x8", "you vs engine level 1"]);
    assert!(start.contains(" a   b   c   d   e   f   g   h "), "{start}");

    // A bad move first: a reason, and the game goes on.
    session.send("d2-d5");
    session.wait_for(&["'d2-d5': "]);
    // Then a good one; the engine answers.
    session.send("d1,d2-d4");
    let answered = session.wait_for(&["1. d1,d2-d4", "The engine played"]);
    assert!(answered.contains("White (o) to move"), "{answered}");

    session.send("save");
    session.wait_for(&["Saved to"]);
    let record = std::fs::read_to_string(&save).expect("the game was saved");
    std::fs::remove_file(&save).ok();
    assert!(record.contains("[Board \"8x8\"]"), "{record}");
    assert!(record.contains("1. d1,d2-d4 "), "{record}");
    assert!(
        record.contains("[Black \"Epaminondas engine, level 1\"]"),
        "{record}"
    );

    // Saved, so quit leaves at once and the terminal session ends.
    session.send("quit");
    let deadline = Instant::now() + Duration::from_secs(10);
    while session.alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!session.alive(), "the program did not quit");
}
