//! Fuzz target: `cargo +nightly fuzz run read_checkpoint` (see README).
#![no_main]

#[path = "../checkpoint_checks.rs"]
mod checkpoint_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    checkpoint_checks::check_checkpoint(data);
});
