//! The network's first layer kept up to date as stones leave the board: the sums of its
//! vectors over a board's stones, mended by three vector additions a view for a jump.

use super::net::{HIDDEN, NetWeights, input_index};
use super::networks::network_for;
use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::square::Color;

/// The sums of the network's vectors over a board's stones from each side's view, kept up to
/// date move by move; empty (and never read) on a board without a network.
#[derive(Clone, Debug, Default)]
pub struct StoneAccumulator {
    /// The board's network, if it has one.
    net: Option<&'static NetWeights>,
    /// The sums from Black's view, then from White's.
    sums: [[i32; HIDDEN]; 2],
}

/// The sums of a [`StoneAccumulator`] at one time, to restore them.
#[derive(Clone, Copy, Debug)]
pub struct StoneSums([[i32; HIDDEN]; 2]);

impl StoneAccumulator {
    /// The accumulator of `board`, every stone read.
    pub fn new<B: Bits>(board: &Board<B>) -> StoneAccumulator {
        let rules = board.rules();
        let mut accumulator = StoneAccumulator {
            net: network_for(rules.width(), rules.height()),
            sums: [[0; HIDDEN]; 2],
        };
        for color in [Color::Black, Color::White] {
            for square in board.stones(color).squares() {
                accumulator.change(square, color, 1);
            }
        }
        accumulator
    }

    /// The board's network, if it has one.
    pub fn network(&self) -> Option<&'static NetWeights> {
        self.net
    }

    /// Mends the sums for the squares whose Black stone (`black`) or White stone (`white`)
    /// came or went on the way to `after`; returns the sums from before, for
    /// [`StoneAccumulator::take_back`].
    pub fn apply<B: Bits>(&mut self, black: B, white: B, after: &Board<B>) -> StoneSums {
        let before = StoneSums(self.sums);
        if self.net.is_some() {
            for (changed, color) in [(black, Color::Black), (white, Color::White)] {
                let now = after.stones(color);
                for square in changed.squares() {
                    self.change(square, color, if now.has(square) { 1 } else { -1 });
                }
            }
        }
        before
    }

    /// Restores the sums from before a move.
    pub fn take_back(&mut self, before: StoneSums) {
        self.sums = before.0;
    }

    /// The sums from `side`'s view.
    pub fn sums(&self, side: Color) -> &[i32; HIDDEN] {
        match side {
            Color::Black => &self.sums[0],
            Color::White => &self.sums[1],
        }
    }

    /// Adds (`sign` 1) or takes away (-1) a `color` stone on `square`.
    fn change(&mut self, square: usize, color: Color, sign: i32) {
        let Some(net) = self.net else { return };
        let views = [(0, color == Color::Black), (1, color == Color::White)];
        for (view, ours) in views {
            let vector = &net.stones[input_index(square, ours)];
            for (sum, &value) in self.sums[view].iter_mut().zip(vector) {
                *sum += sign * i32::from(value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::BoardVisitor;
    use crate::rules::{Capture, Opening, Position, Rules};
    use crate::search::accumulator::{Accumulator, walk_random_game};
    use crate::search::networks::NETWORKS;

    /// Plays a random game and checks, at each position, that the mended sums equal sums read
    /// from scratch, after the next move and after taking it back.
    struct RandomGame(u64);

    impl BoardVisitor for RandomGame {
        type Output = ();

        fn visit<B: Bits>(self, board: &Board<B>) {
            let mut accumulator = StoneAccumulator::new(board);
            walk_random_game(board, self.0, |board, child, _| {
                assert_eq!(accumulator.sums, StoneAccumulator::new(board).sums);
                if let Some(child) = child {
                    let (black, white) = Accumulator::changes(board, child);
                    let before = accumulator.apply(black, white, child);
                    assert_eq!(accumulator.sums, StoneAccumulator::new(child).sums);
                    accumulator.take_back(before);
                    assert_eq!(accumulator.sums, StoneAccumulator::new(board).sums);
                    accumulator.apply(black, white, child);
                }
            });
        }
    }

    #[test]
    fn mended_sums_equal_sums_read_from_scratch() {
        for net in NETWORKS {
            let (width, height) = net.size;
            for capture in [Capture::Straight, Capture::Turning, Capture::Single] {
                let rules = Rules::new(width.into(), height.into(), Opening::Any, capture).unwrap();
                for seed in 0..5 {
                    Position::start(rules).unwrap().visit(RandomGame(seed));
                }
            }
        }
        // The sums are not zero: the test would miss a change that mends nothing.
        let position = Position::start(Rules::new(8, 8, Opening::Any, Capture::Straight).unwrap());
        let sums = position.unwrap().visit(Sums);
        assert!(sums.iter().flatten().any(|&sum| sum != 0));
    }

    /// The sums of a position's stone accumulator.
    struct Sums;

    impl BoardVisitor for Sums {
        type Output = [[i32; HIDDEN]; 2];

        fn visit<B: Bits>(self, board: &Board<B>) -> [[i32; HIDDEN]; 2] {
            StoneAccumulator::new(board).sums
        }
    }

    #[test]
    fn a_board_without_a_network_sums_nothing() {
        let rules = Rules::new(7, 7, Opening::Any, Capture::Straight).unwrap();
        let sums = Position::start(rules).unwrap().visit(Sums);
        assert_eq!(sums, [[0; HIDDEN]; 2]);
    }
}
