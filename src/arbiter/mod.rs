//! The tournament arbiter: schedules colour-swapped game pairs between engine processes,
//! plays them on worker threads, and writes every finished game at once.

pub mod check;
pub mod command;
pub mod game;
pub mod log;
pub mod merge;
pub mod openings;
pub mod options;
pub mod pgn;
pub mod play;
pub mod preflight;
pub mod process;
pub mod results;
pub mod schedule;
pub mod spec;
pub mod standings;
pub mod stats;
pub mod tournament;
pub mod watchdog;

use crossbeam_channel::unbounded;
use game::{GameRecord, GameRules, Seat};
use log::Log;
use openings::OpeningSource;
use pgn::pgn;
use results::{append, read_results};
use schedule::{Format, Job, Schedule};
use spec::EngineSpec;
use standings::Standings;
use stats::{Sprt, Verdict};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tournament::{Shard, TournamentId};

/// Everything a tournament needs.
pub struct Config {
    /// The engines; names are made unique.
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
    /// `--pgn`.
    pub pgn: Option<PathBuf>,
    /// `--results`.
    pub results: Option<PathBuf>,
    /// `--resume`.
    pub resume: bool,
    /// `--sprt`.
    pub sprt: Option<Sprt>,
    /// `--shard`: play only this slice of the game pairs.
    pub shard: Option<Shard>,
    /// `--log`.
    pub log: Log,
    /// Draw the final board of the last game played (the demo does).
    pub show_last_board: bool,
}

/// How a tournament ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every scheduled game was played.
    Complete,
    /// The SPRT decided.
    SprtDecided,
    /// Interrupted (Ctrl-C or SIGTERM); `--resume` continues it.
    Interrupted,
}

/// A finished game in words that read one way: both engines with their colours, then the
/// winner by name and colour, then how the game ended.
pub fn progress_line(record: &game::GameRecord) -> String {
    let (winner, colour) = match record.winner_color() {
        crate::Color::Black => (&record.black, "Black"),
        crate::Color::White => (&record.white, "White"),
    };
    let mut line = format!(
        "{} (Black) vs {} (White): {winner} wins as {colour}, {}",
        record.black, record.white, record.termination
    );
    if let Some(detail) = &record.detail {
        // The whole text is in the results and the PGN; a progress line stays readable.
        let short: String = detail.chars().take(160).collect();
        let cut = if short.len() < detail.len() {
            "..."
        } else {
            ""
        };
        line += &format!(" ({short}{cut})");
    }
    line
}

/// The last position of a recorded game, drawn, with its position string.
pub fn final_board(record: &game::GameRecord) -> Option<String> {
    let opening = record.opening_rule.parse().ok()?;
    let capture = record.capture.parse().ok()?;
    let mut position = crate::Position::from_fen(&record.start, opening, capture).ok()?;
    for text in &record.moves {
        position.play(text.parse().ok()?).ok()?;
    }
    Some(format!("{}{}", position.pretty(), position.fen()))
}

/// Why a tournament could not run or go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// Nothing was played: the configuration, the results file or an engine is unusable.
    Setup(String),
    /// A finished game could not be written; the tournament stopped there.
    Output(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Setup(text) | RunError::Output(text) => f.write_str(text),
        }
    }
}

/// Reads the games of `config`'s results file into `standings` and `done`, after checking
/// that each belongs to this tournament (and shard), and repairs what an interruption while
/// writing may have left in the results and the PGN.
fn resume(
    config: &Config,
    schedule: &Schedule,
    identity: &TournamentId,
    standings: &mut Standings,
    done: &mut [bool],
) -> Result<(), RunError> {
    let results = config
        .results
        .as_ref()
        .ok_or(RunError::Setup("--resume needs --results FILE".into()))?;
    if let Some(warning) = results::repair(results).map_err(RunError::Setup)? {
        eprintln!("warning: {warning}");
    }
    let records = read_results(results).map_err(RunError::Setup)?;
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
                "--resume: game {} in {} does not belong to this tournament (the same engines, names, options, --games, --seed, openings, rules and time control are needed)",
                record.id,
                results.display()
            )));
        }
        if record.shard != config.shard {
            let name = |shard: Option<Shard>| {
                shard.map_or("no shard".to_string(), |s| format!("shard {s}"))
            };
            return Err(RunError::Setup(format!(
                "--resume: game {} in {} was played by {}, and this run is {}",
                record.id,
                results.display(),
                name(record.shard),
                name(config.shard)
            )));
        }
        done[record.id] = true;
        standings.add(schedule, record);
    }
    // The PGN is written after the results: it may lack the last games, or end torn.
    if let Some(pgn_path) = &config.pgn
        && let Some(warning) = pgn::reconcile(pgn_path, &records).map_err(RunError::Setup)?
    {
        eprintln!("warning: {warning}");
    }
    Ok(())
}

/// True when the tournament has an SPRT and it has accepted a hypothesis.
fn sprt_decided(sprt: Option<&Sprt>, standings: &Standings) -> bool {
    sprt.is_some_and(|sprt| sprt.verdict(standings.pairs[0].llr(sprt)) != Verdict::Continue)
}

/// Runs the tournament, printing progress and the final table to stdout.
pub fn run(mut config: Config, interrupted: Arc<AtomicBool>) -> Result<Ending, RunError> {
    spec::make_names_unique(&mut config.engines);
    let schedule = Schedule::new(config.engines.len(), config.format, config.games);
    let names: Vec<String> = config
        .engines
        .iter()
        .map(|e| e.launch.name.clone())
        .collect();
    let mut standings = Standings::new(names.clone(), schedule.pairings.len());
    let identity = TournamentId::of(&config);
    if config.shard.is_some() && config.sprt.is_some() {
        crate::say!(
            "This shard plays its whole slice: the SPRT is for `konane-arbiter merge` to apply to all shards together."
        );
    }
    let mut done = vec![false; schedule.total() + 1];
    if config.resume {
        resume(&config, &schedule, &identity, &mut standings, &mut done)?;
    } else if let Some(results) = &config.results
        && results.exists()
        && std::fs::metadata(results)
            .map(|m| m.len() > 0)
            .unwrap_or(false)
    {
        return Err(RunError::Setup(format!(
            "{} already holds results: pass --resume to continue, or another file",
            results.display()
        )));
    }
    let pairs = schedule.total() / (2 * schedule.pairings.len().max(1));
    config
        .openings
        .check(config.game_rules.rules, config.seed, pairs)
        .map_err(RunError::Setup)?;
    // Both output files must take writing before any game, or one file gets a game the other
    // never does.
    for (flag, path) in [("--results", &config.results), ("--pgn", &config.pgn)] {
        if let Some(path) = path {
            results::check_writable(path)
                .map_err(|why| RunError::Setup(format!("{flag} {why}")))?;
        }
    }
    // A shard never stops for the SPRT: it sees only its slice.
    let sprt = config.sprt.filter(|_| config.shard.is_none());
    // A resumed run whose SPRT had already decided plays nothing more.
    let decided = sprt_decided(sprt.as_ref(), &standings);
    let mine = |id: &usize| config.shard.is_none_or(|shard| shard.has(*id));
    let remaining: Vec<Job> = (1..=schedule.total())
        .filter(mine)
        .filter(|&id| !done[id] && !decided)
        .map(|id| schedule.job(id))
        .collect();
    let total = (1..=schedule.total()).filter(mine).count();
    let mut finished = total - remaining.len();
    if !remaining.is_empty() {
        let checked = preflight::check_engines(
            &config.engines,
            config.game_rules.rules,
            &config.game_rules.deadlines,
            &config.log,
        );
        if process::interrupted() {
            crate::say!("Interrupted before the first game; --resume continues.");
            return Ok(Ending::Interrupted);
        }
        checked.map_err(RunError::Setup)?;
    }
    let (job_sender, jobs) = unbounded();
    for job in &remaining {
        job_sender.send(*job).expect("receiver alive");
    }
    drop(job_sender);
    let (result_sender, results) = unbounded();
    // `stop` abandons the games in progress (Ctrl-C, an output error); `no_more` only keeps
    // new games from starting (a decided SPRT), so that the games in progress are finished.
    let stop = Arc::new(AtomicBool::new(false));
    let no_more = Arc::new(AtomicBool::new(false));
    let (mut abandoned, mut finished_after_verdict) = (0, 0);
    let rules = config.game_rules.rules;
    let mut ending = if decided {
        Ending::SprtDecided
    } else {
        Ending::Complete
    };
    let mut last_record = None;
    std::thread::scope(|scope| -> Result<(), RunError> {
        for _ in 0..config.concurrency.max(1) {
            let (jobs, result_sender) = (jobs.clone(), result_sender.clone());
            let (stop, no_more) = (stop.clone(), no_more.clone());
            let (engines, schedule, config) = (&config.engines, &schedule, &config);
            scope.spawn(move || {
                let mut seats: HashMap<usize, Seat> = HashMap::new();
                while let Ok(job) = jobs.recv() {
                    // Ctrl-C is seen here at once (`stop` follows within 50 ms): a game begun
                    // meanwhile would end at once and be counted as abandoned.
                    let stopping = stop.load(Ordering::SeqCst) || process::interrupted();
                    if stopping || no_more.load(Ordering::SeqCst) {
                        break;
                    }
                    let (black, white) = schedule.colours(job);
                    for index in [black, white] {
                        seats.entry(index).or_insert_with(|| {
                            Seat::new(&engines[index], rules, config.log.clone())
                        });
                    }
                    let opening = config.openings.for_pair(rules, config.seed, job.pair);
                    let mut black_seat = seats.remove(&black).expect("inserted above");
                    let white_seat = seats.get_mut(&white).expect("inserted above");
                    let record = game::play(
                        job.id,
                        [&mut black_seat, white_seat],
                        &opening,
                        &config.game_rules,
                        &stop,
                    );
                    seats.insert(black, black_seat);
                    // A game that did not end was stopped: this worker takes no more.
                    let stopped = record.is_none();
                    if result_sender.send(record).is_err() || stopped {
                        break;
                    }
                }
                for seat in seats.values_mut() {
                    seat.shut_down();
                }
            });
        }
        drop(result_sender);
        loop {
            if interrupted.load(Ordering::SeqCst) {
                stop.store(true, Ordering::SeqCst);
                ending = Ending::Interrupted;
            }
            let record = match results.recv_timeout(std::time::Duration::from_millis(50)) {
                Ok(Some(record)) => record,
                Ok(None) => {
                    abandoned += 1;
                    continue;
                }
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => continue,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            };
            let record = GameRecord {
                tournament: Some(identity.clone()),
                shard: config.shard,
                ..record
            };
            let json =
                serde_json::to_string(&record).map_err(|e| RunError::Output(e.to_string()))?;
            if let Err(error) = append(&config.results, &(json + "\n"))
                .and_then(|_| append(&config.pgn, &pgn(&record, record.id, pgn::EVENT)))
            {
                stop.store(true, Ordering::SeqCst);
                return Err(RunError::Output(error));
            }
            standings.add(&schedule, &record);
            finished += 1;
            last_record = Some(record.clone());
            crate::say!("{finished}/{total}  {}", progress_line(&record));
            if ending == Ending::SprtDecided {
                finished_after_verdict += 1;
            } else if sprt_decided(sprt.as_ref(), &standings) && ending == Ending::Complete {
                ending = Ending::SprtDecided;
                no_more.store(true, Ordering::SeqCst);
            }
        }
        Ok(())
    })?;
    if ending == Ending::Complete && finished < total {
        ending = Ending::Interrupted;
    }
    match ending {
        Ending::Interrupted => {
            crate::say!("\nInterrupted after {finished} of {total} games; --resume continues.");
            if abandoned > 0 {
                crate::say!(
                    "{abandoned} games in progress were abandoned, not recorded: --resume plays them again."
                );
            }
        }
        Ending::SprtDecided => {
            let decided_at = finished - finished_after_verdict;
            crate::say!("\nThe SPRT decided after {decided_at} games.");
            if finished_after_verdict > 0 {
                crate::say!(
                    "The {finished_after_verdict} games then in progress were finished; they are recorded and counted below."
                );
            }
        }
        Ending::Complete => crate::say!("\nFinished {finished} games."),
    }
    crate::say_on!("{}", standings.table(&schedule, config.sprt.as_ref()));
    if config.show_last_board
        && let Some(record) = last_record
        && let Some(board) = final_board(&record)
    {
        crate::say!("\nThe final position of game {}:", record.id);
        crate::say!("{}\n{}", progress_line(&record), board);
    }
    Ok(ending)
}
