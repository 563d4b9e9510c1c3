//! The replies pbmserv mailed back, as text: the board from a player's
//! side with its status line, the numbered moves, a line per game, and a
//! challenge.

use epaminondas_rules::diagram::{piece_letter, side_label};
use epaminondas_rules::{Color, Diagram, GameResult};

use crate::challenge::Challenge;
use crate::game::{Game, Status, TimeControl};

fn seat_label(game: &Game, color: Color) -> String {
    format!("{} ({})", game.seat(color).name(), piece_letter(color))
}

/// The status line: whose move, or how the game ended.
pub fn status_line(game: &Game) -> String {
    match game.status {
        Status::Active => format!(
            "Move {}: {} to play.",
            game.ply() + 1,
            seat_label(game, game.turn())
        ),
        Status::Finished { result, reason } => match result {
            GameResult::WhiteWins => format!(
                "Game over: {} wins ({reason}).",
                seat_label(game, Color::White)
            ),
            GameResult::BlackWins => format!(
                "Game over: {} wins ({reason}).",
                seat_label(game, Color::Black)
            ),
            _ => format!("Game over: drawn ({reason})."),
        },
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
pub fn board(game: &Game, side: Option<Color>) -> String {
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
pub fn history(game: &Game) -> String {
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
pub fn summary(game: &Game) -> String {
    format!(
        "board {:>4}  {} vs {}  {}",
        game.id,
        seat_label(game, Color::White),
        seat_label(game, Color::Black),
        status_line(game)
    )
}

/// The time control in words.
fn time_words(control: TimeControl) -> String {
    match control {
        TimeControl::Unlimited => "no time limit".into(),
        TimeControl::Correspondence { days_per_move } => format!(
            "{days_per_move} day{} a move",
            if days_per_move == 1 { "" } else { "s" }
        ),
        TimeControl::Live {
            initial_ms,
            increment_ms,
        } => format!("{} min + {} s", initial_ms / 60_000, increment_ms / 1000),
    }
}

/// One line about an open challenge.
pub fn challenge_line(c: &Challenge) -> String {
    let whom = c
        .target
        .as_ref()
        .map_or_else(|| "anyone".to_string(), |t| t.name.clone());
    format!(
        "challenge {:>4}  {} challenges {}: {} ranks x {} files, {}, {}, challenger plays {}",
        c.id,
        c.challenger.name,
        whom,
        c.size.ranks(),
        c.size.files(),
        time_words(c.control),
        if c.rated { "rated" } else { "unrated" },
        c.color
    )
}

/// The reply to a new challenge: its number and how the opponent answers.
pub fn challenge_made(c: &Challenge) -> String {
    let opponent = c.target.as_ref().map_or("OPPONENT", |t| t.name.as_str());
    format!(
        "Challenge {id} sent.\n{line}\n{opponent} accepts with `epaminondas accept {id} {opponent} PASSWORD` \
         or declines with `epaminondas reject {id} {opponent} PASSWORD`; the game gets a board number \
         when it begins. `epaminondas reject {id} {challenger} PASSWORD` withdraws it.\n",
        id = c.id,
        line = challenge_line(c),
        challenger = c.challenger.name,
    )
}
