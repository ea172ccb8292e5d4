//! Makes the evaluation's data set: positions from engine games, each labelled with who wins
//! it. Writes `<label> <position string>` lines to standard output (the labels of
//! `konane::search::tune::read_samples`); progress goes to standard error.
//!
//! Usage: cargo run --release --example eval_data -- [GAMES_PER_BOARD] [SEED] > FILE
//!
//! Every board below plays GAMES_PER_BOARD games (default 150) of the engine against itself at
//! depth 4, each opened with 2 to 9 random plies drawn from SEED (default 1). Of every game,
//! the positions with at most the board's stone limit are solved, with at most 200 ms each,
//! and written with the proven result (`W`, `L`); the unproven ones are left out. Every third
//! earlier position is written with the game's result (`w`, `l`): the result the solver proved
//! for the game's first proven position, or, when none was proven, who ran out of moves. The
//! time limit makes a rerun on another machine differ slightly; the data set in the repository
//! is what the evaluation's weights are fitted to.

use konane::rules::mix::Random;
use konane::search::selfplay;
use konane::solve::{ProofTable, Solver};
use konane::{Capture, Opening, Rules};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The boards, their opening rule, and the most stones a position may have to be solved.
const BOARDS: [(usize, usize, Opening, u32); 5] = [
    (6, 6, Opening::Traditional, 34),
    (7, 7, Opening::Any, 34),
    (8, 8, Opening::Traditional, 32),
    (10, 10, Opening::Traditional, 36),
    (12, 12, Opening::Traditional, 40),
];

/// Of the positions before a game's first proven one, every this many is written.
const GAME_LABEL_EVERY: usize = 3;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args
        .next()
        .map_or(150, |a| a.parse().expect("GAMES_PER_BOARD"));
    let mut random = Random::new(args.next().map_or(1, |a| a.parse().expect("SEED")));
    let stop = AtomicBool::new(false);
    let mut out = std::io::stdout().lock();
    for (width, height, opening, max_stones) in BOARDS {
        let rules = Rules::new(width, height, opening, Capture::Straight).expect("valid rules");
        let table = ProofTable::new(256).expect("256 MB for the proof table");
        let (mut kept, mut tried) = (0, 0);
        for game in 0..games {
            let random_plies = 2 + random.next_u64() % 8;
            let game_positions = selfplay::play(rules, random_plies, 4, &mut random);
            // Proven results, in game order: (index, side to move wins).
            let mut proven = Vec::new();
            for (index, position) in game_positions.iter().enumerate() {
                if position.stone_total() > max_stones || position.is_game_over() {
                    continue;
                }
                tried += 1;
                let solution = Solver::new(&table, &stop)
                    .with_deadline(Instant::now() + Duration::from_millis(200))
                    .solve(position, false);
                if let Some(wins) = solution.wins {
                    kept += 1;
                    proven.push((index, wins));
                    let label = if wins { 'W' } else { 'L' };
                    writeln!(out, "{label} {}", position.fen()).expect("standard output");
                }
            }
            let Some(last) = game_positions.last() else {
                continue;
            };
            // The colour that wins the game: by the first proof, or by who ran out of moves.
            let (first_proven, winner) = match proven.first() {
                Some(&(index, wins)) => {
                    let side = game_positions[index].side_to_move();
                    (index, if wins { side } else { side.opponent() })
                }
                None => (game_positions.len() - 1, last.side_to_move().opponent()),
            };
            for position in game_positions[..first_proven]
                .iter()
                .step_by(GAME_LABEL_EVERY)
                .filter(|position| !position.is_game_over())
            {
                let label = if position.side_to_move() == winner {
                    'w'
                } else {
                    'l'
                };
                writeln!(out, "{label} {}", position.fen()).expect("standard output");
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
