//! The symmetry rule option (RULES.md section 4).

use std::fmt;
use std::str::FromStr;

/// Which reading of Abbott's symmetry rule a game is played under.
///
/// Under every option but [`Symmetry::Off`], a move that puts one of the
/// mover's pieces on the mover's goal rank is illegal if the position after
/// it (captures removed) is symmetric in the option's sense.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Symmetry {
    /// The default: Black's army is the mirror image of White's as each player
    /// sees the board, i.e. a white piece stands on `(f, r)` exactly when a
    /// black piece stands on `(f, R+1-r)`. This is what a copying opponent produces.
    #[default]
    Mirror,
    /// The literal reading: the position, colours unchanged, equals its
    /// reflection across the board's vertical centre line (file `a` <-> last file).
    File,
    /// No symmetry rule, as other current servers play.
    Off,
}

impl Symmetry {
    /// All options, the default first.
    pub const ALL: [Symmetry; 3] = [Symmetry::Mirror, Symmetry::File, Symmetry::Off];

    /// The option's name as written in records and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Symmetry::Mirror => "mirror",
            Symmetry::File => "file",
            Symmetry::Off => "off",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text named no symmetry option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSymmetryError(pub String);

impl fmt::Display for ParseSymmetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown symmetry option '{}': expected mirror, file or off",
            self.0
        )
    }
}

impl std::error::Error for ParseSymmetryError {}

impl FromStr for Symmetry {
    type Err = ParseSymmetryError;

    fn from_str(s: &str) -> Result<Symmetry, ParseSymmetryError> {
        Symmetry::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseSymmetryError(crate::excerpt(s)))
    }
}
