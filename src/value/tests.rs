use super::*;
use crate::rules::mix::splitmix64;
use crate::rules::{Capture, Diagram, Opening};

/// Who wins with the side to move starting, by plain search of the whole position: the
/// naive oracle.
fn plain_winner(position: &Position) -> Color {
    let mover = position.side_to_move();
    let wins = position.legal_moves().into_iter().any(|mv| {
        let mut after = *position;
        after.play_unchecked(mv);
        plain_winner(&after) == mover
    });
    if wins { mover } else { mover.opponent() }
}

/// The canonical form of the whole position built move by move, never split into regions.
fn unsplit_value(games: &mut Games, position: &Position) -> Game {
    let mut options = |side: Color| -> Vec<Game> {
        let mover = position.with_side_to_move(side);
        mover
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut after = mover;
                after.play_unchecked(mv);
                unsplit_value(games, &after)
            })
            .collect()
    };
    let left = options(Color::Black);
    let right = options(Color::White);
    games.game(&left, &right)
}

/// A random position of `width` x `height` under `capture`: each square holds its starting
/// stone with chance `percent`, the side to move random.
fn random_position(
    seed: &mut u64,
    width: usize,
    height: usize,
    percent: u64,
    capture: Capture,
) -> Position {
    let squares = (0..width * height)
        .map(|i| {
            *seed = splitmix64(*seed);
            let (file, rank) = (i % width, i / width);
            (*seed % 100 < percent).then_some(if (file + rank) % 2 == 0 {
                Color::White
            } else {
                Color::Black
            })
        })
        .collect();
    *seed = splitmix64(*seed);
    let side = if seed.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    let diagram = Diagram {
        width,
        height,
        squares,
        side,
    };
    let fen = diagram.to_string();
    Position::from_fen(&fen, Opening::Any, capture).expect("a valid position string")
}

#[test]
fn values_decide_the_winner_as_plain_search_does() {
    let never = AtomicBool::new(false);
    let mut seed = 1;
    let mut checked = 0;
    for capture in Capture::ALL {
        let mut values = Values::new(1_000_000);
        for (width, height, percent) in [(4, 4, 60), (5, 4, 45), (8, 3, 40), (6, 5, 30)] {
            for _ in 0..60 {
                let position = random_position(&mut seed, width, height, percent, capture);
                if position.stone_total() > 13 || position.phase() != Phase::Jumps {
                    continue;
                }
                let expected = plain_winner(&position);
                assert_eq!(
                    values.value(&position, &never).map(|value| value.winner),
                    Ok(expected),
                    "{} under {capture}",
                    position.fen()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 400, "only {checked} positions checked");
}

#[test]
fn a_position_is_the_sum_of_its_regions() {
    let never = AtomicBool::new(false);
    let mut seed = 5;
    let mut split = 0;
    for capture in Capture::ALL {
        let mut values = Values::new(1_000_000);
        for (width, height, percent) in [(9, 3, 30), (7, 4, 25), (10, 2, 40)] {
            for _ in 0..80 {
                let position = random_position(&mut seed, width, height, percent, capture);
                if position.stone_total() > 12 || position.phase() != Phase::Jumps {
                    continue;
                }
                let value = values.value(&position, &never).expect("small positions");
                let whole = unsplit_value(values.games(), &position);
                assert_eq!(value.total, whole, "{} under {capture}", position.fen());
                let stones: usize = value.regions.iter().map(|r| r.squares.len()).sum();
                assert_eq!(stones, position.stone_total() as usize);
                if value.regions.len() > 1 {
                    split += 1;
                }
            }
        }
    }
    assert!(split > 100, "only {split} positions split into regions");
}

#[test]
fn known_values_of_small_shapes() {
    let never = AtomicBool::new(false);
    let mut values = Values::new(10_000);
    let cases = [
        // A lone pair at the edge: one move for Black.
        ("4/4/bw2 b", "1"),
        // The same pair with room on both sides: either may capture, then nothing: *.
        ("5/5/1bw2 b", "*"),
        // Two such pairs far apart: * + * = 0, a loss for the player to move.
        ("9/9/1bw3bw1 b", "0"),
    ];
    for (fen, expected) in cases {
        let position = Position::from_fen(fen, Opening::Any, Capture::Straight).unwrap();
        let value = values.value(&position, &never).unwrap();
        assert_eq!(values.games().notation(value.total), expected, "{fen}");
    }
    let opening = Position::start(crate::rules::Rules::default()).unwrap();
    assert_eq!(values.value(&opening, &never), Err(ValueError::Opening));
    let mut tiny = Values::new(3);
    let crowded =
        Position::from_fen("bwbw/wbwb/bwb1/wb1b w", Opening::Any, Capture::Straight).unwrap();
    assert_eq!(
        tiny.value(&crowded, &never),
        Err(ValueError::TooLarge { limit: 3 })
    );
}

/// The fingerprint of a position's stones, on a board of any width.
struct Fingerprint;

impl BoardVisitor for Fingerprint {
    type Output = Stones;

    fn visit<B: Bits>(self, board: &Board<B>) -> Stones {
        Stones::of(board)
    }
}

#[test]
fn fingerprints_tell_stones_and_rules_apart_but_not_the_side_to_move() {
    let print = |fen: &str, capture: Capture| {
        Position::from_fen(fen, Opening::Any, capture)
            .unwrap()
            .visit(Fingerprint)
    };
    let straight = Capture::Straight;
    let base = print("4/4/bw2 w", straight);
    assert_eq!(base, print("4/4/bw2 b", straight));
    let others = [
        print("4/4/wb2 w", straight),  // the colours swapped
        print("4/4/b3 w", straight),   // a stone fewer
        print("4/4/1bw1 w", straight), // both moved along
        print("4/4/bw2 w", Capture::Single),
        print("5/5/bw3 w", straight),   // a wider board
        print("4/4/4/bw2 w", straight), // a taller one
    ];
    for (i, other) in others.iter().enumerate() {
        assert_ne!(*other, base, "case {i}");
    }
    // Random positions: as many fingerprints as distinct stone layouts.
    let mut seed = 5;
    let mut layouts = std::collections::HashSet::new();
    let mut prints = std::collections::HashSet::new();
    for _ in 0..20_000 {
        let position = random_position(&mut seed, 5, 4, 50, straight);
        let fen = position.fen();
        layouts.insert(fen[..fen.len() - 2].to_string());
        prints.insert(position.visit(Fingerprint));
    }
    assert_eq!(prints.len(), layouts.len());
    assert!(layouts.len() > 10_000);
}
