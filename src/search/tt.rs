//! The transposition table: lock-free, shared by every search thread, sized in megabytes.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is exactly this.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index of the best move in the position's generated move list.
    pub move_index: u16,
    /// The score, from the side to move's view, mate scores relative to this node.
    pub score: i16,
    /// The remaining depth the score was searched to.
    pub depth: i8,
    /// How the score bounds the true one.
    pub bound: Bound,
}

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.move_index)
            | u64::from(self.score as u16) << 16
            | u64::from(self.depth as u8) << 32
            | bound << 40
            | u64::from(generation) << 48
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            move_index: data as u16,
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8 as i8,
            bound: match (data >> 40) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// A slot: the key is stored XOR the data, so a torn write by another thread reads as a miss.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A hash table of search results keyed by Zobrist hash.
pub struct Table {
    slots: Vec<Slot>,
    generation: AtomicU64,
}

impl Table {
    /// A table of about `megabytes` MB (at least one slot).
    pub fn new(megabytes: usize) -> Table {
        Table::try_new(megabytes).unwrap_or_else(|error| panic!("{error}"))
    }

    /// A table of about `megabytes` MB, or an error when the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Result<Table, String> {
        let count = (megabytes.saturating_mul(1024 * 1024) / std::mem::size_of::<Slot>()).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate {megabytes} MB for the hash table"))?;
        slots.extend((0..count).map(|_| Slot::default()));
        Ok(Table {
            slots,
            generation: AtomicU64::new(1),
        })
    }

    fn slot(&self, key: u64) -> &Slot {
        let index = ((u128::from(key) * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        (slot.check.load(Ordering::Relaxed) ^ data == key && data != 0).then(|| Entry::unpack(data))
    }

    /// Stores `entry` for `key`, unless a deeper result of this search is already there.
    pub fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed) as u8;
        let old = slot.data.load(Ordering::Relaxed);
        let same_key = slot.check.load(Ordering::Relaxed) ^ old == key;
        let old_entry = Entry::unpack(old);
        let old_is_current = (old >> 48) as u8 == generation;
        if same_key
            || !old_is_current
            || entry.depth >= old_entry.depth
            || entry.bound == Bound::Exact
        {
            let data = entry.pack(generation);
            slot.data.store(data, Ordering::Relaxed);
            slot.check.store(key ^ data, Ordering::Relaxed);
        }
    }

    /// Marks a new search, so that older entries give way first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Permille of the first thousand slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) as u8;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                data != 0 && (data >> 48) as u8 == generation
            })
            .count();
        (used * 1000 / sample) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let table = Table::new(1);
        let entry = Entry {
            move_index: 7,
            score: -29_990,
            depth: 12,
            bound: Bound::Lower,
        };
        table.store(0xdead_beef, entry);
        assert_eq!(table.probe(0xdead_beef), Some(entry));
        assert_eq!(table.probe(0xdead_bee0), None);
        assert!(table.hashfull() <= 1000);
        table.clear();
        assert_eq!(table.probe(0xdead_beef), None);
    }
}
