//! Exact values for the page, as chess boards show tablebase results: in a position small
//! enough, each legal move proven to win or lose, with the length of its proof. The solver runs
//! apart from the game's thread, one position at a time, within a time limit.

use crate::exact::max_stones;
use crate::rules::position::Position;
use crate::solve::{ProofTable, Solver};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long one position's moves may take to prove, all of them together.
pub const TIME: Duration = Duration::from_secs(3);

/// The proof table's size in MB, kept between requests so that neighbouring positions prove
/// faster.
const TABLE_MB: usize = 64;

/// What is known of one legal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The move.
    pub r#move: String,
    /// `win` or `loss` for the side to move, `unknown` when not proven in time.
    pub result: &'static str,
    /// Plies to the game's end along the proof (a forced win within that many plies; for a
    /// loss, the longest resistance the proof met), when proven.
    pub plies: Option<u16>,
}

/// The exact values of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Values {
    /// Whether the side to move wins, when proven.
    pub wins: Option<bool>,
    /// Each legal move.
    pub moves: Vec<MoveValue>,
    /// Why nothing was tried, when nothing was.
    pub why_not: Option<String>,
}

/// The table shared by every request; `None` when it could not be allocated.
fn table() -> &'static Mutex<Option<ProofTable>> {
    static TABLE: OnceLock<Mutex<Option<ProofTable>>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(ProofTable::new(TABLE_MB).ok()))
}

/// Proves each legal move of `position` within [`TIME`], if it has few enough stones for its
/// board to be worth trying.
pub fn values(position: &Position) -> Values {
    let rules = position.rules();
    let area = usize::from(rules.width()) * usize::from(rules.height());
    let stones = position.stone_total() as usize;
    let limit = max_stones(area, TIME);
    if stones > limit {
        return Values {
            wins: None,
            moves: Vec::new(),
            why_not: Some(format!(
                "{stones} stones: exact values are tried from {limit} stones down on this board"
            )),
        };
    }
    let mut guard = table().lock().unwrap_or_else(|p| p.into_inner());
    let Some(table) = guard.as_mut() else {
        return Values {
            wins: None,
            moves: Vec::new(),
            why_not: Some(format!("no memory for a {TABLE_MB} MB proof table")),
        };
    };
    let stop = AtomicBool::new(false);
    let deadline = Instant::now() + TIME;
    let mut moves = Vec::new();
    for mv in position.legal_moves() {
        let mut child = *position;
        child.play_unchecked(mv);
        // The move wins when the opponent, to move after it, loses.
        let solution = Solver::new(table, &stop)
            .with_deadline(deadline)
            .solve(&child, false);
        let (result, plies) = match solution.wins {
            Some(false) => ("win", solution.plies.map(|p| u16::from(p) + 1)),
            Some(true) => ("loss", solution.plies.map(|p| u16::from(p) + 1)),
            None => ("unknown", None),
        };
        moves.push(MoveValue {
            r#move: mv.to_string(),
            result,
            plies,
        });
    }
    let wins = if moves.iter().any(|m| m.result == "win") {
        Some(true)
    } else if moves.iter().all(|m| m.result == "loss") {
        Some(false)
    } else {
        None
    };
    Values {
        wins,
        moves,
        why_not: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Opening};

    #[test]
    fn every_move_of_a_small_position_is_proven() {
        // Black to move on 4x4 under turning: two paths from a1 to c3, both legal.
        let position =
            Position::from_fen("4/1w2/w1w1/bw2 b", Opening::Traditional, Capture::Turning).unwrap();
        let values = values(&position);
        assert_eq!(values.why_not, None);
        assert_eq!(values.moves.len(), position.legal_moves().len());
        assert!(
            values.moves.iter().all(|m| m.result != "unknown"),
            "{values:?}"
        );
        assert!(values.wins.is_some());
        let big = Position::start(crate::rules::Rules::default()).unwrap();
        assert!(super::values(&big).why_not.unwrap().contains("64 stones"));
    }
}
