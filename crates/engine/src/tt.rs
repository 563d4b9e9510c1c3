//! The transposition table: search results kept by Zobrist hash, shared by
//! all search threads without locks.
//!
//! Each slot holds two words: the entry packed into 64 bits, and the entry
//! XOR the position's key. A reader accepts an entry only if the two agree
//! with its key, so an entry torn by two threads writing at once reads as a
//! miss instead of as a wrong result.

use std::sync::atomic::{AtomicU64, Ordering};

use epaminondas_rules::Move;

use crate::score::from_table;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) key: u64,
    pub(crate) best: Option<Move>,
    /// The score (see [`crate::score::to_table`]); it fits in 16 bits.
    pub(crate) score: i32,
    /// The remaining depth searched, 0 for quiescence.
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
}

impl Entry {
    /// The stored score, seen from `ply`, if its bound settles a search with
    /// the window (`alpha`, `beta`).
    pub(crate) fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let score = from_table(self.score, ply);
        let usable = match self.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        usable.then_some(score)
    }

    /// The entry without its key: move + 1 (0 for none) in bits 0-28, the
    /// score in 29-44, the depth in 45-52, the bound (1-3, so that an empty
    /// slot decodes as nothing) in 53-54.
    fn pack(&self) -> u64 {
        let best = self.best.map_or(0, |mv| u64::from(mv.to_bits()) + 1);
        let score = u64::from(self.score.clamp(i16::MIN.into(), i16::MAX.into()) as i16 as u16);
        let depth = self.depth.clamp(0, 255) as u64;
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        best | score << 29 | depth << 45 | bound << 53
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        let bound = match data >> 53 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = match (data & ((1 << 29) - 1)) as u32 {
            0 => None,
            bits => Move::from_bits(bits - 1),
        };
        Some(Entry {
            key,
            best,
            score: i32::from((data >> 29) as u16 as i16),
            depth: (data >> 45 & 255) as i32,
            bound,
        })
    }
}

/// One slot: the packed entry and the packed entry XOR its key.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size table of search results, indexed by Zobrist hash; a new
/// result replaces the old one in its slot unless the old one is of the same
/// position, deeper, and not an exact score being replaced by another exact
/// one. Shared between threads by reference.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one entry).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Slot>()).max(1);
        let mut slots = Vec::with_capacity(count);
        // Every probe lands on a random slot: with small pages nearly every
        // one would also miss the address translation cache.
        crate::memory::advise_huge_pages(slots.as_ptr(), count * std::mem::size_of::<Slot>());
        slots.extend((0..count).map(|_| Slot::default()));
        TranspositionTable {
            slots: slots.into_boxed_slice(),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for slot in self.slots.iter_mut() {
            *slot = Slot::default();
        }
    }

    /// How full the table is, in thousandths: the share of the first
    /// thousand slots in use (as UCI engines report `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| slot.data.load(Ordering::Relaxed) != 0)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }

    fn slot(&self, key: u64) -> &Slot {
        // Multiply-shift maps the key onto the table without a division.
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// Starts loading the slot of `key` into the cache, so that a probe
    /// soon after does not wait for memory (a no-op off x86-64).
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.slot(key));
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        Entry::unpack(key, data)
    }

    pub(crate) fn store(&self, entry: Entry) {
        let slot = self.slot(entry.key);
        let keep_old = self
            .probe(entry.key)
            .is_some_and(|old| old.depth > entry.depth && entry.bound != Bound::Exact);
        if !keep_old {
            let data = entry.pack();
            slot.data.store(data, Ordering::Relaxed);
            slot.check.store(data ^ entry.key, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epaminondas_rules::Position;

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let table = TranspositionTable::new(1);
        let pos = Position::standard();
        for (i, &mv) in pos.legal_moves().iter().enumerate().take(20) {
            let entry = Entry {
                key: 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(i as u64 + 1),
                best: (i % 3 != 0).then_some(mv),
                score: [-29_990, -1, 0, 517, 29_999][i % 5],
                depth: i as i32,
                bound: [Bound::Exact, Bound::Lower, Bound::Upper][i % 3],
            };
            table.store(entry);
            assert_eq!(table.probe(entry.key), Some(entry));
            assert_eq!(table.probe(entry.key ^ 1), None);
        }
    }

    #[test]
    fn deeper_results_are_kept_unless_exact() {
        let table = TranspositionTable::new(1);
        let deep = Entry {
            key: 42,
            best: None,
            score: 10,
            depth: 8,
            bound: Bound::Lower,
        };
        table.store(deep);
        let shallow = Entry { depth: 2, ..deep };
        table.store(shallow);
        assert_eq!(table.probe(42), Some(deep));
        let exact = Entry {
            bound: Bound::Exact,
            ..shallow
        };
        table.store(exact);
        assert_eq!(table.probe(42), Some(exact));
    }
}
