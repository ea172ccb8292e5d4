//! `konane-engine`: the UCI/UGI engine; `perft` and `bench` subcommands for measurement.

use clap::{Parser, Subcommand};
use konane::cli::RulesArgs;
use std::process::ExitCode;
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
    /// Search the bench positions to a fixed depth; print total nodes and nodes per second.
    Bench {
        /// Plies to search each position.
        #[arg(default_value_t = konane::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
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
                println!("{line}")
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
        Some(Command::Bench { depth }) => {
            let result = konane::bench::run(depth, &konane::search::Flags::default())
                .expect("never stopped");
            println!("{} nodes {} nps", result.nodes, result.nps());
            ExitCode::SUCCESS
        }
        None => {
            let stdin = std::io::stdin();
            konane::engine::run(stdin.lock(), konane::engine::Output::new(std::io::stdout()));
            ExitCode::SUCCESS
        }
    }
}
