//! Puzzles: positions where the side to move wins by force, by exactly one
//! first move, each proven by the solver ([`epaminondas_engine::solver`]).
//!
//! # The collection's file format
//!
//! Plain UTF-8 text, one puzzle a line; empty lines and lines starting with
//! `#` are ignored. A puzzle is seven fields separated by tabs:
//!
//! 1. its id (letters, digits and `-`, unique in the file), such as `s0042`;
//! 2. the position, as position text (RULES.md section 5), the side to
//!    move being the one that wins;
//! 3. the symmetry option: `mirror`, `file` or `off`;
//! 4. the plies of the shortest forced win, counting the winner's moves and
//!    the defences up to the position where the defender has no move left
//!    or the winner begins a turn with more pieces across (a crossing that
//!    cannot be answered takes 2);
//! 5. the solution: the solver's line in canonical notation separated by
//!    spaces, the winner's moves and the longest defences alternately;
//! 6. its rating, the grade of difficulty ([`difficulty`]);
//! 7. where it comes from (free text without tabs), such as
//!    `selfplay 12 ply 87`.
//!
//! A puzzle holds ([`Puzzle::verify`]) when the solver finds no win shorter
//! than its plies, a win in its plies whose line is its solution, and only
//! its first move wins within its plies.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use epaminondas_engine::solver::{Solution, solve, winning_moves};
use epaminondas_rules::{Move, Position, Symmetry};

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its id.
    pub id: String,
    /// The position, the winner to move.
    pub position: Position,
    /// The plies of the shortest forced win.
    pub plies: u32,
    /// The solver's line: the winner's moves and the longest defences.
    pub solution: Vec<Move>,
    /// The grade of difficulty, on the scale of the players' ratings.
    pub rating: u32,
    /// Where it comes from.
    pub source: String,
}

/// A puzzle line that cannot be read; the message says which field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePuzzleError(String);

impl fmt::Display for ParsePuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParsePuzzleError {}

/// Why a puzzle does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofError {
    /// The solver finds no forced win within the puzzle's plies.
    NoWin,
    /// The solver finds a shorter win.
    Shorter {
        /// Its plies.
        plies: u32,
    },
    /// The solver's line is not the puzzle's solution.
    OtherLine {
        /// The solver's line.
        line: String,
    },
    /// More than one first move wins.
    NotUnique {
        /// Every winning first move.
        moves: String,
    },
    /// Stopped before the proof was complete.
    Stopped,
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::NoWin => write!(f, "the solver finds no forced win within its plies"),
            ProofError::Shorter { plies } => write!(f, "the solver finds a win in {plies} plies"),
            ProofError::OtherLine { line } => write!(f, "the solver's line is {line}"),
            ProofError::NotUnique { moves } => write!(f, "several first moves win: {moves}"),
            ProofError::Stopped => write!(f, "stopped before the proof was complete"),
        }
    }
}

impl std::error::Error for ProofError {}

fn line_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Puzzle {
    /// Proves the puzzle with the solver (see the module's documentation).
    pub fn verify(&self, stop: &AtomicBool) -> Result<(), ProofError> {
        match solve(&self.position, self.plies, stop) {
            Solution::Win { plies, .. } if plies < self.plies => {
                return Err(ProofError::Shorter { plies });
            }
            Solution::Win { line, .. } if line != self.solution => {
                return Err(ProofError::OtherLine {
                    line: line_text(&line),
                });
            }
            Solution::Win { .. } => {}
            Solution::NoWin => return Err(ProofError::NoWin),
            Solution::Stopped { .. } => return Err(ProofError::Stopped),
        }
        let winning = winning_moves(&self.position, self.plies, stop).ok_or(ProofError::Stopped)?;
        if winning.len() != 1 {
            return Err(ProofError::NotUnique {
                moves: line_text(&winning),
            });
        }
        Ok(())
    }

    /// A puzzle from `position` if its side to move wins by force within
    /// `max_plies` (in at least 2, so that there is a defence to show) by
    /// exactly one first move; `None` otherwise or when stopped.
    pub fn find(
        position: &Position,
        max_plies: u32,
        stop: &AtomicBool,
        source: &str,
    ) -> Option<Puzzle> {
        let Solution::Win { plies, line } = solve(position, max_plies, stop) else {
            return None;
        };
        if plies < 2 {
            return None;
        }
        let winning = winning_moves(position, plies, stop)?;
        if winning.len() != 1 {
            return None;
        }
        Some(Puzzle {
            id: String::new(),
            rating: difficulty(position, plies),
            position: position.clone(),
            plies,
            solution: line,
            source: source.replace(['\t', '\n'], " "),
        })
    }
}

/// What the site answers to the solver's newest move in a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Right, and the puzzle goes on: the defence to play in reply.
    Reply(Move),
    /// Right, and the win is complete: the defence that remains, if any,
    /// is shown but changes nothing.
    Solved(Option<Move>),
    /// Not a winning move: the attempt has failed.
    Wrong,
}

/// A line sent for a puzzle that does not follow it (bad input, not a
/// wrong answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError(pub String);

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LineError {}

/// The defence that holds out longest in `pos` (defender to move) against a
/// win within `plies`, by the solver; `None` without a legal move.
fn longest_defence(pos: &Position, plies: u32) -> Option<Move> {
    let never = AtomicBool::new(false);
    let mut best: Option<(Move, u32)> = None;
    for &reply in &pos.legal_moves() {
        let mut after = pos.clone();
        after.play_unchecked(reply);
        let lasts = match solve(&after, plies.saturating_sub(1), &never) {
            Solution::Win { plies, .. } => plies,
            _ => u32::MAX,
        };
        if best.is_none_or(|(_, most)| lasts > most) {
            best = Some((reply, lasts));
        }
    }
    best.map(|(mv, _)| mv)
}

impl Puzzle {
    /// The side that wins (the side to move in the puzzle's position).
    pub fn winner(&self) -> epaminondas_rules::Color {
        self.position.turn()
    }

    /// Judges the newest move of `moves`: the solver's moves and the
    /// site's replies so far, alternately, ending with the solver's newest
    /// move. The first move must be the solution's (it is the only one that
    /// wins); a later move may be any move the solver proves still wins in
    /// time. Replies are the solution's while the line follows it, else
    /// the longest defence.
    pub fn answer(&self, moves: &[Move]) -> Result<Answer, LineError> {
        if moves.len() % 2 == 0 {
            return Err(LineError(
                "send the moves so far, ending with your newest move".into(),
            ));
        }
        let never = AtomicBool::new(false);
        let mut pos = self.position.clone();
        let mut on_line = true;
        let mut expected_reply = None;
        for (i, &mv) in moves.iter().enumerate() {
            if !pos.is_legal(mv) {
                return Err(LineError(format!(
                    "move {} ({mv}) is not legal there",
                    i + 1
                )));
            }
            let used = u32::try_from(i).unwrap_or(u32::MAX);
            if i % 2 == 1 {
                if expected_reply != Some(mv) {
                    return Err(LineError(format!(
                        "move {} ({mv}) is not the reply this puzzle gave",
                        i + 1
                    )));
                }
                on_line &= self.solution.get(i) == Some(&mv);
                pos.play_unchecked(mv);
                continue;
            }
            let follows = on_line && self.solution.get(i) == Some(&mv);
            let wins = follows
                || (i > 0
                    && winning_moves(&pos, self.plies.saturating_sub(used), &never)
                        .is_some_and(|w| w.contains(&mv)));
            let newest = i + 1 == moves.len();
            if !wins {
                return if newest {
                    Ok(Answer::Wrong)
                } else {
                    Err(LineError(format!("move {} ({mv}) does not win", i + 1)))
                };
            }
            on_line = follows;
            pos.play_unchecked(mv);
            expected_reply = if on_line {
                self.solution.get(i + 1).copied()
            } else {
                longest_defence(&pos, self.plies.saturating_sub(used + 1))
            };
            if newest {
                let done = self.plies <= used + 2
                    || expected_reply.is_none_or(|reply| {
                        let mut after = pos.clone();
                        after.play_unchecked(reply);
                        after.has_crossed()
                    });
                return Ok(match (done, expected_reply) {
                    (false, Some(reply)) => Answer::Reply(reply),
                    (_, reply) => Answer::Solved(reply),
                });
            }
        }
        Err(LineError("no moves were sent".into()))
    }
}

/// The grade of a puzzle whose win takes `plies` in `position`: 1000, plus
/// 300 for each of the winner's moves beyond the first, plus 4 for each
/// legal move beyond 20 (a wider choice hides the one move that wins), at
/// most 2500.
pub fn difficulty(position: &Position, plies: u32) -> u32 {
    let moves = u32::try_from(position.legal_moves().len()).unwrap_or(u32::MAX);
    let depth = 300 * (plies.saturating_sub(2) / 2);
    (1000 + depth + 4 * moves.saturating_sub(20)).min(2500)
}

impl fmt::Display for Puzzle {
    /// The puzzle's line of the collection file (without a line break).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.id,
            self.position,
            self.position.symmetry().name(),
            self.plies,
            line_text(&self.solution),
            self.rating,
            self.source
        )
    }
}

impl FromStr for Puzzle {
    type Err = ParsePuzzleError;

    fn from_str(line: &str) -> Result<Puzzle, ParsePuzzleError> {
        let err = |what: String| ParsePuzzleError(what);
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, position, symmetry, plies, solution, rating, source] = fields[..] else {
            return Err(err(format!(
                "a puzzle has 7 fields separated by tabs, not {}",
                fields.len()
            )));
        };
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(err(format!("the id {id:?} is not letters, digits and -")));
        }
        let symmetry: Symmetry = symmetry
            .parse()
            .map_err(|e| err(format!("{id}: symmetry: {e}")))?;
        let position: Position = position
            .parse()
            .map_err(|e| err(format!("{id}: position: {e}")))?;
        let position = position.with_symmetry(symmetry);
        let plies: u32 = plies
            .parse()
            .map_err(|_| err(format!("{id}: the plies {plies:?} are not a number")))?;
        let rating: u32 = rating
            .parse()
            .map_err(|_| err(format!("{id}: the rating {rating:?} is not a number")))?;
        let mut pos = position.clone();
        let mut moves = Vec::new();
        for (i, text) in solution.split_whitespace().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| err(format!("{id}: move {} ({text}): {e}", i + 1)))?;
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        if moves.is_empty() {
            return Err(err(format!("{id}: the solution has no moves")));
        }
        Ok(Puzzle {
            id: id.to_owned(),
            position,
            plies,
            solution: moves,
            rating,
            source: source.to_owned(),
        })
    }
}

/// Reads a collection file: every puzzle, or the first bad line's number
/// (from 1) and what is wrong with it (ids must be unique).
pub fn read_collection(text: &str) -> Result<Vec<Puzzle>, (usize, ParsePuzzleError)> {
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle: Puzzle = line.parse().map_err(|e| (n + 1, e))?;
        if !ids.insert(puzzle.id.clone()) {
            return Err((
                n + 1,
                ParsePuzzleError(format!("the id {} is used twice", puzzle.id)),
            ));
        }
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

/// The puzzles the site ships, built into the binary.
pub const COLLECTION: &str = include_str!("../puzzles.txt");

/// [`COLLECTION`] read (the tests check that it reads and that every
/// puzzle holds).
pub fn shipped() -> Vec<Puzzle> {
    read_collection(COLLECTION).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// White crosses at e6, out of reach of Black's pair (e5-d6 would be
    /// taken by a6,b6-d6, and f6 is Black's): the only winning move.
    #[test]
    fn a_found_puzzle_writes_reads_and_holds() {
        let stop = AtomicBool::new(false);
        let pos: Position = "bb3b/4w1/6/6/6/w5 w".parse().unwrap();
        let mut puzzle = Puzzle::find(&pos, 5, &stop, "a test").expect("a puzzle");
        puzzle.id = "t1".into();
        assert_eq!(puzzle.plies, 2);
        assert_eq!(puzzle.solution[0].to_string(), "e5-e6");
        assert_eq!(puzzle.verify(&stop), Ok(()));
        let line = puzzle.to_string();
        assert_eq!(line.split('\t').count(), 7, "{line}");
        let read: Puzzle = line.parse().unwrap();
        assert_eq!(read, puzzle);
        // A puzzle that claims a longer win, or another line, does not hold.
        let mut wrong = puzzle.clone();
        wrong.plies = 4;
        assert_eq!(wrong.verify(&stop), Err(ProofError::Shorter { plies: 2 }));
        let mut other = puzzle.clone();
        other.solution.truncate(1);
        assert!(matches!(
            other.verify(&stop),
            Err(ProofError::OtherLine { .. })
        ));
        // Where two first moves win, there is no puzzle.
        let two: Position = "bb4/4w1/6/6/6/w5 w".parse().unwrap();
        assert_eq!(Puzzle::find(&two, 5, &stop, ""), None);
    }

    #[test]
    fn answers_follow_the_solution_and_refuse_other_lines() {
        let puzzle: Puzzle = "t2\tbb3b/4w1/6/6/6/w5 w\tmirror\t2\te5-e6 a6-a5\t1000\ttest"
            .parse()
            .unwrap();
        let pos = puzzle.position.clone();
        let mv = |text: &str| pos.parse_move(text).unwrap();
        assert_eq!(
            puzzle.answer(&[mv("e5-e6")]),
            Ok(Answer::Solved(Some(puzzle.solution[1])))
        );
        assert_eq!(puzzle.answer(&[mv("e5-d6")]), Ok(Answer::Wrong));
        assert_eq!(puzzle.answer(&[mv("a1-a2")]), Ok(Answer::Wrong));
        assert!(puzzle.answer(&[]).is_err());
        assert!(puzzle.answer(&[mv("e5-e6"), mv("a1-a2")]).is_err());
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let bad = |line: &str| line.parse::<Puzzle>().unwrap_err().to_string();
        assert!(bad("x").contains("7 fields"));
        assert!(bad("a b\t4/4/4/4 w\tmirror\t3\ta1-a2\t1000\ts").contains("id"));
        assert!(bad("p1\t4/4/4/4 w\tsideways\t3\ta1-a2\t1000\ts").contains("symmetry"));
        assert!(bad("p1\t4/4/4/w3 w\tmirror\tx\ta1-a2\t1000\ts").contains("plies"));
        assert!(bad("p1\t4/4/4/w3 w\tmirror\t3\ta1-a3\t1000\ts").contains("move 1 (a1-a3)"));
        let twice = "p1\t4/4/4/w3 w\tmirror\t3\ta1-a2\t1000\ts\np1\t4/4/4/w3 w\tmirror\t3\ta1-a2\t1000\ts\n";
        let (line, error) = read_collection(twice).unwrap_err();
        assert_eq!(line, 2);
        assert!(error.to_string().contains("used twice"));
    }

    #[test]
    fn the_grade_grows_with_depth_and_choice() {
        let pos: Position = "bb3b/4w1/6/6/6/w5 w".parse().unwrap();
        assert_eq!(difficulty(&pos, 2), 1000);
        assert_eq!(difficulty(&pos, 3), 1000);
        assert_eq!(difficulty(&pos, 4), 1300);
        assert!(difficulty(&Position::standard(), 2) > 1000);
    }
}
