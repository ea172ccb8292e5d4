//! The results file: one JSON object a game, appended and synced as each game ends.

use crate::arbiter::pgn;
use crate::arbiter::record::GameRecord;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// The games a results file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultsFile {
    /// Every whole game, in the file's order.
    pub records: Vec<GameRecord>,
    /// Whether a torn last line (an interruption while writing) was skipped.
    pub torn_last_line: bool,
}

/// Reads the games a results file already holds (none when it does not exist). A torn last
/// line is skipped and said; any other line that does not read is an error naming it.
pub fn read_results(path: &Path) -> Result<ResultsFile, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ResultsFile::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut file = ResultsFile::default();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(record) => file.records.push(record),
            Err(_) if i + 1 == lines.len() => file.torn_last_line = true,
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
        }
    }
    Ok(file)
}

/// Makes a results file safe to append to after an interruption while writing: a torn last
/// line is cut off, and a complete last line that lacks its line end gets one. Returns a
/// warning when something was repaired.
pub fn repair(path: &Path) -> Result<Option<String>, String> {
    let named = |e: std::io::Error| format!("results file {}: {e}", path.display());
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
    Ok(Some(format!("results file {}: {warning}", path.display())))
}

/// Appends `text` to the file at `path`, if any, and syncs it to disk.
pub fn append(path: Option<&Path>, text: &str) -> Result<(), String> {
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

/// Writes one finished game: its JSON line to the results file, then its PGN (round = its
/// number) to the PGN file, each that is given.
pub fn write_game(
    results: Option<&Path>,
    pgn_file: Option<&Path>,
    record: &GameRecord,
    event: &str,
) -> Result<(), String> {
    let json = serde_json::to_string(record).map_err(|e| e.to_string())?;
    append(results, &(json + "\n"))?;
    append(pgn_file, &pgn::pgn(record, record.id, event))
}

/// Finds out before any game whether games can be written to the results file and the PGN
/// file that are given: each is opened for appending (created, empty, if need be). A folder
/// or a file that cannot be opened is refused with what it is for and the cause, and the files this call
/// created are then removed again, so that a retry finds things as they were.
pub fn check_outputs(results: Option<&Path>, pgn_file: Option<&Path>) -> Result<(), String> {
    let mut created = Vec::new();
    let outputs = [("results file", results), ("PGN file", pgn_file)];
    let checked = outputs.into_iter().try_for_each(|(flag, path)| {
        let Some(path) = path else { return Ok(()) };
        if path.is_dir() {
            return Err(format!(
                "{flag} {} is a folder: name a file in it",
                path.display()
            ));
        }
        let existed = path.exists();
        File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{flag} {}: {e}", path.display()))?;
        if !existed {
            created.push(path);
        }
        Ok(())
    });
    if checked.is_err() {
        for path in created {
            let _ = std::fs::remove_file(path);
        }
    }
    checked
}
