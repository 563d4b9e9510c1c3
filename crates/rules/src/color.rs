//! The two sides.

use std::fmt;
use std::ops::Not;

/// One of the two players. White (also called Light, player 1) moves first
/// from ranks 1 and 2; Black (Dark, player 2) starts on the top two ranks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The first player, whose home rank is rank 1.
    White,
    /// The second player, whose home rank is the top rank.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: an index for per-side arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used in position text: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The lower-case name, `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
