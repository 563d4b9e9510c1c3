//! The board as a client draws it: the pieces rank by rank and every legal
//! move with the squares it touches. Clients (the web page among them) hold
//! no rules: what they highlight and send comes from here.

use epaminondas_rules::{Color, Move, Position, Square, WinReason};
use serde_json::{Value, json};

use crate::game::color_name;

/// The pieces, top rank first: one string per rank, `w`, `b` or `.` per file.
pub fn rows(pos: &Position) -> Vec<String> {
    let size = pos.size();
    (0..size.ranks())
        .rev()
        .map(|rank| {
            (0..size.files())
                .map(|file| {
                    let piece = Square::new(file, rank).and_then(|sq| pos.piece_at(sq));
                    match piece {
                        Some(Color::White) => 'w',
                        Some(Color::Black) => 'b',
                        None => '.',
                    }
                })
                .collect()
        })
        .collect()
}

/// One move as text plus the squares a display marks: the moving group, the
/// head's destination and the captured pieces.
pub fn move_view(mv: Move) -> Value {
    let names = |squares: &mut dyn Iterator<Item = Square>| -> Vec<String> {
        squares.map(|sq| sq.to_string()).collect()
    };
    json!({
        "text": mv.to_string(),
        "from": names(&mut mv.group_squares()),
        "to": mv.destination().to_string(),
        "captured": names(&mut mv.captured_squares()),
    })
}

/// Every legal move of `pos` as [`move_view`]s.
pub fn legal_views(pos: &Position) -> Vec<Value> {
    pos.legal_moves().iter().map(|&mv| move_view(mv)).collect()
}

/// A position for a client: its text, pieces, side to move, goal counts,
/// how the game has ended there (if it has) and the legal moves.
pub fn position_view(pos: &Position) -> Value {
    let outcome = pos.outcome().map(|o| {
        json!({
            "winner": color_name(o.winner),
            "reason": match o.reason {
                WinReason::Crossing => "crossing",
                WinReason::NoMoves => "no_moves",
            },
            "text": o.to_string(),
        })
    });
    json!({
        "position": pos.to_setup().to_string(),
        "board": pos.size().to_string(),
        "files": pos.size().files(),
        "ranks": pos.size().ranks(),
        "symmetry": pos.symmetry().name(),
        "rows": rows(pos),
        "turn": color_name(pos.turn()),
        "goal": {
            "white": pos.goal_count(Color::White),
            "black": pos.goal_count(Color::Black),
        },
        "outcome": outcome,
        "legal": legal_views(pos),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_rules::BoardSize;

    #[test]
    fn rows_run_from_the_top_rank_down() {
        let pos = Position::new(BoardSize::new(8, 8).unwrap(), Default::default());
        let rows = rows(&pos);
        assert_eq!(rows.len(), 8);
        assert_eq!(rows[0], "bbbbbbbb");
        assert_eq!(rows[3], "........");
        assert_eq!(rows[7], "wwwwwwww");
    }

    #[test]
    fn every_legal_move_is_described_with_its_squares() {
        let pos = Position::new(BoardSize::new(8, 8).unwrap(), Default::default());
        let legal = legal_views(&pos);
        assert_eq!(legal.len(), pos.legal_moves().len());
        let single = legal
            .iter()
            .find(|m| m["text"] == "a2-a3")
            .expect("a2-a3 is legal at the start");
        assert_eq!(single["from"], json!(["a2"]));
        assert_eq!(single["to"], "a3");
        assert_eq!(single["captured"], json!([]));
    }
}
