//! The arbiter killed or interrupted at awkward moments: no engine outlives it, no game is lost
//! or played twice, and the results and the PGN agree.

mod common;

use common::arbiter::{arbiter_command, eventually, fixture, survivors};
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
    assert!(
        eventually(Duration::from_secs(10), || survivors(&tag).is_empty()),
        "left running: {:?}",
        survivors(&tag)
    );
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
    assert!(
        eventually(Duration::from_secs(10), || survivors(&tag).is_empty()),
        "{:?}",
        survivors(&tag)
    );
}
