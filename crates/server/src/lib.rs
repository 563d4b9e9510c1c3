//! The Epaminondas game server, a modern pbmserv: accounts, challenges,
//! correspondence and live games, games against the engine, Glicko-2
//! ratings, live event streams, a bot API and pbmserv's plain-text
//! commands, on SQLite (one process) or PostgreSQL (several processes).
//!
//! The shape is one game domain behind several front doors:
//! - the domain: [`game`] (one game's rules of play, clocks and offers,
//!   pure), [`challenge`], [`auth`], [`events`], [`engines`], [`limits`],
//!   and [`service`], whose operations every door calls, answering with
//!   plain data or an [`error::Error`];
//! - storage: [`store`] (the queries) on [`db`];
//! - the doors: [`http`] (the JSON API, streams, bot API and web site) and
//!   [`pbm`] (pbmserv's text commands), each turning the domain's answers
//!   and refusals into its own form.
//!
//! The rules library decides every rule question; this crate keeps games,
//! players and time.
#![deny(missing_docs)]

pub mod analysis;
pub mod auth;
pub mod challenge;
pub mod clock;
pub mod conditional;
pub mod db;
pub mod engines;
pub mod error;
pub mod events;
pub mod game;
pub mod glicko;
pub mod http;
pub mod limits;
pub mod mail;
pub mod pbm;
pub mod service;
pub mod store;
pub mod tournament;

use std::net::SocketAddr;
use std::sync::Arc;

/// Serves the HTTP door, set up by `config`, on `listener` until `shutdown`
/// completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    service: Arc<service::Service>,
    config: http::HttpConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = http::router(service, config).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}
