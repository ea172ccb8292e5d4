//! The command lines of Konane, `konane-engine` and `konane-arbiter`, as functions from
//! arguments to an exit status: they read the arguments, call the `konane` library and print
//! what it reports. This crate's binaries only hand them their arguments; the Python package
//! runs the same functions (`python -m konane.arbiter`), so both faces refuse and explain alike.

#[macro_use]
mod console;
pub mod arbiter;
pub mod engine;

/// How to start the programs of this installation: the arbiter starts itself again as its
/// watchdog, and the engine when no `--engine` is given (the demo match, the GUI).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installation {
    /// The command that runs `konane-arbiter`: program, then arguments.
    pub arbiter: Vec<String>,
    /// The command that runs `konane-engine`: program, then arguments.
    pub engine: Vec<String>,
}

impl Installation {
    /// This crate's binaries: the running program, with `konane-engine` beside it.
    pub fn beside_this_program() -> Installation {
        let here = std::env::current_exe().unwrap_or_else(|_| "konane-arbiter".into());
        let path = |file: std::path::PathBuf| file.to_string_lossy().into_owned();
        Installation {
            arbiter: vec![path(here.clone())],
            engine: vec![path(here.with_file_name("konane-engine"))],
        }
    }

    /// The `--engine` words that start this installation's engine, named `konane-engine`.
    fn engine_words(&self) -> Result<Vec<String>, String> {
        let Some((program, arguments)) = self.engine.split_first() else {
            return Err("no --engine given and no konane-engine known".to_string());
        };
        if program.contains('/') && !std::path::Path::new(program).exists() {
            return Err(format!(
                "no --engine given and no konane-engine at {program} (run cargo build --release first)"
            ));
        }
        let mut words = vec![format!("cmd={program}"), "name=konane-engine".to_string()];
        words.extend(arguments.iter().map(|argument| format!("arg={argument}")));
        Ok(words)
    }
}
