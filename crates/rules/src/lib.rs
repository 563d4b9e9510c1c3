//! The rules of Robert Abbott's Epaminondas, exact and fast.
//!
//! Everything else in the project asks this crate about the rules: which moves
//! are legal, what a move does, when the game is over, how moves, positions and
//! games are written. It has no I/O, threads or clocks.
//!
//! The specification is the project's `RULES.md`. In brief: on a board of
//! 4 to 26 files and ranks (14x12 standard), a move shifts a phalanx (a
//! straight line of friendly pieces, or part of one that includes its front
//! end) up to its length along its line; its head may capture a strictly
//! shorter enemy line; a player who starts a turn with more pieces on the
//! goal rank than the opponent has on the other goal rank wins, and a player
//! with no legal move loses.
//!
//! ```
//! use epaminondas_rules::{Position, Color};
//!
//! let mut pos = Position::standard();
//! assert_eq!(pos.legal_moves().len(), 114);
//!
//! // Moves are read in the position they are played in.
//! let mv = pos.parse_move("f1,g2-h3").unwrap();
//! pos.play(mv).unwrap();
//! assert_eq!(pos.turn(), Color::Black);
//! assert_eq!(pos.perft(2), 13_236);
//! ```
#![deny(missing_docs)]

mod bits;
mod board_size;
mod color;
mod core;
mod moves;
mod outcome;
mod position;
mod setup;
mod square;
mod symmetry;
mod zobrist;

pub use board_size::{BoardSize, BoardSizeError};
pub use color::Color;
pub use moves::{Move, MoveList};
pub use outcome::{Outcome, WinReason};
pub use position::{IllegalMoveError, Position, PositionError};
pub use setup::{ParsePositionError, Setup};
pub use square::{Direction, MAX_DIMENSION, MIN_DIMENSION, ParseSquareError, Square};
pub use symmetry::{ParseSymmetryError, Symmetry};
