//! Fuzz target: `cargo +nightly fuzz run read_known` (see README).
#![no_main]

#[path = "../known_checks.rs"]
mod known_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    known_checks::check_known(data);
});
