//! How long the solver takes to prove positions of engine games, by board and stone count:
//! the measurement behind the engine's proof thresholds (`exact::max_stones`).
//!
//! Usage: cargo run --release --example proof_times -- [GAMES_PER_BOARD] [LIMIT_MS]
//!
//! Each board plays GAMES_PER_BOARD games (default 40) of the engine against itself at depth
//! 4 from 2 to 9 random plies, then solves each position of 20 to 44 stones with a cold 16 MB
//! table (as the engine's first proof of a game has), for at most LIMIT_MS (default 1000).
//! Prints, per board and stone count, the median proof time (`>LIMIT` when at most half were
//! proven) and the shares proven within 10, 50 and 250 ms.

use konane::rules::mix::Random;
use konane::search::selfplay;
use konane::solve::{ProofTable, Solver};
use konane::{Capture, Opening, Rules};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const BOARDS: [(usize, usize, Opening); 4] = [
    (6, 6, Opening::Traditional),
    (8, 8, Opening::Traditional),
    (10, 10, Opening::Traditional),
    (12, 12, Opening::Traditional),
];

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args
        .next()
        .map_or(40, |a| a.parse().expect("GAMES_PER_BOARD"));
    let limit = Duration::from_millis(args.next().map_or(1000, |a| a.parse().expect("LIMIT_MS")));
    let stop = AtomicBool::new(false);
    let mut random = Random::new(1);
    for (width, height, opening) in BOARDS {
        let rules = Rules::new(width, height, opening, Capture::Straight).expect("valid rules");
        // Per stone count, the proof times in ms (`None`: not proven within the limit).
        let mut times: BTreeMap<u32, Vec<Option<f64>>> = BTreeMap::new();
        for _ in 0..games {
            let random_plies = 2 + random.next_u64() % 8;
            for position in selfplay::play(rules, random_plies, 4, &mut random) {
                let stones = position.stone_total();
                if !(20..=44).contains(&stones) || position.is_game_over() {
                    continue;
                }
                let mut table = ProofTable::new(16).expect("16 MB");
                table.clear();
                let started = Instant::now();
                let solution = Solver::new(&table, &stop)
                    .with_deadline(started + limit)
                    .solve(&position, false);
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                times
                    .entry(stones)
                    .or_default()
                    .push(solution.wins.map(|_| ms));
            }
        }
        println!("{width}x{height}: stones, positions, median ms, proven within 10 / 50 / 250 ms");
        for (stones, list) in &times {
            let mut sorted: Vec<f64> = list.iter().map(|t| t.unwrap_or(f64::INFINITY)).collect();
            sorted.sort_by(f64::total_cmp);
            let median = sorted[sorted.len() / 2];
            let within = |ms: f64| sorted.iter().filter(|&&t| t <= ms).count() * 100 / sorted.len();
            let median = if median.is_finite() {
                format!("{median:.1}")
            } else {
                format!(">{}", limit.as_millis())
            };
            println!(
                "  {stones}: {}, {median}, {}% / {}% / {}%",
                sorted.len(),
                within(10.0),
                within(50.0),
                within(250.0)
            );
        }
    }
}
