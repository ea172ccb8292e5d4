//! Trains the evaluation's network of one board size on the positions of that size in data
//! sets of labelled positions and writes its weights into src/search/net_weights_WxH.rs, headed
//! by NOTE (default: the command line); prints the cross-entropy against the targets on the
//! positions left out of a first fit (every fifth block of 500), without the network, with it
//! in floating point and with it rounded as the search uses it; and, of the positions with the
//! search's best move, how often the evaluation ranks that move first.
//!
//! Usage: cargo run --release --example train_net -- --board WxH [--note NOTE] [--epochs N]
//!            [--share S] [--decay D] [--rate R] [--seed N] [--choice W] [--temperature T]
//!            [--symmetries] DATA...
//!        (DATA as tune_eval reads it: `<label> <position string> [<score> [<move>]]` lines;
//!        `scripts/train-net.sh` gives the data and options of the build's network)

use konane::search::net_train::{self, FloatNet, TrainOptions};
use konane::search::tune;

/// Positions in a block of the data sets: blocks keep a game's positions together.
const BLOCK: usize = 500;

fn main() {
    let mut options = TrainOptions::default();
    let mut files = Vec::new();
    let mut board = None::<(u8, u8)>;
    let mut note = None::<String>;
    let command: Vec<String> = std::env::args().skip(1).collect();
    let mut args = command.clone().into_iter();
    while let Some(arg) = args.next() {
        let mut text = |name: &str| -> String {
            args.next()
                .unwrap_or_else(|| fail(&format!("{name} wants a value")))
        };
        let number = |name: &str, text: String| -> f64 {
            text.parse()
                .unwrap_or_else(|_| fail(&format!("{name} wants a number, not '{text}'")))
        };
        match arg.as_str() {
            "--board" => board = Some(board_size(&text("--board"))),
            "--note" => note = Some(text("--note")),
            "--symmetries" => options.symmetries = true,
            "--epochs" => options.epochs = number(&arg, text(&arg)) as usize,
            "--share" => options.search_share = number(&arg, text(&arg)),
            "--decay" => options.decay = number(&arg, text(&arg)),
            "--rate" => options.learning_rate = number(&arg, text(&arg)),
            "--seed" => options.seed = number(&arg, text(&arg)) as u64,
            "--choice" => options.choice_weight = number(&arg, text(&arg)),
            "--temperature" => options.choice_temperature = number(&arg, text(&arg)),
            _ if arg.starts_with("--") => fail(&format!("unknown option '{arg}'")),
            _ => files.push(arg),
        }
    }
    let Some(size) = board else {
        fail("say which board's network to train with --board WxH")
    };
    if files.is_empty() {
        fail("name at least one data set");
    }
    let mut samples = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(&format!("cannot read {path}: {e}")));
        // Only the network's inputs are kept: the patterns would double the memory.
        let read = tune::read_samples_keeping(&text, tune::Kept::NoPatterns)
            .unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        samples.extend(read.into_iter().filter(|s| s.reading.size == size));
    }
    println!(
        "{} positions ({} proven, {} searched)",
        samples.len(),
        samples.iter().filter(|s| s.proven).count(),
        samples.iter().filter(|s| s.search.is_some()).count(),
    );
    // The samples are moved, not copied, into the two parts, and back in their order for the
    // fit on all of them: one copy of a big board's data is most of the memory there is.
    let is_held_out = |i: usize| (i / BLOCK) % 5 == 4;
    let count = samples.len();
    let (mut kept, mut left) = (Vec::new(), Vec::new());
    for (i, sample) in samples.into_iter().enumerate() {
        match is_held_out(i) {
            true => left.push(sample),
            false => kept.push(sample),
        }
    }
    println!("{} left out of the first fit", left.len());
    let share = options.search_share;
    // A new network's output weights are zero: it adds nothing to the linear evaluation.
    let silent = FloatNet::new(options.seed).quantized(size);
    let first = net_train::train(&kept, &options);
    println!(
        "left out: without the network {:.4}, with it {:.4} (rounded {:.4}); fitted on: {:.4}",
        net_train::quantized_loss(&left, &silent, share),
        first.loss(&left, share),
        net_train::quantized_loss(&left, &first.quantized(size), share),
        first.loss(&kept, share)
    );
    let (before, choices) = net_train::choice_agreement(&left, &silent);
    let (after, _) = net_train::choice_agreement(&left, &first.quantized(size));
    println!(
        "left out: the search's best move ranked first {:.1}% without the network, {:.1}% with \
         it ({choices} positions)",
        100.0 * before,
        100.0 * after
    );
    let (mut kept, mut left) = (kept.into_iter(), left.into_iter());
    let samples: Vec<_> = (0..count)
        .filter_map(|i| match is_held_out(i) {
            true => left.next(),
            false => kept.next(),
        })
        .collect();
    let net = net_train::train(&samples, &options).quantized(size);
    println!(
        "all: without the network {:.4}, with it {:.4}; the best move first {:.1}% and {:.1}%",
        net_train::quantized_loss(&samples, &silent, share),
        net_train::quantized_loss(&samples, &net, share),
        100.0 * net_train::choice_agreement(&samples, &silent).0,
        100.0 * net_train::choice_agreement(&samples, &net).0
    );
    let path = format!("src/search/net_weights_{}x{}.rs", size.0, size.1);
    let provenance = note.unwrap_or_else(|| format!("train_net {}", command.join(" ")));
    if let Err(e) = std::fs::write(&path, net_train::weights_file(&net, &provenance)) {
        fail(&format!("cannot write {path}: {e}"));
    }
    println!("the network's weights written to {path}");
}

/// The board `text` names (`WxH`), if a network can have it.
fn board_size(text: &str) -> (u8, u8) {
    let squares = konane::search::net::NET_SQUARES;
    text.split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u8>().ok()?, h.parse::<u8>().ok()?)))
        .filter(|&(w, h)| usize::from(w) * usize::from(h) <= squares)
        .unwrap_or_else(|| {
            fail(&format!(
                "--board wants WxH with at most {squares} squares, not '{text}'"
            ))
        })
}

fn fail(message: &str) -> ! {
    eprintln!("train_net: {message}");
    std::process::exit(2)
}
