//! Live events inside one server process: a broadcast channel per game and
//! per player, carrying ready-made JSON text. Between processes sharing a
//! PostgreSQL database, [`crate::service`] carries the same events over
//! LISTEN/NOTIFY and feeds them in here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// Messages a subscriber may fall behind by before it misses some (it then
/// gets the full state again).
const BACKLOG: usize = 64;

/// What a channel is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// One game: its state after every change.
    Game(i64),
    /// One player: challenges, game starts, turns, ends.
    Player(i64),
}

/// The channels with subscribers.
#[derive(Debug, Default)]
pub struct Hub {
    channels: Mutex<HashMap<Topic, broadcast::Sender<Arc<str>>>>,
}

impl Hub {
    /// Subscribes to `topic`.
    pub fn subscribe(&self, topic: Topic) -> broadcast::Receiver<Arc<str>> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .entry(topic)
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }

    /// Whether anyone here listens to `topic`.
    pub fn has_subscribers(&self, topic: Topic) -> bool {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels.get(&topic).is_some_and(|s| s.receiver_count() > 0)
    }

    /// Sends `message` to the subscribers of `topic` in this process.
    pub fn publish(&self, topic: Topic, message: &str) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sender) = channels.get(&topic) {
            if sender.send(Arc::from(message)).is_err() {
                // Nobody listens any more.
                channels.remove(&topic);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn subscribers_get_what_is_published_on_their_topic() {
        let hub = Hub::default();
        let mut game = hub.subscribe(Topic::Game(101));
        let mut player = hub.subscribe(Topic::Player(1));
        hub.publish(Topic::Game(101), "move");
        hub.publish(Topic::Game(102), "other");
        hub.publish(Topic::Player(1), "turn");
        assert_eq!(&*game.recv().await.unwrap(), "move");
        assert_eq!(&*player.recv().await.unwrap(), "turn");
        assert!(game.try_recv().is_err());
        drop(game);
        hub.publish(Topic::Game(101), "gone");
        assert!(!hub.has_subscribers(Topic::Game(101)));
    }
}
