//! A real SMTP relay for the mail tests: Debian's `python3-aiosmtpd`,
//! storing every message it receives in a Maildir that the tests read.
//! Shared by the server's mail tests and the binary's (which include this
//! file by path).
#![allow(dead_code)] // each test file uses some of these

use std::net::{TcpListener as StdListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mailparse::MailHeaderMap;

/// The Python with Debian's aiosmtpd.
pub fn python() -> Option<&'static str> {
    ["/usr/bin/python3", "python3"].into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

pub fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The relay: aiosmtpd storing every message in a Maildir.
pub struct Relay {
    child: Option<Child>,
    pub port: u16,
    maildir: PathBuf,
    _dir: tempfile::TempDir,
}

impl Relay {
    /// Starts a relay, or `None` (outside CI) when aiosmtpd is missing.
    pub fn start() -> Option<Relay> {
        let Some(_) = python() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "the mail tests need python3-aiosmtpd under CI (.ci/run installs it)"
            );
            eprintln!(
                "skipped: the mail tests need python3-aiosmtpd (apt-get install python3-aiosmtpd)"
            );
            return None;
        };
        let dir = tempfile::tempdir().expect("temporary directory");
        let mut relay = Relay {
            child: None,
            port: free_port(),
            maildir: dir.path().join("Maildir"),
            _dir: dir,
        };
        relay.resume();
        Some(relay)
    }

    /// Starts the relay again (on the same port and Maildir).
    pub fn resume(&mut self) {
        let child = Command::new(python().expect("aiosmtpd"))
            .args([
                "-m",
                "aiosmtpd",
                "-n",
                "-l",
                &format!("127.0.0.1:{}", self.port),
            ])
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&self.maildir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("aiosmtpd starts");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "the relay did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the relay (mail sent meanwhile fails for now).
    pub fn pause(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The Maildir the messages are stored in (`new/` holds them).
    pub fn maildir(&self) -> &std::path::Path {
        &self.maildir
    }

    /// Every message received so far.
    pub fn messages(&self) -> Vec<Received> {
        let Ok(entries) = std::fs::read_dir(self.maildir.join("new")) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        files
            .iter()
            .filter_map(|f| std::fs::read(f).ok())
            .map(|raw| Received::read(&raw))
            .collect()
    }

    /// Waits (up to 30 s) for a message to `to` whose subject contains
    /// `subject`, and returns it; messages already taken are skipped.
    pub async fn expect(&self, to: &str, subject: &str, taken: &mut Vec<String>) -> Received {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(found) = self
                .messages()
                .into_iter()
                .find(|m| m.to == to && m.subject.contains(subject) && !taken.contains(&m.id))
            {
                taken.push(found.id.clone());
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "no mail to {to} about {subject:?}; the relay has: {:#?}",
                self.messages()
                    .iter()
                    .map(|m| (&m.to, &m.subject))
                    .collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.pause();
    }
}

/// A message as the relay stored it.
#[derive(Clone, Debug)]
pub struct Received {
    pub id: String,
    pub to: String,
    pub subject: String,
    pub reply_to: Option<String>,
    pub auto_submitted: Option<String>,
    pub unsubscribe: Option<String>,
    pub text: String,
    pub html: Option<String>,
}

impl Received {
    pub fn read(raw: &[u8]) -> Received {
        let mail = mailparse::parse_mail(raw).expect("a mail message");
        let header = |name: &str| mail.headers.get_first_value(name);
        let mut text = String::new();
        let mut html = None;
        if mail.subparts.is_empty() {
            text = mail.get_body().unwrap_or_default();
        }
        for part in &mail.subparts {
            match part.ctype.mimetype.as_str() {
                "text/plain" => text = part.get_body().unwrap_or_default(),
                "text/html" => html = part.get_body().ok(),
                _ => {}
            }
        }
        Received {
            id: header("Message-ID").unwrap_or_default(),
            to: header("To").unwrap_or_default(),
            subject: header("Subject").unwrap_or_default(),
            reply_to: header("Reply-To"),
            auto_submitted: header("Auto-Submitted"),
            unsubscribe: header("List-Unsubscribe"),
            text,
            html,
        }
    }

    /// The first link in the text starting with `prefix`.
    pub fn link(&self, prefix: &str) -> String {
        let at = self
            .text
            .find(prefix)
            .unwrap_or_else(|| panic!("no {prefix} link in {}", self.text));
        self.text[at..]
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned()
    }
}
