//! The search: iterative deepening alpha-beta (principal variation search)
//! with a transposition table, move ordering, quiescence search over captures
//! and crossings, check extensions, and the pruning of [`Features`]; with
//! several threads, a lazy SMP search (see [`Engine`]).
//!
//! "Check" is the crossing threat: the opponent has more pieces on its goal
//! rank than the side to move has on its own, so every reply that does not
//! capture an intruder or cross as well loses at once. Check positions are
//! searched one ply deeper, never pruned, and only their captures and
//! crossings are searched (the other moves lose at once).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use epaminondas_rules::{Color, Move, MoveList, Position};

use crate::eval::{Weights, evaluate_lazy, evaluate_with};
use crate::limits::Limits;
use crate::nnue::{AccumulatorStack, EvalKind, Network};
use crate::proven::ProvenWins;
use crate::score::{INFINITY, MAX_PLY, is_proven, loss_in, to_table, win_in};
use crate::tt::{Bound, Entry, TranspositionTable};

/// Nodes between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;
/// History slots per side: 26 x 26 tail squares times 8 directions.
const HISTORY_SLOTS: usize = 26 * 26 * 8;
/// The deepest remaining depth at which futility pruning applies.
const FUTILITY_DEPTH: i32 = 4;
/// The bound of a history value (with [`Features::history_malus`]).
const HISTORY_MAX: i32 = 1 << 14;
/// History per ply of reduction with [`Features::history_lmr`]: values
/// within a game reach a few thousand (a cutoff adds depth², less as
/// the value grows).
const HISTORY_LMR_UNIT: i32 = 1024;
/// The largest step of a history value at one cutoff.
const HISTORY_STEP_MAX: i32 = 1200;
/// The shallowest remaining depth at which [`Features::iir`] reduces.
const IIR_DEPTH: i32 = 4;
/// Futility margin per ply of remaining depth, in hundredths of a piece.
const FUTILITY_MARGIN: i32 = 90;
/// Delta pruning margin in quiescence, in hundredths of a piece.
const DELTA_MARGIN: i32 = 150;
/// The deepest remaining depth at which late move pruning applies.
const LMP_DEPTH: i32 = 4;
/// Late move pruning keeps `LMP_BASE + depth² * LMP_FACTOR` quiet moves.
const LMP_BASE: i32 = 4;
/// See [`LMP_BASE`].
const LMP_FACTOR: i32 = 3;
/// How far outside the window the cheap evaluation terms must leave the
/// score for lazy evaluation to skip the costly ones. Over the `bench`
/// positions the costly terms together stay within ±260 in 99.8% of
/// quiescence nodes.
const LAZY_MARGIN: i32 = 200;

/// Progress of a search, reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo<'a> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The score for the side to move (see [`crate::score`]).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: &'a [Move],
    /// The deepest ply the iteration reached (quiescence and extensions
    /// included).
    pub seldepth: u32,
    /// Which line this is, from 1, when several are searched
    /// ([`Engine::set_multipv`]); the lines of an iteration come best first.
    pub multipv: usize,
    /// How full the transposition table is, in thousandths.
    pub hashfull: u32,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the position has no legal move.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

/// Search features that can be switched off, to measure what each is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Late move reductions: quiet moves late in the order are searched less
    /// deep first.
    pub lmr: bool,
    /// Null-move pruning: if passing still beats beta, the node is cut.
    pub null_move: bool,
    /// Aspiration windows: iterations start with a narrow window around the
    /// last score.
    pub aspiration: bool,
    /// Futility pruning: near the leaves, a node whose static evaluation is
    /// far above beta is cut, and quiet moves that cannot lift a score far
    /// below alpha are skipped.
    pub futility: bool,
    /// Late move pruning: near the leaves, quiet moves late in the order
    /// are not searched at all.
    pub late_move_pruning: bool,
    /// Lazy evaluation: in quiescence, the costly terms (mobility, captures
    /// and threats) are not counted when the cheap ones alone leave the
    /// score far outside the window.
    pub lazy_eval: bool,
    /// The evaluation weights fitted to the position's variant
    /// ([`Weights::for_variant`]); off, every variant is evaluated with the
    /// standard game's weights.
    pub variant_weights: bool,
    /// Repetitions: a position that occurred before, on the search path or
    /// in the game since its last capture ([`Engine::set_history`]), is
    /// scored as a draw, worth [`Engine::set_contempt`] less than nothing
    /// to the side the engine plays. No variant ends a game on a repeated
    /// position but Crossings (on the third), so a repetition is no draw
    /// by the rules; it marks a line that makes no progress, which a side
    /// that wants more than a draw should leave.
    pub repetition: bool,
    /// History with a malus: a cutoff raises its move's history and lowers
    /// that of the quiet moves searched before it, each step shrinking as
    /// the value nears its bound (so old statistics fade); off, a cutoff
    /// only adds to its move's history.
    pub history_malus: bool,
    /// Counter moves: the quiet move that last refuted the opponent's
    /// previous move is tried right after the killers.
    pub counter_move: bool,
    /// Late move reductions by history: quiet moves with a good history
    /// are reduced less, those with a bad one more (only with
    /// [`Features::history_malus`], which keeps the values signed and
    /// bounded).
    pub history_lmr: bool,
    /// Internal iterative reduction: a node deep enough to matter but with
    /// no move from the transposition table is searched a ply less deep.
    pub iir: bool,
    /// Proofs on small boards: on boards of at most
    /// [`crate::proven::MOST_SQUARES`] squares, a proof-number search for a
    /// forced win runs first, and a proven win is played out by its proof
    /// ([`crate::proven`]).
    pub proofs: bool,
}

impl Features {
    /// The protocol names of the features, as `setoption` takes them.
    pub const NAMES: [&'static str; 13] = [
        "LMR",
        "NullMove",
        "Aspiration",
        "Futility",
        "LMP",
        "LazyEval",
        "VariantWeights",
        "Repetition",
        "HistoryMalus",
        "CounterMove",
        "HistoryLMR",
        "IIR",
        "Proofs",
    ];

    /// The switch of the feature called `name` (case-insensitive, one of
    /// [`Features::NAMES`]).
    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name.to_ascii_lowercase().as_str() {
            "lmr" => &mut self.lmr,
            "nullmove" => &mut self.null_move,
            "aspiration" => &mut self.aspiration,
            "futility" => &mut self.futility,
            "lmp" => &mut self.late_move_pruning,
            "lazyeval" => &mut self.lazy_eval,
            "variantweights" => &mut self.variant_weights,
            "repetition" => &mut self.repetition,
            "historymalus" => &mut self.history_malus,
            "countermove" => &mut self.counter_move,
            "historylmr" => &mut self.history_lmr,
            "iir" => &mut self.iir,
            "proofs" => &mut self.proofs,
            _ => return None,
        })
    }

    /// Switches the feature called `name` (case-insensitive, one of
    /// [`Features::NAMES`]); `false` if there is no such feature.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        self.flag(name).map(|flag| *flag = on).is_some()
    }

    /// Whether the feature called `name` is on; `None` if there is no such
    /// feature.
    pub fn get(mut self, name: &str) -> Option<bool> {
        self.flag(name).map(|flag| *flag)
    }
}

impl Default for Features {
    /// All on but null move and lazy evaluation, which did not pass their
    /// time-limited tests, and reductions by history, which gained nothing
    /// at fixed nodes;
    /// docs/strength.md has the matches behind each.
    fn default() -> Self {
        Features {
            lmr: true,
            null_move: false,
            aspiration: true,
            futility: true,
            late_move_pruning: true,
            lazy_eval: false,
            variant_weights: true,
            repetition: false,
            history_malus: true,
            counter_move: true,
            history_lmr: false,
            iir: true,
            proofs: true,
        }
    }
}

/// The move-ordering memory of one search thread: history, killers and
/// counter moves.
struct ThreadMemory {
    history: Vec<i32>,
    killers: Vec<[Option<Move>; 2]>,
    /// The quiet move that last refuted a move, by the refuted move's
    /// history slot (which holds the side that played it).
    counters: Vec<Option<Move>>,
}

impl ThreadMemory {
    fn new() -> ThreadMemory {
        ThreadMemory {
            history: vec![0; 2 * HISTORY_SLOTS],
            killers: vec![[None; 2]; MAX_PLY],
            counters: vec![None; 2 * HISTORY_SLOTS],
        }
    }

    fn clear(&mut self) {
        self.history.fill(0);
        self.killers.fill([None; 2]);
        self.counters.fill(None);
    }
}

/// A searcher with its memory (transposition table, move-ordering
/// statistics), kept from search to search within a game.
///
/// With more than one thread ([`Engine::set_threads`]) the search is a
/// "lazy SMP" one: every thread searches the same position, sharing the
/// transposition table, and the main thread's result is played. Fixed-node
/// searches are deterministic only with one thread.
pub struct Engine {
    tt: TranspositionTable,
    /// One per thread, the main thread's first; never empty.
    memories: Vec<ThreadMemory>,
    /// The features in use.
    pub features: Features,
    /// How many best lines the main thread searches (1 normally).
    multipv: usize,
    /// The hashes of the game's positions before the one searched, since
    /// its last capture (see [`Features::repetition`]).
    history: Vec<u64>,
    /// What a repetition costs the side to move at the root, in hundredths
    /// of a piece (see [`Features::repetition`]).
    contempt: i32,
    /// Evaluation weights to use instead of the variant's (for trying a
    /// fit in a match without building the engine again).
    weights: Option<Weights>,
    /// The evaluation used where the network suits the position.
    eval: EvalKind,
    /// A network loaded instead of the built-in one.
    network: Option<Arc<Network>>,
    /// The transposition table's size in MiB, which also bounds a proof
    /// search's table.
    hash_mb: usize,
    /// The strategy of the last win proven ([`Features::proofs`]).
    proven: ProvenWins,
    /// The percentage of a move's budget the proof search may take
    /// (`None`: [`crate::proven::default_share`]).
    proof_share: Option<u32>,
}

impl Engine {
    /// A one-thread engine with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Engine {
        // The evaluation's tables, before the first search rather than in it.
        epaminondas_rules::build_tables();
        Engine {
            tt: TranspositionTable::new(hash_mb),
            memories: vec![ThreadMemory::new()],
            features: Features::default(),
            multipv: 1,
            history: Vec::new(),
            contempt: 0,
            weights: None,
            eval: EvalKind::default(),
            network: None,
            hash_mb,
            proven: ProvenWins::default(),
            proof_share: None,
        }
    }

    /// Sets the network `Eval nnue` uses: `None` for the one built into
    /// the program ([`Network::embedded`]), or one loaded from a file.
    pub fn set_network(&mut self, network: Option<Network>) {
        self.network = network.map(Arc::new);
    }

    /// Chooses the evaluation: the linear one, or the network built into
    /// the program ([`crate::nnue`]) on the positions it is for (the
    /// standard game on 14x12; the linear one elsewhere).
    pub fn set_eval(&mut self, eval: EvalKind) {
        self.eval = eval;
    }

    /// The evaluation chosen with [`Engine::set_eval`].
    pub fn eval(&self) -> EvalKind {
        self.eval
    }

    /// Sets the evaluation weights used in every variant instead of
    /// [`Weights::for_variant`]'s (`None`: back to those).
    pub fn set_weights(&mut self, weights: Option<Weights>) {
        self.weights = weights;
    }

    /// Sets the hashes ([`Position::zobrist_hash`]) of the game's positions
    /// before the next one searched, oldest first, since the game's last
    /// capture (earlier ones cannot recur): with [`Features::repetition`],
    /// the search scores a return to one of them as a draw.
    pub fn set_history(&mut self, hashes: Vec<u64>) {
        self.history = hashes;
    }

    /// Sets what a repetition is worth to the side the engine plays, in
    /// hundredths of a piece below a draw (see [`Features::repetition`]):
    /// with a positive contempt the engine plays on rather than repeat,
    /// unless every other move looks worse by more than that.
    pub fn set_contempt(&mut self, contempt: i32) {
        self.contempt = contempt;
    }

    /// Sets the percentage (1 to 90; values outside are clamped) of a
    /// move's nodes or time that the proof search on small boards
    /// ([`Features::proofs`]) may take before alpha-beta gets the rest;
    /// `None` for the board's default ([`crate::proven::default_share`]).
    pub fn set_proof_share(&mut self, percent: Option<u32>) {
        self.proof_share = percent.map(|p| p.clamp(1, 90));
    }

    /// Sets how many best lines a search finds (at least 1): each iteration
    /// then searches the best move, the best of the others, and so on, and
    /// reports each line. More lines cost time; the result is the first.
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// How many best lines a search finds.
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// Resizes the transposition table (and clears it).
    pub fn set_hash(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
        self.hash_mb = hash_mb;
    }

    /// Sets the number of search threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.memories.resize_with(threads.max(1), ThreadMemory::new);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.memories.len()
    }

    /// Forgets everything learned, as before a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.memories.iter_mut().for_each(ThreadMemory::clear);
        self.proven.clear();
    }

    /// Searches `pos` within `limits`, or until `stop` is set, calling
    /// `report` after each completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        mut report: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let legal = pos.legal_moves();
        let first = SearchResult {
            best: legal.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: legal.first().copied().into_iter().collect(),
        };
        if legal.is_empty() {
            let score = if pos.has_crossed() {
                win_in(0)
            } else {
                loss_in(0)
            };
            return SearchResult { score, ..first };
        }
        if self.features.proofs && self.multipv == 1 {
            let memory = self.hash_mb.saturating_mul(1 << 20);
            let share = self.proof_share;
            if let Some(found) = self.proven.find(pos, limits, share, memory, start, stop) {
                let pv = vec![found.mv];
                let score = found.score();
                report(&SearchInfo {
                    depth: 1,
                    score,
                    nodes: found.nodes,
                    elapsed: start.elapsed(),
                    pv: &pv,
                    seldepth: found.plies.min(MAX_PLY as u32),
                    multipv: 1,
                    hashfull: self.tt.hashfull(),
                });
                return SearchResult {
                    best: Some(found.mv),
                    score,
                    depth: 1,
                    nodes: found.nodes,
                    pv,
                };
            }
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(MAX_PLY as u32 - 1);
        let deadline = limits.budget().map(|b| start + b);
        // After a proof search, the iterations' pacing counts from now.
        let deepening_started = Instant::now();
        // Set when the main thread is done, to end the helpers' searches.
        let done = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let weights = match self.weights {
            Some(weights) => weights,
            None if self.features.variant_weights => Weights::for_variant(pos.variant()),
            None => Weights::default(),
        };
        let Engine {
            tt,
            memories,
            features,
            multipv,
            history,
            contempt,
            weights: _,
            eval,
            network,
            hash_mb: _,
            proven: _,
            proof_share: _,
        } = self;
        let net: Option<&Network> =
            (*eval == EvalKind::Nnue && Network::suits(pos)).then(|| match network {
                Some(loaded) => loaded,
                None => Network::embedded(),
            });
        let (main_memory, helper_memories) = memories
            .split_first_mut()
            .expect("an engine has at least one thread");
        let shared = Shared {
            tt,
            weights: &weights,
            features: *features,
            stop,
            done: &done,
            helper_nodes: &helper_nodes,
            node_limit: limits.nodes,
            deadline,
            start,
            deepening_started,
            multipv: (*multipv).min(legal.len()),
            history,
            contempt: *contempt,
            net,
        };
        let (mut result, main_nodes) = std::thread::scope(|scope| {
            for (i, memory) in helper_memories.iter_mut().enumerate() {
                let mut helper = Search::new(&shared, memory, pos, true);
                let first = first.clone();
                scope.spawn(move || {
                    // Odd helpers skip depth 1, so that the threads spread
                    // over neighbouring depths.
                    let from = 1 + (i as u32 % 2);
                    helper.deepen(first, from, max_depth, |_, _| {});
                    helper.publish_nodes();
                });
            }
            let mut main = Search::new(&shared, main_memory, pos, false);
            let result = main.deepen(first, 1, max_depth, |info, nodes| {
                report(&SearchInfo { nodes, ..*info });
            });
            done.store(true, Ordering::Relaxed);
            (result, main.nodes)
        });
        // The helpers have added all their nodes once the scope has joined them.
        result.nodes = main_nodes + helper_nodes.load(Ordering::Relaxed);
        result
    }
}

/// What the threads of one search share.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    weights: &'a Weights,
    features: Features,
    /// Set from outside to end the search.
    stop: &'a AtomicBool,
    /// Set by the main thread when it is done, to end the helpers.
    done: &'a AtomicBool,
    /// Nodes searched by the helper threads, added as they go.
    helper_nodes: &'a AtomicU64,
    node_limit: Option<u64>,
    deadline: Option<Instant>,
    /// When the move's search began (reported times count from here).
    start: Instant,
    /// When iterative deepening began, after any proof search: no
    /// iteration starts once half the time from here to the deadline is
    /// gone.
    deepening_started: Instant,
    /// Lines the main thread searches (at most the root's legal moves).
    multipv: usize,
    /// [`Engine::set_history`].
    history: &'a [u64],
    /// [`Engine::set_contempt`].
    contempt: i32,
    /// The network, when it evaluates this search's positions.
    net: Option<&'a Network>,
}

/// The state of one search thread.
struct Search<'a> {
    shared: &'a Shared<'a>,
    memory: &'a mut ThreadMemory,
    /// Whether this is a helper thread (whose nodes are published to
    /// [`Shared::helper_nodes`] and which stops when the main thread is done).
    helper: bool,
    pos: Position,
    /// A move buffer per ply.
    lists: Vec<MoveList>,
    /// Move-ordering scores per ply, parallel to `lists`.
    scores: Vec<Vec<i32>>,
    nodes: u64,
    /// Nodes already added to [`Shared::helper_nodes`].
    published: u64,
    stopped: bool,
    root_best: Option<Move>,
    /// Plies below which checks are extended: twice the iteration's depth.
    extension_limit: usize,
    /// The deepest ply reached in this iteration.
    seldepth: usize,
    /// Root moves left out of this root search (the lines found already).
    excluded: Vec<Move>,
    /// The move being searched at each ply (`None` for a null move), so
    /// that a node knows the move that led to it.
    played: Vec<Option<Move>>,
    /// The hash and piece count of each position on the search path above
    /// the node searched, the root first (kept with
    /// [`Features::repetition`] only).
    path: Vec<(u64, u32)>,
    /// The network's accumulators along the path, when it evaluates.
    accumulators: Option<AccumulatorStack<'a>>,
}

impl<'a> Search<'a> {
    fn new(
        shared: &'a Shared<'a>,
        memory: &'a mut ThreadMemory,
        pos: &Position,
        helper: bool,
    ) -> Search<'a> {
        Search {
            shared,
            memory,
            helper,
            pos: pos.clone(),
            lists: (0..MAX_PLY).map(|_| MoveList::new()).collect(),
            scores: vec![Vec::new(); MAX_PLY],
            nodes: 0,
            published: 0,
            stopped: false,
            root_best: None,
            extension_limit: 0,
            seldepth: 0,
            excluded: Vec::new(),
            played: vec![None; MAX_PLY],
            path: Vec::with_capacity(MAX_PLY),
            accumulators: shared
                .net
                .map(|net| AccumulatorStack::new(net, pos, MAX_PLY + 1)),
        }
    }

    /// Iterative deepening from depth `from` to `max_depth`, starting from
    /// the fallback result `result`; `report` gets each completed
    /// iteration and the nodes of all threads so far.
    fn deepen(
        &mut self,
        mut result: SearchResult,
        from: u32,
        max_depth: u32,
        mut report: impl FnMut(&SearchInfo, u64),
    ) -> SearchResult {
        let start = self.shared.start;
        let wanted = if self.helper { 1 } else { self.shared.multipv };
        // Each line's score at the last iteration: its aspiration guess.
        let mut guesses: Vec<i32> = Vec::new();
        'deepening: for depth in from..=max_depth {
            self.seldepth = 0;
            self.excluded.clear();
            let mut scores = Vec::with_capacity(wanted);
            for line in 0..wanted {
                let guess = guesses.get(line).copied().unwrap_or(result.score);
                if line > 0 {
                    self.root_best = None;
                }
                let score = self.root(depth as i32, guess);
                if self.stopped {
                    break 'deepening;
                }
                let best = if line == 0 {
                    self.root_best.or(result.best)
                } else {
                    self.root_best
                };
                let Some(best_move) = best else {
                    break;
                };
                let pv = self.principal_variation(best, depth as usize);
                if line == 0 {
                    result = SearchResult {
                        best,
                        score,
                        depth,
                        nodes: self.nodes,
                        pv: pv.clone(),
                    };
                }
                let all_nodes = self.nodes + self.shared.helper_nodes.load(Ordering::Relaxed);
                report(
                    &SearchInfo {
                        depth,
                        score,
                        nodes: self.nodes,
                        elapsed: start.elapsed(),
                        pv: &pv,
                        seldepth: self.seldepth as u32,
                        multipv: line + 1,
                        hashfull: if self.helper {
                            0
                        } else {
                            self.shared.tt.hashfull()
                        },
                    },
                    all_nodes,
                );
                scores.push(score);
                self.excluded.push(best_move);
            }
            // A proven result cannot change with more depth.
            let settled =
                |score: &i32| is_proven(*score) && (crate::score::WIN - score.abs()) < depth as i32;
            if scores.iter().all(settled) {
                break;
            }
            guesses = scores;
            // An iteration takes longer than all before it: do not start one
            // that cannot finish.
            if let Some(deadline) = self.shared.deadline {
                let now = Instant::now();
                let began = self.shared.deepening_started;
                if now >= deadline || now - began > deadline.saturating_duration_since(began) / 2 {
                    break;
                }
            }
        }
        self.excluded.clear();
        result
    }

    /// Adds the nodes not yet published to the helpers' count.
    fn publish_nodes(&mut self) {
        if self.helper {
            self.shared
                .helper_nodes
                .fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
    }
}

impl Search<'_> {
    /// One iteration at the root, with an aspiration window around `guess`
    /// (the last iteration's score) that widens until the score falls inside.
    fn root(&mut self, depth: i32, guess: i32) -> i32 {
        self.extension_limit = 2 * depth as usize + 2;
        if !self.shared.features.aspiration || depth < 4 || is_proven(guess) {
            return self.negamax(depth, -INFINITY, INFINITY, 0);
        }
        let mut window = 40;
        loop {
            let (alpha, beta) = (guess - window, guess + window);
            let score = self.negamax(depth, alpha, beta, 0);
            if self.stopped || (score > alpha && score < beta) {
                return score;
            }
            if window > 1000 {
                return self.negamax(depth, -INFINITY, INFINITY, 0);
            }
            window *= 4;
        }
    }

    /// Counts a node and says whether the search must stop.
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        let shared = self.shared;
        let out_of_nodes = shared.node_limit.is_some_and(|limit| self.nodes > limit);
        // The clock and the stop flags are looked at every CHECK_INTERVAL nodes.
        let told_to_stop = self.nodes % CHECK_INTERVAL == 0 && {
            self.publish_nodes();
            shared.stop.load(Ordering::Relaxed)
                || (self.helper && shared.done.load(Ordering::Relaxed))
                || shared.deadline.is_some_and(|d| Instant::now() >= d)
        };
        if out_of_nodes || told_to_stop {
            self.stopped = true;
        }
        self.stopped
    }

    fn evaluate(&mut self) -> i32 {
        match &mut self.accumulators {
            Some(stack) => {
                let score = stack.evaluate(&self.pos);
                // In test builds, every 64th node checks the updated
                // accumulator against one computed afresh.
                if cfg!(debug_assertions) && self.nodes % 64 == 0 {
                    assert_eq!(score, stack.net().evaluate_position(&self.pos));
                }
                score
            }
            None => evaluate_with(&self.pos, self.shared.weights),
        }
    }

    /// Plays `mv` on the search's position (and notes it for the network).
    #[inline]
    fn make(&mut self, mv: Move) {
        if let Some(stack) = &mut self.accumulators {
            stack.push(Some(mv));
        }
        self.pos.play_unchecked(mv);
    }

    /// Takes back `mv`, the last move made.
    #[inline]
    fn unmake(&mut self, mv: Move) {
        if let Some(stack) = &mut self.accumulators {
            stack.pop();
        }
        self.pos.undo_unchecked(mv);
    }

    fn history_slot(color: Color, mv: Move) -> usize {
        let tail = mv.tail();
        color.index() * HISTORY_SLOTS
            + (usize::from(tail.rank()) * 26 + usize::from(tail.file())) * 8
            + mv.direction().index()
    }

    /// Whether `mv` puts a piece on the mover's goal rank.
    fn crosses(&self, mv: Move) -> bool {
        mv.reaches_rank(self.pos.goal_rank(self.pos.turn()))
    }

    /// Orders `list` by likely strength: the hash move, captures (more
    /// pieces first), crossings, killer moves, then by history.
    fn score_moves(
        &self,
        ply: usize,
        tt_move: Option<Move>,
        scores: &mut Vec<i32>,
        list: &MoveList,
    ) {
        let turn = self.pos.turn();
        let counter = self.counter_move(ply);
        scores.clear();
        scores.extend(list.iter().map(|&mv| {
            if Some(mv) == tt_move {
                1 << 30
            } else if mv.is_capture() {
                (1 << 28) + 1000 * i32::from(mv.captures()) - i32::from(mv.group_size())
            } else if self.crosses(mv) {
                1 << 27
            } else if self.memory.killers[ply].contains(&Some(mv)) {
                1 << 26
            } else if counter == Some(mv) {
                1 << 25
            } else {
                self.memory.history[Self::history_slot(turn, mv)]
            }
        }));
    }

    /// The counter move to the move that led to the node at `ply`
    /// ([`Features::counter_move`]).
    fn counter_move(&self, ply: usize) -> Option<Move> {
        if !self.shared.features.counter_move || ply == 0 {
            return None;
        }
        let previous = self.played[ply - 1]?;
        self.memory.counters[Self::history_slot(!self.pos.turn(), previous)]
    }

    /// Adds `bonus` (negative for a malus) to a history value, in steps
    /// that shrink as the value nears [`HISTORY_MAX`].
    fn age_history(entry: &mut i32, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_STEP_MAX, HISTORY_STEP_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Notes that the quiet move `mv` caused a cutoff at `ply` with
    /// `depth` plies left, after the quiet moves `tried` failed there.
    fn reward_quiet(&mut self, mv: Move, tried: &[Option<Move>], depth: i32, ply: usize) {
        let turn = self.pos.turn();
        let killers = &mut self.memory.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let features = self.shared.features;
        if features.counter_move && ply > 0 {
            if let Some(previous) = self.played[ply - 1] {
                self.memory.counters[Self::history_slot(!turn, previous)] = Some(mv);
            }
        }
        let bonus = depth * depth;
        let slot = Self::history_slot(turn, mv);
        if !features.history_malus {
            let entry = &mut self.memory.history[slot];
            *entry = (*entry + bonus).min(1 << 20);
            return;
        }
        Self::age_history(&mut self.memory.history[slot], bonus);
        for &failed in tried.iter().flatten() {
            let slot = Self::history_slot(turn, failed);
            Self::age_history(&mut self.memory.history[slot], -bonus);
        }
    }

    /// The replies to check that do not lose at once: in check only a
    /// capture (of an intruder) or a crossing can keep the game going, since
    /// after any other move the opponent starts its turn ahead on the goal
    /// ranks. Fills `list` with the captures and crossings, or, when there
    /// are none, returns the score: lost on the opponent's turn, or now when
    /// there is no legal move at all.
    fn check_replies_into(&self, list: &mut MoveList, ply: usize) -> Option<i32> {
        self.pos.tactical_moves_into(list);
        if !list.is_empty() {
            None
        } else if self.pos.count_legal_moves() == 0 {
            Some(loss_in(ply))
        } else {
            Some(loss_in(ply + 1))
        }
    }

    /// Moves the best-scored of the moves from `from` on to `from`.
    fn pick(list: &mut MoveList, scores: &mut [i32], from: usize) {
        let moves = list.as_mut_slice();
        let mut best = from;
        for i in from + 1..moves.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        moves.swap(from, best);
        scores.swap(from, best);
    }

    /// Puts move `i` in place (picked one step ahead, except the first),
    /// and picks move `i + 1` already (the order does not change while the
    /// moves are searched) to start fetching the table slot of the position
    /// after it, so that the child's probe finds it in the cache.
    fn pick_and_prefetch_next(&mut self, list: &mut MoveList, scores: &mut [i32], i: usize) {
        if i == 0 {
            Self::pick(list, scores, 0);
            self.shared.tt.prefetch(self.pos.zobrist_after(list[0]));
        }
        if i + 1 < list.len() {
            Self::pick(list, scores, i + 1);
            self.shared.tt.prefetch(self.pos.zobrist_after(list[i + 1]));
        }
    }

    /// The score of a node settled before any search: the search has
    /// stopped (0, discarded), the side to move has crossed, or the ply limit
    /// is reached. Every node counts, settled ones too, so node limits bound
    /// the work.
    fn decided(&mut self, ply: usize) -> Option<i32> {
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            Some(0)
        } else if self.pos.has_crossed() {
            Some(win_in(ply))
        } else if ply >= MAX_PLY - 1 {
            Some(self.evaluate())
        } else {
            None
        }
    }

    /// The score of the position after `ply` plies, searched `depth` plies
    /// deep within the window; with [`Features::repetition`] a position
    /// seen before scores as a draw ([`Search::repetition_score`]).
    fn negamax(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.shared.features.repetition {
            return self.negamax_node(depth, alpha, beta, ply);
        }
        let key = self.pos.zobrist_hash();
        let pieces = self.pos.count(Color::White) + self.pos.count(Color::Black);
        if ply > 0 && self.repeats(key, pieces) {
            return self.repetition_score(ply);
        }
        self.path.push((key, pieces));
        let score = self.negamax_node(depth, alpha, beta, ply);
        self.path.pop();
        score
    }

    /// Whether the position with `key` and `pieces` pieces occurred before,
    /// on the path or in the game. A capture cannot be undone, so the look
    /// back ends where the number of pieces changes.
    fn repeats(&self, key: u64, pieces: u32) -> bool {
        for &(earlier, count) in self.path.iter().rev() {
            if count != pieces {
                return false;
            }
            if earlier == key {
                return true;
            }
        }
        self.shared.history.contains(&key)
    }

    /// A repetition's score for the side to move `ply` plies below the
    /// root: a draw, less the contempt for the root's side, plus it for
    /// the other.
    fn repetition_score(&self, ply: usize) -> i32 {
        if ply % 2 == 0 {
            -self.shared.contempt
        } else {
            self.shared.contempt
        }
    }

    fn negamax_node(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(score) = self.decided(ply) {
            return score;
        }
        let in_check = self.pos.in_check();
        // Checks are extended, but only so far: when both sides keep
        // answering crossings with crossings the depth would never fall.
        let extend = in_check && ply < self.extension_limit;
        let depth = if extend { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply);
        }
        let key = self.pos.zobrist_hash();
        let pv_node = beta - alpha > 1;
        let mut tt_move = None;
        if let Some(entry) = self.shared.tt.probe(key) {
            tt_move = entry.best.filter(|&mv| self.pos.is_legal(mv));
            if entry.depth >= depth && !pv_node && ply > 0 {
                if let Some(score) = entry.cutoff(ply, alpha, beta) {
                    return score;
                }
            }
        }

        let features = self.shared.features;
        // No move from the table: this node was not searched before, or
        // not deep enough to matter; a ply less finds a move sooner.
        let depth = if features.iir && depth >= IIR_DEPTH && tt_move.is_none() && !in_check {
            depth - 1
        } else {
            depth
        };
        let prunable = !pv_node && !in_check && ply > 0;
        // The static evaluation, for the pruning decisions below; not
        // counted where none of them can be taken (it is then never read).
        let pruning =
            (features.futility && depth <= FUTILITY_DEPTH) || (features.null_move && depth >= 3);
        let static_eval = if prunable && pruning {
            self.evaluate()
        } else {
            -INFINITY
        };

        // Reverse futility: so far above beta near the leaves that the
        // opponent cannot come back in the plies left.
        if features.futility
            && prunable
            && depth <= FUTILITY_DEPTH
            && !is_proven(beta)
            && static_eval - FUTILITY_MARGIN * depth >= beta
        {
            return static_eval;
        }

        // Null move: if passing (depth reduced) still scores at least beta,
        // a real move will too. Not when in check, where passing loses, nor
        // near proven scores.
        if features.null_move && prunable && depth >= 3 && !is_proven(beta) && static_eval >= beta {
            let reduction = 2 + depth / 4;
            if let Some(stack) = &mut self.accumulators {
                stack.push(None);
            }
            self.played[ply] = None;
            self.pos.pass_unchecked();
            let score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1);
            self.pos.pass_unchecked();
            if let Some(stack) = &mut self.accumulators {
                stack.pop();
            }
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return beta;
            }
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        let no_moves = if in_check && ply > 0 {
            self.check_replies_into(&mut list, ply)
        } else {
            self.pos.legal_moves_into(&mut list);
            list.is_empty().then(|| loss_in(ply))
        };
        if let Some(score) = no_moves {
            self.lists[ply] = list;
            return score;
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.score_moves(ply, tt_move, &mut scores, &list);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // Near the leaves, quiet moves are skipped when the static
        // evaluation is hopelessly below alpha, or once this many have been
        // searched.
        let futile = features.futility
            && prunable
            && depth <= FUTILITY_DEPTH
            && !is_proven(alpha)
            && static_eval + FUTILITY_MARGIN * (depth + 1) <= alpha;
        let quiet_limit = if features.late_move_pruning && prunable && depth <= LMP_DEPTH {
            LMP_BASE + depth * depth * LMP_FACTOR
        } else {
            i32::MAX
        };
        let mut quiets = 0;
        let mut searched = 0;
        // The quiet moves searched without a cutoff (the first of them:
        // enough for the history's malus).
        let mut tried = [None::<Move>; 32];
        let mut tried_count = 0;
        for i in 0..list.len() {
            self.pick_and_prefetch_next(&mut list, &mut scores, i);
            let mv = list[i];
            // Root moves whose lines were found already (several lines).
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            // No capture, no crossing: a move the history and killers keep.
            // Quiet: such a move that is not the hash move nor a killer.
            let quiet_move = !mv.is_capture() && !self.crosses(mv);
            let quiet = quiet_move && scores[i] < 1 << 26;
            if quiet {
                // The moves come best-scored first and every other kind
                // scores above the quiet ones, so the rest are quiet too
                // and would all be skipped.
                if best > -INFINITY && (futile || quiets >= quiet_limit) {
                    break;
                }
                quiets += 1;
            }
            self.played[ply] = Some(mv);
            self.make(mv);
            // Late quiet moves are first searched less deep.
            let reduction = if features.lmr && quiet && !in_check && depth >= 3 && i >= 3 {
                let r = 1.0 + (depth as f64).ln() * (i as f64).ln() / 2.5;
                // A move with a good history is reduced less, one with a
                // bad history more (up to two plies either way); killers
                // and counter moves score above any history.
                let by_history =
                    if features.history_lmr && features.history_malus && scores[i] < 1 << 25 {
                        (scores[i] / HISTORY_LMR_UNIT).clamp(-2, 2)
                    } else {
                        0
                    };
                ((r as i32) - by_history).clamp(0, depth - 2)
            } else {
                0
            };
            let score = if searched == 0 {
                -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut probe = -self.negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if reduction > 0 && probe > alpha {
                    probe = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if probe > alpha && probe < beta {
                    -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            self.unmake(mv);
            searched += 1;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if ply == 0 {
                    self.root_best = Some(mv);
                }
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if quiet_move {
                    self.reward_quiet(mv, &tried[..tried_count], depth, ply);
                }
                break;
            }
            if quiet_move && tried_count < tried.len() {
                tried[tried_count] = Some(mv);
                tried_count += 1;
            }
        }
        self.lists[ply] = list;
        self.scores[ply] = scores;
        if self.stopped {
            return 0;
        }
        // A root searched without some of its moves is not the position's
        // value: it is not stored.
        if ply > 0 || self.excluded.is_empty() {
            self.store(key, best_move, best, depth, ply, original_alpha, beta);
        }
        best
    }

    /// Stores a node's result in the transposition table, with the bound
    /// its window gives it.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: u64,
        best_move: Option<Move>,
        best: i32,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) {
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.shared.tt.store(Entry {
            key,
            best: best_move,
            score: to_table(best, ply),
            depth,
            bound,
        });
    }

    /// Searches captures and crossings only (every move when in check) until
    /// the position is quiet, standing on the evaluation otherwise.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(score) = self.decided(ply) {
            return score;
        }
        // Past the extension limit a check is treated as quiet, so that
        // quiescence ends.
        let in_check = self.pos.in_check() && ply < self.extension_limit;
        let key = self.pos.zobrist_hash();
        let mut tt_move = None;
        if let Some(entry) = self.shared.tt.probe(key) {
            if let Some(score) = entry.cutoff(ply, alpha, beta) {
                return score;
            }
            tt_move = entry.best.filter(|&mv| self.pos.is_legal(mv));
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        if !in_check {
            let stand = if self.shared.features.lazy_eval && self.accumulators.is_none() {
                evaluate_lazy(&self.pos, self.shared.weights, alpha, beta, LAZY_MARGIN)
            } else {
                self.evaluate()
            };
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        // Only captures and crossings, which are also the only answers to a
        // check. (Without tactical moves the evaluation stands, even in the
        // rare quiet position without any legal move; the main search scores
        // those exactly.)
        let mut list = std::mem::take(&mut self.lists[ply]);
        if in_check {
            if let Some(score) = self.check_replies_into(&mut list, ply) {
                self.lists[ply] = list;
                return score;
            }
        } else {
            self.pos.tactical_moves_into(&mut list);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.score_moves(ply, tt_move, &mut scores, &list);
        for i in 0..list.len() {
            self.pick_and_prefetch_next(&mut list, &mut scores, i);
            let mv = list[i];
            // Delta pruning: a capture that cannot lift the score to alpha
            // even with a margin is not tried. Crossings are always tried.
            if !in_check
                && !self.crosses(mv)
                && best
                    + DELTA_MARGIN
                    + self.shared.weights.capture_gain() * i32::from(mv.captures())
                    <= alpha
            {
                continue;
            }
            self.make(mv);
            let score = -self.quiesce(-beta, -alpha, ply + 1);
            self.unmake(mv);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.lists[ply] = list;
        self.scores[ply] = scores;
        if self.stopped {
            return 0;
        }
        self.store(key, best_move, best, 0, ply, original_alpha, beta);
        best
    }

    /// The expected line from the root: `first`, then the stored best moves.
    fn principal_variation(&self, first: Option<Move>, max_len: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut pos = self.pos.clone();
        let mut next = first;
        while let Some(mv) = next {
            if pv.len() >= max_len.max(1) || !pos.is_legal(mv) {
                break;
            }
            pos.play_unchecked(mv);
            pv.push(mv);
            next = self
                .shared
                .tt
                .probe(pos.zobrist_hash())
                .and_then(|e| e.best);
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_values_stay_within_their_bound() {
        let mut value = 0;
        for _ in 0..10_000 {
            Search::age_history(&mut value, 40 * 40);
            assert!(value <= HISTORY_MAX, "{value}");
        }
        // Near the bound a bonus hardly moves it, a malus moves it a lot.
        assert!(value > HISTORY_MAX * 9 / 10, "{value}");
        let before = value;
        Search::age_history(&mut value, 1);
        assert!(value - before <= 1);
        Search::age_history(&mut value, -HISTORY_STEP_MAX);
        assert!(before - value > HISTORY_STEP_MAX, "{before} -> {value}");
        for _ in 0..10_000 {
            Search::age_history(&mut value, -(40 * 40));
            assert!(value >= -HISTORY_MAX, "{value}");
        }
        assert!(value < -HISTORY_MAX * 9 / 10, "{value}");
    }
}
