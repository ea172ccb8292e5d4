//! `Engine.analysis`: a search whose `info` lines reach Python as they arrive, as
//! python-chess's `engine.analysis()` gives them, until its limit or `stop()` ends it.

use crate::engine::{PyEngine, ask_alone, info_dict};
use crate::interruptible;
use crate::limit::PyLimit;
use crate::moves::PyMove;
use crate::rules::PyPosition;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use konane::arbiter::game::{Asked, Seat};
use konane::arbiter::time_control::{MAX_TIME, TimeControl};
use konane::rules::Rules;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::{PyTraverseError, PyVisit};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What the search's thread sends.
enum Report {
    /// A line the engine sent while searching.
    Line(String),
    /// The search ended: the seat to give back, and what came of it.
    Done(Box<Seat>, Asked),
}

/// How often a wait for the engine looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// A running analysis: iterate it for the engine's `info` lines as dicts (see
/// `Engine.analyse`) as they arrive; `stop()` asks for the engine's move at once; `wait()`
/// waits for the search's end and returns its move. Use it in a `with` block, which stops it.
#[pyclass(name = "Analysis", module = "konane")]
pub struct PyAnalysis {
    engine: Py<PyEngine>,
    rules: Rules,
    reports: Option<Receiver<Report>>,
    hurry: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    /// The engine's move once the search ended (None without one).
    best: Option<Option<PyMove>>,
    /// Why the search failed, raised by `wait()`.
    failure: Option<PyErr>,
    /// The last `info` line read.
    info: Option<Py<PyDict>>,
    /// The `info string` lines read, for the error of an engine that says why it failed.
    said: Vec<String>,
}

impl PyAnalysis {
    /// Starts analysing `position` on `engine` under `limit` (None: until stopped) with
    /// `multipv` lines.
    pub fn start(
        engine: &Bound<'_, PyEngine>,
        position: &PyPosition,
        limit: Option<PyLimit>,
        multipv: usize,
    ) -> PyResult<PyAnalysis> {
        let py = engine.py();
        let this = engine.borrow();
        this.stop_pondering(py)?;
        this.usable(py)?;
        let position = position.position;
        let rules = position.rules();
        let mut analysis = PyAnalysis {
            engine: engine.clone().unbind(),
            rules,
            reports: None,
            hurry: Arc::new(AtomicBool::new(false)),
            stop: Arc::new(AtomicBool::new(false)),
            best: None,
            failure: None,
            info: None,
            said: Vec::new(),
        };
        if position.is_game_over() {
            analysis.best = Some(None);
            return Ok(analysis);
        }
        let lines = (multipv > 1).then_some(multipv);
        let (mut seat, reusable) = this.take_seat(py, rules, lines)?;
        this.analysing.store(true, Ordering::SeqCst);
        let limit = limit.unwrap_or(PyLimit {
            time_control: TimeControl::MoveTime(MAX_TIME),
            clocks: None,
        });
        let (game_rules, mut clocks) = this.game_rules(rules, &limit);
        let (sender, reports) = unbounded();
        let lines = sender.clone();
        seat.listen(Box::new(move |line| {
            let _ = lines.send(Report::Line(line.to_string()));
        }));
        seat.hurry_on(analysis.hurry.clone());
        let stop = analysis.stop.clone();
        std::thread::spawn(move || {
            let asked = ask_alone(
                &mut seat,
                reusable,
                &position,
                &game_rules,
                &mut clocks,
                &stop,
            );
            if asked == Asked::Stopped {
                seat.halt(Duration::from_millis(500));
            }
            let _ = sender.send(Report::Done(Box::new(seat), asked));
        });
        analysis.reports = Some(reports);
        Ok(analysis)
    }

    /// The next report, waiting with the interpreter free; `None` once the search ended.
    /// Ctrl-C stops the search and raises `KeyboardInterrupt`.
    fn next_report(&mut self, py: Python<'_>) -> PyResult<Option<Report>> {
        let Some(reports) = self.reports.clone() else {
            return Ok(None);
        };
        loop {
            match py.detach(|| reports.recv_timeout(POLL)) {
                Ok(Report::Line(line)) if line.starts_with("info string") => {
                    self.said.push(line.clone());
                    return Ok(Some(Report::Line(line)));
                }
                Ok(report) => return Ok(Some(report)),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = py.check_signals() {
                        self.stop.store(true, Ordering::SeqCst);
                        self.finish_quietly(py);
                        return Err(interrupt);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.reports = None;
                    return Ok(None);
                }
            }
        }
    }

    /// The search ended: the engine gets its seat back and the move is kept.
    fn finished(&mut self, py: Python<'_>, seat: Seat, asked: Asked) {
        self.reports = None;
        let Ok(engine) = self.engine.try_borrow(py) else {
            // The engine is being torn down by the garbage collector (it held this search
            // as its pondering): dropping the seat kills its process.
            self.best = Some(None);
            return;
        };
        self.best = Some(match &asked {
            Asked::Move(mv, _, _) => Some(PyMove(*mv)),
            Asked::Stopped => None,
            Asked::Lost(termination, _) => {
                self.failure = Some(engine.lost(py, termination, &seat, &self.said));
                None
            }
        });
        engine.put_seat(seat, self.rules);
        engine.analysing.store(false, Ordering::SeqCst);
    }

    /// Reads to the search's end, keeping only its end.
    fn finish_quietly(&mut self, py: Python<'_>) {
        let Some(reports) = self.reports.take() else {
            return;
        };
        // The stop flag ends every wait of the search at once: its end comes within moments.
        let _ = interruptible(py, &AtomicBool::new(false), || {
            while let Ok(report) = reports.recv() {
                if let Report::Done(seat, asked) = report {
                    return Some((seat, asked));
                }
            }
            None
        })
        .map(|ended| {
            if let Some((seat, asked)) = ended {
                self.finished(py, *seat, asked);
            } else if let Ok(engine) = self.engine.try_borrow(py) {
                engine.analysing.store(false, Ordering::SeqCst);
            }
        });
    }
}

#[pymethods]
impl PyAnalysis {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next `info` line of the search as a dict; the iteration ends with the search.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        while let Some(report) = self.next_report(py)? {
            match report {
                Report::Line(line) if line.starts_with("info ") => {
                    let info = info_dict(py, &line)?.unbind();
                    self.info = Some(info.clone_ref(py));
                    return Ok(Some(info));
                }
                Report::Line(_) => {}
                Report::Done(seat, asked) => {
                    self.finished(py, *seat, asked);
                    return Ok(None);
                }
            }
        }
        Ok(None)
    }

    /// The last `info` line read, as a dict (None before the first).
    #[getter]
    fn info(&self, py: Python<'_>) -> Option<Py<PyDict>> {
        self.info.as_ref().map(|info| info.clone_ref(py))
    }

    /// Asks the engine for its move now; the iteration ends when it comes.
    fn stop(&self) {
        self.hurry.store(true, Ordering::SeqCst);
    }

    /// Waits for the search's end (its limit, or `stop()`) and returns the engine's move
    /// (None when it had none); raises `EngineError` when the engine failed.
    fn wait(&mut self, py: Python<'_>) -> PyResult<Option<PyMove>> {
        while let Some(report) = self.next_report(py)? {
            if let Report::Done(seat, asked) = report {
                self.finished(py, *seat, asked);
                break;
            }
        }
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        Ok(self.best.flatten())
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// An analysis holds its engine: the garbage collector follows that reference (see
    /// `Engine.__traverse__`).
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.engine)
    }

    /// Stops the search and waits for its end.
    fn __exit__(
        &mut self,
        py: Python<'_>,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.stop();
        self.finish_quietly(py);
        false
    }
}

#[pymethods]
impl PyEngine {
    /// Analyses `position` under `limit` (a `Limit`; None: until `stop()`) with `multipv`
    /// lines: an `Analysis` to iterate for the engine's `info` lines as they arrive. The engine
    /// takes no other call until the analysis ends (its `with` block stops it).
    #[pyo3(signature = (position, limit = None, *, multipv = 1))]
    fn analysis(
        slf: &Bound<'_, Self>,
        position: PyPosition,
        limit: Option<PyLimit>,
        multipv: usize,
    ) -> PyResult<PyAnalysis> {
        PyAnalysis::start(slf, &position, limit, multipv)
    }
}

impl Drop for PyAnalysis {
    /// An analysis dropped while it runs is stopped, and the engine gets its seat back.
    fn drop(&mut self) {
        if self.reports.is_some() {
            self.stop.store(true, Ordering::SeqCst);
            Python::attach(|py| self.finish_quietly(py));
        }
    }
}
