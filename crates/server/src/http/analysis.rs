//! The analysis board over HTTP: replay a line or a record (anyone), and
//! ask the engine about a position, its progress streamed as NDJSON. The
//! engine's limits are the service's: one analysis at a time per client,
//! an allowance of engine time per client, a few at once in all, and games
//! against the computer first.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::HeaderValue;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;

use super::extract::{ApiJson, ClientIp, MaybeCaller};
use super::views::{analysed_view, iteration_view, line_view};
use super::{App, Shared};
use crate::analysis::{Line, read_record};
use crate::engines::Analysed;
use crate::error::Result;

/// The largest record the analysis board reads.
const MAX_RECORD: usize = 512 * 1024;

/// The routes of this area with the usual body limit.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/analysis", post(analysis_line))
        .route("/api/analysis/engine", post(analysis_engine))
}

/// The route that reads whole records, with its own body limit.
pub fn record_routes() -> Router<Arc<App>> {
    super::limit_bodies(
        Router::new().route("/api/analysis/record", post(analysis_record)),
        MAX_RECORD,
    )
}

async fn analysis_line(ApiJson(line): ApiJson<Line>) -> Result<Json<Value>> {
    Ok(Json(line_view(&line.replay()?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordForm {
    record: String,
}

async fn analysis_record(ApiJson(form): ApiJson<RecordForm>) -> Result<Json<Value>> {
    Ok(Json(line_view(&read_record(&form.record)?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineForm {
    /// The position to search: the end of this line.
    line: Line,
    /// How long to think, in milliseconds (default 2000, at most 10000).
    movetime_ms: Option<u64>,
}

async fn analysis_engine(
    State(app): Shared,
    client: ClientIp,
    MaybeCaller(user): MaybeCaller,
    ApiJson(form): ApiJson<EngineForm>,
) -> Result<Response> {
    let record = form.line.replay()?;
    let time = Duration::from_millis(form.movetime_ms.unwrap_or(2_000));
    let run = app
        .service
        .analyse(client.key(user.as_ref()), record.position().clone(), time)
        .await?;
    let lines = futures_util::stream::unfold(Some(run), |state| async move {
        let mut run = state?;
        let line = |value: Value| Ok::<_, Infallible>(Bytes::from(format!("{value}\n")));
        match run.progress.recv().await {
            Some(iteration) => Some((line(iteration_view(&iteration)), Some(run))),
            None => {
                let end = run.done.await.unwrap_or(Analysed::Failed);
                Some((line(analysed_view(&end)), None))
            }
        }
    });
    let mut response = Body::from_stream(lines).into_response();
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    Ok(response)
}
