//! The errors a request can meet, each with the HTTP status it is answered
//! with and a one-line reason a user can act on.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Why a request was refused. Nothing was changed by a refused request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request itself is malformed or names something impossible.
    #[error("{0}")]
    BadRequest(String),
    /// No valid credentials came with a request that needs them.
    #[error("{0}")]
    Unauthorized(String),
    /// The credentials are valid but do not allow this.
    #[error("{0}")]
    Forbidden(String),
    /// The named game, user or challenge does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The request does not fit the current state (a move out of turn, a
    /// stale move number, a finished game, a name already taken).
    #[error("{0}")]
    Conflict(String),
    /// Too many attempts from this address; try again later.
    #[error("too many attempts: try again in a minute")]
    TooManyRequests,
    /// A fault inside the server (the database); its detail is logged, never
    /// sent.
    #[error("internal error; the request was not carried out")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status for this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// A shorthand for [`ApiError::BadRequest`].
    pub fn bad(reason: impl Into<String>) -> ApiError {
        ApiError::BadRequest(reason.into())
    }

    /// A shorthand for [`ApiError::Conflict`].
    pub fn conflict(reason: impl Into<String>) -> ApiError {
        ApiError::Conflict(reason.into())
    }

    /// A shorthand for [`ApiError::NotFound`].
    pub fn not_found(reason: impl Into<String>) -> ApiError {
        ApiError::NotFound(reason.into())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(detail) = &self {
            tracing::error!("internal error: {detail}");
        }
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), Json(body)).into_response()
    }
}

/// The result of a handler or service call.
pub type ApiResult<T> = Result<T, ApiError>;
