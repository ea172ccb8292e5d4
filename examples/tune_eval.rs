//! Fits the evaluation's weights to a data set of solver-labelled positions and prints them as
//! the `WEIGHTS` line of src/search/eval.rs, with the fit's log-loss against the current
//! weights'.
//!
//! Usage: cargo run --release --example tune_eval -- [DATA]
//!        (default scripts/data/eval-positions.txt, made by the eval_data example)

use konane::search::eval::{FEATURE_NAMES, WEIGHTS};
use konane::search::tune;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "scripts/data/eval-positions.txt".to_string());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(2)
    });
    let samples = tune::read_samples(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let fitted = tune::centi_weights(&tune::fit(&samples));
    println!(
        "{} positions, {} won by the side to move",
        samples.len(),
        samples.iter().filter(|s| s.wins).count()
    );
    println!(
        "log-loss: current weights {:.4}, fitted {:.4}",
        tune::log_loss(&samples, &WEIGHTS),
        tune::log_loss(&samples, &fitted)
    );
    for (name, weight) in FEATURE_NAMES.iter().zip(fitted) {
        println!("  {name}: {weight}");
    }
    println!("pub const WEIGHTS: [i32; FEATURES] = {fitted:?};");
}
