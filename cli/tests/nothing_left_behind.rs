//! The arbiter killed or interrupted at awkward moments: no engine outlives it, no game is lost
//! or played twice, and the results and the PGN agree.

mod common;

use common::arbiter::{
    arbiter_command, assert_none_left, engine_spec, eventually, fixture, survivors,
};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Waits until the arbiter's log shows `count` `go` commands sent, so engines are searching.
fn searching(log: &std::path::Path, count: usize) -> bool {
    eventually(Duration::from_secs(30), || {
        std::fs::read_to_string(log)
            .map(|text| text.lines().filter(|l| l.contains("< go ")).count() >= count)
            .unwrap_or(false)
    })
}

fn signal(child: &Child, signal: Signal) {
    kill(Pid::from_raw(child.id() as i32), signal).unwrap();
}

#[test]
fn a_killed_arbiter_leaves_no_engine_running() {
    let dir = common::scratch::Scratch::new("sigkill-engines");
    let log = dir.join("log.txt");
    let tag = format!("tag-{}-sigkill", std::process::id());
    // One engine behind a wrapper shell that does not exec it, one started directly; both stop
    // reading their input once asked to move, so the end of that input does not end them.
    let wrapped = format!("{} busy {tag}; true", env!("CARGO_BIN_EXE_konane-fixture"));
    let mut command = arbiter_command(&[fixture("busy", &tag)], &[]);
    command.args([
        "--engine",
        "cmd=sh",
        "arg=-c",
        &format!("arg={wrapped}"),
        "name=wrapped",
    ]);
    let mut arbiter = command
        .args(["--games", "2", "--concurrency", "2", "--tc", "600+0"])
        .args(["--log", log.to_str().unwrap()])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    assert!(searching(&log, 2), "both games started");
    assert!(!survivors(&tag).is_empty(), "the engines are running");
    signal(&arbiter, Signal::SIGKILL);
    arbiter.wait().unwrap();
    assert_none_left(&tag);
}

#[test]
fn ctrl_c_during_a_handshake_ends_the_run_at_once() {
    let dir = common::scratch::Scratch::new("ctrl-c-handshake");
    let log = dir.join("log.txt");
    let tag = format!("tag-{}-handshake", std::process::id());
    let engines = [fixture("no-isready", &tag), fixture("first", &tag)];
    let mut arbiter = arbiter_command(&engines, &["--stall-timeout", "60"])
        .args(["--log", log.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let waiting = eventually(Duration::from_secs(30), || {
        std::fs::read_to_string(&log).is_ok_and(|text| text.contains("< isready"))
    });
    assert!(waiting, "the handshake reached isready");
    let sent = Instant::now();
    signal(&arbiter, Signal::SIGINT);
    let status = arbiter.wait().unwrap();
    // The handshake's own deadline is 30 s: an answer well inside it was not waiting for it.
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(status.code(), Some(130));
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut arbiter.stdout.take().unwrap(), &mut stdout).unwrap();
    assert!(
        stdout.contains("Interrupted before the first game"),
        "{stdout}"
    );
    assert_none_left(&tag);
}

/// The games of a PGN file: each `Round` with its `Result`.
fn pgn_games(path: &std::path::Path) -> Vec<(u64, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let tag = |line: &str, name: &str| {
        line.strip_prefix(&format!("[{name} \""))
            .map(|rest| rest.trim_end_matches("\"]").to_string())
    };
    let mut games = Vec::new();
    let mut round = None;
    for line in text.lines() {
        if let Some(value) = tag(line, "Round") {
            round = value.parse().ok();
        }
        if let (Some(value), Some(id)) = (tag(line, "Result"), round) {
            games.push((id, value));
        }
    }
    games
}

/// A record without what differs from run to run (the move times).
fn game_only(mut record: serde_json::Value) -> serde_json::Value {
    record.as_object_mut().unwrap().remove("move_times_ms");
    record
}

#[test]
fn killed_again_and_again_then_resumed_the_tournament_has_exactly_its_games() {
    let dir = common::scratch::Scratch::new("sigkill-resume");
    let tag = format!("tag-{}-resume", std::process::id());
    let engines = [fixture("first", &tag), fixture("mobility4", &tag)];
    let run = |results: &std::path::Path, pgn: &std::path::Path| {
        let mut command = arbiter_command(&engines, &["--games", "200", "--concurrency", "2"]);
        command
            .args(["--random-plies", "4", "--resume"])
            .args(["--results", results.to_str().unwrap()])
            .args(["--pgn", pgn.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    };
    let (clean_results, clean_pgn) = (dir.join("clean.jsonl"), dir.join("clean.pgn"));
    assert!(run(&clean_results, &clean_pgn).status().unwrap().success());

    let (results, pgn) = (dir.join("results.jsonl"), dir.join("games.pgn"));
    let mut rng = common::Rng::new(9);
    let mut killed_with = Vec::new();
    for round in 0..8 {
        let mut arbiter = run(&results, &pgn).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(50 + rng.below(350) as u64));
        signal(&arbiter, Signal::SIGKILL);
        arbiter.wait().unwrap();
        killed_with.push(common::arbiter::records(&results).len());
        if round == 3 {
            // A kill in the middle of writing, made certain: half a record, half a game.
            let mut append = std::fs::File::options();
            append.append(true).create(true);
            let mut file = append.open(&results).unwrap();
            std::io::Write::write_all(&mut file, br#"{"id":7,"black":"fi"#).unwrap();
            let mut file = append.open(&pgn).unwrap();
            std::io::Write::write_all(&mut file, b"[Event \"konane-arbiter\"]\n[Round \"7\"]\n")
                .unwrap();
        }
    }
    // The kills came in the middle of the run, not after it.
    assert!(
        killed_with.iter().any(|&n| n > 0 && n < 200),
        "{killed_with:?}"
    );
    let output = run(&results, &pgn).stdout(Stdio::piped()).output().unwrap();
    assert!(output.status.success());

    let records: Vec<serde_json::Value> = common::arbiter::records(&results);
    let mut ids: Vec<u64> = records.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, (1..=200).collect::<Vec<_>>(), "none lost, none twice");
    let mut played: Vec<serde_json::Value> = records.into_iter().map(game_only).collect();
    played.sort_by_key(|r| r["id"].as_u64());
    let mut clean: Vec<serde_json::Value> = common::arbiter::records(&clean_results)
        .into_iter()
        .map(game_only)
        .collect();
    clean.sort_by_key(|r| r["id"].as_u64());
    assert_eq!(played, clean, "the same games as a run never killed");

    let mut games = pgn_games(&pgn);
    games.sort();
    let expected: Vec<(u64, String)> = played
        .iter()
        .map(|r| {
            let white_won = r["winner"] == "white";
            let result = if white_won { "1-0" } else { "0-1" };
            (r["id"].as_u64().unwrap(), result.to_string())
        })
        .collect();
    assert_eq!(games, expected, "the PGN agrees with the results");
    assert_none_left(&tag);
}

#[test]
fn a_closed_output_ends_the_arbiter_quietly() {
    let tag = format!("tag-{}-closed-output", std::process::id());
    let engines = [fixture("first", &tag), fixture("mobility4", &tag)];
    let mut arbiter = arbiter_command(&engines, &["--games", "400"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    let mut stdout = std::io::BufReader::new(arbiter.stdout.take().unwrap());
    std::io::BufRead::read_line(&mut stdout, &mut first_line).unwrap();
    assert!(first_line.starts_with("1/400"), "{first_line}");
    drop(stdout);
    let output = arbiter.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(141),
        "as a shell reports SIGPIPE"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_none_left(&tag);
}

#[test]
fn ctrl_c_counts_as_abandoned_only_the_games_in_progress() {
    let dir = common::scratch::Scratch::new("ctrl-c-abandoned");
    let log = dir.join("log.txt");
    let results = dir.join("results.jsonl");
    let tag = format!("tag-{}-abandoned", std::process::id());
    // konane-engine takes its 400 ms a move: the three games at once are still going when
    // Ctrl-C comes, and 57 more wait their turn, which must not be counted.
    let engines = [engine_spec("slow"), fixture("first", &tag)];
    let mut arbiter = arbiter_command(
        &engines,
        &["--games", "60", "--concurrency", "3", "--movetime", "400"],
    )
    .args(["--size", "6x6", "--log", log.to_str().unwrap()])
    .args(["--results", results.to_str().unwrap()])
    .stdout(Stdio::piped())
    .spawn()
    .unwrap();
    assert!(
        eventually(Duration::from_secs(30), || searching(&log, 3)),
        "three games began"
    );
    signal(&arbiter, Signal::SIGINT);
    assert_eq!(arbiter.wait().unwrap().code(), Some(130));
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut arbiter.stdout.take().unwrap(), &mut stdout).unwrap();
    // "The game in progress was abandoned, ...", or "The 3 games in progress were ...".
    let abandoned: usize = stdout
        .lines()
        .find_map(|line| {
            if line.starts_with("The game in progress was abandoned, not recorded: ") {
                return Some(1);
            }
            line.strip_prefix("The ")?
                .strip_suffix(
                    " games in progress were abandoned, not recorded: --resume plays them again.",
                )?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no count of abandoned games: {stdout}"));
    let recorded = common::arbiter::records(&results).len();
    assert!(
        (1..=3).contains(&abandoned),
        "{abandoned} abandoned: {stdout}"
    );
    assert!(recorded + abandoned <= 60, "{stdout}");
    assert_none_left(&tag);
}
