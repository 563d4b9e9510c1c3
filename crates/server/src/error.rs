//! Why the server refused something, in the game domain's own terms: every
//! operation of [`crate::service::Service`] answers with these, and each
//! front door (the JSON API, the pbmserv text commands) turns them into its
//! own form. Nothing was changed by a refused request.

use crate::auth::Scope;
use crate::game::GameError;

/// Why an operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The game refused the change (not your turn, illegal move, game over ...).
    #[error(transparent)]
    Game(#[from] GameError),
    /// No game has this number.
    #[error("there is no game {0}")]
    NoSuchGame(i64),
    /// No challenge has this number.
    #[error("there is no challenge {0}")]
    NoSuchChallenge(i64),
    /// No tournament has this number.
    #[error("there is no tournament {0}")]
    NoSuchTournament(i64),
    /// No league has this number.
    #[error("there is no league {0}")]
    NoSuchLeague(i64),
    /// No account has this name.
    #[error("there is no player named {0}")]
    NoSuchPlayer(String),
    /// The caller has no API token with this number.
    #[error("you have no token {0}")]
    NoSuchToken(i64),
    /// The caller does not play in the game.
    #[error("you are not a player of game {0}")]
    NotAPlayer(i64),
    /// The request is malformed or asks for something impossible; the text
    /// says what to change.
    #[error("{0}")]
    Invalid(String),
    /// No valid credentials came with a request that needs them.
    #[error("{0}")]
    Unauthorized(String),
    /// The credentials are valid but do not allow this.
    #[error("{0}")]
    Forbidden(String),
    /// An API token without the scope the request needs.
    #[error("this token lacks the {needed} scope{}", hint(*.needed))]
    MissingScope {
        /// The scope that would allow the request.
        needed: Scope,
    },
    /// The request does not fit the current state (a name taken, a
    /// challenge already answered, too many open challenges).
    #[error("{0}")]
    Conflict(String),
    /// Too many attempts; `retry_after_s` seconds from now it may work.
    #[error("{what}: try again in {}", wait_text(*.retry_after_s))]
    RateLimited {
        /// What was limited, for the message.
        what: String,
        /// Seconds until a retry may be accepted.
        retry_after_s: u64,
    },
    /// Every engine worker that may serve this is busy (analysis only;
    /// games against the computer never get this).
    #[error("the engine is busy with other analyses: try again in a few seconds")]
    EngineBusy,
    /// A fault inside the server (the database); its detail is logged, never
    /// shown.
    #[error("internal error; the request was not carried out")]
    Internal(String),
}

fn hint(needed: Scope) -> &'static str {
    match needed {
        Scope::Play => " (a person's moves and challenges need a token with \"play\")",
        Scope::Bot => " (a bot account's moves and challenges need a token with \"bot\")",
        Scope::Read => "",
    }
}

fn wait_text(seconds: u64) -> String {
    match seconds {
        0..=1 => "a second".into(),
        2..=90 => format!("{seconds} seconds"),
        _ => format!("{} minutes", seconds.div_ceil(60)),
    }
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Error {
        Error::Internal(e.to_string())
    }
}

impl Error {
    /// A shorthand for [`Error::Invalid`].
    pub fn invalid(reason: impl Into<String>) -> Error {
        Error::Invalid(reason.into())
    }

    /// A shorthand for [`Error::Conflict`].
    pub fn conflict(reason: impl Into<String>) -> Error {
        Error::Conflict(reason.into())
    }

    /// A shorthand for [`Error::Forbidden`].
    pub fn forbidden(reason: impl Into<String>) -> Error {
        Error::Forbidden(reason.into())
    }
}

/// The result of a service call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_what_to_do() {
        let scope = Error::MissingScope {
            needed: Scope::Play,
        };
        assert!(scope.to_string().contains("play scope"), "{scope}");
        let limited = Error::RateLimited {
            what: "too many failed sign-ins for alice".into(),
            retry_after_s: 600,
        };
        assert_eq!(
            limited.to_string(),
            "too many failed sign-ins for alice: try again in 10 minutes"
        );
        assert!(
            !Error::Internal("secret detail".into())
                .to_string()
                .contains("secret")
        );
    }
}
