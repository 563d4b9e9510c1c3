//! Fuzz target: `cargo +nightly fuzz run check_proof` (see README).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        checks::check_proof(text);
    }
});
