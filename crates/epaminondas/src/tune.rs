//! `epaminondas tune`: fits the evaluation weights to played games.

use std::path::PathBuf;

use crate::output::{Outcome, outln};
use clap::Args;
use epaminondas_engine::eval::{TERM_LIST, Weights};
use epaminondas_engine::tune::{Sample, fit, samples_from_game};
use epaminondas_rules::{GameRecord, Variant};

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
    // Each variant has weights of its own: the records must be of one.
    let mut variant: Option<(Variant, String)> = None;
    for path in &args.records {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = GameRecord::read_all(&text)
            .map_err(|(n, e)| format!("{}: game {n}: {e}", path.display()))?;
        for (n, record) in records.iter().enumerate() {
            let this = record.start().variant();
            match &variant {
                None => variant = Some((this, format!("{} game {}", path.display(), n + 1))),
                Some((first, at)) if *first != this => {
                    return Err(format!(
                        "{}: game {} is a game of {this}, but {at} is of {first}: \
                         each variant has weights of its own, so tune one at a time",
                        path.display(),
                        n + 1
                    )
                    .into());
                }
                Some(_) => {}
            }
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
    let variant = variant.map_or(Variant::Epaminondas, |(v, _)| v);
    let start = Weights::for_variant(variant);
    outln!(
        "fitting {} positions from {games} games of {variant}",
        samples.len()
    );
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
        "as Rust (for Weights::for_variant({variant}) in crates/engine/src/eval.rs): {:?}",
        result.weights.values
    );
    Ok(())
}
