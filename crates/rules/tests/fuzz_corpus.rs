//! Replays the fuzz targets' seed corpus (`fuzz/corpus`) through the same
//! checks as the fuzz targets, plus a few thousand deterministic mutations of
//! each seed: a small fuzzing pass that runs on stable Rust in every test run.

#[path = "../../../fuzz/checks.rs"]
mod checks;

use std::fs;
use std::path::PathBuf;

fn seeds(target: &str) -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut out: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?.to_owned();
            name.starts_with("seed-")
                .then(|| fs::read_to_string(&path).ok())
                .flatten()
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

/// Deterministic mutations: characters deleted, duplicated or replaced by
/// ones that matter to the parsers, and truncations.
fn mutations(seed: &str, count: usize) -> Vec<String> {
    const ALPHABET: &[char] = &[
        'a', 'z', 'W', 'b', 'x', '0', '1', '9', '/', ',', '.', '-', '\u{2013}', ':', ' ', '\n',
        '[', ']', '"', '\\', '*', '{', 'é',
    ];
    let chars: Vec<char> = seed.chars().collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64 ^ seed.len() as u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    (0..count)
        .map(|_| {
            let mut c = chars.clone();
            for _ in 0..1 + next(3) {
                let at = next(c.len() + 1);
                match next(4) {
                    0 if at < c.len() => {
                        c.remove(at);
                    }
                    1 if at < c.len() => c.insert(at, c[at]),
                    2 => c.insert(at, ALPHABET[next(ALPHABET.len())]),
                    _ => c.truncate(at),
                }
            }
            c.into_iter().collect()
        })
        .collect()
}

fn run(target: &str, check: fn(&str), per_seed: usize) {
    for seed in seeds(target) {
        check(&seed);
        for mutant in mutations(&seed, per_seed) {
            check(&mutant);
        }
    }
}

#[test]
fn move_corpus() {
    run("parse_move", checks::check_move, 300);
}

#[test]
fn position_corpus() {
    run("parse_position", checks::check_position, 1000);
}

#[test]
fn record_corpus() {
    run("parse_record", checks::check_record, 1000);
}

#[test]
fn proof_corpus() {
    run("check_proof", checks::check_proof, 300);
}
