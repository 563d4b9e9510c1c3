//! Starting the real `epaminondas serve` for the integration tests.
#![allow(dead_code)] // each test file uses some of these

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_epaminondas");

/// A port nobody listens on.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Starts the server on `port` with its data in `dir`, once it listens.
pub fn start(dir: &Path, port: u16) -> Child {
    start_with(dir, port, &[])
}

/// Starts the server as [`start`] does, with `options` added.
pub fn start_with(dir: &Path, port: u16, options: &[&str]) -> Child {
    let child = Command::new(BIN)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .arg("--data-dir")
        .arg(dir)
        .args(options)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "the server did not listen within 20 s"
        );
        sleep(Duration::from_millis(50));
    }
    child
}
