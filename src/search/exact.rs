//! Exact play in small positions: before searching, the engine tries to prove a win with the
//! solver (src/solve), so that it never misplays an endgame it could have proven. A proof is
//! reported as `mate N`; anything else falls back to the playing search.

use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::solve::{ProofTable, Solver};
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

    /// Tries to prove a win in `position` by `deadline`; `None` when the position is too big,
    /// lost, or not proven in time (or `stop` was set).
    pub fn prove_win(
        &mut self,
        position: &Position,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Option<ProvenWin> {
        let stones = position
            .diagram()
            .squares
            .iter()
            .filter(|square| square.is_some())
            .count();
        if stones > MAX_STONES || position.is_game_over() {
            return None;
        }
        self.prepare(position.rules());
        let (_, table) = self.table.as_mut()?;
        let solution = Solver::new(table, stop)
            .with_deadline(deadline)
            .solve(position, false);
        if solution.wins != Some(true) {
            return None;
        }
        Some(ProvenWin {
            best: solution.best()?,
            mate_in: u32::from(solution.plies?).div_ceil(2),
            nodes: solution.nodes,
        })
    }
}
