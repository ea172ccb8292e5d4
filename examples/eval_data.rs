//! Makes the evaluation's data set: positions from engine games, each labelled with who wins
//! it. Writes `<label> <position string>` lines to standard output (the labels of
//! `konane::search::tune::read_samples`); progress goes to standard error.
//!
//! Usage: cargo run --release --example eval_data -- [GAMES_PER_BOARD] [SEED] [--children]
//!            [--boards 8x8,10x10] [--games RESULTS.jsonl]... > FILE
//!
//! Every board below (or those `--boards` names) plays GAMES_PER_BOARD games (default 150) of
//! the engine against itself at depth 4, each opened with 2 to 9 random plies drawn from SEED
//! (default 1). Of every game, the positions with at most the board's stone limit are solved,
//! with at most 200 ms each, and written with the proven result (`W`, `L`); the unproven ones
//! are left out. With `--children`, each such position is solved move by move and the
//! positions its moves lead to are written too, with the results proven for them: siblings
//! that differ by one move and often in their result. Every third position before a game's
//! first proven one is written with the game's result (`w`, `l`): the result the solver proved
//! for that first proven position, or, when none was proven, who ran out of moves. The time
//! limit makes a rerun on another machine differ slightly; the data set in the repository
//! (README, Evaluation) is what the evaluation's weights are fitted to.
//!
//! With `--games`, the games are those of the arbiter's results files instead (their games on
//! each board, in file order; GAMES_PER_BOARD and SEED are then not used), labelled alike: the
//! positions met in real play, against a perfect defender for instance.

use konane::Position;
use konane::arbiter::record::{GameRecord, Termination};
use konane::rules::mix::Random;
use konane::search::selfplay;
use konane::solve::{MoveResult, ProofTable, Solver};
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
    let mut positional = Vec::new();
    let (mut children, mut boards) = (false, None::<Vec<String>>);
    let mut results_files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--children" => children = true,
            "--boards" => {
                let list = args
                    .next()
                    .unwrap_or_else(|| fail("--boards wants a list such as 8x8,10x10"));
                boards = Some(list.split(',').map(str::to_string).collect());
            }
            "--games" => results_files.push(
                args.next()
                    .unwrap_or_else(|| fail("--games wants a results file")),
            ),
            _ if arg.starts_with("--") => fail(&format!("unknown option '{arg}'")),
            _ => positional.push(arg),
        }
    }
    let number = |index: usize, name: &str, default: u64| -> u64 {
        positional.get(index).map_or(default, |text| {
            text.parse()
                .unwrap_or_else(|_| fail(&format!("{name} is a whole number, not '{text}'")))
        })
    };
    let games = number(0, "GAMES_PER_BOARD", 150);
    let mut random = Random::new(number(1, "SEED", 1));
    let names: Vec<String> = BOARDS
        .iter()
        .map(|&(w, h, ..)| format!("{w}x{h}"))
        .collect();
    if let Some(unknown) = (boards.iter().flatten()).find(|name| !names.contains(name)) {
        fail(&format!(
            "--boards: no board '{unknown}' here ({})",
            names.join(", ")
        ));
    }
    let records = read_records(&results_files);
    let stop = AtomicBool::new(false);
    let mut out = std::io::stdout().lock();
    for ((width, height, opening, max_stones), name) in BOARDS.into_iter().zip(&names) {
        if boards.as_ref().is_some_and(|boards| !boards.contains(name)) {
            continue;
        }
        let rules = Rules::new(width, height, opening, Capture::Straight).expect("valid rules");
        let table = ProofTable::new(256).expect("256 MB for the proof table");
        let (mut kept, mut tried) = (0, 0);
        let mut recorded = records.iter().filter(|game| {
            let rules = game[0].rules();
            (usize::from(rules.width()), usize::from(rules.height())) == (width, height)
        });
        let games = if results_files.is_empty() {
            games
        } else {
            recorded.clone().count() as u64
        };
        for game in 0..games {
            let game_positions = match recorded.next() {
                Some(positions) => positions.clone(),
                None => selfplay::play(rules, 2 + random.next_u64() % 8, 4, &mut random),
            };
            // Proven results, in game order: (index, side to move wins).
            let mut proven = Vec::new();
            for (index, position) in game_positions.iter().enumerate() {
                if position.stone_total() > max_stones || position.is_game_over() {
                    continue;
                }
                tried += 1;
                let solution = Solver::new(&table, &stop)
                    .with_deadline(Instant::now() + Duration::from_millis(200))
                    .solve(position, children);
                if let Some(wins) = solution.wins {
                    kept += 1;
                    proven.push((index, wins));
                    let label = if wins { 'W' } else { 'L' };
                    writeln!(out, "{label} {}", position.fen()).expect("standard output");
                }
                if children {
                    for &(mv, result) in &solution.moves {
                        // The child's side to move wins exactly when the move loses.
                        let label = match result {
                            MoveResult::Wins => 'L',
                            MoveResult::Loses => 'W',
                            MoveResult::Unknown => continue,
                        };
                        let mut child = *position;
                        child.play_unchecked(mv);
                        if !child.is_game_over() {
                            writeln!(out, "{label} {}", child.fen()).expect("standard output");
                        }
                    }
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

/// The positions of each game that ended normally in the results files at `paths`, in order
/// (the position after the last move included).
fn read_records(paths: &[String]) -> Vec<Vec<Position>> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(&format!("cannot read {path}: {e}")));
        for (number, line) in text.lines().enumerate() {
            let record: GameRecord = serde_json::from_str(line).unwrap_or_else(|e| {
                fail(&format!("{path}:{}: not a game record ({e})", number + 1))
            });
            if record.termination != Termination::Normal {
                continue;
            }
            let mut positions = Vec::new();
            let last = record
                .replay(|_, _, position| {
                    positions.push(*position);
                    Ok(())
                })
                .unwrap_or_else(|e| fail(&format!("{path}:{}: {e}", number + 1)));
            positions.push(last);
            games.push(positions);
        }
    }
    games
}

/// Prints `message` as this program's error and exits with status 2.
fn fail(message: &str) -> ! {
    eprintln!("eval_data: {message}");
    std::process::exit(2)
}
