//! One running engine under check: what was sent, what came back, and why it went.

use super::*;

/// The first words a protocol message may start with.
pub(super) const MESSAGES: [&str; 10] = [
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

/// How many unanswered commands an error names: the first, and the last ones.
const UNANSWERED_KEPT: usize = 4;

/// One running engine, with what it said that is not protocol.
pub(super) struct Session {
    pub(super) process: EngineProcess,
    pub(super) protocol: String,
    pub(super) timeout: Duration,
    /// Lines that are not protocol messages (the first few), and how many there were.
    pub(super) stray: Vec<String>,
    pub(super) stray_count: usize,
    /// The commands sent since the engine last wrote a line (the first of them always, then
    /// the last few): if it exits, one of them made it, the first most likely.
    pub(super) unanswered: Vec<String>,
    /// How many commands between the first unanswered one and the last few were left out.
    pub(super) unanswered_dropped: usize,
}

impl Session {
    /// Starts the engine; the handshake is up to the caller.
    pub(super) fn start(spec: &EngineSpec, settings: &CheckSettings) -> Result<Session, Evidence> {
        let process = EngineProcess::start(&spec.launch, settings.log.clone())?;
        Ok(Session {
            process,
            protocol: spec.protocol.clone(),
            timeout: settings.timeout,
            stray: Vec::new(),
            stray_count: 0,
            unanswered: Vec::new(),
            unanswered_dropped: 0,
        })
    }

    /// Starts the engine and completes the handshake and `isready`.
    pub(super) fn ready(spec: &EngineSpec, settings: &CheckSettings) -> Result<Session, Evidence> {
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
    pub(super) fn set_options(&mut self, spec: &EngineSpec) -> Result<(), Evidence> {
        for (name, value) in &spec.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(())
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), Evidence> {
        match self.process.send(line) {
            Ok(()) => {
                self.sent(line);
                Ok(())
            }
            Err(_) => Err(format!("could not send {}: {}", quote(line), self.gone(""))),
        }
    }

    /// Sends `bytes` as one line, shown as `shown` in the evidence.
    pub(super) fn send_bytes(&mut self, bytes: &[u8], shown: &str) -> Result<(), Evidence> {
        match self.process.send_bytes(bytes) {
            Ok(()) => {
                self.sent(shown);
                Ok(())
            }
            Err(_) => Err(format!("could not send {shown}: {}", self.gone(""))),
        }
    }

    pub(super) fn sent(&mut self, line: &str) {
        // The first command the engine did not answer is kept: it may be the one that
        // killed it, and the commands after it never reached a live engine.
        if self.unanswered.len() == UNANSWERED_KEPT {
            self.unanswered.remove(1);
            self.unanswered_dropped += 1;
        }
        self.unanswered.push(quote(line));
    }

    /// Why the engine no longer listens: its exit status if it has one, the commands it was
    /// sent since it last wrote, `context`, then its last lines, stderr's included.
    pub(super) fn gone(&mut self, context: &str) -> String {
        let how = match self.process.exit_status(Duration::from_millis(200)) {
            Some(status) => {
                self.process.settle_stderr(Duration::from_millis(300));
                format!("the engine exited ({})", describe_exit(status))
            }
            None => "the engine closed its input or output".to_string(),
        };
        let after = match self.unanswered.as_slice() {
            [] => String::new(),
            [first] => format!(" after it was sent {first}"),
            [first, rest @ ..] => {
                let skipped = match self.unanswered_dropped {
                    0 => String::new(),
                    n => format!(" and {n} more"),
                };
                format!(
                    " after it was sent {first} (the first command it did not answer){skipped}, then {}",
                    rest.join(", then ")
                )
            }
        };
        format!("{how}{after}{context}{}", self.process.last_lines())
    }

    /// The next line, classified: stray lines are noted and still returned.
    pub(super) fn read(&mut self, deadline: Instant) -> Result<(String, Instant), ReadError> {
        let (line, at) = self.process.read_line(deadline)?;
        self.unanswered.clear();
        self.unanswered_dropped = 0;
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
    pub(super) fn expect(
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
    pub(super) fn sync(&mut self, before: &str) -> Result<Duration, Evidence> {
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
    pub(super) fn go(
        &mut self,
        go: &str,
        within: Duration,
    ) -> Result<(String, Duration), Evidence> {
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
    pub(super) fn quit(mut self, grace: Duration) -> Result<String, Evidence> {
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
