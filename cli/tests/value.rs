//! `konane-engine value` through its command line: the values of known shapes, the same
//! winners as `solve` on positions late in random games, and clear refusals.

mod common;

use common::Rng;
use konane::{Capture, Color, Diagram, Opening, Position, Rules};
use std::process::{Command, Output};

fn engine(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_konane-engine"))
        .args(arguments)
        .output()
        .expect("konane-engine runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The value of `winner:` in a report.
fn winner(report: &str) -> Option<&str> {
    report
        .lines()
        .find_map(|line| line.strip_prefix("winner: "))
        .and_then(|rest| rest.split_whitespace().next())
}

#[test]
fn two_separate_pairs_are_star_plus_star() {
    let output = engine(&["value", "--opening", "any", "--fen", "9/9/1bw3bw1 b"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "value: 0\noutcome: the player to move loses\nwinner: White (Black to move)\n\
         regions: 2\nregion 1: b1 c1 = *\nregion 2: g1 h1 = *\n"
    );
    assert!(
        stderr(&output).contains("positions valued"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn value_and_solve_name_the_same_winner_late_in_random_games() {
    let mut rng = Rng::new(31);
    let mut compared = 0;
    while compared < 12 {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let mut position = Position::start(rules).unwrap();
        while position.stone_total() > 16 && !position.is_game_over() {
            let moves = position.legal_moves();
            position.play(moves[rng.below(moves.len())]).unwrap();
        }
        if position.is_game_over() {
            continue;
        }
        let fen = position.fen();
        let value = engine(&["value", "--size", "6x6", "--fen", &fen]);
        let solve = engine(&["solve", "--size", "6x6", "--fen", &fen, "--threads", "1"]);
        assert!(value.status.success(), "{fen}: {}", stderr(&value));
        assert!(solve.status.success(), "{fen}: {}", stderr(&solve));
        assert_eq!(
            winner(&stdout(&value)),
            winner(&stdout(&solve)),
            "{fen}: value says\n{}solve says\n{}",
            stdout(&value),
            stdout(&solve)
        );
        compared += 1;
    }
}

#[test]
fn refusals_name_what_was_wrong() {
    let start = engine(&["value", "--size", "6x6"]);
    assert_eq!(start.status.code(), Some(2));
    assert!(
        stderr(&start).contains("opening removals are not over"),
        "{}",
        stderr(&start)
    );
    let bad = engine(&["value", "--fen", "8/8/8/8/8/8/8/7x b"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("'x'"), "{}", stderr(&bad));
    let crowded = engine(&[
        "value", "--size", "8x8", "--moves", "d5 e5", "--limit", "50",
    ]);
    assert_eq!(crowded.status.code(), Some(1));
    assert!(
        stderr(&crowded).contains("more than 50 distinct positions"),
        "{}",
        stderr(&crowded)
    );
    let zero = engine(&["value", "--fen", "9/9/1bw3bw1 b", "--limit", "0"]);
    assert_eq!(zero.status.code(), Some(2));
}

/// The position string of a narrow-board setup as scripts/narrow.py writes it: the full board
/// (a1 white) but for a gap of two squares, with `side` to move.
fn setup_fen(setup: &str, width: usize, height: usize, side: char) -> String {
    let (f, r) = ((width - 1) / 2, (height - 1) / 2);
    let gap = match setup {
        "hc" => [(0, 0), (1, 0)],
        "vc" => [(0, 0), (0, 1)],
        "hm" => [(f, r), (f + 1, r)],
        _ => [(f, r), (f, r + 1)],
    };
    let squares = (0..width * height)
        .map(|i| {
            let (file, rank) = (i % width, i / width);
            match (gap.contains(&(file, rank)), (file + rank) % 2) {
                (true, _) => None,
                (false, 0) => Some(Color::White),
                (false, _) => Some(Color::Black),
            }
        })
        .collect();
    let side = if side == 'b' {
        Color::Black
    } else {
        Color::White
    };
    Diagram {
        width,
        height,
        squares,
        side,
    }
    .to_string()
}

#[test]
fn values_and_two_solves_give_the_same_outcome_on_narrow_setups() {
    for (height, widths) in [(3, 3..=7), (4, 3..=5)] {
        for width in widths {
            for setup in ["hm", "vm", "hc", "vc"] {
                let size = format!("{width}x{height}");
                let winners: Vec<String> = ['b', 'w']
                    .iter()
                    .map(|&side| {
                        let fen = setup_fen(setup, width, height, side);
                        let solve =
                            engine(&["solve", "--size", &size, "--opening", "any", "--fen", &fen]);
                        assert!(solve.status.success(), "{fen}: {}", stderr(&solve));
                        winner(&stdout(&solve)).expect("a winner").to_string()
                    })
                    .collect();
                let expected = match (winners[0].as_str(), winners[1].as_str()) {
                    ("Black", "White") => "the player to move wins",
                    ("White", "Black") => "the player to move loses",
                    ("Black", _) => "Black wins whoever starts",
                    _ => "White wins whoever starts",
                };
                let fen = setup_fen(setup, width, height, 'b');
                let value = engine(&["value", "--opening", "any", "--fen", &fen]);
                assert!(value.status.success(), "{fen}: {}", stderr(&value));
                assert!(
                    stdout(&value).contains(&format!("outcome: {expected}\n")),
                    "{fen}: solve says {expected}, value says\n{}",
                    stdout(&value)
                );
            }
        }
    }
}
