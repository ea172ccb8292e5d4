//! Driving the arbiter binary in tests: engine specs, runs, results, leftover processes.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The `--engine` words of fixture `behaviour`; `tag` marks its processes for [`survivors`].
pub fn fixture(behaviour: &str, tag: &str) -> String {
    format!(
        "cmd={} arg={behaviour} arg={tag} name={behaviour}",
        env!("CARGO_BIN_EXE_konane-fixture")
    )
}

/// The `--engine` words of konane-engine named `name`.
pub fn engine_spec(name: &str) -> String {
    format!("cmd={} name={name}", env!("CARGO_BIN_EXE_konane-engine"))
}

/// The arbiter started with `engines` (space-separated words each) and `extra` arguments.
pub fn arbiter_command(engines: &[String], extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"));
    for engine in engines {
        command.arg("--engine").args(engine.split(' '));
    }
    command.args(extra);
    command
}

/// Runs the arbiter to its end.
pub fn arbiter(engines: &[String], extra: &[&str]) -> Output {
    arbiter_command(engines, extra).output().unwrap()
}

/// The records of a results file.
pub fn records(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Processes whose command line contains `tag`: none may outlive the arbiter. (A zombie has
/// no command line, so it is not counted.)
pub fn survivors(tag: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(tag) && !text.contains("konane-arbiter") {
                found.push(text);
            }
        }
    }
    found
}

/// Waits up to `limit` for `condition`; true when it came.
pub fn eventually(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    loop {
        if condition() {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Fails unless every process marked `tag` is gone within 10 s (killing takes a moment).
pub fn assert_none_left(tag: &str) {
    assert!(
        eventually(Duration::from_secs(10), || survivors(tag).is_empty()),
        "left running: {:?}",
        survivors(tag)
    );
}

/// The text of a `--log` line the arbiter sent to `engine` (tagged `engine#PID`), if it is one.
pub fn sent_to<'a>(line: &'a str, engine: &str) -> Option<&'a str> {
    let mut fields = line.trim_start().splitn(4, ' ');
    let (_millis, name, direction, text) = (
        fields.next()?,
        fields.next()?,
        fields.next()?,
        fields.next()?,
    );
    let named = name == engine || name.strip_prefix(engine)?.starts_with('#');
    (named && direction == "<").then_some(text)
}
