//! An Epaminondas engine: it chooses moves by alpha-beta search over the
//! rules of [`epaminondas_rules`].
//!
//! The parts are kept apart as in the strong chess engines: [`search`]
//! (iterative deepening principal variation search with quiescence, check
//! extensions, pruning and lazy SMP threads), [`eval`] (the static
//! evaluation), [`tune`] (fitting its weights to game results), [`tt`] (the
//! shared transposition table), [`limits`] (depth, node and time limits and
//! the time budget), [`score`] (how wins and losses are scored), [`level`]
//! (strength levels for people), [`book`] (opening books), [`solver`] (proofs of forced wins within
//! a number of plies), [`dfpn`] (full solving by proof-number search) and
//! [`ugi`] (the text protocol).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use epaminondas_engine::{Engine, Limits};
//! use epaminondas_rules::Position;
//!
//! let mut engine = Engine::new(16);
//! let pos = Position::standard();
//! let result = engine.search(&pos, &Limits::depth(2), &AtomicBool::new(false), |_| {});
//! assert!(pos.is_legal(result.best.unwrap()));
//! ```
#![deny(missing_docs)]

pub mod book;
pub mod dfpn;
pub mod eval;
pub mod level;
pub mod limits;
pub mod memory;
pub mod nnue;
pub mod proven;
pub mod review;
pub mod score;
pub mod search;
pub mod solver;
pub mod tt;
pub mod tune;
pub mod ugi;

pub use level::Level;
pub use limits::{Clock, Limits};
pub use search::{Engine, Features, SearchInfo, SearchResult};
