//! pbmserv's plain-text commands: one command line in, the reply pbmserv
//! would have mailed back out (a status line, the numbered moves or an
//! ASCII board from the reader's side, or `Error:` and the reason).
//!
//! Board numbers are game numbers (from 101). pbmserv's size option is
//! ROWSxCOLS: `-size=8x10` is 8 ranks of 10 files. A move may end in
//! `#N`, the number of the move it is meant to be (as the board's status
//! line shows it): if another move was made first, it is refused.

use std::net::IpAddr;
use std::sync::Arc;

use axum::http::StatusCode;
use epaminondas_rules::diagram::{piece_letter, side_label};
use epaminondas_rules::{Color, Diagram};

use crate::auth::Scope;
use crate::challenge::ColorChoice;
use crate::error::{ApiError, ApiResult};
use crate::game::{Game, Seat, Status, TimeControl};
use crate::service::{Created, Offer, OfferAction, Service};
use crate::store::AuthUser;

/// The reply to `help`.
pub const HELP: &str = "\
Epaminondas server commands (pbmserv style), one per request:

  help
  signup USERID PASSWORD EMAIL
  epaminondas challenge [-size=ROWSxCOLS] [-symmetry=mirror|file|off] USER1 USER2
      starts a game: USER1 plays o (White, moves first), USER2 plays x
  epaminondas move BOARD USERID PASSWORD MOVE[#MOVENO]
      MOVE like e1,e3-e5 or f1-f2; #MOVENO refuses the move if it is no
      longer move MOVENO
  epaminondas board BOARD [USERID]        the board (from USERID's side)
  epaminondas history BOARD               the moves so far
  epaminondas games USERID                a player's games
  epaminondas resign BOARD USERID PASSWORD
  epaminondas propose BOARD USERID PASSWORD    offer a draw
  epaminondas undo BOARD USERID PASSWORD       ask to take back your move
  epaminondas accept BOARD USERID PASSWORD     accept the opponent's draw offer or undo
  epaminondas reject BOARD USERID PASSWORD     reject it
  epaminondas ratings                     the rating list
";

/// Runs one command line; returns the HTTP status and the reply text.
pub async fn execute(service: &Arc<Service>, line: &str, addr: IpAddr) -> (StatusCode, String) {
    match run(service, line, addr).await {
        Ok(text) => (StatusCode::OK, text),
        Err(e) => {
            if let ApiError::Internal(detail) = &e {
                tracing::error!("pbm: {detail}");
            }
            (e.status(), format!("Error: {e}\n"))
        }
    }
}

fn usage(form: &str) -> ApiError {
    ApiError::bad(format!("usage: {form}"))
}

fn board_number(text: &str) -> ApiResult<i64> {
    text.parse()
        .map_err(|_| ApiError::bad(format!("{text:?} is not a board number")))
}

async fn run(service: &Arc<Service>, line: &str, addr: IpAddr) -> ApiResult<String> {
    let line = line.lines().next().unwrap_or("").trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [] => Err(ApiError::bad("empty command: send `help` for the list")),
        ["help"] | ["epaminondas", "help"] => Ok(HELP.to_string()),
        ["signup", user, password, email] => {
            let (player, _, _) = service
                .sign_up(user, password, email, false, addr, None)
                .await?;
            Ok(format!(
                "User {} signed up. Send `epaminondas challenge {} OPPONENT` to start a game.\n",
                player.name, player.name
            ))
        }
        ["signup", ..] => Err(usage("signup USERID PASSWORD EMAIL")),
        ["epaminondas", "challenge", rest @ ..] => challenge(service, rest).await,
        ["epaminondas", "move", board, user, password, mv] => {
            let (text, expected) = match mv.split_once('#') {
                Some((text, number)) => {
                    let n: usize =
                        number.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                            ApiError::bad(format!("#{number} is not a move number"))
                        })?;
                    (text, Some(n - 1))
                }
                None => (*mv, None),
            };
            let caller = signed(service, user, password, addr).await?;
            let game = service
                .play(&caller, board_number(board)?, text, expected)
                .await?;
            Ok(board_text(&game, game.color_of(caller.player.id)))
        }
        ["epaminondas", "move", ..] => Err(usage(
            "epaminondas move BOARD USERID PASSWORD MOVE[#MOVENO]",
        )),
        ["epaminondas", "board", board] => {
            let game = service.game(board_number(board)?).await?;
            Ok(board_text(&game, None))
        }
        ["epaminondas", "board", board, user] => {
            let game = service.game(board_number(board)?).await?;
            let side = game
                .seat(Color::Black)
                .player_id()
                .filter(|_| matches!(game.seat(Color::Black), Seat::Human(p) if p.name.eq_ignore_ascii_case(user)))
                .map(|_| Color::Black);
            Ok(board_text(&game, side))
        }
        ["epaminondas", "history", board] => {
            let game = service.game(board_number(board)?).await?;
            Ok(history_text(&game))
        }
        ["epaminondas", "games", user] => {
            let (player, games) = service.games_of(user, false).await?;
            let mut out = format!("Games of {}:\n", player.name);
            if games.is_empty() {
                out.push_str("  none\n");
            }
            for g in &games {
                out.push_str(&format!("  {}\n", summary(g)));
            }
            Ok(out)
        }
        [
            "epaminondas",
            verb @ ("resign" | "propose" | "undo" | "accept" | "reject"),
            board,
            user,
            password,
        ] => {
            let caller = signed(service, user, password, addr).await?;
            let id = board_number(board)?;
            let game = match *verb {
                "resign" => service.resign(&caller, id).await?,
                "propose" => {
                    service
                        .offer(&caller, id, Offer::Draw, OfferAction::Offer)
                        .await?
                }
                "undo" => {
                    let game = service.game(id).await?;
                    let mine = game.color_of(caller.player.id);
                    let theirs_pending = mine.is_some() && game.takeback_offer == mine.map(|c| !c);
                    let action = if theirs_pending {
                        OfferAction::Accept
                    } else {
                        OfferAction::Offer
                    };
                    service.offer(&caller, id, Offer::Takeback, action).await?
                }
                answer => {
                    let game = service.game(id).await?;
                    let mine = game.color_of(caller.player.id);
                    let accept = answer == "accept";
                    let action = if accept {
                        OfferAction::Accept
                    } else {
                        OfferAction::Decline
                    };
                    // Without a pending takeback request, the service gives
                    // the precise refusal for a draw answer.
                    let kind = if mine.is_some()
                        && game.draw_offer != mine.map(|c| !c)
                        && game.takeback_offer == mine.map(|c| !c)
                    {
                        Offer::Takeback
                    } else {
                        Offer::Draw
                    };
                    service.offer(&caller, id, kind, action).await?
                }
            };
            Ok(board_text(&game, game.color_of(caller.player.id)))
        }
        [
            "epaminondas",
            verb @ ("resign" | "propose" | "undo" | "accept" | "reject"),
            ..,
        ] => Err(usage(&format!("epaminondas {verb} BOARD USERID PASSWORD"))),
        ["epaminondas", "ratings"] => {
            let rows = service.leaderboard().await?;
            let mut out = String::from("Epaminondas ratings (Glicko-2)\n");
            if rows.is_empty() {
                out.push_str("  no rated games yet\n");
            }
            for (i, (name, rating, deviation, games)) in rows.iter().enumerate() {
                out.push_str(&format!(
                    "{:>4}. {:<20} {:>5.0} ±{:<4.0} {} games\n",
                    i + 1,
                    name,
                    rating,
                    2.0 * deviation,
                    games
                ));
            }
            Ok(out)
        }
        ["epaminondas", other, ..] => Err(ApiError::bad(format!(
            "unknown command {other:?}: send `help` for the list"
        ))),
        [other, ..] => Err(ApiError::bad(format!(
            "unknown command {other:?}: game commands start with `epaminondas`; send `help` for the list"
        ))),
    }
}

/// Checks a pbmserv command's name and password: the user, with the rights
/// of a signed-in person.
async fn signed(
    service: &Arc<Service>,
    user: &str,
    password: &str,
    addr: IpAddr,
) -> ApiResult<AuthUser> {
    let player = service.check_password(user, password, addr).await?;
    Ok(AuthUser {
        player,
        bot: false,
        scopes: vec![Scope::Read, Scope::Play],
        csrf: None,
        guest: false,
    })
}

async fn challenge(service: &Arc<Service>, words: &[&str]) -> ApiResult<String> {
    let mut board = None;
    let mut symmetry = None;
    let mut players = Vec::new();
    for word in words {
        let option = word.trim_start_matches('-');
        if word.starts_with('-') {
            match option.split_once('=') {
                Some(("size", value)) => {
                    // pbmserv: ROWSxCOLS.
                    let (rows, cols) = value
                        .to_ascii_lowercase()
                        .split_once('x')
                        .map(|(r, c)| (r.to_string(), c.to_string()))
                        .ok_or_else(|| {
                            ApiError::bad(format!("-size={value}: use ROWSxCOLS, like 8x8"))
                        })?;
                    board = Some(format!("{cols}x{rows}"));
                }
                Some(("symmetry", value)) => symmetry = Some(value.to_string()),
                _ => {
                    return Err(ApiError::bad(format!(
                        "unknown option {word}: use -size=ROWSxCOLS or -symmetry=..."
                    )));
                }
            }
        } else {
            players.push(*word);
        }
    }
    let [first, second] = players.as_slice() else {
        return Err(usage(
            "epaminondas challenge [-size=ROWSxCOLS] [-symmetry=...] USER1 USER2",
        ));
    };
    let options = crate::http::challenge_options(
        Some(second.to_string()),
        None,
        board.as_deref(),
        symmetry.as_deref(),
        Some(ColorChoice::White.name()),
        false,
        Some(TimeControl::Correspondence { days_per_move: 7 }),
    )?;
    let challenger = service.player(first).await?;
    let caller = AuthUser {
        player: challenger,
        bot: false,
        scopes: vec![Scope::Play],
        csrf: None,
        guest: false,
    };
    let Created::Challenge(c) = service.challenge(&caller, options).await? else {
        return Err(ApiError::Internal(
            "a pbm challenge made no challenge".into(),
        ));
    };
    // pbmserv's challenge starts the game at once.
    let opponent = AuthUser {
        player: c
            .target
            .clone()
            .ok_or_else(|| ApiError::Internal("no opponent".into()))?,
        bot: false,
        scopes: vec![Scope::Play],
        csrf: None,
        guest: false,
    };
    let game = service.accept(&opponent, c.id).await?;
    Ok(format!(
        "Board {} created.\n{}",
        game.id,
        board_text(&game, None)
    ))
}

fn seat_label(game: &Game, color: Color) -> String {
    format!("{} ({})", game.seat(color).name(), piece_letter(color))
}

/// The status line: whose move, or how the game ended.
fn status_line(game: &Game) -> String {
    match game.status {
        Status::Active => format!(
            "Move {}: {} to play.",
            game.ply() + 1,
            seat_label(game, game.turn())
        ),
        Status::Finished { result, reason } => {
            let how = reason.name().replace('_', " ");
            match result {
                epaminondas_rules::GameResult::WhiteWins => {
                    format!(
                        "Game over: {} wins ({how}).",
                        seat_label(game, Color::White)
                    )
                }
                epaminondas_rules::GameResult::BlackWins => {
                    format!(
                        "Game over: {} wins ({how}).",
                        seat_label(game, Color::Black)
                    )
                }
                _ => format!("Game over: drawn ({how})."),
            }
        }
    }
}

fn header(game: &Game) -> String {
    let pos = game.position();
    format!(
        "Epaminondas board {}: {} vs {}, {} ranks x {} files, symmetry {}\n",
        game.id,
        seat_label(game, Color::White),
        seat_label(game, Color::Black),
        pos.size().ranks(),
        pos.size().files(),
        pos.symmetry()
    )
}

/// The board reply, seen from `side` (White's side when `None`).
fn board_text(game: &Game, side: Option<Color>) -> String {
    let pos = game.position();
    let mut diagram = Diagram::new(pos).from_side(side.unwrap_or(Color::White));
    if let Some(&mv) = game.record.moves().last() {
        diagram = diagram.last_move(mv);
    }
    let mut out = header(game);
    out.push_str(&status_line(game));
    out.push('\n');
    if let Some(offer) = game.draw_offer {
        out.push_str(&format!("{} offers a draw.\n", side_label(offer)));
    }
    if let Some(offer) = game.takeback_offer {
        out.push_str(&format!("{} asks to undo a move.\n", side_label(offer)));
    }
    if let Some(mv) = game.record.moves().last() {
        out.push_str(&format!("Last move: {}\n", mv.with_capture_mark()));
    }
    out.push_str(&format!(
        "On the goal rank: o {}, x {}\n\n{diagram}",
        pos.goal_count(Color::White),
        pos.goal_count(Color::Black)
    ));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The numbered move list.
fn history_text(game: &Game) -> String {
    let mut out = header(game);
    out.push_str(&status_line(game));
    out.push('\n');
    for (i, pair) in game.record.moves().chunks(2).enumerate() {
        let white = pair[0].with_capture_mark().to_string();
        let black = pair
            .get(1)
            .map(|m| m.with_capture_mark().to_string())
            .unwrap_or_default();
        out.push_str(format!("{:>3}. {:<16} {}", i + 1, white, black).trim_end());
        out.push('\n');
    }
    out
}

/// One line about a game for `games`.
fn summary(game: &Game) -> String {
    format!(
        "board {:>4}  {} vs {}  {}",
        game.id,
        seat_label(game, Color::White),
        seat_label(game, Color::Black),
        status_line(game)
    )
}
