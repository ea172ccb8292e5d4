//! `konane-engine`: the Konane engine, speaking UCI/UGI, with `perft`, `solve` and `bench`
//! (see `konane_cli::engine`).

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(konane_cli::engine::main(std::env::args_os()))
}
