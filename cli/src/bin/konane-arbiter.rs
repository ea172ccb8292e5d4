//! `konane-arbiter`: matches and tournaments between Konane engines, and their tools (see
//! `konane_cli::arbiter`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let installation = konane_cli::Installation::beside_this_program();
    ExitCode::from(konane_cli::arbiter::main(
        std::env::args_os(),
        &installation,
    ))
}
