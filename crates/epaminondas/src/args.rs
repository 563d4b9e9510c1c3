//! Argument parsers shared by the subcommands: each reads a value with the
//! rules library and turns its error into clap's one-line message.

use epaminondas_rules::{BoardSize, Color, Position, Symmetry};

/// A board size, `FILESxRANKS`.
pub fn size(s: &str) -> Result<BoardSize, String> {
    s.parse().map_err(|e| format!("{e}"))
}

/// A symmetry option: `mirror`, `file` or `off`.
pub fn symmetry(s: &str) -> Result<Symmetry, String> {
    s.parse().map_err(|e| format!("{e}"))
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
