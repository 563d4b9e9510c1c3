//! Replays the `read_nnue_files` fuzz target's seed corpus
//! (`fuzz/corpus/read_nnue_files`) through the target's own checks, plus
//! deterministic byte mutations of each seed: a small fuzzing pass of the
//! training data and net file readers on stable Rust.

#[path = "../../../fuzz/nnue_checks.rs"]
mod nnue_checks;

#[path = "../../../fuzz/seeds.rs"]
mod seeds;

#[test]
fn nnue_file_corpus() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    for seed in seeds::seed_files(env!("CARGO_MANIFEST_DIR"), "read_nnue_files") {
        nnue_checks::check_nnue_files(&seed);
        for _ in 0..2000 {
            let mut bytes = seed.clone();
            for _ in 0..1 + next(3) {
                let at = next(bytes.len() + 1);
                match next(4) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 if at < bytes.len() => bytes[at] = next(256) as u8,
                    2 => bytes.insert(at, next(256) as u8),
                    _ => bytes.truncate(at),
                }
            }
            nnue_checks::check_nnue_files(&bytes);
        }
    }
}
