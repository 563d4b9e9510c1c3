//! The graph of the other side's hold over a proof search's table: the
//! positions it takes in, where their moves lead, and the largest set of
//! them from which the other side can hold. The search builds it, brings it
//! up to date after a repair, and walks the hold from it
//! (`ProofSearch::hold_graph`, `update_hold` and `walk_hold`); this module
//! keeps the graph and works out the set.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;

use epaminondas_rules::{Color, Position, PositionError, Setup, Square};

use super::KeyHasher;

/// In the graph of a hold: an edge to a settled position the prover has
/// lost.
pub(super) const HELD: u32 = u32::MAX;
/// In the graph of a hold: an edge to a position out of the set from the
/// start (proven for the prover, or never expanded).
pub(super) const LOST: u32 = u32::MAX - 1;

/// Each position's index in a hold's graph, by table key.
pub(super) type GraphIndex = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// The positions a search expanded and did not prove, reachable from its
/// root, a position and its reflection as one (as in the table), with
/// where their moves lead (an index, [`HELD`] or [`LOST`]), and which of
/// them are out of the largest set from which the other side can hold.
///
/// Every position in the set holds by the graph alone, whatever the table
/// says now: where the prover moves, each of its moves stays in the graph
/// (a move out of it puts the position out), and the graph's positions are
/// never taken out of it. So a graph brought up to date by expanding again
/// only some of its positions ([`HoldGraph::expand_again`]) still gives a
/// sound hold.
pub(super) struct HoldGraph {
    /// Each position's index, by table key; the start is 0.
    pub(super) index: GraphIndex,
    /// Whether each position is out of the holding set.
    pub(super) out: Vec<bool>,
    /// Whether each position can be reached from the start by moves in the
    /// graph (as last worked out; positions that no longer can are kept).
    reached: Vec<bool>,
    /// Whether the prover moves at each position.
    prover_at: Vec<bool>,
    /// Whether each position's own moves put it out: where the prover
    /// moves, a move out of the graph; where the other side moves, no move
    /// in it.
    broken: Vec<bool>,
    /// Where each position's moves start in `targets`, and how many there
    /// are (a position expanded again gets its moves anew at the end).
    first: Vec<u64>,
    count: Vec<u32>,
    /// The moves, as indices or [`HELD`]. A move to [`LOST`] is not kept:
    /// where the prover moves it puts the position out from the start (its
    /// moves are then never needed), where the other side moves it only
    /// counts as not holding. Most of the other side's moves are such, so
    /// the graph keeps about half its edges.
    targets: Vec<u32>,
    /// Which of the other side's moves the graph follows
    /// ([`ProofSearch::read_hold`](super::ProofSearch)).
    pub(super) follows: Follows,
    /// The positions, as the walk that builds the graph needs them.
    positions: GraphPositions,
    /// The positions expanded so far, in index order: the rest wait.
    expanded: u32,
}

/// Which of the other side's moves a hold's graph follows, at a position
/// where it moves and none of its moves leads to a position the graph has
/// already. Every move the search disproved is followed (one of them in a
/// [`One`](Follows::One) graph); where the search disproved none (it is
/// still at work below, as when it stalled), unsettled moves are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Follows {
    /// One move: the first the search disproved, or else the unsettled one
    /// nearest to a disproof. The smallest graph, for a table that several
    /// searches filled.
    One,
    /// Every disproved move, or else every unsettled one: where play comes
    /// to the search's frontier, the graph goes on over what the search
    /// left open and may close over it by itself (on the small boards'
    /// repair tests it closed with 14 repairs in all instead of 36).
    Unsettled,
    /// Every disproved move, or else the unsettled one nearest to a
    /// disproof: a smaller graph than [`Unsettled`](Follows::Unsettled)'s,
    /// read where that one outgrows its memory.
    Nearest,
}

/// What a position's expansion found, for [`HoldGraph::set_moves`].
pub(super) struct Expanded {
    /// Whether its moves put it out (see [`HoldGraph::broken`]).
    pub(super) broken: bool,
    /// Where its moves start in [`HoldGraph::targets`].
    pub(super) from: usize,
}

impl HoldGraph {
    /// A graph holding only `start`, with table key `key`, where `prover`
    /// is the side whose win the other side holds off.
    pub(super) fn new(start: &Position, key: u64, prover: Color, follows: Follows) -> HoldGraph {
        let mut graph = HoldGraph {
            index: GraphIndex::default(),
            out: Vec::new(),
            reached: Vec::new(),
            prover_at: Vec::new(),
            broken: Vec::new(),
            first: Vec::new(),
            count: Vec::new(),
            targets: Vec::new(),
            follows,
            positions: GraphPositions::new(start),
            expanded: 0,
        };
        graph.insert(key, start, prover, usize::MAX);
        graph
    }

    /// Takes `pos` (with table key `key`) into the graph, to be expanded in
    /// turn; its index, or `None` when the graph has `most` positions.
    pub(super) fn insert(
        &mut self,
        key: u64,
        pos: &Position,
        prover: Color,
        most: usize,
    ) -> Option<u32> {
        let next = u32::try_from(self.index.len())
            .ok()
            .filter(|&n| (n as usize) < most && n < LOST)?;
        self.index.insert(key, next);
        self.out.push(false);
        self.reached.push(false);
        self.prover_at.push(pos.turn() == prover);
        self.broken.push(false);
        self.first.push(0);
        self.count.push(0);
        self.positions.push(pos);
        Some(next)
    }

    /// The number of positions.
    pub(super) fn len(&self) -> usize {
        self.out.len()
    }

    /// Whether position `i` (an index, or [`HELD`]) was out of the set
    /// when it was last worked out (positions taken in since are not).
    pub(super) fn is_out(&self, i: u32) -> bool {
        self.out.get(i as usize).copied().unwrap_or(false)
    }

    /// Whether the prover moves at position `i`.
    pub(super) fn prover_at(&self, i: u32) -> bool {
        self.prover_at[i as usize]
    }

    /// The next position waiting to be expanded, with its index; `None`
    /// when none waits, an error only if a packed one could not be built
    /// again (which a position packed from a legal one never meets).
    pub(super) fn next_waiting(&mut self) -> Option<Result<(u32, Position), PositionError>> {
        if self.expanded as usize >= self.len() {
            return None;
        }
        let i = self.expanded;
        self.expanded += 1;
        Some(self.positions.take(i)?.map(|pos| (i, pos)))
    }

    /// Where the next position's moves will start in the targets.
    pub(super) fn targets_len(&self) -> usize {
        self.targets.len()
    }

    /// Adds a move of the position being expanded.
    pub(super) fn push_target(&mut self, target: u32) {
        self.targets.push(target);
    }

    /// Ends the expansion of position `i`, whose moves were pushed since
    /// `expanded.from` (those of a broken prover's position are dropped:
    /// it is out whatever they are).
    pub(super) fn set_moves(&mut self, i: u32, expanded: Expanded) {
        let i = i as usize;
        if expanded.broken && self.prover_at[i] {
            self.targets.truncate(expanded.from);
        }
        self.broken[i] = expanded.broken;
        self.first[i] = expanded.from as u64;
        self.count[i] = (self.targets.len() - expanded.from) as u32;
    }

    fn moves(&self, i: usize) -> &[u32] {
        let first = self.first[i] as usize;
        &self.targets[first..first + self.count[i] as usize]
    }

    /// The positions to expand again to bring the graph up to date after
    /// the search ran on: those out of the set that the start reaches (a
    /// position in the set holds whatever the search did since); `None`
    /// when the graph keeps no positions (a board that does not pack: it
    /// is read again instead).
    pub(super) fn expand_again(&self) -> Option<Vec<u32>> {
        let GraphPositions::Packed(..) = &self.positions else {
            return None;
        };
        Some(
            (0..self.len() as u32)
                .filter(|&i| self.out[i as usize] && self.reached[i as usize])
                .collect(),
        )
    }

    /// Position `i` again (see [`GraphPositions::get`]).
    pub(super) fn position(&self, i: u32) -> Option<Result<Position, PositionError>> {
        self.positions.get(i)
    }

    /// Works out the largest set that holds, by taking out positions until
    /// none breaks the rule, and then which positions the start reaches.
    pub(super) fn settle(&mut self) {
        let count = self.len();
        // Who leads into each position: `parents[parent_first[i]..][..]`,
        // one entry per edge. Each position's count first, summed into
        // where its part ends; filling from the end moves each to where
        // its part starts (no second array of a position's size).
        let mut parent_first = vec![0u64; count + 1];
        for i in 0..count {
            for &t in self.moves(i) {
                if t < LOST {
                    parent_first[t as usize] += 1;
                }
            }
        }
        for i in 1..count {
            parent_first[i] += parent_first[i - 1];
        }
        parent_first[count] = if count == 0 {
            0
        } else {
            parent_first[count - 1]
        };
        let mut parents = vec![0u32; parent_first[count] as usize];
        for i in 0..count {
            for &t in self.moves(i) {
                if t < LOST {
                    parent_first[t as usize] -= 1;
                    parents[parent_first[t as usize] as usize] = i as u32;
                }
            }
        }
        // `inside[i]` counts the moves that do not leave the set (used at
        // the other side's positions).
        let mut inside = self.count.clone();
        self.out.copy_from_slice(&self.broken);
        let mut removed: Vec<u32> = (0..count as u32)
            .filter(|&i| self.out[i as usize])
            .collect();
        while let Some(i) = removed.pop() {
            let i = i as usize;
            for &parent in &parents[parent_first[i] as usize..parent_first[i + 1] as usize] {
                let parent = parent as usize;
                if self.out[parent] {
                    continue;
                }
                inside[parent] -= 1;
                if self.prover_at[parent] || inside[parent] == 0 {
                    self.out[parent] = true;
                    removed.push(parent as u32);
                }
            }
        }
        drop((parents, parent_first, inside));
        self.mark_reached();
    }

    /// Marks the positions that bear on whether the hold closes: those the
    /// start reaches by the graph's moves, except that where the other side
    /// moves from a position in the set, only its moves into the set are
    /// followed (the rest are choices it does not need: positions reached
    /// only through them are left alone, as a graph read afresh would
    /// mostly not take them in).
    fn mark_reached(&mut self) {
        self.reached.fill(false);
        if self.len() == 0 {
            return;
        }
        self.reached[0] = true;
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            let i = i as usize;
            let holds = !self.out[i] && !self.prover_at[i];
            for k in 0..self.count[i] as usize {
                let t = self.targets[self.first[i] as usize + k];
                if t < LOST && !self.reached[t as usize] && !(holds && self.out[t as usize]) {
                    self.reached[t as usize] = true;
                    stack.push(t);
                }
            }
        }
    }

    /// The keys of the positions the start reaches that are out of the set.
    pub(super) fn out_keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.index
            .iter()
            .filter(|&(_, &i)| self.out[i as usize] && self.reached[i as usize])
            .map(|(&key, _)| key)
    }

    /// What the graph came to: its size (the positions the start reaches),
    /// and whether it closes.
    pub(super) fn read(&self) -> super::HoldRead {
        let reached = || (0..self.len()).filter(|&i| self.reached[i]);
        // A graph shrunk for walking keeps no marks of what broke.
        let broken = |prover: bool| {
            reached()
                .filter(|&i| self.broken.get(i) == Some(&true) && self.prover_at[i] == prover)
                .count()
        };
        super::HoldRead {
            positions: reached().count(),
            out: reached().filter(|&i| self.out[i]).count(),
            broken_by_prover: broken(true),
            broken_for_other: broken(false),
            closes: !self.start_out(),
        }
    }

    /// The graph with only what walking the hold needs (the index and the
    /// set; what [`read`](Self::read) needs stays too): a graph that
    /// closes is kept until its steps are read, and the rest takes about as
    /// much memory again.
    pub(super) fn for_walking(self) -> HoldGraph {
        HoldGraph {
            index: self.index,
            out: self.out,
            reached: self.reached,
            prover_at: Vec::new(),
            broken: Vec::new(),
            first: Vec::new(),
            count: Vec::new(),
            targets: Vec::new(),
            follows: self.follows,
            positions: GraphPositions::Whole(VecDeque::new()),
            expanded: 0,
        }
    }

    /// Whether the start is out of the set: the hold does not close.
    pub(super) fn start_out(&self) -> bool {
        self.out[0]
    }
}

/// The positions of a hold's graph, for the breadth-first walk that builds
/// it. The walk's frontier can hold tens of millions of positions (a 6x4
/// board's ran a 24 GB machine out of memory), so on boards of up to 63
/// squares without stones (every board a proof search can finish) every
/// position of the graph is kept as its two sides' pieces, with the side
/// to move in the top bit: 16 bytes instead of a whole position's couple
/// of hundred, and the graph can expand any of them again. Other boards
/// keep the positions waiting to be expanded, whole.
pub(super) enum GraphPositions {
    /// Every position, packed, in index order, and a position to take
    /// what they leave out from (the board, the variant, the symmetry
    /// rule).
    Packed(Position, Vec<[u64; 2]>),
    /// The positions waiting, as they are, first in first out.
    Whole(VecDeque<Position>),
}

impl GraphPositions {
    /// No positions yet, packed where positions like `like` pack.
    pub(super) fn new(like: &Position) -> GraphPositions {
        let size = like.size();
        let squares = u32::from(size.files()) * u32::from(size.ranks());
        if squares < 64 && like.stones().is_empty() && like.stones_to_place() == 0 {
            GraphPositions::Packed(like.clone(), Vec::new())
        } else {
            GraphPositions::Whole(VecDeque::new())
        }
    }

    /// Adds the next position.
    pub(super) fn push(&mut self, pos: &Position) {
        match self {
            GraphPositions::Packed(_, packed) => {
                let files = u64::from(pos.size().files());
                let mut bits = [0u64; 2];
                for color in Color::ALL {
                    for square in pos.squares(color) {
                        let bit = u64::from(square.rank()) * files + u64::from(square.file());
                        bits[color.index()] |= 1 << bit;
                    }
                }
                if pos.turn() == Color::Black {
                    bits[0] |= 1 << 63;
                }
                packed.push(bits);
            }
            GraphPositions::Whole(queue) => queue.push_back(pos.clone()),
        }
    }

    /// Position `i`, the next to be expanded (positions are taken in the
    /// order they were pushed); `None` when there is none. An error only
    /// if a packed one could not be built again (which a position packed
    /// from a legal one never meets).
    pub(super) fn take(&mut self, i: u32) -> Option<Result<Position, PositionError>> {
        match self {
            GraphPositions::Packed(..) => self.get(i),
            GraphPositions::Whole(queue) => queue.pop_front().map(Ok),
        }
    }

    /// Position `i` again; `None` for a position not kept (a board that
    /// does not pack keeps none).
    pub(super) fn get(&self, i: u32) -> Option<Result<Position, PositionError>> {
        let GraphPositions::Packed(like, packed) = self else {
            return None;
        };
        let bits = packed.get(i as usize)?;
        let size = like.size();
        let files = size.files();
        let mut pieces = Vec::new();
        for color in Color::ALL {
            let mut left = bits[color.index()] & !(1 << 63);
            while left != 0 {
                let bit = left.trailing_zeros() as u8;
                left &= left - 1;
                pieces.extend(Square::new(bit % files, bit / files).map(|sq| (sq, color)));
            }
        }
        let setup = Setup {
            size,
            pieces,
            stones: Vec::new(),
            turn: if bits[0] >> 63 == 1 {
                Color::Black
            } else {
                Color::White
            },
        };
        Some(Position::from_setup_in(
            like.variant(),
            &setup,
            like.symmetry(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_rules::{BoardSize, Symmetry};

    #[test]
    fn positions_of_a_hold_graph_come_back_as_they_went_in() {
        // Random games on small boards of every variant without stones,
        // each position packed and unpacked in order, and again by its
        // index; and a board too large to pack keeps its positions whole,
        // once.
        use epaminondas_rules::Variant;
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for (variant, files, ranks) in [
            (Variant::Epaminondas, 6, 4),
            (Variant::Epaminondas, 7, 9),
            (Variant::Crossings, 5, 5),
            (Variant::Abanondas, 6, 6),
            (Variant::Epaminondas, 8, 8),
        ] {
            let size = BoardSize::new(files, ranks).unwrap();
            let mut pos = Position::new_variant(variant, size, Symmetry::Off).unwrap();
            let mut positions = GraphPositions::new(&pos);
            let packs = files * ranks < 64;
            assert_eq!(matches!(positions, GraphPositions::Packed(..)), packs);
            positions.push(&pos);
            let mut played = vec![pos.clone()];
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.has_crossed() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                positions.push(&pos);
                played.push(pos.clone());
            }
            for (i, expected) in played.iter().enumerate() {
                let back = positions.take(i as u32).unwrap().unwrap();
                assert_eq!(&back, expected);
                assert_eq!(back.zobrist_hash(), expected.zobrist_hash());
            }
            let again = positions.get(played.len() as u32 / 2);
            if packs {
                assert_eq!(again.unwrap().unwrap(), played[played.len() / 2]);
                assert!(positions.get(played.len() as u32).is_none());
            } else {
                assert!(again.is_none());
                assert!(positions.take(0).is_none());
            }
        }
    }

    #[test]
    fn the_set_that_holds_keeps_loops_and_drops_what_leads_out() {
        // Prover (P) and other side (O) positions: 0 O -> 1, 2; 1 P -> 0
        // (a loop back to the start); 2 P -> 3; 3 O with no move kept
        // (broken); 4 P -> a crossing that holds, not reached. The start
        // holds by going to 1 and back; 2 and 3 are out.
        let pos = Position::new(BoardSize::new(4, 4).unwrap(), Symmetry::Off);
        let mut graph = HoldGraph::new(&pos, 10, Color::Black, Follows::Nearest);
        let black_to_move = {
            let mut p = pos.clone();
            p.play_unchecked(p.legal_moves()[0]);
            p
        };
        for key in 11..=14 {
            let like = if key <= 12 { &black_to_move } else { &pos };
            graph.insert(key, like, Color::Black, usize::MAX).unwrap();
        }
        let edges: [(&[u32], bool); 5] = [
            (&[1, 2], false),
            (&[0], false),
            (&[3], false),
            (&[], true),
            (&[HELD], false),
        ];
        for (i, (moves, broken)) in edges.into_iter().enumerate() {
            let (n, _) = graph.next_waiting().unwrap().unwrap();
            assert_eq!(n, i as u32);
            let from = graph.targets_len();
            moves.iter().for_each(|&t| graph.push_target(t));
            graph.set_moves(n, Expanded { broken, from });
        }
        assert!(graph.next_waiting().is_none());
        graph.settle();
        assert_eq!(graph.out, [false, false, true, true, false]);
        // Only what bears on the start counts: the other side's move to 2
        // is not needed.
        let read = graph.read();
        assert_eq!((read.positions, read.out, read.closes), (2, 0, true));
        assert_eq!((read.broken_by_prover, read.broken_for_other), (0, 0));
        assert_eq!(graph.out_keys().count(), 0);
        assert_eq!(graph.expand_again().unwrap(), []);
        // Position 1 breaks: the prover now has a move out of the graph,
        // and the start, with no other move in, goes too; then every
        // position the start reaches bears on it.
        let from = graph.targets_len();
        graph.set_moves(1, Expanded { broken: true, from });
        graph.settle();
        assert_eq!(graph.out, [true, true, true, true, false]);
        let read = graph.read();
        assert_eq!((read.positions, read.out, read.closes), (4, 4, false));
        // Two of them broke by their own moves: 1, where the prover moves,
        // and 3, where the other side has none.
        assert_eq!((read.broken_by_prover, read.broken_for_other), (1, 1));
        let mut out: Vec<u64> = graph.out_keys().collect();
        out.sort();
        assert_eq!(out, [10, 11, 12, 13]);
        assert_eq!(graph.expand_again().unwrap(), [0, 1, 2, 3]);
        assert!(graph.position(3).unwrap().is_ok());
    }
}
