//! Ratings: Glicko-2 after each rated game, the rating list and profiles.

use super::Service;
use crate::error::Result;
use crate::game::Game;
use crate::store::{self, RatingPoint, Standing, UserRecord};

/// The most players the rating list shows.
const LISTED: i64 = 100;

impl Service {
    /// Rates a finished rated game between two accounts, once.
    pub(super) async fn rate(&self, game: &Game) -> Result<()> {
        let (Some(w), Some(b)) = (game.white.player_id(), game.black.player_id()) else {
            return Ok(());
        };
        let score = match game.winner() {
            Some(epaminondas_rules::Color::White) => 1.0,
            Some(epaminondas_rules::Color::Black) => 0.0,
            None => 0.5,
        };
        let (Some(white), Some(black)) = (
            store::user_by_id(&self.db, w).await?,
            store::user_by_id(&self.db, b).await?,
        ) else {
            return Ok(());
        };
        let new_white = white.rating.after(black.rating, score);
        let new_black = black.rating.after(white.rating, 1.0 - score);
        store::record_ratings(
            &self.db,
            game.id,
            &[(w, new_white), (b, new_black)],
            self.now(),
        )
        .await?;
        Ok(())
    }

    /// The rating list: the best-rated players with rated games.
    pub async fn leaderboard(&self) -> Result<Vec<Standing>> {
        store::leaderboard(&self.db, LISTED).await
    }

    /// A player's account and rating history.
    pub async fn profile(&self, name: &str) -> Result<(UserRecord, Vec<RatingPoint>)> {
        let user = self.user(name).await?;
        let history = store::rating_history(&self.db, user.player.id).await?;
        Ok((user, history))
    }
}
