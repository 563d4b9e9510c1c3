//! Replays the seed corpora of the `read_nnue_files`, `read_book`,
//! `read_known` and `read_checkpoint` fuzz targets (`fuzz/corpus/...`)
//! through the targets' own checks, plus deterministic byte mutations of
//! each seed: a small fuzzing pass of the training data, net file, opening
//! book, `solve --known` and `solve --checkpoint` file readers on stable
//! Rust.

#[path = "../../../fuzz/book_checks.rs"]
mod book_checks;

#[path = "../../../fuzz/checkpoint_checks.rs"]
mod checkpoint_checks;

#[path = "../../../fuzz/known_checks.rs"]
mod known_checks;

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

#[test]
fn known_values_corpus() {
    // The seeds are files of values that read, whole or but for a torn
    // last line, for the 6x4 run (Black's side, no symmetry rule) or the
    // 4x5 one (White's), so that mutations start from one.
    use epaminondas_engine::dfpn::known::{header, read_values};
    use epaminondas_rules::{Color, Position, Symmetry};
    let core: Position = "bb1bb1/wbbbb1/bwwww1/ww1ww1 b".parse().unwrap();
    let core = core.with_symmetry(Symmetry::Off);
    let start: Position = "bbbb/bbbb/4/wwww/wwww w".parse().unwrap();
    let mut values = 0;
    for seed in seeds::seed_files(env!("CARGO_MANIFEST_DIR"), "read_known") {
        let text = String::from_utf8(seed).unwrap();
        let read = [(&core, Color::Black), (&start, Color::White)]
            .into_iter()
            .find_map(|(pos, side)| {
                read_values(&text, &header(pos, side), pos, Some(20_000_000)).ok()
            });
        let read = read.unwrap_or_else(|| panic!("a seed that reads for neither run: {text}"));
        values += read.values.len();
    }
    assert!(values >= 8, "{values} values in the seeds");
    replay("read_known", 3000, known_checks::check_known);
}

#[test]
fn checkpoint_corpus() {
    // The seeds are checkpoints of White's search from the 4x4 start,
    // stopped after 300 and 600 nodes, that read (so that mutations start
    // from one); nearly every mutation is then refused by the checksum.
    use epaminondas_engine::dfpn::{ProofLimits, ProofSearch};
    use epaminondas_rules::{Color, Position};
    use std::sync::atomic::AtomicBool;
    let start: Position = "bbbb/bbbb/wwww/wwww w".parse().unwrap();
    let stop = AtomicBool::new(false);
    for seed in seeds::seed_files(env!("CARGO_MANIFEST_DIR"), "read_checkpoint") {
        let mut search =
            ProofSearch::new(&start, Color::White, ProofLimits::default(), &stop, |_| {});
        let positions = search.read_checkpoint(seed.as_slice()).unwrap();
        assert!(positions > 100, "{positions}");
    }
    replay("read_checkpoint", 300, checkpoint_checks::check_checkpoint);
}
