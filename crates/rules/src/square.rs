//! Squares and the eight line directions.

use std::fmt;
use std::str::FromStr;

use crate::BoardSize;

/// The largest number of files or ranks a board may have.
pub const MAX_DIMENSION: u8 = 26;
/// The smallest number of files or ranks a board may have.
pub const MIN_DIMENSION: u8 = 4;

/// A square named by file and rank, independent of any board size.
///
/// Files are lettered `a`, `b`, ... from White's left and ranks numbered
/// from 1 on White's side; internally both count from zero. Whether the
/// square lies on a given board is a question for that board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    rank: u8,
    file: u8,
}

impl Square {
    /// The square on zero-based `file` and `rank`, if both are below 26.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_DIMENSION && rank < MAX_DIMENSION {
            Some(Square { file, rank })
        } else {
            None
        }
    }

    /// The square on `file` and `rank`, which the caller knows are below 26.
    #[inline(always)]
    pub(crate) const fn new_unchecked(file: u8, rank: u8) -> Square {
        debug_assert!(file < MAX_DIMENSION && rank < MAX_DIMENSION);
        Square { file, rank }
    }

    /// The square in the same rank and the mirrored file of a board of
    /// `size` (`a` and the last file swap); `None` when it is not on it.
    pub fn reflected(self, size: BoardSize) -> Option<Square> {
        let file = size.files().checked_sub(self.file + 1)?;
        Some(Square::new_unchecked(file, self.rank))
    }

    /// Zero-based file (`a` is 0).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.file
    }

    /// Zero-based rank (rank 1 is 0).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.rank
    }

    /// The square `steps` steps away in `direction`, if it is still within a 26x26 board.
    pub fn offset(self, direction: Direction, steps: i32) -> Option<Square> {
        let (df, dr) = direction.step();
        let steps = i64::from(steps);
        let file = i64::from(self.file) + i64::from(df) * steps;
        let rank = i64::from(self.rank) + i64::from(dr) * steps;
        let ok = |v: i64| (0..i64::from(MAX_DIMENSION)).contains(&v);
        (ok(file) && ok(rank)).then_some(Square {
            file: file as u8,
            rank: rank as u8,
        })
    }

    /// If `to` lies on a line from `self` (orthogonal or diagonal), the direction
    /// and the number of steps (at least 1).
    pub fn line_to(self, to: Square) -> Option<(Direction, u8)> {
        let df = i32::from(to.file) - i32::from(self.file);
        let dr = i32::from(to.rank) - i32::from(self.rank);
        if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let direction = Direction::from_step(df.signum(), dr.signum())?;
        Some((direction, df.abs().max(dr.abs()) as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file), self.rank + 1)
    }
}

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    text: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a square: expected a file letter a-z and a rank 1-26, like e5",
            self.text
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads `e5`, `E5`, `n12`: a letter then a rank from 1 to 26.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError {
            text: crate::excerpt(s),
        };
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(err)?;
        if !letter.is_ascii_alphabetic()
            || digits.is_empty()
            || digits.len() > 2
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return Err(err());
        }
        let rank: u32 = digits
            .iter()
            .fold(0, |acc, d| acc * 10 + u32::from(d - b'0'));
        if rank == 0 || rank > u32::from(MAX_DIMENSION) {
            return Err(err());
        }
        Ok(Square {
            file: letter.to_ascii_lowercase() - b'a',
            rank: (rank - 1) as u8,
        })
    }
}

/// One of the eight line directions, seen from White's side: north is
/// towards the higher ranks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Direction {
    /// Towards higher ranks.
    North,
    /// Towards higher ranks and later files.
    NorthEast,
    /// Towards later files.
    East,
    /// Towards lower ranks and later files.
    SouthEast,
    /// Towards lower ranks.
    South,
    /// Towards lower ranks and earlier files.
    SouthWest,
    /// Towards earlier files.
    West,
    /// Towards higher ranks and earlier files.
    NorthWest,
}

impl Direction {
    /// All eight directions, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The file and rank change of one step.
    #[inline(always)]
    pub const fn step(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The direction with the given file and rank step, each -1, 0 or 1 and not both 0.
    pub const fn from_step(df: i32, dr: i32) -> Option<Direction> {
        Some(match (df, dr) {
            (0, 1) => Direction::North,
            (1, 1) => Direction::NorthEast,
            (1, 0) => Direction::East,
            (1, -1) => Direction::SouthEast,
            (0, -1) => Direction::South,
            (-1, -1) => Direction::SouthWest,
            (-1, 0) => Direction::West,
            (-1, 1) => Direction::NorthWest,
            _ => return None,
        })
    }

    /// The direction seen in a mirror down the board's middle: east and
    /// west swap, north and south stay.
    pub const fn reflected(self) -> Direction {
        Direction::ALL[(8 - self as usize) % 8]
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 4) % 8]
    }

    /// Position in [`Direction::ALL`].
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_print() {
        for text in ["a1", "n12", "z26", "E5"] {
            let sq: Square = text.parse().unwrap();
            assert_eq!(sq.to_string(), text.to_ascii_lowercase());
        }
        for bad in ["", "a", "a0", "a27", "5a", "aa1", "a01", "a123", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reflections_swap_the_files_and_keep_the_ranks() {
        let size = BoardSize::new(5, 4).unwrap();
        let at = |text: &str| text.parse::<Square>().unwrap();
        assert_eq!(at("a1").reflected(size), Some(at("e1")));
        assert_eq!(at("c3").reflected(size), Some(at("c3")));
        assert_eq!(at("d4").reflected(size), Some(at("b4")));
        assert_eq!(at("f1").reflected(size), None);
        for (direction, mirrored) in Direction::ALL.into_iter().zip(Direction::ALL) {
            let (df, dr) = direction.step();
            assert_eq!(direction.reflected().step(), (-df, dr));
            assert_eq!(mirrored.reflected().reflected(), mirrored);
        }
    }

    #[test]
    fn offsets_stay_on_the_largest_board() {
        let z1: Square = "z1".parse().unwrap();
        assert_eq!(z1.offset(Direction::East, i32::MAX), None);
        assert_eq!(z1.offset(Direction::West, i32::MIN), None);
        assert_eq!(z1.offset(Direction::NorthWest, 25), "a26".parse().ok());
    }

    #[test]
    fn lines_between_squares() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(sq("e1").line_to(sq("e5")), Some((Direction::North, 4)));
        assert_eq!(sq("c5").line_to(sq("a3")), Some((Direction::SouthWest, 2)));
        assert_eq!(sq("a1").line_to(sq("b3")), None);
        assert_eq!(sq("a1").line_to(sq("a1")), None);
        for d in Direction::ALL {
            assert_eq!(d.opposite().opposite(), d);
            let (df, dr) = d.step();
            assert_eq!(Direction::from_step(df, dr), Some(d));
        }
    }
}
