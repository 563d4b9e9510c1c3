//! Opening books: for the first positions of a game, the moves that long
//! searches found best, and how often to play each.
//!
//! The engine plays from its book while the position is in it (UGI option
//! `OwnBook`, on by default): a book move costs no search, and choosing
//! among near-equal moves at random varies the engine's games. Books for
//! the standard game on 14x12 and on 8x8 are built in ([`Book::embedded`]);
//! `epaminondas book` builds them ([`build`]).
//!
//! # File format
//!
//! A book is text, one item a line; `#` starts a comment and blank lines
//! are skipped:
//!
//! ```text
//! epaminondas-book 1
//! game epaminondas 8x8 mirror
//! start | b2-b3 100 12 | g2-g3 57 4
//! b2-b3 | g7-g6 100 -10
//! ```
//!
//! The first line names the format and its version; the second the game:
//! variant, board (`FILESxRANKS`) and symmetry option. Each further line is
//! an entry: the position, as the moves that reach it from the start
//! (`start` for the start itself), then `|` and each book move with its
//! weight (1 to 1000: how often it is chosen, against the other moves'
//! weights) and the search's score for the side to move (hundredths of a
//! piece, or `win N` / `loss N` for a game that ends in `N` plies).
//!
//! Positions are named by moves rather than by hash keys, so that a book
//! does not depend on the keys of one build and can be read and checked by
//! hand. Reading a book replays every line through the rules: an illegal
//! or unknown move is refused with its line number.

pub mod build;

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use epaminondas_rules::{BoardSize, Move, Position, Symmetry, Variant};

use crate::score::{WIN, is_proven};

/// The first word of a book file.
const MAGIC: &str = "epaminondas-book";
/// The format version this build reads and writes.
const VERSION: u32 = 1;
/// The largest weight a book move may have.
pub const MAX_WEIGHT: u32 = 1000;
/// The most moves one entry may list.
pub const MAX_MOVES: usize = 64;
/// The most entries a book may hold (a bound on the memory a file can take).
pub const MAX_ENTRIES: usize = 1_000_000;

/// The built-in book for the standard game on 14x12.
const STANDARD_BOOK: &str = include_str!("../../books/epaminondas-14x12.book");
/// The built-in book for the standard game on 8x8.
const SMALL_BOOK: &str = include_str!("../../books/epaminondas-8x8.book");

/// Random numbers for choosing among book moves (splitmix64): varied from
/// run to run, not for anything that needs secrecy.
#[derive(Clone, Debug)]
pub struct BookRandom(u64);

impl BookRandom {
    /// A generator seeded by `seed`: the same seed, the same choices.
    pub fn new(seed: u64) -> BookRandom {
        BookRandom(seed)
    }

    /// A generator seeded by the clock and the process.
    pub fn from_time() -> BookRandom {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |t| t.as_nanos() as u64);
        BookRandom(nanos ^ u64::from(std::process::id()).rotate_left(32))
    }

    /// The next number, uniform over all of `u64`.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }
}

/// A move of a book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// How often it is chosen, against the weights of the entry's other
    /// moves (1 to [`MAX_WEIGHT`]).
    pub weight: u32,
    /// The score the search gave it, for the side to move, in the engine's
    /// units ([`crate::score`]).
    pub score: i32,
}

/// A position of the book and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The moves that reach the position from the start.
    pub line: Vec<Move>,
    /// The moves to choose from, best first.
    pub moves: Vec<BookMove>,
}

/// What is wrong with a book, or with an entry added to one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file does not start with `epaminondas-book VERSION`.
    NotABook,
    /// A version this build does not read.
    Version(String),
    /// The `game` line is missing or wrong.
    Game {
        /// The line number (from 1).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// An entry cannot be read or is not legal.
    Entry {
        /// The line number (from 1); 0 for an entry added by a program.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The book holds more than [`MAX_ENTRIES`] entries.
    TooLarge,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotABook => write!(
                f,
                "not an opening book: the first line must be '{MAGIC} {VERSION}'"
            ),
            BookError::Version(found) => write!(
                f,
                "book format version {found} is not read by this build (it reads {VERSION})"
            ),
            BookError::Game { line, reason } => write!(f, "line {line}: {reason}"),
            BookError::Entry { line: 0, reason } => write!(f, "{reason}"),
            BookError::Entry { line, reason } => write!(f, "line {line}: {reason}"),
            BookError::TooLarge => write!(f, "the book holds more than {MAX_ENTRIES} entries"),
        }
    }
}

impl std::error::Error for BookError {}

/// An opening book for one game: a variant on one board with one symmetry
/// option.
#[derive(Clone, Debug)]
pub struct Book {
    variant: Variant,
    size: BoardSize,
    symmetry: Symmetry,
    entries: Vec<BookEntry>,
    /// Entry index by the position's hash.
    index: HashMap<u64, usize>,
}

impl Book {
    /// An empty book for `variant` on `size` with `symmetry`; `None` if the
    /// variant cannot be played there.
    pub fn new(variant: Variant, size: BoardSize, symmetry: Symmetry) -> Option<Book> {
        Position::new_variant(variant, size, symmetry).ok()?;
        Some(Book {
            variant,
            size,
            symmetry,
            entries: Vec::new(),
            index: HashMap::new(),
        })
    }

    /// The built-in book for the game `pos` belongs to, if there is one
    /// (the standard game on 14x12 and on 8x8, symmetry option `mirror`).
    pub fn embedded(pos: &Position) -> Option<&'static Book> {
        static BOOKS: OnceLock<Vec<Book>> = OnceLock::new();
        BOOKS
            .get_or_init(|| {
                [STANDARD_BOOK, SMALL_BOOK]
                    .into_iter()
                    // A built-in book is checked by the tests; one that
                    // failed to read would only mean playing without it.
                    .filter_map(|text| Book::parse(text).ok())
                    .collect()
            })
            .iter()
            .find(|book| book.suits(pos))
    }

    /// The start of the book's game.
    pub fn start(&self) -> Position {
        Position::new_variant(self.variant, self.size, self.symmetry)
            .unwrap_or_else(|_| Position::new(self.size, self.symmetry))
    }

    /// The book's variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The book's board.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The book's symmetry option.
    pub fn symmetry(&self) -> Symmetry {
        self.symmetry
    }

    /// Whether `pos` is of the book's game.
    pub fn suits(&self, pos: &Position) -> bool {
        pos.variant() == self.variant && pos.size() == self.size && pos.symmetry() == self.symmetry
    }

    /// The number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in the order they were added.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The book moves of `pos`, best first; `None` when the position is not
    /// in the book (or is of another game).
    pub fn moves(&self, pos: &Position) -> Option<&[BookMove]> {
        if !self.suits(pos) {
            return None;
        }
        let entry = &self.entries[*self.index.get(&pos.zobrist_hash())?];
        // A hash collision would show as moves that are not legal here.
        entry
            .moves
            .iter()
            .all(|m| pos.is_legal(m.mv))
            .then_some(entry.moves.as_slice())
    }

    /// Whether `pos` is in the book.
    pub fn contains(&self, pos: &Position) -> bool {
        self.moves(pos).is_some()
    }

    /// A book move for `pos`, chosen by weight with `random` (any number,
    /// uniformly drawn); `None` when the position is not in the book.
    pub fn choose(&self, pos: &Position, random: u64) -> Option<Move> {
        let moves = self.moves(pos)?;
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        let mut pick = random % total.max(1);
        for book_move in moves {
            if pick < u64::from(book_move.weight) {
                return Some(book_move.mv);
            }
            pick -= u64::from(book_move.weight);
        }
        moves.first().map(|m| m.mv)
    }

    /// Adds the position `line` reaches with its `moves` (best first), or
    /// replaces the moves of a position already in the book.
    pub fn insert(&mut self, line: Vec<Move>, moves: Vec<BookMove>) -> Result<(), BookError> {
        self.add(line, moves, 0)
    }

    fn add(&mut self, line: Vec<Move>, moves: Vec<BookMove>, at: usize) -> Result<(), BookError> {
        let wrong = |reason: String| BookError::Entry { line: at, reason };
        let mut pos = self.start();
        for (i, &mv) in line.iter().enumerate() {
            if pos.outcome().is_some() {
                return Err(wrong(format!(
                    "the game is over before move {} ({mv})",
                    i + 1
                )));
            }
            pos.play(mv)
                .map_err(|e| wrong(format!("move {} ({mv}): {e}", i + 1)))?;
        }
        if moves.is_empty() {
            return Err(wrong("an entry needs at least one move".to_owned()));
        }
        if moves.len() > MAX_MOVES {
            return Err(wrong(format!(
                "{} moves; an entry may list at most {MAX_MOVES}",
                moves.len()
            )));
        }
        if pos.outcome().is_some() {
            return Err(wrong("the game is over in this position".to_owned()));
        }
        for (i, book_move) in moves.iter().enumerate() {
            if !pos.is_legal(book_move.mv) {
                return Err(wrong(format!(
                    "{} is not legal in this position",
                    book_move.mv
                )));
            }
            if !(1..=MAX_WEIGHT).contains(&book_move.weight) {
                return Err(wrong(format!(
                    "{}: the weight must be 1 to {MAX_WEIGHT}, not {}",
                    book_move.mv, book_move.weight
                )));
            }
            if moves[..i].iter().any(|m| m.mv == book_move.mv) {
                return Err(wrong(format!("{} is listed twice", book_move.mv)));
            }
        }
        let key = pos.zobrist_hash();
        match self.index.get(&key) {
            Some(&i) => self.entries[i].moves = moves,
            None => {
                if self.entries.len() >= MAX_ENTRIES {
                    return Err(BookError::TooLarge);
                }
                self.index.insert(key, self.entries.len());
                self.entries.push(BookEntry { line, moves });
            }
        }
        Ok(())
    }

    /// Reads a book from its text (see the [module](self) documentation).
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
            .filter(|(_, line)| !line.is_empty());
        let Some((_, first)) = lines.next() else {
            return Err(BookError::NotABook);
        };
        match first.split_whitespace().collect::<Vec<_>>()[..] {
            [MAGIC, version] if version == VERSION.to_string() => {}
            [MAGIC, version] => return Err(BookError::Version(version.to_owned())),
            _ => return Err(BookError::NotABook),
        }
        let Some((at, game)) = lines.next() else {
            return Err(BookError::Game {
                line: 2,
                reason: "the book names no game ('game VARIANT FILESxRANKS SYMMETRY')".to_owned(),
            });
        };
        let mut book = parse_game(game).map_err(|reason| BookError::Game { line: at, reason })?;
        for (at, line) in lines {
            let (path, moves) =
                parse_entry(&book, line).map_err(|reason| BookError::Entry { line: at, reason })?;
            book.add(path, moves, at)?;
        }
        Ok(book)
    }
}

/// Reads `game VARIANT FILESxRANKS SYMMETRY`.
fn parse_game(line: &str) -> Result<Book, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let ["game", variant, size, symmetry] = words[..] else {
        return Err(format!(
            "expected 'game VARIANT FILESxRANKS SYMMETRY', found '{}'",
            epaminondas_rules::excerpt(line)
        ));
    };
    let variant: Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let size: BoardSize = size.parse().map_err(|e| format!("{e}"))?;
    let symmetry: Symmetry = symmetry.parse().map_err(|e| format!("{e}"))?;
    Book::new(variant, size, symmetry)
        .ok_or_else(|| format!("{variant} cannot be played on {size}"))
}

/// Reads an entry line: the moves from the start, then the book moves.
fn parse_entry(book: &Book, line: &str) -> Result<(Vec<Move>, Vec<BookMove>), String> {
    let mut parts = line.split('|');
    let path = parts.next().unwrap_or("").trim();
    let mut pos = book.start();
    let mut moves = Vec::new();
    if path != "start" {
        if path.is_empty() {
            return Err("an entry starts with its moves from the start, or 'start'".to_owned());
        }
        for (i, text) in path.split_whitespace().enumerate() {
            let mv = pos.parse_move(text).map_err(|e| {
                format!("move {} ({}): {e}", i + 1, epaminondas_rules::excerpt(text))
            })?;
            pos.play_unchecked(mv);
            moves.push(mv);
        }
    }
    let mut book_moves = Vec::new();
    for part in parts {
        let words: Vec<&str> = part.split_whitespace().collect();
        let (text, weight, score) = match words[..] {
            [mv, weight, score] => (mv, weight, parse_score(score, None)),
            [mv, weight, kind, plies] => (mv, weight, parse_score(kind, Some(plies))),
            _ => {
                return Err(format!(
                    "'{}' is not 'MOVE WEIGHT SCORE'",
                    epaminondas_rules::excerpt(part.trim())
                ));
            }
        };
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("book move {}: {e}", epaminondas_rules::excerpt(text)))?;
        let weight = weight.parse::<u32>().map_err(|_| {
            format!(
                "{mv}: the weight '{}' is not a whole number",
                epaminondas_rules::excerpt(weight)
            )
        })?;
        let score = score.map_err(|e| format!("{mv}: {e}"))?;
        book_moves.push(BookMove { mv, weight, score });
    }
    Ok((moves, book_moves))
}

/// Reads a score: hundredths of a piece, or `win N` / `loss N`.
fn parse_score(first: &str, plies: Option<&str>) -> Result<i32, String> {
    let bad = || {
        format!(
            "the score '{}' is not a number of hundredths or 'win N' / 'loss N'",
            epaminondas_rules::excerpt(first)
        )
    };
    let limit = crate::score::PROVEN - 1;
    match plies {
        None => first
            .parse::<i32>()
            .ok()
            .filter(|s| s.abs() <= limit)
            .ok_or_else(bad),
        Some(plies) => {
            let plies = plies
                .parse::<i32>()
                .ok()
                .filter(|&n| (0..=crate::score::MAX_PLY as i32).contains(&n))
                .ok_or_else(bad)?;
            match first {
                "win" => Ok(WIN - plies),
                "loss" => Ok(plies - WIN),
                _ => Err(bad()),
            }
        }
    }
}

/// A score as a book writes it.
fn format_score(score: i32) -> String {
    if is_proven(score) {
        crate::score::format(score)
    } else {
        score.to_string()
    }
}

impl fmt::Display for Book {
    /// The book as its file holds it (see the [module](self) documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{MAGIC} {VERSION}")?;
        writeln!(f, "game {} {} {}", self.variant, self.size, self.symmetry)?;
        for entry in &self.entries {
            if entry.line.is_empty() {
                write!(f, "start")?;
            } else {
                let line: Vec<String> = entry.line.iter().map(ToString::to_string).collect();
                write!(f, "{}", line.join(" "))?;
            }
            for m in &entry.moves {
                write!(f, " | {} {} {}", m.mv, m.weight, format_score(m.score))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Book {
        Book::new(
            Variant::Epaminondas,
            "8x8".parse().unwrap(),
            Symmetry::Mirror,
        )
        .unwrap()
    }

    #[test]
    fn a_book_round_trips_through_its_text_and_finds_its_positions() {
        let mut book = small();
        let start = book.start();
        let moves = start.legal_moves();
        let (a, b) = (moves[0], moves[5]);
        book.insert(
            Vec::new(),
            vec![
                BookMove {
                    mv: a,
                    weight: 3,
                    score: 12,
                },
                BookMove {
                    mv: b,
                    weight: 1,
                    score: WIN - 9,
                },
            ],
        )
        .unwrap();
        let mut after = start.clone();
        after.play(a).unwrap();
        let reply = after.legal_moves()[2];
        book.insert(
            vec![a],
            vec![BookMove {
                mv: reply,
                weight: 7,
                score: -40,
            }],
        )
        .unwrap();
        let text = book.to_string();
        assert!(text.contains("win 9"), "{text}");
        let read = Book::parse(&text).unwrap();
        assert_eq!(read.entries(), book.entries());
        assert_eq!(read.to_string(), text);
        assert_eq!(read.moves(&after).unwrap()[0].mv, reply);
        // Weighted choice: a three times as often as b.
        let picks: Vec<Move> = (0..4).map(|r| read.choose(&start, r).unwrap()).collect();
        assert_eq!(picks, vec![a, a, a, b]);
        // Not in the book: another position, another game.
        after.play(reply).unwrap();
        assert_eq!(read.moves(&after), None);
        assert_eq!(read.choose(&Position::standard(), 0), None);
    }

    #[test]
    fn bad_books_are_refused_with_the_line_that_is_wrong() {
        let head = "epaminondas-book 1\ngame epaminondas 8x8 mirror\n";
        let error = |text: &str| Book::parse(text).unwrap_err().to_string();
        assert!(error("").contains("not an opening book"));
        assert!(error("epaminondas-book 7\n").contains("version 7"));
        assert!(error("epaminondas-book 1\n").contains("names no game"));
        assert!(error("epaminondas-book 1\ngame chess 8x8 mirror").starts_with("line 2:"));
        assert!(error(&format!("{head}start | a1-a5 10 0")).starts_with("line 3:"));
        let legal = small().start().legal_moves()[0];
        let ok = format!("{head}# a comment\n\nstart | {legal} 10 5 # trailing\n");
        assert_eq!(Book::parse(&ok).unwrap().len(), 1);
        for (entry, wanted) in [
            (format!("start | {legal} 0 5"), "weight must be 1 to 1000"),
            (format!("start | {legal} 10"), "is not 'MOVE WEIGHT SCORE'"),
            (format!("start | {legal} 10 lots"), "score 'lots'"),
            (format!("start | {legal} ten 1"), "weight 'ten'"),
            (format!("start | {legal} 1 1 | {legal} 1 1"), "listed twice"),
            ("start".to_owned(), "at least one move"),
            (format!("{legal} {legal} | {legal} 1 1"), "move 2"),
            (format!("| {legal} 1 1"), "or 'start'"),
            (format!("start | {legal} 1 win 999"), "score 'win'"),
        ] {
            let message = error(&format!("{head}{entry}"));
            assert!(
                message.starts_with("line 3:") && message.contains(wanted),
                "{entry}: {message}"
            );
        }
    }

    #[test]
    fn the_built_in_books_read_and_cover_their_starts() {
        for (text, size) in [(STANDARD_BOOK, "14x12"), (SMALL_BOOK, "8x8")] {
            let book = Book::parse(text).unwrap();
            let start = Position::new_variant(
                Variant::Epaminondas,
                size.parse().unwrap(),
                Symmetry::Mirror,
            )
            .unwrap();
            assert!(book.len() >= 50, "{size}: {} entries", book.len());
            assert!(book.contains(&start), "{size}");
            assert!(std::ptr::eq(
                Book::embedded(&start).unwrap().entries(),
                Book::embedded(&start).unwrap().entries()
            ));
            assert_eq!(Book::embedded(&start).unwrap().size(), book.size());
        }
        let crossings =
            Position::new_variant(Variant::Crossings, "8x8".parse().unwrap(), Symmetry::Off)
                .unwrap();
        assert!(Book::embedded(&crossings).is_none());
    }
}
