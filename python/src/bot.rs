//! `serve`: a Python function from a position to a move, made an engine that speaks
//! protocol.md on standard input and output (through the crate's `bot::serve`).

use crate::moves::PyMove;
use crate::rules::PyPosition;
use konane::bot::{self, Choice, Identity};
use konane::protocol::Go;
use konane::protocol::io::Output;
use konane::rules::{Color, Position};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Duration;

/// The `go` limits as a dict of seconds and counts, only those the GUI sent, for `choose`.
fn limits<'py>(py: Python<'py>, position: &Position, go: &Go) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let ms = |value: u64| value as f64 / 1000.0;
    let (mine, mine_inc) = match position.side_to_move() {
        Color::Black => (go.black_time, go.black_inc),
        Color::White => (go.white_time, go.white_inc),
    };
    let entries = [
        ("movetime", go.move_time.map(ms)),
        ("black_time", go.black_time.map(ms)),
        ("white_time", go.white_time.map(ms)),
        ("black_increment", go.black_inc.map(ms)),
        ("white_increment", go.white_inc.map(ms)),
        ("time_left", mine.map(ms)),
        ("increment", mine_inc.map(ms)),
    ];
    for (key, value) in entries {
        if let Some(value) = value {
            dict.set_item(key, value)?;
        }
    }
    for (key, value) in [
        ("depth", go.depth),
        ("nodes", go.nodes),
        ("moves_to_go", go.moves_to_go),
    ] {
        if let Some(value) = value {
            dict.set_item(key, value)?;
        }
    }
    if go.infinite {
        dict.set_item("infinite", true)?;
    }
    if !go.search_moves.is_empty() {
        let moves: Vec<PyMove> = go.search_moves.iter().copied().map(PyMove).collect();
        dict.set_item("search_moves", moves)?;
    }
    Ok(dict)
}

/// Calls `choose(position, limits)` and reads its answer, a `Move` or a move's text. An
/// exception is printed to standard error (the arbiter's log keeps it) and becomes no move.
fn call(choose: &Py<PyAny>, position: &Position, go: &Go) -> Choice {
    Python::attach(|py| {
        let answer = limits(py, position, go)
            .and_then(|limits| choose.call1(py, (PyPosition::of(*position), limits)));
        let answer = match answer {
            Ok(answer) => answer.into_bound(py),
            Err(raised) => {
                let text = raised.to_string();
                raised.print(py);
                return Err(format!("the function raised {text}"));
            }
        };
        if let Ok(mv) = answer.extract::<PyMove>() {
            return Ok(mv.0);
        }
        match answer.extract::<String>() {
            Ok(text) => text
                .trim()
                .parse()
                .map_err(|e| format!("the function returned '{text}': {e}")),
            Err(_) => Err(format!(
                "the function returned {}, not a Move or a move's text",
                answer
                    .repr()
                    .map_or("something".to_string(), |r| r.to_string())
            )),
        }
    })
}

/// Speaks protocol.md on standard input and output until `quit` or the end of the input,
/// asking `choose(position, limits)` for every move. Ctrl-C ends it with
/// `KeyboardInterrupt`.
#[pyfunction]
pub fn serve(py: Python<'_>, choose: Py<PyAny>, name: String, author: String) -> PyResult<()> {
    let identity = Identity { name, author };
    let worker = std::thread::spawn(move || {
        let output = Output::new(std::io::stdout());
        let input = std::io::BufReader::new(std::io::stdin());
        bot::serve(input, output, &identity, |position, go| {
            call(&choose, position, go)
        });
    });
    // The protocol runs on its own thread so that this one can take Ctrl-C; a reader blocked
    // on standard input is then left behind, and ends with the program.
    while !worker.is_finished() {
        py.detach(|| std::thread::sleep(Duration::from_millis(20)));
        py.check_signals()?;
    }
    let _ = worker.join();
    Ok(())
}
