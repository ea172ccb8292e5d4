//! The native half of the `konane` Python package: the crate's rules, solver, engine driver,
//! arbiter and bot front end, bound with PyO3. The Python half (`konane/`) adds the
//! exceptions, the parsing of `info` lines and the pieces that read better in Python.

mod analysis;
mod arbiter;
mod bot;
mod cli;
mod draw;
mod engine;
mod legal;
mod limit;
mod moves;
mod pgn;
mod rules;
mod solve;
mod value;

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The exception `name` of `konane.errors`, carrying `message`.
fn error(py: Python<'_>, name: &str, message: impl Into<String>) -> PyErr {
    let made = py
        .import("konane.errors")
        .and_then(|errors| errors.getattr(name))
        .and_then(|class| class.call1((message.into(),)));
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(failed) => failed,
    }
}

/// Runs `work` on another thread with the interpreter free, while this thread watches for
/// signals: on Ctrl-C `stop` is set, `work` is awaited (it must end soon once `stop` is set)
/// and the `KeyboardInterrupt` is raised.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let worker = scope.spawn(work);
        loop {
            if worker.is_finished() {
                return Ok(worker.join().expect("the work does not panic"));
            }
            py.detach(|| std::thread::sleep(Duration::from_millis(10)));
            if let Err(signal) = py.check_signals() {
                stop.store(true, Ordering::SeqCst);
                py.detach(|| {
                    let _ = worker.join();
                });
                return Err(signal);
            }
        }
    })
}

/// The native module, `konane._konane`.
#[pymodule]
fn _konane(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<moves::PyMove>()?;
    module.add_class::<rules::PyPosition>()?;
    module.add_class::<rules::PyOutcome>()?;
    module.add_class::<legal::PyLegalMoves>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<solve::PySolution>()?;
    module.add_class::<solve::PyProofTable>()?;
    module.add_function(wrap_pyfunction!(solve::solve, module)?)?;
    module.add_class::<value::PyValue>()?;
    module.add_function(wrap_pyfunction!(value::value, module)?)?;
    module.add_class::<limit::PyLimit>()?;
    module.add_class::<engine::PyEngine>()?;
    module.add_class::<analysis::PyAnalysis>()?;
    module.add_class::<engine::PyPlayResult>()?;
    module.add_class::<arbiter::PyCheckResult>()?;
    module.add_class::<arbiter::PyGame>()?;
    module.add_function(wrap_pyfunction!(arbiter::check, module)?)?;
    module.add_function(wrap_pyfunction!(arbiter::play_match, module)?)?;
    module.add_function(wrap_pyfunction!(bot::serve, module)?)?;
    module.add_function(wrap_pyfunction!(cli::run_engine_cli, module)?)?;
    module.add_function(wrap_pyfunction!(cli::run_arbiter_cli, module)?)?;
    module.add_function(wrap_pyfunction!(pgn::read_pgn, module)?)?;
    module.add_function(wrap_pyfunction!(pgn::write_pgn, module)?)?;
    Ok(())
}
