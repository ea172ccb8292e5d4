//! Position strings and moves: the first line is a position string, each later line a move to
//! play, under each rule option. A position that reads must write back as the same string,
//! and every move it plays must be one of its legal moves.
#![no_main]

use konane::{Capture, Move, Opening, Position, Symmetry};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let mut lines = text.lines();
    let Some(fen) = lines.next() else { return };
    let moves: Vec<&str> = lines.collect();
    for (opening, capture) in [
        (Opening::Traditional, Capture::Straight),
        (Opening::Any, Capture::Single),
        (Opening::Any, Capture::Turning),
    ] {
        let Ok(mut position) = Position::from_fen(fen, opening, capture) else {
            continue;
        };
        let again = Position::from_fen(&position.fen(), opening, capture).expect("own string");
        assert_eq!(again, position);
        for text in &moves {
            let Ok(mv) = text.parse::<Move>() else {
                continue;
            };
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
            let legal = position.legal_moves().contains(&mv);
            assert_eq!(
                position.play(mv).is_ok(),
                legal,
                "{mv} in {}",
                position.fen()
            );
        }
        for symmetry in Symmetry::ALL {
            if let Ok(image) = position.image(symmetry) {
                assert_eq!(image.legal_moves().len(), position.legal_moves().len());
            }
        }
    }
});
