//! What the server mails: each message with a plain-text part (the board
//! as pbmserv wrote it) and, for boards, an HTML part with a mail-safe board
//! table (no SVG, no scripts, no external images), a link to the game on
//! the site, and a footer that says how to change what is mailed.

use epaminondas_rules::Color;
use epaminondas_rules::diagram::side_label;

use super::{MailKind, MailProfile, MailSettings, OutMail};
use crate::challenge::Challenge;
use crate::game::{Game, Status, Vacation};
use crate::pbm::text;

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The footer of every notification: the link to the settings and how to
/// stop the mail by mail.
fn footer(settings: &MailSettings, unsubscribe: &str) -> String {
    format!(
        "\n-- \nEpaminondas at {site}\nChoose what is mailed to you: {settings_link}\n\
         Stop these mails: {unsubscribe}\n",
        site = settings.site_url,
        settings_link = settings.link("/settings"),
    )
}

/// The board as a mail-safe HTML table, seen from `side`.
pub fn board_html(game: &Game, side: Color) -> String {
    let pos = game.position();
    let size = pos.size();
    let last = game.record.moves().last().copied();
    let marked: Vec<_> = last
        .map(|mv| mv.landing_squares().collect())
        .unwrap_or_default();
    let mut ranks: Vec<u8> = (0..size.ranks()).collect();
    let mut files: Vec<u8> = (0..size.files()).collect();
    if side == Color::White {
        ranks.reverse();
    } else {
        files.reverse();
    }
    let cell = "width:22px;height:22px;text-align:center;font:bold 15px monospace;";
    let mut html = String::from(
        "<table role=\"presentation\" cellspacing=\"0\" cellpadding=\"0\" \
         style=\"border-collapse:collapse;border:2px solid #555\">",
    );
    for &rank in &ranks {
        html += &format!(
            "<tr><td style=\"{cell}color:#666;font-weight:normal\">{}</td>",
            rank + 1
        );
        for &file in &files {
            let square = epaminondas_rules::Square::new(file, rank);
            let piece = square.and_then(|s| pos.piece_at(s));
            let light = (u32::from(file) + u32::from(rank)) % 2 == 1;
            let mut background = if light { "#f0d9b5" } else { "#b58863" };
            if square.is_some_and(|s| marked.contains(&s)) {
                background = "#cdd26a";
            }
            let (symbol, colour) = match piece {
                Some(Color::White) => ("o", "#ffffff"),
                Some(Color::Black) => ("x", "#000000"),
                None => ("&nbsp;", "#000000"),
            };
            html += &format!(
                "<td style=\"{cell}background:{background};color:{colour}\">{symbol}</td>"
            );
        }
        html += "</tr>";
    }
    html += "<tr><td></td>";
    for &file in &files {
        html += &format!(
            "<td style=\"{cell}color:#666;font-weight:normal\">{}</td>",
            char::from(b'a' + file)
        );
    }
    html += "</tr></table>";
    html
}

/// The HTML document around `body`.
fn html_page(title: &str, body: &str, link: &str, footer_text: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head>\
         <body style=\"font-family:sans-serif\">{body}\
         <p><a href=\"{link}\">Open it on the site</a></p>\
         <p style=\"color:#666;font-size:12px;white-space:pre-line\">{footer}</p></body></html>",
        title = escape(title),
        link = escape(link),
        footer = escape(footer_text),
    )
}

/// The side a player sees the board from.
fn side_of(game: &Game, player: i64) -> Color {
    game.color_of(player).unwrap_or(Color::White)
}

/// How to answer a game's mail, for the player `to`.
fn how_to_answer(game: &Game, to: &MailProfile) -> String {
    if game.is_finished() {
        return String::new();
    }
    let mut text = String::new();
    if game.seat(game.turn()).player_id() == Some(to.user_id) {
        text += &format!(
            "Your move: reply to this mail with the move alone in the subject or the first \
             line (e.g. a move like {} with #{} to make sure it is still move {}), or send \
             `epaminondas move {} {} PASSWORD MOVE` to the server.\n",
            game.position()
                .legal_moves()
                .first()
                .map(|m| m.to_string())
                .unwrap_or_default(),
            game.ply() + 1,
            game.ply() + 1,
            game.id,
            to.name
        );
    }
    text += "Other answers by reply: resign, propose (a draw), undo, accept, reject, \
             board, history, chat MESSAGE.\n";
    text
}

/// A notification about `game` for `to`, with its reply address and
/// unsubscribe link; the text leads with `lead`.
#[allow(clippy::too_many_arguments)]
pub fn game_mail(
    settings: &MailSettings,
    game: &Game,
    to: &MailProfile,
    kind: MailKind,
    subject: String,
    lead: &str,
    reply_to: Option<String>,
    unsubscribe: String,
    now: i64,
) -> OutMail {
    let side = side_of(game, to.user_id);
    let link = settings.link(&format!("/game/{}", game.id));
    let foot = footer(settings, &unsubscribe);
    let answer = how_to_answer(game, to);
    let board = text::board(game, Some(side), now);
    let clocks = text::clock_lines(game, now);
    let text = format!("{lead}\n\n{board}\n{answer}\nOn the site: {link}\n{foot}");
    let html_body = format!(
        "<p>{}</p><p><b>{}</b></p><p style=\"white-space:pre-line\">{}</p>{}\
         <p style=\"white-space:pre-line\">{}</p>",
        escape(lead),
        escape(&text::status_line(game)),
        escape(&clocks),
        board_html(game, side),
        escape(&answer)
    );
    OutMail {
        user_id: Some(to.user_id),
        to: to.email.clone(),
        kind: kind.name().to_owned(),
        html: Some(html_page(&subject, &html_body, &link, &foot)),
        subject,
        text,
        reply_to,
        unsubscribe: Some(unsubscribe),
        auto_reply: false,
        digest: false,
        tokens: Vec::new(),
    }
}

/// The subject and lead of the mail after a move, for the player `to`.
pub fn move_words(game: &Game, to: &MailProfile) -> (String, String) {
    let last = game
        .record
        .moves()
        .last()
        .map(|m| m.with_capture_mark().to_string())
        .unwrap_or_default();
    let yours = game.seat(game.turn()).player_id() == Some(to.user_id);
    let mover = !game.turn();
    let subject = if yours {
        format!(
            "Epaminondas board {}: your move (move {})",
            game.id,
            game.ply() + 1
        )
    } else {
        format!(
            "Epaminondas board {}: {} played {last}",
            game.id,
            side_label(mover)
        )
    };
    let lead = format!(
        "{} played {last} on board {}.",
        game.seat(mover).name(),
        game.id
    );
    (subject, lead)
}

/// The subject and lead of the mail at a game's end.
pub fn end_words(game: &Game) -> (String, String) {
    let line = text::status_line(game);
    (
        format!(
            "Epaminondas board {}: {}",
            game.id,
            line.trim_end_matches('.')
        ),
        line,
    )
}

/// The subject and lead of a correspondence reminder, with the time left.
pub fn reminder_words(game: &Game, now: i64) -> (String, String) {
    let left = game
        .deadline()
        .map(|deadline| deadline - now)
        .unwrap_or_default()
        .max(0);
    let left_words = text::duration_words(left);
    (
        format!(
            "Epaminondas board {}: your move, {left_words} left",
            game.id
        ),
        format!(
            "Your move on board {}: {left_words} left before the game is lost on time.",
            game.id
        ),
    )
}

/// The subject and lead of the mail that announces an automatic vacation.
pub fn vacation_words(game: &Game, vacation: &Vacation) -> (String, String) {
    let who = game.seat(vacation.color).name();
    (
        format!(
            "Epaminondas board {}: {who}'s time ran out, a vacation day was used",
            game.id
        ),
        format!(
            "{who}'s time on board {} ran out, so the server used vacation time from {who}'s \
             yearly allowance: {who}'s correspondence clocks stop until {}. A player who would \
             rather lose on time switches automatic vacation off in the settings.",
            game.id,
            text::utc_time(vacation.ends_at)
        ),
    )
}

/// The subject and lead of an offer's mail.
pub fn offer_words(game: &Game, draw: bool) -> (String, String) {
    let by = match (draw, game.draw_offer, game.takeback_offer) {
        (true, Some(c), _) | (false, _, Some(c)) => game.seat(c).name(),
        _ => "Your opponent".to_owned(),
    };
    let what = if draw {
        "offers a draw"
    } else {
        "asks to take back a move"
    };
    (
        format!("Epaminondas board {}: {by} {what}", game.id),
        format!("{by} {what}. Reply `accept` or `reject`, or answer on the site."),
    )
}

/// A mail about a challenge for `to`: received, accepted or declined.
pub fn challenge_mail(
    settings: &MailSettings,
    challenge: &Challenge,
    to: &MailProfile,
    lead: &str,
    reply_to: Option<String>,
    unsubscribe: String,
) -> OutMail {
    let foot = footer(settings, &unsubscribe);
    let link = settings.link("/");
    let answer = if reply_to.is_some() {
        format!(
            "Reply to this mail with `accept` or `reject`, or send `epaminondas accept {} {} PASSWORD`.\n",
            challenge.id, to.name
        )
    } else {
        String::new()
    };
    let line = text::challenge_line(challenge);
    let subject = format!("Epaminondas challenge {}: {lead}", challenge.id);
    let text = format!("{lead}\n\n{line}\n\n{answer}On the site: {link}\n{foot}");
    OutMail {
        user_id: Some(to.user_id),
        to: to.email.clone(),
        kind: MailKind::Challenge.name().to_owned(),
        html: None,
        subject,
        text,
        reply_to,
        unsubscribe: Some(unsubscribe),
        auto_reply: false,
        digest: false,
        tokens: Vec::new(),
    }
}

/// A chat message for `to` from the opponent.
pub fn chat_mail(
    settings: &MailSettings,
    game: &Game,
    to: &MailProfile,
    from: &str,
    message: &str,
    reply_to: Option<String>,
    unsubscribe: String,
) -> OutMail {
    let foot = footer(settings, &unsubscribe);
    let link = settings.link(&format!("/game/{}", game.id));
    OutMail {
        user_id: Some(to.user_id),
        to: to.email.clone(),
        kind: MailKind::Chat.name().to_owned(),
        subject: format!("Epaminondas board {}: {from} says", game.id),
        text: format!(
            "{from} says, on board {}:\n\n  {message}\n\nReply with `chat YOUR MESSAGE` to answer.\n\
             On the site: {link}\n{foot}",
            game.id
        ),
        html: None,
        reply_to,
        unsubscribe: Some(unsubscribe),
        auto_reply: false,
        digest: false,
        tokens: Vec::new(),
    }
}

/// The one reply to a mailed message: the answer, or the error quoting
/// the command and saying what to do.
pub fn reply_mail(
    settings: &MailSettings,
    to: &str,
    user_id: Option<i64>,
    subject: &str,
    body: &str,
) -> OutMail {
    let subject = if subject.trim().is_empty() {
        "Re: (no subject)".to_owned()
    } else if subject.to_ascii_lowercase().starts_with("re:") {
        subject.to_owned()
    } else {
        format!("Re: {subject}")
    };
    OutMail {
        user_id,
        to: to.to_owned(),
        kind: "reply".to_owned(),
        subject: subject.chars().take(200).collect(),
        text: format!(
            "{body}\n-- \nEpaminondas at {} (send `help` to {} for the commands)\n",
            settings.site_url,
            settings.address()
        ),
        html: None,
        reply_to: None,
        unsubscribe: None,
        auto_reply: true,
        digest: false,
        tokens: Vec::new(),
    }
}

/// The mail that verifies an address: a link that works when opened.
pub fn verify_mail(
    settings: &MailSettings,
    user_id: i64,
    name: &str,
    email: &str,
    token: &str,
) -> OutMail {
    let link = settings.link(&format!("/mail/verify/{token}"));
    OutMail {
        user_id: Some(user_id),
        to: email.to_owned(),
        kind: "verify".to_owned(),
        subject: "Epaminondas: confirm your e-mail address".to_owned(),
        text: format!(
            "Hello {name},\n\nTo confirm that {email} is your address, open this link \
             (it works for 7 days):\n\n  {link}\n\nUntil then nothing else is mailed to you. \
             If you did not sign up at {site}, ignore this mail.\n",
            site = settings.site_url
        ),
        html: None,
        reply_to: None,
        unsubscribe: None,
        auto_reply: false,
        digest: false,
        tokens: Vec::new(),
    }
}

/// The mail with a link to choose a new password.
pub fn reset_mail(
    settings: &MailSettings,
    user_id: i64,
    name: &str,
    email: &str,
    token: &str,
) -> OutMail {
    let link = settings.link(&format!("/mail/reset/{token}"));
    OutMail {
        user_id: Some(user_id),
        to: email.to_owned(),
        kind: "reset".to_owned(),
        subject: "Epaminondas: choose a new password".to_owned(),
        text: format!(
            "Hello {name},\n\nSomeone (we hope you) asked to reset the password of {name}. \
             To choose a new one, open this link within an hour:\n\n  {link}\n\n\
             If it was not you, ignore this mail: your password stays as it is.\n"
        ),
        html: None,
        reply_to: None,
        unsubscribe: None,
        auto_reply: false,
        digest: false,
        tokens: Vec::new(),
    }
}

/// One mail gathering a player's waiting notifications.
pub fn digest_mail(
    settings: &MailSettings,
    user_id: i64,
    to: &str,
    items: &[(String, String)],
    unsubscribe: String,
) -> OutMail {
    let foot = footer(settings, &unsubscribe);
    let mut text = format!(
        "Your Epaminondas news ({} item{}):\n",
        items.len(),
        if items.len() == 1 { "" } else { "s" }
    );
    for (subject, body) in items {
        let body: String = body.split("\n-- \n").next().unwrap_or(body).to_owned();
        text += &format!("\n== {subject}\n\n{body}\n");
    }
    text += &foot;
    OutMail {
        user_id: Some(user_id),
        to: to.to_owned(),
        kind: "digest".to_owned(),
        subject: format!(
            "Epaminondas: {} item{} for you",
            items.len(),
            if items.len() == 1 { "" } else { "s" }
        ),
        text,
        html: None,
        reply_to: None,
        unsubscribe: Some(unsubscribe),
        auto_reply: false,
        digest: false,
        tokens: Vec::new(),
    }
}

/// Whether `game` ended in this change (for the end mail).
pub fn ended(before: &Game, after: &Game) -> bool {
    matches!(after.status, Status::Finished { .. }) && !before.is_finished()
}
