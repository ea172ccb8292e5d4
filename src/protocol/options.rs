//! Engine options, both ways: an engine declares its options once as [`EngineOption`]s and
//! prints its handshake from them ([`EngineOption::line`]); a GUI reads the `option` lines
//! ([`parse`]); both judge a value by the same [`judge`], so that a misspelled or out-of-range
//! `setoption` is refused by the engine with the same reason the arbiter gives before the
//! first game.

use serde::Serialize;

/// An option as the engine announced it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineOption {
    /// Its name (it may hold spaces: `Move Overhead`).
    pub name: String,
    /// `spin`, `check`, `combo`, `button` or `string`.
    pub kind: String,
    /// The value it has unless set.
    pub default: Option<String>,
    /// A spin's least value.
    pub min: Option<i64>,
    /// A spin's greatest value.
    pub max: Option<i64>,
    /// A combo's values.
    pub vars: Vec<String>,
}

impl EngineOption {
    /// A `spin` option: a whole number from `min` to `max`.
    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> EngineOption {
        EngineOption {
            name: name.to_string(),
            kind: "spin".to_string(),
            default: Some(default.to_string()),
            min: Some(min),
            max: Some(max),
            vars: Vec::new(),
        }
    }

    /// A `check` option: true or false.
    pub fn check(name: &str, default: bool) -> EngineOption {
        EngineOption {
            name: name.to_string(),
            kind: "check".to_string(),
            default: Some(default.to_string()),
            min: None,
            max: None,
            vars: Vec::new(),
        }
    }

    /// A `combo` option: one of `vars`.
    pub fn combo(name: &str, default: &str, vars: &[&str]) -> EngineOption {
        EngineOption {
            name: name.to_string(),
            kind: "combo".to_string(),
            default: Some(default.to_string()),
            min: None,
            max: None,
            vars: vars.iter().map(|v| v.to_string()).collect(),
        }
    }

    /// The handshake's `option name ... type ...` line, which [`parse`] reads back.
    pub fn line(&self) -> String {
        let mut line = format!("option name {} type {}", self.name, self.kind);
        if let Some(default) = &self.default {
            line += &format!(" default {default}");
        }
        if let (Some(min), Some(max)) = (self.min, self.max) {
            line += &format!(" min {min} max {max}");
        }
        for var in &self.vars {
            line += &format!(" var {var}");
        }
        line
    }
}

/// Why a value is refused for an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name; the names there are follow.
    Unknown(String, Vec<String>),
    /// The option (by its declared name) does not take the value; what it takes follows.
    BadValue {
        /// The option's name as declared.
        name: String,
        /// The value given.
        value: String,
        /// What the option accepts: `a whole number from 0 to 20`, `true or false`, ...
        accepts: String,
    },
}

impl OptionError {
    /// The error line of an engine that refuses this `setoption`.
    pub fn setoption_text(&self) -> String {
        match self {
            OptionError::Unknown(name, _) => format!("setoption: unknown option '{name}'"),
            OptionError::BadValue {
                name,
                value,
                accepts,
            } => format!("setoption: {name} must be {accepts}, not '{value}'"),
        }
    }
}

/// Finds the option `name` among `options` (without regard to case, as engines do) and checks
/// that it takes `value`; returns the option.
pub fn judge<'a>(
    options: &'a [EngineOption],
    name: &str,
    value: &str,
) -> Result<&'a EngineOption, OptionError> {
    let Some(option) = options.iter().find(|o| o.name.eq_ignore_ascii_case(name)) else {
        let names = options.iter().map(|o| o.name.clone()).collect();
        return Err(OptionError::Unknown(name.to_string(), names));
    };
    let accepts = match option.kind.as_str() {
        "spin" => {
            let (min, max) = (
                option.min.unwrap_or(i64::MIN),
                option.max.unwrap_or(i64::MAX),
            );
            match value.trim().parse::<i64>() {
                Ok(number) if (min..=max).contains(&number) => return Ok(option),
                _ => format!("a whole number from {min} to {max}"),
            }
        }
        "check" if matches!(value.trim(), "true" | "false") => return Ok(option),
        "check" => "true or false".to_string(),
        "combo"
            if option
                .vars
                .iter()
                .any(|v| v.eq_ignore_ascii_case(value.trim())) =>
        {
            return Ok(option);
        }
        "combo" => format!("one of {}", option.vars.join(", ")),
        _ => return Ok(option),
    };
    Err(OptionError::BadValue {
        name: option.name.clone(),
        value: value.to_string(),
        accepts,
    })
}

/// Parses `option name <name> type <type> [default <v>] [min <n>] [max <n>] [var <v>]...`,
/// naming what is wrong with a malformed line.
pub fn parse(line: &str) -> Result<EngineOption, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let keywords = ["name", "type", "default", "min", "max", "var"];
    let mut fields: Vec<(&str, String)> = Vec::new();
    let mut i = 1;
    while i < words.len() {
        let key = words[i];
        if !keywords.contains(&key) {
            return Err(format!("unexpected word '{key}'"));
        }
        let mut value = Vec::new();
        i += 1;
        // A name or value runs to the next keyword ("name" may hold spaces: "Move Overhead").
        while i < words.len() && !keywords.contains(&words[i]) {
            value.push(words[i]);
            i += 1;
        }
        fields.push((key, value.join(" ")));
    }
    let get = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    };
    let name = get("name").filter(|n| !n.is_empty()).ok_or("no name")?;
    let kind = get("type").ok_or("no type")?;
    let number = |key: &str| -> Result<Option<i64>, String> {
        get(key)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("{key} '{v}' is not a number"))
            })
            .transpose()
    };
    let option = EngineOption {
        default: get("default"),
        min: number("min")?,
        max: number("max")?,
        vars: fields
            .iter()
            .filter(|(k, _)| *k == "var")
            .map(|(_, v)| v.clone())
            .collect(),
        name,
        kind,
    };
    match option.kind.as_str() {
        "spin" => {
            let (Some(min), Some(max)) = (option.min, option.max) else {
                return Err("a spin needs min and max".into());
            };
            let default = option.default.as_deref().ok_or("a spin needs a default")?;
            let default: i64 = default
                .parse()
                .map_err(|_| format!("default '{default}' is not a number"))?;
            if !(min <= default && default <= max) {
                return Err(format!("default {default} is outside {min}..{max}"));
            }
        }
        "check" => {
            if !matches!(option.default.as_deref(), Some("true" | "false")) {
                return Err("a check's default must be true or false".into());
            }
        }
        "combo" => {
            if option.vars.is_empty() {
                return Err("a combo needs at least one var".into());
            }
            let default = option.default.as_deref().ok_or("a combo needs a default")?;
            if !option.vars.iter().any(|v| v == default) {
                return Err(format!("default '{default}' is not one of its vars"));
            }
        }
        "button" | "string" => {}
        other => return Err(format!("unknown type '{other}'")),
    }
    Ok(option)
}

/// Checks `name=value` against the `announced` options, as a GUI says it: the error names
/// the option and what the engine accepts.
pub fn check_value(announced: &[EngineOption], name: &str, value: &str) -> Result<(), String> {
    match judge(announced, name, value) {
        Ok(_) => Ok(()),
        Err(OptionError::Unknown(name, names)) => Err(format!(
            "option '{name}' is not one of the engine's options ({})",
            if names.is_empty() {
                "it announced none".to_string()
            } else {
                names.join(", ")
            }
        )),
        Err(OptionError::BadValue {
            name,
            value,
            accepts,
        }) => Err(format!(
            "option {name}={value}: the engine accepts {accepts}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_parsed_and_judged() {
        let spin = parse("option name Move Overhead type spin default 30 min 0 max 5000");
        assert_eq!(spin.unwrap().name, "Move Overhead");
        let combo =
            parse("option name Capture type combo default straight var straight var turning")
                .unwrap();
        assert_eq!(combo.vars, ["straight", "turning"]);
        for (line, why) in [
            (
                "option name X type spin default 5 min 10 max 20",
                "outside 10..20",
            ),
            ("option name X type spin default 5", "needs min and max"),
            (
                "option name X type combo default c var a var b",
                "not one of its vars",
            ),
            ("option name X type check default maybe", "true or false"),
            ("option name X type colour", "unknown type 'colour'"),
            ("option type spin", "no name"),
            (
                "option name X type spin default 1 min one max 2",
                "'one' is not a number",
            ),
        ] {
            let error = parse(line).unwrap_err();
            assert!(error.contains(why), "{line}: {error}");
        }
    }

    #[test]
    fn a_declared_option_is_announced_by_a_line_that_reads_back() {
        for option in [
            EngineOption::spin("Move Overhead", 10, 0, 5000),
            EngineOption::check("Ponder", false),
            EngineOption::combo("Capture", "straight", &["straight", "single"]),
        ] {
            assert_eq!(
                parse(&option.line()),
                Ok(option.clone()),
                "{}",
                option.line()
            );
        }
        assert_eq!(
            EngineOption::spin("Hash", 16, 1, 65536).line(),
            "option name Hash type spin default 16 min 1 max 65536"
        );
    }

    #[test]
    fn values_are_checked_against_what_was_announced() {
        let announced = [
            parse("option name Skill type spin default 20 min 0 max 20").unwrap(),
            parse("option name Ponder type check default false").unwrap(),
            parse("option name Capture type combo default straight var straight var single")
                .unwrap(),
            parse("option name Book type string default none").unwrap(),
        ];
        for (name, value) in [
            ("Skill", "5"),
            ("skill", "0"),
            ("Ponder", "true"),
            ("Capture", "single"),
            ("Book", "x"),
        ] {
            assert_eq!(
                check_value(&announced, name, value),
                Ok(()),
                "{name}={value}"
            );
        }
        for (name, value, why) in [
            (
                "Skil",
                "5",
                "option 'Skil' is not one of the engine's options (Skill, Ponder, Capture, Book)",
            ),
            (
                "Skill",
                "50",
                "option Skill=50: the engine accepts a whole number from 0 to 20",
            ),
            ("Skill", "high", "from 0 to 20"),
            ("Ponder", "yes", "true or false"),
            ("Capture", "turning", "one of straight, single"),
        ] {
            let error = check_value(&announced, name, value).unwrap_err();
            assert!(error.contains(why), "{name}={value}: {error}");
        }
        assert!(
            check_value(&[], "Hash", "1")
                .unwrap_err()
                .contains("it announced none")
        );
    }
}
