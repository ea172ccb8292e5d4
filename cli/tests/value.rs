//! `konane-engine value` through its command line: the values of known shapes, the same
//! winners as `solve` on positions late in random games, and clear refusals.

mod common;

use common::Rng;
use konane::{Capture, Opening, Position, Rules};
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
