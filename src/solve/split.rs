//! A long solve split into jobs that any machine can run, and joined back.
//!
//! `split` walks the tree a few plies below the root and writes each distinct position there
//! (symmetric images once) as a job into a folder's `split.txt`. Each job is an ordinary solve
//! of one position; `run` solves one and writes its result to `results/N.txt` (whole or not at
//! all, so a job killed half-way is simply run again). `join` proves the root from the results
//! by the same AND/OR rule as the solver, and names the jobs still missing that could decide
//! it; `run` skips a job whose result can no longer matter.

use super::keys::PositionKeys;
use super::report::solve_position;
use super::search::{Order, order_score};
use super::table::Key;
use super::{ProofTable, Searching};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::rules::{Capture, Opening};
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

/// The file of a split folder that lists the jobs.
const MANIFEST: &str = "split.txt";
/// The deepest split allowed: the number of jobs grows about tenfold a ply.
pub const MAX_DEPTH: u32 = 8;

/// What went wrong reading or running a split.
#[derive(Debug)]
pub enum SplitError {
    /// A file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// A line of `split.txt` is not what a split writes.
    BadManifest(PathBuf, usize, String),
    /// The job number is not one of the folder's.
    NoSuchJob(usize, usize),
    /// A result file holds no `result: win` or `result: loss` line.
    BadResult(PathBuf),
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::Io(path, error) => write!(f, "{}: {error}", path.display()),
            SplitError::BadManifest(path, line, why) => {
                write!(f, "{} line {line}: {why}", path.display())
            }
            SplitError::NoSuchJob(job, count) => {
                write!(f, "no job {job}: the split has jobs 1 to {count}")
            }
            SplitError::BadResult(path) => write!(
                f,
                "{} holds no 'result: win' or 'result: loss' line: delete it and run the job again",
                path.display()
            ),
        }
    }
}

impl std::error::Error for SplitError {}

/// The jobs `--run` names: `all`, or numbers and ranges separated by commas (`7`, `3-9`,
/// `1,4,10-12`), to be run in that order by one process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobList {
    /// Every job of the split, in the solver's order.
    All,
    /// These ranges of jobs (first, last), in this order.
    Listed(Vec<(usize, usize)>),
}

impl FromStr for JobList {
    type Err = String;

    fn from_str(text: &str) -> Result<JobList, String> {
        if text == "all" {
            return Ok(JobList::All);
        }
        let bad = || {
            format!(
                "bad job list '{text}': expected a job number, a range such as 3-9, several \
                 of these separated by commas, or all"
            )
        };
        let number = |part: &str| part.parse::<usize>().map_err(|_| bad());
        let mut ranges = Vec::new();
        for part in text.split(',') {
            let range = match part.split_once('-') {
                Some((first, last)) => (number(first)?, number(last)?),
                None => (number(part)?, number(part)?),
            };
            if range.0 > range.1 {
                return Err(bad());
            }
            ranges.push(range);
        }
        Ok(JobList::Listed(ranges))
    }
}

impl JobList {
    /// The job numbers of `split`, in order (all of them in the solver's order); a number
    /// that is not one of its jobs is an error.
    pub fn numbers(&self, split: &Split) -> Result<Vec<usize>, SplitError> {
        let count = split.jobs();
        let JobList::Listed(ranges) = self else {
            return Ok(split.search_order());
        };
        let outside = ranges
            .iter()
            .flat_map(|&(first, last)| [first, last])
            .find(|&job| job == 0 || job > count);
        match outside {
            Some(job) => Err(SplitError::NoSuchJob(job, count)),
            None => Ok(ranges
                .iter()
                .flat_map(|&(first, last)| first..=last)
                .collect()),
        }
    }
}

/// A split: the root, how deep below it the jobs are, and the jobs' positions.
pub struct Split {
    root: Position,
    depth: u32,
    jobs: Vec<Position>,
}

/// The value of a node of the split's tree, as far as the results tell.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Not known: these missing jobs could decide it.
    Open(BTreeSet<usize>),
}

impl Split {
    /// The jobs `depth` plies below `root`: each distinct position there, up to symmetry, in
    /// the order the solver would meet them. Games that end sooner need no job.
    pub fn new(root: &Position, depth: u32) -> Split {
        let keys = PositionKeys::new(root.rules());
        let mut seen = HashMap::new();
        let mut jobs = Vec::new();
        walk(root, depth, &mut |position| {
            seen.entry(keys.key(position)).or_insert_with(|| {
                jobs.push(*position);
                jobs.len()
            });
        });
        Split {
            root: *root,
            depth,
            jobs,
        }
    }

    /// Each job's number by the key of its position.
    fn job_numbers(&self, keys: &PositionKeys) -> HashMap<Key, usize> {
        self.jobs
            .iter()
            .enumerate()
            .map(|(i, job)| (keys.key(job), i + 1))
            .collect()
    }

    /// Every job number in the order the solver would meet the jobs: 1, 2, 3... for a split
    /// made by this build; another order for one made by a build that ordered moves otherwise.
    pub fn search_order(&self) -> Vec<usize> {
        let keys = PositionKeys::new(self.root.rules());
        let job_of = self.job_numbers(&keys);
        let mut order = Vec::new();
        let mut met = vec![false; self.jobs.len() + 1];
        walk(&self.root, self.depth, &mut |position| {
            if let Some(&job) = job_of.get(&keys.key(position))
                && !std::mem::replace(&mut met[job], true)
            {
                order.push(job);
            }
        });
        // A job its root never reaches (a hand-edited split) still runs, last.
        order.extend((1..=self.jobs.len()).filter(|&job| !met[job]));
        order
    }

    /// The number of jobs.
    pub fn jobs(&self) -> usize {
        self.jobs.len()
    }

    /// The position of job `job` (numbered from 1).
    pub fn job(&self, job: usize) -> Result<&Position, SplitError> {
        self.jobs
            .get(job.wrapping_sub(1))
            .ok_or(SplitError::NoSuchJob(job, self.jobs.len()))
    }

    /// Writes `split.txt` and an empty `results` folder into `dir` (made if missing).
    pub fn write(&self, dir: &Path) -> Result<(), SplitError> {
        let results = dir.join("results");
        std::fs::create_dir_all(&results).map_err(|e| SplitError::Io(results, e))?;
        let rules = self.root.rules();
        let mut text = format!(
            "# Konane solve split into {} jobs, one position each. Run job N with\n\
             #   konane-engine solve --jobs DIR --run N\n\
             # (or all in one process: --run all), which writes DIR/results/N.txt; then prove\n\
             # the root from the results with\n\
             #   konane-engine solve --jobs DIR --join\n\
             # Job N is also `konane-engine solve --opening {} --capture {} --fen '<its position>'`.\n\
             opening {}\ncapture {}\ndepth {}\nroot {}\n",
            self.jobs.len(),
            rules.opening,
            rules.capture,
            rules.opening,
            rules.capture,
            self.depth,
            self.root.fen()
        );
        for (i, job) in self.jobs.iter().enumerate() {
            text += &format!("job {} {}\n", i + 1, job.fen());
        }
        write_whole(&dir.join(MANIFEST), &text)
    }

    /// Reads the split in `dir`.
    pub fn read(dir: &Path) -> Result<Split, SplitError> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| SplitError::Io(path.clone(), e))?;
        let bad = |line: usize, why: String| SplitError::BadManifest(path.clone(), line, why);
        let (mut opening, mut capture, mut depth, mut root) = (None, None, None, None);
        let mut jobs = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let number = i + 1;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            match word {
                "opening" => {
                    opening = Some(
                        rest.parse::<Opening>()
                            .map_err(|e| bad(number, e.to_string()))?,
                    )
                }
                "capture" => {
                    capture = Some(
                        rest.parse::<Capture>()
                            .map_err(|e| bad(number, e.to_string()))?,
                    )
                }
                "depth" => {
                    depth = Some(
                        rest.parse::<u32>()
                            .ok()
                            .filter(|d| *d <= MAX_DEPTH)
                            .ok_or_else(|| bad(number, format!("bad depth '{rest}'")))?,
                    )
                }
                "root" | "job" => {
                    let (Some(opening), Some(capture)) = (opening, capture) else {
                        return Err(bad(
                            number,
                            "the opening and capture rules come first".into(),
                        ));
                    };
                    let fen = if word == "job" {
                        let (index, fen) = rest.split_once(' ').unwrap_or((rest, ""));
                        if index.parse::<usize>().ok() != Some(jobs.len() + 1) {
                            return Err(bad(number, format!("expected job {}", jobs.len() + 1)));
                        }
                        fen
                    } else {
                        rest
                    };
                    let position = Position::from_fen(fen, opening, capture)
                        .map_err(|e| bad(number, format!("bad position: {e}")))?;
                    if word == "job" {
                        jobs.push(position);
                    } else {
                        root = Some(position);
                    }
                }
                _ => return Err(bad(number, format!("unknown line '{line}'"))),
            }
        }
        let (Some(root), Some(depth)) = (root, depth) else {
            return Err(bad(text.lines().count(), "no root or depth line".into()));
        };
        Ok(Split { root, depth, jobs })
    }

    /// The result file of job `job` (numbered from 1).
    fn result_path(dir: &Path, job: usize) -> PathBuf {
        dir.join("results").join(format!("{job}.txt"))
    }

    /// The proven results in `dir`, by job number; a result file without a result is an error.
    fn results(&self, dir: &Path) -> Result<HashMap<usize, bool>, SplitError> {
        let mut results = HashMap::new();
        for job in 1..=self.jobs.len() {
            let path = Split::result_path(dir, job);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let wins = match text.lines().find_map(|l| l.strip_prefix("result: ")) {
                Some("win") => true,
                Some("loss") => false,
                _ => return Err(SplitError::BadResult(path)),
            };
            results.insert(job, wins);
        }
        Ok(results)
    }

    /// The value of the root from `results`, and the best move when it is a win.
    fn evaluate(&self, results: &HashMap<usize, bool>) -> (Value, Option<Move>) {
        let keys = PositionKeys::new(self.root.rules());
        let job_of = self.job_numbers(&keys);
        let mut memo = HashMap::new();
        let leaf = |position: &Position| {
            let job = job_of[&keys.key(position)];
            match results.get(&job) {
                Some(true) => Value::Win,
                Some(false) => Value::Loss,
                None => Value::Open(BTreeSet::from([job])),
            }
        };
        let mut best = None;
        let value = value_of(&self.root, self.depth, &keys, &leaf, &mut memo, &mut best);
        (value, best)
    }

    /// True when job `job` is still to be solved; otherwise says why not (solved already, or
    /// the results so far decide every line through it).
    pub fn pending(
        &self,
        dir: &Path,
        job: usize,
        out: &mut impl Write,
    ) -> Result<bool, SplitError> {
        self.job(job)?;
        let results = self.results(dir)?;
        let io = |e| SplitError::Io(dir.to_path_buf(), e);
        if let Some(wins) = results.get(&job) {
            let result = if *wins { "win" } else { "loss" };
            writeln!(out, "job {job}: solved already ({result})").map_err(io)?;
            return Ok(false);
        }
        if let Value::Open(wanted) = self.evaluate(&results).0
            && wanted.contains(&job)
        {
            return Ok(true);
        }
        writeln!(
            out,
            "job {job}: not needed (the results so far decide every line through it)"
        )
        .map_err(io)?;
        Ok(false)
    }

    /// Solves job `job` (see [`Split::pending`]) into its result file. Returns false when
    /// stopped before the answer.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        dir: &Path,
        job: usize,
        table: &ProofTable,
        stop: &AtomicBool,
        searching: Searching,
        out: &mut impl Write,
        diagnostics: &mut impl Write,
    ) -> Result<bool, SplitError> {
        let position = self.job(job)?;
        let io = |e| SplitError::Io(dir.to_path_buf(), e);
        let mut text = Vec::new();
        let solved = solve_position(
            position,
            false,
            table,
            stop,
            searching,
            &mut text,
            diagnostics,
        )
        .map_err(io)?;
        let mut text = String::from_utf8_lossy(&text).into_owned();
        text += &format!(
            "nodes {}, time {:.3} s, {}\n",
            solved.nodes,
            solved.elapsed.as_secs_f64(),
            searching.describe(position.rules())
        );
        write!(out, "job {job}:\n{text}").map_err(io)?;
        if solved.finished {
            // A split committed to git before any job ran has no results folder in a clone.
            let results = dir.join("results");
            std::fs::create_dir_all(&results).map_err(|e| SplitError::Io(results, e))?;
            write_whole(&Split::result_path(dir, job), &text)?;
        }
        Ok(solved.finished)
    }

    /// Proves the root from the results in `dir` and writes `result:`, `winner:`, `best:` and
    /// how many jobs were solved; when the results do not decide it, the missing jobs that
    /// could. Returns true when the root is proven.
    pub fn join(&self, dir: &Path, out: &mut impl Write) -> Result<bool, SplitError> {
        let results = self.results(dir)?;
        let (value, best) = self.evaluate(&results);
        let io = |e| SplitError::Io(dir.to_path_buf(), e);
        writeln!(out, "jobs: {} of {} solved", results.len(), self.jobs.len()).map_err(io)?;
        let wins = match value {
            Value::Open(missing) => {
                let list: Vec<String> = missing.iter().map(|j| j.to_string()).collect();
                writeln!(out, "result: unknown").map_err(io)?;
                writeln!(out, "missing jobs that could decide it: {}", list.join(" "))
                    .map_err(io)?;
                return Ok(false);
            }
            Value::Win => true,
            Value::Loss => false,
        };
        let side = self.root.side_to_move();
        let winner = if wins { side } else { side.opponent() };
        writeln!(out, "result: {}", if wins { "win" } else { "loss" }).map_err(io)?;
        writeln!(
            out,
            "winner: {}",
            if winner == Color::Black {
                "Black"
            } else {
                "White"
            }
        )
        .map_err(io)?;
        let best = best.or_else(|| self.root.legal_moves().first().copied());
        writeln!(
            out,
            "best: {}",
            best.map_or("0000".to_string(), |m| m.to_string())
        )
        .map_err(io)?;
        Ok(true)
    }
}

/// Writes `text` to `path` whole or not at all: into a temporary file, then renamed.
fn write_whole(path: &Path, text: &str) -> Result<(), SplitError> {
    let temporary = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| SplitError::Io(path.to_path_buf(), e))
}

/// The children of `position` in the order the solver would try them ([`order_score`]).
fn ordered_children(position: &Position) -> Vec<(Move, Position)> {
    let mut children: Vec<(Move, Position)> = position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            (mv, child)
        })
        .collect();
    let mover = position.side_to_move();
    let order = Order::for_rules(position.rules());
    children.sort_by_key(|(_, child)| {
        order_score(
            child.mobility_of(mover.opponent()),
            child.mobility_of(mover),
            order,
        )
    });
    children
}

/// Calls `visit` on each position `depth` plies below `position` (games that end sooner
/// have none there).
fn walk(position: &Position, depth: u32, visit: &mut impl FnMut(&Position)) {
    if depth == 0 {
        visit(position);
        return;
    }
    for (_, child) in ordered_children(position) {
        walk(&child, depth - 1, visit);
    }
}

/// The value of `position`, `depth` plies above the jobs; `best` gets the root's winning move.
fn value_of(
    position: &Position,
    depth: u32,
    keys: &PositionKeys,
    leaf: &impl Fn(&Position) -> Value,
    memo: &mut HashMap<(Key, u32), Value>,
    best: &mut Option<Move>,
) -> Value {
    if depth == 0 {
        return leaf(position);
    }
    let key = keys.key(position);
    if let Some(known) = memo.get(&(key, depth)) {
        return known.clone();
    }
    let mut missing = BTreeSet::new();
    let mut every_child_wins = true;
    let mut value = None;
    for (mv, child) in ordered_children(position) {
        match value_of(&child, depth - 1, keys, leaf, memo, &mut None) {
            Value::Loss => {
                *best = Some(mv);
                value = Some(Value::Win);
                break;
            }
            Value::Win => {}
            Value::Open(jobs) => {
                every_child_wins = false;
                missing.extend(jobs);
            }
        }
    }
    let value = value.unwrap_or(if every_child_wins {
        Value::Loss
    } else {
        Value::Open(missing)
    });
    memo.insert((key, depth), value.clone());
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn a_job_list_is_numbers_ranges_or_all() {
        let list = |text: &str| text.parse::<JobList>();
        assert_eq!(list("all"), Ok(JobList::All));
        assert_eq!(list("7"), Ok(JobList::Listed(vec![(7, 7)])));
        let ranges = vec![(1, 1), (4, 4), (10, 12)];
        assert_eq!(list("1,4,10-12"), Ok(JobList::Listed(ranges)));
        for bad in ["", "x", "3-", "-3", "9-3", "1,,2", "1;2", "All"] {
            let error = list(bad).unwrap_err();
            assert!(error.contains(&format!("bad job list '{bad}'")), "{error}");
        }
        // 4x4: Black's two removals up to symmetry, then White's replies.
        let rules = Rules::new(4, 4, Opening::Traditional, Capture::Straight).unwrap();
        let split = Split::new(&Position::start(rules).unwrap(), 2);
        let count = split.jobs();
        assert_eq!(
            JobList::All.numbers(&split).unwrap(),
            (1..=count).collect::<Vec<_>>()
        );
        assert_eq!(list("2,1").unwrap().numbers(&split).unwrap(), vec![2, 1]);
        let past = format!("1-{}", count + 1);
        let error = list(&past)
            .unwrap()
            .numbers(&split)
            .unwrap_err()
            .to_string();
        let expected = format!("no job {}: the split has jobs 1 to {count}", count + 1);
        assert_eq!(error, expected);
        let error = list("0").unwrap().numbers(&split).unwrap_err().to_string();
        assert_eq!(error, format!("no job 0: the split has jobs 1 to {count}"));
        // A vast range is refused before it is spelt out.
        let vast = format!("1-{}", usize::MAX);
        let error = list(&vast)
            .unwrap()
            .numbers(&split)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with(&format!("no job {}", usize::MAX)),
            "{error}"
        );
    }

    #[test]
    fn the_jobs_of_a_split_run_in_the_solver_order_whatever_their_numbers() {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let mut split = Split::new(&Position::start(rules).unwrap(), 4);
        let count = split.jobs();
        assert!(count > 10);
        assert_eq!(split.search_order(), (1..=count).collect::<Vec<_>>());
        // A split numbered otherwise (by an older build) is still run in the solver's order.
        split.jobs.reverse();
        assert_eq!(split.search_order(), (1..=count).rev().collect::<Vec<_>>());
    }
}
