//! The server's integration tests, in one test binary: the server's crates
//! and their generic code are compiled and linked once for all of them,
//! not once per file (as eleven binaries they took 8 min 30 s to build
//! again after a change, as one 1 min 20 s).

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
