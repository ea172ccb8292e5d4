//! `konane-arbiter check` against konane-engine (every check passes) and against the fault
//! fixtures (each fails the right checks, with the evidence that says why).

use konane::arbiter::check::CHECKS;
use std::collections::HashMap;
use std::process::Command;

/// Runs `check --quick` on an engine; returns the exit code and each check's line by name.
fn check(engine: &[&str], extra: &[&str]) -> (Option<i32>, HashMap<String, String>) {
    let output = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args(["check", "--quick", "--engine"])
        .args(engine)
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut lines = HashMap::new();
    for line in stdout.lines() {
        let mut words = line.splitn(3, ' ');
        if let (Some(outcome @ ("PASS" | "FAIL" | "SKIP")), Some(name)) =
            (words.next(), words.next())
        {
            let name = name.trim_end_matches(':').to_string();
            assert!(CHECKS.contains(&name.as_str()), "unknown check in: {line}");
            lines.insert(name, format!("{outcome} {}", words.next().unwrap_or("")));
        }
    }
    assert_eq!(lines.len(), CHECKS.len(), "one line per check: {stdout}");
    (output.status.code(), lines)
}

fn fixture(behaviour: &str) -> (Option<i32>, HashMap<String, String>) {
    let command = format!("cmd={}", env!("CARGO_BIN_EXE_konane-fixture"));
    let arg = format!("arg={behaviour}");
    check(&[&command, &arg], &["--timeout", "2"])
}

/// Asserts that `name` ended with `outcome` and its evidence holds every one of `evidence`.
fn expect(lines: &HashMap<String, String>, name: &str, outcome: &str, evidence: &[&str]) {
    let line = &lines[name];
    assert!(line.starts_with(outcome), "{name}: {line}");
    for part in evidence {
        assert!(line.contains(part), "{name} should say '{part}': {line}");
    }
}

#[test]
fn konane_engine_passes_every_check_over_uci_and_ugi() {
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    for proto in ["proto=uci", "proto=ugi"] {
        let (code, lines) = check(&[&engine, proto], &[]);
        for name in CHECKS {
            expect(&lines, name, "PASS", &[]);
        }
        assert_eq!(code, Some(0));
    }
}

#[test]
fn an_engine_that_exits_at_once_fails_the_handshake_with_its_stderr() {
    let (code, lines) = fixture("crash-at-start");
    expect(
        &lines,
        "handshake",
        "FAIL",
        &[
            "sent \"uci\": it exited (exit code 3) before 'uciok'",
            "stderr: cannot start: crash-at-start exits at once",
        ],
    );
    for name in &CHECKS[1..] {
        expect(&lines, name, "SKIP", &[]);
    }
    assert_eq!(code, Some(1));
}

#[test]
fn an_engine_without_readyok_fails_isready() {
    let (code, lines) = fixture("no-isready");
    expect(&lines, "handshake", "PASS", &[]);
    expect(
        &lines,
        "isready",
        "FAIL",
        &["sent \"isready\": no readyok within 2000 ms"],
    );
    assert_eq!(code, Some(1));
}

#[test]
fn a_hanging_engine_fails_every_search() {
    let (_, lines) = fixture("hang");
    expect(&lines, "isready", "PASS", &[]);
    expect(
        &lines,
        "startpos",
        "FAIL",
        &["sent \"go movetime 50\": no bestmove within 2000 ms"],
    );
    expect(&lines, "movetime", "FAIL", &["no bestmove within"]);
    expect(
        &lines,
        "stop",
        "FAIL",
        &["sent \"stop\": no bestmove within 500 ms"],
    );
}

#[test]
fn a_late_engine_fails_the_clock() {
    let (_, lines) = fixture("late");
    expect(
        &lines,
        "clock",
        "FAIL",
        &["sent \"go btime 1000 wtime 60000 binc 0 winc 0\": bestmove after 3"],
    );
    expect(&lines, "isready-in-search", "FAIL", &["no readyok"]);
}

#[test]
fn illegal_and_garbage_moves_are_quoted_with_the_position() {
    let (_, lines) = fixture("illegal");
    expect(&lines, "startpos", "PASS", &[]);
    expect(
        &lines,
        "fen",
        "FAIL",
        &[
            "sent \"position fen ",
            "got \"bestmove a1\", which is illegal here",
            "legal: ",
        ],
    );
    expect(
        &lines,
        "legal-moves",
        "FAIL",
        &[" of 20: sent \"position ", "got \"bestmove a1\""],
    );
    let (_, lines) = fixture("garbage");
    expect(
        &lines,
        "startpos",
        "FAIL",
        &["got \"bestmove xyzzy\", which is not a move"],
    );
    expect(&lines, "no-move", "FAIL", &["expected bestmove 0000"]);
}

#[test]
fn junk_output_and_bad_options_are_named() {
    let (_, lines) = fixture("junk");
    expect(&lines, "legal-moves", "PASS", &[]);
    expect(
        &lines,
        "output",
        "FAIL",
        &["not protocol messages, such as \"hello from the junk engine\""],
    );
    let (_, lines) = fixture("bad-options");
    expect(
        &lines,
        "options",
        "FAIL",
        &["\"option name Depth type spin default 50 min 1 max 20\" (default 50 is outside 1..20)"],
    );
    expect(&lines, "legal-moves", "PASS", &[]);
}

#[test]
fn the_simplest_engine_fails_infinite_search_bad_bytes_and_ugi_queries() {
    let (code, lines) = fixture("first");
    for name in [
        "handshake",
        "options",
        "legal-moves",
        "no-move",
        "movetime",
        "output",
        "quit",
    ] {
        expect(&lines, name, "PASS", &[]);
    }
    expect(
        &lines,
        "stop",
        "FAIL",
        &[
            "got \"bestmove ",
            "before any stop (go infinite must wait for stop)",
        ],
    );
    expect(
        &lines,
        "bad-input",
        "FAIL",
        &[
            // Whether isready still reached the engine is a race; either way the evidence
            // names the line it was sent before it exited.
            "the engine exited (exit code 0) after it was sent \"a line that is not UTF-8",
        ],
    );
    expect(
        &lines,
        "ugi",
        "FAIL",
        &["query gameover\": no response within 2000 ms"],
    );
    assert_eq!(code, Some(1));
}

#[test]
fn an_engine_that_ignores_quit_fails_it() {
    let (_, lines) = fixture("no-quit");
    expect(
        &lines,
        "quit",
        "FAIL",
        &["sent \"quit\": the engine was still running after 1000 ms (killed)"],
    );
}

#[test]
fn check_arguments_are_checked() {
    let output = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args(["check", "--engine", "cmd=a", "--engine", "cmd=b"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("check: takes exactly one --engine, and 2 were given")
    );
    let output = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args(["check", "--engine", "name=x"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cmd=PATH is missing"));
}

#[test]
fn an_engine_whose_lines_all_start_alike_fails_multipv_and_others_skip_it() {
    let (code, lines) = fixture("one-line");
    expect(
        &lines,
        "multipv",
        "FAIL",
        &["the three lines start with", "the same move twice"],
    );
    assert_eq!(code, Some(1));
    let (_, lines) = fixture("first");
    expect(&lines, "multipv", "SKIP", &["announces no MultiPV option"]);
}

#[test]
fn a_crash_names_what_the_engine_was_sent_and_its_stderr() {
    let (code, lines) = fixture("crash-loud");
    // It exits on its third move: the evidence names the position and the go it was sent,
    // then its last lines, stderr's included.
    expect(
        &lines,
        "legal-moves",
        "FAIL",
        &[
            "the engine exited (exit code 101) after it was sent \"position ",
            ", then \"go movetime",
            "before bestmove; on stderr: panicked at /very/long/path/",
            "; its last lines: ",
        ],
    );
    assert_eq!(code, Some(1));
}

#[test]
fn output_examples_are_shown_once_each() {
    let (_, lines) = fixture("junk");
    let output = &lines["output"];
    assert!(output.starts_with("FAIL"), "{output}");
    assert_eq!(
        output.matches("hello from the junk engine").count(),
        1,
        "{output}"
    );
}

#[test]
fn options_the_engine_does_not_have_or_refuses_fail_the_check() {
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    let (code, lines) = check(&[&engine, "option.Skil=5", "option.Skill=50"], &[]);
    expect(
        &lines,
        "options",
        "FAIL",
        &[
            "option 'Skil' is not one of the engine's options (Hash, Skill,",
            "option Skill=50: the engine accepts a whole number from 0 to 20",
        ],
    );
    assert_eq!(code, Some(1));
    // A setting the engine accepts is used, and the engine still passes every check.
    let (code, lines) = check(&[&engine, "option.Hash=8"], &[]);
    expect(&lines, "options", "PASS", &[]);
    assert_eq!(code, Some(0), "{lines:?}");
}

#[test]
fn a_crash_names_the_first_command_the_engine_did_not_survive() {
    let (code, lines) = fixture("crash-on-width");
    assert_eq!(code, Some(1));
    let blamed: Vec<&String> = lines
        .values()
        .filter(|line| line.contains("the engine exited (exit code 3) after it was sent"))
        .collect();
    assert!(!blamed.is_empty(), "{lines:?}");
    for line in blamed {
        let after = line.split(" after it was sent ").nth(1).unwrap();
        assert!(
            after.starts_with("\"setoption name Width value "),
            "the Width setoption killed it: {line}"
        );
    }
}
