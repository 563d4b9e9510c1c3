//! The `epaminondas` binary, run as a user would run it.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_epaminondas"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What `solve --verify FILE` printed, once it succeeded.
fn verified(file: &str) -> String {
    let out = run(&["solve", "--verify", file]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// Runs `solve` with `args` and `--proof file`, which must find that
/// neither side can force a win, and checks the proof: both holds. Gives
/// what `solve --verify` printed.
fn proves_neither(args: &[&str], file: &str) -> String {
    let out = run(&[args, &["--proof", file]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("neither side can force a win: "),
        "{}",
        stdout(&out)
    );
    let text = verified(file);
    assert!(
        text.contains("white cannot force a win (black holds)"),
        "{text}"
    );
    assert!(
        text.contains("black cannot force a win (white holds)"),
        "{text}"
    );
    text
}

/// `solve --full` from the start of 4x4 without the symmetry rule: a
/// board where neither side can force a win, decided in seconds.
const OFF_4X4_FULL: [&str; 6] = ["solve", "--board", "4x4", "--symmetry", "off", "--full"];

/// `solve --full` on 4x4 off with `extra` options proves, with a proof
/// that checks, that neither side can force a win; returns the check's
/// report.
fn proves_neither_on_4x4_off(extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("4x4-off.proof");
    let checked = proves_neither(&[&OFF_4X4_FULL[..], extra].concat(), file.to_str().unwrap());
    assert!(
        checked.contains("so neither side can force a win"),
        "{checked}"
    );
    checked
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs the binary with `args` and checks that it refuses them: exit code
/// 2 (bad input) and `expected` in the error it prints.
fn refused(args: &[&str], expected: &str) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains(expected), "{}", stderr(&out));
}

#[test]
fn perft_prints_every_depth_then_the_speed() {
    let out = run(&["perft", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[..3],
        &["perft 1 114", "perft 2 12996", "perft 3 1787292"]
    );
    assert!(
        lines[3].starts_with("time ") && lines[3].contains("leaves/s"),
        "{text}"
    );
    assert!(
        lines[3].contains("not played"),
        "the output says leaves are counted: {text}"
    );
}

#[test]
fn the_variants_from_the_command_line() {
    // Each variant's perft from its start (RULES.md section 7): Crossings on
    // its own 8x8 board, the others on 14x12.
    for (variant, expected) in [
        ("crossings", "perft 3 269278"),
        ("abanondas", "perft 2 130321"),
        ("stumbling-blocks", "perft 3 571704"),
    ] {
        let depth = if variant == "abanondas" { "2" } else { "3" };
        let out = run(&["perft", "--variant", variant, depth]);
        assert!(
            stdout(&out).contains(expected),
            "{variant}: {}",
            stdout(&out)
        );
    }
    refused(
        &[
            "perft",
            "--variant",
            "stumbling-blocks",
            "--board",
            "6x4",
            "1",
        ],
        "at least 5 ranks",
    );
    let out = run(&["perft", "--variant", "chess", "1"]);
    assert!(
        stderr(&out).contains("unknown variant 'chess'"),
        "{}",
        stderr(&out)
    );
    // Stones show as #; a position of a variant is read under it.
    let out = run(&[
        "show",
        "--variant",
        "stumbling-blocks",
        "--position",
        "bbbbb/5/1s1s1/2s2/wwwww b",
    ]);
    let text = stdout(&out);
    assert!(text.contains("3  . # . # ."), "{text}");
    let out = run(&[
        "solve",
        "--variant",
        "crossings",
        "--position",
        "w3/4/4/3b w",
        "2",
    ]);
    assert!(
        stdout(&out).contains("no forced win"),
        "a crossed piece is frozen: {}",
        stdout(&out)
    );
}

#[test]
fn perft_on_other_boards_positions_and_options() {
    let text = stdout(&run(&["perft", "--board", "8x8", "3"]));
    assert!(text.contains("perft 3 269278"), "{text}");
    let text = stdout(&run(&["perft", "--board", "5x5", "--symmetry", "off", "3"]));
    assert!(text.contains("perft 3 15043"), "{text}");
    // The seeds/004 position: the binary's count matches the library's.
    let text = stdout(&run(&[
        "perft",
        "--position",
        "bbb3/2b3/4w1/1wb1w1/w3w1 w",
        "1",
    ]));
    let expected: epaminondas_rules::Position = "bbb3/2b3/4w1/1wb1w1/w3w1 w".parse().unwrap();
    assert!(
        text.contains(&format!("perft 1 {}", expected.legal_moves().len())),
        "{text}"
    );
}

#[test]
fn divide_lists_each_root_move() {
    let out = run(&["perft", "--board", "6x6", "--divide", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let moves: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("perft"))
        .collect();
    assert_eq!(moves.len(), 42);
    let sum: u64 = moves
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1644);
    assert!(moves.iter().any(|l| l.starts_with("a2-a3 ")), "{text}");
    assert!(text.contains("perft 2 1644"));
}

#[test]
fn bad_input_gets_one_line_and_a_failure_code() {
    for (args, needle) in [
        (vec!["perft", "0"], "'0'"),
        (vec!["perft"], "<DEPTH>"),
        (vec!["perft", "--frobnicate", "2"], "--frobnicate"),
        (vec!["perft", "--board", "3x12", "2"], "4 to 26"),
        (vec!["perft", "--board", "banana", "2"], "banana"),
        (
            vec!["perft", "--position", "4/4/5/4 w", "2"],
            "rank 2 has 5 squares, expected 4",
        ),
        (vec!["perft", "--position", "4/4/4/4", "2"], "side to move"),
        (
            vec![
                "perft",
                "--position",
                "4/4/4/4 w",
                "--symmetry",
                "sideways",
                "2",
            ],
            "sideways",
        ),
        (vec!["nonsense"], "nonsense"),
        (
            vec!["perft", "--board", "8x8", "--position", "4/4/4/4 w", "2"],
            "--position",
        ),
    ] {
        let out = run(&args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn help_and_version_succeed() {
    for args in [&["--help"][..], &["--version"], &["perft", "--help"]] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}");
        assert!(!stdout(&out).is_empty());
    }
}

#[test]
fn engine_speaks_ugi_on_standard_input() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_epaminondas"))
        .arg("engine")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(b"ugi\nposition startpos moves f1,g2-h3\ngo depth 2\n")
        .expect("the engine reads");
    let out = child
        .wait_with_output()
        .expect("the engine ends at end of input");
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("ugiok"), "{text}");
    let reply = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove");
    let mut pos = epaminondas_rules::Position::standard();
    pos.play(pos.parse_move("f1,g2-h3").unwrap()).unwrap();
    assert!(pos.parse_move(reply).is_ok(), "{reply}");
}

#[test]
fn match_between_the_engine_and_a_baseline_then_tune_on_its_games() {
    let records =
        std::env::temp_dir().join(format!("epaminondas-match-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&records);
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_epaminondas"));
    let out = run(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        "random",
        "--games",
        "4",
        "--nodes",
        "500",
        "--board",
        "6x6",
        "--max-plies",
        "150",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Not a terminal: a line per game and the running score, then the summary.
    assert_eq!(text.matches("Finished game ").count(), 4, "{text}");
    assert!(
        text.contains("Score of Epaminondas 0.1.0 vs random: "),
        "{text}"
    );
    assert!(
        text.contains(
            "Results of Epaminondas 0.1.0 vs random (500 nodes a move, 6x6 mirror, 4 games):"
        ),
        "{text}"
    );
    for needle in [
        "Elo: ",
        "LOS: ",
        "DrawRatio: ",
        "Games: 4, Wins: ",
        "Ptnml(0-2): [",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let saved = std::fs::read_to_string(&records).unwrap();
    let games = epaminondas_rules::GameRecord::read_all(&saved).unwrap();
    assert_eq!(games.len(), 4);
    for game in &games {
        let names = [game.tag("White").unwrap(), game.tag("Black").unwrap()];
        assert!(
            names.contains(&"Epaminondas 0.1.0") && names.contains(&"random"),
            "{names:?}"
        );
        assert!(
            game.tag("Date")
                .is_some_and(|d| d.len() == 10 && !d.contains('?')),
            "{game}"
        );
        assert_eq!(
            game.tag("PlyCount"),
            Some(game.moves().len().to_string().as_str())
        );
        assert!(game.tag("Termination").is_some());
    }
    // The games are data for the tuner.
    let out = run(&["tune", records.to_str().unwrap(), "--skip-plies", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("positions from 4 games"), "{text}");
    assert!(
        text.contains("piece ") && text.contains("mobility "),
        "{text}"
    );
    assert!(text.contains("as Rust"), "{text}");
    let _ = std::fs::remove_file(&records);
    let out = run(&["tune", records.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
    // Bad options are refused with one line.
    let out = run(&[
        "match", "--engine", "random", "--engine", "greedy", "--sprt", "1,0,2,3",
    ]);
    assert!(!out.status.success());
    assert_eq!(stderr(&out).trim_end().lines().count(), 1);
}

#[test]
fn solve_proves_wins_and_their_absence() {
    let out = run(&["solve", "--position", "4b/w4/5/5/5 w", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("white wins in 2 plies: a4-a5 "),
        "{}",
        stdout(&out)
    );
    let out = run(&["solve", "--board", "6x6", "3"]);
    assert_eq!(
        stdout(&out).trim(),
        "no forced win for white within 3 plies"
    );
    let out = run(&["solve", "0"]);
    assert!(!out.status.success());
}

/// 4x5 move by move for `side`, each position searched within `nodes`
/// nodes in a 64 MiB table, then `extra`: the tests of `--deepen` and
/// `--known`, where White's winning first move needs more than 100,000
/// nodes.
fn solve_4x5_moves(side: &str, nodes: &str, extra: &[&str]) -> Output {
    solve_moves_on("4x5", side, nodes, extra)
}

/// Checks that `solve --board 4x4 --full --moves` with `extra` options
/// is refused with a message containing `expected`.
fn refused_moves_on_4x4(extra: &[&str], expected: &str) {
    let args = [&["solve", "--board", "4x4", "--full", "--moves"][..], extra].concat();
    refused(&args, expected);
}

/// A temporary folder, and the paths in it of files with the `names`
/// given (not made).
fn temp_files<const N: usize>(names: [&str; N]) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let paths = names
        .iter()
        .map(|name| dir.path().join(name).to_str().unwrap().to_owned())
        .collect();
    (dir, paths)
}

/// `solve --full --moves --side SIDE` on `board`'s start, `nodes` nodes a
/// search, in a small table, with `extra` options.
fn solve_moves_on(board: &str, side: &str, nodes: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "solve",
        "--board",
        board,
        "--full",
        "--moves",
        "--side",
        side,
        "--move-nodes",
        nodes,
        "--memory",
        "64",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn solve_deepen_splits_the_positions_left_open_one_ply_further() {
    // 4x5: White's winning first move needs more than 100,000 nodes of
    // search: searched once within them, no move is decided. (Nodes, not
    // seconds: the same on any machine, however busy.)
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deepened.proof");
    let path = file.to_str().unwrap();
    let solve = |extra: &[&str]| solve_4x5_moves("white", "100000", extra);
    let out = solve(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("not decided: no move found that wins for white, "),
        "{text}"
    );
    // A position decided before (here a reflection of an earlier move's,
    // decided after it) is not searched again when no proof is wanted.
    assert!(
        text.lines().any(
            |l| l.ends_with(", as found before for it or its reflection)")
                && l.contains(" white cannot force a win (black holds) (")
        ),
        "{text}"
    );
    // Split further where left open: each of Black's replies after a move
    // is searched within the same nodes, and one move's replies all lose.
    // Side by side too (the positions of a ply split further are searched
    // two at a time).
    for threads in ["1", "2"] {
        let _ = std::fs::remove_file(path);
        let out = solve(&["--deepen", "1", "--threads", threads, "--proof", path]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("white wins: "), "{threads}: {text}");
        // A first pass as without --deepen, a second one ply deeper, and
        // once decided, one more for the proof.
        let log = stderr(&out);
        for said in [
            // What the first pass left open, listed (reflections once).
            "after pass 1, 7 lines left open (",
            "\n  a1,b2-d4:1\n",
            "pass 2: the positions left open split up to 1 plies further (",
            ": left open, split one ply further (",
            "decided; searching the deciding moves again for the proof (",
        ] {
            assert!(log.contains(said), "{threads}: {said}: {log}");
        }
        let checked = verified(path);
        assert!(
            checked.starts_with("proof checked: white wins from bbbb/bbbb/4/wwww/wwww w "),
            "{threads}: {checked}"
        );
    }
    refused(
        &[
            "solve", "--board", "4x4", "--full", "--moves", "--deepen", "2",
        ],
        "--deepen works with --side only",
    );
}

#[test]
fn solve_best_first_splits_where_nearest_to_deciding_the_start() {
    // 4x4, White, 20,000 nodes a position: searched once within them,
    // White's two first moves stay open. Split best first, one position
    // at a time, the tree proves Black's hold, and the proof joined from
    // its positions' proofs is checked.
    let (dir, paths) = temp_files(["4x4.known", "4x4.proof"]);
    let [known, proof] = [paths[0].as_str(), paths[1].as_str()];
    let solve = |extra: &[&str]| {
        let mut args = vec!["--best-first", "--known", known];
        args.extend_from_slice(extra);
        solve_moves_on("4x4", "white", "20000", &args)
    };
    let out = solve(&["--proof", proof]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("white cannot force a win: none of its 2 moves wins ("),
        "{}",
        stdout(&out)
    );
    let log = stderr(&out);
    for said in [
        "split 1: the start (the start's proof number ",
        "split 2: ",
        " positions in the tree, ",
        "decided; searching the tree's positions again for the proof (",
    ] {
        assert!(log.contains(said), "{said}: {log}");
    }
    let checked = verified(proof);
    assert!(
        checked.starts_with(
            "proof checked: white cannot force a win (black holds) from bbbb/bbbb/wwww/wwww w "
        ),
        "{checked}"
    );
    // The file keeps the positions the splits decided, with how deep the
    // tree went below them; a run from it decides at once, searching
    // nothing.
    let kept = std::fs::read_to_string(known).unwrap();
    assert!(
        kept.lines().any(|l| l.starts_with("cannot-win 2 20000 ")),
        "{kept}"
    );
    let out = solve(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("white cannot force a win: none of its 2 moves wins ("),
        "{text}"
    );
    assert!(
        text.lines()
            .all(|l| !l.contains(" (") || l.contains(MET_BEFORE) || l.starts_with("white ")),
        "{text}"
    );
    assert!(!stderr(&out).contains("split 2: "), "{}", stderr(&out));
    // 4x5: White's win, found one split down.
    let win = dir.path().join("4x5.proof");
    let win = win.to_str().unwrap();
    let out = solve_4x5_moves("white", "100000", &["--best-first", "--proof", win]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("white wins: "), "{}", stdout(&out));
    assert!(
        verified(win).starts_with("proof checked: white wins from bbbb/bbbb/4/wwww/wwww w "),
        "{}",
        verified(win)
    );
    refused_moves_on_4x4(&["--best-first"], "--best-first works with --side only");
    refused_moves_on_4x4(
        &["--side", "white", "--best-first", "--deepen", "2"],
        "cannot be used with",
    );
}

#[test]
fn solve_leaf_numbers_search_steers_the_tree_by_what_the_searches_left() {
    // 4x4, White, 20,000 nodes a position: with the searches' own numbers
    // the tree splits other positions (or the same in another order) than
    // with 1 and 1 each, and comes to the same value.
    let (_dir, paths) = temp_files(["search.known", "again.known", "flat.known"]);
    let splits = |numbers: &str, known: &str| {
        let mut args = vec!["--best-first", "--leaf-numbers", numbers];
        if !known.is_empty() {
            args.extend(["--known", known]);
        }
        let out = solve_moves_on("4x4", "white", "20000", &args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("white cannot force a win: none of its 2 moves wins ("),
            "{}",
            stdout(&out)
        );
        let lines: Vec<String> = stderr(&out)
            .lines()
            .filter(|l| l.starts_with("split "))
            .map(|l| l.split("; ").next().unwrap_or(l).to_owned())
            .collect();
        assert!(!lines.is_empty());
        lines
    };
    let searched = splits("search", &paths[0]);
    let lines = |splits: &[String]| {
        splits
            .iter()
            .map(|l| l.split(" (").next().unwrap_or(l).to_owned())
            .collect::<Vec<_>>()
    };
    assert_ne!(lines(&splits("flat", "")), lines(&searched));
    // The file keeps each undecided position's numbers with its value: a
    // run started again from the file's first value counts the start as
    // the run that wrote it did, where without them (a file of a build
    // before) the position read counts 1 and 1.
    let kept = std::fs::read_to_string(&paths[0]).unwrap();
    let first: String = kept.split_inclusive('\n').take(2).collect();
    assert!(first.contains("\nundecided 0 20000 numbers="), "{kept}");
    std::fs::write(&paths[1], &first).unwrap();
    let without: Vec<&str> = first
        .split(' ')
        .filter(|field| !field.starts_with("numbers="))
        .collect();
    std::fs::write(&paths[2], without.join(" ")).unwrap();
    let flat_start = "split 1: the start (the start's proof number 1, disproof number 1";
    assert_ne!(searched[0], flat_start);
    assert_eq!(splits("search", &paths[1])[0], searched[0]);
    assert_eq!(splits("search", &paths[2])[0], flat_start);
    refused_moves_on_4x4(
        &["--side", "white", "--leaf-numbers", "search"],
        "--best-first",
    );
    refused_moves_on_4x4(
        &["--side", "white", "--best-first", "--leaf-numbers", "deep"],
        "'deep' is neither flat nor search",
    );
}

#[test]
fn solve_try_nodes_reads_the_proof_of_a_reflection_from_the_search_that_decided_it() {
    // 4x4 without the symmetry rule, 50,000 nodes, tries of 25,000: a
    // position Black holds, decided by a search of 25,000 nodes, is met
    // again as its reflection when the proof is read. A search made again
    // (even with 16 times the nodes) does not decide it, nor do its
    // moves within 25,000: its proof is the first one's, reflected. (The
    // build before took neither, and wrote no proof.)
    let (_dir, paths) = temp_files(["4x4-off.proof"]);
    let proof = paths[0].as_str();
    let tried = [
        "--symmetry",
        "off",
        "--best-first",
        "--try-nodes",
        "25000",
        "--proof",
        proof,
    ];
    let out = solve_moves_on("4x4", "white", "50000", &tried);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        verified(proof).starts_with("proof checked: white cannot force a win (black holds) from "),
        "{}",
        verified(proof)
    );
}

#[test]
fn solve_try_nodes_gives_the_full_nodes_only_to_the_positions_the_tree_chooses() {
    // 4x4, White, 20,000 nodes a position, but a split's moves searched
    // within 5,000 first: those left open are searched again with more
    // only when the tree chooses them, and split only once 20,000 left
    // them open. Black's hold is proven all the same, and checked.
    let (_dir, paths) = temp_files(["4x4.known", "4x4.proof"]);
    let [known, proof] = [paths[0].as_str(), paths[1].as_str()];
    let tried = ["--best-first", "--try-nodes", "5000", "--known", known];
    let out = solve_moves_on(
        "4x4",
        "white",
        "20000",
        &[&tried[..], &["--proof", proof]].concat(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("white cannot force a win: none of its 2 moves wins ("),
        "{}",
        stdout(&out)
    );
    let log = stderr(&out);
    assert!(
        log.contains(": chosen again, searched within 20000 nodes ("),
        "{log}"
    );
    assert!(
        verified(proof).starts_with("proof checked: white cannot force a win (black holds) from "),
        "{}",
        verified(proof)
    );
    // Each value is kept with the nodes it was found within: a position
    // left open by 5,000 is not taken as if 20,000 had been spent on it.
    let kept = std::fs::read_to_string(known).unwrap();
    for line in ["undecided 0 5000 ", "undecided 0 20000 "] {
        assert!(kept.lines().any(|l| l.starts_with(line)), "{line}: {kept}");
    }
    let out = solve_moves_on("4x4", "white", "20000", &tried);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("split 2: "), "{}", stderr(&out));
    refused_moves_on_4x4(
        &[
            "--side",
            "white",
            "--best-first",
            "--move-nodes",
            "5000",
            "--try-nodes",
            "5000",
        ],
        "--try-nodes 5000 is not fewer than --move-nodes 5000",
    );
    refused_moves_on_4x4(
        &[
            "--side",
            "white",
            "--move-nodes",
            "5000",
            "--try-nodes",
            "500",
        ],
        "--best-first",
    );
}

/// How a value taken from the file of values, or from another line, is
/// noted in `solve --moves --side`'s lines.
const MET_BEFORE: &str = ", as found before for it or its reflection)";

#[test]
fn solve_searches_a_position_stopped_reading_the_hold_again_alone() {
    // 4x5 off, White, 50,000 nodes a position, split two plies: in the
    // table kept from the positions before, reading Black's hold after
    // d1,c2-b3 a5,b4-d2:1 b1,b3-b4 takes the rest of its nodes and is
    // stopped; searched again in a table of its own, it is proven to leave
    // White no win. The values are kept in a file: a second run, stopped
    // at once (in its first pass), still counts what the file decides of
    // White's first moves.
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("4x5-off.known");
    let known = known.to_str().unwrap();
    let args = ["--symmetry", "off", "--deepen", "2", "--known", known];
    let out = solve_4x5_moves("white", "50000", &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let (log, text) = (stderr(&out), stdout(&out));
    let retried: Vec<&str> = log
        .lines()
        .filter_map(|l| {
            l.trim().strip_suffix(
                ": stopped reading the hold in the table kept from the positions before; searching it again in a table of its own",
            )
        })
        .collect();
    assert!(!retried.is_empty(), "{log}");
    let proven = |line: &str| {
        text.lines().any(|l| {
            l.strip_prefix(line).is_some_and(|rest| {
                rest.starts_with(' ') && rest.contains(" white cannot force a win (black holds) (")
            })
        })
    };
    assert!(
        retried.iter().any(|line| proven(line)),
        "{retried:?}: {text}"
    );
    let said = "not decided: no move found that wins for white, 12 of 20 proven not to";
    assert!(text.contains(said), "{text}");
    let mut stopped = args.to_vec();
    stopped.extend_from_slice(&["--time", "0.001"]);
    let out = solve_4x5_moves("white", "50000", &stopped);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains("stopped after "), "{}", stderr(&out));
    assert!(stdout(&out).contains(said), "{}", stdout(&out));
}

#[test]
fn solve_keeps_the_values_found_in_a_file_for_the_next_run() {
    // 4x5 as in the test of --deepen: the first run decides White's win a
    // pass deeper, the next takes it from the file without a search.
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("4x5.known");
    let proof = dir.path().join("4x5.proof");
    let solve = |side: &str, nodes: &str, extra: &[&str]| {
        let mut args = vec!["--deepen", "1", "--known", known.to_str().unwrap()];
        args.extend_from_slice(extra);
        solve_4x5_moves(side, nodes, &args)
    };
    let out = solve("white", "100000", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("white wins: "), "{}", stdout(&out));
    let kept = std::fs::read_to_string(&known).unwrap();
    assert!(
        kept.starts_with("epaminondas-known 1 variant epaminondas symmetry mirror side white\n"),
        "{kept}"
    );
    // Decided values and, with --move-nodes, the lines left open.
    for value in [
        "wins 0 100000 ",
        "cannot-win 0 100000 ",
        "undecided 0 100000 ",
    ] {
        assert!(kept.contains(value), "{value}: {kept}");
    }
    // Run again: the winning move is known, and nothing is searched.
    let out = solve("white", "100000", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("a1,b2-d4:1 ")
            && lines[0].ends_with(", as found before for it or its reflection)"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("white wins: a1,b2-d4:1 wins"),
        "{text}"
    );
    assert!(stderr(&out).contains(" left open"), "{}", stderr(&out));
    // A run allowed more nodes takes the decided values, not the open ones.
    let out = solve("white", "200000", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(", 0 left open"), "{}", stderr(&out));
    // A proof is searched for again, and checked.
    let out = solve("white", "100000", &["--proof", proof.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let checked = verified(proof.to_str().unwrap());
    assert!(
        checked.starts_with("proof checked: white wins from "),
        "{checked}"
    );
    // Values of White's win are no answer for Black's.
    let out = solve("black", "100000", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "not for this run's 'variant epaminondas symmetry mirror side black': name another file"
        ),
        "{}",
        stderr(&out)
    );
    // A line spoilt by hand is named.
    std::fs::write(
        &known,
        format!("{kept}wins 0 100000 bbbb/bbbb/4/wwww/wwww\n"),
    )
    .unwrap();
    let out = solve("white", "100000", &[]);
    assert_eq!(out.status.code(), Some(2));
    let lines = kept.lines().count() + 1;
    assert!(
        stderr(&out).contains(&format!(
            "line {lines}: 'bbbb/bbbb/4/wwww/wwww' is not a position"
        )),
        "{}",
        stderr(&out)
    );
}

/// `--other-side-known`: a run for Black on 4x5 takes the positions
/// White's run proved White wins as positions Black cannot win, and needs
/// no search to decide that Black cannot win after White's winning first
/// move; the file is only read, and one of the same side is refused.
#[test]
fn solve_takes_the_other_sides_wins_as_positions_this_side_cannot_win() {
    let (_dir, files) = temp_files(["white.known", "black.known"]);
    let (white, black) = (files[0].as_str(), files[1].as_str());
    let out = solve_4x5_moves("white", "100000", &["--deepen", "1", "--known", white]);
    assert!(out.status.success(), "{}", stderr(&out));
    let kept = std::fs::read_to_string(white).unwrap();
    let wins = kept.lines().filter(|l| l.starts_with("wins ")).count();
    assert!(wins > 0, "{kept}");
    // Without White's values, Black's run searches White's first move.
    let alone = solve_4x5_moves("black", "100000", &[]);
    let first = stdout(&alone).lines().next().unwrap_or_default().to_owned();
    assert!(
        first.starts_with("a1,b2-d4:1 ") && first.contains(" undecided (stopped) ("),
        "{first}"
    );
    let args = ["--other-side-known", white, "--known", black];
    let out = solve_4x5_moves("black", "100000", &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("a1,b2-d4:1 ")
            && first.contains(" black cannot force a win (white holds) (")
            && first.ends_with(", as found before for it or its reflection)"),
        "{text}"
    );
    assert!(
        text.contains("black cannot force a win: after a1,b2-d4:1, white holds"),
        "{text}"
    );
    assert!(
        stderr(&out).contains(&format!(
            "{wins} positions white wins read from {white}: black cannot win there"
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(white).unwrap(), kept);
    // A file of this side's values is no file of the other side's.
    let out = solve_4x5_moves("white", "100000", &["--other-side-known", white]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "side white', not the other side's ('variant epaminondas symmetry mirror side black')"
        ),
        "{}",
        stderr(&out)
    );
    refused(
        &[
            "solve",
            "--board",
            "4x4",
            "--full",
            "--moves",
            "--other-side-known",
            white,
        ],
        "--other-side-known works with --side only",
    );
}

#[test]
fn solve_takes_the_positions_proven_by_the_proofs_given() {
    // 4x5: White's winning first move a1,b2-d4 needs more than 100,000
    // nodes (see the test of --deepen). Proven whole on its own, its proof
    // decides it for the run move by move, and goes into the proof written.
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (given, joined, spoilt, other) = (
        path("after.proof"),
        path("4x5.proof"),
        path("spoilt.proof"),
        path("4x4.proof"),
    );
    let mut after: epaminondas_rules::Position = "bbbb/bbbb/4/wwww/wwww w".parse().unwrap();
    let mv = after.parse_move("a1,b2-d4").unwrap();
    after.play(mv).unwrap();
    let after = after.to_string();
    let out = run(&[
        "solve",
        "--position",
        &after,
        "--full",
        "--side",
        "white",
        "--memory",
        "64",
        "--proof",
        &given,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = solve_4x5_moves(
        "white",
        "100000",
        &["--use-proof", &given, "--proof", &joined],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("a1,b2-d4:1 ") && l.ends_with(", as a proof given proves)")),
        "{text}"
    );
    assert!(text.contains("white wins: a1,b2-d4:1 wins"), "{text}");
    assert!(
        stderr(&out).contains("after.proof: 1 proof checked and taken ("),
        "{}",
        stderr(&out)
    );
    let checked = verified(&joined);
    assert!(
        checked.starts_with("proof checked: white wins from bbbb/bbbb/4/wwww/wwww w "),
        "{checked}"
    );
    // For Black's side the same proof says that Black cannot win after
    // a1,b2-d4: White's win is also its hold.
    let out = solve_4x5_moves(
        "black",
        "100000",
        &["--use-proof", &given, "--proof", &joined],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("black cannot force a win: after a1,b2-d4:1, white holds"),
        "{}",
        stdout(&out)
    );
    let checked = verified(&joined);
    assert!(
        checked.starts_with(
            "proof checked: black cannot force a win (white holds) from bbbb/bbbb/4/wwww/wwww w "
        ),
        "{checked}"
    );
    // A proof that does not check is refused before any search, with its
    // reason; so is one of another board.
    let text = std::fs::read_to_string(&given).unwrap();
    let steps: Vec<&str> = text.lines().skip(6).collect();
    let (at, _) = steps[0].rsplit_once(' ').unwrap();
    let wrong = text.replacen(steps[0], &format!("{at} a1-a2"), 1);
    std::fs::write(&spoilt, wrong).unwrap();
    // White's run refuses `file` before any search, saying `why`.
    let refuses = |file: &str, why: &str| {
        let out = solve_4x5_moves("white", "100000", &["--use-proof", file]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(why), "{why}: {}", stderr(&out));
    };
    refuses(&spoilt, "spoilt.proof is not a proof that checks: ");
    let prove = |board: &str, side: &str, file: &str| {
        let out = run(&[
            "solve", "--board", board, "--full", "--side", side, "--memory", "64", "--proof", file,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    prove("4x4", "white", &other);
    refuses(
        &other,
        "4x4.proof: a proof of epaminondas 4x4 symmetry mirror, not of this run's epaminondas 4x5 symmetry mirror",
    );
    // White's hold says nothing of White's win.
    let holds = path("holds.proof");
    prove("4x5", "black", &holds);
    refuses(
        &holds,
        "holds.proof: its proofs are that white holds, which says nothing of white's win",
    );
    refused(
        &[
            "solve",
            "--board",
            "4x5",
            "--full",
            "--moves",
            "--use-proof",
            &given,
        ],
        "--use-proof works with --side only",
    );
}

#[test]
fn solve_side_by_side_takes_the_value_of_a_position_met_before() {
    // 4x4 split three plies deep: b1,c2-d3:1 c4,b3-a2:1 c1,b2-a3:1 is the
    // position after b1,c2-d3:1 b4,c3-d2:1 ... reached another way, or its
    // reflection; searched side by side, it is not searched again.
    let out = run(&[
        "solve",
        "--board",
        "4x4",
        "--full",
        "--moves",
        "--side",
        "white",
        "--move-nodes",
        "500",
        "--memory",
        "16",
        "--split",
        "3",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("b1,c2-d3:1 c4,b3-a2:1 c1,b2-a3:1 ")
                && l.ends_with(", as found before for it or its reflection)")),
        "{text}"
    );
    assert!(text.contains("not decided: "), "{text}");
}

/// `solve --full` decides a position and writes a proof that `solve
/// --verify` checks; a proof that was tampered with is refused.
#[test]
fn solve_full_writes_a_proof_that_verify_checks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("4x5.proof");
    let path = file.to_str().unwrap();
    let out = run(&["solve", "--board", "4x5", "--full", "--proof", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("white (the side to move) wins with perfect play; the proof has "),
        "{text}"
    );
    let out = run(&["solve", "--verify", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(
            "proof checked: white wins from bbbb/bbbb/4/wwww/wwww w (epaminondas, 4 files x 5 ranks, symmetry mirror); "
        ),
        "{}",
        stdout(&out)
    );
    // Swap the first step's move for another legal one: the strategy then
    // meets positions it has no step for, or stops winning.
    let proof = std::fs::read_to_string(&file).unwrap();
    let first = proof.lines().nth(6).unwrap();
    let (position, mv) = first.rsplit_once(' ').unwrap();
    let pos: epaminondas_rules::Position = position.parse().unwrap();
    let other = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .find(|m| m != mv)
        .unwrap();
    std::fs::write(
        &file,
        proof.replacen(first, &format!("{position} {other}"), 1),
    )
    .unwrap();
    let out = run(&["solve", "--verify", path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is refused: "), "{}", stderr(&out));
    // Neither side can win where both hold their goal ranks for ever.
    let holds = dir.path().join("holds.proof");
    let holds = holds.to_str().unwrap();
    let text = proves_neither(&["solve", "--position", "ww2/4/4/bb2 w", "--full"], holds);
    assert!(
        text.ends_with("so neither side can force a win from ww2/4/4/bb2 w\n"),
        "{text}"
    );
    // A board too big for the time given: it stops and says how far it got.
    let out = run(&["solve", "--board", "6x6", "--full", "--time", "0.5"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert!(text.contains("error: stopped after "), "{text}");
    assert!(
        text.contains("before deciding whether white can force a win"),
        "{text}"
    );
}

/// `solve --full --moves` gives each first move its value, as a
/// tablebase does, and joins the moves' proofs into one that checks.
#[test]
fn solve_moves_gives_each_first_move_its_value() {
    let dir = tempfile::tempdir().unwrap();
    let joined = dir.path().join("joined.proof");
    let joined = joined.to_str().unwrap();
    // Each first move's value, as a tablebase gives it: on 4x4 both of
    // White's moves lose. The proof joined from both moves' proofs checks.
    let out = run(&[
        "solve", "--board", "4x4", "--full", "--moves", "--proof", joined,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].starts_with("b1,c2-d3:1 ") && lines[0].contains(" black wins ("),
        "{text}"
    );
    assert!(
        lines[1].starts_with("c1,b2-a3:1 ") && lines[1].contains(" black wins ("),
        "{text}"
    );
    // The second move leads to the first's position reflected: not searched
    // again.
    assert!(
        lines[1].ends_with(", as after b1,c2-d3:1, its reflection)"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("white loses: all its 2 moves lose ("),
        "{text}"
    );
    assert!(lines[3].starts_with("proof written to "), "{text}");
    let checked = verified(joined);
    assert!(
        checked.starts_with("proof checked: black wins from bbbb/bbbb/wwww/wwww w "),
        "{checked}"
    );
    // Without the symmetry rule neither side wins after either move: the
    // joined proof is both sides' holds from the start.
    let moves_4x4_off = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "--board",
            "4x4",
            "--symmetry",
            "off",
            "--full",
            "--moves",
            "--proof",
            joined,
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let out = moves_4x4_off(&[]);
    assert!(
        stdout(&out).contains("neither side can force a win: no move of white's wins, 2 of 2 hold"),
        "{}",
        stdout(&out)
    );
    let checked = verified(joined);
    assert!(
        checked.ends_with("so neither side can force a win from bbbb/bbbb/wwww/wwww w\n"),
        "{checked}"
    );
    // Where the mover wins, the proof starts with a winning move (a 4x5
    // position two moves into White's win, where every move wins).
    let won = "bbbb/1b1w/1wwb/w1ww/1ww1 w";
    let out = run(&[
        "solve",
        "--position",
        won,
        "--full",
        "--moves",
        "--proof",
        joined,
    ]);
    assert!(
        stdout(&out).contains("white wins: 33 of its 33 moves win"),
        "{}",
        stdout(&out)
    );
    let checked = verified(joined);
    assert!(
        checked.starts_with(&format!("proof checked: white wins from {won} ")),
        "{checked}"
    );
    // A board too big to decide: with --move-time every move is still
    // searched (each cut off, here), and the report says none is decided.
    let out = run(&[
        "solve",
        "--board",
        "6x6",
        "--full",
        "--moves",
        "--move-time",
        "0.05",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("undecided (stopped)"), "{text}");
    assert!(
        text.lines().last().is_some_and(
            |last| last.starts_with("not decided: no move found that wins for white, 0 of ")
        ),
        "{text}"
    );
    let out = run(&["solve", "--position", "w3/4/4/4 w", "--full", "--moves"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the game is over at w3/4/4/4 w"),
        "{}",
        stderr(&out)
    );
}

/// `solve --full --side` searches one side's win alone, whole, move by
/// move, split below a ply and on several threads; each proof checks.
#[test]
fn solve_one_side_alone_whole_split_and_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let joined = dir.path().join("joined.proof");
    let joined = joined.to_str().unwrap();
    let moves_4x4_off = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "--board",
            "4x4",
            "--symmetry",
            "off",
            "--full",
            "--moves",
            "--proof",
            joined,
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    // One side's search alone: on 4x4 White cannot win, and its proof is
    // Black's hold.
    let out = run(&[
        "solve", "--board", "4x4", "--full", "--side", "white", "--proof", joined,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("white cannot force a win (black holds); the proof has "),
        "{}",
        stdout(&out)
    );
    assert!(
        !stderr(&out).contains("looking for a forced win for black"),
        "{}",
        stderr(&out)
    );
    let checked = verified(joined);
    assert!(
        checked.starts_with(
            "proof checked: white cannot force a win (black holds) from bbbb/bbbb/wwww/wwww w "
        ),
        "{checked}"
    );
    let out = run(&["solve", "--board", "4x4", "--full", "--side", "black"]);
    assert!(
        stdout(&out).starts_with("black (the side not to move) wins with perfect play"),
        "{}",
        stdout(&out)
    );
    // One side's search move by move: for the side not to move, one move
    // after which it cannot win decides, and its proof is the mover's hold
    // starting with that move.
    let black_off = |extra: &[&str]| moves_4x4_off(&[&["--side", "black"], extra].concat());
    // White holds after b1,c2-d3:1, and the proof written says so.
    let white_holds_after_b1 = |text: &str| {
        assert!(
            text.contains("black cannot force a win: after b1,c2-d3:1, white holds ("),
            "{text}"
        );
        let checked = verified(joined);
        assert!(
            checked.starts_with(
                "proof checked: black cannot force a win (white holds) from bbbb/bbbb/wwww/wwww w "
            ),
            "{checked}"
        );
    };
    let out = black_off(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    white_holds_after_b1(&text);
    // A hold too large for --hold-memory is not proven, and says so.
    let out = black_off(&["--hold-memory", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("no win found, but white's hold could not be read: its graph has more than "),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains(
            "black cannot force a win, as far as the search can tell (white's hold not proven: "
        ),
        "{}",
        stdout(&out)
    );
    // Split two plies deep: White's move, then each of Black's replies
    // searched; the hold joined from those below it still checks.
    let out = black_off(&["--split", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines().any(|l| l.starts_with("b1,c2-d3:1 ")
            && l.contains(" black cannot force a win (white holds) (")
            && l.contains(" moves)")),
        "{text}"
    );
    white_holds_after_b1(&text);
    // The same with Black's five replies searched two at a time, each in
    // a table of its own: the same value, and a proof that checks.
    let out = black_off(&["--split", "2", "--threads", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let replies = text
        .lines()
        .filter(|l| {
            l.starts_with("b1,c2-d3:1 ") && l.contains(" black cannot force a win (white holds) (")
        })
        .count();
    assert_eq!(replies, 6, "five replies and the move above them: {text}");
    white_holds_after_b1(&text);
    for flag in ["--split", "--threads"] {
        let out = run(&["solve", "--board", "4x4", "--full", "--moves", flag, "2"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains(&format!("{flag} works with --side only")),
            "{}",
            stderr(&out)
        );
    }
    // With the symmetry rule Black wins after both moves: the proof is
    // Black's wins after each, joined. Side by side too, where the second
    // move's position (the first's reflection) is searched again for its
    // proof.
    for threads in ["1", "2"] {
        let out = run(&[
            "solve",
            "--board",
            "4x4",
            "--full",
            "--moves",
            "--side",
            "black",
            "--threads",
            threads,
            "--proof",
            joined,
        ]);
        let text = stdout(&out);
        assert!(
            text.contains("black wins: it wins after each of white's 2 moves ("),
            "{threads}: {text}"
        );
        let checked = verified(joined);
        assert!(
            checked.starts_with("proof checked: black wins from bbbb/bbbb/wwww/wwww w "),
            "{threads}: {checked}"
        );
    }
    // For the side to move, one winning move decides; the others are not
    // searched.
    let out = run(&[
        "solve", "--board", "4x5", "--full", "--moves", "--side", "white", "--proof", joined,
    ]);
    let text = stdout(&out);
    let last_lines: Vec<&str> = text.lines().rev().take(2).collect();
    assert!(
        last_lines[1].starts_with("white wins: ") && text.lines().count() <= 4,
        "{text}"
    );
    let checked = verified(joined);
    assert!(
        checked.starts_with("proof checked: white wins from bbbb/bbbb/4/wwww/wwww w "),
        "{checked}"
    );
    // Wrong use gets clear errors.
    for wrong in [
        &["solve", "--full", "--side", "green"][..],
        &["solve", "--side", "white", "4"],
    ] {
        let out = run(wrong);
        assert_eq!(out.status.code(), Some(2), "{wrong:?}");
    }
    let out = run(&["solve", "--moves", "--proof", "p"]);
    assert_eq!(out.status.code(), Some(2));
    refused(
        &["solve", "--board", "4x4", "--full", "--move-time", "1"],
        "required arguments were not provided: --moves",
    );
    let out = run(&["solve", "--full", "4"]);
    assert_eq!(out.status.code(), Some(2));
    refused(
        &[
            "solve",
            "--verify",
            dir.path().join("none").to_str().unwrap(),
        ],
        "cannot read",
    );
}

#[test]
fn analyze_positions_and_records() {
    let out = run(&["analyze", "--position", "4b/w4/5/5/5 w", "--depth", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("white wins in 2"), "{text}");
    // The same position with Black to move: still from White's side.
    let out = run(&["analyze", "--position", "4b/w4/5/5/5 b", "--depth", "3"]);
    let text = stdout(&out);
    assert!(text.contains("white wins in "), "{text}");
    let file = std::env::temp_dir().join(format!("epaminondas-analyze-{}.txt", std::process::id()));
    std::fs::write(
        &file,
        "[Board \"6x5\"]\n[Position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"]\n\n1. e1,e3-e5 c2-d1 2. e4-d5 a5,c5-d5:2 *\n",
    )
    .unwrap();
    let out = run(&[
        "analyze",
        "--record",
        file.to_str().unwrap(),
        "--depth",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(
        text.lines().count(),
        6,
        "a heading and five positions: {text}"
    );
    assert!(
        text.lines().nth(4).unwrap().contains("black wins in"),
        "{text}"
    );
    let _ = std::fs::remove_file(&file);
    let out = run(&["analyze", "--record", "/nonexistent/file"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot read"));
}

/// A blunder is marked by the documented rule, the annotated record names
/// the better move and reads back, and --multipv shows more lines.
#[test]
fn analyze_marks_blunders_and_annotates_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.txt");
    std::fs::write(
        &game,
        "[Board \"5x5\"]\n[Position \"5/2w2/2w2/2b2/5 w\"]\n\n1. c4-b3 c2-d1 *\n",
    )
    .unwrap();
    let annotated = dir.path().join("annotated.txt");
    let out = run(&[
        "analyze",
        "--record",
        game.to_str().unwrap(),
        "--depth",
        "5",
        "--multipv",
        "2",
        "--annotate",
        annotated.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("c4-b3??"), "{text}");
    assert_eq!(text.matches("line 2").count(), 3, "{text}");
    let saved = std::fs::read_to_string(&annotated).unwrap();
    let record: epaminondas_rules::GameRecord = saved.parse().unwrap();
    let note = record.annotation(0).unwrap();
    assert_eq!(note.mark, Some(epaminondas_rules::MoveMark::Blunder));
    assert!(
        note.comment
            .as_deref()
            .unwrap()
            .contains("c4,c3-c2 was best"),
        "{saved}"
    );
    // To standard output instead of the table.
    let out = run(&[
        "analyze",
        "--record",
        game.to_str().unwrap(),
        "--depth",
        "5",
        "--annotate",
        "-",
    ]);
    assert_eq!(stdout(&out), saved);
}

#[test]
fn show_and_convert_read_records_and_refuse_bad_input() {
    let dir = std::env::temp_dir();
    let path = dir.join(format!("epaminondas-show-{}.txt", std::process::id()));
    std::fs::write(&path, "1. f1,g2-h3 e12,f11-h9 2. h1,h3-h6 *\n").unwrap();
    let file = path.to_str().unwrap();

    let out = run(&["show", file, "--after", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("\n 3  . . . . . . . O . . . . . .\n"),
        "{text}"
    );
    assert!(text.contains("Last move: f1,g2-h3\n"), "{text}");
    assert!(text.contains("Black (x) to move\n"), "{text}");
    let out = run(&["show", file, "--after", "9"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --after 9: the game has only 3 moves (plies)\n"
    );

    let out = run(&["convert", file, "--to", "rear-piece"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "[Notation \"rear-piece\"]\n\n1. f1-g2 e12-g10 2. h1-h4 *\n"
    );
    refused(
        &["convert", file, "--from", "klingon"],
        "unknown notation dialect 'klingon'",
    );
    std::fs::write(&path, "1. f1,g2-h4 *\n").unwrap();
    let out = run(&["convert", file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: record 1: move 1. f1,g2-h4 (white): "),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(&path).unwrap();

    // play refuses to start without a terminal, and says so.
    refused(
        &["play", "--ai", "11"],
        "'11' is not a level: expected 1 to 10",
    );
    let out = run(&["play"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: epaminondas play needs an interactive terminal\n"
    );
}

/// Every kind of wrong input (an argument, a position, a file, a record)
/// ends with status 2 and one line; running with nothing prints the help
/// on standard error with the same status, as clap does.
#[test]
fn wrong_input_of_every_kind_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad_record = dir.path().join("bad.txt");
    std::fs::write(&bad_record, "1. a1-a9 *\n").unwrap();
    let bad_record = bad_record.to_str().unwrap();
    for args in [
        vec!["perft", "--board", "banana", "2"],
        vec!["perft", "--position", "4/4/4/4 q", "2"],
        vec!["show", "/nonexistent/game.txt"],
        vec!["show", bad_record],
        vec!["analyze", "--record", bad_record],
        vec!["analyze", "--depth", "0"],
        vec!["analyze", "--movetime", "0"],
        vec![
            "match", "--engine", "random", "--engine", "greedy", "--games", "0",
        ],
        vec![
            "match", "--engine", "random", "--engine", "greedy", "--games", "3",
        ],
        vec![
            "match",
            "--engine",
            "random",
            "--engine",
            "greedy",
            "--movetime",
            "0",
        ],
        vec!["engine", "--set", "Hash=abc"],
        vec!["engine", "--set", "Nonsense=1"],
        vec!["solve", "--position", "4/4/4/4", "3"],
    ] {
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("Usage: epaminondas <COMMAND>"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}

/// A reader that goes away early ends the program quietly, as with other
/// Unix tools: no panic, no abort.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    for args in [
        &["show"][..],
        &["perft", "3", "--divide", "--board", "8x8"],
        &["bench"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_epaminondas"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // Read one byte, then close the pipe, as `| head -c 1` does.
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert_eq!(status.code(), Some(0), "{args:?}: {status} {err}");
    }
}

/// A file of several games (as `match --records` writes) is read by show
/// and analyze, which take the first unless `--game N` picks another.
#[test]
fn files_of_several_games_are_read_with_a_choice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.txt");
    std::fs::write(
        &path,
        "[Board \"8x8\"]\n\n1. c2-c3 *\n\n[Board \"6x6\"]\n\n1. a2-a3 b5-b4 *\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let out = run(&["show", file]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Last move: c2-c3"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        stderr(&out),
        format!("{file} holds 2 games: taking game 1 (pick another with --game N)\n")
    );
    let out = run(&["show", file, "--game", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Last move: b5-b4"),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).is_empty());
    refused(&["show", file, "--game", "3"], "holds 2 games (1 to 2)");
    let out = run(&["analyze", "--record", file, "--game", "2", "--depth", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).lines().count(),
        4,
        "a heading and three positions: {}",
        stdout(&out)
    );
}

/// An engine that cannot start, or dies, stops the match with one line
/// naming it and a failure status; the records say nothing false.
#[test]
fn a_broken_engine_stops_the_match_with_one_line() {
    for (engine, reason) in [
        ("no-such-engine-anywhere", "command not found"),
        ("/bin/false", "exited with status 1"),
    ] {
        let out = run(&[
            "match", "--engine", engine, "--engine", "random", "--games", "2", "--board", "6x6",
        ]);
        assert_eq!(out.status.code(), Some(1), "{engine}");
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!(
                "error: engine 1 '{engine}' (command `{engine}`) could not start: "
            )),
            "{err}"
        );
        assert!(err.contains(reason), "{err}");
        assert!(
            !stdout(&out).contains("Elo"),
            "no result is claimed: {}",
            stdout(&out)
        );
    }
}

/// Ctrl-C stops the match and prints where it stood.
#[test]
fn an_interrupted_match_prints_its_summary() {
    use std::io::{BufRead, BufReader};
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_epaminondas"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_epaminondas"))
        .args([
            "match", "--engine", &engine, "--engine", "greedy", "--games", "1000",
        ])
        .args(["--board", "6x6", "--nodes", "200", "--concurrency", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // Wait for two games, then press Ctrl-C.
    let mut seen = Vec::new();
    while seen
        .iter()
        .filter(|l: &&String| l.starts_with("Finished game"))
        .count()
        < 2
    {
        seen.push(lines.next().expect("a line").unwrap());
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    let text = rest.join("\n");
    assert!(text.contains("games, interrupted):"), "{text}");
    assert!(text.contains("Ptnml(0-2): ["), "{text}");
    assert!(err.contains("error: interrupted after "), "{err}");
}

/// Every subcommand's help ends with examples; completions come for the
/// usual shells.
#[test]
fn help_shows_examples_and_completions_are_generated() {
    for command in [
        "perft",
        "bench",
        "engine",
        "match",
        "solve",
        "analyze",
        "puzzles",
        "tune",
        "play",
        "show",
        "convert",
        "serve",
        "pbm",
        "mail-in",
        "loadtest",
        "completions",
    ] {
        let out = run(&[command, "--help"]);
        assert!(out.status.success(), "{command}");
        let text = stdout(&out);
        assert!(
            text.contains("\nExamples:\n  epaminondas "),
            "{command}: {text}"
        );
    }
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let text = stdout(&out);
        for word in ["perft", "match", "serve", "board"] {
            assert!(text.contains(word), "{shell} completes {word}");
        }
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A search larger than its table: 5x5 takes about 2.9 million positions,
/// `--memory 16` holds 0.79 million; the table forgets the positions it
/// searched least each time it is full, and the proof it writes checks.
#[test]
fn solve_full_goes_on_past_a_full_table() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("5x5.proof");
    let path = file.to_str().unwrap();
    let args = ["solve", "--board", "5x5", "--full", "--side", "white"];
    let out = run(&[&args[..], &["--memory", "16", "--proof", path]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("  the table was full: forgot the "), "{err}");
    assert!(err.contains(" the table full "), "{err}");
    assert!(
        stdout(&out).starts_with("white (the side to move) wins with perfect play"),
        "{}",
        stdout(&out)
    );
    let out = run(&["solve", "--verify", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("proof checked: white wins from "));
}

/// `--checkpoint` keeps a stopped search's state (here stopped by
/// `--nodes`) and the same command goes on from it to the proof, which
/// checks; a checkpoint of another search is refused and left as it was.
#[test]
fn solve_full_goes_on_from_a_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("4x5-white.checkpoint");
    let checkpoint = checkpoint.to_str().unwrap();
    let proof = dir.path().join("4x5.proof");
    let proof = proof.to_str().unwrap();
    let args = ["solve", "--board", "4x5", "--full", "--side", "white"];
    let with = |extra: &[&str]| run(&[&args[..], &["--checkpoint", checkpoint], extra].concat());
    let out = with(&["--nodes", "100000"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("no checkpoint in "), "{err}");
    assert!(
        err.contains(&format!(
            "before deciding whether white can force a win; its state is in {checkpoint} ("
        )),
        "{err}"
    );
    let size = std::fs::metadata(checkpoint).unwrap().len();
    assert!(size > 16 * 10_000, "{size}");
    // Another side, another board, or the wrong options: refused.
    let out = run(&[
        "solve",
        "--board",
        "4x5",
        "--full",
        "--side",
        "black",
        "--checkpoint",
        checkpoint,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("it has 'prover white' where this one has 'prover black'"),
        "{}",
        stderr(&out)
    );
    let out = run(&[
        "solve",
        "--board",
        "4x5",
        "--full",
        "--checkpoint",
        checkpoint,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--checkpoint works with --side only"));
    let out = run(&["solve", "--board", "4x5", "--checkpoint", checkpoint, "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::metadata(checkpoint).unwrap().len(), size);
    // The same command goes on where the search stopped, and decides.
    let out = with(&["--proof", proof]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("  going on from {checkpoint}: ")),
        "{err}"
    );
    let before: u64 = err
        .split(" nodes searched before")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!((100_000..100_000 + 256).contains(&before), "{err}");
    assert!(
        stdout(&out).starts_with("white (the side to move) wins with perfect play"),
        "{}",
        stdout(&out)
    );
    let out = run(&["solve", "--verify", proof]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `--hold-memory` bounds the graph read to prove a hold: 4x4 off is no
/// win for White, but Black's hold (about 20,000 positions where Black
/// moves) is not read in 1 MiB, and the solver says what to raise; by
/// default (an eighth of the table) it is, and the proof checks.
#[test]
fn solve_full_says_when_the_hold_memory_is_too_small() {
    let args = [&OFF_4X4_FULL[..], &["--side", "white"]].concat();
    let out = run(&[&args[..], &["--hold-memory", "1"]].concat());
    let err = stderr(&out);
    assert!(
        err.contains("black's hold could not be read: its graph has more than 6168 positions (--hold-memory 1 MiB)"),
        "{err}"
    );
    assert!(stdout(&out).contains("not proven"), "{}", stdout(&out));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("4x4-off.proof");
    let path = file.to_str().unwrap();
    let out = run(&[&args[..], &["--proof", path]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&["solve", "--verify", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("proof checked: white cannot force a win (black holds)"),
        "{}",
        stdout(&out)
    );
    refused(
        &["solve", "--board", "4x4", "5", "--hold-memory", "3"],
        "--hold-memory works with --full only",
    );
}

/// `--start-numbers eval` guides the search by the evaluation: 4x4 off
/// from both sides is still "neither", with both holds checked, and 4x5
/// mirror still White's; a wrong value or one without --full is refused.
#[test]
fn solve_full_from_the_evaluations_numbers_finds_the_same_values() {
    let checked = proves_neither_on_4x4_off(&["--start-numbers", "eval", "--memory", "64"]);
    assert!(
        checked.starts_with("proof checked: white cannot force a win (black holds)"),
        "{checked}"
    );
    let out = run(&[
        "solve",
        "--board",
        "4x5",
        "--full",
        "--side",
        "white",
        "--start-numbers",
        "eval",
        "--memory",
        "64",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("white (the side to move) wins with perfect play"),
        "{}",
        stdout(&out)
    );
    refused(
        &[
            "solve",
            "--board",
            "4x4",
            "--full",
            "--start-numbers",
            "some",
        ],
        "'some' is neither eval nor one",
    );
    refused(
        &["solve", "--board", "4x4", "5", "--start-numbers", "eval"],
        "--start-numbers works with --full only",
    );
}

/// `--hold-reach nearest` reads the smaller hold graphs (the other side's
/// nearest move only where the search disproved none): 4x4 off, whose
/// searches are repaired, is still "neither", both holds checked; a wrong
/// value or one without --full is refused.
#[test]
fn solve_full_with_the_nearest_hold_reach_finds_the_same_value() {
    proves_neither_on_4x4_off(&["--hold-reach", "nearest", "--memory", "64"]);
    refused(
        &["solve", "--board", "4x4", "--full", "--hold-reach", "all"],
        "'all' is neither unsettled nor nearest",
    );
    refused(
        &["solve", "--board", "4x4", "5", "--hold-reach", "nearest"],
        "--hold-reach works with --full only",
    );
}

/// The solver reports each depth it finishes and, under --time, says how
/// far it got and the defence it found.
#[test]
fn solve_reports_its_progress_and_stops_in_time() {
    let out = run(&["solve", "--position", "4b/w4/5/5/5 w", "4"]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(err.contains("  1 plies: no forced win ("), "{err}");
    assert!(err.contains("  2 plies: a forced win ("), "{err}");
    let started = std::time::Instant::now();
    let out = run(&["solve", "--board", "6x6", "20", "--time", "1"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.starts_with("stopped after "), "{text}");
    assert!(text.contains("no forced win for white within "), "{text}");
    assert!(
        text.contains("best defence found so far: against "),
        "{text}"
    );
    let out = run(&["solve", "--board", "6x6", "5", "--time", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Puzzles mined from self-play hold when checked; a puzzle that claims a
/// longer win than the solver finds, or a broken line, is named.
#[test]
fn puzzles_are_generated_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let path = file.to_str().unwrap();
    let out = run(&[
        "puzzles",
        "generate",
        "--board",
        "6x6",
        "--count",
        "3",
        "--threads",
        "1",
        "--seed",
        "3",
        "--out",
        path,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("6x6-0001\t"), "{text}");
    let out = run(&["puzzles", "check", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("3 puzzles checked"),
        "{}",
        stdout(&out)
    );
    // The first puzzle claims two plies more than it takes.
    let mut fields: Vec<String> = lines[0].split('\t').map(str::to_owned).collect();
    let plies: u32 = fields[3].parse().unwrap();
    fields[3] = (plies + 2).to_string();
    std::fs::write(&file, format!("{}\n{}\n", fields.join("\t"), lines[1])).unwrap();
    let out = run(&["puzzles", "check", path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!(
            "6x6-0001: the solver finds a win in {plies} plies"
        )),
        "{}",
        stderr(&out)
    );
    std::fs::write(&file, "p1\tnot a position\tmirror\t2\ta1-a2\t1000\ts\n").unwrap();
    refused(&["puzzles", "check", path], "line 1: p1: position");
}

/// `selfplay` writes training data (adding to the file on a second run)
/// and `train` turns it into a net file the engine reads; data of another
/// board is refused with the reason.
#[test]
fn selfplay_data_trains_a_net() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.bin");
    let data = data.to_str().unwrap();
    let selfplay = |seed: &str| {
        run(&[
            "selfplay",
            "--out",
            data,
            "--games",
            "2",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--max-plies",
            "120",
            "--seed",
            seed,
        ])
    };
    let out = selfplay("1");
    assert!(out.status.success(), "{}", stderr(&out));
    let first = std::fs::metadata(data).unwrap().len();
    let out = selfplay("2");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("2 games ("), "{text}");
    let second = std::fs::metadata(data).unwrap().len();
    assert!(
        second > first && (second - 16) % 46 == 0,
        "{first} -> {second}"
    );
    assert!(
        text.contains(&format!("now holds {} positions", (second - 16) / 46)),
        "{text}"
    );

    let net = dir.path().join("net.nnue");
    let net = net.to_str().unwrap();
    let out = run(&[
        "train", data, "--out", net, "--epochs", "2", "--batch", "64",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("the linear evaluation's loss"), "{text}");
    assert!(text.contains("epoch   2  train loss"), "{text}");
    let bytes = std::fs::read(net).unwrap();
    epaminondas_engine::nnue::Network::parse(&bytes).unwrap();

    // A 6x6 file cannot be added to a 14x12 one, nor trained on.
    let out = run(&["selfplay", "--out", data, "--games", "1", "--board", "6x6"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("holds other data"),
        "{}",
        stderr(&out)
    );
    let small = dir.path().join("small.bin");
    let small = small.to_str().unwrap();
    let out = run(&[
        "selfplay", "--out", small, "--games", "1", "--nodes", "100", "--board", "6x6",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&["train", small, "--out", net]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("14x12 only"), "{}", stderr(&out));
    let out = run(&["train", net, "--out", net]);
    assert!(
        stderr(&out).contains("not training data"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn book_builds_and_goes_on_from_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("six.book");
    let book = path.to_str().unwrap();
    let build = |positions: &str, board: &str| {
        run(&[
            "book",
            "--out",
            book,
            "--board",
            board,
            "--positions",
            positions,
            "--nodes",
            "2000",
            "--plies",
            "4",
        ])
    };
    let out = build("3", "6x6");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("3 positions searched") && stdout(&out).contains("holds 3 positions"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("1/3 ") && stderr(&out).contains("] start: "),
        "{}",
        stderr(&out)
    );
    // A second run goes on from the file; the result reads as a book whose
    // start and first replies are in it.
    let out = build("2", "6x6");
    assert!(
        stdout(&out).contains("holds 5 positions"),
        "{}",
        stdout(&out)
    );
    let read =
        epaminondas_engine::book::Book::parse(&std::fs::read_to_string(book).unwrap()).unwrap();
    assert_eq!(read.len(), 5);
    assert!(read.contains(&read.start()));
    assert!(!dir.path().join("six.book.partial").exists());

    // Another game's book, or a file that is not a book, is refused as it is.
    let out = build("1", "8x8");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is a book of epaminondas on 6x6"),
        "{}",
        stderr(&out)
    );
    let junk = dir.path().join("junk.book");
    std::fs::write(&junk, "hello\n").unwrap();
    let out = run(&["book", "--out", junk.to_str().unwrap(), "--positions", "1"]);
    assert!(
        stderr(&out).contains("not an opening book"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&junk).unwrap(), "hello\n");
    let out = run(&["book", "--out", book, "--width", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
