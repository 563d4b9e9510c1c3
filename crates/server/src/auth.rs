//! Credentials: password hashing (argon2id), random secrets for sessions
//! and API tokens (stored only as SHA-256 hashes), token scopes, who a
//! request acts for, and the rules for account names, passwords and e-mail
//! addresses.

use std::fmt;
use std::str::FromStr;

use argon2::Argon2;
use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use epaminondas_rules::excerpt;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::game::Player;

/// What an API token allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Reading one's own data and streams.
    Read,
    /// Challenges and moves as a person.
    Play,
    /// The bot API, and challenges and moves as a bot (bot accounts only).
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

    /// Reads the scopes asked for a new token: at least one, each once.
    pub fn parse_list<S: AsRef<str>>(names: &[S]) -> Result<Vec<Scope>> {
        if names.is_empty() {
            return Err(Error::invalid(
                "a token needs at least one scope: read, play or bot",
            ));
        }
        let mut scopes = Vec::new();
        for name in names {
            let scope: Scope = name.as_ref().parse()?;
            if scopes.contains(&scope) {
                return Err(Error::invalid(format!("the scope {scope} is listed twice")));
            }
            scopes.push(scope);
        }
        Ok(scopes)
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
            .filter_map(|n| n.parse().ok())
            .collect()
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scope {
    type Err = Error;

    fn from_str(s: &str) -> Result<Scope> {
        Scope::ALL
            .into_iter()
            .find(|scope| scope.name() == s)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "unknown scope {:?}: use read, play or bot",
                    excerpt(s)
                ))
            })
    }
}

/// How a request proved who it acts for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// A browser session signed in with a password; changes need its CSRF
    /// token in a header.
    Session {
        /// The session's CSRF token.
        csrf: String,
    },
    /// An API token (with its scopes in [`AuthUser::scopes`]).
    Token,
    /// A password given with the command itself (pbmserv's way).
    Password,
}

/// A signed-in user as a request sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthUser {
    /// The account.
    pub player: Player,
    /// Whether it is a bot account.
    pub bot: bool,
    /// What the credentials allow.
    pub scopes: Vec<Scope>,
    /// How the request signed in.
    pub credential: Credential,
    /// Whether it is a guest account (made for a visitor without signing up).
    pub guest: bool,
}

impl AuthUser {
    /// The user of a password check: a person's or bot's full rights.
    pub fn by_password(player: Player, bot: bool) -> AuthUser {
        AuthUser {
            player,
            bot,
            scopes: Scope::ALL.to_vec(),
            credential: Credential::Password,
            guest: false,
        }
    }

    /// The scope this account plays with: `bot` for a bot account, `play`
    /// for a person.
    pub fn play_scope(&self) -> Scope {
        if self.bot { Scope::Bot } else { Scope::Play }
    }

    /// Refuses unless the credentials carry `scope`.
    pub fn require(&self, scope: Scope) -> Result<()> {
        if self.scopes.contains(&scope) {
            Ok(())
        } else {
            Err(Error::MissingScope { needed: scope })
        }
    }

    /// Refuses unless the credentials may challenge and move for this
    /// account (see [`AuthUser::play_scope`]).
    pub fn require_play(&self) -> Result<()> {
        self.require(self.play_scope())
    }

    /// Refuses unless the user signed in with a password in a browser
    /// session (not a token, not a guest): what account management needs.
    pub fn require_password_session(&self) -> Result<()> {
        match (&self.credential, self.guest) {
            (Credential::Session { .. }, false) => Ok(()),
            (Credential::Session { .. }, true) => Err(Error::forbidden(
                "guests have no account to manage: sign up first",
            )),
            _ => Err(Error::forbidden(
                "this needs a session signed in with a password, not an API token",
            )),
        }
    }
}

/// Hashes `password` with argon2id and a random salt.
pub fn hash_password(password: &str) -> Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::Internal(format!("password hashing: {e}")))
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

/// Names nobody may sign up with, because they would pass for the site,
/// its staff or its computer player (compared in lower case, without `_`
/// and `-`).
const RESERVED_NAMES: &[&str] = &[
    "abuse",
    "admin",
    "administrator",
    "anonymous",
    "bot",
    "computer",
    "epaminondas",
    "help",
    "info",
    "mailerdaemon",
    "moderator",
    "mod",
    "nobody",
    "noreply",
    "official",
    "owner",
    "pbm",
    "pbmserv",
    "postmaster",
    "root",
    "security",
    "server",
    "staff",
    "support",
    "system",
    "webmaster",
];

/// Prefixes kept for the site's own accounts: guests (`Guest-xxxxxx`),
/// deleted accounts (`deleted-N`) and anything passing for the computer or
/// the site's staff.
const RESERVED_PREFIXES: &[&str] = &[
    "guest",
    "deleted",
    "computer",
    "admin",
    "moderator",
    "epaminondas",
    "pbmserv",
    "system",
];

/// Checks a new account name: 2 to 20 letters, digits, `_` or `-`, starting
/// with a letter (pbmserv's user ids were of this kind), and not one the
/// site keeps for itself.
pub fn check_name(name: &str) -> Result<()> {
    let ok_len = (2..=20).contains(&name.len());
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let ok_start = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    if !(ok_len && ok_chars && ok_start) {
        return Err(Error::invalid(
            "a name is 2 to 20 letters, digits, '_' or '-', starting with a letter",
        ));
    }
    let key: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if name.to_ascii_lowercase().starts_with("guest") {
        return Err(Error::invalid(
            "names starting with \"guest\" are kept for guests: choose another",
        ));
    }
    if RESERVED_NAMES.contains(&key.as_str())
        || RESERVED_PREFIXES.iter().any(|p| key.starts_with(p))
    {
        return Err(Error::invalid(format!(
            "the name {name} is kept for the site itself: choose another"
        )));
    }
    Ok(())
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
pub fn check_password(password: &str) -> Result<()> {
    if (8..=200).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(Error::invalid("a password is 8 to 200 characters"))
    }
}

/// Checks an e-mail address: something, `@`, something with a dot.
pub fn check_email(email: &str) -> Result<()> {
    let ok = email.len() <= 200
        && !email.chars().any(char::is_whitespace)
        && email
            .split_once('@')
            .is_some_and(|(user, host)| !user.is_empty() && host.contains('.'));
    if ok {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{:?} is not an e-mail address",
            excerpt(email)
        )))
    }
}

/// A random bit (for colours decided by a coin toss).
pub fn coin() -> bool {
    let mut byte = [0u8; 1];
    OsRng.fill_bytes(&mut byte);
    byte[0] & 1 == 1
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
    fn names_and_emails() {
        assert!(check_name("alice_1").is_ok());
        assert!(
            check_name("Botvinnik").is_ok(),
            "only \"bot\" itself is kept"
        );
        for bad in ["a", "1abc", "bad name", "x".repeat(21).as_str(), "é"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        for kept in [
            "computer",
            "Computer-level-3",
            "ADMIN",
            "ad_min",
            "Epaminondas",
            "pbmserv",
            "deleted-12",
            "guest-me",
            "System_bot",
        ] {
            let err = check_name(kept).unwrap_err().to_string();
            assert!(err.contains("kept"), "{kept}: {err}");
        }
        assert!(check_email("a@b.org").is_ok());
        assert!(check_email("nobody").is_err());
        let long = check_email(&"x".repeat(100_000)).unwrap_err().to_string();
        assert!(long.len() < 100, "{long}");
    }

    #[test]
    fn scopes_are_named_once_each() {
        let scopes = Scope::parse_list(&["read", "bot"]).unwrap();
        assert_eq!(Scope::split(&Scope::join(&scopes)), scopes);
        assert!(Scope::parse_list(&["admin"]).is_err());
        let empty: [&str; 0] = [];
        assert!(
            Scope::parse_list(&empty)
                .unwrap_err()
                .to_string()
                .contains("at least one")
        );
        assert!(
            Scope::parse_list(&["play", "play"])
                .unwrap_err()
                .to_string()
                .contains("twice")
        );
    }

    #[test]
    fn the_play_scope_depends_on_the_account() {
        let person = AuthUser {
            player: Player {
                id: 1,
                name: "ann".into(),
            },
            bot: false,
            scopes: vec![Scope::Read],
            credential: Credential::Token,
            guest: false,
        };
        assert_eq!(
            person.require_play().unwrap_err().to_string(),
            "this token lacks the play scope (a person's moves and challenges need a token with \"play\")"
        );
        let bot = AuthUser {
            bot: true,
            ..person.clone()
        };
        assert!(
            bot.require_play()
                .unwrap_err()
                .to_string()
                .contains("bot scope")
        );
        assert!(person.require_password_session().is_err());
    }
}
