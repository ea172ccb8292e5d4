//! `check` and `play_match`: the arbiter's own compliance report and tournament runner, with
//! their results as Python objects.

use crate::engine::spec_of;
use crate::limit::{PyLimit, seconds};
use crate::moves::PyMove;
use crate::rules::rules_of;
use crate::{error, interruptible};
use konane::arbiter::check::{self as checks, CheckSettings, Outcome};
use konane::arbiter::events::Event;
use konane::arbiter::game::{Deadlines, GameRules};
use konane::arbiter::log::Log;
use konane::arbiter::openings::OpeningSource;
use konane::arbiter::process::Cancel;
use konane::arbiter::record::GameRecord;
use konane::arbiter::schedule::Format;
use konane::arbiter::spec::EngineSpec;
use konane::arbiter::{self as arbiter_run, Config, RunError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::time::Duration;

/// One line of a `check` report.
#[pyclass(name = "CheckResult", module = "konane", frozen, get_all)]
pub struct PyCheckResult {
    /// The check's name (protocol.md lists them).
    name: String,
    /// `pass`, `fail` or `skip`.
    outcome: String,
    /// What was sent and what came back.
    evidence: String,
}

#[pymethods]
impl PyCheckResult {
    fn __repr__(&self) -> String {
        format!(
            "CheckResult({} {}: {})",
            self.outcome, self.name, self.evidence
        )
    }
}

/// Runs `konane-arbiter check` on an engine (`command` as for `Engine`) and returns one
/// `CheckResult` per check, in the order of protocol.md. `quick` plays fewer positions.
#[pyfunction]
#[pyo3(signature = (command, *, options = None, protocol = "uci", quick = true, timeout = 10.0, margin = 0.1, seed = 1))]
#[allow(clippy::too_many_arguments)]
pub fn check(
    py: Python<'_>,
    command: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
    protocol: &str,
    quick: bool,
    timeout: f64,
    margin: f64,
    seed: u64,
) -> PyResult<Vec<PyCheckResult>> {
    // Ctrl-C sets `cancel`, which ends every wait for this call's engine at once.
    let cancel = Cancel::new();
    let spec = spec_of(py, command, options, protocol, None)?.cancelled_by(&cancel);
    let settings = CheckSettings {
        quick,
        timeout: seconds("timeout", timeout)?,
        margin: seconds("margin", margin)?,
        seed,
        log: Log::default(),
    };
    let results = interruptible(py, cancel.flag(), || checks::run(&spec, &settings, |_| {}))?;
    Ok(results
        .into_iter()
        .map(|result| PyCheckResult {
            name: result.name.to_string(),
            outcome: match result.outcome {
                Outcome::Pass => "pass",
                Outcome::Fail => "fail",
                Outcome::Skip => "skip",
            }
            .to_string(),
            evidence: result.evidence,
        })
        .collect())
}

/// One game of a match, as the results file records it.
#[pyclass(name = "Game", module = "konane", frozen, get_all)]
pub struct PyGame {
    /// The game's number in the schedule, from 1.
    id: usize,
    /// Black's engine.
    black: String,
    /// White's engine.
    white: String,
    /// `black` or `white`.
    winner: String,
    /// The winning engine's name.
    winner_name: String,
    /// `normal`, `illegal move ...`, `time forfeit`, `crash` or `stall`.
    termination: String,
    /// The position string the moves start from.
    start: String,
    /// Every move, the opening's included.
    moves: Vec<PyMove>,
    /// How many of `moves` came from the opening.
    opening_plies: usize,
    /// Milliseconds each engine move took.
    move_times_ms: Vec<u64>,
    /// Each engine move's verdict as PGN writes it (`+0.35/12`: score, depth), or None where
    /// the engine reported no score; in the order of `move_times_ms`.
    verdicts: Vec<Option<String>>,
    /// For a crash or a stall: how the engine ended (exit status, last lines), else None.
    detail: Option<String>,
}

#[pymethods]
impl PyGame {
    /// The winning engine's name.
    fn __repr__(&self) -> String {
        format!(
            "Game({}: {} (Black) vs {} (White), {} wins, {}, {} plies)",
            self.id,
            self.black,
            self.white,
            self.winner,
            self.termination,
            self.moves.len()
        )
    }
}

impl From<GameRecord> for PyGame {
    fn from(record: GameRecord) -> PyGame {
        PyGame {
            id: record.id,
            winner: record.winner.name().to_string(),
            winner_name: record.winner_name().to_string(),
            termination: record.termination.to_string(),
            black: record.black,
            white: record.white,
            start: record.start,
            moves: record
                .moves
                .iter()
                .filter_map(|text| text.parse().ok())
                .map(PyMove)
                .collect(),
            opening_plies: record.opening_plies,
            move_times_ms: record.move_times_ms,
            verdicts: record
                .move_verdicts
                .iter()
                .map(|verdict| verdict.map(|v| v.text()))
                .collect(),
            detail: record.detail,
        }
    }
}

/// An engine of a match: a command (string or list), or a dict with `command` and optionally
/// `options`, `protocol` and `name`.
fn engine_of(py: Python<'_>, engine: &Bound<'_, PyAny>) -> PyResult<EngineSpec> {
    let Ok(dict) = engine.cast::<PyDict>() else {
        return spec_of(py, engine, None, "uci", None);
    };
    let command = dict
        .get_item("command")?
        .ok_or_else(|| error(py, "KonaneError", "an engine dict needs a 'command'"))?;
    let options = dict.get_item("options")?;
    let options = options.as_ref().map(|o| o.cast::<PyDict>()).transpose()?;
    let protocol: String = match dict.get_item("protocol")? {
        Some(value) => value.extract()?,
        None => "uci".to_string(),
    };
    let name: Option<String> = match dict.get_item("name")? {
        Some(value) => Some(value.extract()?),
        None => None,
    };
    spec_of(py, &command, options, &protocol, name.as_deref())
}

/// Plays a match (two engines) or a round robin (more) with the arbiter's own tournament
/// runner, and returns its games. Each engine is a command or a dict (see `Engine`); `limit`
/// (a `Limit`) is every move's, its clocks (equal) where both players start each game.
/// `random_plies` starts each pair of games from that many random plies; `pgn` and `results`
/// keep the games in files too, and `resume` continues the tournament `results` holds. It
/// prints nothing: `on_game`, if given, is called with each
/// `Game` as it ends. Raises `ParseError` for rules that cannot be played and `KonaneError`
/// naming what is wrong with the setup or an engine.
#[pyfunction]
#[pyo3(signature = (engines, limit, *, games = 2, size = "8x8", opening = "traditional", capture = "straight", concurrency = 1, seed = 1, random_plies = None, pgn = None, results = None, resume = false, margin = 0.1, stall = 60.0, on_game = None))]
#[allow(clippy::too_many_arguments)]
pub fn play_match(
    py: Python<'_>,
    engines: Vec<Bound<'_, PyAny>>,
    limit: PyLimit,
    games: usize,
    size: &str,
    opening: &str,
    capture: &str,
    concurrency: usize,
    seed: u64,
    random_plies: Option<usize>,
    pgn: Option<PathBuf>,
    results: Option<PathBuf>,
    resume: bool,
    margin: f64,
    stall: f64,
    on_game: Option<Py<PyAny>>,
) -> PyResult<Vec<PyGame>> {
    if engines.len() < 2 {
        return Err(error(
            py,
            "KonaneError",
            "a match needs at least two engines",
        ));
    }
    let specs: Vec<EngineSpec> = engines
        .iter()
        .map(|engine| engine_of(py, engine))
        .collect::<PyResult<_>>()?;
    let rules = rules_of(py, size, opening, capture)?;
    let time_control = limit.for_match()?;
    if games == 0 || concurrency == 0 {
        return Err(error(
            py,
            "KonaneError",
            "games and concurrency must be at least 1",
        ));
    }
    let config = Config {
        engines: specs,
        format: Format::RoundRobin,
        games,
        concurrency,
        seed,
        game_rules: GameRules {
            rules,
            time_control,
            deadlines: Deadlines {
                time_margin: seconds("margin", margin)?,
                stall: seconds("stall", stall)?,
                startup: seconds("stall", stall)?.min(Duration::from_secs(30)),
            },
        },
        openings: random_plies.map_or(OpeningSource::Start, OpeningSource::RandomPlies),
        pgn,
        results,
        resume,
        sprt: None,
        shard: None,
        log: Log::default(),
        wait: Duration::ZERO,
        engine_output: false,
    };
    // Ctrl-C sets `cancel`: the tournament stops, and every wait for its engines ends at once.
    let cancel = Cancel::new();
    // Each finished game goes to `on_game` as it ends, on the tournament's thread.
    let mut report = |event: Event| {
        if let (Event::GameFinished { record, .. }, Some(on_game)) = (event, &on_game) {
            Python::attach(|py| {
                if let Err(error) = on_game.call1(py, (PyGame::from(*record),)) {
                    error.write_unraisable(py, Some(on_game.bind(py)));
                }
            });
        }
    };
    let ran = interruptible(py, cancel.flag(), || {
        arbiter_run::run(config, &cancel, &mut report)
    })?;
    match ran {
        Ok(summary) => Ok(summary.records.into_iter().map(PyGame::from).collect()),
        Err(RunError::Rules(why)) => Err(error(py, "ParseError", why.to_string())),
        Err(failure) => Err(error(py, "KonaneError", failure.to_string())),
    }
}
