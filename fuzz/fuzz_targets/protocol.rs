//! The protocol's input side: any bytes, read line by line as the engine and the bots read
//! them, parsed, and applied to the game setup (rule options, positions, queries). Nothing may
//! panic; every line is a command, nothing, or an error.
#![no_main]

use konane::protocol::game::GameSetup;
use konane::protocol::io::{InputLine, next_line};
use konane::protocol::{self, Command};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let mut input = bytes;
    let mut setup = GameSetup::default();
    while let Some(line) = next_line(&mut input) {
        let InputLine::Text(text) = line else {
            continue;
        };
        match protocol::parse(&text) {
            Ok(Some(Command::SetOption { name, value })) => {
                let _ = setup.set_option(&name, value.as_deref());
            }
            Ok(Some(Command::Position { start, moves })) => {
                let _ = setup.set_position(&start, &moves);
            }
            Ok(Some(Command::Query(query))) => {
                let _ = setup.answer(query);
            }
            Ok(_) => {}
            Err(error) => {
                let _ = error.to_string();
            }
        }
    }
});
