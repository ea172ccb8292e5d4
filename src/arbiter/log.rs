//! `--log`: every line sent to and received from every engine, with a timestamp; and for the
//! GUI, the last lines kept in memory for its engine-log view.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The longest line kept in memory, in characters: an engine may write megabytes in one line.
const MAX_REMEMBERED_CHARS: usize = 2000;

/// A shared log: a file (`--log`), lines kept in memory, both, or nothing.
#[derive(Clone, Default)]
pub struct Log {
    file: Option<Arc<(Mutex<BufWriter<File>>, Instant)>>,
    memory: Option<Arc<Memory>>,
}

/// The last lines of the log, numbered from 1.
struct Memory {
    lines: Mutex<(VecDeque<LogLine>, u64)>,
    capacity: usize,
    start: Instant,
}

/// One remembered line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LogLine {
    /// Counts the lines logged, from 1.
    pub number: u64,
    /// Milliseconds since the log began.
    pub millis: u64,
    /// The engine's name.
    pub engine: String,
    /// `<` to the engine, `>` from it, `!` its stderr.
    pub direction: char,
    /// The line (cut at 2,000 characters).
    pub text: String,
}

impl Log {
    /// A log appending to `path`.
    pub fn create(path: &std::path::Path) -> std::io::Result<Log> {
        let file = File::options().create(true).append(true).open(path)?;
        Ok(Log {
            file: Some(Arc::new((Mutex::new(BufWriter::new(file)), Instant::now()))),
            memory: None,
        })
    }

    /// This log, also keeping its last `capacity` lines in memory ([`Log::recent`]).
    pub fn remembering(self, capacity: usize) -> Log {
        Log {
            memory: Some(Arc::new(Memory {
                lines: Mutex::new((VecDeque::with_capacity(capacity), 0)),
                capacity,
                start: Instant::now(),
            })),
            ..self
        }
    }

    /// Records one line; `direction` is `<` for arbiter to engine, `>` for engine to arbiter,
    /// `!` for what the engine wrote on stderr.
    pub fn line(&self, engine: &str, direction: char, text: &str) {
        if let Some(shared) = &self.file {
            let (file, start) = &**shared;
            let mut file = file.lock().unwrap_or_else(|poison| poison.into_inner());
            let millis = start.elapsed().as_millis();
            // A full disk must not stop the games; the log is a diagnostic.
            let _ = writeln!(file, "{millis:>9} {engine} {direction} {text}");
            let _ = file.flush();
        }
        if let Some(memory) = &self.memory {
            let mut kept: String = text.chars().take(MAX_REMEMBERED_CHARS).collect();
            if kept.len() < text.len() {
                kept.push('\u{2026}');
            }
            let millis = u64::try_from(memory.start.elapsed().as_millis()).unwrap_or(u64::MAX);
            let mut guard = memory
                .lines
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            let (lines, count) = &mut *guard;
            *count += 1;
            if lines.len() == memory.capacity {
                lines.pop_front();
            }
            lines.push_back(LogLine {
                number: *count,
                millis,
                engine: engine.to_string(),
                direction,
                text: kept,
            });
        }
    }

    /// The number of the last line logged (0 before any, or when nothing is remembered).
    pub fn newest(&self) -> u64 {
        self.memory.as_ref().map_or(0, |memory| {
            memory
                .lines
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .1
        })
    }

    /// The remembered lines numbered after `after`, oldest first (none when nothing is
    /// remembered).
    pub fn recent(&self, after: u64) -> Vec<LogLine> {
        let Some(memory) = &self.memory else {
            return Vec::new();
        };
        let guard = memory
            .lines
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        guard
            .0
            .iter()
            .filter(|line| line.number > after)
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_lines_are_remembered_numbered_and_cut() {
        let log = Log::default().remembering(3);
        for i in 1..=5 {
            log.line("k", '<', &format!("go {i}"));
        }
        let recent = log.recent(0);
        let texts: Vec<&str> = recent.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["go 3", "go 4", "go 5"], "only the last three");
        assert_eq!(recent[0].number, 3);
        assert_eq!(log.newest(), 5);
        assert_eq!(Log::default().newest(), 0, "nothing remembered");
        assert_eq!(log.recent(4).len(), 1);
        log.line("k", '>', &"x".repeat(5000));
        let long = &log.recent(5)[0].text;
        assert_eq!(long.chars().count(), MAX_REMEMBERED_CHARS + 1);
        assert!(long.ends_with('\u{2026}'));
        assert!(
            Log::default().recent(0).is_empty(),
            "nothing kept without memory"
        );
    }
}
