//! The plain text of tournaments and leagues for pbmserv's commands: the
//! list, and one tournament's standings (with tie-breaks) and pairings.

use std::fmt::Write;

use super::text::{time_words, utc_time};
use crate::service::LeagueView;
use crate::store::{League, TournamentSummary};
use crate::tournament::{Format, Outcome, Tournament, TournamentStatus};

fn format_words(format: Format) -> String {
    match format {
        Format::RoundRobin { cycles: 1 } => "round robin".into(),
        Format::RoundRobin { .. } => "double round robin".into(),
        Format::Swiss { rounds } => format!("Swiss, {rounds} rounds"),
    }
}

fn status_words(t: &Tournament) -> String {
    match t.status {
        TournamentStatus::SignUp => match t.starts_at {
            Some(at) => format!("taking sign-ups, starts {}", utc_time(at)),
            None => "taking sign-ups".into(),
        },
        TournamentStatus::Running if t.all_at_once() => "running, every game at once".into(),
        TournamentStatus::Running => format!("round {} of {}", t.round, t.rounds),
        TournamentStatus::Finished => "finished".into(),
        TournamentStatus::Canceled => "called off".into(),
    }
}

/// One line per tournament.
pub fn tournament_list(list: &[TournamentSummary]) -> String {
    if list.is_empty() {
        return "No tournaments yet.\n".into();
    }
    let mut out = String::from("Tournaments (`epaminondas tournament N` shows one):\n");
    for s in list {
        let t = &s.tournament;
        let _ = writeln!(
            out,
            "  {:>4}  {} ({}, {}, {}; {} players): {}",
            t.id,
            t.name,
            format_words(t.format),
            t.size,
            time_words(t.control),
            s.players,
            status_words(t)
        );
    }
    out
}

fn points(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

/// A tournament: what it is, its standings and its pairings.
pub fn tournament(t: &Tournament) -> String {
    let mut out = format!(
        "Tournament {}: {}\n{} on {}, {}, {}; organized by {}. {}.\n",
        t.id,
        t.name,
        format_words(t.format),
        t.size,
        time_words(t.control),
        if t.rated { "rated" } else { "unrated" },
        t.organizer.name,
        status_words(t),
    );
    if t.status == TournamentStatus::SignUp {
        let names: Vec<&str> = t.seeded().iter().map(|e| e.player.name.as_str()).collect();
        let _ = writeln!(out, "Players ({}): {}", names.len(), names.join(", "));
        let _ = writeln!(
            out,
            "Send `epaminondas enter {} USERID PASSWORD` to play.",
            t.id
        );
        return out;
    }
    let swiss = matches!(t.format, Format::Swiss { .. });
    let (first, second) = if swiss { ("BH", "SB") } else { ("SB", "BH") };
    let _ = writeln!(
        out,
        "\n  #  Player                Pts   {first:>5}  {second:>5}"
    );
    for (place, s) in t.standings().iter().enumerate() {
        let (a, b) = if swiss {
            (s.buchholz, s.sonneborn_berger)
        } else {
            (s.sonneborn_berger, s.buchholz)
        };
        let _ = writeln!(
            out,
            " {:>2}  {:<20} {:>4}  {:>5}  {:>5}{}",
            place + 1,
            s.player.name,
            points(s.points),
            points(a),
            points(b),
            if s.withdrawn { "  (withdrew)" } else { "" }
        );
    }
    let name = |id: i64| t.entrant(id).map_or("?", |e| e.player.name.as_str());
    let mut round = 0;
    for p in &t.pairings {
        if p.round != round {
            round = p.round;
            let _ = writeln!(out, "\nRound {round}:");
        }
        let result = match p.outcome {
            Outcome::Pending if p.game_id.is_some() => "playing".into(),
            Outcome::Pending => "to come".into(),
            outcome => outcome.token().to_string(),
        };
        let board = p
            .game_id
            .map(|g| format!(" (board {g})"))
            .unwrap_or_default();
        match p.black {
            Some(black) => {
                let _ = writeln!(
                    out,
                    "  {} - {}: {result}{board}",
                    name(p.white),
                    name(black)
                );
            }
            None => {
                let _ = writeln!(out, "  {}: bye", name(p.white));
            }
        }
    }
    out
}

/// One line per league.
pub fn league_list(list: &[League]) -> String {
    if list.is_empty() {
        return "No leagues yet.\n".into();
    }
    let mut out = String::from("Leagues (`epaminondas league N` shows one):\n");
    for l in list {
        let _ = writeln!(
            out,
            "  {:>4}  {} ({}, {}): season {}",
            l.id,
            l.name,
            l.size,
            time_words(l.control),
            l.season
        );
    }
    out
}

/// A league: its members and its divisions, latest season first.
pub fn league(view: &LeagueView) -> String {
    let l = &view.league;
    let members: Vec<&str> = l
        .members
        .iter()
        .filter(|m| m.2.is_none())
        .map(|m| m.0.name.as_str())
        .collect();
    let mut out = format!(
        "League {}: {}\nDivisions of about {} players, {} up and {} down after each season; {}, {}.\nSeason {}. Members ({}): {}\n",
        l.id,
        l.name,
        l.group_size,
        l.movers,
        l.movers,
        l.size,
        time_words(l.control),
        l.season,
        members.len(),
        members.join(", ")
    );
    for s in &view.divisions {
        let _ = writeln!(
            out,
            "  tournament {}: {} ({})",
            s.tournament.id,
            s.tournament.name,
            status_words(&s.tournament)
        );
    }
    let _ = writeln!(
        out,
        "Send `epaminondas league {} join USERID PASSWORD` to play from the next season.",
        l.id
    );
    out
}
