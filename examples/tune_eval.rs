//! Fits the evaluation's weights to a data set of labelled positions: prints the `WEIGHTS`
//! line of src/search/eval.rs, with the fit's log-loss against the current weights', on all
//! positions and on the proven ones, and writes the patterns' weights into
//! src/search/pattern_weights.rs.
//!
//! Usage: cargo run --release --example tune_eval -- [DATA]
//!        (default scripts/data/eval-positions.txt, made by the eval_data example, its game
//!        positions scored by scripts/label-search.py)

use konane::search::eval::{FEATURE_NAMES, PATTERN_WEIGHTS, WEIGHTS};
use konane::search::tune;
use std::fmt::Write;

/// Where the patterns' weights are kept.
const PATTERN_FILE: &str = "src/search/pattern_weights.rs";

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
    let current = tune::Weights {
        features: WEIGHTS,
        patterns: PATTERN_WEIGHTS,
    };
    let proven: Vec<tune::Sample> = samples.iter().filter(|s| s.proven).cloned().collect();
    println!(
        "{} positions ({} proven), {} won by the side to move",
        samples.len(),
        proven.len(),
        samples.iter().filter(|s| s.wins).count()
    );
    for (name, set) in [("all", &samples), ("proven", &proven)] {
        println!(
            "log-loss on {name}: current weights {:.4}, fitted {:.4}",
            tune::log_loss(set, &current),
            tune::log_loss(set, &fitted)
        );
    }
    held_out(&samples);
    println!("feature: empty board, full board");
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        println!(
            "  {name}: {}, {}",
            fitted.features[0][i], fitted.features[1][i]
        );
    }
    println!(
        "pub const WEIGHTS: [[i32; FEATURES]; 2] = {:?};",
        fitted.features
    );
    if let Err(e) = std::fs::write(PATTERN_FILE, pattern_file(&fitted.patterns)) {
        eprintln!("cannot write {PATTERN_FILE}: {e}");
        std::process::exit(1)
    }
    println!("the patterns' weights written to {PATTERN_FILE}");
}

/// Positions in a block of the data set: blocks keep a game's positions together.
const BLOCK: usize = 500;

/// Fits every block but each fifth and prints the log-loss on the fifths left out, with the
/// features alone and with the patterns too: what the patterns add, measured on positions
/// the fit did not see.
fn held_out(samples: &[tune::Sample]) {
    let is_held_out = |i: usize| (i / BLOCK) % 5 == 4;
    let split = |keep: bool| -> Vec<tune::Sample> {
        (samples.iter().enumerate())
            .filter(|&(i, _)| is_held_out(i) == keep)
            .map(|(_, sample)| sample.clone())
            .collect()
    };
    let (train, test) = (split(false), split(true));
    let alone = |set: &[tune::Sample]| -> Vec<tune::Sample> {
        set.iter()
            .map(|sample| tune::Sample {
                patterns: Vec::new(),
                ..sample.clone()
            })
            .collect()
    };
    let features_alone = tune::centi_weights(&tune::fit(&alone(&train)));
    let with_patterns = tune::centi_weights(&tune::fit(&train));
    println!(
        "held out ({} positions, every fifth block of {BLOCK}): log-loss {:.4} with the features \
         alone, {:.4} with the patterns too",
        test.len(),
        tune::log_loss(&alone(&test), &features_alone),
        tune::log_loss(&test, &with_patterns)
    );
}

/// The source of src/search/pattern_weights.rs for `rows`.
fn pattern_file(rows: &[[i32; konane::search::patterns::PATTERNS]; 2]) -> String {
    let mut text = String::from(
        "//! The patterns' weights of the evaluation, as `cargo run --release --example tune_eval`\n\
         //! writes them for the data set (hundredths of log-odds; the empty-board row, then the\n\
         //! full-board row, each indexed by pattern: see `super::patterns`).\n\n\
         use super::patterns::PATTERNS;\n\n\
         /// Per row of fill, each pattern's weight (sixteen a line: `rustfmt` leaves them so).\n\
         #[rustfmt::skip]\n\
         pub const PATTERN_WEIGHTS: [[i32; PATTERNS]; 2] = [\n",
    );
    for row in rows {
        text.push_str("    [\n");
        for chunk in row.chunks(16) {
            let numbers: Vec<String> = chunk.iter().map(|w| format!("{w},")).collect();
            let _ = writeln!(text, "        {}", numbers.join(" "));
        }
        text.push_str("    ],\n");
    }
    text.push_str("];\n");
    text
}
