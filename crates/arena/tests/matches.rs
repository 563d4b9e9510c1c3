//! Matches between the built-in players.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use epaminondas_arena::players::{MoveLimit, PlayerError};
use epaminondas_arena::stats::{Sprt, SprtVerdict};
use epaminondas_arena::{MatchConfig, PlayerKind, PlayerSpec, opening, read_openings, run_match};
use epaminondas_rules::{BoardSize, GameResult, Position, Symmetry, Variant};

/// Nobody interrupts.
static RUN: AtomicBool = AtomicBool::new(false);

fn config(pairs: usize) -> MatchConfig {
    MatchConfig {
        players: [
            PlayerSpec::of(PlayerKind::Greedy),
            PlayerSpec::of(PlayerKind::Random),
        ],
        pairs,
        concurrency: 2,
        limit: MoveLimit::MoveTime(Duration::from_millis(10)),
        size: BoardSize::new(6, 6).unwrap(),
        symmetry: Symmetry::Mirror,
        variant: Variant::Epaminondas,
        seed: 7,
        max_plies: Some(200),
        resign: None,
        sprt: None,
        openings: Vec::new(),
        date: "2026.11.24".to_owned(),
    }
}

#[test]
fn greedy_beats_random_and_records_every_game() {
    let mut games = Vec::new();
    let state = run_match(&config(6), &RUN, |report, _| games.push(report.clone())).unwrap();
    assert_eq!(state.games, 12);
    assert_eq!(state.pairs.pairs(), 6);
    assert_eq!(state.wins + state.draws + state.losses, 12);
    assert!(state.pairs.score().unwrap() > 0.75, "{state:?}");
    for report in &games {
        let record = &report.record;
        assert_ne!(record.result(), GameResult::Unfinished);
        assert!(record.tag("Termination").is_some());
        assert_eq!(record.tag("Date"), Some("2026.11.24"));
        assert_eq!(
            record.tag("PlyCount"),
            Some(record.moves().len().to_string().as_str())
        );
        assert_eq!(record.tag("TimeControl"), Some("-"));
        assert_eq!(record.tag("Limit"), Some("10 ms a move"));
        let names = [record.tag("White").unwrap(), record.tag("Black").unwrap()];
        assert!(
            names.contains(&"greedy") && names.contains(&"random"),
            "{names:?}"
        );
        assert_eq!(record.tag("Adjudication"), Some("draw after 200 plies"));
        // Every record reads back as the same game.
        let again: epaminondas_rules::GameRecord = record.to_string().parse().unwrap();
        assert_eq!(&again, record);
    }
    // Both games of a pair start with the same opening, colours swapped.
    let pair0: Vec<_> = games.iter().filter(|g| g.pair == 0).collect();
    assert_eq!(pair0.len(), 2);
    assert_ne!(pair0[0].first_is_white, pair0[1].first_is_white);
    let plies: usize = pair0[0].record.tag("Opening").unwrap().parse().unwrap();
    assert_eq!(
        pair0[0].record.moves()[..plies],
        pair0[1].record.moves()[..plies]
    );
}

#[test]
fn an_sprt_stops_the_match_when_decided() {
    let mut cfg = config(200);
    cfg.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let state = run_match(&cfg, &RUN, |_, _| {}).unwrap();
    assert_eq!(state.verdict, Some(SprtVerdict::H1));
    assert!(state.games < 400, "{} games", state.games);
}

#[test]
fn openings_are_legal_balanced_and_repeatable() {
    let size = BoardSize::STANDARD;
    for pair in 0..5 {
        let moves = opening(Variant::Epaminondas, size, Symmetry::Mirror, 3, pair);
        assert!((2..=6).contains(&moves.len()));
        assert_eq!(
            moves,
            opening(Variant::Epaminondas, size, Symmetry::Mirror, 3, pair)
        );
        let mut pos = Position::new(size, Symmetry::Mirror);
        for mv in moves {
            pos.play(mv).unwrap();
        }
    }
}

/// A fake engine: answers the handshake, then behaves as `on_go` says when
/// asked to move (a shell snippet).
fn fake_engine(on_go: &str) -> String {
    format!(
        "while read line; do case \"$line\" in \
         ugi) echo 'id name Fake'; echo 'option name Hash type spin default 1 min 1 max 9'; echo ugiok;; \
         isready) echo readyok;; \
         go*) {on_go};; \
         quit) exit 0;; \
         esac; done"
    )
}

fn against(spec: PlayerSpec) -> MatchConfig {
    let mut cfg = config(3);
    cfg.players[1] = spec;
    cfg
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_with_the_reason() {
    for (command, reason) in [
        (
            "no-such-engine-here --ugi",
            "command not found (exit status 127)",
        ),
        ("false", "it exited with status 1"),
        ("echo hello", "it exited with status 0"),
    ] {
        let spec = PlayerSpec::of(PlayerKind::Command(command.to_owned()));
        let mut games = 0;
        let error = run_match(&against(spec), &RUN, |_, _| games += 1).unwrap_err();
        assert_eq!(games, 0);
        assert_eq!(error.player, 2);
        assert_eq!(error.game, None);
        let text = error.to_string();
        assert!(
            text.starts_with(&format!(
                "engine 2 '{command}' (command `{command}`) could not start: "
            )),
            "{text}"
        );
        assert!(text.contains(reason), "{text}");
    }
}

#[test]
fn an_engine_that_dies_mid_match_stops_it_with_the_game() {
    let spec = PlayerSpec::of(PlayerKind::Command(fake_engine(
        "echo 'out of memory' >&2; exit 3",
    )));
    let error = run_match(&against(spec), &RUN, |_, _| {}).unwrap_err();
    assert_eq!(error.player, 2);
    assert_eq!(error.name, "Fake", "the engine's own name");
    assert!(error.game.is_some());
    let text = error.to_string();
    assert!(text.contains("failed in game"), "{text}");
    assert!(
        text.contains("it exited with status 3; it said: out of memory"),
        "{text}"
    );
}

#[test]
fn names_and_options_come_from_the_command_line() {
    let spec = PlayerSpec::parse(&[
        format!("cmd={}", fake_engine("echo 'bestmove none'")),
        "name=Faker".to_owned(),
        "option.Hash=4".to_owned(),
    ])
    .unwrap();
    assert_eq!(spec.name.as_deref(), Some("Faker"));
    assert_eq!(spec.options, [("Hash".to_owned(), "4".to_owned())]);
    // An option the engine does not offer is refused before any game.
    let mut wrong = spec.clone();
    wrong.options = vec![("Threads".to_owned(), "2".to_owned())];
    let text = run_match(&against(wrong), &RUN, |_, _| {})
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("it has no option 'Threads' (it offers: Hash)"),
        "{text}"
    );
    // A plain command line, with and without extra words.
    let plain = PlayerSpec::parse(&["./engine --fast"]).unwrap();
    assert_eq!(
        plain.kind,
        PlayerKind::Command("./engine --fast".to_owned())
    );
    assert_eq!(
        PlayerSpec::parse(&["greedy", "name=G"]).unwrap().name(),
        "G"
    );
    assert!(PlayerSpec::parse(&["random", "option.Hash=1"]).is_err());
    assert!(PlayerSpec::parse(&["name=x"]).is_err());
    assert!(PlayerSpec::parse(&["option.Hash"]).is_err());
}

#[test]
fn openings_come_from_a_file_in_turn() {
    let size = BoardSize::new(6, 6).unwrap();
    let text = "# two openings\n1. a2-a3 a5-a4\n\nbbbbbb/bbbbbb/6/2w3/ww1www/wwwwww b\n";
    let openings = read_openings(text, Variant::Epaminondas, size, Symmetry::Mirror).unwrap();
    assert_eq!(openings.len(), 2);
    assert_eq!(openings[0].moves.len(), 2);
    assert!(openings[1].moves.is_empty());
    let mut cfg = config(3);
    cfg.openings = openings.clone();
    let mut games = Vec::new();
    run_match(&cfg, &RUN, |report, _| games.push(report.clone())).unwrap();
    assert_eq!(games.len(), 6);
    for game in &games {
        let opening = &openings[game.pair % 2];
        assert_eq!(game.record.start(), &opening.start);
        assert_eq!(
            game.record.moves()[..opening.moves.len()],
            opening.moves[..]
        );
    }
    for bad in ["", "1. a2-a9", "nonsense"] {
        assert!(
            read_openings(bad, Variant::Epaminondas, size, Symmetry::Mirror).is_err(),
            "{bad:?}"
        );
    }
    let err =
        read_openings("\n1. a2-a9\n", Variant::Epaminondas, size, Symmetry::Mirror).unwrap_err();
    assert!(err.starts_with("line 2: "), "{err}");
}

#[test]
fn an_interrupt_ends_the_match_with_the_games_so_far() {
    let interrupt = AtomicBool::new(false);
    let mut cfg = config(100);
    cfg.concurrency = 1;
    // The games run ahead of the reports on another thread: on the big
    // board a game takes long enough that few start after the interrupt
    // (on 6x6 a dozen could, and the test failed now and then).
    cfg.size = BoardSize::STANDARD;
    let state = run_match(&cfg, &interrupt, |report, _| {
        if report.number == 3 {
            interrupt.store(true, Ordering::Relaxed);
        }
    })
    .unwrap();
    assert!(state.interrupted);
    assert!(state.games >= 3 && state.games < 10, "{}", state.games);
}

#[test]
fn faults_are_told_from_forfeits() {
    assert!(PlayerError::Died("x".into()).is_fault());
    assert!(PlayerError::Unresponsive("x".into()).is_fault());
    assert!(!PlayerError::Timeout("x".into()).is_fault());
    assert!(!PlayerError::IllegalMove("x".into()).is_fault());
}
