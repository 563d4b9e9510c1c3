//! The static evaluation: how good a quiet position is for the side to move.
//!
//! A linear sum of features, each counted for both sides: material, how far
//! the pieces have advanced, and pieces already on the goal rank. The weights
//! are a hand-set start; tuning them on self-play positions is future work.

use epaminondas_rules::{Color, Position};

/// The weights of the evaluation terms, in hundredths of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each piece.
    pub piece: i32,
    /// A piece on the far side of the board, scaled down linearly to 0 on the
    /// home rank.
    pub advance: i32,
    /// Each piece on the goal rank (beyond its advancement).
    pub crossed: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            piece: 100,
            advance: 40,
            crossed: 60,
        }
    }
}

/// The evaluation of `pos` for the side to move, with `weights`.
pub fn evaluate_with(pos: &Position, weights: &Weights) -> i32 {
    let us = pos.turn();
    side(pos, us, weights) - side(pos, !us, weights)
}

/// The evaluation of `pos` for the side to move, with the default weights.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::default())
}

/// The terms of one side.
fn side(pos: &Position, color: Color, weights: &Weights) -> i32 {
    let ranks = pos.size().ranks();
    let last = i32::from(ranks) - 1;
    let mut advance = 0;
    for rank in 0..ranks {
        let progress = match color {
            Color::White => i32::from(rank),
            Color::Black => last - i32::from(rank),
        };
        advance += progress * pos.count_on_rank(color, rank) as i32;
    }
    weights.piece * pos.count(color) as i32
        + weights.advance * advance / last
        + weights.crossed * pos.goal_count(color) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_level_and_colours_are_symmetric() {
        assert_eq!(evaluate(&Position::standard()), 0);
        // The same position seen from the other side, colours swapped and
        // the board turned: equal evaluations.
        let a: Position = "4/1b2/4/w3 w".parse().unwrap();
        let b: Position = "b3/4/1w2/4 b".parse().unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
        // Material counts.
        let up: Position = "3b/4/4/ww2 w".parse().unwrap();
        assert!(evaluate(&up) > 50);
    }
}
