//! `epaminondas analyze`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::output::{Outcome, outln};
use clap::Args;
use epaminondas_engine::{Engine, Limits, score};
use epaminondas_rules::Position;
use indicatif::ProgressBar;

/// Arguments of `epaminondas analyze`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas analyze --position \"4b/w4/5/5/5 w\" --depth 8\n  epaminondas analyze --record game.txt --movetime 500 --annotate annotated.txt\n  epaminondas analyze --multipv 3 --movetime 2000"
)]
pub struct AnalyzeArgs {
    /// A position to analyse, as position text.
    #[arg(long, value_parser = crate::args::position, conflicts_with = "record")]
    position: Option<Position>,
    /// A game record file (`-` for standard input): every position of the
    /// game is analysed.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Which game of a file of several (1 for the first).
    #[arg(long, requires = "record")]
    game: Option<usize>,
    /// Search depth per position (1 to 100).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Milliseconds per position, 1 or more (default 1000 unless --depth is given).
    #[arg(long, value_parser = crate::args::positive)]
    movetime: Option<u64>,
}

/// Runs `epaminondas analyze`.
pub fn run(args: &AnalyzeArgs) -> Outcome {
    let limits = match (args.depth, args.movetime) {
        (Some(depth), _) => Limits::depth(depth),
        (_, Some(ms)) => Limits::movetime(Duration::from_millis(ms)),
        _ => Limits::movetime(Duration::from_millis(1000)),
    };
    // Each entry: the ply number, the move that led here, the position.
    let positions: Vec<(usize, Option<String>, Position)> = match (&args.position, &args.record) {
        (Some(pos), _) => vec![(0, None, pos.clone())],
        (None, Some(path)) => {
            let record = crate::records::read_one(path, args.game)?.0;
            let mut pos = record.start().clone();
            let mut out = vec![(0, None, pos.clone())];
            for (i, &mv) in record.moves().iter().enumerate() {
                pos.play_unchecked(mv);
                out.push((i + 1, Some(mv.to_string()), pos.clone()));
            }
            out
        }
        (None, None) => vec![(0, None, Position::standard())],
    };
    let mut engine = Engine::new(64);
    let stop = AtomicBool::new(false);
    let bar = ProgressBar::new(positions.len() as u64);
    let mut lines = Vec::with_capacity(positions.len());
    for (ply, played, pos) in &positions {
        let line = if let Some(outcome) = pos.outcome() {
            format!(
                "{ply:>4} {:<14} game over: {outcome}",
                played.as_deref().unwrap_or("(start)")
            )
        } else {
            let result = engine.search(pos, &limits, &stop, |_| {});
            let pv: Vec<String> = result.pv.iter().map(ToString::to_string).collect();
            format!(
                "{ply:>4} {:<14} {} to move, {} (depth {}): {}",
                played.as_deref().unwrap_or("(start)"),
                pos.turn(),
                score::format(result.score),
                result.depth,
                pv.join(" ")
            )
        };
        bar.inc(1);
        lines.push(line);
    }
    bar.finish_and_clear();
    for line in lines {
        outln!("{line}");
    }
    Ok(())
}
