//! The static evaluation: who is likely to run out of moves first. A weighted sum of features
//! of the position and of its line patterns (the shapes of every four squares in a row,
//! [`super::patterns`]), whose weights slide with the board's fill (stones per square) from
//! the weights of a nearly empty board to those of a full one. The weights are fitted by
//! logistic regression ([`crate::search::tune`]) to positions of engine games labelled by the
//! solver or by the game's result (`scripts/data/eval-positions.txt`), then refined to choose
//! the moves a deep search chooses (`scripts/data/eval-choices.txt`); on boards that have one,
//! a small network ([`super::net`]) adds what it learnt from engine games. The score is 100
//! times the log-odds that the side to move wins.

use super::accumulator::Accumulator;
use super::fill::{FULL, fill};
use super::net::{HIDDEN, network_score, stone_inputs};
use super::networks::network_for;
pub use super::pattern_weights::PATTERN_WEIGHTS;
use super::patterns::for_each_window;
use super::stone_accumulator::StoneAccumulator;
use crate::rules::bits::Bits;
use crate::rules::board::{Board, Phase};
use crate::rules::position::{BoardVisitor, Position};

/// How many features the evaluation weighs.
pub const FEATURES: usize = 6;

/// The features' names, in the order of [`features`] and of each row of [`WEIGHTS`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "tempo",
    "moves",
    "movers",
    "safe jumps",
    "stones under attack",
    "no reply",
];

/// The weights of the features in centi-log-odds: on an empty board (fill 0), then on a full
/// one (fill [`FULL`]), as `cargo run --release --example tune_eval` prints them for the data
/// sets. Between the two, each weight is interpolated by the fill.
pub const WEIGHTS: [[i32; FEATURES]; 2] = [[-16, 41, 60, -42, -58, 63], [50, -5, 9, 7, 5, 189]];

/// The pattern inputs' unit: a pattern's input is the share of the board's windows that show
/// it, times this (so that a pattern on one window in sixteen weighs as a feature of 1).
pub const PATTERN_SCALE: i32 = 16;

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
    let (ours, theirs) = (
        board.count_moves_of(us),
        board.count_moves_of(us.opponent()),
    );
    features_with_moves(board, ours, theirs)
}

/// [`features`] of a position whose side to move has `our_moves` moves and would face
/// `their_moves` (counted by the caller, who needed them anyway).
pub fn features_with_moves<B: Bits>(
    board: &Board<B>,
    our_moves: u64,
    their_moves: u64,
) -> [i32; FEATURES] {
    let us = board.side_to_move();
    let them = us.opponent();
    let (our_moves, their_moves) = (our_moves as i32, their_moves as i32);
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
    let fill = fill(board);
    let features = features(board);
    weigh(&features, fill) + pattern_score(board, fill) + network_part(board, fill)
}

/// [`evaluate`] without the network: the features and patterns weighed at the fill (what the
/// network is trained to add to).
pub fn linear_evaluation<B: Bits>(board: &Board<B>) -> i32 {
    if board.phase() != Phase::Jumps {
        return 0;
    }
    let fill = fill(board);
    weigh(&features(board), fill) + pattern_score(board, fill)
}

/// [`evaluate`] with the patterns' sums and the network's first layer kept up to date by the
/// search (`patterns` and `stones` must be `board`'s): the same value, without reading every
/// window and stone.
pub fn evaluate_with<B: Bits>(
    board: &Board<B>,
    patterns: &Accumulator,
    stones: &StoneAccumulator,
) -> i32 {
    if board.phase() != Phase::Jumps {
        return 0;
    }
    let fill = fill(board);
    let side = board.side_to_move();
    let features = features(board);
    let network = match stones.network() {
        Some(net) => network_score(net, stones.sums(side), stones.sums(side.opponent()), fill),
        None => 0,
    };
    weigh(&features, fill) + pattern_mean(patterns.sums(side), fill, patterns.windows()) + network
}

/// The network's part of [`evaluate`], its first layer read stone by stone; 0 on a board
/// without a network.
pub fn network_part<B: Bits>(board: &Board<B>, fill: i32) -> i32 {
    let rules = board.rules();
    let Some(net) = network_for(rules.width(), rules.height()) else {
        return 0;
    };
    let mut sums = [[0; HIDDEN]; 2];
    for input in stone_inputs(board) {
        // The same stone from the other side's view: ours and theirs swapped.
        for (view, input) in [input, input ^ 1].into_iter().enumerate() {
            for (sum, &value) in sums[view].iter_mut().zip(&net.stones[usize::from(input)]) {
                *sum += i32::from(value);
            }
        }
    }
    network_score(net, &sums[0], &sums[1], fill)
}

/// The patterns' part of the evaluation: the mean weight of the board's windows at `fill`,
/// times [`PATTERN_SCALE`], read window by window.
pub fn pattern_score<B: Bits>(board: &Board<B>, fill: i32) -> i32 {
    let [empty, full] = &PATTERN_WEIGHTS;
    let (mut empty_sum, mut full_sum) = (0i64, 0i64);
    let windows = for_each_window(board, |pattern| {
        empty_sum += i64::from(empty[pattern]);
        full_sum += i64::from(full[pattern]);
    });
    pattern_mean((empty_sum, full_sum), fill, windows as usize)
}

/// The patterns' part of the evaluation from the sums of the windows' weights on an empty and
/// on a full board (`sums`), at `fill`, over `windows` windows.
fn pattern_mean(sums: (i64, i64), fill: i32, windows: usize) -> i32 {
    let (empty_sum, full_sum) = sums;
    let sum = at_fill(empty_sum, full_sum, fill);
    (sum * i64::from(PATTERN_SCALE) / (i64::from(FULL) * windows.max(1) as i64)) as i32
}

/// The weighted sum of `features` at `fill`.
pub fn weigh(features: &[i32; FEATURES], fill: i32) -> i32 {
    let [empty, full] = WEIGHTS;
    let sum: i64 = (0..FEATURES)
        .map(|i| i64::from(features[i]) * at_fill(empty[i].into(), full[i].into(), fill))
        .sum();
    (sum / i64::from(FULL)) as i32
}

/// A weight (or a sum of weights) at `fill`, times [`FULL`]: `empty` on an empty board,
/// `full` on a full one, and linear between.
fn at_fill(empty: i64, full: i64, fill: i32) -> i64 {
    empty * i64::from(FULL - fill) + full * i64::from(fill)
}

/// [`evaluate`] on a position of any size.
pub fn evaluate_position(position: &Position) -> i32 {
    position.visit(Evaluate)
}

/// [`features`] and [`fill`] of a position of any size.
pub fn features_of(position: &Position) -> ([i32; FEATURES], i32) {
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
    type Output = ([i32; FEATURES], i32);

    fn visit<B: Bits>(self, board: &Board<B>) -> ([i32; FEATURES], i32) {
        (features(board), fill(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Opening};
    use crate::search::accumulator::walk_random_game;

    fn features_of_fen(fen: &str) -> [i32; FEATURES] {
        features_of(&Position::from_fen(fen, Opening::Any, Capture::Straight).unwrap()).0
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

    /// [`pattern_score`] and the network's score of a position of any size at a fill.
    struct Parts(i32);

    impl BoardVisitor for Parts {
        type Output = (i32, i32);

        fn visit<B: Bits>(self, board: &Board<B>) -> (i32, i32) {
            let network = network_part(board, self.0);
            (pattern_score(board, self.0), network)
        }
    }

    /// Plays a random game, mending an accumulator move by move, and checks that the search's
    /// evaluation equals the evaluation read from scratch at every position.
    struct Mended(u64);

    impl BoardVisitor for Mended {
        type Output = ();

        fn visit<B: Bits>(self, board: &Board<B>) {
            let mut stones = StoneAccumulator::new(board);
            walk_random_game(board, self.0, |board, child, patterns| {
                assert_eq!(evaluate_with(board, patterns, &stones), evaluate(board));
                if let Some(child) = child {
                    let (black, white) = Accumulator::changes(board, child);
                    stones.apply(black, white, child);
                }
            });
        }
    }

    #[test]
    fn the_search_evaluates_as_the_evaluation_from_scratch() {
        let mut random = crate::rules::mix::Random::new(3);
        for game in 0..70 {
            // The boards with a network (8x8, 10x10) first, then any.
            let (width, height) = match game {
                0..5 => (8, 8),
                5..10 => (10, 10),
                _ => (2 + random.below(25), 2 + random.below(25)),
            };
            let rules =
                crate::rules::Rules::new(width, height, Opening::Any, Capture::Straight).unwrap();
            let seed = random.below(1 << 20) as u64;
            Position::start(rules).unwrap().visit(Mended(seed));
        }
    }

    #[test]
    fn the_evaluation_is_the_weighted_features_patterns_and_network_at_the_fill() {
        let position = Position::from_fen(
            "b1bwbw/3bwb/b3bw/wb1b1w/bw1wbw/w1wb1b b",
            Opening::Any,
            Capture::Straight,
        )
        .unwrap();
        let (features, fill) = features_of(&position);
        // 24 stones on 36 squares.
        assert_eq!(fill, 24 * FULL / 36);
        let weight = |i: usize| {
            f64::from(WEIGHTS[0][i]) * f64::from(FULL - fill) / f64::from(FULL)
                + f64::from(WEIGHTS[1][i]) * f64::from(fill) / f64::from(FULL)
        };
        let sum: f64 = (0..FEATURES)
            .map(|i| f64::from(features[i]) * weight(i))
            .sum();
        let (patterns, network) = position.visit(Parts(fill));
        let rest = f64::from(evaluate_position(&position) - patterns - network);
        assert!((rest - sum).abs() < 1.0);
        // At the two ends of the fill, the two rows of weights.
        for (row, fill) in [(0, 0), (1, FULL)] {
            let plain: i32 = (0..FEATURES).map(|i| features[i] * WEIGHTS[row][i]).sum();
            assert_eq!(weigh(&features, fill), plain);
        }
    }

    /// The network's part of a position's evaluation.
    struct NetworkPart;

    impl BoardVisitor for NetworkPart {
        type Output = i32;

        fn visit<B: Bits>(self, board: &Board<B>) -> i32 {
            network_part(board, fill(board))
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
}
