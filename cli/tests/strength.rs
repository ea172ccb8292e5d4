//! Strength by playing: konane-engine against the baseline players of tests/fixtures.

mod common;

use common::scratch::Scratch;
use std::process::Command;
use std::sync::{Mutex, MutexGuard};

/// Held while a test's games are played, so that the tests here play one after another: the clock
/// games' time use is what they test, and the depth games beside them would take the cores they
/// count on (cargo runs a file's tests on parallel threads).
static CORES: Mutex<()> = Mutex::new(());

/// The cores, once the games that have them are done (or failed).
fn cores() -> MutexGuard<'static, ()> {
    CORES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The games of one konane-arbiter run with `args`, from its results file; the run must
/// succeed and record `count` games.
fn arbiter_games(name: &str, args: &[String], count: usize) -> Vec<serde_json::Value> {
    let _cores = cores();
    let dir = Scratch::new(name);
    let results = dir.join("results.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args(args)
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
    assert_eq!(games.len(), count);
    games
}

fn engine_arg() -> String {
    format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"))
}

/// Wins of konane-engine in `count` games against fixture `opponent`, searching `depth` plies
/// a move. A depth, not a time, so that the result does not depend on the machine's load (the
/// fixtures search to a fixed depth whatever the limit): the games are the same on every run.
fn wins_against(opponent: &str, count: u32, depth: u32) -> usize {
    let args = [
        "--engine".to_string(),
        engine_arg(),
        "name=engine".to_string(),
        "--engine".to_string(),
        format!("cmd={}", env!("CARGO_BIN_EXE_konane-fixture")),
        format!("arg={opponent}"),
        "name=baseline".to_string(),
        "--games".to_string(),
        count.to_string(),
        "--depth".to_string(),
        depth.to_string(),
    ];
    arbiter_games(&format!("strength-{opponent}"), &args, count as usize)
        .iter()
        .filter(|g| g["termination"] == "normal")
        .filter(|g| g[g["winner"].as_str().unwrap()] == "engine")
        .count()
}

/// The 1-ply player that minimises our replies: at depth 8 the engine wins all 12 games.
#[test]
fn beats_the_reply_minimiser() {
    let wins = wins_against("min-replies", 12, 8);
    assert!(wins >= 11, "only {wins} wins of 12");
}

/// The depth-4 mobility alpha-beta player: at depth 8 the engine wins all 12 games.
#[test]
fn beats_the_depth_4_mobility_player() {
    let wins = wins_against("mobility4", 12, 8);
    assert!(wins >= 11, "only {wins} wins of 12");
}

/// Clock games at 1+0.01, two at a time: the engine's time use never loses a game on time (the
/// arbiter's margin is its default 100 ms).
#[test]
fn clock_games_at_one_second_lose_nothing_on_time() {
    let args = [
        "--engine",
        &engine_arg(),
        "name=a",
        "--engine",
        &engine_arg(),
        "name=b",
        "--games",
        "8",
        "--concurrency",
        "2",
        "--tc",
        "1+0.01",
    ]
    .map(String::from);
    for game in arbiter_games("strength-clock", &args, 8) {
        assert_eq!(game["termination"], "normal", "{game}");
    }
}
