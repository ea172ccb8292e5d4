//! `konane-arbiter`: matches and tournaments between Konane engines, every move checked (the
//! command line is in `konane::arbiter::command`).

fn main() -> std::process::ExitCode {
    konane::arbiter::command::main()
}
