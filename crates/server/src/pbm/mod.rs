//! pbmserv's plain-text commands, a front door onto the game domain: one
//! command line in, the reply pbmserv would have mailed back out (a status
//! line, the numbered moves or an ASCII board from the reader's side), or a
//! refusal the door renders as `Error:` and the reason.
//!
//! Board numbers are game numbers (from 101); challenges take their numbers
//! from the same sequence, so `accept N` and `reject N` know from N alone
//! whether they answer a challenge or an offer on a board. pbmserv's size
//! option is ROWSxCOLS: `-size=8x10` is 8 ranks of 10 files. A move may end
//! in `#N`, the number of the move it is meant to be (as the board's status
//! line shows it): if another move was made first, it is refused. Every
//! command that acts for a player carries the player's password; a mailed
//! command that came to a player's reply address (see [`crate::mail`])
//! acts for that player in that game without one, in the short forms
//! (`e1,e2-e3#5`, `resign`, `chat MESSAGE` ...).

pub mod text;
mod tournaments;

use std::net::IpAddr;
use std::sync::Arc;

use epaminondas_rules::{BoardSize, Color, excerpt};

use crate::auth::AuthUser;
use crate::error::{Error, Result};
use crate::game::{Offer, OfferAction, Seat, TimeControl};
use crate::mail::{MailKind, MailMode};
use crate::service::{
    ChallengeOptions, Created, Numbered, Opponent, RulesText, Service, parse_number, read_variant,
};

/// The reply to `help`.
pub const HELP: &str = "\
Epaminondas server commands (pbmserv style), one per request or mail:

  help [SUBJECT]                          SUBJECT: commands, mail, rules
  signup USERID PASSWORD EMAIL            (by mail: a verification link follows)
  change password USERID OLDPASSWORD NEWPASSWORD
  change address USERID PASSWORD EMAIL    the new address is verified by mail
  signoff USERID PASSWORD                 stop all mail from the server
  mail USERID PASSWORD each|digest|off [KIND ...]   what is mailed to you
  epaminondas challenge [-variant=NAME] [-size=ROWSxCOLS] [-symmetry=mirror|file|off]
                        [-days=N | -bank=START+INCREMENT/MAX] USERID OPPONENT PASSWORD
      challenges OPPONENT: you play o (White, moves first), 7 days a move
      (or N days, or a time bank like -bank=10d+36h/10d), unrated; the
      reply gives the challenge its number. NAME: epaminondas (the
      default), crossings (8x8), abanondas or stumbling-blocks
  epaminondas accept CHALLENGE USERID PASSWORD   accept a challenge: the game begins
  epaminondas reject CHALLENGE USERID PASSWORD   decline it (or withdraw your own)
  epaminondas move BOARD USERID PASSWORD MOVE[#MOVENO] [propose|undo|resign]
      MOVE like e1,e3-e5 or f1-f2 (in Abanondas a sidestep like a2,b2-b3,
      in Stumbling Blocks a stone's placement like @d6); #MOVENO refuses
      the move if it is no longer move MOVENO; MOVE may also be propose,
      undo or resign
  epaminondas board BOARD [USERID]        the board (from USERID's side)
  epaminondas showas BOARD USERID         the board as USERID sees it
  epaminondas history BOARD               the moves so far
  epaminondas games USERID [active|next]  a player's games (next: their move)
  epaminondas resign BOARD USERID PASSWORD
  epaminondas propose BOARD USERID PASSWORD    offer a draw
  epaminondas undo BOARD USERID PASSWORD       ask to take back your move
  epaminondas accept BOARD USERID PASSWORD     accept the opponent's draw offer or undo
  epaminondas reject BOARD USERID PASSWORD     reject it
  epaminondas chat BOARD USERID PASSWORD MESSAGE   a message to your opponent
  epaminondas mute|unmute BOARD USERID PASSWORD    hide your opponent's messages
  epaminondas report BOARD USERID PASSWORD [REASON]  report their latest message
  epaminondas queue BOARD USERID PASSWORD [MOVES [; MOVES ...] | clear]
      conditional moves: each line your opponent's move, your reply, and so
      on; played the moment the opponent's move matches, dropped if not
  epaminondas vacation USERID PASSWORD [DAYS [YYYY-MM-DD] | end N | auto on|off | cap GAMES]
      your correspondence clocks stop on vacation (a yearly allowance);
      auto: a day is taken when your time runs out; cap: most games at once
  epaminondas tournaments                 tournaments taking sign-ups, running and ended
  epaminondas tournament N                one: standings (tie-breaks BH, SB) and pairings
  epaminondas enter|withdraw N USERID PASSWORD   sign up for tournament N, or leave
      it (once it runs: your running games in it are resigned, the rest forfeited)
  epaminondas leagues                     the leagues
  epaminondas league N [join|leave USERID PASSWORD]   a league; join from next season
  epaminondas ratings [VARIANT]           the rating list (each variant has its own)
  epaminondas standings                   wins, draws and losses of every player

Challenges and boards share one numbering, so a number names one or the other.
";

/// The reply to `help mail`.
pub const HELP_MAIL: &str = "\
Playing by mail: send commands to the server's address, in the Subject or
the first lines of the body. Every mail gets one answer.

The server's mail about a game comes from a reply address of your own for
that game: answer it from your verified address with just a move in the
subject or the first line (e1,e2-e3, with #MOVENO to be safe), or with
resign, propose, undo, accept, reject, board, history or chat MESSAGE; no
password is needed there. Anything else needs your password in the command.

What is mailed to you: `mail USERID PASSWORD each|digest|off [KIND ...]`,
with the kinds turn, every_move, challenge, end, reminder, offer, chat;
`signoff USERID PASSWORD` stops it all. The site's settings page does the same.
";

/// The reply to `help rules`.
pub const HELP_RULES: &str = "\
The rules of Epaminondas, in short: a move takes a phalanx (a piece and the
friendly pieces in a line ahead of it) up to as many squares as it has
pieces along its line; landing on an enemy line shorter than the phalanx
captures all of it. You win when, at the start of your turn, you have more
pieces on your opponent's home rank than they have on yours; a player with
no move loses. The whole rules: the site's rules page.
";

/// The longest command line read.
const MAX_LINE: usize = 1_000;

/// Runs one command line from a client at `addr`: the reply text, or why
/// the command was refused (nothing changed then).
pub async fn execute(service: &Arc<Service>, line: &str, addr: IpAddr) -> Result<String> {
    execute_as(service, line, addr, None).await
}

/// Who a mailed command acts for when it came to a player's reply address:
/// the player, and the game or challenge the address belongs to.
#[derive(Clone, Debug)]
pub struct Acting {
    /// The player.
    pub user: AuthUser,
    /// The game or challenge number.
    pub number: i64,
}

/// [`execute`], for a command that came to a reply address of `acting`'s:
/// the short forms then act for that player without a password.
pub async fn execute_as(
    service: &Arc<Service>,
    line: &str,
    addr: IpAddr,
    acting: Option<&Acting>,
) -> Result<String> {
    let line = line.lines().next().unwrap_or("").trim();
    if line.len() > MAX_LINE {
        return Err(Error::invalid(format!(
            "the command is longer than {MAX_LINE} characters"
        )));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let door = Door { service, addr };
    if let Some(acting) = acting
        && let Some(reply) = door.short_form(acting, &words).await
    {
        return reply;
    }
    door.run(&words).await
}

/// `command` for quoting in a reply: at most a short excerpt, its password
/// masked.
pub fn quote(command: &str) -> String {
    excerpt(&masked(command))
}

/// `command` with its password (where its form has one) masked.
pub fn masked(command: &str) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let at = |i: usize| lower.get(i).map(String::as_str);
    // Where the password is, by the command's form.
    let secret: Vec<usize> = match (at(0), at(1)) {
        (Some("signup"), _) | (Some("signoff"), _) | (Some("mail"), _) => vec![2],
        (Some("change"), Some("password")) => vec![3, 4],
        (Some("change"), Some("address")) => vec![3],
        (Some("epaminondas"), Some("challenge")) => {
            let plain: Vec<usize> = (2..words.len())
                .filter(|&i| !words[i].starts_with('-'))
                .collect();
            plain.get(2).copied().into_iter().collect()
        }
        (
            Some("epaminondas"),
            Some(
                "move" | "resign" | "propose" | "undo" | "accept" | "reject" | "chat" | "message"
                | "queue" | "mute" | "unmute" | "report",
            ),
        ) => vec![4],
        (Some("epaminondas"), Some("vacation")) => vec![3],
        _ => Vec::new(),
    };
    let masked: Vec<&str> = words
        .iter()
        .enumerate()
        .map(|(i, w)| if secret.contains(&i) { "********" } else { *w })
        .collect();
    masked.join(" ")
}

/// The refusal as pbmserv wrote it: `Error:` and the reason.
pub fn error_text(error: &Error) -> String {
    format!("Error: {error}\n")
}

/// The reply to `help SUBJECT`.
fn help(subject: &str) -> Result<String> {
    match subject.to_ascii_lowercase().as_str() {
        "commands" | "all" => Ok(HELP.to_string()),
        "mail" | "email" | "reply" => Ok(HELP_MAIL.to_string()),
        "rules" | "epaminondas" => Ok(HELP_RULES.to_string()),
        other => Err(Error::invalid(format!(
            "no help on {:?}: the subjects are commands, mail and rules",
            excerpt(other)
        ))),
    }
}

/// The form of the `vacation` command.
const VACATION_FORM: &str = "epaminondas vacation USERID PASSWORD [DAYS [YYYY-MM-DD] | end NUMBER | auto on|off | cap GAMES]";

/// A length like `10d`, `36h` or `1d12h`, in milliseconds.
fn duration_option(text: &str) -> Option<i64> {
    let mut total = 0i64;
    let mut number = String::new();
    for c in text.chars() {
        match c {
            '0'..='9' => number.push(c),
            'd' | 'h' if !number.is_empty() => {
                let n: i64 = number.parse().ok()?;
                total += n * if c == 'd' {
                    crate::game::DAY_MS
                } else {
                    3_600_000
                };
                number.clear();
            }
            _ => return None,
        }
    }
    number.is_empty().then_some(total)
}

/// `-bank=START+INCREMENT/MAX` (lengths like `10d`, `36h`): a time bank.
fn bank_option(value: &str) -> Result<TimeControl> {
    let bad = || {
        Error::invalid(format!(
            "-bank: {:?} is not START+INCREMENT/MAX with lengths like 10d or 36h (e.g. -bank=10d+36h/10d)",
            excerpt(value)
        ))
    };
    let (start, rest) = value.split_once('+').ok_or_else(bad)?;
    let (increment, max) = rest.split_once('/').ok_or_else(bad)?;
    Ok(TimeControl::Bank {
        initial_ms: duration_option(start).ok_or_else(bad)?,
        increment_ms: duration_option(increment).ok_or_else(bad)?,
        max_ms: duration_option(max).ok_or_else(bad)?,
    })
}

fn usage(form: &str) -> Error {
    Error::invalid(format!("usage: {form}"))
}

fn board_number(text: &str) -> Result<i64> {
    parse_number(text, "a board number")
}

struct Door<'a> {
    service: &'a Arc<Service>,
    addr: IpAddr,
}

impl Door<'_> {
    async fn signed(&self, user: &str, password: &str) -> Result<AuthUser> {
        self.service.password_user(user, password, self.addr).await
    }

    /// The short forms a reply address allows, for `acting`'s player in
    /// `acting`'s game or challenge; `None` when `words` is none of them.
    async fn short_form(&self, acting: &Acting, words: &[&str]) -> Option<Result<String>> {
        let service = self.service;
        let caller = &acting.user;
        let id = acting.number;
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
        let reply = match lower.as_slice() {
            ["move", _] => self.play(caller, id, words[1]).await,
            [mv] if crate::mail::inbound::is_command(mv)
                && !matches!(
                    *mv,
                    "resign"
                        | "propose"
                        | "draw"
                        | "undo"
                        | "accept"
                        | "reject"
                        | "board"
                        | "history"
                        | "help"
                        | "ratings"
                        | "standings"
                        | "queue"
                        | "mute"
                        | "unmute"
                        | "report"
                ) =>
            {
                self.play(caller, id, words[0]).await
            }
            ["resign"] => service
                .resign(caller, id)
                .await
                .map(|g| text::board(&g, g.color_of(caller.player.id), service.now())),
            ["propose" | "draw"] => service
                .offer(caller, id, Offer::Draw, OfferAction::Offer)
                .await
                .map(|g| text::board(&g, g.color_of(caller.player.id), service.now())),
            ["undo"] => self.undo(caller, id).await,
            [verb @ ("accept" | "reject")] => self.answer(caller, id, *verb == "accept").await,
            ["board"] => service
                .game(id)
                .await
                .map(|g| text::board(&g, g.color_of(caller.player.id), service.now())),
            ["history"] => service.game(id).await.map(|g| text::history(&g)),
            ["queue", ..] => self.queue(caller, id, &words[1..]).await,
            ["report", ..] => self.report(caller, id, &words[1..]).await,
            ["mute"] => self.mute(caller, id, true).await,
            ["unmute"] => self.mute(caller, id, false).await,
            ["chat" | "message", ..] if words.len() > 1 => service
                .chat(caller, id, &words[1..].join(" "))
                .await
                .map(|_| format!("Message sent to your opponent on board {id}.\n")),
            _ => return None,
        };
        Some(reply)
    }

    /// Plays `mv` (`MOVE[#MOVENO]`) for `caller` in game `id`; the board back.
    async fn play(&self, caller: &AuthUser, id: i64, mv: &str) -> Result<String> {
        let (text, sent_at) = match mv.split_once('#') {
            Some((text, number)) => {
                let n: usize = number.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                    Error::invalid(format!("#{} is not a move number", excerpt(number)))
                })?;
                (text, Some(n - 1))
            }
            None => (mv, None),
        };
        let game = self.service.play(caller, id, text, sent_at).await?;
        Ok(text::board(
            &game,
            game.color_of(caller.player.id),
            self.service.now(),
        ))
    }

    /// `undo`: grants the opponent's pending takeback request, or asks for one.
    async fn undo(&self, caller: &AuthUser, id: i64) -> Result<String> {
        let service = self.service;
        let game = service.game(id).await?;
        let action = match game.color_of(caller.player.id) {
            Some(me) if game.pending_for(me, Offer::Takeback) => OfferAction::Accept,
            _ => OfferAction::Offer,
        };
        let game = service.offer(caller, id, Offer::Takeback, action).await?;
        Ok(text::board(
            &game,
            game.color_of(caller.player.id),
            service.now(),
        ))
    }

    /// `accept` or `reject` of number `id`: a challenge, or a board's offer.
    async fn answer(&self, caller: &AuthUser, id: i64, accept: bool) -> Result<String> {
        let service = self.service;
        match service.numbered(id).await? {
            Numbered::Challenge(c) if accept => {
                let game = service.accept(caller, c.id).await?;
                Ok(format!(
                    "Challenge {} accepted: board {} created.\n{}",
                    c.id,
                    game.id,
                    text::board(&game, game.color_of(caller.player.id), service.now())
                ))
            }
            Numbered::Challenge(c) => {
                let withdraw = c.challenger.id == caller.player.id;
                service.close_challenge(caller, c.id, withdraw).await?;
                let done = if withdraw { "withdrawn" } else { "declined" };
                Ok(format!("Challenge {} {done}.\n", c.id))
            }
            Numbered::Game => self.answer_offer(caller, id, accept).await,
        }
    }

    async fn run(&self, words: &[&str]) -> Result<String> {
        let service = self.service;
        match words {
            [] => Err(Error::invalid("empty command: send `help` for the list")),
            ["help"] | ["epaminondas", "help"] => Ok(HELP.to_string()),
            ["signup", user, password, email] => {
                let session = service
                    .sign_up(user, password, email, false, self.addr, None)
                    .await?;
                let verify = if service.sending().is_some() {
                    format!(
                        " A link to confirm {email} was mailed there; nothing else is mailed to you before it is opened."
                    )
                } else {
                    String::new()
                };
                Ok(format!(
                    "User {name} signed up.{verify} Send `epaminondas challenge {name} OPPONENT PASSWORD` to challenge someone.\n",
                    name = session.player.name
                ))
            }
            ["signup", ..] => Err(usage("signup USERID PASSWORD EMAIL")),
            ["epaminondas", "challenge", rest @ ..] => self.challenge(rest).await,
            [
                "epaminondas",
                "move",
                board,
                user,
                password,
                action @ ("propose" | "undo" | "resign"),
            ] => {
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                self.act(&caller, id, action).await
            }
            ["epaminondas", "move", board, user, password, mv] => {
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                self.play(&caller, id, mv).await
            }
            [
                "epaminondas",
                "move",
                board,
                user,
                password,
                mv,
                action @ ("propose" | "undo" | "resign"),
            ] => {
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                self.play(&caller, id, mv).await?;
                self.act(&caller, id, action).await
            }
            ["epaminondas", "move", ..] => Err(usage(
                "epaminondas move BOARD USERID PASSWORD MOVE[#MOVENO] [propose|undo|resign]",
            )),
            ["help", subject] | ["epaminondas", "help", subject] => help(subject),
            ["change", "password", user, old, new] => {
                let caller = self.signed(user, old).await?;
                service.set_new_password(&caller, new).await?;
                Ok(format!(
                    "The password of {} is changed; every other session has ended.\n",
                    caller.player.name
                ))
            }
            ["change", "password", ..] => {
                Err(usage("change password USERID OLDPASSWORD NEWPASSWORD"))
            }
            ["change", "address", user, password, email] => {
                let caller = self.signed(user, password).await?;
                let mailed = service
                    .change_email(&caller, password, email, self.addr)
                    .await?;
                Ok(if mailed {
                    format!(
                        "A link to confirm {email} was mailed there: the address changes when it is opened.\n"
                    )
                } else {
                    "This server sends no mail, so addresses cannot be verified: ask its operator.\n".to_owned()
                })
            }
            ["change", "address", ..] => Err(usage("change address USERID PASSWORD EMAIL")),
            ["signoff", user, password] | ["epaminondas", "signoff", user, password] => {
                let caller = self.signed(user, password).await?;
                let (profile, _) = service.mail_choices(&caller).await?;
                service
                    .set_mail_choices(&caller, MailMode::Off, &profile.kinds)
                    .await?;
                Ok(format!(
                    "No more mail goes to {}, but the answers to your own mail. `mail {} PASSWORD each` starts it again.\n",
                    caller.player.name, caller.player.name
                ))
            }
            ["signoff", ..] => Err(usage("signoff USERID PASSWORD")),
            ["mail", user, password, mode, kinds @ ..] => {
                let caller = self.signed(user, password).await?;
                let mode: MailMode = mode.parse().map_err(Error::invalid)?;
                let (profile, _) = service.mail_choices(&caller).await?;
                let kinds = if kinds.is_empty() {
                    profile.kinds
                } else {
                    kinds
                        .iter()
                        .map(|k| k.parse::<MailKind>().map_err(Error::invalid))
                        .collect::<Result<Vec<_>>>()?
                };
                service.set_mail_choices(&caller, mode, &kinds).await?;
                let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
                Ok(format!(
                    "Mail for {}: {}, of the kinds {}.\n",
                    caller.player.name,
                    mode.name(),
                    names.join(", ")
                ))
            }
            ["mail", ..] => Err(usage("mail USERID PASSWORD each|digest|off [KIND ...]")),
            ["epaminondas", "showas", board, user] => {
                let game = service.game(board_number(board)?).await?;
                let player = service.player(user).await?;
                match game.color_of(player.id) {
                    Some(side) => Ok(text::board(&game, Some(side), service.now())),
                    None => Err(Error::NotAPlayer(game.id)),
                }
            }
            ["epaminondas", "showas", ..] => Err(usage("epaminondas showas BOARD USERID")),
            [
                "epaminondas",
                "chat" | "message",
                board,
                user,
                password,
                message @ ..,
            ] if !message.is_empty() => {
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                service.chat(&caller, id, &message.join(" ")).await?;
                Ok(format!("Message sent to your opponent on board {id}.\n"))
            }
            ["epaminondas", verb @ ("chat" | "message"), ..] => Err(usage(&format!(
                "epaminondas {verb} BOARD USERID PASSWORD MESSAGE"
            ))),
            ["epaminondas", "queue", board, user, password, rest @ ..] => {
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                self.queue(&caller, id, rest).await
            }
            ["epaminondas", "queue", ..] => Err(usage(
                "epaminondas queue BOARD USERID PASSWORD [MOVES [; MOVES ...] | clear]",
            )),
            [
                "epaminondas",
                verb @ ("mute" | "unmute"),
                board,
                user,
                password,
            ] => {
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                self.mute(&caller, id, *verb == "mute").await
            }
            ["epaminondas", verb @ ("mute" | "unmute"), ..] => {
                Err(usage(&format!("epaminondas {verb} BOARD USERID PASSWORD")))
            }
            ["epaminondas", "report", board, user, password, reason @ ..] => {
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                self.report(&caller, id, reason).await
            }
            ["epaminondas", "report", ..] => {
                Err(usage("epaminondas report BOARD USERID PASSWORD [REASON]"))
            }
            ["epaminondas", "vacation", user, password, rest @ ..] => {
                let caller = self.signed(user, password).await?;
                self.vacation(&caller, rest).await
            }
            ["epaminondas", "vacation", ..] => Err(usage(VACATION_FORM)),
            ["epaminondas", "games", user, which @ ("active" | "next")] => {
                self.games_filtered(user, which).await
            }
            ["epaminondas", "standings"] => self.standings().await,
            ["epaminondas", "board", board] => {
                let game = service.game(board_number(board)?).await?;
                Ok(text::board(&game, None, service.now()))
            }
            ["epaminondas", "board", board, user] => {
                let game = service.game(board_number(board)?).await?;
                let black = matches!(game.seat(Color::Black), Seat::Human(p) if p.name.eq_ignore_ascii_case(user));
                Ok(text::board(
                    &game,
                    black.then_some(Color::Black),
                    service.now(),
                ))
            }
            ["epaminondas", "history", board] => {
                let game = service.game(board_number(board)?).await?;
                Ok(text::history(&game))
            }
            ["epaminondas", "games", user] => self.games(user).await,
            [
                "epaminondas",
                verb @ ("accept" | "reject"),
                number,
                user,
                password,
            ] => {
                let id = parse_number(number, "a challenge or board number")?;
                let caller = self.signed(user, password).await?;
                self.answer(&caller, id, *verb == "accept").await
            }
            [
                "epaminondas",
                verb @ ("resign" | "propose" | "undo"),
                board,
                user,
                password,
            ] => {
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                self.act(&caller, id, verb).await
            }
            ["epaminondas", verb @ ("accept" | "reject"), ..] => Err(usage(&format!(
                "epaminondas {verb} CHALLENGE-OR-BOARD USERID PASSWORD"
            ))),
            ["epaminondas", verb @ ("resign" | "propose" | "undo"), ..] => {
                Err(usage(&format!("epaminondas {verb} BOARD USERID PASSWORD")))
            }
            ["epaminondas", "ratings"] => self.ratings(None).await,
            ["epaminondas", "ratings", variant] => self.ratings(Some(variant)).await,
            ["epaminondas", "tournaments"] => {
                Ok(tournaments::tournament_list(&service.tournaments().await?))
            }
            ["epaminondas", "tournament", number] => {
                let id = parse_number(number, "the tournament number")?;
                Ok(tournaments::tournament(&service.tournament(id).await?))
            }
            ["epaminondas", "tournament", ..] => Err(usage("epaminondas tournament N")),
            [
                "epaminondas",
                verb @ ("enter" | "withdraw"),
                number,
                user,
                password,
            ] => {
                let id = parse_number(number, "the tournament number")?;
                let caller = self.signed(user, password).await?;
                let t = if *verb == "enter" {
                    service.join_tournament(&caller, id).await?
                } else {
                    service.withdraw_from_tournament(&caller, id).await?
                };
                let done = if *verb == "enter" {
                    "You are in"
                } else {
                    "You are out of"
                };
                Ok(format!(
                    "{done} tournament {id}.\n\n{}",
                    tournaments::tournament(&t)
                ))
            }
            ["epaminondas", verb @ ("enter" | "withdraw"), ..] => Err(usage(&format!(
                "epaminondas {verb} TOURNAMENT USERID PASSWORD"
            ))),
            ["epaminondas", "leagues"] => Ok(tournaments::league_list(&service.leagues().await?)),
            ["epaminondas", "league", number] => {
                let id = parse_number(number, "the league number")?;
                Ok(tournaments::league(&service.league(id).await?))
            }
            [
                "epaminondas",
                "league",
                number,
                verb @ ("join" | "leave"),
                user,
                password,
            ] => {
                let id = parse_number(number, "the league number")?;
                let caller = self.signed(user, password).await?;
                let view = if *verb == "join" {
                    service.join_league(&caller, id).await?
                } else {
                    service.leave_league(&caller, id).await?
                };
                Ok(tournaments::league(&view))
            }
            ["epaminondas", "league", ..] => {
                Err(usage("epaminondas league N [join|leave USERID PASSWORD]"))
            }
            ["epaminondas", other, ..] => Err(Error::invalid(format!(
                "unknown command {:?}: send `help` for the list",
                excerpt(other)
            ))),
            [other, ..] => Err(Error::invalid(format!(
                "unknown command {:?}: game commands start with `epaminondas`; send `help` for the list",
                excerpt(other)
            ))),
        }
    }

    /// `queue`: shows `caller`'s conditional moves in game `id`, sets them
    /// from lines of moves separated by `;`, or clears them.
    async fn queue(&self, caller: &AuthUser, id: i64, words: &[&str]) -> Result<String> {
        let service = self.service;
        match words {
            [] => {}
            [clear] if clear.eq_ignore_ascii_case("clear") => {
                service.set_conditional(caller, id, "").await?;
            }
            _ => {
                service
                    .set_conditional(caller, id, &words.join(" "))
                    .await?;
            }
        }
        let (game, lines) = service.conditional(caller, id).await?;
        let mut out = format!(
            "Conditional moves on board {} (each line: your opponent's move, your reply, ...; \
             played the moment your opponent's move matches, private until then):\n",
            game.id
        );
        if lines.is_empty() {
            out.push_str("  none\n");
        }
        for (i, line) in lines.iter().enumerate() {
            out.push_str(&format!("  {}. {}\n", i + 1, line.join(" ")));
        }
        Ok(out)
    }

    /// `report [REASON]`: reports the opponent's latest message in game `id`.
    async fn report(&self, caller: &AuthUser, id: i64, reason: &[&str]) -> Result<String> {
        let message = self
            .service
            .report_latest_chat(caller, id, &reason.join(" "))
            .await?;
        Ok(format!(
            "Message {message} on board {id} is reported; the site's operator will read it.\n"
        ))
    }

    /// `mute` or `unmute` the opponent's chat in game `id`.
    async fn mute(&self, caller: &AuthUser, id: i64, muted: bool) -> Result<String> {
        self.service.mute_chat(caller, id, muted).await?;
        Ok(if muted {
            format!("Your opponent's messages on board {id} are muted: you will not see them.\n")
        } else {
            format!("Your opponent's messages on board {id} are shown again.\n")
        })
    }

    /// `vacation`: shows the allowance and vacations, takes one, ends one,
    /// or sets automatic vacation or the cap on correspondence games.
    async fn vacation(&self, caller: &AuthUser, words: &[&str]) -> Result<String> {
        let service = self.service;
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
        let info = service.vacation_info(caller).await?;
        let mut options = info.options;
        match lower.as_slice() {
            [] => {}
            ["end", number] => {
                service
                    .end_vacation(caller, parse_number(number, "a vacation number")?)
                    .await?;
            }
            ["auto", on @ ("on" | "off")] => {
                options.auto_vacation = *on == "on";
                service.set_correspondence_options(caller, options).await?;
            }
            ["cap", games] => {
                options.max_correspondence = parse_number(games, "the most games")?;
                service.set_correspondence_options(caller, options).await?;
            }
            [days] | [days, _] => {
                let days = parse_number(days, "the number of days")?;
                let start = match words.get(1) {
                    Some(date) => Some(text::parse_utc_date(date).ok_or_else(|| {
                        Error::invalid(format!("{:?} is not a date like 2026-12-24", excerpt(date)))
                    })?),
                    None => None,
                };
                service.take_vacation(caller, start, days).await?;
            }
            _ => return Err(usage(VACATION_FORM)),
        }
        let info = service.vacation_info(caller).await?;
        let mut out = format!(
            "Vacation of {}: {} of {} days left this year; automatic vacation {}; {}.\n",
            caller.player.name,
            (info.allowance_days - info.used_days).max(0),
            info.allowance_days,
            if info.options.auto_vacation {
                "on"
            } else {
                "off"
            },
            match info.options.max_correspondence {
                0 => "no cap on correspondence games".to_owned(),
                n => format!("at most {n} correspondence games at once"),
            }
        );
        for v in &info.vacations {
            out.push_str(&format!(
                "  vacation {}: {} to {}{}\n",
                v.id,
                text::utc_time(v.starts_at),
                text::utc_time(v.ends_at),
                if v.automatic { " (automatic)" } else { "" }
            ));
        }
        Ok(out)
    }

    /// `resign`, `propose` (a draw) or `undo` for `caller` in game `id`.
    async fn act(&self, caller: &AuthUser, id: i64, action: &str) -> Result<String> {
        let service = self.service;
        let game = match action {
            "resign" => service.resign(caller, id).await?,
            "propose" => {
                service
                    .offer(caller, id, Offer::Draw, OfferAction::Offer)
                    .await?
            }
            _ => return self.undo(caller, id).await,
        };
        Ok(text::board(
            &game,
            game.color_of(caller.player.id),
            service.now(),
        ))
    }

    /// `games USERID active|next`: the running games, or those where it is
    /// the player's move.
    async fn games_filtered(&self, user: &str, which: &str) -> Result<String> {
        let (player, games) = self.service.games_of(user, true, None).await?;
        let next = which == "next";
        let games: Vec<_> = games
            .iter()
            .filter(|g| !next || g.seat(g.turn()).player_id() == Some(player.id))
            .collect();
        let mut out = if next {
            format!("Games of {} waiting for their move:\n", player.name)
        } else {
            format!("Running games of {}:\n", player.name)
        };
        if games.is_empty() {
            out.push_str("  none\n");
        }
        for g in games {
            out.push_str(&format!("  {}\n", text::summary(g)));
        }
        Ok(out)
    }

    /// `standings`: every player's wins, draws and losses.
    async fn standings(&self) -> Result<String> {
        let rows = self.service.standings().await?;
        let mut out = String::from("Epaminondas standings (finished games against people)\n");
        if rows.is_empty() {
            out.push_str("  no finished games yet\n");
        }
        out.push_str(&format!(
            "      {:<20} {:>6} {:>5} {:>5} {:>6}\n",
            "player", "played", "won", "drawn", "lost"
        ));
        for (i, row) in rows.iter().enumerate() {
            out.push_str(&format!(
                "{:>4}. {:<20} {:>6} {:>5} {:>5} {:>6}\n",
                i + 1,
                row.name,
                row.played,
                row.won,
                row.drawn,
                row.played - row.won - row.drawn
            ));
        }
        Ok(out)
    }

    /// `epaminondas challenge [-variant=NAME] [-size=ROWSxCOLS] [-symmetry=S] USERID OPPONENT PASSWORD`.
    async fn challenge(&self, words: &[&str]) -> Result<String> {
        const FORM: &str = "epaminondas challenge [-variant=epaminondas|crossings|abanondas|stumbling-blocks] [-size=ROWSxCOLS] [-symmetry=mirror|file|off] [-days=N | -bank=START+INCREMENT/MAX] USERID OPPONENT PASSWORD";
        let mut board = None;
        let mut symmetry = None;
        let mut variant = None;
        let mut time = TimeControl::Correspondence { days_per_move: 7 };
        let mut rest = Vec::new();
        for word in words {
            let Some(option) = word.strip_prefix('-') else {
                rest.push(*word);
                continue;
            };
            match option.split_once('=') {
                Some(("size", value)) => {
                    // pbmserv: ROWSxCOLS.
                    let rows_by_cols = value.parse::<BoardSize>().map_err(|e| {
                        Error::invalid(format!("-size: {e} (the size is ROWSxCOLS, like 8x8)"))
                    })?;
                    board = Some(rows_by_cols.transposed().to_string());
                }
                Some(("symmetry", value)) => symmetry = Some(value),
                Some(("variant", value)) => variant = Some(value),
                Some(("days", value)) => {
                    let days_per_move = value.parse().map_err(|_| {
                        Error::invalid(format!("-days: {:?} is not a number", excerpt(value)))
                    })?;
                    time = TimeControl::Correspondence { days_per_move };
                }
                Some(("bank", value)) => time = bank_option(value)?,
                _ => {
                    return Err(Error::invalid(format!(
                        "unknown option {:?}: use -variant=NAME, -size=ROWSxCOLS, \
                         -symmetry=mirror|file|off, -days=N or -bank=START+INCREMENT/MAX",
                        excerpt(word)
                    )));
                }
            }
        }
        let [user, opponent, password] = rest.as_slice() else {
            return Err(usage(FORM));
        };
        let rules = RulesText {
            variant,
            board: board.as_deref(),
            symmetry,
        };
        let options = ChallengeOptions::read(
            Opponent::Player(opponent.to_string()),
            rules,
            Some("white"),
            false,
            Some(time),
        )?;
        let caller = self.signed(user, password).await?;
        match self.service.challenge(&caller, options).await? {
            Created::Challenge(c) => Ok(text::challenge_made(&c)),
            Created::Game(_) => Err(Error::Internal("a pbm challenge began a game".into())),
        }
    }

    /// Answers the draw offer or takeback request pending on board `id`.
    async fn answer_offer(&self, caller: &AuthUser, id: i64, accept: bool) -> Result<String> {
        let service = self.service;
        let game = service.game(id).await?;
        let action = if accept {
            OfferAction::Accept
        } else {
            OfferAction::Decline
        };
        // Without a pending takeback request, the draw answer gives the
        // precise refusal.
        let kind = match game.color_of(caller.player.id) {
            Some(me)
                if !game.pending_for(me, Offer::Draw) && game.pending_for(me, Offer::Takeback) =>
            {
                Offer::Takeback
            }
            _ => Offer::Draw,
        };
        let game = service.offer(caller, id, kind, action).await?;
        Ok(text::board(
            &game,
            game.color_of(caller.player.id),
            service.now(),
        ))
    }

    async fn games(&self, user: &str) -> Result<String> {
        let (player, games) = self.service.games_of(user, false, None).await?;
        let mut out = format!("Games of {}:\n", player.name);
        if games.is_empty() {
            out.push_str("  none\n");
        }
        for g in &games {
            out.push_str(&format!("  {}\n", text::summary(g)));
        }
        let challenges: Vec<_> = self
            .service
            .challenges(&player)
            .await?
            .into_iter()
            .filter(|c| {
                c.challenger.id == player.id || c.target.as_ref().is_some_and(|t| t.id == player.id)
            })
            .collect();
        if !challenges.is_empty() {
            out.push_str("Open challenges:\n");
            for c in &challenges {
                out.push_str(&format!("  {}\n", text::challenge_line(c)));
            }
        }
        Ok(out)
    }

    async fn ratings(&self, variant: Option<&str>) -> Result<String> {
        let variant = read_variant(variant)?;
        let rows = self.service.leaderboard(variant).await?;
        let mut out = format!(
            "{} ratings (Glicko-2: rating and rating deviation)\n",
            variant.title()
        );
        if rows.is_empty() {
            out.push_str("  no rated games yet\n");
        }
        for (i, row) in rows.iter().enumerate() {
            out.push_str(&format!(
                "{:>4}. {:<20} {:>5.0} RD {:<4.0} {} games\n",
                i + 1,
                row.name,
                row.rating,
                row.deviation,
                row.rated_games
            ));
        }
        Ok(out)
    }
}
