//! The position and move generator of two variants (RULES.md section 7):
//! Crossings and Stumbling Blocks.
//!
//! The standard game keeps its bitboard [`crate::core::Core`], tuned for
//! speed, and so does Abanondas, which only adds sidesteps to it; Crossings
//! and Stumbling Blocks, played far less, are kept square by square here,
//! where each rule of section 7 is one plain test in the generator. The
//! generator serves every question a [`crate::Position`] answers (listing,
//! counting, surveying, checking one move), so these two variants' rules
//! live in this one place. A test checks that, asked to play the standard game, it
//! agrees with the bitboard core.

use crate::moves::{Move, MoveList};
use crate::variant::STONES;
use crate::zobrist;
use crate::{BoardSize, Color, Direction, Square, Symmetry, Variant};

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Cell {
    Empty,
    Piece(Color),
    Stone,
}

/// The four directions of a line, each line counted once.
const LINES: [Direction; 4] = [
    Direction::East,
    Direction::North,
    Direction::NorthEast,
    Direction::NorthWest,
];

/// Most squares one move changes: a group of 26 moving 26 squares and
/// taking 25 (2 x 26 + 25).
const MAX_CHANGES: usize = 80;

/// A position of a variant.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct VariantCore {
    variant: Variant,
    size: BoardSize,
    turn: Color,
    symmetry: Symmetry,
    /// `cells[rank * files + file]`, rank 1 first.
    cells: Vec<Cell>,
    /// Stones on the board.
    stones: u8,
    hash: u64,
}

/// The Zobrist key of `cell` (not empty) on `square`.
fn key(cell: Cell, square: Square) -> u64 {
    let index = usize::from(square.rank()) * 32 + usize::from(square.file());
    match cell {
        Cell::Piece(color) => zobrist::piece(color.index(), index),
        Cell::Stone => zobrist::stone(index),
        Cell::Empty => 0,
    }
}

impl VariantCore {
    /// An empty board of `size` under `variant`, `turn` to move.
    pub(crate) fn empty(
        variant: Variant,
        size: BoardSize,
        turn: Color,
        symmetry: Symmetry,
    ) -> Self {
        debug_assert!(
            variant != Variant::Abanondas,
            "Abanondas is played on the bitboard core"
        );
        let mut core = VariantCore {
            variant,
            size,
            turn,
            symmetry,
            cells: vec![Cell::Empty; size.squares()],
            stones: 0,
            hash: 0,
        };
        core.hash = core.compute_hash();
        core
    }

    fn index(&self, square: Square) -> usize {
        usize::from(square.rank()) * usize::from(self.size.files()) + usize::from(square.file())
    }

    /// What stands on `square`; `None` off the board.
    fn cell(&self, square: Option<Square>) -> Option<Cell> {
        let square = square.filter(|&sq| self.size.contains(sq))?;
        Some(self.cells[self.index(square)])
    }

    fn set(&mut self, square: Square, cell: Cell) {
        let i = self.index(square);
        self.hash ^= key(self.cells[i], square) ^ key(cell, square);
        match (self.cells[i], cell) {
            (Cell::Stone, Cell::Stone) => {}
            (Cell::Stone, _) => self.stones -= 1,
            (_, Cell::Stone) => self.stones += 1,
            _ => {}
        }
        self.cells[i] = cell;
    }

    /// Puts a piece of `color` on `square` (on the board and empty).
    pub(crate) fn put(&mut self, square: Square, color: Color) {
        self.set(square, Cell::Piece(color));
    }

    /// Puts a stone on `square` (on the board and empty).
    pub(crate) fn put_stone(&mut self, square: Square) {
        self.set(square, Cell::Stone);
    }

    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    pub(crate) fn size(&self) -> BoardSize {
        self.size
    }

    pub(crate) fn turn(&self) -> Color {
        self.turn
    }

    pub(crate) fn symmetry(&self) -> Symmetry {
        self.symmetry
    }

    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether `square` holds something (a piece or a stone).
    pub(crate) fn is_occupied(&self, square: Square) -> bool {
        !matches!(self.cell(Some(square)), None | Some(Cell::Empty))
    }

    #[inline(never)]
    pub(crate) fn piece_at(&self, square: Square) -> Option<Color> {
        match self.cell(Some(square)) {
            Some(Cell::Piece(color)) => Some(color),
            _ => None,
        }
    }

    /// Whether a stone stands on `square`.
    pub(crate) fn stone_at(&self, square: Square) -> bool {
        self.cell(Some(square)) == Some(Cell::Stone)
    }

    /// The squares holding `cell`, rank 1 first.
    fn squares_with(&self, cell: Cell) -> impl Iterator<Item = Square> + '_ {
        self.size
            .all_squares()
            .filter(move |&sq| self.cells[self.index(sq)] == cell)
    }

    pub(crate) fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.squares_with(Cell::Piece(color))
    }

    /// The stones' squares, rank 1 first.
    pub(crate) fn stones(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares_with(Cell::Stone)
    }

    /// Stones still to be placed before the first move (Stumbling Blocks).
    pub(crate) fn stones_to_place(&self) -> u8 {
        match self.variant {
            Variant::StumblingBlocks => STONES.saturating_sub(self.stones),
            _ => 0,
        }
    }

    #[inline(never)]
    pub(crate) fn count(&self, color: Color) -> u32 {
        self.squares_of(color).count() as u32
    }

    #[inline(never)]
    pub(crate) fn count_on_rank(&self, color: Color, rank: u8) -> u32 {
        if rank >= self.size.ranks() {
            return 0;
        }
        (0..self.size.files())
            .filter(|&f| self.piece_at(Square::new_unchecked(f, rank)) == Some(color))
            .count() as u32
    }

    fn goal_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => self.size.ranks() - 1,
            Color::Black => 0,
        }
    }

    #[inline(never)]
    pub(crate) fn goal_count(&self, color: Color) -> u32 {
        self.count_on_rank(color, self.goal_rank(color))
    }

    #[inline(never)]
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut hash = match self.turn {
            Color::White => 0,
            Color::Black => zobrist::black_to_move(),
        };
        for square in self.size.all_squares() {
            hash ^= key(self.cells[self.index(square)], square);
        }
        hash
    }

    /// The hash of the position reflected left to right, from scratch.
    pub(crate) fn compute_reflected_hash(&self) -> u64 {
        let last_file = self.size.files() - 1;
        let mut hash = match self.turn {
            Color::White => 0,
            Color::Black => zobrist::black_to_move(),
        };
        for square in self.size.all_squares() {
            let mirror = Square::new_unchecked(last_file - square.file(), square.rank());
            hash ^= key(self.cells[self.index(square)], mirror);
        }
        hash
    }

    #[inline(never)]
    pub(crate) fn mover_has_crossed(&self) -> bool {
        self.has_crossed(self.turn)
    }

    fn has_crossed(&self, color: Color) -> bool {
        self.goal_count(color) > self.goal_count(!color)
    }

    /// A crossed piece of Crossings: on its owner's goal rank, it can
    /// neither move nor be captured (section 7.1).
    fn is_frozen(&self, square: Option<Square>) -> bool {
        match (self.variant, self.cell(square), square) {
            (Variant::Crossings, Some(Cell::Piece(color)), Some(square)) => {
                square.rank() == self.goal_rank(color)
            }
            _ => false,
        }
    }

    /// Calls `change` with every (content, square) that `mv` by `mover`
    /// adds or removes, in an order in which flipping each square between
    /// empty and that content plays the move (and the reverse order undoes
    /// it): captured pieces, then the squares the movers leave and take.
    fn each_change(mv: Move, mover: Color, mut change: impl FnMut(Cell, Square)) {
        let mine = Cell::Piece(mover);
        if mv.is_placement() {
            change(Cell::Stone, mv.tail());
            return;
        }
        for square in mv.captured_squares() {
            change(Cell::Piece(!mover), square);
        }
        let vacated = mv.group_squares().take(usize::from(mv.distance()));
        let taken = mv
            .landing_squares()
            .skip(usize::from(mv.group_size() - mv.distance()));
        for (from, to) in vacated.zip(taken) {
            change(mine, from);
            change(mine, to);
        }
    }

    /// Flips each square `mv` by `mover` changes, forwards (playing) or
    /// backwards (undoing).
    fn flip(&mut self, mv: Move, mover: Color, forwards: bool) {
        let mut changes = [(Cell::Empty, Square::new_unchecked(0, 0)); MAX_CHANGES];
        let mut count = 0;
        Self::each_change(mv, mover, |cell, square| {
            changes[count] = (cell, square);
            count += 1;
        });
        let mut apply = |&(cell, square): &(Cell, Square)| {
            let now = self.cells[self.index(square)];
            self.set(square, if now == cell { Cell::Empty } else { cell });
        };
        if forwards {
            changes[..count].iter().for_each(&mut apply);
        } else {
            changes[..count].iter().rev().for_each(&mut apply);
        }
    }

    #[inline(never)]
    pub(crate) fn play(&mut self, mv: Move) {
        self.flip(mv, self.turn, true);
        self.pass();
    }

    pub(crate) fn pass(&mut self) {
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
    }

    #[inline(never)]
    pub(crate) fn undo(&mut self, mv: Move) {
        self.pass();
        self.flip(mv, self.turn, false);
    }

    #[inline(never)]
    pub(crate) fn hash_after(&self, mv: Move) -> u64 {
        let mut hash = self.hash ^ zobrist::black_to_move();
        Self::each_change(mv, self.turn, |cell, square| hash ^= key(cell, square));
        hash
    }

    /// The reflected hash after the side to move plays `mv`, from
    /// `reflected`, this position's.
    pub(crate) fn reflected_hash_after(&self, mv: Move, reflected: u64) -> u64 {
        let last_file = self.size.files() - 1;
        let mut hash = reflected ^ zobrist::black_to_move();
        Self::each_change(mv, self.turn, |cell, square| {
            let mirror = Square::new_unchecked(last_file - square.file(), square.rank());
            hash ^= key(cell, mirror);
        });
        hash
    }

    /// Whether the position is symmetric under the option, stones included
    /// (sections 4 and 7.3).
    fn is_symmetric(&self) -> bool {
        let (files, ranks) = (self.size.files(), self.size.ranks());
        let at = |f: u8, r: u8| self.cells[usize::from(r) * usize::from(files) + usize::from(f)];
        let mirrored = |cell: Cell| match cell {
            Cell::Piece(color) => Cell::Piece(!color),
            other => other,
        };
        match self.symmetry {
            Symmetry::Off => false,
            Symmetry::Mirror => {
                (0..ranks).all(|r| (0..files).all(|f| at(f, r) == mirrored(at(f, ranks - 1 - r))))
            }
            Symmetry::File => {
                (0..ranks).all(|r| (0..files).all(|f| at(f, r) == at(files - 1 - f, r)))
            }
        }
    }

    /// Whether the symmetry rule forbids `mv` by `mover`: it puts one of
    /// the mover's pieces on the mover's goal rank and leaves a symmetric
    /// position.
    fn forbidden_by_symmetry(&self, mv: Move, mover: Color) -> bool {
        if self.symmetry == Symmetry::Off || mv.is_placement() {
            return false;
        }
        let goal = self.goal_rank(mover);
        if !mv.reaches_rank(goal) {
            return false;
        }
        let mut after = self.clone();
        after.flip(mv, mover, true);
        after.is_symmetric()
    }

    /// Feeds every legal move of `mover` (as if it were its turn) to `out`;
    /// with `only`, just the moves whose tail (a placement's square) it is.
    fn each_move(&self, mover: Color, only: Option<Square>, mut out: impl FnMut(Move)) {
        if self.has_crossed(mover) {
            return;
        }
        let mut emit = |mv: Move| {
            if !self.forbidden_by_symmetry(mv, mover) {
                out(mv);
            }
        };
        let squares = self
            .size
            .all_squares()
            .filter(|&sq| only.is_none_or(|o| o == sq));
        if self.stones_to_place() > 0 {
            for square in squares {
                if self.on_placement_rank(square) && !self.is_occupied(square) {
                    emit(Move::new_placement(square));
                }
            }
            return;
        }
        for tail in squares {
            if self.piece_at(tail) != Some(mover) {
                continue;
            }
            self.phalanx_moves(tail, mover, &mut emit);
        }
    }

    /// Whether stones may be placed on `square`: ranks 4 to R-3, or 3 to
    /// R-2 on boards of fewer than 8 ranks (section 7.3).
    fn on_placement_rank(&self, square: Square) -> bool {
        Variant::placement_ranks(self.size).contains(&square.rank())
    }

    /// The phalanx moves with `tail` as the rearmost piece (sections 2 and 7.1).
    fn phalanx_moves(&self, tail: Square, mover: Color, emit: &mut impl FnMut(Move)) {
        let mine = Some(Cell::Piece(mover));
        let crossings = self.variant == Variant::Crossings;
        for direction in Direction::ALL {
            let mut group = 1u8;
            let mut head = tail;
            while let Some(next) = head
                .offset(direction, 1)
                .filter(|&sq| self.cell(Some(sq)) == mine)
            {
                head = next;
                group += 1;
            }
            // 7.1: a group holding a crossed piece cannot move.
            if crossings && (0..group).any(|i| self.is_frozen(step(tail, direction, i))) {
                continue;
            }
            for distance in 1..=group {
                let landing = head.offset(direction, i32::from(distance));
                match self.cell(landing) {
                    Some(Cell::Empty) => {
                        emit(Move::new(tail, direction, group, distance, 0));
                    }
                    Some(Cell::Piece(c)) if c != mover => {
                        if crossings && self.is_frozen(landing) {
                            break;
                        }
                        let enemies = self.line_length(landing, direction, !mover);
                        if enemies < group {
                            let captures = if crossings { 1 } else { enemies };
                            emit(Move::new(tail, direction, group, distance, captures));
                        }
                        break;
                    }
                    // Off the board, a friendly piece or a stone.
                    _ => break,
                }
            }
        }
    }

    /// The pieces of `color` in an unbroken line from `from` in `direction`.
    fn line_length(&self, from: Option<Square>, direction: Direction, color: Color) -> u8 {
        let Some(from) = from else { return 0 };
        let mut length = 0;
        while self.cell(step(from, direction, length)) == Some(Cell::Piece(color)) {
            length += 1;
        }
        length
    }

    #[inline(never)]
    pub(crate) fn generate(&self, moves: &mut MoveList) {
        self.each_move(self.turn, None, |mv| moves.push(mv));
    }

    /// The legal captures and moves that put a piece on the goal rank.
    #[inline(never)]
    pub(crate) fn generate_tactical(&self, moves: &mut MoveList) {
        let goal = self.goal_rank(self.turn);
        self.each_move(self.turn, None, |mv| {
            if mv.is_capture() || mv.reaches_rank(goal) {
                moves.push(mv);
            }
        });
    }

    #[inline(never)]
    pub(crate) fn count_moves(&self) -> u64 {
        let mut count = 0;
        self.each_move(self.turn, None, |_| count += 1);
        count
    }

    #[inline(never)]
    pub(crate) fn survey(&self, color: Color) -> (u64, u8) {
        let (mut count, mut largest) = (0, 0);
        self.each_move(color, None, |mv| {
            count += 1;
            largest = largest.max(mv.captures());
        });
        (count, largest)
    }

    #[inline(never)]
    pub(crate) fn survey_both(&self) -> [(u64, u8); 2] {
        [self.survey(Color::White), self.survey(Color::Black)]
    }

    #[inline(never)]
    pub(crate) fn largest_capture(&self, color: Color) -> u8 {
        self.survey(color).1
    }

    #[inline(never)]
    pub(crate) fn links(&self, color: Color) -> u32 {
        let mine = Some(Cell::Piece(color));
        self.squares_of(color)
            .map(|sq| {
                LINES
                    .into_iter()
                    .filter(|&d| self.cell(sq.offset(d, 1)) == mine)
                    .count() as u32
            })
            .sum()
    }

    #[inline(never)]
    pub(crate) fn is_legal(&self, mv: Move) -> bool {
        if !self.size.contains(mv.tail()) || self.mover_has_crossed() {
            return false;
        }
        let mut found = false;
        self.each_move(self.turn, Some(mv.tail()), |legal| found |= legal == mv);
        found
    }

    pub(crate) fn perft(&mut self, depth: u32, lists: &mut Vec<MoveList>, ply: usize) -> u64 {
        crate::core::perft(self, depth, lists, ply)
    }
}

impl crate::core::Walk for VariantCore {
    fn count(&self) -> u64 {
        self.count_moves()
    }

    fn list(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    fn play_move(&mut self, mv: Move) {
        self.play(mv);
    }

    fn undo_move(&mut self, mv: Move) {
        self.undo(mv);
    }
}

/// The square `steps` squares from `from` in `direction`, if it exists on
/// the largest board (cells off a smaller board read as off the board).
fn step(from: Square, direction: Direction, steps: u8) -> Option<Square> {
    from.offset(direction, i32::from(steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Setup};

    /// The variant core, asked to play the standard game.
    fn standard_core(pos: &Position) -> VariantCore {
        let setup = pos.to_setup();
        let mut core =
            VariantCore::empty(Variant::Epaminondas, setup.size, setup.turn, pos.symmetry());
        for (square, color) in setup.pieces {
            core.put(square, color);
        }
        core
    }

    fn sorted(moves: &MoveList) -> Vec<u32> {
        let mut bits: Vec<u32> = moves.iter().map(|mv| mv.to_bits()).collect();
        bits.sort_unstable();
        bits
    }

    #[test]
    fn playing_the_standard_game_it_agrees_with_the_bitboard_core() {
        // A fixed pseudo-random walk through games on several boards.
        let mut seed = 0x5eed_u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize % n
        };
        for (files, ranks) in [(5, 5), (8, 8), (14, 12), (17, 13)] {
            for symmetry in Symmetry::ALL {
                let size = BoardSize::new(files, ranks).unwrap();
                let mut pos = Position::new(size, symmetry);
                for _ in 0..80 {
                    let core = standard_core(&pos);
                    let (mut ours, mut theirs) = (MoveList::new(), MoveList::new());
                    core.generate(&mut ours);
                    pos.legal_moves_into(&mut theirs);
                    assert_eq!(sorted(&ours), sorted(&theirs), "{pos}");
                    let (a, b) = pos.survey_both();
                    let [w, bl] = core.survey_both();
                    let (mine, other) = match pos.turn() {
                        Color::White => (w, bl),
                        Color::Black => (bl, w),
                    };
                    assert_eq!((a.moves, a.largest_capture), mine, "{pos}");
                    assert_eq!((b.moves, b.largest_capture), other, "{pos}");
                    assert_eq!(core.links(Color::White), pos.links(Color::White));
                    if theirs.is_empty() {
                        break;
                    }
                    let mv = theirs[next(theirs.len())];
                    pos.play(mv).unwrap();
                }
            }
        }
    }

    #[test]
    fn moves_of_the_variants_read_with_reasons() {
        let variant = |v: Variant, text: &str| {
            let setup: Setup = text.parse().unwrap();
            Position::from_setup_in(v, &setup, Symmetry::Off).unwrap()
        };
        let reason = |pos: &Position, text: &str| pos.parse_move(text).unwrap_err().to_string();
        // Abanondas: both orders name the sidestep, with the square the
        // second-named end steps onto.
        let pos = variant(Variant::Abanondas, "3b/4/4/ww2 w");
        let north = pos.parse_move("a1,b1-b2").unwrap();
        assert_eq!(pos.parse_move("b1,a1-a2"), Ok(north));
        assert_eq!(north.sidestep(), Some(Direction::North));
        let slip = pos.parse_move("b1,a1-b2").unwrap();
        assert_eq!(slip.sidestep(), Some(Direction::NorthEast));
        assert_eq!(slip.to_string(), "a1,b1-c2");
        assert!(reason(&pos, "a1,b1-b3").contains("sidestep"));
        // A destination on the run's line makes a phalanx move.
        assert_eq!(pos.parse_move("a1,b1-c1").map(|m| m.sidestep()), Ok(None));
        assert!(pos.parse_move("a1,b1-b2:1").is_err());
        // Elsewhere the same text is no move.
        let standard: Position = "3b/4/4/ww2 w".parse().unwrap();
        assert!(reason(&standard, "a1,b1-b2").contains("straight line"));
        // Crossings: crossed pieces neither move nor are taken; a capture
        // takes one piece.
        let pos = variant(Variant::Crossings, "w3/4/1w2/1wwb w");
        assert!(reason(&pos, "a4-a3").contains("a4 has crossed"));
        assert!(reason(&pos, "b1,c1-d1").contains("d1 has crossed"));
        let pos = variant(Variant::Crossings, "2b1/2b1/2w1/2w1/2w1 w");
        let take = pos.parse_move("c1,c3-c4").unwrap();
        assert_eq!(take.captures(), 1);
        assert!(pos.parse_move("c1,c3-c4:2").is_err());
        // Stumbling Blocks: placements first, on their ranks.
        let pos = Position::new_variant(
            Variant::StumblingBlocks,
            BoardSize::new(6, 6).unwrap(),
            Symmetry::Mirror,
        )
        .unwrap();
        assert!(reason(&pos, "a2-a3").contains("3 stones must be placed"));
        assert!(reason(&pos, "@a2").contains("ranks 3 to 4"));
        let mut pos = pos;
        pos.play(pos.parse_move("@ c3").unwrap()).unwrap();
        assert!(reason(&pos, "@c3").contains("blocked at c3"));
        assert!(reason(&Position::standard(), "@d6").contains("no stone to place"));
        assert_eq!(
            "@".parse::<crate::notation::MoveText>()
                .unwrap_err()
                .to_string(),
            "a square is missing at the end"
        );
    }
}
