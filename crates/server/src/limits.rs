//! Counting what clients do, so that no client can take more than its share:
//! sliding-window counters (sign-ups, guest accounts, failed password
//! checks, mail and chat) and token buckets (engine time for analysis).
//! Everything is kept in the process's memory, keyed by account name,
//! client address or account, and pruned so that the maps stay bounded
//! however many keys an attacker uses.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;

/// Keys a map keeps before its stale entries are dropped.
const PRUNE_AT: usize = 50_000;

/// Who a limit counts: a signed-in account, or else the client's address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientKey {
    /// A signed-in account (guests included).
    Account(i64),
    /// A client without a session, by its address.
    Address(IpAddr),
}

/// Counts each key's events in the last `window_ms` milliseconds, a window
/// that slides with the clock: a limit of N an hour lets no more than N
/// through in any hour, where windows fixed to the clock's hours let 2N
/// through around an hour's turn (N in its last minute, N in the next's
/// first). Each key keeps the times of its newest events, no more of them
/// than the limit it is checked against (the older ones change no
/// decision), so a key costs at most its limit's worth of 8-byte times.
#[derive(Debug)]
pub struct WindowCounter<K> {
    window_ms: i64,
    times: Mutex<HashMap<K, VecDeque<i64>>>,
}

impl<K: Hash + Eq + Clone> WindowCounter<K> {
    /// A counter whose window is the last `window_ms` milliseconds.
    pub fn new(window_ms: i64) -> WindowCounter<K> {
        WindowCounter {
            window_ms: window_ms.max(1),
            times: Mutex::new(HashMap::new()),
        }
    }

    /// Drops the times of `times` that are out of the window at `now_ms`
    /// (an event counts for `window_ms` after it, not at its end).
    fn expire(&self, times: &mut VecDeque<i64>, now_ms: i64) {
        let since = now_ms - self.window_ms;
        while times.front().is_some_and(|&t| t <= since) {
            times.pop_front();
        }
    }

    /// The events counted for `key` in the window ending at `now_ms`.
    pub fn count(&self, key: &K, now_ms: i64) -> u32 {
        let since = now_ms - self.window_ms;
        let map = self.times.lock().unwrap_or_else(|e| e.into_inner());
        map.get(key).map_or(0, |times| {
            let live = times.len() - times.partition_point(|&t| t <= since);
            u32::try_from(live).unwrap_or(u32::MAX)
        })
    }

    /// Counts one event for `key`, keeping its newest `keep` (the limit its
    /// count is compared with); returns the count in the window.
    pub fn add(&self, key: K, keep: u32, now_ms: i64) -> u32 {
        self.with_live_times(key, now_ms, |times| self.push(times, keep, now_ms))
    }

    /// Counts one event for `key` unless it already has `limit` in the
    /// window; `Err` with the seconds until it has fewer if it has.
    pub fn try_add(&self, key: K, limit: u32, now_ms: i64) -> Result<u32, u64> {
        self.with_live_times(key, now_ms, |times| {
            if times.len() >= limit as usize {
                Err(self.wait_s(times, limit, now_ms))
            } else {
                Ok(self.push(times, limit, now_ms))
            }
        })
    }

    /// Runs `f` on `key`'s times still in the window at `now_ms`, under the
    /// lock, after bounding the map; a key left with no time is dropped, so
    /// that a refused event leaves nothing behind.
    fn with_live_times<R>(
        &self,
        key: K,
        now_ms: i64,
        f: impl FnOnce(&mut VecDeque<i64>) -> R,
    ) -> R {
        let mut map = self.times.lock().unwrap_or_else(|e| e.into_inner());
        self.prune(&mut map, now_ms);
        let times = map.entry(key.clone()).or_default();
        self.expire(times, now_ms);
        let result = f(times);
        if times.is_empty() {
            map.remove(&key);
        }
        result
    }

    /// Forgets `key`'s events.
    pub fn reset(&self, key: &K) {
        let mut map = self.times.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(key);
    }

    /// Seconds until `key` has fewer than `limit` events in the window (at
    /// least 1): when the events that put it at the limit have aged out.
    pub fn retry_after_s(&self, key: &K, limit: u32, now_ms: i64) -> u64 {
        let mut map = self.times.lock().unwrap_or_else(|e| e.into_inner());
        match map.get_mut(key) {
            Some(times) => {
                self.expire(times, now_ms);
                self.wait_s(times, limit, now_ms)
            }
            None => 1,
        }
    }

    /// Records an event at `now_ms` (never before the newest one kept, so
    /// that the times stay in order if the clock steps back) and drops the
    /// oldest beyond `keep`; returns how many are kept.
    fn push(&self, times: &mut VecDeque<i64>, keep: u32, now_ms: i64) -> u32 {
        let at = times.back().map_or(now_ms, |&last| last.max(now_ms));
        times.push_back(at);
        let keep = (keep as usize).max(1);
        while times.len() > keep {
            times.pop_front();
        }
        u32::try_from(times.len()).unwrap_or(u32::MAX)
    }

    /// Seconds until the live `times` fall below `limit`.
    fn wait_s(&self, times: &VecDeque<i64>, limit: u32, now_ms: i64) -> u64 {
        let limit = limit as usize;
        let until = if limit == 0 {
            now_ms + self.window_ms
        } else if times.len() < limit {
            return 1;
        } else {
            times[times.len() - limit] + self.window_ms
        };
        u64::try_from((until - now_ms + 999) / 1000)
            .unwrap_or(1)
            .max(1)
    }

    /// Bounds the map: past `PRUNE_AT` keys, drops those with no event in
    /// the window, and all of them if that is not enough (the limits reopen
    /// early rather than the map growing without bound).
    fn prune(&self, map: &mut HashMap<K, VecDeque<i64>>, now_ms: i64) {
        if map.len() < PRUNE_AT {
            return;
        }
        let since = now_ms - self.window_ms;
        map.retain(|_, times| times.back().is_some_and(|&t| t > since));
        if map.len() >= PRUNE_AT {
            map.clear();
        }
    }
}

/// A token bucket per key: each key holds up to `capacity` units, spends
/// them, and gets `refill_per_s` back each second.
#[derive(Debug)]
pub struct Budget<K> {
    capacity: f64,
    refill_per_ms: f64,
    levels: Mutex<HashMap<K, (f64, i64)>>,
}

impl<K: Hash + Eq + Clone> Budget<K> {
    /// Buckets of `capacity` units, refilled at `refill_per_s` units a second.
    pub fn new(capacity: u64, refill_per_s: u64) -> Budget<K> {
        Budget {
            capacity: capacity as f64,
            refill_per_ms: refill_per_s as f64 / 1000.0,
            levels: Mutex::new(HashMap::new()),
        }
    }

    fn level(&self, stored: Option<&(f64, i64)>, now_ms: i64) -> f64 {
        match stored {
            Some(&(level, at)) => {
                (level + (now_ms - at).max(0) as f64 * self.refill_per_ms).min(self.capacity)
            }
            None => self.capacity,
        }
    }

    /// Spends `cost` units of `key`'s bucket; `Err` with the seconds until
    /// it holds enough (nothing is spent then).
    pub fn spend(&self, key: K, cost: u64, now_ms: i64) -> Result<(), u64> {
        let cost = (cost as f64).min(self.capacity);
        let mut levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        if levels.len() >= PRUNE_AT {
            // Full buckets carry no information.
            let (capacity, refill) = (self.capacity, self.refill_per_ms);
            levels.retain(|_, &mut (level, at)| {
                level + (now_ms - at).max(0) as f64 * refill < capacity
            });
            if levels.len() >= PRUNE_AT {
                levels.clear();
            }
        }
        let level = self.level(levels.get(&key), now_ms);
        if level < cost {
            let missing = cost - level;
            let wait_ms = if self.refill_per_ms > 0.0 {
                missing / self.refill_per_ms
            } else {
                f64::from(u32::MAX)
            };
            return Err((wait_ms / 1000.0).ceil().max(1.0) as u64);
        }
        levels.insert(key, (level - cost, now_ms));
        Ok(())
    }

    /// Gives `amount` units back to `key` (what a search that stopped early
    /// did not use).
    pub fn refund(&self, key: K, amount: u64, now_ms: i64) {
        let mut levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        let level = self.level(levels.get(&key), now_ms);
        levels.insert(key, ((level + amount as f64).min(self.capacity), now_ms));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_count_and_reset() {
        let counter = WindowCounter::new(60_000);
        assert_eq!(counter.add("a", 5, 0), 1);
        assert_eq!(counter.try_add("a", 2, 1), Ok(2));
        assert_eq!(counter.try_add("a", 2, 2), Err(60));
        assert_eq!(counter.count(&"b", 2), 0);
        assert_eq!(counter.count(&"a", 59_999), 2);
        assert_eq!(counter.count(&"a", 60_000), 1, "the first has aged out");
        assert_eq!(counter.count(&"a", 60_001), 0);
        counter.add("a", 5, 60_001);
        counter.reset(&"a");
        assert_eq!(counter.count(&"a", 60_002), 0);
        assert_eq!(
            counter.retry_after_s(&"a", 1, 60_002),
            1,
            "nothing to wait for"
        );
    }

    #[test]
    fn a_refused_event_leaves_no_key_behind() {
        let counter = WindowCounter::new(60_000);
        assert_eq!(counter.try_add("a", 0, 0), Err(60), "a limit of 0 refuses");
        assert_eq!(counter.count(&"a", 1), 0);
        assert_eq!(counter.add("b", 3, 0), 1);
        // Once "b"'s event has aged out, a refused event drops its key too.
        assert_eq!(counter.try_add("b", 0, 60_000), Err(60));
        let keys = counter
            .times
            .lock()
            .map(|map| map.len())
            .unwrap_or(usize::MAX);
        assert_eq!(keys, 0, "no key kept for events that were not counted");
    }

    #[test]
    fn the_window_slides_so_no_clock_edge_doubles_a_limit() {
        // Two allowed a minute, both used in a minute's last second.
        let counter = WindowCounter::new(60_000);
        assert_eq!(counter.try_add("a", 2, 59_000), Ok(1));
        assert_eq!(counter.try_add("a", 2, 59_500), Ok(2));
        // A fixed window would open again at 60 000; this one waits until
        // the first has aged out, and says so.
        assert_eq!(counter.try_add("a", 2, 60_500), Err(59));
        assert_eq!(counter.retry_after_s(&"a", 2, 60_500), 59);
        assert_eq!(counter.retry_after_s(&"a", 1, 60_500), 59);
        assert_eq!(counter.try_add("a", 2, 118_999), Err(1));
        assert_eq!(counter.try_add("a", 2, 119_000), Ok(2));
        assert_eq!(counter.try_add("a", 2, 119_100), Err(1));
        // Nowhere in the run did any minute hold more than two.
        assert_eq!(counter.count(&"a", 119_100), 2);
    }

    #[test]
    fn a_key_keeps_no_more_times_than_its_limit() {
        let counter = WindowCounter::new(60_000);
        for t in 0..100 {
            counter.add("a", 3, t);
        }
        assert_eq!(counter.count(&"a", 100), 3);
        assert_eq!(counter.times.lock().unwrap()[&"a"].len(), 3);
        // The newest three are the ones kept: they age out last.
        assert_eq!(counter.count(&"a", 60_096), 3);
        assert_eq!(counter.count(&"a", 60_097), 2);
        assert_eq!(counter.try_add("b", 0, 0), Err(60), "a limit of none");
    }

    #[test]
    fn a_clock_stepping_back_keeps_the_times_in_order() {
        let counter = WindowCounter::new(1_000);
        counter.add("a", 5, 500);
        counter.add("a", 5, 100);
        assert_eq!(counter.count(&"a", 1_499), 2);
        assert_eq!(counter.count(&"a", 1_500), 0);
    }

    #[test]
    fn counters_stay_bounded() {
        let counter = WindowCounter::new(1_000);
        for i in 0..(PRUNE_AT as u32 + 10) {
            counter.add(i, 1, 0);
        }
        let size = counter.times.lock().unwrap().len();
        assert!(size <= PRUNE_AT, "{size}");
        // Keys whose events have aged out are the ones dropped.
        let counter = WindowCounter::new(1_000);
        for i in 0..(PRUNE_AT as u32 - 1) {
            counter.add(i, 1, 0);
        }
        counter.add(u32::MAX, 1, 5_000);
        counter.add(u32::MAX - 1, 1, 5_000);
        let map = counter.times.lock().unwrap();
        assert_eq!(map.len(), 2, "the stale keys went, the live ones stayed");
    }

    #[test]
    fn budgets_spend_and_refill() {
        let budget = Budget::new(10_000, 1_000);
        assert_eq!(budget.spend("a", 6_000, 0), Ok(()));
        assert_eq!(budget.spend("a", 6_000, 0), Err(2));
        assert_eq!(budget.spend("b", 6_000, 0), Ok(()), "each key has its own");
        assert_eq!(budget.spend("a", 6_000, 2_000), Ok(()));
        budget.refund("a", 5_000, 2_000);
        assert_eq!(budget.spend("a", 5_000, 2_000), Ok(()));
        assert_eq!(
            budget.spend("c", 99_000, 0),
            Ok(()),
            "a cost above the capacity empties it"
        );
    }
}
