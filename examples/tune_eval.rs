//! Fits the evaluation's weights to a data set of labelled positions and prints them as the
//! `WEIGHTS` line of src/search/eval.rs, with the fit's log-loss against the current weights',
//! on all positions and on the proven ones.
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
    let proven: Vec<tune::Sample> = samples.iter().copied().filter(|s| s.proven).collect();
    println!(
        "{} positions ({} proven), {} won by the side to move",
        samples.len(),
        proven.len(),
        samples.iter().filter(|s| s.wins).count()
    );
    for (name, set) in [("all", &samples), ("proven", &proven)] {
        println!(
            "log-loss on {name}: current weights {:.4}, fitted {:.4}",
            tune::log_loss(set, &WEIGHTS),
            tune::log_loss(set, &fitted)
        );
    }
    println!("feature: empty board, full board");
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        println!("  {name}: {}, {}", fitted[0][i], fitted[1][i]);
    }
    println!("pub const WEIGHTS: [[i32; FEATURES]; 2] = {fitted:?};");
}
