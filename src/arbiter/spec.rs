//! `--engine cmd=PATH ...`: how one engine is started and set up.

use crate::arbiter::process::Launch;
use crate::rules::Rules;
use std::collections::HashMap;
use std::path::Path;

/// One engine of the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How to start it, and its name.
    pub launch: Launch,
    /// `uci` or `ugi`.
    pub protocol: String,
    /// Options to set after the handshake.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Reads `cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]... [proto=uci|ugi]`.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let (mut command, mut name, mut args, mut options, mut protocol) =
            (None, None, Vec::new(), Vec::new(), "uci".to_string());
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--engine: expected key=value, not '{word}'"))?;
            match key {
                "cmd" => command = Some(value.to_string()),
                "name" => name = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                "proto" if value == "uci" || value == "ugi" => protocol = value.to_string(),
                "proto" => {
                    return Err(format!("--engine: proto must be uci or ugi, not '{value}'"));
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "--engine: unknown key '{key}' (cmd, name, arg, option.NAME, proto)"
                        ));
                    }
                },
            }
        }
        let command = command.ok_or("--engine: cmd=PATH is missing")?;
        let name = name.unwrap_or_else(|| {
            Path::new(&command)
                .file_name()
                .map_or(command.clone(), |n| n.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            launch: Launch {
                command,
                args,
                name,
            },
            protocol,
            options,
        })
    }

    /// The `setoption` pairs for a game under `rules`: the rules first, then the engine's own.
    pub fn options_for(&self, rules: Rules) -> Vec<(String, String)> {
        let mut options = vec![
            ("Width".to_string(), rules.width().to_string()),
            ("Height".to_string(), rules.height().to_string()),
            ("Opening".to_string(), rules.opening.to_string()),
            ("Capture".to_string(), rules.capture.to_string()),
        ];
        options.extend(self.options.iter().cloned());
        options
    }

    /// This engine with `extra` options set besides (or instead of) its own of the same names.
    pub fn with_options<'a>(
        &self,
        extra: impl IntoIterator<Item = (&'a String, &'a String)>,
    ) -> EngineSpec {
        let mut spec = self.clone();
        for (name, value) in extra {
            spec.options
                .retain(|(own, _)| !own.eq_ignore_ascii_case(name));
            spec.options.push((name.clone(), value.clone()));
        }
        spec
    }

    /// The command line, as a user would type it.
    pub fn command_line(&self) -> String {
        let mut words = vec![self.launch.command.clone()];
        words.extend(self.launch.args.iter().cloned());
        words.join(" ")
    }
}

/// Gives the second and later engines of one name a number: `konane-engine`,
/// `konane-engine-2`, ...
pub fn make_names_unique(engines: &mut [EngineSpec]) {
    let mut seen = HashMap::new();
    for spec in engines {
        let count = seen.entry(spec.launch.name.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            spec.launch.name = format!("{}-{}", spec.launch.name, count);
        }
    }
}
