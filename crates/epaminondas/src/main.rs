//! The `epaminondas` program. Each subcommand is a thin layer over a library crate.

mod analyze;
mod args;
mod book;
mod convert;
mod loadtest;
mod matches;
mod output;
mod perft;
mod play;
mod prove;
mod puzzles;
mod records;
mod selfplay;
mod serve;
mod show;
mod solve;
mod train;
mod tune;

use std::process::ExitCode;

/// Large tables (the proof search's above all) on huge pages: far fewer
/// misses of the address translation cache on their random probes.
#[global_allocator]
static ALLOCATOR: epaminondas_engine::memory::HugePageAllocator =
    epaminondas_engine::memory::HugePageAllocator;

use clap::{CommandFactory, Parser, Subcommand};

/// Epaminondas: rules, engine and game server for Robert Abbott's board game.
#[derive(Parser, Debug)]
#[command(name = "epaminondas", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal-move tree (checks and measures move generation).
    Perft(perft::PerftArgs),
    /// Run a fixed perft workload and report nodes per second.
    #[command(
        after_help = "Examples:\n  epaminondas bench\n  epaminondas engine <<< bench   (the engine's search benchmark)"
    )]
    Bench,
    /// Speak the UGI engine protocol on standard input and output.
    Engine(EngineArgs),
    /// Play engines against each other; report Elo and run an SPRT.
    Match(matches::MatchArgs),
    /// Prove a forced win for the side to move within some plies, or that none exists.
    Solve(solve::SolveArgs),
    /// Evaluate a position, or every position of a game record, with the engine.
    Analyze(analyze::AnalyzeArgs),
    /// Mine puzzles (forced wins by one first move, proven by the solver) or check a collection.
    Puzzles(puzzles::PuzzlesArgs),
    /// Fit the evaluation weights to the results of game records (Texel tuning).
    Tune(tune::TuneArgs),
    /// Play engine games that make training data for the neural evaluation.
    Selfplay(selfplay::SelfplayArgs),
    /// Train the neural evaluation on selfplay data; writes a net file.
    Train(train::TrainArgs),
    /// Build an opening book by long searches, or add to one.
    Book(book::BookArgs),
    /// Play a game in the terminal, against the engine or a friend.
    Play(play::PlayArgs),
    /// Print a position, or a game record's position, as a text diagram.
    Show(show::ShowArgs),
    /// Rewrite game records or move lists from one notation dialect to another.
    Convert(convert::ConvertArgs),
    /// Run the game server (HTTP on 127.0.0.1:8080, data in SQLite or PostgreSQL).
    Serve(serve::ServeArgs),
    /// Send one pbmserv-style command to a server and print the reply.
    Pbm(serve::PbmArgs),
    /// Hand one mail message (on standard input) to a running server, as a mail server's pipe does.
    MailIn(serve::MailInArgs),
    /// List the chat messages players reported (for the site's operator).
    Reports(serve::ReportsArgs),
    /// Play many games at once through a server's API; report moves/s and latency.
    Loadtest(loadtest::LoadArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell).
    #[command(
        after_help = "Examples:\n  epaminondas completions bash > ~/.local/share/bash-completion/completions/epaminondas\n  epaminondas completions zsh > ~/.zfunc/_epaminondas\n  epaminondas completions fish > ~/.config/fish/completions/epaminondas.fish"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// A clap error as one line: its first paragraph, joined (`--help` has the rest).
fn one_line(text: &str) -> String {
    let words: Vec<&str> = text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    if words.is_empty() {
        "error: invalid arguments (see --help)".to_owned()
    } else {
        words.join(" ")
    }
}

/// Arguments of `epaminondas engine`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas engine\n  epaminondas engine --set Hash=256 --set Threads=2\n  printf 'position startpos\\ngo movetime 1000\\n' | epaminondas engine"
)]
struct EngineArgs {
    /// Set an option before reading commands, as NAME=VALUE (e.g. Hash=128,
    /// LMR=false); repeatable. The same as `setoption name NAME value VALUE`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

/// Runs `epaminondas engine`: the options of `--set`, then the protocol.
fn engine(args: &EngineArgs) -> output::Outcome {
    let mut ugi = epaminondas_engine::ugi::Ugi::new(std::io::stdout());
    for setting in &args.set {
        let Some((name, value)) = setting.split_once('=') else {
            return Err(format!("--set {setting}: expected NAME=VALUE, like Hash=128").into());
        };
        ugi.set(name.trim(), value.trim())
            .map_err(|e| format!("--set {setting}: {e}"))?;
    }
    ugi.run(std::io::BufReader::new(std::io::stdin()));
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            match err.kind() {
                // Asked for: on standard output, status 0.
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = err.print();
                    return ExitCode::SUCCESS;
                }
                // Nothing asked (no subcommand): the help on standard
                // error and the usage status, as clap does by default.
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = err.print();
                }
                _ => eprintln!("{}", one_line(&err.to_string())),
            }
            return ExitCode::from(output::INPUT_ERROR);
        }
    };
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Bench => perft::bench(),
        Command::Match(args) => matches::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Puzzles(args) => puzzles::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Pbm(args) => serve::run_pbm(&args),
        Command::MailIn(args) => serve::run_mail_in(&args),
        Command::Reports(args) => serve::reports(&args),
        Command::Loadtest(args) => loadtest::run(&args),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "epaminondas", &mut script);
            output::out!("{}", String::from_utf8_lossy(&script));
            Ok(())
        }
        Command::Engine(args) => engine(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", one_line(&failure.to_string()));
            failure.exit_code()
        }
    }
}
