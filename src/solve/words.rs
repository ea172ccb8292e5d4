//! Zeroed 64-bit words from the system, on huge pages where it allows them: the memory under
//! the solver's two big tables (the shared proof table and each proof-number search's numbers).

use memmap2::MmapMut;
use std::sync::atomic::AtomicU64;

/// Bytes per word.
pub(super) const WORD_BYTES: usize = 8;

/// A fixed number of words over an anonymous mapping, all zero at first.
///
/// A mapping rather than a `Vec`: it costs memory only where written, and the system can be
/// asked for huge pages. Every probe of a big hash table lands on a random page, so with 4 KB
/// pages most probes also miss the TLB; huge pages (2 MB on x86-64) cut the 6x6 solve's time
/// by about a quarter with a 1 GB proof table. The proof-number search's numbers table gains
/// as much once it is big: with the gap horizontal at the corner and Black to move, a 4 GB
/// table on huge pages took 352 s for 13x4 against 423 s on small pages (174.7M positions
/// either way, 1 GB proof table), and 0.88 of the time for 12x4 (`farm-bench`, medians), where
/// with 1 GB the two were even (0.99). The advice is only a hint: where the system refuses it,
/// the words work the same on small pages.
pub(super) struct Words {
    mapping: MmapMut,
}

impl Words {
    /// `count` words, all zero, or the system's reason for refusing them.
    pub fn zeroed(count: usize) -> std::io::Result<Words> {
        let mapping = MmapMut::map_anon(count.saturating_mul(WORD_BYTES))?;
        #[cfg(target_os = "linux")]
        let _ = mapping.advise(memmap2::Advice::HugePage);
        Ok(Words { mapping })
    }

    /// The words, as atomics: threads share the proof table, and on one thread `Relaxed`
    /// loads and stores are plain ones.
    #[allow(unsafe_code)]
    pub fn get(&self) -> &[AtomicU64] {
        let count = self.mapping.len() / WORD_BYTES;
        // SAFETY: the crate's first `unsafe`, measured to be worth it: threads must share
        // the proof table, and a `Vec<AtomicU64>` would have to be written whole when made (8
        // GB for a long solve) and could not be given huge pages, which cut the solve's time
        // by a quarter (see above). The mapping is page-aligned (so aligned for `AtomicU64`),
        // lives as long as `self`, holds `count` whole words, and is only ever touched through
        // this view (`AtomicU64` has the size and bit validity of `u64`, and every bit pattern
        // is a valid word).
        unsafe { std::slice::from_raw_parts(self.mapping.as_ptr().cast::<AtomicU64>(), count) }
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.mapping.len()
    }
}

/// Asks the processor to start bringing `word`'s cache line in, so that a read made a little
/// later does not wait for memory. Only a hint: it changes no result.
#[allow(unsafe_code)]
pub(super) fn prefetch(word: &AtomicU64) {
    let word: *const AtomicU64 = word;
    // SAFETY: the crate's second `unsafe`, measured to be worth it: the searches make a
    // position's children, then read every child's entries in the tables; prefetching each
    // child's buckets as the child is made lets the waits for memory overlap (the depth-first
    // search on 6x6, all openings, one thread: 2.23 s against 2.59 s; the proof-number search
    // on 12x4, its number table's buckets: 0.94 of the time, medians of six). `_mm_prefetch` is
    // `unsafe` only because it needs SSE, which every x86-64 processor has; a prefetch reads
    // nothing the program sees and cannot fault, and `word` is a reference anyway.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(word.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn words_start_at_zero_and_keep_what_is_written() {
        let words = Words::zeroed(1 << 16).unwrap();
        assert_eq!(words.bytes(), 8 << 16);
        assert!(words.get().iter().all(|w| w.load(Ordering::Relaxed) == 0));
        words.get()[7].store(u64::MAX, Ordering::Relaxed);
        assert_eq!(words.get()[7].load(Ordering::Relaxed), u64::MAX);
        assert_eq!(words.get().as_ptr().align_offset(4096), 0, "page-aligned");
    }
}
