//! How the JSON API answers a refusal: an HTTP status, and a body
//! `{"error": "...", "code": "..."}` with a one-line reason a person can act
//! on and a stable code a program can test.

use axum::Json;
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::Error;
use crate::game::GameError;

/// The HTTP status and code for `error`.
pub fn status_and_code(error: &Error) -> (StatusCode, &'static str) {
    use StatusCode as S;
    match error {
        Error::Game(game) => match game {
            GameError::IllegalMove(_) => (S::BAD_REQUEST, "illegal_move"),
            GameError::Over { .. } => (S::CONFLICT, "game_over"),
            GameError::TimeRanOut { .. } => (S::CONFLICT, "time_ran_out"),
            GameError::NotYourTurn { .. } => (S::CONFLICT, "not_your_turn"),
            GameError::StaleMove { .. } => (S::CONFLICT, "stale_move"),
            GameError::AlreadyOffered(_) => (S::CONFLICT, "already_offered"),
            GameError::NoOffer(_) => (S::CONFLICT, "no_offer"),
            GameError::NothingToTakeBack => (S::CONFLICT, "nothing_to_take_back"),
            GameError::Conditional(_) => (S::BAD_REQUEST, "bad_conditional_moves"),
        },
        Error::NoSuchGame(_) => (S::NOT_FOUND, "no_such_game"),
        Error::NoSuchChallenge(_) => (S::NOT_FOUND, "no_such_challenge"),
        Error::NoSuchTournament(_) => (S::NOT_FOUND, "no_such_tournament"),
        Error::NoSuchLeague(_) => (S::NOT_FOUND, "no_such_league"),
        Error::NoSuchPlayer(_) => (S::NOT_FOUND, "no_such_player"),
        Error::NoSuchToken(_) => (S::NOT_FOUND, "no_such_token"),
        Error::NotAPlayer(_) => (S::FORBIDDEN, "not_a_player"),
        Error::Invalid(_) => (S::BAD_REQUEST, "invalid"),
        Error::Unauthorized(_) => (S::UNAUTHORIZED, "unauthorized"),
        Error::Forbidden(_) => (S::FORBIDDEN, "forbidden"),
        Error::MissingScope { .. } => (S::FORBIDDEN, "missing_scope"),
        Error::Conflict(_) => (S::CONFLICT, "conflict"),
        Error::RateLimited { .. } => (S::TOO_MANY_REQUESTS, "rate_limited"),
        Error::EngineBusy => (S::SERVICE_UNAVAILABLE, "engine_busy"),
        Error::Internal(_) => (S::INTERNAL_SERVER_ERROR, "internal"),
    }
}

/// The seconds a client should wait before retrying, for refusals that say.
fn retry_after(error: &Error) -> Option<u64> {
    match error {
        Error::RateLimited { retry_after_s, .. } => Some(*retry_after_s),
        Error::EngineBusy => Some(2),
        _ => None,
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Internal(detail) = &self {
            tracing::error!("internal error: {detail}");
        }
        let (status, code) = status_and_code(&self);
        let body = serde_json::json!({ "error": self.to_string(), "code": code });
        let mut response = (status, Json(body)).into_response();
        if let Some(seconds) = retry_after(&self) {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// A 404 answer for a path that names nothing.
pub fn not_found(reason: &str) -> Response {
    let body = serde_json::json!({ "error": reason, "code": "not_found" });
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}

/// A 413 answer for a request whose announced body exceeds `max` bytes.
pub fn too_large(max: usize) -> Response {
    let body = serde_json::json!({
        "error": format!("the request body is larger than {} KiB", max / 1024),
        "code": "too_large",
    });
    (StatusCode::PAYLOAD_TOO_LARGE, Json(body)).into_response()
}
