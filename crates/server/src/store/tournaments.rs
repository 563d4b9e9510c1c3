//! Tournaments and leagues: the events, their players and pairings. A round
//! begins in one transaction that moves the tournament's round on only from
//! the round it was read at, so that two processes never both pair it.

use epaminondas_rules::{BoardSize, Symmetry};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::ids;
use crate::db::Database;
use crate::error::{Error, Result};
use crate::game::{Game, Player, TimeControl};
use crate::mail::OutMail;
use crate::tournament::{
    Division, Entrant, Format, Outcome, Pairing, Tournament, TournamentStatus,
};

fn corrupt(what: &str) -> Error {
    Error::Internal(format!("stored tournament has a bad {what}"))
}

/// The board, symmetry and time control stored in a tournament or league row.
fn game_options(row: &AnyRow) -> Result<(BoardSize, Symmetry, TimeControl)> {
    let files = u8::try_from(row.try_get::<i64, _>("files")?).map_err(|_| corrupt("size"))?;
    let ranks = u8::try_from(row.try_get::<i64, _>("ranks")?).map_err(|_| corrupt("size"))?;
    let size = BoardSize::new(files, ranks).map_err(|_| corrupt("size"))?;
    let symmetry = row
        .try_get::<String, _>("symmetry")?
        .parse()
        .map_err(|_| corrupt("symmetry"))?;
    let control = TimeControl::from_columns(
        &row.try_get::<String, _>("time_kind")?,
        row.try_get("initial_ms")?,
        row.try_get("increment_ms")?,
        row.try_get("days_per_move")?,
        row.try_get("max_ms")?,
    );
    Ok((size, symmetry, control))
}

fn count(row: &AnyRow, column: &str) -> Result<u32> {
    u32::try_from(row.try_get::<i64, _>(column)?).map_err(|_| corrupt(column))
}

fn tournament_from_row(row: &AnyRow) -> Result<Tournament> {
    let (size, symmetry, control) = game_options(row)?;
    let format = Format::from_columns(
        &row.try_get::<String, _>("format")?,
        row.try_get("format_number")?,
    )
    .ok_or_else(|| corrupt("format"))?;
    let status = row
        .try_get::<String, _>("status")?
        .parse()
        .map_err(|_| corrupt("status"))?;
    let league: Option<i64> = row.try_get("league_id")?;
    let division = match league {
        Some(league_id) => Some(Division {
            league_id,
            season: count(row, "season")?,
            division: count(row, "division")?,
        }),
        None => None,
    };
    Ok(Tournament {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        format,
        size,
        symmetry,
        control,
        rated: row.try_get::<i64, _>("rated")? != 0,
        organizer: Player {
            id: row.try_get("organizer_id")?,
            name: row.try_get("organizer_name")?,
        },
        status,
        starts_at: row.try_get("starts_at")?,
        max_players: count(row, "max_players")?,
        round: count(row, "round")?,
        rounds: count(row, "rounds")?,
        division,
        created_at: row.try_get("created_at")?,
        started_at: row.try_get("started_at")?,
        ended_at: row.try_get("ended_at")?,
        entrants: Vec::new(),
        pairings: Vec::new(),
    })
}

const TOURNAMENT_SELECT: &str = "SELECT t.*, u.name AS organizer_name, \
    (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id \
     AND p.withdrawn_at IS NULL) AS entrant_count \
    FROM tournaments t JOIN users u ON u.id = t.organizer_id";

/// Stores a new tournament (in sign-up) and gives it its number.
pub async fn insert_tournament(db: &Database, t: &mut Tournament) -> Result<()> {
    let mut conn = db.write.acquire().await?;
    t.id = insert_tournament_row(&mut conn, t).await?;
    Ok(())
}

/// Writes `t`'s row; its number.
async fn insert_tournament_row(conn: &mut sqlx::AnyConnection, t: &Tournament) -> Result<i64> {
    let (initial, increment, days, max) = t.control.columns();
    let division = t.division;
    let row = sqlx::query(
        "INSERT INTO tournaments (name, format, format_number, files, ranks, symmetry, rated, \
         time_kind, initial_ms, increment_ms, days_per_move, max_ms, organizer_id, status, \
         starts_at, max_players, league_id, season, division, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18, $19, $20) RETURNING id",
    )
    .bind(&t.name)
    .bind(t.format.name())
    .bind(i64::from(t.format.number()))
    .bind(i64::from(t.size.files()))
    .bind(i64::from(t.size.ranks()))
    .bind(t.symmetry.name())
    .bind(i64::from(t.rated))
    .bind(t.control.kind())
    .bind(initial)
    .bind(increment)
    .bind(days)
    .bind(max)
    .bind(t.organizer.id)
    .bind(t.status.name())
    .bind(t.starts_at)
    .bind(i64::from(t.max_players))
    .bind(division.map(|d| d.league_id))
    .bind(division.map(|d| i64::from(d.season)))
    .bind(division.map(|d| i64::from(d.division)))
    .bind(t.created_at)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("id")?)
}

/// The tournament numbered `id`, with its players and pairings.
pub async fn load_tournament(db: &Database, id: i64) -> Result<Option<Tournament>> {
    let Some(row) = sqlx::query(&format!("{TOURNAMENT_SELECT} WHERE t.id = $1"))
        .bind(id)
        .fetch_optional(&db.read)
        .await?
    else {
        return Ok(None);
    };
    let mut t = tournament_from_row(&row)?;
    let rows = sqlx::query(
        "SELECT p.*, u.name FROM tournament_players p JOIN users u ON u.id = p.user_id \
         WHERE p.tournament_id = $1 ORDER BY p.joined_at, p.user_id",
    )
    .bind(id)
    .fetch_all(&db.read)
    .await?;
    for row in rows {
        t.entrants.push(Entrant {
            player: Player {
                id: row.try_get("user_id")?,
                name: row.try_get("name")?,
            },
            seed: row.try_get("seed")?,
            joined_at: row.try_get("joined_at")?,
            withdrawn_at: row.try_get("withdrawn_at")?,
        });
    }
    let rows = sqlx::query(
        "SELECT * FROM tournament_games WHERE tournament_id = $1 ORDER BY round, board",
    )
    .bind(id)
    .fetch_all(&db.read)
    .await?;
    for row in rows {
        t.pairings.push(Pairing {
            round: count(&row, "round")?,
            board: count(&row, "board")?,
            white: row.try_get("white_id")?,
            black: row.try_get("black_id")?,
            game_id: row.try_get("game_id")?,
            outcome: Outcome::from_token(&row.try_get::<String, _>("result")?)
                .ok_or_else(|| corrupt("result"))?,
        });
    }
    Ok(Some(t))
}

/// A tournament as a list shows it: without pairings, with its count of
/// players.
pub struct TournamentSummary {
    /// The tournament (no entrants or pairings loaded).
    pub tournament: Tournament,
    /// Players signed up and not withdrawn.
    pub players: i64,
}

/// The tournaments in sign-up and running (at most `limit`, the soonest
/// first), then the `limit` latest finished ones; only those of league
/// `league` if given.
pub async fn list_tournaments(
    db: &Database,
    league: Option<i64>,
    limit: i64,
) -> Result<Vec<TournamentSummary>> {
    let filter = if league.is_some() {
        "AND t.league_id = $2"
    } else {
        "AND t.league_id IS NULL AND $2 = 0"
    };
    let mut out = Vec::new();
    for (statuses, order) in [
        ("('signup', 'running')", "t.id"),
        ("('finished', 'canceled')", "t.id DESC"),
    ] {
        let rows = sqlx::query(&format!(
            "{TOURNAMENT_SELECT} WHERE t.status IN {statuses} {filter} ORDER BY {order} LIMIT $1"
        ))
        .bind(limit)
        .bind(league.unwrap_or(0))
        .fetch_all(&db.read)
        .await?;
        for row in rows {
            out.push(TournamentSummary {
                tournament: tournament_from_row(&row)?,
                players: row.try_get("entrant_count")?,
            });
        }
    }
    Ok(out)
}

/// Signs `player` up for tournament `id` while it takes sign-ups and has
/// fewer than `max` players; the number of players after, or `None` if it
/// was not taking them (or was full).
pub async fn join_tournament(
    db: &Database,
    id: i64,
    player: i64,
    seed: f64,
    max: i64,
    now: i64,
) -> Result<Option<i64>> {
    let mut tx = db.write.begin().await?;
    // Locks the row (PostgreSQL) so that two sign-ups never overfill it.
    let open = sqlx::query(
        "UPDATE tournaments SET created_at = created_at WHERE id = $1 AND status = 'signup'",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    if open.rows_affected() != 1 {
        return Ok(None);
    }
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM tournament_players WHERE tournament_id = $1 \
         AND withdrawn_at IS NULL",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    let players: i64 = row.try_get("n")?;
    if players >= max {
        return Ok(None);
    }
    add_entrant(&mut tx, id, player, seed, now).await?;
    tx.commit().await?;
    Ok(Some(players + 1))
}

async fn add_entrant(
    conn: &mut sqlx::AnyConnection,
    id: i64,
    player: i64,
    seed: f64,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO tournament_players (tournament_id, user_id, seed, joined_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(player)
    .bind(seed)
    .bind(now)
    .execute(conn)
    .await
    .map_err(|e| {
        if super::is_unique_violation(&e) {
            Error::conflict("you are in this tournament already")
        } else {
            e.into()
        }
    })?;
    Ok(())
}

/// Takes `player` out of a tournament still taking sign-ups; false if they
/// were not in it.
pub async fn leave_tournament(db: &Database, id: i64, player: i64) -> Result<bool> {
    let done = sqlx::query(
        "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2 \
         AND EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND status = 'signup')",
    )
    .bind(id)
    .bind(player)
    .execute(&db.write)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks `player` withdrawn from a running tournament, with the outcomes of
/// the unplayed pairings this forfeits (round, board, outcome); false if
/// they had withdrawn already.
pub async fn withdraw(
    db: &Database,
    id: i64,
    player: i64,
    forfeits: &[(u32, u32, Outcome)],
    now: i64,
) -> Result<bool> {
    let mut tx = db.write.begin().await?;
    let done = sqlx::query(
        "UPDATE tournament_players SET withdrawn_at = $3 WHERE tournament_id = $1 \
         AND user_id = $2 AND withdrawn_at IS NULL",
    )
    .bind(id)
    .bind(player)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    for (round, board, outcome) in forfeits {
        sqlx::query(
            "UPDATE tournament_games SET result = $4 WHERE tournament_id = $1 AND round = $2 \
             AND board = $3 AND game_id IS NULL",
        )
        .bind(id)
        .bind(i64::from(*round))
        .bind(i64::from(*board))
        .bind(outcome.token())
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// What beginning a round writes.
pub struct RoundStart<'a> {
    /// The round the tournament was read at (the write happens only from it).
    pub from_round: u32,
    /// The round it moves to.
    pub round: u32,
    /// The rounds it has.
    pub rounds: u32,
    /// New pairings to store.
    pub pairings: &'a [Pairing],
    /// Games to store, each for the stored pairing (round, board).
    pub games: &'a mut [(u32, u32, Game)],
}

/// Begins a round of tournament `id` (or its first, which also marks it
/// running): stores its pairings and games, only if the tournament is still
/// at `from_round`; false if another process moved it on first.
/// `mails` gives the mails each stored game's start causes.
pub async fn begin_round(
    db: &Database,
    id: i64,
    start: RoundStart<'_>,
    mails: impl Fn(&Game) -> Vec<OutMail>,
    now: i64,
) -> Result<bool> {
    let mut tx = db.write.begin().await?;
    let done = sqlx::query(
        "UPDATE tournaments SET round = $2, rounds = $3, status = 'running', \
         started_at = COALESCE(started_at, $4) \
         WHERE id = $1 AND round = $5 AND status IN ('signup', 'running')",
    )
    .bind(id)
    .bind(i64::from(start.round))
    .bind(i64::from(start.rounds))
    .bind(now)
    .bind(i64::from(start.from_round))
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    for p in start.pairings {
        sqlx::query(
            "INSERT INTO tournament_games (tournament_id, round, board, white_id, black_id, \
             result) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(i64::from(p.round))
        .bind(i64::from(p.board))
        .bind(p.white)
        .bind(p.black)
        .bind(p.outcome.token())
        .execute(&mut *tx)
        .await?;
    }
    for (round, board, game) in start.games.iter_mut() {
        super::insert_game(&mut tx, game).await?;
        sqlx::query(
            "UPDATE tournament_games SET game_id = $4 WHERE tournament_id = $1 AND round = $2 \
             AND board = $3",
        )
        .bind(id)
        .bind(i64::from(*round))
        .bind(i64::from(*board))
        .bind(game.id)
        .execute(&mut *tx)
        .await?;
        super::queue_mail(&mut tx, &mails(game), now).await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// Ends tournament `id` (finished, or canceled when `canceled`) if it is
/// still at `round`; false if it was ended or moved on meanwhile.
pub async fn end_tournament(
    db: &Database,
    id: i64,
    round: u32,
    canceled: bool,
    now: i64,
) -> Result<bool> {
    let status = if canceled {
        TournamentStatus::Canceled
    } else {
        TournamentStatus::Finished
    };
    let done = sqlx::query(
        "UPDATE tournaments SET status = $2, ended_at = $3 WHERE id = $1 AND round = $4 \
         AND status IN ('signup', 'running')",
    )
    .bind(id)
    .bind(status.name())
    .bind(now)
    .bind(i64::from(round))
    .execute(&db.write)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records how tournament game `game_id` ended; the tournament's number if
/// it is a tournament game whose outcome was not yet recorded.
pub async fn record_outcome(db: &Database, game_id: i64, outcome: Outcome) -> Result<Option<i64>> {
    let row = sqlx::query(
        "UPDATE tournament_games SET result = $2 WHERE game_id = $1 AND result = '' \
         RETURNING tournament_id",
    )
    .bind(game_id)
    .bind(outcome.token())
    .fetch_optional(&db.write)
    .await?;
    Ok(row.map(|r| r.try_get("tournament_id")).transpose()?)
}

/// The tournament (number, name and round) game `game_id` belongs to.
pub async fn tournament_of_game(db: &Database, game_id: i64) -> Result<Option<(i64, String, u32)>> {
    let row = sqlx::query(
        "SELECT t.id, t.name, g.round FROM tournament_games g \
         JOIN tournaments t ON t.id = g.tournament_id WHERE g.game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(&db.read)
    .await?;
    row.map(|r| -> Result<(i64, String, u32)> {
        Ok((r.try_get("id")?, r.try_get("name")?, count(&r, "round")?))
    })
    .transpose()
}

/// Finished tournament games whose outcome was not recorded (a process
/// stopped between the two writes): (game, result token).
pub async fn unrecorded_tournament_games(db: &Database) -> Result<Vec<i64>> {
    let rows = sqlx::query(
        "SELECT tg.game_id AS id FROM tournament_games tg JOIN games g ON g.id = tg.game_id \
         WHERE tg.result = '' AND g.status = 'finished'",
    )
    .fetch_all(&db.read)
    .await?;
    ids(&rows)
}

/// Tournaments with something due at `now`: in sign-up with their start
/// time passed, or running with their current round decided.
pub async fn due_tournaments(db: &Database, now: i64) -> Result<Vec<i64>> {
    let rows = sqlx::query(
        "SELECT t.id FROM tournaments t WHERE (t.status = 'signup' AND t.starts_at <= $1) \
         OR (t.status = 'running' AND NOT EXISTS (SELECT 1 FROM tournament_games g \
         WHERE g.tournament_id = t.id AND g.round <= t.round AND g.result = ''))",
    )
    .bind(now)
    .fetch_all(&db.read)
    .await?;
    ids(&rows)
}

/// The tournaments and leagues `organizer` made that are not over.
pub async fn open_events_of(db: &Database, organizer: i64) -> Result<i64> {
    let row = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM tournaments WHERE organizer_id = $1 AND league_id IS NULL \
         AND status IN ('signup', 'running')) + (SELECT COUNT(*) FROM leagues \
         WHERE organizer_id = $1) AS n",
    )
    .bind(organizer)
    .fetch_one(&db.read)
    .await?;
    Ok(row.try_get("n")?)
}

/// A season-long league.
#[derive(Clone, Debug)]
pub struct League {
    /// Its number.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Who made it.
    pub organizer: Player,
    /// The players a division aims at.
    pub group_size: u32,
    /// Players going up and down between divisions after a season.
    pub movers: u32,
    /// Each division is a round robin played this many times.
    pub cycles: u32,
    /// The board.
    pub size: BoardSize,
    /// The symmetry option.
    pub symmetry: Symmetry,
    /// Whether its games are rated.
    pub rated: bool,
    /// The games' time control.
    pub control: TimeControl,
    /// The season being played (0 before the first).
    pub season: u32,
    /// When the first season starts by itself, if set.
    pub starts_at: Option<i64>,
    /// When it was made.
    pub created_at: i64,
    /// Its members: (player, when they joined, when they left).
    pub members: Vec<(Player, i64, Option<i64>)>,
}

fn league_from_row(row: &AnyRow) -> Result<League> {
    let (size, symmetry, control) = game_options(row)?;
    Ok(League {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        organizer: Player {
            id: row.try_get("organizer_id")?,
            name: row.try_get("organizer_name")?,
        },
        group_size: count(row, "group_size")?,
        movers: count(row, "movers")?,
        cycles: count(row, "cycles")?,
        size,
        symmetry,
        rated: row.try_get::<i64, _>("rated")? != 0,
        control,
        season: count(row, "season")?,
        starts_at: row.try_get("starts_at")?,
        created_at: row.try_get("created_at")?,
        members: Vec::new(),
    })
}

const LEAGUE_SELECT: &str =
    "SELECT l.*, u.name AS organizer_name FROM leagues l JOIN users u ON u.id = l.organizer_id";

/// Stores a new league and gives it its number.
pub async fn insert_league(db: &Database, league: &mut League) -> Result<()> {
    let (initial, increment, days, max) = league.control.columns();
    let row = sqlx::query(
        "INSERT INTO leagues (name, organizer_id, group_size, movers, cycles, files, ranks, \
         symmetry, rated, time_kind, initial_ms, increment_ms, days_per_move, max_ms, \
         starts_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, \
         $13, $14, $15, $16) RETURNING id",
    )
    .bind(&league.name)
    .bind(league.organizer.id)
    .bind(i64::from(league.group_size))
    .bind(i64::from(league.movers))
    .bind(i64::from(league.cycles))
    .bind(i64::from(league.size.files()))
    .bind(i64::from(league.size.ranks()))
    .bind(league.symmetry.name())
    .bind(i64::from(league.rated))
    .bind(league.control.kind())
    .bind(initial)
    .bind(increment)
    .bind(days)
    .bind(max)
    .bind(league.starts_at)
    .bind(league.created_at)
    .fetch_one(&db.write)
    .await?;
    league.id = row.try_get("id")?;
    Ok(())
}

/// League `id` with its members.
pub async fn load_league(db: &Database, id: i64) -> Result<Option<League>> {
    let Some(row) = sqlx::query(&format!("{LEAGUE_SELECT} WHERE l.id = $1"))
        .bind(id)
        .fetch_optional(&db.read)
        .await?
    else {
        return Ok(None);
    };
    let mut league = league_from_row(&row)?;
    let rows = sqlx::query(
        "SELECT p.*, u.name FROM league_players p JOIN users u ON u.id = p.user_id \
         WHERE p.league_id = $1 ORDER BY p.joined_at, p.user_id",
    )
    .bind(id)
    .fetch_all(&db.read)
    .await?;
    for row in rows {
        league.members.push((
            Player {
                id: row.try_get("user_id")?,
                name: row.try_get("name")?,
            },
            row.try_get("joined_at")?,
            row.try_get("left_at")?,
        ));
    }
    Ok(Some(league))
}

/// The latest `limit` leagues.
pub async fn list_leagues(db: &Database, limit: i64) -> Result<Vec<League>> {
    let rows = sqlx::query(&format!("{LEAGUE_SELECT} ORDER BY l.id DESC LIMIT $1"))
        .bind(limit)
        .fetch_all(&db.read)
        .await?;
    rows.iter().map(league_from_row).collect()
}

/// Adds `player` to league `id` (again, if they had left).
pub async fn join_league(db: &Database, id: i64, player: i64, now: i64) -> Result<()> {
    let done = sqlx::query(
        "UPDATE league_players SET left_at = NULL, joined_at = $3 WHERE league_id = $1 \
         AND user_id = $2 AND left_at IS NOT NULL",
    )
    .bind(id)
    .bind(player)
    .bind(now)
    .execute(&db.write)
    .await?;
    if done.rows_affected() == 1 {
        return Ok(());
    }
    sqlx::query("INSERT INTO league_players (league_id, user_id, joined_at) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(player)
        .bind(now)
        .execute(&db.write)
        .await
        .map_err(|e| {
            if super::is_unique_violation(&e) {
                Error::conflict("you are in this league already")
            } else {
                e.into()
            }
        })?;
    Ok(())
}

/// Marks `player` as having left league `id`; false if they were not in it.
pub async fn leave_league(db: &Database, id: i64, player: i64, now: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE league_players SET left_at = $3 WHERE league_id = $1 AND user_id = $2 \
         AND left_at IS NULL",
    )
    .bind(id)
    .bind(player)
    .bind(now)
    .execute(&db.write)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Begins season `season` of league `id` with its divisions' tournaments
/// (stored with their players; each should be in sign-up and due to start
/// at `now`, so that the sweep starts any a stopped process left), only if the league is still at
/// the season before; the tournaments' numbers, or `None` if another
/// process began it first.
pub async fn begin_season(
    db: &Database,
    id: i64,
    season: u32,
    divisions: &mut [(Tournament, Vec<(i64, f64)>)],
    now: i64,
) -> Result<Option<Vec<i64>>> {
    let mut tx = db.write.begin().await?;
    let done = sqlx::query("UPDATE leagues SET season = $2 WHERE id = $1 AND season = $3")
        .bind(id)
        .bind(i64::from(season))
        .bind(i64::from(season.saturating_sub(1)))
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() != 1 {
        return Ok(None);
    }
    let mut numbers = Vec::new();
    for (t, players) in divisions.iter_mut() {
        t.id = insert_tournament_row(&mut tx, t).await?;
        for &(player, seed) in players.iter() {
            add_entrant(&mut tx, t.id, player, seed, now).await?;
        }
        numbers.push(t.id);
    }
    tx.commit().await?;
    Ok(Some(numbers))
}

/// The division tournaments of `season` of league `id`, top division first.
pub async fn season_tournaments(db: &Database, id: i64, season: u32) -> Result<Vec<i64>> {
    let rows = sqlx::query(
        "SELECT id FROM tournaments WHERE league_id = $1 AND season = $2 ORDER BY division",
    )
    .bind(id)
    .bind(i64::from(season))
    .fetch_all(&db.read)
    .await?;
    ids(&rows)
}

/// Leagues with a season due at `now`: the first season's start time has
/// passed, or every division of the current season is over; and at least
/// two members to play it.
pub async fn due_leagues(db: &Database, now: i64) -> Result<Vec<i64>> {
    let rows = sqlx::query(
        "SELECT l.id FROM leagues l WHERE ((l.season = 0 AND l.starts_at <= $1) \
         OR (l.season > 0 AND NOT EXISTS (SELECT 1 FROM tournaments t \
         WHERE t.league_id = l.id AND t.season = l.season \
         AND t.status IN ('signup', 'running')))) \
         AND (SELECT COUNT(*) FROM league_players p WHERE p.league_id = l.id \
         AND p.left_at IS NULL) >= 2",
    )
    .bind(now)
    .fetch_all(&db.read)
    .await?;
    ids(&rows)
}
