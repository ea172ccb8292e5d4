//! One thread's depth-first proof-number search (df-pn, Nagai 2002): does the side to move
//! win?
//!
//! Each position has a proof number (how many positions at least must still be proven for the
//! side to move to win, `phi`) and a disproof number (for it to lose, `delta`): a position's
//! `phi` is the least `delta` of its children, its `delta` the sum of their `phi`. The search
//! always works below the child of least `delta` (the one closest to a proof), and stays there
//! while its numbers are within thresholds that say when a sibling has become closer (with the
//! 1 + epsilon margin of Pawlewicz and Lew, which keeps it from switching back and forth). A
//! position not yet searched starts at the cube of its opponent's moves to win and of its own
//! moves to lose, weighed by the odds the evaluation's features give it ([`start_numbers`]).
//!
//! Proven positions go to the shared [`ProofTable`](super::ProofTable), as the depth-first
//! search's do; the numbers of unproven ones to a table of their own ([`NumberTable`]), whose
//! buckets keep the positions that cost the most work. Konane positions never repeat (every
//! move takes a stone), so the search graph has no cycles and df-pn needs no repair for them.
//!
//! On boards of four rows or fewer the tree's cost is concentrated in a few lines, which a
//! depth-first search with a fixed order finds late: 21x3 with the gap vertical in the middle
//! and White to move takes df-pn 2.8M positions, where the depth-first search had not proven
//! it after 19.9G nodes (see [`Method`](super::Method)).

use super::Proof;
use super::keys::{Images, Keys};
use super::search::{Shared, Tally, longer};
use super::table::Key;
use super::words::{WORD_BYTES, Words, prefetch};
use crate::rules::bits::Bits;
use crate::rules::board::{Board, Phase};
use crate::rules::moves::Move;
use crate::search::eval::{features_with_moves, weigh};
use crate::search::fill::fill;
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers this large stand for infinity: a proven position's `phi` or `delta`.
const INFINITE: u32 = 1 << 30;
/// Sums of numbers stop here, short of [`INFINITE`], so that only a proof is infinite.
const LARGEST_FINITE: u32 = INFINITE - 1;
/// The epsilon of the 1 + epsilon thresholds, in hundredths: a child is left when its
/// disproof number grows past the second-best child's by a quarter. Over seven narrow solves
/// (14x3 to 17x3 and 10x4 to 12x4, all four setups; with the earlier start of 1 to prove), 10%,
/// 50% and 100% took 1.11, 1.10 and 1.16 times the positions of 25%; with the start weighed
/// by the features ([`start_numbers`]), 10% and 50% took 1.18 and 1.12 times on its four.
const EPSILON_PERCENT: u64 = 25;

/// A proof and a disproof number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    phi: u32,
    delta: u32,
}

impl Numbers {
    const WIN: Numbers = Numbers {
        phi: 0,
        delta: INFINITE,
    };
    const LOSS: Numbers = Numbers {
        phi: INFINITE,
        delta: 0,
    };
    /// Not yet read from the tables: never a position's numbers (only a proof has a zero,
    /// and never two).
    const UNKNOWN: Numbers = Numbers { phi: 0, delta: 0 };
}

/// Entries in a bucket: four of two words, one cache line.
const BUCKET: usize = 4;
/// Words in a bucket.
const BUCKET_WORDS: usize = 2 * BUCKET;

/// The numbers of unproven positions, by the position's hash, in buckets of four; a full
/// bucket gives up the entry that cost the least work. The start numbers of positions not yet
/// searched are kept too, as the least work of all.
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

    /// The words of the bucket for `code`.
    fn bucket(&self, code: u64) -> Option<&[AtomicU64]> {
        let index = (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize & self.bucket_mask;
        Some(&self.words.as_ref()?.get()[index * BUCKET_WORDS..][..BUCKET_WORDS])
    }

    /// Asks the processor to start bringing the bucket for `code` into the cache
    /// ([`prefetch`]).
    fn prefetch(&self, code: u64) {
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

    fn get(&mut self, code: u64) -> Option<Numbers> {
        let bucket = self.bucket(code)?;
        let numbers = bucket[2 * Self::slot(bucket, code)? + 1].load(Ordering::Relaxed);
        Some(Numbers {
            phi: (numbers >> 32) as u32,
            delta: numbers as u32,
        })
    }

    /// Keeps `numbers` for `code`, which cost `work` positions searched (none for start
    /// numbers).
    fn put(&mut self, code: u64, numbers: Numbers, work: u64) {
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
        bucket[2 * slot + 1].store(
            u64::from(numbers.phi) << 32 | u64::from(numbers.delta),
            Ordering::Relaxed,
        );
    }

    /// Frees the entry of `code`, if any: its position is proven, and the proof table has it.
    fn forget(&mut self, code: u64) {
        if let Some(bucket) = self.bucket(code)
            && let Some(slot) = Self::slot(bucket, code)
        {
            bucket[2 * slot].store(0, Ordering::Relaxed);
        }
    }
}

/// A child of a position in the search.
#[derive(Clone)]
pub(super) struct Child<B: 'static> {
    pub board: Board<B>,
    pub images: Images<B>,
    pub key: Key,
    pub mv: Move,
    /// Moves of the child's side to move: none ends the game there.
    moves: u64,
    /// What the search knows of the child: read from the tables when its parent is expanded,
    /// then kept from the child's own searches (nothing else changes them meanwhile: only a
    /// search of the child itself stores its numbers or its proof, or an expansion of its
    /// parent its start numbers, and a sibling, with as many stones, is never below it).
    numbers: Numbers,
}

/// One thread's proof-number search.
pub(super) struct ProofNumberSearch<'s, 'a, B: 'static> {
    pub shared: &'s Shared<'a>,
    pub keys: &'s Keys<B>,
    numbers: NumberTable,
    /// Its `nodes` count positions expanded (each expansion of one position again).
    pub tally: Tally<'s>,
    /// Per ply, a reusable list of children.
    children: Vec<Vec<Child<B>>>,
}

impl<'s, 'a, B: Bits> ProofNumberSearch<'s, 'a, B> {
    /// A search over `shared` with keys made by `keys`, keeping the numbers of unproven
    /// positions in about `number_bytes` bytes.
    pub fn new(shared: &'s Shared<'a>, keys: &'s Keys<B>, number_bytes: usize) -> Self {
        ProofNumberSearch {
            shared,
            keys,
            numbers: NumberTable::new(number_bytes),
            tally: Tally::new(),
            children: Vec::new(),
        }
    }

    /// Every child of `board` (whose images are `images`), in move order.
    pub fn children(&mut self, board: &Board<B>, images: &Images<B>) -> Vec<Child<B>> {
        let mut list = Vec::new();
        self.expand_into(board, images, &mut list);
        list
    }

    /// Fills `list` with the children of `board`, each with what the tables know of it. Each
    /// child's bucket in the number table is prefetched as the child is made: 0.94 of the
    /// time of [`Self::read_numbers`]'s passes alone (12x4 with the gap horizontal at the
    /// corner, Black to move, medians of six); prefetching its proof table's bucket too gained
    /// nothing more.
    fn expand_into(&mut self, board: &Board<B>, images: &Images<B>, list: &mut Vec<Child<B>>) {
        list.clear();
        board.for_each_move(|mv| {
            let mut child = *board;
            child.play_unchecked(mv);
            self.numbers.prefetch(child.hash());
            let mut child_images = *images;
            self.keys
                .update(&mut child_images, board.empty() ^ child.empty());
            list.push(Child {
                key: self.keys.key(&child_images, &child),
                moves: child.count_moves(),
                board: child,
                images: child_images,
                mv,
                numbers: Numbers::UNKNOWN,
            });
        });
        self.read_numbers(list);
    }

    /// Sets what the tables know of each child: no moves loses; else its numbers if the
    /// number table has them, else its proof if the proof table has one (perhaps through a
    /// symmetric image), else the numbers of a position not yet searched ([`start_numbers`]).
    ///
    /// Each table is read in a pass of its own over all the children, so that the reads of a
    /// pass (which miss the caches more often than not) are in flight together, not each one
    /// waiting behind the previous child's work: 0.72 of the time of one child at a time on
    /// 12x4 with the gap horizontal at the corner and Black to move, 0.75 over the four solves
    /// of [`start_numbers`] (the same positions; medians of three). Reading the number table
    /// as each child is made took 1.5 times as long as the passes.
    ///
    /// Start numbers go to the number table as well: a position is expanded again each time
    /// the search comes back to it, and its children not yet searched needed their start
    /// numbers again (on 12x4 at the corner, 31.0M computed for 15.0M positions). Kept, the
    /// four solves took 0.82 of the time with a 512 MB table, and 13x4 at the corner (Black to
    /// move) 0.90 with a 256 MB one that fills, for 1.4% more positions (medians of three).
    ///
    /// Starting every unsearched position at 1 to prove (the textbook start) took 1.6 to 2.1
    /// times the positions of the move counts themselves: 12x4 with the gap horizontal at the
    /// corner and Black to move 69.1M positions against 33.6M, 12x4 horizontal middle with
    /// White to move 110M against 57.2M, 18x3 horizontal corner with Black to move 56.8M
    /// against 36.1M. Counting the replies costs a second move count per child, so the time
    /// gains less than the positions.
    ///
    /// The numbers are keyed by the position's own hash, not by the key its symmetric images
    /// share: with shared numbers, 16x3 with the gap vertical in the middle took over 70M
    /// positions unproven, where its own numbers prove it in 185k. Stored numbers are never a
    /// proof's (zero or infinite) and a proof needs a proven or ended child, so a rare hash
    /// collision costs work, never a wrong result.
    fn read_numbers(&mut self, children: &mut [Child<B>]) {
        for child in children.iter_mut() {
            child.numbers = match child.moves {
                0 => Numbers::LOSS,
                _ => self
                    .numbers
                    .get(child.board.hash())
                    .unwrap_or(Numbers::UNKNOWN),
            };
        }
        let unknown = |child: &&mut Child<B>| child.numbers == Numbers::UNKNOWN;
        for child in children.iter_mut().filter(unknown) {
            match self.shared.table.probe(child.key) {
                Some(Proof { wins: true, .. }) => child.numbers = Numbers::WIN,
                Some(Proof { wins: false, .. }) => child.numbers = Numbers::LOSS,
                None => {}
            }
        }
        for child in children.iter_mut().filter(unknown) {
            child.numbers = start_numbers(&child.board, child.moves);
            self.numbers.put(child.board.hash(), child.numbers, 0);
        }
    }

    /// The proof of `child` as the table holds it (a child without moves is lost at once).
    pub fn proof_of(&self, child: &Child<B>) -> Option<Proof> {
        if child.moves == 0 {
            return Some(Proof {
                wins: false,
                plies: 0,
            });
        }
        self.shared.table.probe(child.key)
    }

    /// Proves the position of `board` (with `images` and `key`), which has a move; `None`
    /// when the solve was stopped first.
    pub fn prove(
        &mut self,
        board: &Board<B>,
        images: &Images<B>,
        key: Key,
        ply: usize,
    ) -> Option<Proof> {
        if let Some(proof) = self.shared.table.probe(key) {
            return Some(proof);
        }
        // Numbers only reach infinity by a proof, so this search ends proven or stopped.
        let numbers = self.search(board, images, key, INFINITE, INFINITE, ply)?;
        // The search stored the proof, which the table keeps: it cost the most work of all.
        Some(self.shared.table.probe(key).unwrap_or(Proof {
            wins: numbers.phi == 0,
            plies: u8::MAX,
        }))
    }

    /// The numbers of a position from its `children`'s, with the child of least `delta` (the
    /// one to search) and the second least `delta`.
    fn combine(children: &[Child<B>]) -> (Numbers, usize, u32) {
        let mut phi = INFINITE;
        let mut delta = 0u32;
        let (mut best, mut second) = (0, INFINITE);
        for (i, child) in children.iter().enumerate() {
            let numbers = child.numbers;
            phi = phi.min(numbers.delta);
            delta = if numbers.phi >= INFINITE || delta >= INFINITE {
                INFINITE
            } else {
                delta.saturating_add(numbers.phi).min(LARGEST_FINITE)
            };
            if i != 0 && numbers.delta < children[best].numbers.delta {
                second = second.min(children[best].numbers.delta);
                best = i;
            } else if i != 0 {
                second = second.min(numbers.delta);
            }
        }
        (Numbers { phi, delta }, best, second)
    }

    /// The proof of a position whose `children` prove it won (`wins`) or lost: a win is one
    /// ply longer than the shortest lost child the table holds, a loss one ply longer than
    /// the longest of its children's wins.
    fn proof_from(&self, children: &[Child<B>], wins: bool) -> Proof {
        let proofs = children.iter().filter_map(|c| self.proof_of(c));
        let plies = if wins {
            proofs.filter(|p| !p.wins).map(|p| p.plies).min()
        } else {
            proofs.filter(|p| p.wins).map(|p| p.plies).max()
        };
        Proof {
            wins,
            plies: longer(plies.unwrap_or(u8::MAX)),
        }
    }

    /// Searches the position of `board` until its numbers reach `max_phi` or `max_delta` (a
    /// proof reaches both) and returns them; `None` when the solve was stopped.
    fn search(
        &mut self,
        board: &Board<B>,
        images: &Images<B>,
        key: Key,
        max_phi: u32,
        max_delta: u32,
        ply: usize,
    ) -> Option<Numbers> {
        if self.tally.node(self.shared, ply) {
            return None;
        }
        let nodes_before = self.tally.nodes;
        if self.children.len() <= ply {
            self.children.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.children[ply]);
        self.expand_into(board, images, &mut children);
        let result = loop {
            let (numbers, best, second) = Self::combine(&children);
            if numbers.phi == 0 || numbers.delta == 0 {
                let proof = self.proof_from(&children, numbers.phi == 0);
                self.shared
                    .table
                    .store(key, proof, self.tally.nodes - nodes_before + 1);
                self.tally.stored();
                self.numbers.forget(board.hash());
                break Some(numbers);
            }
            if numbers.phi >= max_phi || numbers.delta >= max_delta {
                self.numbers
                    .put(board.hash(), numbers, self.tally.nodes - nodes_before + 1);
                break Some(numbers);
            }
            // The child may use what its parent has left below `max_delta`, and stays the one
            // to search until its delta passes the second best's by the margin.
            let child = &children[best];
            let child_max_phi =
                u64::from(max_delta) - u64::from(numbers.delta) + u64::from(child.numbers.phi);
            let margin = u64::from(second) * (100 + EPSILON_PERCENT) / 100 + 1;
            let child_max_delta = u64::from(max_phi).min(margin);
            let (board, images, key) = (child.board, child.images, child.key);
            let Some(searched) = self.search(
                &board,
                &images,
                key,
                clamp(child_max_phi),
                clamp(child_max_delta),
                ply + 1,
            ) else {
                break None;
            };
            children[best].numbers = searched;
        };
        self.children[ply] = children;
        result
    }

    /// Adds this thread's counts to the shared ones and checks the stop flags; true when the
    /// solve must stop.
    pub fn poll(&mut self) -> bool {
        self.tally.poll(self.shared)
    }
}

/// The numbers of a position not yet searched that has `moves` moves: the cube of its
/// opponent's moves to prove it (the more replies the side to move would face, the harder its
/// win) and of its own moves to disprove it (every one must be refuted), each weighed by the
/// evaluation's hand-made features (moves, stones that can jump, safe jumps, stones under
/// attack: [`features_with_moves`] weighed by the search's fitted [`weigh`]).
///
/// The features' score `e` is 100 times the log-odds that the side to move wins, and the
/// position starts `2^(e/100)` times harder to disprove and as many times easier to prove.
/// Against the cubes alone, four narrow solves with Black to move (512 MB table) took 9.4M
/// positions against 21.5M (12x4 with the gap horizontal at the corner), 14.4M against 20.1M
/// (18x3 the same), 5.4M against 10.1M (11x4 horizontal in the middle) and 5.7M against 10.9M
/// (15x4 vertical at the corner), each position taking about 1.5 times as long. Scales of
/// 50, 70, 200 and 400 in place of the 100 took 1.1 to 1.5 times the positions; adding the
/// line patterns (the rest of the evaluation) 1.2 times, slower; the features without the
/// cubes 3 to 5 times.
///
/// The cubes themselves, against the move counts as they are, took 21.5M positions against
/// 30.5M, 20.1M against 37.9M, 10.1M against 22.1M and 10.9M against 29.9M on the same four,
/// and 13x4 at the corner 74.7M against 175M to 239M (1 GB table); squares took 20.4M, 22.1M,
/// 12.7M and 14.1M. With the features, over `scripts/dfpn-bench.py`'s 24 solves, squares took
/// 1.36 times the cubes' positions (one standard error 1.23 to 1.50) and fourth powers 1.03
/// (0.96 to 1.09).
///
/// Small changes move a single solve's count a long way, so judge a start over many solves:
/// one hundredth on one weight (tempo on an empty board, -15 for -16) took the four 8.6M,
/// 15.1M, 5.2M and 7.7M positions against 9.7M, 14.3M, 5.4M and 5.6M. Weights fitted to
/// solver-labelled positions of 3- and 4-row boards (61k, log-loss 0.450 against 0.502) took
/// 7.9M, 12.9M, 5.6M and 10.0M; weights tuned to the counts of seven smaller narrow solves
/// 11.9M, 14.7M, 5.6M and 8.7M: neither kept.
fn start_numbers<B: Bits>(board: &Board<B>, moves: u64) -> Numbers {
    let replies = board.count_moves_of(board.side_to_move().opponent());
    let score = match board.phase() {
        Phase::Jumps => weigh(&features_with_moves(board, moves, replies), fill(board)),
        Phase::BlackRemoval | Phase::WhiteRemoval => 0,
    };
    let odds = (f64::from(score) / 100.0).exp2();
    Numbers {
        phi: start_number(replies, odds.recip()),
        delta: start_number(moves, odds),
    }
}

/// The cube of `moves` times `factor`, rounded, within 1 to [`LARGEST_FINITE`].
fn start_number(moves: u64, factor: f64) -> u32 {
    let number = (moves as f64).powi(3) * factor;
    // Casting a float to an integer saturates, and NaN (never made here) would give 0.
    (number.round() as u64).clamp(1, u64::from(LARGEST_FINITE)) as u32
}

/// A threshold as a number, at most [`INFINITE`].
fn clamp(threshold: u64) -> u32 {
    u32::try_from(threshold.min(u64::from(INFINITE))).unwrap_or(INFINITE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_bucket_gives_up_the_entry_of_least_work() {
        let mut table = NumberTable::new(1);
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
        table.forget(code(3));
        assert_eq!(table.get(code(3)), None);
        assert_eq!(table.get(code(4)), Some(numbers(4)), "its neighbours stay");
        table.put(code(6), numbers(6), 1);
        assert_eq!(
            table.get(code(2)),
            Some(numbers(2)),
            "a freed entry is taken first"
        );
    }

    #[test]
    fn start_numbers_are_given_up_before_any_searched_entry() {
        let mut table = NumberTable::new(1);
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
    fn start_numbers_are_weighed_cubes_kept_finite_and_positive() {
        assert_eq!(start_number(3, 1.0), 27);
        assert_eq!(start_number(4, 0.5), 32);
        assert_eq!(start_number(2, 2.5), 20);
        assert_eq!(start_number(0, 4.0), 1, "no moves still needs a proof");
        assert_eq!(start_number(3, 1e-9), 1, "never a proof's zero");
        assert_eq!(
            start_number(2000, 1e9),
            LARGEST_FINITE,
            "never a proof's infinity"
        );
    }

    #[test]
    fn a_table_the_system_refused_keeps_nothing_and_never_fails() {
        let mut table = NumberTable {
            words: None,
            bucket_mask: 0,
        };
        let numbers = Numbers { phi: 3, delta: 4 };
        table.put(7 << 32, numbers, 10);
        assert_eq!(table.get(7 << 32), None);
        table.forget(7 << 32);
        assert_eq!(table.get(7 << 32), None);
    }

    #[test]
    fn numbers_survive_whole_in_a_large_table() {
        let mut table = NumberTable::new(1 << 20);
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
