//! The crate's command lines, run from Python: `python -m konane.engine` and `python -m
//! konane.arbiter` (the `konane-engine` and `konane-arbiter` commands `pip install` brings)
//! are the very `konane-cli` functions the Rust binaries run.

use pyo3::prelude::*;

/// Runs `konane-engine` with `arguments` (the program's name first) and returns its exit
/// status.
#[pyfunction]
pub fn run_engine_cli(py: Python<'_>, arguments: Vec<String>) -> u8 {
    py.detach(|| konane_cli::engine::main(arguments))
}

/// Runs `konane-arbiter` with `arguments` (the program's name first) and returns its exit
/// status; `arbiter` and `engine` are the commands that start this installation's arbiter (for
/// its watchdog) and engine (when no `--engine` is given).
#[pyfunction]
pub fn run_arbiter_cli(
    py: Python<'_>,
    arguments: Vec<String>,
    arbiter: Vec<String>,
    engine: Vec<String>,
) -> u8 {
    let installation = konane_cli::Installation { arbiter, engine };
    py.detach(|| konane_cli::arbiter::main(arguments, &installation))
}
