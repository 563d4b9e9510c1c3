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
    let positions = opening_positions();
    let mut list = MoveList::new();
    bencher
        .counter(divan::counter::ItemsCount::new(positions.len()))
        .bench_local(|| {
            let mut n = 0;
            for p in &positions {
                black_box(p).legal_moves_into(&mut list);
                n += list.len();
            }
            n
        });
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
