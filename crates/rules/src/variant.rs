//! The game and its family (RULES.md section 7): which rules a position is
//! played under, beside its board size and symmetry option.

use std::fmt;
use std::str::FromStr;

use crate::{BoardSize, Symmetry};

/// Epaminondas or one of the games of its family that this library plays.
///
/// A variant is part of a game's rules like the board size and the
/// symmetry option: it is recorded with the game and never changes during it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// The standard game (RULES.md sections 1-6).
    #[default]
    Epaminondas,
    /// Abbott's Crossings (1963), the game Epaminondas grew from: a capture
    /// takes only the piece on the landing square, and a piece on its
    /// owner's goal rank can neither move nor be captured (section 7.1).
    Crossings,
    /// Epaminondas where a run of two or more pieces may also sidestep one
    /// square off its line (section 7.2).
    Abanondas,
    /// Epaminondas with three neutral stones, placed by White, Black and
    /// White before Black makes the first move (section 7.3).
    StumblingBlocks,
}

/// The number of stones placed in [`Variant::StumblingBlocks`].
pub const STONES: u8 = 3;

impl Variant {
    /// Every variant, the standard game first.
    pub const ALL: [Variant; 4] = [
        Variant::Epaminondas,
        Variant::Crossings,
        Variant::Abanondas,
        Variant::StumblingBlocks,
    ];

    /// The variant's name as written in records, on the command line and
    /// in the UGI option: `epaminondas`, `crossings`, `abanondas`,
    /// `stumbling-blocks`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Epaminondas => "epaminondas",
            Variant::Crossings => "crossings",
            Variant::Abanondas => "abanondas",
            Variant::StumblingBlocks => "stumbling-blocks",
        }
    }

    /// The variant's name for people: `Epaminondas`, `Crossings`,
    /// `Abanondas`, `Stumbling Blocks`.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Epaminondas => "Epaminondas",
            Variant::Crossings => "Crossings",
            Variant::Abanondas => "Abanondas",
            Variant::StumblingBlocks => "Stumbling Blocks",
        }
    }

    /// The board a game of this variant is played on unless the players
    /// choose another: 8x8 for Crossings, 14x12 for the others.
    pub const fn default_size(self) -> BoardSize {
        match self {
            Variant::Crossings => BoardSize::CROSSINGS,
            _ => BoardSize::STANDARD,
        }
    }

    /// The symmetry option a game of this variant is played under unless
    /// the players choose another: `off` for Crossings (no source of it
    /// has the rule), `mirror` for the others.
    pub const fn default_symmetry(self) -> Symmetry {
        match self {
            Variant::Crossings => Symmetry::Off,
            _ => Symmetry::Mirror,
        }
    }

    /// The fewest ranks a board of this variant may have: 5 for Stumbling
    /// Blocks (its stones need a rank between the armies), 4 for the rest.
    pub const fn min_ranks(self) -> u8 {
        match self {
            Variant::StumblingBlocks => 5,
            _ => crate::MIN_DIMENSION,
        }
    }

    /// The ranks (from 0) Stumbling Blocks' stones are placed on, on a board
    /// of `size`: ranks 4 to R-3 (written from 1), or 3 to R-2 on boards
    /// of fewer than 8 ranks (RULES.md section 7.3).
    pub fn placement_ranks(size: BoardSize) -> std::ops::RangeInclusive<u8> {
        let ranks = size.ranks();
        if ranks >= 8 {
            3..=ranks - 4
        } else {
            2..=ranks.saturating_sub(3)
        }
    }

    /// What the variant changes, in a sentence for people choosing a game
    /// (RULES.md section 7 has the whole rules).
    pub const fn summary(self) -> &'static str {
        match self {
            Variant::Epaminondas => {
                "The standard game: phalanxes move and capture shorter enemy lines; \
                 cross more pieces onto the far rank than your opponent has on yours."
            }
            Variant::Crossings => {
                "Abbott's 1963 original: a capture takes only the piece landed on, and a \
                 piece on the far rank is frozen (it cannot move or be taken); the third \
                 repetition of a position draws."
            }
            Variant::Abanondas => {
                "Epaminondas where a run of two or more pieces may also sidestep one square \
                 off its line onto empty squares (a diagonal run only straight up, down or \
                 sideways)."
            }
            Variant::StumblingBlocks => {
                "Epaminondas where White, Black and White first place a neutral stone each \
                 in the middle of the board, then Black moves first; stones block moves and \
                 end lines."
            }
        }
    }

    /// Whether the variant is the standard game.
    pub const fn is_standard(self) -> bool {
        matches!(self, Variant::Epaminondas)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text named no variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseVariantError(pub String);

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}': expected epaminondas, crossings, abanondas or stumbling-blocks",
            self.0
        )
    }
}

impl std::error::Error for ParseVariantError {}

impl FromStr for Variant {
    type Err = ParseVariantError;

    /// Reads a variant's name in any letter case; `standard` names the
    /// standard game, and a space or `_` may stand for the `-` of
    /// `stumbling-blocks`.
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        let wanted = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        if wanted == "standard" {
            return Ok(Variant::Epaminondas);
        }
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == wanted)
            .ok_or_else(|| ParseVariantError(crate::excerpt(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for variant in Variant::ALL {
            assert_eq!(variant.name().parse(), Ok(variant));
            assert_eq!(variant.title().parse(), Ok(variant));
        }
        assert_eq!("Stumbling_Blocks".parse(), Ok(Variant::StumblingBlocks));
        assert_eq!("standard".parse(), Ok(Variant::Epaminondas));
        let err = "chess".parse::<Variant>().unwrap_err();
        assert!(err.to_string().contains("'chess'"), "{err}");
    }
}
