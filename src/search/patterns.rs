//! Line patterns: the evaluation's view of the board's local shapes. Every run of four squares
//! that starts on the board and goes east, west, north or south is a *window*; its pattern is
//! what each of its four squares holds from the side to move's view (empty, ours, theirs, or
//! off the board), one of [`PATTERNS`]. A capture is such a shape (ours, theirs, empty), and so
//! are the shapes that block, threaten or protect one, so the patterns' frequencies say much
//! of who will run out of moves first. Each pattern has a weight per row of fill, fitted with
//! the other features ([`super::tune`]); a position's pattern score is the mean weight of its
//! windows.

use crate::rules::bits::Bits;
use crate::rules::board::Board;

/// How many patterns there are: four squares, each of four kinds.
pub const PATTERNS: usize = 256;

// What a square of a window holds, from the side to move's view: the two bits of each square
// in a pattern's number, the window's first square lowest.
/// An empty square.
pub(super) const EMPTY: u8 = 0;
/// A stone of the side to move.
pub(super) const OURS: u8 = 1;
/// A stone of the side not to move.
pub(super) const THEIRS: u8 = 2;
/// A square past the board's edge (the rolling reads start from [`ALL_OFF`]).
pub(super) const OFF_BOARD: u8 = 3;
/// The most squares a board has.
const MAX_AREA: usize =
    crate::rules::square::MAX_SIDE as usize * crate::rules::square::MAX_SIDE as usize;

/// The pattern of a window whose squares are all off the board: where each line's rolling
/// pattern starts.
const ALL_OFF: usize = 0xff;

/// Calls `visit` with the pattern of every window of `board`; returns how many there were
/// (four for each square). Along each line the pattern rolls from one window to the next: the
/// squares move up two bits, the last drops out and the new first comes in.
pub fn for_each_window<B: Bits>(board: &Board<B>, mut visit: impl FnMut(usize)) -> u32 {
    let rules = board.rules();
    let (width, height) = (usize::from(rules.width()), usize::from(rules.height()));
    let mut kinds = [EMPTY; MAX_AREA];
    let us = board.side_to_move();
    for (color, kind) in [(us, OURS), (us.opponent(), THEIRS)] {
        for index in board.stones(color).squares() {
            kinds[index] = kind;
        }
    }
    let mut roll = |pattern: &mut usize, index: usize| {
        *pattern = (*pattern << 2 | usize::from(kinds[index])) & ALL_OFF;
        visit(*pattern);
    };
    for rank in 0..height {
        let row = rank * width;
        let (mut east, mut west) = (ALL_OFF, ALL_OFF);
        for file in 0..width {
            roll(&mut west, row + file);
            roll(&mut east, row + width - 1 - file);
        }
    }
    for file in 0..width {
        let (mut north, mut south) = (ALL_OFF, ALL_OFF);
        for rank in 0..height {
            roll(&mut south, rank * width + file);
            roll(&mut north, (height - 1 - rank) * width + file);
        }
    }
    (4 * width * height) as u32
}

/// How many windows of `board` have each pattern, and how many windows there are.
pub fn pattern_counts<B: Bits>(board: &Board<B>) -> ([u32; PATTERNS], u32) {
    let mut counts = [0; PATTERNS];
    let windows = for_each_window(board, |pattern| counts[pattern] += 1);
    (counts, windows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::BoardVisitor;
    use crate::rules::{Capture, Opening, Position};

    struct Counts;

    impl BoardVisitor for Counts {
        type Output = ([u32; PATTERNS], u32);

        fn visit<B: Bits>(self, board: &Board<B>) -> Self::Output {
            pattern_counts(board)
        }
    }

    /// The pattern of a window as its four kinds, first square first.
    fn pattern(kinds: [u8; 4]) -> usize {
        kinds
            .iter()
            .rev()
            .fold(0, |number, &kind| number << 2 | usize::from(kind))
    }

    #[test]
    fn windows_read_each_line_from_each_square() {
        // 4x2: Black on a1, White on b1, the rest empty; Black to move.
        let position = Position::from_fen("4/bw2 b", Opening::Any, Capture::Straight).unwrap();
        let (counts, windows) = position.visit(Counts);
        assert_eq!(windows, 32);
        assert_eq!(counts.iter().sum::<u32>(), 32);
        // Eastward from a1: ours, theirs, empty, empty (a capture).
        assert_eq!(counts[pattern([OURS, THEIRS, EMPTY, EMPTY])], 1);
        // Westward from d1: empty, empty, theirs, ours.
        assert_eq!(counts[pattern([EMPTY, EMPTY, THEIRS, OURS])], 1);
        // Northward from a1: itself, a2, then off the board; southward and westward, off at
        // once.
        let off = OFF_BOARD;
        assert_eq!(counts[pattern([OURS, EMPTY, off, off])], 1);
        assert_eq!(counts[pattern([OURS, off, off, off])], 2);
        // Southward from b2: b2, b1, then off the board.
        assert_eq!(counts[pattern([EMPTY, THEIRS, off, off])], 1);
        // With White to move, ours and theirs change places.
        let white = Position::from_fen("4/bw2 w", Opening::Any, Capture::Straight).unwrap();
        let (counts, _) = white.visit(Counts);
        assert_eq!(counts[pattern([THEIRS, OURS, EMPTY, EMPTY])], 1);
    }

    /// The patterns of every window, read square by square: the oracle of the rolling reads.
    fn naive_counts(position: &Position) -> [u32; PATTERNS] {
        let rules = position.rules();
        let (width, height) = (i32::from(rules.width()), i32::from(rules.height()));
        let us = position.side_to_move();
        let kind = |file: i32, rank: i32| {
            if !(0..width).contains(&file) || !(0..height).contains(&rank) {
                return OFF_BOARD;
            }
            let square = crate::rules::Square::new(file as u8, rank as u8).unwrap();
            match position.stone_on(square) {
                None => EMPTY,
                Some(color) if color == us => OURS,
                Some(_) => THEIRS,
            }
        };
        let mut counts = [0; PATTERNS];
        for file in 0..width {
            for rank in 0..height {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let kinds = [0, 1, 2, 3].map(|i| kind(file + i * df, rank + i * dr));
                    counts[pattern(kinds)] += 1;
                }
            }
        }
        counts
    }

    #[test]
    fn rolling_reads_agree_with_reading_each_window() {
        let mut random = crate::rules::mix::Random::new(5);
        for _ in 0..300 {
            let (width, height) = (2 + random.below(25), 2 + random.below(25));
            let rules =
                crate::rules::Rules::new(width, height, Opening::Any, Capture::Straight).unwrap();
            let mut position = Position::start(rules).unwrap();
            for _ in 0..random.below(40) {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                position.play_unchecked(moves[random.below(moves.len())]);
            }
            let (counts, windows) = position.visit(Counts);
            assert_eq!(counts, naive_counts(&position), "{}", position.fen());
            assert_eq!(windows as usize, 4 * width * height);
        }
    }

    #[test]
    fn every_window_of_a_full_board_is_counted_once() {
        let rules = crate::rules::Rules::new(26, 26, Opening::Any, Capture::Straight).unwrap();
        let (counts, windows) = Position::start(rules).unwrap().visit(Counts);
        assert_eq!(windows, 4 * 26 * 26);
        assert_eq!(counts.iter().sum::<u32>(), windows);
        // No window of a full board holds an empty square.
        let with_empty = (0..PATTERNS).filter(|p| (0..4).any(|i| (p >> (2 * i)) & 3 == 0));
        assert!(with_empty.into_iter().all(|p| counts[p] == 0));
    }
}
