//! Reads a fuzz target's seed corpus (`fuzz/corpus/<target>/seed-*`), for
//! the tests that replay it on stable Rust (the mail and engine crates').

use std::fs;
use std::path::Path;

/// The seeds of `target`, in name order, read from the corpus beside this
/// file (`manifest_dir` is the test crate's `CARGO_MANIFEST_DIR`).
pub fn seed_files(manifest_dir: &str, target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(manifest_dir)
        .join("../../fuzz/corpus")
        .join(target);
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?.to_owned();
            name.starts_with("seed-")
                .then(|| fs::read(&path).ok().map(|bytes| (name, bytes)))
                .flatten()
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out.into_iter().map(|(_, bytes)| bytes).collect()
}
