//! The JSON the API and the streams send, built from the domain's plain
//! data. Clients (the web page among them) hold no rules: the board, the
//! legal moves and the squares each one touches come from here.

use epaminondas_engine::score;
use epaminondas_rules::{Color, GameRecord, Move, Position, Square, Variant, WinReason};
use serde_json::{Value, json};

use crate::challenge::Challenge;
use crate::engines::{Analysed, Iteration};
use crate::events::{Notice, PlayerEvent};
use crate::game::{Game, Seat, Status};
use crate::glicko::Rating;
use crate::service::Hello;
use crate::service::Profile;
use crate::store::{Standing, TokenInfo};

/// One move as text plus the squares a display marks: its kind (`move`, an
/// Abanondas `sidestep` or a Stumbling Blocks `placement`), the moving
/// group, the head's destination, where each piece of the group lands (in
/// the order of `from`; a placement's square) and the captured pieces.
pub fn move_view(mv: Move) -> Value {
    let names = |squares: &mut dyn Iterator<Item = Square>| -> Vec<String> {
        squares.map(|sq| sq.to_string()).collect()
    };
    let kind = if mv.is_placement() {
        "placement"
    } else if mv.sidestep().is_some() {
        "sidestep"
    } else {
        "move"
    };
    json!({
        "text": mv.to_string(),
        "kind": kind,
        "from": names(&mut mv.group_squares()),
        "to": mv.destination().to_string(),
        "lands": names(&mut mv.landing_squares()),
        "captured": names(&mut mv.captured_squares()),
    })
}

/// The variant of a position as a client shows it: its name, its title and,
/// in Stumbling Blocks, the stones still to place.
fn variant_fields(view: &mut Value, pos: &Position) {
    view["variant"] = pos.variant().name().into();
    view["variant_title"] = pos.variant().title().into();
    view["stones_to_place"] = pos.stones_to_place().into();
}

/// Every legal move of `pos` as [`move_view`]s.
pub fn legal_views(pos: &Position) -> Vec<Value> {
    pos.legal_moves().iter().map(|&mv| move_view(mv)).collect()
}

/// A position for a client: its text, pieces, side to move, goal counts,
/// how the game has ended there (if it has) and the legal moves.
pub fn position_view(pos: &Position) -> Value {
    let outcome = pos.outcome().map(|o| {
        json!({
            "winner": o.winner.name(),
            "reason": match o.reason {
                WinReason::Crossing => "crossing",
                WinReason::NoMoves => "no_moves",
            },
            "text": o.to_string(),
        })
    });
    let mut view = json!({
        "position": pos.to_setup().to_string(),
        "board": pos.size().to_string(),
        "files": pos.size().files(),
        "ranks": pos.size().ranks(),
        "symmetry": pos.symmetry().name(),
        "rows": pos.to_setup().rows(),
        "turn": pos.turn().name(),
        "goal": {
            "white": pos.goal_count(Color::White),
            "black": pos.goal_count(Color::Black),
        },
        "outcome": outcome,
        "legal": legal_views(pos),
    });
    variant_fields(&mut view, pos);
    view
}

/// What a client needs to show an analysis line: where it starts, its
/// moves, and the position at its end with the legal moves there.
pub fn line_view(record: &GameRecord) -> Value {
    let mut state = position_view(record.position());
    state["last"] = record
        .moves()
        .last()
        .map_or(Value::Null, |&mv| move_view(mv));
    json!({
        "start": record.start().to_setup().to_string(),
        "symmetry": record.start().symmetry().name(),
        "variant": record.start().variant().name(),
        "moves": record.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "result": record.result().token(),
        "state": state,
    })
}

fn seat_view(seat: &Seat) -> Value {
    match seat {
        Seat::Human(p) => json!({ "name": p.name, "id": p.id }),
        Seat::Engine(level) => json!({ "name": seat.name(), "engine_level": level }),
    }
}

/// The game as the API and the streams show it at `now`; with the legal
/// moves of the side to move when `legal`.
pub fn game_view(game: &Game, now: i64, legal: bool) -> Value {
    let (status, result, reason) = match game.status {
        Status::Active => ("active", None, None),
        Status::Finished { result, reason } => {
            ("finished", Some(result.token()), Some(reason.name()))
        }
    };
    let pos = game.position();
    let clocks = if game.control.has_clocks() {
        json!({
            "white_ms": game.remaining_ms(Color::White, now).max(0),
            "black_ms": game.remaining_ms(Color::Black, now).max(0),
        })
    } else {
        Value::Null
    };
    let vacations: Vec<Value> = game
        .vacations
        .iter()
        .filter(|v| v.ends_at > now)
        .map(|v| {
            json!({"color": v.color.name(), "starts_at": v.starts_at, "ends_at": v.ends_at,
                   "automatic": v.automatic, "now": v.starts_at <= now})
        })
        .collect();
    let stopped = game.on_vacation(game.turn(), now).is_some();
    let last = game.record.moves().last();
    let mut view = json!({
        "id": game.id,
        "white": seat_view(&game.white),
        "black": seat_view(&game.black),
        "board": pos.size().to_string(),
        "files": pos.size().files(),
        "ranks": pos.size().ranks(),
        "symmetry": pos.symmetry().name(),
        "rated": game.rated,
        "time": game.control,
        "moves": game.move_texts(),
        "ply": game.ply(),
        "turn": game.turn().name(),
        "position": pos.to_setup().to_string(),
        "goal": {
            "white": pos.goal_count(Color::White),
            "black": pos.goal_count(Color::Black),
        },
        "last_move": last.map(|m| m.with_capture_mark().to_string()),
        "status": status,
        "result": result,
        "reason": reason,
        "winner": game.winner().map(Color::name),
        "clocks": clocks,
        "clock_running": !game.is_finished() && game.deadline().is_some() && !stopped,
        "vacations": vacations,
        "deadline_at": game.deadline(),
        "draw_offer": game.draw_offer.map(Color::name),
        "takeback_offer": game.takeback_offer.map(Color::name),
        "created_at": game.created_at,
        "ended_at": game.ended_at,
        "rows": pos.to_setup().rows(),
        "last": last.map_or(Value::Null, |&mv| move_view(mv)),
    });
    if legal {
        let active = !game.is_finished();
        let moves: Vec<String> = if active {
            pos.legal_moves().iter().map(Move::to_string).collect()
        } else {
            Vec::new()
        };
        view["legal_moves"] = moves.into();
        view["legal"] = if active { legal_views(pos) } else { Vec::new() }.into();
    }
    variant_fields(&mut view, pos);
    view
}

/// A challenge as the API shows it.
pub fn challenge_view(c: &Challenge) -> Value {
    json!({
        "id": c.id,
        "challenger": c.challenger.name,
        "opponent": c.target.as_ref().map(|p| p.name.clone()),
        "board": c.size.to_string(),
        "files": c.size.files(),
        "ranks": c.size.ranks(),
        "symmetry": c.symmetry.name(),
        "variant": c.variant.name(),
        "variant_title": c.variant.title(),
        "color": c.color.name(),
        "rated": c.rated,
        "time": c.control,
        "status": c.status.name(),
        "game": c.game_id,
        "created_at": c.created_at,
    })
}

/// A game stream's message: `gameFull` first, `gameState` after each change.
pub fn game_message(game: &Game, now: i64, full: bool) -> String {
    json!({
        "type": if full { "gameFull" } else { "gameState" },
        "game": game_view(game, now, true),
    })
    .to_string()
}

/// An event on `player`'s stream.
pub fn player_event(event: &PlayerEvent, player: i64) -> Value {
    let kind = event.kind();
    match event {
        PlayerEvent::Challenge(c)
        | PlayerEvent::ChallengeDeclined(c)
        | PlayerEvent::ChallengeCanceled(c) => {
            json!({"type": kind, "challenge": challenge_view(c)})
        }
        PlayerEvent::GameStart(g) => {
            let color = g.color_of(player).unwrap_or(Color::White);
            json!({"type": kind, "game": {
                "id": g.id,
                "color": color.name(),
                "opponent": g.seat(!color).name(),
                "your_turn": g.turn() == color,
                "board": g.position().size().to_string(),
            }})
        }
        PlayerEvent::YourTurn(g) => json!({"type": kind, "game": {"id": g.id, "ply": g.ply()}}),
        PlayerEvent::Reminder(g) => {
            json!({"type": kind, "game": {"id": g.id, "deadline_at": g.deadline()}})
        }
        PlayerEvent::GameFinish(g) => {
            let (result, reason) = match g.status {
                Status::Finished { result, reason } => (Some(result.token()), Some(reason.name())),
                Status::Active => (None, None),
            };
            json!({"type": kind, "game": {
                "id": g.id,
                "result": result,
                "reason": reason,
                "winner": g.winner().map(Color::name),
            }})
        }
    }
}

/// A published notice as its stream sends it (to `player` on a player's
/// stream).
pub fn notice_text(notice: &Notice, now: i64, player: Option<i64>) -> String {
    match notice {
        Notice::Game(game) => game_message(game, now, false),
        Notice::Player(event) => player_event(event, player.unwrap_or(0)).to_string(),
    }
}

/// The first message of a player's stream.
pub fn hello_view(hello: &Hello, player: i64) -> String {
    let games: Vec<Value> = hello
        .games
        .iter()
        .map(|g| {
            let color = g.color_of(player).unwrap_or(Color::White);
            json!({"id": g.id, "color": color.name(), "opponent": g.seat(!color).name(),
                   "your_turn": g.turn() == color, "deadline_at": g.deadline()})
        })
        .collect();
    let challenges: Vec<Value> = hello.challenges.iter().map(challenge_view).collect();
    json!({"type": "hello", "challenges": challenges, "games": games}).to_string()
}

/// One completed iteration of an analysis: depth, score (as UGI writes it:
/// `cp N`, `win N`, `loss N`), nodes, time and best line.
pub fn iteration_view(iteration: &Iteration) -> Value {
    json!({
        "depth": iteration.depth,
        "score": score::format(iteration.score),
        "nodes": iteration.nodes,
        "elapsed_ms": u64::try_from(iteration.elapsed.as_millis()).unwrap_or(u64::MAX),
        "pv": iteration.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}

/// The last message of an analysis, with `"done": true`.
pub fn analysed_view(end: &Analysed) -> Value {
    let (found, stopped) = match end {
        Analysed::Done(found) => (found, None),
        Analysed::Preempted(found) => (found, Some("the engine was needed for a game")),
        Analysed::Failed => return json!({"done": true, "error": "the engine stopped"}),
    };
    json!({
        "done": true,
        "best": found.best.map(|m| m.to_string()),
        "depth": found.depth,
        "score": score::format(found.score),
        "nodes": found.nodes,
        "pv": found.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "stopped": stopped,
    })
}

/// An API token as its owner sees it.
pub fn token_view(token: &TokenInfo) -> Value {
    json!({
        "id": token.id,
        "label": token.label,
        "scopes": token.scopes.iter().map(|s| s.name()).collect::<Vec<_>>(),
        "created_at": token.created_at,
    })
}

/// The rating list of `variant`.
pub fn leaderboard_view(variant: Variant, rows: &[Standing]) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            json!({"rank": i + 1, "name": row.name, "rating": row.rating.round(),
                   "deviation": row.deviation.round(), "rated_games": row.rated_games})
        })
        .collect();
    json!({"variant": variant.name(), "players": rows})
}

/// A player's profile: the standard game's rating, each other variant's
/// (`ratings`, the standard game's first), and the rating after each rated
/// game.
pub fn profile_view(profile: &Profile) -> Value {
    let user = &profile.user;
    let history: Vec<Value> = profile
        .history
        .iter()
        .map(|p| {
            json!({"game": p.game, "variant": p.variant.name(), "rating": p.rating.round(),
                   "deviation": p.deviation.round(), "at": p.at})
        })
        .collect();
    let rating = |variant: Variant, r: &Rating, games: i64| {
        json!({"variant": variant.name(), "title": variant.title(), "rating": r.rating.round(),
               "deviation": r.deviation.round(), "rated_games": games})
    };
    let ratings: Vec<Value> =
        std::iter::once(rating(Variant::Epaminondas, &user.rating, user.rated_games))
            .chain(profile.variants.iter().map(|(v, r, n)| rating(*v, r, *n)))
            .collect();
    json!({
        "ratings": ratings,
        "id": user.player.id, "name": user.player.name, "bot": user.bot,
        "deleted": user.deleted_at.is_some(),
        "rating": user.rating.rating.round(), "deviation": user.rating.deviation.round(),
        "rated_games": user.rated_games, "created_at": user.created_at,
        "rating_history": history,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_rules::BoardSize;

    #[test]
    fn every_legal_move_is_described_with_its_squares() {
        let pos = Position::new(BoardSize::new(8, 8).unwrap(), Default::default());
        let view = position_view(&pos);
        assert_eq!(view["rows"][0], "bbbbbbbb");
        assert_eq!(view["rows"][7], "wwwwwwww");
        let legal = legal_views(&pos);
        assert_eq!(legal.len(), pos.legal_moves().len());
        let single = legal
            .iter()
            .find(|m| m["text"] == "a2-a3")
            .expect("a2-a3 is legal at the start");
        assert_eq!(single["from"], json!(["a2"]));
        assert_eq!(single["to"], "a3");
        assert_eq!(single["captured"], json!([]));
    }
}
