//! Proven wins on small boards: before its alpha-beta search, the engine
//! asks the proof-number search ([`crate::dfpn`]) whether the side to move
//! can force a win, and once it has a proof, plays the proof's strategy to
//! the end of the game.
//!
//! On a board of a few dozen squares a win can be longer than alpha-beta
//! sees, and wins in this game are often won by a hold that goes on until
//! the other side errs: on the solved 4x4 board the engine gave away Black's
//! win even at a million nodes a move (`tests/solved_boards.rs`). A proof
//! decides instead. Following one proof's strategy (rather than proving
//! each position afresh) also guarantees progress: its lines end, with no
//! loop, in the winner's win.
//!
//! The proof search gets a share of the move's budget (of its nodes, as
//! table entries, for a node limit; of its time for a time limit): half on
//! boards of up to 25 squares, a tenth on larger ones ([`default_share`],
//! UGI `ProofShare`), and at most as much memory as the transposition
//! table (the `Hash` option);
//! when it finds no win, the alpha-beta search runs as usual. Searches
//! limited by depth only, or not at all (`go infinite`), are left to
//! alpha-beta (a timed analysis, like the server's, gets its proof search
//! within its own time and memory),
//! as are boards larger than [`MOST_SQUARES`].

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use epaminondas_rules::{Move, Position};

use crate::dfpn::{ProofLimits, ProofSearch, Verdict, entries_within, with_large_stack};
use crate::limits::Limits;
use crate::score::{MAX_PLY, win_in};

/// The largest board (in squares) on which the engine tries proofs: 6x6.
pub const MOST_SQUARES: usize = 36;

/// Boards of up to this many squares give the proof search half of a
/// move's budget by default; larger ones a tenth ([`default_share`]).
const SMALL_SQUARES: usize = 25;

/// The percentage of a move's nodes or time the proof search gets on a
/// board of `squares` squares, unless set (UGI `ProofShare`). Up to 5x5 a
/// start position is proven in a few million positions, within a long
/// move's reach, and alpha-beta alone gave a 4x4 win away; on 6x5 and 6x6
/// proofs need a hundred million and more, so until late in a game the
/// search mostly costs alpha-beta time: half a move's time cost the engine
/// about 50 Elo on 6x6 at 100 ms a move, a tenth nothing measurable
/// (docs/strength.md, "The engine on small boards").
pub fn default_share(squares: usize) -> u32 {
    if squares <= SMALL_SQUARES { 50 } else { 10 }
}

/// The strategy of the last proven win: the winner's move in every
/// position of the proof where the winner is to move.
#[derive(Default)]
pub(crate) struct ProvenWins {
    /// Moves by [`Position::zobrist_hash`].
    moves: HashMap<u64, Move>,
    /// The most plies the winner needs from each of those positions, when
    /// the other side defends best against the strategy.
    plies: HashMap<u64, u32>,
}

/// A move from a proof: the move and the most plies until the game is won.
pub(crate) struct ProvenMove {
    pub mv: Move,
    pub plies: u32,
    /// Nodes the proof search took (0 when the move came from a proof
    /// found before).
    pub nodes: u64,
}

impl ProvenMove {
    /// The move's score for the side to move: a win within `plies` (capped
    /// at the deepest ply scores can tell apart).
    pub fn score(&self) -> i32 {
        win_in((self.plies as usize).min(MAX_PLY - 1))
    }
}

impl ProvenWins {
    /// Forgets the strategy, as before a new game.
    pub fn clear(&mut self) {
        self.moves.clear();
        self.plies.clear();
    }

    /// The winning move at `pos`: from the strategy found before, or from a
    /// proof searched now within `share` percent of `limits` (`None`: the
    /// board's [`default_share`]) and a table of at most `memory` bytes.
    /// `None` when the board is too large, the search is limited by depth
    /// or not at all, or no win was proven in the budget.
    pub fn find(
        &mut self,
        pos: &Position,
        limits: &Limits,
        share: Option<u32>,
        memory: usize,
        started: Instant,
        stop: &AtomicBool,
    ) -> Option<ProvenMove> {
        let size = pos.size();
        let budget = limits.budget();
        let squares = usize::from(size.files()) * usize::from(size.ranks());
        if squares > MOST_SQUARES
            || limits.depth.is_some()
            || (limits.nodes.is_none() && budget.is_none())
        {
            return None;
        }
        if let Some(found) = self.known(pos) {
            return Some(found);
        }
        let share = share.unwrap_or_else(|| default_share(squares));
        let most = entries_within(u64::try_from(memory).unwrap_or(u64::MAX));
        let max_entries = limits
            .nodes
            .map_or(most, |n| {
                usize::try_from(n.saturating_mul(u64::from(share)) / 100).unwrap_or(most)
            })
            .clamp(1, most.max(1));
        let deadline = budget.map(|budget| started + budget * share / 100);
        let prover = pos.turn();
        let (moves, nodes) = with_large_stack(|| {
            // The table's size is the proof's share of the move's nodes:
            // a full table ends the search, never makes room.
            // As many repairs as before they became cheap: a move's
            // search only wants a win, and more would only spend its time.
            let limits = ProofLimits {
                max_entries,
                deadline,
                collect: false,
                repairs: 16,
                ..ProofLimits::default()
            };
            let search = ProofSearch::run(pos, prover, limits, stop, |_| {});
            if search.verdict() != Verdict::Proven {
                return None;
            }
            let mut moves = HashMap::new();
            search.for_each_step(|at, mv| {
                moves.insert(at.zobrist_hash(), mv);
            })?;
            Some((moves, search.nodes()))
        })?;
        self.moves = moves;
        self.plies = longest_lines(pos, &self.moves);
        self.known(pos).map(|found| ProvenMove { nodes, ..found })
    }

    /// The strategy's move at `pos`, if the strategy has it (and it is
    /// legal there: hashes can collide).
    fn known(&self, pos: &Position) -> Option<ProvenMove> {
        let hash = pos.zobrist_hash();
        let mv = *self.moves.get(&hash)?;
        pos.legal_moves().contains(&mv).then(|| ProvenMove {
            mv,
            plies: self.plies.get(&hash).copied().unwrap_or(u32::MAX),
            nodes: 0,
        })
    }
}

/// For every position of a strategy (`moves`, the winner to move), the
/// most plies until the winner has won when the other side defends best;
/// computed from `start` without recursion (lines can be long).
fn longest_lines(start: &Position, moves: &HashMap<u64, Move>) -> HashMap<u64, u32> {
    /// A winner's position whose replies are being counted.
    struct Frame {
        hash: u64,
        /// The position after the winner's move.
        after: Position,
        replies: Vec<Move>,
        next: usize,
        longest: u32,
    }
    let open = |pos: &Position| -> Option<Frame> {
        let mv = *moves.get(&pos.zobrist_hash())?;
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let replies = if after.has_crossed() {
            Vec::new()
        } else {
            after.legal_moves().iter().copied().collect()
        };
        Some(Frame {
            hash: pos.zobrist_hash(),
            after,
            replies,
            next: 0,
            longest: 1,
        })
    };
    let mut plies = HashMap::new();
    let mut stack: Vec<Frame> = open(start).into_iter().collect();
    let mut on_stack: HashSet<u64> = stack.iter().map(|f| f.hash).collect();
    while let Some(frame) = stack.last_mut() {
        let Some(&reply) = frame.replies.get(frame.next) else {
            let done = stack.pop().expect("a frame");
            on_stack.remove(&done.hash);
            plies.insert(done.hash, done.longest);
            if let Some(parent) = stack.last_mut() {
                parent.longest = parent.longest.max(2 + done.longest);
                parent.next += 1;
            }
            continue;
        };
        let mut next = frame.after.clone();
        next.play_unchecked(reply);
        let known = if next.has_crossed() {
            Some(0)
        } else if on_stack.contains(&next.zobrist_hash()) {
            // A loop cannot happen in a checked proof (only by a hash
            // collision): counted as one more ply.
            Some(0)
        } else {
            plies.get(&next.zobrist_hash()).copied()
        };
        match known {
            Some(length) => {
                frame.longest = frame.longest.max(2 + length);
                frame.next += 1;
            }
            // A strategy proven acyclic: the position is not on the stack.
            None => match open(&next) {
                Some(child) => {
                    on_stack.insert(child.hash);
                    stack.push(child);
                }
                // Not in the strategy (it cannot happen in a checked proof):
                // counted as one more ply.
                None => frame.next += 1,
            },
        }
    }
    plies
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_rules::{BoardSize, Color, Symmetry};

    fn board(files: u8, ranks: u8) -> Position {
        Position::new(BoardSize::new(files, ranks).unwrap(), Symmetry::Mirror)
    }

    #[test]
    fn a_proven_win_is_followed_to_the_end_with_its_length() {
        let stop = AtomicBool::new(false);
        let mut wins = ProvenWins::default();
        let mut pos = board(4, 5);
        let limits = Limits::nodes(1_000_000);
        let found = wins
            .find(&pos, &limits, None, 1 << 26, Instant::now(), &stop)
            .expect("4x5 is White's");
        assert!(found.nodes > 0);
        assert!((3..200).contains(&found.plies), "{}", found.plies);
        assert!(found.score() >= crate::score::PROVEN);
        // Every later White position comes from the strategy, each needing
        // fewer plies, until White has won.
        let mut plies = found.plies;
        pos.play(found.mv).unwrap();
        while pos.outcome().is_none() {
            // Black's first move, whatever it is.
            let reply = pos.legal_moves().as_slice()[0];
            pos.play(reply).unwrap();
            if pos.outcome().is_some() {
                break;
            }
            let next = wins
                .find(&pos, &limits, None, 1 << 26, Instant::now(), &stop)
                .expect("in the strategy");
            assert_eq!(next.nodes, 0);
            assert!(next.plies + 2 <= plies, "{} after {plies}", next.plies);
            plies = next.plies;
            pos.play(next.mv).unwrap();
        }
        assert_eq!(pos.outcome().map(|o| o.winner), Some(Color::White));
    }

    #[test]
    fn depth_limits_unlimited_searches_large_boards_and_small_budgets_are_left_to_alpha_beta() {
        let stop = AtomicBool::new(false);
        let mut wins = ProvenWins::default();
        let small = board(4, 5);
        let now = Instant::now();
        assert!(
            wins.find(&small, &Limits::depth(30), None, 1 << 26, now, &stop)
                .is_none()
        );
        assert!(
            wins.find(&small, &Limits::default(), None, 1 << 26, now, &stop)
                .is_none()
        );
        let nodes = Limits::nodes(1_000_000);
        assert!(
            wins.find(&board(14, 12), &nodes, None, 1 << 26, now, &stop)
                .is_none()
        );
        assert!(
            wins.find(&board(7, 6), &nodes, None, 1 << 26, now, &stop)
                .is_none()
        );
        // 4x5 needs about 190,000 positions: neither 1,000 nodes nor a
        // table of 64 KiB is enough.
        assert!(
            wins.find(&small, &Limits::nodes(1_000), None, 1 << 26, now, &stop)
                .is_none()
        );
        assert!(
            wins.find(&small, &nodes, None, 1 << 16, now, &stop)
                .is_none()
        );
        assert!(wins.moves.is_empty());
    }
}
