//! Fuzz target: `cargo +nightly fuzz run read_book` (see README).
#![no_main]

#[path = "../book_checks.rs"]
mod book_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    book_checks::check_book(data);
});
