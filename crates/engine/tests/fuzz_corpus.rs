//! Replays the seed corpora of the `read_nnue_files` and `read_book` fuzz
//! targets (`fuzz/corpus/...`) through the targets' own checks, plus
//! deterministic byte mutations of each seed: a small fuzzing pass of the
//! training data, net file and opening book readers on stable Rust.

#[path = "../../../fuzz/book_checks.rs"]
mod book_checks;

#[path = "../../../fuzz/nnue_checks.rs"]
mod nnue_checks;

#[path = "../../../fuzz/seeds.rs"]
mod seeds;

/// Runs `check` on each seed of `target`'s corpus and on `mutations`
/// byte mutations of each (bytes removed, changed, inserted, or the end
/// cut off).
fn replay(target: &str, mutations: usize, check: impl Fn(&[u8])) {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    for seed in seeds::seed_files(env!("CARGO_MANIFEST_DIR"), target) {
        check(&seed);
        for _ in 0..mutations {
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
            check(&bytes);
        }
    }
}

#[test]
fn nnue_file_corpus() {
    replay("read_nnue_files", 2000, nnue_checks::check_nnue_files);
}

#[test]
fn book_corpus() {
    // The seeds are books that read (so that mutations start from one).
    for seed in seeds::seed_files(env!("CARGO_MANIFEST_DIR"), "read_book") {
        let text = String::from_utf8(seed).unwrap();
        match epaminondas_engine::book::Book::parse(&text) {
            Ok(book) => assert!(!book.is_empty(), "{text}"),
            Err(e) => panic!("{e}: {text}"),
        }
    }
    replay("read_book", 3000, book_checks::check_book);
}
