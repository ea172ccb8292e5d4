//! Games as PGN text.

use crate::arbiter::game::GameRecord;
use crate::rules::Rules;
use crate::rules::position::Position;
use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// The `Event` tag of the arbiter's games.
pub const EVENT: &str = "konane-arbiter";

/// The PGN text of one game. `Result` follows the PGN convention: `1-0` is a win for White;
/// a game still in progress (its `winner` empty) has `*`.
pub fn pgn(record: &GameRecord, round: usize, event: &str) -> String {
    pgn_with_variations(record, round, event, &[], &[])
}

/// The PGN `Site`: the machine the game was played on, `?` when it has no name.
fn site() -> String {
    nix::unistd::gethostname()
        .ok()
        .and_then(|name| name.into_string().ok())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

/// The PGN `Date`: today in UTC, `YYYY.MM.DD`.
fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date(seconds / 86_400);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's days-to-civil).
fn civil_date(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// Moves played instead of move `at` (counted from 0) of a line, with their own variations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The move of the line it replaces.
    pub at: usize,
    /// Its moves, in notation.
    pub moves: Vec<String>,
    /// Variations of its own moves.
    pub variations: Vec<Variation>,
}

/// The PGN text of one game with `variations` of its moves (recursive annotation
/// variations, in parentheses) and `after_end`: lines tried from its last position, which
/// replace no move and are written as comments.
pub fn pgn_with_variations(
    record: &GameRecord,
    round: usize,
    event: &str,
    variations: &[Variation],
    after_end: &[Vec<String>],
) -> String {
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
    tag("Site", &site());
    tag("Date", &today());
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
    let first_ply = if record.start.ends_with(" b") { 0 } else { 1 };
    let mut words = Vec::new();
    let main = Variation {
        at: 0,
        moves: record.moves.clone(),
        variations: variations.to_vec(),
    };
    movetext(&main, first_ply, &mut words);
    for line in after_end {
        let tried = line.join(" ");
        words.push(format!("{{then {tried}}}"));
    }
    if let Some(detail) = &record.detail {
        // A comment ends at the first `}`: the engine's own words must not end it early.
        let text = detail.replace(['{', '}'], "");
        words.push(format!("{{{}: {text}}}", record.termination));
    }
    words.push(result.to_string());
    // Wrap at 80 columns, as PGN readers expect.
    let mut width = 0;
    for word in words.iter().flat_map(|w| w.split(' ')) {
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

/// The words of `line`, whose first move is ply `first_ply` (0 is Black's first move when
/// Black starts): move numbers, moves, and each variation in parentheses after the move it
/// replaces.
fn movetext(line: &Variation, first_ply: usize, words: &mut Vec<String>) {
    let mut renumber = true;
    for (i, mv) in line.moves.iter().enumerate() {
        let ply = first_ply + i;
        let number = ply / 2 + 1;
        if ply.is_multiple_of(2) {
            words.push(format!("{number}. {mv}"));
        } else if renumber {
            words.push(format!("{number}... {mv}"));
        } else {
            words.push(mv.clone());
        }
        renumber = false;
        for variation in line.variations.iter().filter(|v| v.at == i) {
            let mut inner = Vec::new();
            movetext(variation, ply, &mut inner);
            if let Some(first) = inner.first_mut() {
                first.insert(0, '(');
            }
            if let Some(last) = inner.last_mut() {
                last.push(')');
            }
            words.extend(inner);
            renumber = true;
        }
    }
}

/// A game read from PGN text, or from a bare list of moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadGame {
    /// The tags, as written (`Board`, `Opening`, `Capture`, `FEN`, `Black`, ...).
    pub tags: Vec<(String, String)>,
    /// The moves of the main line, in notation (variations and comments are left out).
    pub moves: Vec<String>,
}

impl ReadGame {
    /// The value of tag `name`, if it is there.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Reads the first game of PGN `text`, or a list of moves (`d5 e5 f5d5`, move numbers
/// allowed). Comments, variations, annotations and the result are skipped; the error names
/// what could not be read. The moves are not checked against the rules here.
pub fn read(text: &str) -> Result<ReadGame, String> {
    let mut game = ReadGame::default();
    let mut body = String::new();
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(tag) = trimmed.strip_prefix('[') {
            if !game.moves.is_empty() || !body.trim().is_empty() {
                break; // the next game's tags
            }
            let tag = tag
                .strip_suffix(']')
                .ok_or_else(|| format!("line {}: a tag must end with ']'", number + 1))?;
            let (name, value) = tag
                .split_once(' ')
                .ok_or_else(|| format!("line {}: a tag is [Name \"value\"]", number + 1))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("line {}: a tag's value is in quotes", number + 1))?;
            let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
            game.tags.push((name.to_string(), value));
        } else if !trimmed.starts_with('%') {
            body += line;
            body.push('\n');
        }
    }
    let (mut depth, mut in_comment, mut in_line_comment) = (0usize, false, false);
    let mut plain = String::new();
    for c in body.chars() {
        match c {
            '\n' if in_line_comment => in_line_comment = false,
            _ if in_line_comment => {}
            '}' if in_comment => in_comment = false,
            _ if in_comment => {}
            '{' => in_comment = true,
            ';' => in_line_comment = true,
            '(' => depth += 1,
            ')' if depth == 0 => return Err("a ')' closes no variation".to_string()),
            ')' => depth -= 1,
            _ if depth > 0 => {}
            _ => plain.push(c),
        }
    }
    if in_comment {
        return Err("a comment '{' is never closed".to_string());
    }
    if depth > 0 {
        return Err("a variation '(' is never closed".to_string());
    }
    for word in plain.split_whitespace() {
        // Move numbers, glued to the move or not: `12.`, `12...`, `12.d5`.
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let word = word.trim_end_matches(['!', '?']);
        if word.is_empty() || word.starts_with('$') {
            continue;
        }
        if ["1-0", "0-1", "*", "1/2-1/2"].contains(&word) || word == "-0" || word == "-1" {
            break;
        }
        game.moves.push(word.to_string());
    }
    Ok(game)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &[&str]) -> GameRecord {
        GameRecord {
            id: 1,
            black: "b".into(),
            white: "w".into(),
            winner: String::new(),
            termination: "unterminated".into(),
            start: Position::start(Rules::default()).unwrap().fen(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            opening_plies: 0,
            move_times_ms: Vec::new(),
            board: "8x8".into(),
            opening_rule: "traditional".into(),
            capture: "straight".into(),
            detail: None,
            tournament: None,
            shard: None,
        }
    }

    #[test]
    fn variations_are_written_in_parentheses_and_read_past() {
        let game = record(&["d5", "e5", "f5d5", "c5e5"]);
        let variation = Variation {
            at: 2,
            moves: vec!["c4c6".into(), "e5c5".into()],
            variations: vec![Variation {
                at: 1,
                moves: vec!["f4d4".into()],
                variations: Vec::new(),
            }],
        };
        let text = pgn_with_variations(&game, 1, "test", &[variation], &[vec!["b5d5".into()]]);
        assert!(
            text.contains("1. d5 e5 2. f5d5 (2. c4c6 e5c5 (2... f4d4)) 2... c5e5 {then b5d5} *"),
            "{text}"
        );
        let game = read(&text).unwrap();
        assert_eq!(game.moves, ["d5", "e5", "f5d5", "c5e5"]);
        assert_eq!(game.tag("Board"), Some("8x8"));
        assert_eq!(game.tag("Black"), Some("b"));
    }

    #[test]
    fn a_plain_move_list_is_read_and_bad_text_is_named() {
        let game = read("1.d5 e5 2. f5d5!? $1 c5e5 ; a comment\n0-1").unwrap();
        assert_eq!(game.moves, ["d5", "e5", "f5d5", "c5e5"]);
        assert!(read("d5 (e5").unwrap_err().contains("never closed"));
        assert!(read("d5 {e5").unwrap_err().contains("never closed"));
        assert!(read("[Board 8x8]\nd5").unwrap_err().contains("in quotes"));
    }

    #[test]
    fn dates_are_the_calendar_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_781), (2026, 11, 24));
        let text = pgn(&record(&["d5"]), 1, "test");
        assert!(text.contains("[Date \""), "{text}");
        assert!(text.contains("[Site \""), "{text}");
    }

    #[test]
    fn without_variations_the_text_is_as_before() {
        let game = record(&["d5", "e5"]);
        assert!(
            pgn(&game, 1, "test").ends_with("\n\n1. d5 e5 *\n\n"),
            "{}",
            pgn(&game, 1, "test")
        );
    }
}
