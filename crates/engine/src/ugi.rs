//! The UGI protocol: the engine's text interface, modelled on chess's UCI.
//!
//! The engine reads one command per line and answers on its output:
//!
//! | command | answer |
//! | --- | --- |
//! | `ugi` | `id name ...`, `id author ...`, `option ...` lines, `ugiok` |
//! | `isready` | `readyok` (at once, even while searching) |
//! | `uginewgame` | forgets the last game (transposition table, statistics) |
//! | `setoption name NAME value VALUE` | `Hash` (MiB), `Threads` (search threads, lazy SMP), `Board` (`FxR`), `Symmetry` (`mirror`, `file`, `off`), `Variant` (`epaminondas`, `crossings`, `abanondas`, `stumbling-blocks`; the board stays as set), `Level` (1-10, see [`crate::level`]), `MultiPV` (1-64 best lines, each reported as `multipv K`), search features `LMR`, `NullMove`, `Aspiration`, `Futility`, `LMP`, `LazyEval`, `VariantWeights` (the variant's own evaluation weights), `Repetition` (a repeated position scores as a draw), `HistoryMalus`, `CounterMove`, `HistoryLMR`, `IIR` (move ordering, reductions by history, internal iterative reduction) and `Proofs` (a proof-number search first on boards of up to 36 squares, see [`crate::proven`]) (`true`/`false`, see [`crate::search::Features`]), `Contempt` (-1000 to 1000 hundredths of a piece: what a repetition costs the engine's side), `ProofShare` (1-90: the percentage of a move's nodes or time the proof search of `Proofs` may take; 0, the default: 50 on boards of up to 25 squares, 10 on larger ones), `Weights` (14 weights of the linear evaluation as `tune` prints them, used in every variant, on 14x12 only with `Eval linear`; `default` for the variant's own), `Eval` (`nnue`, the default: the network, on the standard 14x12 game, the linear evaluation elsewhere; or `linear`; see [`crate::nnue`]), `EvalFile` (a net file `epaminondas train` wrote, used instead of the built-in net; `embedded` goes back), `OwnBook` (`true`, the default: play from the opening book while the position is in it, see below), `BookFile` (a book file `epaminondas book` wrote, used instead of the built-in books; `embedded` goes back) |
//! | `position startpos [moves M...]` | the start of the `Board` size |
//! | `position fen TEXT [moves M...]` | position text, e.g. `4/4/4/4 w` |
//! | `go [p1time MS] [p2time MS] [p1inc MS] [p2inc MS] [movetime MS] [depth N] [nodes N] [infinite]` | `info depth D seldepth SD multipv K score S nodes N nps R hashfull H time MS pv M...` per iteration (and line), then `bestmove M` (`bestmove none` without legal moves) |
//! | `stop` | ends the search (its `bestmove` follows) |
//! | `query gameover` / `query p1turn` / `query result` | `response true`/`false`; `response p1win`/`p2win`/`none` |
//! | `perft N` | `perft D COUNT` for each depth |
//! | `bench` | a fixed search workload: `bench nodes N time MS nps R standard-nodes N standard-nps R` (the last two for its 14x12 positions, where `Eval nnue` applies) |
//! | `d` | the board, drawn |
//! | `eval` | the static evaluation term by term, for the side to move, and the network's on 14x12 |
//! | `quit` | ends the program |
//!
//! With `OwnBook` on, a `go` with a clock or `movetime` in a position of
//! the book (see [`crate::book`]; the built-in books cover the standard
//! game on 14x12 and 8x8) is answered at once with a book move, chosen at
//! random by the book's weights, after `info string book move M`. `go
//! depth`, `go nodes`, `go infinite` and `MultiPV` above 1 always search:
//! they ask for a search, not for a move in a game.
//!
//! Player 1 is White and moves first. Scores are `cp N` (hundredths of a
//! piece), `win N` or `loss N` (the game ends in N plies). Moves are in
//! canonical notation; any accepted notation is read. An unknown command,
//! or a malformed position, move or option, is answered with
//! `info string error ...` and changes nothing.
//!
//! While a search runs, `stop`, `isready` and `quit` are answered at once;
//! every other command waits until the search has ended, in the order sent
//! (so a `position` and `go` sent during a search are queued, not lost).

use std::io::{BufRead, Read, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use epaminondas_rules::{BoardSize, Color, Move, Position, Symmetry, Variant};

use crate::book::{Book, BookRandom};
use crate::eval::Weights;
use crate::level::Level;
use crate::limits::{Clock, Limits};
use crate::nnue::{EvalKind, NET_BYTES, Network};
use crate::score;
use crate::search::{Engine, Features};

/// The most search threads `setoption name Threads` accepts.
const MAX_THREADS: usize = 256;

/// The most lines `setoption name MultiPV` accepts.
const MAX_MULTIPV: usize = 64;

/// The transposition table size when none is set, in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

/// Writes one line to the shared output, ignoring a closed output (there is
/// nobody left to tell).
fn say<W: Write>(out: &Mutex<W>, line: &str) {
    let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// A running search.
struct Running {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it writes `bestmove`, so that a
    /// command that follows the `bestmove` always finds the search over.
    done: Arc<AtomicBool>,
    thread: JoinHandle<()>,
    /// Whether it has no limit of its own.
    infinite: bool,
}

/// The protocol's state between commands.
pub struct Ugi<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    engine: Arc<Mutex<Engine>>,
    board: BoardSize,
    symmetry: Symmetry,
    variant: Variant,
    level: Level,
    position: Position,
    /// The hashes of the positions before `position` since the game's last
    /// capture, oldest first, for the search's repetition check.
    history: Vec<u64>,
    running: Option<Running>,
    /// Whether `go` plays from the opening book (`OwnBook`).
    own_book: bool,
    /// A book file loaded with `BookFile`, used instead of the built-in ones.
    book_file: Option<Arc<Book>>,
    /// The state of the random choice among book moves.
    book_random: BookRandom,
}

/// The most bytes `BookFile` reads: far above any useful book, far below
/// what would strain memory.
pub const MAX_BOOK_BYTES: u64 = 64 << 20;

impl<W: Write + Send + 'static> Ugi<W> {
    /// A protocol session writing to `out`.
    pub fn new(out: W) -> Ugi<W> {
        // The built-in opening books are read once per process (about a
        // tenth of a second): meanwhile, not in the first move's time.
        std::thread::spawn(|| Book::embedded(&Position::standard()));
        Ugi {
            out: Arc::new(Mutex::new(out)),
            engine: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH_MB))),
            board: BoardSize::STANDARD,
            symmetry: Symmetry::Mirror,
            variant: Variant::Epaminondas,
            level: Level::MAX,
            position: Position::standard(),
            history: Vec::new(),
            running: None,
            own_book: true,
            book_file: None,
            book_random: BookRandom::from_time(),
        }
    }

    /// Reads and answers commands until `quit` or the end of the input.
    ///
    /// While a search runs, `stop`, `isready` and `quit` are answered at
    /// once; any other command waits, in order, until the search has ended
    /// (as UCI engines queue a `position` or `go` sent during a search). At
    /// the end of the input the waiting commands still run and a search
    /// with limits is allowed to finish (so that piped commands work); an
    /// infinite one is stopped, and `quit` stops everything.
    pub fn run(mut self, input: impl BufRead + Send + 'static) {
        let (sender, lines) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in input.lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut waiting: std::collections::VecDeque<String> = std::collections::VecDeque::new();
        let mut input_open = true;
        loop {
            while !self.searching() {
                let Some(line) = waiting.pop_front() else {
                    break;
                };
                if !self.command(&line) {
                    return self.finish_search();
                }
            }
            if !input_open {
                match &self.running {
                    // Only a search with limits is left to wait for.
                    Some(running) if !running.infinite && !waiting.is_empty() => {
                        std::thread::sleep(Duration::from_millis(1));
                        continue;
                    }
                    Some(running) if !running.infinite => {
                        if let Some(running) = self.running.take() {
                            let _ = running.thread.join();
                        }
                    }
                    _ => self.finish_search(),
                }
                if waiting.is_empty() {
                    return;
                }
                continue;
            }
            // Poll while commands wait for the search, else block on input.
            let next = if waiting.is_empty() {
                lines.recv().map_err(|_| ())
            } else {
                match lines.recv_timeout(Duration::from_millis(1)) {
                    Ok(line) => Ok(line),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(()),
                }
            };
            let Ok(line) = next else {
                input_open = false;
                continue;
            };
            let first = line.split_whitespace().next().unwrap_or("");
            let at_once = matches!(first, "stop" | "isready" | "quit");
            if at_once && (self.searching() || !waiting.is_empty()) {
                if !self.command(&line) {
                    return self.finish_search();
                }
            } else {
                waiting.push_back(line);
            }
        }
    }

    /// Whether a search is still running (a finished one is collected).
    fn searching(&mut self) -> bool {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.done.load(Ordering::Acquire) || r.thread.is_finished())
        {
            self.finish_search();
        }
        self.running.is_some()
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn error(&self, message: &str) {
        self.say(&format!("info string error {message}"));
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            let _ = running.thread.join();
        }
    }

    /// Answers one command; false when the session ends.
    pub fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, args)) = words.split_first() else {
            return true;
        };
        // A finished search is collected before anything else.
        self.searching();
        match name {
            "ugi" => {
                self.say(concat!("id name Epaminondas ", env!("CARGO_PKG_VERSION")));
                self.say("id author the Epaminondas project");
                self.say("option name Hash type spin default 64 min 1 max 65536");
                self.say(&format!(
                    "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
                ));
                self.say("option name Board type string default 14x12");
                self.say(
                    "option name Symmetry type combo default mirror var mirror var file var off",
                );
                self.say(&format!(
                    "option name Variant type combo default epaminondas{}",
                    Variant::ALL.map(|v| format!(" var {v}")).concat()
                ));
                self.say("option name Level type spin default 10 min 1 max 10");
                self.say(&format!(
                    "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
                ));
                self.say("option name Contempt type spin default 0 min -1000 max 1000");
                self.say("option name ProofShare type spin default 0 min 0 max 90");
                self.say("option name Weights type string default default");
                self.say("option name Eval type combo default nnue var nnue var linear");
                self.say("option name EvalFile type string default embedded");
                self.say("option name OwnBook type check default true");
                self.say("option name BookFile type string default embedded");
                let defaults = Features::default();
                for feature in Features::NAMES {
                    let on = defaults.get(feature).unwrap_or(false);
                    self.say(&format!("option name {feature} type check default {on}"));
                }
                self.say("ugiok");
            }
            "isready" => self.say("readyok"),
            "uginewgame" => {
                self.finish_search();
                self.lock_engine().clear();
                self.position = self.start();
                self.history.clear();
            }
            "setoption" => {
                if let Err(message) = self.set_option(args) {
                    self.error(&message);
                }
            }
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.finish_search(),
            "query" => self.query(args),
            "perft" => self.perft(args),
            "bench" => {
                self.finish_search();
                let report = bench(&mut self.lock_engine());
                self.say(&report);
            }
            "d" => self.say(&diagram(&self.position)),
            "eval" => self.say(&eval_table(&self.position)),
            "quit" => return false,
            _ => self.error(&format!(
                "unknown command '{}' (known: ugi, isready, uginewgame, setoption, position, go, stop, query, perft, bench, d, eval, quit)",
                epaminondas_rules::excerpt(name)
            )),
        }
        true
    }

    fn lock_engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        // setoption name NAME value VALUE
        let (Some(&"name"), Some(value_at)) =
            (args.first(), args.iter().position(|&w| w == "value"))
        else {
            return Err("setoption needs 'name NAME value VALUE'".to_owned());
        };
        self.set(
            &args[1..value_at].join(" "),
            &args[value_at + 1..].join(" "),
        )
    }

    /// Sets option `name` to `value`, as `setoption` does; the error says
    /// what is wrong, and nothing changes then.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        fn parse<T: FromStr>(value: &str) -> Option<T> {
            value.parse().ok()
        }
        if self.searching() {
            return Err("options cannot change during a search".to_owned());
        }
        match name.to_ascii_lowercase().as_str() {
            "hash" => match parse::<usize>(value).filter(|mb| (1..=65536).contains(mb)) {
                Some(mb) => self.lock_engine().set_hash(mb),
                None => return Err(format!("Hash must be 1 to 65536 MiB, not '{value}'")),
            },
            "threads" => match parse::<usize>(value).filter(|n| (1..=MAX_THREADS).contains(n)) {
                Some(threads) => self.lock_engine().set_threads(threads),
                None => {
                    return Err(format!("Threads must be 1 to {MAX_THREADS}, not '{value}'"));
                }
            },
            "board" => {
                let size = value.parse::<BoardSize>().map_err(|e| e.to_string())?;
                self.position = Position::new_variant(self.variant, size, self.symmetry)
                    .map_err(|e| e.to_string())?;
                self.history.clear();
                self.board = size;
            }
            "variant" => {
                let variant = value.parse::<Variant>().map_err(|e| e.to_string())?;
                self.position = Position::new_variant(variant, self.board, self.symmetry)
                    .map_err(|e| e.to_string())?;
                self.history.clear();
                self.variant = variant;
            }
            "symmetry" => {
                let symmetry = value.parse::<Symmetry>().map_err(|e| e.to_string())?;
                self.symmetry = symmetry;
                self.position = self.position.with_symmetry(symmetry);
            }
            "multipv" => match parse::<usize>(value).filter(|n| (1..=MAX_MULTIPV).contains(n)) {
                Some(lines) => self.lock_engine().set_multipv(lines),
                None => {
                    return Err(format!("MultiPV must be 1 to {MAX_MULTIPV}, not '{value}'"));
                }
            },
            "contempt" => match parse::<i32>(value).filter(|c| (-1000..=1000).contains(c)) {
                Some(contempt) => self.lock_engine().set_contempt(contempt),
                None => return Err(format!("Contempt must be -1000 to 1000, not '{value}'")),
            },
            "proofshare" => match parse::<u32>(value).filter(|p| *p <= 90) {
                Some(0) => self.lock_engine().set_proof_share(None),
                Some(percent) => self.lock_engine().set_proof_share(Some(percent)),
                None => {
                    return Err(format!(
                        "ProofShare must be 0 (by board size) or 1 to 90, not '{value}'"
                    ));
                }
            },
            "weights" if value == "default" => self.lock_engine().set_weights(None),
            "weights" => {
                let weights = Weights::parse(value).map_err(|e| format!("Weights: {e}"))?;
                self.lock_engine().set_weights(Some(weights));
            }
            "eval" => {
                let eval = value
                    .parse::<EvalKind>()
                    .map_err(|e| format!("Eval: {e}"))?;
                self.lock_engine().set_eval(eval);
            }
            "evalfile" if value == "embedded" => self.lock_engine().set_network(None),
            "evalfile" => {
                // A net file has a fixed length: read no more than one byte
                // past it, so that a wrong path (a device, a huge file)
                // is refused instead of filling memory.
                let mut bytes = Vec::new();
                std::fs::File::open(value)
                    .and_then(|file| file.take(NET_BYTES as u64 + 1).read_to_end(&mut bytes))
                    .map_err(|e| format!("EvalFile: cannot read {value}: {e}"))?;
                let net = Network::parse(&bytes).map_err(|e| format!("EvalFile: {value}: {e}"))?;
                self.lock_engine().set_network(Some(net));
            }
            "ownbook" => match value {
                "true" | "false" => self.own_book = value == "true",
                _ => return Err(format!("OwnBook must be true or false, not '{value}'")),
            },
            "bookfile" if value == "embedded" => self.book_file = None,
            "bookfile" => {
                let mut text = String::new();
                std::fs::File::open(value)
                    .and_then(|file| file.take(MAX_BOOK_BYTES + 1).read_to_string(&mut text))
                    .map_err(|e| format!("BookFile: cannot read {value}: {e}"))?;
                if text.len() as u64 > MAX_BOOK_BYTES {
                    return Err(format!(
                        "BookFile: {value} is larger than {} MiB",
                        MAX_BOOK_BYTES >> 20
                    ));
                }
                let book = Book::parse(&text).map_err(|e| format!("BookFile: {value}: {e}"))?;
                self.book_file = Some(Arc::new(book));
            }
            "level" => match parse::<u8>(value).and_then(Level::new) {
                Some(level) => self.level = level,
                None => return Err(format!("Level must be 1 to 10, not '{value}'")),
            },
            feature
                if Features::NAMES
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(feature)) =>
            {
                match value {
                    "true" | "false" => {
                        self.lock_engine().features.set(feature, value == "true");
                    }
                    _ => return Err(format!("{name} must be true or false, not '{value}'")),
                }
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }

    /// The start of the game the options name (they were checked when set).
    fn start(&self) -> Position {
        Position::new_variant(self.variant, self.board, self.symmetry)
            .unwrap_or_else(|_| Position::new(self.board, self.symmetry))
    }

    fn set_position(&mut self, args: &[&str]) {
        let moves_at = args
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(args.len());
        let mut pos = match args.first() {
            Some(&"startpos") if moves_at == 1 => self.start(),
            Some(&"fen") => match args[1..moves_at].join(" ").parse::<Position>() {
                Ok(pos) => match pos.with_symmetry(self.symmetry).with_variant(self.variant) {
                    Ok(pos) => pos,
                    Err(e) => return self.error(&format!("bad position: {e}")),
                },
                Err(e) => return self.error(&format!("bad position: {e}")),
            },
            _ => return self.error("position needs 'startpos' or 'fen TEXT', then 'moves ...'"),
        };
        let mut history = Vec::new();
        for text in args.iter().skip(moves_at + 1) {
            match pos.parse_move(text) {
                Ok(mv) => {
                    // A capture (or a stone placed) is never undone: the
                    // positions before it cannot recur.
                    if mv.is_capture() || mv.is_placement() {
                        history.clear();
                    } else {
                        history.push(pos.zobrist_hash());
                    }
                    pos.play_unchecked(mv);
                }
                Err(e) => return self.error(&format!("bad move: {e}")),
            }
        }
        self.position = pos;
        self.history = history;
    }

    fn go(&mut self, args: &[&str]) {
        if self.running.is_some() {
            return self.error("already searching: send stop first");
        }
        let mut limits = Limits::default();
        let (mut times, mut incs) = ([None, None], [Duration::ZERO; 2]);
        let mut words = args.iter();
        while let Some(&word) = words.next() {
            if word == "infinite" {
                continue;
            }
            let Some(value) = words.next().and_then(|v| v.parse::<u64>().ok()) else {
                return self.error(&format!("go {word} needs a number"));
            };
            let ms = Duration::from_millis(value);
            match word {
                "p1time" => times[0] = Some(ms),
                "p2time" => times[1] = Some(ms),
                "p1inc" => incs[0] = ms,
                "p2inc" => incs[1] = ms,
                "movetime" => limits.movetime = Some(ms),
                "depth" => limits.depth = Some(value.min(u64::from(u32::MAX)) as u32),
                "nodes" => limits.nodes = Some(value),
                _ => return self.error(&format!("unknown go parameter '{word}'")),
            }
        }
        let plays_a_game = (limits.movetime.is_some() || times.iter().any(Option::is_some))
            && limits.depth.is_none()
            && limits.nodes.is_none();
        if plays_a_game && let Some(mv) = self.book_move() {
            self.say(&format!("info string book move {mv}"));
            let mv = self.level.choose(&self.position, Some(mv)).unwrap_or(mv);
            return self.say(&format!("bestmove {mv}"));
        }
        if let Some(cap) = self.level.node_cap() {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        let level = self.level;
        let side = usize::from(self.position.turn() == Color::Black);
        limits.clock = times[side].map(|remaining| Clock {
            remaining,
            increment: incs[side],
        });
        let infinite = limits == Limits::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (engine, out, pos, history) = (
            Arc::clone(&self.engine),
            Arc::clone(&self.out),
            self.position.clone(),
            self.history.clone(),
        );
        let flag = Arc::clone(&stop);
        let done = Arc::new(AtomicBool::new(false));
        let finished = Arc::clone(&done);
        let thread = std::thread::spawn(move || {
            let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
            engine.set_history(history);
            let result = engine.search(&pos, &limits, &flag, |info| {
                let ms = info.elapsed.as_millis().max(1);
                let nps = u128::from(info.nodes) * 1000 / ms;
                let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
                say(
                    &out,
                    &format!(
                        "info depth {} seldepth {} multipv {} score {} nodes {} nps {nps} hashfull {} time {ms} pv {}",
                        info.depth,
                        info.seldepth,
                        info.multipv,
                        score::format(info.score),
                        info.nodes,
                        info.hashfull,
                        pv.join(" ")
                    ),
                );
            });
            drop(engine);
            finished.store(true, Ordering::Release);
            match level.choose(&pos, result.best) {
                Some(mv) => say(&out, &format!("bestmove {mv}")),
                None => say(&out, "bestmove none"),
            }
        });
        self.running = Some(Running {
            stop,
            done,
            thread,
            infinite,
        });
    }

    /// A move of the opening book for the current position, when
    /// `OwnBook` is on, one line is asked for and the position is in the
    /// book (`BookFile`'s, else the built-in one of its game).
    fn book_move(&mut self) -> Option<Move> {
        if !self.own_book || self.lock_engine().multipv() > 1 {
            return None;
        }
        let book = match &self.book_file {
            Some(book) => book.as_ref(),
            None => Book::embedded(&self.position)?,
        };
        book.choose(&self.position, self.book_random.next_u64())
    }

    fn query(&self, args: &[&str]) {
        let outcome = self.position.outcome();
        match args.first() {
            Some(&"gameover") => self.say(&format!("response {}", outcome.is_some())),
            Some(&"p1turn") => self.say(&format!(
                "response {}",
                self.position.turn() == Color::White
            )),
            Some(&"result") => self.say(match outcome.map(|o| o.winner) {
                Some(Color::White) => "response p1win",
                Some(Color::Black) => "response p2win",
                None => "response none",
            }),
            _ => self.error("query needs gameover, p1turn or result"),
        }
    }

    fn perft(&self, args: &[&str]) {
        match args
            .first()
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|d| (1..=20).contains(d))
        {
            Some(depth) => {
                for d in 1..=depth {
                    self.say(&format!("perft {d} {}", self.position.perft(d)));
                }
            }
            None => self.error("perft needs a depth from 1 to 20"),
        }
    }
}

/// The positions of [`bench()`]: the standard start, a crowded opening, an 8x8
/// middle game and the 6x5 seeds/004 position.
const BENCH_POSITIONS: [&str; 4] = [
    "bbbbbbbbbbbbbb/bbbbbbbbbbbbbb/14/14/14/14/14/14/14/14/wwwwwwwwwwwwww/wwwwwwwwwwwwww w",
    "bbbbbbbbbbbbbb/bbbb1bbbbbbbbb/5b8/14/14/14/14/14/7w6/14/wwwwwww1wwwwww/wwwwwwwwwwwwww b",
    "bb1bbbbb/b1bb1b1b/2b1w3/1bwwb3/3ww1b1/1w1w4/ww1wwww1/w1wwwwww b",
    "bbb3/2b3/4w1/1wb1w1/w3w1 w",
];
/// The depth of [`bench()`].
const BENCH_DEPTH: u32 = 8;

/// Searches a fixed set of positions to a fixed depth with a fresh engine:
/// the node count changes only when the search does. The line ends with
/// the same figures for the 14x12 positions alone (`standard-nodes`,
/// `standard-nps`), the board where `Eval nnue` uses the network.
pub fn bench(engine: &mut Engine) -> String {
    let start = Instant::now();
    let mut nodes = 0;
    let mut standard = (0, Duration::ZERO);
    let stop = AtomicBool::new(false);
    for text in BENCH_POSITIONS {
        let pos: Position = text.parse().expect("bench positions are valid");
        let begun = Instant::now();
        engine.clear();
        let searched = engine
            .search(&pos, &Limits::depth(BENCH_DEPTH), &stop, |_| {})
            .nodes;
        nodes += searched;
        if pos.size() == BoardSize::STANDARD {
            standard.0 += searched;
            standard.1 += begun.elapsed();
        }
    }
    let per_second =
        |nodes: u64, time: Duration| u128::from(nodes) * 1000 / time.as_millis().max(1);
    format!(
        "bench nodes {nodes} time {} nps {} standard-nodes {} standard-nps {}",
        start.elapsed().as_millis().max(1),
        per_second(nodes, start.elapsed()),
        standard.0,
        per_second(standard.0, standard.1)
    )
}

/// The static evaluation of `pos` term by term (`eval`): each term's count
/// for the side to move, its weight and what it adds, then the total.
pub fn eval_table(pos: &Position) -> String {
    use crate::eval::{TERM_LIST, WEIGHT_UNIT, Weights, evaluate, features};
    let weights = Weights::for_variant(pos.variant());
    let counts = features(pos, None);
    let mut text = format!(
        "{:<9} {:>6} {:>7} {:>8}\n",
        "term", "count", "weight", "adds"
    );
    for ((term, count), weight) in TERM_LIST.iter().zip(counts).zip(weights.values) {
        let adds = f64::from(count * weight) / f64::from(WEIGHT_UNIT);
        text += &format!(
            "{:<9} {count:>6} {:>7.2} {adds:>8.2}  {}\n",
            term.name,
            f64::from(weight) / f64::from(WEIGHT_UNIT),
            term.meaning
        );
    }
    text += &format!(
        "total {} for {} to move (cp; {:.0}% expected score)",
        evaluate(pos),
        pos.turn(),
        100.0 * crate::eval::win_probability(evaluate(pos))
    );
    if Network::suits(pos) {
        let score = Network::embedded().evaluate_position(pos);
        text += &format!(
            "\nnnue {score} for {} to move (cp; {:.0}% expected score; the network's, \
             used with setoption name Eval value nnue)",
            pos.turn(),
            100.0 * crate::eval::win_probability(score)
        );
    }
    text
}

/// The board as text: the top rank first, `w` and `b` for pieces.
pub fn diagram(pos: &Position) -> String {
    let size = pos.size();
    let mut text = String::new();
    for rank in (0..size.ranks()).rev() {
        text += &format!("{:>3} ", rank + 1);
        for file in 0..size.files() {
            let square = epaminondas_rules::Square::new(file, rank).expect("on a 26x26 board");
            text.push(match pos.piece_at(square) {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '.',
            });
            text.push(' ');
        }
        text.push('\n');
    }
    text += "    ";
    for file in 0..size.files() {
        text.push(char::from(b'a' + file));
        text.push(' ');
    }
    text += &format!("\nposition {}\n{} to move", pos, pos.turn());
    text
}
