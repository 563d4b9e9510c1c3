//! The server's integration tests, in one test binary: the server's crates
//! and their generic code are compiled and linked once for all of them,
//! not once per file (the cold test build of CI spent most of its time on
//! those copies).

#[macro_use]
mod common;
mod relay;

mod api;
mod concurrency;
mod correspondence;
mod game_analysis;
mod learn;
mod lifecycle;
mod mail;
mod puzzles;
mod security;
mod tournaments;
mod variants;
