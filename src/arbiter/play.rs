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

/// Writes one line to the person and shows it at once (a closed terminal is ignored: the
/// game is recorded all the same).
fn say(out: &mut dyn Write, text: &str) {
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// What one turn came to.
enum Turn {
    /// A move was played (or taken back): the game goes on.
    Played,
    /// The game is over: the winner, and how.
    Over(Color, Termination),
    /// The person left or the run was interrupted: the game is not recorded; this says so.
    Left(String),
}

/// A game between the person and the engine in progress.
struct Match<'a> {
    settings: &'a PlaySettings,
    seat: Seat,
    position: Position,
    moves: Vec<String>,
    times: Vec<u64>,
    last: Option<Move>,
    clocks: Clocks,
    /// The states `undo` goes back to, one per move of the person's.
    history: Vec<Snapshot>,
}

impl Match<'_> {
    fn engine_name(&self) -> &str {
        &self.settings.engine.launch.name
    }

    /// The engine's move, checked and played, or how the engine lost.
    fn engine_turn(&mut self, out: &mut dyn Write) -> Turn {
        let side = self.position.side_to_move();
        let name = self.engine_name().to_string();
        say(out, &format!("{name} ({}) is thinking...", title(side)));
        let opening = Opening {
            fen: None,
            moves: Vec::new(),
        };
        let never = AtomicBool::new(false);
        let asked = game::ask(
            &mut self.seat,
            &self.position,
            &opening,
            &self.moves,
            &self.settings.game_rules,
            &mut self.clocks,
            &never,
        );
        match asked {
            Asked::Move(mv, took, verdict) => {
                let score = verdict.map_or(String::new(), |v| format!("{}, ", v.text()));
                let ms = took.as_millis();
                say(out, &format!("{name} plays {mv} ({score}{ms} ms)"));
                self.times.push(took.as_millis() as u64);
                self.position.play_unchecked(mv);
                self.moves.push(mv.to_string());
                self.last = Some(mv);
                // With `ponder`, the engine thinks on the person's time.
                let rules = &self.settings.game_rules;
                let position = self.position;
                self.seat
                    .start_pondering(&position, &opening, &self.moves, rules, &self.clocks);
                Turn::Played
            }
            Asked::Lost(termination, _) => Turn::Over(side.opponent(), termination),
            Asked::Stopped => Turn::Left(format!(
                "\nInterrupted while {name} was thinking: the game is not recorded."
            )),
        }
    }

    /// The person's move (or `undo`), read until it is one the rules allow.
    fn person_turn(
        &mut self,
        input: &Receiver<String>,
        out: &mut dyn Write,
        interrupted: &AtomicBool,
    ) -> Turn {
        let asked_at = Instant::now();
        match self.read_move(input, out, interrupted) {
            Typed::Move(mv) => {
                self.history.push(Snapshot {
                    position: self.position,
                    moves: self.moves.len(),
                    clocks: self.clocks,
                });
                self.times.push(asked_at.elapsed().as_millis() as u64);
                self.position.play_unchecked(mv);
                self.moves.push(mv.to_string());
                self.last = Some(mv);
            }
            Typed::Undo => match self.history.pop() {
                Some(snapshot) => {
                    self.position = snapshot.position;
                    self.moves.truncate(snapshot.moves);
                    self.times.truncate(snapshot.moves);
                    self.clocks = snapshot.clocks;
                    self.last = self.moves.last().and_then(|text| text.parse().ok());
                    say(out, "Took back your last move and the reply.");
                }
                None => say(out, "Nothing to undo: you have not moved yet."),
            },
            _ if interrupted.load(Ordering::SeqCst) => {
                return Turn::Left("\nInterrupted: the game is not recorded.".into());
            }
            _ => return Turn::Left("You left the game; it is not recorded.".into()),
        }
        Turn::Played
    }

    /// Prompts until the person types a legal move, `undo` or `quit` (or the input ends),
    /// answering `moves`, `help` and refusals on the way.
    fn read_move(
        &self,
        input: &Receiver<String>,
        out: &mut dyn Write,
        interrupted: &AtomicBool,
    ) -> Typed {
        let side = title(self.position.side_to_move());
        loop {
            let _ = write!(out, "{} ({side}) to move> ", self.settings.human_name);
            let _ = out.flush();
            let Some(line) = next_line(input, interrupted) else {
                return Typed::Quit;
            };
            match read_typed(&line) {
                Ok(Typed::Move(mv)) => match self.position.check(mv) {
                    Ok(()) => return Typed::Move(mv),
                    Err(why) => say(out, &format!("{mv} is not legal here: {why}")),
                },
                Ok(Typed::ListMoves) => {
                    let legal: Vec<String> = self
                        .position
                        .legal_moves()
                        .iter()
                        .map(|m| m.to_string())
                        .collect();
                    say(out, &format!("Legal moves: {}", legal.join(" ")));
                }
                Ok(Typed::Help) => say(out, &help(self.settings.game_rules.rules)),
                Ok(Typed::Nothing) => {}
                Ok(other @ (Typed::Undo | Typed::Quit)) => return other,
                Err(why) => say(out, &why),
            }
        }
    }
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
    let position = Position::start(rules).map_err(|e| e.to_string())?;
    // The files must take the game before it is played, not lose it after.
    check_outputs(settings.results.as_deref(), settings.pgn.as_deref())?;
    let id = match &settings.results {
        Some(path) => {
            let held = read_results(path).map_err(|e| format!("results file {e}"))?;
            held.records.len() + 1
        }
        None => 1,
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
    let players = match settings.human {
        Color::Black => [settings.human_name.clone(), engine_name],
        Color::White => [engine_name, settings.human_name.clone()],
    };
    say(
        out,
        &format!(
            "{} (Black) against {} (White), {rules}. {}",
            players[0],
            players[1],
            help(rules)
        ),
    );
    let setup = GameSetup {
        id,
        players,
        rules,
        start: position.fen(),
        opening_plies: 0,
    };
    let mut game = Match {
        settings,
        seat,
        position,
        moves: Vec::new(),
        times: Vec::new(),
        last: None,
        clocks: Clocks::new(settings.game_rules.time_control),
        history: Vec::new(),
    };
    let (winner, termination) = loop {
        say(out, &format!("\n{}", draw(&game.position, game.last)));
        if let Some(winner) = game.position.winner() {
            break (winner, Termination::Normal);
        }
        let turn = if game.position.side_to_move() == settings.human {
            game.person_turn(input, out, interrupted)
        } else {
            game.engine_turn(out)
        };
        match turn {
            Turn::Played => {}
            Turn::Over(winner, termination) => break (winner, termination),
            Turn::Left(why) => {
                say(out, &why);
                game.seat.shut_down();
                return Ok(None);
            }
        }
    };
    finish(game, &setup, winner, termination, out).map(Some)
}

/// Records the finished game: says who won and how, writes it to the results and PGN files,
/// and says where it went.
fn finish(
    mut game: Match,
    setup: &GameSetup,
    winner: Color,
    termination: Termination,
    out: &mut dyn Write,
) -> Result<GameRecord, String> {
    let detail = match termination {
        Termination::Crash | Termination::Stall => game.seat.failure().map(str::to_string),
        _ => None,
    };
    game.seat.shut_down();
    let how = match &termination {
        Termination::Normal => format!("{} has no move", title(winner.opponent())),
        other => format!("{} lost by {other}", game.engine_name()),
    };
    let record = GameRecord {
        detail: detail.clone(),
        ..GameRecord::new(setup, winner, termination, game.moves, game.times)
    };
    let shown = detail.map(|text| format!(" ({text})")).unwrap_or_default();
    say(
        out,
        &format!(
            "Game over: {} ({}) wins; {how}{shown}.",
            record.winner_name(),
            title(winner)
        ),
    );
    say(out, &format!("Moves: {}", record.moves.join(" ")));
    let settings = game.settings;
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
    Ok(record)
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
