//! Conditional moves: the replies a correspondence player leaves for the
//! opponent's next moves ("if they play X, I play Y; then if Z, I play W"),
//! as lichess's conditional premoves and pbmserv's queued moves. Pure logic:
//! the rules library checks every move when the tree is set, and the game
//! plays the reply the moment the opponent's move matches (see
//! [`crate::game::Game::play_checked`]).
//!
//! A tree is kept as its lines, each starting with an opponent's move and
//! alternating from there; lines that share a beginning form its branches.
//! Its text form is one line per branch, moves separated by spaces, lines
//! by `;` or new lines: `a11-a10 b2-b3 c11-c10 d2-d3; a11-a9 a2-a3`.

use std::fmt;

use epaminondas_rules::{Move, ParseMoveError, Position};

/// The most lines a tree may have.
pub const MAX_LINES: usize = 50;
/// The most moves (of both sides) one line may have.
pub const MAX_LINE_MOVES: usize = 40;

/// Why a tree of conditional moves was refused. Nothing was stored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConditionalError {
    /// Conditional moves wait for the opponent's move, so the owner must
    /// not be the one to move.
    #[error("it is your move: play it first, then leave replies for your opponent's next moves")]
    YourMove,
    /// More lines than [`MAX_LINES`].
    #[error("at most {MAX_LINES} lines of conditional moves")]
    TooManyLines,
    /// A line longer than [`MAX_LINE_MOVES`].
    #[error("line {line} is longer than {MAX_LINE_MOVES} moves")]
    TooLong {
        /// The line's number, from 1.
        line: usize,
    },
    /// A line that ends on the opponent's move, with no reply to it.
    #[error("line {line} ends with your opponent's move {last}: add your reply to it")]
    NoReply {
        /// The line's number, from 1.
        line: usize,
        /// The unanswered move.
        last: String,
    },
    /// A move the rules refuse where the line puts it.
    #[error("line {line}, move {index} ({text}): {reason}")]
    Illegal {
        /// The line's number, from 1.
        line: usize,
        /// The move's place in the line, from 1.
        index: usize,
        /// The move as written.
        text: String,
        /// What the rules library says.
        reason: ParseMoveError,
    },
    /// A line that goes on after the game has ended.
    #[error("line {line} goes on after the game ends with its move {index}")]
    AfterEnd {
        /// The line's number, from 1.
        line: usize,
        /// The move that ends the game, from 1.
        index: usize,
    },
    /// Two lines answering the same opponent's move differently.
    #[error("lines {first} and {second} give different replies to {after}")]
    Conflict {
        /// The earlier line's number.
        first: usize,
        /// The later line's number.
        second: usize,
        /// The opponent's move they answer differently.
        after: String,
    },
}

/// A player's tree of conditional moves for one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conditional {
    lines: Vec<Vec<Move>>,
}

impl Conditional {
    /// No conditional moves.
    pub fn none() -> Conditional {
        Conditional::default()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The lines, each starting with an opponent's move.
    pub fn lines(&self) -> &[Vec<Move>] {
        &self.lines
    }

    /// Reads `text` (lines separated by `;` or new lines, moves by spaces) as a tree for the
    /// side not to move in `pos`, checking every move with the rules.
    pub fn parse(pos: &Position, text: &str) -> Result<Conditional, ConditionalError> {
        let lines: Vec<Vec<&str>> = text
            .split([';', '\n'])
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            .filter(|line| !line.is_empty())
            .collect();
        Conditional::from_lines(pos, &lines)
    }

    /// The tree from lines of move texts for the side not to move in `pos`.
    pub fn from_lines<S: AsRef<str>>(
        pos: &Position,
        lines: &[Vec<S>],
    ) -> Result<Conditional, ConditionalError> {
        if lines.len() > MAX_LINES {
            return Err(ConditionalError::TooManyLines);
        }
        let mut tree = Conditional::none();
        for (i, texts) in lines.iter().enumerate() {
            let line = i + 1;
            if texts.len() > MAX_LINE_MOVES {
                return Err(ConditionalError::TooLong { line });
            }
            let mut at = pos.clone();
            let mut moves = Vec::with_capacity(texts.len());
            for (j, text) in texts.iter().enumerate() {
                let text = text.as_ref();
                let mv = at
                    .parse_move(text)
                    .map_err(|reason| ConditionalError::Illegal {
                        line,
                        index: j + 1,
                        text: epaminondas_rules::excerpt(text).to_string(),
                        reason,
                    })?;
                // A parsed move is legal there: playing it cannot fail.
                let _ = at.play(mv);
                moves.push(mv);
                if at.outcome().is_some() && j + 1 < texts.len() {
                    return Err(ConditionalError::AfterEnd { line, index: j + 1 });
                }
            }
            if moves.len() % 2 == 1 {
                return Err(ConditionalError::NoReply {
                    line,
                    last: moves.last().map(Move::to_string).unwrap_or_default(),
                });
            }
            if moves.is_empty() {
                continue;
            }
            for (k, other) in tree.lines.iter().enumerate() {
                // The first difference must be on an opponent's move (an
                // even index), never on a reply.
                let same = other.iter().zip(&moves).take_while(|(a, b)| a == b).count();
                if same % 2 == 1 && same < other.len() && same < moves.len() {
                    return Err(ConditionalError::Conflict {
                        first: k + 1,
                        second: line,
                        after: moves[same - 1].to_string(),
                    });
                }
            }
            tree.lines.push(moves);
        }
        Ok(tree)
    }

    /// The reply to the opponent's `played`, and the tree left after it
    /// (the lines that went on past the reply); `None` when no line
    /// starts with `played`, and then the whole tree is dropped.
    pub fn answer(&self, played: Move) -> Option<(Move, Conditional)> {
        let reply = self
            .lines
            .iter()
            .find(|line| line.first() == Some(&played))
            .map(|line| line[1])?;
        let rest = self
            .lines
            .iter()
            .filter(|line| line[0] == played && line[1] == reply && line.len() > 2)
            .map(|line| line[2..].to_vec())
            .collect();
        Some((reply, Conditional { lines: rest }))
    }

    /// Stored text (one `;` between lines), read back by [`Conditional::parse`]
    /// from the position it was made for.
    pub fn to_text(&self) -> String {
        self.to_string()
    }

    /// The lines as lists of move texts.
    pub fn texts(&self) -> Vec<Vec<String>> {
        self.lines
            .iter()
            .map(|line| line.iter().map(Move::to_string).collect())
            .collect()
    }
}

impl fmt::Display for Conditional {
    /// `a11-a10 b2-b3; a11-a9 a2-a3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            for (j, mv) in line.iter().enumerate() {
                if j > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{mv}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_rules::{BoardSize, Color};

    fn start() -> Position {
        Position::new(BoardSize::new(5, 5).unwrap(), Default::default())
    }

    /// The position after White's first legal move: White waits for Black.
    fn waiting() -> Position {
        let mut pos = start();
        let first = pos.legal_moves()[0];
        pos.play(first).unwrap();
        pos
    }

    fn legal(pos: &Position, n: usize) -> String {
        pos.legal_moves()[n].to_string()
    }

    #[test]
    fn a_matching_move_gets_its_reply_and_the_rest_of_the_line() {
        let pos = waiting();
        assert_eq!(pos.turn(), Color::Black);
        let (x, z) = (legal(&pos, 0), legal(&pos, 1));
        let mut after_x = pos.clone();
        after_x.play(after_x.parse_move(&x).unwrap()).unwrap();
        let y = legal(&after_x, 0);
        let mut after_y = after_x.clone();
        after_y.play(after_y.parse_move(&y).unwrap()).unwrap();
        let (x2, y2) = (legal(&after_y, 0), {
            let mut p = after_y.clone();
            p.play(p.legal_moves()[0]).unwrap();
            legal(&p, 0)
        });
        let text = format!("{x} {y} {x2} {y2}\n{z} {}", {
            let mut p = pos.clone();
            p.play(p.parse_move(&z).unwrap()).unwrap();
            legal(&p, 0)
        });
        let tree = Conditional::parse(&pos, &text).unwrap();
        assert_eq!(tree.lines().len(), 2);
        assert_eq!(Conditional::parse(&pos, &tree.to_text()).unwrap(), tree);
        let (reply, rest) = tree.answer(pos.parse_move(&x).unwrap()).unwrap();
        assert_eq!(reply.to_string(), y);
        assert_eq!(rest.texts(), vec![vec![x2, y2]]);
        // A move no line foresaw drops the tree.
        let other = legal(&pos, 2);
        assert!(tree.answer(pos.parse_move(&other).unwrap()).is_none());
    }

    #[test]
    fn bad_trees_are_refused_with_the_line_and_the_reason() {
        let pos = waiting();
        let x = legal(&pos, 0);
        let mut after_x = pos.clone();
        after_x.play(after_x.parse_move(&x).unwrap()).unwrap();
        let (y, y2) = (legal(&after_x, 0), legal(&after_x, 1));
        assert!(matches!(
            Conditional::parse(&pos, &x),
            Err(ConditionalError::NoReply { line: 1, .. })
        ));
        let e = Conditional::parse(&pos, &format!("{x} zz")).unwrap_err();
        assert!(
            matches!(
                e,
                ConditionalError::Illegal {
                    line: 1,
                    index: 2,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().starts_with("line 1, move 2 (zz): "), "{e}");
        // White's own move where Black's is expected.
        assert!(matches!(
            Conditional::parse(&pos, "a1-a2 a5-a4"),
            Err(ConditionalError::Illegal { index: 1, .. })
        ));
        let conflict = Conditional::parse(&pos, &format!("{x} {y}; {x} {y2}")).unwrap_err();
        assert_eq!(
            conflict,
            ConditionalError::Conflict {
                first: 1,
                second: 2,
                after: x.clone()
            }
        );
        let many = vec![format!("{x} {y}"); MAX_LINES + 1].join(";");
        assert_eq!(
            Conditional::parse(&pos, &many),
            Err(ConditionalError::TooManyLines)
        );
        assert_eq!(
            Conditional::parse(&pos, " ; \n").unwrap(),
            Conditional::none()
        );
    }
}
