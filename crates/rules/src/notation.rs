//! Move notation (RULES.md section 5).
//!
//! Reading a move has two steps, with two kinds of error. [`MoveText`] is the
//! syntax: squares and separators, checked without a position
//! ([`SyntaxError`]). [`MoveText::resolve`] then finds the move in a position:
//! which end is the head, how many pieces move, what is captured, and whether
//! the rules allow it ([`IllegalMove`], with the reason).
//!
//! Accepted input, in any letter case:
//! - the canonical pbmserv form: `c2-d1` for one piece, `e1,e3-e5` (tail,
//!   head, destination of the head) for a group;
//! - `.` instead of `,`; an en dash or ` - ` instead of `-`;
//! - the two ends of a group in either order (the destination shows which end
//!   is the head);
//! - the compact form `a5-d5` or `a5xd5`: the tail, then where the head lands
//!   (`x` asserts a capture);
//! - a capture mark `:N` after any form, checked against the move;
//! - in Abanondas, a sidestep `a1,b1-b2`: the run's two ends, then the
//!   square the second-named end steps onto (off the run's line);
//! - in Stumbling Blocks, a placement `@d6`.
//!
//! The rear-piece form of the Abstract Games article (`start-finish` of the
//! tail piece) looks like the compact form but means something else, so it is
//! read only when [`Dialect::RearPiece`] is asked for.

use std::fmt;
use std::str::FromStr;

use crate::{Color, Direction, Move, Outcome, Position, Square, Symmetry, Variant};

/// A notation dialect: how a two-square move like `a5-c5` is read and how
/// moves are written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Dialect {
    /// pbmserv's notation: `a5-c5` names the tail and where the head lands.
    #[default]
    Standard,
    /// The Abstract Games article's notation: `a5-c5` names where the tail
    /// starts and where it finishes.
    RearPiece,
}

impl Dialect {
    /// Both dialects, the default first.
    pub const ALL: [Dialect; 2] = [Dialect::Standard, Dialect::RearPiece];

    /// The dialect's name: `standard` or `rear-piece`.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Standard => "standard",
            Dialect::RearPiece => "rear-piece",
        }
    }

    /// `mv` written in this dialect: canonical for [`Dialect::Standard`],
    /// `tail-finish` for [`Dialect::RearPiece`].
    pub fn format(self, mv: Move) -> String {
        match self {
            Dialect::Standard => mv.to_string(),
            // Sidesteps and placements have one form.
            _ if mv.is_placement() || mv.sidestep().is_some() => mv.to_string(),
            Dialect::RearPiece => format!("{}-{}", mv.tail(), mv.tail_destination()),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text named no notation dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDialectError(pub String);

impl fmt::Display for ParseDialectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown notation dialect '{}': expected standard or rear-piece",
            self.0
        )
    }
}

impl std::error::Error for ParseDialectError {}

impl FromStr for Dialect {
    type Err = ParseDialectError;

    /// Reads `standard` (also `pbmserv`, `canonical`) or `rear-piece` (also `rear`).
    fn from_str(s: &str) -> Result<Dialect, ParseDialectError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "standard" | "pbmserv" | "canonical" => Ok(Dialect::Standard),
            "rear-piece" | "rear" | "rearpiece" => Ok(Dialect::RearPiece),
            _ => Err(ParseDialectError(crate::excerpt(s))),
        }
    }
}

/// What a move's text says about captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureMark {
    /// Nothing: the move may or may not capture.
    Unmarked,
    /// `x` before the destination: the move captures.
    Captures,
    /// `:N` at the end: the move captures exactly N pieces.
    Count(u8),
}

/// A move as written, read without a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveText {
    /// The first square written.
    pub first: Square,
    /// The other end of the group, if two ends were written.
    pub second: Option<Square>,
    /// Where the move goes (see [`Dialect`] for what that means in the short form).
    pub to: Square,
    /// The capture mark, if any.
    pub mark: CaptureMark,
    /// Whether the text is a placement `@d6` (Stumbling Blocks), of the
    /// stone on `first` (which `to` repeats).
    pub placement: bool,
}

/// Why text is not a move at all (before looking at any position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// The text is empty.
    Empty,
    /// A square was expected here (the rest of the text is given).
    ExpectedSquare(String),
    /// A letter and a number that name no square (rank 0 or above 26).
    BadSquare(String),
    /// The separator before the destination (`-`, en dash or `x`) is missing.
    ExpectedDestination(String),
    /// The capture mark is not `:` and a number.
    BadCaptureMark(String),
    /// Text follows the move.
    Trailing(String),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::Empty => write!(f, "no move given"),
            SyntaxError::ExpectedSquare(rest) if rest.is_empty() => {
                write!(f, "a square is missing at the end")
            }
            SyntaxError::ExpectedSquare(rest) => {
                write!(f, "expected a square like e5 at '{rest}'")
            }
            SyntaxError::BadSquare(token) => {
                write!(f, "'{token}' is not a square: ranks run from 1 to 26")
            }
            SyntaxError::ExpectedDestination(rest) if rest.is_empty() => write!(
                f,
                "the destination is missing: write it after '-', like c2-d1 or e1,e3-e5"
            ),
            SyntaxError::ExpectedDestination(rest) => write!(
                f,
                "expected '-' and the destination at '{rest}', like c2-d1 or e1,e3-e5"
            ),
            SyntaxError::BadCaptureMark(rest) => write!(
                f,
                "bad capture mark '{rest}': write ':' and the number captured, like :2"
            ),
            SyntaxError::Trailing(rest) => write!(f, "unexpected '{rest}' after the move"),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// A cursor over move text.
struct Cursor<'a> {
    rest: &'a str,
}

impl<'a> Cursor<'a> {
    fn skip_spaces(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, options: &[char]) -> Option<char> {
        let c = self.rest.chars().next()?;
        if options.contains(&c) {
            self.rest = &self.rest[c.len_utf8()..];
            Some(c)
        } else {
            None
        }
    }

    fn square(&mut self) -> Result<Square, SyntaxError> {
        let bytes = self.rest.as_bytes();
        if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
            return Err(SyntaxError::ExpectedSquare(crate::excerpt(self.rest)));
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(SyntaxError::ExpectedSquare(crate::excerpt(self.rest)));
        }
        let token = &self.rest[..1 + digits];
        let square = token
            .parse()
            .map_err(|_| SyntaxError::BadSquare(crate::excerpt(token)))?;
        self.rest = &self.rest[token.len()..];
        Ok(square)
    }
}

impl FromStr for MoveText {
    type Err = SyntaxError;

    fn from_str(s: &str) -> Result<MoveText, SyntaxError> {
        let mut cur = Cursor { rest: s.trim() };
        if cur.rest.is_empty() {
            return Err(SyntaxError::Empty);
        }
        if cur.eat(&['@']).is_some() {
            cur.skip_spaces();
            let square = cur.square()?;
            cur.skip_spaces();
            if !cur.rest.is_empty() {
                return Err(SyntaxError::Trailing(crate::excerpt(cur.rest)));
            }
            return Ok(MoveText {
                first: square,
                second: None,
                to: square,
                mark: CaptureMark::Unmarked,
                placement: true,
            });
        }
        let first = cur.square()?;
        cur.skip_spaces();
        let second = if cur.eat(&[',', '.']).is_some() {
            cur.skip_spaces();
            Some(cur.square()?)
        } else {
            None
        };
        cur.skip_spaces();
        let separator = cur
            .eat(&['-', '\u{2013}', 'x', 'X'])
            .ok_or_else(|| SyntaxError::ExpectedDestination(crate::excerpt(cur.rest)))?;
        cur.skip_spaces();
        let to = cur.square()?;
        cur.skip_spaces();
        let mut mark = if matches!(separator, 'x' | 'X') {
            CaptureMark::Captures
        } else {
            CaptureMark::Unmarked
        };
        if cur.eat(&[':']).is_some() {
            cur.skip_spaces();
            let digits = cur.rest.bytes().take_while(u8::is_ascii_digit).count();
            let count = cur.rest[..digits]
                .parse::<u8>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| SyntaxError::BadCaptureMark(crate::excerpt(cur.rest)))?;
            cur.rest = &cur.rest[digits..];
            mark = CaptureMark::Count(count);
        }
        cur.skip_spaces();
        if !cur.rest.is_empty() {
            return Err(SyntaxError::Trailing(crate::excerpt(cur.rest)));
        }
        Ok(MoveText {
            first,
            second,
            to,
            mark,
            placement: false,
        })
    }
}

impl fmt::Display for MoveText {
    /// The text in normal form: lower case, `,` between the ends, `-` or `x`
    /// before the destination, `:N` after it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.placement {
            return write!(f, "@{}", self.first);
        }
        write!(f, "{}", self.first)?;
        if let Some(second) = self.second {
            write!(f, ",{second}")?;
        }
        let separator = if self.mark == CaptureMark::Captures {
            'x'
        } else {
            '-'
        };
        write!(f, "{separator}{}", self.to)?;
        if let CaptureMark::Count(n) = self.mark {
            write!(f, ":{n}")?;
        }
        Ok(())
    }
}

/// Why a well-formed move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The game is already over.
    GameOver(Outcome),
    /// A square of the move is off the board.
    OffBoard(Square),
    /// The move would leave the board.
    LeavesBoard,
    /// The moving piece is not the mover's.
    NotYourPiece {
        /// The square named.
        square: Square,
        /// The side to move.
        mover: Color,
        /// What stands there instead.
        found: Option<Color>,
    },
    /// The squares named are not on one straight line.
    NotInLine,
    /// A square between the two ends of the group is not the mover's piece.
    NotAPhalanx(Square),
    /// The group named stops short of its front end: this square, ahead of the
    /// named head, is also the mover's, and a group always includes it.
    NotTheFront(Square),
    /// The group would move further than it has pieces.
    TooFar {
        /// Pieces in the group.
        group: u8,
        /// Squares asked for.
        distance: u8,
    },
    /// A piece stands in the way (the destination included, if it is the mover's own).
    Blocked(Square),
    /// A single piece cannot capture.
    SingleCannotCapture,
    /// The enemy line is not shorter than the moving group.
    TooStrong {
        /// Pieces in the moving group.
        group: u8,
        /// Pieces in the enemy line from the destination on.
        enemies: u8,
    },
    /// The capture mark does not match what the move captures.
    WrongCaptureCount {
        /// The count written.
        marked: u8,
        /// The count captured.
        actual: u8,
    },
    /// The text marks a capture (`x`) but the move captures nothing.
    NotACapture,
    /// The move puts a piece on the goal rank and leaves a symmetric position.
    Symmetry(Symmetry),
    /// Crossings: the piece has crossed (it stands on its goal rank), so it
    /// can no longer move.
    Frozen(Square),
    /// Crossings: the enemy piece has crossed, so it cannot be captured.
    FrozenTarget(Square),
    /// Stumbling Blocks: stones are still to be placed before any piece moves.
    MustPlaceStone {
        /// Stones left to place.
        left: u8,
    },
    /// A placement where the game places no stones (another variant, or
    /// all three are placed).
    NoStoneToPlace,
    /// Stumbling Blocks: a stone may not be placed on this square's rank.
    NotAPlacementSquare {
        /// The square named.
        square: Square,
        /// The lowest placement rank (from 1).
        low: u8,
        /// The highest placement rank (from 1).
        high: u8,
    },
    /// Abanondas: a sidestep's step must be one square, off the run's line
    /// (only north, south, east or west for a diagonal run).
    BadSidestep,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalReason::*;
        match self {
            GameOver(outcome) => write!(f, "the game is over: {outcome}"),
            OffBoard(square) => write!(f, "{square} is off the board"),
            LeavesBoard => write!(f, "the move would leave the board"),
            NotYourPiece {
                square,
                mover,
                found: None,
            } => write!(f, "there is no {mover} piece on {square}: it is empty"),
            NotYourPiece {
                square,
                mover,
                found: Some(other),
            } => write!(
                f,
                "there is no {mover} piece on {square}: it holds a {other} piece"
            ),
            NotInLine => write!(
                f,
                "the destination is not on a straight line beyond the moving pieces"
            ),
            NotAPhalanx(square) => write!(
                f,
                "{square} is not one of your pieces, so the group is not a phalanx"
            ),
            NotTheFront(square) => write!(
                f,
                "your piece on {square} is in the way: a moving group always includes the pieces ahead of it"
            ),
            TooFar { group, distance } => write!(
                f,
                "a group of {group} can move at most {group} square{}, not {distance}",
                if *group == 1 { "" } else { "s" }
            ),
            Blocked(square) => write!(f, "the way is blocked at {square}"),
            SingleCannotCapture => write!(f, "a single piece cannot capture"),
            TooStrong { group, enemies } => write!(
                f,
                "the enemy line has {enemies} piece{}, and a group of {group} can only capture fewer",
                if *enemies == 1 { "" } else { "s" }
            ),
            WrongCaptureCount { marked, actual } => {
                write!(f, "the move captures {actual}, not {marked}")
            }
            NotACapture => write!(f, "the move is marked as a capture but captures nothing"),
            Symmetry(option) => write!(
                f,
                "the move puts a piece on the goal rank and leaves a symmetric position (symmetry rule, option {option})"
            ),
            Frozen(square) => write!(
                f,
                "the piece on {square} has crossed: in crossings a crossed piece can no longer move"
            ),
            FrozenTarget(square) => write!(
                f,
                "the piece on {square} has crossed: in crossings a crossed piece cannot be captured"
            ),
            MustPlaceStone { left } => write!(
                f,
                "{left} stone{} must be placed before any piece moves: write a placement like @d6",
                if *left == 1 { "" } else { "s" }
            ),
            NoStoneToPlace => write!(f, "there is no stone to place in this game"),
            NotAPlacementSquare { square, low, high } => write!(
                f,
                "a stone cannot go on {square}: stones are placed on ranks {low} to {high}"
            ),
            BadSidestep => write!(
                f,
                "a sidestep moves each piece of the run one square off its line (a diagonal run only north, south, east or west)"
            ),
        }
    }
}

/// A move that was read but cannot be played, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move as written (normalised).
    pub text: MoveText,
    /// Why it cannot be played.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is illegal: {}", self.text, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// Why text could not be read as a move of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// The text is not a move at all.
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        error: SyntaxError,
    },
    /// The text is a move, but not a legal one here.
    Illegal(IllegalMove),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Syntax { text, error } => write!(f, "'{text}' is not a move: {error}"),
            ParseMoveError::Illegal(illegal) => illegal.fmt(f),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl MoveText {
    /// Finds the move this text names in `pos`, reading the short two-square
    /// form in `dialect`.
    pub fn resolve(&self, pos: &Position, dialect: Dialect) -> Result<Move, IllegalMove> {
        let fail = |reason| IllegalMove {
            text: *self,
            reason,
        };
        if let Some(outcome) = pos.outcome() {
            return Err(fail(IllegalReason::GameOver(outcome)));
        }
        let size = pos.size();
        for square in [Some(self.first), self.second, Some(self.to)]
            .into_iter()
            .flatten()
        {
            if !size.contains(square) {
                return Err(fail(IllegalReason::OffBoard(square)));
            }
        }
        let mover = pos.turn();
        if self.placement {
            return self.resolve_placement(pos);
        }
        let left = pos.stones_to_place();
        if left > 0 {
            return Err(fail(IllegalReason::MustPlaceStone { left }));
        }
        if let Some(second) = self.second
            && pos.variant() == Variant::Abanondas
            && second != self.first
            && self.first.line_to(second).is_some_and(|(line, _)| {
                !matches!(second.line_to(self.to), Some((d, _)) if d == line)
                    && !matches!(self.first.line_to(self.to), Some((d, _)) if d == line.opposite())
            })
        {
            return self.resolve_sidestep(pos, second);
        }
        let mine = |sq: Square| pos.piece_at(sq) == Some(mover);
        // The front of the friendly line from `tail` in `direction`.
        let front_of = |tail: Square, direction: Direction| -> (Square, u8) {
            let mut head = tail;
            let mut group = 1;
            while let Some(next) = head.offset(direction, 1).filter(|&sq| mine(sq)) {
                head = next;
                group += 1;
            }
            (head, group)
        };

        // Tail, direction, group size and distance as the text says them.
        let (tail, direction, group, distance) = match (self.second, dialect) {
            // Both ends on one square: a group of one, whatever the dialect.
            (Some(second), _) if second == self.first => {
                let (direction, distance) = self
                    .first
                    .line_to(self.to)
                    .ok_or_else(|| fail(IllegalReason::NotInLine))?;
                (self.first, direction, 1, distance)
            }
            (Some(second), _) => {
                let (along, length) = self
                    .first
                    .line_to(second)
                    .ok_or_else(|| fail(IllegalReason::NotInLine))?;
                let (tail, head, direction) =
                    match (second.line_to(self.to), self.first.line_to(self.to)) {
                        (Some((d, _)), _) if d == along => (self.first, second, along),
                        (_, Some((d, _))) if d == along.opposite() => (second, self.first, d),
                        _ => return Err(fail(IllegalReason::NotInLine)),
                    };
                let distance = head.line_to(self.to).map_or(0, |(_, n)| n);
                (tail, direction, length + 1, distance)
            }
            // The short form: the tail, then where the head lands (standard)
            // or where the tail lands (rear-piece).
            (_, dialect) => {
                let (direction, span) = self
                    .first
                    .line_to(self.to)
                    .ok_or_else(|| fail(IllegalReason::NotInLine))?;
                if !mine(self.first) {
                    return Err(fail(IllegalReason::NotYourPiece {
                        square: self.first,
                        mover,
                        found: pos.piece_at(self.first),
                    }));
                }
                let (_, group) = front_of(self.first, direction);
                let distance = match dialect {
                    Dialect::RearPiece => span,
                    Dialect::Standard if span < group => {
                        return Err(fail(IllegalReason::Blocked(self.to)));
                    }
                    Dialect::Standard => span - (group - 1),
                };
                (self.first, direction, group, distance)
            }
        };

        // The group: every square from tail to head is the mover's, and the
        // square after the head is not.
        for i in 0..group {
            let sq = tail
                .offset(direction, i.into())
                .ok_or_else(|| fail(IllegalReason::LeavesBoard))?;
            if !mine(sq) {
                return Err(fail(if i == 0 {
                    IllegalReason::NotYourPiece {
                        square: sq,
                        mover,
                        found: pos.piece_at(sq),
                    }
                } else {
                    IllegalReason::NotAPhalanx(sq)
                }));
            }
        }
        let head = tail
            .offset(direction, i32::from(group) - 1)
            .ok_or_else(|| fail(IllegalReason::LeavesBoard))?;
        if let Some(next) = head.offset(direction, 1).filter(|&sq| mine(sq)) {
            return Err(fail(IllegalReason::NotTheFront(next)));
        }
        if distance > group {
            return Err(fail(IllegalReason::TooFar { group, distance }));
        }
        // The path, then the destination.
        for i in 1..distance {
            let sq = head
                .offset(direction, i.into())
                .filter(|&sq| size.contains(sq))
                .ok_or_else(|| fail(IllegalReason::LeavesBoard))?;
            if pos.piece_at(sq).is_some() || pos.stone_at(sq) {
                return Err(fail(IllegalReason::Blocked(sq)));
            }
        }
        let destination = head
            .offset(direction, distance.into())
            .filter(|&sq| size.contains(sq))
            .ok_or_else(|| fail(IllegalReason::LeavesBoard))?;
        let crossings = pos.variant() == Variant::Crossings;
        if crossings
            && let Some(frozen) = (0..group).find_map(|i| {
                tail.offset(direction, i.into())
                    .filter(|sq| sq.rank() == pos.goal_rank(mover))
            })
        {
            return Err(fail(IllegalReason::Frozen(frozen)));
        }
        if pos.stone_at(destination) {
            return Err(fail(IllegalReason::Blocked(destination)));
        }
        let mut enemies: u8 = 0;
        match pos.piece_at(destination) {
            Some(c) if c == mover => return Err(fail(IllegalReason::Blocked(destination))),
            Some(_) if crossings && destination.rank() == pos.goal_rank(!mover) => {
                return Err(fail(IllegalReason::FrozenTarget(destination)));
            }
            Some(_) => {
                while destination
                    .offset(direction, enemies.into())
                    .is_some_and(|sq| pos.piece_at(sq) == Some(!mover))
                {
                    enemies += 1;
                }
                if group == 1 {
                    return Err(fail(IllegalReason::SingleCannotCapture));
                }
                if enemies >= group {
                    return Err(fail(IllegalReason::TooStrong { group, enemies }));
                }
            }
            None => {}
        }
        // Crossings takes only the piece on the landing square.
        let captured = if crossings { enemies.min(1) } else { enemies };
        self.check_mark(captured)?;
        let mv = Move::new(tail, direction, group, distance, captured);
        self.checked_by_symmetry(pos, mv)
    }

    /// The error for this text with `reason`.
    fn illegal(&self, reason: IllegalReason) -> IllegalMove {
        IllegalMove {
            text: *self,
            reason,
        }
    }

    /// Whether the capture mark agrees with a move capturing `captured`.
    fn check_mark(&self, captured: u8) -> Result<(), IllegalMove> {
        match self.mark {
            CaptureMark::Count(marked) if marked != captured => {
                Err(self.illegal(IllegalReason::WrongCaptureCount {
                    marked,
                    actual: captured,
                }))
            }
            CaptureMark::Captures if captured == 0 => Err(self.illegal(IllegalReason::NotACapture)),
            _ => Ok(()),
        }
    }

    /// `mv`, which breaks no rule but the symmetry rule perhaps, if that
    /// does not forbid it either.
    fn checked_by_symmetry(&self, pos: &Position, mv: Move) -> Result<Move, IllegalMove> {
        if pos.is_legal(mv) {
            Ok(mv)
        } else {
            // Every other rule was checked, so only the symmetry rule is left.
            Err(self.illegal(IllegalReason::Symmetry(pos.symmetry())))
        }
    }

    /// Resolves a placement `@d6` (Stumbling Blocks).
    fn resolve_placement(&self, pos: &Position) -> Result<Move, IllegalMove> {
        let square = self.first;
        if pos.stones_to_place() == 0 {
            return Err(self.illegal(IllegalReason::NoStoneToPlace));
        }
        let ranks = Variant::placement_ranks(pos.size());
        if !ranks.contains(&square.rank()) {
            return Err(self.illegal(IllegalReason::NotAPlacementSquare {
                square,
                low: ranks.start() + 1,
                high: ranks.end() + 1,
            }));
        }
        if pos.piece_at(square).is_some() || pos.stone_at(square) {
            return Err(self.illegal(IllegalReason::Blocked(square)));
        }
        self.checked_by_symmetry(pos, Move::new_placement(square))
    }

    /// Resolves a sidestep (Abanondas): `first,second-to`, where `to` is
    /// the square `second` steps onto, off the line of the run.
    fn resolve_sidestep(&self, pos: &Position, second: Square) -> Result<Move, IllegalMove> {
        let mover = pos.turn();
        let (line, length) = self
            .first
            .line_to(second)
            .ok_or_else(|| self.illegal(IllegalReason::NotInLine))?;
        let step = match second.line_to(self.to) {
            Some((step, 1)) => step,
            _ => return Err(self.illegal(IllegalReason::BadSidestep)),
        };
        let (df, dr) = step.step();
        if line.step().0 != 0 && line.step().1 != 0 && df != 0 && dr != 0 {
            return Err(self.illegal(IllegalReason::BadSidestep));
        }
        let run = length + 1;
        for i in 0..run {
            let square = self
                .first
                .offset(line, i.into())
                .ok_or_else(|| self.illegal(IllegalReason::LeavesBoard))?;
            if pos.piece_at(square) != Some(mover) {
                return Err(self.illegal(if i == 0 {
                    IllegalReason::NotYourPiece {
                        square,
                        mover,
                        found: pos.piece_at(square),
                    }
                } else {
                    IllegalReason::NotAPhalanx(square)
                }));
            }
            let target = square
                .offset(step, 1)
                .filter(|&sq| pos.size().contains(sq))
                .ok_or_else(|| self.illegal(IllegalReason::LeavesBoard))?;
            if pos.piece_at(target).is_some() || pos.stone_at(target) {
                return Err(self.illegal(IllegalReason::Blocked(target)));
            }
        }
        self.check_mark(0)?;
        // The generator names a run by its end with the lower rank (on a
        // rank, the lower file).
        let (tail, line) = if matches!(
            line,
            Direction::East | Direction::North | Direction::NorthEast | Direction::NorthWest
        ) {
            (self.first, line)
        } else {
            (second, line.opposite())
        };
        self.checked_by_symmetry(pos, Move::new_sidestep(tail, line, run, step))
    }
}

impl Position {
    /// Reads a move of the side to move in the standard notation (see the
    /// [`notation`](crate::notation) module for the accepted forms).
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        self.parse_move_in(text, Dialect::Standard)
    }

    /// Reads a move of the side to move, reading the two-square form in `dialect`.
    pub fn parse_move_in(&self, text: &str, dialect: Dialect) -> Result<Move, ParseMoveError> {
        let parsed: MoveText = text.parse().map_err(|error| ParseMoveError::Syntax {
            text: crate::excerpt(text),
            error,
        })?;
        parsed
            .resolve(self, dialect)
            .map_err(ParseMoveError::Illegal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeds004() -> Position {
        "bbb3/2b3/4w1/1wb1w1/w3w1 w".parse().unwrap()
    }

    #[test]
    fn canonical_and_accepted_forms() {
        let pos = seeds004();
        let canonical = pos.parse_move("e1,e3-e5").unwrap();
        assert_eq!(canonical.to_string(), "e1,e3-e5");
        for text in [
            "E1,E3-E5",
            "e1.e3-e5",
            "e3,e1-e5",
            "e1,e3 - e5",
            "e1,e3\u{2013}e5",
            "e1-e5",
            " e1 , e3 - e5 ",
        ] {
            assert_eq!(pos.parse_move(text), Ok(canonical), "{text}");
        }
        assert_eq!(
            pos.parse_move_in("e1-e3", Dialect::RearPiece),
            Ok(canonical)
        );
        assert_eq!(Dialect::RearPiece.format(canonical), "e1-e3");
    }

    #[test]
    fn capture_marks_are_checked() {
        let mut pos = seeds004();
        for text in ["e1,e3-e5", "c2-d1", "e4-d5"] {
            let mv = pos.parse_move(text).unwrap();
            pos.play(mv).unwrap();
        }
        let capture = pos.parse_move("a5,c5-d5").unwrap();
        assert_eq!(capture.captures(), 2);
        assert_eq!(capture.with_capture_mark().to_string(), "a5,c5-d5:2");
        assert_eq!(pos.parse_move("a5,c5-d5:2"), Ok(capture));
        assert_eq!(pos.parse_move("a5xd5"), Ok(capture));
        let err = pos.parse_move("a5,c5-d5:3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "a5,c5-d5:3 is illegal: the move captures 2, not 3"
        );
        assert!(matches!(
            pos.parse_move("b5xa4"),
            Err(ParseMoveError::Illegal(IllegalMove {
                reason: IllegalReason::NotACapture,
                ..
            }))
        ));
    }

    #[test]
    fn syntax_errors_differ_from_illegal_moves() {
        let pos = Position::standard();
        for text in [
            "",
            "e",
            "e1",
            "e1,",
            "e1-",
            "e1-e2 junk",
            "e1-e2:",
            "e1-e2:0",
            "1e-e2",
            "e1;e2-e3",
        ] {
            assert!(
                matches!(pos.parse_move(text), Err(ParseMoveError::Syntax { .. })),
                "{text}"
            );
        }
        let reason = |text: &str| match pos.parse_move(text) {
            Err(ParseMoveError::Illegal(illegal)) => illegal.reason,
            other => panic!("{text}: {other:?}"),
        };
        assert!(pos.parse_move("e1,e2-e4").is_ok());
        assert!(matches!(
            reason("e3-e4"),
            IllegalReason::NotYourPiece { found: None, .. }
        ));
        assert!(matches!(
            reason("e12-e11"),
            IllegalReason::NotYourPiece {
                found: Some(Color::Black),
                ..
            }
        ));
        assert_eq!(
            reason("e1-e2"),
            IllegalReason::Blocked("e2".parse().unwrap())
        );
        assert_eq!(reason("e2-f4"), IllegalReason::NotInLine);
        assert_eq!(
            reason("z1-z2"),
            IllegalReason::OffBoard("z1".parse().unwrap())
        );
        assert_eq!(
            reason("e1,e2-e5"),
            IllegalReason::TooFar {
                group: 2,
                distance: 3
            }
        );
        assert_eq!(reason("a1,b1-b2"), IllegalReason::NotInLine);
        assert_eq!(
            reason("a1,b1-c1"),
            IllegalReason::NotTheFront("c1".parse().unwrap())
        );
        assert_eq!(
            reason("a1,c1-d1"),
            IllegalReason::NotTheFront("d1".parse().unwrap())
        );
        // Both ends on one square: a group of one in either dialect.
        let column: Position = "4/4/w3/w3 w".parse().unwrap();
        for dialect in Dialect::ALL {
            assert!(matches!(
                column.parse_move_in("a1,a1-a3", dialect),
                Err(ParseMoveError::Illegal(IllegalMove {
                    reason: IllegalReason::NotTheFront(_),
                    ..
                }))
            ));
        }
        // Squares past the largest board are named whole.
        for (text, token) in [
            ("a100-a2", "'a100'"),
            ("e1-e123", "'e123'"),
            ("a0-a1", "'a0'"),
        ] {
            let err = pos.parse_move(text).unwrap_err().to_string();
            assert!(err.contains(token), "{text}: {err}");
        }
    }

    #[test]
    fn a_huge_move_is_quoted_by_a_short_prefix() {
        let pos = Position::standard();
        for text in [
            format!("a1-a2{}", "x".repeat(1 << 20)),
            format!("a{}", "1".repeat(1 << 20)),
            "z".repeat(1 << 20),
        ] {
            let err = pos.parse_move(&text).unwrap_err().to_string();
            assert!(err.len() < 200, "{} bytes: {}", err.len(), &err[..200]);
        }
    }
}
