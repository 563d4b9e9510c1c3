//! A second, deliberately simple move generator, written straight from
//! RULES.md sections 2-4, to check the library's bitboard generator against.
//!
//! The board is a plain `Vec<Option<Color>>` (rank 1 first, file `a` first in
//! each rank), read from the library's [`Position::to_setup`], and every rule
//! is a square-by-square loop. Nothing here is shared with the bitboard code:
//! only the library's plain data types (`Color`, `Square`, `Direction`,
//! `Setup`, `Outcome`) are used to name things, and even the direction steps
//! are this module's own table.
//!
//! Also here: a tiny seeded PRNG, so the tests need no extra dependency.

#![allow(dead_code)]

pub mod variants;

use std::fmt;

use epaminondas_rules::{
    BoardSize, Color, Direction, Outcome, Position, Setup, Square, Symmetry, WinReason,
};

/// The eight directions with their (file, rank) steps, written out here
/// rather than taken from the library.
pub const DIRECTIONS: [(Direction, i32, i32); 8] = [
    (Direction::North, 0, 1),
    (Direction::NorthEast, 1, 1),
    (Direction::East, 1, 0),
    (Direction::SouthEast, 1, -1),
    (Direction::South, 0, -1),
    (Direction::SouthWest, -1, -1),
    (Direction::West, -1, 0),
    (Direction::NorthWest, -1, 1),
];

/// The (file, rank) step of `direction`, from [`DIRECTIONS`].
pub fn step(direction: Direction) -> (i32, i32) {
    let &(_, df, dr) = DIRECTIONS
        .iter()
        .find(|(d, _, _)| *d == direction)
        .expect("every direction is in the table");
    (df, dr)
}

/// A board as a plain grid of squares, with the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Grid {
    pub files: usize,
    pub ranks: usize,
    /// `cells[rank * files + file]`, rank 1 (index 0) first.
    pub cells: Vec<Option<Color>>,
    pub turn: Color,
}

/// What a move is, as a comparable key: tail, direction, group size,
/// distance, captures.
pub type MoveKey = (Square, Direction, u8, u8, u8);

/// A move found by the reference generator, with the position it leads to.
#[derive(Clone, Debug)]
pub struct RefMove {
    pub tail: Square,
    pub direction: Direction,
    pub group: u8,
    pub distance: u8,
    pub captures: u8,
    /// Where the head of the group lands.
    pub landing: Square,
    /// The position after the move (captured pieces removed, other side to move).
    pub after: Grid,
}

impl RefMove {
    pub fn key(&self) -> MoveKey {
        (
            self.tail,
            self.direction,
            self.group,
            self.distance,
            self.captures,
        )
    }
}

impl RefMove {
    /// The canonical notation of RULES.md section 5, written here from the
    /// move's squares: `tail-landing` for a single piece, `tail,head-landing`
    /// for a group.
    pub fn notation(&self) -> String {
        let (df, dr) = step(self.direction);
        let g = i32::from(self.group) - 1;
        let head = sq(
            i32::from(self.tail.file()) + df * g,
            i32::from(self.tail.rank()) + dr * g,
        );
        let name = |s: Square| format!("{}{}", char::from(b'a' + s.file()), s.rank() + 1);
        if self.group > 1 {
            format!("{},{}-{}", name(self.tail), name(head), name(self.landing))
        } else {
            format!("{}-{}", name(self.tail), name(self.landing))
        }
    }
}

impl fmt::Display for RefMove {
    /// The notation and the fields, for mismatch reports.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({:?}, group {}, distance {}, captures {})",
            self.notation(),
            self.direction,
            self.group,
            self.distance,
            self.captures
        )
    }
}

/// The result of generating moves.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub moves: Vec<RefMove>,
    /// How many otherwise legal moves the symmetry rule refused.
    pub refused_by_symmetry: usize,
}

fn sq(file: i32, rank: i32) -> Square {
    Square::new(file as u8, rank as u8).expect("square within 26x26")
}

impl Grid {
    /// An empty board.
    pub fn empty(files: usize, ranks: usize, turn: Color) -> Grid {
        Grid {
            files,
            ranks,
            cells: vec![None; files * ranks],
            turn,
        }
    }

    /// The grid of a setup; panics on a piece off the board or two on one square.
    pub fn from_setup(setup: &Setup) -> Grid {
        let files = usize::from(setup.size.files());
        let ranks = usize::from(setup.size.ranks());
        let mut grid = Grid::empty(files, ranks, setup.turn);
        for &(square, color) in &setup.pieces {
            let (f, r) = (usize::from(square.file()), usize::from(square.rank()));
            assert!(f < files && r < ranks, "{square} off the board");
            assert!(grid.at(f, r).is_none(), "two pieces on {square}");
            grid.set(f, r, Some(color));
        }
        grid
    }

    /// The grid of a library position, read through its setup.
    pub fn from_position(pos: &Position) -> Grid {
        Grid::from_setup(&pos.to_setup())
    }

    /// The grid as a setup, pieces rank 1 first.
    pub fn to_setup(&self) -> Setup {
        let mut pieces = Vec::new();
        for r in 0..self.ranks {
            for f in 0..self.files {
                if let Some(color) = self.at(f, r) {
                    pieces.push((sq(f as i32, r as i32), color));
                }
            }
        }
        Setup {
            size: BoardSize::new(self.files as u8, self.ranks as u8).expect("valid size"),
            pieces,
            stones: Vec::new(),
            turn: self.turn,
        }
    }

    /// The library position of this grid under `symmetry`.
    pub fn to_position(&self, symmetry: Symmetry) -> Position {
        Position::from_setup(&self.to_setup(), symmetry).expect("a grid is a valid setup")
    }

    /// The piece on a square of the board.
    pub fn at(&self, file: usize, rank: usize) -> Option<Color> {
        assert!(file < self.files && rank < self.ranks);
        self.cells[rank * self.files + file]
    }

    /// Puts a piece on (or clears) a square of the board.
    pub fn set(&mut self, file: usize, rank: usize, piece: Option<Color>) {
        assert!(file < self.files && rank < self.ranks);
        self.cells[rank * self.files + file] = piece;
    }

    /// `None` off the board, otherwise `Some(the piece or None)`.
    pub fn look(&self, file: i32, rank: i32) -> Option<Option<Color>> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            None
        } else {
            Some(self.at(file as usize, rank as usize))
        }
    }

    /// The rank (0-based) that `color` must reach: the top rank for White,
    /// rank 1 for Black.
    pub fn goal_rank(&self, color: Color) -> usize {
        match color {
            Color::White => self.ranks - 1,
            Color::Black => 0,
        }
    }

    /// Number of `color`'s pieces on its goal rank.
    pub fn goal_count(&self, color: Color) -> usize {
        let r = self.goal_rank(color);
        (0..self.files)
            .filter(|&f| self.at(f, r) == Some(color))
            .count()
    }

    /// Number of pieces of `color` on the board.
    pub fn count(&self, color: Color) -> usize {
        self.cells.iter().filter(|&&c| c == Some(color)).count()
    }

    /// RULES.md section 3: the side to move has more pieces on its goal rank
    /// than the opponent has on the opponent's goal rank.
    pub fn mover_has_crossed(&self) -> bool {
        self.goal_count(self.turn) > self.goal_count(!self.turn)
    }

    /// RULES.md section 4: whether the position is symmetric in the option's
    /// sense (`Off` never is).
    pub fn is_symmetric(&self, symmetry: Symmetry) -> bool {
        match symmetry {
            Symmetry::Off => false,
            Symmetry::Mirror => {
                // A White piece on (f, r) exactly when a Black piece on (f, R+1-r).
                for f in 0..self.files {
                    for r in 0..self.ranks {
                        let white_here = self.at(f, r) == Some(Color::White);
                        let black_there = self.at(f, self.ranks - 1 - r) == Some(Color::Black);
                        if white_here != black_there {
                            return false;
                        }
                    }
                }
                true
            }
            Symmetry::File => {
                // Identical to its reflection file a <-> last file, colours unchanged.
                for f in 0..self.files {
                    for r in 0..self.ranks {
                        if self.at(f, r) != self.at(self.files - 1 - f, r) {
                            return false;
                        }
                    }
                }
                true
            }
        }
    }

    /// Every legal move of the side to move (RULES.md sections 2-4), with the
    /// position each leads to. A position where the mover has already crossed
    /// is terminal and has none.
    pub fn moves(&self, symmetry: Symmetry) -> Generated {
        let mut out = Generated::default();
        if self.mover_has_crossed() {
            return out;
        }
        let me = self.turn;
        let goal = self.goal_rank(me) as i32;
        for tr in 0..self.ranks as i32 {
            for tf in 0..self.files as i32 {
                if self.look(tf, tr) != Some(Some(me)) {
                    continue;
                }
                for (direction, df, dr) in DIRECTIONS {
                    // The group: the tail and every friendly piece directly ahead.
                    let mut k: i32 = 1;
                    while self.look(tf + k * df, tr + k * dr) == Some(Some(me)) {
                        k += 1;
                    }
                    let (hf, hr) = (tf + (k - 1) * df, tr + (k - 1) * dr);
                    for n in 1..=k {
                        // The squares between the head and its landing square must be empty.
                        let path_clear =
                            (1..n).all(|i| self.look(hf + i * df, hr + i * dr) == Some(None));
                        if !path_clear {
                            continue;
                        }
                        let (lf, lr) = (hf + n * df, hr + n * dr);
                        // Count the enemy line starting at the landing square.
                        let m: i32 = match self.look(lf, lr) {
                            None => continue,                     // off the board
                            Some(Some(c)) if c == me => continue, // own piece
                            Some(None) => 0,                      // quiet move
                            Some(Some(_)) => {
                                let mut m = 0;
                                while self.look(lf + m * df, lr + m * dr) == Some(Some(!me)) {
                                    m += 1;
                                }
                                m
                            }
                        };
                        if m > 0 && m >= k {
                            continue; // the enemy line is not strictly shorter
                        }
                        // The position after the move.
                        let mut after = self.clone();
                        for i in 0..k {
                            after.set((tf + i * df) as usize, (tr + i * dr) as usize, None);
                        }
                        for i in 0..m {
                            after.set((lf + i * df) as usize, (lr + i * dr) as usize, None);
                        }
                        let mut onto_goal = false;
                        for i in 0..k {
                            let (f, r) = (tf + (i + n) * df, tr + (i + n) * dr);
                            after.set(f as usize, r as usize, Some(me));
                            onto_goal |= r == goal;
                        }
                        after.turn = !me;
                        if onto_goal && after.is_symmetric(symmetry) {
                            out.refused_by_symmetry += 1;
                            continue;
                        }
                        out.moves.push(RefMove {
                            tail: sq(tf, tr),
                            direction,
                            group: k as u8,
                            distance: n as u8,
                            captures: m as u8,
                            landing: sq(lf, lr),
                            after,
                        });
                    }
                }
            }
        }
        out
    }

    /// Number of leaves of the legal-move tree `depth` plies deep.
    pub fn perft(&self, symmetry: Symmetry, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(symmetry).moves;
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| m.after.perft(symmetry, depth - 1))
            .sum()
    }

    /// RULES.md section 3: the side to move wins by crossing, or loses with
    /// no legal move; otherwise the game goes on.
    pub fn outcome(&self, symmetry: Symmetry) -> Option<Outcome> {
        if self.mover_has_crossed() {
            Some(Outcome {
                winner: self.turn,
                reason: WinReason::Crossing,
            })
        } else if self.moves(symmetry).moves.is_empty() {
            Some(Outcome {
                winner: !self.turn,
                reason: WinReason::NoMoves,
            })
        } else {
            None
        }
    }
}

impl fmt::Display for Grid {
    /// Position text, written here independently of the library.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..self.ranks).rev() {
            let mut gap = 0;
            for file in 0..self.files {
                match self.at(file, r) {
                    None => gap += 1,
                    Some(c) => {
                        if gap > 0 {
                            write!(f, "{gap}")?;
                            gap = 0;
                        }
                        f.write_str(if c == Color::White { "w" } else { "b" })?;
                    }
                }
            }
            if gap > 0 {
                write!(f, "{gap}")?;
            }
            if r > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(if self.turn == Color::White {
            " w"
        } else {
            " b"
        })
    }
}

/// SplitMix64: a small, seeded, reproducible PRNG.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// A uniformly chosen element.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}
