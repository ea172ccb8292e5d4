//! `konane-engine`: the UCI/UGI engine; `perft`, `solve`, `value` and `bench` subcommands.

mod solve;
mod value;

use crate::console::{self, RulesArgs};
use clap::{Parser, Subcommand};
use konane::{Position, PositionError};
use std::ffi::OsString;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "konane-engine",
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
(exit code 130).

A long solve can be split into jobs for other machines or later sittings: --split DEPTH --jobs DIR writes \
the distinct positions DEPTH plies below (DIR/split.txt); --jobs DIR --run N solves job N into \
DIR/results/N.txt, and --run all (or 3-9, or 1,4) runs jobs in turn in one process, sharing one table, \
within --time SECONDS when given (exit code 1 when it runs out) \
(scripts/solve-jobs.sh runs them all, scripts/solve-slurm.sh as a Slurm array); \
--jobs DIR --join proves the root from the results, or names the missing jobs that could decide it \
(exit code 1)."
    )]
    Solve(solve::SolveArgs),
    /// Print a position's value as a combinatorial game (Black is Left), and each of its
    /// independent regions' values, in CGSuite's notation.
    #[command(
        after_help = "Prints 'value: <game>' (numbers such as 1/2, nimbers *, *2, ups ^ and v, switches +-1, \
other games in braces as CGSuite writes them), 'outcome:', 'winner: Black|White (... to move)', \
'regions: N' and one line per region: its stones' squares and its value. Regions are groups of \
stones no sequence of moves can bring together; the position is their sum."
    )]
    Value(value::ValueArgs),
    /// Search the bench positions to a fixed depth; print total nodes and nodes per second.
    Bench {
        /// Plies to search each position.
        #[arg(default_value_t = konane::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
}

/// The start position of the rules the flags name, or the position string `fen` if given.
fn position_of(rules: &RulesArgs, fen: Option<&str>) -> Result<Position, PositionError> {
    match fen {
        Some(text) => Position::from_fen(text, rules.opening, rules.capture),
        None => Position::start(rules.rules()).map_err(PositionError::Rules),
    }
}

/// Where a subcommand starts: the start position of the rules, or `--fen`, then `--moves`.
#[derive(clap::Args)]
struct PositionArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
}

impl PositionArgs {
    /// The position the flags name, or what is wrong with them.
    fn position(&self) -> Result<Position, String> {
        let mut position =
            position_of(&self.rules, self.fen.as_deref()).map_err(|e| e.to_string())?;
        let moves = self.moves.as_deref().unwrap_or("");
        for (i, text) in moves.split_whitespace().enumerate() {
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
        Ok(position)
    }
}

/// A flag that Ctrl-C sets.
pub(crate) fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    if let Err(error) = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)) {
        eprintln!("warning: cannot catch Ctrl-C: {error}");
    }
    stop
}

/// Runs `konane-engine` with `arguments` (the program's name first) and returns its exit
/// status: without a subcommand it speaks the protocol on standard input and output until
/// `quit`; 2 for bad arguments; `solve` explains its own.
pub fn main<I, T>(arguments: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    console::init_logging();
    let cli = match Cli::try_parse_from(arguments) {
        Ok(cli) => cli,
        Err(error) => return console::clap_status(&error),
    };
    match cli.command {
        Some(Command::Perft {
            depth,
            rules,
            fen,
            divide,
        }) => {
            let position = match position_of(&rules, fen.as_deref()) {
                Ok(position) => position,
                Err(error) => {
                    eprintln!("error: {error}");
                    return 2;
                }
            };
            let started = Instant::now();
            let never = std::sync::atomic::AtomicBool::new(false);
            let nodes = konane::engine::perft_report(&position, depth, divide, &never, |line| {
                say!("{line}")
            })
            .expect("never stopped");
            say!("{}", konane::engine::perft_total(nodes));
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "time {:.3} s, {:.0} leaves/s",
                seconds,
                nodes as f64 / seconds.max(1e-9)
            );
            0
        }
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Value(args)) => value::run(args),
        Some(Command::Bench { depth }) => {
            let result = konane::bench::run(depth, &konane::search::Flags::default())
                .expect("never stopped");
            say!("{} nodes {} nps", result.nodes, result.nps());
            0
        }
        None => {
            let stdin = std::io::stdin();
            konane::engine::run(
                stdin.lock(),
                konane::protocol::io::Output::new(std::io::stdout()),
            );
            0
        }
    }
}
