//! Argument parsers shared by the subcommands: each reads a value with the
//! rules library and turns its error into clap's one-line message.

use epaminondas_rules::{BoardSize, Color, Position, Symmetry, Variant};

/// A board size, `FILESxRANKS`.
pub fn size(s: &str) -> Result<BoardSize, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// A symmetry option: `mirror`, `file` or `off`.
pub fn symmetry(s: &str) -> Result<Symmetry, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// A variant: `epaminondas`, `crossings`, `abanondas` or `stumbling-blocks`.
pub fn variant(s: &str) -> Result<Variant, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// The start of the game some options name: `position` if given (read
/// under `variant`), else `variant`'s start on `board`; `board` and
/// `symmetry` default to the variant's (14x12 and mirror, for Crossings 8x8
/// and off).
pub fn game_start(
    variant: Variant,
    board: Option<BoardSize>,
    symmetry: Option<Symmetry>,
    position: Option<&Position>,
) -> Result<Position, String> {
    let symmetry = symmetry.unwrap_or(variant.default_symmetry());
    let start = match position {
        Some(pos) => pos.with_symmetry(symmetry).with_variant(variant),
        None => Position::new_variant(variant, board.unwrap_or(variant.default_size()), symmetry),
    };
    start.map_err(|e| e.to_string())
}

/// Position text.
pub fn position(s: &str) -> Result<Position, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// A side: `white` or `black` (or `w`, `b`).
pub fn color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("'{s}' is not a side: expected white or black")),
    }
}

/// A whole number of 1 or more (milliseconds, nodes, games ...).
pub fn positive(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("must be 1 or more, not 0".to_owned()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{s}' is not a whole number")),
    }
}
