//! `epaminondas tune`: fits the evaluation weights to played games.

use std::path::PathBuf;

use crate::output::{Outcome, outln};
use clap::Args;
use epaminondas_engine::eval::{TERM_LIST, Weights};
use epaminondas_engine::tune::{Sample, fit, samples_from_game};
use epaminondas_rules::GameRecord;

/// Arguments of `epaminondas tune`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas tune games.txt --skip-plies 8\n  epaminondas tune games.txt --without mobility"
)]
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
    /// Leave a term out of the evaluation (its weight becomes 0); repeatable.
    /// The term names are those the output lists (e.g. `mobility`).
    #[arg(long, value_name = "TERM")]
    without: Vec<String>,
}

/// Runs `epaminondas tune`.
pub fn run(args: &TuneArgs) -> Outcome {
    let mut excluded = Vec::new();
    for name in &args.without {
        match TERM_LIST.iter().position(|t| t.name == name.as_str()) {
            Some(term) => excluded.push(term),
            None => {
                let names: Vec<&str> = TERM_LIST.iter().map(|t| t.name).collect();
                return Err(format!(
                    "no evaluation term '{name}'; the terms are {}",
                    names.join(", ")
                )
                .into());
            }
        }
    }
    let mut samples: Vec<Sample> = Vec::new();
    let mut games = 0;
    for path in &args.records {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = GameRecord::read_all(&text)
            .map_err(|(n, e)| format!("{}: game {n}: {e}", path.display()))?;
        for record in &records {
            for mut sample in samples_from_game(record, args.skip_plies) {
                // A term left out counts 0 everywhere, so its weight stays 0.
                for &term in &excluded {
                    sample.features[term] = 0;
                }
                samples.push(sample);
            }
        }
        games += records.len();
    }
    if samples.is_empty() {
        return Err("the records hold no finished game with positions to fit".into());
    }
    let start = Weights::default();
    outln!("fitting {} positions from {games} games", samples.len());
    let result = fit(&samples, &start, args.iterations);
    outln!(
        "mean squared error of the predicted results {:.5} -> {:.5}",
        result.error_before,
        result.error_after
    );
    for ((term, old), new) in TERM_LIST
        .iter()
        .zip(start.values)
        .zip(result.weights.values)
    {
        outln!("{:<9} {old:>5} -> {new:>5}  {}", term.name, term.meaning);
    }
    outln!(
        "as Rust (for Weights::default in crates/engine/src/eval.rs): {:?}",
        result.weights.values
    );
    Ok(())
}
