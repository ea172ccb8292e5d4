//! What the page is sent: the game as JSON (the shown position, the legal moves a person may
//! click, the move list, clocks, the result), and the game as PGN.

use crate::arbiter::game::{self, GameRecord, Termination, TimeControl};
use crate::arbiter::pgn;
use crate::gui::session::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::square::{Color, Square};
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the page.
    Human,
    /// A configured engine.
    Engine {
        /// Its place among the configured engines.
        index: usize,
        /// Its name.
        name: String,
    },
}

impl Player {
    /// The name shown and written to the PGN.
    pub fn name(&self) -> String {
        match self {
            Player::Human => "Human".to_string(),
            Player::Engine { name, .. } => name.clone(),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The winner; `None` when the person stopped the game.
    pub winner: Option<Color>,
    /// The PGN termination: `normal`, `crash`, ... or `abandoned`.
    pub termination: String,
    /// The game-over message.
    pub text: String,
}

/// `Black` or `White`, as a sentence names them.
pub fn capitalised(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

impl Ended {
    /// The side to move had no move.
    pub fn no_move(winner: Color) -> Ended {
        Ended {
            winner: Some(winner),
            termination: Termination::Normal.text(),
            text: format!(
                "{} wins: {} has no move.",
                capitalised(winner),
                capitalised(winner.opponent())
            ),
        }
    }

    /// The engine playing `loser` (named `name`) lost by `termination`; `failure` says how
    /// its process failed, when it did.
    pub fn forfeit(
        loser: Color,
        name: &str,
        termination: &Termination,
        failure: Option<String>,
    ) -> Ended {
        let how = match termination {
            Termination::Normal => "has no move".to_string(),
            Termination::IllegalMove(mv) => format!("played an illegal move ({mv})"),
            Termination::TimeForfeit => "lost on time".to_string(),
            Termination::Crash => "crashed".to_string(),
            Termination::Stall => "stalled (no answer in time)".to_string(),
        };
        let detail = failure.map_or(String::new(), |why| format!(" ({why})"));
        Ended {
            winner: Some(loser.opponent()),
            termination: termination.text(),
            text: format!(
                "{} wins: {name}, playing {loser}, {how}{detail}.",
                capitalised(loser.opponent())
            ),
        }
    }

    /// The person ended the game.
    pub fn stopped() -> Ended {
        Ended {
            winner: None,
            termination: "abandoned".to_string(),
            text: "Game stopped: no result.".to_string(),
        }
    }
}

/// The `position` command for the shown position of `game`.
pub fn position_command(game: &Game) -> String {
    let moves: Vec<String> = game.moves[..game.view]
        .iter()
        .map(Move::to_string)
        .collect();
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
    /// The side whose engine is thinking, and for how long it has been.
    pub thinking: Option<(Color, Duration)>,
    /// The engine analysing the shown position.
    pub analysis: Option<String>,
    /// No page is open, so the engines rest.
    pub paused: bool,
    /// A message for the person (an analysis engine that failed, ...).
    pub notice: Option<&'a str>,
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
    engines: &'a [String],
    rules: Rules,
    players: [PlayerView; 2],
    time: String,
    start: String,
    moves: Vec<String>,
    view: usize,
    shown: Shown,
    legal: Vec<LegalMove>,
    why_not: Option<String>,
    to_move: &'static str,
    thinking: Option<&'static str>,
    clocks: Option<[u64; 2]>,
    result: Option<Result>,
    analysis: Option<String>,
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
    }
}

fn time_text(time_control: TimeControl) -> String {
    match time_control {
        TimeControl::Clock { base, increment } => {
            format!("{}+{} s", base.as_secs_f64(), increment.as_secs_f64())
        }
        TimeControl::MoveTime(time) => format!("{} ms a move", time.as_millis()),
        TimeControl::Depth(depth) => format!("depth {depth}"),
        TimeControl::Nodes(nodes) => format!("{nodes} nodes a move"),
    }
}

/// The state the page draws, as JSON.
pub fn state(context: &Context) -> Arc<str> {
    let game = context.game;
    let current = game.current();
    let side = current.side_to_move();
    let human_to_move = game.players[side.index()] == Player::Human;
    let at_end = game.view == game.moves.len();
    let why_not = if let Some(ended) = &game.ended {
        Some(format!("The game is over. {}", ended.text))
    } else if !at_end {
        Some("You are looking at an earlier position: step to the last move to play.".into())
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
            if let Some((side, elapsed)) = context.thinking {
                left[side.index()] = left[side.index()].saturating_sub(elapsed);
            }
            Some(left.map(|d| d.as_millis() as u64))
        }
        _ => None,
    };
    let view_last = game.view.checked_sub(1).map(|ply| game.moves[ply]);
    let state = State {
        version: context.version,
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
        time: time_text(game.time_control),
        start: game.positions[0].fen(),
        moves: game.moves.iter().map(Move::to_string).collect(),
        view: game.view,
        shown: shown(&game.positions[game.view], view_last),
        legal,
        why_not,
        to_move: side.name(),
        thinking: context.thinking.map(|(side, _)| side.name()),
        clocks,
        result: game.ended.as_ref().map(|ended| Result {
            winner: ended.winner.map(Color::name),
            termination: ended.termination.clone(),
            text: ended.text.clone(),
        }),
        analysis: context.analysis.clone(),
        paused: context.paused,
        notice: context.notice,
    };
    Arc::from(serde_json::to_string(&state).expect("the state serialises"))
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
