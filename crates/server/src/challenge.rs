//! Challenges: an invitation to a game, to a named player or as an open
//! seek anyone may accept, with the game's options. A game exists only once
//! the other player has accepted.

use std::fmt;
use std::str::FromStr;

use epaminondas_rules::{BoardSize, Color, Position, PositionError, Symmetry, Variant, excerpt};

use crate::game::{Player, TimeControl};

/// Which side the challenger takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// White (moves first).
    White,
    /// Black.
    Black,
    /// Decided by a coin toss when the challenge is accepted.
    Random,
}

impl ColorChoice {
    /// Every choice.
    pub const ALL: [ColorChoice; 3] = [ColorChoice::White, ColorChoice::Black, ColorChoice::Random];

    /// The name in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
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

impl fmt::Display for ColorChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ColorChoice {
    type Err = String;

    /// Reads `white`, `black` or `random` (or what the rules library reads
    /// as a colour, like `w` and `b`).
    fn from_str(s: &str) -> Result<ColorChoice, String> {
        if s.trim().eq_ignore_ascii_case("random") {
            return Ok(ColorChoice::Random);
        }
        match s.parse::<Color>() {
            Ok(Color::White) => Ok(ColorChoice::White),
            Ok(Color::Black) => Ok(ColorChoice::Black),
            Err(_) => Err(format!(
                "colour {:?}: use white, black or random",
                excerpt(s)
            )),
        }
    }
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeStatus {
    /// Waiting for an answer.
    Open,
    /// Accepted: the game began.
    Accepted,
    /// Declined by the challenged player.
    Declined,
    /// Withdrawn by the challenger (or closed with the account).
    Canceled,
}

impl ChallengeStatus {
    /// Every status.
    pub const ALL: [ChallengeStatus; 4] = [
        ChallengeStatus::Open,
        ChallengeStatus::Accepted,
        ChallengeStatus::Declined,
        ChallengeStatus::Canceled,
    ];

    /// The name in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Canceled => "canceled",
        }
    }
}

impl fmt::Display for ChallengeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ChallengeStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<ChallengeStatus, String> {
        ChallengeStatus::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown challenge status {:?}", excerpt(s)))
    }
}

/// A challenge and its state.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    /// Its number: taken from the same sequence as board numbers, so that a
    /// number names either a challenge or a game, never both.
    pub id: i64,
    /// Who made it.
    pub challenger: Player,
    /// Whom it is for; `None` for an open seek.
    pub target: Option<Player>,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// The game of the family it is for.
    pub variant: Variant,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// Whether the game is rated.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// The game, once accepted.
    pub game_id: Option<i64>,
    /// When it was made.
    pub created_at: i64,
}

impl Challenge {
    /// The game's starting position (an error only if the stored board
    /// does not suit the variant).
    pub fn start(&self) -> Result<Position, PositionError> {
        Position::new_variant(self.variant, self.size, self.symmetry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_and_statuses_read_back() {
        for choice in ColorChoice::ALL {
            assert_eq!(choice.to_string().parse::<ColorChoice>(), Ok(choice));
        }
        assert_eq!("B".parse::<ColorChoice>(), Ok(ColorChoice::Black));
        assert!(
            "green"
                .parse::<ColorChoice>()
                .unwrap_err()
                .contains("random")
        );
        for status in ChallengeStatus::ALL {
            assert_eq!(status.name().parse::<ChallengeStatus>(), Ok(status));
        }
        assert_eq!(ColorChoice::Random.resolve(true), Color::White);
        assert_eq!(ColorChoice::Random.resolve(false), Color::Black);
    }
}
