//! Tournaments and leagues over HTTP: list, make, read (standings with
//! tie-breaks, the crosstable and the pairings), join, withdraw, start, and
//! download every game's record.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use epaminondas_rules::{BoardSize, Color, Symmetry};
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{ApiJson, Caller};
use super::players::text_file;
use super::{App, Shared};
use crate::error::{Error, Result};
use crate::game::TimeControl;
use crate::service::{LeagueView, NewLeague, NewTournament, parse_number, read_board};
use crate::store::{League, TournamentSummary};
use crate::tournament::{Outcome, Tournament};

/// The routes of this area.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(show))
        .route("/api/tournaments/{id}/records", get(records))
        .route("/api/tournaments/{id}/{action}", post(act))
        .route("/api/leagues", get(list_leagues).post(create_league))
        .route("/api/leagues/{id}", get(show_league))
        .route("/api/leagues/{id}/{action}", post(act_on_league))
}

fn common_view(t: &Tournament) -> Value {
    json!({
        "id": t.id,
        "name": t.name,
        "format": t.format,
        "board": t.size.to_string(),
        "symmetry": t.symmetry.name(),
        "time": t.control,
        "rated": t.rated,
        "organizer": t.organizer.name,
        "status": t.status.name(),
        "starts_at": t.starts_at,
        "max_players": (t.max_players > 0).then_some(t.max_players),
        "round": t.round,
        "rounds": t.rounds,
        "all_at_once": t.all_at_once(),
        "league": t.division.map(|d| json!({
            "id": d.league_id, "season": d.season, "division": d.division,
        })),
        "created_at": t.created_at,
        "started_at": t.started_at,
        "ended_at": t.ended_at,
    })
}

fn summary_view(s: &TournamentSummary) -> Value {
    let mut view = common_view(&s.tournament);
    view["players"] = s.players.into();
    view
}

/// What `player` scored in a pairing, as a crosstable shows it.
fn score_mark(outcome: Outcome, color: Color) -> &'static str {
    match outcome {
        Outcome::Pending => "*",
        Outcome::Bye => "bye",
        Outcome::WhiteByForfeit | Outcome::BlackByForfeit | Outcome::DoubleForfeit => {
            if outcome.points(color) == 1.0 {
                "+"
            } else {
                "-"
            }
        }
        played => match played.points(color) {
            1.0 => "1",
            0.0 => "0",
            _ => "½",
        },
    }
}

fn tournament_view(t: &Tournament) -> Value {
    let standings = t.standings();
    let rank = |id: i64| {
        standings
            .iter()
            .position(|s| s.player.id == id)
            .map(|r| r + 1)
    };
    let name = |id: i64| t.entrant(id).map(|e| e.player.name.clone());
    let rows: Vec<Value> = standings
        .iter()
        .zip(1..)
        .map(|(s, place)| {
            let id = s.player.id;
            let results: Vec<Value> = t
                .pairings
                .iter()
                .filter_map(|p| {
                    let color = p.color_of(id)?;
                    let opponent = p.opponent_of(id);
                    Some(json!({
                        "round": p.round,
                        "opponent": opponent.and_then(name),
                        "opponent_rank": opponent.and_then(rank),
                        "color": p.black.map(|_| color.name()),
                        "score": score_mark(p.outcome, color),
                        "game": p.game_id,
                    }))
                })
                .collect();
            json!({
                "rank": place,
                "name": s.player.name,
                "points": s.points,
                "sonneborn_berger": s.sonneborn_berger,
                "buchholz": s.buchholz,
                "wins": s.wins,
                "played": s.played,
                "withdrawn": s.withdrawn,
                "results": results,
            })
        })
        .collect();
    let pairings: Vec<Value> = t
        .pairings
        .iter()
        .map(|p| {
            json!({
                "round": p.round,
                "board": p.board,
                "white": name(p.white),
                "black": p.black.and_then(name),
                "game": p.game_id,
                "result": p.outcome.token(),
            })
        })
        .collect();
    let mut view = common_view(t);
    view["players"] = t.seeded().len().into();
    view["standings"] = rows.into();
    view["pairings"] = pairings.into();
    view
}

async fn list(State(app): Shared) -> Result<Json<Value>> {
    let list = app.service.tournaments().await?;
    let list: Vec<Value> = list.iter().map(summary_view).collect();
    Ok(Json(json!({"tournaments": list})))
}

/// The game options a tournament or league form shares.
fn game_options(
    board: Option<&str>,
    symmetry: Option<&str>,
    time: Option<TimeControl>,
) -> Result<(BoardSize, Symmetry, TimeControl)> {
    let (size, symmetry) = read_board(board, symmetry)?;
    let time = time.unwrap_or(TimeControl::Correspondence { days_per_move: 3 });
    Ok((size, symmetry, time))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TournamentForm {
    name: String,
    format: crate::tournament::Format,
    board: Option<String>,
    symmetry: Option<String>,
    time: Option<TimeControl>,
    #[serde(default)]
    rated: bool,
    starts_at: Option<i64>,
    max_players: Option<u32>,
}

async fn create(
    State(app): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<TournamentForm>,
) -> Result<(StatusCode, Json<Value>)> {
    let (size, symmetry, control) =
        game_options(form.board.as_deref(), form.symmetry.as_deref(), form.time)?;
    let new = NewTournament {
        name: form.name,
        format: form.format,
        size,
        symmetry,
        control,
        rated: form.rated,
        starts_at: form.starts_at,
        max_players: form.max_players,
    };
    let t = app.service.create_tournament(&user, new).await?;
    Ok((StatusCode::CREATED, Json(tournament_view(&t))))
}

async fn show(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>> {
    let id = parse_number(&id, "the tournament number")?;
    Ok(Json(tournament_view(&app.service.tournament(id).await?)))
}

async fn records(State(app): Shared, Path(id): Path<String>) -> Result<Response> {
    let id = parse_number(&id, "the tournament number")?;
    let (t, text) = app.service.tournament_records(id).await?;
    Ok(text_file(text, &format!("tournament-{}.pgn", t.id)))
}

async fn act(
    State(app): Shared,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the tournament number")?;
    let t = match action.as_str() {
        "join" => app.service.join_tournament(&user, id).await?,
        "withdraw" => app.service.withdraw_from_tournament(&user, id).await?,
        "start" => app.service.start_tournament_now(&user, id).await?,
        other => {
            return Err(Error::invalid(format!(
                "unknown tournament action {:?}: use join, withdraw or start",
                epaminondas_rules::excerpt(other)
            )));
        }
    };
    Ok(Json(tournament_view(&t)))
}

fn league_view(league: &League, divisions: &[TournamentSummary]) -> Value {
    let members: Vec<Value> = league
        .members
        .iter()
        .map(|(p, joined, left)| json!({"name": p.name, "joined_at": joined, "left_at": left}))
        .collect();
    json!({
        "id": league.id,
        "name": league.name,
        "organizer": league.organizer.name,
        "group_size": league.group_size,
        "movers": league.movers,
        "cycles": league.cycles,
        "board": league.size.to_string(),
        "symmetry": league.symmetry.name(),
        "time": league.control,
        "rated": league.rated,
        "season": league.season,
        "starts_at": league.starts_at,
        "created_at": league.created_at,
        "members": members,
        "divisions": divisions.iter().map(summary_view).collect::<Vec<_>>(),
    })
}

fn full_league_view(view: &LeagueView) -> Value {
    league_view(&view.league, &view.divisions)
}

async fn list_leagues(State(app): Shared) -> Result<Json<Value>> {
    let list = app.service.leagues().await?;
    let list: Vec<Value> = list.iter().map(|l| league_view(l, &[])).collect();
    Ok(Json(json!({"leagues": list})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeagueForm {
    name: String,
    group_size: Option<u32>,
    movers: Option<u32>,
    cycles: Option<u32>,
    board: Option<String>,
    symmetry: Option<String>,
    time: Option<TimeControl>,
    #[serde(default)]
    rated: bool,
    starts_at: Option<i64>,
}

async fn create_league(
    State(app): Shared,
    Caller(user): Caller,
    ApiJson(form): ApiJson<LeagueForm>,
) -> Result<(StatusCode, Json<Value>)> {
    let (size, symmetry, control) =
        game_options(form.board.as_deref(), form.symmetry.as_deref(), form.time)?;
    let new = NewLeague {
        name: form.name,
        group_size: form.group_size.unwrap_or(10),
        movers: form.movers.unwrap_or(2),
        cycles: form.cycles.unwrap_or(1),
        size,
        symmetry,
        control,
        rated: form.rated,
        starts_at: form.starts_at,
    };
    let league = app.service.create_league(&user, new).await?;
    Ok((StatusCode::CREATED, Json(league_view(&league, &[]))))
}

async fn show_league(State(app): Shared, Path(id): Path<String>) -> Result<Json<Value>> {
    let id = parse_number(&id, "the league number")?;
    Ok(Json(full_league_view(&app.service.league(id).await?)))
}

async fn act_on_league(
    State(app): Shared,
    Caller(user): Caller,
    Path((id, action)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let id = parse_number(&id, "the league number")?;
    let view = match action.as_str() {
        "join" => app.service.join_league(&user, id).await?,
        "leave" => app.service.leave_league(&user, id).await?,
        "start" => app.service.start_league_now(&user, id).await?,
        other => {
            return Err(Error::invalid(format!(
                "unknown league action {:?}: use join, leave or start",
                epaminondas_rules::excerpt(other)
            )));
        }
    };
    Ok(Json(full_league_view(&view)))
}
