//! Games as PGN text.

use crate::arbiter::game::GameRecord;
use crate::position::Position;
use crate::rules::Rules;
use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// The `Event` tag of the arbiter's games.
pub const EVENT: &str = "konane-arbiter";

/// The PGN text of one game. `Result` follows the PGN convention: `1-0` is a win for White;
/// a game still in progress (its `winner` empty) has `*`.
pub fn pgn(record: &GameRecord, round: usize, event: &str) -> String {
    let result = match record.winner.as_str() {
        "" => "*",
        _ => match record.winner_color() {
            crate::Color::White => "1-0",
            crate::Color::Black => "0-1",
        },
    };
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        text += &format!(
            "[{name} \"{}\"]\n",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        );
    };
    tag("Event", event);
    tag("Round", &round.to_string());
    tag("Black", &record.black);
    tag("White", &record.white);
    tag("Result", result);
    tag("Board", &record.board);
    tag("Opening", &record.opening_rule);
    tag("Capture", &record.capture);
    if standard_start(&record.board).as_deref() != Some(record.start.as_str()) {
        tag("FEN", &record.start);
    }
    tag("Termination", &record.termination);
    text.push('\n');
    let black_first = record.start.ends_with(" b");
    let mut line = String::new();
    for (i, mv) in record.moves.iter().enumerate() {
        let ply = if black_first { i } else { i + 1 };
        if ply % 2 == 0 {
            line += &format!("{}. ", ply / 2 + 1);
        } else if i == 0 {
            line += "1... ";
        }
        line += mv;
        line.push(' ');
    }
    line += result;
    // Wrap at 80 columns, as PGN readers expect.
    let mut width = 0;
    for word in line.split(' ') {
        if width > 0 && width + word.len() + 1 > 80 {
            text.push('\n');
            width = 0;
        } else if width > 0 {
            text.push(' ');
            width += 1;
        }
        text += word;
        width += word.len();
    }
    text += "\n\n";
    text
}

/// Brings the PGN file at `path` into agreement with the results file's `records` after an
/// interruption: a torn last game is cut off, and every recorded game the PGN lacks (it is
/// written after the results) is appended. Returns what was done, when anything was.
pub fn reconcile(path: &Path, records: &[GameRecord]) -> Result<Option<String>, String> {
    let named = |e: std::io::Error| format!("--pgn {}: {e}", path.display());
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(named(e)),
    };
    // Every game ends with its result and a blank line; whatever follows the last such end
    // is a game torn in the writing.
    let kept = ["1-0\n\n", "0-1\n\n"]
        .iter()
        .filter_map(|end| text.rfind(end).map(|i| i + end.len()))
        .max()
        .unwrap_or(0);
    let rounds: HashSet<usize> = text[..kept]
        .lines()
        .filter_map(|line| line.strip_prefix("[Round \""))
        .filter_map(|rest| rest.trim_end_matches("\"]").parse().ok())
        .collect();
    let missing: Vec<&GameRecord> = records.iter().filter(|r| !rounds.contains(&r.id)).collect();
    if kept == text.len() && missing.is_empty() {
        return Ok(None);
    }
    let file = File::options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(named)?;
    file.set_len(kept as u64).map_err(named)?;
    for record in &missing {
        (&file)
            .write_all(pgn(record, record.id, EVENT).as_bytes())
            .map_err(named)?;
    }
    file.sync_data().map_err(named)?;
    let mut done = Vec::new();
    if kept < text.len() {
        done.push("a torn last game was removed".to_string());
    }
    if !missing.is_empty() {
        done.push(format!(
            "{} recorded games it lacked were added",
            missing.len()
        ));
    }
    Ok(Some(format!(
        "--pgn {}: {}",
        path.display(),
        done.join("; ")
    )))
}

/// The start position string of a board written `WxH`.
fn standard_start(board: &str) -> Option<String> {
    let rules = Rules::default().with_size_text(board).ok()?;
    let any = Rules::new(
        rules.width().into(),
        rules.height().into(),
        crate::Opening::Any,
        rules.capture,
    )
    .ok()?;
    Position::start(any).ok().map(|position| position.fen())
}
