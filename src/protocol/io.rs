//! The protocol's plumbing, shared by every program that speaks it (the engine, and bots
//! built on [`crate::bot`]): input read line by line without ever failing on bad bytes, and
//! output written a whole line at a time from any thread.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

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
