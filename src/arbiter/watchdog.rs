//! A guard process that kills the engines when the arbiter dies, however it dies.
//!
//! Each engine runs in a process group of its own, which the arbiter kills when it is done
//! with the engine. If the arbiter itself is killed (SIGKILL, the out-of-memory killer), that
//! never happens: an engine that ends at the end of its input goes, but one busy in a search
//! that does not read its input, or the child of a wrapper script, would run on as an orphan.
//!
//! So the arbiter starts a watchdog once: itself again, with the hidden `watchdog`
//! subcommand, in a process group of its own (so that Ctrl-C in the terminal does not reach
//! it), reading a pipe from the arbiter. Each engine's group is announced on that pipe when it
//! starts (`+GROUP`) and withdrawn when the arbiter has killed it (`-GROUP`). When the pipe
//! closes, because the arbiter exited or was killed, the watchdog kills every group still
//! announced and exits. Unlike `PR_SET_PDEATHSIG`, this reaches a wrapper's children, does
//! not depend on which thread started the engine, and needs no `unsafe`.

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::os::unix::process::CommandExt;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The argument that makes `konane-arbiter` a watchdog.
pub const SUBCOMMAND: &str = "watchdog";

/// The pipe to this program's watchdog, once started.
static PIPE: OnceLock<Mutex<ChildStdin>> = OnceLock::new();

/// Starts the watchdog by running `arbiter`, the command that runs this program (its
/// executable, or `python -m konane.arbiter`), with [`SUBCOMMAND`] after it. Engines started
/// before this, or without it, are not guarded.
pub fn start(arbiter: &[String]) -> Result<(), String> {
    let (program, arguments) = arbiter
        .split_first()
        .ok_or("cannot start the watchdog: no command given")?;
    let mut child = Command::new(program)
        .args(arguments)
        .arg(SUBCOMMAND)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start the watchdog {}: {e}", arbiter.join(" ")))?;
    let pipe = child.stdin.take().expect("stdin was piped");
    // The child is not waited for: it outlives this program by design, and is reaped by
    // whoever inherits it.
    PIPE.set(Mutex::new(pipe))
        .map_err(|_| "the watchdog is already running".to_string())
}

/// Tells the watchdog, if there is one, to kill process group `group` should this program die.
pub fn guard(group: u32) {
    tell(&format!("+{group}"));
}

/// Tells the watchdog that process group `group` is gone (killed by this program).
pub fn release(group: u32) {
    tell(&format!("-{group}"));
}

fn tell(line: &str) {
    if let Some(pipe) = PIPE.get() {
        let mut pipe = pipe.lock().unwrap_or_else(|poison| poison.into_inner());
        // A watchdog that is gone cannot be helped; the engines are still killed normally.
        let _ = writeln!(pipe, "{line}").and_then(|_| pipe.flush());
    }
}

/// The watchdog itself: follows the announcements on `input` until it ends, then kills every
/// group still announced. Returns the number of groups it killed.
pub fn serve(input: impl BufRead) -> usize {
    let mut groups = HashSet::new();
    for line in input.lines() {
        let Ok(line) = line else { break };
        let (sign, number) = line.split_at(line.len().min(1));
        let Ok(group) = number.trim().parse::<i32>() else {
            continue;
        };
        match sign {
            "+" if group > 1 => {
                groups.insert(group);
            }
            "-" => {
                groups.remove(&group);
            }
            _ => {}
        }
    }
    for &group in &groups {
        // The group may have ended by itself; there is nothing else to do then.
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
    groups.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_groups_still_announced_are_killed() {
        // Groups that cannot exist (above the kernel's pid limit), so that nothing is killed.
        let input = "+999999991\n+999999992\n-999999991\nnonsense\n+1\n+-5\n";
        assert_eq!(serve(input.as_bytes()), 1);
    }
}
