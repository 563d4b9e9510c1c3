//! Receiving mail over SMTP (`serve --smtp-listen`): a small listener that
//! takes mail for the server's own addresses only (`pbm@DOMAIN` and its
//! `pbm+TOKEN` reply addresses), so it can never be used as a relay. A
//! message is handled before it is acknowledged: once the sender hears
//! `250`, its commands have run and its reply is in the outbox.
//!
//! Limits: a message is at most the configured size (announced in
//! `EHLO`), a line at most 1,000 bytes, ten recipients a message, 32
//! connections at once, and a minute of silence ends a connection.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::inbound::Envelope;
use crate::service::Service;

/// Connections served at once.
const CONNECTIONS: usize = 32;
/// The longest wait for a client's next line.
const IDLE: Duration = Duration::from_secs(60);
/// The longest command line.
const MAX_LINE: usize = 1_000;
/// Recipients a message may have.
const MAX_RECIPIENTS: usize = 10;

/// Accepts SMTP connections on `listener` until the process ends.
pub async fn serve(listener: TcpListener, service: Arc<Service>) {
    let slots = Arc::new(Semaphore::new(CONNECTIONS));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                tracing::warn!("SMTP accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            let mut stream = stream;
            let _ = stream
                .write_all(b"421 4.7.0 too many connections, try again later\r\n")
                .await;
            continue;
        };
        let service = service.clone();
        tokio::spawn(async move {
            if let Err(e) = session(stream, &service).await {
                tracing::debug!("SMTP session with {peer}: {e}");
            }
            drop(slot);
        });
    }
}

/// Reads one line (without its line ending); `None` at the end of input.
/// An over-long line is read to its end and given as `Err`.
async fn read_line(
    reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
    limit: usize,
) -> std::io::Result<Option<Result<Vec<u8>, usize>>> {
    let mut line = Vec::new();
    let mut total = 0;
    loop {
        let buffer = match tokio::time::timeout(IDLE, reader.fill_buf()).await {
            Ok(read) => read?,
            Err(_) => return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "idle")),
        };
        if buffer.is_empty() {
            return Ok((total > 0).then_some(Err(total)));
        }
        let (chunk, found) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..=at], true),
            None => (buffer, false),
        };
        let n = chunk.len();
        total += n;
        if line.len() < limit + 2 {
            line.extend_from_slice(&chunk[..n.min(limit + 2 - line.len())]);
        }
        reader.consume(n);
        if found {
            while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                line.pop();
            }
            return Ok(Some(if total > limit + 2 {
                Err(total)
            } else {
                Ok(line)
            }));
        }
    }
}

/// One client's conversation.
async fn session(stream: TcpStream, service: &Arc<Service>) -> std::io::Result<()> {
    let Some(settings) = service.mail_settings().cloned() else {
        return Ok(());
    };
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    let greeting = format!("220 {} Epaminondas ESMTP ready\r\n", settings.domain);
    write.write_all(greeting.as_bytes()).await?;
    let mut envelope: Option<Envelope> = None;
    loop {
        let line = match read_line(&mut reader, MAX_LINE).await? {
            None => return Ok(()),
            Some(Err(_)) => {
                write.write_all(b"500 5.5.2 line too long\r\n").await?;
                continue;
            }
            Some(Ok(line)) => String::from_utf8_lossy(&line).into_owned(),
        };
        let upper = line.to_ascii_uppercase();
        let verb = upper.split_whitespace().next().unwrap_or("").to_owned();
        let reply = match verb.as_str() {
            "EHLO" => format!(
                "250-{}\r\n250-SIZE {}\r\n250 8BITMIME",
                settings.domain, settings.max_message_bytes
            ),
            "HELO" => format!("250 {}", settings.domain),
            "MAIL" if upper.starts_with("MAIL FROM:") => {
                let rest = line["MAIL FROM:".len()..].trim();
                let (path, params) = split_path(rest);
                let size = params
                    .split_whitespace()
                    .find_map(|p| {
                        p.to_ascii_uppercase()
                            .strip_prefix("SIZE=")
                            .map(str::to_owned)
                    })
                    .and_then(|v| v.parse::<usize>().ok());
                if size.is_some_and(|s| s > settings.max_message_bytes) {
                    format!(
                        "552 5.3.4 the limit is {} bytes",
                        settings.max_message_bytes
                    )
                } else {
                    envelope = Some(Envelope {
                        mail_from: Some(path),
                        rcpt_to: Vec::new(),
                    });
                    "250 2.1.0 OK".to_owned()
                }
            }
            "RCPT" if upper.starts_with("RCPT TO:") => {
                let (path, _) = split_path(line["RCPT TO:".len()..].trim());
                match envelope.as_mut() {
                    None => "503 5.5.1 MAIL first".to_owned(),
                    Some(env) if env.rcpt_to.len() >= MAX_RECIPIENTS => {
                        "452 4.5.3 too many recipients".to_owned()
                    }
                    Some(env) => {
                        if settings.token_of(&path).is_some() {
                            env.rcpt_to.push(path);
                            "250 2.1.5 OK".to_owned()
                        } else {
                            format!(
                                "550 5.1.1 no such mailbox here: only {} takes mail",
                                settings.address()
                            )
                        }
                    }
                }
            }
            "DATA" => match envelope.take() {
                Some(env) if !env.rcpt_to.is_empty() => {
                    write
                        .write_all(b"354 end data with <CR><LF>.<CR><LF>\r\n")
                        .await?;
                    let reply = receive_data(&mut reader, service, &settings, &env).await?;
                    reply.to_owned()
                }
                other => {
                    envelope = other;
                    "503 5.5.1 RCPT first".to_owned()
                }
            },
            "RSET" => {
                envelope = None;
                "250 2.0.0 OK".to_owned()
            }
            "NOOP" => "250 2.0.0 OK".to_owned(),
            "VRFY" => "252 2.5.2 send some mail, it will be answered".to_owned(),
            "QUIT" => {
                write.write_all(b"221 2.0.0 bye\r\n").await?;
                return Ok(());
            }
            _ => "502 5.5.2 command not recognised".to_owned(),
        };
        write.write_all(format!("{reply}\r\n").as_bytes()).await?;
    }
}

/// `<path> params` into the path (without brackets) and the parameters.
fn split_path(text: &str) -> (String, String) {
    let text = text.trim();
    match (text.find('<'), text.find('>')) {
        (Some(open), Some(close)) if open < close => (
            text[open + 1..close].trim().to_owned(),
            text[close + 1..].trim().to_owned(),
        ),
        _ => {
            let mut words = text.splitn(2, ' ');
            (
                words.next().unwrap_or("").to_owned(),
                words.next().unwrap_or("").to_owned(),
            )
        }
    }
}

/// Reads a message after `DATA` (dot-unstuffed, to the lone `.`), hands it
/// to the service, and says what to answer.
async fn receive_data(
    reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
    service: &Arc<Service>,
    settings: &super::MailSettings,
    envelope: &Envelope,
) -> std::io::Result<String> {
    let mut message = Vec::new();
    let mut too_large = false;
    loop {
        let line = match read_line(reader, settings.max_message_bytes).await? {
            None => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the message ended without its final dot",
                ));
            }
            Some(Err(_)) => {
                too_large = true;
                continue;
            }
            Some(Ok(line)) => line,
        };
        if line == b"." {
            break;
        }
        let line = line.strip_prefix(b".").unwrap_or(&line);
        if message.len() + line.len() + 2 > settings.max_message_bytes {
            too_large = true;
            continue;
        }
        message.extend_from_slice(line);
        message.extend_from_slice(b"\r\n");
    }
    if too_large {
        return Ok(format!(
            "552 5.3.4 the message is larger than {} bytes",
            settings.max_message_bytes
        ));
    }
    Ok(match service.receive_mail(&message, envelope).await {
        Ok(outcome) => match outcome.ignored {
            Some(why) => format!("250 2.0.0 received; not answered: {why}"),
            None => "250 2.0.0 received and answered".to_owned(),
        },
        Err(crate::error::Error::Internal(e)) => {
            tracing::error!("handling a mailed message: {e}");
            "451 4.3.0 a fault on the server; try again later".to_owned()
        }
        Err(e) => format!("550 5.6.0 {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_with_and_without_brackets() {
        assert_eq!(
            split_path("<alice@example.org> SIZE=100"),
            ("alice@example.org".to_owned(), "SIZE=100".to_owned())
        );
        assert_eq!(split_path("<>"), (String::new(), String::new()));
        assert_eq!(
            split_path("bob@example.org"),
            ("bob@example.org".to_owned(), String::new())
        );
    }
}
