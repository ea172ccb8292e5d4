//! `konane-engine`: the UCI/UGI engine; `perft` and `bench` subcommands for measurement.

use clap::{Parser, Subcommand};
use konane::cli::RulesArgs;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Parser)]
#[command(
    version,
    about = "Konane engine speaking UCI/UGI on stdin/stdout (see protocol.md)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf positions DEPTH plies ahead (opening removals count as plies).
    Perft {
        /// Plies to look ahead.
        depth: u32,
        #[command(flatten)]
        rules: RulesArgs,
        /// Start from this position string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each legal move.
        #[arg(long)]
        divide: bool,
    },
    /// Solve a position exactly: who wins with perfect play, and with which moves.
    #[command(
        after_help = "Prints 'result: win' or 'result: loss' (for the side to move), 'winner: Black|White' \
and 'best: <move>' (a winning move; on a loss, the first move tried; 0000 without a move). Nodes, time \
and memory go to standard error, with a progress line every 5 s; Ctrl-C stops with what is proven so far \
(exit code 130)."
    )]
    Solve {
        #[command(flatten)]
        rules: RulesArgs,
        /// Start from this position string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, separated by spaces.
        #[arg(long)]
        moves: Option<String>,
        /// Prove every move: print 'winning moves: ...' (empty after the colon on a loss).
        #[arg(long)]
        all: bool,
        /// Solve every opening of the start position: each Black removal, then each White reply.
        #[arg(long, conflicts_with_all = ["fen", "moves", "all"])]
        openings: bool,
        /// MB for the table of proven results [default: by the stones on the board: 64 MB for 36, doubling every two more, halving every two fewer; 16 MB to a quarter of the memory, at most 8192].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
        hash: Option<u64>,
        /// Threads to search with, sharing the table [default: one per core].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: Option<u64>,
    },
    /// Search the bench positions to a fixed depth; print total nodes and nodes per second.
    Bench {
        /// Plies to search each position.
        #[arg(default_value_t = konane::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
}

/// `solve`: the position the flags name, solved; exit code 130 when Ctrl-C stopped it.
fn solve(
    rules: &RulesArgs,
    fen: Option<String>,
    moves: Option<String>,
    all: bool,
    openings: bool,
    hash: Option<u64>,
    threads: Option<u64>,
) -> Result<ExitCode, String> {
    let mut position = rules.position(fen.as_deref()).map_err(|e| e.to_string())?;
    for (i, text) in moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .enumerate()
    {
        let mv: konane::Move = text
            .parse()
            .map_err(|e| format!("--moves: bad move '{text}': {e}"))?;
        position.play(mv).map_err(|e| {
            format!(
                "--moves: illegal move {text} (move {} of the list): {e}",
                i + 1
            )
        })?;
    }
    let megabytes = hash.map_or_else(
        || konane::solve::report::default_hash_mb(&position),
        |mb| mb as usize,
    );
    let table = konane::solve::ProofTable::new(megabytes)?;
    let threads = threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    if let Err(error) = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)) {
        eprintln!("warning: cannot catch Ctrl-C: {error}");
    }
    let (mut out, mut diagnostics) = (std::io::stdout(), std::io::stderr());
    let finished = if openings {
        konane::solve::report::solve_openings(
            &position,
            &table,
            &stop,
            threads,
            &mut out,
            &mut diagnostics,
        )
    } else {
        konane::solve::report::solve_position(
            &position,
            all,
            &table,
            &stop,
            threads,
            &mut out,
            &mut diagnostics,
        )
    }
    .map_err(|e| format!("cannot write the result: {e}"))?;
    Ok(if finished {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(130)
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            rules,
            fen,
            divide,
        }) => {
            let position = match rules.position(fen.as_deref()) {
                Ok(position) => position,
                Err(error) => {
                    eprintln!("error: {error}");
                    return ExitCode::from(2);
                }
            };
            let started = Instant::now();
            let never = std::sync::atomic::AtomicBool::new(false);
            let nodes = konane::engine::perft_report(&position, depth, divide, &never, |line| {
                konane::say!("{line}")
            })
            .expect("never stopped");
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "time {:.3} s, {:.0} leaves/s",
                seconds,
                nodes as f64 / seconds.max(1e-9)
            );
            ExitCode::SUCCESS
        }
        Some(Command::Solve {
            rules,
            fen,
            moves,
            all,
            openings,
            hash,
            threads,
        }) => match solve(&rules, fen, moves, all, openings, hash, threads) {
            Ok(code) => code,
            Err(error) => {
                eprintln!("error: {error}");
                ExitCode::from(2)
            }
        },
        Some(Command::Bench { depth }) => {
            let result = konane::bench::run(depth, &konane::search::Flags::default())
                .expect("never stopped");
            konane::say!("{} nodes {} nps", result.nodes, result.nps());
            ExitCode::SUCCESS
        }
        None => {
            let stdin = std::io::stdin();
            konane::engine::run(
                stdin.lock(),
                konane::protocol::io::Output::new(std::io::stdout()),
            );
            ExitCode::SUCCESS
        }
    }
}
