//! A small network on top of the linear evaluation, NNUE-style, one per board size that has
//! one ([`super::networks`]). Its first layer is a learnt vector per square and kind of stone (the
//! side to move's or the other side's), summed over the board's stones and kept up to date by
//! the search's [`super::stone_accumulator::StoneAccumulator`] as stones leave the board (a jump changes three squares,
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

use super::fill::FULL;
use crate::rules::bits::Bits;
use crate::rules::board::Board;

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
