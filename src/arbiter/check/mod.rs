//! `konane-arbiter check`: a compliance report for one engine. Each check drives the engine
//! through the protocol of protocol.md and ends `PASS`, `FAIL` or `SKIP` with its evidence: what
//! was sent, and what came back or that nothing came within the deadline.

use crate::arbiter::log::Log;
use crate::arbiter::process::{
    EngineProcess, HandshakeError, ReadError, describe_exit, is_bestmove,
};
use crate::arbiter::spec::EngineSpec;
use crate::protocol::options::{self, EngineOption};
use crate::rules::mix::Random;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::rules::{Capture, Opening, Rules};
use std::fmt;
use std::time::{Duration, Instant};

/// How a check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The engine did what the protocol asks.
    Pass,
    /// It did not; the evidence says what happened.
    Fail,
    /// The check could not be run (the evidence says why).
    Skip,
}

/// One line of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The check's name.
    pub name: &'static str,
    /// Its outcome.
    pub outcome: Outcome,
    /// What was sent and what came back.
    pub evidence: String,
}

impl fmt::Display for CheckResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.outcome {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::Skip => "SKIP",
        };
        write!(f, "{word} {}: {}", self.name, self.evidence)
    }
}

/// What `check` needs besides the engine.
#[derive(Clone)]
pub struct CheckSettings {
    /// Fewer random positions and clocks.
    pub quick: bool,
    /// How long a handshake, `isready` or a `go` beyond its own limit may take.
    pub timeout: Duration,
    /// How late a move may be beyond `movetime` or the clock.
    pub margin: Duration,
    /// Seed for the random positions.
    pub seed: u64,
    /// `--log`.
    pub log: Log,
}

/// The evidence of a failed step.
type Evidence = String;

/// Quotes a line as evidence, cut to a readable length.
fn quote(line: &str) -> String {
    let cut: String = line.chars().take(120).collect();
    if cut.len() < line.len() {
        format!("\"{cut}...\"")
    } else {
        format!("\"{cut}\"")
    }
}

/// Every check, in the order of the report.
pub const CHECKS: [&str; 17] = [
    "handshake",
    "options",
    "isready",
    "newgame",
    "startpos",
    "fen",
    "legal-moves",
    "no-move",
    "movetime",
    "clock",
    "isready-in-search",
    "stop",
    "multipv",
    "ugi",
    "bad-input",
    "output",
    "quit",
];

mod handshake;
mod moves;
mod robustness;
mod search;
mod session;
mod setup;

use session::Session;
use setup::Announced;

/// Runs every check against the engine `spec`, calling `report` as each one ends.
pub fn run(
    spec: &EngineSpec,
    settings: &CheckSettings,
    mut report: impl FnMut(&CheckResult),
) -> Vec<CheckResult> {
    let mut checker = Checker {
        spec,
        settings,
        results: Vec::new(),
        session: None,
        announced: Announced::default(),
        stray: Vec::new(),
        stray_count: 0,
    };
    checker.all(&mut report);
    checker.results
}

/// The state carried from check to check.
struct Checker<'a> {
    spec: &'a EngineSpec,
    settings: &'a CheckSettings,
    results: Vec<CheckResult>,
    /// The engine, kept between checks while it behaves; restarted after a failure.
    session: Option<Session>,
    announced: Announced,
    stray: Vec<String>,
    stray_count: usize,
}

impl Checker<'_> {
    fn record(
        &mut self,
        name: &'static str,
        outcome: Outcome,
        evidence: String,
        report: &mut impl FnMut(&CheckResult),
    ) {
        // Once cancelled every wait fails at once: those failures are not the engine's.
        if self.spec.launch.cancel.is_cancelled() {
            return;
        }
        let result = CheckResult {
            name,
            outcome,
            evidence,
        };
        report(&result);
        self.results.push(result);
    }

    /// Runs one check on a ready engine: a failure discards the engine, so that the next check
    /// starts a fresh one; an engine that cannot be made ready skips the check.
    fn on_engine(
        &mut self,
        name: &'static str,
        report: &mut impl FnMut(&CheckResult),
        check: impl FnOnce(&mut Session, &Announced) -> Result<String, Evidence>,
    ) {
        if self.session.is_none() {
            match Session::ready(self.spec, self.settings) {
                Ok(session) => self.session = Some(session),
                Err(why) => {
                    let evidence = format!("the engine could not be made ready: {why}");
                    return self.record(name, Outcome::Skip, evidence, report);
                }
            }
        }
        let session = self.session.as_mut().expect("made ready above");
        let outcome = check(session, &self.announced);
        match outcome {
            Ok(evidence) => self.record(name, Outcome::Pass, evidence, report),
            Err(evidence) => {
                self.retire();
                self.record(name, Outcome::Fail, evidence, report);
            }
        }
    }

    /// Drops the engine, keeping what it said that was not protocol.
    fn retire(&mut self) {
        if let Some(session) = self.session.take() {
            self.keep_stray(&session);
        }
    }

    fn keep_stray(&mut self, session: &Session) {
        self.stray_count += session.stray_count;
        for line in &session.stray {
            if self.stray.len() < 3 && !self.stray.contains(line) {
                self.stray.push(line.clone());
            }
        }
    }

    fn all(&mut self, report: &mut impl FnMut(&CheckResult)) {
        if !self.handshake(report) {
            for name in CHECKS {
                if !self.results.iter().any(|result| result.name == name) {
                    let why = "no ready engine: see handshake and isready".to_string();
                    self.record(name, Outcome::Skip, why, report);
                }
            }
            return;
        }
        let new_game = format!("{}newgame", self.spec.protocol);
        self.on_engine("newgame", report, |s, _| {
            s.send(&new_game)?;
            let took = s.sync(&new_game)?;
            Ok(format!(
                "{new_game}, isready: readyok after {} ms",
                took.as_millis()
            ))
        });
        self.positions(report);
        self.limits(report);
        self.infinite(report);
        self.multipv(report);
        self.ugi(report);
        self.bad_input(report);
        self.output(report);
        self.quit(report);
    }
}
