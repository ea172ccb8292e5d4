//! `LegalMoves`: the legal moves of a position as python-chess gives them, a sized sequence
//! that counts without making the moves and makes them only when they are read.

use crate::moves::{PyMove, move_of};
use konane::rules::{Move, Position};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::OnceLock;

/// The legal moves of the side to move, made on first use: `len()`, `in` and `bool()` need
/// none made; indexing, slicing and iterating make them once.
#[pyclass(name = "LegalMoves", module = "konane", frozen, sequence)]
pub struct PyLegalMoves {
    position: Position,
    moves: OnceLock<Vec<Move>>,
}

impl PyLegalMoves {
    /// The legal moves of `position`.
    pub fn of(position: Position) -> PyLegalMoves {
        PyLegalMoves {
            position,
            moves: OnceLock::new(),
        }
    }

    fn moves(&self) -> &[Move] {
        self.moves.get_or_init(|| self.position.legal_moves())
    }

    fn list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.moves().iter().map(|&mv| PyMove(mv)))
    }
}

#[pymethods]
impl PyLegalMoves {
    fn __len__(&self) -> usize {
        match self.moves.get() {
            Some(moves) => moves.len(),
            None => self.position.count_moves() as usize,
        }
    }

    fn __bool__(&self) -> bool {
        !self.position.is_game_over()
    }

    /// How many legal moves there are.
    fn count(&self) -> usize {
        self.__len__()
    }

    /// True when `move` (a `Move` or its text) is legal here.
    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> bool {
        move_of(py, r#move).is_ok_and(|mv| self.position.check(mv).is_ok())
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // A list reads indices and slices as Python does, with its errors.
        self.list(py)?.as_any().get_item(index)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.list(py)?.as_any().try_iter().map(Bound::into_any)
    }

    /// Equal to a sequence of the same moves in the same order (moves or their texts).
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(other) = other.cast::<PyLegalMoves>() {
            return Ok(other.get().moves() == self.moves());
        }
        let Ok(items) = other.try_iter() else {
            return Ok(false);
        };
        let items: Vec<Bound<'_, PyAny>> = items.collect::<PyResult<_>>()?;
        let mine = self.moves();
        Ok(items.len() == mine.len()
            && items
                .iter()
                .zip(mine)
                .all(|(item, &mv)| move_of(py, item).is_ok_and(|other| other == mv)))
    }

    fn __repr__(&self) -> String {
        let texts: Vec<String> = self.moves().iter().map(Move::to_string).collect();
        format!("<LegalMoves ({}) {}>", texts.len(), texts.join(", "))
    }
}
