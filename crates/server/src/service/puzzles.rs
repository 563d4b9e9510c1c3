//! The puzzle trainer: the shipped puzzles ([`epaminondas_learn::puzzles`]),
//! a next puzzle near the player's puzzle rating, the moves judged with the
//! solver's proof, and Glicko-2 ratings for players and puzzles as on
//! lichess: a player's first attempt at a puzzle is a rated game between
//! the two (solved: the player wins), later attempts are practice.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use epaminondas_learn::puzzles::{Answer, Puzzle, shipped};
use epaminondas_rules::{BoardSize, Move, Position};

use super::Service;
use crate::auth::AuthUser;
use crate::error::{Error, Result};
use crate::glicko::{INITIAL, Rating};
use crate::limits::ClientKey;
use crate::store::{self, PuzzleAttempt, PuzzleStanding, RatedAttempt};

/// Answers one client may send a minute.
const ANSWERS_PER_MINUTE: u32 = 60;

/// The deviation a puzzle starts with: its grade is an estimate.
const PUZZLE_DEVIATION: f64 = 200.0;

/// The shipped puzzles, read once.
fn collection() -> &'static [Puzzle] {
    static PUZZLES: OnceLock<Vec<Puzzle>> = OnceLock::new();
    PUZZLES.get_or_init(shipped)
}

/// The shipped puzzle `id`.
fn find(id: &str) -> Result<&'static Puzzle> {
    collection().iter().find(|p| p.id == id).ok_or_else(|| {
        Error::invalid(format!(
            "there is no puzzle {:?}",
            epaminondas_rules::excerpt(id)
        ))
    })
}

/// A puzzle with its current rating.
#[derive(Clone, Debug)]
pub struct RatedPuzzle {
    /// The puzzle.
    pub puzzle: &'static Puzzle,
    /// Its rating now (its grade until it is played).
    pub rating: f64,
    /// Rated attempts so far.
    pub attempts: i64,
    /// Of those, solved.
    pub solved: i64,
}

/// What the trainer says to a move.
#[derive(Clone, Debug)]
pub struct PuzzleAnswer {
    /// The verdict.
    pub answer: Answer,
    /// The position after the move and the reply (if any).
    pub position: Position,
    /// The solution, once the attempt is over (solved or failed).
    pub solution: Option<Vec<Move>>,
    /// The player's rating before and after, when the attempt was rated.
    pub rated: Option<(f64, f64)>,
}

/// A player's puzzle rating and history.
#[derive(Clone, Debug)]
pub struct PuzzleRecord {
    /// The rating (1500 before the first puzzle).
    pub rating: Rating,
    /// Rated attempts.
    pub attempts: i64,
    /// Of those, solved.
    pub solved: i64,
    /// The latest attempts, newest first.
    pub history: Vec<PuzzleAttempt>,
}

impl Service {
    async fn rated(&self, puzzle: &'static Puzzle) -> Result<RatedPuzzle> {
        let standing = store::puzzle_standing(&self.db, &puzzle.id).await?;
        Ok(rated_with(puzzle, standing.as_ref()))
    }

    /// Puzzle `id` with its rating.
    pub async fn puzzle(&self, id: &str) -> Result<RatedPuzzle> {
        self.rated(find(id)?).await
    }

    /// The puzzle of the day (the same for everyone, a new one each UTC
    /// day), from the standard board's puzzles graded 1100 to 1700.
    pub async fn daily_puzzle(&self) -> Result<RatedPuzzle> {
        let pool: Vec<&'static Puzzle> = collection()
            .iter()
            .filter(|p| {
                p.position.size() == BoardSize::STANDARD && (1100..=1700).contains(&p.rating)
            })
            .collect();
        let pool = if pool.is_empty() {
            collection().iter().collect()
        } else {
            pool
        };
        let day = u64::try_from(self.now().div_euclid(86_400_000)).unwrap_or(0);
        let pick = day.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        let puzzle = pool
            .get(usize::try_from(pick).unwrap_or(0) % pool.len().max(1))
            .copied()
            .ok_or_else(|| Error::conflict("this server has no puzzles"))?;
        self.rated(puzzle).await
    }

    /// A puzzle on `board` for `user`: one they have not tried, rated near
    /// their puzzle rating (a visitor without an account: near 1500), picked
    /// at random among the ten nearest.
    pub async fn next_puzzle(
        &self,
        user: Option<&AuthUser>,
        board: BoardSize,
    ) -> Result<RatedPuzzle> {
        let (target, tried) = match user {
            Some(user) => {
                let target = store::player_puzzle_standing(&self.db, user.player.id)
                    .await?
                    .map_or(INITIAL.rating, |s| s.rating.rating);
                let tried: HashSet<String> = store::attempted_puzzles(&self.db, user.player.id)
                    .await?
                    .into_iter()
                    .collect();
                (target, tried)
            }
            None => (INITIAL.rating, HashSet::new()),
        };
        let standings = store::puzzle_standings(&self.db).await?;
        let mut candidates: Vec<RatedPuzzle> = collection()
            .iter()
            .filter(|p| p.position.size() == board)
            .filter(|p| !tried.contains(&p.id))
            .map(|p| rated_with(p, standings.get(&p.id)))
            .collect();
        if candidates.is_empty() {
            return Err(Error::conflict(format!(
                "there are no puzzles on {board} left for you"
            )));
        }
        candidates.sort_by(|a, b| {
            (a.rating - target)
                .abs()
                .total_cmp(&(b.rating - target).abs())
        });
        let nearest = candidates.len().min(10);
        let nonce = u64::try_from(self.now()).unwrap_or(0)
            ^ (tried.len() as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
        let pick = usize::try_from(nonce % nearest as u64).unwrap_or(0);
        Ok(candidates.swap_remove(pick))
    }

    /// Judges the newest move of `moves` (all moves of the attempt so far,
    /// in notation) in puzzle `id`; a signed-in player's first attempt at
    /// the puzzle is rated when it ends.
    pub async fn answer_puzzle(
        &self,
        user: Option<&AuthUser>,
        client: ClientKey,
        id: &str,
        moves: &[String],
    ) -> Result<PuzzleAnswer> {
        let key = format!("puzzle {client:?}");
        if let Err(retry_after_s) = self
            .mail_senders
            .try_add(key, ANSWERS_PER_MINUTE, self.now())
        {
            return Err(Error::RateLimited {
                what: "too many puzzle moves".into(),
                retry_after_s,
            });
        }
        let puzzle = find(id)?;
        if moves.len() > 2 * puzzle.plies as usize + 1 {
            return Err(Error::invalid("more moves than the puzzle has"));
        }
        let mut pos = puzzle.position.clone();
        let mut line = Vec::new();
        for (i, text) in moves.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| Error::invalid(format!("move {}: {e}", i + 1)))?;
            pos.play_unchecked(mv);
            line.push(mv);
        }
        let answer = puzzle
            .answer(&line)
            .map_err(|e| Error::invalid(e.to_string()))?;
        let reply = match answer {
            Answer::Reply(reply) | Answer::Solved(Some(reply)) => Some(reply),
            _ => None,
        };
        if let Some(reply) = reply {
            pos.play_unchecked(reply);
        }
        let over = !matches!(answer, Answer::Reply(_));
        let rated = match (user, over) {
            (Some(user), true) if user.require(user.play_scope()).is_ok() => {
                self.rate_attempt(user, puzzle, !matches!(answer, Answer::Wrong))
                    .await?
            }
            _ => None,
        };
        Ok(PuzzleAnswer {
            answer,
            position: pos,
            solution: over.then(|| puzzle.solution.clone()),
            rated,
        })
    }

    /// Rates `user`'s first attempt at `puzzle`; `None` if it is not their
    /// first.
    async fn rate_attempt(
        &self,
        user: &AuthUser,
        puzzle: &'static Puzzle,
        solved: bool,
    ) -> Result<Option<(f64, f64)>> {
        let player = store::player_puzzle_standing(&self.db, user.player.id)
            .await?
            .map_or(INITIAL, |s| s.rating);
        let theirs = store::puzzle_standing(&self.db, &puzzle.id)
            .await?
            .map_or_else(|| grade_rating(puzzle), |s| s.rating);
        let score = if solved { 1.0 } else { 0.0 };
        let player_after = player.after(theirs, score);
        let puzzle_after = theirs.after(player, 1.0 - score);
        let recorded = store::record_puzzle_attempt(
            &self.db,
            &RatedAttempt {
                user: user.player.id,
                puzzle: &puzzle.id,
                solved,
                player_before: player,
                player_after,
                puzzle_after,
            },
            self.now(),
        )
        .await?;
        Ok(recorded.then_some((player.rating, player_after.rating)))
    }

    /// `user`'s puzzle rating and latest 50 attempts.
    pub async fn puzzle_record(&self, user: &AuthUser) -> Result<PuzzleRecord> {
        let standing = store::player_puzzle_standing(&self.db, user.player.id).await?;
        let history = store::puzzle_history(&self.db, user.player.id, 50).await?;
        Ok(PuzzleRecord {
            rating: standing.map_or(INITIAL, |s| s.rating),
            attempts: standing.map_or(0, |s| s.attempts),
            solved: standing.map_or(0, |s| s.solved),
            history,
        })
    }

    /// How many puzzles the server has on each board size.
    pub fn puzzle_counts(&self) -> Vec<(BoardSize, usize)> {
        let mut counts: HashMap<BoardSize, usize> = HashMap::new();
        for puzzle in collection() {
            *counts.entry(puzzle.position.size()).or_default() += 1;
        }
        let mut counts: Vec<_> = counts.into_iter().collect();
        counts.sort_by_key(|(size, _)| (size.files(), size.ranks()));
        counts
    }
}

/// A never-played puzzle's rating: its grade, with a wide deviation.
fn grade_rating(puzzle: &Puzzle) -> Rating {
    Rating {
        rating: f64::from(puzzle.rating),
        deviation: PUZZLE_DEVIATION,
        volatility: INITIAL.volatility,
    }
}

fn rated_with(puzzle: &'static Puzzle, standing: Option<&PuzzleStanding>) -> RatedPuzzle {
    RatedPuzzle {
        puzzle,
        rating: standing.map_or(f64::from(puzzle.rating), |s| s.rating.rating),
        attempts: standing.map_or(0, |s| s.attempts),
        solved: standing.map_or(0, |s| s.solved),
    }
}
