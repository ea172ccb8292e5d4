//! Exact solving: who wins a position with perfect play, and with which moves. A boolean AND/OR
//! search kept apart from the playing search, sharing only move generation: a table of proven
//! results keyed exactly under every symmetry of the board (`keys`), searched depth-first by
//! one thread or several that share the table (`search`), or by a proof-number search on one
//! thread (`dfpn`), the better of the two on narrow boards ([`Method`]).

mod dfpn;
mod keys;
mod numbers;
pub mod report;
mod search;
pub mod split;
pub(crate) mod table;
mod words;

use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::Rules;
use dfpn::ProofNumberSearch;
use keys::{Keys, PositionKeys};
use search::{BUSY_SLOTS, Order, Search, Shared, longer};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
pub use table::{Proof, ProofTable};

/// What is known of one move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveResult {
    /// The move wins for the side to move.
    Wins,
    /// The move loses.
    Loses,
    /// Not proven (the solve was stopped, or ended at the first winning move).
    Unknown,
}

/// A solved (or partly solved) position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// True when the side to move wins; `None` when stopped before the answer.
    pub wins: Option<bool>,
    /// Each root move, in the order tried, with what is known of it.
    pub moves: Vec<(Move, MoveResult)>,
    /// Plies to the end of the game along the proof of `wins`: with a win, a forced win within
    /// that many plies; with a loss, the longest resistance the proof met.
    pub plies: Option<u8>,
    /// Nodes searched.
    pub nodes: u64,
}

impl Solution {
    /// The moves proven to win.
    pub fn winning_moves(&self) -> Vec<Move> {
        self.moves
            .iter()
            .filter(|(_, result)| *result == MoveResult::Wins)
            .map(|(mv, _)| *mv)
            .collect()
    }

    /// How many root moves are proven (won or lost).
    fn known_moves(&self) -> usize {
        self.moves
            .iter()
            .filter(|(_, result)| *result != MoveResult::Unknown)
            .count()
    }

    /// A winning move if there is one, else the first move tried (every move loses); `None`
    /// when the side to move has no move.
    pub fn best(&self) -> Option<Move> {
        self.winning_moves()
            .first()
            .copied()
            .or_else(|| self.moves.first().map(|(mv, _)| *mv))
    }
}

/// How a solve searches.
///
/// On boards of four rows (or columns) or fewer the proof-number search takes a small fraction
/// of the depth-first search's work, and proves setups the depth-first search could not: with
/// the gap vertical in the middle, 17x3 (White to move) in 303k positions and 1.6 s where the
/// depth-first search takes 8.5M nodes and 8 s, 21x3 in 2.8M positions and 4 s where it had not
/// proven it in 19.9G nodes; 15x4 with the gap vertical at the corner (Black to move) in 39 s,
/// where the depth-first search was estimated at hundreds of core-hours. On 6x6 it took 1.05
/// to 2.25 times the nodes and 3 to 6 times the time (CHANGELOG), so wider boards keep the
/// depth-first search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Depth-first, children ordered by mobility, on every thread given.
    DepthFirst,
    /// Depth-first proof-number search (df-pn), on one thread.
    ProofNumber,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 2] = [Method::DepthFirst, Method::ProofNumber];

    /// The method for boards of `rules`: proof numbers on boards of four rows or columns or
    /// fewer, depth-first on the others.
    pub fn for_rules(rules: Rules) -> Method {
        match Order::for_rules(rules) {
            Order::Narrow => Method::ProofNumber,
            Order::Broad => Method::DepthFirst,
        }
    }

    /// The method's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::DepthFirst => "depth-first",
            Method::ProofNumber => "proof-number",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    fn from_str(text: &str) -> Result<Method, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == text)
            .ok_or_else(|| format!("unknown method '{text}': depth-first or proof-number"))
    }
}

/// How a solve searches: its threads and its method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searching {
    /// Threads for the depth-first search, at least one (the proof-number search uses one).
    pub threads: usize,
    /// `None`: [`Method::for_rules`] of the position's board.
    pub method: Option<Method>,
}

impl Searching {
    /// The method for a position of `rules`.
    pub fn method_for(&self, rules: Rules) -> Method {
        self.method.unwrap_or_else(|| Method::for_rules(rules))
    }

    /// The threads that search a position of `rules`.
    pub fn threads_for(&self, rules: Rules) -> usize {
        match self.method_for(rules) {
            Method::DepthFirst => self.threads.max(1),
            Method::ProofNumber => 1,
        }
    }

    /// How a solve of a position of `rules` searches, in words: "proof-number search, 1
    /// thread".
    pub fn describe(&self, rules: Rules) -> String {
        let threads = self.threads_for(rules);
        format!(
            "{} search, {threads} thread{}",
            self.method_for(rules).name(),
            if threads == 1 { "" } else { "s" }
        )
    }
}

/// How far a long solve has got, for progress lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Results stored in the table so far.
    pub stored: u64,
    /// The deepest ply below the root reached.
    pub deepest: usize,
    /// Root moves proven so far, of how many.
    pub root_done: (usize, usize),
    /// Time since the solve began.
    pub elapsed: Duration,
}

/// A solver: the proof table and the stop flag, kept across solves (so that the openings of
/// one board share what they prove).
///
/// ```
/// use konane::solve::{ProofTable, Solver};
/// use konane::{Position, Rules};
/// use std::sync::atomic::AtomicBool;
///
/// let table = ProofTable::new(16)?;
/// let stop = AtomicBool::new(false);
/// let start = Position::start(Rules::new(4, 4, Default::default(), Default::default())?)?;
/// let solution = Solver::new(&table, &stop).solve(&start, true);
/// assert_eq!(solution.wins, Some(false)); // Black, to move first on 4x4, loses
/// assert!(solution.winning_moves().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solver<'a> {
    table: &'a ProofTable,
    stop: &'a AtomicBool,
    /// Called every `report_every` with the progress.
    report: Box<dyn FnMut(&Progress) + 'a>,
    report_every: Duration,
    /// The solve gives up at this moment, if set.
    deadline: Option<Instant>,
    searching: Searching,
}

impl<'a> Solver<'a> {
    /// A solver over `table` that gives up when `stop` is set, on one thread.
    pub fn new(table: &'a ProofTable, stop: &'a AtomicBool) -> Solver<'a> {
        Solver {
            table,
            stop,
            report: Box::new(|_| {}),
            report_every: Duration::MAX,
            deadline: None,
            searching: Searching {
                threads: 1,
                method: None,
            },
        }
    }

    /// Searches as `searching` says.
    pub fn with_searching(mut self, searching: Searching) -> Self {
        self.searching = searching;
        self
    }

    /// Gives up at `deadline` (as if stopped).
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Calls `report` about every `every` during a solve.
    pub fn with_progress(mut self, every: Duration, report: impl FnMut(&Progress) + 'a) -> Self {
        self.report = Box::new(report);
        self.report_every = every;
        self
    }

    /// The stored results so far.
    pub fn stored(&self) -> u64 {
        self.table.stored()
    }

    /// What the table holds of positions under `rules`: a position's proof, if it was proven
    /// and the entry has not been overwritten since. The board's keys are made once, for every
    /// position asked about.
    pub fn proven_under(&self, rules: Rules) -> impl Fn(&Position) -> Option<Proof> + '_ {
        let keys = PositionKeys::new(rules);
        move |position| self.table.probe(keys.key(position))
    }

    /// Solves `position`: with `all`, proves every root move; otherwise stops at the first
    /// winning move.
    pub fn solve(&mut self, position: &Position, all: bool) -> Solution {
        match position {
            Position::Small(board) => self.solve_board(board, all),
            Position::Medium(board) => self.solve_board(board, all),
            Position::Large(board) => self.solve_board(board, all),
        }
    }

    fn solve_board<B: Bits>(&mut self, board: &Board<B>, all: bool) -> Solution {
        let method = self.searching.method_for(board.rules());
        let threads = self.searching.threads_for(board.rules());
        let started = Instant::now();
        let keys = Keys::new(board.rules());
        let shared = Shared {
            table: self.table,
            stop: self.stop,
            done: AtomicBool::new(false),
            deadline: self.deadline,
            nodes: AtomicU64::new(0),
            busy: (threads > 1).then(|| (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()),
            order: Order::for_rules(board.rules()),
        };
        let root_done = AtomicU64::new(0);
        let root_moves = board.count_moves() as usize;
        let (report, report_every) = (&mut self.report, self.report_every);
        let mut last_report = Instant::now();
        let mut on_poll = |deepest: usize| {
            let now = Instant::now();
            if now.duration_since(last_report) >= report_every {
                last_report = now;
                report(&Progress {
                    nodes: shared.nodes.load(Ordering::Relaxed),
                    stored: shared.table.stored(),
                    deepest,
                    root_done: (root_done.load(Ordering::Relaxed) as usize, root_moves),
                    elapsed: now.duration_since(started),
                });
            }
        };
        if method == Method::ProofNumber {
            let mut search = ProofNumberSearch::new(&shared, &keys);
            search.tally.on_poll = Some(&mut on_poll);
            let solution = proof_number_root(&mut search, board, all, &root_done);
            return Solution {
                nodes: shared.nodes.load(Ordering::Relaxed),
                ..solution
            };
        }
        let solution = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| scope.spawn(|| root(&mut Search::new(&shared, &keys), board, all, None)))
                .collect();
            // This thread searches too, and reports the progress of all.
            let mut main = Search::new(&shared, &keys);
            main.tally.on_poll = Some(&mut on_poll);
            let mut best = root(&mut main, board, all, Some(&root_done));
            // The first thread to finish stops the others, so the answer is the one that
            // knows most: with `all`, a thread stopped after its first win knows less.
            for helper in helpers {
                let solution = helper.join().expect("a solver thread does not panic");
                if (solution.wins.is_some(), solution.known_moves())
                    > (best.wins.is_some(), best.known_moves())
                {
                    best = solution;
                }
            }
            best
        });
        Solution {
            nodes: shared.nodes.load(Ordering::Relaxed),
            ..solution
        }
    }
}

/// The root of one thread's search: every move, proven in order until one wins (or, with
/// `all`, every one); `root_done` counts the moves proven. The first thread to finish ends
/// the others' searches.
fn root<B: Bits>(
    search: &mut Search<B>,
    board: &Board<B>,
    all: bool,
    root_done: Option<&AtomicU64>,
) -> Solution {
    let images = search.keys.images(board);
    let key = search.keys.key(&images, board);
    let children = search.children(board, &images);
    let mut moves: Vec<(Move, MoveResult)> = children
        .iter()
        .map(|c| (c.mv, MoveResult::Unknown))
        .collect();
    // The proof length of the first winning move, and the longest of the losing ones.
    let (mut win_plies, mut loss_plies) = (None, 0u8);
    // Moves another thread is proving are left to the end, by when they are often known.
    let (now, later): (Vec<usize>, Vec<usize>) =
        (0..children.len()).partition(|&i| !search.shared.is_busy(children[i].key));
    for i in now.into_iter().chain(later) {
        if !all && win_plies.is_some() {
            break;
        }
        let child = &children[i];
        let Some(proof) = search.wins(&child.board, &child.images, child.key, 1) else {
            break;
        };
        if proof.wins {
            moves[i].1 = MoveResult::Loses;
            loss_plies = loss_plies.max(longer(proof.plies));
        } else {
            moves[i].1 = MoveResult::Wins;
            win_plies = win_plies.or(Some(longer(proof.plies)));
        }
        if let Some(done) = root_done {
            done.fetch_add(1, Ordering::Relaxed);
        }
    }
    let stopped = moves
        .iter()
        .any(|(_, result)| *result == MoveResult::Unknown)
        && (all || win_plies.is_none());
    let proof = match win_plies {
        Some(plies) => Some(Proof { wins: true, plies }),
        None if stopped => None,
        None => Some(Proof {
            wins: false,
            plies: loss_plies,
        }),
    };
    if let Some(proof) = proof {
        search.store(key, proof, search.tally.nodes);
        if !stopped {
            search.shared.done.store(true, Ordering::Relaxed);
        }
    }
    search.poll();
    Solution {
        wins: proof.map(|p| p.wins),
        moves,
        plies: proof.map(|p| p.plies),
        nodes: search.tally.nodes,
    }
}

/// The root of a proof-number search: the position proven as a whole (the search picks the
/// move closest to a proof), then, with `all`, every root move not yet known; `root_done`
/// counts the moves proven. What each root move is comes from the table, so a result it has
/// given up is proven again.
fn proof_number_root<B: Bits>(
    search: &mut ProofNumberSearch<B>,
    board: &Board<B>,
    all: bool,
    root_done: &AtomicU64,
) -> Solution {
    let images = search.keys.images(board);
    let key = search.keys.key(&images, board);
    let children = search.children(board, &images);
    let result_of = |proof: Option<Proof>| match proof {
        Some(Proof { wins: true, .. }) => MoveResult::Loses,
        Some(Proof { wins: false, .. }) => MoveResult::Wins,
        None => MoveResult::Unknown,
    };
    let proof = if children.is_empty() {
        Some(Proof {
            wins: false,
            plies: 0,
        })
    } else {
        search.prove(board, &images, key, 0)
    };
    let mut moves: Vec<(Move, MoveResult)> = children
        .iter()
        .map(|c| (c.mv, result_of(search.proof_of(c))))
        .collect();
    let known = |moves: &[(Move, MoveResult)]| {
        let count = moves
            .iter()
            .filter(|(_, r)| *r != MoveResult::Unknown)
            .count();
        root_done.store(count as u64, Ordering::Relaxed);
    };
    known(&moves);
    // With `all`, every move; otherwise, on a win whose winning move the table no longer
    // holds, moves until one wins.
    for (i, child) in children.iter().enumerate() {
        let wanted = all
            || (proof.is_some_and(|p| p.wins) && !moves.iter().any(|m| m.1 == MoveResult::Wins));
        if !wanted || proof.is_none() {
            break;
        }
        if moves[i].1 == MoveResult::Unknown {
            let Some(child_proof) = search.prove(&child.board, &child.images, child.key, 1) else {
                break;
            };
            moves[i].1 = result_of(Some(child_proof));
            known(&moves);
        }
    }
    search.poll();
    Solution {
        wins: proof.map(|p| p.wins),
        moves,
        plies: proof.map(|p| p.plies),
        nodes: search.tally.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Opening, Rules};

    fn solve(rules: Rules, moves: &[&str], all: bool) -> Solution {
        let mut position = Position::start(rules).unwrap();
        for text in moves {
            position.play(text.parse().unwrap()).unwrap();
        }
        let table = ProofTable::new(16).unwrap();
        let stop = AtomicBool::new(false);
        Solver::new(&table, &stop).solve(&position, all)
    }

    #[test]
    fn the_proof_number_search_marks_what_it_proves_in_its_numbers() {
        // 8x3 with the gap horizontal at the corner, Black to move: Black wins.
        let fen = "wbwbwbwb/bwbwbwbw/2wbwbwb b";
        let position = Position::from_fen(fen, Opening::Any, Capture::Straight).unwrap();
        let table = ProofTable::new(16).unwrap();
        let stop = AtomicBool::new(false);
        let solution = Solver::new(&table, &stop).solve(&position, true);
        assert_eq!(solution.wins, Some(true));
        let numbers = table.numbers();
        let proven = Some(numbers::Numbers::PROVEN);
        assert_eq!(numbers.get(position.hash()), proven, "the root");
        let Position::Small(board) = position else {
            panic!("8x3 is a small board")
        };
        // Every root move was proven, and each of their positions has a move.
        board.for_each_move(|mv| {
            let mut child = board;
            child.play_unchecked(mv);
            assert_eq!(numbers.get(child.hash()), proven, "after {mv}");
        });
        assert!(numbers.held() > 0, "and numbers of positions left unproven");
    }

    #[test]
    fn four_by_four_is_won_by_white() {
        let rules = Rules::new(4, 4, Opening::Traditional, Capture::Straight).unwrap();
        let solution = solve(rules, &[], true);
        assert_eq!(solution.wins, Some(false), "Black, to move, loses");
        assert!(solution.winning_moves().is_empty());
        assert_eq!(solution.moves.len(), 4);
    }

    #[test]
    fn every_thread_proving_every_move_gives_every_move() {
        // A position where a helper thread used to finish first and stop the main thread
        // after its first winning move, whose answer, missing two winning moves, was kept.
        let fen = "bwbwbw/1b1bw1/2b1bw/4wb/2bwbw/wbwbwb w";
        let position = Position::from_fen(fen, Opening::Traditional, Capture::Turning).unwrap();
        let stop = AtomicBool::new(false);
        let one = Solver::new(&ProofTable::new(16).unwrap(), &stop).solve(&position, true);
        assert_eq!(one.winning_moves().len(), 9);
        for _ in 0..16 {
            let table = ProofTable::new(16).unwrap();
            let two = Solver::new(&table, &stop)
                .with_searching(Searching {
                    threads: 2,
                    method: None,
                })
                .solve(&position, true);
            assert!(two.moves.iter().all(|(_, r)| *r != MoveResult::Unknown));
            let mut sorted = two.winning_moves();
            sorted.sort_by_key(|m| m.to_string());
            let mut expected = one.winning_moves();
            expected.sort_by_key(|m| m.to_string());
            assert_eq!(sorted, expected);
        }
    }

    #[test]
    fn a_solve_past_its_deadline_stops_within_a_few_hundred_nodes() {
        // A node of a 16x16 position with some 65 stones costs the solver up to 20 us: looking
        // at the clock every 4,096 nodes let the engine's 5 ms proofs run to 25 ms. 26x4 is
        // solved by proof numbers.
        for (width, height, opening, method) in [
            (16, 16, ["h9", "h8"], Method::DepthFirst),
            (26, 4, ["b1", "a1"], Method::ProofNumber),
        ] {
            let rules = Rules::new(width, height, Opening::Any, Capture::Straight).unwrap();
            let mut position = Position::start(rules).unwrap();
            for text in opening {
                position.play(text.parse().unwrap()).unwrap();
            }
            let table = ProofTable::new(16).unwrap();
            let stop = AtomicBool::new(false);
            let solver = Solver::new(&table, &stop).with_deadline(Instant::now());
            assert_eq!(solver.searching.method_for(rules), method);
            let solution = { solver }.solve(&position, true);
            assert_eq!(solution.wins, None);
            assert!(
                solution.nodes <= 256,
                "{} nodes past the deadline on {rules}",
                solution.nodes
            );
        }
    }

    #[test]
    fn narrow_boards_are_solved_by_proof_numbers_and_the_others_depth_first() {
        let method =
            |w, h| Method::for_rules(Rules::new(w, h, Opening::Any, Capture::Straight).unwrap());
        assert_eq!(method(26, 3), Method::ProofNumber);
        assert_eq!(method(4, 15), Method::ProofNumber);
        assert_eq!(method(5, 5), Method::DepthFirst);
        assert_eq!(method(6, 6), Method::DepthFirst);
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>(), Ok(m));
        }
        assert!("df-pn".parse::<Method>().unwrap_err().contains("'df-pn'"));
        let searching = Searching {
            threads: 2,
            method: None,
        };
        let narrow = Rules::new(12, 3, Opening::Any, Capture::Straight).unwrap();
        assert_eq!(searching.describe(narrow), "proof-number search, 1 thread");
        let square = Rules::new(6, 6, Opening::Any, Capture::Straight).unwrap();
        assert_eq!(searching.describe(square), "depth-first search, 2 threads");
    }

    #[test]
    fn a_stopped_solve_says_so() {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let position = Position::start(rules).unwrap();
        let table = ProofTable::new(16).unwrap();
        let stop = AtomicBool::new(true);
        let solution = Solver::new(&table, &stop).solve(&position, false);
        assert_eq!(solution.wins, None);
    }
}
