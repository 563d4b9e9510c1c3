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
//! command that acts for a player carries the player's password.

pub mod text;

use std::net::IpAddr;
use std::sync::Arc;

use epaminondas_rules::{BoardSize, Color, excerpt};

use crate::auth::AuthUser;
use crate::error::{Error, Result};
use crate::game::{Offer, OfferAction, Seat, TimeControl};
use crate::service::{ChallengeOptions, Created, Numbered, Opponent, Service, parse_number};

/// The reply to `help`.
pub const HELP: &str = "\
Epaminondas server commands (pbmserv style), one per request:

  help
  signup USERID PASSWORD EMAIL
  epaminondas challenge [-size=ROWSxCOLS] [-symmetry=mirror|file|off] USERID OPPONENT PASSWORD
      challenges OPPONENT: you play o (White, moves first), 7 days a move,
      unrated; the reply gives the challenge its number
  epaminondas accept CHALLENGE USERID PASSWORD   accept a challenge: the game begins
  epaminondas reject CHALLENGE USERID PASSWORD   decline it (or withdraw your own)
  epaminondas move BOARD USERID PASSWORD MOVE[#MOVENO]
      MOVE like e1,e3-e5 or f1-f2; #MOVENO refuses the move if it is no
      longer move MOVENO
  epaminondas board BOARD [USERID]        the board (from USERID's side)
  epaminondas history BOARD               the moves so far
  epaminondas games USERID                a player's games and open challenges
  epaminondas resign BOARD USERID PASSWORD
  epaminondas propose BOARD USERID PASSWORD    offer a draw
  epaminondas undo BOARD USERID PASSWORD       ask to take back your move
  epaminondas accept BOARD USERID PASSWORD     accept the opponent's draw offer or undo
  epaminondas reject BOARD USERID PASSWORD     reject it
  epaminondas ratings                     the rating list

Challenges and boards share one numbering, so a number names one or the other.
";

/// The longest command line read.
const MAX_LINE: usize = 1_000;

/// Runs one command line from a client at `addr`: the reply text, or why
/// the command was refused (nothing changed then).
pub async fn execute(service: &Arc<Service>, line: &str, addr: IpAddr) -> Result<String> {
    let line = line.lines().next().unwrap_or("").trim();
    if line.len() > MAX_LINE {
        return Err(Error::invalid(format!(
            "the command is longer than {MAX_LINE} characters"
        )));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let door = Door { service, addr };
    door.run(&words).await
}

/// The refusal as pbmserv wrote it: `Error:` and the reason.
pub fn error_text(error: &Error) -> String {
    format!("Error: {error}\n")
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

    async fn run(&self, words: &[&str]) -> Result<String> {
        let service = self.service;
        match words {
            [] => Err(Error::invalid("empty command: send `help` for the list")),
            ["help"] | ["epaminondas", "help"] => Ok(HELP.to_string()),
            ["signup", user, password, email] => {
                let session = service
                    .sign_up(user, password, email, false, self.addr, None)
                    .await?;
                Ok(format!(
                    "User {name} signed up. Send `epaminondas challenge {name} OPPONENT PASSWORD` to challenge someone.\n",
                    name = session.player.name
                ))
            }
            ["signup", ..] => Err(usage("signup USERID PASSWORD EMAIL")),
            ["epaminondas", "challenge", rest @ ..] => self.challenge(rest).await,
            ["epaminondas", "move", board, user, password, mv] => {
                let (text, sent_at) = match mv.split_once('#') {
                    Some((text, number)) => {
                        let n: usize =
                            number.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                                Error::invalid(format!("#{} is not a move number", excerpt(number)))
                            })?;
                        (text, Some(n - 1))
                    }
                    None => (*mv, None),
                };
                let id = board_number(board)?;
                let caller = self.signed(user, password).await?;
                let game = service.play(&caller, id, text, sent_at).await?;
                Ok(text::board(&game, game.color_of(caller.player.id)))
            }
            ["epaminondas", "move", ..] => Err(usage(
                "epaminondas move BOARD USERID PASSWORD MOVE[#MOVENO]",
            )),
            ["epaminondas", "board", board] => {
                let game = service.game(board_number(board)?).await?;
                Ok(text::board(&game, None))
            }
            ["epaminondas", "board", board, user] => {
                let game = service.game(board_number(board)?).await?;
                let black = matches!(game.seat(Color::Black), Seat::Human(p) if p.name.eq_ignore_ascii_case(user));
                Ok(text::board(&game, black.then_some(Color::Black)))
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
                match service.numbered(id).await? {
                    Numbered::Challenge(c) if *verb == "accept" => {
                        let game = service.accept(&caller, c.id).await?;
                        Ok(format!(
                            "Challenge {} accepted: board {} created.\n{}",
                            c.id,
                            game.id,
                            text::board(&game, game.color_of(caller.player.id))
                        ))
                    }
                    Numbered::Challenge(c) => {
                        let withdraw = c.challenger.id == caller.player.id;
                        service.close_challenge(&caller, c.id, withdraw).await?;
                        let done = if withdraw { "withdrawn" } else { "declined" };
                        Ok(format!("Challenge {} {done}.\n", c.id))
                    }
                    Numbered::Game => self.answer_offer(&caller, id, *verb == "accept").await,
                }
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
                let game = match *verb {
                    "resign" => service.resign(&caller, id).await?,
                    "propose" => {
                        service
                            .offer(&caller, id, Offer::Draw, OfferAction::Offer)
                            .await?
                    }
                    _ => {
                        // `undo` grants the opponent's pending request, or asks.
                        let game = service.game(id).await?;
                        let action = match game.color_of(caller.player.id) {
                            Some(me) if game.pending_for(me, Offer::Takeback) => {
                                OfferAction::Accept
                            }
                            _ => OfferAction::Offer,
                        };
                        service.offer(&caller, id, Offer::Takeback, action).await?
                    }
                };
                Ok(text::board(&game, game.color_of(caller.player.id)))
            }
            ["epaminondas", verb @ ("accept" | "reject"), ..] => Err(usage(&format!(
                "epaminondas {verb} CHALLENGE-OR-BOARD USERID PASSWORD"
            ))),
            ["epaminondas", verb @ ("resign" | "propose" | "undo"), ..] => {
                Err(usage(&format!("epaminondas {verb} BOARD USERID PASSWORD")))
            }
            ["epaminondas", "ratings"] => self.ratings().await,
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

    /// `epaminondas challenge [-size=ROWSxCOLS] [-symmetry=S] USERID OPPONENT PASSWORD`.
    async fn challenge(&self, words: &[&str]) -> Result<String> {
        const FORM: &str = "epaminondas challenge [-size=ROWSxCOLS] [-symmetry=mirror|file|off] USERID OPPONENT PASSWORD";
        let mut size = None;
        let mut symmetry = None;
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
                    size = Some(rows_by_cols.transposed());
                }
                Some(("symmetry", value)) => symmetry = Some(value),
                _ => {
                    return Err(Error::invalid(format!(
                        "unknown option {:?}: use -size=ROWSxCOLS or -symmetry=mirror|file|off",
                        excerpt(word)
                    )));
                }
            }
        }
        let [user, opponent, password] = rest.as_slice() else {
            return Err(usage(FORM));
        };
        let mut options = ChallengeOptions::read(
            Opponent::Player(opponent.to_string()),
            None,
            symmetry,
            Some("white"),
            false,
            Some(TimeControl::Correspondence { days_per_move: 7 }),
        )?;
        if let Some(size) = size {
            options.size = size;
        }
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
        Ok(text::board(&game, game.color_of(caller.player.id)))
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

    async fn ratings(&self) -> Result<String> {
        let rows = self.service.leaderboard().await?;
        let mut out = String::from("Epaminondas ratings (Glicko-2)\n");
        if rows.is_empty() {
            out.push_str("  no rated games yet\n");
        }
        for (i, row) in rows.iter().enumerate() {
            out.push_str(&format!(
                "{:>4}. {:<20} {:>5.0} ±{:<4.0} {} games\n",
                i + 1,
                row.name,
                row.rating,
                2.0 * row.deviation,
                row.rated_games
            ));
        }
        Ok(out)
    }
}
