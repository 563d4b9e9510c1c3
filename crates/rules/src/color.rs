//! The two sides.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

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

/// The text named neither side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError(pub String);

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown side '{}': expected white or black", self.0)
    }
}

impl std::error::Error for ParseColorError {}

impl FromStr for Color {
    type Err = ParseColorError;

    /// Reads `white` or `black` (or the letters `w` and `b`), in any case.
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        let s = s.trim();
        Color::ALL
            .into_iter()
            .find(|c| {
                c.name().eq_ignore_ascii_case(s) || s.eq_ignore_ascii_case(&c.letter().to_string())
            })
            .ok_or_else(|| ParseColorError(crate::excerpt(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_back_what_they_print() {
        for color in Color::ALL {
            assert_eq!(color.to_string().parse::<Color>(), Ok(color));
            assert_eq!(color.letter().to_string().parse::<Color>(), Ok(color));
        }
        assert_eq!("BLACK".parse::<Color>(), Ok(Color::Black));
        let err = "red".parse::<Color>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown side 'red': expected white or black"
        );
        assert!("".parse::<Color>().is_err());
    }
}
