//! `solve`: the exact solver, with a time or node budget, interruptible with Ctrl-C.

use crate::limit::PyLimit;
use crate::rules::{PyMove, PyPosition};
use crate::{error, interruptible};
use konane::arbiter::time_control::TimeControl;
use konane::solve::report::hash_mb_within;
use konane::solve::{MoveResult, ProofTable, Solver};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the solver proved of a position.
#[pyclass(name = "Solution", module = "konane", frozen, get_all)]
pub struct PySolution {
    /// `win` or `loss` for the side to move, or `unknown` when the budget ran out first.
    result: String,
    /// The winner (`black` or `white`) when proven, else None.
    winner: Option<String>,
    /// The moves proven to win (all of them when `all_moves`, else the first found).
    winning_moves: Vec<PyMove>,
    /// A winning move if there is one, else a move (every move loses), None with no move.
    best: Option<PyMove>,
    /// Each root `Move` with `win`, `loss` or `unknown` (a move's text finds it too).
    moves: Py<PyDict>,
    /// Plies to the end along the proof (a bound on a win's length), when proven.
    plies: Option<u8>,
    /// Nodes searched.
    nodes: u64,
    /// Seconds taken.
    seconds: f64,
}

#[pymethods]
impl PySolution {
    /// True when the result is proven (`win` or `loss`).
    #[getter]
    fn proven(&self) -> bool {
        self.result != "unknown"
    }

    fn __repr__(&self) -> String {
        let best = self
            .best
            .map_or("None".to_string(), |mv| format!("'{}'", mv.0));
        format!(
            "Solution(result='{}', best={best}, nodes={}, seconds={:.3})",
            self.result, self.nodes, self.seconds
        )
    }
}

/// Solves `position` exactly: is it a win or a loss for the side to move, and which moves
/// win. `limit`, a `Limit` of `movetime` (seconds) or `nodes`, bounds the work (the result is
/// `unknown` when it runs out); Ctrl-C stops it with `KeyboardInterrupt`. `hash_mb` sizes the
/// proof table (by default from the number of stones, no larger than the limit can use: a big
/// fresh table costs its first writes, which a short solve cannot afford). With `all_moves` every root move is proven, else the solve ends
/// at the first winning move. `threads` search together, sharing the table (by default one).
#[pyfunction]
#[pyo3(signature = (position, limit = None, *, hash_mb = None, all_moves = true, threads = 1))]
pub fn solve(
    py: Python<'_>,
    position: PyPosition,
    limit: Option<PyLimit>,
    hash_mb: Option<usize>,
    all_moves: bool,
    threads: usize,
) -> PyResult<PySolution> {
    if !(1..=1024).contains(&threads) {
        return Err(error(
            py,
            "KonaneError",
            format!("solve: threads must be 1 to 1024, not {threads}"),
        ));
    }
    let position = position.position;
    let (time, nodes) = match limit.map(|limit| limit.time_control) {
        None => (None, None),
        Some(TimeControl::MoveTime(time)) => (Some(time), None),
        Some(TimeControl::Nodes(nodes)) => (None, Some(nodes)),
        Some(TimeControl::Depth(_) | TimeControl::Clock { .. }) => {
            return Err(PyValueError::new_err(
                "solve: a Limit of movetime or nodes bounds a solve, not depth or clocks",
            ));
        }
    };
    let megabytes = hash_mb.unwrap_or_else(|| hash_mb_within(&position, time, nodes));
    let table = ProofTable::new(megabytes).map_err(|e| error(py, "KonaneError", e))?;
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let watched = &stop;
    let solution = interruptible(py, &stop, || {
        let mut solver = Solver::new(&table, watched).with_threads(threads);
        if let Some(time) = time {
            solver = solver.with_deadline(started + time);
        }
        if let Some(budget) = nodes {
            solver = solver.with_progress(Duration::from_millis(5), move |progress| {
                if progress.nodes >= budget {
                    watched.store(true, Ordering::SeqCst);
                }
            });
        }
        solver.solve(&position, all_moves)
    })?;
    let word = |result: MoveResult| match result {
        MoveResult::Wins => "win",
        MoveResult::Loses => "loss",
        MoveResult::Unknown => "unknown",
    };
    let result = match solution.wins {
        Some(true) => "win",
        Some(false) => "loss",
        None => "unknown",
    };
    let side = position.side_to_move();
    let winner = solution.wins.map(|wins| {
        let colour = if wins { side } else { side.opponent() };
        colour.name().to_string()
    });
    let moves = PyDict::new(py);
    for &(mv, result) in &solution.moves {
        moves.set_item(PyMove(mv), word(result))?;
    }
    Ok(PySolution {
        result: result.to_string(),
        winner,
        winning_moves: solution.winning_moves().into_iter().map(PyMove).collect(),
        best: solution.wins.and(solution.best()).map(PyMove),
        moves: moves.unbind(),
        plies: solution.plies,
        nodes: solution.nodes,
        seconds: started.elapsed().as_secs_f64(),
    })
}
