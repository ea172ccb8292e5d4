//! The proof table: proven wins and losses by position key, kept in two levels. Positions
//! with few stones, the most numerous and the cheapest to prove again, go to a small level
//! that stays within the processor's reach (its cache and its address translation); the
//! others to the main level, sized by the caller and saved to disk between runs.
//!
//! Each level keeps its entries in buckets of four, keeping the results that cost the most
//! work when a bucket is full ([`level`]). Beside them the table keeps the proof-number
//! search's numbers of the positions it has not proven ([`NumberTable`]), made at its first
//! use; saving and loading the main level and the numbers is in [`file`].

mod file;
mod level;

use super::numbers::{NumberTable, Numbers};
use crate::rules::Rules;
use level::Level;
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Positions with at most this many stones are kept in the near-leaf level.
const NEAR_LEAF_STONES: u32 = 20;
/// MB of the near-leaf level: 32 huge pages, which the processor's address translation
/// covers, where a main level of gigabytes makes most probes walk the page tables.
const NEAR_LEAF_MB: usize = 64;

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

/// A position's key in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// The same for every symmetric image of the position, different for other positions.
    pub code: u64,
    /// The stones on the board: they choose the level.
    pub stones: u32,
}

/// A fixed-size table of proven results for the side to move, shared by the threads of a
/// solve: each entry is one atomic word that holds its whole key, so a thread reads either a
/// whole entry another wrote or none, and every result it finds is right.
///
/// The proof-number search also keeps here what it has learnt of the positions it has not
/// proven yet (their proof and disproof numbers, half the main level's size, at least 16 MB),
/// so that they last from one solve to the next and are saved with the proofs: resuming a
/// long solve from a saved table then goes on where it stopped rather than learning again
/// where the work lies. Each position it proves keeps its entry there, marked as proven
/// ([`ProofTable::store_marked`]), so that while every proof of the table has such a mark, the
/// search need not look in the main level for the positions the numbers know nothing of.
pub struct ProofTable {
    main: Level,
    /// Only beside a main level much larger than itself: beside a small one it would add
    /// memory to clear and gain nothing.
    near_leaves: Option<Level>,
    stored: AtomicU64,
    /// Made by the first proof-number search that uses the table, or loaded with it.
    numbers: OnceLock<NumberTable>,
    /// True while every proof in the main level has its mark in the numbers: false once the
    /// depth-first search has stored one, or when loaded from a file without the marks.
    marked: AtomicBool,
}

impl ProofTable {
    /// A table whose main level has at most `megabytes` MB (rounded down to a power of two of
    /// buckets, at least 1 MB), or an error when the machine does not have that much memory.
    /// From 256 MB on, a near-leaf level of 64 MB is added.
    pub fn new(megabytes: usize) -> Result<ProofTable, String> {
        ProofTable::with_main(Level::new(megabytes)?, 0, None, true)
    }

    /// The table over `main`, which holds `stored` results, with a near-leaf level if `main`
    /// is large, and `numbers` if any (which hold a mark for each proof of `main` if
    /// `marked`).
    fn with_main(
        main: Level,
        stored: u64,
        numbers: Option<NumberTable>,
        marked: bool,
    ) -> Result<ProofTable, String> {
        let near_leaves = if main.bytes() >= 4 * (NEAR_LEAF_MB << 20) {
            Some(Level::new(NEAR_LEAF_MB)?)
        } else {
            None
        };
        Ok(ProofTable {
            main,
            near_leaves,
            stored: AtomicU64::new(stored),
            numbers: numbers.map(OnceLock::from).unwrap_or_default(),
            marked: AtomicBool::new(marked),
        })
    }

    /// Writes the main level and the numbers to `path` (whole or not at all: into a temporary
    /// file, then renamed), headed by `rules`, whose positions they hold. Other threads may go
    /// on storing meanwhile: every entry is a whole proof, so the file holds a true result in
    /// each, old or new (a position's numbers may come out paired with another's, which only
    /// steers a search). The near-leaf level is not saved: its results are quick to prove
    /// again.
    pub fn save(&self, path: &Path, rules: Rules) -> Result<(), String> {
        let marked = self.marks_every_proof();
        file::save(&self.main, self.numbers.get(), marked, path, rules)
    }

    /// The table saved in `path` by [`ProofTable::save`], which must hold positions of
    /// `rules`: of the saved size, or of `megabytes` MB when given (see
    /// [`ProofTable::new`]), its results moved to their buckets in the new size (into a
    /// smaller table, the ones that cost the most work where buckets overflow). Its numbers
    /// come back only at the saved size ([`ProofTable::numbers_held`] says how many did).
    pub fn load(path: &Path, rules: Rules, megabytes: Option<usize>) -> Result<ProofTable, String> {
        let (main, numbers, marked) = file::load(path, rules, megabytes)?;
        let kept = main.occupied();
        ProofTable::with_main(main, kept, numbers, marked)
    }

    /// The proof-number search's numbers of unproven positions, made now if no search has
    /// made them yet.
    pub(in crate::solve) fn numbers(&self) -> &NumberTable {
        self.numbers
            .get_or_init(|| NumberTable::beside(self.main.bytes()))
    }

    /// How many positions not yet proven the table holds proof-number search numbers for.
    pub fn numbers_held(&self) -> u64 {
        self.numbers.get().map_or(0, NumberTable::held)
    }

    /// The size of the main level in bytes.
    pub fn bytes(&self) -> usize {
        self.main.bytes()
    }

    /// Forgets every result, and every number. It writes the whole table, so it also takes the cost of a fresh
    /// table's first page faults up front, before a timed solve.
    pub fn clear(&mut self) {
        self.numbers = OnceLock::new();
        self.marked.store(true, Ordering::Relaxed);
        self.main.clear();
        if let Some(level) = &mut self.near_leaves {
            level.clear();
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

    fn level(&self, key: Key) -> &Level {
        match &self.near_leaves {
            Some(level) if key.stones <= NEAR_LEAF_STONES => level,
            _ => &self.main,
        }
    }

    /// Asks the processor to start bringing `key`'s bucket into the cache, so that a probe made
    /// a little later does not wait for memory. Only a hint: it changes no result.
    pub fn prefetch(&self, key: Key) {
        self.level(key).prefetch(key.code);
    }

    /// True when `key` goes to the small near-leaf level, whose probes are cheap.
    pub(in crate::solve) fn near_leaf(&self, key: Key) -> bool {
        self.near_leaves.is_some() && key.stones <= NEAR_LEAF_STONES
    }

    /// The proven result for `key`, if known.
    pub fn probe(&self, key: Key) -> Option<Proof> {
        self.level(key).probe(key.code)
    }

    /// Records the proof found at `key`, which cost `work` nodes. Two threads storing into one
    /// bucket at once may overwrite each other's entries: a result lost, never a wrong one.
    pub fn store(&self, key: Key, proof: Proof, work: u64) {
        self.level(key).store(key.code, proof, work);
        if self.marked.load(Ordering::Relaxed) {
            self.marked.store(false, Ordering::Relaxed);
        }
    }

    /// Records the proof the proof-number search found at `key`, which cost `work` nodes, and
    /// marks the position as proven in the numbers, under its own `hash` (see
    /// [`Numbers::PROVEN`]).
    pub(in crate::solve) fn store_marked(&self, key: Key, hash: u64, proof: Proof, work: u64) {
        self.level(key).store(key.code, proof, work);
        self.numbers().put(hash, Numbers::PROVEN, work);
    }

    /// True while every proof in the table's main level is marked in its numbers: a position
    /// they know nothing of then has no proof there ([`ProofTable::store_marked`]).
    pub(in crate::solve) fn marks_every_proof(&self) -> bool {
        self.marked.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_table_keeps_positions_with_few_stones_apart() {
        let small = ProofTable::new(16).unwrap();
        assert!(small.near_leaves.is_none());
        let large = ProofTable::new(256).unwrap();
        let win = Proof {
            wins: true,
            plies: 5,
        };
        let few = Key {
            code: 77,
            stones: NEAR_LEAF_STONES,
        };
        let many = Key {
            code: 78,
            stones: NEAR_LEAF_STONES + 1,
        };
        for table in [&small, &large] {
            table.store(few, win, 1);
            table.store(many, win, 1);
            assert_eq!(table.probe(few), Some(win));
            assert_eq!(table.probe(many), Some(win));
        }
        let near_leaves = large.near_leaves.as_ref().unwrap();
        assert_eq!(near_leaves.probe(few.code), Some(win));
        assert_eq!(large.main.probe(few.code), None);
        assert_eq!(large.main.probe(many.code), Some(win));
        assert_eq!(near_leaves.probe(many.code), None);
        // Only the main level is saved.
        let rules = Rules::new(
            6,
            8,
            crate::rules::Opening::Traditional,
            crate::rules::Capture::Straight,
        )
        .unwrap();
        let dir = std::env::temp_dir().join(format!("konane-levels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("levels.table");
        large.save(&path, rules).unwrap();
        let loaded = ProofTable::load(&path, rules, None).unwrap();
        assert_eq!(loaded.stored(), 1);
        assert_eq!(loaded.probe(many), Some(win));
        assert_eq!(loaded.probe(few), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
