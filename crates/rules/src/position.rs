//! The validated position: board, side to move and rule options.

use std::fmt;
use std::str::FromStr;

use crate::core::Core;
use crate::moves::{Move, MoveList};
use crate::variant::STONES;
use crate::variant_core::VariantCore;
use crate::{
    BoardSize, Color, Outcome, ParsePositionError, Setup, Square, Symmetry, Variant, WinReason,
};

/// The layout for boards up to 15 files and 16 ranks (the standard board
/// among them): four words, one AVX2 register, where the build has AVX2.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
type SmallCore = Core<4, 4>;
/// The layout for boards up to 15 files and 12 ranks (the standard board
/// among them): three words, where the build has no AVX2.
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
type SmallCore = Core<3, 4>;
/// The layout for every board up to 26x26.
type LargeCore = Core<13, 5>;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Repr {
    Small(SmallCore),
    /// Everything else, behind one pointer, so that the standard board's
    /// layout stays one test away in every call.
    Other(Box<Other>),
}

/// Boxed already in [`Repr::Other`], so the size difference costs only the
/// variants' positions some unused bytes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Other {
    Large(LargeCore),
    /// Crossings and Stumbling Blocks, on any board. (Abanondas, the
    /// standard game with sidesteps, is played on the bitboard layouts.)
    Variant(VariantCore),
}

/// Runs `$body` with `$core` bound to the position's core, whatever its layout.
macro_rules! with_core {
    ($pos:expr, $core:ident => $body:expr) => {
        match &$pos.0 {
            Repr::Small($core) => $body,
            Repr::Other(other) => match &**other {
                Other::Large($core) => $body,
                Other::Variant($core) => $body,
            },
        }
    };
    (mut $pos:expr, $core:ident => $body:expr) => {
        match &mut $pos.0 {
            Repr::Small($core) => $body,
            Repr::Other(other) => match &mut **other {
                Other::Large($core) => $body,
                Other::Variant($core) => $body,
            },
        }
    };
}

/// What one side could do in a position if it were its turn: see
/// [`Position::survey`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    /// The number of legal moves.
    pub moves: u64,
    /// The most enemy pieces a single move captures (0 without a capture).
    pub largest_capture: u8,
}

/// A legal Epaminondas position: the pieces on a board of some size, the side
/// to move, and the rules it is played under (the symmetry rule option, and
/// the [`Variant`]: the standard game or one of its family).
///
/// Build one with [`Position::new`] or [`Position::new_variant`] (the start
/// of a game), from a checked [`Setup`], or by parsing position text.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position(Repr);

/// Why a [`Setup`] is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A piece stands on a square outside the board.
    OffBoard {
        /// The square.
        square: Square,
        /// The board's size.
        size: BoardSize,
    },
    /// Two pieces stand on one square (or a piece and a stone).
    Crowded(Square),
    /// The setup has stones, but the variant has none.
    StonesInVariant(Variant),
    /// More stones than the variant places.
    TooManyStones(usize),
    /// Stumbling Blocks: while stones are placed, White places the first
    /// and third and Black the second; the setup has the other side to move.
    PlacementTurn {
        /// Stones on the board.
        stones: usize,
        /// The side to move the setup names.
        turn: Color,
    },
    /// The board has too few ranks for the variant.
    TooFewRanks {
        /// The variant.
        variant: Variant,
        /// The board's size.
        size: BoardSize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::OffBoard { square, size } => {
                write!(f, "the piece on {square} is off the {size} board")
            }
            PositionError::Crowded(square) => write!(f, "two pieces stand on {square}"),
            PositionError::StonesInVariant(variant) => write!(
                f,
                "the position has stones, which only stumbling-blocks has, not {variant}"
            ),
            PositionError::TooManyStones(n) => {
                write!(
                    f,
                    "the position has {n} stones: stumbling-blocks has {STONES}"
                )
            }
            PositionError::PlacementTurn { stones, turn } => write!(
                f,
                "with {stones} stone{} placed it is {}'s turn to place one, not {turn}'s",
                if *stones == 1 { "" } else { "s" },
                placing_side(*stones)
            ),
            PositionError::TooFewRanks { variant, size } => write!(
                f,
                "{variant} needs a board of at least {} ranks, not {size}",
                variant.min_ranks()
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// The side that places a stone when `placed` stones stand: White places
/// the first and third, Black the second (RULES.md section 7.3).
fn placing_side(placed: usize) -> Color {
    if placed % 2 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

impl Position {
    /// The starting position on a board of `size` under the given symmetry option.
    pub fn new(size: BoardSize, symmetry: Symmetry) -> Position {
        Position::from_setup(&Setup::start(size), symmetry)
            .expect("the starting setup is always valid")
    }

    /// The standard game's start: 14x12 board, `mirror` symmetry.
    pub fn standard() -> Position {
        Position::new(BoardSize::STANDARD, Symmetry::Mirror)
    }

    /// The starting position of `variant` on a board of `size` under the
    /// given symmetry option (for Stumbling Blocks, before any stone is
    /// placed). Fails only where the board is too small for the variant.
    pub fn new_variant(
        variant: Variant,
        size: BoardSize,
        symmetry: Symmetry,
    ) -> Result<Position, PositionError> {
        Position::from_setup_in(variant, &Setup::start(size), symmetry)
    }

    /// Checks a setup of `variant` and builds the position.
    pub fn from_setup_in(
        variant: Variant,
        setup: &Setup,
        symmetry: Symmetry,
    ) -> Result<Position, PositionError> {
        if variant.is_standard() {
            return Position::from_setup(setup, symmetry);
        }
        if setup.size.ranks() < variant.min_ranks() {
            return Err(PositionError::TooFewRanks {
                variant,
                size: setup.size,
            });
        }
        if !setup.stones.is_empty() && variant != Variant::StumblingBlocks {
            return Err(PositionError::StonesInVariant(variant));
        }
        if variant == Variant::Abanondas {
            return Position::from_bitboard_setup(setup, symmetry, true);
        }
        if setup.stones.len() > usize::from(STONES) {
            return Err(PositionError::TooManyStones(setup.stones.len()));
        }
        if variant == Variant::StumblingBlocks
            && setup.stones.len() < usize::from(STONES)
            && setup.turn != placing_side(setup.stones.len())
        {
            return Err(PositionError::PlacementTurn {
                stones: setup.stones.len(),
                turn: setup.turn,
            });
        }
        let mut core = VariantCore::empty(variant, setup.size, setup.turn, symmetry);
        let contents = setup
            .pieces
            .iter()
            .map(|&(sq, color)| (sq, Some(color)))
            .chain(setup.stones.iter().map(|&sq| (sq, None)));
        for (square, content) in contents {
            if !setup.size.contains(square) {
                return Err(PositionError::OffBoard {
                    square,
                    size: setup.size,
                });
            }
            if core.is_occupied(square) {
                return Err(PositionError::Crowded(square));
            }
            match content {
                Some(color) => core.put(square, color),
                None => core.put_stone(square),
            }
        }
        Ok(Position(Repr::Other(Box::new(Other::Variant(core)))))
    }

    /// Checks a setup of the standard game and builds the position.
    pub fn from_setup(setup: &Setup, symmetry: Symmetry) -> Result<Position, PositionError> {
        if !setup.stones.is_empty() {
            return Err(PositionError::StonesInVariant(Variant::Epaminondas));
        }
        Position::from_bitboard_setup(setup, symmetry, false)
    }

    /// Builds a position of the standard game or, with `sidesteps`, of
    /// Abanondas on the smallest bitboard layout that fits (the setup has
    /// no stones).
    fn from_bitboard_setup(
        setup: &Setup,
        symmetry: Symmetry,
        sidesteps: bool,
    ) -> Result<Position, PositionError> {
        fn fill<const N: usize, const L: u32>(
            setup: &Setup,
            symmetry: Symmetry,
            sidesteps: bool,
        ) -> Result<Core<N, L>, PositionError> {
            let mut core = Core::empty(setup.size, setup.turn, symmetry, sidesteps);
            for &(square, color) in &setup.pieces {
                if !setup.size.contains(square) {
                    return Err(PositionError::OffBoard {
                        square,
                        size: setup.size,
                    });
                }
                if core.piece_at(square).is_some() {
                    return Err(PositionError::Crowded(square));
                }
                core.put(square, color);
            }
            Ok(core)
        }
        Ok(Position(if SmallCore::fits(setup.size) {
            Repr::Small(fill(setup, symmetry, sidesteps)?)
        } else {
            Repr::Other(Box::new(Other::Large(fill(setup, symmetry, sidesteps)?)))
        }))
    }

    /// The position as an unvalidated setup.
    pub fn to_setup(&self) -> Setup {
        let pieces = Color::ALL
            .into_iter()
            .flat_map(|c| self.squares(c).into_iter().map(move |sq| (sq, c)))
            .collect();
        Setup {
            size: self.size(),
            pieces,
            stones: self.stones(),
            turn: self.turn(),
        }
    }

    /// Whether this is the starting position of its board and variant
    /// (with White to move).
    pub fn is_start(&self) -> bool {
        Position::new_variant(self.variant(), self.size(), self.symmetry())
            .is_ok_and(|start| *self == start)
    }

    /// The variant the position is played under.
    pub fn variant(&self) -> Variant {
        with_core!(self, c => c.variant())
    }

    /// The neutral stones' squares (Stumbling Blocks; none in the other
    /// variants), rank 1 first.
    pub fn stones(&self) -> Vec<Square> {
        match &self.0 {
            Repr::Other(other) if let Other::Variant(core) = &**other => core.stones().collect(),
            _ => Vec::new(),
        }
    }

    /// Whether a neutral stone stands on `square`.
    pub fn stone_at(&self, square: Square) -> bool {
        match &self.0 {
            Repr::Other(other) if let Other::Variant(core) = &**other => core.stone_at(square),
            _ => false,
        }
    }

    /// How many stones are still to be placed before the first move (only
    /// in Stumbling Blocks; while any are, the legal moves are placements).
    pub fn stones_to_place(&self) -> u8 {
        match &self.0 {
            Repr::Other(other) if let Other::Variant(core) = &**other => core.stones_to_place(),
            _ => 0,
        }
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        with_core!(self, c => c.size())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        with_core!(self, c => c.turn())
    }

    /// The symmetry rule option in force.
    pub fn symmetry(&self) -> Symmetry {
        with_core!(self, c => c.symmetry())
    }

    /// The position seen in a mirror down the middle of the board (see
    /// [`Setup::reflected`]), of the same variant and symmetry option: its
    /// value is this one's, its moves are these ones'
    /// [`reflected`](Move::reflected), and its
    /// [`zobrist_hash`](Position::zobrist_hash) is this one's
    /// [`reflected_zobrist_hash`](Position::reflected_zobrist_hash).
    pub fn reflected(&self) -> Position {
        Position::from_setup_in(
            self.variant(),
            &self.to_setup().reflected(),
            self.symmetry(),
        )
        .expect("the reflection of a valid position is valid")
    }

    /// The same position under another symmetry option.
    pub fn with_symmetry(&self, symmetry: Symmetry) -> Position {
        Position::from_setup_in(self.variant(), &self.to_setup(), symmetry)
            .expect("a position's own setup is valid")
    }

    /// The same pieces (and stones) under `variant`'s rules, or why they
    /// cannot be: stones outside Stumbling Blocks, a board too small.
    pub fn with_variant(&self, variant: Variant) -> Result<Position, PositionError> {
        Position::from_setup_in(variant, &self.to_setup(), self.symmetry())
    }

    /// The Zobrist hash of the pieces and the side to move, updated
    /// incrementally as moves are played: a key for transposition tables.
    /// It covers neither the board size, the symmetry option nor the
    /// variant, so positions of different games may share a key.
    pub fn zobrist_hash(&self) -> u64 {
        with_core!(self, c => c.hash())
    }

    /// The [`Position::zobrist_hash`] the position would have after `mv`
    /// (which must be legal here), without playing it: lets a search fetch
    /// a table entry before it needs it.
    #[inline]
    pub fn zobrist_after(&self, mv: Move) -> u64 {
        with_core!(self, c => c.hash_after(mv))
    }

    /// The Zobrist hash computed from scratch (for checking the incremental one).
    pub fn compute_zobrist_hash(&self) -> u64 {
        with_core!(self, c => c.compute_hash())
    }

    /// The [`Position::zobrist_hash`] of this position reflected left to
    /// right (file `a` and the last file swapped, the side to move kept),
    /// computed from scratch. The rules of every game here, under every
    /// symmetry option, treat a position and its reflection alike (stones
    /// are reflected too), so the smaller of the two hashes is a key under
    /// which a position and its mirror image can share one table entry.
    pub fn reflected_zobrist_hash(&self) -> u64 {
        with_core!(self, c => c.compute_reflected_hash())
    }

    /// The [`Position::reflected_zobrist_hash`] the position would have
    /// after `mv` (which must be legal here), given `reflected`, this
    /// position's own: a search that keys its table by both hashes computes
    /// the reflection's once per position, not once per child.
    #[inline]
    pub fn reflected_zobrist_after(&self, mv: Move, reflected: u64) -> u64 {
        with_core!(self, c => c.reflected_hash_after(mv, reflected))
    }

    /// The piece on `square`, if any (`None` also for squares off the board).
    pub fn piece_at(&self, square: Square) -> Option<Color> {
        with_core!(self, c => c.piece_at(square))
    }

    /// The squares holding pieces of `color`, rank 1 first.
    pub fn squares(&self, color: Color) -> Vec<Square> {
        with_core!(self, c => c.squares_of(color).collect())
    }

    /// Number of pieces `color` has.
    pub fn count(&self, color: Color) -> u32 {
        with_core!(self, c => c.count(color))
    }

    /// Number of pieces `color` has on zero-based `rank` (0 for ranks off the board).
    pub fn count_on_rank(&self, color: Color, rank: u8) -> u32 {
        with_core!(self, c => c.count_on_rank(color, rank))
    }

    /// Whether the side to move has already won by crossing: it has more
    /// pieces on its goal rank than the opponent has on the opponent's.
    pub fn has_crossed(&self) -> bool {
        with_core!(self, c => c.mover_has_crossed())
    }

    /// Whether the side to move is in check: the opponent has more pieces on
    /// its goal rank than the side to move has on its own, so unless this move
    /// captures an intruder or crosses too, the opponent wins at the start of
    /// its next turn.
    pub fn in_check(&self) -> bool {
        let turn = self.turn();
        self.goal_count(!turn) > self.goal_count(turn)
    }

    /// Number of pieces `color` has on its goal rank (the opponent's home rank).
    pub fn goal_count(&self, color: Color) -> u32 {
        with_core!(self, c => c.goal_count(color))
    }

    /// The rank `color` must reach: the top rank for White, rank 1 (0) for Black.
    pub fn goal_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => self.size().ranks() - 1,
            Color::Black => 0,
        }
    }

    /// The legal moves of the side to move, into a reusable buffer.
    /// A terminal position has none.
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        with_core!(self, c => c.generate(moves));
    }

    /// The legal tactical moves of the side to move, into a reusable buffer:
    /// captures, and moves that put a piece on the mover's goal rank. A search
    /// looks at these first, and only at these in its quiescence phase; they
    /// come cheaper than the full list.
    pub fn tactical_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        with_core!(self, c => c.generate_tactical(moves));
    }

    /// The legal moves of the side to move, in a new list.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> u64 {
        with_core!(self, c => c.count_moves())
    }

    /// What `color` could do if it were its turn: its number of moves (its
    /// mobility; for the side to move, [`Position::count_legal_moves`]) and
    /// the most enemy pieces one move would capture (what the side to move
    /// can win now, or what the other side threatens; 0 without a capture).
    /// Counted in one pass, without listing the moves.
    pub fn survey(&self, color: Color) -> Survey {
        let (moves, largest_capture) = with_core!(self, c => c.survey(color));
        Survey {
            moves,
            largest_capture,
        }
    }

    /// [`Position::survey`] of both sides, as an evaluation needs them: the
    /// side to move's, then the other side's. On boards of up to 15 files
    /// and 12 ranks (the standard board among them), where the build has
    /// BMI2, the files and diagonals are read from a table of line patterns,
    /// which cut the engine's `bench` time by a fifth; the first call
    /// builds the table (see [`crate::build_tables`]).
    pub fn survey_both(&self) -> (Survey, Survey) {
        let both = with_core!(self, c => c.survey_both());
        let survey = |color: Color| {
            let (moves, largest_capture) = both[color.index()];
            Survey {
                moves,
                largest_capture,
            }
        };
        (survey(self.turn()), survey(!self.turn()))
    }

    /// The most enemy pieces one move of `color` would capture if it were
    /// its turn: [`Position::survey`]'s `largest_capture`, found faster
    /// since quiet moves are not looked at.
    pub fn largest_capture(&self, color: Color) -> u8 {
        with_core!(self, c => c.largest_capture(color))
    }

    /// The pairs of neighbouring pieces of `color` along the four lines a
    /// phalanx can form: along a rank, a file or either diagonal. A measure
    /// of how connected (and so how mobile and strong) a side's pieces are.
    pub fn links(&self, color: Color) -> u32 {
        with_core!(self, c => c.links(color))
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        with_core!(self, c => c.is_legal(mv))
    }

    /// Plays `mv` if it is legal; otherwise leaves the position unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if !self.is_legal(mv) {
            return Err(PlayError(mv));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv`, which must be legal here (one the rules generated or checked
    /// for this position); an illegal move leaves a corrupt position.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        with_core!(mut self, c => c.play(mv));
    }

    /// Takes back `mv`, which must be the move that produced this position.
    #[inline]
    pub fn undo_unchecked(&mut self, mv: Move) {
        with_core!(mut self, c => c.undo(mv));
    }

    /// Hands the turn to the other side without moving: a "null move" for a
    /// search to measure the threat in a position. Passing is not legal in
    /// the game; call it again to undo it.
    #[inline]
    pub fn pass_unchecked(&mut self) {
        with_core!(mut self, c => c.pass());
    }

    /// How the game has ended here, if it has: the side to move has won by
    /// crossing, or has no legal move and has lost.
    pub fn outcome(&self) -> Option<Outcome> {
        let turn = self.turn();
        if with_core!(self, c => c.mover_has_crossed()) {
            Some(Outcome {
                winner: turn,
                reason: WinReason::Crossing,
            })
        } else if self.count_legal_moves() == 0 {
            Some(Outcome {
                winner: !turn,
                reason: WinReason::NoMoves,
            })
        } else {
            None
        }
    }

    /// Whether the game is over here.
    pub fn is_terminal(&self) -> bool {
        self.outcome().is_some()
    }

    /// Number of leaves of the legal-move tree `depth` plies deep. The last ply
    /// is counted without playing its moves.
    pub fn perft(&self, depth: u32) -> u64 {
        let mut lists = Vec::new();
        let mut pos = self.clone();
        with_core!(mut pos, c => c.perft(depth, &mut lists, 0))
    }

    /// Perft split by root move: each legal move with the leaf count below it
    /// (`depth` counts the root move, so each count is a perft of `depth - 1`).
    /// Empty for depth 0, which has no root moves.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let mut lists = Vec::new();
        let mut pos = self.clone();
        let moves = self.legal_moves();
        moves
            .iter()
            .map(|&mv| {
                pos.play_unchecked(mv);
                let n = with_core!(mut pos, c => c.perft(depth - 1, &mut lists, 0));
                pos.undo_unchecked(mv);
                (mv, n)
            })
            .collect()
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::standard()
    }
}

impl fmt::Display for Position {
    /// The position text (see [`Setup`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Reads position text; the position is played under the default `mirror`
    /// symmetry option (see [`Position::with_symmetry`]), as the standard
    /// game, or as Stumbling Blocks where the text has stones (see
    /// [`Position::with_variant`]).
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let setup: Setup = s.parse()?;
        let variant = if setup.stones.is_empty() {
            Variant::Epaminondas
        } else {
            Variant::StumblingBlocks
        };
        Position::from_setup_in(variant, &setup, Symmetry::Mirror)
            .map_err(ParsePositionError::Invalid)
    }
}

/// [`Position::play`] was given a move that is not legal in the position (for
/// the reason, read the move's text with [`Position::parse_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayError(pub Move);

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a legal move in this position", self.0)
    }
}

impl std::error::Error for PlayError {}
