//! `Limit`: how long an engine or the solver may think, one type for every call that asks
//! (`Engine.play`, `Engine.analyse`, `play_match`, `solve`), as python-chess has one.

use konane::arbiter::time_control::{self, TimeControl};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Duration;

/// How long to think: exactly one of `movetime` (seconds), `depth` (plies), `nodes`, or the
/// clocks `black_time` and `white_time` (seconds left) with `increment` (seconds a move).
/// `float("inf")` is no limit; NaN, negatives and a depth or node count of 0 raise
/// `ValueError`. For a match the clocks are where both players start, so they must be equal.
#[pyclass(name = "Limit", module = "konane", frozen, from_py_object)]
#[derive(Clone, Debug, PartialEq)]
pub struct PyLimit {
    /// The time control the limit names, checked.
    pub time_control: TimeControl,
    /// Black's and White's time left, for a clock.
    pub clocks: Option<[Duration; 2]>,
}

/// Seconds as a Python float.
fn float(duration: Duration) -> f64 {
    duration.as_secs_f64()
}

#[pymethods]
impl PyLimit {
    #[new]
    #[pyo3(signature = (*, movetime = None, depth = None, nodes = None, black_time = None, white_time = None, increment = 0.0))]
    fn new(
        movetime: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        black_time: Option<f64>,
        white_time: Option<f64>,
        increment: f64,
    ) -> PyResult<PyLimit> {
        let clock = black_time.is_some() || white_time.is_some();
        let given = [movetime.is_some(), depth.is_some(), nodes.is_some(), clock];
        if given.iter().filter(|&&g| g).count() != 1 {
            return Err(PyValueError::new_err(
                "Limit: give exactly one of movetime, depth, nodes, or black_time and white_time",
            ));
        }
        let (time_control, clocks) = match (movetime, depth, nodes, black_time, white_time) {
            (Some(time), ..) => (TimeControl::MoveTime(seconds("movetime", time)?), None),
            (_, Some(depth), ..) => (TimeControl::Depth(depth), None),
            (_, _, Some(nodes), ..) => (TimeControl::Nodes(nodes), None),
            (.., Some(black), Some(white)) => {
                let clocks = [seconds("black_time", black)?, seconds("white_time", white)?];
                let increment = seconds("increment", increment)?;
                let control = TimeControl::Clock {
                    base: clocks[0],
                    increment,
                };
                (control, Some(clocks))
            }
            _ => {
                return Err(PyValueError::new_err(
                    "Limit: a clock needs both black_time and white_time",
                ));
            }
        };
        let time_control = time_control
            .checked()
            .map_err(|e| PyValueError::new_err(format!("Limit: {e}")))?;
        Ok(PyLimit {
            time_control,
            clocks,
        })
    }

    /// Seconds a move, for a move-time limit.
    #[getter]
    fn movetime(&self) -> Option<f64> {
        match self.time_control {
            TimeControl::MoveTime(time) => Some(float(time)),
            _ => None,
        }
    }

    /// Plies, for a depth limit.
    #[getter]
    fn depth(&self) -> Option<u32> {
        match self.time_control {
            TimeControl::Depth(depth) => Some(depth),
            _ => None,
        }
    }

    /// Nodes, for a node limit.
    #[getter]
    fn nodes(&self) -> Option<u64> {
        match self.time_control {
            TimeControl::Nodes(nodes) => Some(nodes),
            _ => None,
        }
    }

    /// Black's seconds left, for a clock.
    #[getter]
    fn black_time(&self) -> Option<f64> {
        self.clocks.map(|clocks| float(clocks[0]))
    }

    /// White's seconds left, for a clock.
    #[getter]
    fn white_time(&self) -> Option<f64> {
        self.clocks.map(|clocks| float(clocks[1]))
    }

    /// Seconds added after each move, for a clock (0 otherwise).
    #[getter]
    fn increment(&self) -> f64 {
        match self.time_control {
            TimeControl::Clock { increment, .. } => float(increment),
            _ => 0.0,
        }
    }

    /// The keyword arguments that make this limit again.
    fn _keywords<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let keywords = PyDict::new(py);
        match (self.time_control, self.clocks) {
            (TimeControl::MoveTime(time), _) => keywords.set_item("movetime", float(time))?,
            (TimeControl::Depth(depth), _) => keywords.set_item("depth", depth)?,
            (TimeControl::Nodes(nodes), _) => keywords.set_item("nodes", nodes)?,
            (TimeControl::Clock { increment, .. }, clocks) => {
                let [black, white] = clocks.unwrap_or_default();
                keywords.set_item("black_time", float(black))?;
                keywords.set_item("white_time", float(white))?;
                keywords.set_item("increment", float(increment))?;
            }
        }
        Ok(keywords)
    }

    /// Pickles and copies as its keyword arguments.
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<((), Bound<'py, PyDict>)> {
        Ok(((), self._keywords(py)?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyLimit>()
            .is_ok_and(|other| *other.get() == *self)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.__repr__(py)?.into_pyobject(py)?.hash()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let words: Vec<String> = self
            ._keywords(py)?
            .iter()
            .map(|(key, value)| Ok(format!("{key}={}", value.repr()?)))
            .collect::<PyResult<_>>()?;
        Ok(format!("Limit({})", words.join(", ")))
    }
}

impl PyLimit {
    /// The limit as a match's time control: both clocks must start alike.
    pub fn for_match(&self) -> PyResult<TimeControl> {
        match self.clocks {
            Some([black, white]) if black != white => Err(PyValueError::new_err(format!(
                "Limit: a match starts both clocks alike, and black_time is {} s, white_time {} s",
                float(black),
                float(white)
            ))),
            _ => Ok(self.time_control),
        }
    }
}

/// `value` seconds, decoded as every face decodes them: `inf` is no limit (a day), NaN and
/// negatives raise `ValueError` naming `what`.
pub fn seconds(what: &str, value: f64) -> PyResult<Duration> {
    time_control::seconds(what, value).map_err(|e| PyValueError::new_err(e.to_string()))
}
