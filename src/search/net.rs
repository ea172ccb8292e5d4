//! A small network on top of the linear evaluation, NNUE-style, one per board size that has
//! one ([`network_for`]). Its first layer is a learnt vector per square and kind of stone (the
//! side to move's or the other side's), summed over the board's stones and kept up to date by
//! the search's [`StoneAccumulator`] as stones leave the board (a jump changes three squares,
//! so the update is three vector additions a view); the sum and the fill feed [`HIDDEN`]
//! clipped-linear units. The network is evaluated from both sides' views, and what it adds to
//! the linear evaluation is the weighted sum of the side to move's units less the same sum of
//! the other side's: the same stones with the other side to move give the opposite score, so
//! the network cannot learn a bonus for having the move. The linear evaluation's tempo, fitted
//! to results, keeps that; networks trained on search scores learnt a large one, and the
//! search, whose reductions compare leaves an odd number of plies apart, played much worse for
//! it. Integer arithmetic throughout; the weights are trained by [`crate::search::net_train`]
//! and written to `net_weights_WxH.rs` by `cargo run --release --example train_net`.

use std::borrow::Cow;

use super::eval::FULL;
use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::square::Color;

/// How many hidden units a network has.
pub const HIDDEN: usize = 32;

/// The most squares a board with a network can have (12x12's): the trainer's layout holds
/// this many squares' vectors, and a board's network keeps its own squares' only.
pub const NET_SQUARES: usize = 144;

/// How many first-layer inputs the trainer's layout has: one per square and kind of stone (the
/// side to move's, the other side's).
pub const INPUTS: usize = 2 * NET_SQUARES;

/// A hidden unit's activation of 1 in integer units: activations are clipped to
/// `0..=ACTIVATION_ONE`, and the first layer's weights are in these units.
pub const ACTIVATION_ONE: i32 = 1 << ACTIVATION_BITS;
/// The binary logarithm of [`ACTIVATION_ONE`].
const ACTIVATION_BITS: u32 = 10;

/// The largest output weight, in hundredths of log-odds per activation of 1: with
/// [`HIDDEN`] units of at most [`ACTIVATION_ONE`] each, the output's sum fits an `i32`.
pub const OUTPUT_LIMIT: i32 = (i32::MAX >> ACTIVATION_BITS) / HIDDEN as i32 / 2;

/// A network's weights in integer units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetWeights {
    /// The board the network is for: width, height.
    pub size: (u8, u8),
    /// Each input's vector ([`input_index`]), in [`ACTIVATION_ONE`] units: two per square of
    /// the board (`2 * width * height`), borrowed from the weights file or owned when trained.
    pub stones: Cow<'static, [[i16; HIDDEN]]>,
    /// Each unit's bias, in [`ACTIVATION_ONE`] units.
    pub bias: [i32; HIDDEN],
    /// Each unit's weight of the fill (a full board being 1), in [`ACTIVATION_ONE`] units.
    pub fill: [i32; HIDDEN],
    /// Each unit's weight in the output, in hundredths of log-odds per activation of 1.
    pub output: [i32; HIDDEN],
}

/// The networks the evaluation has, one per board size (a board without one is evaluated by
/// the linear evaluation alone). A network trained by `train_net --board WxH` is written to
/// `net_weights_WxH.rs`, and joins the evaluation when it is declared in `mod.rs` and listed
/// here.
pub static NETWORKS: [&NetWeights; 3] = [
    &super::net_weights_6x6::NET,
    &super::net_weights_8x8::NET,
    &super::net_weights_10x10::NET,
];

/// The network of a `width` x `height` board, if it has one.
pub fn network_for(width: u8, height: u8) -> Option<&'static NetWeights> {
    NETWORKS
        .iter()
        .copied()
        .find(|net| net.size == (width, height))
}

/// The first-layer input of a stone on `square`: `ours` when it is the viewing side's.
pub fn input_index(square: usize, ours: bool) -> usize {
    2 * square + usize::from(!ours)
}

/// The inputs that are on in `board` from the side to move's view, for training.
pub fn stone_inputs<B: Bits>(board: &Board<B>) -> Vec<u16> {
    let us = board.side_to_move();
    let mut inputs = Vec::new();
    for (color, ours) in [(us, true), (us.opponent(), false)] {
        for square in board.stones(color).squares() {
            inputs.push(input_index(square, ours) as u16);
        }
    }
    inputs.sort_unstable();
    inputs
}

/// The network's part of a position's evaluation, in hundredths of log-odds for the side to
/// move: `ours` and `theirs` hold the sums of the stones' vectors from the side to move's view
/// and from the other side's; `fill` is the evaluation's.
pub fn network_score(
    net: &NetWeights,
    ours: &[i32; HIDDEN],
    theirs: &[i32; HIDDEN],
    fill: i32,
) -> i32 {
    // In i32 throughout, so that the loop runs on vectors: an output weight is at most
    // OUTPUT_LIMIT, so the sum stays below 2^31.
    let mut score = 0i32;
    for unit in 0..HIDDEN {
        let base = net.bias[unit] + net.fill[unit] * fill / FULL;
        let ours = (base + ours[unit]).clamp(0, ACTIVATION_ONE);
        let theirs = (base + theirs[unit]).clamp(0, ACTIVATION_ONE);
        score += net.output[unit] * (ours - theirs);
    }
    score >> ACTIVATION_BITS
}

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
    fn each_network_has_two_vectors_per_square_of_its_board() {
        for net in NETWORKS {
            let (width, height) = net.size;
            let squares = usize::from(width) * usize::from(height);
            assert!(squares <= NET_SQUARES, "{width}x{height}");
            assert_eq!(net.stones.len(), 2 * squares, "{width}x{height}");
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

    /// The network's part of a position's evaluation.
    struct NetworkPart;

    impl BoardVisitor for NetworkPart {
        type Output = i32;

        fn visit<B: Bits>(self, board: &Board<B>) -> i32 {
            crate::search::eval::network_part(board, crate::search::eval::fill(board))
        }
    }

    #[test]
    fn the_other_side_to_move_gets_the_opposite_score() {
        let stones = "b1bwbwbw/3bwbwb/b3bwbw/wb1b1w1b/bw1wbwbw/w1wb1bwb/bwbwbwbw/wbwbwbwb";
        let score = |side: &str| {
            let fen = format!("{stones} {side}");
            let position = Position::from_fen(&fen, Opening::Any, Capture::Straight).unwrap();
            position.visit(NetworkPart)
        };
        // Opposite but for the shift's rounding down (a hundredth of log-odds at most).
        let (black, white) = (score("b"), score("w"));
        assert!(black.abs() > 1);
        assert!((black + white).abs() <= 1, "{black} and {white}");
    }

    #[test]
    fn a_board_without_a_network_has_none() {
        assert!(network_for(8, 8).is_some());
        assert!(network_for(7, 7).is_none());
        let rules = Rules::new(7, 7, Opening::Any, Capture::Straight).unwrap();
        let sums = Position::start(rules).unwrap().visit(Sums);
        assert_eq!(sums, [[0; HIDDEN]; 2]);
    }
}
