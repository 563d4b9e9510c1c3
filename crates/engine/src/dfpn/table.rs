//! The proof search's table: every node the search expanded (less those
//! forgotten to make room), by table key, in as many slots as the memory
//! allows (not a power of two of them).
//!
//! Open addressing with linear probing: a key's home slot is its mixed
//! hash scaled to the slot count (a multiply and a shift, so any count
//! works), and it lies in the first slot from there on that holds it or is
//! vacant. Nodes are removed only in bulk ([`Table::retain`], which puts
//! the rest back in place), so a probe ends at the first vacant slot. A slot is 16 bytes, a key and an [`Entry`]; a vacant slot holds an
//! entry the search never stores (proven, but never proven at any time).
//!
//! The table starts small and doubles while it is small; once doubling
//! again would take more than a sixteenth of its largest size, it grows
//! straight to that size. Growing holds the old slots and the new at once,
//! so the peak is at most 17 bytes a slot of the largest size, against
//! 25.5 for a doubling hash map at its last doubling (and a power of two of
//! slots besides), which lets the same memory hold about twice the nodes.

use super::Entry;

/// One slot: a key and its entry, or vacant.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    entry: Entry,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

impl Slot {
    /// A slot holding nothing: its entry is proven at time 0, which no
    /// entry is (the first proof is the first, 1).
    const VACANT: Slot = Slot {
        key: 0,
        entry: Entry {
            proof: 0,
            disproof_or_proven_at: 0,
        },
    };

    fn is_vacant(&self) -> bool {
        self.entry.proof == 0 && self.entry.disproof_or_proven_at == 0
    }
}

/// Bytes one slot takes.
pub const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// The most a table's slots may be filled, as a fraction: four fifths. At
/// that load a probe for a key the table lacks reads 13 slots on average
/// (three or four cache lines, in order), one for a key it holds 3.
const LOAD_NUMERATOR: usize = 4;
const LOAD_DENOMINATOR: usize = 5;

/// The slots the table starts with.
const FIRST_SLOTS: usize = 64;

/// How many entries `slots` slots may hold: four fifths of them, and always
/// one slot vacant, so that every probe ends.
fn usable(slots: usize) -> usize {
    (slots / LOAD_DENOMINATOR * LOAD_NUMERATOR).min(slots.saturating_sub(1))
}

/// The most slots a table made for `entries` entries takes: enough that
/// they fill at most four fifths.
fn largest_slots(entries: usize) -> usize {
    entries
        .div_ceil(LOAD_NUMERATOR)
        .saturating_add(1)
        .saturating_mul(LOAD_DENOMINATOR)
}

/// The most entries a table can hold without its slots ever taking more
/// than `bytes`, counting the old and the new slots held at once while it
/// grows (its largest size and at most a sixteenth of that).
pub fn entries_within(bytes: u64) -> usize {
    let slots = usize::try_from(bytes / SLOT_BYTES as u64).unwrap_or(usize::MAX);
    let largest = slots / 17 * 16;
    ((largest / LOAD_DENOMINATOR).saturating_sub(1) * LOAD_NUMERATOR).max(1)
}

/// Every node expanded, by table key (see the module's notes).
pub struct Table {
    slots: Vec<Slot>,
    len: usize,
    /// The slots it grows to at most (for the entries it was made for).
    largest: usize,
    /// The most slots it held at once so far (during a growth, the old and
    /// the new together).
    peak_slots: usize,
}

impl Table {
    /// An empty table that will hold up to `entries` entries, its slots
    /// taking at most 17 bytes a slot of its largest size while it grows;
    /// it grows past that (doubling) only if more are put in.
    pub fn new(entries: usize) -> Table {
        Table {
            slots: Vec::new(),
            len: 0,
            largest: largest_slots(entries),
            peak_slots: 0,
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The most bytes its slots took at once so far.
    #[cfg(test)]
    pub fn peak_bytes(&self) -> usize {
        self.peak_slots * SLOT_BYTES
    }

    /// The slot of `key` when the table has it, else the vacant slot where
    /// it would go. The table must have slots.
    fn find(&self, key: u64) -> Result<usize, usize> {
        let count = self.slots.len();
        let mut at = home(key, count);
        loop {
            let slot = &self.slots[at];
            if slot.is_vacant() {
                return Err(at);
            }
            if slot.key == key {
                return Ok(at);
            }
            at += 1;
            if at == count {
                at = 0;
            }
        }
    }

    /// Starts loading the home slot of `key` into the cache, so that a
    /// [`Table::get`] soon after does not wait for memory (a no-op off
    /// x86-64): a node's children are prefetched together, their loads
    /// overlapping, before they are read one by one.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        if !self.slots.is_empty() {
            crate::memory::prefetch(&self.slots[home(key, self.slots.len())]);
        }
    }

    /// The entry of `key`, if the table has one.
    pub fn get(&self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        self.find(key).ok().map(|at| self.slots[at].entry)
    }

    /// The entry of `key` to change, if the table has one.
    pub fn get_mut(&mut self, key: u64) -> Option<&mut Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let at = self.find(key).ok()?;
        Some(&mut self.slots[at].entry)
    }

    /// Sets the entry of `key`, adding the key if it is new. The entry must
    /// not be proven at time 0 (that marks a vacant slot).
    pub fn insert(&mut self, key: u64, entry: Entry) {
        debug_assert!(!(Slot { key, entry }).is_vacant());
        self.put(key, entry, true);
    }

    /// Adds `key` with `entry` unless the table has it already.
    pub fn insert_if_absent(&mut self, key: u64, entry: Entry) {
        debug_assert!(!(Slot { key, entry }).is_vacant());
        self.put(key, entry, false);
    }

    fn put(&mut self, key: u64, entry: Entry, replace: bool) {
        if self.slots.is_empty() {
            self.grow();
        }
        match self.find(key) {
            Ok(at) => {
                if replace {
                    self.slots[at].entry = entry;
                }
            }
            Err(mut at) => {
                if self.len + 1 > usable(self.slots.len()) {
                    self.grow();
                    at = self.vacant_for(key);
                }
                self.slots[at] = Slot { key, entry };
                self.len += 1;
            }
        }
    }

    /// Grows, as putting them in one by one would, until `entries` fit.
    /// Keys put in in slot order (as a checkpoint has them, see
    /// `checkpoint.rs`) must find their slots first: in a smaller table
    /// the first ones all have homes near its start, and each would probe
    /// past all the others (839,000 entries took 67 s that way).
    pub fn reserve(&mut self, entries: usize) {
        while usable(self.slots.len()) < entries {
            self.grow();
        }
    }

    /// Moves the entries to more slots: double while small, then the
    /// largest size at once; past that, double again.
    fn grow(&mut self) {
        let now = self.slots.len();
        let next = if now == 0 {
            FIRST_SLOTS.min(self.largest)
        } else if now >= self.largest || now * 2 * 16 <= self.largest {
            now * 2
        } else {
            self.largest
        };
        let old = std::mem::replace(&mut self.slots, vec![Slot::VACANT; next]);
        self.peak_slots = self.peak_slots.max(old.capacity() + self.slots.capacity());
        for slot in old.into_iter().filter(|s| !s.is_vacant()) {
            let at = self.vacant_for(slot.key);
            self.slots[at] = slot;
        }
    }

    /// Calls `look` with every entry held, in slot order.
    pub fn for_each(&self, mut look: impl FnMut(u64, Entry)) {
        for slot in self.slots.iter().filter(|s| !s.is_vacant()) {
            look(slot.key, slot.entry);
        }
    }

    /// Keeps only the entries for which `keep` says so, in place (no
    /// second set of slots: the table is at its largest when this is
    /// needed); returns how many were removed.
    ///
    /// Removed slots are made vacant, which would cut the probe chains
    /// running through them; so every entry is then taken out and put back
    /// in slot order, starting just after a vacant slot. No chain crosses a
    /// vacant slot, so in that order every entry lies at or after its home;
    /// put back, it lands at the first vacant slot from its home, never
    /// after where it was, and the slot it leaves is past every chain put
    /// back before it.
    pub fn retain(&mut self, mut keep: impl FnMut(u64, Entry) -> bool) -> usize {
        let before = self.len;
        for slot in &mut self.slots {
            if !slot.is_vacant() && !keep(slot.key, slot.entry) {
                *slot = Slot::VACANT;
                self.len -= 1;
            }
        }
        let count = self.slots.len();
        let Some(vacant) = self.slots.iter().position(Slot::is_vacant) else {
            return before - self.len;
        };
        for step in 1..count {
            let at = (vacant + step) % count;
            let slot = self.slots[at];
            if slot.is_vacant() {
                continue;
            }
            self.slots[at] = Slot::VACANT;
            let to = self.vacant_for(slot.key);
            self.slots[to] = slot;
        }
        before - self.len
    }

    /// The vacant slot where `key`, which the table lacks, goes.
    fn vacant_for(&self, key: u64) -> usize {
        let count = self.slots.len();
        let mut at = home(key, count);
        while !self.slots[at].is_vacant() {
            at += 1;
            if at == count {
                at = 0;
            }
        }
        at
    }
}

/// A key's home slot among `count`: its bits mixed (a table key is the
/// smaller of two Zobrist hashes, so its high bits lean low), then scaled
/// to the count by the high half of a 128-bit product.
fn home(key: u64, count: usize) -> usize {
    let mixed = (key ^ (key >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((u128::from(mixed) * count as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::Numbers;

    fn entry(proof: u32) -> Entry {
        Entry {
            proof,
            disproof_or_proven_at: 7,
        }
    }

    #[test]
    fn keys_put_in_are_found_with_their_latest_entry_and_no_others() {
        let mut table = Table::new(10_000);
        // Keys of every shape: small, large, zero, and runs of neighbours.
        let keys: Vec<u64> = (0..5_000u64)
            .map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (i << 60))
            .chain(1_000_000..1_000_050)
            .collect();
        assert_eq!(
            keys.iter().collect::<std::collections::HashSet<_>>().len(),
            keys.len()
        );
        for (i, &key) in keys.iter().enumerate() {
            table.insert(key, entry(i as u32 + 1));
        }
        for &key in &keys[..100] {
            table.insert(key, entry(99_999));
            table.insert_if_absent(key, entry(5));
        }
        assert_eq!(table.len(), keys.len());
        for (i, &key) in keys.iter().enumerate() {
            let expected = if i < 100 { 99_999 } else { i as u32 + 1 };
            assert_eq!(table.get(key).map(|e| e.proof), Some(expected), "key {key}");
        }
        for absent in [1u64 << 40, u64::MAX, 12_345_678_901] {
            assert!(table.get(absent).is_none());
        }
        if let Some(e) = table.get_mut(keys[7]) {
            *e = Entry::new(Numbers::PROVEN, 3);
        }
        assert_eq!(table.get(keys[7]).map(|e| e.proven_at()), Some(3));
    }

    #[test]
    fn a_table_filled_to_the_entries_within_some_memory_never_took_more() {
        for bytes in [1u64 << 10, 7 << 20, 100 << 20, 1_000_000_007] {
            let entries = entries_within(bytes);
            let mut table = Table::new(entries);
            for key in 0..entries as u64 {
                table.insert(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), entry(1));
            }
            assert_eq!(table.len(), entries);
            let peak = table.peak_bytes() as u64;
            assert!(peak <= bytes, "{bytes} bytes: peak {peak}");
            // And not much less: over nine tenths of the memory is used.
            assert!(
                peak * 10 > bytes * 9 || bytes < 1 << 20,
                "{bytes} bytes: peak {peak}"
            );
            // The slots are at most four fifths full.
            assert!(table.slots.len() / 5 * 4 >= entries - 1, "{bytes} bytes");
        }
    }

    #[test]
    fn entries_kept_after_a_removal_are_all_found_and_removed_ones_are_gone() {
        // A full table (four fifths of its slots), so that probe chains are
        // long and run across the end of the slots; then removals of every
        // shape: every third key, then a run of neighbours, then all.
        let entries = entries_within(1 << 16);
        let mut table = Table::new(entries);
        let keys: Vec<u64> = (1..=entries as u64)
            .map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D))
            .collect();
        for (i, &key) in keys.iter().enumerate() {
            table.insert(key, entry(i as u32 + 1));
        }
        let slots = table.slots.len();
        let removed = table.retain(|_, e| e.proof % 3 != 0);
        assert_eq!(removed, keys.len() / 3);
        assert_eq!(table.slots.len(), slots);
        for (i, &key) in keys.iter().enumerate() {
            let proof = i as u32 + 1;
            let found = table.get(key).map(|e| e.proof);
            assert_eq!(found, (proof % 3 != 0).then_some(proof), "key {key}");
        }
        let mut seen = 0;
        table.for_each(|_, e| {
            assert!(e.proof % 3 != 0);
            seen += 1;
        });
        assert_eq!(seen, table.len());
        // Filled again, and a run of neighbours removed.
        for (i, &key) in keys.iter().enumerate() {
            table.insert(key, entry(i as u32 + 1));
        }
        assert_eq!(table.len(), keys.len());
        table.retain(|_, e| !(100..2_000).contains(&e.proof));
        for (i, &key) in keys.iter().enumerate() {
            let kept = !(100..2_000).contains(&(i as u32 + 1));
            assert_eq!(table.get(key).is_some(), kept, "key {key}");
        }
        assert_eq!(table.retain(|_, _| false), keys.len() - 1_900);
        assert_eq!(table.len(), 0);
        assert!(keys.iter().all(|&key| table.get(key).is_none()));
    }

    #[test]
    fn a_table_given_more_than_it_was_made_for_keeps_growing() {
        let mut table = Table::new(10);
        for key in 1..=1_000u64 {
            table.insert(key, entry(1));
        }
        assert_eq!(table.len(), 1_000);
        assert!((1..=1_000u64).all(|key| table.get(key).is_some()));
    }

    #[test]
    fn a_table_reserved_for_its_entries_takes_them_in_slot_order_without_growing() {
        let mut full = Table::new(100_000);
        for i in 1..=50_000u64 {
            full.insert(i.wrapping_mul(0x9E37_79B9_7F4A_7C15), entry(1));
        }
        let mut copy = Table::new(100_000);
        copy.reserve(full.len());
        let slots = copy.slots.len();
        assert!(usable(slots) >= full.len() && slots <= full.largest);
        full.for_each(|key, entry| copy.insert(key, entry));
        assert_eq!(copy.slots.len(), slots);
        assert_eq!(copy.len(), 50_000);
        let mut found = 0;
        full.for_each(|key, _| found += usize::from(copy.get(key).is_some()));
        assert_eq!(found, 50_000);
    }
}
