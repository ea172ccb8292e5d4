//! `--log`: every line sent to and received from every engine, with a timestamp.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A shared log file, or nothing when `--log` is not given.
#[derive(Clone, Default)]
pub struct Log(Option<Arc<(Mutex<BufWriter<File>>, Instant)>>);

impl Log {
    /// A log appending to `path`.
    pub fn create(path: &std::path::Path) -> std::io::Result<Log> {
        let file = File::options().create(true).append(true).open(path)?;
        Ok(Log(Some(Arc::new((
            Mutex::new(BufWriter::new(file)),
            Instant::now(),
        )))))
    }

    /// Records one line; `direction` is `<` for arbiter to engine, `>` for engine to arbiter,
    /// `!` for what the engine wrote on stderr.
    pub fn line(&self, engine: &str, direction: char, text: &str) {
        if let Some(shared) = &self.0 {
            let (file, start) = &**shared;
            let mut file = file.lock().unwrap_or_else(|poison| poison.into_inner());
            let millis = start.elapsed().as_millis();
            // A full disk must not stop the games; the log is a diagnostic.
            let _ = writeln!(file, "{millis:>9} {engine} {direction} {text}");
            let _ = file.flush();
        }
    }
}
