//! The proof table: proven wins and losses by position key, in buckets of four, keeping the
//! results that cost the most work when a bucket is full.

use memmap2::MmapMut;

/// Entries per bucket.
const WAYS: usize = 4;
/// The low bits of an entry: bit 0 the result, bits 1..8 the log2 of the work it cost, bits
/// 8..16 the length of the proof in plies (at most 255); the key's top 48 bits above them.
const DATA_BITS: u32 = 16;
const KEY_MASK: u64 = !((1 << DATA_BITS) - 1);

/// The machine's memory in MB, where the system tells it.
pub fn physical_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text
        .lines()
        .find_map(|line| line.strip_prefix("MemTotal:"))?;
    let kb: usize = line.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb / 1024)
}

/// A proven result for the side to move: who wins, and within how many plies the game ends if
/// the winner follows the proof (an upper bound: the proof need not be the shortest win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    /// True when the side to move wins.
    pub wins: bool,
    /// Plies to the end of the game along the proof, at most 255 (longer proofs say 255).
    pub plies: u8,
}

/// A fixed-size table of proven results for the side to move.
pub struct ProofTable {
    /// Each entry, 8 bytes in native order: the key's top 48 bits, the proof's plies (8 bits),
    /// the work's log2 (7 bits), the result (1 bit); 0 is empty. An anonymous mapping rather
    /// than a `Vec`, so that the system can be asked for huge pages (see [`ProofTable::new`]).
    entries: MmapMut,
    bucket_mask: usize,
    stored: u64,
}

/// Bytes per entry.
const ENTRY_BYTES: usize = 8;

impl ProofTable {
    /// A table of at most `megabytes` MB (rounded down to a power of two of buckets), or an
    /// error when the machine does not have that much memory.
    pub fn new(megabytes: usize) -> Result<ProofTable, String> {
        let bytes = megabytes.saturating_mul(1 << 20).max(1 << 16);
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
        // A fresh anonymous mapping is zeroed and untouched: only the pages the solve writes
        // cost memory. Every probe lands on a random page, so with 4 KB pages most probes
        // also miss the TLB; huge pages (2 MB on x86-64) cut the 6x6 solve's time by about a
        // quarter with a 1 GB table. The advice is only a hint: where the system refuses it,
        // the table works the same on small pages.
        let entries = MmapMut::map_anon(buckets * WAYS * ENTRY_BYTES)
            .map_err(|e| format!("cannot allocate {megabytes} MB for the proof table: {e}"))?;
        #[cfg(target_os = "linux")]
        let _ = entries.advise(memmap2::Advice::HugePage);
        Ok(ProofTable {
            entries,
            bucket_mask: buckets - 1,
            stored: 0,
        })
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len()
    }

    /// Forgets every result. It writes the whole table, so it also takes the cost of a fresh
    /// table's first page faults up front, before a timed solve.
    pub fn clear(&mut self) {
        self.entries.fill(0);
        self.stored = 0;
    }

    /// How many results have been stored (replacements included).
    pub fn stored(&self) -> u64 {
        self.stored
    }

    /// The index of `key`'s bucket's first entry.
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.bucket_mask) * WAYS
    }

    fn entry(&self, index: usize) -> u64 {
        let at = index * ENTRY_BYTES;
        let bytes = self.entries[at..at + ENTRY_BYTES].try_into();
        u64::from_ne_bytes(bytes.expect("an entry is 8 bytes"))
    }

    fn set_entry(&mut self, index: usize, entry: u64) {
        let at = index * ENTRY_BYTES;
        self.entries[at..at + ENTRY_BYTES].copy_from_slice(&entry.to_ne_bytes());
    }

    /// The proven result for `key`, if known.
    pub fn probe(&self, key: u64) -> Option<Proof> {
        let wanted = key & KEY_MASK;
        let first = self.bucket(key);
        (first..first + WAYS)
            .map(|i| self.entry(i))
            .find(|&entry| entry != 0 && entry & KEY_MASK == wanted)
            .map(|entry| Proof {
                wins: entry & 1 == 1,
                plies: ((entry >> 8) & 0xff) as u8,
            })
    }

    /// Records the proof found at `key`, which cost `work` nodes.
    pub fn store(&mut self, key: u64, proof: Proof, work: u64) {
        let log_work = u64::from(64 - work.leading_zeros()).min(127);
        let entry = (key & KEY_MASK)
            | (u64::from(proof.plies) << 8)
            | (log_work << 1)
            | u64::from(proof.wins);
        let wanted = key & KEY_MASK;
        let first = self.bucket(key);
        let bucket: [u64; WAYS] = std::array::from_fn(|i| self.entry(first + i));
        let slot = bucket
            .iter()
            .position(|&e| e == 0 || e & KEY_MASK == wanted)
            .unwrap_or_else(|| {
                // The cheapest result to recompute makes way.
                (0..WAYS)
                    .min_by_key(|&i| (bucket[i] >> 1) & 0x7f)
                    .expect("a bucket has entries")
            });
        self.set_entry(first + slot, entry);
        self.stored += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_kept_and_cheap_ones_make_way() {
        let mut table = ProofTable::new(1).unwrap();
        assert!(table.bytes() <= 1 << 20 && table.bytes() >= 1 << 19);
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
        let buckets = table.bucket_mask as u64 + 1;
        let same_bucket = |i: u64| 7 + (i << 20) * buckets;
        for i in 0..4 {
            table.store(same_bucket(i), win, 1 << (10 + i));
        }
        table.store(same_bucket(9), loss, 1 << 20);
        assert_eq!(table.probe(same_bucket(0)), None);
        assert_eq!(table.probe(same_bucket(3)), Some(win));
        assert_eq!(table.probe(same_bucket(9)), Some(loss));
    }
}
