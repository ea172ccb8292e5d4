//! `Engine`: any engine that speaks protocol.md, driven through the arbiter's own seat, with
//! its deadlines, its checks of every move and its process groups killed on drop.

use crate::rules::{PyMove, PyPosition};
use crate::{error, interruptible};
use konane::arbiter::game::{Asked, Clocks, Deadlines, GameRules, Seat, ask};
use konane::arbiter::log::Log;
use konane::arbiter::openings::Opening;
use konane::arbiter::preflight;
use konane::arbiter::record::Termination;
use konane::arbiter::spec::EngineSpec;
use konane::arbiter::time_control::{self, TimeControl};
use konane::protocol::info::{Info, Score};
use konane::protocol::options::{EngineOption, check_value};
use konane::rules::{Position, Rules};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A running engine. Use it in a `with` block, or call `quit()`: either way the process (and
/// anything it started) is gone afterwards.
#[pyclass(name = "Engine", module = "konane")]
pub struct PyEngine {
    spec: EngineSpec,
    announced: Vec<EngineOption>,
    deadlines: Deadlines,
    /// The seat and the rules it was set up for, once a position was asked about.
    seat: Mutex<Option<(Seat, Rules)>>,
}

/// The result of `Engine.play`.
#[pyclass(name = "PlayResult", module = "konane", frozen, get_all)]
pub struct PyPlayResult {
    /// The engine's move, checked legal; None when the side to move had no move.
    #[pyo3(name = "move")]
    mv: Option<PyMove>,
    /// Seconds the engine took.
    seconds: f64,
    /// The engine's `info` lines, each read into a dict (see `Engine.analyse`).
    info: Py<PyList>,
}

/// `value` seconds, decoded as every face decodes them: `inf` is no limit (a day), NaN and
/// negatives raise `ValueError` naming `what`.
pub fn seconds(what: &str, value: f64) -> PyResult<Duration> {
    time_control::seconds(what, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl PyEngine {
    /// Starts `command` (a program, or a list of the program and its arguments), checks its
    /// handshake and `options` against what it announces, and keeps it ready. `protocol` is
    /// `uci` or `ugi`; `timeout` bounds the handshake and each `isready`; `stall` bounds the
    /// silence of a depth- or node-limited search; `margin` is the grace beyond a time limit.
    /// Raises `EngineError` naming the cause when the engine cannot start or refuses.
    #[new]
    #[pyo3(signature = (command, *, options = None, protocol = "uci", name = None, timeout = 10.0, stall = 60.0, margin = 0.1, log = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        command: &Bound<'_, PyAny>,
        options: Option<&Bound<'_, PyDict>>,
        protocol: &str,
        name: Option<&str>,
        timeout: f64,
        stall: f64,
        margin: f64,
        log: Option<&str>,
    ) -> PyResult<PyEngine> {
        let spec = spec_of(py, command, options, protocol, name)?;
        let deadlines = Deadlines {
            time_margin: seconds("margin", margin)?,
            stall: seconds("stall", stall)?,
            startup: seconds("timeout", timeout)?,
        };
        let log = match log {
            Some(path) => Log::create(std::path::Path::new(path))
                .map_err(|e| error(py, "KonaneError", format!("log {path}: {e}")))?,
            None => Log::default(),
        };
        let checked = py.detach(|| {
            preflight::check_engines(
                std::slice::from_ref(&spec),
                Rules::default(),
                &deadlines,
                &log,
            )
        });
        let mut announced = checked.map_err(|e| error(py, "EngineError", e))?;
        Ok(PyEngine {
            announced: announced.pop().unwrap_or_default(),
            spec,
            deadlines,
            seat: Mutex::new(None),
        })
    }

    /// The engine's name (its command's file name unless `name` was given).
    #[getter]
    fn name(&self) -> String {
        self.spec.launch.name.clone()
    }

    /// The options the engine announced: {name: {"type", "default", "min", "max", "vars"}}.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let all = PyDict::new(py);
        for option in &self.announced {
            let one = PyDict::new(py);
            one.set_item("type", &option.kind)?;
            one.set_item("default", &option.default)?;
            one.set_item("min", option.min)?;
            one.set_item("max", option.max)?;
            one.set_item("vars", &option.vars)?;
            all.set_item(&option.name, one)?;
        }
        Ok(all)
    }

    /// Sets options (checked against what the engine announced); the engine restarts with
    /// them before its next move.
    fn configure(&mut self, py: Python<'_>, options: &Bound<'_, PyDict>) -> PyResult<()> {
        for (name, value) in options_of(options)? {
            check_value(&self.announced, &name, &value)
                .map_err(|why| error(py, "EngineError", why))?;
            self.spec
                .options
                .retain(|(own, _)| !own.eq_ignore_ascii_case(&name));
            self.spec.options.push((name, value));
        }
        self.shut_down(py);
        Ok(())
    }

    /// The engine's move in `position`, under one limit: `movetime` (seconds), `depth`,
    /// `nodes`, or the clocks `black_time` and `white_time` (seconds) with `increment`. The
    /// move is checked: an engine that crashes, stalls, runs out of time or sends an illegal
    /// move raises `EngineError` with the cause (and is restarted for the next call).
    #[pyo3(signature = (position, *, movetime = None, depth = None, nodes = None, black_time = None, white_time = None, increment = 0.0))]
    #[allow(clippy::too_many_arguments)]
    fn play(
        &self,
        py: Python<'_>,
        position: PyPosition,
        movetime: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        black_time: Option<f64>,
        white_time: Option<f64>,
        increment: f64,
    ) -> PyResult<PyPlayResult> {
        let limit = Limit::of(
            py, movetime, depth, nodes, black_time, white_time, increment,
        )?;
        let (mv, elapsed, lines) = self.ask(py, position.position, limit, None)?;
        let info = PyList::empty(py);
        for line in lines.iter().filter(|line| line.starts_with("info ")) {
            info.append(info_dict(py, line)?)?;
        }
        Ok(PyPlayResult {
            mv: mv.map(PyMove),
            seconds: elapsed.as_secs_f64(),
            info: info.unbind(),
        })
    }

    /// Analyses `position` under one limit (as `play`) and returns the engine's last report
    /// for each of its `multipv` best lines, best first: dicts with the keys the engine sent,
    /// among them `depth`, `seldepth`, `multipv`, `score` ({"cp": n} or {"mate": n}, from the
    /// side to move's view), `nodes`, `nps`, `time` (ms) and `pv` (a list of Moves).
    #[pyo3(signature = (position, *, movetime = None, depth = None, nodes = None, multipv = 1))]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        position: PyPosition,
        movetime: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        multipv: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        let limit = Limit::of(py, movetime, depth, nodes, None, None, 0.0)?;
        let lines = if multipv > 1 { Some(multipv) } else { None };
        let (_, _, reports) = self.ask(py, position.position, limit, lines)?;
        let mut best: Vec<Option<Bound<'py, PyDict>>> = vec![None; multipv.max(1)];
        for line in reports.iter().filter(|line| line.contains(" pv ")) {
            let dict = info_dict(py, line)?;
            let rank: usize = match dict.get_item("multipv")? {
                Some(value) => value.extract()?,
                None => 1,
            };
            if (1..=best.len()).contains(&rank) {
                best[rank - 1] = Some(dict);
            }
        }
        let found: Vec<Bound<'py, PyDict>> = best.into_iter().flatten().collect();
        PyList::new(py, found)
    }

    /// Asks the engine to quit and makes sure it is gone.
    fn quit(&self, py: Python<'_>) {
        self.shut_down(py);
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.shut_down(py);
        false
    }

    fn __repr__(&self) -> String {
        format!("Engine('{}')", self.spec.command_line())
    }
}

/// One limit of a move.
struct Limit {
    time_control: TimeControl,
    clocks: Option<[Duration; 2]>,
}

impl Limit {
    fn of(
        py: Python<'_>,
        movetime: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        black_time: Option<f64>,
        white_time: Option<f64>,
        increment: f64,
    ) -> PyResult<Limit> {
        let clock = black_time.is_some() || white_time.is_some();
        let given = [movetime.is_some(), depth.is_some(), nodes.is_some(), clock];
        if given.iter().filter(|&&g| g).count() != 1 {
            return Err(error(
                py,
                "KonaneError",
                "give exactly one limit: movetime, depth, nodes, or black_time and white_time",
            ));
        }
        let (time_control, clocks) = if let Some(time) = movetime {
            (TimeControl::MoveTime(seconds("movetime", time)?), None)
        } else if let Some(count) = depth
            .map(TimeControl::Depth)
            .or(nodes.map(TimeControl::Nodes))
        {
            // The protocol refuses `go depth 0` and `go nodes 0`: say so here, not by a stall.
            let checked = count
                .checked()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            (checked, None)
        } else {
            let (Some(black), Some(white)) = (black_time, white_time) else {
                return Err(error(
                    py,
                    "KonaneError",
                    "a clock needs both black_time and white_time",
                ));
            };
            let clocks = [seconds("black_time", black)?, seconds("white_time", white)?];
            let increment = seconds("increment", increment)?;
            let control = TimeControl::Clock {
                base: clocks[0],
                increment,
            };
            (control, Some(clocks))
        };
        Ok(Limit {
            time_control,
            clocks,
        })
    }
}

impl PyEngine {
    /// Asks for a move; returns it (None with no legal move), the time taken and every line
    /// the engine sent meanwhile. With `lines`, the engine is set to report that many.
    fn ask(
        &self,
        py: Python<'_>,
        position: Position,
        limit: Limit,
        lines: Option<usize>,
    ) -> PyResult<(Option<konane::Move>, Duration, Vec<String>)> {
        if position.is_game_over() {
            return Ok((None, Duration::ZERO, Vec::new()));
        }
        let rules = position.rules();
        let mut spec = self.spec.clone();
        if let Some(count) = lines {
            let value = count.to_string();
            check_value(&self.announced, "MultiPV", &value)
                .map_err(|why| error(py, "EngineError", why))?;
            spec.options.push(("MultiPV".to_string(), value));
        }
        let mut guard = self
            .seat
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let reusable = guard.as_ref().is_some_and(|(seat, seat_rules)| {
            *seat_rules == rules && seat.options == spec.options_for(rules)
        });
        if !reusable {
            if let Some((mut old, _)) = guard.take() {
                py.detach(|| old.shut_down());
            }
            *guard = Some((Seat::new(&spec, rules, Log::default()), rules));
        }
        let (seat, _) = guard.as_mut().expect("set above");
        let heard = Arc::new(Mutex::new(Vec::new()));
        let sink = heard.clone();
        seat.listen(Box::new(move |line: &str| {
            sink.lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .push(line.to_string())
        }));
        let game_rules = GameRules {
            rules,
            time_control: limit.time_control,
            deadlines: self.deadlines,
        };
        let mut clocks = Clocks::new(limit.time_control);
        if let Some(left) = limit.clocks {
            clocks.left = left;
        }
        let opening = Opening {
            fen: Some(position.fen()),
            moves: Vec::new(),
        };
        // Ctrl-C sets the engine's cancel flag: the move and any handshake end at once. It is
        // cleared for the next call, whose engine goes on.
        let cancel = self.spec.launch.cancel.clone();
        cancel.reset();
        let stop = cancel.flag();
        let deadlines = self.deadlines;
        // A new seat starts a new game; later positions go to the same game, so that the
        // engine keeps what it learnt (its hash table).
        let asked = interruptible(py, stop, || {
            let started = if reusable {
                seat.start(&deadlines)
            } else {
                seat.ready(&deadlines).map(|_| ())
            };
            match started {
                Ok(()) => ask(
                    seat,
                    &position,
                    &opening,
                    &[],
                    &game_rules,
                    &mut clocks,
                    stop,
                ),
                Err(termination) => Asked::Lost(termination, None),
            }
        });
        let asked = match asked {
            Ok(asked) => asked,
            Err(interrupt) => {
                cancel.reset();
                py.detach(|| seat.halt(Duration::from_millis(500)));
                return Err(interrupt);
            }
        };
        let heard = std::mem::take(&mut *heard.lock().unwrap_or_else(|p| p.into_inner()));
        match asked {
            Asked::Move(mv, elapsed) => Ok((Some(mv), elapsed, heard)),
            Asked::Lost(termination, _) => {
                let what = match &termination {
                    Termination::IllegalMove(mv) => format!("sent an illegal move: {mv}"),
                    Termination::TimeForfeit => "ran out of time".to_string(),
                    Termination::Crash => "crashed".to_string(),
                    Termination::Stall => "stalled (no answer in time)".to_string(),
                    Termination::Normal => "lost".to_string(),
                };
                let cause = seat.failure().map(|f| format!(": {f}")).unwrap_or_default();
                Err(error(
                    py,
                    "EngineError",
                    format!("engine '{}' {what}{cause}", self.spec.launch.name),
                ))
            }
            Asked::Stopped => Err(error(py, "EngineError", "the move was stopped")),
        }
    }

    fn shut_down(&self, py: Python<'_>) {
        let taken = self
            .seat
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        if let Some((mut seat, _)) = taken {
            py.detach(|| seat.shut_down());
        }
    }
}

/// An option's value as the protocol writes it: `true`/`false` for a bool.
fn option_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(flag) = value.extract::<bool>() {
        return Ok(flag.to_string());
    }
    Ok(value.str()?.to_string())
}

fn options_of(options: &Bound<'_, PyDict>) -> PyResult<Vec<(String, String)>> {
    options
        .iter()
        .map(|(name, value)| Ok((name.str()?.to_string(), option_text(&value)?)))
        .collect()
}

/// The engine spec of a command (a string or a list of the program and its arguments),
/// read by the arbiter's own `--engine` parser.
pub fn spec_of(
    py: Python<'_>,
    command: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
    protocol: &str,
    name: Option<&str>,
) -> PyResult<EngineSpec> {
    let words: Vec<String> = match command.extract::<String>() {
        Ok(program) => vec![program],
        Err(_) => command.extract::<Vec<String>>().map_err(|_| {
            error(
                py,
                "KonaneError",
                "an engine command is a string or a list of strings (the program, then its arguments)",
            )
        })?,
    };
    let Some((program, args)) = words.split_first() else {
        return Err(error(
            py,
            "KonaneError",
            "an engine command cannot be empty",
        ));
    };
    let mut spec_words = vec![format!("cmd={program}"), format!("proto={protocol}")];
    spec_words.extend(args.iter().map(|arg| format!("arg={arg}")));
    if let Some(name) = name {
        spec_words.push(format!("name={name}"));
    }
    if let Some(options) = options {
        for (option, value) in options_of(options)? {
            spec_words.push(format!("option.{option}={value}"));
        }
    }
    EngineSpec::parse(&spec_words).map_err(|e| error(py, "KonaneError", e))
}

/// An `info` line as a dict, read by the protocol's one reader: `depth`, `seldepth`,
/// `multipv`, `nodes`, `nps`, `time`, `hashfull` as ints, `score` as {"cp": n} or
/// {"mate": n}, `pv` as a list of Moves, `string` as the rest of the line; a field the line
/// lacks (or sent malformed) is not in the dict.
pub fn info_dict<'py>(py: Python<'py>, line: &str) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let Some(info) = Info::parse(line) else {
        return Ok(dict);
    };
    let numbers = [
        ("depth", info.depth.map(u64::from)),
        ("seldepth", info.seldepth.map(u64::from)),
        ("multipv", info.multipv.map(u64::from)),
        ("nodes", info.nodes),
        ("nps", info.nps),
        ("time", info.time_ms),
        ("hashfull", info.hashfull),
    ];
    for (key, value) in numbers {
        if let Some(value) = value {
            dict.set_item(key, value)?;
        }
    }
    if let Some(score) = info.score {
        let (kind, value) = match score {
            Score::Centi(cp) => ("cp", cp),
            Score::Mate(n) => ("mate", n),
        };
        let entry = PyDict::new(py);
        entry.set_item(kind, value)?;
        dict.set_item("score", entry)?;
    }
    if !info.pv.is_empty() {
        let moves: Vec<PyMove> = info
            .pv
            .iter()
            .filter_map(|text| text.parse().ok().map(PyMove))
            .collect();
        dict.set_item("pv", moves)?;
    }
    if let Some(text) = info.string {
        dict.set_item("string", text)?;
    }
    Ok(dict)
}
