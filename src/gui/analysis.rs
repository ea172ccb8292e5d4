//! The analysis engine: which one, the position it is asked to analyse, and the worker that
//! runs `go infinite` on it until told to stop.

use crate::arbiter::game::{Deadlines, Seat};
use crate::arbiter::process::{self, ReadError};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `stop` before it is killed.
pub const HALT_GRACE: Duration = Duration::from_secs(2);

/// A worker at work on an engine: its token (lines and answers of any other token are stale)
/// and the flag that stops it.
pub struct Worker {
    /// Tells this worker's lines and answer from stale ones.
    pub token: u64,
    /// Set to stop the search.
    pub stop: Arc<AtomicBool>,
    /// The side to move in the searched position.
    pub side: crate::rules::square::Color,
    /// The game it works for.
    pub game: u64,
}

/// The analysis engine and what it is asked for.
pub struct Analyst {
    /// Its place among the configured engines.
    pub engine: usize,
    /// The engine, while no worker holds it.
    pub seat: Option<Box<Seat>>,
    /// The worker analysing, if one is.
    pub worker: Option<Worker>,
    /// The `position` command the worker analyses.
    pub target: Option<String>,
    /// False once the person turned the analysis off: the engine goes when idle.
    pub wanted: bool,
    /// The position analysed; `None` follows the game's last position.
    pub node: Option<crate::gui::tree::Node>,
    /// How many best lines it reports.
    pub lines: usize,
}

impl Analyst {
    /// Stops the analysis; the engine goes once its worker hands it back.
    pub fn retire(self) {
        if let Some(worker) = self.worker {
            worker.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Analyses `command` (a `position` command) with the engine in `seat` until `stop` is set,
/// showing `listener` each line; then stops the search. An engine that ends the search by
/// itself (a proven or finished position) keeps its last lines shown until `stop`.
pub fn analyse(
    seat: &mut Seat,
    command: &str,
    deadlines: &Deadlines,
    stop: &AtomicBool,
    listener: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let process = match seat.ready(deadlines) {
        Ok(process) => process,
        Err(termination) => {
            return Err(seat
                .failure()
                .map_or_else(|| termination.to_string(), str::to_string));
        }
    };
    let sent = process
        .send(command)
        .and_then(|_| process.send("go infinite"));
    let (mut searching, mut lost) = (sent.is_ok(), sent.is_err());
    while !stop.load(Ordering::SeqCst) && !lost {
        if !searching {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        match process.read_line(Instant::now() + Duration::from_millis(50)) {
            Ok((line, _)) if process::is_bestmove(&line) => {
                searching = false;
            }
            Ok((line, _)) => listener(&line),
            Err(ReadError::Timeout) => {}
            Err(ReadError::Closed | ReadError::Interrupted) => lost = true,
        }
    }
    if searching || lost {
        seat.halt(HALT_GRACE);
    }
    match (lost, seat.failure()) {
        (false, _) => Ok(()),
        (true, Some(why)) => Err(why.to_string()),
        (true, None) => Err("the engine stopped answering".to_string()),
    }
}
