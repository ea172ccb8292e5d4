//! Exact solving: who wins a position with perfect play, and with which moves. A boolean AND/OR
//! search kept apart from the playing search, sharing only move generation: a table of proven
//! results keyed under the board's colour-keeping symmetries, the move that leaves the opponent
//! fewest replies tried first, a move that leaves no reply taken at once, and enhanced
//! transposition cutoffs (a child already proven lost for the opponent wins at once, before
//! any child is searched).

pub mod report;
mod symmetry;
pub mod table;

use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use symmetry::{SymmetricKeys, canonical};
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

/// One more ply on a proof's length, which is capped at 255.
fn longer(plies: u8) -> u8 {
    plies.saturating_add(1)
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

    /// A winning move if there is one, else the first move tried (every move loses); `None`
    /// when the side to move has no move.
    pub fn best(&self) -> Option<Move> {
        self.winning_moves()
            .first()
            .copied()
            .or_else(|| self.moves.first().map(|(mv, _)| *mv))
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
pub struct Solver<'a> {
    table: &'a mut ProofTable,
    stop: &'a AtomicBool,
    /// Called every `report_every` with the progress.
    report: Box<dyn FnMut(&Progress) + 'a>,
    report_every: Duration,
    /// The solve gives up at this moment, if set.
    deadline: Option<Instant>,
}

/// The solve of one position on one bitboard width.
struct Search<'s, 'a, B: 'static> {
    solver: &'s mut Solver<'a>,
    keys: SymmetricKeys,
    nodes: u64,
    stopped: bool,
    deepest: usize,
    root_done: (usize, usize),
    started: Instant,
    last_report: Instant,
    /// Per ply, a reusable list of children: the board, its keys, the opponent's replies.
    children: Vec<Vec<Child<B>>>,
}

/// A child of a node, ready to be ordered and searched.
#[derive(Clone)]
struct Child<B: 'static> {
    board: Board<B>,
    keys: [u64; 8],
    replies: u64,
    mv: Move,
}

impl<'a> Solver<'a> {
    /// A solver over `table` that gives up when `stop` is set.
    pub fn new(table: &'a mut ProofTable, stop: &'a AtomicBool) -> Solver<'a> {
        Solver {
            table,
            stop,
            report: Box::new(|_| {}),
            report_every: Duration::MAX,
            deadline: None,
        }
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
        let now = Instant::now();
        let mut search = Search {
            keys: SymmetricKeys::new(board.rules()),
            solver: self,
            nodes: 0,
            stopped: false,
            deepest: 0,
            root_done: (0, 0),
            started: now,
            last_report: now,
            children: Vec::new(),
        };
        search.root(board, all)
    }
}

impl<B: Bits> Search<'_, '_, B> {
    fn root(&mut self, board: &Board<B>, all: bool) -> Solution {
        let keys = self.keys_of(board);
        self.expand(board, &keys, 0);
        let children = std::mem::take(&mut self.children[0]);
        self.root_done = (0, children.len());
        let mut moves: Vec<(Move, MoveResult)> = children
            .iter()
            .map(|c| (c.mv, MoveResult::Unknown))
            .collect();
        // The proof length of the first winning move, and the longest of the losing ones.
        let (mut win_plies, mut loss_plies) = (None, 0u8);
        for (i, child) in children.iter().enumerate() {
            if !all && win_plies.is_some() {
                break;
            }
            let Some(proof) = self.wins(&child.board, &child.keys, 1) else {
                break;
            };
            if proof.wins {
                moves[i].1 = MoveResult::Loses;
                loss_plies = loss_plies.max(longer(proof.plies));
            } else {
                moves[i].1 = MoveResult::Wins;
                win_plies = win_plies.or(Some(longer(proof.plies)));
            }
            self.root_done.0 += 1;
        }
        let proof = match win_plies {
            Some(plies) => Some(Proof { wins: true, plies }),
            None if self.stopped => None,
            None => Some(Proof {
                wins: false,
                plies: loss_plies,
            }),
        };
        if let Some(proof) = proof {
            let key = canonical(&keys[..self.keys.count()]);
            self.solver.table.store(key, proof, self.nodes);
        }
        Solution {
            wins: proof.map(|p| p.wins),
            moves,
            plies: proof.map(|p| p.plies),
            nodes: self.nodes,
        }
    }

    fn keys_of(&self, board: &Board<B>) -> [u64; 8] {
        let mut keys = [0; 8];
        for (slot, key) in keys.iter_mut().zip(self.keys.keys(board)) {
            *slot = key;
        }
        keys
    }

    /// Fills `children[ply]` with the children of `board`, fewest replies first.
    fn expand(&mut self, board: &Board<B>, keys: &[u64; 8], ply: usize) {
        if self.children.len() <= ply {
            self.children.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.children[ply]);
        list.clear();
        let count = self.keys.count();
        board.for_each_move(|mv| {
            let mut child = *board;
            child.play(mv);
            let mut child_keys = *keys;
            self.keys.update(&mut child_keys[..count], board, &child);
            list.push(Child {
                board: child,
                keys: child_keys,
                replies: child.count_moves(),
                mv,
            });
        });
        list.sort_by_key(|c| c.replies);
        self.children[ply] = list;
    }

    /// Does the side to move win, and within how many plies along the proof? `None` when the
    /// solve was stopped.
    fn wins(&mut self, board: &Board<B>, keys: &[u64; 8], ply: usize) -> Option<Proof> {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 && self.poll() {
            return None;
        }
        self.deepest = self.deepest.max(ply);
        let count = self.keys.count();
        let key = canonical(&keys[..count]);
        if let Some(known) = self.solver.table.probe(key) {
            return Some(known);
        }
        let nodes_before = self.nodes;
        self.expand(board, keys, ply);
        let children = std::mem::take(&mut self.children[ply]);
        // A move that leaves the opponent no reply wins; so does one into a proven loss.
        let mut result = if children.first().is_some_and(|c| c.replies == 0) {
            Some(Proof {
                wins: true,
                plies: 1,
            })
        } else {
            children.iter().find_map(|c| {
                let known = self.solver.table.probe(canonical(&c.keys[..count]))?;
                (!known.wins).then(|| Proof {
                    wins: true,
                    plies: longer(known.plies),
                })
            })
        };
        if result.is_none() {
            // Every child is searched until one loses for the opponent; if none does, the
            // longest of their wins is how long this side can resist.
            let mut longest = 0u8;
            result = Some(Proof {
                wins: false,
                plies: 0,
            });
            for child in &children {
                match self.wins(&child.board, &child.keys, ply + 1) {
                    None => {
                        result = None;
                        break;
                    }
                    Some(proof) if proof.wins => longest = longest.max(longer(proof.plies)),
                    Some(proof) => {
                        result = Some(Proof {
                            wins: true,
                            plies: longer(proof.plies),
                        });
                        break;
                    }
                }
            }
            if let Some(proof) = result.as_mut()
                && !proof.wins
            {
                proof.plies = longest;
            }
        }
        self.children[ply] = children;
        if let Some(proof) = result {
            self.solver
                .table
                .store(key, proof, self.nodes - nodes_before + 1);
        }
        result
    }

    /// Checks the stop flag and reports progress when due; true when the solve must stop.
    fn poll(&mut self) -> bool {
        if self.solver.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return true;
        }
        let now = Instant::now();
        if self.solver.deadline.is_some_and(|deadline| now >= deadline) {
            self.stopped = true;
            return true;
        }
        if now.duration_since(self.last_report) >= self.solver.report_every {
            self.last_report = now;
            let progress = Progress {
                nodes: self.nodes,
                stored: self.solver.table.stored(),
                deepest: self.deepest,
                root_done: self.root_done,
                elapsed: now.duration_since(self.started),
            };
            (self.solver.report)(&progress);
        }
        false
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
        let mut table = ProofTable::new(16).unwrap();
        let stop = AtomicBool::new(false);
        Solver::new(&mut table, &stop).solve(&position, all)
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
    fn a_stopped_solve_says_so() {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let position = Position::start(rules).unwrap();
        let mut table = ProofTable::new(16).unwrap();
        let stop = AtomicBool::new(true);
        let solution = Solver::new(&mut table, &stop).solve(&position, false);
        assert_eq!(solution.wins, None);
    }
}
