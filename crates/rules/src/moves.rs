//! The move type and the reusable buffer that move generation fills.

use std::fmt;
use std::ops::Deref;

use crate::{BoardSize, Direction, MAX_DIMENSION, Square};

/// A move: the tail piece, the direction, how many pieces move and how far.
///
/// The moving group is the tail and every friendly piece directly ahead of it
/// in the direction, so the group size is fixed by the position; it is kept
/// here together with the number of pieces captured so that a move can be
/// printed and undone without the position. Moves are made by the rules
/// (generation or parsing against a position), never assembled by hand.
///
/// Two variants add kinds of move (RULES.md section 7): an Abanondas
/// **sidestep** moves a run of pieces one square off its line
/// ([`Move::sidestep`]), and a Stumbling Blocks **placement** puts a neutral
/// stone on a square ([`Move::is_placement`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    tail: Square,
    direction: Direction,
    /// 0 for a placement.
    group: u8,
    /// The distance in the low five bits ([`DISTANCE_BITS`]): 0 for a
    /// sidestep or a placement, which keep a sidestep's direction (its
    /// index) in the top three bits. (The move stays six bytes, and a
    /// phalanx move reads as it always did.)
    distance: u8,
    captures: u8,
}

/// The bits of [`Move`]'s `distance` byte that hold the distance.
const DISTANCE_BITS: u8 = 0x1F;

impl Move {
    #[inline(always)]
    pub(crate) fn new(
        tail: Square,
        direction: Direction,
        group: u8,
        distance: u8,
        captures: u8,
    ) -> Move {
        debug_assert!(group >= 1 && distance >= 1 && distance <= group);
        Move {
            tail,
            direction,
            group,
            distance,
            captures,
        }
    }

    /// The sidestep of the run of `run` pieces from `tail` in `line` (the
    /// direction from the tail to the run's other end), each piece moving
    /// one square in `step`.
    pub(crate) fn new_sidestep(tail: Square, line: Direction, run: u8, step: Direction) -> Move {
        debug_assert!(run >= 2 && step != line && step != line.opposite());
        Move {
            tail,
            direction: line,
            group: run,
            distance: (step.index() as u8) << 5,
            captures: 0,
        }
    }

    /// The placement of a stone on `square`.
    pub(crate) fn new_placement(square: Square) -> Move {
        Move {
            tail: square,
            direction: Direction::ALL[0],
            group: 0,
            distance: 0,
            captures: 0,
        }
    }

    /// The same move seen in a mirror down the middle of a board of `size`
    /// (files `a` and last swap, east and west swap): the move of the
    /// reflected position ([`crate::Position::reflected`]) that gives the
    /// reflection of the position after this one. `None` when the move's
    /// tail is not on the board.
    pub fn reflected(self, size: BoardSize) -> Option<Move> {
        let Some(step) = self.sidestep() else {
            return Some(Move {
                tail: self.tail.reflected(size)?,
                direction: self.direction.reflected(),
                ..self
            });
        };
        // A run along a rank is named from its western end, which the
        // mirror makes its eastern one.
        let (tail, line) = match self.direction.reflected() {
            Direction::West => (
                self.tail
                    .offset(self.direction, i32::from(self.group) - 1)?,
                Direction::East,
            ),
            line => (self.tail, line),
        };
        Some(Move {
            tail: tail.reflected(size)?,
            direction: line,
            distance: (step.reflected().index() as u8) << 5,
            ..self
        })
    }

    /// Whether the move places a stone (Stumbling Blocks) rather than
    /// moving pieces; its square is [`Move::tail`].
    pub const fn is_placement(self) -> bool {
        self.group == 0
    }

    /// The direction every piece of a sidestep (Abanondas) moves in, or
    /// `None` for any other move. A sidestep's [`Move::direction`] is its
    /// run's line, from the tail to the other end.
    #[inline]
    pub fn sidestep(self) -> Option<Direction> {
        (self.group >= 2 && self.distance & DISTANCE_BITS == 0)
            .then(|| Direction::ALL[usize::from(self.distance >> 5)])
    }

    /// Whether this is a phalanx move (of the standard game and every
    /// variant): neither a sidestep nor a placement.
    #[inline(always)]
    const fn is_phalanx_move(self) -> bool {
        self.distance & DISTANCE_BITS != 0
    }

    /// The rearmost piece of the moving group (one end of a sidestep's
    /// run; a placement's square).
    pub const fn tail(self) -> Square {
        self.tail
    }

    /// The direction the group travels.
    pub const fn direction(self) -> Direction {
        self.direction
    }

    /// Number of pieces that move (1 for a single piece, 0 for a placement).
    pub const fn group_size(self) -> u8 {
        self.group
    }

    /// Number of squares every moving piece travels along its line (0 for
    /// a sidestep, which moves one square off it, and for a placement).
    pub const fn distance(self) -> u8 {
        self.distance & DISTANCE_BITS
    }

    /// Number of enemy pieces the move removes.
    pub const fn captures(self) -> u8 {
        self.captures
    }

    /// Whether the move removes enemy pieces.
    pub const fn is_capture(self) -> bool {
        self.captures > 0
    }

    fn along(self, steps: u8) -> Square {
        let (df, dr) = self.direction.step();
        let steps = i32::from(steps);
        let file = i32::from(self.tail.file()) + df * steps;
        let rank = i32::from(self.tail.rank()) + dr * steps;
        // A move is only ever built from a position, so it stays on the board.
        Square::new_unchecked(file as u8, rank as u8)
    }

    /// `square` moved one square in the sidestep's direction.
    fn stepped(self, square: Square) -> Square {
        match self.sidestep() {
            // A sidestep is only ever built from a position, so it stays on the board.
            Some(step) => square.offset(step, 1).unwrap_or(square),
            None => square,
        }
    }

    /// The frontmost piece of the moving group (the tail for a single piece
    /// and for a placement; a sidestep's other end).
    pub fn head(self) -> Square {
        self.along(self.group.saturating_sub(1))
    }

    /// Where the head lands (a placement's square).
    #[inline]
    pub fn destination(self) -> Square {
        if self.is_phalanx_move() {
            self.along(self.group - 1 + self.distance)
        } else {
            self.stepped(self.head())
        }
    }

    /// Whether a moving piece lands on `rank` (a placement's stone never
    /// counts): for the mover's goal rank, whether the move crosses. Read
    /// from the head's landing square for a phalanx move, which lands
    /// furthest along its line, and from either end's for a sidestep, whose
    /// run spans its ranks from end to end.
    #[inline(always)]
    pub fn reaches_rank(self, rank: u8) -> bool {
        if self.is_phalanx_move() {
            self.destination().rank() == rank
        } else {
            !self.is_placement()
                && (self.destination().rank() == rank || self.tail_destination().rank() == rank)
        }
    }

    /// Where the tail lands (the square the rear-piece notation names).
    pub fn tail_destination(self) -> Square {
        self.stepped(self.along(self.distance()))
    }

    /// The squares of the moving group, tail first: what a board display
    /// highlights as the pieces that move (none for a placement).
    pub fn group_squares(self) -> impl Iterator<Item = Square> {
        (0..self.group).map(move |step| self.along(step))
    }

    /// The squares the moving pieces stand on after the move, tail's first
    /// (a placement's: its square): what a board display highlights as
    /// where the move went.
    pub fn landing_squares(self) -> impl Iterator<Item = Square> {
        let count = self.group.max(1);
        (0..count).map(move |i| self.stepped(self.along(self.distance() + i)))
    }

    /// The squares of the enemy pieces the move removes, nearest first
    /// (none for a quiet move). The first is the head's destination.
    pub fn captured_squares(self) -> impl Iterator<Item = Square> {
        // (A placement has no group: it captures nothing.)
        let first = self.group.saturating_sub(1) + self.distance();
        (0..self.captures).map(move |i| self.along(first + i))
    }

    /// The move in 28 bits, for compact storage such as a transposition
    /// table. [`Move::from_bits`] reads it back. (A sidestep, which captures
    /// nothing, keeps its step in the captures' bits.)
    pub fn to_bits(self) -> u32 {
        u32::from(self.tail.file())
            | u32::from(self.tail.rank()) << 5
            | (self.direction.index() as u32) << 10
            | u32::from(self.group) << 13
            | u32::from(self.distance()) << 18
            | u32::from(self.captures | self.sidestep().map_or(0, |d| d.index() as u8 + 1)) << 23
    }

    /// The move that [`Move::to_bits`] gave `bits`, or `None` for bits that
    /// describe no move on any board. A move read back may belong to another
    /// position: check it with [`crate::Position::is_legal`] before playing it.
    pub fn from_bits(bits: u32) -> Option<Move> {
        let field = |shift: u32| (bits >> shift & 31) as u8;
        let tail = Square::new(field(0), field(5))?;
        let direction = Direction::ALL[(bits >> 10 & 7) as usize];
        let (group, distance, captures) = (field(13), field(18), field(23));
        if bits >> 28 != 0 {
            return None;
        }
        match (group, distance) {
            (0, 0) => (direction.index() == 0 && captures == 0).then(|| Move::new_placement(tail)),
            (2.., 0) => {
                let step = Direction::ALL.get(usize::from(captures).checked_sub(1)?)?;
                let along = *step == direction || *step == direction.opposite();
                (group <= MAX_DIMENSION && !along)
                    .then(|| Move::new_sidestep(tail, direction, group, *step))
            }
            _ => {
                let valid = (1..=MAX_DIMENSION).contains(&group)
                    && (1..=group).contains(&distance)
                    && captures < MAX_DIMENSION;
                valid.then(|| Move::new(tail, direction, group, distance, captures))
            }
        }
    }

    /// The move in the canonical form with the capture mark: `a5,c5-d5:2`.
    pub fn with_capture_mark(self) -> impl fmt::Display {
        MarkedMove(self)
    }
}

impl fmt::Display for Move {
    /// The canonical pbmserv form: `c2-d1` for a single piece, `e1,e3-e5` (tail,
    /// head, destination) for a group. A sidestep is written like a group,
    /// `a1,b1-b2`, with the square its second-named end steps onto; a
    /// placement `@d6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_placement() {
            write!(f, "@{}", self.tail)
        } else if self.group > 1 {
            write!(f, "{},{}-{}", self.tail, self.head(), self.destination())
        } else {
            write!(f, "{}-{}", self.tail, self.destination())
        }
    }
}

struct MarkedMove(Move);

impl fmt::Display for MarkedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        if self.0.captures > 0 {
            write!(f, ":{}", self.0.captures)?;
        }
        Ok(())
    }
}

/// A reusable buffer of moves. Generation clears and refills it; once it has
/// grown to the largest move count seen it never allocates again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    /// An empty list with room for a typical position's moves.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(256),
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.moves.clear();
    }

    /// The moves, in generation order.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves, for reordering (as a search does); the set must not be changed.
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }
}

impl Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_that_describe_no_move_are_refused() {
        assert_eq!(Move::from_bits(u32::MAX), None);
        // Bits 0 are the placement of a stone on a1.
        assert_eq!(Move::from_bits(0).map(Move::is_placement), Some(true));
        assert_eq!(Move::from_bits(1 << 18), None, "a placement that travels");
        // A distance longer than the group.
        let mv = Move::new(Square::new(0, 0).unwrap(), Direction::North, 2, 2, 0);
        assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
        assert_eq!(Move::from_bits(mv.to_bits() + (1 << 18)), None);
        // Square files past the largest board.
        assert_eq!(Move::from_bits(mv.to_bits() | 30), None);
    }

    #[test]
    fn a_move_names_its_group_and_captured_squares() {
        // Three pieces from a1 north, two squares, taking two pieces.
        let mv = Move::new(Square::new(0, 0).unwrap(), Direction::North, 3, 2, 2);
        let names =
            |it: &mut dyn Iterator<Item = Square>| it.map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&mut mv.group_squares()), ["a1", "a2", "a3"]);
        assert_eq!(names(&mut mv.captured_squares()), ["a5", "a6"]);
        assert_eq!(mv.destination().to_string(), "a5");
        let quiet = Move::new(Square::new(1, 1).unwrap(), Direction::East, 1, 1, 0);
        assert_eq!(quiet.captured_squares().count(), 0);
        assert_eq!(names(&mut quiet.group_squares()), ["b2"]);
    }

    #[test]
    fn sidesteps_and_placements_name_their_squares_and_keep_their_bits() {
        let a1 = Square::new(0, 0).unwrap();
        // The run a1,b1,c1 slips north-east: onto b2, c2, d2.
        let slip = Move::new_sidestep(a1, Direction::East, 3, Direction::NorthEast);
        let names = |it: &mut dyn Iterator<Item = Square>| {
            it.map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(slip.to_string(), "a1,c1-d2");
        assert_eq!(names(&mut slip.group_squares()), "a1 b1 c1");
        assert_eq!(names(&mut slip.landing_squares()), "b2 c2 d2");
        assert_eq!(slip.captured_squares().count(), 0);
        assert_eq!(slip.sidestep(), Some(Direction::NorthEast));
        assert_eq!(slip.tail_destination().to_string(), "b2");
        let place = Move::new_placement(Square::new(3, 5).unwrap());
        assert_eq!(place.to_string(), "@d6");
        assert_eq!(names(&mut place.landing_squares()), "d6");
        assert_eq!(place.group_squares().count(), 0);
        assert_eq!(place.captured_squares().count(), 0);
        assert_eq!(place.destination().to_string(), "d6");
        for mv in [slip, place] {
            assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
        }
        // A step along the run's own line is no sidestep.
        let along = slip.to_bits() & !(31 << 23) | (Direction::East.index() as u32 + 1) << 23;
        assert_eq!(Move::from_bits(along), None);
    }
}
