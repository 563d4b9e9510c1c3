//! The analysis board's lines: any position (from position text, the
//! editor's rows or a board's start) and moves from it, replayed by the
//! rules library, which decides and explains every refusal.

use epaminondas_rules::{Color, GameRecord, Position, Setup, Symmetry, Variant};
use serde::Deserialize;

use crate::error::{Error, Result};

/// A position and a line of moves from it. The position is one of: `start`
/// (position text), `rows` with `turn` (from the editor), or the starting
/// position of `board`; the variant's own board's start if none is given.
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
    /// The symmetry rule option (default the variant's: mirror but in
    /// Crossings).
    pub symmetry: Option<String>,
    /// The game of the family the line is played in (default the standard
    /// game).
    pub variant: Option<String>,
    /// Moves played from the position, in any notation the rules read.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// The most moves a line may have (the longest real games are a few
/// hundred moves).
const MAX_MOVES: usize = 2_000;

impl Line {
    /// The position the line starts from.
    pub fn start_position(&self) -> Result<Position> {
        let invalid = |e: &dyn std::fmt::Display| Error::invalid(e.to_string());
        let variant = match &self.variant {
            Some(text) => text.parse::<Variant>().map_err(|e| invalid(&e))?,
            None => Variant::Epaminondas,
        };
        let symmetry = match &self.symmetry {
            Some(text) => text.parse::<Symmetry>().map_err(|e| invalid(&e))?,
            None => variant.default_symmetry(),
        };
        let setup = match (&self.start, &self.rows, &self.board) {
            (Some(_), Some(_), _) => {
                return Err(Error::invalid("give either start or rows, not both"));
            }
            (Some(text), None, _) => text
                .parse::<Setup>()
                .map_err(|e| Error::invalid(format!("the position cannot be read: {e}")))?,
            (None, Some(rows), _) => {
                let turn = match &self.turn {
                    Some(text) => text.parse::<Color>().map_err(|e| invalid(&e))?,
                    None => Color::White,
                };
                Setup::from_rows(rows, turn).map_err(|e| invalid(&e))?
            }
            (None, None, Some(board)) => Setup::start(board.parse().map_err(|e| invalid(&e))?),
            (None, None, None) => Setup::start(variant.default_size()),
        };
        Position::from_setup_in(variant, &setup, symmetry)
            .map_err(|e| Error::invalid(format!("that position cannot be played: {e}")))
    }

    /// The line as a record: every move checked by the rules. An illegal
    /// move is refused with its number and the rules' reason.
    pub fn replay(&self) -> Result<GameRecord> {
        if self.moves.len() > MAX_MOVES {
            return Err(Error::invalid(format!(
                "a line has at most {MAX_MOVES} moves"
            )));
        }
        let mut record = GameRecord::new(self.start_position()?);
        for text in &self.moves {
            record
                .push_text(text)
                .map_err(|e| Error::invalid(e.to_string()))?;
        }
        Ok(record)
    }
}

/// Reads a game record (in any dialect the rules read).
pub fn read_record(text: &str) -> Result<GameRecord> {
    text.parse::<GameRecord>()
        .map_err(|e| Error::invalid(format!("the record: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn line(json: Value) -> Line {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_line_is_replayed_by_the_rules() {
        let record = line(json!({"board": "8x8", "moves": ["a2-a3", "a7-a6"]}))
            .replay()
            .unwrap();
        assert_eq!(record.moves().len(), 2);
        assert_eq!(record.position().turn(), Color::White);
    }

    #[test]
    fn bad_lines_are_refused_with_a_reason() {
        let illegal = line(json!({"board": "8x8", "moves": ["a2-a3", "a2-a3"]})).replay();
        assert!(illegal.unwrap_err().to_string().contains("a2-a3"));
        let uneven = line(json!({"rows": ["w...", "b...", "...", "...."]})).replay();
        assert!(
            uneven
                .unwrap_err()
                .to_string()
                .contains("rank 2 has 3 squares")
        );
        let variant = line(json!({"variant": "chess"})).start_position();
        assert!(variant.unwrap_err().to_string().contains("unknown variant"));
        let letter = line(json!({"rows": ["wx..", "....", "....", "b..."]})).start_position();
        assert!(letter.unwrap_err().to_string().contains("'x'"));
        let both = line(json!({"start": "8/8 w", "rows": ["w"]})).start_position();
        assert!(both.is_err());
        let turn = line(json!({"rows": ["b...", "....", "....", "...w"], "turn": "red"}));
        assert!(
            turn.start_position()
                .unwrap_err()
                .to_string()
                .contains("'red'")
        );
    }

    #[test]
    fn a_line_of_a_variant_starts_on_its_board_with_its_rules() {
        let crossings = line(json!({"variant": "crossings"}))
            .start_position()
            .unwrap();
        assert_eq!(crossings.variant(), Variant::Crossings);
        assert_eq!(crossings.size().to_string(), "8x8");
        assert_eq!(crossings.symmetry(), Symmetry::Off);
        // Stumbling Blocks begins with placements: White, Black, White,
        // then Black moves a piece.
        let record = line(json!({"variant": "stumbling-blocks", "board": "8x8",
                                 "moves": ["@d4", "@e5", "@a4", "a7-a6"]}))
        .replay()
        .unwrap();
        assert_eq!(record.position().stones().len(), 3);
        assert_eq!(record.position().turn(), Color::White);
        // A sidestep is a move only in Abanondas.
        let sidestep = json!({"board": "8x8", "moves": ["a2,b2-b3"]});
        assert!(line(sidestep.clone()).replay().is_err());
        let mut abanondas = sidestep;
        abanondas["variant"] = "abanondas".into();
        assert_eq!(line(abanondas).replay().unwrap().moves().len(), 1);
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
        assert_eq!(pos.to_setup().rows(), rows);
    }
}
