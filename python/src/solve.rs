//! `solve`: the exact solver, with a time or node budget, interruptible with Ctrl-C.

use crate::limit::PyLimit;
use crate::moves::PyMove;
use crate::rules::PyPosition;
use crate::{error, interruptible};
use konane::arbiter::time_control::TimeControl;
use konane::rules::Rules;
use konane::solve::report::hash_mb_within;
use konane::solve::{Method, MoveResult, ProofTable, Searching, Solver};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
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

/// A table of proven results kept across solves (`solve(..., table=)`), as the command
/// line's `--table` keeps one across runs: it holds positions of one rule set, the first it
/// is used with; `save` writes it to a file and `ProofTable.load` reads it back, with the
/// proof-number search's numbers of unproven positions, so that a resumed solve goes on where
/// it stopped.
#[pyclass(name = "ProofTable", module = "konane", frozen)]
pub struct PyProofTable {
    table: Arc<ProofTable>,
    /// The rules of the positions it holds, once it holds any.
    rules: Mutex<Option<Rules>>,
}

impl PyProofTable {
    /// The table, for solving a position of `rules`: refused when it holds another rule set's.
    fn for_rules(&self, rules: Rules) -> PyResult<Arc<ProofTable>> {
        let mut held = self.rules.lock().unwrap_or_else(|p| p.into_inner());
        match *held {
            Some(own) if own != rules => Err(PyValueError::new_err(format!(
                "solve: this table holds positions of {own}, and the position is {rules}"
            ))),
            _ => {
                *held = Some(rules);
                Ok(self.table.clone())
            }
        }
    }
}

#[pymethods]
impl PyProofTable {
    /// A table of `hash_mb` MB (rounded down to a power of two of buckets).
    #[new]
    #[pyo3(signature = (hash_mb = 256))]
    fn new(py: Python<'_>, hash_mb: usize) -> PyResult<PyProofTable> {
        let table = ProofTable::new(hash_mb).map_err(|e| error(py, "KonaneError", e))?;
        Ok(PyProofTable {
            table: Arc::new(table),
            rules: Mutex::new(None),
        })
    }

    /// Reads a table `save` wrote for positions like `position` (its rules), at its saved
    /// size or resized to `hash_mb` (its proof-number search numbers come back at the saved
    /// size only).
    #[staticmethod]
    #[pyo3(signature = (path, position, hash_mb = None))]
    fn load(
        py: Python<'_>,
        path: PathBuf,
        position: PyPosition,
        hash_mb: Option<usize>,
    ) -> PyResult<PyProofTable> {
        let rules = position.position.rules();
        let table = py
            .detach(|| ProofTable::load(&path, rules, hash_mb))
            .map_err(|e| error(py, "KonaneError", e))?;
        Ok(PyProofTable {
            table: Arc::new(table),
            rules: Mutex::new(Some(rules)),
        })
    }

    /// Writes the table to `path` (whole, or not at all), for `ProofTable.load`.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let Some(rules) = *self.rules.lock().unwrap_or_else(|p| p.into_inner()) else {
            return Err(error(
                py,
                "KonaneError",
                "save: the table holds no position yet (solve with it first)",
            ));
        };
        let table = self.table.clone();
        py.detach(|| table.save(&path, rules))
            .map_err(|e| error(py, "KonaneError", e))
    }

    /// Results stored.
    #[getter]
    fn stored(&self) -> u64 {
        self.table.stored()
    }

    /// Its size in MB.
    #[getter]
    fn megabytes(&self) -> usize {
        self.table.bytes() >> 20
    }

    fn __repr__(&self) -> String {
        format!(
            "ProofTable({} MB, {} results stored)",
            self.megabytes(),
            self.stored()
        )
    }
}

/// Solves `position` exactly: is it a win or a loss for the side to move, and which moves
/// win. `limit`, a `Limit` of `movetime` (seconds) or `nodes`, bounds the work (the result is
/// `unknown` when it runs out); Ctrl-C stops it with `KeyboardInterrupt`. `hash_mb` sizes the
/// proof table (by default from the number of stones, no larger than the limit can use: a big
/// fresh table costs its first writes, which a short solve cannot afford); `table`, a
/// `ProofTable`, keeps what is proven for later solves instead. With `all_moves` every root
/// move is proven, else the solve ends at the first winning move. `threads` search together,
/// sharing the table (by default one); `method`, "depth-first" or "proof-number", chooses the
/// search (by default proof numbers on boards of four rows or columns or fewer, which use one
/// thread, as `konane-engine solve` does).
#[pyfunction]
#[pyo3(signature = (position, limit = None, *, hash_mb = None, table = None, all_moves = true, threads = 1, method = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    position: PyPosition,
    limit: Option<PyLimit>,
    hash_mb: Option<usize>,
    table: Option<PyRef<'_, PyProofTable>>,
    all_moves: bool,
    threads: usize,
    method: Option<String>,
) -> PyResult<PySolution> {
    if !(1..=1024).contains(&threads) {
        return Err(error(
            py,
            "KonaneError",
            format!("solve: threads must be 1 to 1024, not {threads}"),
        ));
    }
    let method = match method.as_deref().map(str::parse::<Method>) {
        None => None,
        Some(Ok(method)) => Some(method),
        Some(Err(message)) => return Err(error(py, "KonaneError", format!("solve: {message}"))),
    };
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
    let table = match (table, hash_mb) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "solve: give hash_mb or table, not both (a table has its size)",
            ));
        }
        (Some(kept), None) => kept.for_rules(position.rules())?,
        (None, megabytes) => {
            let megabytes = megabytes.unwrap_or_else(|| hash_mb_within(&position, time, nodes));
            Arc::new(ProofTable::new(megabytes).map_err(|e| error(py, "KonaneError", e))?)
        }
    };
    let table = &*table;
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let watched = &stop;
    let solution = interruptible(py, &stop, || {
        let mut solver = Solver::new(table, watched).with_searching(Searching { threads, method });
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
