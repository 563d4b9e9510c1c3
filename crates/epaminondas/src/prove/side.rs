//! `epaminondas solve --full --moves --side COLOR`: one side's forced win
//! looked for after each first move, the engine's best moves first, until
//! the position's value for that side is known.
//!
//! Where the side to move is asked about, one winning move decides (it
//! wins), and only every move failing to win says it cannot. Where the
//! side not to move is, one move of the mover after which it cannot win
//! decides (it cannot), and only a win after every move says it wins. So a
//! board whose search from the start is too large can still be decided by
//! the one move that matters (as 5x4 `off` needed), and the other moves are
//! never searched.

mod frontier;
mod given;
mod known;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use epaminondas_engine::dfpn::known::{KnownValue, SideValue};
use epaminondas_engine::dfpn::{ProofSearch, Verdict, table_key, with_large_stack};
use epaminondas_engine::{Engine, Limits};
use epaminondas_rules::proof::Claim;
use epaminondas_rules::{Color, Move, Position};

use super::{
    MovesLimits, Strategy, first_moves, joined, read_strategies, save, search_in, strategy_section,
    with_first,
};
use crate::output::{Failure, Outcome, outln};
use given::GivenProofs;
use known::{KnownFile, OtherSideWins};

/// Nodes of the engine's search of each position after a first move, to
/// order the moves: a fraction of a second each on the boards a proof
/// search can take.
const ORDER_NODES: u64 = 100_000;

/// How a value taken from [`Splitter::met`] is noted.
const MET_BEFORE: &str = ", as found before for it or its reflection";

/// How a value taken from a proof given with `--use-proof` is noted.
const GIVEN: &str = ", as a proof given proves";

/// How many of the lines a pass left open it lists.
const OPEN_LINES_SHOWN: usize = 24;

/// How often searches side by side (`--threads`) say how far they got.
const PROGRESS_EVERY: Duration = Duration::from_secs(60);

/// How a position is split into the positions searched (`--split`,
/// `--deepen`, `--threads`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitShape {
    /// How many plies deep the positions searched are (1: after each first
    /// move; 2: after each reply to each, and so on).
    pub plies: u32,
    /// How many plies further a position of the last ply left undecided
    /// may be split, one ply at a time (0: none).
    pub deepen: u32,
    /// How many positions of the last ply are searched side by side, each
    /// in a table of its own (1: one after another, in one table).
    pub threads: usize,
    /// Whether the split grows best first (`--best-first`: one position
    /// at a time, the most-proving, see [`frontier`]) instead of in passes
    /// one ply deeper each (`plies` and `deepen` are then not used).
    pub best_first: bool,
    /// With `best_first`: the node limit a split position's moves are
    /// searched within first (`--try-nodes`), raised for a position only
    /// when the tree chooses it again (see [`frontier`]); `None`: the
    /// limits' own, from the first.
    pub try_nodes: Option<u64>,
    /// With `best_first`: whether a position left open takes the proof
    /// and disproof numbers its search stopped at (`--leaf-numbers
    /// search`, PN²) instead of 1 and 1.
    pub searched_leaf_numbers: bool,
}

/// The files a run of [`solve_moves_for_side`] reads and writes.
#[derive(Clone, Copy, Debug, Default)]
pub struct SideFiles<'p> {
    /// Where the proof of the answer is written (`--proof`).
    pub proof: Option<&'p Path>,
    /// The file of values kept from run to run (`--known`).
    pub known: Option<&'p Path>,
    /// Proofs of positions below the start, taken as decided with their
    /// strategies (`--use-proof`).
    pub given: &'p [PathBuf],
    /// The other side's file of values (`--other-side-known`): the
    /// positions it wins, which this side cannot.
    pub other_side: Option<&'p Path>,
}

/// Runs `epaminondas solve --full --moves --side SIDE [--split PLIES]
/// [--deepen PLIES]`: whether `side` can force a win from `pos`, decided
/// move by move (see the module's notes) as `shape` says: one search kept
/// through all the positions searched, each within `limits`, or several
/// side by side; a position of the last ply left undecided is split one
/// ply further, while `shape.deepen` allows. With `files.proof`, writes the
/// proof of the answer. With `files.known`, the values found are kept in
/// that file, and those it holds from runs before are taken (see
/// [`known`]). The positions the proofs `files.given` start from take
/// their values and strategies from them (see [`given`]).
pub fn solve_moves_for_side(
    pos: &Position,
    side: Color,
    shape: SplitShape,
    limits: MovesLimits,
    files: SideFiles<'_>,
    stop: &AtomicBool,
) -> Outcome {
    let SideFiles {
        proof: proof_path,
        known: known_path,
        given,
        other_side,
    } = files;
    let mover = pos.turn();
    let (moves, _) = first_moves(pos)?;
    let given = GivenProofs::read(given, pos, side)?;
    let (known_file, known_values) = match known_path {
        Some(path) => {
            let fewest_nodes = shape.try_nodes.or(limits.move_nodes);
            let (file, values) = KnownFile::open(path, pos, side, &limits, fewest_nodes)?;
            (Some(file), values)
        }
        None => (None, Vec::new()),
    };
    let (other_side_file, other_side_wins) = match other_side {
        Some(path) => {
            let (file, wins) = OtherSideWins::open(path, pos, side)?;
            (Some(file), wins)
        }
        None => (None, Vec::new()),
    };
    if side == mover {
        eprintln!("looking for a move that wins for {side}, the engine's best first");
    } else {
        eprintln!(
            "looking for a forced win for {side} after each move of {mover}'s, the engine's best for {mover} first"
        );
    }
    let started = Instant::now();
    let keep_proofs = proof_path.is_some();
    // The search is made and kept inside the large stack's thread.
    let root = with_large_stack(|| {
        let mut split = Splitter {
            side,
            limits,
            stop,
            keep_proofs: false,
            started,
            search: None,
            engine: Engine::new(16),
            threads: shape.threads.max(1),
            met: HashMap::new(),
            numbers: HashMap::new(),
            scores: HashMap::new(),
            known_file,
            known_failure: None,
            given,
            other_side: other_side_file,
        };
        if let Some(path) = known_path {
            split.take_known(known_values, path);
        }
        if let Some(path) = other_side {
            let taken = split.take_other_side_wins(other_side_wins);
            eprintln!(
                "{taken} positions {} wins read from {}: {side} cannot win there",
                !side,
                path.display()
            );
        }
        split.take_given();
        let found = if shape.best_first {
            frontier::Frontier::new(&mut split, pos, shape).grow(keep_proofs)
        } else {
            split.passes(pos, shape, keep_proofs)
        };
        (found, split.known_failure)
    });
    let (root, known_failure) = root;
    if let Some(failure) = known_failure {
        return Err(failure);
    }
    let seconds = started.elapsed().as_secs_f64();
    let total = moves.len();
    let claim = match (root.value, root.decided_by) {
        (SideValue::Wins, Some(first)) => {
            let first = first.with_capture_mark();
            outln!("{side} wins: {first} wins ({seconds:.2} s)");
            Claim::Wins(side)
        }
        (SideValue::CannotWin, Some(first)) => {
            let first = first.with_capture_mark();
            outln!("{side} cannot force a win: after {first}, {mover} holds ({seconds:.2} s)");
            Claim::Holds(mover)
        }
        (SideValue::CannotWin, None) => {
            outln!("{side} cannot force a win: none of its {total} moves wins ({seconds:.2} s)");
            Claim::Holds(!side)
        }
        (SideValue::Wins, None) => {
            outln!("{side} wins: it wins after each of {mover}'s {total} moves ({seconds:.2} s)");
            Claim::Wins(side)
        }
        _ => {
            let proven = |wanted: SideValue| root.below.iter().filter(|v| **v == wanted).count();
            let undecided = total - proven(SideValue::Wins) - proven(SideValue::CannotWin);
            if side == mover {
                outln!(
                    "not decided: no move found that wins for {side}, {} of {total} proven not to, {undecided} undecided ({seconds:.2} s)",
                    proven(SideValue::CannotWin)
                );
            } else {
                outln!(
                    "not decided: {side} wins after {} of {mover}'s {total} moves, no move found after which it cannot, {undecided} undecided ({seconds:.2} s)",
                    proven(SideValue::Wins)
                );
            }
            if stop.load(Ordering::Relaxed) {
                return Err(Failure::Run(format!(
                    "stopped after {seconds:.1} s before {side}'s value was decided"
                )));
            }
            return Ok(());
        }
    };
    if proof_path.is_none() {
        return Ok(());
    }
    let strategy = root.strategy.ok_or_else(|| {
        Failure::Run(
            "no proof written: it was not found again, or a move's proof could not be read back"
                .into(),
        )
    })?;
    save(proof_path, &[strategy_section(pos, claim, &strategy)])
}

/// The positions of a split searched so far and what they share: one proof
/// search for the side's win, kept from position to position (what it
/// settled for one serves the others), and the engine that orders moves.
struct Splitter<'a> {
    side: Color,
    limits: MovesLimits,
    stop: &'a AtomicBool,
    keep_proofs: bool,
    started: Instant,
    search: Option<ProofSearch<'a>>,
    engine: Engine,
    /// How many positions of the last ply are searched side by side.
    threads: usize,
    /// Each position decided so far (through [`Splitter::node`], or
    /// searched side by side), by table key: what was found for it. Lines
    /// of play meet (on 6x4 off two of Black's first replies lead to the
    /// same position seven plies on), and one met again takes the value
    /// found before, unless its proof is wanted or it was left open and
    /// may now be searched deeper or with more nodes.
    met: HashMap<u64, Met>,
    /// The proof and disproof numbers each position left open was left at
    /// by its last search, by table key: the best-first tree's numbers of
    /// such a position with `--leaf-numbers search`.
    numbers: HashMap<u64, LeafNumbers>,
    /// The engine's scores of the positions after each move, by the
    /// position they are made from (not its table key: a reflection lists
    /// its moves in another order): each pass orders them the same way
    /// without searching them again.
    scores: HashMap<Position, Vec<i32>>,
    /// The file the values found are kept in (`--known`), if any.
    known_file: Option<KnownFile>,
    /// Why writing to it failed, once it did: the run stops, and says so.
    known_failure: Option<Failure>,
    /// The proofs given (`--use-proof`): the positions they start from are
    /// not searched, even for the proof.
    given: GivenProofs,
    /// The other side's file of values (`--other-side-known`), read again
    /// as the run goes on.
    other_side: Option<OtherSideWins>,
}

/// A position's proof and disproof numbers, from the side's view.
type LeafNumbers = (u64, u64);

/// What was found for a position (see [`Splitter::met`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Met {
    value: SideValue,
    /// How deep below it was searched (plies and `--deepen` plies
    /// together).
    reach: u32,
    /// The node limit of each search that found it (`None`: none); an
    /// open value serves a search allowed no more.
    nodes: Option<u64>,
}

/// A position's moves, to be searched after: the positions after them,
/// their table keys, the order to search them in, and the values that
/// decide the position (`decisive`) or, all of them, decide it the other
/// way (`opposite`).
struct Choices<'m> {
    moves: &'m [Move],
    afters: &'m [Position],
    keys: &'m [u64],
    order: &'m [usize],
    decisive: SideValue,
    opposite: SideValue,
}

/// The moves searched from a position (by index into its [`Choices`]),
/// each with its value and proof, in the order found, and the index of the
/// move that decided the position, if one did.
type Below = (Vec<(usize, SideValue, Option<Strategy>)>, Option<usize>);

/// Lets go of the proofs of the moves searched from a position once one of
/// them is left open for good: the position can then be decided only by a
/// deciding move still to come, whose proof alone is wanted (on 6x4 off the
/// proofs kept under lines left open took 7 GB).
fn let_go(found: &mut [(usize, SideValue, Option<Strategy>)]) {
    for (_, _, strategy) in found {
        *strategy = None;
    }
}

/// What a position of the split came to.
struct Found {
    /// Its value for the side.
    value: SideValue,
    /// The move that decided it, when one did: a winning move of the side,
    /// or a move of the other side after which the side cannot win.
    decided_by: Option<Move>,
    /// The values of the moves searched from it, in the order searched.
    below: Vec<SideValue>,
    /// The proof of its value, when asked for and decided.
    strategy: Option<Strategy>,
}

impl Splitter<'_> {
    /// Decides `pos` as `shape` says. With `--deepen`, in passes, each
    /// following the positions left open one ply further than the last
    /// (0, 1, ... `shape.deepen` plies), all that was decided before taken
    /// from [`Splitter::met`]: a line whose value is found a few plies down
    /// is not held up behind one left open however deep it is followed.
    /// Once decided, and when `keep_proofs`, a last pass searches again,
    /// the deciding moves first, splitting as deep as `shape.deepen`
    /// allows, and reads the proof.
    fn passes(&mut self, pos: &Position, shape: SplitShape, keep_proofs: bool) -> Found {
        let plies = shape.plies.max(1);
        // With --deepen, the passes look for the value; the proof is read
        // in a pass of its own once it is known.
        self.keep_proofs = keep_proofs && shape.deepen == 0;
        let mut deepen = 0;
        loop {
            if deepen > 0 {
                eprintln!(
                    "pass {}: the positions left open split up to {deepen} plies further ({:.1} s)",
                    deepen + 1,
                    self.started.elapsed().as_secs_f64()
                );
                self.take_other_side_wins_again();
            }
            let found = self.node(pos, &mut Vec::new(), plies, deepen);
            let stopped = self.stop.load(Ordering::Relaxed);
            if !found.value.is_open() && keep_proofs && !self.keep_proofs && !stopped {
                eprintln!(
                    "decided; searching the deciding moves again for the proof ({:.1} s)",
                    self.started.elapsed().as_secs_f64()
                );
                self.keep_proofs = true;
                // As deep as allowed: the value may have come from a
                // deeper pass of a run before (`--known`).
                let proven = self.node(pos, &mut Vec::new(), plies, shape.deepen);
                if proven.value.is_open() && !self.stop.load(Ordering::Relaxed) {
                    eprintln!(
                        "the search for the proof did not decide the position again within --move-nodes and --deepen"
                    );
                    return found;
                }
                return proven;
            }
            if found.value.is_open() && !stopped {
                self.print_open_lines(pos, plies + deepen, deepen + 1);
            }
            if !found.value.is_open() || stopped || deepen >= shape.deepen {
                return found;
            }
            deepen += 1;
        }
    }

    /// Says which lines below `pos` a pass (`pass`, `reach` plies deep)
    /// left open: the positions that a next pass would split, read from
    /// [`Splitter::met`], at most [`OPEN_LINES_SHOWN`] of them.
    fn print_open_lines(&self, pos: &Position, reach: u32, pass: u32) {
        let mut lines = Vec::new();
        self.open_lines(pos, &mut Vec::new(), reach, &mut lines);
        let seconds = self.started.elapsed().as_secs_f64();
        eprintln!(
            "after pass {pass}, {} line{} left open ({seconds:.1} s):",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" }
        );
        for line in lines.iter().take(OPEN_LINES_SHOWN) {
            eprintln!("  {line}");
        }
        if lines.len() > OPEN_LINES_SHOWN {
            eprintln!("  and {} more", lines.len() - OPEN_LINES_SHOWN);
        }
    }

    /// Adds to `found` the lines below `pos` (reached by `line`), at most
    /// `depth` plies further, that end in an open position none of whose
    /// moves was searched: a position's moves are followed where their
    /// values in [`Splitter::met`] are open (those decided can no longer
    /// change its value, nor those not searched, when one decided it). A
    /// move to the reflection of another's position is followed once.
    fn open_lines(
        &self,
        pos: &Position,
        line: &mut Vec<Move>,
        depth: u32,
        found: &mut Vec<String>,
    ) {
        let mut followed = false;
        if depth > 0
            && let Ok((moves, afters)) = first_moves(pos)
        {
            let mut seen = HashSet::new();
            for (mv, after) in moves.iter().zip(&afters) {
                let key = table_key(after);
                let open_there = self.met.get(&key).is_some_and(|met| met.value.is_open());
                if !open_there || !seen.insert(key) {
                    continue;
                }
                followed = true;
                line.push(*mv);
                self.open_lines(after, line, depth - 1, found);
                line.pop();
            }
        }
        if !followed && !line.is_empty() {
            found.push(Self::words(line));
        }
    }

    /// Decides `pos`, reached by the moves `line`: with `plies` left, by
    /// its moves' values, the engine's best for the mover first, stopping
    /// at the first move that decides it; with none left (or the game over
    /// there), by the proof search. With one ply left and `deepen` above
    /// 0, the positions after its moves left open are then split one ply
    /// further in turn (see [`Splitter::deepen`]). Prints each position's
    /// value as it is found. A position met before in another line takes
    /// the value found then (see [`Splitter::met`]).
    fn node(&mut self, pos: &Position, line: &mut Vec<Move>, plies: u32, deepen: u32) -> Found {
        let key = table_key(pos);
        // A position of the last ply is searched alone (its parent splits
        // it further, if at all).
        let reach = if plies == 0 { 0 } else { plies + deepen };
        if let Some(found) = self.given(pos, line) {
            return found;
        }
        if let Some(value) = self.known(key, reach).filter(|_| !line.is_empty()) {
            self.print(line, value, MET_BEFORE);
            return Found {
                value,
                decided_by: None,
                below: Vec::new(),
                strategy: None,
            };
        }
        let found = self.search_node(pos, line, plies, deepen);
        self.remember(pos, key, found.value, reach);
        found
    }

    /// The value found before for the position with table `key`, if it
    /// may be taken for a search `reach` plies deep within the limits now
    /// set: a decided one when no proof is wanted, an open one when it was
    /// searched at least as deep and with no fewer nodes.
    fn known(&self, key: u64, reach: u32) -> Option<SideValue> {
        let met = self.met.get(&key)?;
        if !met.value.is_open() {
            return (!self.keep_proofs).then_some(met.value);
        }
        let enough_nodes = self
            .limits
            .move_nodes
            .is_none_or(|now| met.nodes.is_some_and(|then| then >= now));
        (met.reach >= reach && enough_nodes).then_some(met.value)
    }

    /// The value of `pos`, reached by `line`, from a proof given for it
    /// (with the proof, when proofs are read); printed as such.
    fn given(&self, pos: &Position, line: &[Move]) -> Option<Found> {
        if line.is_empty() {
            return None;
        }
        let (value, strategy) = self.given.get(pos)?;
        self.print(line, value, GIVEN);
        Some(Found {
            value,
            decided_by: None,
            below: Vec::new(),
            strategy: self.keep_proofs.then(|| strategy.clone()),
        })
    }

    /// Takes the values of the proofs given into [`Splitter::met`], so
    /// that the moves to their positions are ordered first where they
    /// decide.
    fn take_given(&mut self) {
        let values: Vec<(u64, SideValue)> = self
            .given
            .values()
            .map(|(start, value)| (table_key(start), value))
            .collect();
        for (key, value) in values {
            self.note(key, value, 0, None);
        }
    }

    /// Records the `value` found for `pos` (whose table key is `key`),
    /// searched `reach` plies deep within the limits now set, for
    /// [`Splitter::known`], and in the file of values if there is one. A
    /// search stopped from outside says nothing of the position and is
    /// not kept.
    fn remember(&mut self, pos: &Position, key: u64, value: SideValue, reach: u32) {
        if value == SideValue::Undecided && self.stop.load(Ordering::Relaxed) {
            return;
        }
        let nodes = self.limits.move_nodes;
        if !self.note(key, value, reach, nodes) {
            return;
        }
        // The numbers of a position searched alone (not of one split, whose
        // tree has its own).
        let numbers = self.numbers.get(&key).copied().filter(|_| reach == 0);
        let Some(file) = &mut self.known_file else {
            return;
        };
        if let Err(failure) = file.write(pos, value, reach, nodes, numbers) {
            eprintln!("{failure}; stopping");
            self.known_failure = Some(failure);
            self.known_file = None;
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Puts `value`, searched `reach` plies deep by searches of at most
    /// `nodes` nodes, in [`Splitter::met`] for the position with table
    /// `key`, unless it is open where a value was decided before (a search
    /// for the proof, shallower than the one that decided it, may stop
    /// short); whether it changed anything. Of two open values, what the
    /// deepest and largest searches reached is kept.
    fn note(&mut self, key: u64, value: SideValue, reach: u32, nodes: Option<u64>) -> bool {
        let before = self.met.get(&key).copied();
        let mut met = Met {
            value,
            reach,
            nodes,
        };
        if let Some(before) = before {
            if value.is_open() && !before.value.is_open() {
                return false;
            }
            met.reach = met.reach.max(before.reach);
            if value.is_open() && before.nodes > nodes {
                met.nodes = before.nodes;
            }
        }
        self.met.insert(key, met);
        before != Some(met)
    }

    /// Takes the positions the other side wins (`wins`, from its file of
    /// values) into [`Splitter::met`] as positions the side cannot win;
    /// how many were not decided here before. One this run found the side
    /// wins is left as it is, and the contradiction said.
    fn take_other_side_wins(&mut self, wins: Vec<Position>) -> usize {
        let mut taken = 0;
        for pos in wins {
            let key = table_key(&pos);
            match self.met.get(&key) {
                Some(met) if met.value == SideValue::Wins => {
                    eprintln!(
                        "warning: the other side's file of values says {} wins at {pos}, where {} was found to win",
                        !self.side, self.side
                    );
                }
                Some(met) if !met.value.is_open() => {}
                _ => {
                    let met = Met {
                        value: SideValue::CannotWin,
                        reach: 0,
                        nodes: None,
                    };
                    self.met.insert(key, met);
                    taken += 1;
                }
            }
        }
        taken
    }

    /// Reads the other side's file of values again, if one was given, and
    /// takes the wins found since (by a run beside this one) into
    /// [`Splitter::met`]; says and returns how many. A file that cannot be
    /// read now is said and skipped: the run goes on.
    fn take_other_side_wins_again(&mut self) -> usize {
        let Some(other) = &self.other_side else {
            return 0;
        };
        let taken = match other.read() {
            Ok(wins) => self.take_other_side_wins(wins),
            Err(e) => {
                eprintln!("{e}; going on without its new values");
                0
            }
        };
        if taken > 0 {
            eprintln!(
                "  {taken} more positions {} wins read from the other side's file ({:.1} s)",
                !self.side,
                self.started.elapsed().as_secs_f64()
            );
        }
        taken
    }

    /// Takes the `values` read from the file of values at `path` into
    /// [`Splitter::met`], in the order written, and says how many.
    fn take_known(&mut self, values: Vec<KnownValue>, path: &Path) {
        let total = values.len();
        for known in values {
            let key = table_key(&known.position);
            self.note(key, known.value, known.reach, known.nodes);
            // The numbers of the search whose value is kept.
            let kept = self
                .met
                .get(&key)
                .is_some_and(|met| met.value == SideValue::Undecided && met.nodes == known.nodes);
            if kept && known.value == SideValue::Undecided {
                self.keep_numbers(key, known.numbers);
            }
        }
        if total == 0 {
            eprintln!("keeping the values found in {}", path.display());
            return;
        }
        let decided = self.met.values().filter(|met| !met.value.is_open()).count();
        eprintln!(
            "{total} values read from {}: {decided} positions decided, {} left open",
            path.display(),
            self.met.len() - decided
        );
    }

    /// [`Splitter::node`]'s search, for a position not met before.
    fn search_node(
        &mut self,
        pos: &Position,
        line: &mut Vec<Move>,
        plies: u32,
        deepen: u32,
    ) -> Found {
        let leaf = |this: &mut Self, line: &[Move]| {
            let setup = Setup {
                progress: Some(this.started),
                ..this.setup(1, this.stop)
            };
            let shared = this.search.is_some();
            let (mut value, mut strategy, mut numbers) = side_value(&mut this.search, pos, setup);
            // A table kept from the positions before holds their
            // disproofs too, and the other side's hold read over it can
            // grow past what it may take or fail to close where, read
            // alone, it closes at once (6x4 off: three such positions,
            // 190 s each in the kept table, proven alone in 0.06 to 12 s).
            // The same read can take the rest of the position's nodes or
            // time and be stopped (4x7 off: 23 positions found no win
            // within about 200,000 nodes, then read the hold to the end
            // of their 20 million, 3,890 s in all). Searched again in a
            // table of its own, kept from then on.
            let stopped_in_hold = value == SideValue::Undecided
                && !this.stop.load(Ordering::Relaxed)
                && this.search.as_ref().is_some_and(|s| s.stopped_in_hold());
            if shared && (value == SideValue::NoWinFound || stopped_in_hold) {
                let why = if stopped_in_hold {
                    "stopped reading the hold"
                } else {
                    "no win found, the hold not proven"
                };
                eprintln!(
                    "  {}: {why} in the table kept from the positions before; searching it again in a table of its own",
                    Self::words(line)
                );
                this.search = None;
                (value, strategy, numbers) = side_value(&mut this.search, pos, setup);
            }
            this.keep_numbers(table_key(pos), numbers);
            this.print(line, value, "");
            Found {
                value,
                decided_by: None,
                below: Vec::new(),
                strategy,
            }
        };
        let Ok((moves, afters)) = first_moves(pos) else {
            return leaf(self, line);
        };
        if plies == 0 {
            return leaf(self, line);
        }
        let side_moves = pos.turn() == self.side;
        let (decisive, opposite) = self.stakes(pos);
        let keys: Vec<u64> = afters.iter().map(table_key).collect();
        let order = self.order(pos, &afters, &keys, decisive);
        let here = Choices {
            moves: &moves,
            afters: &afters,
            keys: &keys,
            order: &order,
            decisive,
            opposite,
        };
        let (mut found, mut decider) = if plies == 1 && self.threads > 1 {
            self.side_by_side(&here, line)
        } else {
            self.one_by_one(&here, line, plies, deepen)
        };
        if decider.is_none() && plies == 1 && deepen > 0 {
            decider = self.deepen(&here, line, &mut found, deepen - 1);
        }
        // The deciding move's proof goes last.
        if let Some(decider) = decider {
            found.sort_by_key(|(i, _, _)| *i == decider);
        }
        let decided_by = decider.map(|i| moves[i]);
        let (below, mut strategies): (Vec<SideValue>, Vec<Option<Strategy>>) =
            found.into_iter().map(|(_, v, s)| (v, s)).unzip();
        let every = |wanted: &dyn Fn(SideValue) -> bool| {
            below.len() == moves.len() && below.iter().all(|&v| wanted(v))
        };
        let (value, strategy) = if let Some(first) = decided_by {
            let strategy = strategies.pop().flatten();
            (decisive, with_first(pos, strategy, first))
        } else if every(&|v| v == opposite) {
            (opposite, joined(strategies))
        } else if (side_moves && every(&|v| v == opposite || v == SideValue::NoWinFound))
            || (!side_moves && below.contains(&SideValue::NoWinFound))
        {
            (SideValue::NoWinFound, None)
        } else {
            (SideValue::Undecided, None)
        };
        if !line.is_empty() {
            self.print(
                line,
                value,
                &format!(", from {} of its {} moves", below.len(), moves.len()),
            );
        }
        Found {
            value,
            decided_by,
            below,
            strategy,
        }
    }

    /// The values of a position's moves (see [`Choices`]), one after
    /// another in the one search kept, `plies` deep (each position below
    /// split further as `deepen` allows), stopping at the first that
    /// decides.
    fn one_by_one(
        &mut self,
        here: &Choices<'_>,
        line: &mut Vec<Move>,
        plies: u32,
        deepen: u32,
    ) -> Below {
        let mut first_with_key: HashMap<u64, (usize, SideValue)> = HashMap::new();
        let mut found_all = Vec::new();
        let mut decided_by = None;
        let mut open_for_good = false;
        for (n, &i) in here.order.iter().enumerate() {
            line.push(here.moves[i]);
            // A move leading to the reflection of an earlier one's position
            // has its value; it is searched again (at once: the table has
            // it) only when that value needs its proof.
            let found = match first_with_key.get(&here.keys[i]) {
                Some(&(earlier, value)) if value != here.decisive && value != here.opposite => {
                    self.as_reflection(line, value, here.moves[earlier])
                }
                _ => self.node(&here.afters[i], line, plies - 1, deepen),
            };
            line.pop();
            first_with_key
                .entry(here.keys[i])
                .or_insert((i, found.value));
            // Left open for good (no deepening follows at this ply).
            open_for_good |= found.value.is_open() && (plies > 1 || deepen == 0);
            found_all.push((i, found.value, found.strategy));
            if found.value == here.decisive {
                decided_by = Some(i);
                break;
            }
            if open_for_good {
                let_go(&mut found_all);
            }
            if self.stop.load(Ordering::Relaxed) {
                decided_by = self.take_decided(here, &here.order[n + 1..], line, &mut found_all);
                break;
            }
        }
        (found_all, decided_by)
    }

    /// Once the run is stopped, the moves of `rest` (not reached) whose
    /// positions were decided before, in this run or one that wrote the
    /// file of values, take those values into `found`, so that what is
    /// said of the position counts them (a run stopped in its first pass
    /// said none of them proven); the others stay unsearched. Returns the
    /// index of the move that decides the position, if one does.
    fn take_decided(
        &self,
        here: &Choices<'_>,
        rest: &[usize],
        line: &mut Vec<Move>,
        found: &mut Vec<(usize, SideValue, Option<Strategy>)>,
    ) -> Option<usize> {
        for &i in rest {
            let Some(value) = self.known(here.keys[i], 0).filter(|v| !v.is_open()) else {
                continue;
            };
            if self.take_met(here, i, value, line, found) {
                return Some(i);
            }
        }
        None
    }

    /// Takes `value`, found before for the position after move `i` of
    /// `here`, into `found`, and says so; whether it decides the position.
    fn take_met(
        &self,
        here: &Choices<'_>,
        i: usize,
        value: SideValue,
        line: &mut Vec<Move>,
        found: &mut Vec<(usize, SideValue, Option<Strategy>)>,
    ) -> bool {
        line.push(here.moves[i]);
        self.print(line, value, MET_BEFORE);
        line.pop();
        found.push((i, value, None));
        value == here.decisive
    }

    /// After a position's moves were each searched and none decided it:
    /// the positions after them left open (stopped, or no win found with
    /// the hold not proven) are split one ply further, one after another,
    /// the engine's best first, each with its own moves searched (and
    /// split again while `deepen` allows), until one decides the position.
    /// This is the narrowing a person does by hand on a board too large to
    /// search whole: where every other move is settled in seconds, the few
    /// left open are followed one ply down, then the few open there (a
    /// reflection of one split already takes its value through
    /// [`Splitter::met`]). `found` takes the new values; returns the index
    /// of the deciding move.
    fn deepen(
        &mut self,
        here: &Choices<'_>,
        line: &mut Vec<Move>,
        found: &mut [(usize, SideValue, Option<Strategy>)],
        deepen: u32,
    ) -> Option<usize> {
        for &i in here.order {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(slot) = found.iter_mut().find(|(k, v, _)| *k == i && v.is_open()) else {
                continue;
            };
            line.push(here.moves[i]);
            eprintln!(
                "  {}: left open, split one ply further ({} more allowed below; {:.1} s)",
                Self::words(line),
                deepen,
                self.started.elapsed().as_secs_f64()
            );
            let below = self.node(&here.afters[i], line, 1, deepen);
            line.pop();
            *slot = (i, below.value, below.strategy);
            if below.value == here.decisive {
                return Some(i);
            }
            if below.value.is_open() {
                let_go(found);
            }
        }
        None
    }

    /// The values of a position's moves (see [`Choices`]), the positions
    /// after them searched `self.threads` at a time, each in a search of
    /// its own with an equal share of the memory, the engine's best first;
    /// once one decides, the others are stopped (and not reported). A move
    /// to the reflection of an earlier one's position takes that value,
    /// or, when it is needed with its proof, is searched again after; one
    /// to a position met before in another line takes the value found then
    /// (see [`Splitter::known`]).
    fn side_by_side(&mut self, here: &Choices<'_>, line: &mut Vec<Move>) -> Below {
        let mut first_with_key: HashMap<u64, usize> = HashMap::new();
        let mut queue = Vec::new();
        let mut copies = Vec::new();
        let mut found: Vec<(usize, SideValue, Option<Strategy>)> = Vec::new();
        for &i in here.order {
            if let Some(&earlier) = first_with_key.get(&here.keys[i]) {
                copies.push((i, earlier));
                continue;
            }
            first_with_key.insert(here.keys[i], i);
            line.push(here.moves[i]);
            let given = self.given(&here.afters[i], line);
            line.pop();
            if let Some(given) = given {
                let value = given.value;
                found.push((i, value, given.strategy));
                if value == here.decisive {
                    return (found, Some(i));
                }
                continue;
            }
            // A position met before in another line is not searched again.
            let Some(value) = self.known(here.keys[i], 0) else {
                queue.push(i);
                continue;
            };
            if self.take_met(here, i, value, line, &mut found) {
                return (found, Some(i));
            }
        }
        let threads = self.threads.min(queue.len()).max(1);
        // The searches' own stop: set when one decides, or on Ctrl-C or
        // `--time` (which set `self.stop`).
        let halt = AtomicBool::new(false);
        let setup = self.setup(threads, &halt);
        let next = AtomicUsize::new(0);
        let mut decided_by = None;
        // Those taken from `met`, not searched here.
        let known = found.len();
        std::thread::scope(|scope| {
            let (sender, results) = mpsc::channel();
            for _ in 0..threads {
                let sender = sender.clone();
                let (queue, next, halt) = (&queue, &next, &halt);
                std::thread::Builder::new()
                    .stack_size(1 << 30)
                    .spawn_scoped(scope, move || {
                        while !halt.load(Ordering::Relaxed) {
                            let Some(&i) = queue.get(next.fetch_add(1, Ordering::Relaxed)) else {
                                break;
                            };
                            // A search of its own each time: the table is
                            // this position's alone.
                            let (value, strategy, numbers) =
                                side_value(&mut None, &here.afters[i], setup);
                            if sender.send((i, value, strategy, numbers)).is_err() {
                                break;
                            }
                        }
                    })
                    .expect("a thread can be started");
            }
            drop(sender);
            let mut said = Instant::now();
            loop {
                // The searches print no progress of their own: a line a
                // minute says how many are done and running.
                if said.elapsed() >= PROGRESS_EVERY {
                    said = Instant::now();
                    let started = next.load(Ordering::Relaxed).min(queue.len());
                    let searched = found.len() - known;
                    eprintln!(
                        "  {} of {} positions searched, {} running ({:.1} s)",
                        searched,
                        queue.len(),
                        started.saturating_sub(searched),
                        self.started.elapsed().as_secs_f64()
                    );
                }
                match results.recv_timeout(Duration::from_millis(100)) {
                    Ok((i, value, strategy, numbers)) => {
                        // Stopped because another decided: not searched out.
                        if decided_by.is_some() && value == SideValue::Undecided {
                            continue;
                        }
                        line.push(here.moves[i]);
                        self.print(line, value, "");
                        line.pop();
                        self.keep_numbers(here.keys[i], numbers);
                        self.remember(&here.afters[i], here.keys[i], value, 0);
                        if value == here.decisive && decided_by.is_none() {
                            decided_by = Some(i);
                            halt.store(true, Ordering::Relaxed);
                        }
                        found.push((i, value, strategy));
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if self.stop.load(Ordering::Relaxed) {
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
        });
        if decided_by.is_some() {
            return (found, decided_by);
        }
        for (i, earlier) in copies {
            let Some(&(_, value, _)) = found.iter().find(|(k, _, _)| *k == earlier) else {
                continue;
            };
            line.push(here.moves[i]);
            let (value, strategy) = if value == here.opposite && self.keep_proofs {
                let (value, strategy, _) =
                    side_value(&mut None, &here.afters[i], self.setup(1, self.stop));
                self.print(line, value, "");
                (value, strategy)
            } else {
                (
                    self.as_reflection(line, value, here.moves[earlier]).value,
                    None,
                )
            };
            line.pop();
            found.push((i, value, strategy));
        }
        (found, None)
    }

    /// The value of a move from `pos` that decides it, and the value that
    /// all its moves must have to decide it the other way: where the side
    /// moves, one move wins; where the other side does, one reply holds.
    fn stakes(&self, pos: &Position) -> (SideValue, SideValue) {
        if pos.turn() == self.side {
            (SideValue::Wins, SideValue::CannotWin)
        } else {
            (SideValue::CannotWin, SideValue::Wins)
        }
    }

    /// Keeps the `numbers` a search left the position with table `key` at
    /// (none: it was decided, or stopped from outside) for
    /// [`Splitter::numbers`].
    fn keep_numbers(&mut self, key: u64, numbers: Option<LeafNumbers>) {
        match numbers {
            Some(numbers) => self.numbers.insert(key, numbers),
            None => self.numbers.remove(&key),
        };
    }

    /// Runs `searches` within `limits` in place of the run's, which are
    /// set back after: the best-first tree searches with fewer nodes
    /// (`--try-nodes`) or more (a proof read again) than `--move-nodes`.
    fn within<T>(&mut self, limits: MovesLimits, searches: impl FnOnce(&mut Self) -> T) -> T {
        let kept = std::mem::replace(&mut self.limits, limits);
        let done = searches(self);
        self.limits = kept;
        done
    }

    /// How a search is made here: one of `searches` sharing the memory,
    /// stopped by `stop`, no progress printed.
    fn setup<'s>(&self, searches: usize, stop: &'s AtomicBool) -> Setup<'s> {
        Setup {
            side: self.side,
            limits: self.limits,
            searches,
            stop,
            progress: None,
            keep_proofs: self.keep_proofs,
        }
    }

    /// The position after `line`, the reflection of the one after `earlier`
    /// (a move from the same position), taken to have its `value`
    /// without a search (and so without a proof); printed as such.
    fn as_reflection(&self, line: &[Move], value: SideValue, earlier: Move) -> Found {
        let note = format!(", as after {}, its reflection", earlier.with_capture_mark());
        self.print(line, value, &note);
        Found {
            value,
            decided_by: None,
            below: Vec::new(),
            strategy: None,
        }
    }

    /// The moves of `line` in words, one after another.
    fn words(line: &[Move]) -> String {
        let line: Vec<String> = line
            .iter()
            .map(|mv| mv.with_capture_mark().to_string())
            .collect();
        line.join(" ")
    }

    /// Prints the value of the position after `line`.
    fn print(&self, line: &[Move], value: SideValue, note: &str) {
        outln!(
            "{:<14} {} ({:.2} s{note})",
            Self::words(line),
            describe(value, self.side),
            self.started.elapsed().as_secs_f64()
        );
    }

    /// The moves from `pos` (by index into `afters`, the positions after
    /// them, whose table keys are `keys`): first those found `decisive`
    /// before (so that a pass reading the proof goes straight to them),
    /// then the best for the side that made them, by a short engine search
    /// of each position (made once, kept in [`Splitter::scores`]); equal
    /// scores keep the moves' order. Where a move is known to decide (and
    /// no proof is read), it goes first and the others are not searched:
    /// nor are they scored.
    fn order(
        &mut self,
        pos: &Position,
        afters: &[Position],
        keys: &[u64],
        decisive: SideValue,
    ) -> Vec<usize> {
        let known_decisive = |i: usize| self.met.get(&keys[i]).is_some_and(|m| m.value == decisive);
        let first_known = (0..afters.len()).find(|&i| known_decisive(i));
        if let Some(first) = first_known.filter(|_| !self.keep_proofs) {
            let mut order: Vec<usize> = (0..afters.len()).collect();
            order.swap(0, first);
            return order;
        }
        if !self.scores.contains_key(pos) {
            let limits = Limits::nodes(ORDER_NODES);
            let scores = afters
                .iter()
                .map(|after| {
                    // Each position searched from an empty table, so that
                    // the order does not depend on what was searched before.
                    self.engine.clear();
                    -self.engine.search(after, &limits, self.stop, |_| {}).score
                })
                .collect();
            self.scores.insert(pos.clone(), scores);
        }
        let scores = &self.scores[pos];
        let mut order: Vec<usize> = (0..afters.len()).collect();
        order.sort_by_key(|&i| (!known_decisive(i), std::cmp::Reverse(scores[i])));
        order
    }
}

/// How a position's search is made (see [`side_value`]).
#[derive(Clone, Copy)]
struct Setup<'a> {
    /// The side whose win is looked for.
    side: Color,
    limits: MovesLimits,
    /// How many searches side by side share the memory equally.
    searches: usize,
    stop: &'a AtomicBool,
    /// Progress printed, with the seconds since this, when given.
    progress: Option<Instant>,
    /// Whether the proof is read.
    keep_proofs: bool,
}

/// Whether the setup's side can force a win from `start`, in the search
/// kept in `slot`, with one of its `searches` equal shares of the memory; with `keep_proofs`, the strategy
/// found (the win, or the other side's hold); and the start's proof and
/// disproof numbers where the search was stopped (see
/// [`ProofSearch::root_numbers`]).
fn side_value<'a>(
    slot: &mut Option<ProofSearch<'a>>,
    start: &Position,
    setup: Setup<'a>,
) -> (SideValue, Option<Strategy>, Option<LeafNumbers>) {
    let Setup {
        side,
        limits,
        searches,
        stop,
        progress,
        keep_proofs,
    } = setup;
    if stop.load(Ordering::Relaxed) {
        return (SideValue::Undecided, None, None);
    }
    let search = search_in(
        slot,
        start,
        side,
        limits.starting_now(searches),
        stop,
        progress,
    );
    let verdict = search.verdict();
    if verdict == Verdict::Stopped {
        // Stopped from outside, it says nothing of the position.
        let numbers = (!stop.load(Ordering::Relaxed)).then(|| search.root_numbers());
        return (SideValue::Undecided, None, numbers);
    }
    let hold_unread = search.hold_unread();
    let read = read_strategies(search, std::slice::from_ref(start), keep_proofs)
        .pop()
        .flatten();
    if verdict == Verdict::NoWinFound && read.is_none() && hold_unread {
        let (positions, limit) = limits.memory.hold_limit();
        eprintln!(
            "  no win found, but {}'s hold could not be read: its graph has more than {positions} positions ({limit}); more memory may prove it",
            !side
        );
    }
    let value = match verdict {
        Verdict::Proven => SideValue::Wins,
        _ if read.is_some() => SideValue::CannotWin,
        _ => SideValue::NoWinFound,
    };
    (value, read.filter(|_| keep_proofs), None)
}

/// A move's value for `side` in words.
fn describe(value: SideValue, side: Color) -> String {
    match value {
        SideValue::Wins => format!("{side} wins"),
        SideValue::CannotWin => format!("{side} cannot force a win ({} holds)", !side),
        SideValue::NoWinFound => format!(
            "{side} cannot force a win, as far as the search can tell ({}'s hold not proven: it did not close, or was too large to read)",
            !side
        ),
        SideValue::Undecided => "undecided (stopped)".into(),
    }
}
