//! Teaching Epaminondas: the rules written for a newcomer (shown on the
//! site's `/learn` page and by terminal play's help), each part with an
//! example position, a short sequence of lessons whose every move is
//! judged here, by the rules library, so that no client holds rules, and
//! the puzzles, each proven by the engine's solver.
#![deny(missing_docs)]

pub mod guide;
pub mod lessons;
pub mod puzzles;

pub use guide::{Example, GUIDE, Section};
pub use lessons::{Goal, LESSONS, Lesson, Verdict};
