//! The tournament arbiter: schedules colour-swapped game pairs between engine processes,
//! plays them on worker threads, and writes every finished game at once. [`run`] is the whole
//! tournament as a library call: it reports to a [`Reporter`], never prints,
//! and returns the games it recorded.

pub mod check;
pub mod events;
pub mod game;
pub mod log;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod pgn_tree;
pub mod play;
pub mod preflight;
pub mod process;
pub mod record;
pub mod results;
pub mod schedule;
pub mod spec;
pub(crate) mod standings;
pub use standings::Standings;
pub mod stats;
pub mod time_control;
pub mod tournament;
pub mod verdict;
pub mod watchdog;

use crate::rules::RulesError;
use crate::rules::moves::Move;
use crate::rules::square::Color;
use crossbeam_channel::{Receiver, Sender, unbounded};
use events::{Event, GameStart, Notice, Progress, Reporter};
use game::{GameRules, Seat};
use log::Log;
use openings::OpeningSource;
use process::Cancel;
use record::GameRecord;
use results::read_results;
use schedule::{Format, Job, Schedule};
use spec::EngineSpec;
use stats::{Sprt, Verdict};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use time_control::TimeControl;
use tournament::{Shard, TournamentId};

/// Everything a tournament needs.
pub struct Config {
    /// The engines; their names must not be empty, and a repeated name gets a number
    /// (`a`, `a-2`, ...).
    pub engines: Vec<EngineSpec>,
    /// How engines are paired (ignored for two engines).
    pub format: Format,
    /// Games per pairing (rounded up to whole pairs).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed for random openings.
    pub seed: u64,
    /// Board, rules, time control, deadlines.
    pub game_rules: GameRules,
    /// Openings.
    pub openings: OpeningSource,
    /// A PGN file each finished game is appended to.
    pub pgn: Option<PathBuf>,
    /// A results file each finished game is appended to, one JSON line a game.
    pub results: Option<PathBuf>,
    /// Continue the tournament recorded in `results`, replaying no finished game.
    pub resume: bool,
    /// Stop when this sequential probability ratio test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Play only this slice of the game pairs.
    pub shard: Option<Shard>,
    /// Where every line to and from every engine is logged.
    pub log: Log,
    /// How long each worker waits between two of its games (cutechess-cli's `-wait`), so that
    /// a viewer sees how a game ended.
    pub wait: Duration,
    /// Report every line engines send while they search as [`Event::EngineOutput`].
    pub engine_output: bool,
}

/// How a tournament ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every scheduled game was played.
    Complete,
    /// The SPRT decided.
    SprtDecided,
    /// Stopped by its cancellation flag (Ctrl-C); `resume` continues it.
    Interrupted,
}

/// What a tournament did: how it ended, its games and its standings.
pub struct Summary {
    /// How it ended.
    pub ending: Ending,
    /// The games this run recorded, in the order they finished (resumed games are not here:
    /// they are in the results file, and counted in `standings`).
    pub records: Vec<GameRecord>,
    /// The standings over every recorded game, resumed ones included.
    pub standings: Standings,
    /// The tournament's schedule.
    pub schedule: Schedule,
    /// Games recorded, resumed ones included.
    pub finished: usize,
    /// Games this run (or shard) plays in all.
    pub total: usize,
    /// Games this run began (finished or not).
    pub started: usize,
    /// Games in progress when the run was stopped: not recorded, played again on resume.
    pub abandoned: usize,
    /// Games finished after the SPRT decided (they were in progress then).
    pub after_verdict: usize,
}

/// Why a tournament could not run or go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// Nothing was played: these rules cannot be played (a traditional opening on an odd side).
    Rules(RulesError),
    /// Nothing was played: the configuration, the results file or an engine is unusable.
    Setup(String),
    /// A finished game could not be written; the tournament stopped there.
    Output(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Rules(error) => write!(f, "{error}"),
            RunError::Setup(text) | RunError::Output(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for RunError {}

/// Reads the games of `config`'s results file into `standings` and `done`, after checking
/// that each belongs to this tournament (and shard), and repairs what an interruption while
/// writing may have left in the results and the PGN.
fn resume(
    config: &Config,
    schedule: &Schedule,
    identity: &TournamentId,
    standings: &mut Standings,
    done: &mut [bool],
    reporter: &mut dyn Reporter,
) -> Result<(), RunError> {
    let results = config
        .results
        .as_ref()
        .ok_or(RunError::Setup("resuming needs a results file".into()))?;
    if let Some(repaired) = results::repair(results).map_err(RunError::Setup)? {
        reporter.report(Event::Notice(Notice::Repaired(repaired)));
    }
    let records = read_results(results)
        .map_err(|e| RunError::Setup(format!("results file {e}")))?
        .records;
    for record in &records {
        let valid = record.id >= 1 && record.id <= schedule.total();
        let job = valid.then(|| schedule.job(record.id));
        let expected = job.map(|job| {
            let (black, white) = schedule.colours(job);
            (&identity.engines[black], &identity.engines[white])
        });
        let same_tournament = record.tournament.as_ref().is_none_or(|id| id == identity);
        if expected != Some((&record.black, &record.white)) || !same_tournament || done[record.id] {
            return Err(RunError::Setup(format!(
                "resuming: game {} in {} does not belong to this tournament (the same engines, names, options, number of games, seed, openings, rules and time control are needed)",
                record.id,
                results.display()
            )));
        }
        if record.shard != config.shard {
            let name = |shard: Option<Shard>| {
                shard.map_or("no shard".to_string(), |s| format!("shard {s}"))
            };
            return Err(RunError::Setup(format!(
                "resuming: game {} in {} was played by {}, and this run is {}",
                record.id,
                results.display(),
                name(record.shard),
                name(config.shard)
            )));
        }
        done[record.id] = true;
        standings.add(schedule, record);
    }
    // The PGN is written after the results: it may lack the last games, or end torn, or hold
    // games whose results line was torn.
    if let Some(pgn_path) = &config.pgn
        && let Some(repaired) = pgn::reconcile(pgn_path, &records).map_err(RunError::Setup)?
    {
        reporter.report(Event::Notice(Notice::Repaired(repaired)));
    }
    Ok(())
}

/// The SPRT's verdict on `standings`, if the tournament has one.
fn sprt_verdict(sprt: Option<&Sprt>, standings: &Standings) -> Verdict {
    sprt.map_or(Verdict::Continue, |sprt| {
        sprt.verdict(standings.pairs[0].llr(sprt))
    })
}

/// What a worker tells the tournament's thread.
enum FromWorker {
    Started(GameStart),
    Moved {
        id: usize,
        mv: Move,
        took: Duration,
        clocks: Option<[Duration; 2]>,
    },
    Output(usize, Color, String),
    /// A finished game, or `None` for one abandoned when the run stopped.
    Finished(Option<Box<GameRecord>>),
}

/// Checks what can be checked before any engine starts: the rules, the openings, and that both
/// output files take writing (or one file would get a game the other never does).
fn check_setup(config: &Config, pairs: usize) -> Result<(), RunError> {
    let rules = config.game_rules.rules;
    rules.check_opening().map_err(RunError::Rules)?;
    config
        .openings
        .check(rules, config.seed, pairs)
        .map_err(RunError::Setup)?;
    results::check_outputs(config.results.as_deref(), config.pgn.as_deref())
        .map_err(RunError::Setup)
}

/// Runs the tournament `config` describes until it ends or `cancel` is set (which also ends
/// every wait for its engines at once), reporting each event to `reporter` and writing each
/// finished game to the results and PGN files at once.
///
/// ```no_run
/// use konane::arbiter::events::Event;
/// use konane::arbiter::game::{Deadlines, GameRules};
/// use konane::arbiter::openings::OpeningSource;
/// use konane::arbiter::schedule::Format;
/// use konane::arbiter::spec::EngineSpec;
/// use konane::arbiter::time_control::TimeControl;
/// use konane::arbiter::process::Cancel;
/// use konane::arbiter::{Config, run};
/// use std::time::Duration;
///
/// let engine = |name: &str| EngineSpec::parse(&["cmd=konane-engine".into(), format!("name={name}")]);
/// let config = Config {
///     engines: vec![engine("a")?, engine("b")?],
///     format: Format::RoundRobin,
///     games: 2,
///     concurrency: 1,
///     seed: 1,
///     game_rules: GameRules {
///         rules: konane::Rules::default(),
///         time_control: TimeControl::parse_clock("1+0.01")?,
///         deadlines: Deadlines {
///             time_margin: Duration::from_millis(100),
///             stall: Duration::from_secs(60),
///             startup: Duration::from_secs(30),
///         },
///     },
///     openings: OpeningSource::RandomPlies(4),
///     pgn: None,
///     results: None,
///     resume: false,
///     sprt: None,
///     shard: None,
///     log: Default::default(),
///     wait: Duration::ZERO,
///     engine_output: false,
/// };
/// let summary = run(config, &Cancel::new(), &mut |event| {
///     if let Event::GameFinished { record, .. } = event {
///         println!("{} won game {}", record.winner_name(), record.id);
///     }
/// })?;
/// assert_eq!(summary.records.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(
    mut config: Config,
    cancel: &Cancel,
    reporter: &mut dyn Reporter,
) -> Result<Summary, RunError> {
    spec::check_names(&config.engines).map_err(RunError::Setup)?;
    for engine in &mut config.engines {
        engine.launch.cancel = cancel.clone();
    }
    spec::make_names_unique(&mut config.engines);
    let schedule = Schedule::new(config.engines.len(), config.format, config.games);
    let names: Vec<String> = config
        .engines
        .iter()
        .map(|e| e.launch.name.clone())
        .collect();
    let mut standings = Standings::new(names, schedule.pairings.len());
    let identity = TournamentId::of(&config);
    let pairs = schedule.total() / (2 * schedule.pairings.len().max(1));
    check_setup(&config, pairs)?;
    if config.shard.is_some() && config.sprt.is_some() {
        reporter.report(Event::Notice(Notice::ShardIgnoresSprt));
    }
    let mut done = vec![false; schedule.total() + 1];
    if config.resume {
        resume(
            &config,
            &schedule,
            &identity,
            &mut standings,
            &mut done,
            reporter,
        )?;
    } else if let Some(results) = &config.results
        && std::fs::metadata(results).is_ok_and(|m| m.len() > 0)
    {
        return Err(RunError::Setup(format!(
            "results file {} already holds games: resume the tournament to continue it, or give another file",
            results.display()
        )));
    }
    // A shard never stops for the SPRT: it sees only its slice.
    let sprt = config.sprt.filter(|_| config.shard.is_none());
    // A resumed run whose SPRT had already decided plays nothing more.
    let decided = sprt_verdict(sprt.as_ref(), &standings) != Verdict::Continue;
    let mine = |id: &usize| config.shard.is_none_or(|shard| shard.has(*id));
    let remaining: Vec<Job> = (1..=schedule.total())
        .filter(mine)
        .filter(|&id| !done[id] && !decided)
        .map(|id| schedule.job(id))
        .collect();
    let total = (1..=schedule.total()).filter(mine).count();
    let mut summary = Summary {
        ending: if decided {
            Ending::SprtDecided
        } else {
            Ending::Complete
        },
        records: Vec::new(),
        standings,
        finished: total - remaining.len(),
        total,
        started: 0,
        abandoned: 0,
        after_verdict: 0,
        schedule,
    };
    if !remaining.is_empty() {
        let checked = preflight::check_engines(
            &config.engines,
            config.game_rules.rules,
            &config.game_rules.deadlines,
            &config.log,
        );
        if cancel.is_cancelled() {
            summary.ending = Ending::Interrupted;
            return Ok(summary);
        }
        checked.map_err(RunError::Setup)?;
    }
    play_remaining(
        &config,
        &identity,
        sprt,
        remaining,
        cancel,
        reporter,
        &mut summary,
    )?;
    if summary.ending == Ending::Complete && summary.finished < summary.total {
        summary.ending = Ending::Interrupted;
    }
    Ok(summary)
}

/// Plays the `remaining` games on `config.concurrency` workers, recording each as it ends
/// into `summary`, until they are all played, the SPRT decides or `cancel` is set.
fn play_remaining(
    config: &Config,
    identity: &TournamentId,
    sprt: Option<Sprt>,
    remaining: Vec<Job>,
    cancel: &Cancel,
    reporter: &mut dyn Reporter,
    summary: &mut Summary,
) -> Result<(), RunError> {
    let (job_sender, jobs) = unbounded();
    for job in remaining {
        // The receiver is alive: it is `jobs`, just above.
        let _ = job_sender.send(job);
    }
    drop(job_sender);
    let (to_tournament, from_workers) = unbounded();
    // `stop` abandons the games in progress (Ctrl-C, an output error); `no_more` only keeps
    // new games from starting (a decided SPRT), so that the games in progress are finished.
    let stop = AtomicBool::new(false);
    let no_more = AtomicBool::new(false);
    std::thread::scope(|scope| -> Result<(), RunError> {
        for _ in 0..config.concurrency.max(1) {
            let (jobs, to_tournament) = (jobs.clone(), to_tournament.clone());
            let (stop, no_more, schedule) = (&stop, &no_more, &summary.schedule);
            let cancel = cancel.clone();
            scope.spawn(move || {
                worker(
                    config,
                    schedule,
                    &jobs,
                    &to_tournament,
                    [stop, no_more],
                    &cancel,
                )
            });
        }
        drop(to_tournament);
        loop {
            if cancel.is_cancelled() {
                stop.store(true, Ordering::SeqCst);
                summary.ending = Ending::Interrupted;
            }
            let message = match from_workers.recv_timeout(Duration::from_millis(50)) {
                Ok(message) => message,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => continue,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            };
            let record = match message {
                FromWorker::Started(start) => {
                    summary.started += 1;
                    reporter.report(Event::GameStarted(start));
                    continue;
                }
                FromWorker::Moved {
                    id,
                    mv,
                    took,
                    clocks,
                } => {
                    reporter.report(Event::Moved {
                        id,
                        mv,
                        took,
                        clocks,
                    });
                    continue;
                }
                FromWorker::Output(id, side, line) => {
                    reporter.report(Event::EngineOutput { id, side, line });
                    continue;
                }
                FromWorker::Finished(None) => {
                    summary.abandoned += 1;
                    continue;
                }
                FromWorker::Finished(Some(record)) => GameRecord {
                    tournament: Some(identity.clone()),
                    shard: config.shard,
                    ..*record
                },
            };
            if let Err(error) = results::write_game(
                config.results.as_deref(),
                config.pgn.as_deref(),
                &record,
                pgn::EVENT,
            ) {
                stop.store(true, Ordering::SeqCst);
                return Err(RunError::Output(error));
            }
            summary.standings.add(&summary.schedule, &record);
            summary.finished += 1;
            let progress = Progress {
                finished: summary.finished,
                total: summary.total,
            };
            summary.records.push(record.clone());
            reporter.report(Event::GameFinished {
                record: Box::new(record),
                progress,
            });
            if summary.ending == Ending::SprtDecided {
                summary.after_verdict += 1;
            } else if summary.ending == Ending::Complete {
                let verdict = sprt_verdict(sprt.as_ref(), &summary.standings);
                if verdict != Verdict::Continue {
                    summary.ending = Ending::SprtDecided;
                    no_more.store(true, Ordering::SeqCst);
                    reporter.report(Event::SprtDecided {
                        verdict,
                        games: summary.finished,
                    });
                }
            }
        }
        Ok(())
    })
}

/// One worker: takes games from `jobs` and plays them with its own engine processes (started
/// once, kept between games), telling the tournament's thread what happens.
fn worker(
    config: &Config,
    schedule: &Schedule,
    jobs: &Receiver<Job>,
    to_tournament: &Sender<FromWorker>,
    [stop, no_more]: [&AtomicBool; 2],
    cancel: &Cancel,
) {
    let rules = config.game_rules.rules;
    let mut seats: HashMap<usize, Seat> = HashMap::new();
    let mut first = true;
    while let Ok(job) = jobs.recv() {
        if !std::mem::take(&mut first) {
            pause(config.wait, [stop, no_more], cancel);
        }
        // Ctrl-C is seen here at once (`stop` follows within 50 ms): a game begun meanwhile
        // would end at once and be counted as abandoned.
        let stopping = stop.load(Ordering::SeqCst) || cancel.is_cancelled();
        if stopping || no_more.load(Ordering::SeqCst) {
            break;
        }
        let (black, white) = schedule.colours(job);
        for index in [black, white] {
            seats
                .entry(index)
                .or_insert_with(|| Seat::new(&config.engines[index], rules, config.log.clone()));
        }
        let opening = config.openings.for_pair(rules, config.seed, job.pair);
        let (Some(mut black_seat), Some(mut white_seat)) =
            (seats.remove(&black), seats.remove(&white))
        else {
            break; // both were inserted just above
        };
        let players = [
            black_seat.launch.name.clone(),
            white_seat.launch.name.clone(),
        ];
        let _ = to_tournament.send(FromWorker::Started(GameStart {
            id: job.id,
            players,
        }));
        if config.engine_output {
            for (seat, side) in [
                (&mut black_seat, Color::Black),
                (&mut white_seat, Color::White),
            ] {
                let (to_tournament, id) = (to_tournament.clone(), job.id);
                seat.listen(Box::new(move |line| {
                    let _ = to_tournament.send(FromWorker::Output(id, side, line.to_string()));
                }));
            }
        }
        let clocked = matches!(config.game_rules.time_control, TimeControl::Clock { .. });
        let record = game::play(
            job.id,
            [&mut black_seat, &mut white_seat],
            &opening,
            &config.game_rules,
            stop,
            &mut |mv, took, clocks| {
                let _ = to_tournament.send(FromWorker::Moved {
                    id: job.id,
                    mv,
                    took,
                    clocks: clocked.then_some(clocks.left),
                });
            },
        );
        seats.insert(black, black_seat);
        seats.insert(white, white_seat);
        // A game that did not end was stopped: this worker takes no more.
        let stopped = record.is_none();
        let finished = FromWorker::Finished(record.map(Box::new));
        if to_tournament.send(finished).is_err() || stopped {
            break;
        }
    }
    for seat in seats.values_mut() {
        seat.shut_down();
    }
}

/// Waits `wait` between two games of a worker, ending early when the tournament stops.
fn pause(wait: Duration, [stop, no_more]: [&AtomicBool; 2], cancel: &Cancel) {
    let until = std::time::Instant::now() + wait;
    while std::time::Instant::now() < until
        && !stop.load(Ordering::SeqCst)
        && !no_more.load(Ordering::SeqCst)
        && !cancel.is_cancelled()
    {
        std::thread::sleep(Duration::from_millis(20).min(wait));
    }
}
