//! The engine on solved boards: from a start that the proof-number search
//! proves won, the engine playing the winner must keep the win after every
//! move and end the game, against the defence that lasts longest under the
//! proof (each time, a fresh proof of the position reached, which is also
//! the check that the engine's move kept the win). The engine
//! plays at full strength: its own proof search on small boards included
//! (`Proofs`, on by default; without it, alpha-beta gave away the 4x4 win
//! even at a million nodes a move).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use epaminondas_engine::dfpn::{
    ProofLimits, ProofSearch, Verdict, entries_within, with_large_stack,
};
use epaminondas_engine::{Engine, Limits};
use epaminondas_rules::{BoardSize, Color, Move, Position, Symmetry};

/// A proof of `prover`'s win from `pos`, as position text -> the prover's
/// move; `None` when the search finds no win.
fn proof(pos: &Position, prover: Color) -> Option<HashMap<String, Move>> {
    // The search recurses as deep as a line is long.
    with_large_stack(|| {
        let stop = AtomicBool::new(false);
        // Up to 606 million positions (12 GiB): a position of 6x4 White
        // faces after two moves took 129 million.
        let limits = ProofLimits {
            max_entries: entries_within(12 << 30),
            deadline: None,
            ..ProofLimits::default()
        };
        let search = ProofSearch::run(pos, prover, limits, &stop, |_| {});
        if search.verdict() != Verdict::Proven {
            return None;
        }
        let mut steps = HashMap::new();
        search.for_each_step(|at, mv| {
            steps.insert(at.to_string(), mv);
        })?;
        Some(steps)
    })
}

/// The most plies the prover needs from `pos` (prover to move) following
/// the proof's steps against any defence.
fn plies_left(
    pos: &Position,
    steps: &HashMap<String, Move>,
    memo: &mut HashMap<String, u32>,
) -> u32 {
    if pos.has_crossed() {
        return 0;
    }
    let key = pos.to_string();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mut after = pos.clone();
    after.play_unchecked(steps[&key]);
    let longest = after
        .legal_moves()
        .iter()
        .map(|&reply| {
            let mut next = after.clone();
            next.play_unchecked(reply);
            2 + plies_left(&next, steps, memo)
        })
        .max()
        .unwrap_or(1);
    memo.insert(key, longest);
    longest
}

/// The engine plays `winner` from a won `start`; the other side plays the
/// reply that lasts longest under a proof of the position it faces. Every
/// position after the engine's move must still be proven won, and the game
/// must end in the winner's win.
fn engine_keeps_the_win(start: Position, winner: Color, nodes: u64, hash_mb: usize) {
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(hash_mb);
    let mut pos = start;
    let mut played = Vec::new();
    for _ in 0..200 {
        if let Some(outcome) = pos.outcome() {
            assert_eq!(outcome.winner, winner, "after {played:?}");
            return;
        }
        if pos.turn() == winner {
            let result = engine.search(&pos, &Limits::nodes(nodes), &stop, |_| {});
            let mv = result.best.expect("a move");
            pos.play(mv).unwrap();
            played.push(mv.to_string());
        } else {
            // One proof from here, the defender to move, covers every reply.
            let steps = proof(&pos, winner)
                .unwrap_or_else(|| panic!("the engine let the win go: {played:?}, to {pos}"));
            let mut memo = HashMap::new();
            let mut longest: Option<(u32, Move)> = None;
            for &reply in &pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(reply);
                let plies = plies_left(&next, &steps, &mut memo);
                if longest.is_none_or(|(best, _)| plies > best) {
                    longest = Some((plies, reply));
                }
            }
            let (_, reply) = longest.expect("a reply");
            pos.play(reply).unwrap();
            played.push(reply.to_string());
        }
    }
    panic!("the engine did not finish a won game in 200 plies: {played:?}");
}

#[test]
fn the_engine_wins_the_solved_4x5_board_against_the_longest_defence() {
    let start = Position::new(BoardSize::new(4, 5).unwrap(), Symmetry::Mirror);
    assert!(
        proof(&start, Color::White).is_some(),
        "4x5 is a win for White"
    );
    engine_keeps_the_win(start, Color::White, 50_000, 64);
}

#[test]
fn the_engine_wins_the_solved_4x4_board_as_the_second_player() {
    // With the symmetry rule, 4x4 is Black's: the engine plays Black
    // against White's longest defence from the first move on.
    let start = Position::new(BoardSize::new(4, 4).unwrap(), Symmetry::Mirror);
    assert!(
        proof(&start, Color::Black).is_some(),
        "4x4 is a win for Black"
    );
    engine_keeps_the_win(start, Color::Black, 1_000_000, 64);
}

/// The larger solved boards take minutes (each defence is chosen by fresh
/// proofs): run by hand with `--ignored`; docs/strength.md has the result.
#[test]
#[ignore]
fn the_engine_wins_the_solved_5x4_and_5x5_boards() {
    // 5x5 is White's with the symmetry rule and without it.
    for (files, ranks, symmetry) in [
        (5, 4, Symmetry::Mirror),
        (5, 5, Symmetry::Mirror),
        (5, 5, Symmetry::Off),
    ] {
        let start = Position::new(BoardSize::new(files, ranks).unwrap(), symmetry);
        // The longest-line count recurses too.
        with_large_stack(|| engine_keeps_the_win(start, Color::White, 10_000_000, 512));
    }
}

/// 6x4 with the symmetry rule is Black's, and its proof took 20 minutes
/// here; each proof of a position White faces early on takes minutes too.
/// Run by hand with `--ignored`; docs/strength.md has the result.
#[test]
#[ignore]
fn the_engine_wins_the_solved_6x4_board_as_the_second_player() {
    let start = Position::new(BoardSize::new(6, 4).unwrap(), Symmetry::Mirror);
    with_large_stack(|| engine_keeps_the_win(start, Color::Black, 10_000_000, 512));
}
