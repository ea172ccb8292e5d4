//! `Move`: a move of the rules library as a Python class, and moves given as text.

use crate::error;
use konane::rules::{Move, Square};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A move in the notation of RULES.md: a removal (`d5`) or a jump (`f5d5`, `b5d5d7`).
#[pyclass(name = "Move", module = "konane", frozen, from_py_object)]
#[derive(Clone, Copy)]
pub struct PyMove(pub Move);

#[pymethods]
impl PyMove {
    /// Reads a move; raises `ParseError` naming what is wrong.
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<PyMove> {
        parse_move(py, text).map(PyMove)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.0)
    }

    /// Equal to the same move, or to its text.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(other) = other.extract::<PyMove>() {
            return other.0 == self.0;
        }
        other
            .extract::<String>()
            .is_ok_and(|text| text == self.0.to_string())
    }

    /// The hash of the move's text, so that a move and its text find each other in a set.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, &self.0.to_string()).hash()
    }

    /// Pickles as its text.
    fn __getnewargs__(&self) -> (String,) {
        (self.0.to_string(),)
    }

    /// A move never changes: its copy is itself.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    /// The square the move starts from (the square emptied, for a removal).
    #[getter(from_square)]
    fn start_square(&self) -> String {
        self.0.from().to_string()
    }

    /// Where the stone lands at the end of each leg (empty for a removal).
    #[getter]
    fn landings(&self) -> Vec<String> {
        self.0.landings().iter().map(Square::to_string).collect()
    }

    /// True for an opening removal.
    #[getter]
    fn is_removal(&self) -> bool {
        self.0.is_removal()
    }

    /// How many stones the move captures (0 for a removal).
    #[getter]
    fn captures(&self) -> u8 {
        self.0.jump_count()
    }
}

pub fn parse_move(py: Python<'_>, text: &str) -> PyResult<Move> {
    text.trim()
        .parse::<Move>()
        .map_err(|e| error(py, "ParseError", e.to_string()))
}

/// A move given as a `Move` or as its text.
pub fn move_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(mv) = value.extract::<PyMove>() {
        return Ok(mv.0);
    }
    match value.extract::<String>() {
        Ok(text) => parse_move(py, &text),
        Err(_) => Err(PyTypeError::new_err(format!(
            "a move is a Move or its text such as 'f5d5', not {}",
            value.get_type().name()?
        ))),
    }
}
