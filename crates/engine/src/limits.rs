//! How long a search may run: depth, nodes, time per move, game clocks.

use std::time::Duration;

/// A side's clock in a timed game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Limits on one search; the search stops at the first one reached. With
/// none set it runs until stopped from outside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (in plies).
    pub depth: Option<u32>,
    /// Nodes to search: fixed-node searches are deterministic.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// The mover's game clock; the search budgets a share of it.
    pub clock: Option<Clock>,
}

/// Time kept back from every budget for reading and writing moves.
const OVERHEAD: Duration = Duration::from_millis(10);

impl Limits {
    /// A search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A search of `time` per move.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// The time this search may use, if any limit is a time limit.
    pub fn budget(&self) -> Option<Duration> {
        let from_clock = self.clock.map(|c| {
            // A fortieth of the clock plus most of the increment, but never
            // more than half of what is left.
            let share = c.remaining / 40 + c.increment * 3 / 4;
            share.min(c.remaining / 2).saturating_sub(OVERHEAD)
        });
        let from_movetime = self.movetime.map(|t| t.saturating_sub(OVERHEAD));
        match (from_clock, from_movetime) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
        .map(|t| t.max(Duration::from_millis(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        assert_eq!(Limits::depth(3).budget(), None);
        assert_eq!(
            Limits::movetime(Duration::from_millis(500)).budget(),
            Some(Duration::from_millis(490))
        );
        let clock = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(40),
                increment: Duration::from_secs(1),
            }),
            ..Limits::default()
        };
        assert_eq!(clock.budget(), Some(Duration::from_millis(1740)));
        let short = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(5),
                increment: Duration::ZERO,
            }),
            ..Limits::default()
        };
        assert_eq!(short.budget(), Some(Duration::from_millis(1)));
    }
}
