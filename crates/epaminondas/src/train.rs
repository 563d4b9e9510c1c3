//! `epaminondas train`: fits a network to `selfplay` data and writes the
//! net file the engine builds in.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use epaminondas_engine::nnue::data::{DataError, TrainingData};
use epaminondas_engine::nnue::train::{TrainConfig, linear_loss, samples, train};

use crate::output::{Outcome, outln};

/// Arguments of `epaminondas train`.
#[derive(Args, Debug)]
#[command(
    after_help = "The net is built into the program from crates/engine/nets/epaminondas-14x12.nnue; \
                  copy a better one there and build again.\n\nExamples:\n  epaminondas train data.bin --out net.nnue\n  epaminondas train gen1.bin gen2.bin --out net.nnue --epochs 30 --threads 2"
)]
pub struct TrainArgs {
    /// Training data files written by `epaminondas selfplay` (of the
    /// standard game on 14x12).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where to write the net.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 20, value_parser = crate::args::positive)]
    epochs: u64,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 8192, value_parser = crate::args::positive)]
    batch: u64,
    /// Adam's step size (a tenth of it for the last quarter of the epochs).
    #[arg(long, default_value_t = 0.002)]
    lr: f32,
    /// The weight of the search's score in each target, 0 to 1 (the rest
    /// is the game's result).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Threads (default: one per core).
    #[arg(long, value_parser = crate::args::positive)]
    threads: Option<u64>,
    /// Seeds the starting weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Reads and joins the data files; they must be of one board and variant.
fn read_data(paths: &[PathBuf]) -> Result<TrainingData, String> {
    let mut joined: Option<TrainingData> = None;
    for path in paths {
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        let data = TrainingData::parse(bytes).map_err(|e| format!("{shown}: {e}"))?;
        match &mut joined {
            None => joined = Some(data),
            Some(all) => {
                all.header
                    .check_same(&data.header)
                    .map_err(|e: DataError| format!("{shown}: {e}"))?;
                all.bytes.extend_from_slice(&data.bytes);
            }
        }
    }
    joined.ok_or_else(|| "no data files".to_owned())
}

/// Runs `epaminondas train`.
pub fn run(args: &TrainArgs) -> Outcome {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda must be 0 to 1, not {}", args.lambda).into());
    }
    if !(args.lr > 0.0 && args.lr < 1.0) {
        return Err(format!("--lr must be above 0 and below 1, not {}", args.lr).into());
    }
    let started = Instant::now();
    let data = read_data(&args.data)?;
    let config = TrainConfig {
        epochs: args.epochs as usize,
        batch_size: args.batch as usize,
        learning_rate: args.lr,
        lambda: args.lambda,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64))
            as usize,
        seed: args.seed,
        ..TrainConfig::default()
    };
    let (train_set, validation) = samples(&data, &config).map_err(|e| e.to_string())?;
    outln!(
        "{} positions: {} to train on (files mirrored too), {} kept aside to validate",
        data.len(),
        train_set.len(),
        validation.len()
    );
    let kept = data.len() - validation.len();
    let mark = linear_loss(&data, kept..data.len(), config.lambda).map_err(|e| e.to_string())?;
    outln!("the linear evaluation's loss on the validation positions: {mark:.5}");
    let interrupt =
        crate::output::interrupt_on_ctrl_c("finishing this epoch, then writing the net");
    let net = train(&train_set, &validation, &config, interrupt, |report| {
        outln!(
            "epoch {:>3}  train loss {:.5}  validation loss {:.5}  lr {}  {:.0} s",
            report.epoch,
            report.train_loss,
            report.validation_loss,
            report.learning_rate,
            started.elapsed().as_secs_f64()
        );
    });
    let bytes = net.quantise().to_bytes();
    std::fs::write(&args.out, &bytes)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    outln!(
        "wrote {} ({} bytes; the epoch with the lowest validation loss) in {:.0} s",
        args.out.display(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
