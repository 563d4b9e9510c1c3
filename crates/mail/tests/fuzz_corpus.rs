//! Replays the mail fuzz target's seed corpus (`fuzz/corpus/read_mail`)
//! through the target's checks, with a few thousand deterministic mutations
//! of each seed, and some hostile shapes made by hand: a small fuzzing pass
//! on stable Rust in every test run.

#[path = "../../../fuzz/mail_checks.rs"]
mod mail_checks;
#[path = "../../../fuzz/seeds.rs"]
mod seeds;

use mail_checks::check_mail;

fn seeds() -> Vec<Vec<u8>> {
    let out = seeds::seed_files(env!("CARGO_MANIFEST_DIR"), "read_mail");
    assert!(out.len() >= 5, "seeds missing in fuzz/corpus/read_mail");
    out
}

/// Deterministic mutations: bytes deleted, duplicated or replaced by ones
/// that matter to mail parsers, and truncations.
fn mutations(seed: &[u8], count: usize) -> Vec<Vec<u8>> {
    const ALPHABET: &[&[u8]] = &[
        b"\r\n",
        b"\n",
        b":",
        b";",
        b"=",
        b"=?",
        b"?=",
        b"--",
        b"\"",
        b"<",
        b">",
        b"@",
        b" ",
        b"\t",
        b"\xc3",
        b"\xff",
        b"\0",
        b"boundary=",
        b"base64",
        b"multipart/",
        b"> ",
        b"-- \r\n",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ seed.len() as u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    (0..count)
        .map(|_| {
            let mut bytes = seed.to_vec();
            for _ in 0..1 + next(4) {
                let at = next(bytes.len() + 1);
                match next(4) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 if at < bytes.len() => bytes.insert(at, bytes[at]),
                    2 => {
                        let piece = ALPHABET[next(ALPHABET.len())];
                        bytes.splice(at..at, piece.iter().copied());
                    }
                    _ => bytes.truncate(at),
                }
            }
            bytes
        })
        .collect()
}

#[test]
fn mail_corpus() {
    for seed in seeds() {
        check_mail(&seed);
        for mutant in mutations(&seed, 4_000) {
            check_mail(&mutant);
        }
    }
}

#[test]
fn hostile_shapes_are_read_or_refused_without_panicking() {
    // Multiparts nested as deep as a megabyte allows.
    for boundary in ["b", "same"] {
        let mut nested = String::from("From: a@example.org\r\nSubject: x\r\n");
        for depth in 0..20_000 {
            let boundary = if boundary == "b" {
                format!("b{depth}")
            } else {
                boundary.into()
            };
            nested.push_str(&format!(
                "Content-Type: multipart/mixed; boundary={boundary}\r\n\r\n--{boundary}\r\n"
            ));
            if nested.len() > (1 << 20) - 100 {
                break;
            }
        }
        nested.push_str("\r\nhelp\r\n");
        check_mail(nested.as_bytes());
    }
    // Endless header lines, an endless line, and nothing but separators.
    check_mail(
        format!(
            "From: a@example.org\r\n{}\r\n\r\nhelp",
            "X-A: b\r\n".repeat(50_000)
        )
        .as_bytes(),
    );
    check_mail(
        format!(
            "From: a@example.org\r\nSubject: {}\r\n\r\n",
            "y".repeat(500_000)
        )
        .as_bytes(),
    );
    check_mail("\r\n".repeat(100_000).as_bytes());
    check_mail(b"");
}
