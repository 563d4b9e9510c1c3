//! Reading a message a play-by-mail server received: who sent it, to which
//! of the server's addresses, whether it may be answered at all, and its
//! pbmserv commands. No I/O: the server's SMTP listener and `mail-in` hand
//! it the bytes, and it never panics on any input (a fuzz target checks).
//!
//! The commands are the Subject's, when it is one (pbmserv's way), or else
//! the first lines of the plain-text body: quoted lines (`>`), the
//! quotation's introduction (`On ... wrote:`) and everything from a
//! signature (`-- `) on are left out; an HTML-only message is read as text
//! with its tags removed. Bodies in quoted-printable or base64 and in any
//! charset are decoded.

use mailparse::{MailHeaderMap, ParsedMail, addrparse_header, parse_mail};

/// The most command lines read from one message.
pub const MAX_COMMANDS: usize = 5;

/// The most characters of one command line.
const MAX_LINE: usize = 1_000;

/// What the transport knew about a message: the envelope.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    /// The return path (`MAIL FROM`): `Some("")` for a bounce (the null
    /// sender), `None` when the transport did not say.
    pub mail_from: Option<String>,
    /// The recipients (`RCPT TO`); empty when the transport did not say
    /// (the `To`, `Cc` and `Delivered-To` headers are read instead).
    pub rcpt_to: Vec<String>,
}

/// Why a received message gets no reply whatever it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Automatic {
    /// `Auto-Submitted` (other than `no`) or another auto-responder's mark.
    AutoSubmitted,
    /// A bounce: the null return path, or a delivery report.
    Bounce,
    /// Mail from a list (`List-Id`, `Precedence: bulk|list|junk`).
    MailingList,
}

impl Automatic {
    /// Why, in words, for logs.
    pub fn reason(self) -> &'static str {
        match self {
            Automatic::AutoSubmitted => "an automatic message",
            Automatic::Bounce => "a bounce",
            Automatic::MailingList => "mail from a list",
        }
    }
}

/// A received message, as far as the server reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inbound {
    /// The `From` address, in lower case.
    pub from: Option<String>,
    /// The recipients the server looks at (the envelope's, else the headers').
    pub recipients: Vec<String>,
    /// The decoded subject.
    pub subject: String,
    /// The commands found.
    pub commands: Vec<String>,
    /// Set when no reply may go.
    pub automatic: Option<Automatic>,
    /// The `Message-ID`, for `In-Reply-To` in the reply.
    pub message_id: Option<String>,
    /// The `X-Loop` marks, in lower case: a server finds its own address
    /// here in mail that has come back round a loop.
    pub loop_marks: Vec<String>,
}

/// A message that cannot be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InboundError {
    /// Larger than the server takes.
    #[error("the message is {size} bytes; the limit is {limit}")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Not a mail message.
    #[error("the message cannot be read: {0}")]
    Malformed(String),
}

/// Reads `raw` (at most `limit` bytes) received with `envelope`.
pub fn read(raw: &[u8], envelope: &Envelope, limit: usize) -> Result<Inbound, InboundError> {
    if raw.len() > limit {
        return Err(InboundError::TooLarge {
            size: raw.len(),
            limit,
        });
    }
    let mail = parse_mail(raw).map_err(|e| InboundError::Malformed(e.to_string()))?;
    if mail.headers.is_empty() {
        return Err(InboundError::Malformed("it has no header".into()));
    }
    let headers = &mail.headers;
    let from = headers
        .get_first_header("From")
        .and_then(|h| addrparse_header(h).ok())
        .and_then(|list| list.extract_single_info())
        .map(|info| info.addr.trim().to_ascii_lowercase())
        .filter(|a| a.contains('@'));
    let recipients = if envelope.rcpt_to.is_empty() {
        ["To", "Cc", "Delivered-To", "X-Original-To"]
            .iter()
            .flat_map(|name| headers.get_all_headers(name))
            .filter_map(|h| addrparse_header(h).ok())
            .flat_map(|list| {
                list.iter()
                    .flat_map(|addr| match addr {
                        mailparse::MailAddr::Single(s) => vec![s.addr.clone()],
                        mailparse::MailAddr::Group(g) => {
                            g.addrs.iter().map(|s| s.addr.clone()).collect()
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .map(|a| a.trim().to_ascii_lowercase())
            .collect()
    } else {
        envelope
            .rcpt_to
            .iter()
            .map(|a| {
                a.trim()
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_ascii_lowercase()
            })
            .collect()
    };
    let subject = headers.get_first_value("Subject").unwrap_or_default();
    let subject = subject.trim().to_owned();
    let automatic = automatic(&mail, envelope);
    let commands = match subject_command(&subject) {
        Some(command) => vec![command],
        None => body_commands(&mail),
    };
    Ok(Inbound {
        from,
        recipients,
        subject,
        commands,
        automatic,
        message_id: headers
            .get_first_value("Message-ID")
            .map(|v| v.trim().to_owned()),
        loop_marks: headers
            .get_all_values("X-Loop")
            .iter()
            .map(|v| v.trim().to_ascii_lowercase())
            .collect(),
    })
}

/// Whether the message must get no reply, and why.
fn automatic(mail: &ParsedMail, envelope: &Envelope) -> Option<Automatic> {
    let headers = &mail.headers;
    let value = |name: &str| {
        headers
            .get_first_value(name)
            .map(|v| v.trim().to_ascii_lowercase())
    };
    let null_path = envelope.mail_from.as_deref().map(str::trim) == Some("")
        || envelope.mail_from.as_deref().map(str::trim) == Some("<>")
        || value("Return-Path").as_deref() == Some("<>");
    if null_path || mail.ctype.mimetype.eq_ignore_ascii_case("multipart/report") {
        return Some(Automatic::Bounce);
    }
    if value("Auto-Submitted").is_some_and(|v| v != "no")
        || ["X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress"]
            .iter()
            .any(|h| headers.get_first_header(h).is_some())
    {
        return Some(Automatic::AutoSubmitted);
    }
    if headers.get_first_header("List-Id").is_some()
        || value("Precedence").is_some_and(|v| matches!(v.as_str(), "bulk" | "list" | "junk"))
    {
        return Some(Automatic::MailingList);
    }
    None
}

/// The first words of the commands the server knows (`epaminondas ...`,
/// `help`, `signup` ... and the short forms used in replies to a game's
/// mail).
const COMMAND_WORDS: &[&str] = &[
    "help",
    "signup",
    "signoff",
    "change",
    "epaminondas",
    "move",
    "board",
    "history",
    "resign",
    "propose",
    "draw",
    "undo",
    "accept",
    "reject",
    "chat",
    "message",
    "games",
    "ratings",
    "standings",
    "queue",
    "mute",
    "unmute",
    "report",
    "mail",
];

/// Whether `line` reads as a command: a known first word, or a move.
pub fn is_command(line: &str) -> bool {
    let Some(first) = line.split_whitespace().next() else {
        return false;
    };
    let first = first.to_ascii_lowercase();
    COMMAND_WORDS.contains(&first.as_str()) || looks_like_move(&first)
}

/// Move text: squares joined by `-` (`e1,e2-e3`, `c2-d1#5`).
fn looks_like_move(word: &str) -> bool {
    let word = word.split('#').next().unwrap_or(word);
    word.contains('-')
        && word.len() <= 24
        && word.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && word.chars().any(|c| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | ',' | '.' | ':' | 'x'))
}

/// The Subject as a command, when it is one: `Re:` and `Fwd:` prefixes are
/// dropped.
fn subject_command(subject: &str) -> Option<String> {
    let mut rest = subject.trim();
    loop {
        let lower = rest.to_ascii_lowercase();
        let cut = ["re:", "fwd:", "fw:", "aw:", "sv:", "wg:"]
            .iter()
            .find(|p| lower.starts_with(**p))
            .map(|p| p.len());
        match cut {
            Some(n) => rest = rest[n..].trim_start(),
            None => break,
        }
    }
    // The server's own subjects ("Epaminondas board 101: your move") have a
    // colon among their first words; commands never do.
    let ours = rest.split_whitespace().take(3).any(|w| w.ends_with(':'));
    let command = clip(rest);
    (!ours && !command.is_empty() && is_command(&command)).then_some(command)
}

/// A line cut to the longest command read, control characters (a lone
/// carriage return, a tab) made spaces.
fn clip(line: &str) -> String {
    line.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_LINE)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// The commands in the body: the first lines, up to the first blank line
/// after them, without quotations and signatures.
fn body_commands(mail: &ParsedMail) -> Vec<String> {
    let Some(text) = body_text(mail) else {
        return Vec::new();
    };
    // Lines end with CR LF, LF or (old Mac mail) a lone CR.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut commands = Vec::new();
    for line in text.lines() {
        if line == "-- " || line.trim() == "--" {
            break;
        }
        let trimmed = clip(line);
        let trimmed = trimmed.as_str();
        if trimmed.starts_with('>') {
            continue;
        }
        // "On Tue, 24 Nov 2026, alice wrote:" introduces a quotation.
        if trimmed.ends_with("wrote:") || trimmed.ends_with("schrieb:") {
            break;
        }
        if trimmed.is_empty() {
            if commands.is_empty() {
                continue;
            }
            break;
        }
        commands.push(trimmed.to_owned());
        if commands.len() == MAX_COMMANDS {
            break;
        }
    }
    commands
}

/// The message's text: its first `text/plain` part, else its first
/// `text/html` part with the markup removed.
fn body_text(mail: &ParsedMail) -> Option<String> {
    fn find<'a>(part: &'a ParsedMail<'a>, mimetype: &str) -> Option<&'a ParsedMail<'a>> {
        if part.subparts.is_empty() {
            let attachment = part.get_content_disposition().disposition
                == mailparse::DispositionType::Attachment;
            return (part.ctype.mimetype.eq_ignore_ascii_case(mimetype) && !attachment)
                .then_some(part);
        }
        part.subparts.iter().find_map(|p| find(p, mimetype))
    }
    if let Some(plain) = find(mail, "text/plain") {
        return plain.get_body().ok();
    }
    find(mail, "text/html")
        .and_then(|html| html.get_body().ok())
        .map(|html| html_text(&html))
}

/// The text of an HTML body: tags dropped (block tags end lines), the
/// common entities decoded, `<blockquote>` contents left out as quotation.
fn html_text(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    let mut quoted = 0usize;
    while let Some(open) = rest.find('<') {
        if quoted == 0 {
            text.push_str(&rest[..open]);
        }
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        let tag = rest[open + 1..open + close].trim().to_ascii_lowercase();
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if name == "blockquote" {
            if tag.starts_with('/') {
                quoted = quoted.saturating_sub(1);
            } else {
                quoted += 1;
            }
        }
        if matches!(
            name.as_str(),
            "br" | "p" | "div" | "tr" | "li" | "h1" | "h2" | "h3" | "blockquote"
        ) {
            text.push('\n');
        }
        rest = &rest[open + close + 1..];
    }
    if quoted == 0 {
        text.push_str(rest);
    }
    text.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_ok(raw: &str) -> Inbound {
        read(raw.as_bytes(), &Envelope::default(), 1 << 20).unwrap()
    }

    #[test]
    fn the_subject_carries_a_command() {
        let mail = read_ok(
            "From: Alice <Alice@Example.org>\r\nTo: pbm@example.org\r\n\
             Subject: epaminondas move 101 alice secret e1,e2-e3#1\r\n\r\nthanks\r\n",
        );
        assert_eq!(mail.from.as_deref(), Some("alice@example.org"));
        assert_eq!(mail.recipients, ["pbm@example.org"]);
        assert_eq!(
            mail.commands,
            ["epaminondas move 101 alice secret e1,e2-e3#1"]
        );
        assert_eq!(mail.automatic, None);
    }

    #[test]
    fn a_reply_carries_its_move_in_the_body() {
        let mail = read_ok(
            "From: bob@example.org\r\nTo: pbm+abc@example.org\r\n\
             Subject: Re: Epaminondas board 101: your move\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\n\
             \r\n  c5-c4#2  \r\n\r\nOn Tue, alice wrote:\r\n> 5  x x x\r\n",
        );
        assert_eq!(mail.commands, ["c5-c4#2"]);
        // A move in the Subject of a reply works too.
        let mail = read_ok("From: bob@example.org\r\nSubject: RE: c5-c4\r\n\r\n");
        assert_eq!(mail.commands, ["c5-c4"]);
    }

    #[test]
    fn encodings_signatures_and_html_are_handled() {
        // Quoted-printable, non-ASCII, a signature.
        let mail = read_ok(
            "From: =?utf-8?q?J=C3=BCrgen?= <jurgen@example.org>\r\nSubject: hello\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
             epaminondas chat 101 j=C3=BCrgen pw Gr=C3=BC=C3=9Fe!\r\n-- \r\nhelp me\r\n",
        );
        assert_eq!(mail.commands, ["epaminondas chat 101 jürgen pw Grüße!"]);
        // Base64 in a multipart message: the plain part, not the HTML.
        let mail = read_ok(
            "From: a@example.org\r\nSubject: x\r\nMIME-Version: 1.0\r\n\
             Content-Type: multipart/alternative; boundary=B\r\n\r\n\
             --B\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n\
             aGVscA==\r\n--B\r\nContent-Type: text/html\r\n\r\n<p>ignored</p>\r\n--B--\r\n",
        );
        assert_eq!(mail.commands, ["help"]);
        // HTML only: the text of the markup, quotation left out.
        let mail = read_ok(
            "From: a@example.org\r\nSubject: x\r\nContent-Type: text/html\r\n\r\n\
             <html><body><div>board 101</div><blockquote>epaminondas resign 101 a b</blockquote></body></html>\r\n",
        );
        assert_eq!(mail.commands, ["board 101"]);
    }

    #[test]
    fn automatic_mail_is_recognised() {
        let auto =
            read_ok("From: a@example.org\r\nAuto-Submitted: auto-replied\r\nSubject: help\r\n\r\n");
        assert_eq!(auto.automatic, Some(Automatic::AutoSubmitted));
        let not_auto =
            read_ok("From: a@example.org\r\nAuto-Submitted: no\r\nSubject: help\r\n\r\n");
        assert_eq!(not_auto.automatic, None);
        let list = read_ok("From: a@example.org\r\nPrecedence: bulk\r\nSubject: help\r\n\r\n");
        assert_eq!(list.automatic, Some(Automatic::MailingList));
        let listed =
            read_ok("From: a@example.org\r\nList-Id: <x.example.org>\r\nSubject: help\r\n\r\n");
        assert_eq!(listed.automatic, Some(Automatic::MailingList));
        let bounce = read(
            b"From: MAILER-DAEMON@example.org\r\nSubject: Undelivered\r\n\r\nhelp\r\n",
            &Envelope {
                mail_from: Some(String::new()),
                rcpt_to: vec!["<pbm@example.org>".into()],
            },
            1 << 20,
        )
        .unwrap();
        assert_eq!(bounce.automatic, Some(Automatic::Bounce));
        assert_eq!(bounce.recipients, ["pbm@example.org"]);
    }

    #[test]
    fn what_is_not_a_command_stays_out() {
        let mail = read_ok("From: a@example.org\r\nSubject: hi there\r\n\r\nhow are you?\r\n");
        assert_eq!(
            mail.commands,
            ["how are you?"],
            "the first line, for the error reply"
        );
        let empty = read_ok("From: a@example.org\r\nSubject: \r\n\r\n\r\n\r\n");
        assert!(empty.commands.is_empty());
        let many: String = (0..20).map(|i| format!("board {i}\r\n")).collect();
        let mail = read_ok(&format!("From: a@example.org\r\nSubject: x\r\n\r\n{many}"));
        assert_eq!(mail.commands.len(), MAX_COMMANDS);
        let long = "x".repeat(5_000);
        let mail = read_ok(&format!(
            "From: a@example.org\r\nSubject: x\r\n\r\n{long}\r\n"
        ));
        assert!(mail.commands[0].len() <= 1_000);
    }

    #[test]
    fn oversized_and_broken_messages_are_refused() {
        assert!(matches!(
            read(&vec![b'a'; 2_000], &Envelope::default(), 1_000),
            Err(InboundError::TooLarge {
                size: 2_000,
                limit: 1_000
            })
        ));
        assert!(matches!(
            read(b"", &Envelope::default(), 1_000),
            Err(InboundError::Malformed(_))
        ));
        // Broken MIME: a boundary that never comes still gives the text.
        let mail = read_ok(
            "From: a@example.org\r\nSubject: x\r\nContent-Type: multipart/mixed; boundary=NEVER\r\n\r\nhelp\r\n",
        );
        assert!(mail.commands.len() <= 1);
        assert!(is_command("e1,e2-e3#4"));
        assert!(is_command("epaminondas board 101"));
        assert!(!is_command("hello there"));
        assert!(!is_command("re-election 2026"));
    }
}
