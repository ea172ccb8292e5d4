//! Games as PGN text.

use crate::arbiter::record::{GameRecord, Played};
use crate::rules::Rules;
use crate::rules::position::Position;
use crate::rules::square::Color;
use std::collections::HashSet;
use std::fs::File;
use std::path::Path;

/// The `Event` tag of the arbiter's games.
pub const EVENT: &str = "konane-arbiter";

/// The PGN text of one finished game, numbered `round` of `event`. `Result` follows the PGN
/// convention: `1-0` is a win for White.
pub fn pgn(record: &GameRecord, round: usize, event: &str) -> String {
    pgn_with_variations(&PgnGame::of(record, round, event), &[], &[])
}

/// What the PGN of one game says: a finished game's record, or a game still going on or
/// stopped without a result (the GUI's).
#[derive(Clone, Debug)]
pub struct PgnGame<'a> {
    /// The `Event` tag.
    pub event: &'a str,
    /// The `Round` tag.
    pub round: usize,
    /// Black's name, then White's.
    pub players: [&'a str; 2],
    /// The winner; `None` writes `*`.
    pub winner: Option<Color>,
    /// The `Termination` tag.
    pub termination: String,
    /// The `Board`, `Opening` and `Capture` tags.
    pub rules: Rules,
    /// The position string the moves start from (a `FEN` tag when it is not the full board).
    pub start: &'a str,
    /// The main line.
    pub moves: &'a [String],
    /// The `Date` and `Site` tags (`????.??.??` and `?` when unknown).
    pub played: Option<&'a Played>,
    /// How the loser failed, as a comment after the last move.
    pub detail: Option<&'a str>,
}

impl<'a> PgnGame<'a> {
    /// The PGN of `record`, numbered `round` of `event`.
    pub fn of(record: &'a GameRecord, round: usize, event: &'a str) -> PgnGame<'a> {
        PgnGame {
            event,
            round,
            players: [&record.black, &record.white],
            winner: Some(record.winner),
            termination: record.termination.to_string(),
            rules: record.rules,
            start: &record.start,
            moves: &record.moves,
            played: record.played.as_ref(),
            detail: record.detail.as_deref(),
        }
    }
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
    game: &PgnGame,
    variations: &[Variation],
    after_end: &[Vec<String>],
) -> String {
    let result = match game.winner {
        None => "*",
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
    };
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        text += &format!(
            "[{name} \"{}\"]\n",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        );
    };
    let rules = game.rules;
    tag("Event", game.event);
    tag("Site", game.played.map_or("?", |played| &played.site));
    tag(
        "Date",
        game.played.map_or("????.??.??", |played| &played.date),
    );
    tag("Round", &game.round.to_string());
    tag("Black", game.players[0]);
    tag("White", game.players[1]);
    tag("Result", result);
    tag("Board", &format!("{}x{}", rules.width(), rules.height()));
    tag("Opening", rules.opening.name());
    tag("Capture", rules.capture.name());
    if full_board(rules).as_deref() != Some(game.start) {
        tag("FEN", game.start);
    }
    tag("Termination", &game.termination);
    text.push('\n');
    let first_ply = if game.start.ends_with(" b") { 0 } else { 1 };
    let mut words = Vec::new();
    let main = Variation {
        at: 0,
        moves: game.moves.to_vec(),
        variations: variations.to_vec(),
    };
    movetext(&main, first_ply, &mut words);
    for line in after_end {
        let tried = line.join(" ");
        words.push(format!("{{then {tried}}}"));
    }
    if let Some(detail) = game.detail {
        // A comment ends at the first `}`: the engine's own words must not end it early.
        let text = detail.replace(['{', '}'], "");
        words.push(format!("{{{}: {text}}}", game.termination));
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

/// Brings the PGN file at `path` into agreement with the results file's `records` after an
/// interruption: the PGN is written after the results, so it may end in a torn game, lack the
/// last games, or hold a game whose results line was torn (and which is played again). The
/// PGN keeps exactly one game per record, in its order, the missing ones appended. Returns
/// what was done, when anything was.
pub fn reconcile(path: &Path, records: &[GameRecord]) -> Result<Option<String>, String> {
    let named = |e: std::io::Error| format!("PGN file {}: {e}", path.display());
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(named(e)),
    };
    // Every game ends with its result and a blank line; whatever follows the last such end
    // is a game torn in the writing.
    let whole = ["1-0\n\n", "0-1\n\n"]
        .iter()
        .filter_map(|end| text.rfind(end).map(|i| i + end.len()))
        .max()
        .unwrap_or(0);
    let recorded: HashSet<usize> = records.iter().map(|record| record.id).collect();
    let mut kept_rounds = HashSet::new();
    let mut kept = String::new();
    let mut dropped = 0;
    for game in split_games(&text[..whole]) {
        let round = game
            .lines()
            .find_map(|line| line.strip_prefix("[Round \""))
            .and_then(|rest| rest.trim_end_matches("\"]").parse::<usize>().ok());
        match round {
            Some(round) if recorded.contains(&round) && kept_rounds.insert(round) => {
                kept += game;
            }
            _ => dropped += 1,
        }
    }
    let missing: Vec<&GameRecord> = records
        .iter()
        .filter(|r| !kept_rounds.contains(&r.id))
        .collect();
    let torn = whole < text.len();
    if !torn && dropped == 0 && missing.is_empty() {
        return Ok(None);
    }
    for record in &missing {
        kept += &pgn(record, record.id, EVENT);
    }
    // Written beside it, then renamed over it: an interruption now loses nothing.
    let fresh = path.with_extension("pgn.partial");
    std::fs::write(&fresh, &kept)
        .and_then(|_| File::open(&fresh)?.sync_all())
        .and_then(|_| std::fs::rename(&fresh, path))
        .map_err(named)?;
    let mut done = Vec::new();
    if torn {
        done.push("a torn last game was removed".to_string());
    }
    if dropped > 0 {
        done.push(format!(
            "{dropped} game{} the results file does not hold {} removed",
            plural(dropped),
            if dropped == 1 { "was" } else { "were" }
        ));
    }
    if !missing.is_empty() {
        done.push(format!(
            "{} recorded game{} it lacked {} added",
            missing.len(),
            plural(missing.len()),
            if missing.len() == 1 { "was" } else { "were" }
        ));
    }
    Ok(Some(format!(
        "PGN file {}: {}",
        path.display(),
        done.join("; ")
    )))
}

/// `s` for a count other than one.
fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

/// The games of PGN `text` written by [`pgn`], each from its `[Event` tag on.
fn split_games(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = text
        .match_indices("[Event \"")
        .map(|(at, _)| at)
        .filter(|&at| at == 0 || text[..at].ends_with('\n'))
        .collect();
    if starts.first() != Some(&0) && !text.trim().is_empty() {
        starts.insert(0, 0);
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// The position string of the full board under `rules`, before any removal.
fn full_board(rules: Rules) -> Option<String> {
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

    /// A game going on, after `moves`.
    fn going_on<'a>(moves: &'a [String], start: &'a str) -> PgnGame<'a> {
        PgnGame {
            event: "test",
            round: 1,
            players: ["b", "w"],
            winner: None,
            termination: "unterminated".into(),
            rules: Rules::default(),
            start,
            moves,
            played: None,
            detail: None,
        }
    }

    fn texts(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn variations_are_written_in_parentheses_and_read_past() {
        let start = Position::start(Rules::default()).unwrap().fen();
        let moves = texts(&["d5", "e5", "f5d5", "c5e5"]);
        let game = going_on(&moves, &start);
        let variation = Variation {
            at: 2,
            moves: vec!["c4c6".into(), "e5c5".into()],
            variations: vec![Variation {
                at: 1,
                moves: vec!["f4d4".into()],
                variations: Vec::new(),
            }],
        };
        let text = pgn_with_variations(&game, &[variation], &[vec!["b5d5".into()]]);
        assert!(
            text.contains("1. d5 e5 2. f5d5 (2. c4c6 e5c5 (2... f4d4)) 2... c5e5 {then b5d5} *"),
            "{text}"
        );
        // The tree reader finds the variations where they were written.
        let game = crate::arbiter::pgn_tree::read_games(&text)
            .unwrap()
            .remove(0);
        let after_f5d5 = &game.root.children[0].children[0];
        let moves: Vec<&str> = after_f5d5.children.iter().map(|n| n.mv.as_str()).collect();
        assert_eq!(moves, ["f5d5", "c4c6"]);
        let c4c6 = &after_f5d5.children[1];
        let replies: Vec<&str> = c4c6.children.iter().map(|n| n.mv.as_str()).collect();
        assert_eq!(replies, ["e5c5", "f4d4"]);
        assert!(
            game.tags
                .contains(&("Board".to_string(), "8x8".to_string()))
        );
    }

    #[test]
    fn each_game_keeps_its_own_date_and_site() {
        let start = Position::start(Rules::default()).unwrap().fen();
        let moves = texts(&["d5"]);
        let played = Played {
            date: "2020.01.02".into(),
            site: "far".into(),
        };
        let text = pgn_with_variations(
            &PgnGame {
                played: Some(&played),
                ..going_on(&moves, &start)
            },
            &[],
            &[],
        );
        assert!(text.contains("[Date \"2020.01.02\"]"), "{text}");
        assert!(text.contains("[Site \"far\"]"), "{text}");
        let unknown = pgn_with_variations(&going_on(&moves, &start), &[], &[]);
        assert!(unknown.contains("[Date \"????.??.??\"]"), "{unknown}");
    }

    #[test]
    fn without_variations_the_text_is_as_before() {
        let start = Position::start(Rules::default()).unwrap().fen();
        let moves = texts(&["d5", "e5"]);
        let text = pgn_with_variations(&going_on(&moves, &start), &[], &[]);
        assert!(text.ends_with("\n\n1. d5 e5 *\n\n"), "{text}");
    }
}
