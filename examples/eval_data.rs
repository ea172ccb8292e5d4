//! Makes the evaluation's data set: positions from engine games, each labelled by the solver
//! with who wins it. Writes `W <position string>` (the side to move wins) or `L <position
//! string>` lines to standard output; progress goes to standard error.
//!
//! Usage: cargo run --release --example eval_data -- [GAMES_PER_BOARD] [SEED] > FILE
//!
//! Every board below plays GAMES_PER_BOARD games (default 150) of the engine against itself at
//! depth 4, each opened with 2 to 9 random plies drawn from SEED (default 1). Of every game,
//! the positions with at most the board's stone limit are solved, with at most 200 ms each;
//! the unproven ones are left out. The time limit makes a rerun on another machine differ
//! slightly; the data set in the repository is what the evaluation's weights are fitted to.

use konane::board::splitmix64;
use konane::search::time::Limits;
use konane::search::tt::Table;
use konane::search::{self, Flags, Settings, Shared, skill};
use konane::solve::{ProofTable, Solver};
use konane::{Capture, Color, Opening, Position, Rules};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The boards, their opening rule, and the most stones a position may have to be solved.
const BOARDS: [(usize, usize, Opening, u32); 4] = [
    (6, 6, Opening::Traditional, 34),
    (7, 7, Opening::Any, 34),
    (8, 8, Opening::Traditional, 32),
    (10, 10, Opening::Traditional, 30),
];

fn stones(position: &Position) -> u32 {
    position.stone_count(Color::Black) + position.stone_count(Color::White)
}

/// One game of the engine against itself from `random_plies` random plies; every position
/// after the opening removals, in order.
fn play_game(rules: Rules, random_plies: u64, seed: &mut u64) -> Vec<Position> {
    let mut position = Position::start(rules).expect("the boards are playable");
    let mut positions = Vec::new();
    let (table, flags) = (Table::new(4), Flags::default());
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let settings = Settings {
        threads: 1,
        move_overhead: Duration::ZERO,
        skill: skill::FULL,
    };
    for ply in 0.. {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = if ply < random_plies {
            *seed = splitmix64(*seed);
            moves[(*seed % moves.len() as u64) as usize]
        } else {
            let shared = Shared {
                tt: &table,
                flags: &flags,
            };
            let outcome = search::search(
                &position,
                &limits,
                settings,
                shared,
                Instant::now(),
                &mut |_| {},
            );
            outcome.best.expect("a position with moves has a best one")
        };
        position.play_unchecked(mv);
        if ply >= 1 {
            positions.push(position);
        }
    }
    positions
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args
        .next()
        .map_or(150, |a| a.parse().expect("GAMES_PER_BOARD"));
    let mut seed: u64 = args.next().map_or(1, |a| a.parse().expect("SEED"));
    let stop = AtomicBool::new(false);
    let mut out = std::io::stdout().lock();
    for (width, height, opening, max_stones) in BOARDS {
        let rules = Rules::new(width, height, opening, Capture::Straight).expect("valid rules");
        let mut table = ProofTable::new(256).expect("256 MB for the proof table");
        let (mut kept, mut tried) = (0, 0);
        for game in 0..games {
            seed = splitmix64(seed);
            let random_plies = 2 + seed % 8;
            for position in play_game(rules, random_plies, &mut seed) {
                if stones(&position) > max_stones || position.is_game_over() {
                    continue;
                }
                tried += 1;
                let solution = Solver::new(&mut table, &stop)
                    .with_deadline(Instant::now() + Duration::from_millis(200))
                    .solve(&position, false);
                if let Some(wins) = solution.wins {
                    kept += 1;
                    let label = if wins { 'W' } else { 'L' };
                    writeln!(out, "{label} {}", position.fen()).expect("standard output");
                }
            }
            if (game + 1) % 25 == 0 {
                eprintln!(
                    "{width}x{height}: {} games, {kept} of {tried} positions proven",
                    game + 1
                );
            }
        }
    }
}
