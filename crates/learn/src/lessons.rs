//! The lessons: short tasks on small boards, each judged by a rule of the
//! game rather than by a fixed answer where the rules allow several good
//! moves ([`Goal`]). [`Lesson::verdicts`] judges every legal move, so that a
//! client shows the verdict of the move the learner picks without holding
//! any rules.

use epaminondas_rules::{Color, Move, Position};

/// What a lesson asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// One of these moves (canonical notation).
    Play(&'static [&'static str]),
    /// A capture of at least this many pieces.
    Capture(u8),
    /// A move after which the opponent has not won: the answer to their
    /// crossing.
    AnswerCrossing,
    /// A crossing the opponent cannot answer: after every reply, the
    /// learner wins at the start of their turn.
    UnstoppableCrossing,
}

/// One lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// Its heading.
    pub title: &'static str,
    /// What to do.
    pub task: &'static str,
    /// The position, as position text; the learner plays the side to move.
    pub position: &'static str,
    /// What counts as done.
    pub goal: Goal,
    /// What a wrong move is told, after the reason the rules give.
    pub hint: &'static str,
    /// What a right move is told.
    pub praise: &'static str,
}

/// The judgement of one move of a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The move, in canonical notation.
    pub mv: String,
    /// Whether it does what the lesson asks.
    pub correct: bool,
    /// Why (for a wrong move) or well done (for a right one).
    pub says: String,
}

/// The lessons, in order.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        title: "Move a phalanx",
        task: "Move the whole column c1-c3 three squares forward, all the way to c6.",
        position: "b4b/6/6/2w3/2w3/2w3 w",
        goal: Goal::Play(&["c1,c3-c6"]),
        hint: "Pick c1, the back of the column: then all three pieces move together, \
               up to three squares.",
        praise: "Three pieces, three squares: a phalanx moves as far as it has pieces.",
    },
    Lesson {
        title: "Capture",
        task: "Capture Black's two pieces on e3 and f3.",
        position: "6/bbb3/6/www1bb/6/6 w",
        goal: Goal::Capture(2),
        hint: "You need more pieces than the two you capture: move all three from a3.",
        praise: "Three beat two: both Black pieces are gone.",
    },
    Lesson {
        title: "Bigger beats smaller",
        task: "Capture a Black piece. (Your pair on the d-file cannot take d4 and d5: two \
               against two is not enough.)",
        position: "6/3b2/3b2/b5/w2w2/w2w2 w",
        goal: Goal::Capture(1),
        hint: "Look for a lone Black piece in front of one of your pairs.",
        praise: "Two beat one. A single piece could not have done it: it never captures.",
    },
    Lesson {
        title: "Answer a crossing",
        task: "Black has reached your back row at c1. Stop Black from winning.",
        position: "4bb/4b1/6/w5/1w2w1/2b3 w",
        goal: Goal::AnswerCrossing,
        hint: "Capture the intruder: a3 and b2 stand in a diagonal line that points at c1.",
        praise: "The intruder is gone, so Black has no piece on its goal row and the game goes on.",
    },
    Lesson {
        title: "Cross to win",
        task: "Put a piece on Black's back row where Black can neither capture it nor cross \
               in reply.",
        position: "bb4/4w1/6/6/6/w5 w",
        goal: Goal::UnstoppableCrossing,
        hint: "Black's pair a6-b6 can slide two squares along the row: stay out of its reach.",
        praise: "Black has no answer: at the start of your next turn you win by crossing.",
    },
];

impl Lesson {
    /// The lesson's position.
    pub fn start(&self) -> Position {
        self.position
            .parse()
            .expect("the lessons' positions are checked by the tests")
    }

    /// Judges `mv`, a legal move of the lesson's position.
    pub fn judge(&self, mv: Move) -> Verdict {
        let pos = self.start();
        let mut after = pos.clone();
        let played = after.play(mv).is_ok();
        let me = pos.turn();
        let reason = match self.goal {
            _ if !played => Some("that move is not legal here".to_owned()),
            Goal::Play(moves) => (!moves.contains(&mv.to_string().as_str()))
                .then(|| "that is not the move this lesson asks for".to_owned()),
            Goal::Capture(at_least) => match mv.captures() {
                0 => Some("that move captures nothing".to_owned()),
                n if n < at_least => Some(format!("that captures only {n}")),
                _ => None,
            },
            Goal::AnswerCrossing => after
                .outcome()
                .filter(|o| o.winner == !me)
                .map(|_| format!("after it, {} still wins by crossing", name(!me))),
            Goal::UnstoppableCrossing => unstoppable_failure(&after, me),
        };
        match reason {
            None => Verdict {
                mv: mv.to_string(),
                correct: true,
                says: self.praise.to_owned(),
            },
            Some(reason) => Verdict {
                mv: mv.to_string(),
                correct: false,
                says: format!("Not {mv}: {reason}. {}", self.hint),
            },
        }
    }

    /// The verdict of every legal move of the lesson's position.
    pub fn verdicts(&self) -> Vec<Verdict> {
        self.start()
            .legal_moves()
            .iter()
            .map(|&mv| self.judge(mv))
            .collect()
    }
}

fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Why the position `after` the learner's (`me`) move is not a crossing the
/// opponent cannot answer; `None` if it is one.
fn unstoppable_failure(after: &Position, me: Color) -> Option<String> {
    if after.goal_count(me) == 0 {
        return Some("it does not reach the goal row".to_owned());
    }
    for reply in after.legal_moves().iter() {
        let mut next = after.clone();
        next.play_unchecked(*reply);
        if next.outcome().is_none_or(|o| o.winner != me) {
            return Some(format!("{} answers with {reply}", name(!me)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_has_a_right_and_a_wrong_move() {
        for lesson in LESSONS {
            let pos: Position = lesson.position.parse().expect(lesson.title);
            assert!(pos.outcome().is_none(), "{}", lesson.title);
            let verdicts = lesson.verdicts();
            assert!(verdicts.iter().any(|v| v.correct), "{}", lesson.title);
            assert!(verdicts.iter().any(|v| !v.correct), "{}", lesson.title);
            if let Goal::Play(moves) = lesson.goal {
                for mv in moves {
                    assert!(pos.parse_move(mv).is_ok(), "{}: {mv}", lesson.title);
                }
            }
        }
    }

    fn right(title: &str) -> Vec<String> {
        let lesson = LESSONS.iter().find(|l| l.title == title).unwrap();
        lesson
            .verdicts()
            .into_iter()
            .filter(|v| v.correct)
            .map(|v| v.mv)
            .collect()
    }

    #[test]
    fn the_rules_pick_exactly_the_moves_the_lessons_mean() {
        assert_eq!(right("Move a phalanx"), ["c1,c3-c6"]);
        assert_eq!(right("Capture"), ["a3,c3-e3"]);
        assert_eq!(right("Bigger beats smaller"), ["a1,a2-a3"]);
        assert_eq!(right("Answer a crossing"), ["a3,b2-c1"]);
        let mut crossing = right("Cross to win");
        crossing.sort();
        assert_eq!(crossing, ["e5-e6", "e5-f6"]);
    }

    #[test]
    fn a_wrong_move_is_told_why() {
        let lesson = LESSONS.iter().find(|l| l.title == "Cross to win").unwrap();
        let pos = lesson.start();
        let verdict = lesson.judge(pos.parse_move("e5-d6").unwrap());
        assert!(!verdict.correct);
        assert!(
            verdict.says.contains("Black answers with a6,b6-d6"),
            "{}",
            verdict.says
        );
        let verdict = lesson.judge(pos.parse_move("e5-e4").unwrap());
        assert!(
            verdict.says.contains("does not reach the goal row"),
            "{}",
            verdict.says
        );
        let answer = LESSONS
            .iter()
            .find(|l| l.title == "Answer a crossing")
            .unwrap();
        let verdict = answer.judge(answer.start().parse_move("e2-e3").unwrap());
        assert!(
            verdict.says.contains("Black still wins"),
            "{}",
            verdict.says
        );
    }
}
