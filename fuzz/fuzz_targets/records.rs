//! What --resume and merge read back: result lines (JSON) and PGN. A record that reads is
//! written as PGN, and that PGN must read back with the same moves; any text given to the PGN
//! reader gives a game or an error.
#![no_main]

use konane::arbiter::game::GameRecord;
use konane::arbiter::{final_board, pgn, progress_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = pgn::read(text);
    for line in text.lines() {
        let Ok(record) = serde_json::from_str::<GameRecord>(line) else {
            continue;
        };
        let _ = progress_line(&record);
        if final_board(&record).is_some() {
            let written = pgn::pgn(&record, record.id, "fuzz");
            let read = pgn::read(&written).expect("the PGN of a playable record reads back");
            assert_eq!(read.moves, record.moves);
        }
    }
});
