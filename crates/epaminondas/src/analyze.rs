//! `epaminondas analyze`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use epaminondas_engine::{Engine, Limits, score};
use epaminondas_rules::{GameRecord, Position};
use indicatif::ProgressBar;

/// Arguments of `epaminondas analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// A position to analyse, as position text.
    #[arg(long, value_parser = crate::args::position, conflicts_with = "record")]
    position: Option<Position>,
    /// A game record file: every position of the game is analysed.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Search depth per position.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Milliseconds per position (default 1000 unless --depth is given).
    #[arg(long)]
    movetime: Option<u64>,
}

/// Runs `epaminondas analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    let limits = match (args.depth, args.movetime) {
        (Some(depth), _) => Limits::depth(depth.clamp(1, 100)),
        (_, Some(ms)) => Limits::movetime(Duration::from_millis(ms.max(1))),
        _ => Limits::movetime(Duration::from_millis(1000)),
    };
    // Each entry: the ply number, the move that led here, the position.
    let positions: Vec<(usize, Option<String>, Position)> = match (&args.position, &args.record) {
        (Some(pos), _) => vec![(0, None, pos.clone())],
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let record: GameRecord = text
                .parse()
                .map_err(|e| format!("{}: {e}", path.display()))?;
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
        println!("{line}");
    }
    Ok(())
}
