//! Fuzz target: `cargo +nightly fuzz run read_mail` (see README): received
//! mail as the server reads it.
#![no_main]

#[path = "../mail_checks.rs"]
mod mail_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    mail_checks::check_mail(data);
});
