//! `epaminondas puzzles`: mine puzzles from engine self-play games (or
//! from game records, such as a server's export), each proven by the solver
//! (a forced win, only one first move), and check a collection file (the
//! format is documented in `epaminondas_learn::puzzles`).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use epaminondas_engine::{Engine, Limits};
use epaminondas_learn::puzzles::{Puzzle, read_collection};
use epaminondas_rules::{BoardSize, GameRecord, Position, Symmetry};
use indicatif::{ProgressBar, ProgressStyle};

use crate::output::{Failure, Outcome, outln};

/// Arguments of `epaminondas puzzles`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    epaminondas puzzles generate --board 8x8 --count 200 --out 8x8.txt\n  \
    epaminondas puzzles check crates/learn/puzzles.txt")]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
enum PuzzlesCommand {
    /// Mine puzzles from self-play games (or records) and write them to a file.
    #[command(after_help = "Examples:\n  \
        epaminondas puzzles generate --board 8x8 --count 200 --out 8x8.txt\n  \
        epaminondas puzzles generate --records export.txt --board 14x12 --count 50 --out mined.txt")]
    Generate(GenerateArgs),
    /// Prove every puzzle of a collection file with the solver.
    #[command(after_help = "Example:\n  epaminondas puzzles check crates/learn/puzzles.txt")]
    Check {
        /// The collection file.
        file: PathBuf,
    },
}

/// Arguments of `epaminondas puzzles generate`.
#[derive(Args, Debug)]
struct GenerateArgs {
    /// Board size as FILESxRANKS.
    #[arg(long, default_value = "14x12", value_parser = crate::args::size)]
    board: BoardSize,
    /// Symmetry rule option: mirror, file or off.
    #[arg(long, default_value = "mirror", value_parser = crate::args::symmetry)]
    symmetry: Symmetry,
    /// Puzzles wanted.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    count: u32,
    /// The longest win looked for, in plies (2 to 8).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(2..=8))]
    max_plies: u32,
    /// At most this many puzzles from one game.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=50))]
    per_game: u32,
    /// Positions looked at from the end of each game.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=1000))]
    tail: u32,
    /// Solver time per position, in milliseconds (a position not decided
    /// in time is skipped).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    solve_ms: u64,
    /// Engine nodes per self-play move.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    nodes: u64,
    /// Random moves at the start of each self-play game (so games differ).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=100))]
    random_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mine these game records (a file of one or more) instead of playing.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Threads (games are mined in parallel).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Ids are this prefix and a number (default `s` for 14x12, else the
    /// board size, as `8x8-`).
    #[arg(long)]
    prefix: Option<String>,
    /// The file to write (`-` for standard output).
    #[arg(long)]
    out: PathBuf,
}

/// Runs `epaminondas puzzles`.
pub fn run(args: &PuzzlesArgs) -> Outcome {
    match &args.command {
        PuzzlesCommand::Generate(args) => generate(args),
        PuzzlesCommand::Check { file } => check(file),
    }
}

fn check(file: &std::path::Path) -> Outcome {
    let text = crate::records::read_text(file)?;
    let puzzles = read_collection(&text)
        .map_err(|(line, e)| format!("{}: line {line}: {e}", file.display()))?;
    let stop = crate::output::interrupt_on_ctrl_c("stopping the check");
    let started = Instant::now();
    let bar = progress(puzzles.len() as u64);
    let mut failed = Vec::new();
    for puzzle in &puzzles {
        if let Err(e) = puzzle.verify(stop) {
            bar.suspend(|| eprintln!("{}: {e}", puzzle.id));
            failed.push(puzzle.id.clone());
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    outln!(
        "{} puzzles checked in {:.1} s: {} hold, {} do not",
        puzzles.len(),
        started.elapsed().as_secs_f64(),
        puzzles.len() - failed.len(),
        failed.len()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::Run(format!(
            "these do not hold: {}",
            failed.join(" ")
        )))
    }
}

fn progress(len: u64) -> ProgressBar {
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let bar = ProgressBar::new(len);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} [{elapsed}]") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    }
}

/// A small xorshift generator for the random openings (reproducible from
/// the seed).
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// One self-play game: `random` random plies, then the engine at `nodes`
/// per move, up to 600 plies.
fn self_play(
    start: &Position,
    random: u32,
    nodes: u64,
    rng: &mut Random,
    engine: &mut Engine,
) -> Vec<Position> {
    let mut pos = start.clone();
    let mut seen = vec![pos.clone()];
    let never = AtomicBool::new(false);
    let limits = Limits::nodes(nodes);
    for ply in 0..600 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = if ply < random {
            moves[rng.below(moves.len())]
        } else {
            match engine.search(&pos, &limits, &never, |_| {}).best {
                Some(mv) => mv,
                None => break,
            }
        };
        pos.play_unchecked(mv);
        seen.push(pos.clone());
    }
    seen
}

/// Puzzles from the last `tail` positions of a game, the end first.
fn mine(
    positions: &[Position],
    args: &GenerateArgs,
    source: &str,
    seen: &Mutex<HashSet<u64>>,
) -> Vec<Puzzle> {
    let mut found = Vec::new();
    let first = positions.len().saturating_sub(args.tail as usize);
    for (ply, pos) in positions.iter().enumerate().skip(first).rev() {
        if found.len() >= args.per_game as usize {
            break;
        }
        if pos.is_terminal()
            || seen
                .lock()
                .map(|s| s.contains(&pos.zobrist_hash()))
                .unwrap_or(true)
        {
            continue;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let timer = stop.clone();
        let limit = Duration::from_millis(args.solve_ms);
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            timer.store(true, Ordering::Relaxed);
        });
        if let Some(puzzle) =
            Puzzle::find(pos, args.max_plies, &stop, &format!("{source} ply {ply}"))
            && !stop.load(Ordering::Relaxed)
            && seen.lock().is_ok_and(|mut s| s.insert(pos.zobrist_hash()))
        {
            found.push(puzzle);
        }
    }
    found
}

fn generate(args: &GenerateArgs) -> Outcome {
    let start = Position::new(args.board, args.symmetry);
    let records: Vec<GameRecord> = match &args.records {
        Some(path) => {
            let text = crate::records::read_text(path)?;
            GameRecord::read_all(&text)
                .map_err(|(n, e)| format!("{}: game {n}: {e}", path.display()))?
        }
        None => Vec::new(),
    };
    let wanted = args.count as usize;
    let collected: Mutex<Vec<Puzzle>> = Mutex::new(Vec::new());
    let seen: Mutex<HashSet<u64>> = Mutex::new(HashSet::new());
    let next_game = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    let bar = progress(wanted as u64);
    let enough = || collected.lock().map(|c| c.len() >= wanted).unwrap_or(true);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut engine = Engine::new(16);
                while !enough() {
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    let (positions, source) = if args.records.is_some() {
                        let Some(record) = records.get(game) else {
                            break;
                        };
                        let mut pos = record.start().clone();
                        let mut positions = vec![pos.clone()];
                        for &mv in record.moves() {
                            pos.play_unchecked(mv);
                            positions.push(pos.clone());
                        }
                        (positions, format!("record {}", game + 1))
                    } else {
                        let mut rng = Random(
                            args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                                ^ (game as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
                                | 1,
                        );
                        (
                            self_play(&start, args.random_plies, args.nodes, &mut rng, &mut engine),
                            format!("selfplay {} seed {}", game + 1, args.seed),
                        )
                    };
                    let found = mine(&positions, args, &source, &seen);
                    if let Ok(mut all) = collected.lock() {
                        for puzzle in found {
                            if all.len() < wanted {
                                all.push(puzzle);
                                bar.inc(1);
                            }
                        }
                        bar.set_message(format!("{} games", game + 1));
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut puzzles = collected
        .into_inner()
        .map_err(|_| Failure::Run("a mining thread failed".into()))?;
    puzzles.sort_by_key(|p| (p.rating, p.plies));
    let prefix = args.prefix.clone().unwrap_or_else(|| {
        if args.board == BoardSize::STANDARD {
            "s".to_owned()
        } else {
            format!("{}-", args.board)
        }
    });
    let mut text = format!(
        "# Epaminondas puzzles: {} on {} (symmetry {}), each a forced win by one first move, proven by the solver.\n\
         # Made by: epaminondas puzzles generate --board {} --count {} --max-plies {} --seed {}\n\
         # Fields (tab-separated): id, position, symmetry, plies, solution, rating, source.\n",
        puzzles.len(),
        args.board,
        args.symmetry.name(),
        args.board,
        args.count,
        args.max_plies,
        args.seed,
    );
    for (n, puzzle) in puzzles.iter_mut().enumerate() {
        puzzle.id = format!("{prefix}{:04}", n + 1);
        text.push_str(&puzzle.to_string());
        text.push('\n');
    }
    if args.out.as_os_str() == "-" {
        crate::output::write(format_args!("{text}"));
    } else {
        std::fs::write(&args.out, &text)
            .map_err(|e| Failure::Run(format!("cannot write {}: {e}", args.out.display())))?;
    }
    eprintln!(
        "{} puzzles from {} games in {:.1} s",
        puzzles.len(),
        next_game
            .load(Ordering::Relaxed)
            .min(if args.records.is_some() {
                records.len()
            } else {
                usize::MAX
            }),
        started.elapsed().as_secs_f64()
    );
    if puzzles.len() < wanted {
        return Err(Failure::Run(format!(
            "only {} of the {wanted} puzzles wanted were found",
            puzzles.len()
        )));
    }
    Ok(())
}
