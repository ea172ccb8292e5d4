//! Games as PGN text.

use crate::arbiter::pgn_tree::{PgnNode, PgnTree, write_game};
use crate::arbiter::record::{GameRecord, Played};
use crate::arbiter::verdict::MoveEval;
use crate::rules::Rules;
use crate::rules::position::Position;
use crate::rules::square::Color;
use std::collections::HashSet;
use std::fs::File;
use std::path::Path;
use std::time::Duration;

/// The `Event` tag of the arbiter's games.
pub const EVENT: &str = "konane-arbiter";

/// The PGN text of one finished game, numbered `round` of `event`. `Result` follows the PGN
/// convention: `1-0` is a win for White.
pub fn pgn(record: &GameRecord, round: usize, event: &str) -> String {
    let game = PgnGame::of(record, round, event);
    let mut tree = game.tree();
    write_verdicts(&mut tree, record);
    write_game(&tree, game.white_first())
}

/// Writes each engine move's verdict and time before its comment, as cutechess-cli does:
/// `{+0.35/12 0.50s}`. The opening's moves have none.
fn write_verdicts(tree: &mut PgnTree, record: &GameRecord) {
    let mut node = &mut tree.root;
    let mut ply: usize = 0;
    while let Some(next) = node.children.first_mut() {
        node = next;
        ply += 1;
        let Some(engine_move) = ply.checked_sub(record.opening_plies + 1) else {
            continue;
        };
        let verdict = record.move_verdicts.get(engine_move).copied().flatten();
        let time = record.move_times_ms.get(engine_move).copied();
        if let (Some(verdict), Some(ms)) = (verdict, time) {
            let time = Duration::from_millis(ms);
            let eval = MoveEval { verdict, time }.text();
            node.comment = Some(match node.comment.take() {
                Some(comment) => format!("{eval} {comment}"),
                None => eval,
            });
        }
    }
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

impl PgnGame<'_> {
    /// The game as a PGN tree: its tags, the main line (the loser's failure as a comment on
    /// the last move) and the result. Callers may hang variations, marks and comments on it.
    pub fn tree(&self) -> PgnTree {
        let result = match self.winner {
            None => "*",
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
        };
        let rules = self.rules;
        let mut tags = vec![
            ("Event", self.event.to_string()),
            ("Site", self.played.map_or("?", |p| &p.site).to_string()),
            (
                "Date",
                self.played.map_or("????.??.??", |p| &p.date).to_string(),
            ),
            ("Round", self.round.to_string()),
            ("Black", self.players[0].to_string()),
            ("White", self.players[1].to_string()),
            ("Result", result.to_string()),
            ("Board", format!("{}x{}", rules.width(), rules.height())),
            ("Opening", rules.opening.name().to_string()),
            ("Capture", rules.capture.name().to_string()),
        ];
        if full_board(rules).as_deref() != Some(self.start) {
            tags.push(("FEN", self.start.to_string()));
        }
        tags.push(("Termination", self.termination.clone()));
        let mut root = PgnNode::default();
        let mut last = &mut root;
        for mv in self.moves {
            last.children.push(PgnNode {
                mv: mv.clone(),
                ..PgnNode::default()
            });
            last = &mut last.children[0];
        }
        if let Some(detail) = self.detail {
            // A comment ends at the first `}`: the engine's own words must not end it early.
            last.comment = Some(format!(
                "{}: {}",
                self.termination,
                detail.replace(['{', '}'], "")
            ));
        }
        PgnTree {
            tags: tags
                .into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect(),
            root,
            result: Some(result.to_string()),
        }
    }

    /// True when White plays the first move of the main line.
    pub fn white_first(&self) -> bool {
        self.start.ends_with(" w")
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
    fn each_game_keeps_its_own_date_and_site() {
        let start = Position::start(Rules::default()).unwrap().fen();
        let moves = texts(&["d5"]);
        let played = Played {
            date: "2020.01.02".into(),
            site: "far".into(),
        };
        let game = PgnGame {
            played: Some(&played),
            ..going_on(&moves, &start)
        };
        let text = write_game(&game.tree(), game.white_first());
        assert!(text.contains("[Date \"2020.01.02\"]"), "{text}");
        assert!(text.contains("[Site \"far\"]"), "{text}");
        let unknown = write_game(&going_on(&moves, &start).tree(), false);
        assert!(unknown.contains("[Date \"????.??.??\"]"), "{unknown}");
    }

    #[test]
    fn the_tags_then_the_moves_then_the_failure_as_a_comment() {
        let start = Position::start(Rules::default()).unwrap().fen();
        let moves = texts(&["d5", "e5"]);
        let game = PgnGame {
            winner: Some(Color::Black),
            termination: "illegal move".into(),
            detail: Some("played {a9}"),
            ..going_on(&moves, &start)
        };
        let text = write_game(&game.tree(), game.white_first());
        assert!(
            text.ends_with("\n\n1. d5 e5 {illegal move: played a9} 0-1\n\n"),
            "{text}"
        );
        let tags: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
        assert_eq!(tags[0], "[Event \"test\"]");
        assert_eq!(tags[6], "[Result \"0-1\"]");
        assert_eq!(tags.last(), Some(&"[Termination \"illegal move\"]"));
        let going = write_game(&going_on(&moves, &start).tree(), false);
        assert!(going.ends_with("\n\n1. d5 e5 *\n\n"), "{going}");
    }
}
