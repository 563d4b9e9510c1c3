//! The web site in real Chromium: starts `epaminondas serve` and runs the
//! browser tests in `crates/web/e2e` (playwright-core driving Debian's
//! Chromium, headless). They need Node, `npm ci` in that folder and
//! /usr/bin/chromium; `.ci/run` installs them. Without them the test is
//! skipped, except under CI, where it fails.

use std::path::Path;
use std::process::Command;

mod common;
#[path = "../../server/tests/integration/relay/mod.rs"]
mod relay;
use common::{free_port, start_with};

#[test]
fn the_web_site_works_in_chromium() {
    let e2e = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/e2e");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let missing: Vec<&str> = [
        (!e2e.join("node_modules/playwright-core").exists())
            .then_some("playwright-core (run `npm ci` in crates/web/e2e)"),
        (!Path::new(&chromium).exists()).then_some("Chromium (apt-get install chromium)"),
        Command::new("node")
            .arg("--version")
            .output()
            .is_err()
            .then_some("Node"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !missing.is_empty() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the browser tests need {} under CI (.ci/run installs them)",
            missing.join(", ")
        );
        eprintln!("skipped: the browser tests need {}", missing.join(", "));
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let port = free_port();
    // Mail goes through a real relay whose Maildir the browser tests read
    // (for the confirmation and password-reset links).
    let relay = relay::Relay::start();
    let relay_url = relay
        .as_ref()
        .map(|r| format!("smtp://127.0.0.1:{}", r.port));
    let mut options = Vec::new();
    if let Some(url) = &relay_url {
        options = vec!["--mail-domain", "example.org", "--smtp-relay", url.as_str()];
    }
    let mut server = start_with(&dir.path().join("data"), port, &options);
    let screenshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e-screenshots");
    let output = Command::new("node")
        .arg("run.mjs")
        .arg(format!("http://127.0.0.1:{port}"))
        .current_dir(&e2e)
        .env("SCREENSHOTS", &screenshots)
        .env("CHROMIUM", &chromium)
        .env(
            "MAILDIR",
            relay
                .as_ref()
                .map(|r| r.maildir().to_owned())
                .unwrap_or_default(),
        )
        .output()
        .expect("node runs");
    let _ = server.kill();
    let _ = server.wait();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    println!("{text}");
    assert!(output.status.success(), "the browser tests failed:\n{text}");
}
