//! `konane-arbiter play`: a person against an engine in the terminal. The arbiter referees
//! both sides: the person's moves are checked with a reason given for every refusal (never a
//! forfeit), the engine keeps its time control, and the finished game is recorded like any
//! other.

use crate::arbiter::game::{self, Asked, Clocks, GameRules, Seat};
use crate::arbiter::log::Log;
use crate::arbiter::openings::Opening;
use crate::arbiter::record::{GameRecord, GameSetup, Termination};
use crate::arbiter::results::{check_outputs, read_results, write_game};
use crate::arbiter::spec::EngineSpec;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::{Color, Square};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Everything a game against a person needs.
pub struct PlaySettings {
    /// The engine.
    pub engine: EngineSpec,
    /// The person's colour.
    pub human: Color,
    /// The person's name in the records.
    pub human_name: String,
    /// Board, rules, the engine's time control, deadlines.
    pub game_rules: GameRules,
    /// `--pgn`.
    pub pgn: Option<PathBuf>,
    /// `--results`.
    pub results: Option<PathBuf>,
    /// `--log`.
    pub log: Log,
}

/// What the person typed, as far as the game is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Typed {
    Move(Move),
    ListMoves,
    Undo,
    Quit,
    Help,
    Nothing,
}

/// Reads one typed line; the error says what is wrong with it.
fn read_typed(line: &str) -> Result<Typed, String> {
    let text = line.trim();
    Ok(match text.to_ascii_lowercase().as_str() {
        "" => Typed::Nothing,
        "moves" => Typed::ListMoves,
        "undo" => Typed::Undo,
        "quit" | "exit" => Typed::Quit,
        "help" | "?" => Typed::Help,
        // Squares may be typed in capitals: D5, F5D5.
        lower => Typed::Move(lower.parse().map_err(|e| {
            // Control characters are shown escaped, never sent raw to the terminal.
            let shown: String = text.chars().flat_map(char::escape_debug).collect();
            format!("'{shown}' is not a move: {e}")
        })?),
    })
}

/// What the person can type, with examples of moves on this board (a removal and a jump from
/// its start), so that a 6x6 game shows no 8x8 squares.
fn help(rules: crate::rules::Rules) -> String {
    let examples = Position::start(rules).ok().and_then(|mut position| {
        let removal = *position.legal_moves().first()?;
        position.play(removal).ok()?;
        let reply = *position.legal_moves().first()?;
        position.play(reply).ok()?;
        let jump = *position.legal_moves().first()?;
        Some(format!("{removal} to remove a stone, {jump} to jump; "))
    });
    format!(
        "Type a move in the protocol's notation ({}a multiple jump names where each leg lands), \
'moves' for the legal moves, 'undo' to take back your last move and the engine's reply, 'quit' \
to leave.",
        examples.unwrap_or_default()
    )
}

/// A colour as the messages write it: `Black`, `White`.
fn title(colour: Color) -> &'static str {
    match colour {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The board drawn for a person: rank numbers, file letters, and the squares the last move
/// touched in brackets (where it started, what it jumped, where it landed).
pub fn draw(position: &Position, last: Option<Move>) -> String {
    let touched = last.map_or(Vec::new(), Move::touched_squares);
    let diagram = position.diagram();
    let mut text = String::new();
    for rank in (0..diagram.height).rev() {
        text += &format!("{:>3} ", rank + 1);
        for file in 0..diagram.width {
            let mark = match diagram.squares[rank * diagram.width + file] {
                Some(color) => color.letter(),
                None => '.',
            };
            let here = Square::new(file as u8, rank as u8);
            if here.is_some_and(|square| touched.contains(&square)) {
                text += &format!("[{mark}]");
            } else {
                text += &format!(" {mark} ");
            }
        }
        text.push('\n');
    }
    text += "    ";
    for file in 0..diagram.width {
        text += &format!(" {} ", char::from(b'a' + file as u8));
    }
    text.push('\n');
    text
}

/// The state of the game that `undo` goes back to.
#[derive(Clone)]
struct Snapshot {
    position: Position,
    moves: usize,
    clocks: Clocks,
}

/// Plays one game between the person (typing `input` lines, `None` at the end of input) and
/// the engine, writing to `out`. Returns the finished game (already written to the results and
/// PGN files), or `None` when the person left or the run was interrupted.
pub fn play(
    settings: &PlaySettings,
    input: &Receiver<String>,
    out: &mut impl Write,
    interrupted: &AtomicBool,
) -> Result<Option<GameRecord>, String> {
    let rules = settings.game_rules.rules;
    rules.check_opening().map_err(|e| e.to_string())?;
    let mut position = Position::start(rules).map_err(|e| e.to_string())?;
    // The files must take the game before it is played, not lose it after.
    check_outputs(settings.results.as_deref(), settings.pgn.as_deref())?;
    let id = match &settings.results {
        Some(path) => {
            let held = read_results(path).map_err(|e| format!("--results {e}"))?;
            held.records.len() + 1
        }
        None => 1,
    };
    let start = position.fen();
    let opening = Opening {
        fen: None,
        moves: Vec::new(),
    };
    let spec = &settings.engine;
    let mut seat = Seat::new(spec, rules, settings.log.clone());
    if let Err(termination) = seat.ready(&settings.game_rules.deadlines) {
        return Err(format!(
            "engine '{}' could not be made ready: {termination}",
            spec.launch.name,
        ));
    }
    let engine_name = spec.launch.name.clone();
    let names = match settings.human {
        Color::Black => [settings.human_name.clone(), engine_name.clone()],
        Color::White => [engine_name.clone(), settings.human_name.clone()],
    };
    let say = |out: &mut dyn Write, text: &str| {
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    say(
        out,
        &format!(
            "{} (Black) against {} (White), {}. {}",
            names[0],
            names[1],
            rules,
            help(rules)
        ),
    );
    let mut moves: Vec<String> = Vec::new();
    let mut times: Vec<u64> = Vec::new();
    let mut last: Option<Move> = None;
    let mut clocks = Clocks::new(settings.game_rules.time_control);
    let mut history: Vec<Snapshot> = Vec::new();
    let stop = AtomicBool::new(false);
    let (winner, termination) = loop {
        say(out, &format!("\n{}", draw(&position, last)));
        if let Some(winner) = position.winner() {
            break (winner, Termination::Normal);
        }
        let side = position.side_to_move();
        if side != settings.human {
            let side = title(side);
            say(out, &format!("{engine_name} ({side}) is thinking..."));
            let asked = game::ask(
                &mut seat,
                &position,
                &opening,
                &moves,
                &settings.game_rules,
                &mut clocks,
                &stop,
            );
            match asked {
                Asked::Move(mv, took) => {
                    say(
                        out,
                        &format!("{engine_name} plays {mv} ({} ms)", took.as_millis()),
                    );
                    times.push(took.as_millis() as u64);
                    position.play_unchecked(mv);
                    moves.push(mv.to_string());
                    last = Some(mv);
                }
                Asked::Lost(termination, _) => {
                    break (position.side_to_move().opponent(), termination);
                }
                Asked::Stopped => {
                    say(
                        out,
                        &format!(
                            "\nInterrupted while {engine_name} was thinking: the game is not recorded."
                        ),
                    );
                    seat.shut_down();
                    return Ok(None);
                }
            }
            continue;
        }
        let asked_at = Instant::now();
        let typed = loop {
            let _ = write!(out, "{} ({}) to move> ", settings.human_name, title(side));
            let _ = out.flush();
            let line = match next_line(input, interrupted) {
                Some(line) => line,
                None => break Typed::Quit,
            };
            match read_typed(&line) {
                Ok(Typed::Move(mv)) => {
                    let mut after = position;
                    match after.play(mv) {
                        Ok(()) => break Typed::Move(mv),
                        Err(why) => say(out, &format!("{mv} is not legal here: {why}")),
                    }
                }
                Ok(Typed::ListMoves) => {
                    let legal: Vec<String> = position
                        .legal_moves()
                        .iter()
                        .map(|m| m.to_string())
                        .collect();
                    say(out, &format!("Legal moves: {}", legal.join(" ")));
                }
                Ok(Typed::Help) => say(out, &help(rules)),
                Ok(Typed::Nothing) => {}
                Ok(other) => break other,
                Err(why) => say(out, &why),
            }
        };
        match typed {
            Typed::Move(mv) => {
                history.push(Snapshot {
                    position,
                    moves: moves.len(),
                    clocks,
                });
                times.push(asked_at.elapsed().as_millis() as u64);
                position.play_unchecked(mv);
                moves.push(mv.to_string());
                last = Some(mv);
            }
            Typed::Undo => match history.pop() {
                Some(snapshot) => {
                    position = snapshot.position;
                    moves.truncate(snapshot.moves);
                    times.truncate(snapshot.moves);
                    clocks = snapshot.clocks;
                    last = moves.last().and_then(|text| text.parse().ok());
                    say(out, "Took back your last move and the reply.");
                }
                None => say(out, "Nothing to undo: you have not moved yet."),
            },
            _ => {
                let why = if interrupted.load(Ordering::SeqCst) {
                    "\nInterrupted: the game is not recorded."
                } else {
                    "You left the game; it is not recorded."
                };
                say(out, why);
                seat.shut_down();
                return Ok(None);
            }
        }
    };
    let detail = match termination {
        Termination::Crash | Termination::Stall => seat.failure().map(str::to_string),
        _ => None,
    };
    seat.shut_down();
    let setup = GameSetup {
        id,
        players: names.clone(),
        rules,
        start,
        opening_plies: 0,
    };
    let record = GameRecord {
        detail: detail.clone(),
        ..GameRecord::new(&setup, winner, termination.clone(), moves, times)
    };
    let winner_name = &names[winner.index()];
    let how = match &termination {
        Termination::Normal => format!("{} has no move", title(winner.opponent())),
        other => format!("{engine_name} lost by {other}"),
    };
    let detail = detail.map(|text| format!(" ({text})")).unwrap_or_default();
    say(
        out,
        &format!(
            "Game over: {winner_name} ({}) wins; {how}{detail}.",
            title(winner)
        ),
    );
    say(out, &format!("Moves: {}", record.moves.join(" ")));
    write_game(
        settings.results.as_deref(),
        settings.pgn.as_deref(),
        &record,
        "konane-arbiter play",
    )?;
    let written: Vec<String> = [&settings.results, &settings.pgn]
        .into_iter()
        .flatten()
        .map(|path| path.display().to_string())
        .collect();
    if written.is_empty() {
        say(
            out,
            "The game is not kept: give --pgn or --results to keep games.",
        );
    } else {
        say(
            out,
            &format!("The game is written to {}.", written.join(" and ")),
        );
    }
    Ok(Some(record))
}

/// The next line the person typed; `None` at the end of input or on Ctrl-C.
fn next_line(input: &Receiver<String>, interrupted: &AtomicBool) -> Option<String> {
    loop {
        if interrupted.load(Ordering::SeqCst) {
            return None;
        }
        match input.recv_timeout(Duration::from_millis(100)) {
            Ok(line) => return Some(line),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_lines_are_read_or_refused_with_a_reason() {
        assert_eq!(read_typed(" moves "), Ok(Typed::ListMoves));
        assert_eq!(read_typed("UNDO"), Ok(Typed::Undo));
        assert_eq!(read_typed("d5"), Ok(Typed::Move("d5".parse().unwrap())));
        assert_eq!(
            read_typed(" F5D5 "),
            Ok(Typed::Move("f5d5".parse().unwrap()))
        );
        let error = read_typed("f5z").unwrap_err();
        assert!(error.starts_with("'f5z' is not a move: "), "{error}");
    }

    #[test]
    fn the_last_move_is_marked() {
        let mut position = Position::start(crate::Rules::default()).unwrap();
        for text in ["d5", "c5", "f5d5"] {
            let mv: Move = text.parse().unwrap();
            position.play(mv).unwrap();
        }
        let drawn = draw(&position, Some("f5d5".parse().unwrap()));
        let rank5 = drawn.lines().nth(3).unwrap();
        assert_eq!(rank5, "  5  w  b  . [b][.][.] w  b ");
    }
}
