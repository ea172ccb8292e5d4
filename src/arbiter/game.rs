//! One refereed game: the arbiter keeps the position and both clocks, checks every move, and
//! ends the game itself. Whatever an engine does, the game ends with a winner and a reason.

use crate::arbiter::log::Log;
use crate::arbiter::openings::Opening;
use crate::arbiter::process::{self, EngineProcess, Launch, ReadError};
use crate::arbiter::record::{GameRecord, GameSetup, Termination};
use crate::arbiter::spec::EngineSpec;
use crate::arbiter::time_control::TimeControl;
use crate::arbiter::verdict::{Verdict, VerdictReader};
use crate::protocol::info::BestMove;
use crate::rules::Rules;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Color;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The deadlines that protect the arbiter from engines that do not answer.
#[derive(Clone, Copy, Debug)]
pub struct Deadlines {
    /// Grace beyond the clock before a move is a time forfeit.
    pub time_margin: Duration,
    /// How long an engine on a depth- or node-limited move may stay silent (no line at all)
    /// before it is declared stalled: a search that keeps reporting may take as long as it needs.
    pub stall: Duration,
    /// How long the handshake and each `isready` may take.
    pub startup: Duration,
}

/// Everything about how games are played that is the same for every game.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// Board and rule options.
    pub rules: Rules,
    /// Time per move.
    pub time_control: TimeControl,
    /// Timeouts.
    pub deadlines: Deadlines,
}

/// Called with each line an engine sends while it searches, `bestmove` excepted.
pub type Listener = Box<dyn FnMut(&str) + Send>;

/// An engine seat of one worker: the process, started on demand and restarted after a failure.
pub struct Seat {
    /// How to start the engine.
    pub launch: Launch,
    /// `uci` or `ugi`.
    pub protocol: String,
    /// `setoption` pairs, the rules first.
    pub options: Vec<(String, String)>,
    process: Option<EngineProcess>,
    log: Log,
    listener: Option<Listener>,
    failure: Option<String>,
    /// Set by a GUI's "move now": the engine is sent `stop` and its answer played.
    hurry: Option<Arc<AtomicBool>>,
    /// Whether the engine thinks on the opponent's time.
    ponder: bool,
    /// The reply the engine named with its last move (`bestmove X ponder Y`).
    expected: Option<String>,
    /// The reply the engine is pondering on now, sent as if played.
    pondering: Option<String>,
}

impl Seat {
    /// A seat for the engine `spec` playing under `rules`, not yet started.
    pub fn new(spec: &EngineSpec, rules: Rules, log: Log) -> Seat {
        Seat {
            launch: spec.launch.clone(),
            protocol: spec.protocol.clone(),
            options: spec.options_for(rules),
            process: None,
            log,
            listener: None,
            failure: None,
            hurry: None,
            // `ponder`, or the option the protocol sets for it (the GUI's form sets that).
            ponder: spec.ponder
                || spec
                    .options
                    .iter()
                    .any(|(name, value)| name.eq_ignore_ascii_case("Ponder") && value == "true"),
            expected: None,
            pondering: None,
        }
    }

    /// Sends `stop` to the engine searching under this seat as soon as `flag` is set; its
    /// `bestmove` then is its move, as usual ("move now").
    pub fn hurry_on(&mut self, flag: Arc<AtomicBool>) {
        self.hurry = Some(flag);
    }

    /// Shows `listener` every line the engine sends while it searches (its `info` lines).
    pub fn listen(&mut self, listener: Listener) {
        self.listener = Some(listener);
    }

    /// Why the engine was last lost, in words (how it exited, its last lines), if it was.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// The running engine, started and ready for a new game.
    pub fn ready(&mut self, deadlines: &Deadlines) -> Result<&mut EngineProcess, Termination> {
        self.stop_pondering(deadlines);
        self.start(deadlines)?;
        let process = self.process.as_mut().expect("started");
        let new_game = format!("{}newgame", self.protocol);
        let synced = process
            .send(&new_game)
            .and_then(|_| process.sync(deadlines.startup));
        if let Err(error) = synced {
            self.discard(error);
            return Err(failure(error));
        }
        Ok(self.process.as_mut().expect("still running"))
    }

    /// The running engine, started (with its handshake) if it is not: the next position of
    /// the same game needs no `newgame`.
    pub fn start(&mut self, deadlines: &Deadlines) -> Result<(), Termination> {
        if self.process.is_none() {
            let mut process =
                EngineProcess::start(&self.launch, self.log.clone()).map_err(|error| {
                    self.failure = Some(error);
                    Termination::Crash
                })?;
            if let Err(failed) = process.handshake(&self.protocol, &self.options, deadlines.startup)
            {
                self.failure = Some(process.explain(&failed, deadlines.startup));
                return Err(failure(failed.error));
            }
            self.process = Some(process);
        }
        Ok(())
    }

    /// Kills the engine after `error`, noting why in [`Seat::failure`]; it is restarted for
    /// its next game.
    fn discard(&mut self, error: ReadError) {
        let Some(mut process) = self.process.take() else {
            return;
        };
        let how = match error {
            // A process that closed its output has usually exited: say how.
            ReadError::Closed => match process.exit_status(Duration::from_millis(200)) {
                Some(status) => {
                    process.settle_stderr(Duration::from_millis(300));
                    format!("it exited ({})", process::describe_exit(status))
                }
                None => "it closed its output".to_string(),
            },
            ReadError::Timeout => "it did not answer in time".to_string(),
            ReadError::Interrupted => "interrupted".to_string(),
        };
        self.failure = Some(how + &process.last_lines());
    }

    /// Ends a search in progress: sends `stop` and waits up to `grace` for the `bestmove`.
    /// An engine that does not answer is killed (and restarted when next needed).
    pub fn halt(&mut self, grace: Duration) {
        let Some(process) = self.process.as_mut() else {
            return;
        };
        let answered = process
            .send("stop")
            .and_then(|_| process.wait_for(Instant::now() + grace, process::is_bestmove));
        if let Err(error) = answered {
            self.discard(error);
        }
    }

    /// Starts the engine pondering, if it ponders and named a reply that is legal after the
    /// game so far (`position` after `opening` then `moves`): the reply is sent as played,
    /// with `go ponder` and the clocks as they are.
    pub fn start_pondering(
        &mut self,
        position: &Position,
        opening: &Opening,
        moves: &[String],
        game_rules: &GameRules,
        clocks: &Clocks,
    ) {
        let Some(reply) = self.expected.take().filter(|_| self.ponder) else {
            return;
        };
        // Only a legal reply after which the engine has a move is worth pondering on; it is
        // kept as this arbiter writes it, to compare with the reply played.
        let reply = reply.parse::<Move>().ok().filter(|&mv| {
            let mut after = *position;
            after.play(mv).is_ok() && after.legal_moves().into_iter().next().is_some()
        });
        let (Some(reply), Some(process)) = (reply, self.process.as_mut()) else {
            return;
        };
        let reply = reply.to_string();
        let mut pondered = moves.to_vec();
        pondered.push(reply.clone());
        let ugi = self.protocol == "ugi";
        let go = go_command(game_rules.time_control, clocks.left, ugi, Search::Ponder);
        let sent = process
            .send(&position_command(opening, &pondered))
            .and_then(|_| process.send(&go));
        match sent {
            Ok(()) => self.pondering = Some(reply),
            Err(error) => self.discard(error),
        }
    }

    /// Ends a ponder search, if one runs, by `stop` (its answer is not a move); an engine
    /// that does not answer within the grace is killed.
    fn stop_pondering(&mut self, deadlines: &Deadlines) {
        if self.pondering.take().is_some() {
            self.halt(ponder_grace(deadlines));
        }
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn shut_down(&mut self) {
        if let Some(process) = self.process.take() {
            process.shut_down(Duration::from_millis(500));
        }
    }
}

/// How long a pondering engine may take to answer `stop`.
fn ponder_grace(deadlines: &Deadlines) -> Duration {
    deadlines.time_margin.max(Duration::from_secs(2))
}

fn failure(error: ReadError) -> Termination {
    match error {
        ReadError::Timeout | ReadError::Interrupted => Termination::Stall,
        ReadError::Closed => Termination::Crash,
    }
}

/// The `position` command for a game so far: `opening`, then `moves`.
pub fn position_command(opening: &Opening, moves: &[String]) -> String {
    let mut command = match &opening.fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    if !moves.is_empty() {
        command += " moves ";
        command += &moves.join(" ");
    }
    command
}

/// Whether a `go` asks for a move or for pondering on the opponent's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    Move,
    Ponder,
}

/// The `go` command, with both clocks in the protocol's own names.
fn go_command(
    time_control: TimeControl,
    clocks: [Duration; 2],
    ugi: bool,
    search: Search,
) -> String {
    let go = match search {
        Search::Move => "go",
        Search::Ponder => "go ponder",
    };
    match time_control {
        TimeControl::Clock { increment, .. } => {
            let (black, white, binc, winc) = if ugi {
                ("p1time", "p2time", "p1inc", "p2inc")
            } else {
                ("btime", "wtime", "binc", "winc")
            };
            let inc = increment.as_millis();
            format!(
                "{go} {black} {} {white} {} {binc} {inc} {winc} {inc}",
                clocks[0].as_millis(),
                clocks[1].as_millis()
            )
        }
        // The protocol's least move time is 1 ms.
        TimeControl::MoveTime(time) => format!("{go} movetime {}", time.as_millis().max(1)),
        TimeControl::Depth(depth) => format!("{go} depth {depth}"),
        TimeControl::Nodes(nodes) => format!("{go} nodes {nodes}"),
    }
}

/// Plays one game, Black in `seats[0]` and White in `seats[1]`, showing `on_move` each engine
/// move as it is played, with how long it took and the clocks after it. `None` if `stop` was
/// set first.
pub fn play(
    id: usize,
    seats: [&mut Seat; 2],
    opening: &Opening,
    game_rules: &GameRules,
    stop: &AtomicBool,
    on_move: &mut dyn FnMut(Move, Duration, &Clocks),
) -> Option<GameRecord> {
    let deadlines = &game_rules.deadlines;
    let rules = game_rules.rules;
    let mut position = match &opening.fen {
        Some(fen) => Position::from_fen(fen, rules.opening, rules.capture).ok()?,
        None => Position::start(rules).ok()?,
    };
    let start = position.fen();
    let mut moves: Vec<String> = Vec::new();
    for &mv in &opening.moves {
        position.play(mv).ok()?;
        moves.push(mv.to_string());
    }
    let [black, white] = seats;
    let setup = GameSetup {
        id,
        players: [black.launch.name.clone(), white.launch.name.clone()],
        rules,
        start,
        opening_plies: opening.moves.len(),
    };
    let mut seats = [black, white];
    for (index, color) in [(0, Color::Black), (1, Color::White)] {
        if let Err(termination) = seats[index].ready(deadlines) {
            // A handshake cut short by the user or the tournament's end is no one's fault.
            if stop.load(Ordering::SeqCst) || seats[index].launch.cancel.is_cancelled() {
                return None;
            }
            let detail = failure_detail(&termination, seats[index]);
            let lost = GameRecord::new(&setup, color.opponent(), termination, moves, Vec::new());
            return Some(GameRecord { detail, ..lost });
        }
    }
    let mut clocks = Clocks::new(game_rules.time_control);
    let mut times = Vec::new();
    let mut verdicts = Vec::new();
    let record = loop {
        if let Some(winner) = position.winner() {
            let won = GameRecord::new(&setup, winner, Termination::Normal, moves, times);
            break Some(GameRecord {
                move_verdicts: verdicts,
                ..won
            });
        }
        let side = position.side_to_move();
        let seat = &mut *seats[side.index()];
        match ask(
            seat,
            &position,
            opening,
            &moves,
            game_rules,
            &mut clocks,
            stop,
        ) {
            Asked::Move(mv, took, verdict) => {
                times.push(took.as_millis() as u64);
                verdicts.push(verdict);
                position.play_unchecked(mv);
                moves.push(mv.to_string());
                on_move(mv, took, &clocks);
                seat.start_pondering(&position, opening, &moves, game_rules, &clocks);
            }
            Asked::Lost(termination, took) => {
                if let Some(took) = took {
                    // The losing move's time is kept; it was no move, so it has no verdict.
                    times.push(took.as_millis() as u64);
                    verdicts.push(None);
                }
                let detail = failure_detail(&termination, seat);
                let lost = GameRecord::new(&setup, side.opponent(), termination, moves, times);
                break Some(GameRecord {
                    detail,
                    move_verdicts: verdicts,
                    ..lost
                });
            }
            Asked::Stopped => break None,
        }
    };
    // An engine pondering on a reply that never came stops before the next game.
    for seat in seats.iter_mut() {
        seat.stop_pondering(deadlines);
    }
    record
}

/// What a crashed or stalled engine's seat knows of its end, for the record.
fn failure_detail(termination: &Termination, seat: &Seat) -> Option<String> {
    match termination {
        Termination::Crash | Termination::Stall => seat.failure().map(str::to_string),
        _ => None,
    }
}

/// Both players' clocks, Black's first (unused without a clock time control).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The time left.
    pub left: [Duration; 2],
    increment: Duration,
}

impl Clocks {
    /// Full clocks for `time_control`.
    pub fn new(time_control: TimeControl) -> Clocks {
        let (base, increment) = match time_control {
            TimeControl::Clock { base, increment } => (base, increment),
            _ => (Duration::ZERO, Duration::ZERO),
        };
        Clocks {
            left: [base, base],
            increment,
        }
    }
}

/// What came of asking an engine for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// A legal move, how long it took, and the engine's verdict on it (its best line's last
    /// score and depth), when it gave one.
    Move(Move, Duration, Option<Verdict>),
    /// The engine lost by this (and took this long, when it answered at all).
    Lost(Termination, Option<Duration>),
    /// The tournament is stopping.
    Stopped,
}

/// Asks the engine in `seat` for its move in `position` (the game so far being `opening`
/// then `moves`), under `game_rules`' time control and deadlines; `clocks` are charged. The
/// move is checked: whatever the engine does, the answer is a legal move or a lost game.
pub fn ask(
    seat: &mut Seat,
    position: &Position,
    opening: &Opening,
    moves: &[String],
    game_rules: &GameRules,
    clocks: &mut Clocks,
    stop: &AtomicBool,
) -> Asked {
    let deadlines = &game_rules.deadlines;
    let index = position.side_to_move().index();
    let ugi = seat.protocol == "ugi";
    // A pondering engine whose expected reply was played goes on with `ponderhit`, its clock
    // running from then; on another reply its ponder search is stopped first.
    let hit = seat.pondering.is_some() && seat.pondering.as_ref() == moves.last();
    if hit {
        seat.pondering = None;
    } else {
        seat.stop_pondering(deadlines);
    }
    let Some(process) = seat.process.as_mut() else {
        return Asked::Lost(Termination::Crash, None);
    };
    let sent = if hit {
        process.send("ponderhit")
    } else {
        let go = go_command(game_rules.time_control, clocks.left, ugi, Search::Move);
        process
            .send(&position_command(opening, moves))
            .and_then(|_| process.send(&go))
    };
    let asked_at = Instant::now();
    let (allowance, silence) = match game_rules.time_control {
        TimeControl::Clock { .. } => (clocks.left[index] + deadlines.time_margin, None),
        TimeControl::MoveTime(time) => (time + deadlines.time_margin, None),
        TimeControl::Depth(_) | TimeControl::Nodes(_) => (deadlines.stall, Some(deadlines.stall)),
    };
    let listener = &mut seat.listener;
    let hurry = seat.hurry.as_deref();
    let mut reader = VerdictReader::default();
    let answer = sent.and_then(|_| {
        wait_for_bestmove(
            process,
            asked_at + allowance,
            silence,
            stop,
            hurry,
            &mut |line| {
                reader.hear(line);
                if let Some(listener) = listener.as_mut() {
                    listener(line);
                }
            },
        )
    });
    let (line, at) = match answer {
        Ok(answer) => answer,
        Err(ReadError::Interrupted) => return Asked::Stopped,
        Err(_) if stop.load(Ordering::SeqCst) => return Asked::Stopped,
        Err(error) => {
            seat.discard(error);
            let termination = match (error, game_rules.time_control) {
                (ReadError::Closed | ReadError::Interrupted, _) => Termination::Crash,
                (ReadError::Timeout, TimeControl::Clock { .. } | TimeControl::MoveTime(_)) => {
                    Termination::TimeForfeit
                }
                (ReadError::Timeout, _) => Termination::Stall,
            };
            return Asked::Lost(termination, None);
        }
    };
    let elapsed = at.saturating_duration_since(asked_at);
    if let TimeControl::Clock { .. } = game_rules.time_control {
        if elapsed > clocks.left[index] + deadlines.time_margin {
            seat.discard(ReadError::Timeout);
            return Asked::Lost(Termination::TimeForfeit, Some(elapsed));
        }
        clocks.left[index] = clocks.left[index].saturating_sub(elapsed) + clocks.increment;
    }
    let best = BestMove::parse(&line);
    seat.expected = best.as_ref().and_then(|best| best.ponder.clone());
    let text = best.map_or(String::new(), |best| best.mv);
    let legal = text.parse::<Move>().ok().filter(|&mv| {
        let mut after = *position;
        after.play(mv).is_ok()
    });
    match legal {
        Some(mv) => Asked::Move(mv, elapsed, reader.verdict()),
        None => {
            let shown: String = if text.is_empty() {
                "(none)".to_string()
            } else {
                text.chars().take(40).collect()
            };
            Asked::Lost(Termination::IllegalMove(shown), Some(elapsed))
        }
    }
}

/// Reads until a `bestmove` line by `deadline`, checking `stop` every 50 ms and showing
/// `hear` the other lines. With `silence`, every line moves the deadline to that long
/// after it: only an engine that stops talking runs out. Once `hurry` is set, the engine is
/// sent `stop`, once.
fn wait_for_bestmove(
    process: &mut EngineProcess,
    mut deadline: Instant,
    silence: Option<Duration>,
    stop: &AtomicBool,
    hurry: Option<&AtomicBool>,
    hear: &mut dyn FnMut(&str),
) -> Result<(String, Instant), ReadError> {
    let mut hurried = false;
    loop {
        if stop.load(Ordering::SeqCst) {
            return Err(ReadError::Timeout);
        }
        if !hurried && hurry.is_some_and(|flag| flag.swap(false, Ordering::SeqCst)) {
            hurried = true;
            process.send("stop")?;
        }
        let slice = deadline.min(Instant::now() + Duration::from_millis(50));
        match process.wait_for(slice, |line| {
            if let Some(silence) = silence {
                deadline = deadline.max(Instant::now() + silence);
            }
            let bestmove = process::is_bestmove(line);
            if !bestmove {
                hear(line);
            }
            bestmove
        }) {
            Err(ReadError::Timeout) if Instant::now() < deadline => continue,
            other => return other,
        }
    }
}
