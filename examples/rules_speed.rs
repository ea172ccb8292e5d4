//! The Rust side of `scripts/python-speed.py`: how long `legal_moves` and perft take on one
//! position, called from Rust, to compare with the same calls through the Python package.
//!
//! Usage: cargo run --release --example rules_speed -- 'POSITION STRING' DEPTH CALLS
//!
//! Prints `legal_moves_ns <median ns per call>` over 5 runs of CALLS calls, and
//! `perft_ms <median ms>` over 5 perfts to DEPTH.

use konane::{Capture, Opening, Position};
use std::hint::black_box;
use std::time::Instant;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fen, depth, calls] = args.as_slice() else {
        eprintln!("usage: rules_speed 'POSITION STRING' DEPTH CALLS");
        std::process::exit(2);
    };
    let position = Position::from_fen(fen, Opening::Traditional, Capture::Straight)
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let depth: u32 = depth.parse().expect("DEPTH is a number");
    let calls: u32 = calls.parse().expect("CALLS is a number");
    let per_call = (0..5)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..calls {
                black_box(black_box(&position).legal_moves());
            }
            started.elapsed().as_nanos() as f64 / f64::from(calls)
        })
        .collect();
    println!("legal_moves_ns {:.1}", median(per_call));
    let perft = (0..5)
        .map(|_| {
            let started = Instant::now();
            black_box(black_box(&position).perft(depth));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    println!("perft_ms {:.2}", median(perft));
}
