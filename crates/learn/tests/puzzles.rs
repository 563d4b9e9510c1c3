//! The shipped puzzles: the collection reads, holds at least 500 puzzles on
//! the standard board and 200 on 8x8, and every one is proven again here by
//! the solver (a forced win in its plies, its line the solver's, and only
//! its first move winning).

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use epaminondas_learn::puzzles::{COLLECTION, Puzzle, read_collection};
use epaminondas_rules::BoardSize;

#[test]
fn every_shipped_puzzle_is_proven_by_the_solver() {
    let puzzles =
        read_collection(COLLECTION).unwrap_or_else(|(line, e)| panic!("line {line}: {e}"));
    let on = |size: BoardSize| puzzles.iter().filter(|p| p.position.size() == size).count();
    assert!(
        on(BoardSize::STANDARD) >= 500,
        "{} on 14x12",
        on(BoardSize::STANDARD)
    );
    assert!(
        on(BoardSize::CROSSINGS) >= 200,
        "{} on 8x8",
        on(BoardSize::CROSSINGS)
    );
    // Graded: easy and hard ones on both boards.
    for size in [BoardSize::STANDARD, BoardSize::CROSSINGS] {
        let ratings: Vec<u32> = puzzles
            .iter()
            .filter(|p| p.position.size() == size)
            .map(|p| p.rating)
            .collect();
        let (low, high) = (ratings.iter().min().unwrap(), ratings.iter().max().unwrap());
        assert!(high - low >= 300, "{size}: ratings from {low} to {high}");
    }
    // Proven on two threads (the machine's cores).
    let failures = Mutex::new(Vec::new());
    let never = AtomicBool::new(false);
    let halves: Vec<&[Puzzle]> = puzzles.chunks(puzzles.len().div_ceil(2)).collect();
    std::thread::scope(|scope| {
        for half in halves {
            let (failures, never) = (&failures, &never);
            scope.spawn(move || {
                for puzzle in half {
                    if let Err(e) = puzzle.verify(never) {
                        failures.lock().unwrap().push(format!("{}: {e}", puzzle.id));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{failures:#?}");
}
