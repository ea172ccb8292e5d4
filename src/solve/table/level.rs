//! One level of the proof table: entries in buckets of four, keeping the results that cost
//! the most work when a bucket is full.
//!
//! A key is first mixed by a reversible function; the mix's low bits choose the bucket and its
//! top 49 bits are kept in the entry. Together they are the whole mix, and so the whole key:
//! a level of at least 2^15 buckets never mistakes one key for another.

use super::{Proof, physical_memory_mb};
use crate::rules::mix::splitmix64;
use crate::solve::words::{WORD_BYTES, Words, prefetch};
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket.
pub(super) const WAYS: usize = 4;
/// The low bits of an entry: bit 0 the result, bits 1..7 the log2 of the work it cost, bits
/// 7..15 the length of the proof in plies (at most 255); the mixed key's top 49 bits above.
pub(super) const DATA_BITS: u32 = 15;
pub(super) const KEY_MASK: u64 = !((1 << DATA_BITS) - 1);
/// The fewest buckets: enough for the bucket index and the stored bits to hold a whole key.
pub(super) const MIN_BUCKETS: usize = 1 << DATA_BITS;

/// A fixed-size array of entries, read and written by many threads.
pub(super) struct Level {
    /// Each entry, 8 bytes: the mixed key's top 49 bits, the proof's plies (8 bits), the
    /// work's log2 (6 bits), the result (1 bit); 0 is empty. Untouched memory costs nothing,
    /// and huge pages save most of a probe's TLB misses ([`Words`]).
    pub(super) words: Words,
    pub(super) bucket_mask: usize,
}

/// Bytes per entry.
pub(super) const ENTRY_BYTES: usize = WORD_BYTES;

impl Level {
    /// A level of at most `megabytes` MB (rounded down to a power of two of buckets, at least
    /// 1 MB), or an error when the machine does not have that much memory.
    pub fn new(megabytes: usize) -> Result<Level, String> {
        let bytes = megabytes
            .saturating_mul(1 << 20)
            .max(MIN_BUCKETS * WAYS * ENTRY_BYTES);
        // The largest power of two of buckets that fits.
        let fit = bytes / (8 * WAYS);
        let buckets = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        let available_mb = physical_memory_mb();
        if available_mb.is_some_and(|total| megabytes > total) {
            return Err(format!(
                "cannot allocate {megabytes} MB for the proof table: the machine has {} MB",
                available_mb.unwrap_or(0)
            ));
        }
        let words = Words::zeroed(buckets * WAYS)
            .map_err(|e| format!("cannot allocate {megabytes} MB for the proof table: {e}"))?;
        Ok(Level {
            words,
            bucket_mask: buckets - 1,
        })
    }

    /// The entries.
    pub(super) fn entries(&self) -> &[AtomicU64] {
        self.words.get()
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.words.bytes()
    }

    /// Forgets every result.
    pub fn clear(&mut self) {
        for entry in self.entries() {
            entry.store(0, Ordering::Relaxed);
        }
    }

    /// How many entries hold a result.
    pub fn occupied(&self) -> u64 {
        self.entries()
            .iter()
            .filter(|entry| entry.load(Ordering::Relaxed) != 0)
            .count() as u64
    }

    /// The index of the first entry of the bucket of `mixed` (a mixed key).
    pub(super) fn bucket(&self, mixed: u64) -> usize {
        (mixed as usize & self.bucket_mask) * WAYS
    }

    fn entry(&self, index: usize) -> u64 {
        self.entries()[index].load(Ordering::Relaxed)
    }

    fn set_entry(&self, index: usize, entry: u64) {
        self.entries()[index].store(entry, Ordering::Relaxed);
    }

    /// Asks the processor to start bringing `key`'s bucket into the cache, so that a probe made
    /// a little later does not wait for memory ([`prefetch`]).
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.entries()[self.bucket(splitmix64(key))]);
    }

    /// The proven result for `key`, if known.
    pub fn probe(&self, key: u64) -> Option<Proof> {
        let mixed = splitmix64(key);
        let wanted = mixed & KEY_MASK;
        let first = self.bucket(mixed);
        (first..first + WAYS)
            .map(|i| self.entry(i))
            .find(|&entry| entry != 0 && entry & KEY_MASK == wanted)
            .map(|entry| Proof {
                wins: entry & 1 == 1,
                plies: ((entry >> 7) & 0xff) as u8,
            })
    }

    /// Records the proof found at `key`, which cost `work` nodes. Two threads storing into one
    /// bucket at once may overwrite each other's entries: a result lost, never a wrong one.
    pub fn store(&self, key: u64, proof: Proof, work: u64) {
        let log_work = u64::from(64 - work.leading_zeros()).min(63);
        let mixed = splitmix64(key);
        let entry = (mixed & KEY_MASK)
            | (u64::from(proof.plies) << 7)
            | (log_work << 1)
            | u64::from(proof.wins);
        self.place(mixed, entry);
    }

    /// Puts `entry`, whose mixed key is `mixed`, into its bucket: in the place of the same
    /// key's entry, else an empty one, else the one that cost the least work.
    pub(super) fn place(&self, mixed: u64, entry: u64) {
        let wanted = mixed & KEY_MASK;
        let first = self.bucket(mixed);
        let bucket: [u64; WAYS] = std::array::from_fn(|i| self.entry(first + i));
        let slot = bucket
            .iter()
            .position(|&e| e == 0 || e & KEY_MASK == wanted)
            .unwrap_or_else(|| {
                // The cheapest result to recompute makes way.
                (0..WAYS)
                    .min_by_key(|&i| (bucket[i] >> 1) & 0x3f)
                    .expect("a bucket has entries")
            });
        self.set_entry(first + slot, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefetching_any_key_changes_no_result() {
        let table = Level::new(1).unwrap();
        let win = Proof {
            wins: true,
            plies: 3,
        };
        let stored: Vec<u64> = (0..1000).map(|i| splitmix64(i) >> (i % 64)).collect();
        for &key in &stored {
            table.store(key, win, 1);
        }
        let before: Vec<_> = (0..2000).map(|i| table.probe(i)).collect();
        let last_bucket = (0..)
            .find(|&key| table.bucket(splitmix64(key)) == table.bucket_mask * WAYS)
            .unwrap();
        for key in stored.iter().copied().chain([0, u64::MAX, last_bucket]) {
            table.prefetch(key);
        }
        let after: Vec<_> = (0..2000).map(|i| table.probe(i)).collect();
        assert_eq!(before, after);
        assert!(stored.iter().all(|&key| table.probe(key) == Some(win)));
    }

    #[test]
    fn results_are_kept_and_cheap_ones_make_way() {
        let mut table = Level::new(1).unwrap();
        assert_eq!(table.bytes(), 1 << 20);
        assert_eq!(Level::new(0).unwrap().bytes(), 1 << 20, "at least 1 MB");
        let key = 0x1234_5678_9abc_def0;
        let (win, loss) = (
            Proof {
                wins: true,
                plies: 7,
            },
            Proof {
                wins: false,
                plies: 255,
            },
        );
        assert_eq!(table.probe(key), None);
        table.store(key, win, 1000);
        assert_eq!(table.probe(key), Some(win));
        table.store(key, loss, 10);
        assert_eq!(table.probe(key), Some(loss), "the same key is overwritten");
        // Five keys of one bucket: the cheapest of the first four goes.
        let bucket = table.bucket(splitmix64(7));
        let same_bucket: Vec<u64> = (8..)
            .filter(|&key| table.bucket(splitmix64(key)) == bucket)
            .take(5)
            .collect();
        for (i, &key) in same_bucket[..4].iter().enumerate() {
            table.store(key, win, 1 << (10 + i));
        }
        table.store(same_bucket[4], loss, 1 << 20);
        assert_eq!(table.probe(same_bucket[0]), None);
        assert_eq!(table.probe(same_bucket[3]), Some(win));
        assert_eq!(table.probe(same_bucket[4]), Some(loss));
        // Keys that differ only in bits the bucket index holds are told apart.
        table.clear();
        table.store(1, win, 1);
        assert_eq!(table.probe(1), Some(win));
        assert_eq!(table.probe(1 << 40), None);
    }
}
