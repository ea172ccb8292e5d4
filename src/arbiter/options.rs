//! Engine options: the `option` lines of a handshake read, and a value checked against what
//! the engine announced, so that a misspelled or out-of-range `option.X=Y` is refused before
//! the first game instead of ignored.

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

/// Checks `name=value` against the `announced` options: the error names the option and what
/// the engine accepts. Names are matched without regard to case, as engines do.
pub fn check_value(announced: &[EngineOption], name: &str, value: &str) -> Result<(), String> {
    let Some(option) = announced.iter().find(|o| o.name.eq_ignore_ascii_case(name)) else {
        let names: Vec<&str> = announced.iter().map(|o| o.name.as_str()).collect();
        return Err(format!(
            "option '{name}' is not one of the engine's options ({})",
            if names.is_empty() {
                "it announced none".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    let accepts = match option.kind.as_str() {
        "spin" => {
            let (min, max) = (
                option.min.unwrap_or(i64::MIN),
                option.max.unwrap_or(i64::MAX),
            );
            match value.trim().parse::<i64>() {
                Ok(number) if (min..=max).contains(&number) => return Ok(()),
                _ => format!("a whole number from {min} to {max}"),
            }
        }
        "check" if matches!(value.trim(), "true" | "false") => return Ok(()),
        "check" => "true or false".to_string(),
        "combo"
            if option
                .vars
                .iter()
                .any(|v| v.eq_ignore_ascii_case(value.trim())) =>
        {
            return Ok(());
        }
        "combo" => format!("one of {}", option.vars.join(", ")),
        _ => return Ok(()),
    };
    Err(format!(
        "option {}={value}: the engine accepts {accepts}",
        option.name
    ))
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
