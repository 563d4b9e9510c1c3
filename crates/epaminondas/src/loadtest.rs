//! `epaminondas loadtest`: plays many games at once through a server's JSON
//! API, as real clients would (each move a validated HTTP request with an
//! API token), and reports the moves per second and the latency
//! percentiles of the move requests.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::output::{Failure, Outcome, outln};
use clap::Args;
use epaminondas_rules::{BoardSize, Position, Symmetry};
use serde_json::{Value, json};

/// Arguments of `epaminondas loadtest`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  epaminondas loadtest --seconds 15\n  epaminondas loadtest --server http://127.0.0.1:8090 --games 64 --players 16 --board 8x8"
)]
pub struct LoadArgs {
    /// The server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    server: String,
    /// Games played at once.
    #[arg(long, default_value_t = 64)]
    games: usize,
    /// Player accounts to make (each signs up once; the server limits
    /// sign-ups per address per minute).
    #[arg(long, default_value_t = 16)]
    players: usize,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// The board, files x ranks.
    #[arg(long, default_value = "14x12")]
    board: BoardSize,
}

struct Client {
    http: reqwest::Client,
    base: String,
}

impl Client {
    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Value,
    ) -> Result<Value, String> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.map_err(|e| format!("{path}: {e}"))?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if status.is_success() {
            Ok(body)
        } else {
            Err(format!("{path}: {status} {}", body["error"]))
        }
    }
}

/// Makes one player: signs up, and makes a play token with the session.
async fn player(client: &Client, name: &str) -> Result<String, String> {
    let url = format!("{}/api/signup", client.base);
    let response = client
        .http
        .post(&url)
        .json(&json!({"name": name, "password": "load-test-password", "email": format!("{name}@example.org")}))
        .send()
        .await
        .map_err(|e| format!("sign-up: {e}"))?;
    if !response.status().is_success() {
        return Err(format!("sign-up of {name}: {}", response.status()));
    }
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string)
        .ok_or("sign-up gave no session cookie")?;
    let body: Value = response.json().await.map_err(|e| e.to_string())?;
    let csrf = body["csrf"].as_str().unwrap_or_default().to_string();
    let response = client
        .http
        .post(format!("{}/api/tokens", client.base))
        .header("cookie", cookie)
        .header("x-csrf-token", csrf)
        .json(&json!({"label": "loadtest", "scopes": ["play"]}))
        .send()
        .await
        .map_err(|e| format!("token: {e}"))?;
    let body: Value = response.json().await.map_err(|e| e.to_string())?;
    body["token"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("no token: {body}"))
}

/// A small deterministic generator for picking moves.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[derive(Default)]
struct Totals {
    moves: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
}

/// Plays games between `white` and `black` (each a name and a token) until
/// `stop`, recording each move request's latency in microseconds.
async fn play_games(
    client: Arc<Client>,
    players: [(String, String); 2],
    size: BoardSize,
    seed: u64,
    stop: Arc<AtomicBool>,
    totals: Arc<Totals>,
) -> Vec<u32> {
    let mut latencies = Vec::new();
    let mut rng = XorShift(seed | 1);
    let tokens = [players[0].1.clone(), players[1].1.clone()];
    while !stop.load(Ordering::Relaxed) {
        let challenge = json!({"opponent": players[1].0, "board": size.to_string(), "color": "white",
                               "rated": false, "time": {"kind": "unlimited"}});
        let made = client
            .send(
                reqwest::Method::POST,
                "/api/challenges",
                Some(&tokens[0]),
                challenge,
            )
            .await;
        let Ok(made) = made else {
            totals.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let id = made["challenge"]["id"].as_i64().unwrap_or(0);
        let accepted = client
            .send(
                reqwest::Method::POST,
                &format!("/api/challenges/{id}/accept"),
                Some(&tokens[1]),
                Value::Null,
            )
            .await;
        let Ok(accepted) = accepted else {
            totals.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let game = accepted["game"]["id"].as_i64().unwrap_or(0);
        let mut pos = Position::new(size, Symmetry::default());
        let path = format!("/api/games/{game}/moves");
        while !pos.is_terminal() && !stop.load(Ordering::Relaxed) {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len())];
            let token = &tokens[pos.turn().index()];
            let started = Instant::now();
            let sent = client
                .send(
                    reqwest::Method::POST,
                    &path,
                    Some(token),
                    json!({"move": mv.to_string(), "ply": null}),
                )
                .await;
            latencies.push(u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX));
            if let Err(e) = sent {
                eprintln!("move refused: {e}");
                totals.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
            totals.moves.fetch_add(1, Ordering::Relaxed);
            pos.play_unchecked(mv);
        }
        totals.games.fetch_add(1, Ordering::Relaxed);
    }
    latencies
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// Runs `epaminondas loadtest`.
pub fn run(args: &LoadArgs) -> Outcome {
    if args.players < 2 || args.games == 0 {
        return Err("a load test needs at least 2 players and 1 game".into());
    }
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| Failure::Run(format!("cannot start: {e}")))?;
    runtime.block_on(async {
        let client = Arc::new(Client {
            http: reqwest::Client::builder()
                .pool_max_idle_per_host(args.games * 2)
                .build()
                .map_err(|e| e.to_string())?,
            base: args.server.trim_end_matches('/').to_string(),
        });
        let run_id = std::process::id();
        let mut players = Vec::new();
        for i in 0..args.players {
            let name = format!("load{run_id}x{i}");
            let token = player(&client, &name).await?;
            players.push((name, token));
        }
        eprintln!("{} players signed up; playing {} games at once for {} s", args.players, args.games, args.seconds);
        let stop = Arc::new(AtomicBool::new(false));
        let totals = Arc::new(Totals::default());
        let started = Instant::now();
        let mut tasks = Vec::new();
        for g in 0..args.games {
            let pair = [
                players[g % args.players].clone(),
                players[(g + 1) % args.players].clone(),
            ];
            tasks.push(tokio::spawn(play_games(
                client.clone(),
                pair,
                args.board,
                0x9E37_79B9_7F4A_7C15 ^ (g as u64 + 1),
                stop.clone(),
                totals.clone(),
            )));
        }
        tokio::time::sleep(Duration::from_secs(args.seconds)).await;
        stop.store(true, Ordering::Relaxed);
        let mut latencies = Vec::new();
        for task in tasks {
            latencies.extend(task.await.unwrap_or_default());
        }
        let elapsed = started.elapsed().as_secs_f64();
        latencies.sort_unstable();
        let moves = totals.moves.load(Ordering::Relaxed);
        outln!(
            "moves {moves} in {elapsed:.1} s: {:.0} moves/s; games finished or stopped {}; errors {}",
            moves as f64 / elapsed,
            totals.games.load(Ordering::Relaxed),
            totals.errors.load(Ordering::Relaxed)
        );
        outln!(
            "move latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
            percentile(&latencies, 0.5),
            percentile(&latencies, 0.9),
            percentile(&latencies, 0.99),
            percentile(&latencies, 1.0)
        );
        if totals.errors.load(Ordering::Relaxed) > 0 {
            return Err("some requests failed".to_owned());
        }
        Ok(())
    })
    .map_err(Failure::Run)
}
