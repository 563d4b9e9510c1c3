//! The web site's routes: every page path answers with the one HTML page
//! (its script draws the view the path names), and `/assets/` serves the
//! style sheet and scripts built into the binary.

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;

use super::App;

/// The paths of the site's pages.
pub const PAGES: &[&str] = &[
    "/",
    "/game/{id}",
    "/analysis",
    "/signin",
    "/signup",
    "/forgot",
    "/players",
    "/profile/{name}",
    "/settings",
    "/tournaments",
    "/tournament/{id}",
    "/league/{id}",
    "/learn",
    "/puzzles",
    "/puzzle/{id}",
];

/// The routes of the pages and their files.
pub fn routes() -> Router<Arc<App>> {
    let mut router = Router::new().route("/assets/{*path}", get(asset));
    for page in PAGES {
        router = router.route(page, get(index));
    }
    router
}

async fn index() -> Response {
    (
        [(CACHE_CONTROL, "no-cache")],
        Html(epaminondas_web::INDEX_HTML),
    )
        .into_response()
}

async fn asset(Path(path): Path<String>) -> Response {
    match epaminondas_web::asset(&path) {
        // The files change only with the binary: revalidate on each load, so
        // that a new build is picked up at once.
        Some(asset) => (
            [
                (CONTENT_TYPE, asset.content_type),
                (CACHE_CONTROL, "no-cache"),
            ],
            asset.body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
