//! `konane-engine solve`: its arguments, read and handed to the solver, the report or a split.

use clap::Args;
use konane::solve::report::{hash_mb_within, solve_openings, solve_position};
use konane::solve::split::{JobList, MAX_DEPTH, Split, SplitError};
use konane::solve::{Method, ProofTable, Searching};
use konane::{Position, Rules};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The arguments of `konane-engine solve`.
#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    start: super::PositionArgs,
    /// Prove every move: print 'winning moves: ...' (empty after the colon on a loss).
    #[arg(long)]
    all: bool,
    /// Solve every opening of the start position: each Black removal, then each White reply.
    #[arg(long, conflicts_with_all = ["fen", "moves", "all"])]
    openings: bool,
    /// Stop after SECONDS and print what is proven by then (exit code 1 when that is not the
    /// answer); the table is sized to what SECONDS can fill unless --hash is given. With --run,
    /// SECONDS for all the jobs: the job still running then is left unsolved.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, conflicts_with_all = ["split", "join"])]
    time: Option<Duration>,
    /// MB for the table of proven results [default: by the stones on the board: 64 MB for 36, doubling every two more, halving every two fewer; 16 MB to a quarter of the memory, at most 8192].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    hash: Option<u64>,
    /// Threads for the depth-first search, sharing the table [default: one per core]; the proof-number search uses one.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// How to search: depth-first or proof-number [default: proof-number on boards of four rows or columns or fewer, where it proves in a fraction of the work; depth-first on the others].
    #[arg(long)]
    method: Option<Method>,
    /// Split the solve into jobs: the distinct positions DEPTH plies below, written to --jobs.
    #[arg(long, value_name = "DEPTH", requires = "jobs", conflicts_with_all = ["openings", "all", "run", "join"], value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    split: Option<u32>,
    /// The folder of a split: its jobs (split.txt) and their results (results/N.txt).
    #[arg(long, value_name = "DIR")]
    jobs: Option<PathBuf>,
    /// Solve these jobs of the split in --jobs, in order, in this one process, skipping those solved already or no longer needed: a job number, a range such as 3-9, several separated by commas, or all.
    #[arg(long, value_name = "JOBS", requires = "jobs", conflicts_with_all = ["fen", "moves", "openings", "all", "join"])]
    run: Option<JobList>,
    /// Prove the root of the split in --jobs from its jobs' results.
    #[arg(long, requires = "jobs", conflicts_with_all = ["fen", "moves", "openings", "all"])]
    join: bool,
    /// Keep the table of proven results in FILE between runs: loaded when FILE exists (at its
    /// saved size, or resized to --hash when given), saved every 10 minutes and when the solve
    /// ends or is stopped. The proof-number search's numbers of unproven positions are kept
    /// with it, so that a resumed solve goes on where it stopped (at the saved size only).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["split", "join"])]
    table: Option<PathBuf>,
}

/// How often a solve with `--table` saves it.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// Runs `konane-engine solve`: exit code 0 when proven, 130 when Ctrl-C stopped it, 1 when
/// --time ran out first or a join lacks results, 2 on bad input.
pub fn run(args: SolveArgs) -> u8 {
    match solve(args) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            2
        }
    }
}

fn solve(args: SolveArgs) -> Result<u8, String> {
    let exit = |finished: bool| {
        if finished { 0 } else { 130 }
    };
    let (mut out, mut diagnostics) = (std::io::stdout(), std::io::stderr());
    if let Some(dir) = &args.jobs
        && args.split.is_none()
    {
        let split = Split::read(dir).map_err(|e| e.to_string())?;
        if args.join {
            let proven = split.join(dir, &mut out).map_err(|e| e.to_string())?;
            return Ok(if proven { 0 } else { 1 });
        }
        let Some(list) = &args.run else {
            return Err("--jobs needs --split DEPTH, --run JOBS or --join".into());
        };
        let jobs = list.numbers(&split).map_err(|e| e.to_string())?;
        return run_jobs(&args, &split, dir, &jobs);
    }
    let position = args.start.position()?;
    if let (Some(depth), Some(dir)) = (args.split, &args.jobs) {
        let split = Split::new(&position, depth);
        split.write(dir).map_err(|e| e.to_string())?;
        println!(
            "{} jobs written to {}",
            split.jobs(),
            dir.join("split.txt").display()
        );
        return Ok(0);
    }
    let table = open_table(&args, &position)?;
    let stop = super::stop_on_ctrl_c();
    let searching = searching(&args);
    let timed_out = AtomicBool::new(false);
    let solve = || {
        if args.openings {
            solve_openings(
                &position,
                &table,
                &stop,
                searching,
                &mut out,
                &mut diagnostics,
            )
        } else {
            solve_position(
                &position,
                args.all,
                &table,
                &stop,
                searching,
                &mut out,
                &mut diagnostics,
            )
            .map(|solved| solved.finished)
        }
    };
    let finished = with_checkpoints(&table, args.table.as_deref(), position.rules(), || {
        within(args.time, &stop, &timed_out, solve)
    })?
    .map_err(|e| format!("cannot write the result: {e}"))?;
    if !finished && timed_out.load(Ordering::SeqCst) {
        return Ok(1);
    }
    Ok(exit(finished))
}

/// Runs `solve`, setting `stop` (and `timed_out`) when `time` runs out before it returns.
fn within<T>(
    time: Option<Duration>,
    stop: &AtomicBool,
    timed_out: &AtomicBool,
    solve: impl FnOnce() -> T,
) -> T {
    let Some(time) = time else {
        return solve();
    };
    let deadline = Instant::now() + time;
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    timed_out.store(true, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
                std::thread::sleep(left.min(Duration::from_millis(5)));
            }
        });
        let result = solve();
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 => Duration::try_from_secs_f64(seconds)
            .map_err(|_| format!("{text} seconds is longer than any solve")),
        _ => Err(format!("{text} is not a positive number of seconds")),
    }
}

/// Runs `jobs` of `split` in order, skipping those solved already or no longer needed, with
/// one table for them all (opened at the first job to solve), within `--time` when given.
/// Returns the exit code: 0 when every job needed is done, 1 when the time ran out first, 130
/// when Ctrl-C stopped it.
fn run_jobs(args: &SolveArgs, split: &Split, dir: &Path, jobs: &[usize]) -> Result<u8, String> {
    let mut out = std::io::stdout();
    let mut diagnostics = std::io::stderr();
    let mut first = None;
    for (i, &job) in jobs.iter().enumerate() {
        if split
            .pending(dir, job, &mut out)
            .map_err(|e| e.to_string())?
        {
            first = Some(i);
            break;
        }
    }
    let Some(first) = first else {
        return Ok(0);
    };
    let position = split.job(jobs[first]).map_err(|e| e.to_string())?;
    let table = open_table(args, position)?;
    let stop = super::stop_on_ctrl_c();
    let searching = searching(args);
    let timed_out = AtomicBool::new(false);
    let run = || -> Result<bool, SplitError> {
        for (i, &job) in jobs.iter().enumerate().skip(first) {
            // The results proven so far may leave a later job unneeded.
            if i > first && !split.pending(dir, job, &mut out)? {
                continue;
            }
            if !split.run(
                dir,
                job,
                &table,
                &stop,
                searching,
                &mut out,
                &mut diagnostics,
            )? {
                return Ok(false);
            }
        }
        Ok(true)
    };
    let finished = with_checkpoints(&table, args.table.as_deref(), position.rules(), || {
        within(args.time, &stop, &timed_out, run)
    })?
    .map_err(|e| e.to_string())?;
    Ok(match (finished, timed_out.load(Ordering::SeqCst)) {
        (true, _) => 0,
        (false, true) => 1,
        (false, false) => 130,
    })
}

/// The proof table for a solve of `position`: the one saved in `--table`'s file if it
/// exists (resized to `--hash` MB when given), else a new one of `--hash` MB (by default
/// sized by the stones and what --time can fill).
fn open_table(args: &SolveArgs, position: &Position) -> Result<ProofTable, String> {
    if let Some(file) = &args.table
        && file.exists()
    {
        let started = Instant::now();
        let table = ProofTable::load(file, position.rules(), args.hash.map(|mb| mb as usize))?;
        eprintln!(
            "table loaded from {}: {} MB, {} results, numbers of {} unproven positions, {:.1} s",
            file.display(),
            table.bytes() >> 20,
            table.stored(),
            table.numbers_held(),
            started.elapsed().as_secs_f64()
        );
        return Ok(table);
    }
    let megabytes = args.hash.map_or_else(
        || hash_mb_within(position, args.time, None),
        |mb| mb as usize,
    );
    let table = ProofTable::new(megabytes)?;
    let main_mb = table.bytes() >> 20;
    if args.hash.is_some() && main_mb != megabytes {
        eprintln!(
            "--hash {megabytes}: the table holds a power of two of buckets, so it has {main_mb} MB"
        );
    }
    Ok(table)
}

/// Runs `solve`; with a table `file`, saves the table there every [`CHECKPOINT_EVERY`] and
/// when `solve` returns (finished or stopped), so that a later run goes on from it.
fn with_checkpoints<T>(
    table: &ProofTable,
    file: Option<&Path>,
    rules: Rules,
    solve: impl FnOnce() -> T,
) -> Result<T, String> {
    let Some(file) = file else {
        return Ok(solve());
    };
    let save = || -> Result<(), String> {
        let started = Instant::now();
        table.save(file, rules)?;
        eprintln!(
            "table saved to {}: {} results, numbers of {} unproven positions, {:.1} s",
            file.display(),
            table.stored(),
            table.numbers_held(),
            started.elapsed().as_secs_f64()
        );
        Ok(())
    };
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut last = Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if last.elapsed() >= CHECKPOINT_EVERY {
                    if let Err(error) = save() {
                        eprintln!("warning: {error}");
                    }
                    last = Instant::now();
                }
            }
        });
        let result = solve();
        done.store(true, Ordering::Relaxed);
        result
    });
    save()?;
    Ok(result)
}

/// The position the flags name: the start or `--fen`, then `--moves`.
/// `--threads` (or one per core) and `--method`.
fn searching(args: &SolveArgs) -> Searching {
    Searching {
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        ),
        method: args.method,
    }
}
