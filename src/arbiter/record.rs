//! A finished game as the arbiter keeps it: typed in memory (winner, termination and rules
//! are enums), written as text only at the edges — one JSON object a line in results files
//! (this module), PGN (`pgn`), the GUI's JSON and Python objects.

use crate::arbiter::tournament::{Shard, TournamentId};
use crate::arbiter::verdict::Verdict;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::rules::{Capture, Opening, Rules};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move had no legal move.
    Normal,
    /// The loser sent a move that is not legal, or not a move (shown as sent, cut to 40
    /// characters).
    IllegalMove(String),
    /// The loser's move came after its clock (plus the margin) ran out.
    TimeForfeit,
    /// The loser's process could not start, exited or closed its output.
    Crash,
    /// The loser did not answer within the stall bound (or at start-up).
    Stall,
}

impl Termination {
    /// The word of the results file and the PGN `Termination` tag for each kind, without the
    /// illegal move itself: `normal`, `illegal move`, `time forfeit`, `crash`, `stall`.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::IllegalMove(_) => "illegal move",
            Termination::TimeForfeit => "time forfeit",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
        }
    }

    /// Reads the text [`Termination`]'s `Display` writes.
    pub fn parse(text: &str) -> Result<Termination, String> {
        Ok(match text {
            "normal" => Termination::Normal,
            "time forfeit" => Termination::TimeForfeit,
            "crash" => Termination::Crash,
            "stall" => Termination::Stall,
            _ => match text.strip_prefix("illegal move") {
                Some(shown) => Termination::IllegalMove(shown.trim_start().to_string()),
                None => {
                    return Err(format!(
                        "unknown termination '{text}': expected normal, illegal move ..., time forfeit, crash or stall"
                    ));
                }
            },
        })
    }
}

impl fmt::Display for Termination {
    /// `normal`, `illegal move <text>`, `time forfeit`, `crash` or `stall`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::IllegalMove(shown) => write!(f, "illegal move {shown}"),
            other => f.write_str(other.kind()),
        }
    }
}

/// When and where a game was played, for the PGN `Date` and `Site` tags: kept with the game,
/// so that a merged or resumed tournament's PGN gives each game its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The day it ended, in UTC, `YYYY.MM.DD`.
    pub date: String,
    /// The machine it was played on (`?` when it has no name).
    pub site: String,
}

impl Played {
    /// Now, on this machine.
    pub fn now() -> Played {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (year, month, day) = civil_date(seconds / 86_400);
        let site = nix::unistd::gethostname()
            .ok()
            .and_then(|name| name.into_string().ok())
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| "?".to_string());
        Played {
            date: format!("{year:04}.{month:02}.{day:02}"),
            site,
        }
    }
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

/// What a game is before its first move: who plays, under which rules, from where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// The game's number (in a tournament's schedule, from 1).
    pub id: usize,
    /// Black's name, then White's.
    pub players: [String; 2],
    /// Board and rule options.
    pub rules: Rules,
    /// The position string the moves start from.
    pub start: String,
    /// How many of the first moves came from the opening rather than the players.
    pub opening_plies: usize,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "RecordLine", try_from = "RecordLine")]
pub struct GameRecord {
    /// The game's number in the schedule, from 1.
    pub id: usize,
    /// Black's engine name.
    pub black: String,
    /// White's engine name.
    pub white: String,
    /// Who won: Konane has no draws.
    pub winner: Color,
    /// How the game ended.
    pub termination: Termination,
    /// Board and rule options.
    pub rules: Rules,
    /// The position string the moves start from.
    pub start: String,
    /// Every move from `start`, the opening's included.
    pub moves: Vec<String>,
    /// How many of `moves` came from the opening rather than the engines.
    pub opening_plies: usize,
    /// Milliseconds each player's move took, in order.
    pub move_times_ms: Vec<u64>,
    /// Each player's verdict on its move (score and depth), one per entry of `move_times_ms`,
    /// `None` where the engine gave none or its answer was no legal move (empty in results
    /// files of versions before it was kept).
    pub move_verdicts: Vec<Option<Verdict>>,
    /// How the loser failed, for a crash or a stall: its exit status or signal and its last
    /// lines, stderr's first.
    pub detail: Option<String>,
    /// When and where it was played (`None` in results files of versions before it was kept).
    pub played: Option<Played>,
    /// The tournament the game belongs to (`None` for `play`'s games).
    pub tournament: Option<TournamentId>,
    /// The slice of the tournament that played it, under `--shard`.
    pub shard: Option<Shard>,
}

impl GameRecord {
    /// The record of the game `setup` that `winner` won by `termination` after `moves`
    /// (taking `move_times_ms`; no verdicts), played now on this machine; it belongs to no
    /// tournament yet.
    pub fn new(
        setup: &GameSetup,
        winner: Color,
        termination: Termination,
        moves: Vec<String>,
        move_times_ms: Vec<u64>,
    ) -> GameRecord {
        let [black, white] = setup.players.clone();
        GameRecord {
            id: setup.id,
            black,
            white,
            winner,
            termination,
            rules: setup.rules,
            start: setup.start.clone(),
            moves,
            opening_plies: setup.opening_plies,
            move_times_ms,
            move_verdicts: Vec::new(),
            detail: None,
            played: Some(Played::now()),
            tournament: None,
            shard: None,
        }
    }

    /// The position after the last move, or why the record's moves do not replay from its
    /// start.
    pub fn final_position(&self) -> Result<Position, String> {
        self.replay(|_, _, _| Ok(()))
    }

    /// Replays the record's moves from its start, calling `visit` with each move's number
    /// (from 0), its text and the position it is played from; returns the position after the
    /// last move, or why the moves do not replay (or `visit`'s error).
    pub fn replay(
        &self,
        mut visit: impl FnMut(usize, &str, &Position) -> Result<(), String>,
    ) -> Result<Position, String> {
        let rules = self.rules;
        let mut position = Position::from_fen(&self.start, rules.opening, rules.capture)
            .map_err(|e| format!("start: {e}"))?;
        for (ply, text) in self.moves.iter().enumerate() {
            visit(ply, text, &position)?;
            let mv: Move = text
                .parse()
                .map_err(|e| format!("move {} '{text}': {e}", ply + 1))?;
            position
                .play(mv)
                .map_err(|e| format!("move {} {text}: {e}", ply + 1))?;
        }
        Ok(position)
    }

    /// The winner's name.
    pub fn winner_name(&self) -> &str {
        match self.winner {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

/// A [`GameRecord`] as one line of a results file: the field names and texts every version of
/// the arbiter wrote, so that files of earlier versions resume and merge.
#[derive(Serialize, Deserialize)]
struct RecordLine {
    id: usize,
    black: String,
    white: String,
    winner: String,
    termination: String,
    start: String,
    moves: Vec<String>,
    opening_plies: usize,
    move_times_ms: Vec<u64>,
    /// `+0.35/12` as PGN writes it, or null, per move of `move_times_ms`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    verdicts: Vec<Option<String>>,
    board: String,
    opening_rule: String,
    capture: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    site: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tournament: Option<TournamentId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<Shard>,
}

impl From<GameRecord> for RecordLine {
    fn from(record: GameRecord) -> RecordLine {
        let (date, site) = match record.played {
            Some(Played { date, site }) => (Some(date), Some(site)),
            None => (None, None),
        };
        RecordLine {
            id: record.id,
            black: record.black,
            white: record.white,
            winner: record.winner.name().to_string(),
            termination: record.termination.to_string(),
            start: record.start,
            moves: record.moves,
            opening_plies: record.opening_plies,
            move_times_ms: record.move_times_ms,
            verdicts: record
                .move_verdicts
                .iter()
                .map(|verdict| verdict.map(|v| v.text()))
                .collect(),
            board: format!("{}x{}", record.rules.width(), record.rules.height()),
            opening_rule: record.rules.opening.to_string(),
            capture: record.rules.capture.to_string(),
            detail: record.detail,
            date,
            site,
            tournament: record.tournament,
            shard: record.shard,
        }
    }
}

impl TryFrom<RecordLine> for GameRecord {
    type Error = String;

    fn try_from(line: RecordLine) -> Result<GameRecord, String> {
        let winner = match line.winner.as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            other => return Err(format!("winner '{other}': expected black or white")),
        };
        let opening: Opening = line.opening_rule.parse().map_err(|e| format!("{e}"))?;
        let capture: Capture = line.capture.parse().map_err(|e| format!("{e}"))?;
        let mut rules = Rules::default().with_size_text(&line.board)?;
        (rules.opening, rules.capture) = (opening, capture);
        let move_verdicts = line
            .verdicts
            .iter()
            .map(|text| match text {
                None => Ok(None),
                Some(text) => Verdict::read(text).map(Some).ok_or_else(|| {
                    format!("verdict '{text}': expected a score/depth like +0.35/12")
                }),
            })
            .collect::<Result<_, String>>()?;
        let played = match (line.date, line.site) {
            (Some(date), Some(site)) => Some(Played { date, site }),
            _ => None,
        };
        Ok(GameRecord {
            id: line.id,
            black: line.black,
            white: line.white,
            winner,
            termination: Termination::parse(&line.termination)?,
            rules,
            start: line.start,
            moves: line.moves,
            opening_plies: line.opening_plies,
            move_times_ms: line.move_times_ms,
            move_verdicts,
            detail: line.detail,
            played,
            tournament: line.tournament,
            shard: line.shard,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(termination: Termination) -> GameRecord {
        let setup = GameSetup {
            id: 3,
            players: ["a".into(), "b".into()],
            rules: Rules::new(6, 4, Opening::Any, Capture::Turning).unwrap(),
            start: "start".into(),
            opening_plies: 2,
        };
        GameRecord::new(
            &setup,
            Color::White,
            termination,
            vec!["a1".into()],
            vec![5],
        )
    }

    #[test]
    fn every_termination_reads_back_from_its_text() {
        for termination in [
            Termination::Normal,
            Termination::IllegalMove("z9 and more".into()),
            Termination::IllegalMove("(none)".into()),
            Termination::TimeForfeit,
            Termination::Crash,
            Termination::Stall,
        ] {
            let text = termination.to_string();
            assert_eq!(Termination::parse(&text), Ok(termination), "{text}");
        }
        assert!(
            Termination::parse("resigned")
                .unwrap_err()
                .contains("'resigned'")
        );
    }

    #[test]
    fn a_record_reads_back_from_its_line_with_every_rule() {
        let verdict = Verdict {
            score: crate::protocol::info::Score::Mate(-2),
            depth: 9,
        };
        let original = GameRecord {
            move_verdicts: vec![Some(verdict)],
            ..record(Termination::IllegalMove("e9".into()))
        };
        let line = serde_json::to_string(&original).unwrap();
        assert!(line.contains(r#""winner":"white""#), "{line}");
        assert!(line.contains(r#""board":"6x4""#), "{line}");
        assert!(
            line.contains(r#""termination":"illegal move e9""#),
            "{line}"
        );
        assert!(line.contains(r#""verdicts":["-M2/9"]"#), "{line}");
        let read: GameRecord = serde_json::from_str(&line).unwrap();
        assert_eq!(read, original);
        assert_eq!(read.winner_name(), "b");
        // Lines of versions before verdicts were kept read as none; a wrong one is named.
        let old = line.replace(r#""verdicts":["-M2/9"],"#, "");
        assert!(
            serde_json::from_str::<GameRecord>(&old)
                .unwrap()
                .move_verdicts
                .is_empty()
        );
        let wrong = line.replace("-M2/9", "-M2");
        let error = serde_json::from_str::<GameRecord>(&wrong).unwrap_err();
        assert!(error.to_string().contains("'-M2'"), "{error}");
    }

    #[test]
    fn a_line_with_a_winner_that_is_no_colour_is_refused() {
        let line = serde_json::to_string(&record(Termination::Normal)).unwrap();
        let line = line.replace(r#""winner":"white""#, r#""winner":"whit""#);
        let error = serde_json::from_str::<GameRecord>(&line).unwrap_err();
        assert!(error.to_string().contains("'whit'"), "{error}");
    }

    #[test]
    fn dates_are_the_calendar_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_781), (2026, 11, 24));
    }
}
