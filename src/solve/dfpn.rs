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
//! search's do; the numbers of unproven ones to a table kept beside it ([`NumberTable`], saved
//! with it, so that a resumed solve goes on with what it had learnt), whose buckets keep the
//! positions that cost the most work, and where a proven position leaves a mark that sends the
//! search to the proof table for it. Konane positions never repeat (every move takes a stone),
//! so the search graph has no cycles and df-pn needs no repair for them.
//!
//! On boards of four rows or fewer the tree's cost is concentrated in a few lines, which a
//! depth-first search with a fixed order finds late: 21x3 with the gap vertical in the middle
//! and White to move takes df-pn 2.8M positions, where the depth-first search had not proven
//! it after 19.9G nodes (see [`Method`](super::Method)).

use super::Proof;
use super::keys::{Images, Keys};
use super::numbers::{INFINITE, LARGEST_FINITE, NumberTable, Numbers};
use super::search::{Shared, Tally, longer};
use super::table::Key;
use crate::rules::bits::Bits;
use crate::rules::board::{Board, Phase};
use crate::rules::moves::Move;
use crate::search::eval::{features_with_moves, weigh};
use crate::search::fill::fill;

/// The epsilon of the 1 + epsilon thresholds, in hundredths: a child is left when its
/// disproof number grows past the second-best child's by a quarter. Over seven narrow solves
/// (14x3 to 17x3 and 10x4 to 12x4, all four setups; with the earlier start of 1 to prove), 10%,
/// 50% and 100% took 1.11, 1.10 and 1.16 times the positions of 25%; with the start weighed
/// by the features ([`start_numbers`]), 10% and 50% took 1.18 and 1.12 times on its four.
const EPSILON_PERCENT: u64 = 25;

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
    /// The numbers of unproven positions: the proof table's
    /// ([`ProofTable::numbers`](super::ProofTable::numbers)).
    numbers: &'s NumberTable,
    /// Its `nodes` count positions expanded (each expansion of one position again).
    pub tally: Tally<'s>,
    /// Per ply, a reusable list of children.
    children: Vec<Vec<Child<B>>>,
}

impl<'s, 'a, B: Bits> ProofNumberSearch<'s, 'a, B> {
    /// A search over `shared` with keys made by `keys`, keeping the numbers of unproven
    /// positions beside the proof table.
    pub fn new(shared: &'s Shared<'a>, keys: &'s Keys<B>) -> Self {
        ProofNumberSearch {
            shared,
            keys,
            numbers: shared.table.numbers(),
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
    /// The proof table is asked only for the children the number table marks as proven, and
    /// for those it knows nothing of where a probe is cheap (few stones: the near-leaf level)
    /// or where some proof may lack its mark
    /// ([`ProofTable::marks_every_proof`](super::ProofTable::marks_every_proof)). Asked for
    /// every child the number table lacked, as before, it had no proof for nine in ten (18x3
    /// with the gap horizontal at the corner, Black to move, 512 MB: 16.7M of 18.3M), and on
    /// big tables each such probe waits for memory: 20x3 the same with a 1 GB table took 74.6M
    /// positions in 86 to 110 s against 78.6M in 106 to 128 s (four runs each, beside two
    /// other solves); over `scripts/dfpn-bench.py`'s 24 solves 1.011 times the positions (one
    /// standard error 0.977 to 1.046). Asked only for marked children, without the near-leaf
    /// probe, 20x3 took 83.4M positions (proofs whose mark had been given up were proven again).
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
        let table = &self.shared.table;
        let unmarked = !table.marks_every_proof();
        let proven = |child: &&mut Child<B>| {
            child.numbers == Numbers::PROVEN
                || (child.numbers == Numbers::UNKNOWN && (unmarked || table.near_leaf(child.key)))
        };
        for child in children.iter_mut().filter(proven) {
            child.numbers = match table.probe(child.key) {
                Some(Proof { wins: true, .. }) => Numbers::WIN,
                Some(Proof { wins: false, .. }) => Numbers::LOSS,
                None => Numbers::UNKNOWN,
            }
        }
        let unknown = |child: &&mut Child<B>| child.numbers == Numbers::UNKNOWN;
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
                let work = self.tally.nodes - nodes_before + 1;
                self.shared
                    .table
                    .store_marked(key, board.hash(), proof, work);
                self.tally.stored();
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
}
