//! Delivering the outbox through the SMTP relay: mail is claimed (so that
//! two processes never send the same mail), sent, and marked; a relay
//! that is down or refuses for now gets the mail again later (the first
//! retry within a minute, then twice as long each time, at most an hour
//! apart), and a permanent refusal is recorded on the player's account.
//! The outbox is in the database, so a restart loses nothing; a mail is
//! marked sent as soon as the relay has taken it.

use std::sync::Arc;
use std::time::Duration;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::{MailSettings, OutMail};
use crate::service::Service;
use crate::store::{self, Queued};

/// How many mails are claimed at a time.
const BATCH: i64 = 20;
/// How long a claim holds (a sender that dies frees its mail after it).
const HOLD_MS: i64 = 120_000;
/// The first retry's delay.
const FIRST_RETRY_MS: i64 = 10_000;
/// The longest delay between retries.
const MAX_RETRY_MS: i64 = 3_600_000;
/// Tries before a mail is given up.
const MAX_ATTEMPTS: i64 = 40;
/// How often the outbox is looked at when nothing wakes the sender.
const IDLE: Duration = Duration::from_secs(5);
/// How often due digests are gathered.
const DIGEST_EVERY_MS: i64 = 10 * 60_000;

/// The delay before try number `attempts + 1`.
pub fn retry_delay_ms(attempts: i64) -> i64 {
    let doubled = FIRST_RETRY_MS.saturating_mul(1 << attempts.clamp(0, 20));
    doubled.min(MAX_RETRY_MS)
}

/// Starts the sender in the background (it ends with the service).
pub fn start(service: &Arc<Service>) {
    let Some(settings) = service.sending().cloned() else {
        return;
    };
    let Some(relay) = settings.relay.clone() else {
        return;
    };
    let transport = match AsyncSmtpTransport::<Tokio1Executor>::from_url(&relay) {
        Ok(builder) => builder.timeout(Some(Duration::from_secs(30))).build(),
        Err(e) => {
            tracing::error!(
                "the SMTP relay {} cannot be used: {e}; no mail is sent",
                crate::db::redact(&relay)
            );
            return;
        }
    };
    let weak = Arc::downgrade(service);
    tokio::spawn(async move {
        let mut digests_at = 0;
        loop {
            let Some(service) = weak.upgrade() else { break };
            let now = service.now();
            if now >= digests_at {
                digests_at = now + DIGEST_EVERY_MS;
                if let Err(e) = service.send_digests().await {
                    tracing::warn!("gathering digests: {e}");
                }
            }
            let batch = match store::claim_due(&service.db, now, BATCH, HOLD_MS).await {
                Ok(batch) => batch,
                Err(e) => {
                    tracing::warn!("reading the outbox: {e}");
                    Vec::new()
                }
            };
            let idle = batch.is_empty();
            for queued in batch {
                deliver(&service, &settings, &transport, queued).await;
            }
            if idle {
                // Sleep until mail is queued, or a while.
                let _ = tokio::time::timeout(IDLE, service.mail_waiting.notified()).await;
            }
        }
    });
}

/// Sends one mail and records what became of it.
async fn deliver(
    service: &Service,
    settings: &MailSettings,
    transport: &AsyncSmtpTransport<Tokio1Executor>,
    queued: Queued,
) {
    let now = service.now();
    let message = match build(settings, queued.id, &queued.mail) {
        Ok(message) => message,
        Err(why) => {
            if let Err(e) = store::mark_failed(&service.db, &queued, &why, now).await {
                tracing::warn!("recording mail {}: {e}", queued.id);
            }
            return;
        }
    };
    let outcome = transport.send(message).await;
    let recorded = match outcome {
        Ok(_) => store::mark_sent(&service.db, queued.id, service.now()).await,
        Err(e) if e.is_permanent() || queued.attempts + 1 >= MAX_ATTEMPTS => {
            tracing::warn!(
                "mail {} to {} failed for good: {e}",
                queued.id,
                queued.mail.to
            );
            store::mark_failed(&service.db, &queued, &e.to_string(), now).await
        }
        Err(e) => {
            let due = now + retry_delay_ms(queued.attempts);
            tracing::info!(
                "mail {} not sent yet ({e}); next try in {} s",
                queued.id,
                (due - now) / 1000
            );
            store::mark_retry(&service.db, queued.id, due, &e.to_string()).await
        }
    };
    if let Err(e) = recorded {
        tracing::warn!("recording mail {}: {e}", queued.id);
    }
}

fn header(name: &'static str, value: String) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value)
}

/// The message for outbox mail `id`; an error says why it can never be sent.
pub fn build(settings: &MailSettings, id: i64, mail: &OutMail) -> Result<Message, String> {
    let from: Mailbox = format!("Epaminondas <{}>", settings.address())
        .parse()
        .map_err(|e| format!("the server's address: {e}"))?;
    let to: Mailbox = mail
        .to
        .parse()
        .map_err(|e| format!("{:?} is not an address: {e}", mail.to))?;
    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .message_id(Some(format!("<outbox-{id}@{}>", settings.domain)))
        // Automatic mail: auto-responders must not answer it (no loops).
        .raw_header(header(
            "Auto-Submitted",
            if mail.auto_reply {
                "auto-replied".into()
            } else {
                "auto-generated".into()
            },
        ))
        // The procmail convention: mail that comes back with this mark has
        // been round a loop and is dropped.
        .raw_header(header("X-Loop", settings.address()));
    if let Some(reply_to) = &mail.reply_to {
        let reply_to: Mailbox = reply_to
            .parse()
            .map_err(|e| format!("the reply address: {e}"))?;
        builder = builder.reply_to(reply_to);
    }
    if let Some(link) = &mail.unsubscribe {
        builder = builder
            .raw_header(header(
                "List-Unsubscribe",
                format!("<{link}>, <mailto:{}?subject=signoff>", settings.address()),
            ))
            .raw_header(header(
                "List-Unsubscribe-Post",
                "List-Unsubscribe=One-Click".into(),
            ));
    }
    let message = match &mail.html {
        Some(html) => builder.multipart(MultiPart::alternative_plain_html(
            mail.text.clone(),
            html.clone(),
        )),
        None => builder
            .header(ContentType::TEXT_PLAIN)
            .body(mail.text.clone()),
    };
    message.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_to_an_hour() {
        assert_eq!(retry_delay_ms(0), 10_000);
        assert_eq!(retry_delay_ms(1), 20_000);
        assert_eq!(retry_delay_ms(5), 320_000);
        assert_eq!(retry_delay_ms(9), 3_600_000);
        assert_eq!(retry_delay_ms(39), 3_600_000);
    }

    #[test]
    fn messages_carry_the_headers_that_stop_loops_and_unsubscribe() {
        let settings = MailSettings::new(
            "example.org",
            "https://example.org",
            Some("smtp://x".into()),
        );
        let mail = OutMail {
            to: "alice@example.org".into(),
            subject: "Epaminondas board 101: your move".into(),
            text: "the board".into(),
            html: Some("<p>the board</p>".into()),
            reply_to: Some("pbm+abc@example.org".into()),
            unsubscribe: Some("https://example.org/mail/unsubscribe/xyz".into()),
            ..OutMail::default()
        };
        let raw = String::from_utf8(build(&settings, 7, &mail).unwrap().formatted()).unwrap();
        // Long headers are folded onto continuation lines.
        let raw = raw.replace("\r\n ", " ");
        for needle in [
            "From: Epaminondas <pbm@example.org>",
            "To: alice@example.org",
            "Reply-To: pbm+abc@example.org",
            "Auto-Submitted: auto-generated",
            "List-Unsubscribe: <https://example.org/mail/unsubscribe/xyz>, <mailto:pbm@example.org?subject=signoff>",
            "Message-ID: <outbox-7@example.org>",
            "multipart/alternative",
        ] {
            assert!(raw.contains(needle), "{needle}\n{raw}");
        }
        let bad = OutMail {
            to: "not an address".into(),
            ..mail
        };
        assert!(
            build(&settings, 8, &bad)
                .unwrap_err()
                .contains("is not an address")
        );
    }
}
