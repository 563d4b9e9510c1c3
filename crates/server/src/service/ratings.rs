//! Ratings: Glicko-2 after each rated game, the rating list and profiles.

use epaminondas_rules::Variant;

use super::Service;
use crate::error::Result;
use crate::game::Game;
use crate::glicko::{INITIAL, Rating};
use crate::store::{self, RatingPoint, Standing, UserRecord};

/// A player's profile: the account, the rating in each variant played
/// rated (beside the standard game's, kept with the account) and the
/// rating after each rated game.
pub struct Profile {
    /// The account, with its standard-game rating.
    pub user: UserRecord,
    /// The other variants' ratings and rated games.
    pub variants: Vec<(Variant, Rating, i64)>,
    /// The rating after each rated game, oldest first.
    pub history: Vec<RatingPoint>,
}

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
        // Each variant is rated on its own: a first game of one starts
        // from the initial rating.
        let variant = game.position().variant();
        let rating = |id| async move {
            Ok::<_, crate::error::Error>(
                store::variant_rating(&self.db, id, variant)
                    .await?
                    .map_or(INITIAL, |(r, _)| r),
            )
        };
        let (white, black) = (rating(w).await?, rating(b).await?);
        let new_white = white.after(black, score);
        let new_black = black.after(white, 1.0 - score);
        store::record_ratings(
            &self.db,
            game.id,
            variant,
            &[(w, new_white), (b, new_black)],
            self.now(),
        )
        .await?;
        Ok(())
    }

    /// The rating list of `variant`: the best-rated players with rated
    /// games of it.
    pub async fn leaderboard(&self, variant: Variant) -> Result<Vec<Standing>> {
        store::leaderboard(&self.db, variant, LISTED).await
    }

    /// A player's account, ratings and rating history.
    pub async fn profile(&self, name: &str) -> Result<Profile> {
        let user = self.user(name).await?;
        let variants = store::variant_ratings_of(&self.db, user.player.id).await?;
        let history = store::rating_history(&self.db, user.player.id).await?;
        Ok(Profile {
            user,
            variants,
            history,
        })
    }
}
