//! The players of a match: engines speaking UGI in their own processes, and
//! two built-in baselines.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use epaminondas_engine::score::WIN;
use epaminondas_rules::{Move, Position};

/// How much time or work a player gets for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// A fixed number of search nodes per move (deterministic).
    Nodes(u64),
    /// A fixed time per move.
    MoveTime(Duration),
    /// Game clocks: time for the whole game plus an increment per move.
    Clock {
        /// Each side's starting time.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

/// Both sides' remaining clock time, White first, in a game with clocks.
pub type Clocks = [Duration; 2];

/// A move chosen, with the player's own score for it if it reported one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// The player's score for the side to move, in the engine's units.
    pub score: Option<i32>,
}

/// Why a player failed to produce a move.
#[derive(Debug)]
pub enum PlayerError {
    /// The engine process could not be started or talked to.
    Io(String),
    /// The engine did not answer in time.
    Timeout(String),
    /// The engine answered something that is not a legal move.
    IllegalMove(String),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Io(e) => write!(f, "engine failure: {e}"),
            PlayerError::Timeout(what) => write!(f, "no answer in time to {what}"),
            PlayerError::IllegalMove(text) => write!(f, "illegal move '{text}'"),
        }
    }
}

impl std::error::Error for PlayerError {}

/// Something that chooses moves.
pub trait Player: Send {
    /// A short name for tables and records.
    fn name(&self) -> &str;

    /// Gets ready for a game from `start`.
    fn new_game(&mut self, start: &Position) -> Result<(), PlayerError> {
        let _ = start;
        Ok(())
    }

    /// Chooses a move in `pos`, reached from `start` by `moves`.
    fn choose(
        &mut self,
        start: &Position,
        moves: &[Move],
        pos: &Position,
        limit: MoveLimit,
        clocks: Clocks,
    ) -> Result<Choice, PlayerError>;
}

/// A small seeded generator (xorshift), enough for choosing moves.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `bound` (which must not be 0).
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(
        &mut self,
        _: &Position,
        _: &[Move],
        pos: &Position,
        _: MoveLimit,
        _: Clocks,
    ) -> Result<Choice, PlayerError> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Err(PlayerError::IllegalMove("(no legal move)".to_owned()));
        }
        let mv = moves[self.rng.below(moves.len())];
        Ok(Choice { mv, score: None })
    }
}

/// Plays the move with the best one-ply gain: a win if there is one, then
/// material, then crossings, at random among equals; it never looks at the
/// opponent's reply.
pub struct GreedyPlayer {
    rng: Rng,
}

impl GreedyPlayer {
    /// A greedy player from `seed` (for breaking ties).
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: Rng::new(seed),
        }
    }

    /// The value of the position after a move, for the side that made it.
    fn value(after: &Position) -> i32 {
        let mover = !after.turn();
        if after.has_crossed() {
            return -WIN;
        }
        if after.legal_moves().is_empty() {
            return WIN;
        }
        let material = after.count(mover) as i32 - after.count(!mover) as i32;
        let crossed = after.goal_count(mover) as i32 - after.goal_count(!mover) as i32;
        100 * material + 50 * crossed
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(
        &mut self,
        _: &Position,
        _: &[Move],
        pos: &Position,
        _: MoveLimit,
        _: Clocks,
    ) -> Result<Choice, PlayerError> {
        let mut best: Vec<Move> = Vec::new();
        let mut best_value = i32::MIN;
        let mut after = pos.clone();
        for &mv in &pos.legal_moves() {
            after.play_unchecked(mv);
            let value = Self::value(&after);
            after.undo_unchecked(mv);
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value == best_value {
                best.push(mv);
            }
        }
        let Some(&mv) = best.get(self.rng.below(best.len().max(1))) else {
            return Err(PlayerError::IllegalMove("(no legal move)".to_owned()));
        };
        Ok(Choice {
            mv,
            score: Some(best_value),
        })
    }
}

/// An engine in its own process, spoken to in UGI.
pub struct UgiPlayer {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    ready: bool,
}

/// How long an engine may take to start or to answer `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Time an engine may exceed its move budget before it forfeits.
const GRACE: Duration = Duration::from_secs(5);

impl UgiPlayer {
    /// Starts `command` (run by `sh -c`) as an engine named `name`.
    pub fn start(name: &str, command: &str) -> Result<UgiPlayer, PlayerError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| PlayerError::Io(format!("cannot start '{command}': {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| PlayerError::Io("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| PlayerError::Io("no stdout".into()))?;
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(UgiPlayer {
            name: name.to_owned(),
            child,
            stdin,
            lines,
            ready: false,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| PlayerError::Io(format!("{}: {e}", self.name)))
    }

    /// Reads lines until one starts with `prefix`; returns it and the lines before.
    fn expect(
        &mut self,
        prefix: &str,
        within: Duration,
    ) -> Result<(String, Vec<String>), PlayerError> {
        let deadline = Instant::now() + within;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok((line, before)),
                Ok(line) => before.push(line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(PlayerError::Timeout(format!(
                        "{}: waiting for {prefix}",
                        self.name
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PlayerError::Io(format!("{} exited", self.name)));
                }
            }
        }
    }

    /// The score of the last `info ... score ...` line among `lines`.
    fn last_score(lines: &[String]) -> Option<i32> {
        lines.iter().rev().find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "score")?;
            let value: i32 = words.get(at + 2)?.parse().ok()?;
            match *words.get(at + 1)? {
                "cp" => Some(value),
                "win" => Some(WIN - value),
                "loss" => Some(-WIN + value),
                _ => None,
            }
        })
    }
}

impl Player for UgiPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &Position) -> Result<(), PlayerError> {
        if !self.ready {
            self.send("ugi")?;
            self.expect("ugiok", HANDSHAKE)?;
            self.ready = true;
        }
        self.send(&format!("setoption name Board value {}", start.size()))?;
        self.send(&format!(
            "setoption name Symmetry value {}",
            start.symmetry()
        ))?;
        self.send("uginewgame")?;
        self.send("isready")?;
        self.expect("readyok", HANDSHAKE)?;
        Ok(())
    }

    fn choose(
        &mut self,
        start: &Position,
        moves: &[Move],
        pos: &Position,
        limit: MoveLimit,
        clocks: Clocks,
    ) -> Result<Choice, PlayerError> {
        let history: Vec<String> = moves.iter().map(ToString::to_string).collect();
        let mut position = format!("position fen {start}");
        if !history.is_empty() {
            position += &format!(" moves {}", history.join(" "));
        }
        self.send(&position)?;
        let (go, budget) = match limit {
            MoveLimit::Nodes(n) => (format!("go nodes {n}"), Duration::from_secs(60)),
            MoveLimit::MoveTime(t) => (format!("go movetime {}", t.as_millis()), t),
            MoveLimit::Clock { increment, .. } => (
                format!(
                    "go p1time {} p2time {} p1inc {} p2inc {}",
                    clocks[0].as_millis(),
                    clocks[1].as_millis(),
                    increment.as_millis(),
                    increment.as_millis()
                ),
                clocks[pos.turn().index()],
            ),
        };
        self.send(&go)?;
        let (line, before) = self.expect("bestmove", budget + GRACE)?;
        let text = line.trim_start_matches("bestmove").trim();
        let mv = pos
            .parse_move(text)
            .map_err(|_| PlayerError::IllegalMove(text.to_owned()))?;
        Ok(Choice {
            mv,
            score: Self::last_score(&before),
        })
    }
}

impl Drop for UgiPlayer {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
