//! `konane-arbiter check`: a compliance report for one engine. Each check drives the engine
//! through the protocol of protocol.md and ends `PASS`, `FAIL` or `SKIP` with its evidence: what
//! was sent, and what came back or that nothing came within the deadline.

use crate::arbiter::log::Log;
use crate::arbiter::options::{self, EngineOption};
use crate::arbiter::process::{
    self, EngineProcess, HandshakeError, ReadError, describe_exit, is_bestmove,
};
use crate::arbiter::spec::EngineSpec;
use crate::rules::board::splitmix64;
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

/// The first words a protocol message may start with.
const MESSAGES: [&str; 10] = [
    "id",
    "option",
    "uciok",
    "ugiok",
    "readyok",
    "bestmove",
    "info",
    "response",
    "copyprotection",
    "registration",
];

/// One running engine, with what it said that is not protocol.
struct Session {
    process: EngineProcess,
    protocol: String,
    timeout: Duration,
    /// Lines that are not protocol messages (the first few), and how many there were.
    stray: Vec<String>,
    stray_count: usize,
    /// The last few commands sent since the engine last wrote a line: if it exits, one of
    /// them made it.
    unanswered: Vec<String>,
}

impl Session {
    /// Starts the engine; the handshake is up to the caller.
    fn start(spec: &EngineSpec, settings: &CheckSettings) -> Result<Session, Evidence> {
        let process = EngineProcess::start(&spec.launch, settings.log.clone())?;
        Ok(Session {
            process,
            protocol: spec.protocol.clone(),
            timeout: settings.timeout,
            stray: Vec::new(),
            stray_count: 0,
            unanswered: Vec::new(),
        })
    }

    /// Starts the engine and completes the handshake and `isready`.
    fn ready(spec: &EngineSpec, settings: &CheckSettings) -> Result<Session, Evidence> {
        let mut session = Session::start(spec, settings)?;
        let protocol = spec.protocol.clone();
        session.send(&protocol)?;
        session.expect(&protocol, &format!("{protocol}ok"), session.timeout, |l| {
            l == format!("{protocol}ok")
        })?;
        session.set_options(spec)?;
        session.sync("isready")?;
        Ok(session)
    }

    /// Sends the user's `option.NAME=VALUE` settings: the engine is checked as it will play.
    fn set_options(&mut self, spec: &EngineSpec) -> Result<(), Evidence> {
        for (name, value) in &spec.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Evidence> {
        match self.process.send(line) {
            Ok(()) => {
                self.sent(line);
                Ok(())
            }
            Err(_) => Err(format!("could not send {}: {}", quote(line), self.gone(""))),
        }
    }

    /// Sends `bytes` as one line, shown as `shown` in the evidence.
    fn send_bytes(&mut self, bytes: &[u8], shown: &str) -> Result<(), Evidence> {
        match self.process.send_bytes(bytes) {
            Ok(()) => {
                self.sent(shown);
                Ok(())
            }
            Err(_) => Err(format!("could not send {shown}: {}", self.gone(""))),
        }
    }

    fn sent(&mut self, line: &str) {
        if self.unanswered.len() == 3 {
            self.unanswered.remove(0);
        }
        self.unanswered.push(quote(line));
    }

    /// Why the engine no longer listens: its exit status if it has one, the commands it was
    /// sent since it last wrote, `context`, then its last lines, stderr's included.
    fn gone(&mut self, context: &str) -> String {
        let how = match self.process.exit_status(Duration::from_millis(200)) {
            Some(status) => {
                self.process.settle_stderr(Duration::from_millis(300));
                format!("the engine exited ({})", describe_exit(status))
            }
            None => "the engine closed its input or output".to_string(),
        };
        let after = match self.unanswered.as_slice() {
            [] => String::new(),
            sent => format!(" after it was sent {}", sent.join(", then ")),
        };
        format!("{how}{after}{context}{}", self.process.last_lines())
    }

    /// The next line, classified: stray lines are noted and still returned.
    fn read(&mut self, deadline: Instant) -> Result<(String, Instant), ReadError> {
        let (line, at) = self.process.read_line(deadline)?;
        self.unanswered.clear();
        let first = line.split_whitespace().next().unwrap_or("");
        if !first.is_empty() && !MESSAGES.contains(&first) {
            self.stray_count += 1;
            if self.stray.len() < 3 && !self.stray.contains(&line) {
                self.stray.push(line.clone());
            }
        }
        Ok((line, at))
    }

    /// Reads until a line satisfies `wanted` within `within`; the evidence of a failure quotes
    /// what was sent (`sent`), what was awaited and the last lines that came instead.
    fn expect(
        &mut self,
        sent: &str,
        awaited: &str,
        within: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<(String, Duration), Evidence> {
        let asked = Instant::now();
        let deadline = asked + within;
        let mut seen: Vec<String> = Vec::new();
        loop {
            match self.read(deadline) {
                Ok((line, at)) if wanted(line.trim()) => {
                    return Ok((line, at.saturating_duration_since(asked)));
                }
                Ok((line, _)) => {
                    if seen.len() == 2 {
                        seen.remove(0);
                    }
                    seen.push(line);
                }
                Err(error) => {
                    let why = match error {
                        ReadError::Timeout => {
                            format!("no {awaited} within {} ms", within.as_millis())
                        }
                        ReadError::Closed => self.gone(&format!(" before {awaited}")),
                        ReadError::Interrupted => format!("interrupted before {awaited}"),
                    };
                    let mut text = format!("sent {}: {why}", quote(sent));
                    if !seen.is_empty() {
                        let quoted: Vec<String> = seen.iter().map(|l| quote(l)).collect();
                        text += &format!(" (last lines: {})", quoted.join(", "));
                    }
                    return Err(text);
                }
            }
        }
    }

    /// Sends `isready` (after `before`, for the evidence) and waits for `readyok`.
    fn sync(&mut self, before: &str) -> Result<Duration, Evidence> {
        self.send("isready")?;
        let sent = if before == "isready" {
            "isready".to_string()
        } else {
            format!("{before}, then isready")
        };
        self.expect(&sent, "readyok", self.timeout, |l| l == "readyok")
            .map(|(_, took)| took)
    }

    /// Sends `go ...` and waits for `bestmove` within `within`: the move's text and the time.
    fn go(&mut self, go: &str, within: Duration) -> Result<(String, Duration), Evidence> {
        self.send(go)?;
        let (line, took) = self.expect(go, "bestmove", within, is_bestmove)?;
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"bestmove") {
            return Err(format!("sent {}: got {}", quote(go), quote(&line)));
        }
        if self.protocol == "ugi" && words.len() != 2 {
            return Err(format!(
                "sent {}: got {}, but after ugi bestmove has exactly two words",
                quote(go),
                quote(&line)
            ));
        }
        Ok((words.get(1).unwrap_or(&"").to_string(), took))
    }

    /// Sends `quit` and waits for the process to end; `Err` if it is still running.
    fn quit(mut self, grace: Duration) -> Result<String, Evidence> {
        self.send("quit")?;
        match self.process.exit_status(grace) {
            Some(status) => Ok(describe_exit(status)),
            None => Err(format!(
                "sent \"quit\": the engine was still running after {} ms (killed)",
                grace.as_millis()
            )),
        }
    }
}

/// What the engine announced in its handshake that the checks use.
#[derive(Clone, Debug, Default)]
struct Announced {
    width: Option<(u8, u8, u8)>,
    height: Option<(u8, u8, u8)>,
    openings: Vec<Opening>,
    captures: Vec<Capture>,
    /// The engine announced a `MultiPV` spin that allows several lines.
    multipv: bool,
}

impl Announced {
    fn from_options(options: &[EngineOption]) -> Announced {
        let find = |name: &str| options.iter().find(|o| o.name.eq_ignore_ascii_case(name));
        let spin = |name: &str| {
            let option = find(name)?;
            let clamp = |v: i64| v.clamp(2, 26) as u8;
            let default = option.default.as_deref()?.parse().ok()?;
            Some((clamp(option.min?), clamp(option.max?), clamp(default)))
        };
        let combo =
            |name: &str| -> Vec<String> { find(name).map_or(Vec::new(), |o| o.vars.clone()) };
        Announced {
            width: spin("Width"),
            height: spin("Height"),
            openings: combo("Opening")
                .iter()
                .filter_map(|v| v.parse().ok())
                .collect(),
            captures: combo("Capture")
                .iter()
                .filter_map(|v| v.parse().ok())
                .collect(),
            multipv: find("MultiPV").is_some_and(|o| o.kind == "spin" && o.max >= Some(3)),
        }
    }

    /// The rules the engine plays when nothing is set: its defaults, else 8x8.
    fn default_rules(&self) -> Rules {
        let side = |spin: Option<(u8, u8, u8)>| usize::from(spin.map_or(8, |(_, _, d)| d));
        Rules::new(
            side(self.width),
            side(self.height),
            Opening::Traditional,
            Capture::Straight,
        )
        .unwrap_or_default()
    }

    /// The `setoption` lines that select `rules`, for the options the engine announced.
    fn select(&self, rules: Rules) -> Vec<String> {
        let mut lines = Vec::new();
        if self.width.is_some() {
            lines.push(format!("setoption name Width value {}", rules.width()));
        }
        if self.height.is_some() {
            lines.push(format!("setoption name Height value {}", rules.height()));
        }
        if !self.openings.is_empty() {
            lines.push(format!("setoption name Opening value {}", rules.opening));
        }
        if !self.captures.is_empty() {
            lines.push(format!("setoption name Capture value {}", rules.capture));
        }
        lines
    }

    /// A description of the rule space, for the evidence.
    fn describe(&self) -> String {
        let range = |spin: Option<(u8, u8, u8)>| {
            spin.map_or("8".to_string(), |(min, max, _)| format!("{min}..{max}"))
        };
        let list = |names: Vec<&str>| {
            if names.is_empty() {
                "default".to_string()
            } else {
                names.join("/")
            }
        };
        format!(
            "width {}, height {}, opening {}, capture {}",
            range(self.width),
            range(self.height),
            list(self.openings.iter().map(|o| o.name()).collect()),
            list(self.captures.iter().map(|c| c.name()).collect())
        )
    }
}

/// A seeded random source for the random positions.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        (splitmix64(self.0) % n.max(1) as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T], otherwise: T) -> T {
        if items.is_empty() {
            otherwise
        } else {
            items[self.below(items.len())]
        }
    }
}

/// A random position under the announced rules that is not over, with the moves from the
/// start that reach it.
fn random_position(announced: &Announced, random: &mut Random) -> (Rules, Vec<Move>, Position) {
    loop {
        let side = |random: &mut Random, spin: Option<(u8, u8, u8)>| match spin {
            Some((min, max, _)) => usize::from(min) + random.below(usize::from(max - min) + 1),
            None => 8,
        };
        let width = side(random, announced.width);
        let height = side(random, announced.height);
        let opening = random.pick(&announced.openings, Opening::Traditional);
        let capture = random.pick(&announced.captures, Capture::Straight);
        let Ok(rules) = Rules::new(width, height, opening, capture) else {
            continue;
        };
        let Ok(mut position) = Position::start(rules) else {
            continue;
        };
        let plies = random.below(width * height / 2 + 3);
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = position.legal_moves();
            let mv = legal[random.below(legal.len())];
            let mut next = position;
            next.play_unchecked(mv);
            if next.is_game_over() {
                break;
            }
            position = next;
            moves.push(mv);
        }
        return (rules, moves, position);
    }
}

/// Sets up a position worth thinking about and starts `go infinite` on it; waits 200 ms so
/// that the search is well under way.
fn start_infinite(s: &mut Session, announced: &Announced) -> Result<Position, Evidence> {
    let (_, moves, position) = opening_line(announced.default_rules());
    s.send(&position_command(&position, &moves, false))?;
    s.send("go infinite")?;
    std::thread::sleep(Duration::from_millis(200));
    Ok(position)
}

/// The `position` command for `moves` from the start, or for the position string.
fn position_command(position: &Position, moves: &[Move], as_fen: bool) -> String {
    if as_fen {
        return format!("position fen {}", position.fen());
    }
    let mut command = "position startpos".to_string();
    if !moves.is_empty() {
        let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        command += &format!(" moves {}", texts.join(" "));
    }
    command
}

/// Checks that `text` is a legal move in `position`, naming what was wrong if not.
fn legal_in(position: &Position, text: &str, asked: &str) -> Result<(), Evidence> {
    let mv: Move = text.parse().map_err(|e| {
        format!(
            "{asked}: got \"bestmove {text}\", which is not a move ({e}); legal: {}",
            some_moves(position)
        )
    })?;
    let mut after = *position;
    after.play(mv).map_err(|e| {
        format!(
            "{asked}: got \"bestmove {text}\", which is illegal here ({e}); legal: {}",
            some_moves(position)
        )
    })
}

/// A few legal moves, for the evidence.
fn some_moves(position: &Position) -> String {
    let moves = position.legal_moves();
    let mut texts: Vec<String> = moves.iter().take(6).map(|m| m.to_string()).collect();
    if moves.len() > 6 {
        texts.push(format!("... ({} in all)", moves.len()));
    }
    if texts.is_empty() {
        "none".to_string()
    } else {
        texts.join(" ")
    }
}

/// A position of `rules`' size in which the side to move (Black) has no move: one black and
/// one white stone in opposite corners.
fn no_move_position(rules: Rules) -> String {
    let (width, height) = (usize::from(rules.width()), usize::from(rules.height()));
    let mut ranks = Vec::new();
    for rank in (0..height).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..width {
            let stone = match (file, rank) {
                (0, r) if r == height - 1 => Some('b'),
                (f, 0) if f == width - 1 => Some('w'),
                _ => None,
            };
            match stone {
                Some(letter) => {
                    if empty > 0 {
                        text += &empty.to_string();
                        empty = 0;
                    }
                    text.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text += &empty.to_string();
        }
        ranks.push(text);
    }
    format!("{} b", ranks.join("/"))
}

/// The `go` parameters of a clock, in the dialect's names.
fn clock_go(protocol: &str, side: Color, millis: u64) -> String {
    let (black, white, binc, winc) = if protocol == "ugi" {
        ("p1time", "p2time", "p1inc", "p2inc")
    } else {
        ("btime", "wtime", "binc", "winc")
    };
    let (mine, theirs) = match side {
        Color::Black => (millis, 60_000),
        Color::White => (60_000, millis),
    };
    format!("go {black} {mine} {white} {theirs} {binc} 0 {winc} 0")
}

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
        // After Ctrl-C every wait fails at once: those failures are not the engine's.
        if process::interrupted() {
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

    /// `uci`/`ugi`: `id name`, well-formed options, the `ok` line.
    fn handshake(&mut self, report: &mut impl FnMut(&CheckResult)) -> bool {
        let protocol = self.spec.protocol.clone();
        let ok = format!("{protocol}ok");
        let mut session = match Session::start(self.spec, self.settings) {
            Ok(session) => session,
            Err(why) => {
                self.record("handshake", Outcome::Fail, why, report);
                self.record("options", Outcome::Skip, "no handshake".into(), report);
                self.record("isready", Outcome::Skip, "no handshake".into(), report);
                return false;
            }
        };
        let deadline = Instant::now() + self.settings.timeout;
        let mut lines = Vec::new();
        let answered = session
            .process
            .send(&protocol)
            .and_then(|_| {
                loop {
                    match session.read(deadline) {
                        Ok((line, _)) if line.trim() == ok => break Ok(()),
                        Ok((line, _)) => lines.push(line),
                        Err(error) => break Err(error),
                    }
                }
            })
            .map_err(|error| {
                let failure = HandshakeError {
                    awaited: ok.clone(),
                    error,
                };
                let why = session.process.explain(&failure, self.settings.timeout);
                format!("sent \"{protocol}\": {why}")
            });
        if let Err(why) = answered {
            self.keep_stray(&session);
            self.record("handshake", Outcome::Fail, why, report);
            self.record("options", Outcome::Skip, "no handshake".into(), report);
            self.record("isready", Outcome::Skip, "no handshake".into(), report);
            return false;
        }
        let name = lines
            .iter()
            .find_map(|l| l.trim().strip_prefix("id name "))
            .map(str::to_string);
        let mut options = Vec::new();
        let mut malformed = Vec::new();
        for line in lines.iter().filter(|l| l.starts_with("option")) {
            match options::parse(line) {
                Ok(option) => options.push(option),
                Err(why) => malformed.push(format!("{} ({why})", quote(line))),
            }
        }
        match &name {
            Some(name) => self.record(
                "handshake",
                Outcome::Pass,
                format!(
                    "id name {name}, {} option lines, {ok}",
                    options.len() + malformed.len()
                ),
                report,
            ),
            None => self.record(
                "handshake",
                Outcome::Fail,
                format!("sent \"{protocol}\": '{ok}' came without an 'id name' line before it"),
                report,
            ),
        }
        self.announced = Announced::from_options(&options);
        // The user's own settings must name options the engine has, with values it accepts.
        let refused: Vec<String> = self
            .spec
            .options
            .iter()
            .filter_map(|(name, value)| options::check_value(&options, name, value).err())
            .collect();
        if !refused.is_empty() {
            self.record("options", Outcome::Fail, refused.join("; "), report);
        } else if malformed.is_empty() {
            let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
            let evidence = if names.is_empty() {
                "none announced: only 8x8 under the default rules is checked".to_string()
            } else {
                format!(
                    "{}; rules checked: {}",
                    names.join(", "),
                    self.announced.describe()
                )
            };
            self.record("options", Outcome::Pass, evidence, report);
        } else {
            self.record("options", Outcome::Fail, malformed.join("; "), report);
        }
        match session
            .set_options(self.spec)
            .and_then(|_| session.sync("isready"))
        {
            Ok(took) => {
                self.session = Some(session);
                let evidence = format!("readyok after {} ms", took.as_millis());
                self.record("isready", Outcome::Pass, evidence, report);
                name.is_some()
            }
            Err(why) => {
                self.keep_stray(&session);
                self.record("isready", Outcome::Fail, why, report);
                false
            }
        }
    }

    /// `position startpos`/`fen` with moves, legal moves in random positions, and no move.
    fn positions(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let timeout = self.settings.timeout;
        let go = "go movetime 50";
        self.on_engine("startpos", report, |s, announced| {
            let rules = announced.default_rules();
            let (_, moves, position) = opening_line(rules);
            for line in announced.select(rules) {
                s.send(&line)?;
            }
            let command = position_command(&position, &moves, false);
            s.send(&command)?;
            let (best, _) = s.go(go, timeout)?;
            legal_in(&position, &best, &format!("sent \"{command}\", \"{go}\""))?;
            Ok(format!("{command}: bestmove {best}, legal"))
        });
        self.on_engine("fen", report, |s, announced| {
            let rules = announced.default_rules();
            let (_, _, mut position) = opening_line(rules);
            let fen = position.fen();
            let reply = position.legal_moves()[0];
            position.play_unchecked(reply);
            let command = format!("position fen {fen} moves {reply}");
            s.send(&command)?;
            let (best, _) = s.go(go, timeout)?;
            legal_in(&position, &best, &format!("sent \"{command}\", \"{go}\""))?;
            Ok(format!("{command}: bestmove {best}, legal"))
        });
        let count = if self.settings.quick { 20 } else { 200 };
        let seed = self.settings.seed;
        self.on_engine("legal-moves", report, |s, announced| {
            let mut random = Random(seed);
            let go = "go movetime 20";
            for i in 0..count {
                let (rules, moves, position) = random_position(announced, &mut random);
                for line in announced.select(rules) {
                    s.send(&line)?;
                }
                let command = position_command(&position, &moves, i % 2 == 1);
                s.send(&command)?;
                let (best, _) = s.go(go, timeout)?;
                let asked = format!(
                    "position {} of {count}: sent \"{command}\", \"{go}\"",
                    i + 1
                );
                legal_in(&position, &best, &asked)?;
            }
            Ok(format!(
                "{count} random positions ({}), every bestmove legal",
                announced.describe()
            ))
        });
        self.on_engine("no-move", report, |s, announced| {
            let rules = announced.default_rules();
            for line in announced.select(rules) {
                s.send(&line)?;
            }
            let command = format!("position fen {}", no_move_position(rules));
            s.send(&command)?;
            s.send(go)?;
            let within = Duration::from_millis(50) + timeout.min(Duration::from_secs(2));
            match s.expect(go, "bestmove", within, is_bestmove) {
                Ok((line, _)) if line.split_whitespace().nth(1) == Some("0000") => {
                    Ok(format!("{command}: {line}"))
                }
                Ok((line, _)) => Err(format!(
                    "sent \"{command}\", \"{go}\": got {}, but Black has no move (expected bestmove 0000)",
                    quote(&line)
                )),
                Err(_) => {
                    // No answer is the other accepted reply; the engine must still listen.
                    s.send("stop")?;
                    s.sync("stop")?;
                    Ok(format!(
                        "{command}: no bestmove (accepted), and the engine still answers isready"
                    ))
                }
            }
        });
    }

    /// `go movetime` kept and clocks respected.
    fn limits(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let margin = self.settings.margin;
        let protocol = self.spec.protocol.clone();
        let movetime = Duration::from_millis(if self.settings.quick { 200 } else { 500 });
        self.on_engine("movetime", report, |s, announced| {
            let (_, moves, position) = opening_line(announced.default_rules());
            s.send(&position_command(&position, &moves, false))?;
            let go = format!("go movetime {}", movetime.as_millis());
            let (best, took) = s.go(&go, movetime + margin + Duration::from_secs(2))?;
            legal_in(&position, &best, &format!("sent \"{go}\""))?;
            if took > movetime + margin {
                return Err(format!(
                    "sent \"{go}\": bestmove after {} ms, beyond {} ms + {} ms margin",
                    took.as_millis(),
                    movetime.as_millis(),
                    margin.as_millis()
                ));
            }
            Ok(format!(
                "{go}: bestmove {best} after {} ms",
                took.as_millis()
            ))
        });
        let clocks: &[u64] = if self.settings.quick {
            &[1000]
        } else {
            &[1000, 100]
        };
        self.on_engine("clock", report, |s, announced| {
            let (_, moves, position) = opening_line(announced.default_rules());
            let mut seen = Vec::new();
            for &millis in clocks {
                s.send(&position_command(&position, &moves, false))?;
                let go = clock_go(&protocol, position.side_to_move(), millis);
                let allowed = Duration::from_millis(millis) + margin;
                let (best, took) = s.go(&go, allowed + Duration::from_secs(2))?;
                legal_in(&position, &best, &format!("sent \"{go}\""))?;
                if took > allowed {
                    return Err(format!(
                        "sent \"{go}\": bestmove after {} ms, with {millis} ms on the clock (+{} ms margin)",
                        took.as_millis(),
                        margin.as_millis()
                    ));
                }
                seen.push(format!("{millis} ms on the clock: {} ms", took.as_millis()));
            }
            Ok(seen.join(", "))
        });
    }

    /// With `MultiPV` announced: three lines at once, each ranked (`multipv 1` to `3`) with a
    /// different first move, and `go searchmoves` kept to the moves given.
    fn multipv(&mut self, report: &mut impl FnMut(&CheckResult)) {
        if !self.announced.multipv {
            let why = "the engine announces no MultiPV option (of 3 lines or more)".to_string();
            return self.record("multipv", Outcome::Skip, why, report);
        }
        let timeout = self.settings.timeout;
        self.on_engine("multipv", report, |s, announced| {
            let (_, moves, position) = opening_line(announced.default_rules());
            let legal = position.legal_moves();
            if legal.len() < 3 {
                return Ok("skipped: no position with three moves".to_string());
            }
            s.send("setoption name MultiPV value 3")?;
            let command = position_command(&position, &moves, false);
            s.send(&command)?;
            let go = "go movetime 300";
            s.send(go)?;
            let mut first_moves: [Option<String>; 3] = Default::default();
            let sent = format!("sent \"setoption name MultiPV value 3\", \"{command}\", \"{go}\"");
            let best = loop {
                let (line, _) = s.expect(go, "bestmove", timeout + Duration::from_millis(300), |l| {
                    is_bestmove(l) || l.starts_with("info ")
                })?;
                if is_bestmove(&line) {
                    break line.split_whitespace().nth(1).unwrap_or("").to_string();
                }
                let words: Vec<&str> = line.split_whitespace().collect();
                let field = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1));
                if let (Some(rank), Some(first)) = (field("multipv"), field("pv"))
                    && let Ok(rank @ 1..=3) = rank.parse::<usize>()
                {
                    first_moves[rank - 1] = Some(first.to_string());
                }
            };
            legal_in(&position, &best, &sent)?;
            let ranked: Vec<String> = first_moves.iter().flatten().cloned().collect();
            if ranked.len() < 3 {
                // The ranks that did come, which need not be the first ones.
                let seen: Vec<String> = (1..=3)
                    .zip(&first_moves)
                    .filter(|(_, first)| first.is_some())
                    .map(|(rank, _)| rank.to_string())
                    .collect();
                let seen = if seen.is_empty() {
                    "none".to_string()
                } else {
                    seen.join(", ")
                };
                return Err(format!(
                    "{sent}: info lines came with multipv {seen} only (expected 1, 2 and 3)"
                ));
            }
            for first in &ranked {
                legal_in(&position, first, &format!("{sent}: a line's first move"))?;
            }
            if ranked[0] == ranked[1] || ranked[1] == ranked[2] || ranked[0] == ranked[2] {
                return Err(format!(
                    "{sent}: the three lines start with {}: the same move twice",
                    ranked.join(", ")
                ));
            }
            s.send("setoption name MultiPV value 1")?;
            let chosen = [legal[legal.len() - 1], legal[legal.len() - 2]];
            let go = format!("go movetime 100 searchmoves {} {}", chosen[0], chosen[1]);
            s.send(&command)?;
            let (searched, _) = s.go(&go, timeout + Duration::from_millis(100))?;
            if !chosen.iter().any(|mv| mv.to_string() == searched) {
                return Err(format!(
                    "sent \"{command}\", \"{go}\": got bestmove {searched}, not one of the moves given"
                ));
            }
            Ok(format!(
                "lines start with {}; {go}: bestmove {searched}",
                ranked.join(", ")
            ))
        });
    }

    /// `isready` during `go infinite`, and `stop` answered promptly.
    fn infinite(&mut self, report: &mut impl FnMut(&CheckResult)) {
        self.on_engine("isready-in-search", report, |s, announced| {
            let position = start_infinite(s, announced)?;
            s.send("isready")?;
            let (line, took) =
                s.expect("go infinite, then isready", "readyok", s.timeout, |l| {
                    l == "readyok" || is_bestmove(l)
                })?;
            if is_bestmove(&line) {
                return Err(format!(
                    "sent \"go infinite\": got {} before any stop (go infinite must wait for stop)",
                    quote(&line)
                ));
            }
            let (best, _) = s.go("stop", s.timeout)?;
            legal_in(
                &position,
                &best,
                "sent \"go infinite\", \"isready\", \"stop\"",
            )?;
            Ok(format!(
                "readyok after {} ms while searching",
                took.as_millis()
            ))
        });
        let prompt = Duration::from_millis(500);
        self.on_engine("stop", report, |s, announced| {
            let position = start_infinite(s, announced)?;
            let early = s.expect(
                "go infinite",
                "bestmove",
                Duration::from_millis(100),
                is_bestmove,
            );
            if let Ok((line, _)) = early {
                return Err(format!(
                    "sent \"go infinite\": got {} before any stop (go infinite must wait for stop)",
                    quote(&line)
                ));
            }
            let (best, took) = s.go("stop", prompt)?;
            legal_in(&position, &best, "sent \"go infinite\", \"stop\"")?;
            Ok(format!(
                "bestmove {best} {} ms after stop",
                took.as_millis()
            ))
        });
    }

    /// The UGI handshake and queries, on an engine of its own.
    fn ugi(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let mut spec = self.spec.clone();
        spec.protocol = "ugi".to_string();
        let session = match Session::ready(&spec, self.settings) {
            Ok(session) => session,
            Err(why) if self.spec.protocol == "uci" => {
                let evidence = format!("the engine does not speak UGI ({why})");
                return self.record("ugi", Outcome::Skip, evidence, report);
            }
            Err(why) => return self.record("ugi", Outcome::Fail, why, report),
        };
        let previous = self.session.replace(session);
        let rules = self.announced.default_rules();
        self.on_engine("ugi", report, |s, announced| {
            let (_, moves, position) = opening_line(rules);
            for line in announced.select(rules) {
                s.send(&line)?;
            }
            let playing = position_command(&position, &moves, false);
            let over = format!("position fen {}", no_move_position(rules));
            let questions = [
                (playing.as_str(), "query gameover", "response false"),
                (playing.as_str(), "query p1turn", "response true"),
                (playing.as_str(), "query result", "response none"),
                (over.as_str(), "query gameover", "response true"),
                (over.as_str(), "query result", "response p2win"),
            ];
            for (setup, query, answer) in questions {
                s.send(setup)?;
                s.send(query)?;
                let asked = format!("{setup}, {query}");
                let (line, _) =
                    s.expect(&asked, "response", s.timeout, |l| l.starts_with("response"))?;
                if line.trim() != answer {
                    return Err(format!(
                        "sent \"{asked}\": got {}, expected \"{answer}\"",
                        quote(&line)
                    ));
                }
            }
            s.send(&playing)?;
            let (best, _) = s.go("go movetime 50", s.timeout)?;
            legal_in(&position, &best, "sent \"go movetime 50\" after ugi")?;
            Ok(
                "ugiok; query gameover, p1turn and result answered rightly; two-word bestmove"
                    .into(),
            )
        });
        self.retire();
        self.session = previous;
    }

    /// Bad input, one line at a time: after each the engine must still answer `isready`.
    fn bad_input(&mut self, report: &mut impl FnMut(&CheckResult)) {
        self.on_engine("bad-input", report, |s, announced| {
            let probes: [(&str, Vec<u8>); 8] = [
                ("an unknown command", b"frobnicate now".to_vec()),
                ("a bad move", b"position startpos moves z99".to_vec()),
                ("an illegal move", b"position startpos moves a1".to_vec()),
                ("a malformed position string", b"position fen bx/qq w".to_vec()),
                ("a bad go parameter", b"go depth soon".to_vec()),
                ("an unknown option", b"setoption name NoSuchOption value 1".to_vec()),
                ("a line that is not UTF-8", b"position startpos moves d5 \xff\xfe".to_vec()),
                ("a 100 kB line", vec![b'x'; 100_000]),
            ];
            let mut answered = 0;
            for (what, bytes) in &probes {
                let shown = quote(&String::from_utf8_lossy(bytes));
                s.send_bytes(bytes, &format!("{what} {shown}"))?;
                let asked = format!("{what} {shown}, then isready");
                s.send("isready")?;
                let deadline = Instant::now() + s.timeout;
                loop {
                    match s.read(deadline) {
                        Ok((line, _)) if line.trim() == "readyok" => break,
                        Ok((line, _)) if line.starts_with("info string") => answered += 1,
                        Ok(_) => {}
                        Err(ReadError::Timeout) => {
                            return Err(format!("sent {asked}: no readyok within {} ms", s.timeout.as_millis()));
                        }
                        Err(ReadError::Closed) => {
                            return Err(format!("sent {asked}: {}", s.gone("")));
                        }
                        Err(ReadError::Interrupted) => return Err("interrupted".to_string()),
                    }
                }
            }
            let (_, moves, position) = opening_line(announced.default_rules());
            let command = position_command(&position, &moves, false);
            s.send(&command)?;
            let (best, _) = s.go("go movetime 50", s.timeout)?;
            legal_in(&position, &best, &format!("after the bad input, sent \"{command}\""))?;
            Ok(format!(
                "survived {} bad lines (non-UTF-8 included), {answered} of them answered with info string; still plays legal moves",
                probes.len()
            ))
        });
    }

    /// Every line the engine wrote is a protocol message.
    fn output(&mut self, report: &mut impl FnMut(&CheckResult)) {
        if let Some(mut session) = self.session.take() {
            self.keep_stray(&session);
            session.stray.clear();
            session.stray_count = 0;
            self.session = Some(session);
        }
        if self.stray_count == 0 {
            let evidence = "every line the engine wrote is a protocol message".to_string();
            self.record("output", Outcome::Pass, evidence, report);
        } else {
            let quoted: Vec<String> = self.stray.iter().map(|l| quote(l)).collect();
            let evidence = format!(
                "{} lines that are not protocol messages, such as {}",
                self.stray_count,
                quoted.join(", ")
            );
            self.record("output", Outcome::Fail, evidence, report);
        }
    }

    /// `quit` ends the process.
    fn quit(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let session = match self.session.take() {
            Some(session) => session,
            None => match Session::ready(self.spec, self.settings) {
                Ok(session) => session,
                Err(why) => {
                    let evidence = format!("the engine could not be made ready: {why}");
                    return self.record("quit", Outcome::Skip, evidence, report);
                }
            },
        };
        match session.quit(Duration::from_secs(1)) {
            Ok(status) => {
                let evidence = format!("sent \"quit\": the engine exited ({status})");
                self.record("quit", Outcome::Pass, evidence, report)
            }
            Err(why) => self.record("quit", Outcome::Fail, why, report),
        }
    }
}

/// The start of `rules` after the two opening removals that leave Black the most moves (a
/// position worth thinking about), or the start itself when no removal can be made.
fn opening_line(rules: Rules) -> (Rules, Vec<Move>, Position) {
    let start = Position::start(rules).unwrap_or_else(|_| {
        let any = Rules::new(
            rules.width().into(),
            rules.height().into(),
            Opening::Any,
            rules.capture,
        )
        .expect("a size that exists");
        Position::start(any).expect("any opening fits every size")
    });
    let mut best = (0, Vec::new(), start);
    for first in start.legal_moves() {
        let mut after_first = start;
        after_first.play_unchecked(first);
        for second in after_first.legal_moves() {
            let mut position = after_first;
            position.play_unchecked(second);
            let replies = position.count_moves();
            if replies > best.0 {
                best = (replies, vec![first, second], position);
            }
        }
    }
    (rules, best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_no_move_position_has_no_move() {
        for (w, h) in [(2, 2), (8, 8), (3, 7), (26, 26)] {
            let rules = Rules::new(w, h, Opening::Any, Capture::Straight).unwrap();
            let fen = no_move_position(rules);
            let position = Position::from_fen(&fen, Opening::Any, Capture::Straight).unwrap();
            assert!(position.is_game_over(), "{fen}");
            assert_eq!(position.winner(), Some(Color::White));
        }
    }
}
