//! The results file: one JSON object a game, appended and synced as each game ends.

use crate::arbiter::game::GameRecord;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// Reads the games a results file already holds, for `--resume`. A torn last line (from an
/// interruption while writing) is skipped.
pub fn read_results(path: &Path) -> Result<Vec<GameRecord>, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("--results {}: {e}", path.display())),
    };
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--results {}: {e}", path.display()))?;
    let mut records = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(record) => records.push(record),
            Err(_) if i + 1 == lines.len() => {
                eprintln!("warning: skipping the torn last line of {}", path.display())
            }
            Err(e) => return Err(format!("--results {}:{}: {e}", path.display(), i + 1)),
        }
    }
    Ok(records)
}

/// Makes a results file safe to append to after an interruption while writing: a torn last
/// line is cut off, and a complete last line that lacks its line end gets one. Returns a
/// warning when something was repaired.
pub fn repair(path: &Path) -> Result<Option<String>, String> {
    let named = |e: std::io::Error| format!("--results {}: {e}", path.display());
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(named(e)),
    };
    if text.is_empty() || text.ends_with(b"\n") {
        return Ok(None);
    }
    let kept = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let complete = serde_json::from_slice::<GameRecord>(&text[kept..]).is_ok();
    let file = File::options().append(true).open(path).map_err(named)?;
    let warning = if complete {
        (&file).write_all(b"\n").map_err(named)?;
        "its last line lacked a line end, now added"
    } else {
        file.set_len(kept as u64).map_err(named)?;
        "its torn last line (a game being written when the run stopped) was removed; that game is played again"
    };
    file.sync_data().map_err(named)?;
    Ok(Some(format!("--results {}: {warning}", path.display())))
}

/// Appends `text` to the file at `path`, if any, and syncs it to disk.
pub fn append(path: &Option<PathBuf>, text: &str) -> Result<(), String> {
    if let Some(path) = path {
        let mut file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.write_all(text.as_bytes())
            .and_then(|_| file.sync_data())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Opens `path` for appending (creating it, empty, if need be) to find out now whether games
/// can be written to it; the error names the file and why not.
pub fn check_writable(path: &Path) -> Result<(), String> {
    File::options()
        .create(true)
        .append(true)
        .open(path)
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// How many games a results file holds (0 when it does not exist yet).
pub fn count_records(path: &Path) -> Result<usize, String> {
    Ok(read_results(path)?.len())
}
