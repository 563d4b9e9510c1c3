//! Reviewing a game with the engine, as lichess's computer analysis does:
//! every position searched, the evaluation shown from White's side, each
//! move judged by how much of the mover's expected score it gave away, and
//! the record annotated with the evaluations, the marks and the better
//! moves.
//!
//! The rule for the marks: a move's cost is the mover's expected score
//! ([`win_probability`]) after the engine's best move minus that after the
//! move played, both as the engine sees them. A cost of at least
//! [`INACCURACY`] is an inaccuracy (`?!`), of at least [`MISTAKE`] a
//! mistake (`?`) and of at least [`BLUNDER`] a blunder (`??`); the engine's
//! own choice is never marked. (Lichess uses the same thresholds, 0.1, 0.2
//! and 0.3, on its winning-chances scale from -1 to 1, which is twice this
//! one.)

use std::sync::atomic::AtomicBool;

use epaminondas_rules::{Annotation, Color, GameRecord, Move, MoveMark, Outcome, Position};

use crate::eval::win_probability;
use crate::limits::Limits;
use crate::score::{PROVEN, WIN};
use crate::search::Engine;

/// The least cost of an inaccuracy (`?!`).
pub const INACCURACY: f64 = 0.05;
/// The least cost of a mistake (`?`).
pub const MISTAKE: f64 = 0.10;
/// The least cost of a blunder (`??`).
pub const BLUNDER: f64 = 0.15;

/// One line the engine found: its score for the side to move, the depth
/// and the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The score for the side to move (see [`crate::score`]).
    pub score: i32,
    /// The depth of the search that found it.
    pub depth: u32,
    /// The moves, best first.
    pub pv: Vec<Move>,
}

/// What the review says of one position of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionReview {
    /// Plies played before it (0 for the start).
    pub ply: usize,
    /// The move that led here, with its mark if it earned one.
    pub played: Option<(Move, Option<MoveMark>)>,
    /// The position.
    pub position: Position,
    /// How the game ended here, if it did (then there are no lines).
    pub outcome: Option<Outcome>,
    /// The engine's lines, best first.
    pub lines: Vec<Line>,
    /// How much of the mover's expected score the move that led here gave
    /// away (0 for the engine's choice; `None` at the start).
    pub cost: Option<f64>,
}

impl PositionReview {
    /// The evaluation from White's side: the best line's score, or the
    /// decided result.
    pub fn white_score(&self) -> Option<i32> {
        if let Some(outcome) = self.outcome {
            return Some(if outcome.winner == Color::White {
                WIN
            } else {
                -WIN
            });
        }
        self.lines
            .first()
            .map(|line| white_view(line.score, self.position.turn()))
    }
}

/// A score for the side to move `turn`, seen from White's side.
pub fn white_view(score: i32, turn: Color) -> i32 {
    match turn {
        Color::White => score,
        Color::Black => -score,
    }
}

/// A score from White's side as analysis shows it: `+0.74` (hundredths of
/// the evaluation's unit, as `cp` counts them), or `white wins in 7`.
pub fn format_white(score: i32) -> String {
    if score >= PROVEN {
        plies_text("white", WIN - score)
    } else if score <= -PROVEN {
        plies_text("black", WIN + score)
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

fn plies_text(winner: &str, plies: i32) -> String {
    if plies == 0 {
        format!("{winner} has won")
    } else {
        format!("{winner} wins in {plies}")
    }
}

/// The mark a move earns for costing the mover `cost` of its expected score.
pub fn judge(cost: f64) -> Option<MoveMark> {
    if cost >= BLUNDER {
        Some(MoveMark::Blunder)
    } else if cost >= MISTAKE {
        Some(MoveMark::Mistake)
    } else if cost >= INACCURACY {
        Some(MoveMark::Inaccuracy)
    } else {
        None
    }
}

/// The expected score (0 to 1) of the side whose evaluation is `score`: a
/// proven win 1, a proven loss 0, else the evaluation's win probability.
pub fn expected(score: i32) -> f64 {
    if score >= PROVEN {
        1.0
    } else if score <= -PROVEN {
        0.0
    } else {
        win_probability(score)
    }
}

/// Searches `pos` within `limits` for its best `lines` lines (at least
/// one, even when stopped at once).
pub fn search_lines(
    engine: &mut Engine,
    pos: &Position,
    limits: &Limits,
    lines: usize,
    stop: &AtomicBool,
) -> Vec<Line> {
    engine.set_multipv(lines);
    let mut found: Vec<Option<Line>> = vec![None; lines.max(1)];
    let result = engine.search(pos, limits, stop, |info| {
        if let Some(slot) = found.get_mut(info.multipv - 1) {
            *slot = Some(Line {
                score: info.score,
                depth: info.depth,
                pv: info.pv.to_vec(),
            });
        }
    });
    engine.set_multipv(1);
    let mut found: Vec<Line> = found.into_iter().flatten().collect();
    if found.is_empty() {
        // Stopped before the first iteration: the fallback move.
        found.push(Line {
            score: result.score,
            depth: result.depth,
            pv: result.pv,
        });
    }
    found.sort_by_key(|line| -line.score);
    found
}

/// A game's review built one position at a time, for callers that search
/// the positions themselves (the server, between games' moves): ask
/// [`Reviewer::position`] what to search, give its lines to
/// [`Reviewer::add`], and take the annotated record from
/// [`Reviewer::finish`].
#[derive(Clone, Debug)]
pub struct Reviewer {
    record: GameRecord,
    annotated: GameRecord,
    pos: Position,
    ply: usize,
    before: Option<PositionReview>,
}

impl Reviewer {
    /// A review of `record`, before its first position.
    pub fn new(record: &GameRecord) -> Reviewer {
        Reviewer {
            record: record.clone(),
            annotated: record.clone(),
            pos: record.start().clone(),
            ply: 0,
            before: None,
        }
    }

    /// The position to review next (`None` once every one is), and whether
    /// it needs a search (a finished position does not).
    pub fn position(&self) -> Option<(&Position, bool)> {
        (self.ply <= self.record.moves().len()).then(|| (&self.pos, self.pos.outcome().is_none()))
    }

    /// How many positions the review has (one more than the moves).
    pub fn positions(&self) -> usize {
        self.record.moves().len() + 1
    }

    /// Records the engine's `lines` (best first; none for a finished
    /// position) for the position [`Reviewer::position`] named, judges the
    /// move that led there, and goes on to the next position.
    pub fn add(&mut self, lines: Vec<Line>) -> PositionReview {
        let ply = self.ply;
        let played = ply.checked_sub(1).map(|i| self.record.moves()[i]);
        let outcome = self.pos.outcome();
        let mut review = PositionReview {
            ply,
            played: played.map(|mv| (mv, None)),
            position: self.pos.clone(),
            outcome,
            lines: if outcome.is_some() { Vec::new() } else { lines },
            cost: None,
        };
        if let (Some(previous), Some(mv)) = (&self.before, played) {
            self.judge_move(previous.clone(), mv, &mut review);
        }
        self.before = Some(review.clone());
        self.ply += 1;
        if let Some(&next) = self.record.moves().get(ply) {
            self.pos.play_unchecked(next);
        }
        review
    }

    /// Marks `mv` (played in `previous`, leading to `review`) and
    /// annotates it in the record.
    fn judge_move(&mut self, previous: PositionReview, mv: Move, review: &mut PositionReview) {
        let mover = previous.position.turn();
        let best = previous.lines.first();
        let after = review.white_score().map(|s| white_view(s, mover));
        let (Some(best), Some(after)) = (best, after) else {
            return;
        };
        let chosen = best.pv.first() == Some(&mv);
        let cost = if chosen {
            0.0
        } else {
            (expected(best.score) - expected(after)).max(0.0)
        };
        let mark = judge(cost);
        review.cost = Some(cost);
        review.played = Some((mv, mark));
        let mut comment = format_white(white_view(after, mover));
        if let (Some(mark), Some(better)) = (mark, best.pv.first()) {
            let name = match mark {
                MoveMark::Blunder => "Blunder",
                MoveMark::Mistake => "Mistake",
                _ => "Inaccuracy",
            };
            comment += &format!(
                ". {name}: {better} was best ({})",
                format_white(white_view(best.score, mover))
            );
        }
        self.annotated.annotate(
            review.ply - 1,
            Annotation {
                mark,
                comment: Some(comment),
            },
        );
    }

    /// The record annotated: every move's evaluation, and for marked moves
    /// the mark and the move the engine preferred.
    pub fn finish(self) -> GameRecord {
        self.annotated
    }
}

/// Reviews every position of `record` (each within `limits`, with `lines`
/// best lines), calling `each` with each position's review as soon as it is
/// done, and returns the record annotated: every move's evaluation, and
/// for marked moves the mark and the move the engine preferred.
pub fn review_game(
    engine: &mut Engine,
    record: &GameRecord,
    limits: &Limits,
    lines: usize,
    stop: &AtomicBool,
    mut each: impl FnMut(&PositionReview),
) -> GameRecord {
    let mut reviewer = Reviewer::new(record);
    while let Some((pos, needs_search)) = reviewer.position() {
        let found = if needs_search {
            search_lines(engine, pos, limits, lines, stop)
        } else {
            Vec::new()
        };
        each(&reviewer.add(found));
    }
    reviewer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_documented_thresholds() {
        assert_eq!(judge(0.0), None);
        assert_eq!(judge(0.049), None);
        assert_eq!(judge(0.05), Some(MoveMark::Inaccuracy));
        assert_eq!(judge(0.1), Some(MoveMark::Mistake));
        assert_eq!(judge(0.149), Some(MoveMark::Mistake));
        assert_eq!(judge(0.15), Some(MoveMark::Blunder));
        assert_eq!(judge(1.0), Some(MoveMark::Blunder));
    }

    #[test]
    fn scores_are_shown_from_white_s_side() {
        assert_eq!(white_view(74, Color::White), 74);
        assert_eq!(white_view(74, Color::Black), -74);
        assert_eq!(format_white(74), "+0.74");
        assert_eq!(format_white(-120), "-1.20");
        assert_eq!(format_white(0), "+0.00");
        assert_eq!(format_white(WIN - 7), "white wins in 7");
        assert_eq!(format_white(-(WIN - 3)), "black wins in 3");
        assert_eq!(format_white(WIN), "white has won");
    }

    #[test]
    fn a_thrown_away_win_is_a_blunder_and_the_best_move_is_named() {
        // 5x5, White to move: c4,c3-c2 takes Black's last piece and wins;
        // White plays c4-b3 instead, and Black crosses at d1 and wins.
        let record: GameRecord =
            "[Board \"5x5\"]\n[Position \"5/2w2/2w2/2b2/5 w\"]\n\n1. c4-b3 *\n"
                .parse()
                .unwrap();
        let mut engine = Engine::new(1);
        let mut seen = Vec::new();
        let annotated = review_game(
            &mut engine,
            &record,
            &Limits::depth(4),
            2,
            &AtomicBool::new(false),
            |r| seen.push(r.clone()),
        );
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0].lines.len(), 2, "two lines asked for");
        assert!(seen[0].white_score().unwrap() >= PROVEN);
        let note = annotated.annotation(0).unwrap();
        assert_eq!(note.mark, Some(MoveMark::Blunder));
        let comment = note.comment.as_deref().unwrap();
        assert!(
            comment.ends_with(". Blunder: c4,c3-c2 was best (white wins in 1)"),
            "{comment}"
        );
        assert!(comment.starts_with("black wins in "), "{comment}");
        assert_eq!(
            seen[1].played.map(|(_, m)| m),
            Some(Some(MoveMark::Blunder))
        );
        // The annotated record reads back as the same game.
        let again: GameRecord = annotated.to_string().parse().unwrap();
        assert_eq!(again, annotated);
    }
}
