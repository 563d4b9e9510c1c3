//! `--best-first`: the split grown where it is nearest to deciding the
//! position, one position at a time, as proof-number search grows its
//! tree (PN²: each leaf of this tree is itself searched by df-pn within
//! `--move-nodes`).
//!
//! `--deepen` splits every line left open one ply further in each pass,
//! so that a board whose open lines each need three or four plies more
//! spends most of its time on lines that a decided neighbour has already
//! made useless, and never gets to the deep ones. Here each step splits
//! only the most-proving position: from the start, the move whose
//! position has the smallest proof number where the side looked for
//! moves, the smallest disproof number where the other side does, down to
//! a position not split yet. Its moves are searched (the engine's best
//! first, stopping at one that decides it), and the numbers are counted
//! again up the tree: a position the side has to win after every reply of
//! counts the numbers of all its open replies, where one reply is enough
//! only the smallest. This is the narrowing that was done by hand on 4x7
//! without the symmetry rule, run by itself.
//!
//! With `--try-nodes`, a split position's moves are searched within
//! fewer nodes than `--move-nodes` first, and a position left open is
//! searched again, with four times the nodes (up to `--move-nodes`),
//! only when the tree chooses it again; it is split only once a search
//! within `--move-nodes` left it open. A split then costs its moves'
//! short searches, and the full ones are spent only on the positions
//! the line to the decision goes through (on 4x7 without the symmetry
//! rule a split of a White position, about 30 moves each searched to 30
//! million nodes, took up to 20 minutes).
//!
//! A position left open counts 1 and 1 (3 and 1 where no win was found
//! but the hold not proven), or, with `--leaf-numbers search`, the
//! numbers its own search stopped at on a log scale, so that among
//! equals the tree turns to where the searches came nearest.
//!
//! The tree is kept in memory; each value found goes into the file of
//! values (`--known`) as `--deepen`'s do, the decided positions of the
//! tree with how deep they were split. A run started again from the file
//! grows the same tree again (each position taken from the file, not
//! searched) and goes on from where the last stopped; the file keeps an
//! undecided position's numbers too, so that with `--leaf-numbers search`
//! the tree grown again is counted as before (without them, each open
//! position read from the file would count 1 and 1 beside the new ones'
//! logarithms, and the tree would turn to the old ones first).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;

use epaminondas_engine::dfpn::known::SideValue;
use epaminondas_engine::dfpn::table_key;
use epaminondas_rules::{Move, Position};

use super::super::{MovesLimits, Strategy, first_moves, joined, reflected, with_first};
use super::{Choices, Found, SplitShape, Splitter};
use crate::output::outln;

/// A proof or disproof number that cannot be met: the position is decided
/// the other way. Sums saturate here.
const INFINITE: u64 = u64::MAX / 4;

/// How many times `--move-nodes` (and `--move-time`) the last search for
/// a position's proof may take, where its value was found within them.
const PROOF_RETRY: u64 = 16;

/// How many times the nodes of its last search a position left open is
/// searched with when chosen again (with `--try-nodes`).
const MORE_NODES: u64 = 4;

/// The numbers of a position left open by its own search and not split
/// yet. A search that found no win but could not prove the other side's
/// hold has most likely met that hold: its proof is taken to be further
/// off than its disproof.
fn leaf_numbers(value: SideValue) -> (u64, u64) {
    match value {
        SideValue::Wins => (0, INFINITE),
        SideValue::CannotWin => (INFINITE, 0),
        SideValue::NoWinFound => (3, 1),
        SideValue::Undecided => (1, 1),
    }
}

/// One position of the tree.
struct Branch {
    pos: Position,
    key: u64,
    /// The move from its parent that leads here (none at the start).
    by: Option<Move>,
    /// The positions after its moves, once split, one for each position
    /// up to reflection, in the order they were searched.
    below: Vec<usize>,
    /// Whether its moves were searched (all of them, or up to one that
    /// decided it).
    split: bool,
    /// Its value: from its own search, from its moves once split, or as
    /// found for it elsewhere (the file of values, another line).
    value: SideValue,
    /// The node limit of the search that left it open, while it is (not
    /// split, and not decided): it is split only once that is
    /// `--move-nodes`.
    nodes: Option<u64>,
    proof_number: u64,
    disproof_number: u64,
    /// How many plies the tree goes on below it.
    height: u32,
    /// Whether its value was decided by its moves' (not only found for it
    /// elsewhere): its proof can be read through them.
    decided_below: bool,
    /// Its proof, when proofs are read and its own search decided it.
    strategy: Option<Strategy>,
    /// Whether it is a position of the line before it (or its reflection):
    /// the side cannot win by coming back to it, nor can the splits prove
    /// the other side's hold there (only its own search can). Never split.
    looping: bool,
}

/// The tree of positions split so far, over the searches of a
/// [`Splitter`].
pub(super) struct Frontier<'s, 'a> {
    split: &'s mut Splitter<'a>,
    /// The nodes a split position's moves are searched within first
    /// (`--try-nodes`), if fewer than `--move-nodes`.
    try_nodes: Option<u64>,
    /// Whether a position left open takes the numbers its search stopped
    /// at (`--leaf-numbers search`) rather than [`leaf_numbers`]'.
    searched_leaf_numbers: bool,
    tree: Vec<Branch>,
    /// The position each was split from, by index (the start's is itself).
    parents: Vec<usize>,
    /// The number of positions split so far (the start included).
    steps: usize,
    /// The number of searches of positions left open made again with more
    /// nodes.
    searched_again: usize,
    /// The positions whose proof was read, while reading one.
    proven: HashSet<String>,
    /// The positions on the line whose proof is being read.
    proving: HashSet<String>,
}

impl<'s, 'a> Frontier<'s, 'a> {
    /// A tree of one position, `start`, over `split`'s searches, whose
    /// moves are searched within `shape.try_nodes` first (see the
    /// module's notes) when given.
    pub(super) fn new(split: &'s mut Splitter<'a>, start: &Position, shape: SplitShape) -> Self {
        let try_nodes = shape
            .try_nodes
            .filter(|&t| split.limits.move_nodes.is_some_and(|n| t < n));
        let root = Branch {
            pos: start.clone(),
            key: table_key(start),
            by: None,
            below: Vec::new(),
            split: false,
            value: SideValue::Undecided,
            nodes: None,
            proof_number: 1,
            disproof_number: 1,
            height: 0,
            decided_below: false,
            strategy: None,
            looping: false,
        };
        Frontier {
            split,
            try_nodes,
            searched_leaf_numbers: shape.searched_leaf_numbers,
            tree: vec![root],
            parents: vec![0],
            steps: 0,
            searched_again: 0,
            proven: HashSet::new(),
            proving: HashSet::new(),
        }
    }

    /// Grows the tree until the start is decided or the run is stopped;
    /// then, when `keep_proofs`, reads the proof of its value. What the
    /// start came to, as [`Splitter::passes`] says it.
    pub(super) fn grow(mut self, keep_proofs: bool) -> Found {
        // Each position's proof is read when its search decides it: read
        // again later, in a table that holds other things, it may not be
        // found within the same limits.
        self.split.keep_proofs = keep_proofs;
        loop {
            // The other side's wins found since, by a run beside this one.
            if self.split.take_other_side_wins_again() > 0 {
                self.count();
                if !self.tree[0].value.is_open() {
                    break;
                }
            }
            let Some((at, line)) = self.most_proving() else {
                eprintln!(
                    "every line left open returns to a position before it: the splits cannot decide the start (more --move-nodes may)"
                );
                break;
            };
            let again = self.more_nodes_for(at);
            if let Some(nodes) = again {
                self.search_again(at, &line, nodes);
            } else {
                self.split_position(at, &line);
            }
            self.count();
            let root = &self.tree[0];
            if !root.value.is_open() || self.split.stop.load(Ordering::Relaxed) {
                break;
            }
            if again.is_some() {
                continue;
            }
            if !self.tree[at].split {
                // Its moves could not be searched: the game is over there
                // although its search left it open. Not met so far; said
                // rather than looped on.
                eprintln!(
                    "{}: left open with no move to split; stopping",
                    Splitter::words(&line)
                );
                break;
            }
            eprintln!(
                "split {}: {} (the start's proof number {}, disproof number {}; {} positions in the tree, {:.1} s)",
                self.steps,
                if line.is_empty() {
                    "the start".to_string()
                } else {
                    Splitter::words(&line)
                },
                shown(root.proof_number),
                shown(root.disproof_number),
                self.tree.len(),
                self.split.started.elapsed().as_secs_f64()
            );
        }
        self.print_frontier();
        let value = self.tree[0].value;
        let decided_by = self.deciding_move(0);
        let mut strategy = None;
        if !value.is_open() && keep_proofs {
            eprintln!(
                "decided; searching the tree's positions again for the proof ({:.1} s)",
                self.split.started.elapsed().as_secs_f64()
            );
            self.split.keep_proofs = true;
            let start = self.tree[0].pos.clone();
            strategy = self.prove(0, &start, &mut Vec::new());
            if strategy.is_none() {
                eprintln!("the proof could not be read again within --move-nodes");
            }
        }
        Found {
            value,
            decided_by,
            below: self.first_move_values(),
            strategy,
        }
    }

    /// The position to split next, and the line to it: from the start,
    /// the open move with the smallest proof number where the side looked
    /// for moves, the smallest disproof number where the other side does,
    /// the first searched among equals, down to a position not split.
    /// `None` when every open line returns to a position before it.
    fn most_proving(&self) -> Option<(usize, Vec<Move>)> {
        let mut at = 0;
        let mut line = Vec::new();
        while self.tree[at].split {
            let branch = &self.tree[at];
            // The number that counts here; where it cannot be met (every
            // open move returns to a position before it), the other.
            let mut by_proof = branch.pos.turn() == self.split.side;
            let wanted = |b: &Branch, by_proof: bool| {
                if by_proof {
                    b.proof_number
                } else {
                    b.disproof_number
                }
            };
            if wanted(branch, by_proof) >= INFINITE {
                by_proof = !by_proof;
            }
            let next = branch
                .below
                .iter()
                .copied()
                .filter(|&b| {
                    self.tree[b].value.is_open() && wanted(&self.tree[b], by_proof) < INFINITE
                })
                .min_by_key(|&b| wanted(&self.tree[b], by_proof))?;
            line.extend(self.tree[next].by);
            at = next;
        }
        (!self.tree[at].looping).then_some((at, line))
    }

    /// The nodes to search the position at `at` again with, chosen to be
    /// split, when it is to be searched again first: it was left open by a
    /// search within fewer than `--move-nodes` (with `--try-nodes`).
    fn more_nodes_for(&self, at: usize) -> Option<u64> {
        let branch = &self.tree[at];
        let try_nodes = self.try_nodes?;
        let most = self.split.limits.move_nodes?;
        let searched = branch.nodes.unwrap_or(0);
        let open = at != 0 && !branch.split && branch.value.is_open();
        (open && searched < most).then(|| {
            let more = searched.saturating_mul(MORE_NODES).max(try_nodes);
            more.min(most)
        })
    }

    /// Searches the position at `at` (reached by `line`), left open, again
    /// within `nodes`, in the search kept (which may still hold what the
    /// last found). Left as it was when the run is stopped during it.
    fn search_again(&mut self, at: usize, line: &[Move], nodes: u64) {
        let pos = self.tree[at].pos.clone();
        self.searched_again += 1;
        eprintln!(
            "  {}: chosen again, searched within {nodes} nodes ({:.1} s)",
            Splitter::words(line),
            self.split.started.elapsed().as_secs_f64()
        );
        let limits = MovesLimits {
            move_nodes: Some(nodes),
            ..self.split.limits
        };
        let found = self
            .split
            .within(limits, |split| split.node(&pos, &mut line.to_vec(), 0, 0));
        if self.split.stop.load(Ordering::Relaxed) {
            return;
        }
        let branch = &mut self.tree[at];
        branch.value = found.value;
        branch.nodes = Some(nodes);
        branch.strategy = found.strategy.filter(|_| !found.value.is_open());
    }

    /// Searches the moves of the position at `at` (reached by `line`),
    /// the engine's best first, up to one that decides it, and adds the
    /// positions after them to the tree; with `--try-nodes`, each within
    /// those nodes (or as found before with more). Left as it was when the
    /// game is over there, or the run is stopped before all are searched.
    fn split_position(&mut self, at: usize, line: &[Move]) {
        let pos = self.tree[at].pos.clone();
        let Ok((moves, afters)) = first_moves(&pos) else {
            return;
        };
        self.steps += 1;
        let limits = MovesLimits {
            move_nodes: self.try_nodes.or(self.split.limits.move_nodes),
            ..self.split.limits
        };
        let (decisive, opposite) = self.split.stakes(&pos);
        let keys: Vec<u64> = afters.iter().map(table_key).collect();
        let order = self.split.order(&pos, &afters, &keys, decisive);
        let here = Choices {
            moves: &moves,
            afters: &afters,
            keys: &keys,
            order: &order,
            decisive,
            opposite,
        };
        let mut walked = line.to_vec();
        // (One ply, with "deeper" allowed, so that the proofs found are
        // kept whatever is left open beside them.)
        let (found, decided_by) = self.split.within(limits, |split| {
            if split.threads > 1 {
                split.side_by_side(&here, &mut walked)
            } else {
                split.one_by_one(&here, &mut walked, 1, 1)
            }
        });
        let searched_with = limits.move_nodes;
        // Stopped part way: what was found is kept in the file, but the
        // position is not split until all of it is.
        if decided_by.is_none() && found.len() < moves.len() {
            return;
        }
        let mut seen = HashMap::new();
        for (i, value, strategy) in found {
            if seen.insert(keys[i], ()).is_some() {
                continue;
            }
            let looping = self.on_line_to(at, keys[i]);
            let (proof_number, disproof_number) = if looping && value.is_open() {
                (INFINITE, INFINITE)
            } else {
                self.numbers_of(keys[i], value)
            };
            // Taken from a search before with more nodes, or this one's.
            let nodes = self
                .split
                .met
                .get(&keys[i])
                .map_or(searched_with, |m| m.nodes);
            self.tree.push(Branch {
                pos: afters[i].clone(),
                key: keys[i],
                by: Some(moves[i]),
                below: Vec::new(),
                split: false,
                value,
                nodes,
                proof_number,
                disproof_number,
                height: 0,
                decided_below: false,
                strategy: strategy.filter(|_| !value.is_open()),
                looping,
            });
            self.parents.push(at);
            let index = self.tree.len() - 1;
            self.tree[at].below.push(index);
        }
        self.tree[at].split = true;
    }

    /// Counts every position's value and numbers again from those below
    /// it (children come after their parents in the tree, so a walk from
    /// the last up meets each before its parent). A position decided
    /// elsewhere (another line, the file of values) takes that value, and
    /// one left open takes what a search with more nodes found for it in
    /// another line; one newly decided from its moves is kept as
    /// [`Splitter::remember`] keeps any.
    fn count(&mut self) {
        for at in (0..self.tree.len()).rev() {
            let key = self.tree[at].key;
            let met = self.split.met.get(&key).copied().filter(|_| at != 0);
            let elsewhere = met.map(|m| m.value).filter(|value| !value.is_open());
            let branch = &mut self.tree[at];
            if let Some(met) = met.filter(|m| m.value.is_open() && m.nodes > branch.nodes)
                && !branch.split
                && branch.value.is_open()
            {
                branch.value = met.value;
                branch.nodes = met.nodes;
            }
            let branch = &self.tree[at];
            let below = branch.split.then(|| self.counted_from_below(at));
            let decided_below = below.is_some_and(|(value, _, _)| !value.is_open());
            let (value, numbers, height) = match (below, elsewhere) {
                (Some(below), _) if decided_below => below,
                (_, Some(value)) => (value, leaf_numbers(value), branch.height),
                (Some(below), None) => below,
                (None, None) if branch.looping && branch.value.is_open() => {
                    (branch.value, (INFINITE, INFINITE), 0)
                }
                (None, None) => (branch.value, self.numbers_of(key, branch.value), 0),
            };
            let newly_decided = decided_below && branch.value.is_open();
            let branch = &mut self.tree[at];
            branch.value = value;
            (branch.proof_number, branch.disproof_number) = numbers;
            branch.height = height;
            branch.decided_below = decided_below;
            if newly_decided && at != 0 {
                let pos = branch.pos.clone();
                self.split.remember(&pos, key, value, height);
            }
        }
    }

    /// The proof and disproof numbers of a position not split, with table
    /// key `key` and `value`: with `--leaf-numbers search`, where it is
    /// undecided and its last search's numbers are known (searched in this
    /// run, or read from the file of values), those that search stopped
    /// at, each as 1 + its base-2 logarithm; otherwise [`leaf_numbers`]'.
    /// (Taken whole, a search's numbers, thousands to billions, swamp the
    /// tree's own sums and minima: 4x5 off, White, a million nodes a
    /// position, 79 splits against 66 with 1 and 1; on the log scale, 40.)
    fn numbers_of(&self, key: u64, value: SideValue) -> (u64, u64) {
        let searched = self
            .split
            .numbers
            .get(&key)
            .filter(|_| self.searched_leaf_numbers && value == SideValue::Undecided);
        let scaled = |n: u64| 1 + u64::from(n.max(1).ilog2());
        match searched {
            Some(&(proof, disproof)) => (scaled(proof), scaled(disproof)),
            None => leaf_numbers(value),
        }
    }

    /// Whether the position with table key `key` is the one at `at` or
    /// one on the line to it.
    fn on_line_to(&self, mut at: usize, key: u64) -> bool {
        loop {
            if self.tree[at].key == key {
                return true;
            }
            if at == 0 {
                return false;
            }
            at = self.parents[at];
        }
    }

    /// The value, numbers and height of the split position at `at`, from
    /// the positions after its moves.
    fn counted_from_below(&self, at: usize) -> (SideValue, (u64, u64), u32) {
        let branch = &self.tree[at];
        let side_moves = branch.pos.turn() == self.split.side;
        let below: Vec<&Branch> = branch.below.iter().map(|&b| &self.tree[b]).collect();
        let height = 1 + below.iter().map(|b| b.height).max().unwrap_or(0);
        let (decisive, opposite) = self.split.stakes(&branch.pos);
        if below.iter().any(|b| b.value == decisive) {
            return (decisive, leaf_numbers(decisive), height);
        }
        if below.iter().all(|b| b.value == opposite) {
            return (opposite, leaf_numbers(opposite), height);
        }
        let open = below.iter().filter(|b| b.value.is_open());
        let (one, all) = if side_moves {
            let proof = open.clone().map(|b| b.proof_number).min();
            let disproof = open.map(|b| b.disproof_number).fold(0, sum);
            (proof, disproof)
        } else {
            let disproof = open.clone().map(|b| b.disproof_number).min();
            let proof = open.map(|b| b.proof_number).fold(0, sum);
            (disproof, proof)
        };
        let one = one.unwrap_or(INFINITE);
        let numbers = if side_moves { (one, all) } else { (all, one) };
        (SideValue::Undecided, numbers, height)
    }

    /// The move from the position at `at` that decides its value, when
    /// one does: one winning move of the side, or a reply of the other
    /// side's after which it cannot win.
    fn deciding_move(&self, at: usize) -> Option<Move> {
        let branch = &self.tree[at];
        let (decisive, _) = self.split.stakes(&branch.pos);
        branch
            .below
            .iter()
            .map(|&b| &self.tree[b])
            .find(|b| b.value == decisive)
            .and_then(|b| b.by)
    }

    /// The values of the start's moves, each move (reflections too) taking
    /// the value of its position in the tree.
    fn first_move_values(&self) -> Vec<SideValue> {
        let start = &self.tree[0];
        let Ok((_, afters)) = first_moves(&start.pos) else {
            return Vec::new();
        };
        let by_key: HashMap<u64, SideValue> = start
            .below
            .iter()
            .map(|&b| (self.tree[b].key, self.tree[b].value))
            .collect();
        afters
            .iter()
            .filter_map(|after| by_key.get(&table_key(after)).copied())
            .collect()
    }

    /// The proof of the value of `pos`, which is the position at `at` or
    /// its reflection, reached by `line`: a position not split is searched
    /// again for its proof (at once where the table has it), and split
    /// when that search does not decide it (its value came from a split in
    /// a run before); a split one takes its deciding move's proof, or
    /// joins those of all its moves (each reflection of a position met on
    /// its own). `None` when a position is not decided again.
    fn prove(&mut self, at: usize, pos: &Position, line: &mut Vec<Move>) -> Option<Strategy> {
        let text = pos.to_string();
        if self.proven.contains(&text) {
            // Its moves are in the part of the proof read already.
            return Some(Strategy::new());
        }
        if !self.proving.insert(text.clone()) {
            // Back to a position on the line being proven: play that goes
            // round for ever is a hold, never a win.
            let holds = self.tree[0].value == SideValue::CannotWin;
            return holds.then(Strategy::new);
        }
        let strategy = self.prove_here(at, pos, line);
        self.proving.remove(&text);
        if strategy.is_some() {
            self.proven.insert(text);
        }
        strategy
    }

    /// [`Frontier::prove`] for a position not met before in this proof.
    fn prove_here(&mut self, at: usize, pos: &Position, line: &mut Vec<Move>) -> Option<Strategy> {
        let at = self.split_with_key(self.tree[at].key).unwrap_or(at);
        if !self.tree[at].decided_below {
            if let Some(strategy) = self.leaf_proof(at, pos, line) {
                return Some(strategy);
            }
            // Decided by a split in a run before (the file of values),
            // not found again by its own search: split again, its moves'
            // values taken from the file, and their proofs read below
            // (those searched, within all of `--move-nodes`).
            if !self.tree[at].split {
                let try_nodes = self.try_nodes.take();
                self.split.keep_proofs = false;
                self.split_position(at, line);
                self.split.keep_proofs = true;
                self.try_nodes = try_nodes;
                self.count();
            }
            if !self.tree[at].decided_below {
                eprintln!(
                    "  {}: decided, but not again by its own search, nor by its moves",
                    Splitter::words(line)
                );
                return None;
            }
        }
        let (moves, afters) = first_moves(pos).ok()?;
        let below: HashMap<u64, usize> = self.tree[at]
            .below
            .iter()
            .map(|&b| (self.tree[b].key, b))
            .collect();
        let (decisive, _) = self.split.stakes(pos);
        if self.tree[at].value == decisive {
            let (first, after, next) = moves.iter().zip(&afters).find_map(|(&mv, after)| {
                let &next = below.get(&table_key(after))?;
                (self.tree[next].value == decisive).then_some((mv, after, next))
            })?;
            line.push(first);
            let strategy = self.prove(next, after, line);
            line.pop();
            return with_first(pos, strategy, first);
        }
        let mut parts = Vec::new();
        for (&mv, after) in moves.iter().zip(&afters) {
            let &next = below.get(&table_key(after))?;
            line.push(mv);
            parts.push(self.prove(next, after, line));
            line.pop();
        }
        joined(parts)
    }

    /// The proof of the position not split at `at` (or of its reflection,
    /// `pos`): as read when it was decided, or by its own search: in the
    /// table kept, then, where that does not decide it again (a search
    /// depends on what its table holds, and what decided it within
    /// `--move-nodes` may not the second time), in a table of its own with
    /// the same limits, and last with [`PROOF_RETRY`] times the nodes and
    /// time.
    fn leaf_proof(&mut self, at: usize, pos: &Position, line: &mut Vec<Move>) -> Option<Strategy> {
        // Read by the search that decided it, here or where the same
        // position or its reflection was met in another line (whose value
        // this one took): a search made again from scratch may not decide
        // it within the same nodes, the search before having started from
        // what the ones before it left in the table (`--try-nodes`).
        // (Kept: its reflection may be met after it.)
        let key = self.tree[at].key;
        let mut mirrored = None;
        for branch in self.tree.iter().filter(|b| b.key == key) {
            let Some(strategy) = &branch.strategy else {
                continue;
            };
            if branch.pos == *pos {
                return Some(strategy.clone());
            }
            let mirror = mirrored.get_or_insert_with(|| pos.reflected());
            if branch.pos == *mirror
                && let Some(strategy) = reflected(strategy)
            {
                return Some(strategy);
            }
        }
        let mut found = self.split.node(pos, line, 0, 0);
        for widen in [1, PROOF_RETRY] {
            if !found.value.is_open() {
                break;
            }
            self.split.search = None;
            let limits = MovesLimits {
                move_nodes: self
                    .split
                    .limits
                    .move_nodes
                    .map(|n| n.saturating_mul(widen)),
                move_time: self.split.limits.move_time.map(|t| t * widen as u32),
                ..self.split.limits
            };
            found = self
                .split
                .within(limits, |split| split.node(pos, line, 0, 0));
        }
        found.strategy.filter(|_| !found.value.is_open())
    }

    /// A split position of the tree with table key `key` that is decided,
    /// if there is one: a position decided by its moves in one line may be
    /// met again, not split, in another.
    fn split_with_key(&self, key: u64) -> Option<usize> {
        self.tree
            .iter()
            .position(|b| b.key == key && b.decided_below)
    }

    /// Says where the tree stands: its size, the line to the position that
    /// would be split next, and how many positions are left open.
    fn print_frontier(&self) {
        let open_leaves: Vec<&Branch> = self
            .tree
            .iter()
            .filter(|b| !b.split && b.value.is_open())
            .collect();
        let tried = match (self.try_nodes, self.split.limits.move_nodes) {
            (Some(_), Some(most)) => format!(
                " ({} of them searched within fewer than --move-nodes; {} searches made again with more)",
                open_leaves
                    .iter()
                    .filter(|b| b.nodes.is_none_or(|n| n < most))
                    .count(),
                self.searched_again
            ),
            _ => String::new(),
        };
        let root = &self.tree[0];
        eprintln!(
            "{} positions split, {} in the tree, {} left open and not split{tried}; the start's proof number {}, disproof number {} ({:.1} s)",
            self.steps,
            self.tree.len(),
            open_leaves.len(),
            shown(root.proof_number),
            shown(root.disproof_number),
            self.split.started.elapsed().as_secs_f64()
        );
        if let Some((_, line)) = self.most_proving().filter(|_| root.value.is_open()) {
            eprintln!("  next to split: {}", Splitter::words(&line));
            outln!("the tree's most-proving line: {}", Splitter::words(&line));
        }
    }
}

/// Two numbers added, stopping at [`INFINITE`].
fn sum(a: u64, b: u64) -> u64 {
    a.saturating_add(b).min(INFINITE)
}

/// A number as printed: `inf` when it cannot be met.
fn shown(number: u64) -> String {
    if number >= INFINITE {
        "inf".into()
    } else {
        number.to_string()
    }
}
