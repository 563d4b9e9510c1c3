//! `epaminondas tune`: fits the evaluation weights to played games.

use std::path::PathBuf;

use clap::Args;
use epaminondas_engine::eval::{TERM_LIST, Weights};
use epaminondas_engine::tune::{Sample, fit, samples_from_game};
use epaminondas_rules::GameRecord;

/// Arguments of `epaminondas tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Game record files (each may hold many games, as `match --records`
    /// writes them).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Newton steps at most (the fit usually converges in about ten).
    #[arg(long, default_value_t = 50)]
    iterations: usize,
    /// Plies at the start of each game left out (random openings).
    #[arg(long, default_value_t = 8)]
    skip_plies: usize,
}

/// Runs `epaminondas tune`.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    let mut samples: Vec<Sample> = Vec::new();
    let mut games = 0;
    for path in &args.records {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = GameRecord::read_all(&text)
            .map_err(|(n, e)| format!("{}: game {n}: {e}", path.display()))?;
        for record in &records {
            samples.extend(samples_from_game(record, args.skip_plies));
        }
        games += records.len();
    }
    if samples.is_empty() {
        return Err("the records hold no finished game with positions to fit".to_owned());
    }
    let start = Weights::default();
    println!("fitting {} positions from {games} games", samples.len());
    let result = fit(&samples, &start, args.iterations);
    println!(
        "mean squared error of the predicted results {:.5} -> {:.5}",
        result.error_before, result.error_after
    );
    for ((term, old), new) in TERM_LIST
        .iter()
        .zip(start.values)
        .zip(result.weights.values)
    {
        println!("{:<9} {old:>5} -> {new:>5}  {}", term.name, term.meaning);
    }
    println!(
        "as Rust (for Weights::default in crates/engine/src/eval.rs): {:?}",
        result.weights.values
    );
    Ok(())
}
