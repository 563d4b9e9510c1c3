//! `epaminondas serve`: the game server, and `epaminondas pbm`: one pbmserv
//! command sent to a server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::output::{Failure, Outcome, out, outln};
use clap::Args;
use epaminondas_server::clock::SystemClock;
use epaminondas_server::http::HttpConfig;
use epaminondas_server::mail::MailSettings;
use epaminondas_server::service::{RateLimits, Service, Settings};

/// Arguments of `epaminondas serve`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas serve\n  epaminondas serve --listen 0.0.0.0:8080 --public-url https://epaminondas.example.org --trusted-proxy 127.0.0.1\n  epaminondas serve --database postgres://USER:PASSWORD@HOST/DB --listen 127.0.0.1:8081\n  epaminondas serve --public-url https://epaminondas.example.org --mail-domain epaminondas.example.org --smtp-listen 127.0.0.1:2525 --smtp-relay smtp://127.0.0.1:25"
)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Where the SQLite database is kept (created if missing). Default:
    /// $EPAMINONDAS_DATA, else ~/.local/share/epaminondas.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// A database URL instead of the data directory's SQLite file:
    /// sqlite://FILE or postgres://USER:PASSWORD@HOST/DB (several server
    /// processes may share one PostgreSQL database).
    #[arg(long)]
    database: Option<String>,
    /// Engine searches at once, for games against the computer and
    /// analyses together (default: one less than the CPU cores, at least 1).
    #[arg(long)]
    engine_workers: Option<usize>,
    /// Of the engine workers, how many may run analyses; a game against the
    /// computer stops an analysis rather than wait (default: half of the
    /// workers, at least 1).
    #[arg(long)]
    analysis_workers: Option<usize>,
    /// Vacation days each player may take a calendar year: their
    /// correspondence clocks stop meanwhile, and a player whose time runs
    /// out uses a day automatically unless they switched that off.
    #[arg(long, default_value_t = epaminondas_server::service::DEFAULT_VACATION_DAYS, value_parser = clap::value_parser!(i64).range(0..=366))]
    vacation_days: i64,
    /// Engine milliseconds per position of a finished game's computer
    /// analysis (run in the background on the analysis workers).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(10..=10_000))]
    game_analysis_ms: u64,
    /// Sign-ups per address per minute, and failed sign-ins per address per
    /// minute after which that address gets one try per account.
    #[arg(long, default_value_t = 30)]
    auth_rate: u32,
    /// Guest accounts per address per minute.
    #[arg(long, default_value_t = 30)]
    guest_rate: u32,
    /// A reverse proxy (address or CIDR network, e.g. 127.0.0.1 or
    /// 10.0.0.0/8) whose `Forwarded` / `X-Forwarded-For` headers name the
    /// client; repeat for several. Without it the peer address is the client.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    trusted_proxies: Vec<String>,
    /// The site's public address (e.g. `https://epaminondas.example.org`):
    /// with https the session cookie is `Secure` and HSTS is sent, and pages
    /// from that origin may call the API through a proxy that rewrites Host.
    #[arg(long)]
    public_url: Option<String>,
    /// Mark the session cookie `Secure` even without an https public URL
    /// (the site is served over HTTPS by a proxy).
    #[arg(long)]
    secure_cookies: bool,
    /// The domain of the server's mail addresses: commands go to
    /// pbm@DOMAIN. Needed for any mail.
    #[arg(long, value_name = "DOMAIN")]
    mail_domain: Option<String>,
    /// Receive mail over SMTP on this address (e.g. 127.0.0.1:2525), for
    /// the mail domain's addresses only.
    #[arg(long, value_name = "ADDR", requires = "mail_domain")]
    smtp_listen: Option<SocketAddr>,
    /// Send mail through this SMTP relay: smtp://HOST:PORT, or
    /// smtps://USER:PASSWORD@HOST:465 (default: $EPAMINONDAS_SMTP_RELAY,
    /// which keeps a password out of the process list; without either no
    /// mail is sent).
    #[arg(long, value_name = "URL", requires = "mail_domain")]
    smtp_relay: Option<String>,
    /// The token `epaminondas mail-in` must send from another machine
    /// (default: $EPAMINONDAS_MAIL_IN_TOKEN; without one only this machine
    /// may post mail).
    #[arg(long, value_name = "TOKEN")]
    mail_in_token: Option<String>,
}

/// Reads a `--trusted-proxy` value: an address or a CIDR network.
fn proxy_network(text: &str) -> Result<ipnet::IpNet, String> {
    if let Ok(net) = text.parse::<ipnet::IpNet>() {
        return Ok(net);
    }
    text.parse::<std::net::IpAddr>()
        .map(ipnet::IpNet::from)
        .map_err(|_| {
            format!("--trusted-proxy {text:?}: expected an address or a network like 10.0.0.0/8")
        })
}

fn data_dir(given: Option<&PathBuf>) -> Result<PathBuf, String> {
    if let Some(dir) = given {
        return Ok(dir.clone());
    }
    if let Some(dir) = std::env::var_os("EPAMINONDAS_DATA") {
        return Ok(PathBuf::from(dir));
    }
    let home = std::env::var_os("HOME").ok_or("HOME is not set: give --data-dir")?;
    Ok(PathBuf::from(home).join(".local/share/epaminondas"))
}

/// The database URL `--database` gives, else the data directory's SQLite
/// file (the directory is made if missing).
fn database_url(database: Option<&String>, dir: Option<&PathBuf>) -> Result<String, String> {
    match database {
        Some(url) => Ok(url.clone()),
        None => {
            let dir = data_dir(dir)?;
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create the data directory {}: {e}", dir.display()))?;
            Ok(format!("sqlite://{}", dir.join("epaminondas.db").display()))
        }
    }
}

/// Arguments of `epaminondas reports`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  epaminondas reports
  epaminondas reports --database postgres://USER:PASSWORD@HOST/DB --limit 100")]
pub struct ReportsArgs {
    /// The server's data directory (as `serve --data-dir`).
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// The server's database URL instead (as `serve --database`).
    #[arg(long)]
    database: Option<String>,
    /// How many reports, newest first.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(i64).range(1..=10_000))]
    limit: i64,
}

/// Runs `epaminondas reports`: the chat messages players reported, for the
/// site's operator.
pub fn reports(args: &ReportsArgs) -> Outcome {
    let url = database_url(args.database.as_ref(), args.data_dir.as_ref())?;
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| Failure::Run(format!("cannot start: {e}")))?;
    let rows = runtime.block_on(async {
        let db = epaminondas_server::db::Database::open(&url)
            .await
            .map_err(|e| e.to_string())?;
        epaminondas_server::store::chat_reports(&db, args.limit)
            .await
            .map_err(|e| e.to_string())
    })?;
    if rows.is_empty() {
        outln!("No chat message has been reported.");
    }
    for r in rows {
        outln!(
            "report {} on {}: game {}, {} wrote {:?}; reported by {}: {}",
            r.id,
            epaminondas_server::pbm::text::utc_time(r.created_at),
            r.game_id,
            r.author,
            r.body,
            r.reporter,
            r.reason
        );
    }
    Ok(())
}

/// Runs `epaminondas serve`.
pub fn run(args: &ServeArgs) -> Outcome {
    let url = database_url(args.database.as_ref(), args.data_dir.as_ref())?;
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    let engine_workers = args
        .engine_workers
        .unwrap_or(cores.saturating_sub(1).max(1))
        .max(1);
    let mut http = HttpConfig::for_public_url(args.public_url.as_deref());
    http.secure_cookies |= args.secure_cookies;
    http.mail_in_token = args
        .mail_in_token
        .clone()
        .or_else(|| std::env::var("EPAMINONDAS_MAIL_IN_TOKEN").ok())
        .filter(|t| !t.trim().is_empty());
    let smtp_relay = args
        .smtp_relay
        .clone()
        .or_else(|| std::env::var("EPAMINONDAS_SMTP_RELAY").ok())
        .filter(|r| !r.trim().is_empty());
    if smtp_relay.is_some() && args.mail_domain.is_none() {
        return Err(Failure::Input(
            "a mail relay is set but no --mail-domain: the server needs its mail domain to send"
                .into(),
        ));
    }
    if let Some(relay) = &smtp_relay
        && !(relay.starts_with("smtp://") || relay.starts_with("smtps://"))
    {
        return Err(format!(
            "--smtp-relay {}: expected smtp://HOST:PORT or smtps://USER:PASSWORD@HOST:PORT",
            epaminondas_server::db::redact(relay)
        )
        .into());
    }
    let site_url = args
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{}", args.listen));
    let mail = args
        .mail_domain
        .as_deref()
        .map(|domain| MailSettings::new(domain, &site_url, smtp_relay.clone()));
    http.trusted_proxies = args
        .trusted_proxies
        .iter()
        .map(|p| proxy_network(p))
        .collect::<Result<_, _>>()?;
    let settings = Settings {
        database_url: url.clone(),
        clock: Arc::new(SystemClock),
        limits: RateLimits {
            signups_per_minute: args.auth_rate,
            failures_per_address: args.auth_rate,
            guests_per_minute: args.guest_rate,
            ..RateLimits::default()
        },
        engine_workers,
        analysis_workers: args
            .analysis_workers
            .unwrap_or(engine_workers.div_ceil(2))
            .clamp(1, engine_workers),
        engine_time: Duration::from_millis(1500),
        sweep_every: Some(Duration::from_secs(1)),
        mail,
        vacation_days: args.vacation_days,
        game_analysis_time: Duration::from_millis(args.game_analysis_ms),
    };
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| Failure::Run(format!("cannot start: {e}")))?;
    runtime
        .block_on(async move {
            let service = Service::start(settings).await.map_err(|e| e.to_string())?;
            let listener = tokio::net::TcpListener::bind(args.listen)
                .await
                .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
            if let Some(address) = args.smtp_listen {
                let smtp = tokio::net::TcpListener::bind(address)
                    .await
                    .map_err(|e| format!("cannot listen for mail on {address}: {e}"))?;
                eprintln!(
                    "receiving mail for {} on smtp://{address}",
                    args.mail_domain.as_deref().unwrap_or("")
                );
                tokio::spawn(epaminondas_server::mail::smtp::serve(smtp, service.clone()));
            }
            if let Some(relay) = &args.smtp_relay {
                eprintln!(
                    "sending mail through {}",
                    epaminondas_server::db::redact(relay)
                );
            }
            eprintln!(
                "epaminondas server on http://{} (database {})",
                args.listen,
                epaminondas_server::db::redact(&url)
            );
            let shutdown = async {
                let _ = tokio::signal::ctrl_c().await;
            };
            epaminondas_server::serve(listener, service, http, shutdown)
                .await
                .map_err(|e| format!("server failed: {e}"))
        })
        .map_err(Failure::Run)
}

/// Arguments of `epaminondas pbm`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas pbm help\n  epaminondas pbm epaminondas challenge -size=8x8 alice bob alice-password\n  epaminondas pbm epaminondas move 102 alice alice-password e1,e2-e3#1"
)]
pub struct PbmArgs {
    /// The server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    server: String,
    /// The command's words, as in a pbmserv e-mail subject, e.g.
    /// `epaminondas board 101`.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    words: Vec<String>,
}

/// Runs `epaminondas pbm`: prints the reply; fails when it is an error.
pub fn run_pbm(args: &PbmArgs) -> Outcome {
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| Failure::Run(format!("cannot start: {e}")))?;
    let url = format!("{}/pbm", args.server.trim_end_matches('/'));
    let (ok, text) = runtime
        .block_on(async {
            let response = reqwest::Client::new()
                .post(&url)
                .header("content-type", "text/plain")
                .body(args.words.join(" "))
                .send()
                .await
                .map_err(|e| format!("cannot reach {url}: {e}"))?;
            let ok = response.status().is_success();
            let text = response
                .text()
                .await
                .map_err(|e| format!("reading the reply: {e}"))?;
            Ok::<_, String>((ok, text))
        })
        .map_err(Failure::Run)?;
    out!("{text}");
    // The reply comes before any complaint on standard error.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    if ok {
        Ok(())
    } else {
        Err(Failure::Run("the server refused the command".into()))
    }
}

/// Arguments of `epaminondas mail-in`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    epaminondas mail-in --sender alice@example.org --recipient pbm@example.org < message.eml\n  \
    (Postfix master.cf) epaminondas unix - n n - - pipe flags=Rq user=epaminondas argv=/usr/local/bin/epaminondas mail-in --sender ${sender} --recipient ${recipient}")]
pub struct MailInArgs {
    /// The server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    server: String,
    /// The envelope sender (return path); empty for a bounce. Default:
    /// $SENDER.
    #[arg(long)]
    sender: Option<String>,
    /// An envelope recipient; repeatable. Default: $RECIPIENT, else the
    /// message's own To and Cc.
    #[arg(long = "recipient")]
    recipients: Vec<String>,
    /// The token the server was given with --mail-in-token (default:
    /// $EPAMINONDAS_MAIL_IN_TOKEN; not needed on the server's own machine).
    #[arg(long)]
    token: Option<String>,
}

/// The most bytes `mail-in` reads (the server refuses larger messages itself).
const MAIL_IN_LIMIT: u64 = 16 << 20;

/// Runs `epaminondas mail-in`: hands the message on standard input to the
/// server. A server that cannot be reached, or fails, gets status 75 so
/// that the mail server keeps the message and tries again.
pub fn run_mail_in(args: &MailInArgs) -> Outcome {
    use std::io::Read;
    let mut message = Vec::new();
    std::io::stdin()
        .take(MAIL_IN_LIMIT + 1)
        .read_to_end(&mut message)
        .map_err(|e| Failure::TryLater(format!("cannot read the message: {e}")))?;
    if message.len() as u64 > MAIL_IN_LIMIT {
        return Err(format!("the message is larger than {} MiB", MAIL_IN_LIMIT >> 20).into());
    }
    let sender = args.sender.clone().or_else(|| std::env::var("SENDER").ok());
    let mut recipients = args.recipients.clone();
    if recipients.is_empty()
        && let Ok(recipient) = std::env::var("RECIPIENT")
    {
        recipients.push(recipient);
    }
    let token = args
        .token
        .clone()
        .or_else(|| std::env::var("EPAMINONDAS_MAIL_IN_TOKEN").ok());
    let url = format!("{}/api/mail/inbound", args.server.trim_end_matches('/'));
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| Failure::TryLater(format!("cannot start: {e}")))?;
    let (status, text) = runtime.block_on(async {
        let mut request = reqwest::Client::new()
            .post(&url)
            .header("content-type", "message/rfc822")
            .body(message);
        if let Some(sender) = &sender {
            request = request.header("x-envelope-from", sender.as_str());
        }
        if !recipients.is_empty() {
            request = request.header("x-envelope-to", recipients.join(","));
        }
        if let Some(token) = &token {
            request = request.bearer_auth(token);
        }
        let response = request
            .send()
            .await
            .map_err(|e| Failure::TryLater(format!("cannot reach {url}: {e}")))?;
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        Ok::<_, Failure>((status, text))
    })?;
    if status.is_server_error() {
        return Err(Failure::TryLater(format!(
            "the server failed ({status}): {text}"
        )));
    }
    if !status.is_success() {
        return Err(Failure::Run(format!(
            "the server refused the message ({status}): {text}"
        )));
    }
    out!("{}", mail_in_report(&text));
    Ok(())
}

/// What the server did with a message, in words, from its JSON answer.
fn mail_in_report(answer: &str) -> String {
    let Ok(answer) = serde_json::from_str::<serde_json::Value>(answer) else {
        return format!("{answer}\n");
    };
    if let Some(why) = answer["ignored"].as_str() {
        return format!("Ignored: {why}\n");
    }
    let mut report: String = answer["answers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str())
        .map(|a| format!("{}\n", a.trim_end()))
        .collect();
    report.push_str(if answer["replied"].as_bool() == Some(true) {
        "(this answer was mailed to the sender)\n"
    } else {
        "(no answer was mailed: the sender has no verified address here)\n"
    });
    report
}
