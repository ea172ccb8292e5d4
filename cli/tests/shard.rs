//! A tournament played in shards and merged is the tournament played in one run.

mod common;

use common::arbiter::{arbiter, fixture, records};
use common::scratch::Scratch;
use std::path::Path;
use std::process::{Command, Output};

fn merge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .arg("merge")
        .args(args)
        .output()
        .unwrap()
}

/// The records of a results file by number, without what differs between runs (move times)
/// or between shards (the shard).
fn games(path: &Path) -> Vec<serde_json::Value> {
    let mut games: Vec<serde_json::Value> = records(path)
        .into_iter()
        .map(|mut record| {
            let fields = record.as_object_mut().unwrap();
            fields.remove("move_times_ms");
            fields.remove("shard");
            record
        })
        .collect();
    games.sort_by_key(|record| record["id"].as_u64());
    games
}

/// The final table: from its header line to the end.
fn table(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    let start = text.find("engine ").expect("a table");
    text[start..].to_string()
}

#[test]
fn shards_merged_are_the_unsharded_run() {
    let dir = Scratch::new("shards");
    let tag = format!("tag-{}-shards", std::process::id());
    let engines = [
        fixture("first", &tag),
        fixture("mobility4", &tag),
        fixture("min-replies", &tag),
    ];
    let tournament = ["--games", "8", "--random-plies", "4", "--seed", "5"];
    let run = |extra: &[&str]| {
        let output = arbiter(&engines, &[&tournament[..], extra].concat());
        assert!(output.status.success(), "{output:?}");
        output
    };
    let whole = dir.join("whole.jsonl");
    let one_run = run(&["--results", whole.to_str().unwrap()]);
    let shard_files: Vec<String> = (1..=3)
        .map(|k| {
            dir.join(&format!("shard-{k}.jsonl"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for (k, file) in shard_files.iter().enumerate() {
        run(&["--shard", &format!("{}/3", k + 1), "--results", file]);
        assert_eq!(records(Path::new(file)).len(), 8, "each shard has a third");
    }
    let merged = dir.join("merged.jsonl");
    let pgn = dir.join("merged.pgn");
    let mut args: Vec<&str> = shard_files.iter().map(String::as_str).collect();
    args.extend([
        "--results",
        merged.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let output = merge(&args);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(games(&merged), games(&whole), "the same games");
    assert_eq!(
        table(&output.stdout),
        table(&one_run.stdout),
        "the same table"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Merged 24 of 24 games from 3 files"),
        "{stdout}"
    );
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn.matches("[Round ").count(), 24);

    // A shard given twice, a game of another tournament, a results file that is not one.
    let output = merge(&[&shard_files[0], &shard_files[1], &shard_files[0]]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is both in"), "{stderr}");
    let other = dir.join("other.jsonl");
    let other_seed = ["--seed", "6", "--shard", "2/3", "--results"];
    let output = arbiter(
        &engines,
        &[&tournament[..4], &other_seed, &[other.to_str().unwrap()]].concat(),
    );
    assert!(output.status.success());
    let output = merge(&[&shard_files[0], other.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("different tournaments"), "{stderr}");
    let junk = dir.join("junk.jsonl");
    std::fs::write(&junk, "not json\n{}\n").unwrap();
    let output = merge(&[&shard_files[0], junk.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("junk.jsonl:1"));
    // A missing shard is an error, not an empty file; one file is "1 file".
    let missing = dir.join("shard-4.jsonl");
    let output = merge(&[&shard_files[0], missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("shard-4.jsonl: No such file or directory"),
        "{stderr}"
    );
    let output = merge(&[&shard_files[0]]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("games from 1 file ("), "{stdout}");

    // Resuming a shard's file as another shard is refused.
    let output = arbiter(
        &engines,
        &[
            &tournament[..],
            &["--shard", "1/3", "--resume", "--results", &shard_files[1]],
        ]
        .concat(),
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("was played by shard 2/3, and this run is shard 1/3"),
        "{stderr}"
    );
}

#[test]
fn merged_shards_apply_the_sprt_to_all_games() {
    let dir = Scratch::new("shards-sprt");
    let tag = format!("tag-{}-shards-sprt", std::process::id());
    let engines = [fixture("mobility4", &tag), fixture("first", &tag)];
    let mut files = Vec::new();
    for k in 1..=2 {
        let file = dir.join(&format!("shard-{k}.jsonl"));
        let shard = format!("{k}/2");
        let output = arbiter(
            &engines,
            &[
                "--games",
                "40",
                "--random-plies",
                "4",
                "--sprt",
                "elo0=0",
                "elo1=200",
                "--shard",
                &shard,
                "--results",
                file.to_str().unwrap(),
            ],
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("This shard plays its whole slice"),
            "{stdout}"
        );
        assert_eq!(
            records(&file).len(),
            20,
            "a shard does not stop for the SPRT"
        );
        files.push(file.to_string_lossy().into_owned());
    }
    let output = merge(&[&files[0], &files[1]]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains("SPRT") && stdout.contains("H1 accepted"),
        "{stdout}"
    );
}
