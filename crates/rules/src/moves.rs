//! The move type and the reusable buffer that move generation fills.

use std::fmt;
use std::ops::Deref;

use crate::{Direction, Square};

/// A move: the tail piece, the direction, how many pieces move and how far.
///
/// The moving group is the tail and every friendly piece directly ahead of it
/// in the direction, so the group size is fixed by the position; it is kept
/// here together with the number of pieces captured so that a move can be
/// printed and undone without the position. Moves are made by the rules
/// (generation or parsing against a position), never assembled by hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    tail: Square,
    direction: Direction,
    group: u8,
    distance: u8,
    captures: u8,
}

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

    /// The rearmost piece of the moving group.
    pub const fn tail(self) -> Square {
        self.tail
    }

    /// The direction the group travels.
    pub const fn direction(self) -> Direction {
        self.direction
    }

    /// Number of pieces that move (1 for a single piece).
    pub const fn group_size(self) -> u8 {
        self.group
    }

    /// Number of squares every moving piece travels.
    pub const fn distance(self) -> u8 {
        self.distance
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

    /// The frontmost piece of the moving group (the tail for a single piece).
    pub fn head(self) -> Square {
        self.along(self.group - 1)
    }

    /// Where the head lands.
    pub fn destination(self) -> Square {
        self.along(self.group - 1 + self.distance)
    }

    /// Where the tail lands (the square the rear-piece notation names).
    pub fn tail_destination(self) -> Square {
        self.along(self.distance)
    }

    /// The move in the canonical form with the capture mark: `a5,c5-d5:2`.
    pub fn with_capture_mark(self) -> impl fmt::Display {
        MarkedMove(self)
    }
}

impl fmt::Display for Move {
    /// The canonical pbmserv form: `c2-d1` for a single piece, `e1,e3-e5` (tail,
    /// head, destination) for a group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group > 1 {
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
