//! `epaminondas selfplay`: engine games that make training data for the
//! neural evaluation (see `epaminondas train`).

use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use epaminondas_arena::selfplay::{SelfplayConfig, SelfplayProgress, run_selfplay};
use epaminondas_engine::nnue::EvalKind;
use epaminondas_engine::nnue::data::{DataHeader, HEADER_BYTES, TrainingData};
use epaminondas_rules::{BoardSize, Variant};

use crate::output::{Failure, Outcome, open_to_add_to, outln};

/// Arguments of `epaminondas selfplay`.
#[derive(Args, Debug)]
#[command(
    after_help = "The file's binary layout is documented in the engine crate's nnue::data module \
                  (and in docs/engine.md).\n\nExamples:\n  epaminondas selfplay --out data.bin --games 2000 --nodes 5000\n  epaminondas selfplay --out gen0.bin --eval linear --seed 2"
)]
pub struct SelfplayArgs {
    /// The training data file; a run adds to it when it exists (same board
    /// and variant).
    #[arg(long)]
    out: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_parser = crate::args::positive)]
    games: u64,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 5000, value_parser = crate::args::positive)]
    nodes: u64,
    /// Games played at once (default: one per core).
    #[arg(long, value_parser = crate::args::positive)]
    threads: Option<u64>,
    /// Chooses the random openings; runs that add to one file should use
    /// different seeds, or they repeat the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies stops, unfinished.
    #[arg(long, default_value_t = 400, value_parser = crate::args::positive)]
    max_plies: u64,
    /// The evaluation the engine plays with: nnue (the network where it
    /// applies, the engine's default) or linear.
    #[arg(long, default_value = "nnue", value_parser = eval_kind)]
    eval: EvalKind,
    /// The variant played.
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant)]
    variant: Variant,
    /// Board size as FILESxRANKS (default: the variant's).
    #[arg(long, value_parser = crate::args::size)]
    board: Option<BoardSize>,
}

fn eval_kind(s: &str) -> Result<EvalKind, String> {
    s.parse()
}

/// Opens `path` for appending records of `header`: writes the header to a
/// new or empty file, checks it in an existing one.
fn open_for_records(path: &Path, header: &DataHeader) -> Result<std::fs::File, Failure> {
    let shown = path.display();
    let mut file = open_to_add_to(path)?;
    let length = file
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {e}"))?
        .len();
    if length == 0 {
        file.write_all(&header.to_bytes())
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
        return Ok(file);
    }
    let mut start = vec![0; HEADER_BYTES.min(length as usize)];
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_exact(&mut start))
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let found = DataHeader::parse(&start).map_err(|e| format!("{shown}: {e}"))?;
    header
        .check_same(&found)
        .map_err(|e| format!("{shown} holds other data: {e}"))?;
    let records = length as usize - HEADER_BYTES;
    if records % header.record_bytes() != 0 {
        return Err(format!(
            "{shown} ends in a partial record ({records} bytes after the header); \
             cut it to a multiple of {} bytes before adding to it",
            header.record_bytes()
        )
        .into());
    }
    Ok(file)
}

/// Runs `epaminondas selfplay`.
pub fn run(args: &SelfplayArgs) -> Outcome {
    let size = args.board.unwrap_or(args.variant.default_size());
    let header = DataHeader::new(size, args.variant);
    let file = open_for_records(&args.out, &header)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
    let config = SelfplayConfig {
        variant: args.variant,
        size,
        games: args.games as usize,
        nodes: args.nodes,
        threads: threads as usize,
        seed: args.seed,
        max_plies: args.max_plies as usize,
        eval: args.eval,
    };
    let started = Instant::now();
    let interrupt = crate::output::interrupt_on_ctrl_c("finishing the games being played");
    let report = |done: &SelfplayProgress| {
        if done.games % 10 == 0 || done.games == config.games {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "{} games, {} positions, {:.0} plies a game, {:.0} positions/s",
                done.games,
                done.positions,
                done.plies as f64 / done.games.max(1) as f64,
                done.positions as f64 / seconds.max(1e-9)
            );
        }
    };
    let mut out = BufWriter::new(file);
    let done = run_selfplay(&config, &mut out, interrupt, &report)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    drop(out);
    let total = std::fs::read(&args.out)
        .ok()
        .and_then(|bytes| TrainingData::parse(bytes).ok())
        .map_or(0, |data| data.len());
    outln!(
        "{} games ({} unfinished at {} plies), {} positions written in {:.1} s; {} now holds {total} positions",
        done.games,
        done.unfinished,
        args.max_plies,
        done.positions,
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}
