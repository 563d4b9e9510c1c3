//! `epaminondas perft` and `epaminondas bench`.

use std::time::{Duration, Instant};

use crate::output::{Outcome, outln};
use clap::Args;
use epaminondas_rules::{BoardSize, Position, Symmetry, Variant};

/// Arguments of `epaminondas perft`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas perft 4\n  epaminondas perft 3 --board 8x8 --divide\n  epaminondas perft 3 --variant crossings\n  epaminondas perft 2 --position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\""
)]
pub struct PerftArgs {
    /// The game: epaminondas (the default), crossings, abanondas or
    /// stumbling-blocks.
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant)]
    variant: Variant,
    /// Board size as FILESxRANKS (default: the variant's, 14x12; 8x8 for crossings).
    #[arg(long, value_parser = crate::args::size, conflicts_with = "position")]
    board: Option<BoardSize>,
    /// Start from this position text instead of the board's starting position
    /// (the board size then follows from the text).
    #[arg(long, value_parser = crate::args::position)]
    position: Option<Position>,
    /// Symmetry rule option: mirror, file or off (default: the variant's,
    /// mirror; off for crossings).
    #[arg(long, value_parser = crate::args::symmetry)]
    symmetry: Option<Symmetry>,
    /// Also print the leaf count below each root move at the last depth.
    #[arg(long)]
    divide: bool,
    /// Number of plies (1 or more).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
}

fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64
}

/// Runs `epaminondas perft`.
pub fn run(args: &PerftArgs) -> Outcome {
    let pos = crate::args::game_start(
        args.variant,
        args.board,
        args.symmetry,
        args.position.as_ref(),
    )?;
    let started = Instant::now();
    // With --divide the last depth is counted move by move, and its total reused.
    let last = if args.divide {
        let mut total = 0;
        for (mv, count) in pos.divide(args.depth) {
            outln!("{mv} {count}");
            total += count;
        }
        Some(total)
    } else {
        None
    };
    let mut nodes = 0;
    for depth in 1..=args.depth {
        let count = match last {
            Some(total) if depth == args.depth => total,
            _ => pos.perft(depth),
        };
        nodes += count;
        outln!("perft {depth} {count}");
    }
    let elapsed = started.elapsed();
    outln!(
        "time {:.3} s, {} leaves/s (leaves of the last ply are counted, not played)",
        elapsed.as_secs_f64(),
        nodes_per_second(nodes, elapsed)
    );
    Ok(())
}

/// The fixed workload of `epaminondas bench`: (board, depth). The standard
/// board dominates; the others cover the small-board and large-board layouts.
const BENCH: &[(&str, u32)] = &[("14x12", 4), ("8x8", 4), ("6x6", 5), ("26x26", 3)];

/// Runs `epaminondas bench`.
pub fn bench() -> Outcome {
    let mut total = 0;
    let started = Instant::now();
    for &(board, depth) in BENCH {
        let size: BoardSize = board.parse().map_err(|e| format!("{e}"))?;
        let pos = Position::new(size, Symmetry::Mirror);
        let t = Instant::now();
        let count = pos.perft(depth);
        let elapsed = t.elapsed();
        outln!(
            "{board:>6} perft {depth}: {count:>12} leaves in {:.3} s ({} leaves/s)",
            elapsed.as_secs_f64(),
            nodes_per_second(count, elapsed)
        );
        total += count;
    }
    let elapsed = started.elapsed();
    outln!(
        "total {total} leaves in {:.3} s: {} leaves/s (last ply counted, not played)",
        elapsed.as_secs_f64(),
        nodes_per_second(total, elapsed)
    );
    Ok(())
}
