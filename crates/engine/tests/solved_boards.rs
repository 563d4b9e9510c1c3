//! The engine on solved boards: from a start that the proof-number search
//! proves won, the engine playing the winner must keep the win after every
//! move and end the game, against the defence that lasts longest under the
//! proof (each time, a proof of the position reached, which is also the
//! check that the engine's move kept the win; the proofs share one table,
//! so that what one proved the next need not prove again). The engine
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

/// Proofs of one prover's wins, from one position after another, in one
/// table: what a search proved stays proven for the next (a game played
/// along a proof is mostly proven already).
struct Prover<'a> {
    search: Option<ProofSearch<'a>>,
    prover: Color,
    limits: ProofLimits,
    stop: &'a AtomicBool,
}

impl<'a> Prover<'a> {
    /// Proofs for `prover` in a table of `gib` GiB (it forgets what it
    /// searched least when full).
    fn new(prover: Color, gib: u64, stop: &'a AtomicBool) -> Self {
        let limits = ProofLimits {
            max_entries: entries_within(gib << 30),
            deadline: None,
            ..ProofLimits::default()
        };
        Prover {
            search: None,
            prover,
            limits,
            stop,
        }
    }

    /// A proof of the prover's win from `pos`, as position text -> the
    /// prover's move; `None` when the search finds no win. Deep games
    /// recurse deeply: call it on a thread with a large stack.
    fn proof(&mut self, pos: &Position) -> Option<HashMap<String, Move>> {
        let search = match &mut self.search {
            Some(search) => {
                search.run_from(pos);
                search
            }
            None => self.search.insert(ProofSearch::run(
                pos,
                self.prover,
                self.limits,
                self.stop,
                |_| {},
            )),
        };
        if search.verdict() != Verdict::Proven {
            return None;
        }
        let mut steps = HashMap::new();
        search.for_each_step(|at, mv| {
            steps.insert(at.to_string(), mv);
        })?;
        Some(steps)
    }
}

/// A proof of `prover`'s win from `pos` by a search of its own.
fn proof(pos: &Position, prover: Color) -> Option<HashMap<String, Move>> {
    let stop = AtomicBool::new(false);
    with_large_stack(|| Prover::new(prover, 1, &stop).proof(pos))
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
/// The proofs' table takes `proof_gib` GiB (or the environment's
/// `PROOF_GIB`). Runs on a thread with a large
/// stack (the search and the longest-line count recurse as deep as a line
/// is long).
fn engine_keeps_the_win(
    start: Position,
    winner: Color,
    nodes: u64,
    hash_mb: usize,
    proof_gib: u64,
) {
    with_large_stack(|| play_out(start, winner, nodes, hash_mb, proof_gib));
}

/// [`engine_keeps_the_win`]'s game.
fn play_out(start: Position, winner: Color, nodes: u64, hash_mb: usize, proof_gib: u64) {
    // A run by hand beside other work may ask for a smaller table.
    let proof_gib = std::env::var("PROOF_GIB")
        .ok()
        .and_then(|gib| gib.parse().ok())
        .unwrap_or(proof_gib);
    let stop = AtomicBool::new(false);
    let mut prover = Prover::new(winner, proof_gib, &stop);
    let mut engine = Engine::new(hash_mb);
    let mut pos = start;
    let mut played = Vec::new();
    let began = std::time::Instant::now();
    for _ in 0..200 {
        // The game as it goes, for the long runs by hand (`--nocapture`).
        if let Some(last) = played.last() {
            eprintln!("{:>3}. {last} ({:.0?})", played.len(), began.elapsed());
        }
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
            let steps = prover
                .proof(&pos)
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
    engine_keeps_the_win(start, Color::White, 50_000, 64, 1);
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
    engine_keeps_the_win(start, Color::Black, 1_000_000, 64, 1);
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
        engine_keeps_the_win(start, Color::White, 10_000_000, 512, 4);
    }
}

/// 6x4 with the symmetry rule is Black's; its proof takes 36 million
/// positions, and proofs of positions White faces early on more. Run by
/// hand with `--ignored`; docs/strength.md has the result.
#[test]
#[ignore]
fn the_engine_wins_the_solved_6x4_board_as_the_second_player() {
    let start = Position::new(BoardSize::new(6, 4).unwrap(), Symmetry::Mirror);
    engine_keeps_the_win(start, Color::Black, 10_000_000, 512, 4);
}

/// 6x5 is White's with the symmetry rule and without it; each start's
/// proof takes about 80 million positions (a table of 4 GiB makes room
/// as it goes). Run by hand with `--ignored`; docs/strength.md has the
/// result.
#[test]
#[ignore]
fn the_engine_wins_the_solved_6x5_boards() {
    for symmetry in [Symmetry::Mirror, Symmetry::Off] {
        let start = Position::new(BoardSize::new(6, 5).unwrap(), symmetry);
        engine_keeps_the_win(start, Color::White, 10_000_000, 512, 4);
    }
}

/// 4x7 with the symmetry rule is White's (solved 2026-12-01: a proof of
/// 407,956 positions from a search of 119 million). Run by hand with
/// `--ignored`; docs/strength.md has the result.
#[test]
#[ignore]
fn the_engine_wins_the_solved_4x7_board() {
    let start = Position::new(BoardSize::new(4, 7).unwrap(), Symmetry::Mirror);
    engine_keeps_the_win(start, Color::White, 10_000_000, 512, 4);
}
