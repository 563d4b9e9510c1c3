//! The bitboard position for one board layout, and its move generator.
//!
//! `Core<N, L>` keeps each side's pieces in a [`Bits<N>`] with a stride of
//! `1 << L` bits per rank. [`crate::Position`] picks the smallest layout that
//! fits the board: `Core<3, 4>` (up to 15 files and 12 ranks, which covers the
//! standard board) or `Core<13, 5>` (everything up to 26x26).
//!
//! Move generation works a direction at a time on whole sets of squares:
//! for each distance `n` it finds the heads that have `n` empty squares ahead
//! and a run of at least `n` friendly pieces behind them, then walks back from
//! those heads to the tails of every group that may make the move. Captures
//! and moves that touch the goal rank under the symmetry rule are rare and
//! are handled one head at a time.

use crate::bits::Bits;
use crate::moves::{Move, MoveList};
use crate::zobrist;
use crate::{BoardSize, Color, Direction, Square, Symmetry};

/// Receives the moves found by the generator: counts them or lists them.
pub(crate) trait Sink {
    /// One quiet move for each head in `heads`: the groups of `group` pieces
    /// ending there, moving `distance` squares in `direction`.
    fn heads<const N: usize, const L: u32>(
        &mut self,
        heads: Bits<N>,
        direction: Direction,
        group: u8,
        distance: u8,
    );

    /// One move.
    fn one(&mut self, mv: Move);
}

/// Counts moves.
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline(always)]
    fn heads<const N: usize, const L: u32>(&mut self, heads: Bits<N>, _: Direction, _: u8, _: u8) {
        self.0 += u64::from(heads.count());
    }

    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn heads<const N: usize, const L: u32>(
        &mut self,
        heads: Bits<N>,
        direction: Direction,
        group: u8,
        distance: u8,
    ) {
        let (df, dr) = direction.step();
        let back = (dr * (1 << L) + df) as isize * isize::from(group - 1);
        for h in heads.iter() {
            self.push(Move::new(
                square_of::<L>((h as isize - back) as usize),
                direction,
                group,
                distance,
                0,
            ));
        }
    }

    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// The square of bit `index` in a layout of stride `1 << L`.
#[inline(always)]
fn square_of<const L: u32>(index: usize) -> Square {
    let file = (index & ((1 << L) - 1)) as u8;
    let rank = (index >> L) as u8;
    Square::new(file, rank).unwrap_or(Square::new(0, 0).expect("a1 exists"))
}

/// The longest line a board can have.
const MAX_LINE: usize = crate::square::MAX_DIMENSION as usize;

/// Per-direction tables of the generator, kept across directions so that
/// they are set up once per position.
pub(crate) struct Scratch<const N: usize> {
    clear: [Bits<N>; MAX_LINE],
    goal_at: [Bits<N>; MAX_LINE],
}

/// A position on one board layout.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Core<const N: usize, const L: u32> {
    /// Each side's pieces, indexed by [`Color::index`].
    pieces: [Bits<N>; 2],
    /// Every square of the board.
    board: Bits<N>,
    /// Each side's goal rank: the top rank for White, rank 1 for Black.
    goal: [Bits<N>; 2],
    size: BoardSize,
    turn: Color,
    symmetry: Symmetry,
    hash: u64,
}

impl<const N: usize, const L: u32> Core<N, L> {
    const STRIDE: usize = 1 << L;

    /// Whether a board of this size fits the layout.
    pub(crate) fn fits(size: BoardSize) -> bool {
        usize::from(size.files()) < Self::STRIDE
            && usize::from(size.ranks()) * Self::STRIDE <= 64 * N
    }

    /// An empty board of `size` (which must fit).
    pub(crate) fn empty(size: BoardSize, turn: Color, symmetry: Symmetry) -> Self {
        debug_assert!(Self::fits(size));
        let files = usize::from(size.files());
        let row = (1u64 << files) - 1;
        let mut board = Bits::EMPTY;
        let rank_mask = |r: usize| {
            let mut b = Bits::EMPTY;
            b.deposit(r * Self::STRIDE, files, row);
            b
        };
        for r in 0..usize::from(size.ranks()) {
            board |= rank_mask(r);
        }
        let goal = [rank_mask(usize::from(size.ranks()) - 1), rank_mask(0)];
        let mut core = Core {
            pieces: [Bits::EMPTY; 2],
            board,
            goal,
            size,
            turn,
            symmetry,
            hash: 0,
        };
        core.hash = core.compute_hash();
        core
    }

    #[inline(always)]
    fn index(square: Square) -> usize {
        (usize::from(square.rank()) << L) + usize::from(square.file())
    }

    #[inline(always)]
    fn delta(direction: Direction) -> i32 {
        let (df, dr) = direction.step();
        dr * Self::STRIDE as i32 + df
    }

    /// Puts a piece of `color` on `square` (which must be on the board and empty).
    pub(crate) fn put(&mut self, square: Square, color: Color) {
        let i = Self::index(square);
        self.pieces[color.index()].insert(i);
        self.hash ^= zobrist::piece(color.index(), i);
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

    pub(crate) fn piece_at(&self, square: Square) -> Option<Color> {
        if !self.size.contains(square) {
            return None;
        }
        let i = Self::index(square);
        Color::ALL
            .into_iter()
            .find(|c| self.pieces[c.index()].contains(i))
    }

    pub(crate) fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.pieces[color.index()].iter().map(square_of::<L>)
    }

    pub(crate) fn count(&self, color: Color) -> u32 {
        self.pieces[color.index()].count()
    }

    /// Pieces of `color` on its goal rank.
    pub(crate) fn goal_count(&self, color: Color) -> u32 {
        (self.pieces[color.index()] & self.goal[color.index()]).count()
    }

    /// The Zobrist hash computed from scratch.
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut hash = match self.turn {
            Color::White => 0,
            Color::Black => zobrist::black_to_move(),
        };
        for color in Color::ALL {
            for i in self.pieces[color.index()].iter() {
                hash ^= zobrist::piece(color.index(), i);
            }
        }
        hash
    }

    /// Whether the side to move has won by crossing (the position is then terminal).
    #[inline(always)]
    pub(crate) fn mover_has_crossed(&self) -> bool {
        self.goal_count(self.turn) > self.goal_count(!self.turn)
    }

    /// Plays a legal move of the side to move.
    #[inline(always)]
    pub(crate) fn play(&mut self, mv: Move) {
        self.toggle_move(mv, self.turn);
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
    }

    /// Takes back `mv`, which must be the move that produced this position.
    #[inline(always)]
    pub(crate) fn undo(&mut self, mv: Move) {
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
        self.toggle_move(mv, self.turn);
    }

    /// Flips every square the move changes: the `n` rearmost squares of the group
    /// empty, the `n` squares beyond the head fill, and the captured line empties.
    /// Flipping twice restores the position, so this both plays and undoes.
    #[inline(always)]
    fn toggle_move(&mut self, mv: Move, mover: Color) {
        let delta = Self::delta(mv.direction()) as isize;
        let tail = Self::index(mv.tail()) as isize;
        let (k, n, m) = (
            isize::from(mv.group_size()),
            isize::from(mv.distance()),
            isize::from(mv.captures()),
        );
        let (us, them) = (mover.index(), (!mover).index());
        for i in 0..n {
            for j in [tail + i * delta, tail + (k + i) * delta] {
                let j = j as usize;
                self.pieces[us].toggle(j);
                self.hash ^= zobrist::piece(us, j);
            }
        }
        let dest = tail + (k + n - 1) * delta;
        for i in 0..m {
            let j = (dest + i * delta) as usize;
            self.pieces[them].toggle(j);
            self.hash ^= zobrist::piece(them, j);
        }
    }

    /// Whether the position with `white` and `black` is symmetric under the option.
    fn is_symmetric(&self, white: Bits<N>, black: Bits<N>) -> bool {
        let files = usize::from(self.size.files());
        let ranks = usize::from(self.size.ranks());
        let row = |b: Bits<N>, r: usize| b.extract(r << L, files);
        match self.symmetry {
            Symmetry::Off => false,
            Symmetry::Mirror => {
                white.count() == black.count()
                    && (0..ranks).all(|r| row(white, r) == row(black, ranks - 1 - r))
            }
            Symmetry::File => {
                let reflect = |v: u64| v.reverse_bits() >> (64 - files);
                (0..ranks).all(|r| {
                    let (w, b) = (row(white, r), row(black, r));
                    reflect(w) == w && reflect(b) == b
                })
            }
        }
    }

    /// Whether `mv` by the side to move would leave a symmetric position.
    fn move_creates_symmetry(&self, mv: Move) -> bool {
        let mut after = self.clone();
        after.toggle_move(mv, self.turn);
        after.is_symmetric(
            after.pieces[Color::White.index()],
            after.pieces[Color::Black.index()],
        )
    }

    /// Whether the symmetry rule could forbid any move here. A cheap filter:
    /// under `mirror` both sides need equal numbers after the move, and a move
    /// never adds enemy pieces.
    #[inline(always)]
    fn symmetry_matters(&self) -> bool {
        match self.symmetry {
            Symmetry::Off => false,
            Symmetry::Mirror => self.count(self.turn) <= self.count(!self.turn),
            Symmetry::File => true,
        }
    }

    /// Counts the legal moves (without listing them).
    pub(crate) fn count_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Feeds every legal move to `sink`. A terminal position has none.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        if self.mover_has_crossed() {
            return;
        }
        let symmetry = self.symmetry_matters();
        let mut scratch = Scratch {
            clear: [Bits::EMPTY; MAX_LINE],
            goal_at: [Bits::EMPTY; MAX_LINE],
        };
        self.generate_direction::<S, 0>(sink, symmetry, &mut scratch);
        self.generate_direction::<S, 1>(sink, symmetry, &mut scratch);
        self.generate_direction::<S, 2>(sink, symmetry, &mut scratch);
        self.generate_direction::<S, 3>(sink, symmetry, &mut scratch);
        self.generate_direction::<S, 4>(sink, symmetry, &mut scratch);
        self.generate_direction::<S, 5>(sink, symmetry, &mut scratch);
        self.generate_direction::<S, 6>(sink, symmetry, &mut scratch);
        self.generate_direction::<S, 7>(sink, symmetry, &mut scratch);
    }

    /// The moves in direction number `D` of [`Direction::ALL`].
    ///
    /// For each group size k (outer loop) it keeps `heads`, the heads with a run
    /// of at least k friendly pieces behind them; `scratch.clear[n - 1]` holds the
    /// squares with n empty squares ahead. A head with run >= k and n <= k empty
    /// squares ahead has the quiet move (k, n), so the quiet moves of group size
    /// k are the sets `heads & clear[n - 1]` for n = 1..=k.
    #[inline(always)]
    fn generate_direction<S: Sink, const D: usize>(
        &self,
        sink: &mut S,
        symmetry: bool,
        scratch: &mut Scratch<N>,
    ) {
        let direction = Direction::ALL[D];
        let delta = Self::delta(direction);
        let board = self.board;
        let us = self.pieces[self.turn.index()];
        let them = self.pieces[(!self.turn).index()];
        let empty = board.and_not(us | them);
        // `ahead(x)`: the squares one step ahead of `x`; `behind(x)`: one step behind.
        let ahead = |x: Bits<N>| x.shift(delta) & board;
        let behind = |x: Bits<N>| x.shift(-delta) & board;

        // The symmetry rule concerns moves whose head lands on the goal rank;
        // that needs a direction that does not lead away from it.
        let toward_goal = match self.turn {
            Color::White => direction.step().1,
            Color::Black => -direction.step().1,
        };
        let check_goal = symmetry && toward_goal >= 0;

        // A head is a friendly piece whose next square ahead is not friendly.
        let mut heads = us.and_not(behind(us));
        let mut run = us; // squares ending a friendly line of at least `group`
        let mut clear = behind(empty); // squares with `group` empty squares ahead
        let mut goal_at = behind(self.goal[self.turn.index()]);
        // Squares whose first non-empty square ahead, `group` steps away, is an enemy.
        let mut reach = behind(them);
        let mut group: u8 = 1;
        loop {
            let k = usize::from(group);
            scratch.clear[k - 1] = clear;
            if check_goal {
                scratch.goal_at[k - 1] = goal_at;
            }
            for n in 1..=group {
                let mut movers = heads & scratch.clear[usize::from(n) - 1];
                if movers.is_empty() {
                    break;
                }
                if check_goal {
                    let touching = movers & scratch.goal_at[usize::from(n) - 1];
                    if touching.any() {
                        movers = movers.and_not(touching);
                        for head in touching.iter() {
                            self.checked_move(sink, head, direction, group, n, 0);
                        }
                    }
                }
                sink.heads::<N, L>(movers, direction, group, n);
            }
            // Captures with the target `group` steps ahead; at group 2 also
            // those with the target adjacent (a capture needs two pieces).
            if group >= 2 {
                let candidates = heads & reach;
                for head in candidates.iter() {
                    self.capture_moves(sink, head, direction, group, check_goal);
                }
            }
            run = run & ahead(run);
            heads = heads & run;
            if heads.is_empty() {
                break;
            }
            if group == 1 {
                let adjacent = heads & reach;
                for head in adjacent.iter() {
                    self.capture_moves(sink, head, direction, 1, check_goal);
                }
            }
            group += 1;
            if usize::from(group) > MAX_LINE {
                break;
            }
            clear = behind(clear & empty);
            reach = behind(reach & empty);
            // Longer groups need an empty square ahead or an enemy in reach.
            if (heads & scratch.clear[0]).is_empty() && reach.is_empty() {
                break;
            }
            if check_goal {
                goal_at = behind(goal_at);
            }
        }
    }

    /// The friendly run ending at `head`, looking back against `direction`.
    #[inline(always)]
    fn run_length(&self, head: usize, delta: isize) -> u8 {
        let us = self.pieces[self.turn.index()];
        let mut length = 1;
        let mut i = head as isize - delta;
        while i >= 0 && us.contains(i as usize) {
            length += 1;
            i -= delta;
        }
        length
    }

    /// The move of the `group` ending at `head` over `distance`, if the
    /// symmetry rule allows it.
    fn checked_move<S: Sink>(
        &self,
        sink: &mut S,
        head: usize,
        direction: Direction,
        group: u8,
        distance: u8,
        captures: u8,
    ) {
        let delta = Self::delta(direction) as isize;
        let tail = (head as isize - isize::from(group - 1) * delta) as usize;
        let mv = Move::new(square_of::<L>(tail), direction, group, distance, captures);
        if !self.move_creates_symmetry(mv) {
            sink.one(mv);
        }
    }

    /// The captures by the groups ending at `head` on the enemy piece `distance` ahead.
    #[inline(always)]
    fn capture_moves<S: Sink>(
        &self,
        sink: &mut S,
        head: usize,
        direction: Direction,
        distance: u8,
        check_goal: bool,
    ) {
        let delta = Self::delta(direction) as isize;
        let them = self.pieces[(!self.turn).index()];
        let target = head as isize + isize::from(distance) * delta;
        let mut enemies: u8 = 0;
        let mut i = target;
        while i >= 0 && them.contains(i as usize) {
            enemies += 1;
            i += delta;
        }
        let min_group = distance.max(enemies + 1);
        let touches_goal = check_goal && self.goal[self.turn.index()].contains(target as usize);
        let run = self.run_length(head, delta);
        for group in min_group..=run {
            if touches_goal {
                self.checked_move(sink, head, direction, group, distance, enemies);
            } else {
                let tail = (head as isize - isize::from(group - 1) * delta) as usize;
                sink.one(Move::new(
                    square_of::<L>(tail),
                    direction,
                    group,
                    distance,
                    enemies,
                ));
            }
        }
    }

    /// Leaf count of the legal-move tree `depth` plies deep. The last ply is
    /// counted without playing its moves. `lists` needs `depth - 1` buffers.
    pub(crate) fn perft(&mut self, depth: u32, lists: &mut [MoveList]) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => {
                let Some((list, rest)) = lists.split_first_mut() else {
                    return 0;
                };
                list.clear();
                self.generate(list);
                let mut total = 0;
                for &mv in list.iter() {
                    self.play(mv);
                    total += self.perft(depth - 1, rest);
                    self.undo(mv);
                }
                total
            }
        }
    }

    /// Whether `mv` is one of the legal moves here, checked directly.
    pub(crate) fn is_legal(&self, mv: Move) -> bool {
        if self.mover_has_crossed() {
            return false;
        }
        let delta = Self::delta(mv.direction()) as isize;
        let us = self.pieces[self.turn.index()];
        let them = self.pieces[(!self.turn).index()];
        let (k, n) = (isize::from(mv.group_size()), isize::from(mv.distance()));
        if !self.size.contains(mv.tail()) || n < 1 || n > k {
            return false;
        }
        let tail = Self::index(mv.tail()) as isize;
        // The group: k friendly pieces from the tail, and no friend right after.
        let on_board = |i: isize| i >= 0 && self.board.contains(i as usize);
        let friend = |i: isize| on_board(i) && us.contains(i as usize);
        let enemy = |i: isize| on_board(i) && them.contains(i as usize);
        if !(0..k).all(|i| friend(tail + i * delta)) || friend(tail + k * delta) {
            return false;
        }
        let head = tail + (k - 1) * delta;
        if !(1..n).all(|i| {
            on_board(head + i * delta) && !friend(head + i * delta) && !enemy(head + i * delta)
        }) {
            return false;
        }
        let dest = head + n * delta;
        if !on_board(dest) || friend(dest) {
            return false;
        }
        let mut enemies = 0;
        while enemy(dest + enemies * delta) {
            enemies += 1;
        }
        if enemies != isize::from(mv.captures()) || (enemies > 0 && enemies >= k) {
            return false;
        }
        let touches_goal = self.goal[self.turn.index()].contains(dest as usize);
        !(touches_goal && self.symmetry != Symmetry::Off && self.move_creates_symmetry(mv))
    }
}
