//! `bench`: a fixed set of positions searched to a fixed depth. The total node count is a
//! fingerprint of the search; nodes per second measure its speed.

use crate::rules::position::Position;
use crate::rules::{Capture, Opening};
use crate::search::tt::Table;
use crate::search::{self, Flags};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The depth `bench` searches to when not told.
pub const DEFAULT_DEPTH: u32 = 9;

/// The bench positions: position string, opening, capture.
const POSITIONS: [(&str, Opening, Capture); 8] = [
    (
        "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b",
        Opening::Traditional,
        Capture::Straight,
    ),
    (
        "bwbwbwbw/wbwbwbwb/bwbwbwbw/wb2wbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b",
        Opening::Traditional,
        Capture::Straight,
    ),
    (
        "bwbwbwbw/wbwbwbwb/bwb1bwbw/w3wbwb/bwb1bwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w",
        Opening::Traditional,
        Capture::Straight,
    ),
    (
        "b1bwbwbw/3bwbwb/b3bwbw/wb1b1w1b/bw1wbwbw/w1wb1bwb/bwbwbwbw/wbwbwbwb b",
        Opening::Traditional,
        Capture::Straight,
    ),
    (
        "bwbwbwbwbw/wbwbwbwbwb/bwbwbwbwbw/wbwbwbwbwb/bwbw2bwbw/wbwb1bwbwb/bwbwbwbwbw/wbwbwbwbwb/bwbwbwbwbw/wbwbwbwbwb w",
        Opening::Traditional,
        Capture::Straight,
    ),
    (
        "bwbwbw/1bwbwb/3wbw/w2bwb/b2wbw/wbwbwb b",
        Opening::Any,
        Capture::Turning,
    ),
    (
        "bwbwbwbw/wbwbwbwb/bwb1bwbw/w3wbwb/bwb1bwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w",
        Opening::Traditional,
        Capture::Single,
    ),
    (
        "bwbwbwbwbwbw/wbwbwbwbwbwb/bwbwbwbwbwbw/wbwbw1wbwbwb/bwbwb3bwbw/wbwbw1wbwbwb/bwbwbwbwbwbw/wbwbwbwbwbwb/bwbwbwbwbwbw/wbwbwbwbwbwb b",
        Opening::Any,
        Capture::Straight,
    ),
];

/// What a bench run measured.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` on one thread with a fresh 16 MB table; `None`
/// when `flags.stop` was set before the end.
pub fn run(depth: u32, flags: &Flags) -> Option<BenchResult> {
    let started = Instant::now();
    let mut nodes = 0;
    for (fen, opening, capture) in POSITIONS {
        let position =
            Position::from_fen(fen, opening, capture).expect("bench positions are valid");
        nodes += search::search_to_depth(&position, depth, &Table::new(16), flags).nodes;
        if flags.stop.load(Ordering::Relaxed) {
            return None;
        }
    }
    Some(BenchResult {
        nodes,
        elapsed: started.elapsed(),
    })
}
