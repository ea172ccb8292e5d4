//! The game the page shows: how it was asked for, its players, moves, clocks (the person's
//! too) and how it ended. It knows the rules, not the engines: the session asks those.

use crate::arbiter::game::Clocks;
use crate::arbiter::openings::Opening;
use crate::arbiter::pgn_tree::{PgnNode, read_games};
use crate::arbiter::record::Termination;
use crate::arbiter::time_control::{MAX_TIME, TimeControl};
use crate::gui::notes::Notes;
use crate::gui::tree::{Node, Variations};
use crate::protocol::options::{self, EngineOption};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::rules::{Capture, Opening as OpeningRule, Rules};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// An engine the page may choose, with the options it announced at start.
#[derive(Clone, Debug, Serialize)]
pub struct EngineInfo {
    /// Its name, unique among the engines.
    pub name: String,
    /// What its handshake announced.
    pub options: Vec<EngineOption>,
}

/// A new game, as the page asks for it (and as the state echoes it, so that the form can show
/// the game on screen).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Board width, 2 to 26.
    pub width: usize,
    /// Board height, 2 to 26.
    pub height: usize,
    /// `traditional` or `any`.
    pub opening: String,
    /// `straight`, `single` or `turning`.
    pub capture: String,
    /// Who plays Black: `human` or the name of a configured engine.
    pub black: String,
    /// Who plays White.
    pub white: String,
    /// How long the players may think.
    pub time: TimeSetting,
    /// A position string to start from instead of the start position (its size wins).
    #[serde(default)]
    pub fen: Option<String>,
    /// Seconds an engine on a depth-limited move may stay silent before it loses as stalled;
    /// the server's `--stall-timeout` when not given.
    #[serde(default)]
    pub stall_s: Option<u64>,
    /// Options for Black's engine and White's (`{"Skill": "10"}`), on top of its `--engine`
    /// ones; each must be one the engine announced, with a value it accepts.
    #[serde(default)]
    pub options: [BTreeMap<String, String>; 2],
    /// Games in a match between the two players, colours alternating (1 when not given).
    #[serde(default)]
    pub games: Option<u32>,
}

/// The time control, as the page gives it.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum TimeSetting {
    /// A fixed time per engine move (the person has no clock).
    Movetime {
        /// Milliseconds.
        ms: u64,
    },
    /// A clock with an increment, for every player.
    Clock {
        /// Starting time in milliseconds.
        base_ms: u64,
        /// Added after each move, in milliseconds.
        inc_ms: u64,
    },
    /// A fixed depth per engine move.
    Depth {
        /// Plies.
        depth: u32,
    },
}

impl TimeSetting {
    /// The time control this setting names, checked as every face checks one.
    fn time_control(self) -> Result<TimeControl, String> {
        let control = match self {
            TimeSetting::Movetime { ms } => TimeControl::MoveTime(Duration::from_millis(ms)),
            TimeSetting::Clock { base_ms, inc_ms } => TimeControl::Clock {
                base: Duration::from_millis(base_ms),
                increment: Duration::from_millis(inc_ms),
            },
            TimeSetting::Depth { depth } => TimeControl::Depth(depth),
        };
        control.checked().map_err(|e| format!("time: {e}"))
    }
}

/// A game to review, as the page sends it: PGN or a list of moves, and the rules to read it
/// under when its tags do not say (`Board`, `Opening`, `Capture` and `FEN` win).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Import {
    /// PGN text, or moves in notation separated by spaces.
    pub text: String,
    /// Board width when the text has no `Board` tag.
    pub width: usize,
    /// Board height when the text has no `Board` tag.
    pub height: usize,
    /// The opening rule when the text has no `Opening` tag.
    pub opening: String,
    /// The capture rule when the text has no `Capture` tag.
    pub capture: String,
}

impl Import {
    /// The game the text records, every move checked, with a person on each side; numbered
    /// `number`. The error names the first move that cannot be played.
    pub fn game(
        &self,
        number: u64,
        engines: &[EngineInfo],
        stall: Duration,
    ) -> Result<Game, String> {
        if self.text.trim().is_empty() {
            return Err("import: the text is empty: paste a PGN or a list of moves".to_string());
        }
        let mut games = read_games(&self.text).map_err(|e| format!("import: {e}"))?;
        if games.is_empty() {
            return Err("import: the text holds no game".to_string());
        }
        let read = games.swap_remove(0);
        let tag = |name: &str| {
            read.tags
                .iter()
                .find(|(tag, _)| tag == name)
                .map(|(_, value)| value.as_str())
        };
        let (mut width, mut height) = (self.width, self.height);
        if let Some(board) = tag("Board") {
            let rules = Rules::default()
                .with_size_text(board)
                .map_err(|e| format!("import: the Board tag is WIDTHxHEIGHT: {e}"))?;
            (width, height) = (usize::from(rules.width()), usize::from(rules.height()));
        }
        let new = NewGame {
            width,
            height,
            opening: tag("Opening").unwrap_or(&self.opening).to_string(),
            capture: tag("Capture").unwrap_or(&self.capture).to_string(),
            black: "human".to_string(),
            white: "human".to_string(),
            time: TimeSetting::Movetime { ms: 1000 },
            fen: tag("FEN").map(str::to_string),
            stall_s: None,
            options: Default::default(),
            games: None,
        };
        let mut game =
            Game::new(number, &new, engines, stall).map_err(|e| format!("import: {e}"))?;
        game.names = [tag("Black"), tag("White")].map(|name| name.map(str::to_string));
        // The main line is the game; every other line is a variation from where it branches.
        let mut node = &read.root;
        while let Some((main, others)) = node.children.split_first() {
            let ply = game.moves.len();
            let number = ply + 1;
            if game.ended.is_some() {
                return Err(format!(
                    "import: ply {number} ({}) comes after the end of the game",
                    main.mv
                ));
            }
            let mv = read_move(number, &main.mv)?;
            let mut after = *game.current();
            after
                .play(mv)
                .map_err(|why| format!("import: ply {number} ({mv}) is not legal: {why}"))?;
            game.play(mv, after);
            game.keep_notes(Node::Main(ply + 1), main);
            for variation in others {
                add_variation(&mut game, Node::Main(ply), variation, number)?;
            }
            node = main;
        }
        Ok(game)
    }
}

/// The move `text` of ply `number`, or why it is none.
fn read_move(number: usize, text: &str) -> Result<Move, String> {
    text.parse()
        .map_err(|e| format!("import: ply {number} ('{text}') is not a move: {e}"))
}

/// Plays `line` (ply `number`) and what follows it as a variation from `from`.
fn add_variation(game: &mut Game, from: Node, line: &PgnNode, number: usize) -> Result<(), String> {
    let mv = read_move(number, &line.mv)?;
    let at = game
        .play_variation(from, mv)
        .map_err(|why| format!("import: ply {number} ({mv}) of a variation: {why}"))?;
    game.keep_notes(at, line);
    for next in &line.children {
        add_variation(game, at, next, number + 1)?;
    }
    Ok(())
}

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

/// `Black` or `White`, as a sentence names them.
pub fn capitalised(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Why a game on the page ended: as a refereed game ends, or by a person's choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// By the rules or the arbiter's judgement: no move, or a forfeit.
    Refereed(Termination),
    /// The person resigned.
    Resigned,
    /// The person stopped the game: no result.
    Abandoned,
}

impl std::fmt::Display for EndReason {
    /// The PGN `Termination` word: the refereed ones' (`normal`, `crash`, ...), `resign` or
    /// `abandoned`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::Refereed(termination) => write!(f, "{termination}"),
            EndReason::Resigned => f.write_str("resign"),
            EndReason::Abandoned => f.write_str("abandoned"),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The winner; `None` when the person stopped the game.
    pub winner: Option<Color>,
    /// Why.
    pub termination: EndReason,
    /// The game-over message.
    pub text: String,
}

impl Ended {
    /// The side to move had no move.
    pub fn no_move(winner: Color) -> Ended {
        Ended {
            winner: Some(winner),
            termination: EndReason::Refereed(Termination::Normal),
            text: format!(
                "{} wins: {} has no move.",
                capitalised(winner),
                capitalised(winner.opponent())
            ),
        }
    }

    /// The player `name` of `loser` lost by `termination`; `detail` says more (how its
    /// process failed, the stall limit).
    pub fn forfeit(
        loser: Color,
        name: &str,
        termination: &Termination,
        detail: Option<String>,
    ) -> Ended {
        let how = match termination {
            Termination::Normal => "has no move".to_string(),
            Termination::IllegalMove(mv) => format!("played an illegal move ({mv})"),
            Termination::TimeForfeit => "lost on time".to_string(),
            Termination::Crash => "crashed".to_string(),
            Termination::Stall => "stalled".to_string(),
        };
        let detail = detail.map_or(String::new(), |why| format!(" ({why})"));
        Ended {
            winner: Some(loser.opponent()),
            termination: EndReason::Refereed(termination.clone()),
            text: format!(
                "{} wins: {name}, playing {loser}, {how}{detail}.",
                capitalised(loser.opponent())
            ),
        }
    }

    /// The person playing `loser` resigned.
    pub fn resigned(loser: Color) -> Ended {
        Ended {
            winner: Some(loser.opponent()),
            termination: EndReason::Resigned,
            text: format!(
                "{} wins: {} resigned.",
                capitalised(loser.opponent()),
                capitalised(loser)
            ),
        }
    }

    /// The person ended the game.
    pub fn stopped() -> Ended {
        Ended {
            winner: None,
            termination: EndReason::Abandoned,
            text: "Game stopped: no result.".to_string(),
        }
    }
}

/// The game itself.
pub struct Game {
    /// Counts the games of this server, the first 1: a page refills its form when it changes.
    pub number: u64,
    /// The request that made it, with the board's real size.
    pub setup: NewGame,
    /// Board and rule options.
    pub rules: Rules,
    /// Where the game started.
    pub opening: Opening,
    /// The position after each ply, the start first.
    pub positions: Vec<Position>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// Black and White.
    pub players: [Player; 2],
    /// The time control.
    pub time_control: TimeControl,
    /// How long an engine on a depth-limited move may stay silent.
    pub stall: Duration,
    /// Everyone's clocks (under a clock time control).
    pub clocks: Clocks,
    /// Since when the person to move has been using their clock, while it runs.
    pub person_since: Option<Instant>,
    /// How the game ended, once it has.
    pub ended: Option<Ended>,
    /// Moves tried from its positions without changing it.
    pub variations: Variations,
    /// Black's chance to win at each game position an engine has scored (by ply).
    pub chances: BTreeMap<usize, f64>,
    /// The players' names an imported game's tags give (Black's, White's).
    pub names: [Option<String>; 2],
    /// The marks, comments and engine verdicts of moves, by the position each led to.
    pub notes: BTreeMap<Node, Notes>,
}

impl Game {
    /// The game `new` asks for, checked: rules, players among `engines`, time control, start.
    /// A start whose side to move has no move is over at once. `stall` is the server's
    /// default stall limit.
    pub fn new(
        number: u64,
        new: &NewGame,
        engines: &[EngineInfo],
        stall: Duration,
    ) -> Result<Game, String> {
        let opening: OpeningRule = new.opening.parse().map_err(|e| format!("opening: {e}"))?;
        let capture: Capture = new.capture.parse().map_err(|e| format!("capture: {e}"))?;
        let players = [
            player(&new.black, "black", engines)?,
            player(&new.white, "white", engines)?,
        ];
        for ((player, options), side) in players.iter().zip(&new.options).zip(["black", "white"]) {
            match player {
                Player::Human if !options.is_empty() => {
                    return Err(format!(
                        "{side}: options are for engines, and a person plays {side}"
                    ));
                }
                Player::Human => {}
                Player::Engine { index, .. } => {
                    for (name, value) in options {
                        options::check_value(&engines[*index].options, name, value)
                            .map_err(|why| format!("{side}: {why}"))?;
                    }
                }
            }
        }
        let time_control = new.time.time_control()?;
        let stall = match new.stall_s {
            None => stall,
            Some(seconds) if (1..=MAX_TIME.as_secs()).contains(&seconds) => {
                Duration::from_secs(seconds)
            }
            Some(seconds) => {
                return Err(format!(
                    "stall limit: 1 s to a day ({} s), not {seconds} s",
                    MAX_TIME.as_secs()
                ));
            }
        };
        let fen = new.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let start = match fen {
            Some(fen) => Position::from_fen(fen, opening, capture)
                .map_err(|e| format!("position string: {e}"))?,
            None => {
                let rules = Rules::new(new.width, new.height, opening, capture)
                    .map_err(|e| format!("board: {e}"))?;
                Position::start(rules).map_err(|e| format!("board: {e}"))?
            }
        };
        let rules = start.rules();
        let standard = Position::start(rules).ok();
        let setup = NewGame {
            width: usize::from(rules.width()),
            height: usize::from(rules.height()),
            fen: fen.map(str::to_string),
            stall_s: Some(stall.as_secs()),
            ..new.clone()
        };
        Ok(Game {
            number,
            setup,
            rules,
            opening: Opening {
                fen: (standard != Some(start)).then(|| start.fen()),
                moves: Vec::new(),
            },
            positions: vec![start],
            moves: Vec::new(),
            players,
            time_control,
            stall,
            clocks: Clocks::new(time_control),
            person_since: None,
            ended: start.winner().map(Ended::no_move),
            variations: Variations::default(),
            chances: BTreeMap::new(),
            names: [None, None],
            notes: BTreeMap::new(),
        })
    }

    /// The position now.
    pub fn current(&self) -> &Position {
        self.positions.last().expect("the start is always there")
    }

    /// The name of the player of `side`: the imported game's, else the player's.
    pub fn player_name(&self, side: Color) -> String {
        self.names[side.index()]
            .clone()
            .unwrap_or_else(|| self.players[side.index()].name())
    }

    /// Who is to move now.
    pub fn player_to_move(&self) -> &Player {
        &self.players[self.current().side_to_move().index()]
    }

    /// True when a person is to move in a game going on under a clock: their clock runs.
    pub fn person_on_clock(&self) -> bool {
        self.ended.is_none()
            && *self.player_to_move() == Player::Human
            && matches!(self.time_control, TimeControl::Clock { .. })
    }

    /// Starts the person's clock if it should run and does not yet.
    pub fn start_person_clock(&mut self) {
        if self.person_on_clock() && self.person_since.is_none() {
            self.person_since = Some(Instant::now());
        }
    }

    /// Stops the person's clock and charges them the time used; false when their time ran
    /// out, and the game is then lost on time.
    pub fn charge_person(&mut self, increment: bool) -> bool {
        let Some(since) = self.person_since.take() else {
            return true;
        };
        let side = self.current().side_to_move();
        let left = &mut self.clocks.left[side.index()];
        let used = since.elapsed();
        if used >= *left {
            *left = Duration::ZERO;
            self.ended = Some(Ended::forfeit(
                side,
                "Human",
                &Termination::TimeForfeit,
                None,
            ));
            return false;
        }
        *left -= used;
        if let (true, TimeControl::Clock { increment, .. }) = (increment, self.time_control) {
            *left += increment;
        }
        true
    }

    /// Ends the game on time if the person's clock has run out; true when it did.
    pub fn flag_fell(&mut self) -> bool {
        let side = self.current().side_to_move();
        match self.person_since {
            Some(since) if since.elapsed() >= self.clocks.left[side.index()] => {
                !self.charge_person(false)
            }
            _ => false,
        }
    }

    /// The side a person plays: the side to move if a person has it, else the one side a
    /// person plays; `None` when engines play both.
    pub fn person_side(&self) -> Option<Color> {
        let to_move = self.current().side_to_move();
        [to_move, to_move.opponent()]
            .into_iter()
            .find(|side| self.players[side.index()] == Player::Human)
    }

    /// Takes back plies until a person is to move in a position before their last move: one
    /// ply between two people, two when an engine had replied. The game goes on again.
    pub fn take_back(&mut self) {
        loop {
            self.moves.pop();
            self.positions.pop();
            if self.moves.is_empty() || *self.player_to_move() == Player::Human {
                break;
            }
        }
        self.ended = None;
        self.person_since = None;
        self.variations.cut_after(self.moves.len());
        let plies = self.moves.len();
        self.chances.retain(|&ply, _| ply <= plies);
        self.forget_lost_notes();
    }

    /// Deletes the variation move `id` and every move after it; false when there is none.
    pub fn delete_variation(&mut self, id: u32) -> bool {
        let deleted = self.variations.remove(id);
        self.forget_lost_notes();
        deleted
    }

    /// Drops the notes of moves no longer in the game or its variations.
    fn forget_lost_notes(&mut self) {
        let lost: Vec<Node> = self
            .notes
            .keys()
            .copied()
            .filter(|node| self.position_at(*node).is_none())
            .collect();
        for node in lost {
            self.notes.remove(&node);
        }
    }

    /// Sets the person's mark and comment of the move that led to `node` (see
    /// `Notes::annotate`).
    pub fn annotate(&mut self, node: Node, mark: &str, comment: &str) -> Result<(), String> {
        self.find(node).map_err(|why| format!("annotate: {why}"))?;
        if node == Node::Main(0) {
            return Err("annotate: the start is no move: choose a move to mark".to_string());
        }
        let notes = self.notes.entry(node).or_default();
        let done = notes.annotate(mark, comment);
        if notes.is_empty() {
            self.notes.remove(&node);
        }
        done
    }

    /// The game's last position, as a node.
    pub fn end(&self) -> Node {
        Node::Main(self.moves.len())
    }

    /// The position at `node`, if the game has it.
    pub fn position_at(&self, node: Node) -> Option<Position> {
        match node {
            Node::Main(ply) => self.positions.get(ply).copied(),
            Node::Side(id) => self.variations.get(id).map(|branch| branch.position),
        }
    }

    /// The position at `node`, or why the game has none there.
    pub fn find(&self, node: Node) -> Result<Position, String> {
        self.position_at(node).ok_or_else(|| match node {
            Node::Main(ply) => format!(
                "ply {ply} is past the last move (the game has {} plies)",
                self.moves.len()
            ),
            Node::Side(_) => format!("{node} is not a position of this game"),
        })
    }

    /// The moves from the start to `node`, if the game has it.
    pub fn moves_to(&self, node: Node) -> Option<Vec<Move>> {
        let (ply, path) = self.variations.path(node)?;
        let mut moves = self.moves.get(..ply)?.to_vec();
        moves.extend(path);
        Some(moves)
    }

    /// Plays `mv` from `from` as a variation (the game stays as it is); the node it leads to,
    /// which is the game's own next position when `mv` is the game's move there.
    pub fn play_variation(&mut self, from: Node, mv: Move) -> Result<Node, String> {
        let mut after = self.find(from)?;
        after
            .play(mv)
            .map_err(|why| format!("{mv} is not legal here: {why}"))?;
        if let Node::Main(ply) = from
            && self.moves.get(ply) == Some(&mv)
        {
            return Ok(Node::Main(ply + 1));
        }
        let plies = self.moves_to(from).map_or(0, |moves| moves.len()) + 1;
        Ok(self.variations.add(from, mv, after, plies))
    }

    /// Promotes the line of variation move `node` one level, as analysis boards do: the
    /// nearest move of it (from `node` back) that is not the first of its position's moves
    /// becomes the first, so its line continues the line it left. When that move branches from
    /// the game itself, its line replaces the game's moves from there (the game's old moves
    /// becoming a variation), which only a game between people allows: an engine's game is the
    /// record of what was played. Returns the node `node`'s position has now.
    pub fn promote(&mut self, node: Node) -> Result<Node, String> {
        let Node::Side(mut id) = node else {
            return Err(format!(
                "promote: {node} is a move of the game itself: choose a variation's move"
            ));
        };
        loop {
            let branch = self
                .variations
                .get(id)
                .ok_or_else(|| format!("promote: {node} is not a variation of this game"))?;
            match branch.parent {
                Node::Side(parent) => {
                    if self.variations.children(Node::Side(parent)).first() != Some(&id) {
                        self.variations.put_first(id);
                        return Ok(node);
                    }
                    id = parent;
                }
                Node::Main(ply) => {
                    if self.players.iter().any(|p| *p != Player::Human) {
                        return Err("promote: the game's moves are the ones its engine played; \
                                    a variation can replace them in a game between people (copy \
                                    the PGN and Import it to review it so)"
                            .to_string());
                    }
                    return Ok(self.make_main_line(id, ply, node));
                }
            }
        }
    }

    /// Makes the line of variation move `id` (played at game ply `ply`, then its first
    /// replies) the game's moves from `ply` on; the game's old moves from there become a
    /// variation, with their notes and variations. Returns where `node` (on that line) is now.
    fn make_main_line(&mut self, id: u32, ply: usize, node: Node) -> Node {
        let mut line = vec![id];
        while let Some(next) = line
            .last()
            .and_then(|&last| self.variations.children(Node::Side(last)).first().copied())
        {
            line.push(next);
        }
        // The game's old moves from `ply` become a variation; what hung from them follows.
        let old_moves = self.moves.split_off(ply);
        let old_positions = self.positions.split_off(ply + 1);
        let mut at = Node::Main(ply);
        for (k, (mv, position)) in old_moves.into_iter().zip(old_positions).enumerate() {
            let side = self.variations.add(at, mv, position, ply + k + 1);
            let old = Node::Main(ply + k + 1);
            self.variations.reparent(old, side);
            if let Some(notes) = self.notes.remove(&old) {
                self.notes.insert(side, notes);
            }
            at = side;
        }
        // The promoted line's moves become the game's.
        let mut moved_to = Node::Main(ply);
        for (k, side_id) in line.into_iter().enumerate() {
            let Some(branch) = self.variations.detach(side_id) else {
                break;
            };
            let main = Node::Main(ply + k + 1);
            self.moves.push(branch.mv);
            self.positions.push(branch.position);
            self.variations.reparent(Node::Side(side_id), main);
            if let Some(notes) = self.notes.remove(&Node::Side(side_id)) {
                self.notes.insert(main, notes);
            }
            if node == Node::Side(side_id) {
                moved_to = main;
            }
        }
        // The graph's scores past the branch were of the old moves.
        self.chances.retain(|&p, _| p <= ply);
        self.person_since = None;
        self.ended = self.current().winner().map(Ended::no_move);
        moved_to
    }

    /// Keeps the marks and comment PGN gave the move that led to `node`.
    fn keep_notes(&mut self, node: Node, read: &PgnNode) {
        let notes = Notes::from_pgn(&read.nags, read.comment.as_deref());
        if !notes.is_empty() {
            self.notes.insert(node, notes);
        }
    }

    /// Plays `mv` (legal, leading to `after`) and ends the game if the side to move then has
    /// no move.
    pub fn play(&mut self, mv: Move, after: Position) {
        self.moves.push(mv);
        self.positions.push(after);
        if let Some(winner) = after.winner() {
            self.ended = Some(Ended::no_move(winner));
        }
    }
}

/// The player `name` names for `side`: `human`, or one of `engines`.
fn player(name: &str, side: &str, engines: &[EngineInfo]) -> Result<Player, String> {
    if name == "human" {
        return Ok(Player::Human);
    }
    match engines.iter().position(|e| e.name == name) {
        Some(engine) => Ok(Player::Engine {
            index: engine,
            name: name.to_string(),
        }),
        None => Err(format!(
            "{side}: '{name}' is neither 'human' nor a configured engine ({})",
            if engines.is_empty() {
                "none configured".to_string()
            } else {
                let names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
                names.join(", ")
            }
        )),
    }
}

/// The game `pgn` records on 6x6, imported for review (for tests).
#[cfg(test)]
pub(crate) fn imported(pgn: &str) -> Game {
    let import = Import {
        text: pgn.to_string(),
        width: 6,
        height: 6,
        opening: "traditional".into(),
        capture: "straight".into(),
    };
    import.game(1, &[], Duration::from_secs(60)).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_game(fen: Option<&str>, time: TimeSetting) -> NewGame {
        NewGame {
            width: 6,
            height: 6,
            opening: "traditional".into(),
            capture: "straight".into(),
            black: "human".into(),
            white: "human".into(),
            time,
            fen: fen.map(str::to_string),
            stall_s: None,
            options: Default::default(),
            games: None,
        }
    }

    #[test]
    fn a_start_with_no_move_is_over_at_once() {
        // Black to move, and no black stone can jump.
        let new = new_game(Some("b3/4/4/3w b"), TimeSetting::Depth { depth: 3 });
        let game = Game::new(1, &new, &[], Duration::from_secs(60)).unwrap();
        let ended = game.ended.expect("over at once");
        assert_eq!(ended.winner, Some(Color::White));
        assert_eq!(game.setup.width, 4, "the position's size wins");
    }

    #[test]
    fn the_persons_clock_runs_and_can_run_out() {
        let clock = TimeSetting::Clock {
            base_ms: 30,
            inc_ms: 0,
        };
        let mut game = Game::new(1, &new_game(None, clock), &[], Duration::from_secs(60)).unwrap();
        assert!(game.person_on_clock());
        game.start_person_clock();
        assert!(!game.flag_fell());
        std::thread::sleep(Duration::from_millis(40));
        assert!(game.flag_fell());
        let ended = game.ended.unwrap();
        assert_eq!(
            ended.termination,
            EndReason::Refereed(Termination::TimeForfeit)
        );
        assert_eq!(ended.winner, Some(Color::White));
    }

    fn texts(moves: &[Move]) -> Vec<String> {
        moves.iter().map(Move::to_string).collect()
    }

    #[test]
    fn promotion_raises_a_line_one_level_and_then_makes_it_the_game() {
        let mut game = imported(
            "1. f1 e1 2. f3f1 c1e1 3. d3f3 (3. d3d1 $6 a1c1 {line} (3... e1c1) 4. b3d3) \
             3... e1e3 $1 *",
        );
        let node_of = |game: &Game, mv: &str| {
            let found = game.variations.iter().find(|(_, b)| b.mv.to_string() == mv);
            Node::Side(found.unwrap().0)
        };
        // e1c1 is the second reply to d3d1: promoted, it comes first, a1c1 second.
        let e1c1 = node_of(&game, "e1c1");
        assert_eq!(game.promote(e1c1), Ok(e1c1));
        let d3d1 = node_of(&game, "d3d1");
        let replies = game.variations.children(d3d1);
        assert_eq!(Node::Side(replies[0]), e1c1);
        // Promoted again, its first move d3d1 replaces the game's d3f3 from ply 4.
        assert_eq!(game.promote(e1c1), Ok(Node::Main(6)));
        assert_eq!(
            texts(&game.moves),
            ["f1", "e1", "f3f1", "c1e1", "d3d1", "e1c1"]
        );
        assert_eq!(
            game.notes[&Node::Main(5)].nags,
            [6],
            "d3d1's mark came along"
        );
        assert_eq!(game.positions.len(), 7);
        assert_eq!(game.positions[6], game.find(Node::Main(6)).unwrap());
        // The old moves are a variation from ply 4 with their mark; a1c1 and its comment and
        // reply hang from the new ply 5.
        let d3f3 = node_of(&game, "d3f3");
        assert_eq!(
            game.moves_to(d3f3).map(|m| texts(&m)),
            Some(
                texts(&game.moves[..4])
                    .into_iter()
                    .chain(["d3f3".into()])
                    .collect()
            )
        );
        let e1e3 = node_of(&game, "e1e3");
        assert_eq!(game.notes[&e1e3].nags, [1]);
        let a1c1 = node_of(&game, "a1c1");
        assert_eq!(game.moves_to(a1c1).unwrap().len(), 6);
        assert_eq!(game.notes[&a1c1].comment.as_deref(), Some("line"));
        assert!(game.moves_to(node_of(&game, "b3d3")).is_some());
        // The game's own moves are not variations; an engine's game keeps its record.
        assert!(
            game.promote(Node::Main(3))
                .unwrap_err()
                .contains("game itself")
        );
        game.players[0] = Player::Engine {
            index: 0,
            name: "k".into(),
        };
        let refused = game.promote(d3f3).unwrap_err();
        assert!(refused.contains("between people"), "{refused}");
    }

    #[test]
    fn notes_go_with_the_moves_that_are_taken_back_or_deleted() {
        let mut game = imported("1. f1 e1 2. f3f1 c1e1 (2... e3e1 $2 {worse}) *");
        assert_eq!(game.annotate(Node::Main(4), "!?", "sharp"), Ok(()));
        assert!(
            game.annotate(Node::Main(0), "!", "")
                .unwrap_err()
                .contains("no move")
        );
        assert!(
            game.annotate(Node::Main(9), "!", "")
                .unwrap_err()
                .contains("past the last")
        );
        game.take_back();
        assert!(!game.notes.contains_key(&Node::Main(4)));
        let (id, _) = game.variations.iter().next().unwrap();
        assert_eq!(
            game.notes[&Node::Side(id)].comment.as_deref(),
            Some("worse")
        );
        assert!(game.delete_variation(id));
        assert!(game.notes.is_empty());
    }
}
