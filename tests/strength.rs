//! Strength by playing: konane-engine against the baseline players of tests/fixtures.

mod common;

use common::scratch::Scratch;
use std::process::Command;

/// Wins of konane-engine in `count` games against fixture `opponent`, searching `depth` plies
/// a move. A depth, not a time, so that the result does not depend on the machine's load (the
/// fixtures search to a fixed depth whatever the limit): the games are the same on every run.
fn wins_against(opponent: &str, count: u32, depth: u32) -> u64 {
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
            "--depth",
            &depth.to_string(),
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

/// The 1-ply player that minimises our replies: at depth 8 the engine wins all 12 games.
#[test]
fn beats_the_reply_minimiser() {
    let wins = wins_against("min-replies", 12, 8);
    assert!(wins >= 11, "only {wins} wins of 12");
}

/// The depth-4 mobility alpha-beta player: at depth 8 the engine wins all 12 games (11 at
/// depth 6).
#[test]
fn beats_the_depth_4_mobility_player() {
    let wins = wins_against("mobility4", 12, 8);
    assert!(wins >= 11, "only {wins} wins of 12");
}

/// Clock games at 1+0.01, two at a time: the engine's time use never loses a game on time (the
/// arbiter's margin is its default 100 ms).
#[test]
fn clock_games_at_one_second_lose_nothing_on_time() {
    let dir = Scratch::new("strength-clock");
    let results = dir.join("results.jsonl");
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    let output = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args(["--engine", &engine, "name=a"])
        .args(["--engine", &engine, "name=b"])
        .args(["--games", "8", "--concurrency", "2", "--tc", "1+0.01"])
        .args([
            "--random-plies",
            "4",
            "--results",
            results.to_str().unwrap(),
        ])
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
    assert_eq!(games.len(), 8);
    for game in &games {
        assert_eq!(game["termination"], "normal", "{game}");
    }
}
