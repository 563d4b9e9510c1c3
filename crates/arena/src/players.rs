//! The players of a match: engines speaking UGI in their own processes, and
//! two built-in baselines.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, PoisonError};
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// The engine process could not be started, ended, or could not be
    /// written to; the text says why (the exit status, its last words on
    /// standard error).
    Died(String),
    /// The engine did not answer the protocol's handshake (`ugiok`,
    /// `readyok`) in time, or refused an option.
    Unresponsive(String),
    /// The engine did not move in time: it loses the game on time.
    Timeout(String),
    /// The engine answered something that is not a legal move: it loses
    /// the game.
    IllegalMove(String),
}

impl PlayerError {
    /// Whether the engine itself is broken, so that the match cannot go
    /// on (as opposed to a game lost on time or by an illegal move).
    pub fn is_fault(&self) -> bool {
        matches!(self, PlayerError::Died(_) | PlayerError::Unresponsive(_))
    }
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Died(why) | PlayerError::Unresponsive(why) => f.write_str(why),
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
    /// The last lines the engine wrote to standard error, for the reason
    /// when it fails.
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// The name the engine gave in its handshake (`id name ...`).
    id_name: Option<String>,
}

/// How long an engine may take to start or to answer `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Time an engine may exceed its move budget before it forfeits.
const GRACE: Duration = Duration::from_secs(5);
/// How many lines of an engine's standard error are kept.
const STDERR_LINES: usize = 5;

impl UgiPlayer {
    /// Starts `command` (run by `sh -c`) as an engine named `name` and
    /// completes the handshake: `ugi` answered by `ugiok`, then each of
    /// `options` set (each must be one the engine offers) and `isready`
    /// answered. On Unix the engine gets its own process group, so that a
    /// Ctrl-C meant for the match runner does not kill it.
    pub fn start(
        name: &str,
        command: &str,
        options: &[(String, String)],
    ) -> Result<UgiPlayer, PlayerError> {
        let mut process = Command::new("sh");
        process
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut process, 0);
        let mut child = process
            .spawn()
            .map_err(|e| PlayerError::Died(format!("cannot run sh -c: {e}")))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(PlayerError::Died("its pipes could not be opened".into()));
        };
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let mut player = UgiPlayer {
            name: name.to_owned(),
            child,
            stdin,
            lines,
            stderr_tail,
            id_name: None,
        };
        player.handshake(options)?;
        Ok(player)
    }

    /// The name the engine gave itself, if it did.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    fn handshake(&mut self, options: &[(String, String)]) -> Result<(), PlayerError> {
        self.send("ugi")?;
        let (_, before) = self.expect("ugiok", HANDSHAKE)?;
        self.id_name = before
            .iter()
            .find_map(|l| l.strip_prefix("id name "))
            .map(|n| n.trim().to_owned());
        let offered: Vec<String> = before
            .iter()
            .filter_map(|l| l.strip_prefix("option name "))
            .filter_map(|rest| rest.split(" type ").next())
            .map(|n| n.trim().to_owned())
            .collect();
        for (option, value) in options {
            if !offered.iter().any(|o| o.eq_ignore_ascii_case(option)) {
                return Err(PlayerError::Unresponsive(format!(
                    "it has no option '{option}' (it offers: {})",
                    offered.join(", ")
                )));
            }
            self.send(&format!("setoption name {option} value {value}"))?;
        }
        self.send("isready")?;
        let (_, before) = self.expect("readyok", HANDSHAKE)?;
        if let Some(error) = before.iter().find(|l| l.starts_with("info string error")) {
            return Err(PlayerError::Unresponsive(format!(
                "it refused an option: {}",
                error.trim_start_matches("info string error").trim()
            )));
        }
        Ok(())
    }

    /// Why the engine can no longer be used: how its process ended (waiting
    /// a moment for it) and the last thing it wrote to standard error.
    fn gone(&mut self) -> PlayerError {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => break None,
            }
        };
        // The stderr reader may still be taking the last lines in.
        std::thread::sleep(Duration::from_millis(20));
        let said = self
            .stderr_tail
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .back()
            .cloned();
        let how = match status.and_then(|s| s.code()) {
            Some(127) => "command not found (exit status 127)".to_owned(),
            Some(126) => "command cannot be run (exit status 126)".to_owned(),
            Some(code) => format!("it exited with status {code}"),
            None => match status {
                Some(status) => format!("it was ended: {status}"),
                None => "it closed its output".to_owned(),
            },
        };
        PlayerError::Died(match said {
            Some(said) => format!("{how}; it said: {said}"),
            None => how,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|_| self.gone())
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
                Err(RecvTimeoutError::Timeout) if prefix == "bestmove" => {
                    return Err(PlayerError::Timeout(format!(
                        "{}: waiting for {prefix}",
                        self.name
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(PlayerError::Unresponsive(format!(
                        "no '{prefix}' within {} s",
                        within.as_secs()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone()),
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
        if !start.variant().is_standard() {
            // Set first, so that the board set next is checked against it.
            self.send(&format!("setoption name Variant value {}", start.variant()))?;
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
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
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
