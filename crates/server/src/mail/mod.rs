//! Mail, pbmserv's own medium: the third front door onto the game domain,
//! and the notifications the server sends.
//!
//! - [`inbound`] reads a message (MIME, quoted-printable, base64, any
//!   charset), decides whether it deserves an answer at all (not an
//!   auto-reply, a bounce or a mailing list), and finds its commands: the
//!   Subject, or else the first lines of the plain-text body.
//! - [`smtp`] receives messages over SMTP (`serve --smtp-listen`); the
//!   `/api/mail/inbound` endpoint takes them from `epaminondas mail-in`.
//!   Both hand them to [`crate::service::Service::receive_mail`].
//! - [`compose`] writes what is sent: the board after a move (plain text as
//!   pbmserv wrote it, and a mail-safe HTML table), challenges, results,
//!   reminders, offers, chat, digests and account mail.
//! - [`sender`] delivers the outbox through an SMTP relay
//!   (`serve --smtp-relay`), retrying with backoff; mail is put in the
//!   outbox in the same transaction as the change that causes it.

pub mod compose;
/// Reading received messages (the `epaminondas-mail` crate).
pub use epaminondas_mail as inbound;
pub mod sender;
pub mod smtp;

use std::fmt;
use std::str::FromStr;

/// How the server receives and sends mail.
#[derive(Clone, Debug)]
pub struct MailSettings {
    /// The domain of the server's addresses: commands go to `pbm@DOMAIN`,
    /// replies to a game's mail to `pbm+TOKEN@DOMAIN`.
    pub domain: String,
    /// The site's address, for links in mail (`https://example.org`).
    pub site_url: String,
    /// The SMTP relay mail is sent through (`smtp://host:port`,
    /// `smtps://user:password@host:465`); `None`: nothing is sent or queued.
    pub relay: Option<String>,
    /// The largest message accepted, in bytes.
    pub max_message_bytes: usize,
    /// Commands one sender may mail per minute.
    pub commands_per_minute: u32,
}

impl MailSettings {
    /// Settings for `domain` with the site at `site_url`, sending through
    /// `relay`, with the default limits (1 MiB a message, 20 commands a
    /// minute a sender).
    pub fn new(domain: &str, site_url: &str, relay: Option<String>) -> MailSettings {
        MailSettings {
            domain: domain.trim().to_ascii_lowercase(),
            site_url: site_url.trim_end_matches('/').to_owned(),
            relay,
            max_message_bytes: 1 << 20,
            commands_per_minute: 20,
        }
    }

    /// The server's command address, `pbm@DOMAIN`.
    pub fn address(&self) -> String {
        format!("{LOCAL_PART}@{}", self.domain)
    }

    /// A player's reply address for one game, `pbm+TOKEN@DOMAIN`.
    pub fn reply_address(&self, token: &str) -> String {
        format!("{LOCAL_PART}+{token}@{}", self.domain)
    }

    /// Whether `address` is one of the server's: the token it carries
    /// (`Some("")` for the plain command address), or `None` when it is
    /// someone else's.
    pub fn token_of(&self, address: &str) -> Option<String> {
        let address = address.trim().trim_start_matches('<').trim_end_matches('>');
        let (local, domain) = address.rsplit_once('@')?;
        if !domain.eq_ignore_ascii_case(&self.domain) {
            return None;
        }
        let local = local.to_ascii_lowercase();
        if local == LOCAL_PART {
            return Some(String::new());
        }
        let token = local.strip_prefix(LOCAL_PART)?.strip_prefix('+')?;
        (!token.is_empty()).then(|| token.to_owned())
    }

    /// A link to `path` on the site.
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.site_url)
    }
}

/// The local part of the server's addresses.
pub const LOCAL_PART: &str = "pbm";

/// A new secret for a mailed link or a reply address: 128 random bits as
/// lower-case hex (addresses are not always kept in their case).
pub fn new_token() -> String {
    let secret = crate::auth::new_secret("");
    crate::auth::hash_secret(&secret)[..32].to_owned()
}

/// The kinds of mail a player may choose to get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MailKind {
    /// The board when it is the player's move.
    Turn,
    /// The board after every move, the player's own too (pbmserv's way).
    EveryMove,
    /// Challenges received, accepted and declined.
    Challenge,
    /// A game's end and result.
    End,
    /// Half the time for a correspondence move used.
    Reminder,
    /// Draw offers and takeback requests, and the answers.
    Offer,
    /// The opponent's chat messages.
    Chat,
}

impl MailKind {
    /// Every kind.
    pub const ALL: [MailKind; 7] = [
        MailKind::Turn,
        MailKind::EveryMove,
        MailKind::Challenge,
        MailKind::End,
        MailKind::Reminder,
        MailKind::Offer,
        MailKind::Chat,
    ];

    /// The kinds a new account gets.
    pub const DEFAULT: [MailKind; 6] = [
        MailKind::Turn,
        MailKind::Challenge,
        MailKind::End,
        MailKind::Reminder,
        MailKind::Offer,
        MailKind::Chat,
    ];

    /// The name stored and used in commands and the API.
    pub fn name(self) -> &'static str {
        match self {
            MailKind::Turn => "turn",
            MailKind::EveryMove => "every_move",
            MailKind::Challenge => "challenge",
            MailKind::End => "end",
            MailKind::Reminder => "reminder",
            MailKind::Offer => "offer",
            MailKind::Chat => "chat",
        }
    }

    /// What it is, for settings pages and `help`.
    pub fn meaning(self) -> &'static str {
        match self {
            MailKind::Turn => "the board when it is your move",
            MailKind::EveryMove => "the board after every move, yours too",
            MailKind::Challenge => "challenges received, accepted and declined",
            MailKind::End => "the end of your games",
            MailKind::Reminder => "a reminder when half your time for a move is used",
            MailKind::Offer => "draw offers and takeback requests",
            MailKind::Chat => "your opponents' messages",
        }
    }
}

impl fmt::Display for MailKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for MailKind {
    type Err = String;

    fn from_str(s: &str) -> Result<MailKind, String> {
        let wanted = s.trim().to_ascii_lowercase().replace('-', "_");
        MailKind::ALL
            .into_iter()
            .find(|k| k.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<&str> = MailKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "'{}' is not a kind of mail: the kinds are {}",
                    epaminondas_rules::excerpt(s),
                    names.join(", ")
                )
            })
    }
}

/// How a player's notifications are sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailMode {
    /// Each as it happens.
    Each,
    /// Gathered into one mail a day.
    Digest,
    /// None at all (replies to the player's own mailed commands still go).
    Off,
}

impl MailMode {
    /// The name stored and used in commands and the API.
    pub fn name(self) -> &'static str {
        match self {
            MailMode::Each => "each",
            MailMode::Digest => "digest",
            MailMode::Off => "off",
        }
    }
}

impl FromStr for MailMode {
    type Err = String;

    fn from_str(s: &str) -> Result<MailMode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "each" => Ok(MailMode::Each),
            "digest" => Ok(MailMode::Digest),
            "off" | "none" => Ok(MailMode::Off),
            _ => Err(format!(
                "'{}' is not a way to get mail: each, digest or off",
                epaminondas_rules::excerpt(s)
            )),
        }
    }
}

/// A player's address and what mail they want.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailProfile {
    /// The account.
    pub user_id: i64,
    /// The name.
    pub name: String,
    /// The address.
    pub email: String,
    /// Whether the address is verified (nothing else is mailed before).
    pub verified: bool,
    /// Each, digest or off.
    pub mode: MailMode,
    /// The kinds wanted.
    pub kinds: Vec<MailKind>,
}

impl MailProfile {
    /// Whether a notification of `kind` goes to this player, and whether in
    /// the digest: `None` when it does not go.
    pub fn wants(&self, kind: MailKind) -> Option<bool> {
        if !self.verified || self.mode == MailMode::Off || !self.kinds.contains(&kind) {
            return None;
        }
        Some(self.mode == MailMode::Digest)
    }
}

/// A mail to send, as stored in the outbox.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutMail {
    /// The player it is for, if any.
    pub user_id: Option<i64>,
    /// The address.
    pub to: String,
    /// What it is (a [`MailKind`] name, or `reply`, `verify`, `reset`,
    /// `digest`).
    pub kind: String,
    /// The subject.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// The HTML body, if any.
    pub html: Option<String>,
    /// The `Reply-To` address, if any.
    pub reply_to: Option<String>,
    /// The unsubscribe link (`List-Unsubscribe`), if any.
    pub unsubscribe: Option<String>,
    /// Whether it answers a mail (marked `Auto-Submitted: auto-replied`).
    pub auto_reply: bool,
    /// Whether it waits for the player's daily digest.
    pub digest: bool,
    /// Tokens to store with it (its reply address, its unsubscribe link).
    pub tokens: Vec<NewToken>,
}

/// A token to store: only its hash is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewToken {
    /// The SHA-256 of the token, hex.
    pub hash: String,
    /// `verify`, `reset`, `reply` or `unsubscribe`.
    pub kind: String,
    /// The player it acts for.
    pub user_id: i64,
    /// The game it is tied to (reply addresses).
    pub game_id: Option<i64>,
    /// The address being verified (`verify`).
    pub email: Option<String>,
    /// When it stops working (milliseconds since the epoch).
    pub expires_at: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_tokens() {
        let mail = MailSettings::new("Example.ORG", "https://example.org/", None);
        assert_eq!(mail.address(), "pbm@example.org");
        assert_eq!(mail.reply_address("abc123"), "pbm+abc123@example.org");
        assert_eq!(mail.token_of("<PBM@example.org>"), Some(String::new()));
        assert_eq!(
            mail.token_of("pbm+abc123@EXAMPLE.org"),
            Some("abc123".into())
        );
        assert_eq!(mail.token_of("pbm+@example.org"), None);
        assert_eq!(mail.token_of("alice@example.org"), None);
        assert_eq!(mail.token_of("pbm@elsewhere.org"), None);
        assert_eq!(mail.link("/game/101"), "https://example.org/game/101");
        let token = new_token();
        assert_eq!(token.len(), 32);
        assert!(
            token
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        assert_ne!(token, new_token());
    }

    #[test]
    fn kinds_and_modes_read_and_print() {
        for kind in MailKind::ALL {
            assert_eq!(kind.name().parse::<MailKind>(), Ok(kind));
        }
        assert_eq!("every-move".parse::<MailKind>(), Ok(MailKind::EveryMove));
        assert!(
            "spam"
                .parse::<MailKind>()
                .unwrap_err()
                .contains("the kinds are turn")
        );
        assert_eq!("DIGEST".parse::<MailMode>(), Ok(MailMode::Digest));
        assert!("weekly".parse::<MailMode>().is_err());
        let profile = MailProfile {
            user_id: 1,
            name: "alice".into(),
            email: "alice@example.org".into(),
            verified: true,
            mode: MailMode::Digest,
            kinds: vec![MailKind::Turn],
        };
        assert_eq!(profile.wants(MailKind::Turn), Some(true));
        assert_eq!(profile.wants(MailKind::End), None);
        let unverified = MailProfile {
            verified: false,
            ..profile
        };
        assert_eq!(unverified.wants(MailKind::Turn), None);
    }
}
