//! `Engine`: any engine that speaks protocol.md, driven through the arbiter's own seat, with
//! its deadlines, its checks of every move and its process groups killed on drop.

use crate::limit::{PyLimit, seconds};
use crate::moves::PyMove;
use crate::rules::PyPosition;
use crate::{error, interruptible};
use konane::arbiter::game::{Asked, Clocks, Deadlines, GameRules, Seat, ask};
use konane::arbiter::log::Log;
use konane::arbiter::openings::Opening;
use konane::arbiter::preflight;
use konane::arbiter::process::Announced;
use konane::arbiter::record::Termination;
use konane::arbiter::spec::EngineSpec;
use konane::protocol::info::{Info, Score};
use konane::protocol::options::check_value;
use konane::rules::{Position, Rules};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::{PyTraverseError, PyVisit};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Engine(command, *, options=None, protocol="uci", name=None, timeout=10.0, stall=60.0,
/// margin=0.1, log=None): a running engine that speaks the Konane protocol, started from
/// `command` (a program, or a list of the program and its arguments), its handshake and
/// `options` checked. Use it in a `with` block, or call `quit()`: either way the process (and
/// anything it started) is gone afterwards.
#[pyclass(name = "Engine", module = "konane")]
pub struct PyEngine {
    spec: EngineSpec,
    /// The name given, else the engine's `id name`, else its program's file name.
    name: String,
    /// What its handshake announced.
    announced: Announced,
    deadlines: Deadlines,
    /// Where every line to and from the engine is logged, when asked.
    log: Log,
    /// Set by `quit()`: the engine plays no more.
    quit: AtomicBool,
    /// Set while an `Analysis` has the engine's seat.
    pub(crate) analysing: AtomicBool,
    /// The search `play(..., ponder=True)` left going on (an `Analysis`, held as any object
    /// so that this file need not know its type), ended before any other call.
    pondering: Mutex<Option<Py<PyAny>>>,
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

#[pymethods]
impl PyPlayResult {
    fn __repr__(&self, py: Python<'_>) -> String {
        let mv = self
            .mv
            .map_or("None".to_string(), |mv| format!("Move('{}')", mv.0));
        format!(
            "PlayResult(move={mv}, seconds={:.3}, info=[{} lines])",
            self.seconds,
            self.info.bind(py).len()
        )
    }
}

#[pymethods]
impl PyEngine {
    /// Starts `command` (a program, or a list of the program and its arguments), checks its
    /// handshake and `options` against what it announces, and keeps it ready. `protocol` is
    /// `uci` or `ugi`; `timeout` bounds the handshake and each `isready`; `stall` bounds the
    /// silence of a depth- or node-limited search; `margin` is the grace beyond a time limit;
    /// `log` names a file that gets every line sent to (`<`) and received from (`>`) the
    /// engine, and its standard error (`!`), with times. Raises `EngineError` naming the cause
    /// when the engine cannot start or refuses.
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
        log: Option<std::path::PathBuf>,
    ) -> PyResult<PyEngine> {
        let spec = spec_of(py, command, options, protocol, name)?;
        let deadlines = Deadlines {
            time_margin: seconds("margin", margin)?,
            stall: seconds("stall", stall)?,
            startup: seconds("timeout", timeout)?,
        };
        let log = match log {
            Some(path) => Log::create(&path)
                .map_err(|e| error(py, "KonaneError", format!("log {}: {e}", path.display())))?,
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
        let announced = checked
            .map_err(|e| error(py, "EngineError", e))?
            .pop()
            .unwrap_or_default();
        let name = match (name, &announced.name) {
            (Some(given), _) => given.to_string(),
            (None, Some(id)) => id.clone(),
            (None, None) => spec.launch.name.clone(),
        };
        Ok(PyEngine {
            announced,
            name,
            spec,
            deadlines,
            log,
            quit: AtomicBool::new(false),
            analysing: AtomicBool::new(false),
            pondering: Mutex::new(None),
            seat: Mutex::new(None),
        })
    }

    /// The engine's name: the one given, else its `id name`, else its program's file name.
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// What the engine says of itself: {"name": ..., "author": ...} as its `id` lines gave.
    #[getter]
    fn id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let id = PyDict::new(py);
        if let Some(name) = &self.announced.name {
            id.set_item("name", name)?;
        }
        if let Some(author) = &self.announced.author {
            id.set_item("author", author)?;
        }
        Ok(id)
    }

    /// The options the engine announced: {name: {"type", "default", "min", "max", "vars"}}.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let all = PyDict::new(py);
        for option in &self.announced.options {
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
    fn configure(slf: &Bound<'_, Self>, options: &Bound<'_, PyDict>) -> PyResult<()> {
        let py = slf.py();
        slf.borrow().stop_pondering(py)?;
        let mut this = slf.borrow_mut();
        for (name, value) in options_of(options)? {
            check_value(&this.announced.options, &name, &value)
                .map_err(|why| error(py, "EngineError", why))?;
            this.spec
                .options
                .retain(|(own, _)| !own.eq_ignore_ascii_case(&name));
            this.spec.options.push((name, value));
        }
        this.shut_down(py);
        Ok(())
    }

    /// The engine's move in `position` under `limit` (a `Limit`). The move is checked: an
    /// engine that crashes, stalls, runs out of time or sends an illegal move raises
    /// `EngineError` with the cause (and is restarted for the next call). With `ponder`, the
    /// engine goes on thinking on the position after its move until the next call.
    #[pyo3(signature = (position, limit, *, ponder = false))]
    fn play(
        slf: &Bound<'_, Self>,
        position: PyPosition,
        limit: PyLimit,
        ponder: bool,
    ) -> PyResult<PyPlayResult> {
        let py = slf.py();
        let this = slf.borrow();
        let (mv, elapsed, lines) = this.ask(py, position.position, &limit, None)?;
        if let (true, Some(mv)) = (ponder, mv) {
            let mut after = position.position;
            after.play_unchecked(mv);
            if !after.is_game_over() {
                drop(this);
                let search = slf.call_method1("analysis", (PyPosition::of(after),))?;
                *slf.borrow()
                    .pondering
                    .lock()
                    .unwrap_or_else(|p| p.into_inner()) = Some(search.unbind());
            }
        }
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

    /// Analyses `position` under `limit` (a `Limit`) and returns the engine's last report
    /// for each of its `multipv` best lines, best first: dicts with the keys the engine sent,
    /// among them `depth`, `seldepth`, `multipv`, `score` ({"cp": n} or {"mate": n}, from the
    /// side to move's view), `nodes`, `nps`, `time` (ms) and `pv` (a list of Moves).
    #[pyo3(signature = (position, limit, *, multipv = 1))]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        position: PyPosition,
        limit: PyLimit,
        multipv: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        let lines = if multipv > 1 { Some(multipv) } else { None };
        let (_, _, reports) = self.ask(py, position.position, &limit, lines)?;
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

    /// Asks the engine to quit and makes sure it is gone; it plays no more after.
    fn quit(&self, py: Python<'_>) -> PyResult<()> {
        self.stop_pondering(py)?;
        self.quit.store(true, Ordering::SeqCst);
        self.shut_down(py);
        Ok(())
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
    ) -> PyResult<bool> {
        self.stop_pondering(py)?;
        self.shut_down(py);
        Ok(false)
    }

    fn __repr__(&self) -> String {
        format!("Engine('{}')", self.spec.command_line())
    }

    /// The search it ponders holds the engine too: the garbage collector sees that cycle
    /// through here, so that an engine dropped while pondering is collected (and its
    /// process killed) instead of kept until the program ends.
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Ok(pondering) = self.pondering.try_lock()
            && let Some(search) = pondering.as_ref()
        {
            visit.call(search)?;
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        let search = self
            .pondering
            .get_mut()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        drop(search);
    }
}

impl PyEngine {
    /// Asks for a move; returns it (None with no legal move), the time taken and every line
    /// the engine sent meanwhile. With `lines`, the engine is set to report that many.
    fn ask(
        &self,
        py: Python<'_>,
        position: Position,
        limit: &PyLimit,
        lines: Option<usize>,
    ) -> PyResult<(Option<konane::Move>, Duration, Vec<String>)> {
        self.stop_pondering(py)?;
        self.usable(py)?;
        if position.is_game_over() {
            return Ok((None, Duration::ZERO, Vec::new()));
        }
        let rules = position.rules();
        let (mut seat, reusable) = self.take_seat(py, rules, lines)?;
        let asked = self.ask_on(py, &mut seat, reusable, position, limit);
        self.put_seat(seat, rules);
        asked
    }

    /// Ends the search `play(..., ponder=True)` left going on, if there is one: the engine
    /// gets its seat back.
    pub(crate) fn stop_pondering(&self, py: Python<'_>) -> PyResult<()> {
        let search = self
            .pondering
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        if let Some(search) = search {
            search.call_method1(py, "__exit__", (py.None(), py.None(), py.None()))?;
        }
        Ok(())
    }

    /// Refuses an engine that has quit or that an `Analysis` holds.
    pub(crate) fn usable(&self, py: Python<'_>) -> PyResult<()> {
        let why = if self.quit.load(Ordering::SeqCst) {
            "has quit: make a new Engine to play again"
        } else if self.analysing.load(Ordering::SeqCst) {
            "is analysing: stop the analysis (or leave its with block) first"
        } else {
            return Ok(());
        };
        Err(error(
            py,
            "EngineError",
            format!("engine '{}' {why}", self.name),
        ))
    }

    /// The engine's seat for `rules` with `lines` lines reported (MultiPV), out of the engine
    /// until [`PyEngine::put_seat`]: the one it has when its rules and options fit (true:
    /// the engine goes on with its game, keeping what it learnt), else a new one.
    pub(crate) fn take_seat(
        &self,
        py: Python<'_>,
        rules: Rules,
        lines: Option<usize>,
    ) -> PyResult<(Seat, bool)> {
        let mut spec = self.spec.clone();
        if let Some(count) = lines {
            let value = count.to_string();
            check_value(&self.announced.options, "MultiPV", &value)
                .map_err(|why| error(py, "EngineError", why))?;
            spec.options.push(("MultiPV".to_string(), value));
        }
        let taken = self
            .seat
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        match taken {
            Some((seat, seat_rules))
                if seat_rules == rules && seat.options == spec.options_for(rules) =>
            {
                Ok((seat, true))
            }
            other => {
                if let Some((mut old, _)) = other {
                    py.detach(|| old.shut_down());
                }
                Ok((Seat::new(&spec, rules, self.log.clone()), false))
            }
        }
    }

    /// Gives the engine back its seat, set up for `rules`.
    pub(crate) fn put_seat(&self, seat: Seat, rules: Rules) {
        *self
            .seat
            .lock()
            .unwrap_or_else(|poison| poison.into_inner()) = Some((seat, rules));
    }

    /// The time control, clocks and deadlines of a move under `limit`.
    pub(crate) fn game_rules(&self, rules: Rules, limit: &PyLimit) -> (GameRules, Clocks) {
        let mut clocks = Clocks::new(limit.time_control);
        if let Some(left) = limit.clocks {
            clocks.left = left;
        }
        let game_rules = GameRules {
            rules,
            time_control: limit.time_control,
            deadlines: self.deadlines,
        };
        (game_rules, clocks)
    }

    /// Why the engine lost its move, as an `EngineError`: how, what its seat knows of a
    /// crash, or what it said (a bot whose function raised says `info string error: ...`).
    pub(crate) fn lost(
        &self,
        py: Python<'_>,
        termination: &Termination,
        seat: &Seat,
        heard: &[String],
    ) -> PyErr {
        let what = match termination {
            Termination::IllegalMove(mv) => format!("sent an illegal move: {mv}"),
            Termination::TimeForfeit => "ran out of time".to_string(),
            Termination::Crash => "crashed".to_string(),
            Termination::Stall => "stalled (no answer in time)".to_string(),
            Termination::Normal => "lost".to_string(),
        };
        let said = heard
            .iter()
            .rev()
            .find_map(|line| line.trim().strip_prefix("info string error:"))
            .map(|why| format!(" (it said: {})", why.trim()));
        let cause = seat.failure().map(|f| format!(": {f}"));
        let cause = cause.or(said).unwrap_or_default();
        error(
            py,
            "EngineError",
            format!("engine '{}' {what}{cause}", self.name),
        )
    }

    /// [`PyEngine::ask`] on `seat`, which goes on with its game when `reusable`.
    fn ask_on(
        &self,
        py: Python<'_>,
        seat: &mut Seat,
        reusable: bool,
        position: Position,
        limit: &PyLimit,
    ) -> PyResult<(Option<konane::Move>, Duration, Vec<String>)> {
        let rules = position.rules();
        let heard = Arc::new(Mutex::new(Vec::new()));
        let sink = heard.clone();
        seat.listen(Box::new(move |line: &str| {
            sink.lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .push(line.to_string())
        }));
        let (game_rules, mut clocks) = self.game_rules(rules, limit);
        // Ctrl-C sets the engine's cancel flag: the move and any handshake end at once. It is
        // cleared for the next call, whose engine goes on.
        let cancel = self.spec.launch.cancel.clone();
        cancel.reset();
        let stop = cancel.flag();
        // A new seat starts a new game; later positions go to the same game, so that the
        // engine keeps what it learnt (its hash table).
        let asked = interruptible(py, stop, || {
            ask_alone(seat, reusable, &position, &game_rules, &mut clocks, stop)
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
            Asked::Move(mv, elapsed, _) => Ok((Some(mv), elapsed, heard)),
            Asked::Lost(termination, _) => Err(self.lost(py, &termination, seat, &heard)),
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
    // A path (`pathlib.Path`, any `os.PathLike`) is as good as its text.
    let text = |word: &Bound<'_, PyAny>| {
        word.extract::<std::path::PathBuf>()
            .map(|path| path.to_string_lossy().into_owned())
    };
    let words: Vec<String> = match text(command) {
        Ok(program) => vec![program],
        Err(_) => command
            .try_iter()
            .and_then(|items| items.map(|item| text(&item?)).collect::<PyResult<_>>())
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "an engine command is a program (a str or path) or a list of the program and its arguments, not {}",
                    command.get_type().name().map_or("that".to_string(), |n| n.to_string())
                ))
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

/// Readies `seat` (a new game when `new_game`, else the same game, so that the engine keeps what
/// it learnt) and asks it for a move in `position`, sent as its position string alone.
pub(crate) fn ask_alone(
    seat: &mut Seat,
    new_game: bool,
    position: &Position,
    game_rules: &GameRules,
    clocks: &mut Clocks,
    stop: &AtomicBool,
) -> Asked {
    let started = if new_game {
        seat.start(&game_rules.deadlines)
    } else {
        seat.ready(&game_rules.deadlines).map(|_| ())
    };
    let opening = Opening {
        fen: Some(position.fen()),
        moves: Vec::new(),
    };
    match started {
        Ok(()) => ask(seat, position, &opening, &[], game_rules, clocks, stop),
        Err(termination) => Asked::Lost(termination, None),
    }
}
