//! `epaminondas book`: builds an opening book by long searches, or adds to
//! one.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use clap::Args;
use epaminondas_engine::Engine;
use epaminondas_engine::book::build::{BuildConfig, extend};
use epaminondas_engine::book::{Book, BookEntry};
use epaminondas_rules::{BoardSize, Symmetry, Variant};

use crate::output::{Failure, Outcome, outln};

/// Arguments of `epaminondas book`.
#[derive(Args, Debug)]
#[command(
    after_help = "The book grows best first: the position a game following the book most likely \
                  reaches, and that it does not hold yet, is searched next. The file is rewritten \
                  after each position, so Ctrl-C keeps what was searched, and a later run with the \
                  same --out goes on from it. The format is documented in the engine crate's book \
                  module.\n\nExamples:\n  epaminondas book --out my.book --board 8x8 --positions 200\n  \
                  epaminondas book --out big.book --nodes 4000000 --threads 2 --positions 1000"
)]
pub struct BookArgs {
    /// The book file; a run adds to it when it exists (same game).
    #[arg(long)]
    out: PathBuf,
    /// Positions to search in this run.
    #[arg(long, default_value_t = 100, value_parser = crate::args::positive)]
    positions: u64,
    /// Nodes searched for each position.
    #[arg(long, default_value_t = 2_000_000, value_parser = crate::args::positive)]
    nodes: u64,
    /// The most moves kept for a position.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=16))]
    width: u64,
    /// Moves scoring at most this many hundredths of a piece below the best
    /// are kept.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=1000))]
    margin: u64,
    /// Positions this many plies or more from the start are not searched.
    #[arg(long, default_value_t = 16, value_parser = crate::args::positive)]
    plies: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// The variant.
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant)]
    variant: Variant,
    /// Board size as FILESxRANKS (default: the variant's).
    #[arg(long, value_parser = crate::args::size)]
    board: Option<BoardSize>,
    /// Symmetry option: mirror, file or off (default: the variant's).
    #[arg(long, value_parser = crate::args::symmetry)]
    symmetry: Option<Symmetry>,
}

/// Reads the book at `path`, or starts an empty one when there is no file.
fn open_book(
    path: &Path,
    variant: Variant,
    size: BoardSize,
    symmetry: Symmetry,
) -> Result<Book, String> {
    let shown = path.display();
    let book = match std::fs::read_to_string(path) {
        Ok(text) => Book::parse(&text).map_err(|e| format!("{shown}: {e}"))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Book::new(variant, size, symmetry)
                .ok_or_else(|| format!("{variant} cannot be played on {size}"));
        }
        Err(e) => return Err(format!("cannot read {shown}: {e}")),
    };
    if (book.variant(), book.size(), book.symmetry()) != (variant, size, symmetry) {
        return Err(format!(
            "{shown} is a book of {} on {} with symmetry {}, not of {variant} on {size} with symmetry {symmetry}",
            book.variant(),
            book.size(),
            book.symmetry()
        ));
    }
    Ok(book)
}

/// Writes `book` to `path` whole or not at all (a file beside it, renamed).
fn save(book: &Book, path: &Path) -> Result<(), Failure> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    std::fs::write(&temporary, book.to_string())
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| Failure::Run(format!("cannot write {}: {e}", path.display())))
}

/// Runs `epaminondas book`.
pub fn run(args: &BookArgs) -> Outcome {
    let size = args.board.unwrap_or(args.variant.default_size());
    let symmetry = args.symmetry.unwrap_or(args.variant.default_symmetry());
    let mut book = open_book(&args.out, args.variant, size, symmetry)?;
    let config = BuildConfig {
        nodes: args.nodes,
        width: args.width as usize,
        margin: args.margin as i32,
        max_plies: args.plies as usize,
    };
    let mut engine = Engine::new(args.hash as usize);
    engine.set_threads(args.threads as usize);
    let interrupt = crate::output::interrupt_on_ctrl_c("stopping the search under way");
    let started = Instant::now();
    let mut searched = 0;
    while searched < args.positions && !interrupt.load(Ordering::Relaxed) {
        let Some(BookEntry { line, moves }) = extend(&mut book, &mut engine, &config, interrupt)
            .map_err(|e| format!("{}: {e}", args.out.display()))?
        else {
            break;
        };
        searched += 1;
        save(&book, &args.out)?;
        let line: Vec<String> = line.iter().map(ToString::to_string).collect();
        let moves: Vec<String> = moves
            .iter()
            .map(|m| format!("{} ({})", m.mv, epaminondas_engine::score::format(m.score)))
            .collect();
        eprintln!(
            "{searched}/{} [{:.0} s] {}: {}",
            args.positions,
            started.elapsed().as_secs_f64(),
            if line.is_empty() {
                "start".to_owned()
            } else {
                line.join(" ")
            },
            moves.join(", ")
        );
    }
    outln!(
        "{searched} positions searched in {:.1} s; {} now holds {} positions",
        started.elapsed().as_secs_f64(),
        args.out.display(),
        book.len()
    );
    Ok(())
}
