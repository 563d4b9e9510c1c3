//! `epaminondas analyze`: the engine's view of a position or of every
//! position of a game, with the moves judged and the record annotated (see
//! [`epaminondas_engine::review`]).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use epaminondas_engine::review::{PositionReview, format_white, review_game, white_view};
use epaminondas_engine::{Engine, Limits};
use epaminondas_rules::{GameRecord, Position, Variant};
use indicatif::ProgressBar;

use crate::output::{Outcome, outln};

/// Arguments of `epaminondas analyze`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    epaminondas analyze --position \"4b/w4/5/5/5 w\" --depth 8\n  \
    epaminondas analyze --record game.txt --movetime 500 --annotate annotated.txt\n  \
    epaminondas analyze --multipv 3 --movetime 2000\n  \
    epaminondas analyze --variant abanondas --depth 6")]
pub struct AnalyzeArgs {
    /// A position to analyse, as position text (default: the standard start).
    #[arg(long, value_parser = crate::args::position, conflicts_with = "record")]
    position: Option<Position>,
    /// The game of the position: epaminondas (the default), crossings,
    /// abanondas or stumbling-blocks (a record names its own).
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant, conflicts_with = "record")]
    variant: Variant,
    /// A game record file (`-` for standard input): every position of the
    /// game is analysed and every move judged.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Which game of a file of several (1 for the first).
    #[arg(long, requires = "record")]
    game: Option<usize>,
    /// Search depth per position (1 to 100).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Milliseconds per position, 1 or more (default 1000 unless --depth is given).
    #[arg(long, value_parser = crate::args::positive)]
    movetime: Option<u64>,
    /// The best lines to show for each position (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    multipv: u16,
    /// Write the record annotated with the evaluations, the marks (?!, ?,
    /// ??) and the better moves to this file (`-` for standard output,
    /// instead of the table).
    #[arg(long, requires = "record", value_name = "FILE")]
    annotate: Option<PathBuf>,
}

/// Runs `epaminondas analyze`.
pub fn run(args: &AnalyzeArgs) -> Outcome {
    let limits = match (args.depth, args.movetime) {
        (Some(depth), _) => Limits::depth(depth),
        (_, Some(ms)) => Limits::movetime(Duration::from_millis(ms)),
        _ => Limits::movetime(Duration::from_millis(1000)),
    };
    let record = match (&args.position, &args.record) {
        (_, Some(path)) => crate::records::read_one(path, args.game)?.0,
        (position, None) => GameRecord::new(crate::args::game_start(
            args.variant,
            None,
            None,
            position.as_ref(),
        )?),
    };
    let table = args
        .annotate
        .as_deref()
        .is_none_or(|p| p.as_os_str() != "-");
    let bar = if std::io::stderr().is_terminal() && record.moves().len() > 1 {
        ProgressBar::new(record.moves().len() as u64 + 1)
    } else {
        ProgressBar::hidden()
    };
    let mut engine = Engine::new(64);
    let stop = AtomicBool::new(false);
    if table {
        outln!(
            "{:>4}  {:<16} {:>16}  {:>5}  best line",
            "ply",
            "move",
            "eval (white)",
            "depth"
        );
    }
    let annotated = review_game(
        &mut engine,
        &record,
        &limits,
        usize::from(args.multipv),
        &stop,
        |review| {
            if table {
                bar.suspend(|| {
                    for line in review_lines(review) {
                        outln!("{line}");
                    }
                });
            }
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    if let Some(path) = &args.annotate {
        if path.as_os_str() == "-" {
            crate::output::out!("{annotated}");
        } else {
            std::fs::write(path, annotated.to_string())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("annotated record written to {}", path.display());
        }
    }
    Ok(())
}

/// The table's lines for one position: its number, the move that led
/// there with its mark, the evaluation from White's side, the depth and
/// the best line; more lines below it with `--multipv`.
fn review_lines(review: &PositionReview) -> Vec<String> {
    let played = match review.played {
        Some((mv, mark)) => format!(
            "{}{}",
            mv.with_capture_mark(),
            mark.map_or("", |m| m.symbol())
        ),
        None => "(start)".to_owned(),
    };
    if let Some(outcome) = review.outcome {
        return vec![format!(
            "{:>4}  {played:<16} game over: {outcome}",
            review.ply
        )];
    }
    let turn = review.position.turn();
    review
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let pv: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
            let eval = format_white(white_view(line.score, turn));
            if i == 0 {
                format!(
                    "{:>4}  {played:<16} {eval:>16}  {:>5}  {}",
                    review.ply,
                    line.depth,
                    pv.join(" ")
                )
            } else {
                format!(
                    "{:>4}  {:<16} {eval:>16}  {:>5}  {}",
                    "",
                    format!("  line {}", i + 1),
                    line.depth,
                    pv.join(" ")
                )
            }
        })
        .collect()
}
