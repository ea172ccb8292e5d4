//! Games as PGN text.

use crate::arbiter::game::GameRecord;
use crate::position::Position;
use crate::rules::Rules;

/// The PGN text of one game. `Result` follows the PGN convention: `1-0` is a win for White.
pub fn pgn(record: &GameRecord, round: usize, event: &str) -> String {
    let result = match record.winner_color() {
        crate::Color::White => "1-0",
        crate::Color::Black => "0-1",
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
