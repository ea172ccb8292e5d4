//! The proof table: proven wins and losses by position key, in buckets of four, keeping the
//! results that cost the most work when a bucket is full.
//!
//! A key is first mixed by a reversible function; the mix's low bits choose the bucket and its
//! top 49 bits are kept in the entry. Together they are the whole mix, and so the whole key:
//! a table of at least 2^15 buckets never mistakes one key for another.

use crate::rules::Rules;
use crate::rules::board::splitmix64;
use memmap2::MmapMut;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket.
const WAYS: usize = 4;
/// The low bits of an entry: bit 0 the result, bits 1..7 the log2 of the work it cost, bits
/// 7..15 the length of the proof in plies (at most 255); the mixed key's top 49 bits above.
const DATA_BITS: u32 = 15;
const KEY_MASK: u64 = !((1 << DATA_BITS) - 1);
/// The fewest buckets: enough for the bucket index and the stored bits to hold a whole key.
const MIN_BUCKETS: usize = 1 << DATA_BITS;

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

/// A fixed-size table of proven results for the side to move, shared by the threads of a
/// solve: each entry is one atomic word that holds its whole key, so a thread reads either a
/// whole entry another wrote or none, and every result it finds is right.
pub struct ProofTable {
    /// Each entry, 8 bytes: the mixed key's top 49 bits, the proof's plies (8 bits), the
    /// work's log2 (6 bits), the result (1 bit); 0 is empty. An anonymous mapping rather than
    /// a `Vec`, so that it costs memory only where written and the system can be asked for
    /// huge pages (see [`ProofTable::new`]).
    mapping: MmapMut,
    bucket_mask: usize,
    stored: AtomicU64,
}

/// Bytes per entry.
const ENTRY_BYTES: usize = 8;
/// The first words of a saved table's header line.
const SAVED_MAGIC: &str = "konane proof table 1";

impl ProofTable {
    /// A table of at most `megabytes` MB (rounded down to a power of two of buckets, at least
    /// 1 MB), or an error when the machine does not have that much memory.
    pub fn new(megabytes: usize) -> Result<ProofTable, String> {
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
            mapping: entries,
            bucket_mask: buckets - 1,
            stored: AtomicU64::new(0),
        })
    }

    /// Writes the table to `path` (whole or not at all: into a temporary file, then renamed),
    /// headed by `rules`, whose positions it holds. Other threads may go on storing meanwhile:
    /// every entry is a whole proof, so the file holds a true result in each, old or new.
    pub fn save(&self, path: &Path, rules: Rules) -> Result<(), String> {
        let fail =
            |e: std::io::Error| format!("cannot save the proof table to {}: {e}", path.display());
        let temporary = path.with_extension(format!("tmp{}", std::process::id()));
        let file = std::fs::File::create(&temporary).map_err(fail)?;
        let mut out = BufWriter::with_capacity(1 << 22, file);
        writeln!(
            out,
            "{SAVED_MAGIC} {rules} buckets {} little-endian",
            self.bucket_mask + 1
        )
        .map_err(fail)?;
        for chunk in self.entries().chunks(1 << 16) {
            let bytes: Vec<u8> = chunk
                .iter()
                .flat_map(|entry| entry.load(Ordering::Relaxed).to_le_bytes())
                .collect();
            out.write_all(&bytes).map_err(fail)?;
        }
        out.into_inner()
            .map_err(|e| fail(e.into_error()))?
            .sync_all()
            .map_err(fail)?;
        std::fs::rename(&temporary, path).map_err(fail)
    }

    /// The table saved in `path` by [`ProofTable::save`], which must hold positions of
    /// `rules`: of the saved size, or of `megabytes` MB when given (see
    /// [`ProofTable::new`]), its results moved to their buckets in the new size (into a
    /// smaller table, the ones that cost the most work where buckets overflow).
    pub fn load(path: &Path, rules: Rules, megabytes: Option<usize>) -> Result<ProofTable, String> {
        let fail = |why: String| format!("cannot load the proof table {}: {why}", path.display());
        let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
        let length = file.metadata().map_err(|e| fail(e.to_string()))?.len();
        let mut input = BufReader::with_capacity(1 << 22, file);
        let mut header = String::new();
        input
            .by_ref()
            .take(200)
            .read_line(&mut header)
            .map_err(|e| fail(e.to_string()))?;
        let expected = format!("{SAVED_MAGIC} {rules} buckets ");
        let buckets = header
            .strip_prefix(&expected)
            .and_then(|rest| rest.trim_end().strip_suffix(" little-endian"))
            .and_then(|count| count.parse::<usize>().ok())
            .filter(|count| count.is_power_of_two() && *count >= MIN_BUCKETS)
            .ok_or_else(|| {
                fail(format!(
                    "it is not a saved table of {rules} (its header is '{}')",
                    header.trim_end()
                ))
            })?;
        let bytes = buckets * WAYS * ENTRY_BYTES;
        if length != (header.len() + bytes) as u64 {
            return Err(fail(format!(
                "it has {length} bytes, not the {} its header promises (cut short?)",
                header.len() + bytes
            )));
        }
        let mut table = ProofTable::new(megabytes.unwrap_or(bytes >> 20))?;
        if table.bytes() == bytes {
            input
                .read_exact(&mut table.mapping[..])
                .map_err(|e| fail(e.to_string()))?;
            if cfg!(target_endian = "big") {
                for entry in table.entries() {
                    entry.store(
                        u64::from_le(entry.load(Ordering::Relaxed)),
                        Ordering::Relaxed,
                    );
                }
            }
        } else {
            // The bucket index holds the mixed key's low bits, at least DATA_BITS of them,
            // and the entry the rest: together the whole mixed key, to place anew.
            let low_bits = (1u64 << DATA_BITS) - 1;
            let mut chunk = vec![0u8; ENTRY_BYTES << 16];
            for first in (0..buckets * WAYS).step_by(1 << 16) {
                input
                    .read_exact(&mut chunk)
                    .map_err(|e| fail(e.to_string()))?;
                for (i, word) in chunk.chunks_exact(ENTRY_BYTES).enumerate() {
                    let entry =
                        u64::from_le_bytes(word.try_into().expect("an entry is eight bytes"));
                    if entry != 0 {
                        let bucket = ((first + i) / WAYS) as u64;
                        table.place((entry & KEY_MASK) | (bucket & low_bits), entry);
                    }
                }
            }
        }
        let kept = table
            .entries()
            .iter()
            .filter(|entry| entry.load(Ordering::Relaxed) != 0)
            .count();
        table.stored = AtomicU64::new(kept as u64);
        Ok(table)
    }

    /// The entries, as atomic words over the mapping.
    #[allow(unsafe_code)]
    fn entries(&self) -> &[AtomicU64] {
        let words = self.mapping.len() / ENTRY_BYTES;
        // SAFETY: the crate's first `unsafe`, measured to be worth it: threads must share
        // the table, and a `Vec<AtomicU64>` would have to be written whole when made (8 GB
        // for a long solve) and could not be given huge pages, which cut the solve's time by
        // a quarter. The mapping is page-aligned (so aligned for `AtomicU64`), lives as long
        // as `self`, holds `words` whole words, and is never touched but through this view
        // (`AtomicU64` has the size and bit validity of `u64`, and every bit pattern is a
        // valid entry).
        unsafe { std::slice::from_raw_parts(self.mapping.as_ptr().cast::<AtomicU64>(), words) }
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.mapping.len()
    }

    /// Forgets every result. It writes the whole table, so it also takes the cost of a fresh
    /// table's first page faults up front, before a timed solve.
    pub fn clear(&mut self) {
        for entry in self.entries() {
            entry.store(0, Ordering::Relaxed);
        }
        self.stored.store(0, Ordering::Relaxed);
    }

    /// How many results have been stored (replacements included), as far as the solves have
    /// told (see [`ProofTable::count_stored`]).
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// Adds `count` results to [`ProofTable::stored`]: each thread counts its own stores and
    /// adds them now and then, rather than contend for one counter on every store.
    pub fn count_stored(&self, count: u64) {
        self.stored.fetch_add(count, Ordering::Relaxed);
    }

    /// The index of the first entry of the bucket of `mixed` (a mixed key).
    fn bucket(&self, mixed: u64) -> usize {
        (mixed as usize & self.bucket_mask) * WAYS
    }

    fn entry(&self, index: usize) -> u64 {
        self.entries()[index].load(Ordering::Relaxed)
    }

    fn set_entry(&self, index: usize, entry: u64) {
        self.entries()[index].store(entry, Ordering::Relaxed);
    }

    /// Asks the processor to start bringing `key`'s bucket into the cache, so that a probe made
    /// a little later does not wait for memory. Only a hint: it changes no result.
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        let entry: *const AtomicU64 = &self.entries()[self.bucket(splitmix64(key))];
        // SAFETY: the crate's second `unsafe`, measured to be worth it: the search makes each
        // node's children, then probes every child's bucket; prefetching each bucket as its
        // child is made lets the waits for memory overlap (6x6, all openings, one thread:
        // 2.23 s against 2.59 s). `_mm_prefetch` is `unsafe` only because it needs SSE, which
        // every x86-64 processor has; a prefetch reads nothing the program sees and cannot
        // fault, and `entry` points into the table anyway (the index is bounds-checked above).
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(entry.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = entry;
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
    fn place(&self, mixed: u64, entry: u64) {
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
        let table = ProofTable::new(1).unwrap();
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
        let mut table = ProofTable::new(1).unwrap();
        assert_eq!(table.bytes(), 1 << 20);
        assert_eq!(
            ProofTable::new(0).unwrap().bytes(),
            1 << 20,
            "at least 1 MB"
        );
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

    #[test]
    fn a_saved_table_loads_with_its_results_and_only_for_its_rules() {
        let rules = Rules::new(
            6,
            8,
            crate::rules::Opening::Traditional,
            crate::rules::Capture::Straight,
        )
        .unwrap();
        let table = ProofTable::new(2).unwrap();
        let proof = Proof {
            wins: false,
            plies: 33,
        };
        for key in 0..1000u64 {
            table.store(key * 7919, proof, key);
        }
        let dir = std::env::temp_dir().join(format!("konane-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("six-by-eight.table");
        table.save(&path, rules).unwrap();
        for megabytes in [None, Some(2), Some(4), Some(1)] {
            let loaded = ProofTable::load(&path, rules, megabytes).unwrap();
            assert_eq!(loaded.bytes(), megabytes.unwrap_or(2) << 20);
            assert_eq!(loaded.stored(), 1000, "{megabytes:?}");
            assert!((0..1000u64).all(|key| loaded.probe(key * 7919) == Some(proof)));
            assert_eq!(loaded.probe(1), None);
        }
        // Shrunk below what it holds, a table keeps a result for every key or none, never a
        // wrong one, and keeps the costlier ones.
        let full = ProofTable::new(2).unwrap();
        let entries = full.bytes() / ENTRY_BYTES;
        let result = |key: u64| Proof {
            wins: key.is_multiple_of(3),
            plies: (key % 200) as u8,
        };
        for key in 0..entries as u64 {
            full.store(key, result(key), key);
        }
        full.save(&path, rules).unwrap();
        let small = ProofTable::load(&path, rules, Some(1)).unwrap();
        let kept: Vec<u64> = (0..entries as u64)
            .filter(|&key| small.probe(key).is_some())
            .collect();
        assert!(
            kept.iter()
                .all(|&key| small.probe(key) == Some(result(key))),
            "a wrong result"
        );
        assert_eq!(small.stored(), kept.len() as u64);
        assert!(kept.len() > entries / 3, "{} of {entries} kept", kept.len());
        let cheap = kept.iter().filter(|&&key| key < entries as u64 / 2).count();
        assert!(
            cheap * 2 < kept.len(),
            "{cheap} of {} kept cost least",
            kept.len()
        );
        let other = Rules::new(
            8,
            6,
            crate::rules::Opening::Traditional,
            crate::rules::Capture::Straight,
        )
        .unwrap();
        let error = ProofTable::load(&path, other, None).err().unwrap();
        assert!(error.contains("it is not a saved table of 8x6"), "{error}");
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 8]).unwrap();
        let error = ProofTable::load(&path, rules, None).err().unwrap();
        assert!(error.contains("cut short?"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
