//! Game records: a PGN-like text of tag pairs and numbered moves.
//!
//! ```text
//! [White "alice"]
//! [Black "bob"]
//! [Result "0-1"]
//! [Board "6x5"]
//! [Symmetry "mirror"]
//! [Position "bbb3/2b3/4w1/1wb1w1/w3w1 w"]
//!
//! 1. e1,e3-e5 c2-d1 2. e4-d5 a5,c5-d5:2 0-1
//! ```
//!
//! `Variant` (default `epaminondas`; RULES.md section 7), `Board` (files x
//! ranks, default the variant's: `14x12`, `8x8` for Crossings), `Symmetry`
//! (default the variant's: `mirror`, `off` for Crossings) and `Position`
//! (default: the board's starting position) say what game was played; a
//! record of the standard game leaves out the `Variant` tag. In Crossings
//! the third occurrence of a position with the same side to move draws the
//! game (section 7.1), and the record's result says so. `Result` is `1-0`, `0-1`, `1/2-1/2` or `*`. Other tags are kept as
//! they are. Moves are written in canonical notation with capture marks, and
//! read in any accepted form; move numbers, where written, are checked.
//! Reading a record replays and checks every move. Writing gives the record
//! in normal form (tags one per line, canonical moves, wrapped lines), and
//! reading and writing normal-form text gives the same text.

use std::fmt;
use std::str::FromStr;

use crate::notation::{Dialect, ParseDialectError, ParseMoveError};
use crate::{
    BoardSize, BoardSizeError, Color, Move, Outcome, ParsePositionError, ParseSymmetryError,
    ParseVariantError, Position, PositionError, Setup, Symmetry, Variant,
};

/// The result written in a record.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`: only by agreement or adjudication, options outside the rules.
    Draw,
    /// `*`: the game goes on or was abandoned.
    #[default]
    Unfinished,
}

impl GameResult {
    /// The win for `color`.
    pub const fn win(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The result's token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The result a token names (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub fn from_token(token: &str) -> Option<GameResult> {
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ]
        .into_iter()
        .find(|r| r.token() == token)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// Tags whose values the record derives from its game.
const MANAGED_TAGS: [&str; 6] = [
    "Variant", "Board", "Symmetry", "Position", "Result", "Notation",
];

/// The tag that names the notation dialect of a record's moves when it is
/// not the standard one (see [`GameRecord::display_in`]).
const NOTATION_TAG: &str = "Notation";

/// Why a record could not be read, or a change to it was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A line that starts with `[` is not a tag pair `[Name "value"]`.
    BadTag {
        /// The line number (1-based).
        line: usize,
        /// The line.
        text: String,
    },
    /// A tag name appears twice.
    DuplicateTag(String),
    /// A tag that the record manages itself was set by hand.
    ManagedTag(String),
    /// A tag name that is not letters, digits, `_` and `-`.
    BadTagName(String),
    /// A tag value with a line break or another control character.
    BadTagValue(String),
    /// A tag pair after the moves have begun.
    MisplacedTag {
        /// The line number (1-based).
        line: usize,
    },
    /// A move number that does not match the move it stands before.
    MoveNumber {
        /// The number the move should have, like `12.` or `12...`.
        expected: String,
        /// The number written.
        found: String,
    },
    /// A move after the game's result was set (resignation, agreement, time).
    Finished(GameResult),
    /// Text after the result at the end of the moves.
    AfterResult(String),
    /// The `Board` tag is not a board size.
    Board(BoardSizeError),
    /// The `Symmetry` tag is not an option.
    Symmetry(ParseSymmetryError),
    /// The `Variant` tag names no variant.
    Variant(ParseVariantError),
    /// The `Position` tag is not a position of the variant (stones outside
    /// Stumbling Blocks, a board too small for it).
    Setup(PositionError),
    /// A result other than a draw for a game the third repetition of a
    /// position has drawn (Crossings).
    DrawnByRepetition(GameResult),
    /// The `Position` tag is not position text.
    Position(ParsePositionError),
    /// The `Board` and `Position` tags disagree.
    SizeMismatch {
        /// The `Board` tag.
        board: BoardSize,
        /// The size of the `Position` tag.
        position: BoardSize,
    },
    /// The `Result` tag or result token is not a result.
    BadResult(String),
    /// The `Result` tag and the result at the end of the moves disagree.
    ResultMismatch {
        /// The `Result` tag.
        tag: GameResult,
        /// The result after the moves.
        moves: GameResult,
    },
    /// A move cannot be read or played.
    Move {
        /// The move's number.
        number: usize,
        /// The side that made it.
        color: Color,
        /// The move text.
        text: String,
        /// What is wrong.
        error: ParseMoveError,
    },
    /// A move value that does not belong to the position it was offered in.
    NotLegalHere {
        /// The move number.
        number: usize,
        /// The side to move.
        color: Color,
        /// The move, written out.
        text: String,
    },
    /// Moves continue after the game ended.
    MoveAfterEnd {
        /// The move number.
        number: usize,
        /// The side that made it.
        color: Color,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// The result contradicts the final position, where the rules decided the game.
    ResultContradicts {
        /// The result written.
        result: GameResult,
        /// What the rules say.
        outcome: Outcome,
    },
    /// Something in the move text that is neither a move, a move number nor a result.
    Unexpected(String),
    /// A `{comment}` before the first move, or one left open.
    Comment(String),
    /// The `Notation` tag names no dialect.
    Notation(ParseDialectError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordError::*;
        let dots = |c: &Color| if *c == Color::White { "." } else { "..." };
        match self {
            BadTag { line, text } => write!(
                f,
                "line {line}: '{text}' is not a tag pair like [White \"alice\"]"
            ),
            DuplicateTag(name) => write!(f, "the tag {name} appears twice"),
            ManagedTag(name) => write!(
                f,
                "the tag {name} follows from the game itself and cannot be set by hand"
            ),
            BadTagName(name) => write!(
                f,
                "'{name}' is not a tag name: use letters, digits, '_' and '-'"
            ),
            BadTagValue(name) => write!(
                f,
                "the value of tag {name} contains a line break or control character"
            ),
            MisplacedTag { line } => write!(
                f,
                "line {line}: a tag pair after the moves; tags come first"
            ),
            MoveNumber { expected, found } => {
                write!(f, "move number {found} found where {expected} was due")
            }
            Finished(result) => write!(f, "the game is over: its result is {result}"),
            AfterResult(token) => write!(f, "unexpected '{token}' after the result"),
            Board(e) => write!(f, "Board tag: {e}"),
            Symmetry(e) => write!(f, "Symmetry tag: {e}"),
            Variant(e) => write!(f, "Variant tag: {e}"),
            Setup(e) => write!(f, "Position tag: {e}"),
            DrawnByRepetition(result) => write!(
                f,
                "the result {result} contradicts the final position: the third repetition drew the game"
            ),
            Position(e) => write!(f, "Position tag: {e}"),
            SizeMismatch { board, position } => write!(
                f,
                "the Board tag says {board} but the Position tag is a {position} board"
            ),
            BadResult(t) => write!(f, "'{t}' is not a result: expected 1-0, 0-1, 1/2-1/2 or *"),
            ResultMismatch { tag, moves } => write!(
                f,
                "the Result tag says {tag} but the moves end with {moves}"
            ),
            Move {
                number,
                color,
                text,
                error,
            } => write!(f, "move {number}{} {text} ({color}): {error}", dots(color)),
            NotLegalHere {
                number,
                color,
                text,
            } => write!(
                f,
                "move {number}{} {text} ({color}) is not a legal move in this position",
                dots(color)
            ),
            MoveAfterEnd {
                number,
                color,
                outcome,
            } => write!(
                f,
                "move {number}{} ({color}) comes after the end of the game: {outcome}",
                dots(color)
            ),
            ResultContradicts { result, outcome } => write!(
                f,
                "the result {result} contradicts the final position: {outcome}"
            ),
            Unexpected(t) => write!(f, "unexpected '{t}' in the moves"),
            Comment(why) => write!(f, "comment: {why}"),
            Notation(e) => write!(f, "the Notation tag: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A judgement of a move, written after it as in PGN (`c2-c3?!`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveMark {
    /// `!!`: a brilliant move.
    Brilliant,
    /// `!`: a good move.
    Good,
    /// `!?`: an interesting move.
    Interesting,
    /// `?!`: a dubious move, an inaccuracy.
    Inaccuracy,
    /// `?`: a mistake.
    Mistake,
    /// `??`: a blunder.
    Blunder,
}

impl MoveMark {
    /// Every mark, the two-character ones first (so that a suffix is read
    /// whole).
    const ALL: [MoveMark; 6] = [
        MoveMark::Brilliant,
        MoveMark::Interesting,
        MoveMark::Inaccuracy,
        MoveMark::Blunder,
        MoveMark::Good,
        MoveMark::Mistake,
    ];

    /// The mark as written.
    pub fn symbol(self) -> &'static str {
        match self {
            MoveMark::Brilliant => "!!",
            MoveMark::Good => "!",
            MoveMark::Interesting => "!?",
            MoveMark::Inaccuracy => "?!",
            MoveMark::Mistake => "?",
            MoveMark::Blunder => "??",
        }
    }

    /// Splits a mark off the end of move text: (`c2-c3`, `?!`).
    fn split(text: &str) -> (&str, Option<MoveMark>) {
        for mark in MoveMark::ALL {
            if let Some(rest) = text.strip_suffix(mark.symbol()) {
                return (rest, Some(mark));
            }
        }
        (text, None)
    }
}

impl fmt::Display for MoveMark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// What a record says about one move besides the move: a mark and a
/// comment (`c2-c3?! {+0.35, best c2-c4}`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// The judgement, if any.
    pub mark: Option<MoveMark>,
    /// The comment, if any: one line of text without braces.
    pub comment: Option<String>,
}

/// A comment as the record keeps it: one line, spaces collapsed, no `}`
/// (which would end it); `None` when nothing is left.
fn clean_comment(text: &str) -> Option<String> {
    let text = text.replace('}', ")").replace('{', "(");
    let words: Vec<&str> = text.split_whitespace().collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// A game: its tags, starting position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    tags: Vec<(String, String)>,
    start: Position,
    moves: Vec<Move>,
    /// One per move: its mark and comment.
    notes: Vec<Annotation>,
    result: GameResult,
    end: Position,
    /// How the rules ended the game at `end`, if they did.
    outcome: Option<Outcome>,
    /// Whether the rules drew the game at `end` by the third repetition of
    /// a position (Crossings).
    repetition: bool,
}

/// The PGN form of the date `unix_seconds` after 1970-01-01 00:00 UTC:
/// `YYYY.MM.DD`, for the `Date` tag. (The library reads no clock: the
/// caller says what time it is.)
pub fn pgn_date(unix_seconds: u64) -> String {
    // Days to a civil date (proleptic Gregorian), after H. Hinnant's
    // `civil_from_days`.
    let days = (unix_seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

impl GameRecord {
    /// An empty game from `start`, with the tags that say what game it is:
    /// `Variant` when not the standard game, `Board`, `Symmetry`, `Position`
    /// when not the board's start, and `Result` (already decided if the
    /// rules have ended the game at `start`).
    pub fn new(start: Position) -> GameRecord {
        let outcome = start.outcome();
        let result = outcome.map_or(GameResult::Unfinished, |o| GameResult::win(o.winner));
        let mut tags = vec![
            ("White".to_owned(), "?".to_owned()),
            ("Black".to_owned(), "?".to_owned()),
            ("Date".to_owned(), "????.??.??".to_owned()),
            ("Result".to_owned(), result.token().to_owned()),
            ("Board".to_owned(), start.size().to_string()),
            ("Symmetry".to_owned(), start.symmetry().to_string()),
        ];
        if !start.variant().is_standard() {
            tags.insert(4, ("Variant".to_owned(), start.variant().to_string()));
        }
        if !start.is_start() {
            tags.push(("Position".to_owned(), start.to_string()));
        }
        GameRecord {
            tags,
            end: start.clone(),
            start,
            moves: Vec::new(),
            notes: Vec::new(),
            result,
            outcome,
            repetition: false,
        }
    }

    /// Whether the rules drew the game by the third occurrence of a position
    /// with the same side to move (only in Crossings, RULES.md section 7.1).
    pub fn is_drawn_by_repetition(&self) -> bool {
        self.repetition
    }

    /// The mark and comment of move `ply` (counted from 0), if it was played.
    pub fn annotation(&self, ply: usize) -> Option<&Annotation> {
        self.notes.get(ply)
    }

    /// Sets the mark and comment of move `ply` (counted from 0); a comment
    /// is kept on one line, without braces. False when there is no such move.
    pub fn annotate(&mut self, ply: usize, annotation: Annotation) -> bool {
        match self.notes.get_mut(ply) {
            Some(note) => {
                *note = Annotation {
                    mark: annotation.mark,
                    comment: annotation.comment.as_deref().and_then(clean_comment),
                };
                true
            }
            None => false,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position after the last move.
    pub fn position(&self) -> &Position {
        &self.end
    }

    /// The position after the first `plies` moves (the final one if there are fewer).
    pub fn position_after(&self, plies: usize) -> Position {
        let mut pos = self.start.clone();
        for &mv in self.moves.iter().take(plies) {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// The moves, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The result. This is the game's result even where the text read had
    /// no `Result` tag (see [`GameRecord::tag`]).
    pub fn result(&self) -> GameResult {
        self.result
    }

    /// The value of tag `name` as written, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// All tags, in the order they are written.
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Sets (or adds) tag `name`. The tags `Board`, `Symmetry`, `Position`
    /// and `Result` follow from the game and are refused.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), RecordError> {
        if MANAGED_TAGS.contains(&name) {
            return Err(RecordError::ManagedTag(crate::excerpt(name)));
        }
        if !is_tag_name(name) {
            return Err(RecordError::BadTagName(crate::excerpt(name)));
        }
        if value.chars().any(char::is_control) {
            return Err(RecordError::BadTagValue(crate::excerpt(name)));
        }
        self.put_tag(name, value);
        Ok(())
    }

    fn put_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// Sets the result, for endings outside the rules (resignation, time,
    /// agreement, adjudication). A game the rules have decided keeps its result.
    pub fn set_result(&mut self, result: GameResult) -> Result<(), RecordError> {
        if self.repetition && result != GameResult::Draw {
            return Err(RecordError::DrawnByRepetition(result));
        }
        if let Some(outcome) = self.outcome {
            if result != GameResult::win(outcome.winner) {
                return Err(RecordError::ResultContradicts { result, outcome });
            }
        }
        self.result = result;
        self.put_tag("Result", result.token());
        Ok(())
    }

    /// The move number and side of the next move.
    fn next_number(&self) -> (usize, Color) {
        let offset = usize::from(self.start.turn() == Color::Black);
        let ply = self.moves.len() + offset;
        let color = if ply % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        (ply / 2 + 1, color)
    }

    /// The move number and side of the next move, if the game goes on.
    fn next_move(&self) -> Result<(usize, Color), RecordError> {
        let (number, color) = self.next_number();
        match (self.outcome, self.result) {
            (Some(outcome), _) => Err(RecordError::MoveAfterEnd {
                number,
                color,
                outcome,
            }),
            (None, GameResult::Unfinished) => Ok((number, color)),
            (None, result) => Err(RecordError::Finished(result)),
        }
    }

    /// Plays and records `mv`. When the move ends the game by the rules, the
    /// result is set.
    pub fn push(&mut self, mv: Move) -> Result<(), RecordError> {
        let (number, color) = self.next_move()?;
        if !self.end.is_legal(mv) {
            let text = mv.with_capture_mark().to_string();
            return Err(match self.end.parse_move(&text) {
                Err(error) => RecordError::Move {
                    number,
                    color,
                    text,
                    error,
                },
                // The text names a legal move, but not this one (a move made
                // for another position).
                Ok(_) => RecordError::NotLegalHere {
                    number,
                    color,
                    text,
                },
            });
        }
        self.record(mv);
        Ok(())
    }

    /// Takes back the last `plies` moves (all of them if there are fewer).
    /// A result set outside the rules (resignation, agreement, time) is
    /// cleared with them, and with it the `Termination` tag that said how
    /// the game ended: the game goes on from the earlier position.
    pub fn take_back(&mut self, plies: usize) {
        let ended = self.result;
        let keep = self.moves.len().saturating_sub(plies);
        let moves: Vec<Move> = self.moves.drain(..).take(keep).collect();
        let notes: Vec<Annotation> = self.notes.drain(..).take(keep).collect();
        self.end = self.start.clone();
        self.outcome = self.start.outcome();
        self.repetition = false;
        self.result = self
            .outcome
            .map_or(GameResult::Unfinished, |o| GameResult::win(o.winner));
        self.put_tag("Result", self.result.token());
        for mv in moves {
            self.record(mv);
        }
        self.notes = notes;
        if self.result != ended {
            self.tags.retain(|(name, _)| name != "Termination");
        }
    }

    /// Plays and records a move known to be legal.
    fn record(&mut self, mv: Move) {
        self.end.play_unchecked(mv);
        self.moves.push(mv);
        self.notes.push(Annotation::default());
        self.outcome = self.end.outcome();
        if let Some(outcome) = self.outcome {
            self.result = GameResult::win(outcome.winner);
            self.put_tag("Result", self.result.token());
        } else if self.end.variant() == Variant::Crossings && self.occurrences_of_end() >= 3 {
            self.repetition = true;
            self.result = GameResult::Draw;
            self.put_tag("Result", self.result.token());
        }
    }

    /// How often the position at the end (with its side to move) has
    /// occurred in the game, the end included.
    fn occurrences_of_end(&self) -> usize {
        let key = self.end.zobrist_hash();
        let mut pos = self.start.clone();
        let mut count = usize::from(pos.zobrist_hash() == key && pos == self.end);
        for &mv in &self.moves {
            pos.play_unchecked(mv);
            count += usize::from(pos.zobrist_hash() == key && pos == self.end);
        }
        count
    }

    /// Reads move text in the standard notation, plays and records it.
    pub fn push_text(&mut self, text: &str) -> Result<Move, RecordError> {
        self.push_text_in(text, Dialect::Standard)
    }

    /// Reads move text in `dialect`, plays and records it.
    pub fn push_text_in(&mut self, text: &str, dialect: Dialect) -> Result<Move, RecordError> {
        let (number, color) = self.next_move()?;
        let mv = self
            .end
            .parse_move_in(text, dialect)
            .map_err(|error| RecordError::Move {
                number,
                color,
                text: crate::excerpt(text),
                error,
            })?;
        self.record(mv);
        Ok(mv)
    }
}

impl GameRecord {
    /// Reads a file of several records, one after another (as `Display`
    /// writes them, separated by blank lines). A record ends with the result
    /// that closes its moves, or where a tag line follows move text. An error
    /// names the record (1-based).
    pub fn read_all(text: &str) -> Result<Vec<GameRecord>, (usize, RecordError)> {
        Self::read_all_in(text, Dialect::Standard)
    }

    /// [`GameRecord::read_all`] with the moves read in `dialect` (a
    /// record's own `Notation` tag takes precedence).
    pub fn read_all_in(
        text: &str,
        dialect: Dialect,
    ) -> Result<Vec<GameRecord>, (usize, RecordError)> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut records = Vec::new();
        let mut current = String::new();
        let mut in_moves = false;
        let flush = |chunk: &str, records: &mut Vec<GameRecord>| {
            if chunk.trim().is_empty() {
                return Ok(());
            }
            let record =
                GameRecord::parse_in(chunk, dialect).map_err(|e| (records.len() + 1, e))?;
            records.push(record);
            Ok(())
        };
        for line in text.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') && in_moves {
                flush(&current, &mut records)?;
                current.clear();
                in_moves = false;
            }
            if !trimmed.is_empty() && !trimmed.starts_with('[') {
                in_moves = true;
            }
            current.push_str(line);
            current.push('\n');
            let closes = trimmed
                .split_whitespace()
                .last()
                .is_some_and(|word| GameResult::from_token(word).is_some());
            if in_moves && closes {
                flush(&current, &mut records)?;
                current.clear();
                in_moves = false;
            }
        }
        flush(&current, &mut records)?;
        Ok(records)
    }
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Reads `[Name "value"]`, with `\"` and `\\` escapes in the value.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(|c: char| c.is_whitespace())?;
    let rest = rest.trim();
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    is_tag_name(name).then(|| (name.to_owned(), value))
}

/// The marker that stands for comment `i` in move text once the comments
/// are taken out (control characters never occur in move text).
fn comment_marker(i: usize) -> String {
    format!(" \u{1}{i} ")
}

/// The comment a token stands for, if it is a marker.
fn comment_index(token: &str) -> Option<usize> {
    token.strip_prefix('\u{1}')?.parse().ok()
}

/// Takes the `{comments}` out of move text, leaving a marker for each:
/// the text and the comments (cleaned; `None` for an empty one).
fn take_comments(text: &str) -> Result<(String, Vec<Option<String>>), RecordError> {
    if text.contains('\u{1}') {
        return Err(RecordError::Unexpected("a control character".to_owned()));
    }
    let mut out = String::with_capacity(text.len());
    let mut comments = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(RecordError::Comment(format!(
                "'{{{}' is never closed with '}}'",
                crate::excerpt(after)
            )));
        };
        out.push_str(&comment_marker(comments.len()));
        comments.push(clean_comment(&after[..close]));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok((out, comments))
}

/// Splits move text into tokens, joining the pieces of moves written with
/// spaces (`e1,e3 - e5`).
fn tokens(text: &str) -> Vec<String> {
    let joiners = ['-', '\u{2013}', ',', '.', ':'];
    // A move number (`12.`, `12...`) or a lone `...` stands alone.
    let is_number = |w: &str| w.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit());
    let mut out: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let join = out.last().is_some_and(|prev: &String| {
            !is_number(prev)
                && !is_number(word)
                && comment_index(prev).is_none()
                && comment_index(word).is_none()
                && GameResult::from_token(prev).is_none()
                && (prev.ends_with(joiners) || word.starts_with(joiners))
        });
        match out.last_mut() {
            Some(prev) if join => prev.push_str(word),
            _ => out.push(word.to_owned()),
        }
    }
    out
}

impl FromStr for GameRecord {
    type Err = RecordError;

    /// Reads a record whose moves are in the standard notation (unless its
    /// `Notation` tag says otherwise).
    fn from_str(s: &str) -> Result<GameRecord, RecordError> {
        GameRecord::parse_in(s, Dialect::Standard)
    }
}

impl GameRecord {
    /// Reads a record whose moves are written in `dialect`; a `Notation`
    /// tag in the text takes precedence.
    pub fn parse_in(s: &str, dialect: Dialect) -> Result<GameRecord, RecordError> {
        let s = s.strip_prefix('\u{feff}').unwrap_or(s);
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut movetext = String::new();
        for (i, line) in s.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') && !movetext.trim().is_empty() {
                return Err(RecordError::MisplacedTag { line: i + 1 });
            }
            if trimmed.starts_with('[') {
                let (name, value) = parse_tag(trimmed).ok_or_else(|| RecordError::BadTag {
                    line: i + 1,
                    text: crate::excerpt(trimmed),
                })?;
                if tags.iter().any(|(n, _)| *n == name) {
                    return Err(RecordError::DuplicateTag(crate::excerpt(&name)));
                }
                tags.push((name, value));
            } else {
                movetext.push_str(line);
                movetext.push('\n');
            }
        }
        let tag = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let dialect: Dialect = match tag(NOTATION_TAG) {
            Some(v) => v.parse().map_err(RecordError::Notation)?,
            None => dialect,
        };
        let variant: Variant = match tag("Variant") {
            Some(v) => v.parse().map_err(RecordError::Variant)?,
            None => Variant::Epaminondas,
        };
        let symmetry: Symmetry = match tag("Symmetry") {
            Some(v) => v.parse().map_err(RecordError::Symmetry)?,
            None => variant.default_symmetry(),
        };
        let board: Option<BoardSize> = match tag("Board") {
            Some(v) => Some(v.parse().map_err(RecordError::Board)?),
            None => None,
        };
        let start = match tag("Position") {
            Some(text) => {
                let setup: Setup = text.parse().map_err(RecordError::Position)?;
                if let Some(board) = board.filter(|&b| b != setup.size) {
                    return Err(RecordError::SizeMismatch {
                        board,
                        position: setup.size,
                    });
                }
                Position::from_setup_in(variant, &setup, symmetry).map_err(RecordError::Setup)?
            }
            None => {
                Position::new_variant(variant, board.unwrap_or(variant.default_size()), symmetry)
                    .map_err(RecordError::Setup)?
            }
        };
        let tag_result = match tag("Result") {
            Some(v) => Some(
                GameResult::from_token(v)
                    .ok_or_else(|| RecordError::BadResult(crate::excerpt(v)))?,
            ),
            None => None,
        };

        let outcome = start.outcome();
        let mut record = GameRecord {
            tags: Vec::new(),
            end: start.clone(),
            start,
            moves: Vec::new(),
            notes: Vec::new(),
            result: outcome.map_or(GameResult::Unfinished, |o| GameResult::win(o.winner)),
            outcome,
            repetition: false,
        };
        let (movetext, comments) = take_comments(&movetext)?;
        let mut text_result = None;
        // The move number written before the next move, if any.
        let mut number: Option<String> = None;
        for token in tokens(&movetext) {
            // A comment: it belongs to the move before it.
            if let Some(index) = comment_index(&token) {
                let comment = comments.get(index).cloned().flatten();
                match record.notes.last_mut() {
                    Some(note) => {
                        note.comment = match (note.comment.take(), comment) {
                            (Some(a), Some(b)) => Some(format!("{a} {b}")),
                            (a, b) => a.or(b),
                        }
                    }
                    None if comment.is_none() => {}
                    None => {
                        return Err(RecordError::Comment(
                            "a comment must follow the move it is about".to_owned(),
                        ));
                    }
                }
                continue;
            }
            if text_result.is_some() {
                return Err(RecordError::AfterResult(crate::excerpt(&token)));
            }
            if let Some(result) = GameResult::from_token(&token) {
                text_result = Some(result);
                continue;
            }
            // A move number (`12.`, `12...` or a lone `...`), possibly glued to a move.
            let digits = token.bytes().take_while(u8::is_ascii_digit).count();
            let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
            let move_text = if dots > 0 {
                number = Some(token[..digits + dots].to_owned());
                &token[digits + dots..]
            } else {
                token.as_str()
            };
            if move_text.is_empty() {
                continue;
            }
            if move_text.starts_with(['{', ';', '(']) {
                return Err(RecordError::Unexpected(crate::excerpt(move_text)));
            }
            if let Some(found) = number.take() {
                let (n, color) = record.next_number();
                let ok = match found.trim_start_matches(|c: char| c.is_ascii_digit()) {
                    "." => color == Color::White,
                    "..." => color == Color::Black,
                    _ => false,
                };
                let digits_ok = found.starts_with(|c: char| c.is_ascii_digit());
                if !(ok && (!digits_ok || found.trim_end_matches('.') == n.to_string())) {
                    let expected = match color {
                        Color::White => format!("{n}."),
                        Color::Black => format!("{n}..."),
                    };
                    return Err(RecordError::MoveNumber {
                        expected,
                        found: crate::excerpt(&found),
                    });
                }
            }
            let (move_text, mark) = MoveMark::split(move_text);
            record.push_text_in(move_text, dialect)?;
            if let Some(note) = record.notes.last_mut() {
                note.mark = mark;
            }
        }
        let result = match (tag_result, text_result) {
            (Some(tag), Some(moves)) if tag != moves => {
                return Err(RecordError::ResultMismatch { tag, moves });
            }
            (Some(r), _) | (None, Some(r)) => r,
            // No result written: the rules' verdict, if they reached one.
            (None, None) => record.result,
        };
        if let Some(outcome) = record.outcome {
            if result != GameResult::win(outcome.winner) {
                return Err(RecordError::ResultContradicts { result, outcome });
            }
        }
        if record.repetition && result != GameResult::Draw {
            return Err(RecordError::DrawnByRepetition(result));
        }
        record.result = result;
        tags.retain(|(name, _)| name != NOTATION_TAG);
        record.tags = tags;
        Ok(record)
    }
}

/// The width move text is wrapped to.
const LINE_WIDTH: usize = 79;

impl fmt::Display for GameRecord {
    /// The record with its moves in the standard notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_in(f, Dialect::Standard)
    }
}

impl GameRecord {
    /// The record with its moves written in `dialect`. Any dialect but the
    /// standard one is named in a `Notation` tag, so that the text reads
    /// back as the same game.
    pub fn display_in(&self, dialect: Dialect) -> impl fmt::Display + '_ {
        struct InDialect<'a>(&'a GameRecord, Dialect);
        impl fmt::Display for InDialect<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_in(f, self.1)
            }
        }
        InDialect(self, dialect)
    }

    fn write_in(&self, f: &mut fmt::Formatter<'_>, dialect: Dialect) -> fmt::Result {
        let notation = (dialect != Dialect::Standard).then(|| (NOTATION_TAG, dialect.name()));
        let tags = self
            .tags
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .chain(notation);
        let mut any = false;
        for (name, value) in tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{name} \"{escaped}\"]")?;
            any = true;
        }
        if any {
            writeln!(f)?;
        }
        let mut words = Vec::with_capacity(self.moves.len() * 3 / 2 + 2);
        let black_first = self.start.turn() == Color::Black;
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = i + usize::from(black_first);
            if ply % 2 == 0 {
                words.push(format!("{}.", ply / 2 + 1));
            } else if i == 0 {
                words.push(format!("{}...", ply / 2 + 1));
            }
            let note = &self.notes[i];
            // After a comment, Black's move is numbered again (`1... c7-c6`).
            let commented = i > 0 && self.notes[i - 1].comment.is_some();
            if ply % 2 == 1 && i > 0 && commented {
                words.push(format!("{}...", ply / 2 + 1));
            }
            let mark = note.mark.map_or("", MoveMark::symbol);
            words.push(match dialect {
                Dialect::Standard => format!("{}{mark}", mv.with_capture_mark()),
                _ if mv.is_capture() => {
                    format!("{}:{}{mark}", dialect.format(*mv), mv.captures())
                }
                _ => format!("{}{mark}", dialect.format(*mv)),
            });
            if let Some(comment) = &note.comment {
                words.push(format!("{{{comment}}}"));
            }
        }
        words.push(self.result.token().to_owned());
        let mut width = 0;
        for word in words {
            if width > 0 && width + 1 + word.len() > LINE_WIDTH {
                writeln!(f)?;
                width = 0;
            } else if width > 0 {
                f.write_str(" ")?;
                width += 1;
            }
            f.write_str(&word)?;
            width += word.len();
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEEDS_004: &str = "[White \"ohs\"]\n[Black \"eks\"]\n[Result \"*\"]\n[Board \"6x5\"]\n\
        [Symmetry \"mirror\"]\n[Position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"]\n\n\
        1. e1,e3-e5 c2-d1 2. e4-d5 a5,c5-d5:2 *\n";

    #[test]
    fn reads_and_writes_the_same_text() {
        let record: GameRecord = SEEDS_004.parse().unwrap();
        assert_eq!(record.moves().len(), 4);
        assert_eq!(record.to_string(), SEEDS_004);
    }

    #[test]
    fn records_convert_between_dialects_and_read_back() {
        let record: GameRecord = SEEDS_004.parse().unwrap();
        let rear = record.display_in(Dialect::RearPiece).to_string();
        assert!(rear.contains("[Notation \"rear-piece\"]"), "{rear}");
        assert!(rear.contains("1. e1-e3 c2-d1 2. e4-d5 a5-b5:2 *"), "{rear}");
        // The tag makes the text read back as the same game, whatever the
        // reader's default; without it the moves are read in the dialect asked.
        assert_eq!(rear.parse::<GameRecord>().unwrap(), record);
        let bare = "1. e1-e3 c2-d1 2. e4-d5 a5-b5";
        let start = "[Board \"6x5\"]\n[Position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"]\n\n";
        let text = format!("{start}{bare}");
        let read = GameRecord::parse_in(&text, Dialect::RearPiece).unwrap();
        assert_eq!(read.moves(), record.moves());
        assert!(
            text.parse::<GameRecord>().is_err(),
            "e1-e3 is no standard move here"
        );
        assert_eq!(record.display_in(Dialect::Standard).to_string(), SEEDS_004);
        let bad = format!("[Notation \"klingon\"]\n{text}");
        let err = bad.parse::<GameRecord>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "the Notation tag: unknown notation dialect 'klingon': expected standard or rear-piece"
        );
    }

    #[test]
    fn marks_and_comments_are_read_and_written_back() {
        let text = "[Board \"6x5\"]\n[Position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"]\n\n\
            1. e1,e3-e5!? {the only   try\n across lines} c2-d1?? 2. e4-d5 {} a5,c5-d5:2! *\n";
        let record: GameRecord = text.parse().unwrap();
        assert_eq!(record.moves().len(), 4);
        let first = record.annotation(0).unwrap();
        assert_eq!(first.mark, Some(MoveMark::Interesting));
        assert_eq!(first.comment.as_deref(), Some("the only try across lines"));
        assert_eq!(record.annotation(1).unwrap().mark, Some(MoveMark::Blunder));
        assert_eq!(record.annotation(2).unwrap(), &Annotation::default());
        assert_eq!(record.annotation(3).unwrap().mark, Some(MoveMark::Good));
        let written = record.to_string();
        assert!(
            written.ends_with(
                "1. e1,e3-e5!? {the only try across lines} 1... c2-d1?? 2. e4-d5 a5,c5-d5:2! *\n"
            ),
            "{written}"
        );
        let again: GameRecord = written.parse().unwrap();
        assert_eq!(again, record);
        assert_eq!(again.to_string(), written);
        // Taken back, the notes go with the moves.
        let mut shorter = record.clone();
        shorter.take_back(3);
        assert_eq!(shorter.annotation(1), None);
        assert_eq!(shorter.annotation(0), record.annotation(0));
    }

    #[test]
    fn annotating_keeps_comments_on_one_line_and_refuses_strays() {
        let mut record: GameRecord = "1. f1,g2-h3 e12,f11-h9 *".parse().unwrap();
        assert!(record.annotate(
            1,
            Annotation {
                mark: Some(MoveMark::Mistake),
                comment: Some("best {was}\nf11-f10".to_owned()),
            }
        ));
        assert!(!record.annotate(2, Annotation::default()));
        let written = record.to_string();
        assert!(
            written.contains("e12,f11-h9? {best (was) f11-f10} *"),
            "{written}"
        );
        assert_eq!(written.parse::<GameRecord>().unwrap(), record);
        for bad in [
            "{before} 1. f1,g2-h3 *",
            "1. f1,g2-h3 {never closed *",
            "1. f1,g2-h3 \u{1}0 *",
        ] {
            assert!(bad.parse::<GameRecord>().is_err(), "{bad:?}");
        }
        let err = "1. f1,g2-h3 {open".parse::<GameRecord>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "comment: '{open\n' is never closed with '}'"
        );
    }

    #[test]
    fn dates_are_written_as_pgn_dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_795_478_400), "2026.11.24");
        assert_eq!(pgn_date(1_795_564_799), "2026.11.24");
        assert_eq!(pgn_date(4_102_444_800), "2100.01.01");
    }

    #[test]
    fn taking_back_moves_reopens_the_game() {
        let mut record: GameRecord = SEEDS_004.parse().unwrap();
        let all = record.moves().to_vec();
        record.set_result(GameResult::WhiteWins).unwrap();
        record.set_tag("Termination", "resignation").unwrap();
        record.take_back(1);
        assert_eq!(record.moves(), &all[..3]);
        assert_eq!(record.result(), GameResult::Unfinished);
        assert_eq!(record.tag("Result"), Some("*"));
        assert_eq!(record.tag("Termination"), None, "the ending went with it");
        assert_eq!(*record.position(), record.position_after(3));
        record.push(all[3]).unwrap();
        record.take_back(10);
        assert!(record.moves().is_empty());
        assert_eq!(record.position(), record.start());
    }

    #[test]
    fn lenient_input_is_normalised() {
        let text = "[Board \"6x5\"]\n[Position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"]\n\n\
            1.E1,E3 - E5 c2-d1 2. e4-d5 A5.C5-D5\n";
        let record: GameRecord = text.parse().unwrap();
        assert_eq!(
            record.to_string(),
            "[Board \"6x5\"]\n[Position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"]\n\n\
             1. e1,e3-e5 c2-d1 2. e4-d5 a5,c5-d5:2 *\n"
        );
    }

    #[test]
    fn errors_name_the_move_number() {
        let err = "1. f1,g2-h3 e12,f11-h9 2. h1,h3-h7 *"
            .parse::<GameRecord>()
            .unwrap_err();
        assert!(
            err.to_string().starts_with("move 2. h1,h3-h7 (white): "),
            "{err}"
        );
        let err = "1. f1,g2-h3 e12,f11-h9 2. h1,h3-h6 zz *"
            .parse::<GameRecord>()
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("move 2... zz (black): 'zz' is not a move"),
            "{err}"
        );
        let err = "[Result \"1-0\"]\n\n1. f1,g2-h3 0-1"
            .parse::<GameRecord>()
            .unwrap_err();
        assert_eq!(
            err,
            RecordError::ResultMismatch {
                tag: GameResult::WhiteWins,
                moves: GameResult::BlackWins
            }
        );
        assert!(matches!(
            "[Board \"8x8\"]\n[Position \"4/4/4/4 w\"]".parse::<GameRecord>(),
            Err(RecordError::SizeMismatch { .. })
        ));
        assert!(matches!(
            "[Board 8x8]".parse::<GameRecord>(),
            Err(RecordError::BadTag { line: 1, .. })
        ));
    }

    #[test]
    fn moves_from_other_positions_are_refused() {
        // A quiet move in one position is a capture in another.
        let quiet: Position = "4/4/w3/w3 w".parse().unwrap();
        let mv = quiet.parse_move("a1,a2-a4").unwrap();
        let capture: Position = "b3/4/w3/w3 w".parse().unwrap();
        let mut record = GameRecord::new(capture);
        assert_eq!(
            record.push(mv).unwrap_err().to_string(),
            "move 1. a1,a2-a4 (white) is not a legal move in this position"
        );
        // A move off a smaller board names the problem.
        let far = Position::standard().parse_move("n2-n3").unwrap();
        let mut record = GameRecord::new(Position::new(BoardSize::CROSSINGS, Symmetry::Mirror));
        let err = record.push(far).unwrap_err().to_string();
        assert!(err.contains("n2 is off the board"), "{err}");
        assert!(record.moves().is_empty());
    }

    #[test]
    fn move_numbers_are_checked() {
        let err = |text: &str| text.parse::<GameRecord>().unwrap_err().to_string();
        assert_eq!(
            err("1. f1,g2-h3 7. e12,f11-h9 *"),
            "move number 7. found where 1... was due"
        );
        assert_eq!(
            err("1. f1,g2-h3 e12,f11-h9 3. h1,h3-h6 *"),
            "move number 3. found where 2. was due"
        );
        assert!(err("[Position \"4/4/4/4 b\"]\n\n1. a4-a3 *").contains("1... was due"));
        // A lone `...` and numbers glued to moves are fine.
        let record: GameRecord = "1.f1,g2-h3 ... e12,f11-h9 2.h1,h3-h6 *".parse().unwrap();
        assert_eq!(record.to_string(), "1. f1,g2-h3 e12,f11-h9 2. h1,h3-h6 *\n");
    }

    #[test]
    fn layout_problems_are_named() {
        let record: GameRecord = "\u{feff}[White \"a\"]\n\n1. f1,g2-h3 *".parse().unwrap();
        assert_eq!(record.tag("White"), Some("a"));
        assert_eq!(
            "1. f1,g2-h3 *\n[White \"a\"]".parse::<GameRecord>(),
            Err(RecordError::MisplacedTag { line: 2 })
        );
        assert_eq!(
            "1. f1,g2-h3 * e12,f11-h9".parse::<GameRecord>(),
            Err(RecordError::AfterResult("e12,f11-h9".to_owned()))
        );
    }

    #[test]
    fn decided_starts_and_set_results_end_the_game() {
        // White has crossed at the start of its turn: the game is over.
        let record = GameRecord::new("w3/4/4/4 w".parse().unwrap());
        assert_eq!(record.result(), GameResult::WhiteWins);
        assert_eq!(record.to_string().parse::<GameRecord>(), Ok(record));
        // A resignation ends the game for moves too.
        let mut record = GameRecord::new(Position::standard());
        record.push_text("f1,g2-h3").unwrap();
        record.set_result(GameResult::WhiteWins).unwrap();
        assert_eq!(
            record.push_text("e12,f11-h9"),
            Err(RecordError::Finished(GameResult::WhiteWins))
        );
    }

    #[test]
    fn tag_values_stay_on_their_line() {
        let mut record = GameRecord::new(Position::standard());
        assert_eq!(
            record.set_tag("Event", "a\nb"),
            Err(RecordError::BadTagValue("Event".to_owned()))
        );
        assert_eq!(
            record.set_tag("Bad Name", "x"),
            Err(RecordError::BadTagName("Bad Name".to_owned()))
        );
    }

    #[test]
    fn files_of_several_records() {
        let one: GameRecord = SEEDS_004.parse().unwrap();
        let two: GameRecord = "1. f1,g2-h3 e12,f11-h9 *".parse().unwrap();
        let file = format!("{one}\n{two}\n{one}");
        let all = GameRecord::read_all(&file).unwrap();
        assert_eq!(all, vec![one.clone(), two, one]);
        let broken = format!("{}\n[White \"x\"]\n\n1. a1-a9 *\n", SEEDS_004);
        assert!(matches!(
            GameRecord::read_all(&broken),
            Err((2, RecordError::Move { .. }))
        ));
        assert_eq!(GameRecord::read_all("\n\n"), Ok(Vec::new()));
    }

    #[test]
    fn a_built_record_round_trips() {
        let mut record = GameRecord::new(Position::new(BoardSize::CROSSINGS, Symmetry::File));
        record.set_tag("White", "alice \"the bold\"").unwrap();
        assert!(record.set_tag("Board", "9x9").is_err());
        for text in ["a2-a3", "a7-a6", "b1,b2-b4"] {
            record.push_text(text).unwrap();
        }
        let text = record.to_string();
        let again: GameRecord = text.parse().unwrap();
        assert_eq!(again, record);
        assert_eq!(again.to_string(), text);
        assert_eq!(again.tag("White"), Some("alice \"the bold\""));
    }

    #[test]
    fn variant_records_name_their_variant_and_read_back() {
        let start = Position::new_variant(
            Variant::StumblingBlocks,
            BoardSize::new(6, 6).unwrap(),
            Symmetry::Mirror,
        )
        .unwrap();
        let mut record = GameRecord::new(start);
        for text in ["@b3", "@e4", "@c3", "e5-d4"] {
            record.push_text(text).unwrap();
        }
        let text = record.to_string();
        assert!(text.contains("[Variant \"stumbling-blocks\"]"), "{text}");
        assert!(text.contains("1. @b3 @e4 2. @c3 e5-d4"), "{text}");
        let again: GameRecord = text.parse().unwrap();
        assert_eq!(again, record);
        assert_eq!(again.position().stones().len(), 3);
        // A standard record names no variant.
        let standard = GameRecord::new(Position::standard()).to_string();
        assert!(!standard.contains("Variant"), "{standard}");
        // Crossings' defaults: 8x8, no symmetry rule.
        let crossings: GameRecord = "[Variant \"crossings\"]\n\n1. a2-a3 *".parse().unwrap();
        assert_eq!(crossings.start().size(), BoardSize::CROSSINGS);
        assert_eq!(crossings.start().symmetry(), Symmetry::Off);
        let err = |text: &str| text.parse::<GameRecord>().unwrap_err().to_string();
        assert!(err("[Variant \"chess\"]\n\n*").contains("unknown variant 'chess'"));
        assert!(
            err("[Position \"4/4/1s2/4 w\"]\n\n*").contains("stones"),
            "stones outside Stumbling Blocks"
        );
        let mut standard = GameRecord::new(Position::standard());
        assert_eq!(
            standard.set_tag("Variant", "crossings"),
            Err(RecordError::ManagedTag("Variant".to_owned()))
        );
    }

    #[test]
    fn crossings_is_drawn_by_the_third_repetition() {
        let start: Position = "w3/4/4/3b w".parse().unwrap();
        let start = start.with_variant(Variant::Crossings).unwrap();
        let start = start.with_symmetry(Symmetry::Off);
        let mut record = GameRecord::new(start);
        // White's only piece has crossed and is frozen: no move.
        assert!(record.start().legal_moves().is_empty(), "a4 is frozen");
        let start: Position = "w3/1w2/2b1/3b w".parse().unwrap();
        record = GameRecord::new(
            start
                .with_variant(Variant::Crossings)
                .unwrap()
                .with_symmetry(Symmetry::Off),
        );
        for _ in 0..2 {
            for text in ["b3-a3", "c2-c3", "a3-b3", "c3-c2"] {
                record.push_text(text).unwrap();
            }
        }
        assert!(record.is_drawn_by_repetition());
        assert_eq!(record.result(), GameResult::Draw);
        assert!(matches!(
            record.push_text("b3-a3"),
            Err(RecordError::Finished(GameResult::Draw))
        ));
        assert!(record.set_result(GameResult::WhiteWins).is_err());
        let text = record.to_string();
        assert!(text.ends_with("1/2-1/2\n"), "{text}");
        assert_eq!(text.parse::<GameRecord>().unwrap(), record);
        record.take_back(1);
        assert!(!record.is_drawn_by_repetition());
        assert_eq!(record.result(), GameResult::Unfinished);
    }
}
