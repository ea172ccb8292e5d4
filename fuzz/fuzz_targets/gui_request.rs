//! The GUI's request bodies: any bytes as the JSON of a new game and of an import; an import
//! that reads is replayed, every move checked. Nothing may panic.
#![no_main]

use konane::gui::game::{Import, NewGame};
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

fuzz_target!(|bytes: &[u8]| {
    let _ = serde_json::from_slice::<NewGame>(bytes);
    if let Ok(import) = serde_json::from_slice::<Import>(bytes) {
        let _ = import.game(1, &[], Duration::from_secs(1));
    }
});
