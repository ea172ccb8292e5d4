//! `Move` and `Position`: the rules library as Python classes.

use crate::error;
use konane::rules::{Capture, Color, Move, Opening, Phase, Position, Rules, Square, Symmetry};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

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

fn parse_move(py: Python<'_>, text: &str) -> PyResult<Move> {
    text.trim()
        .parse::<Move>()
        .map_err(|e| error(py, "ParseError", e.to_string()))
}

/// A move given as a `Move` or as its text.
fn move_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(mv) = value.extract::<PyMove>() {
        return Ok(mv.0);
    }
    match value.extract::<String>() {
        Ok(text) => parse_move(py, &text),
        Err(_) => Err(error(
            py,
            "ParseError",
            format!(
                "a move is a Move or its text such as 'f5d5', not {}",
                value.get_type().name()?
            ),
        )),
    }
}

fn colour_of(py: Python<'_>, name: &str) -> PyResult<Color> {
    match name {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        other => Err(error(
            py,
            "ParseError",
            format!("unknown colour '{other}': expected 'black' or 'white'"),
        )),
    }
}

fn square_of(py: Python<'_>, text: &str) -> PyResult<Square> {
    text.trim()
        .parse::<Square>()
        .map_err(|e| error(py, "ParseError", e.to_string()))
}

/// A Konane position with the moves played on it since it was made, which `undo` takes back.
#[pyclass(name = "Position", module = "konane", from_py_object)]
#[derive(Clone)]
pub struct PyPosition {
    pub position: Position,
    history: Vec<(Position, Move)>,
}

impl PyPosition {
    /// A position with no moves to take back.
    pub fn of(position: Position) -> PyPosition {
        PyPosition {
            position,
            history: Vec::new(),
        }
    }
}

/// The rules named by their texts; the error names the bad one.
pub fn rules_of(py: Python<'_>, size: &str, opening: &str, capture: &str) -> PyResult<Rules> {
    let (opening, capture) = rule_options(py, opening, capture)?;
    let base = Rules::new(8, 8, opening, capture).expect("8x8 fits every rule");
    base.with_size_text(size)
        .map_err(|e| error(py, "ParseError", e))
}

fn rule_options(py: Python<'_>, opening: &str, capture: &str) -> PyResult<(Opening, Capture)> {
    let opening = opening
        .parse::<Opening>()
        .map_err(|e| error(py, "ParseError", e.to_string()))?;
    let capture = capture
        .parse::<Capture>()
        .map_err(|e| error(py, "ParseError", e.to_string()))?;
    Ok((opening, capture))
}

#[pymethods]
impl PyPosition {
    /// The start position of a `size` board ("WxH", each side 2 to 26) under the given
    /// opening (`traditional` or `any`) and capture rule (`straight`, `single`, `turning`).
    #[new]
    #[pyo3(signature = (size = "8x8", opening = "traditional", capture = "straight"))]
    fn new(py: Python<'_>, size: &str, opening: &str, capture: &str) -> PyResult<PyPosition> {
        let rules = rules_of(py, size, opening, capture)?;
        let position =
            Position::start(rules).map_err(|e| error(py, "ParseError", e.to_string()))?;
        Ok(PyPosition::of(position))
    }

    /// The position a position string shows (its size is its own).
    #[staticmethod]
    #[pyo3(signature = (text, opening = "traditional", capture = "straight"))]
    fn from_string(
        py: Python<'_>,
        text: &str,
        opening: &str,
        capture: &str,
    ) -> PyResult<PyPosition> {
        let (opening, capture) = rule_options(py, opening, capture)?;
        let position = Position::from_fen(text, opening, capture)
            .map_err(|e| error(py, "ParseError", e.to_string()))?;
        Ok(PyPosition::of(position))
    }

    /// The position string.
    fn __str__(&self) -> String {
        self.position.fen()
    }

    fn __repr__(&self) -> String {
        let rules = self.position.rules();
        format!(
            "Position.from_string('{}', opening='{}', capture='{}')",
            self.position.fen(),
            rules.opening,
            rules.capture
        )
    }

    /// Equal positions have the same stones, side to move and rules (the moves that led
    /// there do not count).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyPosition>()
            .is_ok_and(|other| other.position == self.position)
    }

    fn __hash__(&self) -> u64 {
        self.position.hash()
    }

    /// A copy, with its own moves to take back.
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    /// The board drawn as text, rank numbers on the left and files below.
    fn diagram(&self) -> String {
        self.position.pretty()
    }

    /// Files of the board.
    #[getter]
    fn width(&self) -> u8 {
        self.position.rules().width()
    }

    /// Ranks of the board.
    #[getter]
    fn height(&self) -> u8 {
        self.position.rules().height()
    }

    /// The board size, `WxH`.
    #[getter]
    fn size(&self) -> String {
        let rules = self.position.rules();
        format!("{}x{}", rules.width(), rules.height())
    }

    /// The opening rule: `traditional` or `any`.
    #[getter]
    fn opening(&self) -> String {
        self.position.rules().opening.to_string()
    }

    /// The capture rule: `straight`, `single` or `turning`.
    #[getter]
    fn capture(&self) -> String {
        self.position.rules().capture.to_string()
    }

    /// The side to move: `black` or `white`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.position.side_to_move().name()
    }

    /// `black-removal`, `white-removal` or `jumps`.
    #[getter]
    fn phase(&self) -> &'static str {
        match self.position.phase() {
            Phase::BlackRemoval => "black-removal",
            Phase::WhiteRemoval => "white-removal",
            Phase::Jumps => "jumps",
        }
    }

    /// The moves played on this object since it was made, oldest first.
    #[getter]
    fn moves(&self) -> Vec<PyMove> {
        self.history.iter().map(|&(_, mv)| PyMove(mv)).collect()
    }

    /// The legal moves of the side to move.
    fn legal_moves(&self) -> Vec<PyMove> {
        self.position
            .legal_moves()
            .into_iter()
            .map(PyMove)
            .collect()
    }

    /// True when `move` (a `Move` or its text) is legal here; text that is no move is False.
    #[pyo3(name = "is_legal")]
    fn is_legal(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> bool {
        move_of(py, mv).is_ok_and(|mv| self.position.check(mv).is_ok())
    }

    /// Plays `move` (a `Move` or its text). Raises `ParseError` for text that is no move and
    /// `IllegalMoveError`, with the rules' reason, for a move not legal here.
    fn play(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_of(py, mv)?;
        let before = self.position;
        self.position
            .play(mv)
            .map_err(|why| error(py, "IllegalMoveError", format!("{mv} is not legal: {why}")))?;
        self.history.push((before, mv));
        Ok(())
    }

    /// Takes back the last move played on this object and returns it; raises `IndexError`
    /// when there is none.
    fn undo(&mut self) -> PyResult<PyMove> {
        let (before, mv) = self
            .history
            .pop()
            .ok_or_else(|| PyIndexError::new_err("undo: no move to take back"))?;
        self.position = before;
        Ok(PyMove(mv))
    }

    /// True when the side to move has no legal move (and so has lost).
    fn is_over(&self) -> bool {
        self.position.is_game_over()
    }

    /// `black` or `white` once the game is over, else None.
    fn winner(&self) -> Option<&'static str> {
        self.position.winner().map(Color::name)
    }

    /// The stone on `square` (`black`, `white`) or None; raises `ParseError` for a square
    /// that is not on the board.
    fn stone_at(&self, py: Python<'_>, square: &str) -> PyResult<Option<&'static str>> {
        let at = square_of(py, square)?;
        let rules = self.position.rules();
        if !rules.contains(at) {
            return Err(error(
                py,
                "ParseError",
                format!(
                    "{at} is not on a {}x{} board",
                    rules.width(),
                    rules.height()
                ),
            ));
        }
        Ok(self.position.stone_on(at).map(Color::name))
    }

    /// The squares holding stones of `colour` (`black` or `white`).
    fn stones(&self, py: Python<'_>, colour: &str) -> PyResult<Vec<String>> {
        let colour = colour_of(py, colour)?;
        let rules = self.position.rules();
        Ok((0..rules.area())
            .map(|index| rules.square(index))
            .filter(|&square| self.position.stone_on(square) == Some(colour))
            .map(|square| square.to_string())
            .collect())
    }

    /// The number of leaf positions `depth` plies ahead (the opening removals count).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let position = self.position;
        py.detach(|| position.perft(depth))
    }

    /// `perft` split by first move: {move text: count}.
    fn divide<'py>(&self, py: Python<'py>, depth: u32) -> PyResult<Bound<'py, PyDict>> {
        let position = self.position;
        let counts = py.detach(|| position.divide(depth));
        let dict = PyDict::new(py);
        for (mv, count) in counts {
            dict.set_item(mv.to_string(), count)?;
        }
        Ok(dict)
    }

    /// The 64-bit hash of the position (the one the engine uses).
    fn key(&self) -> u64 {
        self.position.hash()
    }

    /// The image under `symmetry`, one of `identity`, `mirror-files`, `mirror-ranks`,
    /// `half-turn`, `transpose`, `anti-transpose`, `quarter-turn-left`,
    /// `quarter-turn-right`. A symmetry that swaps the squares' colours swaps the stones and
    /// the side to move too; the image is worth the same to the side to move.
    fn image(&self, py: Python<'_>, symmetry: &str) -> PyResult<PyPosition> {
        let symmetry = symmetry
            .parse::<Symmetry>()
            .map_err(|e| error(py, "ParseError", e.to_string()))?;
        self.position
            .image(symmetry)
            .map(PyPosition::of)
            .map_err(|e| error(py, "KonaneError", e.to_string()))
    }

    /// Every image under the board's symmetries as (symmetry name, position), the identity
    /// first; during the opening removals only the colour-keeping ones.
    fn images(&self) -> Vec<(String, PyPosition)> {
        self.position
            .images()
            .into_iter()
            .map(|(symmetry, image)| (symmetry.name().to_string(), PyPosition::of(image)))
            .collect()
    }
}
