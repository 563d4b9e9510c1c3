//! pbmserv's commands over HTTP: `POST /pbm` with one command line as
//! plain text; the reply is the text pbmserv would have mailed back, with
//! the status the refusal (if any) maps to.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use super::extract::ClientIp;
use super::{App, Shared, status_and_code};
use crate::error::Error;
use crate::pbm;

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/pbm", post(command))
}

async fn command(State(app): Shared, ClientIp(ip): ClientIp, body: String) -> Response {
    let (status, text) = match pbm::execute(&app.service, &body, ip).await {
        Ok(text) => (StatusCode::OK, text),
        Err(error) => {
            if let Error::Internal(detail) = &error {
                tracing::error!("pbm: {detail}");
            }
            (status_and_code(&error).0, pbm::error_text(&error))
        }
    };
    (status, [(CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}
