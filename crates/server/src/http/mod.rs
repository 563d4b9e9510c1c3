//! The HTTP front door: the JSON API, the WebSocket and NDJSON event
//! streams, the bot API, the pbmserv command endpoint and the web site, as
//! an axum router over the [`Service`], split by area. Every response
//! carries the site's security headers; requests that change something (and
//! WebSocket upgrades) from another site's pages are refused.

mod accounts;
mod analysis;
mod bot;
mod challenges;
mod correspondence;
mod error;
pub mod extract;
mod games;
mod learn;
mod mail;
mod pbm;
mod players;
mod puzzles;
mod site;
mod streams;
mod tournaments;
pub mod views;

pub use error::status_and_code;

use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header::{
    CONTENT_LENGTH, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HOST, ORIGIN, REFERRER_POLICY,
    STRICT_TRANSPORT_SECURITY, UPGRADE, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use ipnet::IpNet;

use crate::error::Error;
use crate::service::Service;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "epaminondas_session";
/// The header that must carry the session's CSRF token on state-changing
/// requests signed in by cookie.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// The OpenAPI description of this interface.
const OPENAPI: &str = include_str!("../../openapi.json");
/// The largest request body accepted (a game record for the analysis board
/// may be larger: see [`analysis`]).
const MAX_BODY: usize = 64 * 1024;

/// The site's Content-Security-Policy: its own scripts, styles, images and
/// connections only, no plugins, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// How the HTTP door is set up.
#[derive(Clone, Debug, Default)]
pub struct HttpConfig {
    /// Proxies whose `Forwarded` / `X-Forwarded-For` headers are believed
    /// (the client's address is then the one they forward).
    pub trusted_proxies: Vec<IpNet>,
    /// Whether the session cookie is `Secure` (sent over HTTPS only).
    pub secure_cookies: bool,
    /// The site's public origin (`https://example.org`), when it runs
    /// behind a proxy that changes the `Host` header; pages from it may
    /// make requests like pages from the `Host` itself.
    pub public_origin: Option<String>,
    /// The token `epaminondas mail-in` must send to post mail from another
    /// machine (without it, only this machine may).
    pub mail_in_token: Option<String>,
}

impl HttpConfig {
    /// The setup for a site whose public address is `url` (if known):
    /// secure cookies and HSTS when it is `https://`.
    pub fn for_public_url(url: Option<&str>) -> HttpConfig {
        let origin = url.map(|u| {
            let u = u.trim_end_matches('/');
            match u.find("://").map(|i| i + 3) {
                Some(start) => match u[start..].find('/') {
                    Some(path) => u[..start + path].to_string(),
                    None => u.to_string(),
                },
                None => u.to_string(),
            }
        });
        HttpConfig {
            mail_in_token: None,
            trusted_proxies: Vec::new(),
            secure_cookies: origin.as_deref().is_some_and(|o| o.starts_with("https://")),
            public_origin: origin,
        }
    }
}

/// The state every handler sees.
pub struct App {
    /// The game domain.
    pub service: Arc<Service>,
    /// The door's setup.
    pub config: HttpConfig,
}

type Shared = State<Arc<App>>;

/// The router for the whole interface.
pub fn router(service: Arc<Service>, config: HttpConfig) -> Router {
    let app = Arc::new(App { service, config });
    let router = Router::new()
        .route("/api/health", get(|| async { "ok" }))
        .route("/api/openapi.json", get(openapi))
        .route("/api/options", get(options))
        .merge(accounts::routes())
        .merge(players::routes())
        .merge(challenges::routes())
        .merge(correspondence::routes())
        .merge(games::routes())
        .merge(tournaments::routes())
        .merge(learn::routes())
        .merge(puzzles::routes())
        .merge(streams::routes())
        .merge(bot::routes())
        .merge(analysis::routes())
        .merge(pbm::routes())
        .merge(mail::routes())
        .merge(site::routes())
        .fallback(|| async { error::not_found("no such page or API endpoint") });
    // Routes merged after the limit keep their own (larger) limit.
    let max_message = app
        .service
        .mail_settings()
        .map_or(1 << 20, |m| m.max_message_bytes);
    limit_bodies(router, MAX_BODY)
        .merge(analysis::record_routes())
        .merge(mail::inbound_routes(max_message))
        .layer(middleware::from_fn_with_state(app.clone(), same_site_only))
        .layer(middleware::from_fn_with_state(
            app.clone(),
            security_headers,
        ))
        .with_state(app)
}

async fn openapi() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], OPENAPI)
}

/// What the server offers, for the pages' forms: board sizes, symmetry
/// options, the variants (with their default boards), engine levels and
/// time controls.
async fn options() -> impl IntoResponse {
    use epaminondas_rules::{MAX_DIMENSION, MIN_DIMENSION, Symmetry};
    axum::Json(serde_json::json!({
        "boards": crate::service::offered_boards().iter().map(|b| b.to_string()).collect::<Vec<_>>(),
        "default_board": epaminondas_rules::BoardSize::STANDARD.to_string(),
        "dimensions": {"min": MIN_DIMENSION, "max": MAX_DIMENSION},
        "symmetry": Symmetry::ALL.iter().map(|s| s.name()).collect::<Vec<_>>(),
        "variants": epaminondas_rules::Variant::ALL.iter().map(|v| serde_json::json!({
            "name": v.name(),
            "title": v.title(),
            "summary": v.summary(),
            "default_board": v.default_size().to_string(),
            "default_symmetry": v.default_symmetry().name(),
        })).collect::<Vec<_>>(),
        "levels": {"min": 1, "max": 10},
        "colors": ["white", "black", "random"],
        "correspondence_days": {"min": 1, "max": 60},
        "analysis_max_ms": crate::service::MAX_ANALYSIS_MS,
    }))
}

/// Limits the request bodies of `router`'s routes to `max` bytes: a body
/// announced larger (`Content-Length`) is refused at once with 413, before
/// any of it is read, and a body sent without a length stops being read at
/// `max`.
pub fn limit_bodies<S: Clone + Send + Sync + 'static>(router: Router<S>, max: usize) -> Router<S> {
    router
        .layer(DefaultBodyLimit::max(max))
        .layer(middleware::from_fn(
            move |request: Request, next: Next| async move {
                let announced = request
                    .headers()
                    .get(CONTENT_LENGTH)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok());
                if announced.is_some_and(|length| length > max as u64) {
                    return error::too_large(max);
                }
                next.run(request).await
            },
        ))
}

/// Adds the security headers to every response.
async fn security_headers(State(app): Shared, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    headers.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    if app.config.secure_cookies {
        headers.insert(
            STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    response
}

/// Refuses requests that change something, and WebSocket upgrades, when a
/// browser says they come from another site's page (their `Origin` is
/// neither this host nor the configured public origin). Programs that send
/// no `Origin` are unaffected.
async fn same_site_only(State(app): Shared, request: Request, next: Next) -> Response {
    let changes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let upgrade = request.headers().contains_key(UPGRADE);
    if (changes || upgrade) && !same_origin(request.headers(), app.config.public_origin.as_deref())
    {
        return Error::forbidden("requests from other sites' pages are refused").into_response();
    }
    next.run(request).await
}

/// Whether the request's `Origin` (if it has one) is this site.
fn same_origin(headers: &HeaderMap, public_origin: Option<&str>) -> bool {
    let Some(origin) = headers.get(ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if public_origin.is_some_and(|p| p.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    let host = headers.get(HOST).and_then(|h| h.to_str().ok());
    matches!((authority, host), (Some(a), Some(h)) if a.eq_ignore_ascii_case(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every route of the router is described in the OpenAPI document.
    #[test]
    fn the_openapi_document_lists_every_route() {
        let doc: serde_json::Value = serde_json::from_str(OPENAPI).expect("valid JSON");
        let paths = doc["paths"].as_object().expect("paths");
        let sources = [
            include_str!("mod.rs"),
            include_str!("accounts.rs"),
            include_str!("analysis.rs"),
            include_str!("bot.rs"),
            include_str!("challenges.rs"),
            include_str!("correspondence.rs"),
            include_str!("games.rs"),
            include_str!("learn.rs"),
            include_str!("mail.rs"),
            include_str!("pbm.rs"),
            include_str!("players.rs"),
            include_str!("puzzles.rs"),
            include_str!("streams.rs"),
            include_str!("tournaments.rs"),
        ];
        let routes: Vec<&str> = sources
            .iter()
            .flat_map(|source| source.split(".route(\"").skip(1))
            .filter_map(|rest| rest.split('"').next())
            .collect();
        assert!(routes.len() > 25, "{routes:?}");
        for route in routes {
            assert!(
                paths.contains_key(route),
                "{route} is missing from openapi.json"
            );
        }
    }

    #[test]
    fn origins_are_compared_with_the_host() {
        let mut headers = HeaderMap::new();
        assert!(same_origin(&headers, None), "no Origin: not a browser");
        headers.insert(HOST, "play.example.org".parse().unwrap());
        headers.insert(ORIGIN, "https://play.example.org".parse().unwrap());
        assert!(same_origin(&headers, None));
        headers.insert(ORIGIN, "https://evil.example".parse().unwrap());
        assert!(!same_origin(&headers, None));
        headers.insert(ORIGIN, "null".parse().unwrap());
        assert!(!same_origin(&headers, None));
        headers.insert(HOST, "127.0.0.1:8080".parse().unwrap());
        headers.insert(ORIGIN, "https://play.example.org".parse().unwrap());
        assert!(same_origin(&headers, Some("https://play.example.org")));
    }

    #[test]
    fn a_public_https_url_makes_cookies_secure() {
        let config = HttpConfig::for_public_url(Some("https://play.example.org/lobby/"));
        assert!(config.secure_cookies);
        assert_eq!(
            config.public_origin.as_deref(),
            Some("https://play.example.org")
        );
        assert!(!HttpConfig::for_public_url(Some("http://localhost:8080")).secure_cookies);
        assert!(!HttpConfig::for_public_url(None).secure_cookies);
    }
}
