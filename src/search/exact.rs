//! Exact play in small positions: before searching, the engine tries to prove a win with the
//! solver (src/solve), so that it never misplays an endgame it could have proven. A proof is
//! reported as `mate N`; anything else falls back to the playing search, which leaves out the
//! moves the attempt proved to lose.

use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::solve::{MoveResult, ProofTable, Solver};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Positions with at most this many stones are tried. Measured on random 8x8 positions with a
/// warm table: at 28 stones a proof takes 4 ms (median; 110 ms at most), at 32 stones 25 ms
/// (860 ms at most), at 36 stones 0.3 s (18 s at most).
pub const MAX_STONES: usize = 32;

/// The share of a move's soft time budget a proof attempt may take; the search has the rest.
pub const PROOF_SHARE: f64 = 0.5;

/// The proof table's size in MB.
const TABLE_MB: usize = 16;

/// A proven win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenWin {
    /// A winning move.
    pub best: Move,
    /// Our moves until the opponent has none, at most (the `N` of `mate N`).
    pub mate_in: u32,
    /// Nodes the proof took.
    pub nodes: u64,
}

/// What one proof attempt found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attempt {
    /// A proven win, if found.
    pub win: Option<ProvenWin>,
    /// Moves proven to lose (all of them when the position is lost).
    pub losing: Vec<Move>,
}

/// The solver's table, kept from move to move for one set of rules.
pub struct Exact {
    table: Option<(Rules, ProofTable)>,
}

impl Default for Exact {
    fn default() -> Exact {
        Exact::new()
    }
}

impl Exact {
    /// No table yet: it is made on first use.
    pub fn new() -> Exact {
        Exact { table: None }
    }

    /// Makes the table ready for `rules` (a proof is true in every game under the same rules,
    /// so it is kept from game to game): made and written through on first use, cleared when
    /// the rules change. Called before the clock runs, so that no timed proof pays for it.
    pub fn prepare(&mut self, rules: Rules) {
        match &mut self.table {
            Some((known, _)) if *known == rules => {}
            Some((known, table)) => {
                table.clear();
                *known = rules;
            }
            None => {
                if let Ok(mut table) = ProofTable::new(TABLE_MB) {
                    table.clear();
                    self.table = Some((rules, table));
                }
            }
        }
    }

    /// Tries to prove a win in `position` by `deadline` (or until `stop` is set); nothing is
    /// tried in a position with more than [`MAX_STONES`] stones.
    pub fn attempt(
        &mut self,
        position: &Position,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Attempt {
        let stones = position
            .diagram()
            .squares
            .iter()
            .filter(|square| square.is_some())
            .count();
        if stones > MAX_STONES || position.is_game_over() {
            return Attempt::default();
        }
        self.prepare(position.rules());
        let Some((_, table)) = self.table.as_mut() else {
            return Attempt::default();
        };
        let solution = Solver::new(table, stop)
            .with_deadline(deadline)
            .solve(position, false);
        let win = match (solution.wins, solution.best(), solution.plies) {
            (Some(true), Some(best), Some(plies)) => Some(ProvenWin {
                best,
                mate_in: u32::from(plies).div_ceil(2),
                nodes: solution.nodes,
            }),
            _ => None,
        };
        let losing = solution
            .moves
            .iter()
            .filter(|(_, result)| *result == MoveResult::Loses)
            .map(|&(mv, _)| mv)
            .collect();
        Attempt { win, losing }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Opening};
    use std::time::Duration;

    fn six_by_six(moves: &str) -> Position {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let mut position = Position::start(rules).unwrap();
        for mv in moves.split(' ') {
            position.play(mv.parse().unwrap()).unwrap();
        }
        position
    }

    #[test]
    fn an_attempt_gives_the_win_or_the_moves_that_lose() {
        let mut exact = Exact::new();
        let stop = AtomicBool::new(false);
        let far = Instant::now() + Duration::from_secs(60);
        // Black to move and win (the solver's pinned 6x6 results).
        let won = six_by_six("f1 f2 d1f1 d2f2 e4e2 b2d2 b1d1 c3e3 c4e4 d6d4 e2c2 b6d6");
        let attempt = exact.attempt(&won, far, &stop);
        let win = attempt.win.expect("proven");
        let mut after = won;
        after.play(win.best).unwrap();
        assert!(exact.attempt(&after, far, &stop).win.is_none());
        // Black to move and lose: every move is proven to lose.
        let lost = six_by_six("d3 c3 d1d3 f2d2 f1d1 c5c3 c2e2 d4d2 e2c2 c1e1 b3d3 b2d2");
        let attempt = exact.attempt(&lost, far, &stop);
        assert_eq!(attempt.win, None);
        let mut losing = attempt.losing;
        let mut legal = lost.legal_moves();
        losing.sort_by_key(|m| m.to_string());
        legal.sort_by_key(|m| m.to_string());
        assert_eq!(losing, legal);
        // Past the deadline nothing is proven.
        let attempt = exact.attempt(&six_by_six("c4 c3"), Instant::now(), &stop);
        assert_eq!(attempt, Attempt::default());
    }
}
