//! `Position`: the rules library's position as a Python class (moves are in `moves.rs`).

use crate::draw;
use crate::legal::PyLegalMoves;
use crate::moves::{PyMove, move_of, parse_move};
use crate::{error, interruptible};
use konane::rules::{Capture, Color, Move, Opening, Phase, Position, Rules, Square, Symmetry};
use pyo3::exceptions::{PyIndexError, PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// What `Position._restore` takes to make a pickled position again: its first position
/// string, opening, capture rule and the moves played since.
type Restore = (String, String, String, Vec<String>);

/// How a game ended: the side to move had no legal move, and lost.
#[pyclass(name = "Outcome", module = "konane", frozen, get_all)]
pub struct PyOutcome {
    /// `black` or `white`.
    winner: &'static str,
    /// The side that had no move.
    loser: &'static str,
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(winner='{}', loser='{}': no legal move)",
            self.winner, self.loser
        )
    }
}

/// A perft depth from Python, which may be negative or huge.
fn perft_depth(depth: i64) -> PyResult<u32> {
    u32::try_from(depth)
        .map_err(|_| PyValueError::new_err(format!("depth must be 0 or more, not {depth}")))
}

/// Plies below which a perft is counted at once, in well under a second: above it, `stop` is
/// looked at between moves.
const BULK_DEPTH: u32 = 4;

/// `position.perft(depth)`, or `None` once `stop` is set.
fn stoppable_perft(position: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= BULK_DEPTH {
        return Some(position.perft(depth));
    }
    let mut total = 0;
    for mv in position.legal_moves() {
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let mut next = *position;
        next.play_unchecked(mv);
        total += stoppable_perft(&next, depth - 1, stop)?;
    }
    Some(total)
}

/// Position(size="8x8", opening="traditional", capture="straight"): the start position of a
/// `size` board ("WxH", each side 2 to 26; the `traditional` opening needs even sides, `any`
/// serves every size) under the opening rule (`traditional` or `any`) and the capture rule
/// (`straight`, `single`, `turning`). It keeps the moves played on it since it was made, which
/// `undo` takes back.
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

    /// Plays `mv`, to be taken back by `undo`; `IllegalMoveError` with the rules' reason.
    fn play_move(&mut self, py: Python<'_>, mv: Move) -> PyResult<()> {
        let before = self.position;
        self.position
            .play(mv)
            .map_err(|why| error(py, "IllegalMoveError", format!("{mv} is not legal: {why}")))?;
        self.history.push((before, mv));
        Ok(())
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
        let rules = rules_of(py, size.trim(), opening, capture)?;
        let position =
            Position::start(rules).map_err(|e| error(py, "ParseError", e.to_string()))?;
        Ok(PyPosition::of(position))
    }

    /// The position a position string shows (its size is its own). Without `opening`, a
    /// board whose sides are both even takes the `traditional` opening and any other `any`,
    /// the only one it can have, so that `Position.from_string(str(p))` gives `p` back.
    #[staticmethod]
    #[pyo3(signature = (text, opening = None, capture = "straight"))]
    fn from_string(
        py: Python<'_>,
        text: &str,
        opening: Option<&str>,
        capture: &str,
    ) -> PyResult<PyPosition> {
        let parse = |opening: &str| -> PyResult<Position> {
            let (opening, capture) = rule_options(py, opening, capture)?;
            Position::from_fen(text.trim(), opening, capture)
                .map_err(|e| error(py, "ParseError", e.to_string()))
        };
        let position = match opening {
            Some(opening) => parse(opening)?,
            None => {
                let any = parse("any")?;
                let rules = any.rules();
                if rules.width() % 2 == 0 && rules.height() % 2 == 0 {
                    parse("traditional")?
                } else {
                    any
                }
            }
        };
        Ok(PyPosition::of(position))
    }

    /// The position `moves` (texts) lead to from the position string `start`: how a pickled
    /// position is made again, with its moves to take back.
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        start: &str,
        opening: &str,
        capture: &str,
        moves: Vec<String>,
    ) -> PyResult<PyPosition> {
        let mut position = PyPosition::from_string(py, start, Some(opening), capture)?;
        for text in moves {
            let mv = parse_move(py, &text)?;
            position.play_move(py, mv)?;
        }
        Ok(position)
    }

    /// Pickles as its first position and the moves played on it since.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Restore)> {
        let restore = py.get_type::<PyPosition>().getattr("_restore")?;
        let first = self
            .history
            .first()
            .map_or(self.position, |&(first, _)| first);
        let rules = first.rules();
        let moves = self.history.iter().map(|(_, mv)| mv.to_string()).collect();
        Ok((
            restore,
            (
                first.fen(),
                rules.opening.to_string(),
                rules.capture.to_string(),
                moves,
            ),
        ))
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
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

    /// A position changes as moves are played, so it has no hash (as python-chess's `Board`):
    /// keep `str(position)` or `position.key()` in sets and dicts.
    fn __hash__(&self) -> PyResult<isize> {
        Err(PyTypeError::new_err(
            "unhashable type: 'Position' (it changes as moves are played): use str(position) or position.key()",
        ))
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

    /// The legal moves of the side to move, a `LegalMoves` sequence.
    fn legal_moves(&self) -> PyLegalMoves {
        PyLegalMoves::of(self.position)
    }

    /// How the game ended (an `Outcome`), or None while the side to move has a move.
    fn outcome(&self) -> Option<PyOutcome> {
        self.position.winner().map(|winner| PyOutcome {
            winner: winner.name(),
            loser: winner.opponent().name(),
        })
    }

    /// Plies played on this object since it was made (a position string does not say how
    /// many came before).
    #[getter]
    fn ply(&self) -> usize {
        self.history.len()
    }

    /// The last move played on this object; `IndexError` when there is none.
    fn peek(&self) -> PyResult<PyMove> {
        self.history
            .last()
            .map(|&(_, mv)| PyMove(mv))
            .ok_or_else(|| PyIndexError::new_err("peek: no move was played on this position"))
    }

    /// Why no game under the position's rules can reach it, in words (the rules library's
    /// necessary conditions: stones on their own colour of square, the removals, captures
    /// that split into alternating moves). Empty when none is broken.
    fn status(&self) -> Vec<String> {
        self.position
            .why_unreachable()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// True when `status()` finds no reason a game cannot reach the position.
    fn is_valid(&self) -> bool {
        self.status().is_empty()
    }

    /// The board in Unicode: `●` black, `○` white, `·` empty, ranks and files labelled.
    fn unicode(&self) -> String {
        draw::unicode(&self.position)
    }

    /// The board as an SVG picture, the last move marked: Jupyter shows it by itself.
    fn _repr_svg_(&self) -> String {
        draw::svg(&self.position, self.history.last().map(|&(_, mv)| mv))
    }

    fn _repr_html_(&self) -> String {
        format!("<div class=\"konane-position\">{}</div>", self._repr_svg_())
    }

    /// True when `move` (a `Move` or its text) is legal here; text that is no move is False.
    #[pyo3(signature = (r#move))]
    fn is_legal(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> bool {
        move_of(py, r#move).is_ok_and(|mv| self.position.check(mv).is_ok())
    }

    /// Plays `move` (a `Move` or its text). Raises `ParseError` for text that is no move and
    /// `IllegalMoveError`, with the rules' reason, for a move not legal here.
    #[pyo3(signature = (r#move))]
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_of(py, r#move)?;
        self.play_move(py, mv)
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
    /// Ctrl-C stops it with `KeyboardInterrupt`.
    fn perft(&self, py: Python<'_>, depth: i64) -> PyResult<u64> {
        let depth = perft_depth(depth)?;
        let position = self.position;
        let stop = AtomicBool::new(false);
        let counted = interruptible(py, &stop, || stoppable_perft(&position, depth, &stop))?;
        counted.ok_or_else(|| PyKeyboardInterrupt::new_err("perft was stopped"))
    }

    /// `perft` split by first move: {Move: count}. Ctrl-C stops it.
    fn divide<'py>(&self, py: Python<'py>, depth: i64) -> PyResult<Bound<'py, PyDict>> {
        let depth = perft_depth(depth)?;
        let position = self.position;
        let stop = AtomicBool::new(false);
        let dict = PyDict::new(py);
        if depth == 0 {
            return Ok(dict);
        }
        for mv in position.legal_moves() {
            let mut next = position;
            next.play_unchecked(mv);
            let counted = interruptible(py, &stop, || stoppable_perft(&next, depth - 1, &stop))?;
            let count =
                counted.ok_or_else(|| PyKeyboardInterrupt::new_err("divide was stopped"))?;
            dict.set_item(PyMove(mv), count)?;
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
