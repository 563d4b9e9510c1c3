//! The bitboard position for one board layout, and its move generator.
//!
//! `Core<N, L>` keeps each side's pieces in a [`Bits<N>`] with a stride of
//! `1 << L` bits per rank. [`crate::Position`] picks the smallest layout that
//! fits the board: `Core<4, 4>` (up to 15 files and 16 ranks, which covers the
//! standard board; `Core<3, 4>`, up to 12 ranks, where the build has no AVX2)
//! or `Core<13, 5>` (everything up to 26x26).
//!
//! Move generation works a direction at a time on whole sets of squares:
//! for each distance `n` it finds the heads that have `n` empty squares ahead
//! and a run of at least `n` friendly pieces behind them, then walks back from
//! those heads to the tails of every group that may make the move. Captures
//! and moves that touch the goal rank under the symmetry rule are rare and
//! are handled one head at a time.

use crate::bits::Bits;
#[cfg(target_feature = "bmi2")]
use crate::lines::{Line, LineTable};
use crate::moves::{Move, MoveList};
use crate::zobrist;
use crate::{BoardSize, Color, Direction, Square, Symmetry, Variant};

/// Receives the moves found by the generator: counts them or lists them.
pub(crate) trait Sink {
    /// The quiet moves of groups of `group` pieces in `direction` from the
    /// heads in `heads` (all with runs of at least `group`): for each head h,
    /// one move for each distance from 1 to `room[h]` (which is min(e, group)
    /// for e empty squares ahead).
    fn group<const N: usize, const L: u32>(
        &mut self,
        heads: Bits<N>,
        room: &Planes<N>,
        direction: Direction,
        group: u8,
    );

    /// Whether the sink needs the moves themselves; if not, [`Sink::add`]
    /// may be given a number of moves instead.
    const LISTS: bool;

    /// Whether the sink wants quiet moves (those that capture nothing); if
    /// not, the generator may skip them.
    const QUIET: bool = true;

    /// Whether the sink wants the quiet moves in `direction` (a direction
    /// off the ranks); if not, the generator skips them.
    #[inline(always)]
    fn quiet_direction(&self, direction: Direction) -> bool {
        let _ = direction;
        Self::QUIET
    }

    /// Whether the sink wants the quiet moves along `rank` (east and west).
    #[inline(always)]
    fn quiet_rank(&self, rank: u32) -> bool {
        let _ = rank;
        Self::QUIET
    }

    /// The rank that every quiet move the sink wants in `direction` (off
    /// the ranks, one it wants quiet moves in) lands on, if there is one:
    /// then the generator gives it just those moves, one by one through
    /// [`Sink::one`], instead of calling [`Sink::group`].
    #[inline(always)]
    fn quiet_goal(&self, direction: Direction) -> Option<u8> {
        let _ = direction;
        None
    }

    /// Whether the moves along `rank` must come one by one through
    /// [`Sink::one`] rather than as counts: whenever the sink lists moves.
    #[inline(always)]
    fn each_move_on_rank(&self, rank: u32) -> bool {
        let _ = rank;
        Self::LISTS
    }

    /// `count` moves (only when [`Sink::LISTS`] is false; a sink that lists
    /// moves is never given a bare count).
    fn add(&mut self, count: u64) {
        let _ = count;
        debug_assert!(!Self::LISTS, "a sink that lists moves needs the moves");
    }

    /// `count` captures of `captured` pieces each (only when [`Sink::LISTS`]
    /// is false, like [`Sink::add`]); by default just counted.
    fn add_captures(&mut self, count: u64, captured: u8) {
        let _ = captured;
        self.add(count);
    }

    /// One move.
    fn one(&mut self, mv: Move);
}

/// Counts moves.
#[derive(Default)]
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    const LISTS: bool = false;

    #[inline(always)]
    fn add(&mut self, count: u64) {
        self.0 += count;
    }

    #[inline(always)]
    fn group<const N: usize, const L: u32>(
        &mut self,
        heads: Bits<N>,
        room: &Planes<N>,
        _: Direction,
        _: u8,
    ) {
        self.0 += room.total(heads);
    }

    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Calls `each` with every quiet move that [`Sink::group`] describes.
#[inline(always)]
fn each_group_move<const N: usize, const L: u32>(
    heads: Bits<N>,
    room: &Planes<N>,
    direction: Direction,
    group: u8,
    mut each: impl FnMut(Move),
) {
    let (df, dr) = direction.step();
    let back = (dr * (1 << L) + df) as isize * isize::from(group - 1);
    for head in heads.iter() {
        let tail = square_of::<L>((head as isize - back) as usize);
        for distance in 1..=room.value(head) {
            each(Move::new(tail, direction, group, distance, 0));
        }
    }
}

impl Sink for MoveList {
    const LISTS: bool = true;

    #[inline(always)]
    fn group<const N: usize, const L: u32>(
        &mut self,
        heads: Bits<N>,
        room: &Planes<N>,
        direction: Direction,
        group: u8,
    ) {
        each_group_move::<N, L>(heads, room, direction, group, |mv| self.push(mv));
    }

    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Keeps the largest number of pieces one capture takes; skips quiet moves.
#[derive(Default)]
pub(crate) struct LargestCapture(pub(crate) u8);

impl Sink for LargestCapture {
    const LISTS: bool = false;
    const QUIET: bool = false;

    #[inline(always)]
    fn add(&mut self, _: u64) {}

    #[inline(always)]
    fn add_captures(&mut self, _: u64, captured: u8) {
        self.0 = self.0.max(captured);
    }

    #[inline(always)]
    fn group<const N: usize, const L: u32>(
        &mut self,
        _: Bits<N>,
        _: &Planes<N>,
        _: Direction,
        _: u8,
    ) {
    }

    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.0 = self.0.max(mv.captures());
    }
}

/// Counts moves and keeps the largest number of pieces one of them captures:
/// a [`Counter`] and a [`LargestCapture`] fed in one pass.
#[derive(Default)]
pub(crate) struct Survey {
    pub(crate) moves: Counter,
    pub(crate) largest: LargestCapture,
}

impl Sink for Survey {
    const LISTS: bool = false;

    #[inline(always)]
    fn add(&mut self, count: u64) {
        self.moves.add(count);
    }

    #[inline(always)]
    fn add_captures(&mut self, count: u64, captured: u8) {
        self.moves.add(count);
        self.largest.add_captures(count, captured);
    }

    #[inline(always)]
    fn group<const N: usize, const L: u32>(
        &mut self,
        heads: Bits<N>,
        room: &Planes<N>,
        direction: Direction,
        group: u8,
    ) {
        // Groups of quiet moves only add to the count.
        self.moves.group::<N, L>(heads, room, direction, group);
    }

    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.moves.one(mv);
        self.largest.one(mv);
    }
}

/// Passes on only the tactical moves: captures, and moves that put a piece
/// on the mover's goal rank. Off the ranks, the generator looks only for
/// the quiet moves that land on the goal rank (see [`Sink::quiet_goal`]).
pub(crate) struct Tactical<'a> {
    /// Where the moves go.
    pub(crate) moves: &'a mut MoveList,
    /// The mover's goal rank.
    pub(crate) goal: u8,
}

impl Sink for Tactical<'_> {
    const LISTS: bool = true;

    /// Only the directions towards the goal rank can reach it.
    #[inline(always)]
    fn quiet_direction(&self, direction: Direction) -> bool {
        let step = direction.step().1;
        if self.goal == 0 { step < 0 } else { step > 0 }
    }

    /// Along a rank only the goal rank itself.
    #[inline(always)]
    fn quiet_rank(&self, rank: u32) -> bool {
        rank == u32::from(self.goal)
    }

    #[inline(always)]
    fn quiet_goal(&self, _: Direction) -> Option<u8> {
        Some(self.goal)
    }

    #[inline(always)]
    fn group<const N: usize, const L: u32>(
        &mut self,
        heads: Bits<N>,
        room: &Planes<N>,
        direction: Direction,
        group: u8,
    ) {
        // Not called by the generator, which gives this sink its quiet
        // moves one by one (see `quiet_goal`); correct all the same.
        let goal = self.goal;
        each_group_move::<N, L>(heads, room, direction, group, |mv| {
            if mv.destination().rank() == goal {
                self.moves.push(mv);
            }
        });
    }

    #[inline(always)]
    fn one(&mut self, mv: Move) {
        if mv.is_capture() || mv.reaches_rank(self.goal) {
            self.moves.push(mv);
        }
    }
}

/// The heads among `heads` from which a group of `group` pieces moving in
/// `direction` (a direction off the ranks) may land on rank `goal`.
#[inline(always)]
fn heads_reaching<const N: usize, const L: u32>(
    heads: Bits<N>,
    direction: Direction,
    group: u8,
    goal: u8,
) -> Bits<N> {
    // Directions off the ranks move one rank a step, and a group moves at
    // most `group` steps: only heads within `group` ranks short of the goal
    // can reach it.
    let (goal, group_ranks) = (usize::from(goal), usize::from(group));
    let ranks = if direction.step().1 > 0 {
        goal.saturating_sub(group_ranks)..goal
    } else {
        goal + 1..goal + 1 + group_ranks
    };
    heads & Bits::range(ranks.start << L, ranks.end << L)
}

/// Passes on the moves the symmetry rule allows, for the positions where
/// the rule might forbid something. Only moves onto the mover's goal rank
/// can be forbidden, so only they are looked at one by one; the rest go to
/// the inner sink as they come (counted, if it counts).
struct SymmetryFilter<'a, S, const N: usize, const L: u32> {
    core: &'a Core<N, L>,
    inner: &'a mut S,
    /// The mover's goal rank.
    goal: u8,
}

impl<S: Sink, const N: usize, const L: u32> SymmetryFilter<'_, S, N, L> {
    fn check(&mut self, mv: Move) {
        let core = self.core;
        if !(mv.reaches_rank(self.goal) && core.move_creates_symmetry(mv)) {
            self.inner.one(mv);
        }
    }
}

impl<S: Sink, const N2: usize, const L2: u32> Sink for SymmetryFilter<'_, S, N2, L2> {
    const LISTS: bool = S::LISTS;
    const QUIET: bool = S::QUIET;

    fn quiet_direction(&self, direction: Direction) -> bool {
        self.inner.quiet_direction(direction)
    }

    fn quiet_rank(&self, rank: u32) -> bool {
        self.inner.quiet_rank(rank)
    }

    fn quiet_goal(&self, direction: Direction) -> Option<u8> {
        self.inner.quiet_goal(direction)
    }

    fn each_move_on_rank(&self, rank: u32) -> bool {
        S::LISTS || rank == u32::from(self.goal)
    }

    fn add(&mut self, count: u64) {
        self.inner.add(count);
    }

    fn add_captures(&mut self, count: u64, captured: u8) {
        self.inner.add_captures(count, captured);
    }

    fn group<const N: usize, const L: u32>(
        &mut self,
        heads: Bits<N>,
        room: &Planes<N>,
        direction: Direction,
        group: u8,
    ) {
        if S::LISTS {
            // One by one in the usual order, so that a list comes out as
            // without the filter.
            each_group_move::<N, L>(heads, room, direction, group, |mv| self.check(mv));
            return;
        }
        let near = heads_reaching::<N, L>(heads, direction, group, self.goal);
        let far = heads.and_not(near);
        if far.any() {
            self.inner.group::<N, L>(far, room, direction, group);
        }
        if near.any() {
            each_group_move::<N, L>(near, room, direction, group, |mv| self.check(mv));
        }
    }

    fn one(&mut self, mv: Move) {
        self.check(mv);
    }
}

/// The moves along one line of `len` squares (bit i is square i) for the
/// side with `us`, against `them`: how many, and the most pieces one
/// captures. Counted by the rank generator's own code, on a one-word board.
#[cfg(target_feature = "bmi2")]
pub(crate) fn line_survey(us: u64, them: u64, len: u8) -> (u64, u8) {
    let mut survey = Survey::default();
    let sides = Sides {
        us: Bits([us]),
        them: Bits([them]),
        empty: Bits([0]),
    };
    Core::<1, 4>::rank_moves(&mut survey, &sides, len);
    (survey.moves.0, survey.largest.0)
}

/// The square of bit `index` in a layout of stride `1 << L`.
#[inline(always)]
fn square_of<const L: u32>(index: usize) -> Square {
    Square::new_unchecked((index & ((1 << L) - 1)) as u8, (index >> L) as u8)
}

/// Small counts for every square, bit-sliced: bit `p` of a square's count is
/// set exactly when the square is in `planes[p]`.
pub(crate) struct Planes<const N: usize> {
    planes: [Bits<N>; 5],
    used: usize,
}

impl<const N: usize> Planes<N> {
    #[inline(always)]
    fn new() -> Self {
        Planes {
            planes: [Bits::EMPTY; 5],
            used: 0,
        }
    }

    /// Adds one to the counts of `squares`, given that this is the `step`-th
    /// call and the sets shrink from call to call: then bit p of a count c is
    /// the parity of floor(c / 2^p), the number of multiples of 2^p up to c.
    #[inline(always)]
    fn add(&mut self, step: u8, squares: Bits<N>) {
        let top = step.trailing_zeros().min(4) as usize;
        for plane in &mut self.planes[..=top] {
            *plane ^= squares;
        }
        self.used = self.used.max(top + 1);
    }

    /// The sum of the counts of `squares`.
    #[inline(always)]
    fn total(&self, squares: Bits<N>) -> u64 {
        let mut sum = 0;
        for (p, plane) in self.planes[..self.used].iter().enumerate() {
            sum += u64::from((squares & *plane).count()) << p;
        }
        sum
    }

    /// The count of one square.
    #[inline(always)]
    fn value(&self, square: usize) -> u8 {
        let mut value = 0;
        for (p, plane) in self.planes[..self.used].iter().enumerate() {
            value |= u8::from(plane.contains(square)) << p;
        }
        value
    }
}

/// The side to move's pieces, the opponent's and the empty squares.
#[derive(Clone, Copy)]
pub(crate) struct Sides<const N: usize> {
    us: Bits<N>,
    them: Bits<N>,
    empty: Bits<N>,
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
    /// Whether runs may sidestep: Abanondas (RULES.md section 7.2), which
    /// is the standard game plus that one kind of move, and so shares this
    /// generator (its sidesteps found by [`Core::generate_sidesteps`]).
    sidesteps: bool,
    hash: u64,
}

impl<const N: usize, const L: u32> Core<N, L> {
    const STRIDE: usize = 1 << L;

    /// Whether a board of this size fits the layout.
    pub(crate) fn fits(size: BoardSize) -> bool {
        usize::from(size.files()) < Self::STRIDE
            && usize::from(size.ranks()) * Self::STRIDE <= 64 * N
    }

    /// An empty board of `size` (which must fit), of the standard game or,
    /// with `sidesteps`, of Abanondas.
    pub(crate) fn empty(size: BoardSize, turn: Color, symmetry: Symmetry, sidesteps: bool) -> Self {
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
            sidesteps,
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

    /// The game played: the standard one, or Abanondas where runs sidestep.
    pub(crate) fn variant(&self) -> Variant {
        if self.sidesteps {
            Variant::Abanondas
        } else {
            Variant::Epaminondas
        }
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

    /// Pieces of `color` on `rank` (0 off the board).
    pub(crate) fn count_on_rank(&self, color: Color, rank: u8) -> u32 {
        if rank >= self.size.ranks() {
            return 0;
        }
        Self::row(self.pieces[color.index()], u32::from(rank)).count_ones()
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

    /// The Zobrist hash of the position reflected left to right (file `a`
    /// and the last file swapped), computed from scratch.
    pub(crate) fn compute_reflected_hash(&self) -> u64 {
        let last_file = self.size.files() - 1;
        let mut hash = match self.turn {
            Color::White => 0,
            Color::Black => zobrist::black_to_move(),
        };
        for color in Color::ALL {
            for i in self.pieces[color.index()].iter() {
                let square = square_of::<L>(i);
                let mirror = Square::new_unchecked(last_file - square.file(), square.rank());
                hash ^= zobrist::piece(color.index(), Self::index(mirror));
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

    /// Hands the turn to the other side without a move (for search only).
    #[inline(always)]
    pub(crate) fn pass(&mut self) {
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

    /// The hash after the side to move plays `mv` (which must be legal),
    /// computed without playing it.
    #[inline(always)]
    pub(crate) fn hash_after(&self, mv: Move) -> u64 {
        let mut hash = self.hash ^ zobrist::black_to_move();
        Self::each_changed_square(mv, self.turn, |side, j| hash ^= zobrist::piece(side, j));
        hash
    }

    /// The reflected hash ([`Core::compute_reflected_hash`]) after the side
    /// to move plays `mv` (which must be legal), from `reflected`, this
    /// position's.
    #[inline(always)]
    pub(crate) fn reflected_hash_after(&self, mv: Move, reflected: u64) -> u64 {
        let last_file = self.size.files() - 1;
        let mut hash = reflected ^ zobrist::black_to_move();
        Self::each_changed_square(mv, self.turn, |side, j| {
            let square = square_of::<L>(j);
            let mirror = Square::new_unchecked(last_file - square.file(), square.rank());
            hash ^= zobrist::piece(side, Self::index(mirror));
        });
        hash
    }

    /// Calls `change` with the side index and bit index of every square
    /// that `mv` by `mover` changes: the `n` rearmost squares of the group
    /// empty, the `n` squares beyond the head fill, and the captured line
    /// empties. A sidestep empties its run's squares and fills the squares
    /// one step off them.
    #[inline(always)]
    fn each_changed_square(mv: Move, mover: Color, mut change: impl FnMut(usize, usize)) {
        let delta = Self::delta(mv.direction()) as isize;
        let tail = Self::index(mv.tail()) as isize;
        if let Some(step) = mv.sidestep() {
            let offset = Self::delta(step) as isize;
            for i in 0..isize::from(mv.group_size()) {
                let from = tail + i * delta;
                change(mover.index(), from as usize);
                change(mover.index(), (from + offset) as usize);
            }
            return;
        }
        let (k, n, m) = (
            isize::from(mv.group_size()),
            isize::from(mv.distance()),
            isize::from(mv.captures()),
        );
        let (us, them) = (mover.index(), (!mover).index());
        for i in 0..n {
            change(us, (tail + i * delta) as usize);
            change(us, (tail + (k + i) * delta) as usize);
        }
        let dest = tail + (k + n - 1) * delta;
        for i in 0..m {
            change(them, (dest + i * delta) as usize);
        }
    }

    /// Flips every square the move changes (see
    /// [`Core::each_changed_square`]). Flipping twice restores the position,
    /// so this both plays and undoes.
    #[inline(always)]
    fn toggle_move(&mut self, mv: Move, mover: Color) {
        let (pieces, hash) = (&mut self.pieces, &mut self.hash);
        Self::each_changed_square(mv, mover, |side, j| {
            pieces[side].toggle(j);
            *hash ^= zobrist::piece(side, j);
        });
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

    /// Whether the symmetry rule could forbid any move here. Under `mirror`
    /// (the mover's pieces on rank r exactly where the opponent's are on the
    /// mirror rank), only a move onto the mover's goal rank counts, and:
    ///
    /// - a move from off that rank puts just its head there and captures at
    ///   most the one piece on the square it lands on, so it can leave the
    ///   goal rank matching the opponent's own goal rank only if the latter
    ///   holds the mover's goal-rank pieces and one more, and the counts
    ///   only if the opponent has as many pieces as the mover or one more;
    /// - a move along that rank keeps the mover's count there and changes no
    ///   other rank of the mover's, and of the opponent's only the mirror of
    ///   the goal rank, so the two goal ranks must hold as many pieces and
    ///   every other rank must already match its mirror rank.
    #[inline(always)]
    fn symmetry_matters(&self) -> bool {
        self.symmetry_matters_for(self.turn)
    }

    /// [`Core::symmetry_matters`] with `mover` to move.
    #[inline(always)]
    fn symmetry_matters_for(&self, mover: Color) -> bool {
        match self.symmetry {
            Symmetry::Off => false,
            Symmetry::Mirror => {
                let (us, them) = (self.pieces[mover.index()], self.pieces[(!mover).index()]);
                let (ours, theirs) = (us.count(), them.count());
                if theirs < ours {
                    return false;
                }
                // A sidestep may put several pieces on the goal rank, or
                // move pieces on it and on other ranks at once, so the
                // reasoning below (for phalanx moves) does not hold for it;
                // it captures nothing, so it can leave a symmetric position
                // only where both sides have as many pieces.
                if self.sidesteps && theirs == ours {
                    return true;
                }
                let ranks = u32::from(self.size.ranks());
                let goal = u32::from(self.goal_rank(mover));
                let mirror = |rank: u32| ranks - 1 - rank;
                let (arrived, waiting) = (Self::row(us, goal), Self::row(them, mirror(goal)));
                let onto = theirs - ours <= 1
                    && waiting.count_ones() == arrived.count_ones() + 1
                    && arrived & !waiting == 0;
                let along = arrived != 0
                    && waiting.count_ones() == arrived.count_ones()
                    && (0..ranks)
                        .filter(|&r| r != goal && r != mirror(goal))
                        .all(|r| Self::row(us, r) == Self::row(them, mirror(r)));
                onto || along
            }
            Symmetry::File => true,
        }
    }

    /// Feeds `sink` the moves `color` would have if it were its turn.
    #[inline(always)]
    fn generate_for<S: Sink>(&self, color: Color, sink: &mut S) {
        if self.turn == color {
            self.generate(sink);
        } else {
            let mut turned = self.clone();
            turned.pass();
            turned.generate(sink);
        }
    }

    /// The number of moves `color` would have if it were its turn, and the
    /// most pieces one of them would capture.
    pub(crate) fn survey(&self, color: Color) -> (u64, u8) {
        let mut survey = Survey::default();
        self.generate_for(color, &mut survey);
        (survey.moves.0, survey.largest.0)
    }

    /// [`Core::survey`] of White and of Black, in that order: from the
    /// line table where it can be used (see the `lines` module).
    pub(crate) fn survey_both(&self) -> [(u64, u8); 2] {
        #[cfg(target_feature = "bmi2")]
        if L == 4 && N >= 3 && usize::from(self.size.ranks()) <= crate::lines::MAX_LEN {
            return self.survey_both_by_lines();
        }
        [self.survey(Color::White), self.survey(Color::Black)]
    }

    /// [`Core::survey_both`] on a board of up to 15 files and 12 ranks: the
    /// files and diagonals from the table, the ranks from the generator. A side that has
    /// crossed has no moves, and one whose moves the symmetry rule may
    /// restrict is surveyed by the generator, which applies the rule.
    #[cfg(target_feature = "bmi2")]
    fn survey_both_by_lines(&self) -> [(u64, u8); 2] {
        use std::arch::x86_64::_pext_u64;
        let table = LineTable::get();
        let lines = table.lines(self.size.files(), self.size.ranks());
        // SAFETY: PEXT needs BMI2, which the build enables (the cfg above).
        let pext = |word: u64, mask: u64| unsafe { _pext_u64(word, mask) };
        let gather = |bits: Bits<N>, line: &Line| {
            (pext(bits.0[0], line.masks[0])
                | pext(bits.0[1], line.masks[1]) << line.shifts[1]
                | pext(bits.0[2], line.masks[2]) << line.shifts[2]) as usize
        };
        let [white, black] = self.pieces;
        // White's moves in the low half, Black's in the high half.
        let mut moves = 0u32;
        let mut largest = [0u32; 2];
        for line in lines {
            let index = line.offset as usize
                + table.ternary[gather(white, line)] as usize
                + 2 * table.ternary[gather(black, line)] as usize;
            let entry = table.entries[index];
            moves += entry & 0x00FF_00FF;
            largest[0] = largest[0].max((entry >> 8) & 0xFF);
            largest[1] = largest[1].max(entry >> 24);
        }
        let mut surveys = [
            (u64::from(moves & 0xFFFF), largest[0] as u8),
            (u64::from(moves >> 16), largest[1] as u8),
        ];
        for color in [Color::White, Color::Black] {
            let survey = &mut surveys[color.index()];
            if self.goal_count(color) > self.goal_count(!color) {
                *survey = (0, 0);
            } else if self.symmetry_matters_for(color) {
                *survey = self.survey(color);
            } else {
                let us = self.pieces[color.index()];
                let them = self.pieces[(!color).index()];
                let sides = Sides {
                    us,
                    them,
                    empty: self.board.and_not(us | them),
                };
                let mut ranks = Survey::default();
                Self::rank_moves(&mut ranks, &sides, self.size.files());
                if self.sidesteps {
                    self.generate_sidesteps(&mut ranks, &sides, color);
                }
                survey.0 += ranks.moves.0;
                survey.1 = survey.1.max(ranks.largest.0);
            }
        }
        surveys
    }

    /// The most pieces one move of `color` would capture if it were its turn.
    pub(crate) fn largest_capture(&self, color: Color) -> u8 {
        let mut largest = LargestCapture::default();
        self.generate_for(color, &mut largest);
        largest.0
    }

    /// The pairs of neighbouring pieces of `color` along the four lines a
    /// phalanx can form (rank, file and both diagonals).
    pub(crate) fn links(&self, color: Color) -> u32 {
        let pieces = self.pieces[color.index()];
        [
            Direction::East,
            Direction::North,
            Direction::NorthEast,
            Direction::NorthWest,
        ]
        .into_iter()
        .map(|d| (pieces & pieces.shift(Self::delta(d))).count())
        .sum()
    }

    /// Counts the legal moves (without listing them).
    pub(crate) fn count_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// The legal captures and moves onto the goal rank.
    pub(crate) fn generate_tactical(&self, moves: &mut MoveList) {
        let goal = self.goal_rank(self.turn);
        self.generate(&mut Tactical { moves, goal });
    }

    /// The goal rank of `color`: the top rank for White, rank 1 for Black.
    #[inline(always)]
    fn goal_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => self.size.ranks() - 1,
            Color::Black => 0,
        }
    }

    /// Feeds every legal move to `sink`. A terminal position has none.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        if self.mover_has_crossed() {
            return;
        }
        if self.symmetry_matters() {
            let mut filter = SymmetryFilter {
                core: self,
                inner: sink,
                goal: self.goal_rank(self.turn),
            };
            self.generate_all(&mut filter);
        } else {
            self.generate_all(sink);
        }
    }

    /// Feeds every move to `sink`, ignoring the symmetry rule.
    #[inline(always)]
    fn generate_all<S: Sink>(&self, sink: &mut S) {
        let us = self.pieces[self.turn.index()];
        let them = self.pieces[(!self.turn).index()];
        let empty = self.board.and_not(us | them);
        let sides = Sides { us, them, empty };
        // Two copies of the direction code (for the directions that step up
        // the bit indices and for those that step down, so that no shift
        // tests its sign), each called for three directions, keep the
        // generator small enough for the instruction cache: six inlined
        // copies ran at half the speed, six called ones 5% slower.
        self.generate_direction::<S, true>(sink, &sides, Direction::North);
        self.generate_direction::<S, true>(sink, &sides, Direction::NorthEast);
        self.generate_direction::<S, false>(sink, &sides, Direction::SouthEast);
        self.generate_direction::<S, false>(sink, &sides, Direction::South);
        self.generate_direction::<S, false>(sink, &sides, Direction::SouthWest);
        self.generate_direction::<S, true>(sink, &sides, Direction::NorthWest);
        self.generate_horizontal(sink, &sides);
        if self.sidesteps {
            self.generate_sidesteps(sink, &sides, self.turn);
        }
    }

    /// The sidesteps of `mover` (whose pieces are `sides.us`), ignoring the
    /// symmetry rule (RULES.md section 7.2): for each line and each
    /// direction a run on it may step in, the pieces whose square one step
    /// away is empty, and among them the tails of runs of 2, 3, ... such
    /// pieces, each set the last one and its shift one square along the
    /// line. A counting sink takes each set's size; the sidesteps that put
    /// a piece on `mover`'s goal rank go one by one where the sink wants
    /// them so (the symmetry filter) or wants only them (tactical moves).
    #[inline(never)]
    fn generate_sidesteps<S: Sink>(&self, sink: &mut S, sides: &Sides<N>, mover: Color) {
        if !S::QUIET {
            return;
        }
        let goal = self.goal_rank(mover);
        let goal_only = sink.quiet_goal(Direction::North).is_some();
        let goal_one_by_one = sink.each_move_on_rank(u32::from(goal));
        let ranks = i32::from(self.size.ranks());
        for (line, steps) in SIDESTEPS {
            let along = Self::delta(line);
            // A set shifted so that the square one step along the line
            // lands on its own: never off the board onto another board
            // square (the padding file ends each rank).
            let next = |x: Bits<N>| x.shift(-along);
            for &step in steps {
                let free = sides.us & sides.empty.shift(-Self::delta(step));
                let mut tails = free & next(free);
                let mut run: u8 = 2;
                while tails.any() {
                    // The rank a tail of this run needs for a piece of the
                    // run to land on the goal rank: the head lands highest
                    // (the lines run upwards or along a rank), the tail
                    // lowest.
                    let tail_rank = match mover {
                        Color::White => {
                            i32::from(goal) - line.step().1 * i32::from(run - 1) - step.step().1
                        }
                        Color::Black => i32::from(goal) - step.step().1,
                    };
                    let near = if (0..ranks).contains(&tail_rank) {
                        let r = tail_rank as usize;
                        tails & Bits::range(r << L, (r + 1) << L)
                    } else {
                        Bits::EMPTY
                    };
                    let each = |sink: &mut S, set: Bits<N>| {
                        for tail in set.iter() {
                            sink.one(Move::new_sidestep(square_of::<L>(tail), line, run, step));
                        }
                    };
                    if S::LISTS {
                        each(sink, if goal_only { near } else { tails });
                    } else if goal_one_by_one {
                        each(sink, near);
                        sink.add(u64::from(tails.and_not(near).count()));
                    } else {
                        sink.add(u64::from(tails.count()));
                    }
                    tails = tails & next(tails);
                    run += 1;
                }
            }
        }
    }

    /// The moves along the ranks, east and west, a word of ranks at a time.
    /// Along a rank the squares are consecutive bits, so each friendly line
    /// (segment), the empty squares beyond its ends and the enemy line after
    /// them are found with bit counts, and the moves of a segment are counted
    /// by formula. The padding past each rank's last file is empty and, taken
    /// as occupied, ends every way at the edge of its rank.
    #[inline(always)]
    fn generate_horizontal<S: Sink>(&self, sink: &mut S, sides: &Sides<N>) {
        Self::rank_moves(sink, sides, self.size.files());
    }

    /// [`Core::generate_horizontal`] on ranks of `files` squares: it needs
    /// nothing but the pieces, so it also counts the moves along a single
    /// line (see `line_survey`).
    #[inline(always)]
    fn rank_moves<S: Sink>(sink: &mut S, sides: &Sides<N>, files: u8) {
        let ranks_per_word = 64 >> L;
        // The first and the last padding bit of each rank of a word: a
        // blocker just past the last file, and one just before the first
        // file of the next rank.
        let (mut east_edges, mut west_edges) = (0u64, 0u64);
        for k in 0..ranks_per_word {
            east_edges |= 1 << (k * Self::STRIDE + usize::from(files));
            west_edges |= 1 << (k * Self::STRIDE + Self::STRIDE - 1);
        }
        for (word, (&us, &them)) in sides.us.0.iter().zip(&sides.them.0).enumerate() {
            if us == 0 {
                continue;
            }
            let occupied = us | them;
            let mut lows = us & !(us << 1); // the west end of each segment
            while lows != 0 {
                let low = lows.trailing_zeros();
                lows &= lows - 1;
                let rank = (word * ranks_per_word) as u32 + (low >> L);
                let length = (!(us >> low)).trailing_zeros();
                let high = low + length - 1;
                // Eastwards the head is the east end.
                let room = ((occupied | east_edges) >> (high + 1)).trailing_zeros();
                let enemies = (!(them >> (high + 1 + room))).trailing_zeros();
                let file = |bit: u32| bit & (Self::STRIDE as u32 - 1);
                Self::line_moves(
                    sink,
                    rank,
                    file(high),
                    length,
                    room,
                    enemies,
                    Direction::East,
                );
                // Westwards the head is the west end.
                let below = (occupied | west_edges) & ((1u64 << low) - 1);
                let (room, enemies) = if below == 0 {
                    (low, 0)
                } else {
                    let target = 63 - below.leading_zeros();
                    let enemies = (!(them << (63 - target))).leading_zeros();
                    (low - 1 - target, enemies)
                };
                Self::line_moves(
                    sink,
                    rank,
                    file(low),
                    length,
                    room,
                    enemies,
                    Direction::West,
                );
            }
        }
    }

    /// The bits of `rank` (the padding past the last file reads as zero). The
    /// stride is a power of two no larger than 64, so a rank never straddles words.
    #[inline(always)]
    fn row(bits: Bits<N>, rank: u32) -> u64 {
        let start = (rank as usize) << L;
        let mask = if Self::STRIDE >= 64 {
            u64::MAX
        } else {
            (1u64 << Self::STRIDE) - 1
        };
        (bits.0[start / 64] >> (start % 64)) & mask
    }

    /// The moves of the friendly line of `length` pieces whose head is on file
    /// `head` of `rank`, moving in `direction` (east or west), with `room`
    /// empty squares ahead and then a line of `enemies` enemy pieces (0 if
    /// the way ends at the edge or a friendly piece).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn line_moves<S: Sink>(
        sink: &mut S,
        rank: u32,
        head: u32,
        length: u32,
        room: u32,
        enemies: u32,
        direction: Direction,
    ) {
        // A capture needs the head to reach the enemy and outnumber its line.
        let capture_from = (room + 1).max(enemies + 1);
        if !sink.each_move_on_rank(rank) {
            // Groups g = 1..=length each have min(g, room) quiet moves.
            let quiet = if room >= length {
                length * (length + 1) / 2
            } else {
                room * (room + 1) / 2 + (length - room) * room
            };
            if sink.quiet_rank(rank) {
                sink.add(u64::from(quiet));
            }
            if enemies > 0 && length >= capture_from {
                sink.add_captures(u64::from(length - capture_from + 1), enemies as u8);
            }
            return;
        }
        let back: i32 = if direction == Direction::East { -1 } else { 1 };
        for group in 1..=length {
            let file = head as i32 + back * (group as i32 - 1);
            let tail = Square::new_unchecked(file as u8, rank as u8);
            if sink.quiet_rank(rank) {
                for distance in 1..=group.min(room) {
                    sink.one(Move::new(tail, direction, group as u8, distance as u8, 0));
                }
            }
            if enemies > 0 && group >= capture_from {
                sink.one(Move::new(
                    tail,
                    direction,
                    group as u8,
                    (room + 1) as u8,
                    enemies as u8,
                ));
            }
        }
    }

    /// The moves in `direction` (not along a rank), ignoring the symmetry rule.
    ///
    /// A head (a friendly piece whose next square ahead is not friendly) with
    /// a run of r friendly pieces behind it and e empty squares ahead has the
    /// quiet moves (group g, distance n) for g <= r and n <= min(g, e). The
    /// loop runs over g with the heads whose run is at least g, keeping
    /// min(e, g) for every square in bit-sliced form ([`Planes`]), so that a
    /// counter adds up a group size's moves with a few popcounts. Captures are
    /// rarer and are found head by head. `UP` says whether `direction`
    /// steps up the bit indices.
    #[inline(never)]
    fn generate_direction<S: Sink, const UP: bool>(
        &self,
        sink: &mut S,
        sides: &Sides<N>,
        direction: Direction,
    ) {
        let delta = Self::delta(direction);
        debug_assert_eq!(delta > 0, UP, "UP must match the direction");
        let step = delta.unsigned_abs();
        let Sides { us, them, empty } = *sides;
        // `ahead(x)`: the squares one step ahead of `x`; `behind(x)`: one step
        // behind. Not masked with the board: a step from a board square off
        // its edge lands in the padding (at least one unused file per rank),
        // never on another board square, and every shifted set below is
        // intersected with pieces or empty squares before it is used or
        // shifted again, which drops the padding bits.
        let ahead = |x: Bits<N>| if UP { x.shl(step) } else { x.shr(step) };
        let behind = |x: Bits<N>| if UP { x.shr(step) } else { x.shl(step) };

        let heads = us.and_not(behind(us));
        let mut clear = behind(empty); // squares with `group` empty squares ahead
        // Quiet moves: the heads with room to move and a run of at least `group`.
        let mut movers = heads & clear;
        let mut run = us; // squares ending a friendly line of at least `group`
        let mut room = Planes::new(); // min(e, group) for every square
        let mut group: u8 = 1;
        let quiet = S::QUIET && sink.quiet_direction(direction);
        let goal = if quiet {
            sink.quiet_goal(direction)
        } else {
            None
        };
        // For a sink that wants only the moves landing on `goal`: the heads
        // found so far that are `k <= group` steps short of it with `k`
        // empty squares ahead. A group of `group` with such a head has one
        // such move, of `k` steps.
        let mut reaching = Bits::EMPTY;
        let rank_step = direction.step().1;
        while quiet && movers.any() {
            if let Some(goal) = goal {
                let rank = i32::from(goal) - rank_step * i32::from(group);
                if (0..i32::from(self.size.ranks())).contains(&rank) {
                    let rank = rank as usize;
                    reaching |= heads & clear & Bits::range(rank << L, (rank + 1) << L);
                }
                let back = delta as isize * isize::from(group - 1);
                for head in (movers & reaching).iter() {
                    let steps = (i32::from(goal) - (head >> L) as i32).unsigned_abs();
                    let tail = square_of::<L>((head as isize - back) as usize);
                    sink.one(Move::new(tail, direction, group, steps as u8, 0));
                }
            } else {
                room.add(group, clear);
                sink.group::<N, L>(movers, &room, direction, group);
            }
            run = run & ahead(run);
            movers &= run;
            group += 1;
            if clear.any() {
                clear = behind(clear & empty);
            }
        }

        // Captures: a head with a run of at least max(j, 2) whose first
        // non-empty square ahead, j steps away, is an enemy piece.
        let mut run = us & ahead(us);
        let mut strong = heads & run;
        let mut reach = behind(them);
        let mut j: u8 = 1;
        while strong.any() && reach.any() {
            let candidates = strong & reach;
            if candidates.any() {
                for head in candidates.iter() {
                    self.capture_moves(sink, head, direction, j);
                }
            }
            if j >= 2 {
                run = run & ahead(run);
                strong &= run;
            }
            reach = behind(reach & empty);
            j += 1;
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

    /// The captures by the groups ending at `head` on the enemy piece `distance` ahead.
    #[inline(always)]
    fn capture_moves<S: Sink>(
        &self,
        sink: &mut S,
        head: usize,
        direction: Direction,
        distance: u8,
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
        let run = self.run_length(head, delta);
        let mut tail = head as isize;
        for group in 1..=run {
            if group >= distance && group > enemies {
                sink.one(Move::new(
                    square_of::<L>(tail as usize),
                    direction,
                    group,
                    distance,
                    enemies,
                ));
            }
            tail -= delta;
        }
    }

    /// Leaf count of the legal-move tree `depth` plies deep. The last ply is
    /// counted without playing its moves. `lists[ply]` is the move buffer of
    /// each ply below the root, added as the search first reaches it.
    pub(crate) fn perft(&mut self, depth: u32, lists: &mut Vec<MoveList>, ply: usize) -> u64 {
        perft(self, depth, lists, ply)
    }

    /// Whether `mv` is one of the legal moves here, checked directly.
    pub(crate) fn is_legal(&self, mv: Move) -> bool {
        if self.mover_has_crossed() {
            return false;
        }
        if let Some(step) = mv.sidestep() {
            return self.is_legal_sidestep(mv, step);
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
        !(touches_goal && self.move_creates_symmetry(mv))
    }

    /// [`Core::is_legal`] for a sidestep that steps in `step`: a run of
    /// friendly pieces along one of the four lines, named from its tail,
    /// stepping in a direction its line allows onto empty squares, and not
    /// leaving a symmetry the rule forbids.
    fn is_legal_sidestep(&self, mv: Move, step: Direction) -> bool {
        let Some((_, steps)) = SIDESTEPS.iter().find(|(line, _)| *line == mv.direction()) else {
            return false;
        };
        if !self.sidesteps || !steps.contains(&step) || !self.size.contains(mv.tail()) {
            return false;
        }
        let us = self.pieces[self.turn.index()];
        let empty = self.board.and_not(us | self.pieces[(!self.turn).index()]);
        let (along, offset) = (Self::delta(mv.direction()), Self::delta(step));
        let tail = Self::index(mv.tail()) as i32;
        let within = |i: i32| (0..(64 * N) as i32).contains(&i);
        let runs_and_lands = (0..i32::from(mv.group_size())).all(|k| {
            let from = tail + k * along;
            within(from)
                && us.contains(from as usize)
                && within(from + offset)
                && empty.contains((from + offset) as usize)
        });
        runs_and_lands
            && !(mv.reaches_rank(self.goal_rank(self.turn)) && self.move_creates_symmetry(mv))
    }
}

/// The four lines a sidestepping run may lie on, each named by the
/// direction from its tail (the end on the lower rank, or on a rank the
/// western end) to its other end, with the directions its pieces may step
/// in: off a rank or a file any of the six not along it, off a diagonal
/// only the four orthogonal ones (RULES.md section 7.2).
const SIDESTEPS: [(Direction, &[Direction]); 4] = {
    use Direction::*;
    [
        (
            East,
            &[North, NorthEast, NorthWest, South, SouthEast, SouthWest],
        ),
        (
            North,
            &[East, NorthEast, SouthEast, West, NorthWest, SouthWest],
        ),
        (NorthEast, &[North, East, South, West]),
        (NorthWest, &[North, East, South, West]),
    ]
};

/// A position perft can walk: what [`perft`] needs of a generator.
pub(crate) trait Walk {
    /// The number of legal moves.
    fn count(&self) -> u64;
    /// The legal moves, into `moves`.
    fn list(&self, moves: &mut MoveList);
    /// Plays a legal move.
    fn play_move(&mut self, mv: Move);
    /// Takes back the move that led here.
    fn undo_move(&mut self, mv: Move);
}

impl<const N: usize, const L: u32> Walk for Core<N, L> {
    #[inline(always)]
    fn count(&self) -> u64 {
        self.count_moves()
    }

    #[inline(always)]
    fn list(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    #[inline(always)]
    fn play_move(&mut self, mv: Move) {
        self.play(mv);
    }

    #[inline(always)]
    fn undo_move(&mut self, mv: Move) {
        self.undo(mv);
    }
}

/// Leaf count of the legal-move tree `depth` plies deep below `node`. The
/// last ply is counted without playing its moves. `lists[ply]` is the move
/// buffer of each ply below the root, added as the walk first reaches it.
pub(crate) fn perft<W: Walk>(
    node: &mut W,
    depth: u32,
    lists: &mut Vec<MoveList>,
    ply: usize,
) -> u64 {
    match depth {
        0 => 1,
        1 => node.count(),
        _ => {
            if lists.len() <= ply {
                lists.push(MoveList::new());
            }
            let mut list = std::mem::take(&mut lists[ply]);
            list.clear();
            node.list(&mut list);
            let mut total = 0;
            for &mv in list.iter() {
                node.play_move(mv);
                total += perft(node, depth - 1, lists, ply + 1);
                node.undo_move(mv);
            }
            lists[ply] = list;
            total
        }
    }
}
