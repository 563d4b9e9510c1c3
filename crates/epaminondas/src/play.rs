//! `epaminondas play`: a game in the terminal (see the `epaminondas-tui` crate).

use std::path::PathBuf;

use crate::output::{Failure, Outcome};
use clap::Args;
use epaminondas_engine::Level;
use epaminondas_rules::{BoardSize, Color, GameRecord, Position, Setup, Symmetry, Variant};
use epaminondas_tui::Options;
use epaminondas_tui::view::Theme;

/// Arguments of `epaminondas play`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas play --ai 3\n  epaminondas play --ai 6 --as black --board 8x8\n  epaminondas play --load games.txt --game 2\n  epaminondas play --ai 5 --variant crossings"
)]
pub struct PlayArgs {
    /// Play against the engine at this level (1 weakest, 10 full strength);
    /// without it two people take turns at the keyboard.
    #[arg(long, value_parser = level)]
    ai: Option<Level>,
    /// Your side against the engine: white (moves first) or black.
    #[arg(long = "as", value_parser = crate::args::color, default_value = "white")]
    side: Color,
    /// The game: epaminondas (the default), crossings, abanondas or
    /// stumbling-blocks.
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant, conflicts_with = "load")]
    variant: Variant,
    /// Board size as FILESxRANKS (default: the variant's, 14x12; 8x8 for crossings).
    #[arg(long, value_parser = crate::args::size, conflicts_with_all = ["position", "load"])]
    board: Option<BoardSize>,
    /// Symmetry rule option: mirror, file or off (default: the variant's,
    /// mirror; off for crossings).
    #[arg(long, value_parser = crate::args::symmetry, conflicts_with = "load")]
    symmetry: Option<Symmetry>,
    /// Start from this position (position text).
    #[arg(long, conflicts_with = "load")]
    position: Option<String>,
    /// Continue the game in this record file.
    #[arg(long)]
    load: Option<PathBuf>,
    /// Which game of a file of several to continue (1 for the first).
    #[arg(long, requires = "load")]
    game: Option<usize>,
    /// Where `save` writes when given no file (default: epaminondas-game.txt,
    /// or the loaded record).
    #[arg(long)]
    save: Option<PathBuf>,
    /// The colours: `dark` (for a dark terminal background), `light` or
    /// `plain` (no colour). Setting the NO_COLOR environment variable
    /// chooses plain.
    #[arg(long, value_parser = ["dark", "light", "plain"])]
    theme: Option<String>,
}

fn level(s: &str) -> Result<Level, String> {
    s.parse::<u8>()
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("'{s}' is not a level: expected 1 to 10"))
}

/// Runs `epaminondas play`.
pub fn run(args: &PlayArgs) -> Outcome {
    epaminondas_tui::run(options(args)?).map_err(Failure::Run)
}

/// The game `args` describe.
fn options(args: &PlayArgs) -> Result<Options, String> {
    // A record loaded from a file of one game is saved back to it; a file
    // of several is never overwritten with one of them.
    let mut save_back = None;
    let record = match (&args.load, &args.position) {
        (Some(path), _) => {
            let (record, games) = crate::records::read_one(path, args.game)?;
            if games == 1 {
                save_back = Some(path.clone());
            }
            record
        }
        (None, Some(text)) => {
            let setup: Setup = text
                .parse()
                .map_err(|e| format!("--position '{text}': {e}"))?;
            let symmetry = args.symmetry.unwrap_or(args.variant.default_symmetry());
            let pos = Position::from_setup_in(args.variant, &setup, symmetry)
                .map_err(|e| format!("--position '{text}': {e}"))?;
            GameRecord::new(pos)
        }
        (None, None) => GameRecord::new(crate::args::game_start(
            args.variant,
            args.board,
            args.symmetry,
            None,
        )?),
    };
    let save_path = args
        .save
        .clone()
        .or(save_back)
        .unwrap_or_else(|| PathBuf::from("epaminondas-game.txt"));
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let theme = Theme::choose(args.theme.as_deref(), no_color)?;
    Ok(Options {
        ai: args.ai,
        human: args.side,
        record,
        save_path,
        theme,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        play: PlayArgs,
    }

    fn parse(args: &[&str]) -> Result<Options, String> {
        let cli = Cli::try_parse_from(std::iter::once("play").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        options(&cli.play)
    }

    #[test]
    fn options_set_up_the_game() {
        let options = parse(&["--ai", "4", "--as", "black", "--board", "8x8"]).unwrap();
        assert_eq!(options.ai.map(Level::get), Some(4));
        assert_eq!(options.human, Color::Black);
        assert_eq!(options.record.position().size().to_string(), "8x8");
        let options = parse(&["--position", "4/b3/3w/4 w", "--symmetry", "off"]).unwrap();
        assert_eq!(options.record.position().to_string(), "4/b3/3w/4 w");
        assert_eq!(options.record.position().symmetry(), Symmetry::Off);
        assert_eq!(options.save_path, PathBuf::from("epaminondas-game.txt"));
    }

    #[test]
    fn a_loaded_record_goes_on_and_is_saved_back_to_its_file() {
        let path =
            std::env::temp_dir().join(format!("epaminondas-load-{}.txt", std::process::id()));
        std::fs::write(&path, "1. f1,g2-h3 e12,f11-h9 *\n").unwrap();
        let options = parse(&["--load", path.to_str().unwrap()]).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(options.record.moves().len(), 2);
        assert_eq!(options.save_path, path);
    }

    #[test]
    fn a_game_of_a_file_of_several_is_saved_elsewhere() {
        let path =
            std::env::temp_dir().join(format!("epaminondas-several-{}.txt", std::process::id()));
        std::fs::write(&path, "1. f1,g2-h3 *\n\n1. a2-a3 a11-a10 b2-b3 *\n").unwrap();
        let options = parse(&["--load", path.to_str().unwrap(), "--game", "2"]).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(options.record.moves().len(), 3);
        assert_eq!(options.save_path, PathBuf::from("epaminondas-game.txt"));
    }

    #[test]
    fn bad_options_say_what_is_wrong() {
        let err = parse(&["--position", "4/4/4/4 z"]).unwrap_err();
        assert!(err.starts_with("--position '4/4/4/4 z': "), "{err}");
        let err = parse(&["--load", "/nonexistent/game.txt"]).unwrap_err();
        assert!(
            err.starts_with("cannot read /nonexistent/game.txt: "),
            "{err}"
        );
        assert!(parse(&["--board", "8x8", "--load", "x"]).is_err());
    }
}
