//! One thread's depth-first proof search: does the side to move win?
//!
//! Each node's children are made at once, each with its key (whose table bucket is then
//! prefetched, to be probed a little later) and its opponent's replies: a child that leaves
//! no reply, or one the table already knows is lost for the opponent (an enhanced
//! transposition cutoff), wins at once. Otherwise the children are searched in the order of
//! [`order_score`], lowest first, until one is lost for the opponent. With several threads,
//! a child another thread is searching is put off until the others are done (so that the
//! threads split the work of a node between them, in the manner of ABDADA), by when its
//! result is often in the shared table.

use super::keys::{Images, Keys};
use super::table::Key;
use super::{Proof, ProofTable};
use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::rules::variant::Rules;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// One more ply on a proof's length, which is capped at 255.
pub(super) fn longer(plies: u8) -> u8 {
    plies.saturating_add(1)
}

/// What the threads of one solve share.
pub(super) struct Shared<'a> {
    pub table: &'a ProofTable,
    /// Set by the caller to stop the solve.
    pub stop: &'a AtomicBool,
    /// Set when one thread has the answer: the others stop.
    pub done: AtomicBool,
    pub deadline: Option<Instant>,
    /// Nodes searched by every thread, added up now and then.
    pub nodes: AtomicU64,
    /// Keys of the nodes being searched near the root, by slot (zero is free); only kept when
    /// more than one thread searches.
    pub busy: Option<Vec<AtomicU64>>,
    /// How children are ordered: [`Order::for_rules`] of the board.
    pub order: Order,
}

/// Slots of [`Shared::busy`].
pub(super) const BUSY_SLOTS: usize = 1 << 14;
/// Nodes within this many plies of the root are marked busy while searched: deeper ones are
/// too many and too quick to be worth sharing out.
const BUSY_PLIES: usize = 24;
/// How many nodes a thread searches between looks at the stop flags and the clock. A node of a
/// 16x16 position with some 65 stones costs up to 20 us, so 4,096 let the engine's 5 ms proofs
/// run to 25 ms (51 of 1,184 attempts over 6 ms in 16x16 self-play, one with 256); looking
/// every 256 nodes costs nothing measurable (a 6x6 solve: 0.999 of the CPU time).
const POLL_EVERY: u64 = 0x100;

impl Shared<'_> {
    fn slot(&self, key: Key) -> Option<&AtomicU64> {
        let busy = self.busy.as_ref()?;
        Some(&busy[(key.code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 50) as usize % BUSY_SLOTS])
    }

    /// Adds a thread's `nodes` and `stores` not yet counted to the shared counts and checks the
    /// stop flags and the deadline; true when the solve must stop.
    pub fn poll(&self, nodes: u64, stores: u64) -> bool {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        self.table.count_stored(stores);
        self.stop.load(Ordering::Relaxed)
            || self.done.load(Ordering::Relaxed)
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// True when another thread is searching the position of `key` (or, rarely, one that
    /// shares its slot).
    pub fn is_busy(&self, key: Key) -> bool {
        self.slot(key)
            .is_some_and(|slot| slot.load(Ordering::Relaxed) == key.code)
    }
}

/// One thread's count of its work, added to the shared counts now and then.
pub(super) struct Tally<'s> {
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Nodes not yet added to the shared count.
    unreported: u64,
    /// Results stored and not yet counted in the table's count.
    uncounted_stores: u64,
    /// The deepest ply reached.
    pub deepest: usize,
    /// Called at each poll (to report progress).
    pub on_poll: Option<PollHook<'s>>,
}

impl<'s> Tally<'s> {
    /// Nothing counted yet.
    pub fn new() -> Self {
        Tally {
            nodes: 0,
            unreported: 0,
            uncounted_stores: 0,
            deepest: 0,
            on_poll: None,
        }
    }

    /// Counts a node at `ply`; true when the solve must stop (the stop flags are looked at
    /// every [`POLL_EVERY`] nodes).
    pub fn node(&mut self, shared: &Shared, ply: usize) -> bool {
        self.nodes += 1;
        self.unreported += 1;
        self.deepest = self.deepest.max(ply);
        self.unreported == POLL_EVERY && self.poll(shared)
    }

    /// Counts a result stored in the table.
    pub fn stored(&mut self) {
        self.uncounted_stores += 1;
    }

    /// Adds this thread's counts to the shared ones, reports progress and checks the stop
    /// flags; true when the solve must stop.
    pub fn poll(&mut self, shared: &Shared) -> bool {
        let stop = shared.poll(self.unreported, self.uncounted_stores);
        self.unreported = 0;
        self.uncounted_stores = 0;
        if let Some(on_poll) = &mut self.on_poll {
            on_poll(self.deepest);
        }
        stop
    }
}

/// Which terms [`order_score`] weighs, chosen by the board's shape.
///
/// On boards of four rows (or columns) or fewer the mover's own stones that can jump mislead:
/// the time of a proof has a heavy tail there (one slow move tried first near the root can
/// cost a hundredfold), and leaving that term out avoids the worst of it. Nodes with one
/// thread, with the term and without, the gap vertical in the middle: 16x3, Black to move,
/// 167M and 1.68M; 17x3, White to move, 264M and 8.5M; 15x3, Black to move, 1.52M and 35.8k;
/// 14x3 and 13x3, White to move, 6.58M and 50.6k, 1.63M and 9.5k; 12x4, Black to move, 22.0M
/// and 5.6M. Horizontal at the corner on 16x3 and 17x3, horizontal in the middle and at the
/// corner on 11x4, vertical at the corner on 12x4 (Black to move): 0.83 to 1.09 times. On 6x6
/// (every opening) the term takes 4.10M nodes where leaving it out takes 6.33M; giving only a
/// second thread the other order (a portfolio) made 6x8 after `c4 c3` take 6.20G nodes and
/// 799 s on two threads instead of 3.32G and 494 s, the threads no longer sharing one tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    /// Every term: boards of five rows and columns or more.
    Broad,
    /// Without the mover's own stones that can jump: boards with four rows or columns or fewer.
    Narrow,
}

impl Order {
    /// The order for a board of `rules`.
    pub fn for_rules(rules: Rules) -> Order {
        if rules.width().min(rules.height()) <= 4 {
            Order::Narrow
        } else {
            Order::Broad
        }
    }
}

/// The order in which the mover tries a child (lower first), from the opponent's and the
/// mover's mobility in the child (moves, stones that can jump; see [`Board::mobility_of`]):
/// the child should leave the opponent few moves and few stones that can move, and the mover
/// many of both. With [`Order::Broad`]: 4 x (opponent's replies) - (own moves) + 8 x
/// (opponent's stones that can jump) - 2 x (own such stones), ties broken by the opponent's
/// stones that can jump; against the first term pair alone it takes 39% fewer nodes on 6x6
/// (every opening) and 27% to 48% fewer on two 6x8 positions twelve plies in.
/// [`Order::Narrow`] leaves out the own stones that can jump.
pub(super) fn order_score(theirs: (u64, u32), ours: (u64, u32), order: Order) -> i64 {
    let (replies, their_movers) = (theirs.0 as i64, i64::from(theirs.1));
    let (follow_up, own_movers) = (ours.0 as i64, i64::from(ours.1));
    let own_movers_weight = match order {
        Order::Broad => 2,
        Order::Narrow => 0,
    };
    let score = 4 * replies - follow_up + 8 * their_movers - own_movers_weight * own_movers;
    score * 64 + their_movers
}

/// A child of a node, ready to be ordered and searched.
#[derive(Clone)]
pub(super) struct Child<B: 'static> {
    pub board: Board<B>,
    pub images: Images<B>,
    pub key: Key,
    /// Lower is tried first.
    score: i64,
    pub mv: Move,
}

/// What making a node's children found.
enum Expansion {
    /// A child that leaves the opponent no reply, or one proven lost for the opponent: this
    /// proof of a win.
    Wins(Proof),
    /// The children are in the list, to be searched.
    Search,
}

/// What a search calls each time it polls the stop flags, with the deepest ply it reached.
pub(super) type PollHook<'s> = &'s mut dyn FnMut(usize);

/// One thread's search.
pub(super) struct Search<'s, 'a, B: 'static> {
    pub shared: &'s Shared<'a>,
    pub keys: &'s Keys<B>,
    pub tally: Tally<'s>,
    /// Per ply, a reusable list of children.
    children: Vec<Vec<Child<B>>>,
}

impl<'s, 'a, B: Bits> Search<'s, 'a, B> {
    /// A search over `shared`, with keys made by `keys`.
    pub fn new(shared: &'s Shared<'a>, keys: &'s Keys<B>) -> Self {
        Search {
            shared,
            keys,
            tally: Tally::new(),
            children: Vec::new(),
        }
    }

    /// Every child of `board` (whose images are `images`), in the order to search them.
    pub fn children(&mut self, board: &Board<B>, images: &Images<B>) -> Vec<Child<B>> {
        self.expand(board, images, 0, false);
        std::mem::take(&mut self.children[0])
    }

    /// Fills `children[ply]` with the children of `board`, in the order to search them. With
    /// `cut`, looks first for a child that wins at once.
    fn expand(&mut self, board: &Board<B>, images: &Images<B>, ply: usize, cut: bool) -> Expansion {
        if self.children.len() <= ply {
            self.children.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.children[ply]);
        list.clear();
        let mover = board.side_to_move();
        let mut ends_game = false;
        board.for_each_move(|mv| {
            if ends_game {
                return;
            }
            let mut child = *board;
            child.play_unchecked(mv);
            let mut child_images = *images;
            self.keys
                .update(&mut child_images, board.empty() ^ child.empty());
            let key = self.keys.key(&child_images, &child);
            if cut {
                self.shared.table.prefetch(key);
            }
            let theirs = child.mobility_of(mover.opponent());
            ends_game = theirs.0 == 0 && cut;
            list.push(Child {
                board: child,
                images: child_images,
                key,
                score: order_score(theirs, child.mobility_of(mover), self.shared.order),
                mv,
            });
        });
        let mut found = ends_game.then_some(Proof {
            wins: true,
            plies: 1,
        });
        if found.is_none() {
            list.sort_by_key(|child| child.score);
            // A child proven lost for the opponent wins (an enhanced transposition cutoff).
            if cut {
                found = list.iter().find_map(|child| {
                    let known = self.shared.table.probe(child.key)?;
                    (!known.wins).then(|| Proof {
                        wins: true,
                        plies: longer(known.plies),
                    })
                });
            }
        }
        self.children[ply] = list;
        match found {
            Some(proof) => Expansion::Wins(proof),
            None => Expansion::Search,
        }
    }

    /// Does the side to move of `board` (with `images` and `key`) win, and within how many
    /// plies along the proof? `None` when the solve was stopped.
    pub fn wins(
        &mut self,
        board: &Board<B>,
        images: &Images<B>,
        key: Key,
        ply: usize,
    ) -> Option<Proof> {
        if self.tally.node(self.shared, ply) {
            return None;
        }
        if let Some(known) = self.shared.table.probe(key) {
            return Some(known);
        }
        let nodes_before = self.tally.nodes;
        if let Expansion::Wins(proof) = self.expand(board, images, ply, true) {
            self.store(key, proof, 1);
            return Some(proof);
        }
        let children = std::mem::take(&mut self.children[ply]);
        let marked = ply <= BUSY_PLIES && self.mark_busy(key);
        let result = self.search_children(&children, ply);
        if marked {
            self.unmark_busy(key);
        }
        self.children[ply] = children;
        if let Some(proof) = result {
            self.store(key, proof, self.tally.nodes - nodes_before + 1);
        }
        result
    }

    /// Stores `proof` of the position of `key`, which cost `work` nodes.
    pub fn store(&mut self, key: Key, proof: Proof, work: u64) {
        self.shared.table.store(key, proof, work);
        self.tally.stored();
    }

    /// Searches `children` until one is lost for the opponent; if none is, the longest of
    /// their wins is how long the side to move can resist. Children another thread is on are
    /// searched last.
    fn search_children(&mut self, children: &[Child<B>], ply: usize) -> Option<Proof> {
        let mut longest = 0u8;
        let mut put_off = Vec::new();
        let sharing = ply < BUSY_PLIES && self.shared.busy.is_some();
        for (i, child) in children.iter().enumerate() {
            if sharing && self.shared.is_busy(child.key) {
                put_off.push(i);
            } else if let Some(proof) = self.refutes(child, ply, &mut longest)? {
                return Some(proof);
            }
        }
        for i in put_off {
            if let Some(proof) = self.refutes(&children[i], ply, &mut longest)? {
                return Some(proof);
            }
        }
        Some(Proof {
            wins: false,
            plies: longest,
        })
    }

    /// Searches `child`: `Some(Some(win))` when it is lost for the opponent, `Some(None)` when
    /// the opponent wins it (`longest` then covers its length), `None` when stopped.
    fn refutes(&mut self, child: &Child<B>, ply: usize, longest: &mut u8) -> Option<Option<Proof>> {
        let proof = self.wins(&child.board, &child.images, child.key, ply + 1)?;
        if proof.wins {
            *longest = (*longest).max(longer(proof.plies));
            return Some(None);
        }
        Some(Some(Proof {
            wins: true,
            plies: longer(proof.plies),
        }))
    }

    /// Marks `key` busy if its slot is free; true when marked.
    fn mark_busy(&self, key: Key) -> bool {
        self.shared.slot(key).is_some_and(|slot| {
            slot.compare_exchange(0, key.code, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        })
    }

    fn unmark_busy(&self, key: Key) {
        if let Some(slot) = self.shared.slot(key) {
            slot.store(0, Ordering::Relaxed);
        }
    }

    /// Adds this thread's counts to the shared ones and checks the stop flags; true when the
    /// solve must stop.
    pub fn poll(&mut self) -> bool {
        self.tally.poll(self.shared)
    }
}
