//! The search on known positions, random positions, limits and stops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use epaminondas_engine::score::{loss_in, win_in};
use epaminondas_engine::{Engine, Features, Limits, SearchResult};
use epaminondas_rules::{BoardSize, Position, Symmetry};

fn search(pos: &str, limits: Limits) -> (Position, SearchResult) {
    let pos: Position = pos.parse().unwrap();
    let result = Engine::new(8).search(&pos, &limits, &AtomicBool::new(false), |_| {});
    (pos, result)
}

#[test]
fn takes_the_last_pieces() {
    // White a1, a2 capture Black's only piece on a3: Black has no move left.
    let (pos, result) = search("4/b3/w3/w3 w", Limits::depth(3));
    assert_eq!(result.best, Some(pos.parse_move("a1,a2-a3").unwrap()));
    assert_eq!(result.score, win_in(1));
}

#[test]
fn crosses_where_the_opponent_cannot_answer() {
    // White a4 steps onto rank 5; the lone black piece can neither capture
    // nor cross in reply, so White wins at the start of its next turn.
    let (pos, result) = search("4b/w4/5/5/5 w", Limits::depth(4));
    assert_eq!(pos.goal_rank(pos.turn()), 4);
    let best = result.best.unwrap();
    assert_eq!(best.destination().rank(), 4, "{best}");
    assert_eq!(result.score, win_in(2));
}

#[test]
fn answers_a_crossing_by_capturing_the_intruder() {
    // Black has crossed to a1. White could answer by crossing too, but the
    // black piece on a4 blocks the way: only the capture a3,a2-a1 saves White.
    let (pos, result) = search("4b/b4/w4/w4/b4 w", Limits::depth(4));
    assert!(pos.in_check());
    assert_eq!(result.best, Some(pos.parse_move("a3,a2-a1").unwrap()));
    assert!(result.score > loss_in(10));
}

#[test]
fn sees_a_lost_position() {
    // Black has crossed and White can neither capture nor cross.
    let (_, result) = search("4b/5/5/w4/3b1 w", Limits::depth(3));
    assert_eq!(result.score, loss_in(1));
}

#[test]
fn returns_only_legal_moves() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    for game in 0..24 {
        let size = BoardSize::new(4 + next(11) as u8, 4 + next(9) as u8).unwrap();
        let mut pos = Position::new(size, Symmetry::ALL[game % 3]);
        for _ in 0..next(60) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[next(moves.len())]);
        }
        let result = engine.search(&pos, &Limits::nodes(3_000), &stop, |_| {});
        match result.best {
            Some(mv) => assert!(pos.is_legal(mv), "{mv} in {pos}"),
            None => assert!(pos.legal_moves().is_empty(), "no move in {pos}"),
        }
        // The principal variation is a line of legal moves.
        let mut line = pos.clone();
        for &mv in &result.pv {
            assert!(line.is_legal(mv), "pv move {mv} in {line}");
            line.play_unchecked(mv);
        }
    }
}

#[test]
fn fixed_node_searches_are_deterministic() {
    let pos = Position::standard();
    let run = || {
        Engine::new(8).search(
            &pos,
            &Limits::nodes(20_000),
            &AtomicBool::new(false),
            |_| {},
        )
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    assert!(a.nodes > 0 && a.nodes <= 20_001);
}

#[test]
fn obeys_time_limits_and_stop() {
    let pos = Position::standard();
    let started = Instant::now();
    let result = Engine::new(8).search(
        &pos,
        &Limits::movetime(Duration::from_millis(150)),
        &AtomicBool::new(false),
        |_| {},
    );
    assert!(pos.is_legal(result.best.unwrap()));
    // Generous bound: the machine is shared, and this is not a speed test.
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    let stop = AtomicBool::new(false);
    let started = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        let result = Engine::new(8).search(&pos, &Limits::default(), &stop, |_| {});
        assert!(pos.is_legal(result.best.unwrap()));
    });
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn after_a_proof_search_finds_nothing_alpha_beta_deepens_in_the_time_left() {
    // Given half of the move's time on 6x6, the proof search (Proofs, on by
    // default) proves nothing from the start; the iterations that follow
    // must pace themselves on the half left, not stop after one because
    // half the move's time is gone (a bug that cost the engine nearly every
    // game on 6x6).
    let pos = Position::new(BoardSize::new(6, 6).unwrap(), Symmetry::Mirror);
    let mut engine = Engine::new(16);
    engine.set_proof_share(Some(50));
    let result = engine.search(
        &pos,
        &Limits::movetime(Duration::from_millis(400)),
        &AtomicBool::new(false),
        |_| {},
    );
    assert!(result.depth >= 4, "depth {}", result.depth);
}

#[test]
fn several_threads_find_the_same_wins_and_obey_limits() {
    let mut engine = Engine::new(8);
    engine.set_threads(3);
    assert_eq!(engine.threads(), 3);
    let stop = AtomicBool::new(false);
    let pos: Position = "4b/b4/w4/w4/b4 w".parse().unwrap();
    let result = engine.search(&pos, &Limits::depth(4), &stop, |_| {});
    assert_eq!(result.best, Some(pos.parse_move("a3,a2-a1").unwrap()));
    let pos: Position = "4b/w4/5/5/5 w".parse().unwrap();
    let result = engine.search(&pos, &Limits::depth(4), &stop, |_| {});
    assert_eq!(result.score, win_in(2));
    // A timed search of the start stops on time and counts every thread's nodes.
    let mut reported = 0;
    let started = Instant::now();
    let result = engine.search(
        &Position::standard(),
        &Limits::movetime(Duration::from_millis(200)),
        &stop,
        |info| reported = info.nodes,
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(Position::standard().is_legal(result.best.unwrap()));
    assert!(result.nodes >= reported && reported > 0);
    // Back to one thread.
    engine.set_threads(0);
    assert_eq!(engine.threads(), 1);
}

#[test]
fn features_switch_by_their_protocol_names() {
    let mut features = Features::default();
    for name in Features::NAMES {
        assert!(features.set(name, false), "{name}");
        assert_eq!(features.get(name), Some(false));
        assert!(features.set(&name.to_ascii_uppercase(), true), "{name}");
        assert_eq!(features.get(name), Some(true));
    }
    assert!(!features.set("Nonsense", true));
    assert_eq!(features.get("Nonsense"), None);
    // Null move is off by default (docs/strength.md).
    assert_eq!(Features::default().get("NullMove"), Some(false));
}

#[test]
fn move_ordering_and_reductions_keep_the_tactics() {
    // The known wins and defences above, with the defaults and with each
    // ordering and reduction feature switched in turn: they change the
    // order and depth of the search, never what a full search of the
    // tactics finds.
    let cases = [
        ("4/b3/w3/w3 w", 3, win_in(1)),
        ("4b/w4/5/5/5 w", 4, win_in(2)),
        ("4b/5/5/w4/3b1 w", 3, loss_in(1)),
    ];
    // Without proofs, so that alpha-beta finds them (small boards get a
    // proof-number search first).
    let engine_with = |switched: &str| {
        let mut engine = Engine::new(8);
        engine.features.set("Proofs", false);
        if let Some(on) = engine.features.get(switched) {
            engine.features.set(switched, !on);
        }
        engine
    };
    for switched in ["", "HistoryMalus", "CounterMove", "HistoryLMR", "IIR"] {
        for (text, depth, score) in cases {
            let pos: Position = text.parse().unwrap();
            let mut engine = engine_with(switched);
            let result =
                engine.search(&pos, &Limits::depth(depth), &AtomicBool::new(false), |_| {});
            assert_eq!(result.score, score, "{text} with {switched} switched");
        }
        let pos: Position = "4b/b4/w4/w4/b4 w".parse().unwrap();
        let mut engine = engine_with(switched);
        let result = engine.search(&pos, &Limits::depth(6), &AtomicBool::new(false), |_| {});
        assert_eq!(
            result.best,
            Some(pos.parse_move("a3,a2-a1").unwrap()),
            "{switched} switched"
        );
    }
}

#[test]
fn a_repetition_scores_as_a_draw_less_the_contempt() {
    // The engine's choice from a quiet 6x6 position, then the same search
    // told that the position after that choice occurred earlier in the
    // game: with repetitions scored, and a contempt larger than any
    // evaluation here, the choice changes; without, it does not.
    let pos = Position::new(BoardSize::new(6, 6).unwrap(), Symmetry::Mirror);
    let limits = Limits::depth(3);
    let stop = AtomicBool::new(false);
    let first = Engine::new(8)
        .search(&pos, &limits, &stop, |_| {})
        .best
        .unwrap();
    let mut after = pos.clone();
    after.play(first).unwrap();
    let searched = |repetition: bool| {
        let mut engine = Engine::new(8);
        engine.features.repetition = repetition;
        engine.set_contempt(900);
        engine.set_history(vec![after.zobrist_hash()]);
        engine.search(&pos, &limits, &stop, |_| {})
    };
    assert_eq!(searched(false).best, Some(first));
    let result = searched(true);
    assert_ne!(result.best, Some(first));
    assert!(
        result.score > -900,
        "another move beats the repetition: {result:?}"
    );
    // The history is the game's: a repetition on the search path counts too,
    // and a position never seen does not.
    let mut engine = Engine::new(8);
    engine.features.repetition = true;
    engine.set_contempt(900);
    engine.set_history(vec![pos.zobrist_hash() ^ 1]);
    assert_eq!(
        engine.search(&pos, &limits, &stop, |_| {}).best,
        Some(first)
    );
}
