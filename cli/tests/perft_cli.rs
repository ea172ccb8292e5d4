//! The `konane-engine perft` subcommand, driven as a user would.

use std::process::Command;

fn perft(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_konane-engine"))
        .arg("perft")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn counts_and_divides() {
    let (ok, out, _) = perft(&["6"]);
    assert!(ok);
    assert_eq!(out, "Nodes searched: 7124\n");
    let (_, out, _) = perft(&["0", "--divide"]);
    assert_eq!(
        out, "Nodes searched: 1\n",
        "depth 0 counts the position itself"
    );
    let (ok, out, _) = perft(&["2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        ["h1: 2", "e4: 4", "d5: 4", "a8: 2", "Nodes searched: 12"]
    );
}

#[test]
fn takes_rules_and_positions() {
    let (ok, out, _) = perft(&["1", "--size", "9x13", "--opening", "any"]);
    assert!(ok);
    assert_eq!(out, "Nodes searched: 58\n");
    let fen = "1w2/w3/b3/4 b";
    let (_, straight, _) = perft(&["1", "--fen", fen, "--divide"]);
    let (_, turning, _) = perft(&["1", "--fen", fen, "--capture", "turning", "--divide"]);
    assert_eq!(straight, "a2a4: 1\nNodes searched: 1\n");
    assert_eq!(turning, "a2a4: 1\na2a4c4: 1\nNodes searched: 2\n");
}

#[test]
fn bad_arguments_are_named() {
    for (args, expected) in [
        (vec!["2", "--size", "30x8"], "30x8"),
        (vec!["2", "--size", "9x9"], "even width and height"),
        (vec!["2", "--capture", "diagonal"], "diagonal"),
        (vec!["2", "--fen", "bw/wx b"], "unexpected character 'x'"),
        (vec!["x"], "invalid value 'x'"),
    ] {
        let (ok, _, err) = perft(&args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}
