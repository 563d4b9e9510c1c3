//! `epaminondas match`.

use std::fs::File;
use std::io::Write;
use std::time::Duration;

use clap::Args;
use epaminondas_arena::players::MoveLimit;
use epaminondas_arena::stats::{Sprt, SprtVerdict};
use epaminondas_arena::{MatchConfig, PlayerSpec, Resign, run_match};
use epaminondas_rules::{BoardSize, Symmetry};
use indicatif::{ProgressBar, ProgressStyle};

/// Arguments of `epaminondas match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// A player, twice: `random`, `greedy`, or a UGI engine command line
    /// (e.g. "./target/release/epaminondas engine"). Results are for the first.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Games to play at most (in pairs with colours swapped).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(2..))]
    games: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    concurrency: u64,
    /// Search nodes per move (deterministic).
    #[arg(long, conflicts_with_all = ["movetime", "tc"])]
    nodes: Option<u64>,
    /// Milliseconds per move.
    #[arg(long, conflicts_with = "tc")]
    movetime: Option<u64>,
    /// Game clock as SECONDS+INCREMENT, like 10+0.1.
    #[arg(long, value_parser = parse_tc)]
    tc: Option<(Duration, Duration)>,
    /// Board size as FILESxRANKS.
    #[arg(long, default_value = "14x12", value_parser = crate::args::size)]
    board: BoardSize,
    /// Symmetry rule option: mirror, file or off.
    #[arg(long, default_value = "mirror", value_parser = crate::args::symmetry)]
    symmetry: Symmetry,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudicate a draw after this many plies (off the official rules).
    #[arg(long)]
    max_plies: Option<usize>,
    /// Adjudicate a resignation as SCORE,MOVES: a side whose own score is at
    /// most -SCORE for MOVES moves in a row loses (off the official rules).
    #[arg(long, value_parser = parse_resign)]
    resign: Option<Resign>,
    /// Stop at a decision of the SPRT ELO0,ELO1,ALPHA,BETA (e.g. 0,10,0.05,0.05).
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// Append every game's record to this file.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
}

fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !(0.0..=1e6).contains(&v) {
        return Err(format!("{s} seconds is out of range"));
    }
    Ok(Duration::from_secs_f64(v))
}

fn parse_tc(s: &str) -> Result<(Duration, Duration), String> {
    let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
    let base = seconds(base)?;
    if base.is_zero() {
        return Err("the clock needs some time".to_owned());
    }
    Ok((base, seconds(inc)?))
}

fn parse_resign(s: &str) -> Result<Resign, String> {
    let bad = || format!("'{s}' is not SCORE,MOVES (like 600,4)");
    let (score, moves) = s.split_once(',').ok_or_else(bad)?;
    Ok(Resign {
        score: score.trim().parse().map_err(|_| bad())?,
        moves: moves.trim().parse().map_err(|_| bad())?,
    })
}

fn parse_sprt(s: &str) -> Result<Sprt, String> {
    let bad = || format!("'{s}' is not ELO0,ELO1,ALPHA,BETA (like 0,10,0.05,0.05)");
    let v: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    match v[..] {
        [elo0, elo1, alpha, beta]
            if elo0 < elo1
                && (0.0..0.5).contains(&alpha)
                && alpha > 0.0
                && beta > 0.0
                && beta < 0.5 =>
        {
            Ok(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            })
        }
        _ => Err(bad()),
    }
}

/// Runs `epaminondas match`.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let [first, second] = &args.engines[..] else {
        return Err("give exactly two --engine options".to_owned());
    };
    let limit = match (args.nodes, args.movetime, args.tc) {
        (Some(n), _, _) => MoveLimit::Nodes(n.max(1)),
        (_, Some(ms), _) => MoveLimit::MoveTime(Duration::from_millis(ms.max(1))),
        (_, _, Some((base, increment))) => MoveLimit::Clock { base, increment },
        _ => MoveLimit::MoveTime(Duration::from_millis(100)),
    };
    let config = MatchConfig {
        players: [PlayerSpec::parse(first), PlayerSpec::parse(second)],
        pairs: (args.games / 2) as usize,
        concurrency: args.concurrency as usize,
        limit,
        size: args.board,
        symmetry: args.symmetry,
        seed: args.seed,
        max_plies: args.max_plies,
        resign: args.resign,
        sprt: args.sprt,
    };
    let mut records = match &args.records {
        Some(path) => Some(
            File::options()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let bar = ProgressBar::new(config.pairs as u64 * 2);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut write_error = None;
    let state = run_match(&config, |report, state| {
        if let Some(file) = records.as_mut() {
            if let Err(e) = writeln!(file, "{}", report.record) {
                write_error.get_or_insert(e.to_string());
            }
        }
        bar.set_message(format!(
            "+{} ={} -{}",
            state.wins, state.draws, state.losses
        ));
        bar.inc(1);
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if let Some(e) = write_error {
        eprintln!("warning: some records were not written: {e}");
    }
    let (a, b) = (config.players[0].name(), config.players[1].name());
    println!(
        "{a} vs {b}: {} games, +{} ={} -{} (score {:.3})",
        state.games,
        state.wins,
        state.draws,
        state.losses,
        state.pairs.score().unwrap_or(0.5)
    );
    println!("pairs (0, 0.5, 1, 1.5, 2 points): {:?}", state.pairs.0);
    match (state.pairs.score(), state.pairs.elo()) {
        (Some(score), _) if score >= 1.0 => {
            println!("elo: not measurable, the first player won every game")
        }
        (Some(score), _) if score <= 0.0 => {
            println!("elo: not measurable, the first player lost every game")
        }
        (_, Some((elo, error))) => println!("elo {elo:+.1} +/- {error:.1} (95%)"),
        _ => {}
    }
    if let (Some(sprt), Some(llr), Some(verdict)) = (config.sprt, state.llr, state.verdict) {
        let (lower, upper) = sprt.bounds();
        let verdict = match verdict {
            SprtVerdict::H1 => "H1 accepted",
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::Continue => "undecided",
        };
        let at = state
            .decided_at
            .map(|games| format!(" after {games} games"))
            .unwrap_or_default();
        println!(
            "sprt elo0 {} elo1 {} alpha {} beta {}: llr {llr:.2} [{lower:.2}, {upper:.2}] {verdict}{at}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        );
    }
    Ok(())
}
