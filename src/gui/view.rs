//! What the page is sent: the game as JSON (the last position, the legal moves a person may
//! click, the move list, clocks, the result), any earlier position, and the game as PGN.

use crate::arbiter::game;
use crate::arbiter::pgn::PgnGame;
use crate::arbiter::pgn_tree::{PgnNode, write_game};
use crate::arbiter::record::Played;
use crate::arbiter::time_control::TimeControl;
use crate::gui::game::{EngineInfo, Game, NewGame, Player, capitalised};
use crate::gui::series::SeriesView;
use crate::gui::tree::Node;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::{Color, Square};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// The `position` command for `node` of `game` (its last position when `None`, or when the
/// node is gone).
pub fn position_command(game: &Game, node: Option<Node>) -> String {
    let moves = node
        .and_then(|node| game.moves_to(node))
        .unwrap_or_else(|| game.moves.clone());
    let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
    game::position_command(&game.opening, &moves)
}

/// Everything besides the game that the page is told.
pub struct Context<'a> {
    /// Counts the states published: the page ignores one older than what it shows (an HTTP
    /// answer can arrive after a newer state came over the live stream).
    pub version: u64,
    /// The game.
    pub game: &'a Game,
    /// The configured engines, with their options.
    pub engines: &'a [EngineInfo],
    /// The side whose engine is thinking.
    pub thinking: Option<Color>,
    /// The side whose clock runs (an engine's or the person's), and for how long it has.
    pub running: Option<(Color, Duration)>,
    /// The analysis asked for.
    pub analysis: Option<AnalysisView>,
    /// The match the game belongs to.
    pub series: Option<SeriesView>,
    /// The person paused the game.
    pub held: bool,
    /// No page is open, so the engines and the person's clock rest.
    pub paused: bool,
    /// A message for the person (an analysis engine that failed, ...).
    pub notice: Option<&'a str>,
    /// Why the person cannot take back a move now, or `None` when they can.
    pub why_no_takeback: Option<String>,
}

/// The analysis, as the page is told of it.
#[derive(Serialize)]
pub struct AnalysisView {
    /// The analysing engine.
    pub engine: String,
    /// The analysed position (`m3`, `v2`); `None` follows the game's last position.
    pub node: Option<String>,
    /// How many best lines it shows.
    pub lines: usize,
    /// Why the analysis waits, while it does (it resumes by itself).
    pub waits: Option<String>,
}

/// The legal moves of `position`, as the page uses them.
fn legal_moves(position: &Position) -> Vec<LegalMove> {
    position
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
        .collect()
}

/// A variation move as the page is told of it.
#[derive(Serialize)]
struct BranchView {
    id: String,
    parent: String,
    r#move: String,
    ply: usize,
}

/// A move's notes as the page shows them.
#[derive(Serialize)]
struct NotesView {
    /// Every mark as read, `!`, `?! $10`: empty when none.
    marks: String,
    /// The person's own mark (`!` ... `?!`), which the note bar edits.
    mark: Option<&'static str>,
    comment: Option<String>,
    /// The engine's verdict, `+0.35/12 0.50s`.
    eval: Option<String>,
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
    engines: &'a [EngineInfo],
    rules: Rules,
    players: [PlayerView; 2],
    time: String,
    start: String,
    moves: Vec<String>,
    /// In the order of a walk of the tree: each position's moves in their order.
    variations: Vec<BranchView>,
    /// The notes of moves, by the node each led to.
    notes: BTreeMap<String, NotesView>,
    /// Black's chance to win at each of the game's positions that an engine scored: `[ply,
    /// chance]`.
    chances: Vec<(usize, f64)>,
    shown: Shown,
    legal: Vec<LegalMove>,
    why_not: Option<String>,
    to_move: &'static str,
    thinking: Option<&'static str>,
    clock_running: Option<&'static str>,
    clocks: Option<[u64; 2]>,
    result: Option<Result>,
    analysis: Option<&'a AnalysisView>,
    series: Option<&'a SeriesView>,
    held: bool,
    paused: bool,
    notice: Option<&'a str>,
    why_no_takeback: Option<&'a str>,
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

/// Why a person cannot move while the game is paused: the page shows it, the server refuses
/// with it.
pub const PAUSED: &str = "The game is paused: Resume to move.";

/// The state the page draws, as JSON.
pub fn state(context: &Context) -> Arc<str> {
    let game = context.game;
    let current = game.current();
    let side = current.side_to_move();
    let human_to_move = game.players[side.index()] == Player::Human;
    let why_not = if let Some(ended) = &game.ended {
        Some(format!("The game is over. {}", ended.text))
    } else if context.held {
        Some(PAUSED.to_string())
    } else if !human_to_move {
        Some(format!(
            "It is {}'s turn: the engine plays it.",
            capitalised(side)
        ))
    } else {
        None
    };
    // A finished game's last position may be played on in variations.
    let legal = match (&why_not, &game.ended) {
        (None, _) | (Some(_), Some(_)) => legal_moves(current),
        (Some(_), None) => Vec::new(),
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
        players: Color::ALL.map(|side| PlayerView {
            engine: game.players[side.index()] != Player::Human,
            name: game.player_name(side),
        }),
        time: time_text(game.time_control, game.stall),
        start: game.positions[0].fen(),
        moves: game.moves.iter().map(Move::to_string).collect(),
        variations: game
            .variations
            .in_order()
            .into_iter()
            .filter_map(|id| game.variations.get(id).map(|branch| (id, branch)))
            .map(|(id, branch)| BranchView {
                id: Node::Side(id).to_string(),
                parent: branch.parent.to_string(),
                r#move: branch.mv.to_string(),
                ply: branch.ply,
            })
            .collect(),
        notes: game
            .notes
            .iter()
            .map(|(node, notes)| {
                let view = NotesView {
                    marks: notes.mark_text(),
                    mark: notes.mark(),
                    comment: notes.comment.clone(),
                    eval: notes.eval.map(|eval| eval.text()),
                };
                (node.to_string(), view)
            })
            .collect(),
        chances: game.chances.iter().map(|(ply, c)| (*ply, *c)).collect(),
        shown: shown(game.current(), game.moves.last().copied()),
        legal,
        why_not,
        to_move: side.name(),
        thinking: context.thinking.map(Color::name),
        clock_running: context.running.map(|(side, _)| side.name()),
        clocks,
        result: game.ended.as_ref().map(|ended| Result {
            winner: ended.winner.map(Color::name),
            termination: ended.termination.to_string(),
            text: ended.text.clone(),
        }),
        analysis: context.analysis.as_ref(),
        series: context.series.as_ref(),
        held: context.held,
        paused: context.paused,
        notice: context.notice,
        why_no_takeback: context.why_no_takeback.as_deref(),
    };
    Arc::from(serde_json::to_string(&state).expect("the state serialises"))
}

/// The position at `node` of `game`, as JSON: `{"node", "ply", "shown", "legal"}`. The legal
/// moves are those a person may play there: any, in a variation or a finished game; at the
/// end of a game going on, only on a person's turn.
pub fn position(game: &Game, node: Node) -> std::result::Result<Arc<str>, String> {
    let position = game.find(node).map_err(|why| format!("position: {why}"))?;
    let moves = game
        .moves_to(node)
        .expect("a node the game has has its moves");
    let engine_to_move = *game.player_to_move() != Player::Human;
    let legal = if node == game.end() && game.ended.is_none() && engine_to_move {
        Vec::new()
    } else {
        legal_moves(&position)
    };
    let body = serde_json::json!({
        "node": node.to_string(),
        "ply": moves.len(),
        "shown": shown(&position, moves.last().copied()),
        "legal": legal,
    });
    Ok(Arc::from(body.to_string()))
}

/// The game so far as PGN (`*` as the result while it is in progress), with its variations,
/// marks, comments and the engines' verdicts.
pub fn game_pgn(game: &Game) -> String {
    let players = Color::ALL.map(|side| game.player_name(side));
    let start = game.positions[0].fen();
    let moves: Vec<String> = game.moves.iter().map(Move::to_string).collect();
    let played = Played::now();
    let ended = game.ended.as_ref();
    let pgn_game = PgnGame {
        event: "konane-arbiter gui",
        round: 1,
        players: [&players[0], &players[1]],
        winner: ended.and_then(|ended| ended.winner),
        termination: ended.map_or("unterminated".to_string(), |ended| {
            ended.termination.to_string()
        }),
        rules: game.rules,
        start: &start,
        moves: &moves,
        played: Some(&played),
        detail: None,
    };
    let mut tree = pgn_game.tree();
    let last = game.moves.len();
    let after_the_end = game.variations.children(Node::Main(last));
    let mut at = &mut tree.root;
    for ply in 0..=last {
        annotate(game, at, Node::Main(ply));
        if ply < last {
            let lines = game.variations.children(Node::Main(ply));
            at.children
                .extend(lines.into_iter().map(|id| variation_tree(game, id)));
        }
        // Lines tried after the end hang from the position before the last move (the start
        // in a game without moves).
        if !after_the_end.is_empty() && ply + 1 == last.max(1) {
            add_lines_after_the_end(game, at, &after_the_end);
        }
        match at.children.first_mut() {
            Some(next) => at = next,
            None => break,
        }
    }
    write_game(&tree, pgn_game.white_first())
}

/// The variation move `id` and every move after it, as a PGN tree.
fn variation_tree(game: &Game, id: u32) -> PgnNode {
    let mut node = PgnNode {
        mv: game
            .variations
            .get(id)
            .map_or(String::new(), |branch| branch.mv.to_string()),
        ..PgnNode::default()
    };
    annotate(game, &mut node, Node::Side(id));
    node.children = game
        .variations
        .children(Node::Side(id))
        .into_iter()
        .map(|child| variation_tree(game, child))
        .collect();
    node
}

/// Writes `lines`, the variations tried from the game's last position, into the tree at
/// `node`, the position before the last move. PGN's variations replace a move, and these replace
/// none: they hang from a variation that repeats the game's last move (`20. d5d3 (20. d5d3
/// e1e3)`), added beside it at the position before it, which Import reads back as the game's
/// own move, so the lines come back from where they were tried. A game without moves has no
/// move to repeat: there the lines are written as a comment, `{then f1 e1}`.
fn add_lines_after_the_end(game: &Game, node: &mut PgnNode, lines: &[u32]) {
    let trees = lines.iter().map(|&id| variation_tree(game, id));
    match game.moves.last() {
        None => {
            let words = trees.map(|line| format!("then {}", line_words(&line)));
            let comment: Vec<String> = node.comment.iter().cloned().chain(words).collect();
            node.comment = Some(comment.join(" "));
        }
        Some(last) => node.children.push(PgnNode {
            mv: last.to_string(),
            children: trees.collect(),
            ..PgnNode::default()
        }),
    }
}

/// The moves of `line`'s own line (its first continuations), one space apart.
fn line_words(line: &PgnNode) -> String {
    let mut words = vec![line.mv.clone()];
    let mut next = line.children.first();
    while let Some(node) = next {
        words.push(node.mv.clone());
        next = node.children.first();
    }
    words.join(" ")
}

/// Writes the notes of the move that led to `at` on its PGN node.
fn annotate(game: &Game, node: &mut PgnNode, at: Node) {
    if let Some(notes) = game.notes.get(&at) {
        node.nags.clone_from(&notes.nags);
        node.comment = notes.pgn_comment();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::game::imported;

    /// Every line of `game` beside its moves, as the moves from the start.
    fn lines(game: &Game) -> Vec<Vec<String>> {
        let mut lines: Vec<Vec<String>> = game
            .variations
            .iter()
            .map(|(id, _)| {
                let moves = game.moves_to(Node::Side(id)).unwrap();
                moves.iter().map(Move::to_string).collect()
            })
            .collect();
        lines.sort();
        lines
    }

    #[test]
    fn lines_tried_after_the_last_move_come_back_from_import_as_lines() {
        let mut game = imported("1. f1 e1 2. f3f1 c1e1 (2... e3e1 {worse}) *");
        let end = Node::Main(4);
        let d3f3 = game.play_variation(end, "d3f3".parse().unwrap()).unwrap();
        game.play_variation(d3f3, "e1e3".parse().unwrap()).unwrap();
        game.play_variation(end, "d3d1".parse().unwrap()).unwrap();
        game.annotate(d3f3, "!", "best").unwrap();
        let pgn = game_pgn(&game);
        let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
        let written =
            "2. f3f1 c1e1 (2... e3e1 {worse}) (2... c1e1 3. d3f3 $1 {best} (3. d3d1) 3... e1e3) *";
        assert!(words.contains(written), "{pgn}");
        let again = imported(&pgn);
        assert_eq!(texts(&again.moves), texts(&game.moves));
        assert_eq!(lines(&again), lines(&game));
        let d3f3_again = again.variations.children(end)[0];
        assert_eq!(again.notes[&Node::Side(d3f3_again)], game.notes[&d3f3]);
        assert_eq!(game_pgn(&again), pgn, "written again, the same text");
    }

    #[test]
    fn lines_from_a_game_without_moves_are_written_as_words() {
        let mut game = imported("*");
        let f1 = game
            .play_variation(Node::Main(0), "f1".parse().unwrap())
            .unwrap();
        game.play_variation(f1, "e1".parse().unwrap()).unwrap();
        game.play_variation(Node::Main(0), "a6".parse().unwrap())
            .unwrap();
        let pgn = game_pgn(&game);
        assert!(pgn.contains("{then f1 e1 then a6} *"), "{pgn}");
    }

    fn texts(moves: &[Move]) -> Vec<String> {
        moves.iter().map(Move::to_string).collect()
    }
}
