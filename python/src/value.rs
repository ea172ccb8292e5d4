//! `value`: a position's value as a combinatorial game, region by region.

use crate::rules::PyPosition;
use crate::{error, interruptible};
use konane::cgt::Outcome;
use konane::value::{ValueError, Values};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;

// The signature's default is written out so that Python can show it; it is the library's.
const _: () = assert!(konane::value::DEFAULT_LIMIT == 30_000_000);

/// A position's value as a combinatorial game (Black is Left) and its regions' values.
#[pyclass(name = "Value", module = "konane", frozen, get_all)]
pub struct PyValue {
    /// The value as CGSuite writes it: `0`, `1/2`, `*`, `^`, `+-1`, `{0||0|-1}`.
    value: String,
    /// `black` or `white` when that side wins whoever starts, `next` when the player to
    /// move wins, `previous` when the player to move loses.
    outcome: String,
    /// Who wins with the side to move starting: `black` or `white`.
    winner: String,
    /// Each independent region, in order of its lowest square: its stones' squares and its
    /// value.
    regions: Vec<(Vec<String>, String)>,
    /// Distinct positions valued.
    positions: u64,
}

#[pymethods]
impl PyValue {
    fn __repr__(&self) -> String {
        format!(
            "Value(value='{}', outcome='{}', regions={})",
            self.value,
            self.outcome,
            self.regions.len()
        )
    }
}

/// The value of `position` as a combinatorial game and of each independent region, valuing
/// at most `limit` distinct positions, some 60 bytes each (beyond: `KonaneError`); Ctrl-C raises
/// `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (position, *, limit = 30_000_000))]
pub fn value(py: Python<'_>, position: PyPosition, limit: u64) -> PyResult<PyValue> {
    if limit == 0 {
        return Err(PyValueError::new_err("value: limit must be at least 1"));
    }
    let position = position.position;
    let stop = AtomicBool::new(false);
    let watched = &stop;
    let mut values = Values::new(limit);
    let valued = interruptible(py, &stop, || {
        let valued = values.value(&position, watched)?;
        let games = values.games();
        let regions = valued
            .regions
            .iter()
            .map(|region| {
                let squares = region.squares.iter().map(|s| s.to_string()).collect();
                (squares, games.notation(region.value))
            })
            .collect::<Vec<_>>();
        Ok::<_, ValueError>((
            games.notation(valued.total),
            valued.outcome,
            valued.winner,
            regions,
        ))
    })?;
    let (text, outcome, winner, regions) =
        valued.map_err(|e| error(py, "KonaneError", format!("value: {e}")))?;
    let outcome = match outcome {
        Outcome::Left => "black",
        Outcome::Right => "white",
        Outcome::Next => "next",
        Outcome::Previous => "previous",
    };
    Ok(PyValue {
        value: text,
        outcome: outcome.to_string(),
        winner: winner.name().to_string(),
        regions,
        positions: values.positions(),
    })
}
