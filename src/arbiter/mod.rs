//! The tournament arbiter: schedules colour-swapped game pairs between engine processes,
//! plays them on worker threads, and writes every finished game at once.

pub mod game;
pub mod log;
pub mod process;
pub mod stats;

use crate::board::splitmix64;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crossbeam_channel::unbounded;
use game::{GameRecord, GameRules, Opening, Seat};
use log::Log;
use process::Launch;
use stats::{Pairs, Sprt, Verdict};
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One engine of the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How to start it, and its name.
    pub launch: Launch,
    /// `uci` or `ugi`.
    pub protocol: String,
    /// Options to set after the handshake.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Reads `cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]... [proto=uci|ugi]`.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let (mut command, mut name, mut args, mut options, mut protocol) =
            (None, None, Vec::new(), Vec::new(), "uci".to_string());
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--engine: expected key=value, not '{word}'"))?;
            match key {
                "cmd" => command = Some(value.to_string()),
                "name" => name = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                "proto" if value == "uci" || value == "ugi" => protocol = value.to_string(),
                "proto" => {
                    return Err(format!("--engine: proto must be uci or ugi, not '{value}'"));
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "--engine: unknown key '{key}' (cmd, name, arg, option.NAME, proto)"
                        ));
                    }
                },
            }
        }
        let command = command.ok_or("--engine: cmd=PATH is missing")?;
        let name = name.unwrap_or_else(|| {
            Path::new(&command)
                .file_name()
                .map_or(command.clone(), |n| n.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            launch: Launch {
                command,
                args,
                name,
            },
            protocol,
            options,
        })
    }
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Every engine plays every other.
    RoundRobin,
    /// The first engine plays every other one.
    Gauntlet,
}

/// Where the games' openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Every pair starts from the start position.
    Start,
    /// Pair `k` uses line `k` (cycling) of an openings file.
    List(Vec<Opening>),
    /// Pair `k` starts with this many random legal plies, drawn from the seed and `k`.
    RandomPlies(usize),
}

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
    /// `--log`.
    pub log: Log,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Job {
    id: usize,
    pairing: usize,
    pair: usize,
    swapped: bool,
}

/// The schedule: pairings and games, interleaved so that a stopped tournament is balanced.
struct Schedule {
    pairings: Vec<(usize, usize)>,
    pairs_per_pairing: usize,
}

impl Schedule {
    fn new(engines: usize, format: Format, games: usize) -> Schedule {
        let pairings = match format {
            _ if engines == 2 => vec![(0, 1)],
            Format::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
            Format::RoundRobin => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
                .collect(),
        };
        Schedule {
            pairings,
            pairs_per_pairing: games.div_ceil(2).max(1),
        }
    }

    fn total(&self) -> usize {
        self.pairings.len() * self.pairs_per_pairing * 2
    }

    /// Game `id` (from 1).
    fn job(&self, id: usize) -> Job {
        let index = id - 1;
        let swapped = index % 2 == 1;
        let slot = index / 2;
        Job {
            id,
            pairing: slot % self.pairings.len(),
            pair: slot / self.pairings.len(),
            swapped,
        }
    }

    /// Black's and White's engine indices.
    fn colours(&self, job: Job) -> (usize, usize) {
        let (a, b) = self.pairings[job.pairing];
        if job.swapped { (b, a) } else { (a, b) }
    }
}

/// Reads an openings file (see protocol.md), checking each line under `rules`.
pub fn read_openings(path: &Path, rules: Rules) -> Result<Vec<Opening>, String> {
    let file = File::open(path).map_err(|e| format!("--openings {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("--openings {}: {e}", path.display()))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", path.display(), number + 1);
        let (fen, moves_text) = if text.contains('/') {
            match text.split_once(" moves") {
                Some((fen, moves)) => (Some(fen.trim().to_string()), moves),
                None => (Some(text.to_string()), ""),
            }
        } else {
            (None, text)
        };
        let mut position = match &fen {
            Some(fen) => {
                let position = Position::from_fen(fen, rules.opening, rules.capture)
                    .map_err(|e| format!("{at}: {e}"))?;
                let size = position.rules();
                if (size.width(), size.height()) != (rules.width(), rules.height()) {
                    return Err(format!(
                        "{at}: the position is {}x{}, the match is {}x{}",
                        size.width(),
                        size.height(),
                        rules.width(),
                        rules.height()
                    ));
                }
                position
            }
            None => Position::start(rules).map_err(|e| format!("{at}: {e}"))?,
        };
        let mut moves = Vec::new();
        for token in moves_text.split_whitespace() {
            let mv: Move = token
                .parse()
                .map_err(|e| format!("{at}: bad move '{token}': {e}"))?;
            position
                .play(mv)
                .map_err(|e| format!("{at}: illegal move {token}: {e}"))?;
            moves.push(mv);
        }
        if position.is_game_over() {
            return Err(format!("{at}: the game is already over after this opening"));
        }
        openings.push(Opening { fen, moves });
    }
    if openings.is_empty() {
        return Err(format!(
            "--openings {}: no openings in the file",
            path.display()
        ));
    }
    Ok(openings)
}

/// `plies` random legal plies from the start, drawn from `seed`; never a finished game.
fn random_opening(rules: Rules, plies: usize, seed: u64) -> Opening {
    let mut state = seed;
    for _attempt in 0..1000 {
        let mut position = Position::start(rules).expect("rules checked before the tournament");
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            state = splitmix64(state);
            let mv = legal[(state % legal.len() as u64) as usize];
            position.play_unchecked(mv);
            moves.push(mv);
        }
        if !position.is_game_over() {
            return Opening { fen: None, moves };
        }
    }
    Opening {
        fen: None,
        moves: Vec::new(),
    }
}

impl OpeningSource {
    fn for_pair(&self, rules: Rules, seed: u64, pair: usize) -> Opening {
        match self {
            OpeningSource::Start => Opening {
                fen: None,
                moves: Vec::new(),
            },
            OpeningSource::List(list) => list[pair % list.len()].clone(),
            OpeningSource::RandomPlies(plies) => {
                random_opening(rules, *plies, seed ^ splitmix64(pair as u64 + 1))
            }
        }
    }
}

/// The PGN text of one game. `Result` follows the PGN convention: `1-0` is a win for White.
pub fn pgn(record: &GameRecord, round: usize, event: &str) -> String {
    let result = match record.winner_color() {
        crate::Color::White => "1-0",
        crate::Color::Black => "0-1",
    };
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        text += &format!(
            "[{name} \"{}\"]\n",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        );
    };
    tag("Event", event);
    tag("Round", &round.to_string());
    tag("Black", &record.black);
    tag("White", &record.white);
    tag("Result", result);
    tag("Board", &record.board);
    tag("Opening", &record.opening_rule);
    tag("Capture", &record.capture);
    if standard_start(&record.board).as_deref() != Some(record.start.as_str()) {
        tag("FEN", &record.start);
    }
    tag("Termination", &record.termination);
    text.push('\n');
    let black_first = record.start.ends_with(" b");
    let mut line = String::new();
    for (i, mv) in record.moves.iter().enumerate() {
        let ply = if black_first { i } else { i + 1 };
        if ply % 2 == 0 {
            line += &format!("{}. ", ply / 2 + 1);
        } else if i == 0 {
            line += "1... ";
        }
        line += mv;
        line.push(' ');
    }
    line += result;
    // Wrap at 80 columns, as PGN readers expect.
    let mut width = 0;
    for word in line.split(' ') {
        if width > 0 && width + word.len() + 1 > 80 {
            text.push('\n');
            width = 0;
        } else if width > 0 {
            text.push(' ');
            width += 1;
        }
        text += word;
        width += word.len();
    }
    text += "\n\n";
    text
}

/// The start position string of a board written `WxH`.
fn standard_start(board: &str) -> Option<String> {
    let rules = Rules::default().with_size_text(board).ok()?;
    let any = Rules::new(
        rules.width().into(),
        rules.height().into(),
        crate::Opening::Any,
        rules.capture,
    )
    .ok()?;
    Position::start(any).ok().map(|position| position.fen())
}

/// Reads the games a results file already holds, for `--resume`. A torn last line (from an
/// interruption while writing) is skipped.
fn read_results(path: &Path) -> Result<Vec<GameRecord>, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("--results {}: {e}", path.display())),
    };
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--results {}: {e}", path.display()))?;
    let mut records = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(record) => records.push(record),
            Err(_) if i + 1 == lines.len() => {
                eprintln!("warning: skipping the torn last line of {}", path.display())
            }
            Err(e) => return Err(format!("--results {}:{}: {e}", path.display(), i + 1)),
        }
    }
    Ok(records)
}

fn append(path: &Option<PathBuf>, text: &str) -> Result<(), String> {
    if let Some(path) = path {
        let mut file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.write_all(text.as_bytes())
            .and_then(|_| file.sync_data())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The running totals of a tournament.
struct Standings {
    names: Vec<String>,
    wins: Vec<u64>,
    losses: Vec<u64>,
    /// Per pairing: the first game's points for the pairing's first engine, by pair.
    half_pairs: Vec<HashMap<usize, u8>>,
    pairs: Vec<Pairs>,
    terminations: BTreeMap<String, u64>,
}

impl Standings {
    fn new(names: Vec<String>, pairings: usize) -> Standings {
        let n = names.len();
        Standings {
            names,
            wins: vec![0; n],
            losses: vec![0; n],
            half_pairs: vec![HashMap::new(); pairings],
            pairs: vec![Pairs::default(); pairings],
            terminations: BTreeMap::new(),
        }
    }

    fn add(&mut self, schedule: &Schedule, record: &GameRecord) {
        let job = schedule.job(record.id);
        let (black, white) = schedule.colours(job);
        let (winner, loser) = if record.winner_color() == crate::Color::Black {
            (black, white)
        } else {
            (white, black)
        };
        self.wins[winner] += 1;
        self.losses[loser] += 1;
        *self
            .terminations
            .entry(
                record
                    .termination
                    .split(' ')
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" "),
            )
            .or_default() += 1;
        let first = schedule.pairings[job.pairing].0;
        let points = u8::from(winner == first);
        match self.half_pairs[job.pairing].remove(&job.pair) {
            Some(other) => self.pairs[job.pairing].add(points + other),
            None => {
                self.half_pairs[job.pairing].insert(job.pair, points);
            }
        }
    }

    fn table(&self, schedule: &Schedule, sprt: Option<&Sprt>) -> String {
        let mut text = String::new();
        text += &format!(
            "{:<24} {:>6} {:>6} {:>6} {:>7}\n",
            "engine", "games", "wins", "losses", "score"
        );
        for (i, name) in self.names.iter().enumerate() {
            let games = self.wins[i] + self.losses[i];
            let score = if games == 0 {
                0.0
            } else {
                100.0 * self.wins[i] as f64 / games as f64
            };
            text += &format!(
                "{:<24} {:>6} {:>6} {:>6} {:>6.1}%\n",
                name, games, self.wins[i], self.losses[i], score
            );
        }
        for (p, &(a, b)) in schedule.pairings.iter().enumerate() {
            let pairs = &self.pairs[p];
            text += &format!("{} vs {}: {}", self.names[a], self.names[b], pairs);
            match pairs.estimate() {
                Some(e) => {
                    text += &format!(
                        ", Elo {:+.1} +/- {:.1} (95%), LOS {:.1}%\n",
                        e.elo,
                        e.error,
                        100.0 * e.los
                    )
                }
                None => text += ", no complete pair yet\n",
            }
            if let Some(sprt) = sprt {
                let llr = pairs.llr(sprt);
                let (lower, upper) = sprt.bounds();
                let verdict = match sprt.verdict(llr) {
                    Verdict::H1 => "H1 accepted",
                    Verdict::H0 => "H0 accepted",
                    Verdict::Continue => "undecided",
                };
                text += &format!(
                    "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) {}\n",
                    sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, lower, upper, verdict
                );
            }
        }
        let terminations: Vec<String> = self
            .terminations
            .iter()
            .map(|(t, n)| format!("{t}: {n}"))
            .collect();
        text += &format!("terminations: {}\n", terminations.join(", "));
        text
    }
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

/// Runs the tournament, printing progress and the final table to stdout.
pub fn run(mut config: Config, interrupted: Arc<AtomicBool>) -> Result<Ending, String> {
    let mut seen = HashMap::new();
    for spec in &mut config.engines {
        let count = seen.entry(spec.launch.name.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            spec.launch.name = format!("{}-{}", spec.launch.name, count);
        }
    }
    let schedule = Schedule::new(config.engines.len(), config.format, config.games);
    let names: Vec<String> = config
        .engines
        .iter()
        .map(|e| e.launch.name.clone())
        .collect();
    let mut standings = Standings::new(names.clone(), schedule.pairings.len());
    let mut done = vec![false; schedule.total() + 1];
    if config.resume {
        let results = config
            .results
            .as_ref()
            .ok_or("--resume needs --results FILE")?;
        for record in read_results(results)? {
            let valid = record.id >= 1 && record.id <= schedule.total();
            let job = valid.then(|| schedule.job(record.id));
            let expected = job.map(|job| {
                let (black, white) = schedule.colours(job);
                (names[black].as_str(), names[white].as_str())
            });
            if expected != Some((record.black.as_str(), record.white.as_str())) || done[record.id] {
                return Err(format!(
                    "--resume: game {} in {} does not belong to this tournament (same engines, names and --games are needed)",
                    record.id,
                    results.display()
                ));
            }
            done[record.id] = true;
            standings.add(&schedule, &record);
        }
    } else if let Some(results) = &config.results
        && results.exists()
        && std::fs::metadata(results)
            .map(|m| m.len() > 0)
            .unwrap_or(false)
    {
        return Err(format!(
            "{} already holds results: pass --resume to continue, or another file",
            results.display()
        ));
    }
    let remaining: Vec<Job> = (1..=schedule.total())
        .filter(|&id| !done[id])
        .map(|id| schedule.job(id))
        .collect();
    let total = schedule.total();
    let mut finished = total - remaining.len();
    let (job_sender, jobs) = unbounded();
    for job in &remaining {
        job_sender.send(*job).expect("receiver alive");
    }
    drop(job_sender);
    let (result_sender, results) = unbounded();
    let stop = Arc::new(AtomicBool::new(false));
    let rules = config.game_rules.rules;
    let mut ending = Ending::Complete;
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..config.concurrency.max(1) {
            let (jobs, result_sender, stop) = (jobs.clone(), result_sender.clone(), stop.clone());
            let (engines, schedule, config) = (&config.engines, &schedule, &config);
            scope.spawn(move || {
                let mut seats: HashMap<usize, Seat> = HashMap::new();
                while let Ok(job) = jobs.recv() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let (black, white) = schedule.colours(job);
                    for index in [black, white] {
                        seats.entry(index).or_insert_with(|| {
                            let spec = &engines[index];
                            let mut options = vec![
                                ("Width".to_string(), rules.width().to_string()),
                                ("Height".to_string(), rules.height().to_string()),
                                ("Opening".to_string(), rules.opening.to_string()),
                                ("Capture".to_string(), rules.capture.to_string()),
                            ];
                            options.extend(spec.options.iter().cloned());
                            Seat::new(
                                spec.launch.clone(),
                                spec.protocol.clone(),
                                options,
                                config.log.clone(),
                            )
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
                    if result_sender.send(record).is_err() {
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
                Ok(None) => continue,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => continue,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            };
            let json = serde_json::to_string(&record).map_err(|e| e.to_string())?;
            if let Err(error) = append(&config.results, &(json + "\n"))
                .and_then(|_| append(&config.pgn, &pgn(&record, record.id, "konane-arbiter")))
            {
                stop.store(true, Ordering::SeqCst);
                return Err(error);
            }
            standings.add(&schedule, &record);
            finished += 1;
            let score = if record.winner_color() == crate::Color::Black {
                "1-0"
            } else {
                "0-1"
            };
            println!(
                "{finished}/{total}  {} vs {}  {score}  {}",
                record.black, record.white, record.termination
            );
            if let Some(sprt) = &config.sprt
                && sprt.verdict(standings.pairs[0].llr(sprt)) != Verdict::Continue
                && ending == Ending::Complete
            {
                ending = Ending::SprtDecided;
                stop.store(true, Ordering::SeqCst);
            }
        }
        Ok(())
    })?;
    if ending == Ending::Complete && finished < total {
        ending = Ending::Interrupted;
    }
    match ending {
        Ending::Interrupted => {
            println!("\nInterrupted after {finished} of {total} games; --resume continues.")
        }
        Ending::SprtDecided => println!("\nThe SPRT decided after {finished} games."),
        Ending::Complete => println!("\nFinished {finished} games."),
    }
    print!("{}", standings.table(&schedule, config.sprt.as_ref()));
    Ok(ending)
}
