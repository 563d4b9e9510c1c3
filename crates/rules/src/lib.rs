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
//! use epaminondas_rules::{Color, GameRecord, Position};
//!
//! let mut pos = Position::standard();
//! assert_eq!(pos.legal_moves().len(), 114);
//! assert_eq!(pos.perft(2), 12_996);
//!
//! // A move is read in the position it is played in: the text names the
//! // group's tail and head and where the head lands.
//! let mv = pos.parse_move("F1.G2 - H3").unwrap();
//! assert_eq!(mv.to_string(), "f1,g2-h3");
//! pos.play(mv).unwrap();
//! assert_eq!(pos.turn(), Color::Black);
//!
//! // Whole games are kept as records.
//! let record: GameRecord = "1. f1,g2-h3 e12,f11-h9 2. h1,h3-h6 *".parse().unwrap();
//! assert_eq!(record.moves().len(), 3);
//! ```
#![deny(missing_docs)]

mod bits;
mod board_size;
mod color;
mod core;
pub mod diagram;
mod excerpt;
#[cfg(target_feature = "bmi2")]
mod lines;
mod moves;
pub mod notation;
mod outcome;
mod position;
pub mod proof;
mod record;
mod setup;
mod square;
mod symmetry;
mod variant;
mod variant_core;
mod zobrist;

pub use board_size::{BoardSize, BoardSizeError};
pub use color::{Color, ParseColorError};
pub use diagram::Diagram;
pub use excerpt::{EXCERPT_CHARS, excerpt};
pub use moves::{Move, MoveList};
pub use notation::{Dialect, IllegalMove, ParseDialectError, ParseMoveError};
pub use outcome::{Outcome, WinReason};
pub use position::{PlayError, Position, PositionError, Survey};
pub use record::{Annotation, GameRecord, GameResult, MoveMark, RecordError, pgn_date};
pub use setup::{ParsePositionError, Setup};
pub use square::{Direction, MAX_DIMENSION, MIN_DIMENSION, ParseSquareError, Square};

/// Builds now the tables the library otherwise builds on first use (the
/// line table behind [`Position::survey_both`]: some tens of milliseconds),
/// so that a program pays for them when it starts rather than in its first
/// search. Calling it again does nothing.
pub fn build_tables() {
    #[cfg(target_feature = "bmi2")]
    lines::LineTable::get();
}
pub use symmetry::{ParseSymmetryError, Symmetry};
pub use variant::{ParseVariantError, STONES, Variant};
