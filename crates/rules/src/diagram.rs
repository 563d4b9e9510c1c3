//! Text diagrams of positions in the style of pbmserv's e-mails: `o` for
//! White, `x` for Black, `.` for an empty square, `#` for a neutral stone
//! (Stumbling Blocks), the pieces that made the last move in capitals, rank numbers on the left and file letters below.
//!
//! ```text
//!  5  x x x . O .
//!  4  . . x . O .
//!  3  . . . . O .
//!  2  . o x . . .
//!  1  o . . . . .
//!
//!     A B C D E F
//! ```

use std::fmt;

use crate::{Color, Move, Position, Square};

/// The letter of `color`'s pieces in diagrams: `o` for White, `x` for Black.
pub const fn piece_letter(color: Color) -> char {
    match color {
        Color::White => 'o',
        Color::Black => 'x',
    }
}

/// The sign of a neutral stone (Stumbling Blocks) in diagrams.
pub const STONE_LETTER: char = '#';

/// The side's name with its letter, for text next to a diagram: `White (o)`.
pub const fn side_label(color: Color) -> &'static str {
    match color {
        Color::White => "White (o)",
        Color::Black => "Black (x)",
    }
}

/// A diagram of a position, ready to print with `Display`.
#[derive(Clone, Copy, Debug)]
pub struct Diagram<'a> {
    pos: &'a Position,
    last: Option<Move>,
    side: Color,
}

impl<'a> Diagram<'a> {
    /// The diagram of `pos` seen from White's side (rank 1 at the bottom).
    pub fn new(pos: &'a Position) -> Diagram<'a> {
        Diagram {
            pos,
            last: None,
            side: Color::White,
        }
    }

    /// Marks in capitals the pieces that `mv`, the move that led to the
    /// position, moved.
    pub fn last_move(self, mv: Move) -> Diagram<'a> {
        Diagram {
            last: Some(mv),
            ..self
        }
    }

    /// Seen from `side`'s side of the board: for Black, rank 1 is at the
    /// top and the files run from right to left.
    pub fn from_side(self, side: Color) -> Diagram<'a> {
        Diagram { side, ..self }
    }

    /// Whether the last move's group stands on `square` now.
    fn moved(&self, square: Square) -> bool {
        self.last
            .is_some_and(|mv| mv.landing_squares().any(|s| s == square))
    }
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.pos.size();
        let width = size.ranks().to_string().len();
        let mut ranks: Vec<u8> = (0..size.ranks()).collect();
        let mut files: Vec<u8> = (0..size.files()).collect();
        if self.side == Color::White {
            ranks.reverse();
        } else {
            files.reverse();
        }
        for &rank in &ranks {
            write!(f, "{:>width$} ", rank + 1)?;
            for &file in &files {
                let square = Square::new_unchecked(file, rank);
                let mark = match self.pos.piece_at(square) {
                    Some(color) => piece_letter(color),
                    None if self.pos.stone_at(square) => STONE_LETTER,
                    None => '.',
                };
                let mark = if self.moved(square) {
                    mark.to_ascii_uppercase()
                } else {
                    mark
                };
                write!(f, " {mark}")?;
            }
            writeln!(f)?;
        }
        writeln!(f)?;
        write!(f, "{:width$} ", "")?;
        for &file in &files {
            write!(f, " {}", char::from(b'A' + file))?;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_004_first_move_as_pbmserv_draws_it() {
        let mut pos: Position = "bbb3/2b3/4w1/1wb1w1/w3w1 w".parse().unwrap();
        let mv = pos.parse_move("e1,e3-e5").unwrap();
        pos.play(mv).unwrap();
        let text = Diagram::new(&pos).last_move(mv).to_string();
        assert_eq!(
            text,
            "5  x x x . O .\n\
             4  . . x . O .\n\
             3  . . . . O .\n\
             2  . o x . . .\n\
             1  o . . . . .\n\
             \n   A B C D E F\n"
        );
    }

    #[test]
    fn black_sees_the_board_turned() {
        let pos: Position = "4/b3/3w/4 w".parse().unwrap();
        let text = Diagram::new(&pos).from_side(Color::Black).to_string();
        assert_eq!(
            text,
            "1  . . . .\n\
             2  o . . .\n\
             3  . . . x\n\
             4  . . . .\n\
             \n   D C B A\n"
        );
        // Two-digit ranks keep the columns aligned.
        let standard = Diagram::new(&Position::standard()).to_string();
        assert!(standard.starts_with("12  x x"), "{standard}");
        assert!(standard.contains("\n 1  o o"), "{standard}");
    }
}
