//! How often positions of engine games split into independent regions, by board and stones
//! left: the measurement behind the README's figures on regions (issue 31).
//!
//! Usage: cargo run --release --example region_split -- [GAMES_PER_BOARD] [DEPTH]
//!
//! Each board plays GAMES_PER_BOARD games (default 40) of the engine against itself at DEPTH
//! (default 3) from 2 to 9 random plies; every position once the captures begin is split into
//! regions. Prints, per board and band of stones left, the positions seen, the share that
//! split into two regions or more, and the mean stones of the largest region when they did.

use konane::rules::mix::Random;
use konane::search::selfplay;
use konane::{Capture, Opening, Phase, Rules};
use std::collections::BTreeMap;

const BOARDS: [(usize, usize); 6] = [(6, 6), (8, 8), (12, 12), (16, 16), (18, 18), (20, 3)];

/// Positions, those that split, and the largest regions' stones summed over those.
#[derive(Default)]
struct Band {
    positions: u64,
    split: u64,
    largest: u64,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let mut random = Random::new(2026);
    for (width, height) in BOARDS {
        let opening = if width % 2 == 0 && height % 2 == 0 {
            Opening::Traditional
        } else {
            Opening::Any
        };
        let rules = Rules::new(width, height, opening, Capture::Straight).expect("a board");
        let mut bands: BTreeMap<u32, Band> = BTreeMap::new();
        for _ in 0..games {
            let random_plies = 2 + random.below(8) as u64;
            for position in selfplay::play(rules, random_plies, depth, &mut random) {
                if position.phase() != Phase::Jumps {
                    continue;
                }
                let regions = position.regions();
                let band = bands.entry(position.stone_total() / 4 * 4).or_default();
                band.positions += 1;
                if regions.len() > 1 {
                    band.split += 1;
                    let largest = regions.iter().map(|r| r.stone_total()).max().unwrap_or(0);
                    band.largest += u64::from(largest);
                }
            }
        }
        println!("{width}x{height}, {games} games at depth {depth}:");
        println!("  stones   positions   split   largest region (mean stones)");
        for (low, band) in &bands {
            let share = 100.0 * band.split as f64 / band.positions as f64;
            let largest = if band.split > 0 {
                format!("{:.1}", band.largest as f64 / band.split as f64)
            } else {
                "-".to_string()
            };
            println!(
                "  {:>3}-{:<3} {:>9} {:>6.1}%   {largest}",
                low,
                low + 3,
                band.positions,
                share
            );
        }
    }
}
