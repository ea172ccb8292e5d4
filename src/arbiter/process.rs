//! One engine process: started in its own process group, read with a deadline on every line,
//! and killed with its whole group, then reaped, when dropped.

use crate::arbiter::log::Log;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest line an engine may send; anything longer is cut (and so not protocol).
const MAX_LINE: usize = 64 * 1024;

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The name used in logs and results.
    pub name: String,
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output or exited.
    Closed,
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
    name: String,
    log: Log,
}

impl EngineProcess {
    /// Starts the engine in a process group of its own.
    pub fn start(launch: &Launch, log: Log) -> Result<EngineProcess, String> {
        let mut child = Command::new(&launch.command)
            .args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", launch.command))?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let (sender, lines) = unbounded();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
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
                        let received = Received {
                            line,
                            at: Instant::now(),
                        };
                        if sender.send(received).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            name: launch.name.clone(),
            log,
        })
    }

    /// Sends one line; `Err` when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> Result<(), ReadError> {
        self.log.line(&self.name, '<', line);
        let stdin = self.stdin.as_mut().ok_or(ReadError::Closed)?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| ReadError::Closed)
    }

    /// The next line, waiting until `deadline` at the latest, with the moment it arrived.
    pub fn read_line(&mut self, deadline: Instant) -> Result<(String, Instant), ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Received { line, at }) => {
                self.log.line(&self.name, '>', &line);
                Ok((line, at))
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    /// Reads lines until one satisfies `wanted`, ignoring (but logging) the others.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<(String, Instant), ReadError> {
        loop {
            let (line, at) = self.read_line(deadline)?;
            if wanted(&line) {
                return Ok((line, at));
            }
        }
    }

    /// The UCI/UGI handshake and the options, then `isready`; each step within `timeout`.
    pub fn handshake(
        &mut self,
        protocol: &str,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<(), ReadError> {
        self.send(protocol)?;
        let ok = format!("{protocol}ok");
        self.wait_for(Instant::now() + timeout, |line| line.trim() == ok)?;
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync(timeout)
    }

    /// `isready`, then waits for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ReadError> {
        self.send("isready")?;
        self.wait_for(Instant::now() + timeout, |line| line.trim() == "readyok")
            .map(|_| ())
    }

    /// Asks the engine to quit, waits up to `grace` for it, then kills its whole group.
    pub fn shut_down(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills whatever is left of the group and reaps the child.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // The group may already be gone; there is nothing else to do then.
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
