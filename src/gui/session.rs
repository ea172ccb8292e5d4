//! The game the page shows, kept by one thread that owns every engine process: it referees
//! each move (a person's too), asks engines for theirs on worker threads, runs the analysis
//! engine, and publishes the state after every change. Requests from the web server arrive as
//! messages; nothing else touches the game.

use crate::arbiter::game::{self, Asked, Clocks, Deadlines, GameRules, Opening, Seat, TimeControl};
use crate::arbiter::log::Log;
use crate::arbiter::process::{self, ReadError};
use crate::arbiter::spec::EngineSpec;
use crate::gui::info::Live;
use crate::gui::view::{self, Ended, Player};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{Capture, Opening as OpeningRule, Rules};
use crate::square::Color;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use serde::Deserialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

/// How long an engine may take to answer `stop` before it is killed.
const HALT_GRACE: Duration = Duration::from_secs(2);

/// How long the game waits after the last page closed before it stops the engines' searches
/// (a reload reconnects well within it).
const NO_VIEWER_GRACE: Duration = Duration::from_secs(2);

/// The answer to anything asked of a session that is ending.
const SHUTTING_DOWN: &str = "the server is shutting down";

/// How often the session thread looks at the clock when no message comes.
const TICK: Duration = Duration::from_millis(200);

/// A new game, as the page asks for it.
#[derive(Clone, Debug, Deserialize)]
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
    /// How long the engines may think.
    pub time: TimeSetting,
    /// A position string to start from instead of the start position (its size wins).
    #[serde(default)]
    pub fen: Option<String>,
}

/// The engines' time control, as the page gives it.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum TimeSetting {
    /// A fixed time per move.
    Movetime {
        /// Milliseconds.
        ms: u64,
    },
    /// A clock with an increment.
    Clock {
        /// Starting time in milliseconds.
        base_ms: u64,
        /// Added after each move, in milliseconds.
        inc_ms: u64,
    },
    /// A fixed depth per move.
    Depth {
        /// Plies.
        depth: u32,
    },
}

impl TimeSetting {
    fn time_control(self) -> Result<TimeControl, String> {
        const DAY_MS: u64 = 86_400_000;
        match self {
            TimeSetting::Movetime { ms } if (1..=DAY_MS).contains(&ms) => {
                Ok(TimeControl::MoveTime(Duration::from_millis(ms)))
            }
            TimeSetting::Movetime { ms } => {
                Err(format!("time: movetime must be 1 to {DAY_MS} ms, not {ms}"))
            }
            TimeSetting::Clock { base_ms, inc_ms }
                if (1..=DAY_MS).contains(&base_ms) && inc_ms <= DAY_MS =>
            {
                Ok(TimeControl::Clock {
                    base: Duration::from_millis(base_ms),
                    increment: Duration::from_millis(inc_ms),
                })
            }
            TimeSetting::Clock { .. } => Err(format!(
                "time: a clock needs base_ms 1 to {DAY_MS} and inc_ms 0 to {DAY_MS}"
            )),
            TimeSetting::Depth { depth } if (1..=120).contains(&depth) => {
                Ok(TimeControl::Depth(depth))
            }
            TimeSetting::Depth { depth } => {
                Err(format!("time: depth must be 1 to 120, not {depth}"))
            }
        }
    }
}

/// Something the page asks of the game.
#[derive(Clone, Debug)]
pub enum Request {
    /// End the game in progress (its searches stop) and start this one.
    New(NewGame),
    /// A person's move in notation, for the side to move.
    Move(String),
    /// Show the position after this many plies.
    View(usize),
    /// Analyse the shown position with this engine until told otherwise (`None` stops).
    Analyse(Option<String>),
    /// End the game in progress without a winner; its engines stop searching.
    Stop,
}

/// The answer to a request: the state after it (JSON), or why it was refused.
pub type Reply = Result<Arc<str>, String>;

/// What reaches the session thread.
enum Message {
    Request(Request, oneshot::Sender<Reply>),
    /// The game so far as PGN.
    Pgn(oneshot::Sender<String>),
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
pub fn start(engines: Vec<EngineSpec>, deadlines: Deadlines, log: Log) -> (Session, Running) {
    let (messages, inbox) = unbounded();
    let first = NewGame {
        width: 8,
        height: 8,
        opening: "traditional".into(),
        capture: "straight".into(),
        black: "human".into(),
        white: engines
            .first()
            .map_or("human".to_string(), |e| e.launch.name.clone()),
        time: TimeSetting::Movetime { ms: 1000 },
        fen: None,
    };
    let game = build_game(&first, &engines).expect("the first game is valid");
    let mut core = Core::new(engines, deadlines, log, messages.clone(), game);
    let state = watch::Sender::new(core.state_json());
    let live = watch::Sender::new(Arc::from("{}"));
    let session = Session {
        messages: messages.clone(),
        state: state.subscribe(),
        live: live.subscribe(),
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

/// A worker at work: its token (lines and answers of any other token are stale) and the flag
/// that stops it.
struct Worker {
    token: u64,
    stop: Arc<AtomicBool>,
    side: Color,
    game: u64,
}

/// The analysis engine: which one, its seat when idle, the position command it analyses.
struct Analyst {
    engine: usize,
    seat: Option<Box<Seat>>,
    worker: Option<Worker>,
    target: Option<String>,
    wanted: bool,
}

impl Analyst {
    /// Stops the analysis; the engine goes once its worker hands it back.
    fn retire(self) {
        if let Some(worker) = self.worker {
            worker.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// The game itself.
pub struct Game {
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
    /// The engines' time control.
    pub time_control: TimeControl,
    /// The engines' clocks.
    pub clocks: Clocks,
    /// How the game ended, once it has.
    pub ended: Option<Ended>,
    /// The ply whose position is shown.
    pub view: usize,
}

impl Game {
    /// The position now.
    pub fn current(&self) -> &Position {
        self.positions.last().expect("the start is always there")
    }
}

/// Everything the session thread owns.
struct Core {
    engines: Vec<EngineSpec>,
    deadlines: Deadlines,
    log: Log,
    messages: Sender<Message>,
    game: Game,
    seats: [Option<EngineSeat>; 2],
    thinking: Option<(Worker, Instant)>,
    /// Game workers told to stop whose engines have not come back yet.
    stopping: Vec<Worker>,
    /// Counts games, so that an engine coming back from an earlier game is not reused.
    game_number: u64,
    analyst: Option<Analyst>,
    next_token: u64,
    live: Live,
    viewers: usize,
    empty_since: Option<Instant>,
    paused: bool,
    notice: Option<String>,
    /// Workers whose answer is still to come, so that shutting down can wait for them.
    outstanding: usize,
    /// The number of the last state published.
    version: u64,
}

impl Core {
    fn new(
        engines: Vec<EngineSpec>,
        deadlines: Deadlines,
        log: Log,
        messages: Sender<Message>,
        game: Game,
    ) -> Core {
        let mut core = Core {
            engines,
            deadlines,
            log,
            messages,
            game,
            seats: [None, None],
            thinking: None,
            stopping: Vec::new(),
            game_number: 0,
            analyst: None,
            next_token: 0,
            live: Live::default(),
            viewers: 0,
            empty_since: None,
            paused: false,
            notice: None,
            outstanding: 0,
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
            let mut changed = true;
            match message {
                Some(Message::Shutdown) => break,
                Some(Message::Pgn(reply)) => {
                    let _ = reply.send(view::game_pgn(&self.game));
                    continue;
                }
                Some(Message::Request(request, reply)) => {
                    // A refused request changed nothing, so nothing is published.
                    let outcome = self.handle(request).map(|()| {
                        self.step();
                        let json = self.state_json();
                        state.send_replace(json.clone());
                        json
                    });
                    let _ = reply.send(outcome);
                    continue;
                }
                Some(Message::Line { token, line }) => {
                    changed = false;
                    if let Some(json) = self.line(token, &line) {
                        live.send_replace(json);
                    }
                }
                Some(Message::Answered {
                    token,
                    seat,
                    asked,
                    clocks,
                }) => {
                    self.outstanding -= 1;
                    self.answered(token, seat, asked, clocks);
                }
                Some(Message::Analysed { token, seat, error }) => {
                    self.outstanding -= 1;
                    self.analysed(token, seat, error);
                }
                Some(Message::Viewer(joined)) => self.viewer(joined),
                None => changed = self.tick(),
            }
            if changed {
                self.step();
                state.send_replace(self.state_json());
            }
        }
        self.finish(inbox);
    }

    /// Stops every worker, waits for each to hand its engine back (a few seconds at most),
    /// and kills every engine process.
    fn finish(mut self, inbox: &Receiver<Message>) {
        self.stop_thinking();
        if let Some(analyst) = self.analyst.take() {
            analyst.retire();
        }
        let until = Instant::now() + HALT_GRACE + Duration::from_secs(1);
        while self.outstanding > 0 {
            match inbox.recv_deadline(until) {
                Ok(Message::Answered { .. } | Message::Analysed { .. }) => self.outstanding -= 1,
                Ok(Message::Request(_, reply)) => {
                    let _ = reply.send(Err(SHUTTING_DOWN.to_string()));
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        // Dropping the seats kills the engines' process groups.
        self.seats = [None, None];
    }

    fn handle(&mut self, request: Request) -> Result<(), String> {
        match request {
            Request::New(new) => self.new_game(&new),
            Request::Move(text) => self.human_move(&text),
            Request::View(ply) => {
                if ply > self.game.moves.len() {
                    return Err(format!(
                        "view: ply {ply} is past the last move (the game has {} plies)",
                        self.game.moves.len()
                    ));
                }
                self.game.view = ply;
                Ok(())
            }
            Request::Analyse(engine) => self.analyse(engine),
            Request::Stop => {
                if self.game.ended.is_some() {
                    return Err("stop: the game is already over".to_string());
                }
                self.stop_thinking();
                self.game.ended = Some(Ended::stopped());
                Ok(())
            }
        }
    }

    fn new_game(&mut self, new: &NewGame) -> Result<(), String> {
        let game = build_game(new, &self.engines)?;
        self.stop_thinking();
        if let Some(analyst) = self.analyst.take() {
            analyst.retire();
        }
        self.game_number += 1;
        self.game = game;
        self.seats = self.engine_seats();
        self.live = Live::default();
        self.notice = None;
        self.paused = false;
        Ok(())
    }

    /// A seat, not yet started, for each side of the game an engine plays.
    fn engine_seats(&self) -> [Option<EngineSeat>; 2] {
        self.game.players.clone().map(|player| match player {
            Player::Engine { index, .. } => Some(EngineSeat {
                seat: Some(Box::new(Seat::new(
                    &self.engines[index],
                    self.game.rules,
                    self.log.clone(),
                ))),
                started: false,
            }),
            Player::Human => None,
        })
    }

    fn human_move(&mut self, text: &str) -> Result<(), String> {
        let game = &self.game;
        if let Some(ended) = &game.ended {
            return Err(format!("the game is over: {}", ended.text));
        }
        let side = game.current().side_to_move();
        if let Player::Engine { name, .. } = &game.players[side.index()] {
            let side = view::capitalised(side);
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
        self.play(mv, after);
        Ok(())
    }

    fn play(&mut self, mv: Move, after: Position) {
        let game = &mut self.game;
        game.moves.push(mv);
        game.positions.push(after);
        game.view = game.moves.len();
        if let Some(winner) = after.winner() {
            game.ended = Some(Ended::no_move(winner));
        }
    }

    fn analyse(&mut self, engine: Option<String>) -> Result<(), String> {
        let Some(name) = engine else {
            match &mut self.analyst {
                Some(analyst) => analyst.wanted = false,
                None => return Err("analysis: nothing is being analysed".to_string()),
            }
            return Ok(());
        };
        let Some(engine) = self.engines.iter().position(|e| e.launch.name == name) else {
            return Err(format!("analysis: '{name}' is not a configured engine"));
        };
        if let Some(why) = self.analysis_forbidden() {
            return Err(format!("analysis: {why}"));
        }
        match &mut self.analyst {
            Some(analyst) if analyst.engine == engine => analyst.wanted = true,
            _ => {
                if let Some(old) = self.analyst.take() {
                    old.retire();
                }
                let spec = &self.engines[engine];
                self.analyst = Some(Analyst {
                    engine,
                    seat: Some(Box::new(Seat::new(spec, self.game.rules, self.log.clone()))),
                    worker: None,
                    target: None,
                    wanted: true,
                });
            }
        }
        self.live = Live::default();
        Ok(())
    }

    /// Why analysis cannot run now, if it cannot: an engine of the game has the move (the
    /// two would share the processor), or no page is open.
    fn analysis_forbidden(&self) -> Option<String> {
        if self.paused {
            return Some("no page is open".to_string());
        }
        let side = self.game.current().side_to_move();
        match (&self.game.ended, &self.game.players[side.index()]) {
            (None, Player::Engine { name, .. }) => Some(format!(
                "{name} is to move in the game; analysis runs when a person is to move or the game is over"
            )),
            _ => None,
        }
    }

    /// After every change: asks the engine to move if it is its turn, and keeps the analysis
    /// on the shown position.
    fn step(&mut self) {
        self.step_game();
        self.step_analysis();
    }

    fn step_game(&mut self) {
        if self.game.ended.is_some() {
            // A finished game's engines quit (an engine still stopping quits when it is back).
            for slot in self.seats.iter_mut().flatten() {
                if let Some(seat) = slot.seat.as_mut() {
                    seat.shut_down();
                }
            }
            return;
        }
        if self.paused || self.thinking.is_some() {
            return;
        }
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
        let moves: Vec<String> = self.game.moves.iter().map(Move::to_string).collect();
        let game_rules = GameRules {
            rules: self.game.rules,
            time_control: self.game.time_control,
            deadlines: self.deadlines,
        };
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
        self.live = Live::default();
        let game = self.game_number;
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

    fn step_analysis(&mut self) {
        let forbidden = self.analysis_forbidden();
        let command = view::position_command(&self.game);
        let Some(analyst) = &mut self.analyst else {
            return;
        };
        if forbidden.is_some() && analyst.wanted {
            analyst.wanted = false;
            self.notice = forbidden.map(|why| format!("Analysis stopped: {why}."));
        }
        let target = analyst.wanted.then_some(command);
        if let Some(worker) = &analyst.worker {
            if analyst.target != target {
                worker.stop.store(true, Ordering::SeqCst);
            }
            return;
        }
        let Some(target) = target else {
            // Not wanted and idle: the engine is not needed any more.
            self.analyst = None;
            return;
        };
        let Some(mut seat) = analyst.seat.take() else {
            return;
        };
        self.next_token += 1;
        let token = self.next_token;
        let stop = Arc::new(AtomicBool::new(false));
        let messages = self.messages.clone();
        let (flag, deadlines, command) = (stop.clone(), self.deadlines, target.clone());
        self.outstanding += 1;
        std::thread::spawn(move || {
            let lines = messages.clone();
            let error = analyse(&mut seat, &command, &deadlines, &flag, &mut |line| {
                let _ = lines.send(Message::Line {
                    token,
                    line: line.to_string(),
                });
            })
            .err();
            let _ = messages.send(Message::Analysed { token, seat, error });
        });
        let side = self.game.positions[self.game.view].side_to_move();
        let game = self.game_number;
        analyst.worker = Some(Worker {
            token,
            stop,
            side,
            game,
        });
        analyst.target = Some(target);
        self.live = Live::default();
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
        }
    }

    fn line(&mut self, token: u64, line: &str) -> Option<Arc<str>> {
        let (who, side) =
            if let Some((worker, _)) = self.thinking.as_ref().filter(|(w, _)| w.token == token) {
                let name = self.game.players[worker.side.index()].name();
                let shown = view::capitalised(worker.side);
                (format!("{name} ({shown})"), worker.side)
            } else if let Some(analyst) = &self.analyst {
                let worker = analyst.worker.as_ref().filter(|w| w.token == token)?;
                (
                    format!("analysis: {}", self.engines[analyst.engine].launch.name),
                    worker.side,
                )
            } else {
                return None;
            };
        self.live.update(line).then(|| self.live.json(&who, side))
    }

    fn answered(&mut self, token: u64, seat: Box<Seat>, asked: Asked, clocks: Clocks) {
        let current = matches!(&self.thinking, Some((worker, _)) if worker.token == token);
        if !current {
            // A stopped search: the engine goes back to its seat if that is still this
            // game's, to be asked again after a pause; an earlier game's engine is dropped,
            // which kills it.
            if let Some(at) = self.stopping.iter().position(|w| w.token == token) {
                let worker = self.stopping.swap_remove(at);
                if let (true, Some(slot)) = (
                    worker.game == self.game_number,
                    &mut self.seats[worker.side.index()],
                ) {
                    slot.seat = Some(seat);
                }
            }
            return;
        }
        let (worker, _) = self.thinking.take().expect("checked above");
        let side = worker.side;
        let failure = seat.failure().map(str::to_string);
        if let Some(slot) = &mut self.seats[side.index()] {
            slot.seat = Some(seat);
        }
        self.game.clocks = clocks;
        match asked {
            Asked::Move(mv, _) => {
                let mut after = *self.game.current();
                after.play_unchecked(mv);
                self.play(mv, after);
            }
            Asked::Lost(termination, _) => {
                let name = self.game.players[side.index()].name();
                self.game.ended = Some(Ended::forfeit(side, &name, &termination, failure));
            }
            Asked::Stopped => {
                if let Some(slot) = &mut self.seats[side.index()] {
                    slot.started = false;
                }
            }
        }
    }

    fn analysed(&mut self, token: u64, seat: Box<Seat>, error: Option<String>) {
        let Some(analyst) = &mut self.analyst else {
            return;
        };
        if analyst.worker.as_ref().map(|w| w.token) != Some(token) {
            return;
        }
        analyst.worker = None;
        analyst.target = None;
        analyst.seat = Some(seat);
        if let Some(error) = error {
            analyst.wanted = false;
            let name = &self.engines[analyst.engine].launch.name;
            self.notice = Some(format!("Analysis by {name} failed: {error}"));
        }
    }

    fn viewer(&mut self, joined: bool) {
        if joined {
            self.viewers += 1;
            self.empty_since = None;
            if self.paused {
                self.paused = false;
                self.notice = None;
            }
        } else {
            self.viewers = self.viewers.saturating_sub(1);
            if self.viewers == 0 {
                self.empty_since = Some(Instant::now());
            }
        }
    }

    /// Pauses the engines when the last page has been closed for a while; true when the
    /// state changed.
    fn tick(&mut self) -> bool {
        let Some(since) = self.empty_since else {
            return false;
        };
        if self.viewers > 0 || since.elapsed() < NO_VIEWER_GRACE || self.paused {
            return false;
        }
        self.paused = true;
        self.stop_thinking();
        if let Some(analyst) = &mut self.analyst {
            analyst.wanted = false;
        }
        self.notice = Some("Paused: no page is open. The engines resume when one is.".to_string());
        true
    }

    fn state_json(&mut self) -> Arc<str> {
        self.version += 1;
        let thinking = self
            .thinking
            .as_ref()
            .map(|(worker, since)| (worker.side, since.elapsed()));
        let analysis = self
            .analyst
            .as_ref()
            .filter(|a| a.wanted)
            .map(|a| self.engines[a.engine].launch.name.clone());
        let engines: Vec<String> = self.engines.iter().map(|e| e.launch.name.clone()).collect();
        view::state(&view::Context {
            version: self.version,
            game: &self.game,
            engines: &engines,
            thinking,
            analysis,
            paused: self.paused,
            notice: self.notice.as_deref(),
        })
    }
}

/// The game `new` asks for, checked: rules, players among `engines`, time control, start.
fn build_game(new: &NewGame, engines: &[EngineSpec]) -> Result<Game, String> {
    let opening: OpeningRule = new.opening.parse().map_err(|e| format!("opening: {e}"))?;
    let capture: Capture = new.capture.parse().map_err(|e| format!("capture: {e}"))?;
    let players = [
        player(&new.black, "black", engines)?,
        player(&new.white, "white", engines)?,
    ];
    let time_control = new.time.time_control()?;
    let start = match new.fen.as_deref().map(str::trim) {
        Some(fen) if !fen.is_empty() => Position::from_fen(fen, opening, capture)
            .map_err(|e| format!("position string: {e}"))?,
        _ => {
            let rules = Rules::new(new.width, new.height, opening, capture)
                .map_err(|e| format!("board: {e}"))?;
            Position::start(rules).map_err(|e| format!("board: {e}"))?
        }
    };
    let rules = start.rules();
    let standard = Position::start(rules).ok();
    Ok(Game {
        rules,
        opening: Opening {
            fen: (standard != Some(start)).then(|| start.fen()),
            moves: Vec::new(),
        },
        positions: vec![start],
        moves: Vec::new(),
        players,
        time_control,
        clocks: Clocks::new(time_control),
        ended: None,
        view: 0,
    })
}

/// The player `name` names for `side`: `human`, or one of `engines`.
fn player(name: &str, side: &str, engines: &[EngineSpec]) -> Result<Player, String> {
    if name == "human" {
        return Ok(Player::Human);
    }
    match engines.iter().position(|e| e.launch.name == name) {
        Some(engine) => Ok(Player::Engine {
            index: engine,
            name: name.to_string(),
        }),
        None => {
            let names: Vec<&str> = engines.iter().map(|e| e.launch.name.as_str()).collect();
            Err(format!(
                "{side}: '{name}' is neither 'human' nor a configured engine ({})",
                if names.is_empty() {
                    "none configured".to_string()
                } else {
                    names.join(", ")
                }
            ))
        }
    }
}

/// Analyses `command` (a `position` command) with the engine in `seat` until `stop` is set,
/// showing `listener` each line; then stops the search. An engine that ends the search by
/// itself (a proven or finished position) keeps its last lines shown until `stop`.
fn analyse(
    seat: &mut Seat,
    command: &str,
    deadlines: &Deadlines,
    stop: &AtomicBool,
    listener: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let process = match seat.ready(deadlines) {
        Ok(process) => process,
        Err(termination) => {
            return Err(seat
                .failure()
                .map_or_else(|| termination.text(), str::to_string));
        }
    };
    let sent = process
        .send(command)
        .and_then(|_| process.send("go infinite"));
    let (mut searching, mut lost) = (sent.is_ok(), sent.is_err());
    while !stop.load(Ordering::SeqCst) && !lost {
        if !searching {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        match process.read_line(Instant::now() + Duration::from_millis(50)) {
            Ok((line, _)) if process::is_bestmove(&line) => {
                searching = false;
            }
            Ok((line, _)) => listener(&line),
            Err(ReadError::Timeout) => {}
            Err(ReadError::Closed | ReadError::Interrupted) => lost = true,
        }
    }
    if searching || lost {
        seat.halt(HALT_GRACE);
    }
    match (lost, seat.failure()) {
        (false, _) => Ok(()),
        (true, Some(why)) => Err(why.to_string()),
        (true, None) => Err("the engine stopped answering".to_string()),
    }
}
