//! Matches between the built-in players.

use std::time::Duration;

use epaminondas_arena::players::MoveLimit;
use epaminondas_arena::stats::{Sprt, SprtVerdict};
use epaminondas_arena::{MatchConfig, PlayerSpec, opening, run_match};
use epaminondas_rules::{BoardSize, GameResult, Position, Symmetry};

fn config(pairs: usize) -> MatchConfig {
    MatchConfig {
        players: [PlayerSpec::Greedy, PlayerSpec::Random],
        pairs,
        concurrency: 2,
        limit: MoveLimit::MoveTime(Duration::from_millis(10)),
        size: BoardSize::new(6, 6).unwrap(),
        symmetry: Symmetry::Mirror,
        seed: 7,
        max_plies: Some(200),
        resign: None,
        sprt: None,
    }
}

#[test]
fn greedy_beats_random_and_records_every_game() {
    let mut games = Vec::new();
    let state = run_match(&config(6), |report, _| games.push(report.clone())).unwrap();
    assert_eq!(state.games, 12);
    assert_eq!(state.pairs.pairs(), 6);
    assert_eq!(state.wins + state.draws + state.losses, 12);
    assert!(state.pairs.score().unwrap() > 0.75, "{state:?}");
    for report in &games {
        let record = &report.record;
        assert_ne!(record.result(), GameResult::Unfinished);
        assert!(record.tag("Termination").is_some());
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
    let state = run_match(&cfg, |_, _| {}).unwrap();
    assert_eq!(state.verdict, Some(SprtVerdict::H1));
    assert!(state.games < 400, "{} games", state.games);
}

#[test]
fn openings_are_legal_balanced_and_repeatable() {
    let size = BoardSize::STANDARD;
    for pair in 0..5 {
        let moves = opening(size, Symmetry::Mirror, 3, pair);
        assert!((2..=6).contains(&moves.len()));
        assert_eq!(moves, opening(size, Symmetry::Mirror, 3, pair));
        let mut pos = Position::new(size, Symmetry::Mirror);
        for mv in moves {
            pos.play(mv).unwrap();
        }
    }
}
