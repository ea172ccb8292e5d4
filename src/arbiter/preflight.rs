//! Before the first game: every engine is started once and must complete its handshake, so
//! that a typo in a path fails at once with its cause instead of as a crash in every game.

use crate::arbiter::game::Deadlines;
use crate::arbiter::log::Log;
use crate::arbiter::process::{Announced, EngineProcess};
use crate::arbiter::spec::EngineSpec;
use crate::protocol::options;
use crate::rules::Rules;
use std::time::Duration;

/// Starts each engine (all at once), completes the handshake with the game's options, and
/// shuts it down; each engine's own `option.X=Y` must be among the options it announced, with
/// a value it accepts. Returns what each engine announced (name, author, options). The error
/// names every engine that failed, its command and the cause.
pub fn check_engines(
    engines: &[EngineSpec],
    rules: Rules,
    deadlines: &Deadlines,
    log: &Log,
) -> Result<Vec<Announced>, String> {
    let outcomes: Vec<Result<Announced, String>> = std::thread::scope(|scope| {
        let checks: Vec<_> = engines
            .iter()
            .map(|spec| scope.spawn(move || check_one(spec, rules, deadlines.startup, log)))
            .collect();
        checks
            .into_iter()
            .map(|check| {
                check
                    .join()
                    .unwrap_or_else(|_| Err("a check panicked".into()))
            })
            .collect()
    });
    let failures: Vec<&str> = outcomes
        .iter()
        .filter_map(|outcome| outcome.as_ref().err().map(String::as_str))
        .collect();
    if failures.is_empty() {
        Ok(outcomes.into_iter().flatten().collect())
    } else {
        Err(failures.join("\n"))
    }
}

fn check_one(
    spec: &EngineSpec,
    rules: Rules,
    timeout: Duration,
    log: &Log,
) -> Result<Announced, String> {
    let what = format!("engine '{}' ({}) ", spec.launch.name, spec.command_line());
    let mut process = EngineProcess::start(&spec.launch, log.clone())
        .map_err(|cause| format!("{what}could not start: {cause}"))?;
    match process.handshake(&spec.protocol, &spec.options_for(rules), timeout) {
        Ok(announced) => {
            process.shut_down(Duration::from_millis(500));
            for (name, value) in &spec.options {
                options::check_value(&announced.options, name, value)
                    .map_err(|why| format!("{what}{why}"))?;
            }
            Ok(announced)
        }
        Err(failure) => Err(format!(
            "{what}failed its {} handshake: {}",
            spec.protocol,
            process.explain(&failure, timeout)
        )),
    }
}
