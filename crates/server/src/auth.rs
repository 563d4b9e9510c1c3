//! Credentials: password hashing (argon2id), random secrets for sessions
//! and API tokens (stored only as SHA-256 hashes), token scopes, account
//! name rules, and the per-address rate limiter for sign-in and sign-up.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use argon2::Argon2;
use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult};

/// What an API token allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Reading one's own data and streams.
    Read,
    /// Challenges and moves as a person.
    Play,
    /// The bot API (bot accounts only).
    Bot,
}

impl Scope {
    /// Every scope.
    pub const ALL: [Scope; 3] = [Scope::Read, Scope::Play, Scope::Bot];

    /// The scope's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Play => "play",
            Scope::Bot => "bot",
        }
    }

    /// Reads a list of scope names.
    pub fn parse_list(names: &[String]) -> ApiResult<Vec<Scope>> {
        names
            .iter()
            .map(|n| {
                Scope::ALL
                    .into_iter()
                    .find(|s| s.name() == n)
                    .ok_or_else(|| {
                        ApiError::bad(format!("unknown scope {n:?}: use read, play or bot"))
                    })
            })
            .collect()
    }

    /// The scopes stored as text.
    pub fn join(scopes: &[Scope]) -> String {
        scopes
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The scopes read back from storage.
    pub fn split(text: &str) -> Vec<Scope> {
        text.split_whitespace()
            .filter_map(|n| Scope::ALL.into_iter().find(|s| s.name() == n))
            .collect()
    }
}

/// Hashes `password` with argon2id and a random salt.
pub fn hash_password(password: &str) -> ApiResult<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("password hashing: {e}")))
}

/// Whether `password` matches the stored `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A new random secret (256 bits), as URL-safe text, with `prefix`.
pub fn new_secret(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// The stored form of a secret: its SHA-256, hex.
pub fn hash_secret(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks an account name: 2 to 20 letters, digits, `_` or `-`, starting
/// with a letter (pbmserv's user ids were of this kind).
pub fn check_name(name: &str) -> ApiResult<()> {
    let ok_len = (2..=20).contains(&name.len());
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let ok_start = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    if name.to_ascii_lowercase().starts_with("guest") {
        Err(ApiError::bad(
            "names starting with \"guest\" are kept for guests: choose another",
        ))
    } else if ok_len && ok_chars && ok_start {
        Ok(())
    } else {
        Err(ApiError::bad(
            "a name is 2 to 20 letters, digits, '_' or '-', starting with a letter",
        ))
    }
}

/// A fresh guest name: `Guest-` and six random letters and digits. Names
/// starting with `guest` are kept for guests (see [`check_name`]).
pub fn guest_name() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 6];
    OsRng.fill_bytes(&mut bytes);
    let tail: String = bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect();
    format!("Guest-{tail}")
}

/// Checks a new password: 8 to 200 characters.
pub fn check_password(password: &str) -> ApiResult<()> {
    if (8..=200).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::bad("a password is 8 to 200 characters"))
    }
}

/// Checks an e-mail address: something, `@`, something with a dot.
pub fn check_email(email: &str) -> ApiResult<()> {
    let ok = email.len() <= 200
        && !email.chars().any(char::is_whitespace)
        && email
            .split_once('@')
            .is_some_and(|(user, host)| !user.is_empty() && host.contains('.'));
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad(format!("{email:?} is not an e-mail address")))
    }
}

/// Counts sign-in and sign-up attempts per address in one-minute windows.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u32,
    windows: Mutex<HashMap<IpAddr, (i64, u32)>>,
}

impl RateLimiter {
    /// A limiter allowing `per_minute` attempts per address per minute.
    pub fn new(per_minute: u32) -> RateLimiter {
        RateLimiter {
            per_minute,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Refuses when `addr` is over its limit, without counting an attempt
    /// (password checks count only their failures, with [`Self::check`]).
    pub fn peek(&self, addr: IpAddr, now_ms: i64) -> ApiResult<()> {
        let minute = now_ms / 60_000;
        let windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        match windows.get(&addr) {
            Some(&(m, n)) if m == minute && n >= self.per_minute => Err(ApiError::TooManyRequests),
            _ => Ok(()),
        }
    }

    /// Counts an attempt from `addr` at `now_ms`; refuses it when the
    /// address is over its limit.
    pub fn check(&self, addr: IpAddr, now_ms: i64) -> ApiResult<()> {
        let minute = now_ms / 60_000;
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > 100_000 {
            windows.retain(|_, (m, _)| *m == minute);
        }
        let entry = windows.entry(addr).or_insert((minute, 0));
        if entry.0 != minute {
            *entry = (minute, 0);
        }
        if entry.1 >= self.per_minute {
            return Err(ApiError::TooManyRequests);
        }
        entry.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_and_secrets() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong horse", &h));
        assert!(!verify_password("x", "not a hash"));
        let (a, b) = (new_secret("ep_"), new_secret("ep_"));
        assert_ne!(a, b);
        assert_eq!(hash_secret(&a).len(), 64);
    }

    #[test]
    fn names_emails_and_scopes() {
        assert!(check_name("alice_1").is_ok());
        for bad in ["a", "1abc", "bad name", "x".repeat(21).as_str(), "é"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        assert!(check_email("a@b.org").is_ok());
        assert!(check_email("nobody").is_err());
        let scopes = Scope::parse_list(&["read".into(), "bot".into()]).unwrap();
        assert_eq!(Scope::split(&Scope::join(&scopes)), scopes);
        assert!(Scope::parse_list(&["admin".into()]).is_err());
    }

    #[test]
    fn the_limiter_resets_each_minute() {
        let limiter = RateLimiter::new(2);
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(limiter.check(ip, 0).is_ok());
        assert!(limiter.check(ip, 1).is_ok());
        assert!(limiter.check(ip, 2).is_err());
        assert!(limiter.check("10.0.0.1".parse().unwrap(), 2).is_ok());
        assert!(limiter.check(ip, 60_000).is_ok());
    }
}
