//! `epaminondas match`: engines against each other, as cutechess-cli and
//! fastchess run them.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Args;
use epaminondas_arena::players::MoveLimit;
use epaminondas_arena::stats::{Sprt, SprtVerdict, los};
use epaminondas_arena::{
    GameReport, MatchConfig, MatchState, PlayerSpec, Resign, read_openings, run_match,
};
use epaminondas_rules::{BoardSize, Symmetry, Variant, pgn_date};
use indicatif::{ProgressBar, ProgressStyle};

use crate::output::{Failure, Outcome, outln};

/// Arguments of `epaminondas match`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    epaminondas match --engine cmd=\"epaminondas engine\" name=new --engine cmd=./old-epaminondas-engine name=old --movetime 100 --games 200 --sprt 0,10,0.05,0.05\n  \
    epaminondas match --engine cmd=\"epaminondas engine\" option.Level=3 --engine greedy --board 8x8 --openings openings.txt --records games.txt")]
pub struct MatchArgs {
    /// A player, twice: `random`, `greedy` or a UGI engine's command line
    /// (or `cmd=COMMAND`), then, cutechess-style, `name=NAME` and
    /// `option.NAME=VALUE` words for it. Results are for the first.
    #[arg(long = "engine", required = true, num_args = 1.., value_name = "SPEC")]
    engines: Vec<String>,
    /// Games to play at most: an even number, since each opening is played
    /// twice with colours swapped.
    #[arg(long, default_value_t = 100, value_parser = even_games)]
    games: u64,
    /// Games played at once (default: as many as the machine has cores for
    /// the engines' threads, so that it is never oversubscribed).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: Option<u64>,
    /// Search nodes per move (deterministic).
    #[arg(long, conflicts_with_all = ["movetime", "tc"], value_parser = crate::args::positive)]
    nodes: Option<u64>,
    /// Milliseconds per move (default 100).
    #[arg(long, conflicts_with = "tc", value_parser = crate::args::positive)]
    movetime: Option<u64>,
    /// Game clock as SECONDS+INCREMENT, like 10+0.1.
    #[arg(long, value_parser = parse_tc)]
    tc: Option<(Duration, Duration)>,
    /// The game: epaminondas (the default), crossings, abanondas or
    /// stumbling-blocks.
    #[arg(long, default_value = "epaminondas", value_parser = crate::args::variant)]
    variant: Variant,
    /// Board size as FILESxRANKS (default: the variant's, 14x12; 8x8 for crossings).
    #[arg(long, value_parser = crate::args::size)]
    board: Option<BoardSize>,
    /// Symmetry rule option: mirror, file or off (default: the variant's,
    /// mirror; off for crossings).
    #[arg(long, value_parser = crate::args::symmetry)]
    symmetry: Option<Symmetry>,
    /// Openings, one a line: position text, or moves from the start
    /// (`1. c2-c3 c7-c6`); taken in turn, each played twice. Without it,
    /// random balanced openings of 2 to 6 plies.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed of the random openings.
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
    records: Option<PathBuf>,
}

/// The words of the `--engine` options, one group per player: a word that
/// is not `name=...` or `option....` starts a player, and those words
/// belong to the player before them.
fn group_engines(words: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for word in words {
        let attribute = word.starts_with("name=") || word.starts_with("option.");
        match groups.last_mut() {
            Some(group) if attribute => group.push(word.clone()),
            _ => groups.push(vec![word.clone()]),
        }
    }
    groups
}

fn even_games(s: &str) -> Result<u64, String> {
    let games = crate::args::positive(s)?;
    if games % 2 == 1 {
        return Err(format!(
            "{games} is odd: each opening is played twice with colours swapped, so give an even number"
        ));
    }
    Ok(games)
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

/// The engines' search threads per game (the larger `option.Threads`).
fn threads_per_game(players: &[PlayerSpec; 2]) -> u64 {
    players
        .iter()
        .flat_map(|p| &p.options)
        .filter(|(name, _)| name.eq_ignore_ascii_case("threads"))
        .filter_map(|(_, value)| value.parse::<u64>().ok())
        .max()
        .unwrap_or(1)
        .max(1)
}

/// Runs `epaminondas match`.
pub fn run(args: &MatchArgs) -> Outcome {
    let specs = group_engines(&args.engines);
    let [first, second] = &specs[..] else {
        return Err(format!(
            "give exactly two engines (--engine SPEC twice), not {}",
            specs.len()
        )
        .into());
    };
    let players = [
        PlayerSpec::parse(first).map_err(|e| format!("--engine {}: {e}", first.join(" ")))?,
        PlayerSpec::parse(second).map_err(|e| format!("--engine {}: {e}", second.join(" ")))?,
    ];
    let limit = match (args.nodes, args.movetime, args.tc) {
        (Some(n), _, _) => MoveLimit::Nodes(n),
        (_, Some(ms), _) => MoveLimit::MoveTime(Duration::from_millis(ms)),
        (_, _, Some((base, increment))) => MoveLimit::Clock { base, increment },
        _ => MoveLimit::MoveTime(Duration::from_millis(100)),
    };
    // Checks that the variant can be played on the board.
    let start = crate::args::game_start(args.variant, args.board, args.symmetry, None)?;
    let openings = match &args.openings {
        Some(path) => {
            let text = crate::records::read_text(path)?;
            read_openings(&text, args.variant, start.size(), start.symmetry())
                .map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => Vec::new(),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let threads = threads_per_game(&players);
    let fits = (cores / threads).max(1);
    let concurrency = match args.concurrency {
        Some(n) => {
            if n > fits {
                eprintln!(
                    "warning: {n} games at once with {threads} thread(s) each on {cores} cores: \
                     the engines will share cores and their timings suffer"
                );
            }
            n
        }
        None => fits,
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let config = MatchConfig {
        players,
        pairs: (args.games / 2) as usize,
        concurrency: concurrency as usize,
        limit,
        size: start.size(),
        symmetry: start.symmetry(),
        variant: args.variant,
        seed: args.seed,
        openings,
        max_plies: args.max_plies,
        resign: args.resign,
        sprt: args.sprt,
        date: pgn_date(now),
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
    let interrupt = crate::output::interrupt_on_ctrl_c("finishing with the games played so far");
    // On a terminal a progress bar; otherwise (a log, a pipe) a line per
    // game and the running score, as cutechess-cli writes them.
    let on_terminal = std::io::stdout().is_terminal();
    let bar = if on_terminal {
        let bar = ProgressBar::new(config.pairs as u64 * 2);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut write_error = None;
    let result = run_match(&config, interrupt, |report, state| {
        if let Some(file) = records.as_mut() {
            if let Err(e) = writeln!(file, "{}", report.record) {
                write_error.get_or_insert(e.to_string());
            }
        }
        if on_terminal {
            bar.set_message(format!(
                "+{} ={} -{}",
                state.wins, state.draws, state.losses
            ));
            bar.inc(1);
        } else {
            outln!("{}", game_line(report));
            outln!("{}", score_line(state));
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        eprintln!("warning: some records were not written: {e}");
    }
    let state = result.map_err(|e| Failure::Run(e.to_string()))?;
    for line in summary(&config, &state) {
        outln!("{line}");
    }
    if state.interrupted {
        return Err(Failure::Run(format!(
            "interrupted after {} games",
            state.games
        )));
    }
    Ok(())
}

/// The line for a finished game: `Finished game 3 (A vs B): 1-0 {crossing}`.
fn game_line(report: &GameReport) -> String {
    let record = &report.record;
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        report.number,
        record.tag("White").unwrap_or("?"),
        record.tag("Black").unwrap_or("?"),
        record.result(),
        record.tag("Termination").unwrap_or("?")
    )
}

/// The running score: `Score of A vs B: 5 - 3 - 2  [0.600] 10`.
fn score_line(state: &MatchState) -> String {
    let points = state.wins as f64 + state.draws as f64 / 2.0;
    format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        state.names[0],
        state.names[1],
        state.wins,
        state.losses,
        state.draws,
        points / state.games.max(1) as f64,
        state.games
    )
}

/// The final report, fastchess-style.
fn summary(config: &MatchConfig, state: &MatchState) -> Vec<String> {
    let [a, b] = &state.names;
    let games = state.games;
    let points = state.wins as f64 + state.draws as f64 / 2.0;
    let percent = |part: f64| 100.0 * part / games.max(1) as f64;
    let mut lines = vec![format!(
        "Results of {a} vs {b} ({}, {}{}x{} {}, {games} games{}):",
        config.limit_tag(),
        if config.variant.is_standard() {
            String::new()
        } else {
            format!("{} ", config.variant)
        },
        config.size.files(),
        config.size.ranks(),
        config.symmetry,
        if state.interrupted {
            ", interrupted"
        } else {
            ""
        }
    )];
    let elo = match (state.pairs.score(), state.pairs.elo()) {
        (None, _) => "Elo: no pair finished".to_owned(),
        (Some(score), _) if score >= 1.0 => format!("Elo: not measurable, {a} won every pair"),
        (Some(score), _) if score <= 0.0 => format!("Elo: not measurable, {a} lost every pair"),
        (_, Some((elo, error))) => {
            let nelo = state
                .pairs
                .nelo()
                .map(|(n, e)| format!(", nElo: {n:.2} +/- {e:.2}"))
                .unwrap_or_default();
            format!("Elo: {elo:.2} +/- {error:.2}{nelo}")
        }
        _ => "Elo: not measurable".to_owned(),
    };
    lines.push(elo);
    let los = los(state.wins as u64, state.losses as u64)
        .map_or("-".to_owned(), |l| format!("{:.2} %", 100.0 * l));
    lines.push(format!(
        "LOS: {los}, DrawRatio: {:.2} %",
        percent(state.draws as f64)
    ));
    lines.push(format!(
        "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({:.2} %)",
        state.wins,
        state.losses,
        state.draws,
        percent(points)
    ));
    let p = state.pairs.0;
    lines.push(format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    ));
    if let (Some(sprt), Some(llr), Some(verdict)) = (config.sprt, state.llr, state.verdict) {
        let (lower, upper) = sprt.bounds();
        let verdict = match verdict {
            SprtVerdict::H1 => "H1 was accepted",
            SprtVerdict::H0 => "H0 was accepted",
            SprtVerdict::Continue => "undecided",
        };
        let at = state
            .decided_at
            .map(|games| format!(" after {games} games"))
            .unwrap_or_default();
        lines.push(format!(
            "SPRT ({}, {}, {}, {}): llr {llr:.2}, lbound {lower:.2}, ubound {upper:.2} - {verdict}{at}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_arena::PlayerKind;
    use epaminondas_arena::stats::Pentanomial;

    fn config() -> MatchConfig {
        MatchConfig {
            players: [
                PlayerSpec::of(PlayerKind::Greedy),
                PlayerSpec::of(PlayerKind::Random),
            ],
            pairs: 5,
            concurrency: 1,
            limit: MoveLimit::MoveTime(Duration::from_millis(100)),
            size: BoardSize::STANDARD,
            symmetry: Symmetry::Mirror,
            variant: Variant::Epaminondas,
            seed: 1,
            openings: Vec::new(),
            max_plies: None,
            resign: None,
            sprt: Some(Sprt {
                elo0: 0.0,
                elo1: 10.0,
                alpha: 0.05,
                beta: 0.05,
            }),
            date: "2026.11.24".to_owned(),
        }
    }

    #[test]
    fn the_summary_has_what_fastchess_users_look_for() {
        let state = MatchState {
            names: ["new".to_owned(), "old".to_owned()],
            games: 10,
            wins: 5,
            draws: 2,
            losses: 3,
            pairs: Pentanomial([0, 1, 2, 1, 1]),
            verdict: Some(SprtVerdict::Continue),
            llr: Some(0.12),
            decided_at: None,
            interrupted: false,
        };
        let text = summary(&config(), &state).join("\n");
        for needle in [
            "Results of new vs old (100 ms a move, 14x12 mirror, 10 games):",
            "Elo: ",
            "nElo: ",
            "LOS: 76.03 %",
            "DrawRatio: 20.00 %",
            "Games: 10, Wins: 5, Losses: 3, Draws: 2, Points: 6.0 (60.00 %)",
            "Ptnml(0-2): [0, 1, 2, 1, 1]",
            "SPRT (0, 10, 0.05, 0.05): llr 0.12, lbound -2.94, ubound 2.94 - undecided",
        ] {
            assert!(text.contains(needle), "{needle}\n{text}");
        }
        assert_eq!(
            score_line(&state),
            "Score of new vs old: 5 - 3 - 2  [0.600] 10"
        );
    }

    #[test]
    fn engine_words_group_by_player() {
        let words: Vec<String> = [
            "cmd=./a --fast",
            "name=A",
            "option.Hash=64",
            "greedy",
            "name=G",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            group_engines(&words),
            [
                vec!["cmd=./a --fast", "name=A", "option.Hash=64"],
                vec!["greedy", "name=G"]
            ]
        );
        let plain: Vec<String> = ["random", "epaminondas engine"].map(String::from).to_vec();
        assert_eq!(group_engines(&plain).len(), 2);
    }

    #[test]
    fn games_come_in_pairs() {
        assert_eq!(even_games("4"), Ok(4));
        assert!(even_games("3").unwrap_err().contains("even number"));
        assert!(even_games("0").is_err());
    }
}
