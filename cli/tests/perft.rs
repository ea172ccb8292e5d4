//! Perft: pinned counts from `tests/perft/*.txt`, and the library against a naive generator.

mod common;

use common::Rng;
use common::naive::Naive;
use konane::{Capture, Opening, Position, Rules};
use std::collections::BTreeMap;

/// One block of a perft data file: a position, its rules and the pinned counts.
struct Case {
    position: Position,
    counts: Vec<(u32, u64)>,
    origin: String,
}

/// Reads a data file: blocks of `position <string>`, `rules opening=.. capture=..`,
/// then `perft <depth> <count>` lines; `#` starts a comment, blank lines separate blocks.
fn read_cases(path: &std::path::Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut cases = Vec::new();
    let (mut fen, mut opening, mut capture) = (None, Opening::Traditional, Capture::Straight);
    for (number, line) in text.lines().enumerate() {
        let origin = format!("{}:{}", path.display(), number + 1);
        let line = line.split('#').next().unwrap().trim();
        if let Some(rest) = line.strip_prefix("position ") {
            fen = Some(rest.to_string());
            cases.push(None);
        } else if let Some(rest) = line.strip_prefix("rules ") {
            for setting in rest.split_whitespace() {
                match setting.split_once('=') {
                    Some(("opening", value)) => opening = value.parse().unwrap(),
                    Some(("capture", value)) => capture = value.parse().unwrap(),
                    _ => panic!("{origin}: bad rules setting {setting}"),
                }
            }
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, count) = rest.split_once(' ').expect("perft <depth> <count>");
            let position = Position::from_fen(fen.as_deref().unwrap(), opening, capture)
                .unwrap_or_else(|e| panic!("{origin}: {e}"));
            let last = cases.last_mut().unwrap();
            let case = last.get_or_insert_with(|| Case {
                position,
                counts: Vec::new(),
                origin,
            });
            case.counts
                .push((depth.parse().unwrap(), count.trim().parse().unwrap()));
        } else if line.is_empty() {
            (opening, capture) = (Opening::Traditional, Capture::Straight);
        } else {
            panic!("{origin}: cannot read '{line}'");
        }
    }
    cases.into_iter().flatten().collect()
}

fn all_cases() -> Vec<Case> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths.iter().flat_map(|path| read_cases(path)).collect()
}

#[test]
fn pinned_perft_counts_hold() {
    let cases = all_cases();
    assert!(cases.len() >= 30, "only {} perft cases found", cases.len());
    for case in &cases {
        for &(depth, expected) in &case.counts {
            assert_eq!(
                case.position.perft(depth),
                expected,
                "{} perft {depth} of {}",
                case.origin,
                case.position
            );
        }
    }
}

#[test]
fn rules_page_counts_are_pinned() {
    let start = Position::start(Rules::default()).unwrap();
    let case = all_cases()
        .into_iter()
        .find(|case| case.position == start)
        .expect("the 8x8 start is pinned");
    for (depth, count) in [(1, 4), (2, 12), (3, 28), (4, 172), (5, 892), (6, 7124)] {
        assert!(case.counts.contains(&(depth, count)), "8x8 perft {depth}");
    }
}

/// The library's moves and counts equal the naive generator's, move by move.
fn agrees_with_naive(position: &Position, depth: u32) {
    let rules = position.rules();
    let naive = Naive::from_fen(&position.fen(), rules.opening, rules.capture);
    let ours: BTreeMap<String, u64> = position
        .divide(depth)
        .into_iter()
        .map(|(mv, count)| (mv.to_string(), count))
        .collect();
    let theirs: BTreeMap<String, u64> = naive
        .moves()
        .into_iter()
        .map(|(text, next)| (text, next.perft(depth - 1)))
        .collect();
    assert_eq!(ours, theirs, "divide {depth} of {position} ({rules})");
}

/// The naive generator recounts every pinned count small enough for it, and splits the
/// deepest of those move by move.
#[test]
fn pinned_counts_agree_with_the_naive_generator() {
    let mut checked = 0;
    for case in all_cases() {
        let rules = case.position.rules();
        let naive = Naive::from_fen(&case.position.fen(), rules.opening, rules.capture);
        let small: Vec<_> = case.counts.iter().filter(|(_, n)| *n <= 60_000).collect();
        for &&(depth, count) in &small {
            assert_eq!(
                naive.perft(depth),
                count,
                "{} naive perft {depth}",
                case.origin
            );
            checked += 1;
        }
        if let Some(&&(depth, _)) = small.last() {
            agrees_with_naive(&case.position, depth.max(1));
        }
    }
    assert!(checked >= 200, "only {checked} counts recounted");
}

#[test]
fn random_games_agree_with_the_naive_generator() {
    let mut rng = Rng::new(7);
    for game in 0..120 {
        let sizes = [
            (2, 2),
            (3, 4),
            (4, 4),
            (5, 5),
            (6, 6),
            (8, 8),
            (7, 10),
            (10, 10),
            (12, 13),
        ];
        let (w, h) = sizes[game % sizes.len()];
        let capture = Capture::ALL[game % 3];
        let opening = if w % 2 == 0 && h % 2 == 0 && game % 2 == 0 {
            Opening::Traditional
        } else {
            Opening::Any
        };
        let mut position = Position::start(Rules::new(w, h, opening, capture).unwrap()).unwrap();
        while !position.is_game_over() {
            agrees_with_naive(&position, 2);
            let moves = position.legal_moves();
            position.play(moves[rng.below(moves.len())]).unwrap();
        }
        agrees_with_naive(&position, 1);
    }
}
