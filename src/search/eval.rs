//! The static evaluation: who is likely to run out of moves first.

use crate::bits::Bits;
use crate::board::{Board, Phase};
use crate::position::{BoardVisitor, Position};

/// Weight of one move of mobility difference.
const MOBILITY: i32 = 10;
/// Weight of one stone of difference in stones that can move.
const MOVERS: i32 = 6;

/// The position's value for the side to move, in centi-units; 0 during the opening removals.
pub fn evaluate<B: Bits>(board: &Board<B>) -> i32 {
    if board.phase() != Phase::Jumps {
        return 0;
    }
    let side = board.side_to_move();
    let ours = board.count_moves_of(side) as i32;
    let theirs = board.count_moves_of(side.opponent()) as i32;
    let movers = board.movers_of(side) as i32 - board.movers_of(side.opponent()) as i32;
    MOBILITY * (ours - theirs) + MOVERS * movers
}

/// [`evaluate`] on a position of any size.
pub fn evaluate_position(position: &Position) -> i32 {
    position.visit(Evaluate)
}

struct Evaluate;

impl BoardVisitor for Evaluate {
    type Output = i32;

    fn visit<B: Bits>(self, board: &Board<B>) -> i32 {
        evaluate(board)
    }
}
