//! Counting what clients do, so that no client can take more than its share:
//! fixed-window counters (sign-ups, guest accounts, failed password checks)
//! and token buckets (engine time for analysis). Everything is kept in the
//! process's memory, keyed by account name, client address or account, and
//! pruned so that the maps stay bounded however many keys an attacker uses.

use std::collections::HashMap;
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

/// Counts events per key in fixed windows of `window_ms`.
#[derive(Debug)]
pub struct WindowCounter<K> {
    window_ms: i64,
    counts: Mutex<HashMap<K, (i64, u32)>>,
}

impl<K: Hash + Eq + Clone> WindowCounter<K> {
    /// A counter whose windows last `window_ms` milliseconds.
    pub fn new(window_ms: i64) -> WindowCounter<K> {
        WindowCounter {
            window_ms: window_ms.max(1),
            counts: Mutex::new(HashMap::new()),
        }
    }

    fn window(&self, now_ms: i64) -> i64 {
        now_ms.div_euclid(self.window_ms)
    }

    /// The events counted for `key` in the current window.
    pub fn count(&self, key: &K, now_ms: i64) -> u32 {
        let window = self.window(now_ms);
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        match counts.get(key) {
            Some(&(w, n)) if w == window => n,
            _ => 0,
        }
    }

    /// Counts one event for `key`; returns the count in the current window.
    pub fn add(&self, key: K, now_ms: i64) -> u32 {
        let window = self.window(now_ms);
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() >= PRUNE_AT {
            counts.retain(|_, (w, _)| *w == window);
            if counts.len() >= PRUNE_AT {
                // More live keys than we keep: forget them all rather than
                // grow without bound (the limits reopen early).
                counts.clear();
            }
        }
        let entry = counts.entry(key).or_insert((window, 0));
        if entry.0 != window {
            *entry = (window, 0);
        }
        entry.1 = entry.1.saturating_add(1);
        entry.1
    }

    /// Counts one event for `key` unless it already has `limit` in this
    /// window; `Err` with the seconds until the window ends if it has.
    pub fn try_add(&self, key: K, limit: u32, now_ms: i64) -> Result<u32, u64> {
        if self.count(&key, now_ms) >= limit {
            return Err(self.retry_after_s(now_ms));
        }
        Ok(self.add(key, now_ms))
    }

    /// Forgets `key`'s events.
    pub fn reset(&self, key: &K) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.remove(key);
    }

    /// Seconds until the current window ends (at least 1).
    pub fn retry_after_s(&self, now_ms: i64) -> u64 {
        let end = (self.window(now_ms) + 1) * self.window_ms;
        u64::try_from((end - now_ms + 999) / 1000)
            .unwrap_or(1)
            .max(1)
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
        assert_eq!(counter.add("a", 0), 1);
        assert_eq!(counter.try_add("a", 2, 1), Ok(2));
        assert_eq!(counter.try_add("a", 2, 2), Err(60));
        assert_eq!(counter.count(&"b", 2), 0);
        assert_eq!(counter.count(&"a", 60_000), 0, "a new window");
        counter.add("a", 60_001);
        counter.reset(&"a");
        assert_eq!(counter.count(&"a", 60_002), 0);
        assert_eq!(counter.retry_after_s(119_500), 1);
    }

    #[test]
    fn counters_stay_bounded() {
        let counter = WindowCounter::new(1_000);
        for i in 0..(PRUNE_AT as u32 + 10) {
            counter.add(i, 0);
        }
        let size = counter.counts.lock().unwrap().len();
        assert!(size <= PRUNE_AT, "{size}");
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
