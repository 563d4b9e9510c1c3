//! The properties the mail fuzz target checks, shared with the corpus
//! replay in `crates/mail/tests/fuzz_corpus.rs`.

use epaminondas_mail::{Envelope, MAX_COMMANDS, read};

/// Reads `raw` as a received message (with no envelope, and as a bounce):
/// it must never panic, and what it reads must be within the limits the
/// server relies on.
pub fn check_mail(raw: &[u8]) {
    for envelope in [
        Envelope::default(),
        Envelope {
            mail_from: Some(String::new()),
            rcpt_to: vec!["<pbm@example.org>".into()],
        },
    ] {
        let first = read(raw, &envelope, 1 << 20);
        assert_eq!(
            first,
            read(raw, &envelope, 1 << 20),
            "reading is deterministic"
        );
        let Ok(message) = first else { continue };
        assert!(
            message.commands.len() <= MAX_COMMANDS,
            "{:?}",
            message.commands
        );
        for command in &message.commands {
            assert!(
                command.chars().count() <= 1_000,
                "a command is at most 1,000 characters"
            );
            assert!(
                !command.contains('\n') && !command.contains('\r'),
                "{command:?}"
            );
            assert!(!command.trim().is_empty(), "no empty command");
        }
        if let Some(from) = &message.from {
            assert!(
                from.contains('@') && *from == from.to_ascii_lowercase(),
                "{from}"
            );
        }
        if envelope.mail_from.as_deref() == Some("") {
            assert!(message.automatic.is_some(), "a bounce is automatic mail");
            assert_eq!(message.recipients, ["pbm@example.org"]);
        }
    }
    assert!(
        read(raw, &Envelope::default(), raw.len().saturating_sub(1)).is_err() || raw.is_empty()
    );
}
