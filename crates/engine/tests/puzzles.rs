//! The engine against puzzles: positions with a forced win, found and proven
//! by the solver, must be won by the search, at the same distance.

use std::sync::atomic::AtomicBool;

use epaminondas_engine::score::win_in;
use epaminondas_engine::solver::{Solution, solve};
use epaminondas_engine::{Engine, Limits};
use epaminondas_rules::{BoardSize, Position, Symmetry};

/// Positions from seeded random games on small boards whose shortest forced
/// win, as the solver proves it, takes exactly `plies` plies.
fn puzzles(plies: u32, wanted: usize) -> Vec<Position> {
    let mut seed = 0x5EED_0000_0000_0001u64 ^ u64::from(plies);
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let stop = AtomicBool::new(false);
    let mut found = Vec::new();
    for _ in 0..4000 {
        if found.len() >= wanted {
            break;
        }
        let size = BoardSize::new(5 + next(3) as u8, 5 + next(3) as u8).unwrap();
        let mut pos = Position::new(size, Symmetry::Mirror);
        for _ in 0..4 + next(30) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[next(moves.len())]);
        }
        if pos.is_terminal() {
            continue;
        }
        if let Solution::Win { plies: p, .. } = solve(&pos, plies, &stop) {
            if p == plies {
                found.push(pos);
            }
        }
    }
    found
}

fn engine_wins(plies: u32, wanted: usize) {
    let positions = puzzles(plies, wanted);
    assert!(
        positions.len() >= wanted / 2,
        "only {} puzzles of {plies} plies",
        positions.len()
    );
    let stop = AtomicBool::new(false);
    for pos in positions {
        let mut engine = Engine::new(4);
        let result = engine.search(&pos, &Limits::depth(plies + 1), &stop, |_| {});
        assert_eq!(result.score, win_in(plies as usize), "in {pos}");
        // The move the engine chose wins as fast, as the solver confirms.
        let mv = result.best.unwrap();
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let mut defender = Position::clone(&after);
        let replies = defender.legal_moves();
        for &reply in &replies {
            defender.play_unchecked(reply);
            assert!(
                matches!(solve(&defender, plies - 2, &stop), Solution::Win { .. }),
                "{mv} in {pos} does not win against {reply}"
            );
            defender.undo_unchecked(reply);
        }
    }
}

#[test]
fn wins_in_two_plies() {
    engine_wins(2, 12);
}

#[test]
fn wins_in_four_plies() {
    engine_wins(4, 6);
}

#[test]
fn wins_in_six_plies() {
    engine_wins(6, 4);
}
