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
        // Stumbling Blocks opens with the stones' placements.
        Status::Active if game.position().stones_to_place() > 0 => format!(
            "Move {}: {} to place a stone (like @d6; {} left to place, shown as #).",
            game.ply() + 1,
            seat_label(game, game.turn()),
            game.position().stones_to_place()
        ),
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
        "{} board {}: {} vs {}, {} ranks x {} files, symmetry {}\n",
        pos.variant().title(),
        game.id,
        seat_label(game, Color::White),
        seat_label(game, Color::Black),
        pos.size().ranks(),
        pos.size().files(),
        pos.symmetry()
    )
}

/// A moment as `2026-11-24 13:05 UTC`.
pub fn utc_time(ms: i64) -> String {
    let seconds = u64::try_from(ms.max(0) / 1000).unwrap_or(0);
    let date = epaminondas_rules::pgn_date(seconds).replace('.', "-");
    format!(
        "{date} {:02}:{:02} UTC",
        seconds / 3600 % 24,
        seconds / 60 % 60
    )
}

/// Midnight UTC at the start of a date written `YYYY-MM-DD`, in
/// milliseconds since the epoch.
pub fn parse_utc_date(text: &str) -> Option<i64> {
    let mut parts = text.splitn(3, '-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: i64 = parts.next()?.parse().ok()?;
    let day: i64 = parts.next()?.parse().ok()?;
    if !(1970..=9999).contains(&year) || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // H. Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    let ms = days * 86_400_000;
    // A day the month does not have (31 June) comes back as another date.
    (utc_time(ms)[..10] == *text).then_some(ms)
}

/// The clocks at `now`, for every game with a time limit: the time left
/// for this move (and when it is due), each side's bank or clock, and who
/// is on vacation with their clock stopped.
pub fn clock_lines(game: &Game, now: i64) -> String {
    let mut out = String::new();
    if game.is_finished() {
        return out;
    }
    let turn = game.turn();
    match game.control {
        TimeControl::Unlimited => return out,
        TimeControl::Correspondence { .. } => {}
        TimeControl::Bank { .. } | TimeControl::Live { .. } => {
            let bank = |color| duration_words(game.remaining_ms(color, now));
            let what = if matches!(game.control, TimeControl::Bank { .. }) {
                "Time banks"
            } else {
                "Clocks"
            };
            out += &format!(
                "{what}: o {}, x {}.\n",
                bank(Color::White),
                bank(Color::Black)
            );
        }
    }
    if let Some(deadline) = game.deadline() {
        out += &format!(
            "{} has {} for this move (until {}).\n",
            seat_label(game, turn),
            duration_words(game.running_ms(turn, now, deadline)),
            utc_time(deadline)
        );
    }
    for color in [Color::White, Color::Black] {
        if let Some(v) = game.on_vacation(color, now) {
            out += &format!(
                "{} is on {}vacation until {}: their clock is stopped.\n",
                seat_label(game, color),
                if v.automatic { "automatic " } else { "" },
                utc_time(v.ends_at)
            );
        } else if let Some(v) = game
            .vacations
            .iter()
            .find(|v| v.color == color && v.starts_at > now)
        {
            out += &format!(
                "{} will be on vacation from {} to {}.\n",
                seat_label(game, color),
                utc_time(v.starts_at),
                utc_time(v.ends_at)
            );
        }
    }
    out
}

/// The board reply at `now`, seen from `side` (White's side when `None`).
pub fn board(game: &Game, side: Option<Color>, now: i64) -> String {
    let pos = game.position();
    let mut diagram = Diagram::new(pos).from_side(side.unwrap_or(Color::White));
    if let Some(&mv) = game.record.moves().last() {
        diagram = diagram.last_move(mv);
    }
    let mut out = header(game);
    out.push_str(&status_line(game));
    out.push('\n');
    out.push_str(&clock_lines(game, now));
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
    let variant = game.position().variant();
    let game_name = if variant.is_standard() {
        String::new()
    } else {
        format!("{}, ", variant.title())
    };
    format!(
        "board {:>4}  {game_name}{} vs {}  {}",
        game.id,
        seat_label(game, Color::White),
        seat_label(game, Color::Black),
        status_line(game)
    )
}

/// A length of time in words: `3 days 12 hours`, `5 hours 20 minutes`,
/// `40 minutes`.
pub fn duration_words(ms: i64) -> String {
    let ms = ms.max(0);
    let minutes = ms / 60_000;
    let (days, hours, minutes) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let unit = |n: i64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (days, hours) {
        (0, 0) => unit(minutes, "minute"),
        (0, _) if minutes > 0 => format!("{} {}", unit(hours, "hour"), unit(minutes, "minute")),
        (0, _) => unit(hours, "hour"),
        (_, 0) => unit(days, "day"),
        _ => format!("{} {}", unit(days, "day"), unit(hours, "hour")),
    }
}

/// The time control in words.
pub fn time_words(control: TimeControl) -> String {
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
        TimeControl::Bank {
            initial_ms,
            increment_ms,
            max_ms,
        } => format!(
            "time bank of {} + {} a move, at most {}",
            duration_words(initial_ms),
            duration_words(increment_ms),
            duration_words(max_ms)
        ),
    }
}

/// One line about an open challenge.
pub fn challenge_line(c: &Challenge) -> String {
    let whom = c
        .target
        .as_ref()
        .map_or_else(|| "anyone".to_string(), |t| t.name.clone());
    format!(
        "challenge {:>4}  {} challenges {}: {}, {} ranks x {} files, {}, {}, challenger plays {}",
        c.id,
        c.challenger.name,
        whom,
        c.variant.title(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_durations_read_and_write_back() {
        let ms = parse_utc_date("2026-11-24").unwrap();
        assert_eq!(utc_time(ms), "2026-11-24 00:00 UTC");
        assert_eq!(
            utc_time(ms + 13 * 3_600_000 + 5 * 60_000),
            "2026-11-24 13:05 UTC"
        );
        assert_eq!(
            parse_utc_date("2024-02-29").map(utc_time).unwrap(),
            "2024-02-29 00:00 UTC"
        );
        assert_eq!(parse_utc_date("2026-02-29"), None);
        assert_eq!(parse_utc_date("2026-13-01"), None);
        assert_eq!(parse_utc_date("yesterday"), None);
        assert_eq!(duration_words(0), "0 minutes");
        assert_eq!(duration_words(90 * 60_000), "1 hour 30 minutes");
        assert_eq!(duration_words(36 * 3_600_000), "1 day 12 hours");
        assert_eq!(duration_words(10 * 86_400_000), "10 days");
    }
}
