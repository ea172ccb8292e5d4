//! One engine process: started in its own process group, read with a deadline on every line,
//! and killed with its whole group, then reaped, when dropped.

use crate::arbiter::log::Log;
use crate::arbiter::watchdog;
use crate::protocol::info::BestMove;
use crate::protocol::options::{self, EngineOption};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest line an engine may send; anything longer is cut (and so not protocol).
const MAX_LINE: usize = 64 * 1024;

/// How many of an engine's last lines of each stream are kept for error messages.
const RECENT_LINES: usize = 8;

/// The last lines an engine wrote on one stream, for error messages.
#[derive(Clone, Default)]
struct Recent(Arc<Mutex<VecDeque<String>>>);

impl Recent {
    fn push(&self, line: String) {
        let mut lines = self.0.lock().unwrap_or_else(|poison| poison.into_inner());
        if lines.len() == RECENT_LINES {
            lines.pop_front();
        }
        lines.push_back(line);
    }

    fn all(&self) -> Vec<String> {
        let lines = self.0.lock().unwrap_or_else(|poison| poison.into_inner());
        lines.iter().cloned().collect()
    }
}

/// What most likely went wrong when `launch` could not be started: a program in the current
/// folder (which needs `./`), arguments written into `cmd=` (they go in `arg=`), a folder, or
/// a file that may not be run. Empty when there is no better guess than the system's error.
fn start_hint(launch: &Launch) -> String {
    let command = &launch.command;
    let path = std::path::Path::new(command);
    if command.trim().is_empty() {
        return " (cmd= is empty: name the engine's program)".to_string();
    }
    if command.contains(' ') && !path.exists() {
        let mut words = command.split_whitespace();
        let program = words.next().unwrap_or("");
        let args: Vec<String> = words.map(|w| format!("arg={w}")).collect();
        return format!(
            " (cmd= is one program: for arguments write cmd={program} {})",
            args.join(" ")
        );
    }
    if path.is_dir() {
        return format!(" ({command} is a folder: name the engine's program in it)");
    }
    if !command.contains('/') && path.is_file() {
        return format!(" (there is a {command} in the current folder: write cmd=./{command})");
    }
    let executable = std::fs::metadata(path).is_ok_and(|m| {
        use std::os::unix::fs::PermissionsExt;
        m.permissions().mode() & 0o111 != 0
    });
    if path.is_file() && !executable {
        return format!(
            " ({command} may not be run: make it executable (chmod +x {command}), or name its interpreter, as cmd=python3 arg={command})"
        );
    }
    String::new()
}

/// Reads `source` line by line (each cut at [`MAX_LINE`] bytes, decoded leniently) until it
/// ends or `deliver` returns false.
fn read_lines(source: impl Read, mut deliver: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(source);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer).trim_end().to_string();
                if !deliver(line) {
                    break;
                }
            }
        }
    }
}

/// An exit status in words: `exit code 3`, `killed by signal 9`.
pub fn describe_exit(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "an unknown status".to_string(),
    }
}

/// A cancellation flag shared by whoever may stop a run (the command line's Ctrl-C, a Python
/// call's `KeyboardInterrupt`) and the engine processes started for it: once it is set,
/// every wait for those engines' output ends at once with [`ReadError::Interrupted`], so that
/// no handshake or move holds the program until its deadline. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Sets the flag: every wait on it ends.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Clears the flag, for an owner that goes on after a cancelled call (a Python engine
    /// after a `KeyboardInterrupt`).
    pub fn reset(&self) {
        self.0.store(false, Ordering::SeqCst);
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The flag itself, for code that watches an `AtomicBool`.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.0
    }
}

/// Two launches are alike whatever flag cancels them.
impl PartialEq for Cancel {
    fn eq(&self, _other: &Cancel) -> bool {
        true
    }
}

impl Eq for Cancel {}

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The name used in logs and results.
    pub name: String,
    /// Set to end every wait for this engine's output at once.
    pub cancel: Cancel,
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output or exited.
    Closed,
    /// The engine's [`Cancel`] flag was set.
    Interrupted,
}

/// How often a wait for an engine looks at its [`Cancel`] flag.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// Whether `line` is a `bestmove` message (and not, say, `bestmovexyz`).
pub fn is_bestmove(line: &str) -> bool {
    BestMove::parse(line).is_some()
}

/// What an engine says of itself in its handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Announced {
    /// Its `id name`, if it sent one.
    pub name: Option<String>,
    /// Its `id author`, if it sent one.
    pub author: Option<String>,
    /// Its options (malformed `option` lines left out: `check` reports those).
    pub options: Vec<EngineOption>,
}

/// A handshake step that failed: what was awaited, and why it did not come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandshakeError {
    /// The line that did not come: `uciok`, `ugiok` or `readyok`.
    pub awaited: String,
    /// Why.
    pub error: ReadError,
}

/// A line from the engine with the moment it arrived.
struct Received {
    line: String,
    at: Instant,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Received>,
    recent: Recent,
    recent_stderr: Recent,
    /// Set once everything the engine wrote on stderr has been read.
    stderr_closed: Arc<AtomicBool>,
    name: String,
    log: Log,
    cancel: Cancel,
}

impl EngineProcess {
    /// Waits up to `grace` until the engine's stderr has been read to its end, so that the last
    /// words of an engine that exited are in [`EngineProcess::last_lines`].
    pub fn settle_stderr(&self, grace: Duration) {
        let until = Instant::now() + grace;
        while !self.stderr_closed.load(Ordering::SeqCst) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Starts the engine in a process group of its own. Its stderr goes to the log, marked `!`.
    pub fn start(launch: &Launch, log: Log) -> Result<EngineProcess, String> {
        let mut child = Command::new(&launch.command)
            .args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| {
                let hint = start_hint(launch);
                format!("cannot start '{}': {e}{hint}", launch.command)
            })?;
        watchdog::guard(child.id());
        log::debug!(
            "started {} (process {}): {} {}",
            launch.name,
            child.id(),
            launch.command,
            launch.args.join(" ")
        );
        let (recent, recent_stderr) = (Recent::default(), Recent::default());
        let stdout = child.stdout.take().expect("stdout was piped");
        let (sender, lines) = unbounded();
        let stdout_recent = recent.clone();
        std::thread::spawn(move || {
            read_lines(stdout, |line| {
                stdout_recent.push(line.clone());
                let at = Instant::now();
                sender.send(Received { line, at }).is_ok()
            })
        });
        let stderr = child.stderr.take().expect("stderr was piped");
        // Each process has its own tag in the log, `name#pid`: two processes of one engine
        // (under --concurrency) are told apart.
        let name = format!("{}#{}", launch.name, child.id());
        let (stderr_recent, stderr_log) = (recent_stderr.clone(), log.clone());
        let stderr_name = name.clone();
        let stderr_closed = Arc::new(AtomicBool::new(false));
        let closed = stderr_closed.clone();
        std::thread::spawn(move || {
            read_lines(stderr, |line| {
                stderr_log.line(&stderr_name, '!', &line);
                stderr_recent.push(line);
                true
            });
            closed.store(true, Ordering::SeqCst);
        });
        let stdin = child.stdin.take();
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            recent,
            recent_stderr,
            stderr_closed,
            name,
            log,
            cancel: launch.cancel.clone(),
        })
    }

    /// How the engine exited, if it has (waiting up to `grace` for it).
    pub fn exit_status(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Sends one line; `Err` when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> Result<(), ReadError> {
        self.log.line(&self.name, '<', line);
        let stdin = self.stdin.as_mut().ok_or(ReadError::Closed)?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| ReadError::Closed)
    }

    /// Sends raw bytes followed by a line end: for probing an engine with text that is not
    /// UTF-8. The log shows them as escaped text.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), ReadError> {
        self.log
            .line(&self.name, '<', &bytes.escape_ascii().to_string());
        let stdin = self.stdin.as_mut().ok_or(ReadError::Closed)?;
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|_| ReadError::Closed)
    }

    /// The next line, waiting until `deadline` at the latest, with the moment it arrived.
    pub fn read_line(&mut self, deadline: Instant) -> Result<(String, Instant), ReadError> {
        loop {
            if self.cancel.is_cancelled() {
                return Err(ReadError::Interrupted);
            }
            let now = Instant::now();
            let wait = deadline.saturating_duration_since(now).min(INTERRUPT_POLL);
            match self.lines.recv_timeout(wait) {
                Ok(Received { line, at }) => {
                    self.log.line(&self.name, '>', &line);
                    return Ok((line, at));
                }
                Err(RecvTimeoutError::Timeout) if now + wait < deadline => continue,
                Err(RecvTimeoutError::Timeout) => {
                    log::debug!("{}: no line by the deadline", self.name);
                    return Err(ReadError::Timeout);
                }
                Err(RecvTimeoutError::Disconnected) => return Err(ReadError::Closed),
            }
        }
    }

    /// Reads lines until one satisfies `wanted`, ignoring (but logging) the others.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        mut wanted: impl FnMut(&str) -> bool,
    ) -> Result<(String, Instant), ReadError> {
        loop {
            let (line, at) = self.read_line(deadline)?;
            if wanted(&line) {
                return Ok((line, at));
            }
        }
    }

    /// The UCI/UGI handshake and the options, then `isready`; each step within `timeout`.
    /// Returns what the engine announced: its name, author and options.
    pub fn handshake(
        &mut self,
        protocol: &str,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Announced, HandshakeError> {
        let ok = format!("{protocol}ok");
        let failed = |awaited: &str| {
            let awaited = awaited.to_string();
            move |error| HandshakeError { awaited, error }
        };
        self.send(protocol).map_err(failed(&ok))?;
        let mut announced = Announced::default();
        self.wait_for(Instant::now() + timeout, |line| {
            let id = |key: &str| {
                let rest = line.trim().strip_prefix("id ")?.trim_start();
                let value = rest.strip_prefix(key)?.trim();
                (!value.is_empty()).then(|| value.to_string())
            };
            if line.starts_with("option ")
                && let Ok(option) = options::parse(line)
            {
                announced.options.push(option);
            } else if let Some(name) = id("name ") {
                announced.name = Some(name);
            } else if let Some(author) = id("author ") {
                announced.author = Some(author);
            }
            line.trim() == ok
        })
        .map_err(failed(&ok))?;
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))
                .map_err(failed("readyok"))?;
        }
        self.sync(timeout).map_err(failed("readyok"))?;
        Ok(announced)
    }

    /// Why a step failed, in words: `no 'uciok' within 5 s` or `it exited (exit code 3) before
    /// 'uciok'`, then the engine's last lines, stderr's included.
    pub fn explain(&mut self, failure: &HandshakeError, timeout: Duration) -> String {
        let awaited = &failure.awaited;
        let mut text = match (failure.error, self.exit_status(Duration::from_millis(200))) {
            (_, Some(status)) => {
                format!("it exited ({}) before '{awaited}'", describe_exit(status))
            }
            (ReadError::Closed, None) => format!("it closed its output before '{awaited}'"),
            (ReadError::Timeout, None) => {
                format!("no '{awaited}' within {:.1} s", timeout.as_secs_f64())
            }
            (ReadError::Interrupted, None) => format!("interrupted while waiting for '{awaited}'"),
        };
        // The stderr reader may still be delivering the last words of an engine that exited.
        self.settle_stderr(Duration::from_millis(300));
        text += &self.last_lines();
        text
    }

    /// The engine's last lines for an error message, stderr's first (where an engine says
    /// why it failed): `; on stderr: why | more; its last lines: a | b`, or `; it wrote
    /// nothing`.
    pub fn last_lines(&self) -> String {
        let (stderr, stdout) = (self.recent_stderr.all(), self.recent.all());
        let mut text = String::new();
        if !stderr.is_empty() {
            text += &format!("; on stderr: {}", stderr.join(" | "));
        }
        if !stdout.is_empty() {
            text += &format!("; its last lines: {}", stdout.join(" | "));
        }
        if text.is_empty() {
            text += "; it wrote nothing";
        }
        text
    }

    /// `isready`, then waits for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ReadError> {
        self.send("isready")?;
        self.wait_for(Instant::now() + timeout, |line| line.trim() == "readyok")
            .map(|_| ())
    }

    /// Asks the engine to quit, waits up to `grace` for it, then kills its whole group.
    pub fn shut_down(mut self, grace: Duration) {
        log::debug!("{}: quit, {} ms to exit", self.name, grace.as_millis());
        let _ = self.send("quit");
        self.stdin = None;
        self.exit_status(grace);
        // Drop kills whatever is left of the group and reaps the child.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        log::debug!("{}: its process group killed and reaped", self.name);
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // The group may already be gone; there is nothing else to do then.
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
        let _ = self.child.kill();
        // Withdrawn before the child is reaped, while its number cannot yet be reused.
        watchdog::release(self.child.id());
        let _ = self.child.wait();
    }
}
