//! Challenges: an invitation to a game, to a named player or as an open
//! seek anyone may accept, with the game's options.

use epaminondas_rules::{BoardSize, Color, Symmetry};
use serde::Serialize;

use crate::game::{Player, TimeControl};

/// Which side the challenger takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    /// White (moves first).
    White,
    /// Black.
    Black,
    /// Decided by a coin toss when the challenge is accepted.
    Random,
}

impl ColorChoice {
    /// The name in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    /// The choice named `name`.
    pub fn from_name(name: &str) -> Option<ColorChoice> {
        [ColorChoice::White, ColorChoice::Black, ColorChoice::Random]
            .into_iter()
            .find(|c| c.name() == name)
    }

    /// The challenger's colour, `coin` deciding a random choice.
    pub fn resolve(self, coin: bool) -> Color {
        match self {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random if coin => Color::White,
            ColorChoice::Random => Color::Black,
        }
    }
}

/// A challenge and its state.
#[derive(Clone, Debug)]
pub struct Challenge {
    /// Its number.
    pub id: i64,
    /// Who made it.
    pub challenger: Player,
    /// Whom it is for; `None` for an open seek.
    pub target: Option<Player>,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// Whether the game is rated.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
    /// `open`, `accepted`, `declined` or `canceled`.
    pub status: String,
    /// The game, once accepted.
    pub game_id: Option<i64>,
    /// When it was made.
    pub created_at: i64,
}

impl Challenge {
    /// The challenge as the API shows it.
    pub fn view(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "challenger": self.challenger.name,
            "opponent": self.target.as_ref().map(|p| p.name.clone()),
            "board": self.size.to_string(),
            "files": self.size.files(),
            "ranks": self.size.ranks(),
            "symmetry": self.symmetry.name(),
            "color": self.color.name(),
            "rated": self.rated,
            "time": self.control,
            "status": self.status,
            "game": self.game_id,
            "created_at": self.created_at,
        })
    }
}
