//! Board dimensions.

use std::fmt;
use std::str::FromStr;

use crate::square::{MAX_DIMENSION, MIN_DIMENSION, Square};

/// The size of a board: files (columns) by ranks (rows), each from 4 to 26.
///
/// Written `FxR`, files first: the standard board is `14x12`. (pbmserv wrote
/// sizes as rows by columns; that reading belongs to its command layer.)
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoardSize {
    files: u8,
    ranks: u8,
}

impl BoardSize {
    /// The standard Epaminondas board, 14 files by 12 ranks.
    pub const STANDARD: BoardSize = BoardSize {
        files: 14,
        ranks: 12,
    };
    /// The 8x8 board of Crossings, Epaminondas's predecessor.
    pub const CROSSINGS: BoardSize = BoardSize { files: 8, ranks: 8 };

    /// A board of `files` by `ranks`, each from 4 to 26.
    pub fn new(files: u8, ranks: u8) -> Result<BoardSize, BoardSizeError> {
        let range = MIN_DIMENSION..=MAX_DIMENSION;
        if range.contains(&files) && range.contains(&ranks) {
            Ok(BoardSize { files, ranks })
        } else {
            Err(BoardSizeError::OutOfRange {
                files: files.into(),
                ranks: ranks.into(),
            })
        }
    }

    /// Number of files (columns).
    #[inline(always)]
    pub const fn files(self) -> u8 {
        self.files
    }

    /// Number of ranks (rows).
    #[inline(always)]
    pub const fn ranks(self) -> u8 {
        self.ranks
    }

    /// Number of squares.
    pub const fn squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Whether `square` lies on this board.
    pub const fn contains(self, square: Square) -> bool {
        square.file() < self.files && square.rank() < self.ranks
    }

    /// The board with files and ranks swapped: how a size written ranks
    /// first (pbmserv's `ROWSxCOLS`) is read, `"8x10".parse::<BoardSize>()?.transposed()`
    /// being 10 files by 8 ranks.
    pub const fn transposed(self) -> BoardSize {
        BoardSize {
            files: self.ranks,
            ranks: self.files,
        }
    }

    /// The squares of the board, rank 1 first, each rank from file `a`.
    pub fn all_squares(self) -> impl Iterator<Item = Square> {
        (0..self.ranks).flat_map(move |r| (0..self.files).filter_map(move |f| Square::new(f, r)))
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::STANDARD
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

/// Why a board size is not acceptable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardSizeError {
    /// The text is not of the form `FILESxRANKS`.
    Syntax(String),
    /// A dimension is outside 4..=26.
    OutOfRange {
        /// The files asked for.
        files: u32,
        /// The ranks asked for.
        ranks: u32,
    },
}

impl fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardSizeError::Syntax(text) => write!(
                f,
                "'{text}' is not a board size: expected FILESxRANKS, like 14x12"
            ),
            BoardSizeError::OutOfRange { files, ranks } => write!(
                f,
                "a {files}x{ranks} board is not supported: files and ranks must each be {MIN_DIMENSION} to {MAX_DIMENSION}"
            ),
        }
    }
}

impl std::error::Error for BoardSizeError {}

impl FromStr for BoardSize {
    type Err = BoardSizeError;

    /// Reads `FILESxRANKS`, like `14x12` or `8X8`.
    fn from_str(s: &str) -> Result<BoardSize, BoardSizeError> {
        let syntax = || BoardSizeError::Syntax(crate::excerpt(s));
        let (files, ranks) = s.trim().split_once(['x', 'X', '×']).ok_or_else(syntax)?;
        let number = |t: &str| -> Result<u32, BoardSizeError> {
            if t.is_empty() || t.len() > 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            t.parse().map_err(|_| syntax())
        };
        let (files, ranks) = (number(files)?, number(ranks)?);
        match (u8::try_from(files), u8::try_from(ranks)) {
            (Ok(f), Ok(r)) => BoardSize::new(f, r),
            _ => Err(BoardSizeError::OutOfRange { files, ranks }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_print_and_check_range() {
        assert_eq!("14x12".parse::<BoardSize>(), Ok(BoardSize::STANDARD));
        assert_eq!("8X8".parse::<BoardSize>(), Ok(BoardSize::CROSSINGS));
        assert_eq!(BoardSize::new(6, 5).unwrap().to_string(), "6x5");
        assert!(matches!(
            "3x12".parse::<BoardSize>(),
            Err(BoardSizeError::OutOfRange { files: 3, .. })
        ));
        assert!(matches!(
            "27x4".parse::<BoardSize>(),
            Err(BoardSizeError::OutOfRange { .. })
        ));
        assert!(matches!(
            "999999x4".parse::<BoardSize>(),
            Err(BoardSizeError::Syntax(_))
        ));
        for bad in ["", "x", "14", "14x", "ax12", "14x12x3", "-1x5"] {
            assert!(bad.parse::<BoardSize>().is_err(), "{bad}");
        }
        let msg = "3x12".parse::<BoardSize>().unwrap_err().to_string();
        assert!(msg.contains("4 to 26"), "{msg}");
    }
}
