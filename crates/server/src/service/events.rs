//! The events a change causes: published to this process's subscribers,
//! and, with PostgreSQL, sent to the other processes with NOTIFY and
//! received from them with LISTEN. A process that loses its LISTEN
//! connection reconnects, forgets its cached games (it may have missed
//! changes) and sends its subscribers the games' current state.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};

use super::Service;
use crate::auth::AuthUser;
use crate::challenge::Challenge;
use crate::db::Backend;
use crate::error::Result;
use crate::events::{Notice, PlayerEvent, Topic};
use crate::game::Game;
use crate::store;

/// The PostgreSQL notification channel.
const CHANNEL: &str = "epaminondas";

/// The first message of a player's stream: what they are in the middle of.
#[derive(Clone, Debug)]
pub struct Hello {
    /// Their open challenges (made, received, and open seeks).
    pub challenges: Vec<Challenge>,
    /// Their running games.
    pub games: Vec<Game>,
}

impl Service {
    pub(super) async fn game_started(self: &Arc<Self>, game: &Game) {
        for color in [
            epaminondas_rules::Color::White,
            epaminondas_rules::Color::Black,
        ] {
            if let Some(id) = game.seat(color).player_id() {
                self.notify_player(id, PlayerEvent::GameStart(game.clone()))
                    .await;
            }
        }
        self.clone().engine_move_later(game.id);
    }

    pub(super) async fn after_change(self: &Arc<Self>, before: &Game, after: &Game) {
        self.notify_game(after).await;
        if after.is_finished() {
            if after.rated
                && let Err(e) = self.rate(after).await
            {
                tracing::error!("rating game {}: {e}", after.id);
            }
            for color in [
                epaminondas_rules::Color::White,
                epaminondas_rules::Color::Black,
            ] {
                if let Some(id) = after.seat(color).player_id() {
                    self.notify_player(id, PlayerEvent::GameFinish(after.clone()))
                        .await;
                }
            }
            self.tournament_game_over(after).await;
            return;
        }
        if after.ply() != before.ply() {
            if let Some(id) = after.seat(after.turn()).player_id() {
                self.notify_player(id, PlayerEvent::YourTurn(after.clone()))
                    .await;
            }
            self.clone().engine_move_later(after.id);
        }
        if after.reminded
            && !before.reminded
            && let Some(id) = after.seat(after.turn()).player_id()
        {
            self.notify_player(id, PlayerEvent::Reminder(after.clone()))
                .await;
        }
    }

    pub(super) async fn notify_game(&self, game: &Game) {
        self.hub
            .publish(Topic::Game(game.id), Notice::Game(game.clone()));
        self.pg_notify(&format!("g {}", game.id)).await;
    }

    pub(super) async fn notify_player(&self, id: i64, event: PlayerEvent) {
        let payload = format!("p {id} {} {}", event.kind(), event.subject());
        self.hub.publish(Topic::Player(id), Notice::Player(event));
        self.pg_notify(&payload).await;
    }

    async fn pg_notify(&self, payload: &str) {
        if self.db.backend != Backend::Postgres {
            return;
        }
        let message = format!("{} {payload}", self.origin);
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(message)
            .execute(&self.db.write)
            .await;
        if let Err(e) = sent {
            tracing::warn!("notifying other servers: {e}");
        }
    }

    /// The name this process's LISTEN connection shows in
    /// `pg_stat_activity`, so that an operator (or a test) can find it.
    pub fn listener_name() -> String {
        format!("epaminondas listener {}", std::process::id())
    }

    /// Listens for the other processes' notifications and passes them to
    /// this process's subscribers, reconnecting when the connection drops.
    pub(super) async fn listen(self: Arc<Self>) {
        let url = self.db.url.clone();
        let weak = Arc::downgrade(&self);
        tokio::spawn(async move {
            let mut connected_before = false;
            loop {
                let options = url
                    .parse::<PgConnectOptions>()
                    .map(|o| o.application_name(&Service::listener_name()));
                let listener = match options {
                    Ok(options) => match PgPoolOptions::new()
                        .max_connections(1)
                        .max_lifetime(None)
                        .idle_timeout(None)
                        .connect_with(options)
                        .await
                    {
                        Ok(pool) => PgListener::connect_with(&pool).await,
                        Err(e) => Err(e),
                    },
                    Err(e) => Err(e),
                };
                let mut listener = match listener {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::warn!("cannot listen for other servers' events: {e}");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                // This loop sees a lost connection and makes a new one.
                listener.ignore_pool_close_event(true);
                listener.eager_reconnect(false);
                if let Err(e) = listener.listen(CHANNEL).await {
                    tracing::warn!("LISTEN failed: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                if connected_before {
                    let Some(service) = weak.upgrade() else {
                        return;
                    };
                    service.caught_up_after_gap().await;
                }
                connected_before = true;
                // `None` or an error: the connection was lost, and
                // notifications may have been missed.
                while let Ok(Some(note)) = listener.try_recv().await {
                    let Some(service) = weak.upgrade() else {
                        return;
                    };
                    service.foreign_notice(note.payload()).await;
                }
                tracing::warn!("lost the LISTEN connection to the database; reconnecting");
                if weak.strong_count() == 0 {
                    return;
                }
            }
        });
    }

    /// After missing notifications: forget the cached games and send every
    /// local game subscriber the game's stored state.
    async fn caught_up_after_gap(self: &Arc<Self>) {
        self.forget_all().await;
        for topic in self.hub.topics() {
            if let Topic::Game(id) = topic
                && let Ok(game) = self.game(id).await
            {
                self.hub.publish(topic, Notice::Game(game));
            }
        }
    }

    async fn foreign_notice(self: &Arc<Self>, payload: &str) {
        let mut parts = payload.split(' ');
        let (Some(origin), Some(kind), Some(id)) = (parts.next(), parts.next(), parts.next())
        else {
            return;
        };
        if origin == self.origin {
            return;
        }
        let Ok(id) = id.parse::<i64>() else { return };
        match kind {
            "g" => {
                // Another process changed the game: refresh the cache.
                let slot = self.slot_for_refresh(id);
                let mut held = slot.lock().await;
                if let Ok(game) = self.load(id).await {
                    *held = (!game.is_finished()).then(|| game.clone());
                    drop(held);
                    self.hub.publish(Topic::Game(id), Notice::Game(game));
                }
            }
            "p" => {
                let (Some(event), Some(subject)) = (parts.next(), parts.next()) else {
                    return;
                };
                let Ok(subject) = subject.parse::<i64>() else {
                    return;
                };
                if self.hub.has_subscribers(Topic::Player(id))
                    && let Some(event) = self.rebuild_event(event, subject).await
                {
                    self.hub.publish(Topic::Player(id), Notice::Player(event));
                }
            }
            _ => {}
        }
    }

    fn slot_for_refresh(&self, id: i64) -> super::Slot {
        let mut games = self
            .games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        games.entry(id).or_default().clone()
    }

    /// The event another process sent, rebuilt from the stored challenge or
    /// game it names.
    async fn rebuild_event(&self, kind: &str, subject: i64) -> Option<PlayerEvent> {
        let challenge = || async {
            store::load_challenge(&self.db, subject)
                .await
                .ok()
                .flatten()
        };
        let game = || async { self.load(subject).await.ok() };
        Some(match kind {
            "challenge" => PlayerEvent::Challenge(challenge().await?),
            "challengeDeclined" => PlayerEvent::ChallengeDeclined(challenge().await?),
            "challengeCanceled" => PlayerEvent::ChallengeCanceled(challenge().await?),
            "gameStart" => PlayerEvent::GameStart(game().await?),
            "yourTurn" => PlayerEvent::YourTurn(game().await?),
            "reminder" => PlayerEvent::Reminder(game().await?),
            "gameFinish" => PlayerEvent::GameFinish(game().await?),
            _ => return None,
        })
    }

    /// The first message of a player's stream: their open challenges and
    /// running games.
    pub async fn player_hello(&self, user: &AuthUser) -> Result<Hello> {
        let challenges = self.challenges(&user.player).await?;
        let games =
            store::games_of(&self.db, user.player.id, true, super::games::GAMES_LISTED).await?;
        Ok(Hello { challenges, games })
    }
}
