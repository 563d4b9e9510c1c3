//! Ratings: each rated game's changes, applied once, and the lists read
//! from them.

use epaminondas_rules::Variant;
use sqlx::Row;

use crate::db::Database;
use crate::error::{Error, Result};
use crate::glicko::Rating;

/// A line of the rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The player's name.
    pub name: String,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated games played.
    pub rated_games: i64,
}

/// A player's rating after one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    /// The game.
    pub game: i64,
    /// The variant it was played in: each has its own rating.
    pub variant: Variant,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// When.
    pub at: i64,
}

/// A player's rating in `variant` and the rated games it rests on (the
/// standard game's is kept with the account; another variant's starts at
/// the initial rating).
pub async fn variant_rating(
    db: &Database,
    user_id: i64,
    variant: Variant,
) -> Result<Option<(Rating, i64)>> {
    let sql = if variant.is_standard() {
        "SELECT rating, deviation, volatility, rated_games FROM users WHERE id = $1"
    } else {
        "SELECT rating, deviation, volatility, rated_games FROM variant_ratings \
         WHERE user_id = $1 AND variant = $2"
    };
    let mut query = sqlx::query(sql).bind(user_id);
    if !variant.is_standard() {
        query = query.bind(variant.name());
    }
    let Some(row) = query.fetch_optional(&db.read).await? else {
        return Ok(None);
    };
    Ok(Some((
        Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        },
        row.try_get("rated_games")?,
    )))
}

/// A player's ratings in the variants other than the standard game they
/// have played rated games in: variant, rating and rated games.
pub async fn variant_ratings_of(
    db: &Database,
    user_id: i64,
) -> Result<Vec<(Variant, Rating, i64)>> {
    let rows = sqlx::query(
        "SELECT variant, rating, deviation, volatility, rated_games FROM variant_ratings \
         WHERE user_id = $1 ORDER BY variant",
    )
    .bind(user_id)
    .fetch_all(&db.read)
    .await?;
    rows.iter()
        .map(|row| {
            let variant = read_variant(&row.try_get::<String, _>("variant")?)?;
            let rating = Rating {
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
            };
            Ok((variant, rating, row.try_get("rated_games")?))
        })
        .collect()
}

fn read_variant(name: &str) -> Result<Variant> {
    name.parse()
        .map_err(|_| Error::Internal(format!("stored rating has a bad variant {name:?}")))
}

/// Stores the new ratings of a finished rated game of `variant`, once:
/// false if the game was already rated (by another server process).
pub async fn record_ratings(
    db: &Database,
    game_id: i64,
    variant: Variant,
    changes: &[(i64, Rating)],
    now: i64,
) -> Result<bool> {
    let mut tx = db.write.begin().await?;
    let already = sqlx::query("SELECT COUNT(*) AS n FROM rating_history WHERE game_id = $1")
        .bind(game_id)
        .fetch_one(&mut *tx)
        .await?
        .try_get::<i64, _>("n")?;
    if already > 0 {
        return Ok(false);
    }
    for (user_id, r) in changes {
        let update = if variant.is_standard() {
            "UPDATE users SET rating = $1, deviation = $2, volatility = $3, \
             rated_games = rated_games + 1 WHERE id = $4"
        } else {
            "INSERT INTO variant_ratings (rating, deviation, volatility, user_id, variant, \
             rated_games) VALUES ($1, $2, $3, $4, $5, 1) ON CONFLICT (user_id, variant) DO UPDATE \
             SET rating = $1, deviation = $2, volatility = $3, \
             rated_games = variant_ratings.rated_games + 1"
        };
        let mut query = sqlx::query(update)
            .bind(r.rating)
            .bind(r.deviation)
            .bind(r.volatility)
            .bind(*user_id);
        if !variant.is_standard() {
            query = query.bind(variant.name());
        }
        query.execute(&mut *tx).await?;
        sqlx::query(
            "INSERT INTO rating_history (user_id, game_id, rating, deviation, at, variant) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(*user_id)
        .bind(game_id)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(now)
        .bind(variant.name())
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// The best-rated players who have played rated games of `variant`
/// (deleted accounts left out).
pub async fn leaderboard(db: &Database, variant: Variant, limit: i64) -> Result<Vec<Standing>> {
    let rows = if variant.is_standard() {
        sqlx::query(
            "SELECT name, rating, deviation, rated_games FROM users \
             WHERE rated_games > 0 AND deleted_at IS NULL ORDER BY rating DESC, name LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&db.read)
        .await?
    } else {
        sqlx::query(
            "SELECT u.name AS name, r.rating AS rating, r.deviation AS deviation, \
             r.rated_games AS rated_games FROM variant_ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.variant = $1 AND u.deleted_at IS NULL ORDER BY r.rating DESC, u.name LIMIT $2",
        )
        .bind(variant.name())
        .bind(limit)
        .fetch_all(&db.read)
        .await?
    };
    rows.iter()
        .map(|row| {
            Ok(Standing {
                name: row.try_get("name")?,
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                rated_games: row.try_get("rated_games")?,
            })
        })
        .collect()
}

/// A player's rating after each rated game, oldest first.
pub async fn rating_history(db: &Database, user_id: i64) -> Result<Vec<RatingPoint>> {
    let rows = sqlx::query(
        "SELECT game_id, variant, rating, deviation, at FROM rating_history WHERE user_id = $1 \
         ORDER BY at, game_id",
    )
    .bind(user_id)
    .fetch_all(&db.read)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(RatingPoint {
                game: row.try_get("game_id")?,
                variant: read_variant(&row.try_get::<String, _>("variant")?)?,
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                at: row.try_get("at")?,
            })
        })
        .collect()
}

/// A player's finished games against people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    /// The player's name.
    pub name: String,
    /// Finished games.
    pub played: i64,
    /// Won.
    pub won: i64,
    /// Drawn.
    pub drawn: i64,
}

/// Every player's finished games against people, most points first (at
/// most 200 players).
pub async fn standings(db: &Database) -> Result<Vec<Standings>> {
    let rows = sqlx::query(
        "SELECT u.name AS name, COUNT(*) AS played, \
         SUM(CASE WHEN (g.white_id = u.id AND g.result = '1-0') \
                    OR (g.black_id = u.id AND g.result = '0-1') THEN 1 ELSE 0 END) AS won, \
         SUM(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END) AS drawn \
         FROM users u JOIN games g ON (g.white_id = u.id OR g.black_id = u.id) \
         WHERE g.status = 'finished' AND g.engine_level IS NULL AND u.deleted_at IS NULL \
         GROUP BY u.id, u.name ORDER BY 2 * SUM(CASE WHEN (g.white_id = u.id AND g.result = '1-0') \
                    OR (g.black_id = u.id AND g.result = '0-1') THEN 1 ELSE 0 END) \
           + SUM(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END) DESC, COUNT(*), u.name LIMIT 200",
    )
    .fetch_all(&db.read)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Standings {
                name: r.try_get("name")?,
                played: r.try_get("played")?,
                won: r.try_get("won")?,
                drawn: r.try_get("drawn")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}
