//! Proof files: a solver's claim written out as a strategy, and a checker
//! that needs nothing but the rules.
//!
//! Two claims can be proven. "White wins" from a position: the file holds
//! White's strategy, the move White plays in every position White can meet
//! on the way (White to move, not yet won), and every line of play that
//! follows it must end in White's win. "Black holds" (White cannot force a
//! win): the file holds Black's strategy, and no line of play that follows
//! it may end in White's win; lines that go on for ever are allowed, as the
//! rules have no draw. A position where neither side can force a win is
//! proven by two "holds" claims. The checker replays the strategy against
//! every move the rules allow the other side, so trusting a proof means
//! trusting this module and the move generator, not the search that found
//! it.
//!
//! The format is text, one item a line:
//!
//! ```text
//! epaminondas-proof 1
//! variant epaminondas
//! symmetry mirror
//! start bbbb/4/4/wwww w
//! wins black
//! steps 2
//! bbbb/4/4/wwww b a4-a3
//! ...
//! ```
//!
//! The six header lines come in this order; the fifth is `wins COLOR` or
//! `holds COLOR`, and `steps` is the number of step lines that follow. A
//! step line is a position's text (the side to move, always the claim's
//! player, included) then, after the last space, that player's move there
//! in canonical notation. Lines starting with `#` are comments. A file may
//! hold several proofs one after the other, each from its own first line.
//! A `wins` proof is accepted when, from `start`, every line of play that
//! follows the steps ends in the winner's win (the winner starting a turn
//! crossed, or the loser without a move) and none goes round in a loop (a
//! strategy that only avoids losing does not win). A `holds` proof is
//! accepted when no line of play that follows the steps reaches the other
//! side's win.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Write};

use crate::{Color, Move, Position, Setup, Symmetry, Variant};

/// The first line of every proof file.
pub const MAGIC: &str = "epaminondas-proof 1";

/// What a proof file claims, from its header.
#[derive(Clone, Debug)]
pub struct ProofHeader {
    /// The game the proof is played under.
    pub variant: Variant,
    /// The position the win is claimed from (its variant and symmetry
    /// option included).
    pub start: Position,
    /// What is claimed.
    pub claim: Claim,
    /// The number of step lines.
    pub steps: u64,
}

impl ProofHeader {
    /// Writes the header lines.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{MAGIC}")?;
        writeln!(out, "variant {}", self.variant)?;
        writeln!(out, "symmetry {}", self.start.symmetry())?;
        writeln!(out, "start {}", self.start)?;
        writeln!(out, "{}", self.claim)?;
        writeln!(out, "steps {}", self.steps)
    }
}

/// What a proof file claims about its start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This player can force a win; the steps are the player's winning
    /// strategy.
    Wins(Color),
    /// This player can stop the other from ever winning; the steps are the
    /// player's holding strategy.
    Holds(Color),
}

impl Claim {
    /// The player whose moves the steps give.
    pub fn player(self) -> Color {
        match self {
            Claim::Wins(color) | Claim::Holds(color) => color,
        }
    }
}

impl fmt::Display for Claim {
    /// The header line: `wins white`, `holds black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Claim::Wins(color) => write!(f, "wins {color}"),
            Claim::Holds(color) => write!(f, "holds {color}"),
        }
    }
}

/// Writes one step line: the claim's player's move in a position (given
/// as a [`Position`] or as its text).
pub fn write_step(
    out: &mut impl Write,
    pos: &(impl fmt::Display + ?Sized),
    mv: Move,
) -> io::Result<()> {
    writeln!(out, "{pos} {mv}")
}

/// A proof that was checked: what it proves and how big it is.
#[derive(Clone, Debug)]
pub struct CheckedProof {
    /// The header the proof was checked against.
    pub header: ProofHeader,
    /// Distinct positions of the claim's player that the check went through.
    pub positions: u64,
    /// Step lines never reached from the start (allowed, but dead weight).
    pub unused_steps: u64,
}

/// Why a proof file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofError {
    /// The text breaks the format (line numbers count from 1).
    Format {
        /// The line where it went wrong.
        line: usize,
        /// What was expected there.
        what: String,
    },
    /// The same position has two step lines.
    DuplicateStep {
        /// The position.
        position: String,
        /// The second line.
        line: usize,
    },
    /// A position the defence can reach has no step line.
    MissingStep {
        /// The position.
        position: String,
    },
    /// A step's move is not legal in its position.
    IllegalStep {
        /// The step's line.
        line: usize,
        /// Why the rules refuse it.
        reason: String,
    },
    /// After a step's move, the other side has already won.
    DefenderWins {
        /// The step's line.
        line: usize,
    },
    /// Under a `holds` claim, play following the steps reaches a position
    /// the other side has won.
    AttackerWins {
        /// The position.
        position: String,
    },
    /// Play following the steps can come back to a position: the strategy
    /// may never win.
    Loop {
        /// A position on the loop.
        position: String,
    },
    /// The start position is already decided the other way.
    WrongWinner {
        /// The claimed winner.
        winner: Color,
    },
    /// The file holds no proof.
    Empty,
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::Format { line, what } => write!(f, "line {line}: expected {what}"),
            ProofError::DuplicateStep { position, line } => {
                write!(f, "line {line}: a second step for position {position}")
            }
            ProofError::MissingStep { position } => write!(
                f,
                "no step for position {position}, which the defence can reach"
            ),
            ProofError::IllegalStep { line, reason } => write!(f, "line {line}: {reason}"),
            ProofError::DefenderWins { line } => write!(
                f,
                "line {line}: after this move the other side has won (it leaves the other side crossed)"
            ),
            ProofError::AttackerWins { position } => write!(
                f,
                "play following the steps reaches position {position}, which the other side has won"
            ),
            ProofError::Empty => write!(f, "the file holds no proof"),
            ProofError::Loop { position } => write!(
                f,
                "play following the steps can return to position {position}, so the strategy may never win"
            ),
            ProofError::WrongWinner { winner } => write!(
                f,
                "the proof does not show a win for {winner}: the start is already lost for {winner}"
            ),
        }
    }
}

impl std::error::Error for ProofError {}

fn format_error(line: usize, what: &str) -> ProofError {
    ProofError::Format {
        line,
        what: what.to_owned(),
    }
}

/// Reads the header lines, skipping comments; returns the header and the
/// remaining numbered lines.
fn read_header<'t>(
    lines: &mut impl Iterator<Item = (usize, &'t str)>,
) -> Result<ProofHeader, ProofError> {
    let mut next = |key: &str| -> Result<(usize, &'t str), ProofError> {
        let (number, line) = lines
            .next()
            .ok_or_else(|| format_error(0, &format!("a '{key}' line before the end")))?;
        match key {
            "" if line == MAGIC => Ok((number, line)),
            "" => Err(format_error(
                number,
                &format!("'{MAGIC}' as the first line"),
            )),
            _ => line
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix(' '))
                .map(|rest| (number, rest.trim()))
                .ok_or_else(|| format_error(number, &format!("'{key} ...'"))),
        }
    };
    next("")?;
    let (number, text) = next("variant")?;
    let variant: Variant = text
        .parse()
        .map_err(|e| format_error(number, &format!("a variant ({e})")))?;
    let (number, text) = next("symmetry")?;
    let symmetry: Symmetry = text
        .parse()
        .map_err(|e| format_error(number, &format!("a symmetry option ({e})")))?;
    let (number, text) = next("start")?;
    let setup: Setup = text
        .parse()
        .map_err(|e| format_error(number, &format!("a position ({e})")))?;
    let start = Position::from_setup_in(variant, &setup, symmetry)
        .map_err(|e| format_error(number, &format!("a valid position ({e})")))?;
    let (number, line) = lines
        .next()
        .ok_or_else(|| format_error(0, "a 'wins ...' or 'holds ...' line before the end"))?;
    let (kind, color) = line
        .split_once(' ')
        .ok_or_else(|| format_error(number, "'wins COLOR' or 'holds COLOR'"))?;
    let color: Color = color
        .trim()
        .parse()
        .map_err(|e| format_error(number, &format!("white or black ({e})")))?;
    let claim = match kind {
        "wins" => Claim::Wins(color),
        "holds" => Claim::Holds(color),
        _ => return Err(format_error(number, "'wins COLOR' or 'holds COLOR'")),
    };
    let mut next = |key: &str| -> Result<(usize, &'t str), ProofError> {
        let (number, line) = lines
            .next()
            .ok_or_else(|| format_error(0, &format!("a '{key}' line before the end")))?;
        line.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
            .map(|rest| (number, rest.trim()))
            .ok_or_else(|| format_error(number, &format!("'{key} ...'")))
    };
    let (number, text) = next("steps")?;
    let steps: u64 = text
        .parse()
        .map_err(|_| format_error(number, "a number of steps"))?;
    Ok(ProofHeader {
        variant,
        start,
        claim,
        steps,
    })
}

/// One step line of a proof file, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepLine<'t> {
    /// The line's number, counting from 1.
    pub line: usize,
    /// The position's text (the claim's player to move).
    pub position: &'t str,
    /// The player's move there, as written.
    pub mv: &'t str,
}

/// One proof of a file as written: its header and its step lines in the
/// file's order. Read by [`read`], which checks the format only; what the
/// steps prove is [`check`]'s to say.
#[derive(Clone, Debug)]
pub struct ProofText<'t> {
    /// The proof's header.
    pub header: ProofHeader,
    /// Its step lines.
    pub steps: Vec<StepLine<'t>>,
}

/// Reads a proof file's text into its proofs, in order, checking the
/// format (the headers, the step lines' shape and number) but not the
/// strategy: for a program that takes proofs apart or joins them, after
/// [`check`] has accepted them.
pub fn read(text: &str) -> Result<Vec<ProofText<'_>>, ProofError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim_end()))
        .filter(|(_, line)| !line.starts_with('#') && !line.is_empty())
        .peekable();
    let mut proofs = Vec::new();
    while lines.peek().is_some() {
        let header = read_header(&mut lines)?;
        let mut steps = Vec::new();
        while let Some(&(number, line)) = lines.peek() {
            if line == MAGIC {
                break;
            }
            lines.next();
            let (position, mv) = line
                .rsplit_once(' ')
                .filter(|(position, _)| position.contains(' '))
                .ok_or_else(|| format_error(number, "a position's text, a space and a move"))?;
            steps.push(StepLine {
                line: number,
                position,
                mv,
            });
        }
        if steps.len() as u64 != header.steps {
            return Err(format_error(
                0,
                &format!(
                    "{} step lines, as the header says, not {}",
                    header.steps,
                    steps.len()
                ),
            ));
        }
        proofs.push(ProofText { header, steps });
    }
    if proofs.is_empty() {
        return Err(ProofError::Empty);
    }
    Ok(proofs)
}

/// Checks a proof file's text with the rules alone: every proof in it, in
/// order.
pub fn check(text: &str) -> Result<Vec<CheckedProof>, ProofError> {
    let mut checked = Vec::new();
    for ProofText {
        header,
        steps: lines,
    } in read(text)?
    {
        // Position text -> (line, move text).
        let mut steps: Steps<'_> = HashMap::with_capacity(lines.len());
        for step in lines {
            if steps.insert(step.position, (step.line, step.mv)).is_some() {
                return Err(ProofError::DuplicateStep {
                    position: crate::excerpt(step.position),
                    line: step.line,
                });
            }
        }
        let positions = match header.claim {
            Claim::Wins(winner) => check_win(&header.start, winner, &steps)?,
            Claim::Holds(holder) => check_hold(&header.start, holder, &steps)?,
        };
        checked.push(CheckedProof {
            positions,
            unused_steps: header.steps - positions,
            header,
        });
    }
    Ok(checked)
}

/// Position text -> (line, move text) of a proof's steps.
type Steps<'t> = HashMap<&'t str, (usize, &'t str)>;

/// Plays the step for `pos` (the step's player to move); returns the step's
/// line.
fn play_step(pos: &mut Position, key: &str, steps: &Steps<'_>) -> Result<usize, ProofError> {
    let &(number, text) = steps.get(key).ok_or_else(|| ProofError::MissingStep {
        position: crate::excerpt(key),
    })?;
    let mv = pos.parse_move(text).map_err(|e| ProofError::IllegalStep {
        line: number,
        reason: e.to_string(),
    })?;
    pos.play_unchecked(mv);
    Ok(number)
}

/// Pushes the position after each legal move of `pos`.
fn push_replies(pos: &mut Position, stack: &mut Vec<Position>) {
    for reply in pos.legal_moves().iter().rev() {
        pos.play_unchecked(*reply);
        stack.push(pos.clone());
        pos.undo_unchecked(*reply);
    }
}

/// Checks a `wins` proof; returns the number of the winner's positions
/// gone through.
fn check_win(start: &Position, winner: Color, steps: &Steps<'_>) -> Result<u64, ProofError> {
    if start.turn() != winner && start.is_terminal() {
        return Err(ProofError::WrongWinner { winner });
    }
    // Depth-first through the winner's positions, with explicit frames; a
    // position met again while still open is on a loop.
    enum Frame {
        Enter(Position),
        Leave(String),
    }
    #[derive(PartialEq)]
    enum State {
        Open,
        Done,
    }
    let mut states: HashMap<String, State> = HashMap::new();
    let mut stack = Vec::new();
    let mut first = start.clone();
    if first.turn() == winner {
        stack.push(Frame::Enter(first));
    } else {
        let mut after = Vec::new();
        push_replies(&mut first, &mut after);
        stack.extend(after.into_iter().map(Frame::Enter));
    }
    let mut used = 0u64;
    while let Some(frame) = stack.pop() {
        let mut pos = match frame {
            Frame::Leave(key) => {
                states.insert(key, State::Done);
                continue;
            }
            Frame::Enter(pos) => pos,
        };
        if pos.has_crossed() {
            continue;
        }
        let key = pos.to_string();
        match states.get(&key) {
            Some(State::Done) => continue,
            Some(State::Open) => {
                return Err(ProofError::Loop {
                    position: crate::excerpt(&key),
                });
            }
            None => {}
        }
        used += 1;
        let number = play_step(&mut pos, &key, steps)?;
        if pos.has_crossed() {
            return Err(ProofError::DefenderWins { line: number });
        }
        states.insert(key.clone(), State::Open);
        stack.push(Frame::Leave(key));
        let mut after = Vec::new();
        push_replies(&mut pos, &mut after);
        stack.extend(after.into_iter().map(Frame::Enter));
    }
    Ok(used)
}

/// Checks a `holds` proof; returns the number of the holder's positions
/// gone through. Loops are allowed: what matters is that no line of play
/// reaches the other side's win.
fn check_hold(start: &Position, holder: Color, steps: &Steps<'_>) -> Result<u64, ProofError> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![start.clone()];
    let mut used = 0u64;
    while let Some(mut pos) = stack.pop() {
        let holder_to_move = pos.turn() == holder;
        if pos.has_crossed() {
            if holder_to_move {
                continue;
            }
            return Err(ProofError::AttackerWins {
                position: crate::excerpt(&pos.to_string()),
            });
        }
        let key = pos.to_string();
        if !seen.insert(key.clone()) {
            continue;
        }
        if holder_to_move {
            // The holder must have a move: one without loses.
            used += 1;
            play_step(&mut pos, &key, steps)?;
            stack.push(pos);
        } else {
            // The other side without a move has lost: nothing to push.
            push_replies(&mut pos, &mut stack);
        }
    }
    Ok(used)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A proof of White's win in `4/b3/w3/w3 w` (take the last piece),
    /// with the header's winner and steps filled in.
    fn proof(start: &str, claim: &str, steps: &[&str]) -> String {
        let mut text = format!(
            "{MAGIC}\nvariant epaminondas\nsymmetry mirror\nstart {start}\n{claim}\nsteps {}\n",
            steps.len()
        );
        for step in steps {
            text.push_str(step);
            text.push('\n');
        }
        text
    }

    #[test]
    fn a_one_move_win_is_accepted() {
        let checked = check(&proof(
            "4/b3/w3/w3 w",
            "wins white",
            &["4/b3/w3/w3 w a1,a2-a3"],
        ))
        .unwrap();
        assert_eq!(checked.len(), 1);
        assert_eq!(checked[0].positions, 1);
        assert_eq!(checked[0].unused_steps, 0);
        assert_eq!(checked[0].header.claim, Claim::Wins(Color::White));
    }

    #[test]
    fn read_gives_each_proof_with_its_step_lines_unchecked() {
        // Two proofs one after the other, a comment between; the second's
        // step does not win, which only `check` says.
        let text = format!(
            "{}# a comment\n{}",
            proof("4/b3/w3/w3 w", "wins white", &["4/b3/w3/w3 w a1,a2-a3"]),
            proof("4/b3/w3/w3 w", "holds black", &["4/b3/w3/w3 w a1-a2"])
        );
        let proofs = read(&text).unwrap();
        assert_eq!(proofs.len(), 2);
        assert_eq!(
            proofs[0].steps,
            vec![StepLine {
                line: 7,
                position: "4/b3/w3/w3 w",
                mv: "a1,a2-a3",
            }]
        );
        assert_eq!(proofs[1].header.claim, Claim::Holds(Color::Black));
        assert_eq!(proofs[1].steps[0].line, 15);
        assert!(check(&text).is_err());
        assert_eq!(read("").unwrap_err(), ProofError::Empty);
    }

    #[test]
    fn a_move_that_does_not_win_is_refused() {
        // a2-b3 leaves Black a move, and no step says what White does next.
        let error = check(&proof(
            "4/b3/w3/w3 w",
            "wins white",
            &["4/b3/w3/w3 w a2-b3"],
        ))
        .unwrap_err();
        assert!(matches!(error, ProofError::MissingStep { .. }), "{error}");
    }

    #[test]
    fn bad_files_get_clear_errors() {
        let error = check("hello").unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("line 1: expected '{MAGIC}' as the first line")
        );
        let error = check(&proof(
            "4/b3/w3/w3 w",
            "wins white",
            &["4/b3/w3/w3 w a1-a4"],
        ))
        .unwrap_err();
        assert!(
            matches!(error, ProofError::IllegalStep { line: 7, .. }),
            "{error}"
        );
        let error = check(&proof("4/b3/w3/w3 w", "wins green", &[])).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("line 5: expected white or black"),
            "{error}"
        );
        let error = check(&proof(
            "4/b3/w3/w3 w",
            "wins white",
            &["4/b3/w3/w3 w a1,a2-a3", "4/b3/w3/w3 w a2-b3"],
        ))
        .unwrap_err();
        assert!(
            matches!(error, ProofError::DuplicateStep { line: 8, .. }),
            "{error}"
        );
        let mut short = proof("4/b3/w3/w3 w", "wins white", &["4/b3/w3/w3 w a1,a2-a3"]);
        short = short.replace("steps 1", "steps 2");
        assert!(
            check(&short)
                .unwrap_err()
                .to_string()
                .contains("2 step lines")
        );
    }

    /// The step lines of `player`'s strategy `choose` from `start`, over
    /// every position it reaches against every reply.
    fn strategy(start: &str, player: Color, choose: impl Fn(&Position) -> Move) -> Vec<String> {
        let mut steps = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut todo: Vec<Position> = vec![start.parse().unwrap()];
        while let Some(mut pos) = todo.pop() {
            if pos.has_crossed() || !seen.insert(pos.to_string()) {
                continue;
            }
            if pos.turn() == player {
                let mv = choose(&pos);
                steps.push(format!("{pos} {mv}"));
                pos.play(mv).unwrap();
                todo.push(pos);
                continue;
            }
            for reply in pos.legal_moves().iter() {
                let mut after = pos.clone();
                after.play_unchecked(*reply);
                todo.push(after);
            }
        }
        steps
    }

    #[test]
    fn a_strategy_that_goes_round_in_circles_is_refused() {
        // White holds two pieces on its goal rank and Black two on its own,
        // so neither has crossed; a Black piece that leaves rank 1 lets
        // White win. White's "strategy" shuttles a2-a3-a2, which never loses
        // but never wins either: Black slides along rank 1 for ever.
        let start = "ww2/4/w3/2bb w";
        let steps = strategy(start, Color::White, |pos| {
            let text = if pos.piece_at("a2".parse().unwrap()).is_some() {
                "a2-a3"
            } else {
                "a3-a2"
            };
            pos.parse_move(text).unwrap()
        });
        let refs: Vec<&str> = steps.iter().map(String::as_str).collect();
        let error = check(&proof(start, "wins white", &refs)).unwrap_err();
        assert!(matches!(error, ProofError::Loop { .. }), "{error}");
    }

    #[test]
    fn holding_strategies_may_loop_but_must_never_let_the_other_side_win() {
        // Both sides hold two pieces on their goal ranks; whoever leaves
        // first loses. Black holds by sliding along rank 1, keeping both
        // pieces there.
        let start = "ww2/4/4/2bb w";
        let steps = strategy(start, Color::Black, |pos| {
            pos.legal_moves()
                .iter()
                .copied()
                .find(|&mv| {
                    let mut after = pos.clone();
                    after.play_unchecked(mv);
                    after.count_on_rank(Color::Black, 0) == 2
                })
                .expect("a slide")
        });
        let refs: Vec<&str> = steps.iter().map(String::as_str).collect();
        let holds = proof(start, "holds black", &refs);
        let checked = check(&holds).unwrap();
        assert_eq!(checked[0].header.claim, Claim::Holds(Color::Black));
        assert_eq!(checked[0].positions, steps.len() as u64);
        // Two proofs in one file are both checked.
        assert_eq!(check(&format!("{holds}{holds}")).unwrap().len(), 2);
        // Stepping off rank 1 instead lets White win.
        let mut bad = steps.clone();
        let first = 0;
        let (position, _) = bad[first].rsplit_once(' ').unwrap();
        let pos: Position = position.parse().unwrap();
        let off = pos
            .legal_moves()
            .iter()
            .find(|m| m.destination().rank() > 0)
            .copied()
            .unwrap();
        bad[first] = format!("{position} {off}");
        let refs: Vec<&str> = bad.iter().map(String::as_str).collect();
        let error = check(&proof(start, "holds black", &refs)).unwrap_err();
        assert!(matches!(error, ProofError::AttackerWins { .. }), "{error}");
    }
}
