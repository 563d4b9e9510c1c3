//! Fuzz target: `cargo +nightly fuzz run read_nnue_files` (see README).
#![no_main]

#[path = "../nnue_checks.rs"]
mod nnue_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    nnue_checks::check_nnue_files(data);
});
