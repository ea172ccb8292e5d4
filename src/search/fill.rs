//! The board's fill, its stones per square: the evaluation's weights and the network's units
//! slide with it from those of a nearly empty board to those of a full one.

use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::square::Color;

/// The fill of a full board: a position's fill is its stones per square in these units.
pub const FULL: i32 = 64;

/// The board's fill: its stones per square, in units of 1/[`FULL`].
pub fn fill<B: Bits>(board: &Board<B>) -> i32 {
    let stones = (board.stones(Color::Black) | board.stones(Color::White)).count();
    (stones as usize * FULL as usize / board.rules().area()) as i32
}
