//! The transposition table: search results kept by Zobrist hash.

use epaminondas_rules::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) key: u64,
    pub(crate) best: Option<Move>,
    pub(crate) score: i32,
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
}

/// A fixed-size table of search results, indexed by Zobrist hash; a new
/// result replaces the old one in its slot unless the old one is deeper.
pub struct TranspositionTable {
    entries: Vec<Option<Entry>>,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one entry).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let size = std::mem::size_of::<Option<Entry>>();
        let count = (megabytes.saturating_mul(1 << 20) / size).max(1);
        TranspositionTable {
            entries: vec![None; count],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(None);
    }

    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a division.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    pub(crate) fn store(&mut self, entry: Entry) {
        let slot = self.slot(entry.key);
        let keep_old = self.entries[slot].is_some_and(|old| {
            old.key == entry.key && old.depth > entry.depth && entry.bound != Bound::Exact
        });
        if !keep_old {
            self.entries[slot] = Some(entry);
        }
    }
}
