//! The analysis board: any position (from text, a record or the editor) and
//! a line of moves from it, replayed by the rules for a client to step
//! through, and searched by the engine on request.

use epaminondas_rules::{BoardSize, Color, GameRecord, Position, Setup, Square, Symmetry};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::board::{move_view, position_view};
use crate::error::{ApiError, ApiResult};

/// A position and a line of moves from it. The position is one of: `start`
/// (position text), `rows` with `turn` (from the editor), or the starting
/// position of `board`; the standard board's start if none is given.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    /// Position text to start from.
    pub start: Option<String>,
    /// The pieces rank by rank, top rank first: `w`, `b` or `.` per file.
    pub rows: Option<Vec<String>>,
    /// The side to move with `rows`: `white` or `black` (default white).
    pub turn: Option<String>,
    /// The board size for its starting position, such as `8x8`.
    pub board: Option<String>,
    /// The symmetry rule option (default mirror).
    pub symmetry: Option<String>,
    /// Moves played from the position, in any notation the rules read.
    #[serde(default)]
    pub moves: Vec<String>,
}

impl Line {
    /// The position the line starts from.
    pub fn start_position(&self) -> ApiResult<Position> {
        let symmetry = match &self.symmetry {
            Some(text) => text
                .parse::<Symmetry>()
                .map_err(|e| ApiError::bad(e.to_string()))?,
            None => Symmetry::default(),
        };
        let setup = match (&self.start, &self.rows, &self.board) {
            (Some(_), Some(_), _) => {
                return Err(ApiError::bad("give either start or rows, not both"));
            }
            (Some(text), None, _) => text
                .parse::<Setup>()
                .map_err(|e| ApiError::bad(format!("the position {text:?}: {e}")))?,
            (None, Some(rows), _) => setup_from_rows(rows, self.turn.as_deref())?,
            (None, None, Some(board)) => Setup::start(
                board
                    .parse::<BoardSize>()
                    .map_err(|e| ApiError::bad(format!("board {board:?}: {e}")))?,
            ),
            (None, None, None) => Setup::start(BoardSize::STANDARD),
        };
        Position::from_setup(&setup, symmetry)
            .map_err(|e| ApiError::bad(format!("that position cannot be played: {e}")))
    }

    /// The line as a record: every move checked by the rules. An illegal
    /// move is refused with its number.
    pub fn replay(&self) -> ApiResult<GameRecord> {
        let mut record = GameRecord::new(self.start_position()?);
        for text in &self.moves {
            record
                .push_text(text)
                .map_err(|e| ApiError::bad(e.to_string()))?;
        }
        Ok(record)
    }
}

/// The position of an editor's `rows` (top rank first) with `turn` to move.
fn setup_from_rows(rows: &[String], turn: Option<&str>) -> ApiResult<Setup> {
    let ranks = u8::try_from(rows.len()).map_err(|_| ApiError::bad("too many rows"))?;
    let files = rows.first().map_or(0, |r| r.chars().count());
    if rows.iter().any(|r| r.chars().count() != files) {
        return Err(ApiError::bad(
            "every row must have the same number of squares",
        ));
    }
    let files = u8::try_from(files).map_err(|_| ApiError::bad("rows are too long"))?;
    let size = BoardSize::new(files, ranks)
        .map_err(|e| ApiError::bad(format!("a board of {files}x{ranks}: {e}")))?;
    let turn = match turn.unwrap_or("white") {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        other => {
            return Err(ApiError::bad(format!("turn {other:?}: use white or black")));
        }
    };
    let mut pieces = Vec::new();
    for (from_top, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - from_top as u8;
        for (file, c) in row.chars().enumerate() {
            let color = match c {
                'w' | 'W' => Color::White,
                'b' | 'B' => Color::Black,
                '.' | '-' => continue,
                other => {
                    return Err(ApiError::bad(format!(
                        "square {other:?} in a row: use w, b or ."
                    )));
                }
            };
            let square = Square::new(file as u8, rank)
                .ok_or_else(|| ApiError::bad("a square is off the board"))?;
            pieces.push((square, color));
        }
    }
    Ok(Setup { size, pieces, turn })
}

/// What a client needs to show a line: where it starts, its moves, and the
/// position at its end with the legal moves there.
pub fn line_view(record: &GameRecord) -> Value {
    let mut state = position_view(record.position());
    state["last"] = record
        .moves()
        .last()
        .map_or(Value::Null, |&mv| move_view(mv));
    json!({
        "start": record.start().to_setup().to_string(),
        "symmetry": record.start().symmetry().name(),
        "moves": record.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "result": record.result().token(),
        "state": state,
    })
}

/// Reads a game record (in any dialect the rules read) into a line.
pub fn read_record(text: &str) -> ApiResult<GameRecord> {
    text.parse::<GameRecord>()
        .map_err(|e| ApiError::bad(format!("the record: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(json: Value) -> Line {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_line_is_replayed_by_the_rules() {
        let record = line(json!({"board": "8x8", "moves": ["a2-a3", "a7-a6"]}))
            .replay()
            .unwrap();
        let view = line_view(&record);
        assert_eq!(view["moves"], json!(["a2-a3", "a7-a6"]));
        assert_eq!(view["state"]["turn"], "white");
        assert_eq!(view["state"]["last"]["to"], "a6");
    }

    #[test]
    fn bad_lines_are_refused_with_a_reason() {
        let illegal = line(json!({"board": "8x8", "moves": ["a2-a3", "a2-a3"]})).replay();
        assert!(illegal.unwrap_err().to_string().contains("a2-a3"));
        let uneven = line(json!({"rows": ["w.", "b"]})).replay();
        assert!(uneven.unwrap_err().to_string().contains("same number"));
        let letter = line(json!({"rows": ["wx..", "....", "....", "b..."]})).start_position();
        assert!(letter.unwrap_err().to_string().contains("'x'"));
        let both = line(json!({"start": "8/8 w", "rows": ["w"]})).start_position();
        assert!(both.is_err());
    }

    #[test]
    fn the_editor_rows_make_a_position() {
        let rows: Vec<String> = ["b.b.", "....", "....", ".w.w"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let line = Line {
            rows: Some(rows.clone()),
            turn: Some("black".into()),
            ..Line::default()
        };
        let pos = line.start_position().unwrap();
        assert_eq!(pos.turn(), Color::Black);
        assert_eq!(crate::board::rows(&pos), rows);
    }
}
