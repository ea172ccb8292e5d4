//! What the page is sent: the game as JSON (the last position, the legal moves a person may
//! click, the move list, clocks, the result), any earlier position, and the game as PGN.

use crate::arbiter::game::{self, GameRecord, TimeControl};
use crate::arbiter::pgn;
use crate::gui::game::{Game, NewGame, Player, capitalised};
use crate::moves::Move;
use crate::position::Position;
use crate::square::{Color, Square};
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;

/// The `position` command for the position after `ply` plies of `game` (its last when `None`).
pub fn position_command(game: &Game, ply: Option<usize>) -> String {
    let ply = ply.unwrap_or(game.moves.len()).min(game.moves.len());
    let moves: Vec<String> = game.moves[..ply].iter().map(Move::to_string).collect();
    game::position_command(&game.opening, &moves)
}

/// Everything besides the game that the page is told.
pub struct Context<'a> {
    /// Counts the states published: the page ignores one older than what it shows (an HTTP
    /// answer can arrive after a newer state came over the live stream).
    pub version: u64,
    /// The game.
    pub game: &'a Game,
    /// The configured engines' names.
    pub engines: &'a [String],
    /// The side whose engine is thinking.
    pub thinking: Option<Color>,
    /// The side whose clock runs (an engine's or the person's), and for how long it has.
    pub running: Option<(Color, Duration)>,
    /// The analysis asked for.
    pub analysis: Option<AnalysisView>,
    /// No page is open, so the engines and the person's clock rest.
    pub paused: bool,
    /// A message for the person (an analysis engine that failed, ...).
    pub notice: Option<&'a str>,
}

/// The analysis, as the page is told of it.
#[derive(Serialize)]
pub struct AnalysisView {
    /// The analysing engine.
    pub engine: String,
    /// The ply of the analysed position; `None` follows the game's last position.
    pub ply: Option<usize>,
    /// Why the analysis waits, while it does (it resumes by itself).
    pub waits: Option<String>,
}

/// A legal move as the page uses it: its notation, the stone, every square it lands on.
#[derive(Serialize)]
struct LegalMove {
    text: String,
    from: String,
    to: String,
    path: Vec<String>,
}

#[derive(Serialize)]
struct State<'a> {
    version: u64,
    game: u64,
    setup: &'a NewGame,
    engines: &'a [String],
    rules: Rules,
    players: [PlayerView; 2],
    time: String,
    start: String,
    moves: Vec<String>,
    shown: Shown,
    legal: Vec<LegalMove>,
    why_not: Option<String>,
    to_move: &'static str,
    thinking: Option<&'static str>,
    clock_running: Option<&'static str>,
    clocks: Option<[u64; 2]>,
    result: Option<Result>,
    analysis: Option<&'a AnalysisView>,
    paused: bool,
    notice: Option<&'a str>,
}

#[derive(Serialize)]
struct Rules {
    width: u8,
    height: u8,
    opening: String,
    capture: String,
}

#[derive(Serialize)]
struct PlayerView {
    name: String,
    engine: bool,
}

#[derive(Serialize)]
struct Shown {
    /// Ranks from the top (the highest) down, one character a square: `b`, `w` or `.`.
    board: Vec<String>,
    side_to_move: &'static str,
    fen: String,
    /// The squares the move that led here touched: start, jumped squares, landings.
    last: Vec<String>,
    removal_phase: bool,
    /// Stones on the board, Black's first.
    stones: [u32; 2],
    /// The moves each side would have if it were its turn, Black's first.
    mobility: [u64; 2],
}

#[derive(Serialize)]
struct Result {
    winner: Option<&'static str>,
    termination: String,
    text: String,
}

fn shown(position: &Position, last: Option<Move>) -> Shown {
    let diagram = position.diagram();
    let board = (0..diagram.height)
        .rev()
        .map(|rank| {
            (0..diagram.width)
                .map(|file| match diagram.squares[rank * diagram.width + file] {
                    Some(color) => color.letter(),
                    None => '.',
                })
                .collect()
        })
        .collect();
    let touched = last.map_or(Vec::new(), Move::touched_squares);
    Shown {
        board,
        side_to_move: position.side_to_move().name(),
        fen: position.fen(),
        last: touched.iter().map(Square::to_string).collect(),
        removal_phase: position.phase() != crate::Phase::Jumps,
        stones: [Color::Black, Color::White].map(|color| {
            diagram
                .squares
                .iter()
                .filter(|stone| **stone == Some(color))
                .count() as u32
        }),
        mobility: [Color::Black, Color::White].map(|color| position.count_moves_of(color)),
    }
}

fn time_text(time_control: TimeControl, stall: Duration) -> String {
    let stall = stall.as_secs();
    match time_control {
        TimeControl::Clock { base, increment } => {
            format!("{}+{} s", base.as_secs_f64(), increment.as_secs_f64())
        }
        TimeControl::MoveTime(time) => format!("{} ms a move", time.as_millis()),
        TimeControl::Depth(depth) => {
            format!("depth {depth}; stalled after {stall} s without output")
        }
        TimeControl::Nodes(nodes) => {
            format!("{nodes} nodes a move; stalled after {stall} s without output")
        }
    }
}

/// The state the page draws, as JSON.
pub fn state(context: &Context) -> Arc<str> {
    let game = context.game;
    let current = game.current();
    let side = current.side_to_move();
    let human_to_move = game.players[side.index()] == Player::Human;
    let why_not = if let Some(ended) = &game.ended {
        Some(format!("The game is over. {}", ended.text))
    } else if !human_to_move {
        Some(format!(
            "It is {}'s turn: the engine plays it.",
            capitalised(side)
        ))
    } else {
        None
    };
    let legal = match why_not {
        Some(_) => Vec::new(),
        None => current
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let path = mv.landings();
                LegalMove {
                    text: mv.to_string(),
                    from: mv.from().to_string(),
                    to: path.last().copied().unwrap_or(mv.from()).to_string(),
                    path: path.iter().map(Square::to_string).collect(),
                }
            })
            .collect(),
    };
    let clocks = match game.time_control {
        TimeControl::Clock { .. } => {
            let mut left = game.clocks.left;
            if let Some((side, elapsed)) = context.running {
                left[side.index()] = left[side.index()].saturating_sub(elapsed);
            }
            Some(left.map(|d| d.as_millis() as u64))
        }
        _ => None,
    };
    let state = State {
        version: context.version,
        game: game.number,
        setup: &game.setup,
        engines: context.engines,
        rules: Rules {
            width: game.rules.width(),
            height: game.rules.height(),
            opening: game.rules.opening.to_string(),
            capture: game.rules.capture.to_string(),
        },
        players: game.players.clone().map(|player| PlayerView {
            engine: player != Player::Human,
            name: player.name(),
        }),
        time: time_text(game.time_control, game.stall),
        start: game.positions[0].fen(),
        moves: game.moves.iter().map(Move::to_string).collect(),
        shown: shown(game.current(), game.moves.last().copied()),
        legal,
        why_not,
        to_move: side.name(),
        thinking: context.thinking.map(Color::name),
        clock_running: context.running.map(|(side, _)| side.name()),
        clocks,
        result: game.ended.as_ref().map(|ended| Result {
            winner: ended.winner.map(Color::name),
            termination: ended.termination.clone(),
            text: ended.text.clone(),
        }),
        analysis: context.analysis.as_ref(),
        paused: context.paused,
        notice: context.notice,
    };
    Arc::from(serde_json::to_string(&state).expect("the state serialises"))
}

/// The position after `ply` plies of `game`, as JSON: `{"ply": N, "shown": {...}}`.
pub fn position(game: &Game, ply: usize) -> std::result::Result<Arc<str>, String> {
    let Some(position) = game.positions.get(ply) else {
        return Err(format!(
            "position: ply {ply} is past the last move (the game has {} plies)",
            game.moves.len()
        ));
    };
    let last = ply.checked_sub(1).map(|before| game.moves[before]);
    let body = serde_json::json!({ "ply": ply, "shown": shown(position, last) });
    Ok(Arc::from(body.to_string()))
}

/// The game so far as PGN (`*` as the result while it is in progress).
pub fn game_pgn(game: &Game) -> String {
    let record = GameRecord {
        id: 1,
        black: game.players[0].name(),
        white: game.players[1].name(),
        winner: game
            .ended
            .as_ref()
            .and_then(|ended| ended.winner)
            .map_or(String::new(), |color| color.name().to_string()),
        termination: game
            .ended
            .as_ref()
            .map_or("unterminated".to_string(), |ended| {
                ended.termination.clone()
            }),
        start: game.positions[0].fen(),
        moves: game.moves.iter().map(Move::to_string).collect(),
        opening_plies: 0,
        move_times_ms: Vec::new(),
        board: format!("{}x{}", game.rules.width(), game.rules.height()),
        opening_rule: game.rules.opening.to_string(),
        capture: game.rules.capture.to_string(),
        tournament: None,
        shard: None,
    };
    pgn::pgn(&record, 1, "konane-arbiter gui")
}
