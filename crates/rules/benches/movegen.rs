//! Move generation and perft benchmarks: `cargo bench -p epaminondas-rules`.

use divan::{Bencher, black_box};
use epaminondas_rules::{BoardSize, MoveList, Position, Symmetry};

fn main() {
    divan::main();
}

/// Every position two and three plies after the standard start, sampled: a
/// fixed, realistic set of opening positions.
fn opening_positions() -> Vec<Position> {
    let mut out = Vec::new();
    let start = Position::standard();
    for (i, &a) in start.legal_moves().iter().enumerate() {
        let mut p = start.clone();
        p.play_unchecked(a);
        for (j, &b) in p.legal_moves().iter().enumerate() {
            if (i + j) % 7 == 0 {
                let mut q = p.clone();
                q.play_unchecked(b);
                out.push(q.clone());
                if let Some(&c) = q.legal_moves().get(j) {
                    q.play_unchecked(c);
                    out.push(q);
                }
            }
        }
    }
    out
}

/// Positions from the middle of pseudo-random games on the standard board
/// (plies 20 to 59 of eight games, seeded): longer phalanxes and contact
/// between the sides, as a search meets them.
fn middle_game_positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..8 {
        let mut pos = Position::standard();
        for ply in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            pos.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
            if ply >= 20 && pos.outcome().is_none() {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// Both sides' move counts and largest captures, as the engine's
/// evaluation asks for them.
#[divan::bench(args = ["opening", "middle game"])]
fn survey_both_sides(bencher: Bencher, set: &str) {
    let positions = match set {
        "opening" => opening_positions(),
        _ => middle_game_positions(),
    };
    bencher
        .counter(divan::counter::ItemsCount::new(positions.len()))
        .bench(|| {
            positions
                .iter()
                .map(|p| {
                    let p = black_box(p);
                    let (a, b) = (p.survey(p.turn()), p.survey(!p.turn()));
                    a.moves + b.moves + u64::from(a.largest_capture + b.largest_capture)
                })
                .sum::<u64>()
        });
}

/// Times `fill` listing moves of each of `positions` into one buffer.
fn bench_listing(
    bencher: Bencher,
    positions: &[Position],
    fill: impl Fn(&Position, &mut MoveList),
) {
    let mut list = MoveList::new();
    bencher
        .counter(divan::counter::ItemsCount::new(positions.len()))
        .bench_local(|| {
            let mut n = 0;
            for p in positions {
                fill(black_box(p), &mut list);
                n += list.len();
            }
            n
        });
}

/// The captures and goal-rank moves, as quiescence search asks for them.
#[divan::bench]
fn tactical_moves(bencher: Bencher) {
    bench_listing(
        bencher,
        &middle_game_positions(),
        Position::tactical_moves_into,
    );
}

#[divan::bench]
fn count_moves(bencher: Bencher) {
    let positions = opening_positions();
    bencher
        .counter(divan::counter::ItemsCount::new(positions.len()))
        .bench(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_legal_moves())
                .sum::<u64>()
        });
}

#[divan::bench]
fn generate_moves(bencher: Bencher) {
    bench_listing(bencher, &opening_positions(), Position::legal_moves_into);
}

#[divan::bench]
fn play_and_undo(bencher: Bencher) {
    let positions = opening_positions();
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let total: usize = moves.iter().map(|m| m.len()).sum();
    let mut positions = positions;
    bencher
        .counter(divan::counter::ItemsCount::new(total))
        .bench_local(|| {
            for (p, list) in positions.iter_mut().zip(&moves) {
                for &mv in list {
                    p.play_unchecked(mv);
                    black_box(&*p);
                    p.undo_unchecked(mv);
                }
            }
        });
}

#[divan::bench(args = [3, 4])]
fn perft_standard(depth: u32) -> u64 {
    black_box(Position::standard()).perft(depth)
}

#[divan::bench(args = [3, 4])]
fn perft_8x8(depth: u32) -> u64 {
    black_box(Position::new(BoardSize::CROSSINGS, Symmetry::Mirror)).perft(depth)
}
