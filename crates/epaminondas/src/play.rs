//! `epaminondas play`: a game in the terminal (see the `epaminondas-tui` crate).

use std::path::PathBuf;

use clap::Args;
use epaminondas_engine::Level;
use epaminondas_rules::{BoardSize, Color, GameRecord, Position, Setup, Symmetry};
use epaminondas_tui::Options;

/// Arguments of `epaminondas play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Play against the engine at this level (1 weakest, 10 full strength);
    /// without it two people take turns at the keyboard.
    #[arg(long, value_parser = level)]
    ai: Option<Level>,
    /// Your side against the engine: white (moves first) or black.
    #[arg(long = "as", value_parser = crate::args::color, default_value = "white")]
    side: Color,
    /// Board size as FILESxRANKS (default 14x12).
    #[arg(long, value_parser = crate::args::size, conflicts_with_all = ["position", "load"])]
    board: Option<BoardSize>,
    /// Symmetry rule option: mirror, file or off.
    #[arg(long, value_parser = crate::args::symmetry, conflicts_with = "load")]
    symmetry: Option<Symmetry>,
    /// Start from this position (position text).
    #[arg(long, conflicts_with = "load")]
    position: Option<String>,
    /// Continue the game in this record file.
    #[arg(long)]
    load: Option<PathBuf>,
    /// Where `save` writes when given no file (default: epaminondas-game.txt,
    /// or the loaded record).
    #[arg(long)]
    save: Option<PathBuf>,
}

fn level(s: &str) -> Result<Level, String> {
    s.parse::<u8>()
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("'{s}' is not a level: expected 1 to 10"))
}

/// Runs `epaminondas play`.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    epaminondas_tui::run(options(args)?)
}

/// The game `args` describe.
fn options(args: &PlayArgs) -> Result<Options, String> {
    let symmetry = args.symmetry.unwrap_or_default();
    let record = match (&args.load, &args.position) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            text.parse::<GameRecord>()
                .map_err(|e| format!("{}: {e}", path.display()))?
        }
        (None, Some(text)) => {
            let setup: Setup = text
                .parse()
                .map_err(|e| format!("--position '{text}': {e}"))?;
            let pos = Position::from_setup(&setup, symmetry)
                .map_err(|e| format!("--position '{text}': {e}"))?;
            GameRecord::new(pos)
        }
        (None, None) => GameRecord::new(Position::new(args.board.unwrap_or_default(), symmetry)),
    };
    let save_path = args
        .save
        .clone()
        .or_else(|| args.load.clone())
        .unwrap_or_else(|| PathBuf::from("epaminondas-game.txt"));
    Ok(Options {
        ai: args.ai,
        human: args.side,
        record,
        save_path,
    })
}
