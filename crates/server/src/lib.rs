//! The Epaminondas game server, a modern pbmserv: accounts, challenges,
//! correspondence and live games, games against the engine, Glicko-2
//! ratings, live event streams, a bot API and pbmserv's plain-text
//! commands, on SQLite (one process) or PostgreSQL (several processes).
//!
//! The rules library decides every rule question; this crate keeps games,
//! players and time.
#![deny(missing_docs)]

pub mod analysis;
pub mod auth;
pub mod board;
pub mod challenge;
pub mod clock;
pub mod db;
pub mod engines;
pub mod error;
pub mod game;
pub mod glicko;
pub mod http;
pub mod hub;
pub mod pbm;
pub mod service;
pub mod site;
pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;

/// Serves the interface on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    service: Arc<service::Service>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = http::router(service).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}
