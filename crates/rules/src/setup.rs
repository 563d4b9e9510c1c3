//! Unvalidated positions and the position text format (RULES.md section 5).
//!
//! Position text lists the ranks from the top rank down to rank 1, separated
//! by `/`; in a rank `w` and `b` are pieces, `s` a neutral stone (Stumbling
//! Blocks, RULES.md section 7.3) and a decimal number is that many empty
//! squares. A space and the side to move (`w` or `b`) follow. The board size
//! follows from the text.

use std::fmt;
use std::str::FromStr;

use crate::square::{MAX_DIMENSION, MIN_DIMENSION};
use crate::{BoardSize, Color, Square};

/// A position as written down, not yet checked: any list of pieces on a board
/// of some size, and the side to move. [`crate::Position::from_setup`] checks
/// it and names what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board size.
    pub size: BoardSize,
    /// The pieces, in any order.
    pub pieces: Vec<(Square, Color)>,
    /// The neutral stones of Stumbling Blocks, in any order (none in the
    /// other variants).
    pub stones: Vec<Square>,
    /// The side to move.
    pub turn: Color,
}

/// What a square of position text holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Content {
    Piece(Color),
    Stone,
}

impl Setup {
    /// The setup seen in a mirror down the middle of the board: files `a`
    /// and last swap, ranks and the side to move stay. The rules are the
    /// same both ways, so a position's reflection is worth what it is. A
    /// square off the board stays as it is, for the check to name.
    pub fn reflected(&self) -> Setup {
        let size = self.size;
        let across = |square: Square| square.reflected(size).unwrap_or(square);
        Setup {
            size,
            pieces: self.pieces.iter().map(|&(sq, c)| (across(sq), c)).collect(),
            stones: self.stones.iter().map(|&sq| across(sq)).collect(),
            turn: self.turn,
        }
    }

    /// The starting position on a board of `size`: White fills ranks 1 and 2,
    /// Black the top two ranks, White to move.
    pub fn start(size: BoardSize) -> Setup {
        let top = size.ranks() - 1;
        let pieces = size
            .all_squares()
            .filter_map(|sq| match sq.rank() {
                0 | 1 => Some((sq, Color::White)),
                r if r + 1 >= top => Some((sq, Color::Black)),
                _ => None,
            })
            .collect();
        Setup {
            size,
            pieces,
            stones: Vec::new(),
            turn: Color::White,
        }
    }

    /// The position whose ranks are `rows`, top rank first, one character a
    /// square (`w` White, `b` Black, `s` a stone, `.` or `-` empty), with
    /// `turn` to move: the board editor's format.
    ///
    /// ```
    /// use epaminondas_rules::{Color, Setup};
    /// let setup = Setup::from_rows(&["b...", "....", "....", "...w"], Color::White).unwrap();
    /// assert_eq!(setup.to_string(), "b3/4/4/3w w");
    /// assert_eq!(setup.rows(), ["b...", "....", "....", "...w"]);
    /// ```
    pub fn from_rows<S: AsRef<str>>(rows: &[S], turn: Color) -> Result<Setup, ParsePositionError> {
        let max = usize::from(MAX_DIMENSION);
        if rows.len() > max {
            return Err(ParsePositionError::RankCount(rows.len()));
        }
        let mut cells = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let rank = rows.len() - i;
            let mut cell_row = Vec::new();
            for found in row.as_ref().chars() {
                if cell_row.len() == max {
                    return Err(ParsePositionError::FileCount(row.as_ref().chars().count()));
                }
                cell_row.push(match found {
                    'w' | 'W' => Some(Content::Piece(Color::White)),
                    'b' | 'B' => Some(Content::Piece(Color::Black)),
                    's' | 'S' => Some(Content::Stone),
                    '.' | '-' => None,
                    found => return Err(ParsePositionError::UnknownSquare { found, rank }),
                });
            }
            cells.push(cell_row);
        }
        let (size, pieces, stones) = board_from_cells(cells)?;
        Ok(Setup {
            size,
            pieces,
            stones,
            turn,
        })
    }

    /// The ranks, top rank first, one character a square: `w`, `b`, `s` or
    /// `.` (the format [`Setup::from_rows`] reads).
    pub fn rows(&self) -> Vec<String> {
        let files = usize::from(self.size.files());
        self.grid()
            .chunks(files)
            .rev()
            .map(|rank| {
                rank.iter()
                    .map(|cell| cell.map_or('.', Content::letter))
                    .collect()
            })
            .collect()
    }

    /// What stands on each square, rank 1 first; later entries win where a
    /// square is listed twice (stones after pieces), and squares off the
    /// board are left out.
    fn grid(&self) -> Vec<Option<Content>> {
        let files = usize::from(self.size.files());
        let mut grid = vec![None; self.size.squares()];
        let contents = self
            .pieces
            .iter()
            .map(|&(sq, color)| (sq, Content::Piece(color)))
            .chain(self.stones.iter().map(|&sq| (sq, Content::Stone)));
        for (sq, content) in contents {
            if self.size.contains(sq) {
                grid[usize::from(sq.rank()) * files + usize::from(sq.file())] = Some(content);
            }
        }
        grid
    }
}

impl Content {
    fn letter(self) -> char {
        match self {
            Content::Piece(color) => color.letter(),
            Content::Stone => 's',
        }
    }
}

impl fmt::Display for Setup {
    /// The position text, like
    /// `bbbbbbbbbbbbbb/bbbbbbbbbbbbbb/14/14/14/14/14/14/14/14/wwwwwwwwwwwwww/wwwwwwwwwwwwww w`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let files = usize::from(self.size.files());
        let grid = self.grid();
        for (i, rank) in grid.chunks(files).rev().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            let mut gap = 0;
            for cell in rank {
                match cell {
                    None => gap += 1,
                    Some(content) => {
                        if gap > 0 {
                            write!(f, "{gap}")?;
                            gap = 0;
                        }
                        write!(f, "{}", content.letter())?;
                    }
                }
            }
            if gap > 0 {
                write!(f, "{gap}")?;
            }
        }
        write!(f, " {}", self.turn.letter())
    }
}

/// Why position text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// The text is empty.
    Empty,
    /// The side to move is missing after the board.
    MissingTurn,
    /// The side to move is not `w` or `b`.
    BadTurn(String),
    /// Something follows the side to move.
    TrailingText(String),
    /// A rank holds a character that is neither a piece, a stone nor a digit.
    UnknownPiece {
        /// The character found.
        found: char,
        /// The rank (1-based) it was found on.
        rank: usize,
    },
    /// A square of a rank given as rows (see [`Setup::from_rows`]) is not
    /// `w`, `b`, `s`, `.` or `-`.
    UnknownSquare {
        /// The character found.
        found: char,
        /// The rank (1-based) it was found on.
        rank: usize,
    },
    /// A number of empty squares is 0 or absurdly long.
    BadEmptyCount {
        /// The number as written.
        text: String,
        /// The rank (1-based) it was found on.
        rank: usize,
    },
    /// A rank does not have as many squares as the top rank.
    RankLength {
        /// The rank (1-based).
        rank: usize,
        /// The squares it describes.
        found: usize,
        /// The squares of the top rank.
        expected: usize,
    },
    /// The board has too few or too many ranks.
    RankCount(usize),
    /// The board has too few or too many files.
    FileCount(usize),
    /// The text is well formed but not a playable position (too many
    /// stones, or stones on a board too small for them).
    Invalid(crate::PositionError),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePositionError::*;
        match self {
            Empty => write!(f, "the position text is empty"),
            MissingTurn => write!(
                f,
                "the side to move is missing: end the position with ' w' or ' b'"
            ),
            BadTurn(t) => write!(f, "unknown side to move '{t}': expected w or b"),
            TrailingText(t) => write!(f, "unexpected text '{t}' after the side to move"),
            UnknownPiece { found, rank } => write!(
                f,
                "unknown piece '{found}' at rank {rank}: expected w, b, s (a stone) or a number of empty squares"
            ),
            UnknownSquare { found, rank } => write!(
                f,
                "unknown square '{found}' at rank {rank}: expected w, b, s (a stone) or . (empty)"
            ),
            BadEmptyCount { text, rank } => {
                write!(
                    f,
                    "'{text}' at rank {rank} is not a number of empty squares"
                )
            }
            RankLength {
                rank,
                found,
                expected,
            } => write!(f, "rank {rank} has {found} squares, expected {expected}"),
            RankCount(n) => write!(
                f,
                "the board has {n} ranks: it must have {MIN_DIMENSION} to {MAX_DIMENSION}"
            ),
            FileCount(n) => write!(
                f,
                "the board has {n} files: it must have {MIN_DIMENSION} to {MAX_DIMENSION}"
            ),
            Invalid(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Setup {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Setup, ParsePositionError> {
        let mut fields = s.split_whitespace();
        let board = fields.next().ok_or(ParsePositionError::Empty)?;
        let (size, pieces, stones) = parse_board(board)?;
        let turn = match fields.next() {
            None => return Err(ParsePositionError::MissingTurn),
            Some("w" | "W") => Color::White,
            Some("b" | "B") => Color::Black,
            Some(other) => return Err(ParsePositionError::BadTurn(crate::excerpt(other))),
        };
        if let Some(extra) = fields.next() {
            return Err(ParsePositionError::TrailingText(crate::excerpt(extra)));
        }
        Ok(Setup {
            size,
            pieces,
            stones,
            turn,
        })
    }
}

/// The size, pieces and stones of a board.
type Board = (BoardSize, Vec<(Square, Color)>, Vec<Square>);

/// Reads the board part of position text: its size, pieces and stones.
fn parse_board(board: &str) -> Result<Board, ParsePositionError> {
    let max = usize::from(MAX_DIMENSION);
    let rows: Vec<&str> = board.split('/').collect();
    let ranks = rows.len();
    if !(usize::from(MIN_DIMENSION)..=max).contains(&ranks) {
        return Err(ParsePositionError::RankCount(ranks));
    }
    // Each rank as a list of cells, top rank first; rank numbers count from the bottom.
    let mut cells: Vec<Vec<Option<Content>>> = Vec::with_capacity(ranks);
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks - i;
        let mut cell_row = Vec::new();
        let mut chars = row.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            match c {
                'w' | 'W' => cell_row.push(Some(Content::Piece(Color::White))),
                'b' | 'B' => cell_row.push(Some(Content::Piece(Color::Black))),
                's' | 'S' => cell_row.push(Some(Content::Stone)),
                '0'..='9' => {
                    let mut end = start + 1;
                    while let Some(&(j, d)) = chars.peek() {
                        if !d.is_ascii_digit() {
                            break;
                        }
                        end = j + 1;
                        chars.next();
                    }
                    let text = &row[start..end];
                    let count: usize = match text.parse() {
                        Ok(n) if n > 0 && !text.starts_with('0') => n,
                        _ => {
                            return Err(ParsePositionError::BadEmptyCount {
                                text: crate::excerpt(text),
                                rank,
                            });
                        }
                    };
                    if cell_row.len() + count > max {
                        return Err(ParsePositionError::FileCount(cell_row.len() + count));
                    }
                    cell_row.extend(std::iter::repeat_n(None, count));
                }
                found => return Err(ParsePositionError::UnknownPiece { found, rank }),
            }
            if cell_row.len() > max {
                return Err(ParsePositionError::FileCount(cell_row.len()));
            }
        }
        cells.push(cell_row);
    }
    board_from_cells(cells)
}

/// The size, pieces and stones of a board given as its ranks' cells, top
/// rank first: the ranks must all be as wide, and the board from 4x4 to 26x26.
fn board_from_cells(cells: Vec<Vec<Option<Content>>>) -> Result<Board, ParsePositionError> {
    let max = usize::from(MAX_DIMENSION);
    let ranks = cells.len();
    if !(usize::from(MIN_DIMENSION)..=max).contains(&ranks) {
        return Err(ParsePositionError::RankCount(ranks));
    }
    // The width most ranks agree on (the top rank's on a tie); the first rank
    // that differs is the one to blame.
    let lengths: Vec<usize> = cells.iter().map(Vec::len).collect();
    let agreeing = |len: usize| lengths.iter().filter(|&&l| l == len).count();
    let files = lengths.iter().copied().fold(lengths[0], |best, len| {
        if agreeing(len) > agreeing(best) {
            len
        } else {
            best
        }
    });
    if let Some(i) = lengths.iter().position(|&len| len != files) {
        return Err(ParsePositionError::RankLength {
            rank: ranks - i,
            found: lengths[i],
            expected: files,
        });
    }
    if !(usize::from(MIN_DIMENSION)..=max).contains(&files) {
        return Err(ParsePositionError::FileCount(files));
    }
    let size = BoardSize::new(files as u8, ranks as u8)
        .map_err(|_| ParsePositionError::FileCount(files))?;
    let (mut pieces, mut stones) = (Vec::new(), Vec::new());
    for (i, row) in cells.iter().enumerate() {
        let rank = (ranks - 1 - i) as u8;
        for (file, cell) in row.iter().enumerate() {
            match (cell, Square::new(file as u8, rank)) {
                (Some(Content::Piece(color)), Some(sq)) => pieces.push((sq, *color)),
                (Some(Content::Stone), Some(sq)) => stones.push(sq),
                _ => {}
            }
        }
    }
    Ok((size, pieces, stones))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str =
        "bbbbbbbbbbbbbb/bbbbbbbbbbbbbb/14/14/14/14/14/14/14/14/wwwwwwwwwwwwww/wwwwwwwwwwwwww w";

    #[test]
    fn standard_start_text() {
        assert_eq!(Setup::start(BoardSize::STANDARD).to_string(), START);
        let parsed: Setup = START.parse().unwrap();
        assert_eq!(parsed.size, BoardSize::STANDARD);
        assert_eq!(parsed.pieces.len(), 56);
        assert_eq!(parsed.to_string(), START);
    }

    #[test]
    fn errors_name_the_problem() {
        let err = |s: &str| s.parse::<Setup>().unwrap_err().to_string();
        assert_eq!(
            err(
                "bbbbbbbbbbbbbb/bbbbbbbbbbbbbb/14/14/14/14/14/14/14/15/wwwwwwwwwwwwww/wwwwwwwwwwwwww w"
            ),
            "rank 3 has 15 squares, expected 14"
        );
        assert_eq!(
            err(
                "bbbbbbbbbbbbbb/bbbbbbbbbbbbbb/14/14/14/7x6/14/14/14/14/wwwwwwwwwwwwww/wwwwwwwwwwwwww w"
            ),
            "unknown piece 'x' at rank 7: expected w, b, s (a stone) or a number of empty squares"
        );
        assert!(err("").contains("empty"));
        assert!(err("4/4/4/4").contains("side to move is missing"));
        assert!(err("4/4/4/4 x").contains("'x'"));
        assert!(err("4/4/4/4 w extra").contains("extra"));
        assert!(err("4/4/4 w").contains("3 ranks"));
        assert!(err("3/3/3/3 w").contains("3 files"));
        assert!(err("4/4/04/4 w").contains("'04'"));
        assert!(err("4/4/99999999999999999999/4 w").contains("rank 2"));
        assert!(err("1000/4/4/4 w").contains("1000 files"));
        // The odd rank out is blamed, even at the top.
        assert_eq!(
            err("15/14/14/14/14/14/14/14/14/14/14/14 w"),
            "rank 12 has 15 squares, expected 14"
        );
        assert!(err(&vec!["4"; 27].join("/")).contains("27 ranks"));
    }

    #[test]
    fn counts_above_nine() {
        let s: Setup =
            "w25/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/25b b"
                .parse()
                .unwrap();
        assert_eq!(s.size, BoardSize::new(26, 26).unwrap());
        assert_eq!(s.pieces.len(), 2);
        assert_eq!(s.turn, Color::Black);
    }

    #[test]
    fn rows_read_and_print_the_editor_format() {
        let rows = ["b.b.", "....", "-..-", ".w.w"];
        let setup = Setup::from_rows(&rows, Color::Black).unwrap();
        assert_eq!(setup.to_string(), "b1b1/4/4/1w1w b");
        assert_eq!(setup.rows(), ["b.b.", "....", "....", ".w.w"]);
        let start = Setup::start(BoardSize::new(5, 4).unwrap());
        // The pieces may come in another order: the text is the comparison.
        let reread = Setup::from_rows(&start.rows(), Color::White).map(|s| s.to_string());
        assert_eq!(reread, Ok(start.to_string()));
        let err = |rows: &[&str]| Setup::from_rows(rows, Color::White).unwrap_err();
        assert_eq!(
            err(&["w...", "....", "...x", "...."]),
            ParsePositionError::UnknownSquare {
                found: 'x',
                rank: 2
            }
        );
        assert_eq!(
            err(&["....", ".....", "....", "...."]).to_string(),
            "rank 3 has 5 squares, expected 4"
        );
        assert_eq!(
            err(&["...", "...", "..."]),
            ParsePositionError::RankCount(3)
        );
        assert_eq!(err(&[]), ParsePositionError::RankCount(0));
        let wide = ".".repeat(1_000);
        assert_eq!(
            err(&[&wide, &wide, &wide, &wide]),
            ParsePositionError::FileCount(1_000)
        );
    }

    #[test]
    fn stones_are_written_s() {
        let setup: Setup = "5/5/1s3/5/5 w".parse().unwrap();
        assert_eq!(setup.stones, [Square::new(1, 2).unwrap()]);
        assert!(setup.pieces.is_empty());
        assert_eq!(setup.to_string(), "5/5/1s3/5/5 w");
        assert_eq!(setup.rows()[2], ".s...");
        let rows = Setup::from_rows(&setup.rows(), Color::White).unwrap();
        assert_eq!(rows, setup);
    }

    #[test]
    fn errors_quote_only_a_prefix_of_long_input() {
        let long = format!("4/4/4/4 {}", "x".repeat(10_000));
        let message = long.parse::<Setup>().unwrap_err().to_string();
        assert!(message.len() < 120, "{message}");
    }
}
