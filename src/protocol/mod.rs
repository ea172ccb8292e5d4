//! The engine protocol (protocol.md), both ways: one text line in, one typed [`Command`] out
//! for engines and bots; and what engines send, read by the arbiter, `check`, the GUI and
//! Python alike: [`options`] (the `option` lines, which our engine declares from the same
//! type) and [`info`] (`info` and `bestmove`). Parsing knows the
//! notation but not the position: legality is checked by the engine.

pub mod game;
pub mod info;
pub mod io;
pub mod options;
#[cfg(test)]
pub(crate) mod scripted;

use crate::rules::moves::{Move, MoveError};
use nom::bytes::complete::take_till1;
use nom::character::complete::multispace0;
use nom::combinator::all_consuming;
use nom::sequence::preceded;
use nom::{IResult, Parser};
use std::fmt;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start position of the current `Width`, `Height` and rule options.
    StartPos,
    /// A position string.
    Fen(String),
}

/// The parameters of `go`; times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Black's clock (`btime`, or UGI `p1time`).
    pub black_time: Option<u64>,
    /// White's clock (`wtime`, or UGI `p2time`).
    pub white_time: Option<u64>,
    /// Black's increment (`binc` / `p1inc`).
    pub black_inc: Option<u64>,
    /// White's increment (`winc` / `p2inc`).
    pub white_inc: Option<u64>,
    /// Moves to the next time control.
    pub moves_to_go: Option<u64>,
    /// Think exactly this long.
    pub move_time: Option<u64>,
    /// Search this many plies.
    pub depth: Option<u64>,
    /// Search about this many nodes.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Not a search: count moves this many plies deep (`go perft N`).
    pub perft: Option<u64>,
    /// Search only these moves at the root (`searchmoves m1 m2 ...`); empty: all.
    pub search_moves: Vec<Move>,
}

/// A UGI `query`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Is the game over?
    GameOver,
    /// Is it the first player's (Black's) turn?
    P1Turn,
    /// Who has won?
    Result,
}

/// One parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: the UCI handshake.
    Uci,
    /// `ugi`: the UGI handshake.
    Ugi,
    /// `isready`.
    IsReady,
    /// `ucinewgame` or `uginewgame`.
    NewGame,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (may contain spaces).
        name: String,
        /// The value, if one was given.
        value: Option<String>,
    },
    /// `position startpos|fen <string> [moves ...]`.
    Position {
        /// Where to start.
        start: Start,
        /// The moves to play from there.
        moves: Vec<Move>,
    },
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `query gameover|p1turn|result`.
    Query(Query),
    /// `d`: draw the board.
    Display,
    /// `eval`: the static evaluation.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
}

/// Why a `go` line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A parameter that `go` does not have.
    Unknown(String),
    /// A parameter without its number.
    MissingValue(String),
    /// A parameter whose value is not a whole number.
    BadNumber(String, String),
    /// `searchmoves` with a word that is not a move.
    BadMove(String, MoveError),
    /// `searchmoves` with no move after it.
    NoSearchMoves,
    /// `depth`, `nodes`, `movetime` or `movestogo` below 1 (the text as sent): such a limit
    /// leaves nothing to search.
    NotPositive(String, String),
}

/// Why a `position` line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionParseError {
    /// Neither `startpos` nor `fen` follows `position`.
    MissingStart,
    /// Something else than `startpos` or `fen`.
    UnknownStart(String),
    /// `fen` without a position string.
    MissingFen,
    /// Something other than `moves` after the start.
    ExpectedMoves(String),
    /// A move token that is not a move.
    BadMove(String, MoveError),
}

/// Why a `setoption` line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOptionError {
    /// The line lacks `name <name>`.
    MissingName,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is not a command.
    Unknown(String),
    /// A bad `go`.
    Go(GoError),
    /// A bad `position`.
    Position(PositionParseError),
    /// A bad `setoption`.
    SetOption(SetOptionError),
    /// `query` without a known question.
    Query(String),
    /// `bench` with a depth that is not a number from 1 to 64.
    Bench(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::Go(GoError::Unknown(word)) => write!(f, "go: unknown parameter '{word}'"),
            CommandError::Go(GoError::MissingValue(key)) => write!(f, "go: '{key}' needs a number"),
            CommandError::Go(GoError::BadNumber(key, text)) => {
                write!(f, "go: '{key}' needs a whole number, not '{text}'")
            }
            CommandError::Go(GoError::BadMove(text, error)) => {
                write!(f, "go: searchmoves: bad move '{text}': {error}")
            }
            CommandError::Go(GoError::NoSearchMoves) => {
                write!(f, "go: searchmoves needs at least one move")
            }
            CommandError::Go(GoError::NotPositive(key, text)) => {
                write!(f, "go: '{key}' must be at least 1, not '{text}'")
            }
            CommandError::Position(e) => match e {
                PositionParseError::MissingStart => {
                    write!(f, "position: expected 'startpos' or 'fen'")
                }
                PositionParseError::UnknownStart(word) => {
                    write!(f, "position: expected 'startpos' or 'fen', not '{word}'")
                }
                PositionParseError::MissingFen => {
                    write!(f, "position: 'fen' needs a position string")
                }
                PositionParseError::ExpectedMoves(word) => {
                    write!(f, "position: expected 'moves', not '{word}'")
                }
                PositionParseError::BadMove(token, error) => {
                    write!(f, "position: bad move '{token}': {error}")
                }
            },
            CommandError::SetOption(SetOptionError::MissingName) => {
                write!(
                    f,
                    "setoption: expected 'setoption name <name> [value <value>]'"
                )
            }
            CommandError::Query(word) => {
                write!(
                    f,
                    "query: expected gameover, p1turn or result, not '{word}'"
                )
            }
            CommandError::Bench(word) => write!(f, "bench: bad depth '{word}' (1 to 64)"),
        }
    }
}

impl std::error::Error for CommandError {}

/// The next whitespace-separated word.
fn word(input: &str) -> IResult<&str, &str> {
    preceded(multispace0, take_till1(char::is_whitespace)).parse(input)
}

/// All the words of `input`.
fn words(mut input: &str) -> Vec<&str> {
    let mut out = Vec::new();
    while let Ok((rest, token)) = word(input) {
        out.push(token);
        input = rest;
    }
    out
}

/// A whole word as an unsigned number.
fn number(text: &str) -> Option<u64> {
    all_consuming(nom::character::complete::u64::<&str, nom::error::Error<&str>>)
        .parse(text)
        .ok()
        .map(|(_, n)| n)
}

/// Parses one input line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let tokens = words(line);
    let Some((&first, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    let command = match first {
        "uci" => Command::Uci,
        "ugi" => Command::Ugi,
        "isready" => Command::IsReady,
        "ucinewgame" | "uginewgame" => Command::NewGame,
        "setoption" => parse_setoption(rest)?,
        "position" => parse_position(rest).map_err(CommandError::Position)?,
        "go" => Command::Go(parse_go(rest).map_err(CommandError::Go)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "query" => Command::Query(match rest.first().copied() {
            Some("gameover") => Query::GameOver,
            Some("p1turn") => Query::P1Turn,
            Some("result") => Query::Result,
            other => return Err(CommandError::Query(other.unwrap_or("").to_string())),
        }),
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => Command::Bench(match rest.first() {
            None => None,
            Some(text) => Some(
                number(text)
                    .filter(|d| (1..=64).contains(d))
                    .ok_or_else(|| CommandError::Bench(text.to_string()))? as u32,
            ),
        }),
        other => return Err(CommandError::Unknown(other.chars().take(40).collect())),
    };
    Ok(Some(command))
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, CommandError> {
    let missing = CommandError::SetOption(SetOptionError::MissingName);
    let ("name", rest) = tokens
        .split_first()
        .map(|(f, r)| (*f, r))
        .ok_or(missing.clone())?
    else {
        return Err(missing);
    };
    let value_at = rest.iter().position(|&t| t == "value");
    let name = rest[..value_at.unwrap_or(rest.len())].join(" ");
    if name.is_empty() {
        return Err(missing);
    }
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn parse_position(tokens: &[&str]) -> Result<Command, PositionParseError> {
    let (start, rest) = match tokens.split_first() {
        None => return Err(PositionParseError::MissingStart),
        Some((&"startpos", rest)) => (Start::StartPos, rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err(PositionParseError::MissingFen);
            }
            (Start::Fen(rest[..end].join(" ")), &rest[end..])
        }
        Some((other, _)) => return Err(PositionParseError::UnknownStart(other.to_string())),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => list
            .iter()
            .map(|token| {
                token
                    .parse()
                    .map_err(|e| PositionParseError::BadMove(token.to_string(), e))
            })
            .collect::<Result<_, _>>()?,
        Some((other, _)) => return Err(PositionParseError::ExpectedMoves(other.to_string())),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(tokens: &[&str]) -> Result<Go, GoError> {
    const KEYWORDS: [&str; 14] = [
        "infinite",
        "ponder",
        "btime",
        "p1time",
        "wtime",
        "p2time",
        "binc",
        "p1inc",
        "winc",
        "p2inc",
        "movestogo",
        "movetime",
        "depth",
        "nodes",
    ];
    let mut go = Go::default();
    let mut iter = tokens.iter().peekable();
    while let Some(&key) = iter.next() {
        let slot = match key {
            "searchmoves" => {
                // The moves run to the next parameter, as in UCI.
                while let Some(&&word) = iter.peek() {
                    if KEYWORDS.contains(&word) || word == "perft" {
                        break;
                    }
                    iter.next();
                    let mv = word
                        .parse()
                        .map_err(|e| GoError::BadMove(word.chars().take(40).collect(), e))?;
                    go.search_moves.push(mv);
                }
                if go.search_moves.is_empty() {
                    return Err(GoError::NoSearchMoves);
                }
                continue;
            }
            "infinite" => {
                go.infinite = true;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                continue;
            }
            "btime" | "p1time" => &mut go.black_time,
            "wtime" | "p2time" => &mut go.white_time,
            "binc" | "p1inc" => &mut go.black_inc,
            "winc" | "p2inc" => &mut go.white_inc,
            "movestogo" => &mut go.moves_to_go,
            "movetime" => &mut go.move_time,
            "depth" => &mut go.depth,
            "nodes" => &mut go.nodes,
            "perft" => &mut go.perft,
            other => return Err(GoError::Unknown(other.chars().take(40).collect())),
        };
        let text = iter
            .next()
            .ok_or_else(|| GoError::MissingValue(key.to_string()))?;
        let shown = || text.chars().take(40).collect::<String>();
        let clock = matches!(
            key,
            "btime" | "p1time" | "wtime" | "p2time" | "binc" | "p1inc" | "winc" | "p2inc"
        );
        let value = match text.strip_prefix('-') {
            // A clock may run below zero in some GUIs: treat a negative time as none left.
            Some(digits) if clock && number(digits).is_some() => 0,
            _ => number(text).ok_or_else(|| GoError::BadNumber(key.to_string(), shown()))?,
        };
        // A search limit (not a clock, nor `perft 0`) must leave something to search.
        let limit = matches!(key, "depth" | "nodes" | "movetime" | "movestogo");
        if limit && value == 0 {
            return Err(GoError::NotPositive(key.to_string(), shown()));
        }
        *slot = Some(value);
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_command() {
        assert_eq!(parse("  uci "), Ok(Some(Command::Uci)));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(
            parse("setoption name Move Overhead value 50"),
            Ok(Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("50".into())
            }))
        );
        assert_eq!(
            parse("position fen bw/wb b moves a2"),
            Ok(Some(Command::Position {
                start: Start::Fen("bw/wb b".into()),
                moves: vec!["a2".parse().unwrap()]
            }))
        );
        let go = parse("go p1time 1000 wtime 2000 binc 10 movestogo 5 infinite").unwrap();
        assert_eq!(
            go,
            Some(Command::Go(Go {
                black_time: Some(1000),
                white_time: Some(2000),
                black_inc: Some(10),
                moves_to_go: Some(5),
                infinite: true,
                ..Go::default()
            }))
        );
        assert_eq!(
            parse("query p1turn"),
            Ok(Some(Command::Query(Query::P1Turn)))
        );
        assert_eq!(parse("bench 5"), Ok(Some(Command::Bench(Some(5)))));
        let go = parse("go searchmoves f5d5 d5 depth 4").unwrap();
        assert_eq!(
            go,
            Some(Command::Go(Go {
                search_moves: vec!["f5d5".parse().unwrap(), "d5".parse().unwrap()],
                depth: Some(4),
                ..Go::default()
            }))
        );
    }

    #[test]
    fn bad_lines_name_the_fault() {
        let cases = [
            ("foo bar", "unknown command 'foo'"),
            ("go depth", "go: 'depth' needs a number"),
            ("go depth x", "go: 'depth' needs a whole number, not 'x'"),
            ("go sideways", "go: unknown parameter 'sideways'"),
            ("go searchmoves zz9", "go: searchmoves: bad move 'zz9'"),
            (
                "go searchmoves depth 3",
                "searchmoves needs at least one move",
            ),
            ("position", "expected 'startpos' or 'fen'"),
            ("position fen", "'fen' needs a position string"),
            ("position startpos d5", "expected 'moves', not 'd5'"),
            ("position startpos moves d5 zz", "bad move 'zz'"),
            ("setoption value 3", "setoption: expected"),
            ("query weather", "not 'weather'"),
            ("bench 0", "bad depth '0'"),
            ("go depth 0", "go: 'depth' must be at least 1, not '0'"),
            ("go nodes -5", "go: 'nodes' needs a whole number, not '-5'"),
            (
                "go movetime -5",
                "go: 'movetime' needs a whole number, not '-5'",
            ),
            (
                "go movetime 0",
                "go: 'movetime' must be at least 1, not '0'",
            ),
        ];
        for (line, expected) in cases {
            let error = parse(line).unwrap_err().to_string();
            assert!(error.contains(expected), "{line}: {error}");
        }
    }
}
