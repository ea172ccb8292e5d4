//! The engine's protocol loop. The calling thread reads and parses lines; `stop`, `ponderhit`
//! and `quit` act on the running search through [`Flags`]; everything else goes over a channel
//! to the one engine thread, which owns the position, the options and the search.

use crate::bench;
use crate::exact::{self, Attempt, Exact};
use crate::protocol::game::{GameSetup, RULE_OPTIONS};
use crate::protocol::io::{Output, Queued, Reader, read_commands};
use crate::protocol::options::{EngineOption, OptionError, judge};
use crate::protocol::{Command, Go};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::search::time::Limits;
use crate::search::tt::Table;
use crate::search::{self, Flags, Report, Settings, Shared, skill};
use crossbeam_channel::{Receiver, unbounded};
use once_cell::sync::Lazy;
use std::io::BufRead;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The engine's name in `id name`.
pub const NAME: &str = concat!("Konane ", env!("CARGO_PKG_VERSION"));

/// Which handshake the GUI used.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Uci,
    Ugi,
}

/// The options `setoption` can change.
#[derive(Clone, Debug)]
struct Options {
    hash_mb: usize,
    threads: usize,
    /// 0 to [`skill::FULL`].
    skill: u8,
    move_overhead: u64,
    ponder: bool,
    /// How many best lines a search reports (`MultiPV`).
    lines: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            skill: skill::FULL,
            move_overhead: 10,
            ponder: false,
            lines: 1,
        }
    }
}

/// Sets one option from its value, already judged to be one the option takes.
type Setter = fn(&mut Options, &str);

/// The whole number a spin option was set to (the value was judged in range first, so the
/// fallback 0 is never taken).
fn number(value: &str) -> u64 {
    value.trim().parse().unwrap_or(0)
}

/// The engine's own options, each declared once with what setting it does: the handshake
/// prints them, and `setoption` is judged by them before it sets anything.
static OPTIONS: Lazy<Vec<(EngineOption, Setter)>> = Lazy::new(|| {
    let defaults = Options::default();
    let setters: [(EngineOption, Setter); 6] = [
        (
            EngineOption::spin("Hash", defaults.hash_mb as i64, 1, 65536),
            |o, v| o.hash_mb = number(v) as usize,
        ),
        (
            EngineOption::spin(
                "Skill",
                i64::from(defaults.skill),
                0,
                i64::from(skill::FULL),
            ),
            |o, v| o.skill = number(v) as u8,
        ),
        (
            EngineOption::spin("Threads", defaults.threads as i64, 1, 256),
            |o, v| o.threads = number(v) as usize,
        ),
        (
            EngineOption::spin("MoveOverhead", defaults.move_overhead as i64, 0, 5000),
            |o, v| o.move_overhead = number(v),
        ),
        (EngineOption::check("Ponder", defaults.ponder), |o, v| {
            o.ponder = v.trim() == "true"
        }),
        (
            EngineOption::spin("MultiPV", defaults.lines as i64, 1, 256),
            |o, v| o.lines = number(v) as usize,
        ),
    ];
    setters.into()
});

impl Options {
    /// Applies one `setoption`; the error names the option, what it takes and the value.
    /// Names are matched without regard to case or spaces (`Move Overhead`).
    fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.unwrap_or("");
        let declared: Vec<EngineOption> = OPTIONS.iter().map(|(o, _)| o.clone()).collect();
        let option =
            judge(&declared, &name.replace(' ', ""), value).map_err(|refused| match refused {
                OptionError::Unknown(..) => {
                    format!("setoption: unknown option '{name}'")
                }
                other => other.setoption_text(),
            })?;
        if let Some((_, setter)) = OPTIONS.iter().find(|(o, _)| o.name == option.name) {
            setter(self, value);
        }
        Ok(())
    }
}

/// What the reading thread knows of the engine thread: the stop flags it sets at once, and
/// whether a long command is passed on (`busy`) and begun (`running`).
struct EngineReader {
    flags: Arc<Flags>,
    busy: Arc<AtomicBool>,
    running: Arc<AtomicBool>,
}

impl Reader for EngineReader {
    fn busy(&self) -> bool {
        self.busy.load(Ordering::SeqCst)
    }

    fn running(&self) -> bool {
        self.running.load(Ordering::SeqCst)
    }

    fn interrupt(&self, command: &Command) {
        match command {
            Command::PonderHit => self.flags.pondering.store(false, Ordering::SeqCst),
            _ => self.flags.stop.store(true, Ordering::SeqCst),
        }
        self.flags.ponder_ended.store(true, Ordering::SeqCst);
    }

    /// Armed here, not on the engine thread, so that a `stop` sent right after `go` or
    /// `bench` is never lost.
    fn arm(&self, command: &Command) {
        match command {
            Command::Go(go) => {
                self.flags.stop.store(false, Ordering::SeqCst);
                self.flags.pondering.store(go.ponder, Ordering::SeqCst);
                self.flags.ponder_ended.store(false, Ordering::SeqCst);
                self.busy.store(true, Ordering::SeqCst);
            }
            Command::Bench(_) => {
                self.flags.stop.store(false, Ordering::SeqCst);
                self.busy.store(true, Ordering::SeqCst);
            }
            _ => {}
        }
    }
}

/// Runs the protocol until `quit` or the end of `input`.
pub fn run(input: impl BufRead, output: Output) {
    let reader = EngineReader {
        flags: Arc::new(Flags::default()),
        busy: Arc::new(AtomicBool::new(false)),
        running: Arc::new(AtomicBool::new(false)),
    };
    let (sender, receiver) = unbounded();
    let engine_thread = {
        let (output, flags) = (output.clone(), reader.flags.clone());
        let activity = [reader.busy.clone(), reader.running.clone()];
        std::thread::spawn(move || EngineThread::new(output, flags, activity).serve(receiver))
    };
    read_commands(input, &output, &reader, &sender);
    reader.flags.stop.store(true, Ordering::SeqCst);
    // The engine thread ends when the queue closes, after the commands still in it.
    drop(sender);
    let _ = engine_thread.join();
}

/// The engine thread's state.
struct EngineThread {
    output: Output,
    flags: Arc<Flags>,
    /// Set by the reading thread when it passes on a `go` or `bench`, cleared when it ends.
    busy: Arc<AtomicBool>,
    /// Set by this thread when it starts a `go` or `bench`, cleared when it ends.
    running: Arc<AtomicBool>,
    options: Options,
    dialect: Dialect,
    /// The rule options and the position.
    setup: GameSetup,
    tt: Table,
    tt_mb: usize,
    /// Proofs of small positions, tried before searching them.
    exact: Exact,
}

impl EngineThread {
    /// Marks the long command over. Called before its last line goes out: the GUI may send
    /// its next `go` the moment it reads that line, and clearing `busy` after the `go` armed
    /// it would leave an `isready` waiting behind that search.
    fn finished_long_command(&self) {
        self.running.store(false, Ordering::SeqCst);
        self.busy.store(false, Ordering::SeqCst);
    }

    fn new(output: Output, flags: Arc<Flags>, activity: [Arc<AtomicBool>; 2]) -> EngineThread {
        let options = Options::default();
        let [busy, running] = activity;
        EngineThread {
            output,
            flags,
            busy,
            running,
            setup: GameSetup::default(),
            tt: Table::new(options.hash_mb),
            tt_mb: options.hash_mb,
            exact: Exact::new(),
            options,
            dialect: Dialect::Uci,
        }
    }

    fn serve(mut self, receiver: Receiver<Queued>) {
        while let Ok(message) = receiver.recv() {
            match message {
                Queued::Command(command) => self.handle(command),
                Queued::Error(error) => self.output.error(&error),
            }
        }
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Uci | Command::Ugi => {
                let ugi = command == Command::Ugi;
                self.dialect = if ugi { Dialect::Ugi } else { Dialect::Uci };
                self.output.line(&format!("id name {NAME}"));
                self.output.line("id author the Konane engine developers");
                let own = OPTIONS.iter().map(|(option, _)| option);
                for option in own.chain(RULE_OPTIONS.iter()) {
                    self.output.line(&option.line());
                }
                self.output.line(if ugi { "ugiok" } else { "uciok" });
            }
            Command::IsReady => {
                self.prepare_tables();
                self.output.line("readyok");
            }
            Command::NewGame => {
                self.prepare_tables();
                self.tt.clear();
            }
            Command::SetOption { name, value } => {
                let set = match self.setup.set_option(&name, value.as_deref()) {
                    Ok(false) => self.options.set(&name, value.as_deref()),
                    done => done.map(|_| ()),
                };
                if let Err(error) = set {
                    self.output.error(&error);
                }
            }
            Command::Position { start, moves } => {
                if let Err(error) = self.setup.set_position(&start, &moves) {
                    self.output.error(&format!("position: {error}"));
                }
            }
            Command::Go(go) => {
                self.running.store(true, Ordering::SeqCst);
                self.go(&go)
            }
            Command::Query(query) => self.output.line(&self.setup.answer(query)),
            Command::Display => self.display(),
            Command::Eval => {
                let score = search::eval::evaluate_position(&self.setup.position);
                let side = self.setup.position.side_to_move();
                self.output
                    .line(&format!("info string eval {score} cp for {side}"));
            }
            Command::Bench(depth) => {
                self.running.store(true, Ordering::SeqCst);
                let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
                let answer = match bench::run(depth, &self.flags) {
                    Some(result) => format!("{} nodes {} nps", result.nodes, result.nps()),
                    None => "info string bench stopped".to_string(),
                };
                self.finished_long_command();
                self.output.line(&answer);
            }
            Command::Stop | Command::PonderHit | Command::Quit => {}
        }
    }

    /// Readies both tables for the next search while no clock runs: the search's at the size
    /// `Hash` asks for, the proofs' for the rules of the options.
    fn prepare_tables(&mut self) {
        self.resize_table();
        if let Ok(rules) = self.setup.rules() {
            self.exact.prepare(rules);
        }
    }

    /// Gives the table the size `Hash` asks for; if that memory cannot be had, says so and
    /// keeps the table (and the option) as they were.
    fn resize_table(&mut self) {
        if self.tt_mb == self.options.hash_mb {
            return;
        }
        // The old table goes first, so that its memory can serve the new one.
        self.tt = Table::new(1);
        match Table::try_new(self.options.hash_mb) {
            Ok(table) => {
                self.tt = table;
                self.tt_mb = self.options.hash_mb;
            }
            Err(error) => {
                self.output
                    .error(&format!("setoption: {error}; Hash stays {} MB", self.tt_mb));
                self.options.hash_mb = self.tt_mb;
                self.tt = Table::new(self.tt_mb);
            }
        }
    }

    fn display(&self) {
        let position = &self.setup.position;
        for line in position.pretty().lines() {
            self.output.line(line);
        }
        self.output.line(&format!("Fen: {}", position.fen()));
        self.output.line(&format!("Rules: {}", position.rules()));
        self.output.line(&format!("Key: {:016x}", position.hash()));
        self.output
            .line(&format!("Side to move: {}", position.side_to_move()));
        let moves: Vec<String> = position
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        self.output
            .line(&format!("Legal moves: {}", moves.join(" ")));
    }

    fn limits(&self, go: &Go) -> Limits {
        let (time, increment) = match self.setup.position.side_to_move() {
            Color::Black => (go.black_time, go.black_inc),
            Color::White => (go.white_time, go.white_inc),
        };
        Limits {
            time: time.map(Duration::from_millis),
            increment: Duration::from_millis(increment.unwrap_or(0)),
            moves_to_go: go.moves_to_go.map(|n| n.min(u64::from(u32::MAX)) as u32),
            move_time: go.move_time.map(Duration::from_millis),
            depth: go.depth.map(|d| d.min(u64::from(u32::MAX)) as u32),
            nodes: go.nodes,
            infinite: go.infinite,
            root_moves: Vec::new(),
        }
    }

    /// Under a time limit, in a small position, tries to prove a win before the search, taking
    /// at most [`exact::PROOF_SHARE`] of the budget counted from `started`. A win is reported
    /// as `score mate N`. Pondering, the proof runs on the opponent's time until `ponderhit`,
    /// then for the same share of the budget counted from there. Returns the attempt and when
    /// our clock started (`started`, or the `ponderhit` that came during the proof).
    fn attempt_proof(
        &mut self,
        go: &Go,
        overhead: Duration,
        started: Instant,
    ) -> (Attempt, Instant) {
        if go.infinite || !go.search_moves.is_empty() {
            return (Attempt::default(), started);
        }
        let Some(budget) = search::budget(&self.setup.position, &self.limits(go), overhead) else {
            return (Attempt::default(), started);
        };
        let share = budget.soft.mul_f64(exact::PROOF_SHARE);
        let position = self.setup.position;
        let (attempt, clock_started) = if go.ponder {
            let pondered = self
                .exact
                .ponder(&position, share, &self.flags.ponder_ended);
            let hit = self.flags.ponder_ended.load(Ordering::SeqCst)
                && !self.flags.pondering.load(Ordering::SeqCst)
                && !self.flags.stop.load(Ordering::SeqCst);
            if hit && pondered.win.is_none() {
                // `ponderhit` stopped the proof: it goes on under our clock, its table kept.
                let now = Instant::now();
                let mut attempt = self.exact.attempt(&position, now + share, &self.flags.stop);
                for mv in pondered.losing {
                    if !attempt.losing.contains(&mv) {
                        attempt.losing.push(mv);
                    }
                }
                (attempt, now)
            } else {
                (pondered, started)
            }
        } else {
            let attempt = self
                .exact
                .attempt(&position, started + share, &self.flags.stop);
            (attempt, started)
        };
        if let Some(win) = attempt.win {
            let elapsed = started.elapsed();
            let millis = elapsed.as_millis().max(1) as u64;
            let line = match win.reply {
                Some(reply) => format!("{} {reply}", win.best),
                None => win.best.to_string(),
            };
            self.output.line(&format!(
                "info depth {} score mate {} nodes {} nps {} time {} pv {line}",
                win.mate_in * 2 - 1,
                win.mate_in,
                win.nodes,
                win.nodes * 1000 / millis,
                elapsed.as_millis(),
            ));
        }
        (attempt, clock_started)
    }

    fn go(&mut self, go: &Go) {
        let started = Instant::now();
        if let Some(depth) = go.perft {
            let depth = depth.min(u64::from(u32::MAX)) as u32;
            let finished = perft_report(
                &self.setup.position,
                depth,
                true,
                &self.flags.stop,
                |line| self.output.line(line),
            );
            let last = match finished {
                Some(nodes) => perft_total(nodes),
                None => "info string perft stopped: the counts above are complete, the rest were not counted".to_string(),
            };
            self.finished_long_command();
            self.output.line(&last);
            return;
        }
        self.resize_table();
        let settings = Settings {
            threads: self.options.threads,
            move_overhead: Duration::from_millis(self.options.move_overhead),
            skill: self.options.skill,
            lines: self.options.lines,
        };
        // Exact play is full strength's alone.
        let (attempt, started) = if settings.skill == skill::FULL {
            self.attempt_proof(go, settings.move_overhead, started)
        } else {
            (Attempt::default(), started)
        };
        if let Some(win) = attempt.win {
            // No proof is tried under `go infinite`: a ponder alone holds bestmove back.
            self.flags.wait_for_the_end_of_thinking(false);
            self.finished_long_command();
            self.bestmove(Some(win.best), win.reply);
            return;
        }
        let mut limits = self.limits(go);
        let mut legal = self.setup.position.legal_moves();
        if !go.search_moves.is_empty() {
            let illegal: Vec<String> = go
                .search_moves
                .iter()
                .filter(|mv| !legal.contains(mv))
                .map(ToString::to_string)
                .collect();
            if !illegal.is_empty() {
                self.output.line(&format!(
                    "info string searchmoves: not legal here, left out: {}",
                    illegal.join(" ")
                ));
            }
            if illegal.len() < go.search_moves.len() {
                legal.retain(|mv| go.search_moves.contains(mv));
                limits.root_moves = legal.clone();
            }
        }
        // No proof is attempted under searchmoves, so the losing moves are of the whole list.
        if !attempt.losing.is_empty() && attempt.losing.len() < legal.len() {
            // The search plays on among the moves not proven to lose.
            limits.root_moves = legal
                .into_iter()
                .filter(|mv| !attempt.losing.contains(mv))
                .collect();
        }
        let output = self.output.clone();
        let shared = Shared {
            tt: &self.tt,
            flags: &self.flags,
        };
        let outcome = search::search(
            &self.setup.position,
            &limits,
            settings,
            shared,
            started,
            &mut |report| {
                log::debug!(
                    "iteration: depth {} line {:?} score {:?} nodes {} after {} ms",
                    report.depth,
                    report.multipv,
                    report.score,
                    report.nodes,
                    report.elapsed.as_millis()
                );
                output.line(&info_line(report));
            },
        );
        self.finished_long_command();
        log::debug!(
            "search done: {} nodes in {} ms",
            outcome.nodes,
            started.elapsed().as_millis()
        );
        self.bestmove(outcome.best, outcome.ponder);
    }

    /// Sends `bestmove` (`0000` when there is no move), naming the reply to ponder on where
    /// the dialect has it.
    fn bestmove(&self, best: Option<Move>, reply: Option<Move>) {
        let best = best.map_or("0000".to_string(), |m| m.to_string());
        let ponder = match (self.dialect, reply) {
            (Dialect::Uci, Some(reply)) => format!(" ponder {reply}"),
            _ => String::new(),
        };
        self.output.line(&format!("bestmove {best}{ponder}"));
    }
}

/// Below this depth a perft runs to its end without looking at the stop flag: such a subtree
/// takes milliseconds even on 26x26.
const PERFT_UNWATCHED_DEPTH: u32 = 3;

/// Leaf positions `depth` plies ahead, or `None` as soon as `stop` is seen.
fn perft_until_stopped(position: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= PERFT_UNWATCHED_DEPTH {
        return Some(position.perft(depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for mv in position.legal_moves() {
        let mut child = *position;
        child.play_unchecked(mv);
        total += perft_until_stopped(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// Counts leaf positions `depth` plies ahead, writing one `<move>: <count>` line per legal move
/// when `divide` is set; returns the total, for [`perft_total`]. When `stop` is set it returns
/// `None` at once, after the lines of the moves already counted.
pub fn perft_report(
    position: &Position,
    depth: u32,
    divide: bool,
    stop: &AtomicBool,
    mut write: impl FnMut(&str),
) -> Option<u64> {
    let nodes = if divide && depth > 0 {
        let flow = position.legal_moves().into_iter().try_fold(0, |sum, mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            match perft_until_stopped(&child, depth - 1, stop) {
                Some(count) => {
                    write(&format!("{mv}: {count}"));
                    ControlFlow::Continue(sum + count)
                }
                None => ControlFlow::Break(()),
            }
        });
        match flow {
            ControlFlow::Continue(total) => total,
            ControlFlow::Break(()) => return None,
        }
    } else {
        perft_until_stopped(position, depth, stop)?
    };
    Some(nodes)
}

/// The line that ends a perft: `Nodes searched: <total>`.
pub fn perft_total(nodes: u64) -> String {
    format!("Nodes searched: {nodes}")
}

/// The `info` line of one finished iteration.
fn info_line(report: &Report) -> String {
    let score = report.score;
    let millis = report.elapsed.as_millis().max(1) as u64;
    let pv: Vec<String> = report.pv.iter().map(|m| m.to_string()).collect();
    let multipv = report
        .multipv
        .map_or(String::new(), |rank| format!(" multipv {rank}"));
    format!(
        "info depth {} seldepth {}{multipv} score {} nodes {} nps {} time {} hashfull {} pv {}",
        report.depth,
        report.seldepth,
        score,
        report.nodes,
        report.nodes * 1000 / millis,
        report.elapsed.as_millis(),
        report.hashfull,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::scripted::{LineTest, Script};

    /// A `go` that arrives while the last line of the long command before it is being written
    /// keeps its `isready` answered during the search: the engine marks the command over
    /// before that line, so it never undoes the new `go`'s arming.
    #[test]
    fn a_go_sent_as_a_long_command_ends_keeps_isready_answered() {
        let cases: [(&str, LineTest); 3] = [
            ("go depth 1", |line| line.starts_with("bestmove")),
            ("go perft 2", |line| line.starts_with("Nodes searched")),
            ("bench 1", |line| line.ends_with(" nps")),
        ];
        for (command, is_last_line) in cases {
            let mut script = Script::start(is_last_line, run);
            script.send(&format!("position startpos\n{command}\n"));
            script.wait_held();
            script.isready_in_a_search_sent_before_the_held_line();
            if command.starts_with("go depth") {
                script.wait_held();
                script.release();
            }
            let lines = script.finish();
            let searched = usize::from(command.starts_with("go depth"));
            let answers: Vec<&String> = lines
                .iter()
                .filter(|l| l.starts_with("bestmove") || *l == "readyok")
                .skip(searched)
                .collect();
            assert_eq!(
                answers.first().map(|l| l.as_str()),
                Some("readyok"),
                "{command}: {lines:?}"
            );
            assert!(
                answers.last().is_some_and(|l| l.starts_with("bestmove")),
                "{command}: {lines:?}"
            );
        }
    }
}
