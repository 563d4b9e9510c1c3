//! `epaminondas solve`.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::output::{Failure, Outcome, outln};
use clap::Args;
use epaminondas_engine::dfpn::{HoldReach, StartNumbers};
use epaminondas_engine::solver::{Solution, solve_with_progress};
use epaminondas_rules::{BoardSize, Color, Position, Symmetry, Variant};

/// Arguments of `epaminondas solve`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas solve --position \"4b/w4/5/5/5 w\" 4\n  epaminondas solve --board 6x6 9 --time 60\n  epaminondas solve --variant crossings --board 5x5 7\n  epaminondas solve --board 5x5 --full --proof 5x5.proof\n  epaminondas solve --verify 5x5.proof\n  epaminondas solve --board 5x4 --symmetry off --full --moves --time 600 --proof 5x4.proof\n  epaminondas solve --board 5x6 --full --moves --move-time 300"
)]
pub struct SolveArgs {
    /// The position to solve, as position text (default: the board's start).
    #[arg(long, value_parser = crate::args::position)]
    position: Option<Position>,
    /// The game: epaminondas (the default), crossings, abanondas or
    /// stumbling-blocks.
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant)]
    variant: Variant,
    /// Board size as FILESxRANKS, for the starting position (default: the
    /// variant's, 14x12; 8x8 for crossings).
    #[arg(long, value_parser = crate::args::size, conflicts_with = "position")]
    board: Option<BoardSize>,
    /// Symmetry rule option: mirror, file or off (default: the variant's,
    /// mirror; off for crossings).
    #[arg(long, value_parser = crate::args::symmetry)]
    symmetry: Option<Symmetry>,
    /// Look for a win within this many plies (1 to 20).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20),
          required_unless_present_any = ["full", "verify"],
          conflicts_with_all = ["full", "verify"])]
    plies: Option<u32>,
    /// Decide the position with perfect play and no limit on the game's
    /// length (proof-number search): which side can force a win.
    #[arg(long)]
    full: bool,
    /// With --full: write the proof (the winner's strategy, or both sides'
    /// holding strategies) to this file, for `solve --verify` (or any other
    /// checker) to check; with --moves, the proof of the position's value
    /// joined from the proofs after each move.
    #[arg(long, requires = "full", value_name = "FILE")]
    proof: Option<PathBuf>,
    /// With --full: decide the position after each legal move instead, and
    /// print what each move leads to (a win, a loss, neither side winning,
    /// or undecided when the time or memory ran out), as a tablebase does.
    /// Each side's search keeps its table from move to move (each in half
    /// of --memory): what it settled after one move serves the next.
    #[arg(long, requires = "full")]
    moves: bool,
    /// With --moves: give each move's searches at most this many seconds
    /// (each side's search its own), so that a board too large to decide
    /// still gets every move searched and the moves that are quick to
    /// decide decided (a move whose search for the mover's win runs out
    /// still gets the search for the other side's, which finds a losing
    /// move quickly); a move cut off is reported undecided.
    #[arg(long, requires = "moves", value_name = "SECONDS", value_parser = positive_seconds)]
    move_time: Option<f64>,
    /// With --moves: stop each move's search after this many nodes, as
    /// --move-time does after its seconds, but at the same point on any
    /// machine however busy it is: for runs that must come out the same
    /// (the positions read into the other side's hold count as nodes).
    #[arg(long, requires = "moves", value_name = "NODES",
          value_parser = clap::value_parser!(u64).range(1..))]
    move_nodes: Option<u64>,
    /// With --moves --side: decide the position this many plies deep (1 to
    /// 6; 1, the default, after each move): each position that many moves
    /// on is searched, and the positions above are decided from them, the
    /// engine's best moves first, stopping at the first that decides (for
    /// a board whose searches after one move are still too large).
    #[arg(long, requires = "moves", value_name = "PLIES",
          value_parser = clap::value_parser!(u32).range(1..=6))]
    split: Option<u32>,
    /// With --moves --side: a position of the last ply left open (stopped
    /// by --move-time or the memory, or no win found with the hold not
    /// proven) is split one ply further, its moves searched the same way,
    /// the engine's best first, until one decides it; and so on, up to this
    /// many plies below the last (1 to 30). The narrowing done by hand on a
    /// board too large to search whole, left to run unattended: most moves
    /// settle in seconds, and only the few left open are followed down.
    /// In passes, each one ply deeper over every line left open (what was
    /// decided is not searched again); with --proof, a last pass reads the
    /// proof once the value is known.
    #[arg(long, requires = "moves", value_name = "PLIES",
          value_parser = clap::value_parser!(u32).range(1..=30))]
    deepen: Option<u32>,
    /// With --moves --side: instead of passes (--deepen), split one
    /// position at a time, the one nearest to deciding the start as
    /// proof-number search counts it (the smallest proof number where the
    /// side moves, the smallest disproof number where the other does),
    /// searching its moves within --move-nodes each, until the start is
    /// decided or --time runs out: the open lines that matter are followed
    /// as deep as they need, the others not at all. Give --known to keep
    /// what it finds: a run started again from the file grows the same
    /// tree without searching again and goes on.
    #[arg(long, requires = "moves", conflicts_with_all = ["deepen", "split"])]
    best_first: bool,
    /// With --best-first: search a split position's moves within this
    /// many nodes each first (fewer than --move-nodes), and a position left
    /// open again, with four times the nodes up to --move-nodes, only when
    /// the tree chooses it again; it is split once --move-nodes left it
    /// open. The full searches go to the positions the line to the
    /// decision passes through, not to every move of every split.
    #[arg(long, requires_all = ["best_first", "move_nodes"], value_name = "NODES",
          value_parser = clap::value_parser!(u64).range(1..))]
    try_nodes: Option<u64>,
    /// With --best-first: where an open position's proof and disproof
    /// numbers come from: "flat", 1 and 1 each (3 and 1 where no win was
    /// found but the hold not proven), the default; or "search", the
    /// numbers its own search stopped at, each as 1 + its base-2
    /// logarithm (proof-number search over searches, PN²), so that the
    /// tree turns first to the positions whose searches came nearest. The
    /// numbers are kept in --known with the value, for a run started
    /// again; a position read from a file written before they were (before
    /// 2026-12-07) counts as flat.
    #[arg(long, requires = "best_first", value_name = "FROM", value_parser = leaf_numbers)]
    leaf_numbers: Option<bool>,
    /// With --moves --side: search this many positions side by side (1 to
    /// 256; 1, the default), each in a table of its own, --memory and
    /// --hold-memory shared out among them: the positions after each move
    /// (or, with --split, after each move at the last ply under a
    /// position), the engine's best first, until one decides. A table of
    /// its own is also what a search that the positions before it would
    /// crowd wants.
    #[arg(long, requires = "moves", value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// With --moves --side: keep the values found in this file (created if
    /// missing, appended to as they are found) and take those it holds
    /// from runs before, so that a run stopped and started again, or a run
    /// whose lines meet another's, does not search them again. Decided
    /// values serve any run of the same game and side; the lines left open
    /// are kept with --move-nodes and taken by a run with no more, which
    /// goes straight on splitting them.
    #[arg(long, requires = "moves", value_name = "FILE")]
    known: Option<std::path::PathBuf>,
    /// With --moves --side: take the positions this proof file proves
    /// (written by `solve --full --proof`, a position searched whole on its
    /// own) as decided, with their proofs: they are not searched again, and
    /// with --proof their proofs are joined into the one written. Each file
    /// is checked with the rules first. May be given more than once.
    #[arg(long = "use-proof", requires = "moves", value_name = "FILE")]
    use_proof: Vec<PathBuf>,
    /// With --moves --side: the file of values (--known) of runs for the
    /// other side in the same game, only read: each position it says the
    /// other side wins is one this side cannot win, taken as decided. Read
    /// at the start and again before each split of --best-first (each
    /// pass of --deepen), so
    /// that two runs side by side, one for each side, take each other's
    /// wins as they are found (a win of Black's after a move of White's is
    /// the disproof White's run needs there).
    #[arg(long = "other-side-known", requires = "moves", value_name = "FILE")]
    other_side_known: Option<PathBuf>,
    /// With --full: the most memory the search's table may take, in MiB
    /// (16 bytes a slot, four fifths of them usable, and a sixteenth more
    /// while it grows: 4096 MiB hold 202 million positions, 12000 MiB 592
    /// million; a search that outgrows a sixteenth of the table takes it
    /// whole). When full, it forgets the unsettled positions it searched
    /// least (never a proof or disproof), a quarter of the table, and goes
    /// on; it stops and says how far it got when fewer than a sixteenth
    /// can be forgotten. Proving that neither side can win takes up to
    /// about as much again, read from at most an eighth of the table
    /// (see --hold-memory).
    #[arg(long, requires = "full", default_value_t = 4096,
          value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    memory: u64,
    /// With --full: the most memory, in MiB, the graph read to prove that
    /// the other side holds may take, beside the table (about 170 bytes a
    /// position; after a repair the graph is kept, to be brought up to
    /// date at the next). By default an eighth of the table's positions, about as
    /// much as --memory: a large search that goes round may need
    /// more, and the machine may have it.
    #[arg(long, requires = "full", value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    hold_memory: Option<u64>,
    /// With --full: which of the other side's moves the graph read to
    /// prove its hold follows where the search disproved none of them:
    /// `unsettled`, the default, every move the search has not settled
    /// (the nearest only where that outgrows --hold-memory), or `nearest`,
    /// only the one nearest to a disproof, a smaller graph that may take
    /// more repairs (White's hold on 6x4 off closed with it).
    #[arg(long, requires = "full", value_name = "MOVES", value_parser = hold_reach)]
    hold_reach: Option<HoldReach>,
    /// With --full: look only for this side's forced win (white or black),
    /// not for both sides' in turn; without one, the proof is that the
    /// other side holds. With --moves: after each move, the engine's best
    /// first, until the side's value is known (for the side not to move,
    /// one move after which it cannot win is enough, and the others are not
    /// searched).
    #[arg(long, requires = "full", value_name = "COLOR",
          value_parser = crate::args::color)]
    side: Option<Color>,
    /// With --full: the proof and disproof numbers a new position starts
    /// with: `one`, the default, 1 and 1 as in plain df-pn, or `eval`,
    /// from the engine's evaluation (material and advancement), which
    /// searches promising moves first: on the larger solved boards it found
    /// wins in 1.1 to 3.4 times less time, and took up to twice as long to
    /// find that a side has none.
    #[arg(long, requires = "full", value_name = "FROM", value_parser = start_numbers)]
    start_numbers: Option<StartNumbers>,
    /// Check a proof file written by `solve --full --proof` with the rules
    /// alone, and say what it proves.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "board", "variant", "symmetry", "full"])]
    verify: Option<PathBuf>,
    /// With --full: stop each side's search after this many nodes in this
    /// run, as --time does after its seconds, but at the same point on
    /// any machine (the positions read into the other side's hold count
    /// as nodes). Not with --moves (see --move-nodes).
    #[arg(long, requires = "full", value_name = "NODES", conflicts_with = "moves",
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// With --full --side: keep the search's state in this file when it
    /// stops (--time, Ctrl-C, the memory), and go on from it when the
    /// file is there, so that a search longer than one run adds up over
    /// several (the file takes 16 bytes a position of the table; it must
    /// be of the same game, start and side, and the table large enough
    /// for it).
    #[arg(long, requires = "full", value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Stop after this many seconds and say how far the solver got.
    #[arg(long, value_parser = positive_seconds)]
    time: Option<f64>,
}

/// Whether `--leaf-numbers` takes the searches' own numbers.
fn leaf_numbers(s: &str) -> Result<bool, String> {
    match s.trim() {
        "flat" => Ok(false),
        "search" => Ok(true),
        _ => Err(format!("'{s}' is neither flat nor search")),
    }
}

fn start_numbers(s: &str) -> Result<StartNumbers, String> {
    match s.trim() {
        "eval" => Ok(StartNumbers::Evaluation),
        "one" => Ok(StartNumbers::One),
        _ => Err(format!("'{s}' is neither eval nor one")),
    }
}

fn hold_reach(s: &str) -> Result<HoldReach, String> {
    match s.trim() {
        "unsettled" => Ok(HoldReach::Unsettled),
        "nearest" => Ok(HoldReach::Nearest),
        _ => Err(format!("'{s}' is neither unsettled nor nearest")),
    }
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1e7 => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds above 0")),
    }
}

/// Runs `epaminondas solve`.
pub fn run(args: &SolveArgs) -> Outcome {
    if let Some(path) = &args.verify {
        return crate::prove::verify(path);
    }
    // clap counts a flag's default as present, so `requires = "full"` lets
    // these through without it: say so instead of ignoring them.
    if !args.full {
        let needs_full = [
            ("--proof", args.proof.is_some()),
            ("--moves", args.moves),
            ("--side", args.side.is_some()),
            ("--hold-memory", args.hold_memory.is_some()),
            ("--hold-reach", args.hold_reach.is_some()),
            ("--start-numbers", args.start_numbers.is_some()),
            ("--checkpoint", args.checkpoint.is_some()),
            ("--nodes", args.nodes.is_some()),
        ];
        if let Some((flag, _)) = needs_full.iter().find(|(_, given)| *given) {
            return Err(Failure::Input(format!(
                "{flag} works with --full only (a search with no limit on the game's length)"
            )));
        }
    }
    let pos = crate::args::game_start(
        args.variant,
        args.board,
        args.symmetry,
        args.position.as_ref(),
    )?;
    let stop = crate::output::interrupt_on_ctrl_c("reporting how far the solver got");
    if let Some(seconds) = args.time {
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(seconds));
            stop.store(true, Ordering::Relaxed);
        });
    }
    let memory = crate::prove::SearchMemory {
        table_mib: args.memory,
        hold_mib: args.hold_memory,
        start: args.start_numbers.unwrap_or_default(),
        hold_reach: args.hold_reach.unwrap_or_default(),
    };
    if args.full && args.moves {
        if args.checkpoint.is_some() {
            return Err(Failure::Input(
                "--checkpoint keeps one search from the start, not --moves' searches (with --side, --known keeps the values they find)".into(),
            ));
        }
        let limits = crate::prove::MovesLimits {
            memory,
            move_time: args.move_time.map(Duration::from_secs_f64),
            move_nodes: args.move_nodes,
        };
        if let (Some(tried), Some(most)) = (args.try_nodes, args.move_nodes)
            && tried >= most
        {
            return Err(Failure::Input(format!(
                "--try-nodes {tried} is not fewer than --move-nodes {most}: give fewer (a tenth, say), or leave it out"
            )));
        }
        if let Some(side) = args.side {
            return crate::prove::solve_moves_for_side(
                &pos,
                side,
                crate::prove::SplitShape {
                    plies: args.split.unwrap_or(1),
                    deepen: args.deepen.unwrap_or(0),
                    threads: args.threads.unwrap_or(1) as usize,
                    best_first: args.best_first,
                    try_nodes: args.try_nodes,
                    searched_leaf_numbers: args.leaf_numbers.unwrap_or(false),
                },
                limits,
                crate::prove::SideFiles {
                    proof: args.proof.as_deref(),
                    known: args.known.as_deref(),
                    given: &args.use_proof,
                    other_side: args.other_side_known.as_deref(),
                },
                stop,
            );
        }
        for (flag, given) in [
            ("--known", args.known.is_some()),
            ("--use-proof", !args.use_proof.is_empty()),
            ("--other-side-known", args.other_side_known.is_some()),
            ("--split", args.split.is_some()),
            ("--threads", args.threads.is_some()),
            ("--deepen", args.deepen.is_some()),
            ("--best-first", args.best_first),
        ] {
            if given {
                return Err(Failure::Input(format!(
                    "{flag} works with --side only (one side's win, decided move by move)"
                )));
            }
        }
        return crate::prove::solve_moves(&pos, limits, args.proof.as_deref(), stop);
    }
    if args.full {
        if args.checkpoint.is_some() && args.side.is_none() {
            return Err(Failure::Input(
                "--checkpoint works with --side only (it keeps one side's search)".into(),
            ));
        }
        let run = crate::prove::FullRun {
            only: args.side,
            proof: args.proof.as_deref(),
            checkpoint: args.checkpoint.as_deref(),
            nodes: args.nodes,
        };
        return crate::prove::solve_full(&pos, run, memory, stop);
    }
    let max_plies = args.plies.unwrap_or(1);
    let started = Instant::now();
    let solution = solve_with_progress(&pos, max_plies, stop, |progress| {
        let seconds = started.elapsed().as_secs_f64();
        let what = if progress.won {
            "a forced win"
        } else {
            "no forced win"
        };
        eprintln!(
            "{:>3} plies: {what} ({} positions, {seconds:.2} s)",
            progress.plies, progress.nodes
        );
    });
    let seconds = started.elapsed().as_secs_f64();
    let turn = pos.turn();
    match solution {
        Solution::Win { plies: 0, .. } => outln!("{turn} has already won"),
        Solution::Win { plies, line } => {
            let line: Vec<String> = line
                .iter()
                .map(|m| m.with_capture_mark().to_string())
                .collect();
            outln!("{turn} wins in {plies} plies: {}", line.join(" "));
        }
        Solution::NoWin => outln!("no forced win for {turn} within {} plies", max_plies),
        Solution::Stopped {
            no_win_within,
            defence,
        } => {
            let proven = match no_win_within {
                Some(plies) => format!("no forced win for {turn} within {plies} plies"),
                None => "nothing proven".to_owned(),
            };
            outln!("stopped after {seconds:.1} s: {proven}");
            if let (Some((attack, reply)), Some(plies)) = (defence, no_win_within) {
                outln!(
                    "best defence found so far: against {}, {} holds (no forced win within {plies} plies)",
                    attack.with_capture_mark(),
                    reply.with_capture_mark()
                );
            }
            return Err(Failure::Run(format!(
                "stopped before {} plies were searched through",
                max_plies
            )));
        }
    }
    eprintln!("({seconds:.3} s)");
    Ok(())
}
