//! `epaminondas solve`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::output::{Failure, Outcome, outln};
use clap::Args;
use epaminondas_engine::solver::{Solution, solve};
use epaminondas_rules::{BoardSize, Position, Symmetry};

/// Arguments of `epaminondas solve`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas solve --position \"4b/w4/5/5/5 w\" 4\n  epaminondas solve --board 6x6 9 --time 60"
)]
pub struct SolveArgs {
    /// The position to solve, as position text (default: the board's start).
    #[arg(long, value_parser = crate::args::position)]
    position: Option<Position>,
    /// Board size as FILESxRANKS, for the starting position.
    #[arg(long, default_value = "14x12", value_parser = crate::args::size, conflicts_with = "position")]
    board: BoardSize,
    /// Symmetry rule option: mirror, file or off.
    #[arg(long, default_value = "mirror", value_parser = crate::args::symmetry)]
    symmetry: Symmetry,
    /// Look for a win within this many plies (1 to 20).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    plies: u32,
}

/// Runs `epaminondas solve`.
pub fn run(args: &SolveArgs) -> Outcome {
    let pos = match &args.position {
        Some(pos) => pos.with_symmetry(args.symmetry),
        None => Position::new(args.board, args.symmetry),
    };
    let started = Instant::now();
    let solution = solve(&pos, args.plies, &AtomicBool::new(false));
    let seconds = started.elapsed().as_secs_f64();
    match solution {
        Solution::Win { plies: 0, .. } => outln!("{} has already won", pos.turn()),
        Solution::Win { plies, line } => {
            let line: Vec<String> = line
                .iter()
                .map(|m| m.with_capture_mark().to_string())
                .collect();
            outln!("{} wins in {plies} plies: {}", pos.turn(), line.join(" "));
        }
        Solution::NoWin => outln!(
            "no forced win for {} within {} plies",
            pos.turn(),
            args.plies
        ),
        Solution::Stopped => return Err(Failure::Run("the solver was stopped".to_owned())),
    }
    eprintln!("({seconds:.3} s)");
    Ok(())
}
