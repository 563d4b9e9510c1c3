//! How a game ends under the rules.

use std::fmt;

use crate::Color;

/// Why the rules declared a winner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    /// At the start of the winner's turn, the winner had more pieces on its
    /// goal rank than the loser had on its own goal rank.
    Crossing,
    /// The loser had no legal move on its turn.
    NoMoves,
}

/// The end of a game decided by the rules (there are no draws in the rules).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// Who won.
    pub winner: Color,
    /// Why.
    pub reason: WinReason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            WinReason::Crossing => write!(f, "{} wins by crossing", self.winner),
            WinReason::NoMoves => write!(
                f,
                "{} wins: {} has no legal move",
                self.winner, !self.winner
            ),
        }
    }
}
