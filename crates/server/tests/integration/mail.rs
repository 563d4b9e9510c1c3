//! Play by mail, against real mail servers: the server's own SMTP listener
//! receives what the players send (through lettre, a real SMTP client), and
//! the server sends through a real relay, Debian's `python3-aiosmtpd`, which
//! stores what arrives in a Maildir the tests read. Without aiosmtpd the
//! tests are skipped, except under CI (whose script installs it).

use crate::common;
use crate::relay;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use common::{TestDb, TestServer};
use epaminondas_server::clock::ManualClock;
use epaminondas_server::http::HttpConfig;
use epaminondas_server::mail::MailSettings;
use lettre::address::Envelope;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use relay::{Received, Relay};

/// A server with mail, its relay, and its SMTP listener.
pub struct World {
    pub server: TestServer,
    pub relay: Relay,
    smtp: SocketAddr,
    _db: TestDb,
    /// Messages the test has looked at.
    pub taken: Vec<String>,
}

pub const DOMAIN: &str = "example.org";

impl World {
    pub async fn start() -> Option<World> {
        World::start_with(HttpConfig::default()).await
    }

    /// A world whose HTTP door has `config`.
    pub async fn start_with(config: HttpConfig) -> Option<World> {
        let relay = Relay::start()?;
        let db = common::database(common::Db::Sqlite).await?;
        let clock = Arc::new(ManualClock::new());
        let mut settings = common::settings(&db.url, clock.clone(), common::loose_limits());
        settings.mail = Some(MailSettings::new(
            DOMAIN,
            "http://epaminondas.test",
            Some(format!("smtp://127.0.0.1:{}", relay.port)),
        ));
        let server = common::start_with(settings, clock, config).await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let smtp = listener.local_addr().expect("address");
        tokio::spawn(epaminondas_server::mail::smtp::serve(
            listener,
            server.service.clone(),
        ));
        Some(World {
            server,
            relay,
            smtp,
            _db: db,
            taken: Vec::new(),
        })
    }

    fn client(&self) -> AsyncSmtpTransport<Tokio1Executor> {
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(self.smtp.ip().to_string())
            .port(self.smtp.port())
            .build()
    }

    /// Mails `subject` and `body` from `from` to `to`, through the server's
    /// SMTP listener; the error, if it refused.
    pub async fn send(
        &self,
        from: &str,
        to: &str,
        subject: &str,
        body: &str,
    ) -> Result<(), String> {
        let message = Message::builder()
            .from(from.parse::<Mailbox>().unwrap())
            .to(to.parse::<Mailbox>().unwrap())
            .subject(subject)
            .body(body.to_owned())
            .unwrap();
        self.client()
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Mails raw bytes with the envelope `from` (`""`: a bounce) and `to`.
    pub async fn send_raw(&self, from: &str, to: &str, raw: &[u8]) -> Result<(), String> {
        let from = (!from.is_empty()).then(|| from.parse().unwrap());
        let envelope = Envelope::new(from, vec![to.parse().unwrap()]).unwrap();
        self.client()
            .send_raw(&envelope, raw)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Waits for a mail to `to` about `subject`.
    pub async fn expect(&mut self, to: &str, subject: &str) -> Received {
        let mut taken = std::mem::take(&mut self.taken);
        let found = self.relay.expect(to, subject, &mut taken).await;
        self.taken = taken;
        found
    }

    /// Waits a moment and says whether any new mail went to `to`.
    pub async fn nothing_more_for(&self, to: &str) -> Result<(), String> {
        tokio::time::sleep(Duration::from_millis(700)).await;
        let unexpected: Vec<String> = self
            .relay
            .messages()
            .into_iter()
            .filter(|m| m.to == to && !self.taken.contains(&m.id))
            .map(|m| format!("{}: {}", m.subject, m.text))
            .collect();
        if unexpected.is_empty() {
            Ok(())
        } else {
            Err(unexpected.join("\n----\n"))
        }
    }

    /// Signs `name` up by mail and opens the verification link.
    pub async fn sign_up(&mut self, name: &str) -> String {
        let email = format!("{name}@{DOMAIN}");
        self.send(
            &email,
            &format!("pbm@{DOMAIN}"),
            &format!("signup {name} {name}-password {email}"),
            "",
        )
        .await
        .unwrap();
        let mail = self.expect(&email, "confirm your e-mail address").await;
        let link = mail
            .link("http://epaminondas.test/mail/verify/")
            .replace("http://epaminondas.test", &self.server.base);
        let page = self.server.http.get(&link).send().await.unwrap();
        assert!(page.text().await.unwrap().contains("Confirm my address"));
        let done = self.server.http.post(&link).send().await.unwrap();
        let text = done.text().await.unwrap();
        assert!(text.contains("is confirmed"), "{text}");
        email
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_on_5x6_by_mail_only() {
    let Some(mut world) = World::start().await else {
        return;
    };
    let pbm = format!("pbm@{DOMAIN}");
    let alice = world.sign_up("alice").await;
    let bob = world.sign_up("bob").await;

    // Alice challenges Bob by command; both hear of it.
    world
        .send(
            &alice,
            &pbm,
            "epaminondas challenge -size=5x6 alice bob alice-password",
            "",
        )
        .await
        .unwrap();
    let sent = world.expect(&alice, "Re: epaminondas challenge").await;
    assert!(sent.text.contains("Challenge 101 sent."), "{}", sent.text);
    assert!(
        !sent.subject.contains("alice-password"),
        "the password is masked: {}",
        sent.subject
    );
    assert_eq!(sent.auto_submitted.as_deref(), Some("auto-replied"));
    let challenge = world.expect(&bob, "alice challenges you").await;
    let answer_to = challenge.reply_to.clone().expect("a reply address");
    assert!(answer_to.starts_with("pbm+") && answer_to.ends_with("@example.org"));

    // Bob accepts by replying with one word.
    world
        .send(
            &bob,
            &answer_to,
            &format!("Re: {}", challenge.subject),
            "accept\n\n> alice challenges you\n",
        )
        .await
        .unwrap();
    let accepted = world.expect(&bob, "Re: Epaminondas challenge").await;
    assert!(
        accepted
            .text
            .contains("Challenge 101 accepted: board 102 created."),
        "{}",
        accepted.text
    );
    // One mail tells Alice both that Bob accepted and that she moves first.
    let your_move = world
        .expect(
            &alice,
            "board 102: bob accepted your challenge; your move (move 1)",
        )
        .await;
    assert!(
        your_move
            .html
            .as_deref()
            .is_some_and(|h| h.contains("<table")),
        "a board table"
    );
    assert!(
        your_move
            .unsubscribe
            .as_deref()
            .is_some_and(|u| u.contains("/mail/unsubscribe/"))
    );
    let game = world.server.service.game(102).await.unwrap();
    assert_eq!(game.position().size().to_string(), "6x5");

    // Alice moves by replying with the move alone (and its number).
    world
        .send(
            &alice,
            your_move.reply_to.as_deref().unwrap(),
            &format!("Re: {}", your_move.subject),
            "a2-a3#1",
        )
        .await
        .unwrap();
    let board = world.expect(&alice, "Re: Epaminondas board 102").await;
    assert!(board.text.contains("Last move: a2-a3"), "{}", board.text);
    let bobs_turn = world.expect(&bob, "board 102: your move (move 2)").await;
    assert!(
        bobs_turn.text.contains("alice played a2-a3"),
        "{}",
        bobs_turn.text
    );

    // Bob moves by command with his password; then asks for the history.
    world
        .send(
            &bob,
            &pbm,
            "epaminondas move 102 bob bob-password f4-f3#2",
            "",
        )
        .await
        .unwrap();
    world.expect(&bob, "Re: epaminondas move 102 bob").await;
    let alices_turn = world.expect(&alice, "board 102: your move (move 3)").await;
    world
        .send(&bob, &pbm, "our game", "epaminondas history 102\n")
        .await
        .unwrap();
    let history = world.expect(&bob, "Re: our game").await;
    assert!(history.text.contains("1. a2-a3"), "{}", history.text);
    assert!(history.text.contains("f4-f3"), "{}", history.text);

    // Alice chats, Bob gets it; then Bob resigns by reply.
    world
        .send(
            &alice,
            alices_turn.reply_to.as_deref().unwrap(),
            &format!("Re: {}", alices_turn.subject),
            "chat good luck!",
        )
        .await
        .unwrap();
    let sent = world
        .expect(&alice, "Re: Epaminondas board 102: your move (move 3)")
        .await;
    assert!(sent.text.contains("Message sent"), "{}", sent.text);
    let chat = world.expect(&bob, "alice says").await;
    assert!(chat.text.contains("good luck!"), "{}", chat.text);
    world
        .send(
            &bob,
            chat.reply_to.as_deref().unwrap(),
            "Re: alice says",
            "resign",
        )
        .await
        .unwrap();
    world.expect(&bob, "Re: alice says").await;
    let end_for_alice = world.expect(&alice, "Game over: alice (o) wins").await;
    assert!(
        end_for_alice.text.contains("resignation"),
        "{}",
        end_for_alice.text
    );
    world.expect(&bob, "Game over: alice (o) wins").await;
    let game = world.server.service.game(102).await.unwrap();
    assert!(game.is_finished());

    // The reply address of a finished game no longer acts.
    world
        .send(&bob, chat.reply_to.as_deref().unwrap(), "Re: x", "board")
        .await
        .unwrap();
    let refused = world.expect(&bob, "Re: x").await;
    assert!(refused.text.contains("no longer works"), "{}", refused.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_player_on_the_web_the_other_by_mail() {
    let Some(mut world) = World::start().await else {
        return;
    };
    let pbm = format!("pbm@{DOMAIN}");
    let bob = world.sign_up("bob").await;
    // Alice plays on the site (an API token; her address is not verified,
    // so nothing is mailed to her) and challenges Bob there.
    let alice = world.server.user("alice", false, &["read", "play"]).await;
    let (status, made) = world
        .server
        .call(
            "POST",
            "/api/challenges",
            Some(&alice.token),
            Some(serde_json::json!({"opponent": "bob", "board": "6x6", "color": "white"})),
        )
        .await;
    assert_eq!(status, reqwest::StatusCode::CREATED, "{made}");
    // Bob accepts by mail.
    let challenge = world.expect(&bob, "alice challenges you").await;
    world
        .send(
            &bob,
            challenge.reply_to.as_deref().unwrap(),
            "Re: challenge",
            "accept",
        )
        .await
        .unwrap();
    world.expect(&bob, "Re: challenge").await;
    let id = 102;
    let state = world.server.service.game(id).await.unwrap();
    // Alice (White) moves on the site; Bob gets the board by mail.
    let first = state.position().legal_moves()[0].to_string();
    let (status, body) = world.server.post_move(id, &alice, &first, Some(0)).await;
    assert_eq!(status, reqwest::StatusCode::OK, "{body}");
    let turn = world.expect(&bob, "your move (move 2)").await;
    let reply = world
        .server
        .service
        .game(id)
        .await
        .unwrap()
        .position()
        .legal_moves()[0]
        .to_string();
    world
        .send(
            &bob,
            turn.reply_to.as_deref().unwrap(),
            "Re: your move",
            &reply,
        )
        .await
        .unwrap();
    world.expect(&bob, "Re: your move").await;
    let (status, view) = world
        .server
        .call("GET", &format!("/api/games/{id}"), Some(&alice.token), None)
        .await;
    assert_eq!(status, reqwest::StatusCode::OK);
    assert_eq!(view["ply"], 2, "the web sees the mailed move: {view}");
    // Alice, unverified, got nothing but the verification.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let to_alice: Vec<String> = world
        .relay
        .messages()
        .into_iter()
        .filter(|m| m.to.starts_with("alice"))
        .map(|m| m.subject)
        .collect();
    assert_eq!(to_alice, ["Epaminondas: confirm your e-mail address"]);
    let _ = pbm;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_automatic_vacation_is_mailed_to_both_players() {
    let Some(mut world) = World::start().await else {
        return;
    };
    let pbm = format!("pbm@{DOMAIN}");
    let alice = world.sign_up("alice").await;
    let bob = world.sign_up("bob").await;
    world
        .send(
            &alice,
            &pbm,
            "epaminondas challenge -size=5x6 -days=2 alice bob alice-password",
            "",
        )
        .await
        .unwrap();
    world.expect(&alice, "Re: epaminondas challenge").await;
    let challenge = world.expect(&bob, "alice challenges you").await;
    world
        .send(
            &bob,
            challenge.reply_to.as_deref().unwrap(),
            "Re: challenge",
            "accept",
        )
        .await
        .unwrap();
    world.expect(&bob, "Re: challenge").await;
    world.expect(&alice, "your move (move 1)").await;
    let id = 102;

    // Alice lets her two days run out: the sweep takes a vacation day for
    // her (automatic vacation is on by default) and mails both players.
    let day = 24 * 60 * 60 * 1000;
    world.server.clock.advance(2 * day + 60_000);
    world.server.service.sweep().await.unwrap();
    let game = world.server.service.game(id).await.unwrap();
    assert!(!game.is_finished(), "saved by a vacation day");
    let vacation = game
        .vacations
        .iter()
        .find(|v| v.automatic)
        .expect("an automatic vacation");
    let subject = format!("board {id}: alice's time ran out, a vacation day was used");
    let until = epaminondas_server::pbm::text::utc_time(vacation.ends_at);
    for to in [&alice, &bob] {
        let mail = world.expect(to, &subject).await;
        assert!(
            mail.text.contains("vacation time from alice's"),
            "{}",
            mail.text
        );
        assert!(mail.text.contains(&until), "{until}: {}", mail.text);
        assert!(
            mail.text.contains("switches automatic vacation off"),
            "{}",
            mail.text
        );
    }
    // Announced once: a second sweep mails nothing new.
    world.server.service.sweep().await.unwrap();
    world.nothing_more_for(&bob).await.unwrap();
}

/// The moves of game `id` as stored.
async fn moves_of(world: &World, id: i64) -> Vec<String> {
    world.server.service.game(id).await.unwrap().move_texts()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_mail_changes_nothing_and_gets_a_clear_answer_or_none() {
    let Some(mut world) = World::start().await else {
        return;
    };
    let pbm = format!("pbm@{DOMAIN}");
    let alice = world.sign_up("alice").await;
    let bob = world.sign_up("bob").await;
    let (_, made) = world
        .server
        .pbm("epaminondas challenge -size=5x6 alice bob alice-password")
        .await;
    assert!(made.contains("Challenge 101 sent"), "{made}");
    let (_, accepted) = world
        .server
        .pbm("epaminondas accept 101 bob bob-password")
        .await;
    assert!(accepted.contains("board 102"), "{accepted}");
    let alices = world.expect(&alice, "your move (move 1)").await;
    let alice_reply_to = alices.reply_to.clone().unwrap();
    let before = moves_of(&world, 102).await;

    // No command at all.
    world
        .send(&alice, &pbm, "hello", "how are you?")
        .await
        .unwrap();
    let answer = world.expect(&alice, "Re: hello").await;
    assert!(answer.text.contains("> how are you?"), "{}", answer.text);
    assert!(answer.text.contains("unknown command"), "{}", answer.text);
    world.send(&alice, &pbm, "", "").await.unwrap();
    let answer = world.expect(&alice, "Re: (no subject)").await;
    assert!(answer.text.contains("no command found"), "{}", answer.text);

    // A wrong password: refused, the password not quoted back.
    world
        .send(
            &alice,
            &pbm,
            "epaminondas move 102 alice not-my-password a2-a3",
            "",
        )
        .await
        .unwrap();
    let answer = world.expect(&alice, "Re: epaminondas move 102 alice").await;
    assert!(
        answer.text.contains("wrong name or password"),
        "{}",
        answer.text
    );
    assert!(
        !answer.text.contains("not-my-password") && !answer.subject.contains("not-my-password")
    );

    // A stranger (unregistered, so possibly forged): no reply at all.
    world
        .send(
            "mallory@evil.example",
            &pbm,
            "epaminondas move 102 alice alice-pass a2-a3",
            "",
        )
        .await
        .unwrap();
    // Bob with Alice's reply address (stolen or forwarded): refused.
    world
        .send(&bob, &alice_reply_to, "Re: your move", "a2-a3")
        .await
        .unwrap();
    let answer = world.expect(&bob, "Re: your move").await;
    assert!(
        answer.text.contains("belongs to another player"),
        "{}",
        answer.text
    );
    // A forged From with Alice's address but no way to read her mail would
    // need the token too; a made-up token is refused.
    world
        .send(
            &alice,
            &format!("pbm+00000000000000000000000000000000@{DOMAIN}"),
            "Re: x",
            "a2-a3",
        )
        .await
        .unwrap();
    let answer = world.expect(&alice, "Re: x").await;
    assert!(answer.text.contains("not valid"), "{}", answer.text);

    // A move for the opponent, and a stale move number, by Alice's own
    // reply address.
    world
        .send(&alice, &alice_reply_to, "Re: a", "f4-f3")
        .await
        .unwrap();
    let answer = world.expect(&alice, "Re: a").await;
    assert!(answer.text.contains("Error:"), "{}", answer.text);
    world
        .send(&alice, &alice_reply_to, "Re: b", "a2-a3#5")
        .await
        .unwrap();
    let answer = world.expect(&alice, "Re: b").await;
    assert!(answer.text.contains("stale move number"), "{}", answer.text);
    assert_eq!(moves_of(&world, 102).await, before, "nothing was played");

    // 10 MB of text: refused by size before it is read.
    let huge = format!(
        "From: {alice}\r\nTo: {pbm}\r\nSubject: board 102\r\n\r\n{}",
        "x".repeat(10 << 20)
    );
    let refused = world.send_raw(&alice, &pbm, huge.as_bytes()).await;
    assert!(refused.is_err(), "a 10 MB message is refused");

    // Broken MIME: answered or not, never a crash, nothing changed.
    let broken = format!(
        "From: {alice}\r\nTo: {pbm}\r\nSubject: broken\r\nContent-Type: multipart/mixed; boundary=\"\r\n\r\n--\r\n\x00\x01garbage"
    );
    let _ = world.send_raw(&alice, &pbm, broken.as_bytes()).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    for answer in world.relay.messages() {
        if answer.subject.contains("broken") {
            assert!(
                answer.text.contains("Error:") || answer.text.contains("no command"),
                "{}",
                answer.text
            );
            world.taken.push(answer.id);
        }
    }
    // HTML only: the command in the markup is read.
    let html = format!(
        "From: {alice}\r\nTo: {pbm}\r\nSubject: html\r\nContent-Type: text/html\r\n\r\n\
         <html><body><p>epaminondas board 102</p><blockquote>epaminondas resign 102 alice alice-password</blockquote></body></html>\r\n"
    );
    world.send_raw(&alice, &pbm, html.as_bytes()).await.unwrap();
    let answer = world.expect(&alice, "Re: html").await;
    assert!(
        answer.text.contains("Epaminondas board 102"),
        "{}",
        answer.text
    );

    // Auto-replies, bounces and lists get no answer and do nothing.
    let auto = format!(
        "From: {alice}\r\nTo: {pbm}\r\nAuto-Submitted: auto-replied\r\nSubject: epaminondas resign 102 alice alice-password\r\n\r\nI am away\r\n"
    );
    world.send_raw(&alice, &pbm, auto.as_bytes()).await.unwrap();
    let bounce = format!(
        "From: MAILER-DAEMON@{DOMAIN}\r\nTo: {pbm}\r\nSubject: Undelivered: epaminondas resign 102 alice alice-password\r\n\r\nepaminondas resign 102 alice alice-password\r\n"
    );
    world.send_raw("", &pbm, bounce.as_bytes()).await.unwrap();
    // A delivery report for one of the server's mails is recorded on the
    // account it went to (and shown on its settings page).
    let report = format!(
        "From: MAILER-DAEMON@relay.example\r\nTo: {pbm}\r\nSubject: Undelivered Mail Returned to Sender\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=r\r\n\r\n\
         --r\r\n\r\nThe mail could not be delivered.\r\n\
         --r\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.2.2\r\n\
         Diagnostic-Code: smtp; 552 5.2.2 mailbox full\r\n\
         --r\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: {}\r\n--r--\r\n",
        alices.id
    );
    world.send_raw("", &pbm, report.as_bytes()).await.unwrap();
    let db = &world.server.service.db;
    let alice_id = epaminondas_server::store::profile_by_email(db, &alice)
        .await
        .unwrap()
        .expect("alice's account")
        .user_id;
    let failure = epaminondas_server::store::mail_failure(db, alice_id)
        .await
        .unwrap();
    assert_eq!(
        failure.as_deref(),
        Some("the mail came back undelivered: smtp; 552 5.2.2 mailbox full"),
        "the bounce is recorded"
    );
    let list = format!(
        "From: {alice}\r\nTo: {pbm}\r\nList-Id: <games.example.org>\r\nSubject: epaminondas resign 102 alice alice-password\r\n\r\n"
    );
    world.send_raw(&alice, &pbm, list.as_bytes()).await.unwrap();
    // A loop: the server's own reply fed back to it.
    let ours = format!(
        "From: Epaminondas <{pbm}>\r\nTo: {pbm}\r\nSubject: Re: board\r\n\r\nepaminondas board 102\r\n"
    );
    world.send_raw(&pbm, &pbm, ours.as_bytes()).await.unwrap();
    // A loop through a forwarder that keeps the headers: our X-Loop mark
    // comes back, and the mail is dropped.
    let forwarded = format!(
        "From: {alice}\r\nTo: {pbm}\r\nX-Loop: {pbm}\r\nSubject: Fwd: Re: board\r\n\r\nepaminondas board 102\r\n"
    );
    world
        .send_raw(&alice, &pbm, forwarded.as_bytes())
        .await
        .unwrap();
    if let Err(unexpected) = world.nothing_more_for(&alice).await {
        panic!("automatic mail was answered:\n{unexpected}");
    }
    // A loop with an auto-responder that marks nothing: the same error
    // reply three times, then silence (a minute on, so that the limit of
    // commands a minute is not what stops it).
    world.server.clock.advance(61_000);
    for round in 0..8 {
        world
            .send(
                &alice,
                &pbm,
                &format!("Re: away {round}"),
                "I am away until Monday.",
            )
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let away_answers = world
        .relay
        .messages()
        .iter()
        .filter(|m| m.to == alice && m.subject.starts_with("Re: away"))
        .count();
    assert_eq!(
        away_answers, 3,
        "the same error three times an hour, then none"
    );
    assert!(!world.server.service.game(102).await.unwrap().is_finished());
    assert_eq!(moves_of(&world, 102).await, before, "nothing was played");
    assert!(
        world
            .relay
            .messages()
            .iter()
            .all(|m| m.to != "mallory@evil.example"),
        "nothing goes to an unverified sender"
    );
    // Mail for someone else is not taken at all (no open relay).
    let elsewhere = world
        .send(&alice, "carol@elsewhere.example", "hello", "relay this")
        .await;
    assert!(elsewhere.is_err(), "{elsewhere:?}");

    // A flood: more than 20 commands a minute from one sender are dropped.
    for i in 0..25 {
        world
            .send(&bob, &pbm, &format!("flood {i}"), "epaminondas board 102")
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let answered = world
        .relay
        .messages()
        .iter()
        .filter(|m| m.subject.starts_with("Re: flood"))
        .count();
    assert!((10..=20).contains(&answered), "{answered} answers");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inbound_door_takes_mail_from_this_machine_or_with_the_token() {
    let config = HttpConfig {
        mail_in_token: Some("the-right-token".into()),
        ..HttpConfig::default()
    };
    let Some(world) = World::start_with(config).await else {
        return;
    };
    let url = format!("{}/api/mail/inbound", world.server.base);
    let message = format!("From: kim@{DOMAIN}\r\nTo: pbm@{DOMAIN}\r\nSubject: help\r\n\r\n");
    let post = |headers: &[(&str, &str)]| {
        let mut request = world
            .server
            .http
            .post(&url)
            .header("content-type", "message/rfc822")
            .body(message.clone());
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send()
    };
    // From this machine, as `mail-in` posts it: taken and answered.
    let local = post(&[]).await.unwrap();
    assert_eq!(local.status(), reqwest::StatusCode::OK);
    let answer: serde_json::Value = local.json().await.unwrap();
    assert!(
        answer["answers"][0].as_str().unwrap().contains("signup"),
        "{answer}"
    );
    // Through a reverse proxy on this machine: refused.
    for header in ["x-forwarded-for", "forwarded", "x-real-ip"] {
        let value = if header == "forwarded" {
            "for=203.0.113.9"
        } else {
            "203.0.113.9"
        };
        let proxied = post(&[(header, value)]).await.unwrap();
        assert_eq!(proxied.status(), reqwest::StatusCode::FORBIDDEN, "{header}");
    }
    // A wrong token is refused even from here; the right one is taken
    // from anywhere.
    let wrong = post(&[("authorization", "Bearer not-it")]).await.unwrap();
    assert_eq!(wrong.status(), reqwest::StatusCode::FORBIDDEN);
    let right = post(&[
        ("authorization", "Bearer the-right-token"),
        ("x-forwarded-for", "203.0.113.9"),
    ])
    .await
    .unwrap();
    assert_eq!(right.status(), reqwest::StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mail_endpoints_refuse_strangers_floods_and_bad_links() {
    use reqwest::StatusCode;
    use serde_json::json;
    let Some(mut world) = World::start().await else {
        return;
    };
    let kim_mail = world.sign_up("kim").await;
    let lee = world.server.user("lee", false, &["read", "play"]).await;
    let sam = world.server.user("sam", false, &["read", "play"]).await;
    let server = &world.server;
    let (status, _) = server
        .call(
            "POST",
            "/api/challenges",
            Some(&lee.token),
            Some(json!({"opponent": "sam", "board": "6x6"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = server
        .call(
            "POST",
            "/api/challenges/101/accept",
            Some(&sam.token),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);

    // Chat: the players only, signed in, short, ten a minute.
    let chat = "/api/games/102/chat";
    let (status, _) = server
        .call("POST", chat, None, Some(json!({"body": "hi"})))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let outsider = server.user("outsider", false, &["read", "play"]).await;
    let (status, _) = server
        .call(
            "POST",
            chat,
            Some(&outsider.token),
            Some(json!({"body": "hi"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server.call("GET", chat, Some(&outsider.token), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let long = "x".repeat(501);
    let (status, body) = server
        .call("POST", chat, Some(&lee.token), Some(json!({"body": long})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) = server
        .call("POST", chat, Some(&lee.token), Some(json!({"body": "  "})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let mut sent = 0;
    for i in 0..12 {
        let (status, _) = server
            .call(
                "POST",
                chat,
                Some(&lee.token),
                Some(json!({"body": format!("message {i}")})),
            )
            .await;
        if status == StatusCode::CREATED {
            sent += 1;
        } else {
            assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        }
    }
    assert_eq!(sent, 10, "ten messages a minute");
    let (_, read) = server.call("GET", chat, Some(&sam.token), None).await;
    assert_eq!(read["messages"].as_array().unwrap().len(), 10);

    // Mail choices and the address: signed in, and with a password session
    // (an API token, which a program holds, may not change them).
    let (status, _) = server.call("GET", "/api/account/mail", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = server
        .call(
            "POST",
            "/api/account/mail",
            Some(&lee.token),
            Some(json!({"mode": "off", "kinds": []})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server
        .call(
            "POST",
            "/api/account/email",
            Some(&lee.token),
            Some(json!({"email": "new@example.org", "password": "password-123"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // Password resets: the same answer for anyone; three links an hour
    // per account; five requests a minute per client address.
    let ask = |who: &str| {
        server.call(
            "POST",
            "/api/account/reset",
            None,
            Some(json!({"who": who})),
        )
    };
    let (status, unknown) = ask("nobody-at-all").await;
    assert_eq!(status, StatusCode::OK);
    let (status, known) = ask("kim").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        unknown, known,
        "the answer does not tell who has an account"
    );
    for _ in 0..3 {
        let (status, _) = ask(&kim_mail).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, _) = ask("kim").await;
    assert_eq!(
        status,
        StatusCode::TOO_MANY_REQUESTS,
        "five a minute per address"
    );
    tokio::time::sleep(Duration::from_millis(800)).await;
    let resets: Vec<_> = world
        .relay
        .messages()
        .into_iter()
        .filter(|m| m.to == kim_mail && m.text.contains("/mail/reset/"))
        .collect();
    assert_eq!(resets.len(), 3, "three reset links an hour per account");

    // A reset link works once; made-up links are refused with a page.
    let link = resets[0]
        .link("http://epaminondas.test/mail/reset/")
        .replace("http://epaminondas.test", &world.server.base);
    let post = |url: String, password: &str| {
        world
            .server
            .http
            .post(url)
            .form(&[("password", password)])
            .send()
    };
    let first = post(link.clone(), "a brand new password").await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let again = post(link, "another new password").await.unwrap();
    assert_eq!(again.status(), StatusCode::BAD_REQUEST);
    assert!(again.text().await.unwrap().contains("ask for a new one"));
    for path in ["/mail/reset/", "/mail/verify/", "/mail/unsubscribe/"] {
        let made_up = post(
            format!("{}{path}0123456789abcdef", world.server.base),
            "whatever-password",
        )
        .await
        .unwrap();
        assert!(
            made_up.status().is_client_error(),
            "{path}: {}",
            made_up.status()
        );
    }
    world.taken.clear();
}
