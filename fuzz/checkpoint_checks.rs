//! What the `read_checkpoint` fuzz target checks for one input, shared with
//! the engine's test that replays its seed corpus
//! (`crates/engine/tests/fuzz_corpus.rs`): the reader of `solve --full
//! --checkpoint` files never panics, takes only a checkpoint of the run's
//! own search, and a search resumed from what it took runs (a few thousand
//! nodes) without panicking and writes a checkpoint that reads back with
//! the same positions.

use std::sync::atomic::AtomicBool;

use epaminondas_engine::dfpn::{ProofLimits, ProofSearch};
use epaminondas_rules::{Color, Position};

/// Reads `data` as the checkpoint of White's search from the 4x4 start
/// (the seeds' run) and checks what it takes.
pub fn check_checkpoint(data: &[u8]) {
    let start: Position = "bbbb/bbbb/wwww/wwww w".parse().expect("a position");
    let stop = AtomicBool::new(false);
    let limits = ProofLimits {
        max_entries: 1 << 16,
        max_nodes: Some(2_000),
        ..ProofLimits::default()
    };
    let mut search = ProofSearch::new(&start, Color::White, limits, &stop, |_| {});
    let Ok(positions) = search.read_checkpoint(data) else {
        return;
    };
    assert_eq!(search.entries(), positions);
    search.resume();
    let mut again = Vec::new();
    search
        .write_checkpoint(&mut again)
        .expect("written to memory");
    let mut back = ProofSearch::new(&start, Color::White, limits, &stop, |_| {});
    let read = back
        .read_checkpoint(again.as_slice())
        .expect("a written checkpoint reads back");
    assert_eq!(read, search.entries());
    assert_eq!(back.nodes(), search.nodes());
}
