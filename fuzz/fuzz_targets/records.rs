//! What --resume and merge read back: result lines (JSON) and PGN. A record that reads is
//! written as PGN and as a line again, and both must read back the same; any text given to
//! the PGN reader gives a game or an error.
#![no_main]

use konane::arbiter::pgn;
use konane::arbiter::pgn_tree;
use konane::arbiter::record::GameRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = pgn_tree::read_games(text);
    for line in text.lines() {
        let Ok(record) = serde_json::from_str::<GameRecord>(line) else {
            continue;
        };
        let again = serde_json::to_string(&record).expect("a record that read is written");
        let reread: GameRecord = serde_json::from_str(&again).expect("and reads back");
        assert_eq!(reread, record);
        if record.final_position().is_ok() {
            let written = pgn::pgn(&record, record.id, "fuzz");
            let read =
                pgn_tree::read_games(&written).expect("the PGN of a playable record reads back");
            let mut moves = Vec::new();
            let mut node = &read[0].root;
            while let Some(next) = node.children.first() {
                moves.push(next.mv.clone());
                node = next;
            }
            assert_eq!(moves, record.moves);
        }
    }
});
