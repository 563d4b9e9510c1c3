//! The UGI protocol, driven through an in-memory session.

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use epaminondas_engine::ugi::Ugi;
use epaminondas_rules::{BoardSize, Position, Symmetry, Variant};

/// An output buffer the session and the test share.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `script` to its end and returns the output lines.
fn session(script: &str) -> Vec<String> {
    let out = Shared::default();
    Ugi::new(out.clone()).run(Cursor::new(script.to_owned()));
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove line")
}

#[test]
fn handshake() {
    let lines = session("ugi\nisready\nquit\n");
    assert!(lines.iter().any(|l| l.starts_with("id name Epaminondas")));
    assert!(lines.iter().any(|l| l == "ugiok"));
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn plays_a_legal_move_on_another_board() {
    let lines =
        session("setoption name Board value 6x6\nposition startpos moves a2-a3\ngo depth 3\n");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 3 seldepth ")),
        "{lines:?}"
    );
    let mut pos = Position::new(BoardSize::new(6, 6).unwrap(), Symmetry::Mirror);
    pos.play(pos.parse_move("a2-a3").unwrap()).unwrap();
    let reply = pos.parse_move(bestmove(&lines)).unwrap();
    assert!(pos.is_legal(reply));
}

#[test]
fn plays_every_variant() {
    for (variant, moves) in [
        ("crossings", "a2-a3"),
        ("abanondas", "a2,b2-b3"),
        ("stumbling-blocks", "@c3 @d4 @b3"),
    ] {
        let script = format!(
            "setoption name Board value 6x6\nsetoption name Symmetry value off\n\
             setoption name Variant value {variant}\nposition startpos moves {moves}\n\
             go depth 3\n"
        );
        let lines = session(&script);
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{variant}: {lines:?}"
        );
        let variant: Variant = variant.parse().unwrap();
        let mut pos =
            Position::new_variant(variant, BoardSize::new(6, 6).unwrap(), Symmetry::Off).unwrap();
        for text in moves.split(' ') {
            pos.play(pos.parse_move(text).unwrap()).unwrap();
        }
        let reply = pos.parse_move(bestmove(&lines)).unwrap();
        assert!(pos.is_legal(reply), "{variant}");
    }
    // A sidestep is no move of the standard game; a board too small for a
    // variant is refused.
    let lines = session(
        "setoption name Board value 6x6\nposition startpos moves a2,b2-b3\n\
         setoption name Board value 4x4\nsetoption name Variant value stumbling-blocks\n\
         setoption name Variant value chess\n",
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 3, "{lines:?}");
    assert!(errors[1].contains("at least 5 ranks"), "{errors:?}");
    assert!(errors[2].contains("unknown variant 'chess'"), "{errors:?}");
}

#[test]
fn clocks_and_stop() {
    let lines = session("position startpos\ngo p1time 2000 p2time 2000 p1inc 10 p2inc 10\n");
    assert!(Position::standard().parse_move(bestmove(&lines)).is_ok());
    let lines = session("position startpos\ngo infinite\nstop\nisready\n");
    assert!(Position::standard().parse_move(bestmove(&lines)).is_ok());
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let lines = session(
        "position fen garbage w\n\
         position startpos moves e1-e9\n\
         position sideways\n\
         go depth x\n\
         go sideways 3\n\
         setoption name Hash value abc\n\
         setoption name Nope value 3\n\
         setoption Hash 3\n\
         setoption name Board value 3x3\n\
         setoption name Contempt value 5000\n\
         setoption name ProofShare value 95\n\
         setoption name Weights value 1,2,3\n\
         setoption name Weights value 1,2,3,4,5,6,7,8,9,10,11,12,13,x\n\
         query\n\
         perft 0\n\
         frobnicate the engine\n\
         \n\
         query p1turn\n\
         isready\n",
    );
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error "))
        .count();
    assert_eq!(errors, 16, "{lines:#?}");
    let said = |text: &str| lines.iter().any(|l| l.contains(text));
    assert!(
        said("Contempt must be -1000 to 1000, not '5000'"),
        "{lines:#?}"
    );
    assert!(
        said("ProofShare must be 0 (by board size) or 1 to 90, not '95'"),
        "{lines:#?}"
    );
    assert!(said("Weights: 14 weights are needed, not 3"), "{lines:#?}");
    assert!(said("Weights: 'x' is not a weight"), "{lines:#?}");
    // The bad move left the position as it was: White still to move.
    assert!(lines.contains(&"response true".to_owned()));
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn queries_perft_and_diagram() {
    let lines = session("position fen w3/4/4/4 w\nquery gameover\nquery result\nquery p1turn\n");
    assert_eq!(lines, ["response true", "response p1win", "response true"]);
    let lines = session("position startpos\nperft 2\nd\n");
    assert_eq!(lines[..2], ["perft 1 114", "perft 2 12996"]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("position bbbbbbbbbbbbbb/"))
    );
    let lines = session("position fen 4/4/4/4 b\ngo depth 2\nquery result\n");
    assert!(lines.contains(&"bestmove none".to_owned()));
    assert!(lines.contains(&"response p1win".to_owned()));
}

#[test]
fn a_go_right_after_bestmove_is_never_refused() {
    // Each `go` follows the previous `bestmove` at once, as a match runner
    // sends it: the engine must never answer "already searching".
    let out = Shared::default();
    let mut ugi = Ugi::new(out.clone());
    for round in 0..200 {
        ugi.command("position startpos");
        ugi.command("go depth 1");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            assert!(!text.contains("already searching"), "round {round}");
            if text.matches("bestmove").count() > round {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no bestmove in round {round}"
            );
            std::thread::yield_now();
        }
    }
}

#[test]
fn low_levels_search_little_and_still_play_legally() {
    let lines = session("setoption name Level value 1\nposition startpos\ngo depth 20\n");
    let nodes: Vec<u64> = lines
        .iter()
        .filter_map(|l| {
            l.split_whitespace()
                .skip_while(|w| *w != "nodes")
                .nth(1)?
                .parse()
                .ok()
        })
        .collect();
    assert!(nodes.iter().all(|&n| n <= 1_001), "{lines:?}");
    assert!(Position::standard().parse_move(bestmove(&lines)).is_ok());
    let lines = session("setoption name Level value 11\nisready\n");
    assert!(lines[0].starts_with("info string error"), "{lines:?}");
}

#[test]
fn bench_counts_the_same_nodes_every_time() {
    let nodes = |lines: Vec<String>| -> u64 {
        let line = lines
            .iter()
            .find(|l| l.starts_with("bench nodes "))
            .expect("a bench line");
        line.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    // The workload does not depend on what the session did before.
    let first = nodes(session("bench\n"));
    let second = nodes(session(
        "position startpos moves a1,b2-d4\ngo depth 3\nbench\n",
    ));
    assert!(first > 100_000, "{first}");
    assert_eq!(first, second);
}

#[test]
fn commands_sent_during_a_search_wait_for_it() {
    // A new position and search sent while one runs are queued, not lost;
    // isready is answered at once.
    let lines = session(
        "setoption name OwnBook value false\n\
         position startpos\n\
         go movetime 300\n\
         position startpos moves a1,b2-d4\n\
         go depth 2\n\
         isready\n",
    );
    assert!(
        !lines.iter().any(|l| l.contains("already searching")),
        "{lines:?}"
    );
    let bests: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(bests.len(), 2, "{lines:?}");
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    let second = lines
        .iter()
        .rposition(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(
        ready < second,
        "isready is answered before the queued search ends: {lines:?}"
    );
    // The second answer is a move of the second position (Black to move).
    let mut pos = Position::standard();
    pos.play(pos.parse_move("a1,b2-d4").unwrap()).unwrap();
    assert!(pos.parse_move(bests[1]).is_ok(), "{}", bests[1]);
    // stop ends the running search; the queued commands then run.
    let lines = session("go infinite\nposition startpos moves a1,b2-d4\nstop\ngo depth 1\n");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        2,
        "{lines:?}"
    );
}

/// The value after `key` in an info line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key)?;
    words.next()
}

#[test]
fn info_lines_carry_seldepth_hashfull_and_several_lines() {
    let lines = session("setoption name MultiPV value 3\nposition startpos\ngo depth 4\n");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(
        infos.len(),
        12,
        "three lines for each of four depths: {lines:#?}"
    );
    for depth in 1..=4 {
        let of_depth: Vec<&&String> = infos
            .iter()
            .filter(|l| field(l, "depth") == Some(&depth.to_string()))
            .collect();
        let numbers: Vec<&str> = of_depth
            .iter()
            .filter_map(|l| field(l, "multipv"))
            .collect();
        assert_eq!(numbers, ["1", "2", "3"], "{of_depth:#?}");
        let firsts: std::collections::HashSet<&str> =
            of_depth.iter().filter_map(|l| field(l, "pv")).collect();
        assert_eq!(
            firsts.len(),
            3,
            "three different first moves: {of_depth:#?}"
        );
        for line in &of_depth {
            let seldepth: u32 = field(line, "seldepth").unwrap().parse().unwrap();
            assert!(seldepth >= depth, "{line}");
            let hashfull: u32 = field(line, "hashfull").unwrap().parse().unwrap();
            assert!(hashfull <= 1000);
        }
    }
    // The move played is line 1's.
    let last_first = infos
        .iter()
        .rev()
        .find(|l| field(l, "multipv") == Some("1"))
        .unwrap();
    assert_eq!(Some(bestmove(&lines)), field(last_first, "pv"));
    // More lines than moves: as many lines as there are moves.
    let lines = session("setoption name MultiPV value 5\nposition fen 4/4/1b2/w3 w\ngo depth 2\n");
    let legal = "4/4/1b2/w3 w"
        .parse::<Position>()
        .unwrap()
        .legal_moves()
        .len();
    let at_depth_1 = lines
        .iter()
        .filter(|l| l.starts_with("info depth 1 "))
        .count();
    assert_eq!(at_depth_1, legal.min(5), "{lines:#?}");
    let lines = session("setoption name MultiPV value 0\nisready\n");
    assert!(
        lines[0].starts_with("info string error MultiPV must be 1 to 64"),
        "{lines:?}"
    );
}

#[test]
fn eval_prints_the_terms_and_their_sum() {
    let lines = session("position startpos moves a1,b2-d4\neval\n");
    assert!(lines[0].starts_with("term"), "{lines:?}");
    for term in ["piece", "mobility", "tempo"] {
        assert!(
            lines.iter().any(|l| l.starts_with(term)),
            "{term}: {lines:?}"
        );
    }
    let total = lines.iter().find(|l| l.starts_with("total ")).unwrap();
    assert!(total.contains("for black to move"), "{total}");
    // The total is the engine's evaluation.
    let mut pos = Position::standard();
    pos.play(pos.parse_move("a1,b2-d4").unwrap()).unwrap();
    let expected = epaminondas_engine::eval::evaluate(&pos);
    assert!(
        total.starts_with(&format!("total {expected} ")),
        "{total} vs {expected}"
    );
}

#[test]
fn the_weights_option_replaces_the_evaluation() {
    // All weights zero but the piece count's: with no capture in reach,
    // every line scores 0. The variant's own weights (and `default` brings
    // them back) score the start otherwise.
    let flat = "setoption name Weights value [16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n";
    let score = |options: &str| {
        let lines = session(&format!(
            "setoption name Board value 6x6\n{options}position startpos\ngo depth 2\n"
        ));
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
        let last = lines.iter().rev().find_map(|l| field(l, "cp"));
        last.expect("a score").to_owned()
    };
    assert_eq!(score(flat), "0");
    let own = score("");
    assert_ne!(own, "0");
    assert_eq!(
        score(&format!("{flat}setoption name Weights value default\n")),
        own
    );
}

#[test]
fn repetition_options_are_taken_with_a_game_history() {
    // The game returns to its start; the search with repetitions scored
    // still finds a legal move.
    let lines = session(
        "setoption name Board value 6x6\nsetoption name Repetition value true\n\
         setoption name Contempt value 30\n\
         position startpos moves a2-a3 a5-a4 a3-a2 a4-a5\ngo depth 3\n",
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
    let pos = Position::new(BoardSize::new(6, 6).unwrap(), Symmetry::Mirror);
    assert!(pos.parse_move(bestmove(&lines)).is_ok(), "{lines:#?}");
}

#[test]
fn the_eval_option_switches_to_the_network_on_the_standard_board() {
    let score = |options: &str| {
        let lines = session(&format!(
            "{options}position startpos moves a2-a3\ngo depth 2\n"
        ));
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
        let last = lines.iter().rev().find_map(|l| field(l, "cp"));
        last.expect("a score").to_owned()
    };
    let linear = score("setoption name Eval value linear\n");
    let nnue = score("setoption name Eval value nnue\n");
    assert_ne!(linear, nnue, "the network evaluates differently");
    assert_eq!(score(""), nnue, "the network is the default");
    assert_eq!(
        score("setoption name Eval value nnue\nsetoption name Eval value linear\n"),
        linear
    );
    // Other boards have no network: the linear evaluation stays.
    let small = "setoption name Board value 6x6\n";
    assert_eq!(
        score(&format!("{small}setoption name Eval value linear\n")),
        score(small)
    );
    // The option is listed, and a bad value is refused.
    let lines = session("ugi\nsetoption name Eval value neural\n");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Eval type combo"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("linear or nnue")),
        "{lines:#?}"
    );
    // A net file can replace the built-in net: the same net scores the
    // same; a file that is no net is refused and changes nothing.
    let dir = std::env::temp_dir().join(format!("ugi-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("copy.nnue");
    std::fs::write(
        &copy,
        epaminondas_engine::nnue::Network::embedded().to_bytes(),
    )
    .unwrap();
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, b"not a net").unwrap();
    let nnue_options = format!(
        "setoption name Eval value nnue\nsetoption name EvalFile value {}\n",
        copy.display()
    );
    assert_eq!(score(&nnue_options), nnue);
    let lines = session(&format!(
        "setoption name EvalFile value {}\nsetoption name EvalFile value embedded\n",
        bad.display()
    ));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("not a net file")),
        "{lines:#?}"
    );
    // A file longer than any net (or a device that never ends) is read
    // only one byte past a net's length, and refused.
    let long = dir.join("long.nnue");
    let mut bytes = epaminondas_engine::nnue::Network::embedded().to_bytes();
    bytes.extend_from_slice(&[0; 100_000]);
    std::fs::write(&long, bytes).unwrap();
    let capped = format!(
        "a net file of {} bytes",
        epaminondas_engine::nnue::NET_BYTES + 1
    );
    let lines = session(&format!(
        "setoption name EvalFile value {}\n",
        long.display()
    ));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains(&capped)),
        "{lines:#?}"
    );
    // /dev/zero never ends: it is read as far as the cap, and refused.
    let lines = session("setoption name EvalFile value /dev/zero\n");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("not a net file")),
        "{lines:#?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // `eval` shows the network's score beside the linear terms.
    let lines = session("position startpos\neval\n");
    assert!(lines.iter().any(|l| l.starts_with("nnue ")), "{lines:#?}");
}

/// The book's moves of the start, as the built-in 14x12 book lists them.
fn book_moves_of(pos: &Position) -> Vec<String> {
    let book = epaminondas_engine::book::Book::embedded(pos).expect("a built-in book");
    let moves = book.moves(pos).expect("the start is in the book");
    moves.iter().map(|m| m.mv.to_string()).collect()
}

#[test]
fn own_book_answers_game_moves_from_the_book_and_leaves_searches_alone() {
    let start = Position::standard();
    let book = book_moves_of(&start);
    // A game move (movetime or a clock) comes from the book, at once.
    for go in ["go movetime 5000", "go p1time 60000 p2time 60000"] {
        let started = std::time::Instant::now();
        let lines = session(&format!("position startpos\n{go}\n"));
        assert!(
            started.elapsed() < std::time::Duration::from_secs(4),
            "{go}"
        );
        let mv = bestmove(&lines).to_owned();
        assert!(book.contains(&mv), "{go}: {lines:?}");
        assert!(
            lines.contains(&format!("info string book move {mv}")),
            "{lines:?}"
        );
    }
    // Not with OwnBook off, not for a search of a depth, nodes or lines.
    for script in [
        "setoption name OwnBook value false\nposition startpos\ngo movetime 100\n",
        "position startpos\ngo depth 2\n",
        "position startpos\ngo nodes 2000\n",
        "setoption name MultiPV value 2\nposition startpos\ngo movetime 100\n",
    ] {
        let lines = session(script);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{script}: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.contains("book move")),
            "{script}: {lines:?}"
        );
    }
    // Out of the book, the engine searches.
    let lines = session("position startpos moves n2-n3\ngo movetime 100\n");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    // Different sessions vary their choice among the book moves.
    let chosen: std::collections::HashSet<String> = (0..40)
        .map(|_| bestmove(&session("position startpos\ngo movetime 100\n")).to_owned())
        .collect();
    assert!(
        chosen.len() > 1 || book.len() == 1,
        "{chosen:?} of {book:?}"
    );
}

#[test]
fn book_file_replaces_the_built_in_books() {
    let dir = std::env::temp_dir().join(format!("ugi-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("six.book");
    std::fs::write(
        &path,
        "epaminondas-book 1\ngame epaminondas 6x6 mirror\nstart | c1-c3 1 0\n",
    )
    .unwrap();
    let lines = session(&format!(
        "setoption name Board value 6x6\nsetoption name BookFile value {}\n\
         position startpos\ngo movetime 5000\n",
        path.display()
    ));
    assert_eq!(bestmove(&lines), "c1,c2-c3", "{lines:?}");
    // A bad book is refused with the reason and changes nothing.
    let bad = dir.join("bad.book");
    std::fs::write(
        &bad,
        "epaminondas-book 1\ngame epaminondas 6x6 mirror\nstart | c1-c9 1 0\n",
    )
    .unwrap();
    let lines = session(&format!(
        "setoption name BookFile value {}\nsetoption name BookFile value {}\n\
         setoption name OwnBook value maybe\n",
        bad.display(),
        dir.join("missing.book").display()
    ));
    assert!(
        lines[0].contains("BookFile") && lines[0].contains("line 3"),
        "{lines:?}"
    );
    assert!(lines[1].contains("cannot read"), "{lines:?}");
    assert!(
        lines[2].contains("OwnBook must be true or false"),
        "{lines:?}"
    );
    // A wrong path to something endless is refused after 64 MiB, not read
    // to the end.
    let lines = session("setoption name BookFile value /dev/zero\n");
    assert!(lines[0].contains("larger than 64 MiB"), "{lines:?}");
    // `embedded` goes back to the built-in books (none for 6x6: a search).
    let lines = session(&format!(
        "setoption name Board value 6x6\nsetoption name BookFile value {}\n\
         setoption name BookFile value embedded\nposition startpos\ngo movetime 100\n",
        path.display()
    ));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn on_a_small_board_a_proven_win_is_reported_as_one() {
    // 4x5 is a first-player win (docs/strength.md, "Solved boards"): with
    // enough nodes the engine proves it before searching; with `Proofs`
    // off it does not. With a `ProofShare` of 1% (10,000 of the 190,000
    // positions the proof needs) no proof comes first: alpha-beta's own
    // iterations do.
    let lines = session(
        "setoption name Board value 4x5\nsetoption name Hash value 64\n\
         position startpos\ngo nodes 1000000\n",
    );
    let first = lines.iter().find(|l| l.starts_with("info "));
    assert!(
        first.is_some_and(|l| l.contains(" score win ")),
        "{lines:?}"
    );
    let without = session(
        "setoption name Board value 4x5\nsetoption name Proofs value false\n\
         position startpos\ngo nodes 20000\n",
    );
    assert!(
        !without.iter().any(|l| l.contains(" score win ")),
        "{without:?}"
    );
    bestmove(&without);
    let little = session(
        "setoption name Board value 4x5\nsetoption name Hash value 64\n\
         setoption name ProofShare value 1\nposition startpos\ngo nodes 1000000\n",
    );
    let first = little.iter().find(|l| l.starts_with("info "));
    assert!(
        first.is_some_and(|l| l.starts_with("info depth 1 ") && l.contains(" score cp ")),
        "{little:?}"
    );
    bestmove(&little);
}
