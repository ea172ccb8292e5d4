//! Rules invariants over seeded random games of every size and rule option, and the errors
//! that illegal moves and bad positions give.

mod common;

use common::Rng;
use konane::{Capture, Direction, Move, Opening, Position, PositionError, Rules, Square};
use std::collections::HashSet;

fn random_rules(rng: &mut Rng) -> Rules {
    let (w, h) = (2 + rng.below(25), 2 + rng.below(25));
    let capture = Capture::ALL[rng.below(3)];
    let opening = if w % 2 == 0 && h % 2 == 0 && rng.below(2) == 0 {
        Opening::Traditional
    } else {
        Opening::Any
    };
    Rules::new(w, h, opening, capture).unwrap()
}

/// Moves worth asking `check` about: every removal, every straight path from every square,
/// and each generated move extended or bent one jump further.
fn candidates(position: &Position) -> HashSet<Move> {
    let rules = position.rules();
    let mut moves = HashSet::new();
    for file in 0..rules.width() + 2 {
        for rank in 0..rules.height() + 2 {
            let Some(square) = Square::new(file, rank) else {
                continue;
            };
            moves.insert(Move::removal(square));
            for direction in Direction::ALL {
                for count in 1..=13 {
                    moves.insert(Move::straight(square, direction, count));
                }
            }
        }
    }
    for mv in position.legal_moves() {
        for direction in Direction::ALL {
            moves.extend(mv.then(direction));
        }
    }
    moves
}

#[test]
fn generated_moves_are_exactly_the_moves_check_accepts() {
    let mut rng = Rng::new(11);
    for _ in 0..40 {
        let mut position = Position::start(random_rules(&mut rng)).unwrap();
        for _ in 0..12 {
            let generated: HashSet<Move> = position.legal_moves().into_iter().collect();
            let accepted: HashSet<Move> = candidates(&position)
                .into_iter()
                .chain(generated.iter().copied())
                .filter(|&mv| position.check(mv).is_ok())
                .collect();
            assert_eq!(generated, accepted, "{position} {}", position.rules());
            assert_eq!(position.count_moves(), generated.len() as u64);
            assert_eq!(position.is_game_over(), generated.is_empty());
            if generated.is_empty() {
                break;
            }
            let moves = position.legal_moves();
            position.play(moves[rng.below(moves.len())]).unwrap();
        }
    }
}

#[test]
fn random_games_keep_hash_notation_and_rules_consistent() {
    let mut rng = Rng::new(12);
    for _ in 0..150 {
        let rules = random_rules(&mut rng);
        let mut position = Position::start(rules).unwrap();
        let mut plies = 0;
        loop {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let text = mv.to_string();
            assert_eq!(text.parse::<Move>(), Ok(mv), "{text}");
            let before = position;
            position.play(mv).unwrap();
            assert_ne!(position, before);
            assert_eq!(
                position.hash(),
                position.hash_from_scratch(),
                "after {text}"
            );
            let reread = Position::from_fen(&position.fen(), rules.opening, rules.capture).unwrap();
            assert_eq!(reread, position);
            assert_eq!(reread.hash(), position.hash());
            plies += 1;
        }
        assert!(position.is_game_over());
        assert_eq!(position.winner(), Some(position.side_to_move().opponent()));
        assert!(plies >= 1, "Black always has an opening removal");
    }
}

fn checked(fen: &str, capture: Capture, mv: &str) -> String {
    let position = Position::from_fen(fen, Opening::Traditional, capture).unwrap();
    match position.check(mv.parse().unwrap()) {
        Ok(()) => "legal".to_string(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn illegal_moves_say_why() {
    let start = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";
    let after_d5 = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbw1wbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w";
    let after_d5_c5 = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wb2wbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";
    let s = Capture::Straight;
    let cases = [
        (start, s, "d5", "legal"),
        (start, s, "a8", "legal"),
        (
            start,
            s,
            "b8",
            "b8 cannot be removed: Black removes a black stone from the centre 2x2 or a corner",
        ),
        (start, s, "d4", "d4 cannot be removed"),
        (start, s, "i9", "i9 is off the board"),
        (start, s, "f5d5", "an opening removal is due, not a jump"),
        (after_d5, s, "c5", "legal"),
        (
            after_d5,
            s,
            "a1",
            "a1 cannot be removed: White removes a white stone next to the hole",
        ),
        (after_d5_c5, s, "f5d5", "legal"),
        (after_d5_c5, s, "b5d5", "no enemy stone to jump on c5"),
        (after_d5_c5, s, "d5", "the opening is over: a jump is due"),
        (
            after_d5_c5,
            s,
            "e5c5",
            "e5 holds no stone of the side to move",
        ),
        (after_d5_c5, s, "f5h5", "h5 is not empty"),
        (after_d5_c5, s, "d3d5", "legal"),
        (after_d5_c5, s, "d7d5", "legal"),
        (after_d5_c5, s, "h5j5", "j5 is off the board"),
    ];
    for (fen, capture, mv, expected) in cases {
        let got = checked(fen, capture, mv);
        assert!(got.starts_with(expected), "{mv} in {fen}: {got}");
    }
    let bend = "1w2/w3/b3/4 b";
    assert_eq!(
        checked(bend, Capture::Straight, "a2a4c4"),
        "the straight capture rule does not allow a change of direction"
    );
    assert_eq!(checked(bend, Capture::Turning, "a2a4c4"), "legal");
    assert_eq!(checked(bend, Capture::Single, "a2a4"), "legal");
}

#[test]
fn single_capture_refuses_double_jumps() {
    let fen = "b5/w5/6/w5/6/6 b";
    let straight = Position::from_fen(fen, Opening::Any, Capture::Straight).unwrap();
    let single = Position::from_fen(fen, Opening::Any, Capture::Single).unwrap();
    let double: Move = "a6a2".parse().unwrap();
    assert_eq!(straight.check(double), Ok(()));
    assert_eq!(
        single.check(double).unwrap_err().to_string(),
        "the single capture rule allows one jump a move"
    );
    let moves = |p: &Position| {
        p.legal_moves()
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&straight), ["a6a4", "a6a2"]);
    assert_eq!(moves(&single), ["a6a4"]);
}

#[test]
fn turning_jumps_may_bend_and_come_back() {
    // Black a1 can circle a1-c1-c3-a3-a1 over four white stones.
    let fen = "4/1w2/w1w1/bw2 b";
    let black = Position::from_fen(fen, Opening::Any, Capture::Turning).unwrap();
    let texts: HashSet<String> = black.legal_moves().iter().map(Move::to_string).collect();
    for expected in ["a1c1", "a1c1c3", "a1c1c3a3", "a1c1c3a3a1"] {
        assert!(
            texts.contains(expected),
            "{expected} missing from {texts:?}"
        );
    }
    let mut after = black;
    after.play("a1c1c3a3a1".parse().unwrap()).unwrap();
    assert_eq!(after.fen(), "4/4/4/b3 w");
    assert!(after.is_game_over());
}

#[test]
fn bad_positions_are_refused_with_reasons() {
    let full_white = "bwbw/wbwb/bwbw/wbwb w";
    assert_eq!(
        Position::from_fen(full_white, Opening::Traditional, Capture::Straight),
        Err(PositionError::FullBoardWhiteToMove)
    );
    let odd_full = "bwb/wbw/bwb b";
    let error = Position::from_fen(odd_full, Opening::Traditional, Capture::Straight).unwrap_err();
    assert!(
        error.to_string().contains("even width and height"),
        "{error}"
    );
    assert!(Position::from_fen(odd_full, Opening::Any, Capture::Straight).is_ok());
    let odd_midgame = "b1b/wbw/bwb w";
    assert!(Position::from_fen(odd_midgame, Opening::Traditional, Capture::Straight).is_ok());
    let error =
        Position::start(Rules::new(9, 13, Opening::Traditional, Capture::Straight).unwrap());
    assert!(error.is_err());
}

#[test]
fn every_size_starts_right() {
    for w in 2..=26 {
        for h in 2..=26 {
            let position =
                Position::start(Rules::new(w, h, Opening::Any, Capture::Straight).unwrap())
                    .unwrap();
            let squares = w * h;
            assert_eq!(
                position.stone_count(konane::Color::Black) as usize,
                squares / 2
            );
            assert_eq!(
                position.stone_count(konane::Color::White) as usize,
                squares - squares / 2
            );
            assert_eq!(position.stone_total() as usize, squares);
            assert_eq!(
                position.count_moves() as usize,
                squares / 2,
                "any opening on {w}x{h}"
            );
            assert_eq!(
                position.stone_on("a1".parse().unwrap()),
                Some(konane::Color::White)
            );
        }
    }
}

/// Random text, built from the characters the notations use and some they do not.
fn random_text(rng: &mut Rng) -> String {
    const PIECES: [&str; 16] = [
        "a",
        "b",
        "w",
        "z",
        "1",
        "0",
        "9",
        "26",
        "27",
        "/",
        " ",
        "moves ",
        "é",
        "\u{0}",
        "-",
        "99999999999999999999",
    ];
    (0..rng.below(40))
        .map(|_| PIECES[rng.below(PIECES.len())])
        .collect()
}

#[test]
fn no_input_makes_the_parsers_or_the_legality_check_panic() {
    let mut rng = Rng::new(13);
    let positions: Vec<Position> = [(8, 8), (3, 5), (26, 26)]
        .iter()
        .map(|&(w, h)| {
            let mut p =
                Position::start(Rules::new(w, h, Opening::Any, Capture::Turning).unwrap()).unwrap();
            for _ in 0..6 {
                let moves = p.legal_moves();
                p.play(moves[rng.below(moves.len())]).unwrap();
            }
            p
        })
        .collect();
    for _ in 0..20_000 {
        let text = random_text(&mut rng);
        let _ = text.parse::<Square>();
        let _ = Position::from_fen(&text, Opening::Traditional, Capture::Straight);
        let _ = konane::protocol::parse(&text);
        let _ = konane::protocol::parse(&format!("position fen {text}"));
        if let Ok(mv) = text.parse::<Move>() {
            for position in &positions {
                let mut copy = *position;
                if copy.play(mv).is_err() {
                    assert_eq!(copy, *position, "a refused move changed the position");
                }
            }
        }
    }
}
