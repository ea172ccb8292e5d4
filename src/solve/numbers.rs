//! The proof-number search's table of proof and disproof numbers: what it has learnt of the
//! positions it has not proven yet, which steers it (never a result), and a mark for those it
//! has proven, which says the proof table holds their proof. It lives beside the proof table
//! ([`ProofTable::numbers`](super::ProofTable)), so that a saved table resumes a solve with
//! what it had learnt, not only with what it had proven.

use super::words::{WORD_BYTES, Words, prefetch};
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers this large stand for infinity: a proven position's `phi` or `delta`.
pub(super) const INFINITE: u32 = 1 << 30;
/// Sums of numbers stop here, short of [`INFINITE`], so that only a proof is infinite.
pub(super) const LARGEST_FINITE: u32 = INFINITE - 1;

/// A proof and a disproof number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Numbers {
    pub phi: u32,
    pub delta: u32,
}

impl Numbers {
    pub const WIN: Numbers = Numbers {
        phi: 0,
        delta: INFINITE,
    };
    pub const LOSS: Numbers = Numbers {
        phi: INFINITE,
        delta: 0,
    };
    /// Not yet read from the tables: never a position's numbers (only a proof has a zero,
    /// and never two).
    pub const UNKNOWN: Numbers = Numbers { phi: 0, delta: 0 };
    /// Kept for a proven position in place of its numbers, to say that the proof table has
    /// its proof: never a position's numbers (a proof has one zero, unproven ones are finite).
    pub const PROVEN: Numbers = Numbers {
        phi: INFINITE,
        delta: INFINITE,
    };

    /// The word an entry keeps them in: `phi` in the high half, `delta` in the low.
    fn word(self) -> u64 {
        u64::from(self.phi) << 32 | u64::from(self.delta)
    }

    /// The numbers kept in an entry's `word`.
    fn from_word(word: u64) -> Numbers {
        Numbers {
            phi: (word >> 32) as u32,
            delta: word as u32,
        }
    }
}

/// Entries in a bucket: four of two words, one cache line.
const BUCKET: usize = 4;
/// Words in a bucket.
const BUCKET_WORDS: usize = 2 * BUCKET;
/// Bytes in a bucket: one cache line.
pub(super) const BUCKET_BYTES: usize = BUCKET_WORDS * WORD_BYTES;

/// The numbers of unproven positions, by the position's hash, in buckets of four; a full
/// bucket gives up the entry that cost the least work. The start numbers of positions not yet
/// searched are kept too, as the least work of all, and a proven position keeps its entry, with
/// the work its proof cost, marked [`Numbers::PROVEN`]: the search then asks the proof table
/// only for the positions so marked, not for every one this table lacks (see
/// [`ProofNumberSearch`](super::dfpn)).
///
/// An entry is two words: the high half of the position's hash with one more than the work its
/// numbers cost (saturating; one for start numbers, zero when the entry is empty), then `phi`
/// and `delta`. The numbers only steer, so a half-hash collision costs work, never a wrong
/// result. The words are the system's zeroed pages ([`Words`]), each bucket on a cache line of
/// its own: a new table costs memory only where written, and huge pages make a big table's
/// probes cheaper. Entries of three words (the whole hash, the numbers, the work) searched the
/// same positions with the same number of buckets in 1.5 times the memory (16x3 with the gap
/// horizontal at the corner, Black to move: 9,097,736 positions either way, 164 MB peak against
/// 131 MB, time ratios 0.91 to 1.08 over three runs), so the same `--hash` now holds twice the
/// buckets.
///
/// Its size matters less than its speed: 13x4 at the corner with Black to move (1 GB proof
/// table) took 239M positions in 392 s with a 64 MB table and 175M in 423 s with 4 GB.
pub(super) struct NumberTable {
    /// The buckets; `None` only if the system refused even the smallest table, which then
    /// keeps nothing (the search stays right, only slower).
    words: Option<Words>,
    bucket_mask: usize,
}

impl NumberTable {
    /// A table of about `bytes` bytes (a power of two of buckets, at least one), or half
    /// as many, and so on, where the system refuses that much memory.
    pub fn new(bytes: usize) -> NumberTable {
        let mut buckets = 1usize << (bytes / (WORD_BYTES * BUCKET_WORDS)).max(1).ilog2();
        loop {
            if let Ok(words) = Words::zeroed(buckets * BUCKET_WORDS) {
                return NumberTable {
                    words: Some(words),
                    bucket_mask: buckets - 1,
                };
            }
            if buckets == 1 {
                return NumberTable {
                    words: None,
                    bucket_mask: 0,
                };
            }
            buckets /= 2;
        }
    }

    /// The table beside a proof table's main level of `main_bytes` bytes: half its size, at
    /// least 16 MB.
    pub fn beside(main_bytes: usize) -> NumberTable {
        NumberTable::new((main_bytes / 2).max(16 << 20))
    }

    /// Its buckets: none when the system refused it.
    pub fn buckets(&self) -> usize {
        self.words.as_ref().map_or(0, |_| self.bucket_mask + 1)
    }

    /// Every word, bucket after bucket: what a saved table holds.
    pub fn words(&self) -> &[AtomicU64] {
        self.words.as_ref().map_or(&[], |words| words.get())
    }

    /// How many unproven positions it holds numbers for (the marks of proven ones aside).
    pub fn held(&self) -> u64 {
        let proven = Numbers::PROVEN.word();
        let held = self
            .words()
            .chunks_exact(2)
            .filter(|entry| {
                entry[0].load(Ordering::Relaxed) as u32 != 0
                    && entry[1].load(Ordering::Relaxed) != proven
            })
            .count();
        held as u64
    }

    /// The words of the bucket for `code`.
    fn bucket(&self, code: u64) -> Option<&[AtomicU64]> {
        let index = (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize & self.bucket_mask;
        Some(&self.words.as_ref()?.get()[index * BUCKET_WORDS..][..BUCKET_WORDS])
    }

    /// Asks the processor to start bringing the bucket for `code` into the cache
    /// ([`prefetch`]).
    pub fn prefetch(&self, code: u64) {
        if let Some(bucket) = self.bucket(code) {
            prefetch(&bucket[0]);
        }
    }

    /// The slot holding `code` in `bucket`, if any.
    fn slot(bucket: &[AtomicU64], code: u64) -> Option<usize> {
        let check = code >> 32;
        (0..BUCKET).find(|&slot| {
            let head = bucket[2 * slot].load(Ordering::Relaxed);
            head >> 32 == check && head as u32 != 0
        })
    }

    /// The numbers kept for `code`, if any.
    pub fn get(&self, code: u64) -> Option<Numbers> {
        let bucket = self.bucket(code)?;
        let word = bucket[2 * Self::slot(bucket, code)? + 1].load(Ordering::Relaxed);
        Some(Numbers::from_word(word))
    }

    /// Keeps `numbers` for `code`, which cost `work` positions searched (none for start
    /// numbers).
    pub fn put(&self, code: u64, numbers: Numbers, work: u64) {
        let Some(bucket) = self.bucket(code) else {
            return;
        };
        let slot = Self::slot(bucket, code)
            .or_else(|| {
                (0..BUCKET).min_by_key(|&slot| bucket[2 * slot].load(Ordering::Relaxed) as u32)
            })
            .unwrap_or(0);
        let work = u32::try_from(work.saturating_add(1)).unwrap_or(u32::MAX);
        bucket[2 * slot].store(code >> 32 << 32 | u64::from(work), Ordering::Relaxed);
        bucket[2 * slot + 1].store(numbers.word(), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_bucket_gives_up_the_entry_of_least_work() {
        let table = NumberTable::new(1);
        assert_eq!(table.bucket_mask, 0, "one bucket");
        assert_eq!(
            table
                .words
                .as_ref()
                .map(|w| w.get().as_ptr().align_offset(64)),
            Some(0),
            "on a cache line"
        );
        // Hashes whose high halves differ, the part an entry keeps.
        let code = |i: u64| i << 32 | 0xabc;
        let numbers = |phi| Numbers { phi, delta: 7 };
        for i in 1..=4 {
            table.put(code(i), numbers(i as u32), 10 * i);
        }
        table.put(code(5), numbers(5), 25);
        assert_eq!(table.get(code(1)), None, "the least work went");
        for i in 2..=5 {
            assert_eq!(table.get(code(i)), Some(numbers(i as u32)));
        }
        table.put(code(3), numbers(9), u64::MAX);
        assert_eq!(
            table.get(code(3)),
            Some(numbers(9)),
            "an update stays in its entry"
        );
        table.put(code(4), Numbers::PROVEN, 45);
        assert_eq!(
            table.get(code(4)),
            Some(Numbers::PROVEN),
            "proven: marked in place"
        );
        assert_eq!(table.held(), 3, "a mark is not numbers held");
        table.put(code(6), numbers(6), 1);
        assert_eq!(table.get(code(2)), None, "the least work went again");
        assert_eq!(
            table.get(code(4)),
            Some(Numbers::PROVEN),
            "a mark keeps its proof's work"
        );
    }

    #[test]
    fn start_numbers_are_given_up_before_any_searched_entry() {
        let table = NumberTable::new(1);
        let code = |i: u64| i << 32 | 0xabc;
        let numbers = |phi| Numbers { phi, delta: 7 };
        table.put(code(1), numbers(1), 1);
        table.put(code(2), numbers(2), 0);
        table.put(code(3), numbers(3), 30);
        table.put(code(4), numbers(4), 40);
        table.put(code(5), numbers(5), 5);
        assert_eq!(table.get(code(2)), None, "the start numbers went");
        for i in [1, 3, 4, 5] {
            assert_eq!(table.get(code(i)), Some(numbers(i as u32)));
        }
    }

    #[test]
    fn a_table_the_system_refused_keeps_nothing_and_never_fails() {
        let table = NumberTable {
            words: None,
            bucket_mask: 0,
        };
        let numbers = Numbers { phi: 3, delta: 4 };
        table.put(7 << 32, numbers, 10);
        assert_eq!(table.get(7 << 32), None);
        table.put(7 << 32, Numbers::PROVEN, 10);
        assert_eq!(table.get(7 << 32), None);
    }

    #[test]
    fn numbers_survive_whole_in_a_large_table() {
        let table = NumberTable::new(1 << 20);
        assert_eq!(
            table.bucket_mask + 1,
            16384,
            "a power of two of 64-byte buckets"
        );
        let code = |i: u64| i.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let numbers = |i: u64| Numbers {
            phi: u32::MAX - i as u32,
            delta: i as u32,
        };
        for i in 0..1000 {
            table.put(code(i), numbers(i), i + 1);
        }
        for i in 0..1000 {
            assert_eq!(table.get(code(i)), Some(numbers(i)), "entry {i}");
        }
        assert_eq!(table.get(code(5000)), None);
    }
}
