//! The holes an outside test found, each tried over real HTTP (and the
//! pbmserv door) as an attacker would: the engine stalled by anonymous
//! analyses, games created between any two users, tokens revoking their
//! siblings, a rate limit that locked out correct users, and the smaller
//! ones (headers, cookies, other sites' pages, guest sign-out, seek floods,
//! echoed input, impersonating names). Each test failed on the server as
//! it was before the fixes.

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Socket, TestDb, TestServer, User};
use epaminondas_server::clock::ManualClock;
use epaminondas_server::http::HttpConfig;
use epaminondas_server::service::RateLimits;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A server on a fresh SQLite database that believes the forwarded
/// addresses its loopback peers send, so that one test can play clients at
/// many addresses.
async fn behind_proxy(limits: RateLimits) -> (TestServer, TestDb) {
    let db = common::database(common::Db::Sqlite).await.expect("SQLite");
    let clock = Arc::new(ManualClock::new());
    let config = HttpConfig {
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..HttpConfig::default()
    };
    let settings = common::settings(&db.url, clock.clone(), limits);
    (common::start_with(settings, clock, config).await, db)
}

/// A request from the client at `ip` (as the trusted proxy forwards it).
fn from(
    server: &TestServer,
    method: reqwest::Method,
    path: &str,
    ip: &str,
) -> reqwest::RequestBuilder {
    server
        .http
        .request(method, format!("{}{path}", server.base))
        .header("x-forwarded-for", ip)
}

async fn sign_in(server: &TestServer, name: &str, password: &str, ip: &str) -> StatusCode {
    from(server, reqwest::Method::POST, "/api/signin", ip)
        .json(&json!({"name": name, "password": password}))
        .send()
        .await
        .expect("sign-in")
        .status()
}

/// Starts an analysis of the standard start for `ms` from `ip`; the status
/// and the NDJSON lines once it ends.
async fn analysis(
    server: &TestServer,
    ip: &str,
    ms: u64,
    cookie: Option<&str>,
) -> (StatusCode, Vec<Value>) {
    let mut request = from(server, reqwest::Method::POST, "/api/analysis/engine", ip)
        .json(&json!({"line": {}, "movetime_ms": ms}));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let response = request.send().await.expect("analysis");
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    let lines = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or(Value::String(l.to_string())))
        .collect();
    (status, lines)
}

// ---- 1. the engine ----

/// Four anonymous ten-second analyses from four addresses, then a guest's
/// game against the computer at level 3 where the computer moves first:
/// its move comes at once (it took 34 s before), because the analysis on
/// the only worker is stopped for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_never_delay_the_computer_s_moves() {
    let (server, _db) = behind_proxy(common::loose_limits()).await;
    let server = Arc::new(server);
    let mut attacks = Vec::new();
    for i in 0..4 {
        let server = server.clone();
        attacks.push(tokio::spawn(async move {
            analysis(&server, &format!("198.51.100.{i}"), 10_000, None).await
        }));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A guest plays the computer as Black: the computer moves first.
    let response = from(&server, reqwest::Method::POST, "/api/guest", "203.0.113.5")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie = common::session_cookie(&response);
    let guest: Value = response.json().await.unwrap();
    let started = Instant::now();
    let made = from(
        &server,
        reqwest::Method::POST,
        "/api/challenges",
        "203.0.113.5",
    )
    .header("cookie", &cookie)
    .header("x-csrf-token", guest["csrf"].as_str().unwrap())
    // On 12x10, which has no opening book: the first move is searched.
    .json(&json!({"level": 3, "color": "black", "board": "12x10"}))
    .send()
    .await
    .unwrap();
    assert_eq!(made.status(), StatusCode::CREATED);
    let id = made.json::<Value>().await.unwrap()["game"]["id"]
        .as_i64()
        .unwrap();
    let mut watch = Socket::connect(&format!("{}/api/games/{id}/stream", server.ws), None).await;
    watch.until(|m| m["game"]["ply"].as_u64() >= Some(1)).await;
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(4),
        "the computer's move waited {waited:?} behind analyses"
    );
    let mut stopped = 0;
    for attack in attacks {
        let (status, lines) = attack.await.unwrap();
        assert!(
            [StatusCode::OK, StatusCode::SERVICE_UNAVAILABLE].contains(&status),
            "{status} {lines:?}"
        );
        if status == StatusCode::OK {
            let last = lines.last().expect("a last line");
            assert_eq!(last["done"], true, "{lines:?}");
            if last["stopped"].is_string() {
                stopped += 1;
            }
        }
    }
    assert!(stopped >= 1, "an analysis gave way to the game");
}

/// One analysis at a time per client, and an allowance of engine time per
/// client; a signed-in user is counted as themselves, not by address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_is_limited_per_client() {
    let limits = RateLimits {
        analysis_burst_ms: 1_000,
        analysis_refill_ms_per_s: 100,
        ..common::loose_limits()
    };
    let (server, _db) = behind_proxy(limits).await;
    let server = Arc::new(server);
    let first = {
        let server = server.clone();
        tokio::spawn(async move { analysis(&server, "198.51.100.7", 600, None).await })
    };
    tokio::time::sleep(Duration::from_millis(150)).await;
    let (status, _) = analysis(&server, "198.51.100.7", 100, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "one at a time");
    let (status, lines) = first.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{lines:?}");
    // The first search spent more than 300 of the 1000 ms (a search stops
    // early only after half its time, and what it leaves is given back;
    // how much depends on the machine's load): 800 more is over the
    // allowance.
    let response = from(
        &server,
        reqwest::Method::POST,
        "/api/analysis/engine",
        "198.51.100.7",
    )
    .json(&json!({"line": {}, "movetime_ms": 800}))
    .send()
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(response.headers().contains_key("retry-after"));
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert!(
        body["error"].as_str().unwrap().contains("engine time"),
        "{body}"
    );
    // Another address has its own allowance; time refills the first's.
    assert_eq!(
        analysis(&server, "198.51.100.8", 300, None).await.0,
        StatusCode::OK
    );
    server.clock.advance(10_000);
    assert_eq!(
        analysis(&server, "198.51.100.7", 300, None).await.0,
        StatusCode::OK
    );
    // Longer than the cap is refused outright.
    assert_eq!(
        analysis(&server, "198.51.100.9", 60_000, None).await.0,
        StatusCode::BAD_REQUEST
    );
}

// ---- 2. challenges need the challenger's password and the opponent's consent ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pbm_challenges_need_a_password_and_an_answer() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    for (name, pw) in [
        ("alice", "alice-pw-1"),
        ("bob", "bob-pw-12"),
        ("carol", "carol-pw-1"),
    ] {
        let (status, reply) = server
            .pbm(&format!("signup {name} {pw} {name}@example.org"))
            .await;
        assert_eq!(status, StatusCode::OK, "{reply}");
    }
    // The old form, without a password, makes nothing.
    let (status, reply) = server.pbm("epaminondas challenge alice bob").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
    assert!(reply.contains("PASSWORD"), "{reply}");
    // Nobody can challenge in another's name.
    let (status, _) = server
        .pbm("epaminondas challenge alice bob carol-pw-1")
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, reply) = server
        .pbm("epaminondas challenge alice bob alice-pw-1")
        .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let number: i64 = reply.split_whitespace().nth(1).unwrap().parse().unwrap();
    // No game exists until Bob answers.
    let (_, games) = server.pbm("epaminondas games bob").await;
    assert!(games.contains("none"), "{games}");
    assert!(games.contains(&format!("challenge {number:>4}")), "{games}");
    let (_, listed) = server.call("GET", "/api/users/bob/games", None, None).await;
    assert_eq!(listed["games"].as_array().unwrap().len(), 0);
    // Only Bob may answer; Carol cannot accept it for him.
    let (status, _) = server
        .pbm(&format!("epaminondas accept {number} carol carol-pw-1"))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, reply) = server
        .pbm(&format!("epaminondas reject {number} bob bob-pw-12"))
        .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert!(reply.contains("declined"), "{reply}");
    let (status, _) = server
        .pbm(&format!("epaminondas accept {number} bob bob-pw-12"))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "answered already");
    // A flood stops at the cap of open challenges.
    let mut made = 0;
    for _ in 0..25 {
        let (status, _) = server
            .pbm("epaminondas challenge alice bob alice-pw-1")
            .await;
        if status == StatusCode::OK {
            made += 1;
        } else {
            assert_eq!(status, StatusCode::CONFLICT);
        }
    }
    assert_eq!(made, 20);
    let (_, listed) = server.call("GET", "/api/users/bob/games", None, None).await;
    assert_eq!(
        listed["games"].as_array().unwrap().len(),
        0,
        "still no game"
    );
}

// ---- 3. tokens ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_managed_from_password_sessions_only() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    let alice = server.user("alicet", false, &["read"]).await;
    let (_, listed) = with_session(&server, &alice, "GET", "/api/tokens", None).await;
    let read_id = listed["tokens"][0]["id"].as_i64().unwrap();
    let (status, made) = with_session(
        &server,
        &alice,
        "POST",
        "/api/tokens",
        Some(json!({"label": "second", "scopes": ["play"]})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let play_id = made["id"].as_i64().unwrap();
    // A token can neither list, make nor revoke tokens, its siblings or itself.
    for (method, path) in [
        ("GET", "/api/tokens".to_string()),
        ("DELETE", format!("/api/tokens/{play_id}")),
        ("DELETE", format!("/api/tokens/{read_id}")),
    ] {
        let (status, body) = server.call(method, &path, Some(&alice.token), None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {body}");
    }
    let (status, _) = server
        .call(
            "POST",
            "/api/tokens",
            Some(&alice.token),
            Some(json!({"scopes": ["read"]})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, still) = with_session(&server, &alice, "GET", "/api/tokens", None).await;
    assert_eq!(
        still["tokens"].as_array().unwrap().len(),
        2,
        "nothing revoked"
    );
    // No scopes, or a scope twice, is refused.
    for scopes in [json!([]), json!(["play", "play"])] {
        let (status, body) = with_session(
            &server,
            &alice,
            "POST",
            "/api/tokens",
            Some(json!({"scopes": scopes})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{scopes}: {body}");
    }
    // A scope refusal names the scope that would allow it.
    let (status, body) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&alice.token),
            Some(json!({"board": "8x8"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["code"], "missing_scope");
    assert!(
        body["error"].as_str().unwrap().contains("play scope"),
        "{body}"
    );
    let bot = server.user("robott", true, &["read"]).await;
    let (_, body) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&bot.token),
            Some(json!({"board": "8x8"})),
        )
        .await;
    assert!(
        body["error"].as_str().unwrap().contains("bot scope"),
        "{body}"
    );
    // The session revokes.
    let (status, _) = with_session(
        &server,
        &alice,
        "DELETE",
        &format!("/api/tokens/{read_id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = server
        .call("GET", "/api/me", Some(&alice.token), None)
        .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the revoked token is dead"
    );
}

/// A request signed in by `user`'s session cookie, with its CSRF token.
async fn with_session(
    server: &TestServer,
    user: &User,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = server
        .http
        .request(method, format!("{}{path}", server.base))
        .header("cookie", &user.cookie)
        .header("x-csrf-token", &user.csrf);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

// ---- 4. the rate limit ----

/// Many failures from one address do not lock out a correct password or
/// guest play there; failures on one account from one address make that
/// pair wait, not the account elsewhere; an address with many failures
/// gets one try per account.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_sign_ins_are_counted_per_account_and_address() {
    let limits = RateLimits {
        failures_per_address: 10,
        failures_per_account_address: 5,
        failures_per_account: 12,
        ..common::loose_limits()
    };
    let (server, _db) = behind_proxy(limits).await;
    for name in ["alice", "bob", "carol", "dave"] {
        server.user(name, false, &["read"]).await;
    }
    let proxy_shared = "192.0.2.10";
    // 40 failures from one address, on names that do not exist.
    for i in 0..40 {
        assert_eq!(
            sign_in(
                &server,
                &format!("nobody{i}"),
                "wrong-password",
                proxy_shared
            )
            .await,
            StatusCode::UNAUTHORIZED
        );
    }
    // Correct passwords and guests from that address still pass.
    assert_eq!(
        sign_in(&server, "alice", "password-123", proxy_shared).await,
        StatusCode::OK
    );
    let guest = from(&server, reqwest::Method::POST, "/api/guest", proxy_shared)
        .send()
        .await
        .unwrap();
    assert_eq!(guest.status(), StatusCode::CREATED);
    // The busy address gets one try per account: a failure on bob there,
    // then even bob's correct password waits there, but not elsewhere.
    assert_eq!(
        sign_in(&server, "bob", "wrong-password", proxy_shared).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        sign_in(&server, "bob", "password-123", proxy_shared).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        sign_in(&server, "bob", "password-123", "192.0.2.11").await,
        StatusCode::OK
    );
    // Five failures on carol from a quiet address make that pair wait.
    for _ in 0..5 {
        assert_eq!(
            sign_in(&server, "carol", "guess", "192.0.2.20").await,
            StatusCode::UNAUTHORIZED
        );
    }
    let waited = from(&server, reqwest::Method::POST, "/api/signin", "192.0.2.20")
        .json(&json!({"name": "carol", "password": "password-123"}))
        .send()
        .await
        .unwrap();
    assert_eq!(waited.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = waited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    // The window slides: the wait is until the oldest failure is 15
    // minutes old, whatever the time of day.
    assert!((899..=900).contains(&retry), "{retry}");
    assert_eq!(
        sign_in(&server, "carol", "password-123", "192.0.2.21").await,
        StatusCode::OK
    );
    // The pbmserv door counts the same way: dave's password is checked
    // apart from carol's.
    let (status, _) = server.pbm("epaminondas games dave").await;
    assert_eq!(status, StatusCode::OK);
    // A guess spread over many addresses makes the account wait (12 here).
    for i in 0..12 {
        assert_eq!(
            sign_in(&server, "dave", "guess", &format!("198.18.0.{i}")).await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        sign_in(&server, "dave", "password-123", "198.18.1.1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // After the window, the account opens again.
    server.clock.advance(16 * 60 * 1000);
    assert_eq!(
        sign_in(&server, "dave", "password-123", "198.18.1.1").await,
        StatusCode::OK
    );
}

/// Without `--trusted-proxy`, forwarded addresses are not believed: every
/// request counts as its peer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    let db = common::database(common::Db::Sqlite).await.unwrap();
    let limits = RateLimits {
        signups_per_minute: 2,
        ..RateLimits::default()
    };
    let server = common::start_on(&db.url, Arc::new(ManualClock::new()), limits).await;
    let mut statuses = Vec::new();
    for i in 0..3 {
        let response = from(&server, reqwest::Method::POST, "/api/signup", &format!("203.0.113.{i}"))
            .json(&json!({"name": format!("spoof{i}"), "password": "password-123", "email": "s@example.org"}))
            .send()
            .await
            .unwrap();
        statuses.push(response.status());
    }
    assert_eq!(
        statuses,
        [
            StatusCode::CREATED,
            StatusCode::CREATED,
            StatusCode::TOO_MANY_REQUESTS
        ]
    );
}

// ---- 5. the smaller holes ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_the_security_headers() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    for path in [
        "/",
        "/game/101",
        "/assets/js/app.js",
        "/api/health",
        "/api/games/99999",
        "/nowhere",
    ] {
        let response = server
            .http
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        assert_eq!(headers["referrer-policy"], "same-origin", "{path}");
        assert!(!headers.contains_key("strict-transport-security"), "{path}");
    }
    // The session cookie is not Secure on plain HTTP without the option.
    let response = server
        .http
        .post(format!("{}/api/guest", server.base))
        .send()
        .await
        .unwrap();
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert!(!cookie.contains("Secure"), "{cookie}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_public_url_makes_the_cookie_secure() {
    let db = common::database(common::Db::Sqlite).await.unwrap();
    let clock = Arc::new(ManualClock::new());
    let settings = common::settings(&db.url, clock.clone(), common::loose_limits());
    let config = HttpConfig::for_public_url(Some("https://epaminondas.example.org"));
    let server = common::start_with(settings, clock, config).await;
    let response = server
        .http
        .post(format!("{}/api/signup", server.base))
        .json(&json!({"name": "secure", "password": "password-123", "email": "s@example.org"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.contains("; Secure"), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(
        response.headers()["strict-transport-security"]
            .to_str()
            .unwrap()
            .starts_with("max-age=")
    );
    // The public origin's pages may call the API although Host differs.
    let response = server
        .http
        .post(format!("{}/api/guest", server.base))
        .header("origin", "https://epaminondas.example.org")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
}

/// Another site's page can neither open a player's stream with the
/// visitor's cookie, nor sign them out by making them a guest, nor post
/// anything in their name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_sites_pages_are_refused() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    let alice = server.user("alicex", false, &["read", "play"]).await;
    let host = server.base.trim_start_matches("http://").to_string();
    let stream = format!("{}/api/stream", server.ws);
    let foreign = Socket::try_connect(
        &stream,
        &[
            ("cookie", alice.cookie.clone()),
            ("origin", "https://evil.example".into()),
        ],
    )
    .await;
    assert!(foreign.is_err(), "a foreign page's upgrade is refused");
    assert!(foreign.err().unwrap().contains("403"));
    let mut own = Socket::try_connect(
        &stream,
        &[
            ("cookie", alice.cookie.clone()),
            ("origin", format!("http://{host}")),
        ],
    )
    .await
    .expect("the site's own page connects");
    assert_eq!(own.next().await["type"], "hello");
    // A cross-site POST to /api/guest (no CSRF header possible) neither
    // replaces the session nor makes an account.
    for origin in [None, Some("https://evil.example")] {
        let mut request = server
            .http
            .post(format!("{}/api/guest", server.base))
            .header("cookie", &alice.cookie);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        let response = request.send().await.unwrap();
        assert!(
            response.status().is_client_error(),
            "{origin:?}: {}",
            response.status()
        );
        assert!(!response.headers().contains_key("set-cookie"), "{origin:?}");
    }
    let me = server
        .http
        .get(format!("{}/api/me", server.base))
        .header("cookie", &alice.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::OK, "still signed in");
    // Even with the CSRF token, a foreign page's request is refused.
    let response = server
        .http
        .post(format!("{}/api/challenges", server.base))
        .header("cookie", &alice.cookie)
        .header("x-csrf-token", &alice.csrf)
        .header("origin", "https://evil.example")
        .json(&json!({"board": "8x8"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_seeks_are_capped_per_player() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    let alice = server.user("aliceq", false, &["play"]).await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let (status, _) = server
            .call(
                "POST",
                "/api/challenges",
                Some(&alice.token),
                Some(json!({"board": "8x8"})),
            )
            .await;
        statuses.push(status);
    }
    assert_eq!(statuses[..3], [StatusCode::CREATED; 3]);
    assert_eq!(statuses[3], StatusCode::CONFLICT);
}

/// A huge input is named by a short prefix, never echoed whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_quote_only_a_short_prefix() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    let alice = server.user("aliceh", false, &["read", "play"]).await;
    let bob = server.user("bobh", false, &["read", "play"]).await;
    let game = server.new_game(&alice, &bob, json!({})).await;
    let id = game["id"].as_i64().unwrap();
    for text in [
        format!("a1-a2{}", "x".repeat(50_000)),
        "z".repeat(50_000),
        format!("a{}", "9".repeat(50_000)),
    ] {
        let (status, body) = server
            .call(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&alice.token),
                Some(json!({"move": text})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            body.to_string().len() < 300,
            "{} bytes",
            body.to_string().len()
        );
    }
    // A whole megabyte is refused by its announced size, briefly, before it
    // is read: the reply comes although only the headers were sent. (A
    // client sending the body may find the connection closed under it.)
    let (status, reply) = server
        .announce(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&alice.token),
            1 << 20,
        )
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{reply}");
    assert_eq!(reply["code"], "too_large", "{reply}");
    assert!(reply.to_string().len() < 300, "{reply}");
    // The analysis board's record reader alone takes bodies above 64 KiB.
    let padded = format!("[Board \"8x8\"]\n{}\n1. c2-c3 *\n", " ".repeat(100_000));
    let (status, read) = server
        .call(
            "POST",
            "/api/analysis/record",
            None,
            Some(json!({"record": padded})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{read}");
    let start = json!({"start": padded}).to_string();
    let (status, refused) = server
        .announce("POST", "/api/analysis", None, start.len())
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{refused}");
    assert_eq!(refused["code"], "too_large");
    // The other readers of input quote briefly too.
    let long = "q".repeat(50_000);
    for (path, body) in [
        ("/api/challenges", json!({"board": long})),
        ("/api/challenges", json!({"color": long})),
        ("/api/analysis", json!({"start": long})),
        ("/api/analysis", json!({"moves": [long]})),
        ("/api/analysis/record", json!({"record": long})),
        (
            "/api/signup",
            json!({"name": "ok-name", "password": "password-123", "email": long}),
        ),
    ] {
        let (status, reply) = server
            .call("POST", path, Some(&alice.token), Some(body))
            .await;
        assert!(status.is_client_error(), "{path}: {status}");
        assert!(
            reply.to_string().len() < 300,
            "{path}: {} bytes",
            reply.to_string().len()
        );
    }
    let (status, reply) = server
        .pbm(&format!(
            "epaminondas move {id} aliceh password-123 {}",
            "e".repeat(900)
        ))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reply.len() < 300, "{reply}");
    let (status, reply) = server.pbm(&"w".repeat(20_000)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reply.len() < 300, "{reply}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nobody_signs_up_as_the_site() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    for name in [
        "computer",
        "Computer-level-3",
        "admin",
        "Epaminondas",
        "pbmserv",
        "deleted-7",
        "Guest-abc123",
    ] {
        let (status, body) = server
            .call(
                "POST",
                "/api/signup",
                None,
                Some(json!({"name": name, "password": "password-123", "email": "x@example.org"})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        let (status, _) = server
            .pbm(&format!("signup {name} password-123 x@example.org"))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "pbm {name}");
    }
}

// ---- 6. accounts ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passwords_change_and_sessions_end_everywhere() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    let alice = server.user("alicep", false, &["read"]).await;
    // A second session, as on another device.
    let other = server
        .http
        .post(format!("{}/api/signin", server.base))
        .json(&json!({"name": "alicep", "password": "password-123"}))
        .send()
        .await
        .unwrap();
    let other_cookie = common::session_cookie(&other);
    let (status, _) = with_session(
        &server,
        &alice,
        "POST",
        "/api/account/password",
        Some(json!({"current": "wrong-one", "new": "new-password-1"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = with_session(
        &server,
        &alice,
        "POST",
        "/api/account/password",
        Some(json!({"current": "password-123", "new": "new-password-1"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["other_sessions_ended"], 1);
    assert_eq!(
        me_status(&server, &other_cookie).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        me_status(&server, &alice.cookie).await,
        StatusCode::OK,
        "this session stays"
    );
    let (status, _) = server
        .call(
            "POST",
            "/api/signin",
            None,
            Some(json!({"name": "alicep", "password": "password-123"})),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the old password is gone");
    let (status, _) = server
        .call(
            "POST",
            "/api/signin",
            None,
            Some(json!({"name": "alicep", "password": "new-password-1"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // A token cannot change the password or sign out everywhere.
    let (status, _) = server
        .call(
            "POST",
            "/api/account/password",
            Some(&alice.token),
            Some(json!({"current": "new-password-1", "new": "stolen-password"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = with_session(&server, &alice, "POST", "/api/signout/all", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["sessions"].as_u64().unwrap() >= 2, "{body}");
    assert_eq!(
        me_status(&server, &alice.cookie).await,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = server
        .call("GET", "/api/me", Some(&alice.token), None)
        .await;
    assert_eq!(status, StatusCode::OK, "API tokens stay");
}

async fn me_status(server: &TestServer, cookie: &str) -> StatusCode {
    server
        .http
        .get(format!("{}/api/me", server.base))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap()
        .status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_account_keeps_its_games_under_a_placeholder() {
    let (server, _db) = common::start(common::Db::Sqlite).await.unwrap();
    let alice = server.user("aliced", false, &["read", "play"]).await;
    let bob = server.user("bobd", false, &["read", "play"]).await;
    let game = server.new_game(&alice, &bob, json!({"rated": true})).await;
    let id = game["id"].as_i64().unwrap();
    let (_, seek) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&alice.token),
            Some(json!({"board": "8x8"})),
        )
        .await;
    let seek = seek["challenge"]["id"].as_i64().unwrap();
    let (status, _) = with_session(
        &server,
        &alice,
        "POST",
        "/api/account/delete",
        Some(json!({"password": "wrong-password"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = with_session(
        &server,
        &alice,
        "POST",
        "/api/account/delete",
        Some(json!({"password": "password-123"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let placeholder = body["games_kept_as"].as_str().unwrap().to_string();
    assert!(placeholder.starts_with("deleted-"), "{placeholder}");
    // The running game was resigned and is kept, under the placeholder.
    let (_, view) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(view["status"], "finished");
    assert_eq!(view["reason"], "resignation");
    assert_eq!(view["white"]["name"], placeholder);
    let (_, games) = server
        .call(
            "GET",
            &format!("/api/users/{placeholder}/games"),
            None,
            None,
        )
        .await;
    assert_eq!(games["games"][0]["id"], id);
    // No way back in; the seek is withdrawn; the name is free again.
    assert_eq!(
        me_status(&server, &alice.cookie).await,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = server
        .call("GET", "/api/me", Some(&alice.token), None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = server
        .call(
            "POST",
            "/api/signin",
            None,
            Some(json!({"name": placeholder, "password": ""})),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = server
        .call(
            "POST",
            &format!("/api/challenges/{seek}/accept"),
            Some(&bob.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, board) = server.call("GET", "/api/leaderboard", None, None).await;
    assert!(!board.to_string().contains("deleted-"), "{board}");
}
