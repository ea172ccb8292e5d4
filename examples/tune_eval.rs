//! Fits the evaluation's weights to a data set of labelled positions, then refines them on it
//! and a data set of searched positions with the search's best moves (`tune::refine`): prints
//! the `WEIGHTS` line of src/search/eval.rs, with the log-loss of the fit and of the refined
//! weights against the current weights', and how often each ranks the search's best move
//! first on positions the fit and the refinement did not see; writes the patterns' weights
//! into src/search/pattern_weights.rs.
//!
//! Usage: cargo run --release --example tune_eval -- [DATA [CHOICES]]
//!        (default scripts/data/eval-positions.txt, made by the eval_data example, its game
//!        positions scored by scripts/label-search.py, and scripts/data/eval-choices.txt,
//!        scored by scripts/label-search.py --best)

use konane::search::eval::{FEATURE_NAMES, PATTERN_WEIGHTS, WEIGHTS};
use konane::search::tune;
use std::fmt::Write;

/// Where the patterns' weights are kept.
const PATTERN_FILE: &str = "src/search/pattern_weights.rs";

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "scripts/data/eval-positions.txt".to_string());
    let choices_path = args
        .next()
        .unwrap_or_else(|| "scripts/data/eval-choices.txt".to_string());
    let samples = read(&path);
    let choices = read(&choices_path);
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
    let all: Vec<tune::Sample> = samples.iter().chain(&choices).cloned().collect();
    held_out_refinement(&all);
    let refined = tune::centi_weights(&tune::refine(
        &all,
        &tune::from_centi(&fitted),
        &tune::REFINE,
    ));
    println!(
        "{} positions of {choices_path}, {} with the search's best move; log-loss on all: fitted \
         {:.4}, refined {:.4}",
        choices.len(),
        choices.iter().filter(|s| s.choice.is_some()).count(),
        tune::log_loss(&all, &fitted),
        tune::log_loss(&all, &refined)
    );
    println!("feature: empty board, full board");
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        println!(
            "  {name}: {}, {}",
            refined.features[0][i], refined.features[1][i]
        );
    }
    println!(
        "pub const WEIGHTS: [[i32; FEATURES]; 2] = {:?};",
        refined.features
    );
    if let Err(e) = std::fs::write(PATTERN_FILE, pattern_file(&refined.patterns)) {
        eprintln!("cannot write {PATTERN_FILE}: {e}");
        std::process::exit(1)
    }
    println!("the patterns' weights written to {PATTERN_FILE}");
}

/// The samples of the data set at `path`; a failure to read it ends the program.
fn read(path: &str) -> Vec<tune::Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(2)
    });
    tune::read_samples(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    })
}

/// Positions in a block of the data set: blocks keep a game's positions together.
const BLOCK: usize = 500;

/// The samples of every block but each fifth (`false`) or of each fifth (`true`).
fn blocks(samples: &[tune::Sample], fifths: bool) -> Vec<tune::Sample> {
    (samples.iter().enumerate())
        .filter(|&(i, _)| ((i / BLOCK) % 5 == 4) == fifths)
        .map(|(_, sample)| sample.clone())
        .collect()
}

/// Fits and refines on every block but each fifth and prints, on the fifths left out, the
/// log-loss and how often the search's best move is ranked first, fitted and refined.
fn held_out_refinement(samples: &[tune::Sample]) {
    let (train, test) = (blocks(samples, false), blocks(samples, true));
    let fitted = tune::centi_weights(&tune::fit(&train));
    let refined = tune::refine(&train, &tune::from_centi(&fitted), &tune::REFINE);
    let refined = tune::centi_weights(&refined);
    println!(
        "held out ({} positions, {} with a best move): log-loss fitted {:.4}, refined {:.4}; the \
         search's best move ranked first {:.1}% and {:.1}%",
        test.len(),
        test.iter().filter(|s| s.choice.is_some()).count(),
        tune::log_loss(&test, &fitted),
        tune::log_loss(&test, &refined),
        100.0 * tune::choice_agreement(&test, &fitted),
        100.0 * tune::choice_agreement(&test, &refined)
    );
}

/// Fits every block but each fifth and prints the log-loss on the fifths left out, with the
/// features alone and with the patterns too: what the patterns add, measured on positions
/// the fit did not see.
fn held_out(samples: &[tune::Sample]) {
    let (train, test) = (blocks(samples, false), blocks(samples, true));
    let alone = |set: &[tune::Sample]| -> Vec<tune::Sample> {
        set.iter()
            .map(|sample| {
                let mut sample = sample.clone();
                sample.reading.patterns.clear();
                sample
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
         //! writes them for the data sets (hundredths of log-odds; the empty-board row, then the\n\
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
