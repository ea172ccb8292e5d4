//! The static evaluation: who is likely to run out of moves first. A weighted sum of features
//! of the position, with weights fitted by logistic regression to positions the solver proved
//! (`scripts/data/eval-positions.txt`, fitted by [`crate::search::tune`]): the score is 100 times
//! the log-odds that the side to move wins.

use crate::bits::Bits;
use crate::board::{Board, Phase};
use crate::position::{BoardVisitor, Position};

/// How many features the evaluation weighs.
pub const FEATURES: usize = 6;

/// The features' names, in the order of [`features`] and [`WEIGHTS`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "tempo",
    "moves",
    "movers",
    "safe jumps",
    "stones under attack",
    "no reply",
];

/// The weights of the features in centi-log-odds, as `cargo run --release --example tune_eval`
/// prints them for the data set.
pub const WEIGHTS: [i32; FEATURES] = [-12, 39, 30, -13, -36, 72];

/// The features of a position in the jumps phase, each from the side to move's view:
/// - tempo: 1 (the side to move's edge, or handicap, as such);
/// - moves: our legal moves minus the opponent's (if it were its turn);
/// - movers: our stones that can jump minus the opponent's;
/// - safe jumps: our first jumps that the opponent's next move cannot take away (the jumping
///   stone cannot be captured and the stone it jumps cannot move away), minus the opponent's;
/// - stones under attack: our stones the opponent could capture now, minus the opponent's
///   stones we could capture;
/// - no reply: 1 when the opponent has no move now (our move must then give it one, or we
///   win).
pub fn features<B: Bits>(board: &Board<B>) -> [i32; FEATURES] {
    let us = board.side_to_move();
    let them = us.opponent();
    let our_moves = board.count_moves_of(us) as i32;
    let their_moves = board.count_moves_of(them) as i32;
    let ours = board.jumpers(us);
    let theirs = board.jumpers(them);
    let union = |sets: &[B; 4]| sets.iter().fold(B::default(), |all, &set| all | set);
    let (our_movers, their_movers) = (union(&ours), union(&theirs));
    // The stones each side could capture now.
    let captured =
        |jumpers: &[B; 4]| (0..4).fold(B::default(), |all, d| all | board.jumped(jumpers[d], d));
    let (ours_attacked, theirs_attacked) = (captured(&theirs), captured(&ours));
    let safe = |jumpers: &[B; 4], attacked: B, other_movers: B| -> i32 {
        (0..4)
            .map(|d| (board.jumped(jumpers[d] & !attacked, d) & !other_movers).count() as i32)
            .sum()
    };
    [
        1,
        our_moves - their_moves,
        our_movers.count() as i32 - their_movers.count() as i32,
        safe(&ours, ours_attacked, their_movers) - safe(&theirs, theirs_attacked, our_movers),
        ours_attacked.count() as i32 - theirs_attacked.count() as i32,
        i32::from(their_moves == 0),
    ]
}

/// The position's value for the side to move, in centi-log-odds; 0 during the opening removals.
pub fn evaluate<B: Bits>(board: &Board<B>) -> i32 {
    if board.phase() != Phase::Jumps {
        return 0;
    }
    features(board)
        .iter()
        .zip(WEIGHTS)
        .map(|(feature, weight)| feature * weight)
        .sum()
}

/// [`evaluate`] on a position of any size.
pub fn evaluate_position(position: &Position) -> i32 {
    position.visit(Evaluate)
}

/// [`features`] of a position of any size.
pub fn features_of(position: &Position) -> [i32; FEATURES] {
    position.visit(Features)
}

struct Evaluate;

impl BoardVisitor for Evaluate {
    type Output = i32;

    fn visit<B: Bits>(self, board: &Board<B>) -> i32 {
        evaluate(board)
    }
}

struct Features;

impl BoardVisitor for Features {
    type Output = [i32; FEATURES];

    fn visit<B: Bits>(self, board: &Board<B>) -> [i32; FEATURES] {
        features(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Opening};

    fn features_of_fen(fen: &str) -> [i32; FEATURES] {
        features_of(&Position::from_fen(fen, Opening::Any, Capture::Straight).unwrap())
    }

    #[test]
    fn features_count_what_they_say() {
        // Black b2 can jump c2 east to d2; White c2 can jump b2 west to a2. Nothing else moves.
        // Each side's one jump is unsafe (its stone is under attack).
        let f = features_of_fen("4/4/1bw1/4 b");
        assert_eq!(f, [1, 0, 0, 0, 0, 0]);
        // Black b3 jumps c3 to d3; White c3 cannot jump b3 (a3 holds a black stone), and
        // White's only stone moves nowhere: Black's jump is safe, and White has no reply.
        let f = features_of_fen("4/bbw1/4/4 b");
        assert_eq!(f, [1, 1, 1, 1, -1, 1]);
        // The same with White to move (a lost game for the search): White's view.
        let f = features_of_fen("4/bbw1/4/4 w");
        assert_eq!(f, [1, -1, -1, -1, 1, 0]);
    }

    #[test]
    fn the_evaluation_is_the_weighted_features() {
        let position = Position::from_fen(
            "b1bwbw/3bwb/b3bw/wb1b1w/bw1wbw/w1wb1b b",
            Opening::Any,
            Capture::Straight,
        )
        .unwrap();
        let sum: i32 = features_of(&position)
            .iter()
            .zip(WEIGHTS)
            .map(|(f, w)| f * w)
            .sum();
        assert_eq!(evaluate_position(&position), sum);
    }
}
