//! `--engine cmd=PATH ...`: how one engine is started and set up.

use crate::arbiter::process::{Cancel, Launch};
use crate::rules::Rules;
use std::collections::HashSet;
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
    /// Think on the opponent's time (`go ponder` on the expected reply, then `ponderhit` or
    /// `stop`), as cutechess-cli's `ponder`.
    pub ponder: bool,
}

impl EngineSpec {
    /// Reads `cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]... [proto=uci|ugi]
    /// [ponder]`.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let (mut command, mut name, mut args, mut options, mut protocol) =
            (None, None, Vec::new(), Vec::new(), "uci".to_string());
        let mut ponder = false;
        for word in words {
            if word == "ponder" {
                ponder = true;
                continue;
            }
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
                            "--engine: unknown key '{key}' (cmd, name, arg, option.NAME, proto, ponder)"
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
                cancel: Default::default(),
            },
            protocol,
            options,
            ponder,
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
        // A pondering engine is told so, as the protocol asks (unless its options say).
        if self.ponder
            && !options
                .iter()
                .any(|(name, _)| name.eq_ignore_ascii_case("Ponder"))
        {
            options.push(("Ponder".to_string(), "true".to_string()));
        }
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

    /// This engine with its waits ended by `cancel`.
    pub fn cancelled_by(mut self, cancel: &Cancel) -> EngineSpec {
        self.launch.cancel = cancel.clone();
        self
    }

    /// The command line, as a user would type it.
    pub fn command_line(&self) -> String {
        let mut words = vec![self.launch.command.clone()];
        words.extend(self.launch.args.iter().cloned());
        words.join(" ")
    }
}

/// Refuses an engine whose name is empty or only spaces: tables, results and PGN tags would
/// show nothing for it.
pub fn check_names(engines: &[EngineSpec]) -> Result<(), String> {
    match engines
        .iter()
        .find(|spec| spec.launch.name.trim().is_empty())
    {
        Some(spec) => Err(format!(
            "engine {}: its name is empty; give it a name (name=), or none to use the program's",
            spec.launch.command
        )),
        None => Ok(()),
    }
}

/// Gives every engine a name no other one has: the second and later engines of one name get
/// the first free number (`a`, `a-2`, `a-3`, ...), never one that another engine was given.
pub fn make_names_unique(engines: &mut [EngineSpec]) {
    let mut taken: HashSet<String> = HashSet::new();
    let given: Vec<String> = engines.iter().map(|e| e.launch.name.clone()).collect();
    for spec in engines.iter_mut() {
        let name = &spec.launch.name;
        if taken.contains(name) {
            let free = (2..)
                .map(|n| format!("{name}-{n}"))
                .find(|candidate| !taken.contains(candidate) && !given.contains(candidate))
                .unwrap_or_default();
            spec.launch.name = free;
        }
        taken.insert(spec.launch.name.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(names: &[&str]) -> Vec<EngineSpec> {
        names
            .iter()
            .map(|name| EngineSpec::parse(&["cmd=e".into(), format!("name={name}")]).unwrap())
            .collect()
    }

    fn names(engines: &[EngineSpec]) -> Vec<&str> {
        engines.iter().map(|e| e.launch.name.as_str()).collect()
    }

    #[test]
    fn repeated_names_get_numbers_no_other_engine_has() {
        let mut engines = named(&["a", "a", "a-2"]);
        make_names_unique(&mut engines);
        assert_eq!(names(&engines), ["a", "a-3", "a-2"]);
        let mut engines = named(&["a", "a", "a"]);
        make_names_unique(&mut engines);
        assert_eq!(names(&engines), ["a", "a-2", "a-3"]);
        let mut engines = named(&["b", "a"]);
        make_names_unique(&mut engines);
        assert_eq!(names(&engines), ["b", "a"]);
    }

    #[test]
    fn an_empty_name_is_refused() {
        let error = check_names(&named(&["a", " "])).unwrap_err();
        assert!(error.contains("its name is empty"), "{error}");
        assert!(check_names(&named(&["a", "b"])).is_ok());
    }
}
