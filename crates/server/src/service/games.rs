//! Games: the cache of running games, changes written with a version check
//! (so that two processes never both apply a change), the players' moves,
//! resignations and offers, the engine's moves and the clock sweep.

use std::sync::{Arc, PoisonError};

use epaminondas_engine::Level;
use epaminondas_rules::Color;

use super::{Service, Slot};
use crate::auth::AuthUser;
use crate::error::{Error, Result};
use crate::game::{Game, GameError, Offer, OfferAction, Player, Seat};
use crate::store;

/// The most games a player's game list shows.
pub const GAMES_LISTED: i64 = 200;

impl Service {
    fn slot(&self, id: i64) -> Slot {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        games.entry(id).or_default().clone()
    }

    pub(super) fn forget(&self, id: i64) {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slot) = games.get(&id)
            && Arc::strong_count(slot) == 1
        {
            games.remove(&id);
        }
    }

    /// Forgets every cached game (after missing other processes' news).
    pub(super) async fn forget_all(&self) {
        let slots: Vec<Slot> = {
            let games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
            games.values().cloned().collect()
        };
        for slot in slots {
            *slot.lock().await = None;
        }
    }

    /// The game numbered `id`.
    pub async fn game(&self, id: i64) -> Result<Game> {
        let slot = self.slot(id);
        let mut held = slot.lock().await;
        if let Some(game) = held.as_ref() {
            return Ok(game.clone());
        }
        let game = self.load(id).await?;
        if !game.is_finished() {
            *held = Some(game.clone());
        } else {
            drop(held);
            self.forget(id);
        }
        Ok(game)
    }

    pub(super) async fn load(&self, id: i64) -> Result<Game> {
        match store::load_game(&self.db, id).await? {
            Some(game) => Ok(game),
            None => {
                self.forget(id);
                Err(Error::NoSuchGame(id))
            }
        }
    }

    /// Drops the cached copies of player `id`'s games (after the player was
    /// renamed) here, and has other processes reload theirs.
    pub(super) async fn forget_games_of(&self, player: i64) {
        let slots: Vec<(i64, Slot)> = {
            let games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
            games.iter().map(|(&id, slot)| (id, slot.clone())).collect()
        };
        for (id, slot) in slots {
            let mut held = slot.lock().await;
            if held.as_ref().is_some_and(|g| g.color_of(player).is_some()) {
                *held = None;
                drop(held);
                if let Ok(game) = self.game(id).await {
                    self.notify_game(&game).await;
                }
            }
        }
    }

    /// Changes game `id` with `change`, which sees the game at the current
    /// time and either changes it or refuses. The change is stored before
    /// this returns, and only if nobody changed the game meanwhile (in this
    /// or another process): a write that finds the stored version moved on
    /// reads the game again and retries, and a refusal made on the cached
    /// copy is checked against the stored version first. Then the change's
    /// events go out.
    pub async fn change_game<F>(self: &Arc<Self>, id: i64, change: F) -> Result<Game>
    where
        F: Fn(&mut Game, i64) -> Result<()>,
    {
        let slot = self.slot(id);
        let mut held = slot.lock().await;
        let mut cached = held.take();
        for _ in 0..4 {
            let from_cache = cached.is_some();
            let current = match cached.take() {
                Some(game) => game,
                None => self.load(id).await?,
            };
            let now = self.now();
            let mut next = current.clone();
            // Before a correspondence player loses on time: the vacations
            // they booked, or automatic vacation days if they allow them.
            let rescued = if current.deadline().is_some_and(|d| d <= now) {
                match self.rescue_from_time_out(&current, now).await {
                    Ok(Some(periods)) => {
                        next.set_vacations(next.turn(), &periods);
                        next.seat(next.turn()).player_id()
                    }
                    Ok(None) => None,
                    Err(e) => {
                        tracing::warn!("vacations before a time-out in game {id}: {e}");
                        None
                    }
                }
            } else {
                None
            };
            let rescued_state = rescued.map(|_| next.clone());
            let flagged = next.flag(now);
            let outcome = if flagged {
                Err(Error::Game(GameError::TimeRanOut {
                    id,
                    loser: next.turn(),
                }))
            } else {
                change(&mut next, now)
            };
            // A finished game never changes again.
            if current.is_finished() {
                *held = None;
                return outcome.map(|()| current);
            }
            // A refused change still keeps the vacations that saved the clock.
            if let (Err(_), Some(state)) = (&outcome, rescued_state) {
                next = state;
            }
            if outcome.is_err() && !flagged && rescued.is_none() {
                // A refusal stands only if it was made on the stored state.
                if from_cache && store::game_version(&self.db, id).await? != Some(current.version) {
                    continue;
                }
                *held = (!current.is_finished()).then_some(current);
                return outcome.map(|()| next);
            }
            next.version = current.version + 1;
            let mails = self.mails_for_change(&current, &next).await;
            if store::update_game(&self.db, &next, current.version, &mails, now).await? {
                if !mails.is_empty() {
                    self.mail_waiting.notify_one();
                }
                if next.is_finished() && self.sending().is_some() {
                    for id in [next.white.player_id(), next.black.player_id()]
                        .into_iter()
                        .flatten()
                    {
                        if let Err(e) =
                            store::revoke_reply_tokens(&self.db, id, Some(next.id), now).await
                        {
                            tracing::warn!("revoking the reply addresses of game {}: {e}", next.id);
                        }
                    }
                }
                *held = (!next.is_finished()).then(|| next.clone());
                drop(held);
                if next.is_finished() {
                    self.forget(id);
                }
                self.after_change(&current, &next).await;
                if let Some(player) = rescued {
                    // The player's other games stop their clocks too.
                    self.clone().apply_vacations_later(player);
                }
                return outcome.map(|()| next);
            }
            // Another process changed the game: read it again and retry.
            tracing::debug!("game {id} changed meanwhile; retrying on the stored state");
        }
        Err(Error::conflict(format!(
            "game {id} is changing too fast; try again"
        )))
    }

    /// The side `user` plays in `game`, or a refusal.
    fn side(game: &Game, user: &AuthUser) -> Result<Color> {
        game.color_of(user.player.id)
            .ok_or(Error::NotAPlayer(game.id))
    }

    /// Plays a move for `user`; `sent_at_ply`, when given, refuses it if the
    /// game has moved on from that many moves.
    pub async fn play(
        self: &Arc<Self>,
        user: &AuthUser,
        id: i64,
        text: &str,
        sent_at_ply: Option<usize>,
    ) -> Result<Game> {
        user.require_play()?;
        self.change_game(id, move |g, now| {
            let side = Self::side(g, user)?;
            g.play(side, text, sent_at_ply, now)?;
            Ok(())
        })
        .await
    }

    /// Resigns for `user`.
    pub async fn resign(self: &Arc<Self>, user: &AuthUser, id: i64) -> Result<Game> {
        user.require_play()?;
        self.change_game(id, |g, now| {
            let side = Self::side(g, user)?;
            Ok(g.resign(side, now)?)
        })
        .await
    }

    /// An offer of `kind` by `user`, or `user`'s answer to the opponent's.
    /// The computer declines draws and grants takebacks.
    pub async fn offer(
        self: &Arc<Self>,
        user: &AuthUser,
        id: i64,
        kind: Offer,
        action: OfferAction,
    ) -> Result<Game> {
        user.require_play()?;
        self.change_game(id, |g, now| {
            let side = Self::side(g, user)?;
            g.offer(side, kind, action, now)?;
            if action == OfferAction::Offer
                && matches!(g.seat(!side), Seat::Engine(_))
                && g.pending_for(!side, kind)
            {
                let answer = if kind == Offer::Takeback {
                    OfferAction::Accept
                } else {
                    OfferAction::Decline
                };
                g.offer(!side, kind, answer, now)?;
            }
            Ok(())
        })
        .await
    }

    /// Ends games whose time ran out, sends due reminders, and drops expired
    /// sessions.
    pub async fn sweep(self: &Arc<Self>) -> Result<()> {
        for id in store::due_games(&self.db, self.now()).await? {
            // Time-outs are decided by `change_game` itself; here only the
            // reminder is left, and a game with nothing due is not written
            // (another process may have swept it first).
            let result = self
                .change_game(id, |g, now| {
                    if g.remind_at().is_some_and(|at| at <= now) {
                        g.reminded = true;
                        Ok(())
                    } else {
                        Err(Error::conflict("nothing is due"))
                    }
                })
                .await;
            if let Err(Error::Internal(e)) = result {
                tracing::warn!("sweeping game {id}: {e}");
            }
        }
        if let Err(e) = self.sweep_tournaments().await {
            tracing::warn!("sweeping tournaments: {e}");
        }
        store::delete_expired_sessions(&self.db, self.now()).await?;
        Ok(())
    }

    /// The latest games of the player named `name`, newest first (at most
    /// `limit`, and never more than [`GAMES_LISTED`] unless `all`).
    pub async fn games_of(
        &self,
        name: &str,
        active_only: bool,
        limit: Option<i64>,
    ) -> Result<(Player, Vec<Game>)> {
        let player = self.player(name).await?;
        let limit = limit.unwrap_or(GAMES_LISTED).clamp(1, i64::MAX);
        let games = store::games_of(&self.db, player.id, active_only, limit).await?;
        Ok((player, games))
    }

    /// Plays the engine's move in game `id` when it is the engine's turn,
    /// in the background.
    pub(super) fn engine_move_later(self: Arc<Self>, id: i64) {
        tokio::spawn(async move {
            let Ok(game) = self.game(id).await else {
                return;
            };
            let Some(level) = game.engine_to_move().and_then(Level::new) else {
                return;
            };
            let ply = game.ply();
            let Some(mv) = self.engines.choose(game.position().clone(), level).await else {
                return;
            };
            let played = self
                .change_game(id, |g, now| {
                    if g.ply() != ply || g.engine_to_move().is_none() {
                        return Err(Error::conflict(
                            "the position changed while the engine thought",
                        ));
                    }
                    g.play_checked(mv, now);
                    Ok(())
                })
                .await;
            if let Err(Error::Internal(e)) = played {
                tracing::error!("engine move in game {id}: {e}");
            }
        });
    }
}
