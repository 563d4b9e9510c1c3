//! Live events inside one server process: what happened to a game or for a
//! player, published on a broadcast channel per game and per player.
//! Between processes sharing a PostgreSQL database, [`crate::service`]
//! carries the same events over LISTEN/NOTIFY and publishes them here.
//!
//! Events are domain data; each front door renders them in its own form,
//! once per event however many subscribers there are (see
//! [`Published::rendered`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::broadcast;

use crate::challenge::Challenge;
use crate::game::Game;

/// Messages a subscriber may fall behind by before it misses some (it then
/// gets the next state, which is whole).
const BACKLOG: usize = 64;

/// What a channel is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// One game: its state after every change.
    Game(i64),
    /// One player: challenges, game starts, turns, ends.
    Player(i64),
}

/// Something a player's stream tells them.
#[derive(Clone, Debug)]
pub enum PlayerEvent {
    /// A challenge to them arrived.
    Challenge(Challenge),
    /// Their challenge was declined.
    ChallengeDeclined(Challenge),
    /// A challenge to them was withdrawn.
    ChallengeCanceled(Challenge),
    /// A game of theirs began.
    GameStart(Game),
    /// It is their turn in this game.
    YourTurn(Game),
    /// Half their correspondence time for the move is used.
    Reminder(Game),
    /// A game of theirs ended.
    GameFinish(Game),
}

impl PlayerEvent {
    /// The event's name in the streams and between processes.
    pub fn kind(&self) -> &'static str {
        match self {
            PlayerEvent::Challenge(_) => "challenge",
            PlayerEvent::ChallengeDeclined(_) => "challengeDeclined",
            PlayerEvent::ChallengeCanceled(_) => "challengeCanceled",
            PlayerEvent::GameStart(_) => "gameStart",
            PlayerEvent::YourTurn(_) => "yourTurn",
            PlayerEvent::Reminder(_) => "reminder",
            PlayerEvent::GameFinish(_) => "gameFinish",
        }
    }

    /// The number of the challenge or game it is about.
    pub fn subject(&self) -> i64 {
        match self {
            PlayerEvent::Challenge(c)
            | PlayerEvent::ChallengeDeclined(c)
            | PlayerEvent::ChallengeCanceled(c) => c.id,
            PlayerEvent::GameStart(g)
            | PlayerEvent::YourTurn(g)
            | PlayerEvent::Reminder(g)
            | PlayerEvent::GameFinish(g) => g.id,
        }
    }
}

/// What is published on a topic.
#[derive(Clone, Debug)]
pub enum Notice {
    /// A game's state after a change (on [`Topic::Game`]).
    Game(Game),
    /// An event for the player of a [`Topic::Player`].
    Player(PlayerEvent),
}

/// A notice with its rendering, made once for all its subscribers.
#[derive(Debug)]
pub struct Published {
    /// What happened.
    pub notice: Notice,
    rendered: OnceLock<Arc<str>>,
}

impl Published {
    /// Wraps `notice` for publishing.
    pub fn new(notice: Notice) -> Arc<Published> {
        Arc::new(Published {
            notice,
            rendered: OnceLock::new(),
        })
    }

    /// The notice as `render` writes it; `render` runs once per notice.
    pub fn rendered(&self, render: impl FnOnce(&Notice) -> String) -> Arc<str> {
        self.rendered
            .get_or_init(|| Arc::from(render(&self.notice)))
            .clone()
    }
}

/// The channels with subscribers.
#[derive(Debug, Default)]
pub struct Hub {
    channels: Mutex<HashMap<Topic, broadcast::Sender<Arc<Published>>>>,
}

impl Hub {
    /// Subscribes to `topic`.
    pub fn subscribe(&self, topic: Topic) -> broadcast::Receiver<Arc<Published>> {
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

    /// The topics someone here listens to.
    pub fn topics(&self) -> Vec<Topic> {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .iter()
            .filter(|(_, s)| s.receiver_count() > 0)
            .map(|(t, _)| *t)
            .collect()
    }

    /// Sends `notice` to the subscribers of `topic` in this process.
    pub fn publish(&self, topic: Topic, notice: Notice) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sender) = channels.get(&topic)
            && sender.send(Published::new(notice)).is_err()
        {
            // Nobody listens any more.
            channels.remove(&topic);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{NewGame, Seat, TimeControl};
    use epaminondas_rules::{BoardSize, Symmetry};

    fn game(id: i64) -> Game {
        let mut game = Game::new(
            NewGame {
                white: Seat::Engine(1),
                black: Seat::Engine(2),
                start: epaminondas_rules::Position::new(
                    BoardSize::new(4, 4).unwrap(),
                    Symmetry::Off,
                ),
                rated: false,
                control: TimeControl::Unlimited,
            },
            0,
        );
        game.id = id;
        game
    }

    #[tokio::test]
    async fn subscribers_get_what_is_published_on_their_topic() {
        let hub = Hub::default();
        let mut watcher = hub.subscribe(Topic::Game(101));
        let mut player = hub.subscribe(Topic::Player(1));
        assert_eq!(hub.topics().len(), 2);
        hub.publish(Topic::Game(101), Notice::Game(game(101)));
        hub.publish(Topic::Game(102), Notice::Game(game(102)));
        hub.publish(
            Topic::Player(1),
            Notice::Player(PlayerEvent::YourTurn(game(101))),
        );
        let seen = watcher.recv().await.unwrap();
        assert!(matches!(&seen.notice, Notice::Game(g) if g.id == 101));
        let mut renders = 0;
        for _ in 0..3 {
            let text = seen.rendered(|_| {
                renders += 1;
                "text".into()
            });
            assert_eq!(&*text, "text");
        }
        assert_eq!(renders, 1, "rendered once");
        let event = player.recv().await.unwrap();
        assert!(
            matches!(&event.notice, Notice::Player(e) if e.kind() == "yourTurn" && e.subject() == 101)
        );
        assert!(watcher.try_recv().is_err());
        drop(watcher);
        hub.publish(Topic::Game(101), Notice::Game(game(101)));
        assert!(!hub.has_subscribers(Topic::Game(101)));
    }
}
