//! The session: one thread owns the game and every engine process. It referees each move (a
//! person's too), asks engines for theirs on worker threads, keeps the person's clock, runs
//! the analysis engine, and publishes the state after every change. Requests from the web
//! server arrive as messages; nothing else touches the game.

mod analysing;
mod matches;

use crate::arbiter::game::{self, Asked, Clocks, Deadlines, GameRules, Seat};
use crate::arbiter::log::Log;
use crate::arbiter::record::Termination;
use crate::arbiter::spec::EngineSpec;
use crate::arbiter::verdict::MoveEval;
use crate::gui::analysis::{Analyst, HALT_GRACE, Worker};
use crate::gui::game::{
    EndReason, Ended, EngineInfo, Game, Import, NewGame, Player, TimeSetting, capitalised,
};
use crate::gui::info::Live;
use crate::gui::series::{MAX_GAMES, Report, Series};
use crate::gui::tree::Node;
use crate::gui::view;
use crate::protocol::options::EngineOption;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

/// How long the game waits after the last page closed before it stops the engines' searches
/// and the person's clock (a reload reconnects well within it).
const NO_VIEWER_GRACE: Duration = Duration::from_secs(2);

/// The answer to anything asked of a session that is ending.
const SHUTTING_DOWN: &str = "the server is shutting down";

/// How often new engine scores of the game's positions are published, at most.
const SCORES_EVERY: Duration = Duration::from_secs(1);

/// How often the session thread looks at the clock when no message comes.
const TICK: Duration = Duration::from_millis(100);

/// Something the page asks of the game.
#[derive(Clone, Debug)]
pub enum Request {
    /// End the game in progress (its searches stop) and start this one.
    New(NewGame),
    /// A person's move in notation. Played at the game's last position it is the game's move;
    /// played at another (`node`), a variation, which leaves the game as it is.
    Move {
        /// The move.
        text: String,
        /// The plies the game had on the person's screen, when the move is meant for the game:
        /// refused if the game has moved on.
        ply: Option<usize>,
        /// The position it is played at (the game's last when `None`).
        node: Option<Node>,
    },
    /// Analyse with this engine until told otherwise (`None` stops): the position at `node`,
    /// or the game's last position, followed as it goes on, when `node` is `None`; `lines`
    /// best lines at once (the engine's `MultiPV`).
    Analyse {
        /// The engine's name.
        engine: Option<String>,
        /// The position analysed.
        node: Option<Node>,
        /// How many lines, 1 when `None`.
        lines: Option<usize>,
    },
    /// Delete a variation move and every move after it.
    DeleteVariation(Node),
    /// Promote the line of a variation move one level (see [`Game::promote`]).
    Promote(Node),
    /// Set the mark (`!`, `?`, ... or none when empty) and comment of the move that led to
    /// `node`.
    Annotate {
        /// The position the move led to.
        node: Node,
        /// The mark, or empty for none.
        mark: String,
        /// The comment, or blank for none.
        comment: String,
    },
    /// Replace the game with one read from PGN or a list of moves, for two people to review.
    Import(Import),
    /// End the game in progress without a winner; its engines stop searching.
    Stop,
    /// The person to move (or, against an engine, the only person) gives up the game.
    Resign,
    /// Take back the person's last move (and the engine's reply to it, if it came).
    Takeback,
    /// Pause the game (`true`: the engine's search is stopped, the clocks rest) or go on.
    Hold(bool),
    /// Tell the engine thinking on the game to play its move now.
    MoveNow,
}

/// The answer to a request: the state after it (JSON), or why it was refused.
pub type Reply = Result<Arc<str>, String>;

/// What reaches the session thread.
enum Message {
    Request(Request, oneshot::Sender<Reply>),
    /// The game so far as PGN.
    Pgn(oneshot::Sender<String>),
    /// The finished games of the match, as JSON.
    MatchGames(oneshot::Sender<String>),
    /// The position at a node, as JSON.
    Position(Node, oneshot::Sender<Reply>),
    /// The position at a node itself.
    Lookup(Node, oneshot::Sender<Result<Position, String>>),
    /// A page opened (`true`) or closed its live connection.
    Viewer(bool),
    /// An engine line from the worker holding `token`.
    Line {
        token: u64,
        line: String,
    },
    /// A game engine's answer, with its seat and the clocks it was charged on.
    Answered {
        token: u64,
        seat: Box<Seat>,
        asked: Asked,
        clocks: Clocks,
    },
    /// The analysis worker ended, `error` saying why if the engine failed.
    Analysed {
        token: u64,
        seat: Box<Seat>,
        error: Option<String>,
    },
    /// What the thread of the match with `token` reports.
    Match {
        token: u64,
        report: Report,
    },
    Shutdown,
}

/// The web server's handle on the session: sends requests and reads what is published.
#[derive(Clone)]
pub struct Session {
    messages: Sender<Message>,
    /// The state, as JSON, after every change.
    pub state: watch::Receiver<Arc<str>>,
    /// The newest engine line, as JSON.
    pub live: watch::Receiver<Arc<str>>,
    /// Every line to and from the engines, the last ones kept in memory.
    pub log: Log,
}

/// A live connection of a page: counted while it is open.
pub struct ViewerGuard(Sender<Message>);

impl Drop for ViewerGuard {
    fn drop(&mut self) {
        let _ = self.0.send(Message::Viewer(false));
    }
}

impl Session {
    /// Asks the session for `request`; the answer is the new state, or why it was refused.
    pub async fn ask(&self, request: Request) -> Reply {
        self.call(|reply| Message::Request(request, reply)).await?
    }

    /// The game so far as PGN (`*` as the result while it is in progress).
    pub async fn pgn(&self) -> Result<String, String> {
        self.call(Message::Pgn).await
    }

    /// The finished games of the match on screen (none without a match), as JSON:
    /// `{"games": [{"round", "black", "white", "winner", "termination", "plies"}]}`.
    pub async fn match_games(&self) -> Result<String, String> {
        self.call(Message::MatchGames).await
    }

    /// The position at `node` of the game, as JSON; each page steps through the game on its
    /// own.
    pub async fn position(&self, node: Node) -> Reply {
        self.call(|reply| Message::Position(node, reply)).await?
    }

    /// The position at `node` of the game.
    pub async fn position_at(&self, node: Node) -> Result<Position, String> {
        self.call(|reply| Message::Lookup(node, reply)).await?
    }

    /// Sends the message `with` makes around a reply channel, and waits for the reply.
    async fn call<T>(&self, with: impl FnOnce(oneshot::Sender<T>) -> Message) -> Result<T, String> {
        let (reply, answer) = oneshot::channel();
        self.messages
            .send(with(reply))
            .map_err(|_| SHUTTING_DOWN.to_string())?;
        answer.await.map_err(|_| SHUTTING_DOWN.to_string())
    }

    /// Counts a page's live connection until the guard is dropped.
    pub fn viewer(&self) -> ViewerGuard {
        let _ = self.messages.send(Message::Viewer(true));
        ViewerGuard(self.messages.clone())
    }
}

/// The session thread; [`Running::shut_down`] stops every engine and waits for it.
pub struct Running {
    messages: Sender<Message>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    /// Ends every search, kills every engine process and waits until they are gone. The
    /// published channels close, which ends the pages' live connections.
    pub fn shut_down(mut self) {
        let _ = self.messages.send(Message::Shutdown);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.messages.send(Message::Shutdown);
    }
}

/// Starts the session thread with `engines` (names unique) and a first game: a person as
/// Black against the first engine on 8x8, one second a move.
pub fn start(
    engines: Vec<EngineSpec>,
    announced: Vec<Vec<EngineOption>>,
    deadlines: Deadlines,
    log: Log,
) -> (Session, Running) {
    let (messages, inbox) = unbounded();
    let roster: Vec<EngineInfo> = engines
        .iter()
        .zip(announced.into_iter().chain(std::iter::repeat(Vec::new())))
        .map(|(spec, options)| EngineInfo {
            name: spec.launch.name.clone(),
            options,
        })
        .collect();
    let first = NewGame {
        width: 8,
        height: 8,
        opening: "traditional".into(),
        capture: "straight".into(),
        black: "human".into(),
        white: roster
            .first()
            .map_or_else(|| "human".into(), |e| e.name.clone()),
        time: TimeSetting::Movetime { ms: 1000 },
        fen: None,
        stall_s: None,
        options: Default::default(),
        games: None,
    };
    let game = Game::new(1, &first, &roster, deadlines.stall).expect("the first game is valid");
    let mut core = Core::new(engines, roster, deadlines, log, messages.clone(), game);
    let state = watch::Sender::new(core.state_json());
    let live = watch::Sender::new(Arc::from("{}"));
    let session = Session {
        messages: messages.clone(),
        state: state.subscribe(),
        live: live.subscribe(),
        log: core.log.clone(),
    };
    let thread = std::thread::spawn(move || core.run(&inbox, &state, &live));
    (
        session,
        Running {
            messages,
            thread: Some(thread),
        },
    )
}

/// One side's engine: its seat when idle, and whether it has had its `newgame`.
struct EngineSeat {
    seat: Option<Box<Seat>>,
    started: bool,
}

/// Everything the session thread owns.
struct Core {
    engines: Vec<EngineSpec>,
    roster: Vec<EngineInfo>,
    deadlines: Deadlines,
    log: Log,
    messages: Sender<Message>,
    game: Game,
    seats: [Option<EngineSeat>; 2],
    thinking: Option<(Worker, Instant)>,
    /// Game workers told to stop whose engines have not come back yet.
    stopping: Vec<Worker>,
    analyst: Option<Analyst>,
    next_token: u64,
    live: Live,
    /// Who the live figures are of, and the side to move in their position.
    live_who: (String, crate::rules::square::Color, Node),
    /// The live figures changed in a way no engine line reported (a search ended).
    live_changed: bool,
    /// An engine line scored a game position since the state was last published.
    scores_changed: bool,
    /// When the state was last published.
    published: Instant,
    viewers: usize,
    empty_since: Option<Instant>,
    paused: bool,
    notice: Option<String>,
    /// Workers whose answer is still to come, so that shutting down can wait for them.
    outstanding: usize,
    /// The person paused the game.
    held: bool,
    /// Set to make the engine thinking on the game play now.
    hurry: Arc<AtomicBool>,
    /// The match the game belongs to, if any.
    series: Option<Series>,
    /// The threads of stopped matches, joined when the session ends.
    retired: Vec<JoinHandle<()>>,
    /// The number of the last state published.
    version: u64,
}

impl Core {
    fn new(
        engines: Vec<EngineSpec>,
        roster: Vec<EngineInfo>,
        deadlines: Deadlines,
        log: Log,
        messages: Sender<Message>,
        game: Game,
    ) -> Core {
        let mut core = Core {
            engines,
            roster,
            deadlines,
            log,
            messages,
            game,
            seats: [None, None],
            thinking: None,
            stopping: Vec::new(),
            analyst: None,
            next_token: 0,
            live: Live::default(),
            live_who: (
                String::new(),
                crate::rules::square::Color::Black,
                Node::Main(0),
            ),
            live_changed: false,
            scores_changed: false,
            published: Instant::now(),
            viewers: 0,
            empty_since: None,
            paused: false,
            notice: None,
            outstanding: 0,
            held: false,
            hurry: Arc::new(AtomicBool::new(false)),
            series: None,
            retired: Vec::new(),
            version: 0,
        };
        core.seats = core.engine_seats();
        core
    }

    fn run(
        mut self,
        inbox: &Receiver<Message>,
        state: &watch::Sender<Arc<str>>,
        live: &watch::Sender<Arc<str>>,
    ) {
        loop {
            let message = match inbox.recv_timeout(TICK) {
                Ok(message) => Some(message),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            let mut changed = false;
            match message {
                Some(Message::Shutdown) => break,
                Some(Message::Pgn(reply)) => {
                    let _ = reply.send(self.pgn());
                }
                Some(Message::MatchGames(reply)) => {
                    let games = self.series.as_ref().map(Series::games).unwrap_or_default();
                    let body = serde_json::json!({ "games": games });
                    let _ = reply.send(body.to_string());
                }
                Some(Message::Position(node, reply)) => {
                    let _ = reply.send(view::position(&self.game, node));
                }
                Some(Message::Lookup(node, reply)) => {
                    let _ = reply.send(self.game.find(node));
                }
                Some(Message::Request(request, reply)) => {
                    // A refused request changes nothing, so nothing is published.
                    let notice = self.notice.take();
                    let outcome = self.handle(request).map(|()| {
                        self.step();
                        let json = self.state_json();
                        state.send_replace(json.clone());
                        json
                    });
                    if outcome.is_err() {
                        self.notice = notice;
                    }
                    let _ = reply.send(outcome);
                }
                Some(Message::Line { token, line }) => self.line(token, &line),
                Some(Message::Answered {
                    token,
                    seat,
                    asked,
                    clocks,
                }) => {
                    self.outstanding -= 1;
                    changed = self.answered(token, seat, asked, clocks);
                }
                Some(Message::Analysed { token, seat, error }) => {
                    self.outstanding -= 1;
                    changed = self.analysed(token, seat, error);
                }
                Some(Message::Viewer(joined)) => changed = self.viewer(joined),
                Some(Message::Match { token, report }) => {
                    changed = self.match_report(token, report);
                }
                None => {}
            }
            // The clocks and the pages are looked at after every message: a stream of
            // engine lines must not keep a person's flag from falling.
            changed |= self.tick();
            // New scores reach the game's graph at most once a second.
            changed |= self.scores_changed && self.published.elapsed() >= SCORES_EVERY;
            if changed {
                self.step();
                state.send_replace(self.state_json());
            }
            if std::mem::take(&mut self.live_changed) {
                let (who, side, node) = &self.live_who;
                live.send_replace(self.live.json(who, *side, &node.to_string()));
            }
        }
        self.finish(inbox);
    }

    /// Stops every worker, waits for each to hand its engine back (a few seconds at most),
    /// and kills every engine process.
    fn finish(mut self, inbox: &Receiver<Message>) {
        self.stop_thinking();
        self.retire_series();
        if let Some(analyst) = self.analyst.take() {
            analyst.retire();
        }
        let until = Instant::now() + HALT_GRACE + Duration::from_secs(1);
        while self.outstanding > 0 {
            match inbox.recv_deadline(until) {
                Ok(Message::Answered { .. } | Message::Analysed { .. }) => self.outstanding -= 1,
                Ok(Message::Request(_, reply) | Message::Position(_, reply)) => {
                    let _ = reply.send(Err(SHUTTING_DOWN.to_string()));
                }
                Ok(Message::Lookup(_, reply)) => {
                    let _ = reply.send(Err(SHUTTING_DOWN.to_string()));
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        // Dropping the seats kills the engines' process groups; a stopped match's thread
        // kills its own once it sees the cancellation.
        self.seats = [None, None];
        for thread in self.retired.drain(..) {
            let _ = thread.join();
        }
    }

    /// The game as PGN; in a match, every finished game of it, then the one in progress.
    fn pgn(&self) -> String {
        let finished = self.series.as_ref().map_or(String::new(), Series::pgn);
        // A finished game of the match is among its records already.
        if self.game.ended.is_some() && !finished.is_empty() {
            return finished;
        }
        finished + &view::game_pgn(&self.game)
    }

    fn handle(&mut self, request: Request) -> Result<(), String> {
        match request {
            Request::New(new) => self.new_game(&new),
            Request::Move { text, ply, node } => self.person_move(&text, ply, node),
            Request::Analyse {
                engine,
                node,
                lines,
            } => self.analyse(engine, node, lines.unwrap_or(1)),
            Request::DeleteVariation(node) => match node {
                Node::Side(id) if self.game.delete_variation(id) => Ok(()),
                _ => Err(format!("delete: {node} is not a variation of this game")),
            },
            Request::Promote(node) => self.game.promote(node).map(|_| ()),
            Request::Annotate {
                node,
                mark,
                comment,
            } => self.game.annotate(node, &mark, &comment),
            Request::Import(import) => {
                let game = import.game(self.game.number + 1, &self.roster, self.deadlines.stall)?;
                self.replace_game(game);
                Ok(())
            }
            Request::Stop => {
                if self.game.ended.is_some() {
                    return Err("stop: the game is already over".to_string());
                }
                self.stop_thinking();
                self.game.charge_person(false);
                self.game.ended.get_or_insert_with(Ended::stopped);
                // Stopping a game of a match ends the match.
                self.retire_series();
                Ok(())
            }
            Request::Resign => self.resign(),
            Request::Takeback => self.takeback(),
            Request::Hold(_) if self.series.as_ref().is_some_and(|s| s.running) => Err(
                "pause: the games of a match are not paused; stop the match to end it".to_string(),
            ),
            Request::Hold(hold) => {
                if self.game.ended.is_some() && hold {
                    return Err("pause: the game is over".to_string());
                }
                if hold {
                    self.stop_thinking();
                    self.game.charge_person(false);
                }
                self.held = hold;
                Ok(())
            }
            Request::MoveNow if self.series.as_ref().is_some_and(|s| s.running) => {
                Err("move now: the engines of a match keep to its time control".to_string())
            }
            Request::MoveNow => match &self.thinking {
                Some(_) => {
                    self.hurry.store(true, Ordering::SeqCst);
                    Ok(())
                }
                None => Err("move now: no engine is thinking on the game".to_string()),
            },
        }
    }

    fn resign(&mut self) -> Result<(), String> {
        if let Some(ended) = &self.game.ended {
            return Err(format!("resign: the game is over: {}", ended.text));
        }
        let Some(side) = self.game.person_side() else {
            return Err("resign: no person plays this game".to_string());
        };
        self.stop_thinking();
        self.game.charge_person(false);
        self.game.ended = Some(Ended::resigned(side));
        Ok(())
    }

    /// Why a take-back cannot work now, or `None` when it can: the page disables its button
    /// with this reason, and the request is refused with it.
    fn takeback_refusal(&self) -> Option<String> {
        if let Some(ended) = self
            .game
            .ended
            .as_ref()
            .filter(|e| e.termination != EndReason::Refereed(Termination::Normal))
        {
            return Some(format!("takeback: the game is over: {}", ended.text));
        }
        if !self.game.players.contains(&Player::Human) {
            return Some("takeback: no person plays this game".to_string());
        }
        let person_moved = (0..self.game.moves.len()).any(|ply| {
            self.game.players[self.game.positions[ply].side_to_move().index()] == Player::Human
        });
        if !person_moved {
            return Some("takeback: you have made no move to take back".to_string());
        }
        None
    }

    fn takeback(&mut self) -> Result<(), String> {
        if let Some(why) = self.takeback_refusal() {
            return Err(why);
        }
        self.stop_thinking();
        self.game.charge_person(false);
        self.game.take_back();
        self.show_live(
            String::new(),
            self.game.current().side_to_move(),
            self.game.end(),
        );
        Ok(())
    }

    fn new_game(&mut self, new: &NewGame) -> Result<(), String> {
        let games = new.games.unwrap_or(1);
        if !(1..=MAX_GAMES).contains(&games) {
            return Err(format!(
                "games: a match has 1 to {MAX_GAMES} games, not {games}"
            ));
        }
        let mut game = Game::new(
            self.game.number + 1,
            new,
            &self.roster,
            self.deadlines.stall,
        )?;
        let series = if games > 1 {
            self.next_token += 1;
            let messages = self.messages.clone();
            let send = move |token, report| {
                let _ = messages.send(Message::Match { token, report });
            };
            let (deadlines, log) = (self.deadlines, self.log.clone());
            let engines = &self.engines;
            Some(Series::start(
                self.next_token,
                games,
                &mut game,
                engines,
                deadlines,
                log,
                send,
            )?)
        } else {
            None
        };
        self.replace_game(game);
        if series.is_some() {
            // The match's engines are the arbiter's, not the session's seats.
            self.seats = [None, None];
            self.series = series;
            self.show_match_turn();
        }
        Ok(())
    }

    /// Ends the game in progress (its searches, the analysis and any match stop) and starts
    /// `game`.
    fn replace_game(&mut self, game: Game) {
        self.retire_series();
        self.stop_thinking();
        if let Some(analyst) = self.analyst.take() {
            analyst.retire();
        }
        self.game = game;
        self.seats = self.engine_seats();
        self.show_live(
            String::new(),
            self.game.current().side_to_move(),
            self.game.end(),
        );
        self.paused = false;
    }

    /// A seat, not yet started, for each side of the game an engine plays.
    fn engine_seats(&self) -> [Option<EngineSeat>; 2] {
        std::array::from_fn(|side| match self.game.players[side] {
            Player::Engine { index, .. } => Some(EngineSeat {
                seat: Some(Box::new(Seat::new(
                    &self.engines[index].with_options(&self.game.setup.options[side]),
                    self.game.rules,
                    self.log.clone(),
                ))),
                started: false,
            }),
            Player::Human => None,
        })
    }

    fn person_move(
        &mut self,
        text: &str,
        ply: Option<usize>,
        node: Option<Node>,
    ) -> Result<(), String> {
        let game = &self.game;
        let plies = game.moves.len();
        if let (None, Some(seen)) = (node, ply.filter(|&seen| seen != plies)) {
            return Err(format!(
                "the move was made on the position after {seen} plies, and the game has {plies}: \
                 step to the last move to play"
            ));
        }
        let at = node.unwrap_or(game.end());
        if let (None, Some(ended)) = (node, &game.ended) {
            return Err(format!("the game is over: {}", ended.text));
        }
        if node.is_none() && self.held {
            return Err(view::PAUSED.to_string());
        }
        if at != game.end() || game.ended.is_some() {
            let mv: Move = text
                .trim()
                .parse()
                .map_err(|e| format!("'{}' is not a move: {e}", text.trim()))?;
            return self.game.play_variation(at, mv).map(|_| ());
        }
        let side = game.current().side_to_move();
        if let Player::Engine { name, .. } = game.player_to_move() {
            let side = capitalised(side);
            return Err(format!(
                "it is {side}'s turn, and {name} plays {side}: wait for its move"
            ));
        }
        let mv: Move = text
            .trim()
            .parse()
            .map_err(|e| format!("'{}' is not a move: {e}", text.trim()))?;
        let mut after = *game.current();
        after
            .play(mv)
            .map_err(|why| format!("{mv} is not legal here: {why}"))?;
        // A move after the person's flag fell loses on time instead.
        if self.game.charge_person(true) {
            self.game.play(mv, after);
        }
        Ok(())
    }

    /// After every change: asks the engine to move if it is its turn, runs the person's clock
    /// when it is theirs, and keeps the analysis on its position.
    fn step(&mut self) {
        self.step_game();
        self.step_analysis();
    }

    fn step_game(&mut self) {
        if self.series.as_ref().is_some_and(|s| s.running) {
            // The match's thread plays its games.
            return;
        }
        if self.game.ended.is_some() {
            // A finished game's engines quit (an engine still stopping quits when it is back).
            for slot in self.seats.iter_mut().flatten() {
                if let Some(seat) = slot.seat.as_mut() {
                    seat.shut_down();
                }
            }
            return;
        }
        if self.paused || self.held || self.thinking.is_some() {
            return;
        }
        self.game.start_person_clock();
        let position = *self.game.current();
        let side = position.side_to_move();
        let Some(engine_seat) = &mut self.seats[side.index()] else {
            return;
        };
        let Some(mut seat) = engine_seat.seat.take() else {
            // Still coming back from a stopped search.
            return;
        };
        let started = std::mem::replace(&mut engine_seat.started, true);
        self.hurry = Arc::new(AtomicBool::new(false));
        seat.hurry_on(self.hurry.clone());
        self.next_token += 1;
        let token = self.next_token;
        let stop = Arc::new(AtomicBool::new(false));
        let messages = self.messages.clone();
        seat.listen(Box::new(move |line| {
            let _ = messages.send(Message::Line {
                token,
                line: line.to_string(),
            });
        }));
        let opening = self.game.opening.clone();
        let moves = self.game_moves();
        let game_rules = self.game_rules();
        let mut clocks = self.game.clocks;
        let (messages, flag) = (self.messages.clone(), stop.clone());
        self.outstanding += 1;
        std::thread::spawn(move || {
            let ready = if started {
                Ok(())
            } else {
                seat.ready(&game_rules.deadlines).map(|_| ())
            };
            let asked = match ready {
                Ok(()) => game::ask(
                    &mut seat,
                    &position,
                    &opening,
                    &moves,
                    &game_rules,
                    &mut clocks,
                    &flag,
                ),
                Err(termination) => Asked::Lost(termination, None),
            };
            if asked == Asked::Stopped {
                seat.halt(HALT_GRACE);
            }
            // If the session is gone, the seat is dropped here and its engine killed.
            let _ = messages.send(Message::Answered {
                token,
                seat,
                asked,
                clocks,
            });
        });
        let name = self.game.players[side.index()].name();
        let who = format!("{name} ({})", capitalised(side));
        self.show_live(who, side, self.game.end());
        let game = self.game.number;
        self.thinking = Some((
            Worker {
                token,
                stop,
                side,
                game,
            },
            Instant::now(),
        ));
    }

    /// The game's moves as the protocol writes them.
    fn game_moves(&self) -> Vec<String> {
        self.game.moves.iter().map(Move::to_string).collect()
    }

    /// The rules, time control and deadlines the game's engines play under.
    fn game_rules(&self) -> GameRules {
        GameRules {
            rules: self.game.rules,
            time_control: self.game.time_control,
            deadlines: Deadlines {
                stall: self.game.stall,
                ..self.deadlines
            },
        }
    }

    /// Starts the figures of a search by `who` of `node`, whose position has `side` to move.
    fn show_live(&mut self, who: String, side: crate::rules::square::Color, node: Node) {
        self.live = Live::new(side);
        self.live_who = (who, side, node);
        self.live_changed = true;
    }

    /// Marks the live figures as those of a search that ended, `how` saying how.
    fn end_live(&mut self, how: String) {
        self.live_changed |= self.live.end(how);
    }

    /// Stops the engine thinking on the game, if one is; its answer will be stale.
    fn stop_thinking(&mut self) {
        if let Some((worker, _)) = self.thinking.take() {
            worker.stop.store(true, Ordering::SeqCst);
            if let Some(seat) = &mut self.seats[worker.side.index()] {
                // Asked again later, the engine first gets a new `newgame`.
                seat.started = false;
            }
            self.stopping.push(worker);
            self.end_live("stopped".to_string());
        }
    }

    fn line(&mut self, token: u64, line: &str) {
        let thinking = matches!(&self.thinking, Some((w, _)) if w.token == token);
        let analysing = self
            .analyst
            .as_ref()
            .and_then(|a| a.worker.as_ref())
            .is_some_and(|w| w.token == token);
        if thinking || analysing {
            self.show_line(line);
        }
    }

    /// Reads an engine line of the search shown live into its figures.
    fn show_line(&mut self, line: &str) {
        if self.live.update(line) {
            self.live_changed = true;
            // The game's graph keeps the newest score of each of its positions.
            if let (Node::Main(ply), Some(chance)) = (self.live_who.2, self.live.black_chance()) {
                self.game.chances.insert(ply, chance);
                self.scores_changed = true;
            }
        }
    }

    /// A game engine's answer; true when the game changed.
    fn answered(&mut self, token: u64, seat: Box<Seat>, asked: Asked, clocks: Clocks) -> bool {
        let current = matches!(&self.thinking, Some((worker, _)) if worker.token == token);
        if !current {
            // A stopped search: the engine goes back to its seat if that is still this
            // game's, to be asked again after a pause; an earlier game's engine is dropped,
            // which kills it.
            if let Some(at) = self.stopping.iter().position(|w| w.token == token) {
                let worker = self.stopping.swap_remove(at);
                if let (true, Some(slot)) = (
                    worker.game == self.game.number,
                    &mut self.seats[worker.side.index()],
                ) {
                    slot.seat = Some(seat);
                }
            }
            // Its seat may be what an engine to move was waiting for.
            return true;
        }
        let (worker, _) = self.thinking.take().expect("checked above");
        let side = worker.side;
        let failure = seat.failure().map(str::to_string);
        if let Some(slot) = &mut self.seats[side.index()] {
            slot.seat = Some(seat);
        }
        self.game.clocks = clocks;
        match asked {
            Asked::Move(mv, took, verdict) => {
                let mut after = *self.game.current();
                after.play_unchecked(mv);
                self.game.play(mv, after);
                if let Some(verdict) = verdict {
                    let eval = MoveEval {
                        verdict,
                        time: took,
                    };
                    self.game.notes.entry(self.game.end()).or_default().eval = Some(eval);
                }
                self.notice = None;
                self.end_live(format!("played {mv}"));
                // An engine set to ponder thinks on the reply it expects meanwhile.
                let (moves, game_rules) = (self.game_moves(), self.game_rules());
                let seat = self.seats[side.index()]
                    .as_mut()
                    .and_then(|s| s.seat.as_mut());
                if let Some(seat) = seat {
                    let game = &self.game;
                    seat.start_pondering(&after, &game.opening, &moves, &game_rules, &game.clocks);
                }
            }
            Asked::Lost(termination, _) => {
                let name = self.game.players[side.index()].name();
                let detail = match termination {
                    Termination::Stall => Some(format!(
                        "no output for {} s on a depth-limited move",
                        self.game.stall.as_secs()
                    )),
                    _ => failure,
                };
                self.game.ended = Some(Ended::forfeit(side, &name, &termination, detail));
                self.end_live(termination.to_string());
            }
            Asked::Stopped => {
                if let Some(slot) = &mut self.seats[side.index()] {
                    slot.started = false;
                }
            }
        }
        true
    }

    /// A page opened or closed; true when the state changed.
    fn viewer(&mut self, joined: bool) -> bool {
        if joined {
            self.viewers += 1;
            self.empty_since = None;
            if self.paused {
                self.paused = false;
                return true;
            }
        } else {
            self.viewers = self.viewers.saturating_sub(1);
            if self.viewers == 0 {
                self.empty_since = Some(Instant::now());
            }
        }
        false
    }

    /// Ends the game when the person's time ran out, and pauses the engines and the person's
    /// clock when the last page has been closed for a while; true when the state changed.
    fn tick(&mut self) -> bool {
        if self.game.flag_fell() {
            return true;
        }
        let Some(since) = self.empty_since else {
            return false;
        };
        if self.viewers > 0 || since.elapsed() < NO_VIEWER_GRACE || self.paused {
            return false;
        }
        self.paused = true;
        self.stop_thinking();
        self.game.charge_person(false);
        true
    }

    fn state_json(&mut self) -> Arc<str> {
        self.version += 1;
        self.scores_changed = false;
        self.published = Instant::now();
        let side = self.game.current().side_to_move();
        let match_turn = self
            .series
            .as_ref()
            .filter(|series| series.running && self.game.ended.is_none())
            .map(|series| (side, series.since.elapsed()));
        let running = match (&self.thinking, self.game.person_since) {
            (Some((worker, since)), _) => Some((worker.side, since.elapsed())),
            (None, Some(since)) => Some((side, since.elapsed())),
            (None, None) => match_turn,
        };
        let analysis = self
            .analyst
            .as_ref()
            .filter(|a| a.wanted)
            .map(|a| view::AnalysisView {
                engine: self.roster[a.engine].name.clone(),
                node: a.node.map(|node| node.to_string()),
                lines: a.lines,
                waits: self.analysis_waits(),
            });
        view::state(&view::Context {
            version: self.version,
            game: &self.game,
            engines: &self.roster,
            thinking: self
                .thinking
                .as_ref()
                .map(|(worker, _)| worker.side)
                .or(match_turn.map(|(side, _)| side)),
            running,
            analysis,
            series: self.series.as_ref().map(Series::view),
            held: self.held,
            paused: self.paused,
            notice: self.notice.as_deref(),
            why_no_takeback: self.takeback_refusal(),
        })
    }
}
