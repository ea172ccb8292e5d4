//! What both command lines share: the rule flags, logging, and printing that survives a closed
//! pipe.

use konane::{Capture, Opening, Rules};

/// The rule options as command-line flags.
#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// Board size, WIDTHxHEIGHT, each side 2 to 26.
    #[arg(long, default_value = "8x8", value_parser = parse_size)]
    pub size: (u8, u8),
    /// Opening removals: traditional (centre 2x2 or corner; even sizes) or any.
    #[arg(long, default_value = "traditional")]
    pub opening: Opening,
    /// Capture rule: straight (multi-jump in one direction), single, or turning.
    #[arg(long, default_value = "straight")]
    pub capture: Capture,
}

fn parse_size(text: &str) -> Result<(u8, u8), String> {
    let rules = Rules::default().with_size_text(text)?;
    Ok((rules.width(), rules.height()))
}

impl RulesArgs {
    /// The rules the flags name.
    pub fn rules(&self) -> Rules {
        Rules::new(
            usize::from(self.size.0),
            usize::from(self.size.1),
            self.opening,
            self.capture,
        )
        .expect("parse_size accepted only playable sizes")
    }
}

/// Prints the library's diagnostics on standard error when `RUST_LOG` asks for them
/// (`RUST_LOG=debug`, `RUST_LOG=konane::arbiter=debug`); silent otherwise.
pub fn init_logging() {
    // A second run in one process (Python's) keeps the logger the first one set.
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .try_init();
}

/// Writes to standard output. When the reader of a pipe has gone (`| head`), the program
/// ends quietly with status 141, as a shell reports death by SIGPIPE, instead of panicking as
/// `print!` does; anything the program must not lose is written elsewhere before it prints.
pub fn write_stdout(args: std::fmt::Arguments, newline: bool) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|_| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|_| out.flush());
    if written.is_err() {
        std::process::exit(141);
    }
}

/// `println!` that ends the program quietly when standard output is closed: see
/// [`write_stdout`].
macro_rules! say {
    () => { $crate::console::write_stdout(format_args!(""), true) };
    ($($arg:tt)*) => { $crate::console::write_stdout(format_args!($($arg)*), true) };
}

/// `print!` that ends the program quietly when standard output is closed: see
/// [`write_stdout`].
macro_rules! say_on {
    ($($arg:tt)*) => { $crate::console::write_stdout(format_args!($($arg)*), false) };
}

/// Prints what clap has to say about the arguments (help, version, or the error) and returns
/// the exit status clap gives it: 0 for help and version, 2 for bad arguments.
pub fn clap_status(error: &clap::Error) -> u8 {
    // Printing fails only when the terminal is gone, and then there is no one to tell.
    let _ = error.print();
    u8::try_from(error.exit_code()).unwrap_or(2)
}
