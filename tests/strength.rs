//! Strength by playing: konane-engine against the baseline players of tests/fixtures.

mod common;

use common::scratch::Scratch;
use std::process::Command;

/// Wins of konane-engine in `count` games against fixture `opponent` at `movetime` ms a move.
fn wins_against(opponent: &str, count: u32, movetime: u32) -> u64 {
    let dir = Scratch::new(&format!("strength-{opponent}"));
    let results = dir.join("results.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args([
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine")),
            "name=engine",
        ])
        .args([
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_konane-fixture")),
            &format!("arg={opponent}"),
            "name=baseline",
        ])
        .args([
            "--games",
            &count.to_string(),
            "--movetime",
            &movetime.to_string(),
            "--random-plies",
            "4",
        ])
        .args(["--results", results.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&results).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len() as u32, count);
    games
        .iter()
        .filter(|g| g["termination"] == "normal")
        .filter(|g| g[g["winner"].as_str().unwrap()] == "engine")
        .count() as u64
}

/// The 1-ply player that minimises our replies: in 100 games at 50 ms the engine won 100.
#[test]
fn beats_the_reply_minimiser() {
    let wins = wins_against("min-replies", 12, 20);
    assert!(wins >= 10, "only {wins} wins of 12");
}

/// The depth-4 mobility alpha-beta player: in 100 games at 50 ms the engine won 99.
#[test]
fn beats_the_depth_4_mobility_player() {
    let wins = wins_against("mobility4", 12, 20);
    assert!(wins >= 9, "only {wins} wins of 12");
}
