//! Every face of the arbiter (tournaments, `play`, `check`, `merge`) goes through the same
//! library paths, so what one refuses or explains, all do: output files checked before the
//! first move, hints for an engine that cannot start, unique non-empty names, stderr in a
//! crash's progress line, a retry-safe merge, games' own dates kept.

mod common;

use common::arbiter::{arbiter, fixture, records};
use common::process::Piped;
use common::scratch::Scratch;
use std::process::Command;

fn arbiter_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn an_unwritable_pgn_is_named_by_every_face() {
    let dir = Scratch::new("faces-pgn");
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    let tournament = arbiter(
        &[engine.clone(), engine.clone()],
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--pgn",
            "/nonexistent/x.pgn",
        ],
    );
    let play = arbiter_in(
        dir.path(),
        &["play", "--engine", &engine, "--pgn", "/nonexistent/x.pgn"],
    );
    // `play` refuses before the first move: no board is drawn, no prompt shown.
    assert!(!String::from_utf8_lossy(&play.stdout).contains("to move>"));
    for output in [tournament, play] {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("PGN file /nonexistent/x.pgn: No such file or directory"),
            "{stderr}"
        );
    }
}

#[test]
fn an_engine_that_cannot_start_gets_the_same_hint_from_every_face() {
    let dir = Scratch::new("faces-hints");
    let bot = dir.join("mybot");
    std::fs::write(&bot, "#!/bin/sh\nexit 0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = dir.join("script.py");
    std::fs::write(&script, "print('hi')\n").unwrap();
    let cases = [
        ("cmd=mybot", "write cmd=./mybot"),
        ("cmd=python3 mybot", "write cmd=python3 arg=mybot"),
        ("cmd=./script.py", "chmod +x ./script.py"),
        ("cmd=/tmp", "is a folder"),
    ];
    for (engine, hint) in cases {
        let words = [engine];
        let check = arbiter_in(
            dir.path(),
            &[&["check", "--quick", "--engine"], &words[..]].concat(),
        );
        let play = arbiter_in(dir.path(), &[&["play", "--engine"], &words[..]].concat());
        let tournament = arbiter_in(
            dir.path(),
            &[
                &["--engine"],
                &words[..],
                &["--engine", "cmd=./mybot", "--games", "2"],
            ]
            .concat(),
        );
        for (face, output) in [("check", check), ("play", play), ("tournament", tournament)] {
            let text = String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr);
            assert!(text.contains(hint), "{face} {engine}: {text}");
        }
    }
}

#[test]
fn repeated_names_stay_apart_and_an_empty_name_is_refused() {
    let dir = Scratch::new("faces-names");
    let results = dir.join("results.jsonl");
    let tag = format!("tag-{}-names", std::process::id());
    let named = |name: &str| {
        format!(
            "{} name={name}",
            fixture("first", &tag).rsplit_once(' ').unwrap().0
        )
    };
    let output = arbiter(
        &[named("a"), named("a"), named("a-2")],
        &[
            "--games",
            "2",
            "--movetime",
            "10",
            "--results",
            results.to_str().unwrap(),
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let mut names: Vec<String> = records(&results)
        .iter()
        .flat_map(|r| [r["black"].to_string(), r["white"].to_string()])
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(names, ["\"a\"", "\"a-2\"", "\"a-3\""]);
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    for args in [
        vec!["--engine", &engine, "name=", "--engine", &engine],
        vec!["play", "--engine", &engine, "name="],
        vec!["check", "--engine", &engine, "name="],
    ] {
        let output = arbiter_in(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("its name is empty"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_folder_given_for_results_is_called_a_folder() {
    let dir = Scratch::new("faces-folder");
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    let folder = dir.path().to_str().unwrap();
    for args in [
        vec![
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--results",
            folder,
        ],
        vec!["play", "--engine", &engine, "--results", folder],
    ] {
        let output = arbiter_in(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("results file {folder} is a folder")),
            "{stderr}"
        );
    }
}

#[test]
fn check_says_once_that_it_takes_one_engine() {
    let output = arbiter_in(
        &std::env::temp_dir(),
        &["check", "--engine", "cmd=a", "--engine", "cmd=b"],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("check: check"), "{stderr}");
    assert!(
        stderr.contains("takes exactly one --engine, and 2 were given"),
        "{stderr}"
    );
}

#[test]
fn a_failed_merge_leaves_no_file_behind_and_a_retry_works() {
    let dir = Scratch::new("faces-merge");
    let tag = format!("tag-{}-merge", std::process::id());
    let shard = dir.join("shard.jsonl");
    let output = arbiter(
        &[fixture("first", &tag), fixture("min-replies", &tag)],
        &[
            "--games",
            "2",
            "--movetime",
            "10",
            "--results",
            shard.to_str().unwrap(),
        ],
    );
    assert!(output.status.success(), "{output:?}");
    // A game of another day and machine keeps its own date and site in the merged PGN.
    let text = std::fs::read_to_string(&shard).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[0]["date"] = "2001.02.03".into();
    lines[0]["site"] = "elsewhere".into();
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(&shard, text.join("\n") + "\n").unwrap();
    let merged = dir.join("merged.jsonl");
    let merge = |pgn: &str| {
        arbiter_in(
            dir.path(),
            &[
                "merge",
                shard.to_str().unwrap(),
                "--results",
                merged.to_str().unwrap(),
                "--pgn",
                pgn,
            ],
        )
    };
    let failed = merge("/nonexistent/x.pgn");
    assert_eq!(failed.status.code(), Some(2), "{failed:?}");
    assert!(
        !merged.exists(),
        "the failed merge left {}",
        merged.display()
    );
    let pgn = dir.join("merged.pgn");
    let retried = merge(pgn.to_str().unwrap());
    assert!(retried.status.success(), "{retried:?}");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn_text.contains("[Date \"2001.02.03\"]"), "{pgn_text}");
    assert!(pgn_text.contains("[Site \"elsewhere\"]"), "{pgn_text}");
}

#[test]
fn merge_names_its_inputs_as_inputs() {
    let dir = Scratch::new("faces-merge-input");
    let input = dir.join("broken.jsonl");
    std::fs::write(&input, "not json\n{\"also\": \"not a game\"}\n").unwrap();
    let output = arbiter_in(dir.path(), &["merge", input.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("--results"), "{stderr}");
    assert!(
        stderr.contains(&format!("{}:1:", input.display())),
        "{stderr}"
    );
}

#[test]
fn resume_keeps_exactly_the_recorded_games_in_the_pgn() {
    let dir = Scratch::new("faces-resume");
    let tag = format!("tag-{}-resume", std::process::id());
    let (results, pgn) = (dir.join("results.jsonl"), dir.join("games.pgn"));
    let engines = [fixture("first", &tag), fixture("min-replies", &tag)];
    let run = |extra: &[&str]| {
        let args = [
            &["--games", "4", "--movetime", "10", "--results"],
            &[results.to_str().unwrap(), "--pgn", pgn.to_str().unwrap()][..],
            extra,
        ]
        .concat();
        arbiter(&engines, &args)
    };
    assert!(run(&[]).status.success());
    // The results lose their last two games (as a torn write would leave them); the PGN,
    // written after the results, still has them.
    let text = std::fs::read_to_string(&results).unwrap();
    let kept: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&results, kept.join("\n") + "\n").unwrap();
    let resumed = run(&["--resume"]);
    assert!(resumed.status.success(), "{resumed:?}");
    let rounds: Vec<String> = std::fs::read_to_string(&pgn)
        .unwrap()
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[Round \"")
                .map(|r| r.trim_end_matches("\"]").to_string())
        })
        .collect();
    let mut recorded: Vec<String> = records(&results)
        .iter()
        .map(|r| r["id"].to_string())
        .collect();
    let mut sorted = rounds.clone();
    sorted.sort();
    recorded.sort();
    assert_eq!(sorted, recorded, "PGN rounds {rounds:?}");
    assert_eq!(rounds.len(), 4, "{rounds:?}");
}

#[test]
fn play_shows_control_characters_escaped() {
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    let mut game = Piped::start(
        env!("CARGO_BIN_EXE_konane-arbiter"),
        &["play", "--engine", &engine, "--depth", "1"],
    );
    game.send("\u{1b}[31mx");
    let lines = game.until(|l| l.contains("is not a move"));
    let refused = lines.last().unwrap();
    assert!(!refused.contains('\u{1b}'), "{refused:?}");
    assert!(refused.contains("\\u{1b}[31mx"), "{refused:?}");
    game.send("quit");
    game.wait_exit();
}

#[test]
fn diagnostics_are_logged_when_rust_log_asks_and_never_otherwise() {
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    let tournament = |log: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"));
        command.args([
            "--engine", &engine, "--engine", &engine, "--games", "2", "--depth", "1",
        ]);
        command.env_remove("RUST_LOG");
        if let Some(level) = log {
            command.env("RUST_LOG", level);
        }
        command.output().unwrap()
    };
    let quiet = tournament(None);
    assert!(quiet.status.success());
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "");
    let logged = tournament(Some("debug"));
    let stderr = String::from_utf8_lossy(&logged.stderr);
    assert!(
        stderr.contains("started konane-engine (process "),
        "{stderr}"
    );
    assert!(
        stderr.contains("its process group killed and reaped"),
        "{stderr}"
    );
    let search = |log: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_konane-engine"));
        command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        command
            .stderr(std::process::Stdio::piped())
            .env_remove("RUST_LOG");
        if let Some(level) = log {
            command.env("RUST_LOG", level);
        }
        let mut child = command.spawn().unwrap();
        use std::io::Write;
        let input = b"uci\nposition startpos moves d5 e5\ngo wtime 1000 btime 1000\nisready\n";
        child.stdin.take().unwrap().write_all(input).unwrap();
        child.wait_with_output().unwrap()
    };
    assert_eq!(String::from_utf8_lossy(&search(None).stderr), "");
    let logged = search(Some("konane=debug"));
    let stderr = String::from_utf8_lossy(&logged.stderr);
    for part in [
        "received: uci",
        "time: soft ",
        "iteration: depth 1 ",
        "search done: ",
    ] {
        assert!(stderr.contains(part), "{part}: {stderr}");
    }
}
