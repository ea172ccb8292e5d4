//! The protocol's plumbing, shared by every program that speaks it (the engine, and bots
//! built on [`crate::bot`]): input read line by line without ever failing on bad bytes, and
//! output written a whole line at a time from any thread.

use crate::protocol::{self, Command};
use crossbeam_channel::Sender;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A line-oriented output shared by the reading thread and the engine thread.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `writer`.
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// Writes one line and flushes it. A closed output is ignored: the GUI has gone.
    pub fn line(&self, text: &str) {
        let mut writer = self.0.lock().unwrap_or_else(|poison| poison.into_inner());
        let _ = writeln!(writer, "{text}");
        let _ = writer.flush();
    }

    /// Reports a bad command as `info string error: ...`.
    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

/// The longest input line read whole; a longer one is refused (and skipped) as bad input.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input, as far as it could be read.
pub enum InputLine {
    /// A line of text (without its line ending).
    Text(String),
    /// A line refused before parsing; the text says why.
    Bad(String),
}

/// Reads the next line of at most [`MAX_LINE`] bytes; `None` at the end of input. Bytes that
/// are not UTF-8 and lines too long to be commands are reported, never fatal.
pub fn next_line(input: &mut impl BufRead) -> Option<InputLine> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            if bytes.is_empty() && !too_long {
                return None;
            }
            break;
        }
        let (taken, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(bytes.len());
        too_long |= taken > room;
        bytes.extend_from_slice(&chunk[..taken.min(room)]);
        input.consume(taken);
        if ended {
            break;
        }
    }
    if too_long {
        return Some(InputLine::Bad(format!(
            "line longer than {MAX_LINE} bytes, skipped"
        )));
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    Some(match String::from_utf8(bytes) {
        Ok(text) => InputLine::Text(text),
        Err(error) => {
            let at = error.utf8_error().valid_up_to();
            let byte = error.as_bytes()[at];
            InputLine::Bad(format!(
                "line is not UTF-8 text (byte 0x{byte:02x} at offset {at}), skipped"
            ))
        }
    })
}

/// What the reading thread passes on to the thread that does the work, in order.
#[derive(Debug)]
pub enum Queued {
    /// A command to carry out.
    Command(Command),
    /// A bad line, reported in its turn, after the answers to the commands before it.
    Error(String),
}

/// What [`read_commands`] asks of the program it reads for: the engine and the bots answer
/// differently only here.
pub trait Reader {
    /// True while a long command (`go`, `bench`) is passed on and not finished: `isready`
    /// and bad lines are then answered by the reading thread at once.
    fn busy(&self) -> bool;
    /// True once the worker has begun that long command, so every command queued before
    /// it has been taken up.
    fn running(&self) -> bool;
    /// `stop` or `ponderhit` came: they act at once and are never queued.
    fn interrupt(&self, command: &Command);
    /// `command` is about to be queued: arm now what a `stop` sent right after it must find
    /// armed.
    fn arm(&self, command: &Command);
}

/// The one reading loop of every program that speaks the protocol (the engine and the bots):
/// reads `input` until `quit` or its end, acts on `stop` and `ponderhit` at once, answers
/// `isready` and bad lines itself while a long command runs (but only once every command
/// before them is taken up, so that they never overtake the answers to those), and queues
/// everything else, in order.
pub fn read_commands(
    mut input: impl BufRead,
    output: &Output,
    reader: &impl Reader,
    queue: &Sender<Queued>,
) {
    let wait_for_turn = || {
        while !queue.is_empty() && !reader.running() {
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    while let Some(line) = next_line(&mut input) {
        let parsed = match line {
            InputLine::Text(text) => {
                log::debug!("received: {text}");
                protocol::parse(&text).map_err(|error| error.to_string())
            }
            InputLine::Bad(why) => {
                log::debug!("received a bad line: {why}");
                Err(why)
            }
        };
        let command = match parsed {
            Ok(Some(command)) => command,
            Ok(None) => continue,
            Err(error) if reader.busy() => {
                wait_for_turn();
                output.error(&error);
                continue;
            }
            Err(error) => {
                if queue.send(Queued::Error(error)).is_err() {
                    break;
                }
                continue;
            }
        };
        match command {
            Command::Stop | Command::PonderHit => reader.interrupt(&command),
            Command::Quit => break,
            Command::IsReady if reader.busy() => {
                wait_for_turn();
                output.line("readyok");
            }
            command => {
                reader.arm(&command);
                if queue.send(Queued::Command(command)).is_err() {
                    break;
                }
            }
        }
    }
}
