//! Training the evaluation's network ([`super::net`]) on labelled positions
//! ([`super::tune::Sample`]): the linear evaluation stays as it is, and the network learns what
//! to add to it so that the sum's win probability predicts each sample's target (cross-entropy),
//! by Adam on shuffled mini-batches in floating point, then rounded to the integer units the
//! search uses. The shuffles come from a seed, so the same samples and options always give the
//! same weights.

use std::borrow::Cow;

use super::fill::FULL;
use super::net::{
    ACTIVATION_ONE, HIDDEN, INPUTS, NET_SQUARES, NetWeights, OUTPUT_LIMIT, network_score,
};
use super::tune::{Reading, Sample};
use crate::rules::mix::Random;

/// How the network is trained.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the samples.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// Weight decay of the stones' vectors and the output weights, per step, times the step
    /// size (AdamW).
    pub decay: f64,
    /// How much of a searched game position's target is the search's win probability (the
    /// rest is the game's result); proven positions' targets are their results.
    pub search_share: f64,
    /// The seed of the first weights and of the shuffles.
    pub seed: u64,
    /// How much the move-choice loss weighs against the target's: for a sample with the
    /// search's choice, the cross-entropy of the search's best move under a softmax of the
    /// moves' values (the negated evaluations of the positions they lead to).
    pub choice_weight: f64,
    /// The softmax's temperature, in log-odds.
    pub choice_temperature: f64,
    /// Whether each sample is seen, each time it is drawn, through one of its board's
    /// symmetries that keep every square's colour ([`symmetries`]), drawn at random: the same
    /// position turned, which the game values alike.
    pub symmetries: bool,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            epochs: 30,
            batch: 256,
            learning_rate: 1e-3,
            decay: 1e-4,
            search_share: 1.0,
            seed: 1,
            choice_weight: 1.0,
            choice_temperature: 1.0,
            symmetries: false,
        }
    }
}

/// The network's weights in floating point, in the units of [`NetWeights`] divided by its
/// scales: first-layer weights per activation of 1, output weights in log-odds.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// All weights in one vector, laid out as the `*_AT` offsets say.
    weights: Vec<f64>,
}

const EMBEDDING_AT: usize = 0;
const BIAS_AT: usize = EMBEDDING_AT + INPUTS * HIDDEN;
const FILL_AT: usize = BIAS_AT + HIDDEN;
const OUTPUT_AT: usize = FILL_AT + HIDDEN;
const WEIGHTS: usize = OUTPUT_AT + HIDDEN;

/// Whether the weight at `index` decays: the stones' vectors and the output weights.
fn decays(index: usize) -> bool {
    !(BIAS_AT..OUTPUT_AT).contains(&index)
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What a sample is trained towards: its target with `search_share` of a searched game
/// position's target from the search.
fn target(sample: &Sample, search_share: f64) -> f64 {
    let result = f64::from(u8::from(sample.wins));
    match sample.search {
        Some(score) if !sample.proven => {
            search_share * logistic(f64::from(score) / 100.0) + (1.0 - search_share) * result
        }
        _ => result,
    }
}

/// One sample's pass through a [`FloatNet`]: the units' inputs and activations from the side to
/// move's view and from the other side's, and the output in log-odds with the linear
/// evaluation included.
struct Pass {
    inputs: [[f64; HIDDEN]; 2],
    activations: [[f64; HIDDEN]; 2],
    output: f64,
}

/// A stone input seen through `symmetry`, from the side to move's view and from the other
/// side's (ours and theirs swapped).
fn views(stone: u16, symmetry: &[u16]) -> [usize; 2] {
    let input = usize::from(symmetry[usize::from(stone)]);
    [input, input ^ 1]
}

/// A turn or reflection of a board: (file, rank, width, height) to (file, rank).
type SquareMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// The permutations of the inputs by those turns and reflections of a `width` x `height`
/// board that keep every square's colour (a jump never changes a stone's square colour, so each
/// square only ever holds stones of one colour), the identity first: four on an even square
/// board (the half turn and the two diagonal reflections), all eight on an odd one, fewer on an
/// oblong one; the identity alone on a board too big for a network.
pub fn symmetries(width: u8, height: u8) -> Vec<Vec<u16>> {
    let (w, h) = (usize::from(width), usize::from(height));
    if w * h > NET_SQUARES {
        return vec![IDENTITY.to_vec()];
    }
    let maps: [SquareMap; 8] = [
        |x, y, _, _| (x, y),
        |x, y, w, h| (w - 1 - x, h - 1 - y),
        |x, y, w, _| (w - 1 - x, y),
        |x, y, _, h| (x, h - 1 - y),
        |x, y, _, _| (y, x),
        |x, y, w, h| (h - 1 - y, w - 1 - x),
        |x, y, _, h| (h - 1 - y, x),
        |x, y, w, _| (y, w - 1 - x),
    ];
    let mut found = Vec::new();
    for map in maps {
        let squares: Option<Vec<usize>> = (0..w * h)
            .map(|square| {
                let (x, y) = (square % w, square / w);
                let (to_x, to_y) = map(x, y, w, h);
                let fits = to_x < w && to_y < h && (to_x + to_y) % 2 == (x + y) % 2;
                fits.then_some(to_y * w + to_x)
            })
            .collect();
        if let Some(squares) = squares {
            let inputs = (0..INPUTS)
                .map(|input| match squares.get(input / 2) {
                    Some(square) => (2 * square + input % 2) as u16,
                    None => input as u16,
                })
                .collect();
            found.push(inputs);
        }
    }
    found
}

/// The identity permutation of the inputs.
const IDENTITY: [u16; INPUTS] = {
    let mut inputs = [0; INPUTS];
    let mut input = 0;
    while input < INPUTS {
        inputs[input] = input as u16;
        input += 1;
    }
    inputs
};

impl FloatNet {
    /// A network that adds nothing yet: small random stone vectors drawn from `seed`, each
    /// unit half open, zero output weights.
    pub fn new(seed: u64) -> FloatNet {
        let mut random = Random::new(seed);
        let mut weights = vec![0.0; WEIGHTS];
        for weight in &mut weights[EMBEDDING_AT..BIAS_AT] {
            *weight = (random.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 0.04 - 0.02;
        }
        for weight in &mut weights[BIAS_AT..FILL_AT] {
            *weight = 0.5;
        }
        FloatNet { weights }
    }

    /// The pass of `reading` seen through `symmetry` (a permutation of the inputs).
    fn pass(&self, reading: &Reading, symmetry: &[u16]) -> Pass {
        let w = &self.weights;
        let fill = f64::from(reading.fill) / f64::from(FULL);
        let mut inputs = [[0.0; HIDDEN]; 2];
        for view in &mut inputs {
            for (unit, input) in view.iter_mut().enumerate() {
                *input = w[BIAS_AT + unit] + w[FILL_AT + unit] * fill;
            }
        }
        for &stone in &reading.stones {
            for (view, input) in views(stone, symmetry).into_iter().enumerate() {
                let vector = &w[EMBEDDING_AT + input * HIDDEN..][..HIDDEN];
                for (sum, value) in inputs[view].iter_mut().zip(vector) {
                    *sum += value;
                }
            }
        }
        let activations = inputs.map(|view| view.map(|input| input.clamp(0.0, 1.0)));
        let mut output = f64::from(reading.evaluation) / 100.0;
        for unit in 0..HIDDEN {
            output += w[OUTPUT_AT + unit] * (activations[0][unit] - activations[1][unit]);
        }
        Pass {
            inputs,
            activations,
            output,
        }
    }

    /// Adds the gradient of `sample`'s losses, seen through `symmetry`, to `gradient`: the
    /// cross-entropy of its prediction against `target`, and of its move choice if it has one.
    fn add_gradient(
        &self,
        sample: &Sample,
        symmetry: &[u16],
        target: f64,
        options: &TrainOptions,
        gradient: &mut [f64],
    ) {
        let pass = self.pass(&sample.reading, symmetry);
        self.backward(
            &sample.reading,
            symmetry,
            &pass,
            logistic(pass.output) - target,
            gradient,
        );
        let Some(choice) = &sample.choice else { return };
        if options.choice_weight == 0.0 {
            return;
        }
        let passes: Vec<Pass> = choice
            .children
            .iter()
            .map(|child| self.pass(child, symmetry))
            .collect();
        let values: Vec<f64> = (passes.iter())
            .map(|pass| -pass.output / options.choice_temperature)
            .collect();
        let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = values.iter().map(|v| (v - top).exp()).sum();
        for (index, (child, pass)) in choice.children.iter().zip(&passes).enumerate() {
            let p = (values[index] - top).exp() / total;
            let chosen = if index == choice.best { 1.0 } else { 0.0 };
            // The loss falls as the chosen move's value rises; a value is a negated output.
            let slope = -options.choice_weight * (p - chosen) / options.choice_temperature;
            self.backward(child, symmetry, pass, slope, gradient);
        }
    }

    /// Adds `slope` times the gradient of `reading`'s output (whose pass is `pass`) to
    /// `gradient`.
    fn backward(
        &self,
        reading: &Reading,
        symmetry: &[u16],
        pass: &Pass,
        slope: f64,
        gradient: &mut [f64],
    ) {
        let fill = f64::from(reading.fill) / f64::from(FULL);
        let mut slopes = [[0.0; HIDDEN]; 2];
        for unit in 0..HIDDEN {
            let [ours, theirs] = [pass.activations[0][unit], pass.activations[1][unit]];
            gradient[OUTPUT_AT + unit] += slope * (ours - theirs);
            for (view, sign) in [(0, 1.0), (1, -1.0)] {
                let input = pass.inputs[view][unit];
                if input > 0.0 && input < 1.0 {
                    let unit_slope = sign * slope * self.weights[OUTPUT_AT + unit];
                    slopes[view][unit] = unit_slope;
                    gradient[BIAS_AT + unit] += unit_slope;
                    gradient[FILL_AT + unit] += unit_slope * fill;
                }
            }
        }
        for &stone in &reading.stones {
            for (view, input) in views(stone, symmetry).into_iter().enumerate() {
                let vector = &mut gradient[EMBEDDING_AT + input * HIDDEN..][..HIDDEN];
                for (value, slope) in vector.iter_mut().zip(slopes[view]) {
                    *value += slope;
                }
            }
        }
    }

    /// The mean cross-entropy of the samples against their targets (labels with
    /// `search_share` of the search's probability): lower is better.
    pub fn loss(&self, samples: &[Sample], search_share: f64) -> f64 {
        let total: f64 = samples
            .iter()
            .map(|sample| {
                cross_entropy(
                    self.pass(&sample.reading, &IDENTITY).output,
                    target(sample, search_share),
                )
            })
            .sum();
        total / samples.len().max(1) as f64
    }

    /// `sample`'s loss as [`FloatNet::add_gradient`] differentiates it: the cross-entropy
    /// against `target`, plus the move choice's, weighed; seen through `symmetry`.
    #[cfg(test)]
    fn sample_loss(
        &self,
        sample: &Sample,
        symmetry: &[u16],
        target: f64,
        options: &TrainOptions,
    ) -> f64 {
        let mut loss = cross_entropy(self.pass(&sample.reading, symmetry).output, target);
        if let Some(choice) = &sample.choice {
            let values: Vec<f64> = (choice.children.iter())
                .map(|child| -self.pass(child, symmetry).output / options.choice_temperature)
                .collect();
            let total: f64 = values.iter().map(|v| v.exp()).sum();
            loss -= options.choice_weight * (values[choice.best] - total.ln());
        }
        loss
    }

    /// The weights rounded to the search's integer units, as the network of a `size` board:
    /// the vectors of its own squares only. The layout holds [`NET_SQUARES`] squares, so a
    /// bigger board gets theirs alone, too few for it (`train_net` refuses such a board, and
    /// a test checks the length of every network in the build).
    pub fn quantized(&self, size: (u8, u8)) -> NetWeights {
        let w = &self.weights;
        let one = f64::from(ACTIVATION_ONE);
        let first = |x: f64| (x * one).round() as i32;
        // Only the board's own squares' vectors: the others are never read, nor trained.
        let inputs = 2 * usize::from(size.0) * usize::from(size.1);
        let stones = (0..inputs.min(INPUTS))
            .map(|input| {
                std::array::from_fn(|unit| {
                    let wide = first(w[EMBEDDING_AT + input * HIDDEN + unit]);
                    wide.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
                })
            })
            .collect();
        let mut net = NetWeights {
            size,
            stones: Cow::Owned(stones),
            bias: [0; HIDDEN],
            fill: [0; HIDDEN],
            output: [0; HIDDEN],
        };
        for unit in 0..HIDDEN {
            net.bias[unit] = first(w[BIAS_AT + unit]);
            net.fill[unit] = first(w[FILL_AT + unit]);
            net.output[unit] =
                ((w[OUTPUT_AT + unit] * 100.0).round() as i32).clamp(-OUTPUT_LIMIT, OUTPUT_LIMIT);
        }
        net
    }
}

fn cross_entropy(output: f64, target: f64) -> f64 {
    let p = logistic(output).clamp(1e-12, 1.0 - 1e-12);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// Trains a network on `samples` from [`FloatNet::new`]`(options.seed)`.
pub fn train(samples: &[Sample], options: &TrainOptions) -> FloatNet {
    let mut net = FloatNet::new(options.seed);
    let mut random = Random::new(options.seed ^ 0x5eed);
    let targets: Vec<f64> = (samples.iter())
        .map(|sample| target(sample, options.search_share))
        .collect();
    let (beta1, beta2, epsilon): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut first_moment = vec![0.0; WEIGHTS];
    let mut second_moment = vec![0.0; WEIGHTS];
    let mut steps = 0;
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut turned = std::collections::HashMap::new();
    for sample in samples {
        let size = sample.reading.size;
        turned
            .entry(size)
            .or_insert_with(|| match options.symmetries {
                true => symmetries(size.0, size.1),
                false => vec![IDENTITY.to_vec()],
            });
    }
    for _ in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, random.below(i + 1));
        }
        for batch in order.chunks(options.batch.max(1)) {
            let mut gradient = vec![0.0; WEIGHTS];
            for &index in batch {
                let sample = &samples[index];
                let choices = &turned[&sample.reading.size];
                let symmetry = match choices.len() {
                    1 => &choices[0],
                    n => &choices[random.below(n)],
                };
                net.add_gradient(sample, symmetry, targets[index], options, &mut gradient);
            }
            steps += 1;
            let scale = 1.0 / batch.len() as f64;
            let (fix1, fix2) = (1.0 - beta1.powi(steps), 1.0 - beta2.powi(steps));
            for index in 0..WEIGHTS {
                let g = gradient[index] * scale;
                first_moment[index] = beta1 * first_moment[index] + (1.0 - beta1) * g;
                second_moment[index] = beta2 * second_moment[index] + (1.0 - beta2) * g * g;
                let step =
                    first_moment[index] / fix1 / ((second_moment[index] / fix2).sqrt() + epsilon);
                let weight = &mut net.weights[index];
                if decays(index) {
                    *weight -= options.learning_rate * options.decay * *weight;
                }
                *weight -= options.learning_rate * step;
            }
        }
    }
    net
}

/// The mean cross-entropy of the samples against their targets with the search's integer
/// network `net` added to the linear evaluation: what the search will see.
pub fn quantized_loss(samples: &[Sample], net: &NetWeights, search_share: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let score = integer_evaluation(net, &sample.reading);
            cross_entropy(f64::from(score) / 100.0, target(sample, search_share))
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The evaluation the search makes of `reading` with the network `net`.
fn integer_evaluation(net: &NetWeights, reading: &Reading) -> i32 {
    let mut sums = [[0i32; HIDDEN]; 2];
    for &stone in &reading.stones {
        for (view, input) in views(stone, &IDENTITY).into_iter().enumerate() {
            for (sum, &value) in sums[view].iter_mut().zip(&net.stones[input]) {
                *sum += i32::from(value);
            }
        }
    }
    reading.evaluation + network_score(net, &sums[0], &sums[1], reading.fill)
}

/// How often the move the evaluation `net` ranks first (the lowest evaluation of the position
/// it leads to) is the search's best move, over the samples with a move choice; and how many
/// such samples there are.
pub fn choice_agreement(samples: &[Sample], net: &NetWeights) -> (f64, usize) {
    let choices: Vec<_> = samples.iter().filter_map(|s| s.choice.as_ref()).collect();
    let agreed = choices
        .iter()
        .filter(|choice| {
            let values = choice
                .children
                .iter()
                .map(|child| -integer_evaluation(net, child));
            let first = (values.enumerate())
                .max_by_key(|&(index, value)| (value, std::cmp::Reverse(index)));
            first.map(|(index, _)| index) == Some(choice.best)
        })
        .count();
    (agreed as f64 / choices.len().max(1) as f64, choices.len())
}

/// The Rust source of `net_weights_WxH.rs` for `net`; `provenance` (comment lines) says how it
/// was trained.
pub fn weights_file(net: &NetWeights, provenance: &str) -> String {
    use std::fmt::Write;
    let (width, height) = net.size;
    let mut text = format!(
        "//! The evaluation network of {width}x{height} boards, as `cargo run --release --example \
         train_net`\n//! writes it (see `super::net` for its units).\n"
    );
    for line in provenance.lines() {
        let _ = writeln!(text, "//! {line}");
    }
    let _ = write!(
        text,
        "\nuse std::borrow::Cow;\n\nuse super::net::NetWeights;\n\n\
         /// The network the evaluation adds to its linear part on {width}x{height} boards.\n\
         #[rustfmt::skip]\n\
         pub const NET: NetWeights = NetWeights {{\n    size: ({width}, {height}),\n    stones: Cow::Borrowed(&[\n"
    );
    for vector in net.stones.iter() {
        let _ = writeln!(text, "        {vector:?},");
    }
    let _ = write!(
        text,
        "    ]),\n    bias: {:?},\n    fill: {:?},\n    output: {:?},\n}};\n",
        net.bias, net.fill, net.output,
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Opening, Position, Rules};
    use crate::search::tune::read_samples;

    /// The position string of the stones `inputs` (side to move's view) on a `width` x
    /// `height` board, `side` to move.
    fn fen_of(inputs: &[u16], width: usize, height: usize, side: &str) -> String {
        let mut grid = vec![None; width * height];
        let ours = if side == "b" { 'b' } else { 'w' };
        let theirs = if side == "b" { 'w' } else { 'b' };
        for &input in inputs {
            let input = usize::from(input);
            grid[input / 2] = Some(if input % 2 == 0 { ours } else { theirs });
        }
        let rank_text = |squares: &[Option<char>]| {
            let (mut text, mut empty) = (String::new(), 0);
            for square in squares {
                match square {
                    None => empty += 1,
                    Some(stone) => {
                        if empty > 0 {
                            text += &empty.to_string();
                        }
                        empty = 0;
                        text.push(*stone);
                    }
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        };
        let ranks: Vec<String> = (0..height)
            .rev()
            .map(|rank| rank_text(&grid[rank * width..][..width]))
            .collect();
        format!("{} {side}", ranks.join("/"))
    }

    #[test]
    fn symmetries_turn_positions_into_positions_of_equal_value() {
        let mut random = Random::new(5);
        assert_eq!(symmetries(13, 13), vec![IDENTITY.to_vec()]);
        let boards = [
            (8, 8, 4),
            (7, 7, 8),
            (8, 6, 2),
            (10, 10, 4),
            (12, 12, 4),
            (5, 4, 2),
        ];
        for (width, height, count) in boards {
            let found = symmetries(width as u8, height as u8);
            assert_eq!(found.len(), count, "{width}x{height}");
            assert_eq!(found[0], IDENTITY.to_vec());
            let rules = Rules::new(width, height, Opening::Any, Capture::Straight).unwrap();
            let mut position = Position::start(rules).unwrap();
            loop {
                let side = if position.side_to_move() == crate::rules::square::Color::Black {
                    "b"
                } else {
                    "w"
                };
                let reading = position.visit(super::super::tune::Read);
                for symmetry in &found {
                    let turned: Vec<u16> = (reading.stones.iter())
                        .map(|&stone| symmetry[usize::from(stone)])
                        .collect();
                    let fen = fen_of(&turned, width, height, side);
                    let other = Position::from_fen(&fen, Opening::Any, Capture::Straight)
                        .unwrap_or_else(|e| panic!("{fen}: {e}"));
                    let other_reading = other.visit(super::super::tune::Read);
                    assert_eq!(other_reading.evaluation, reading.evaluation, "{fen}");
                    assert_eq!(other.count_moves(), position.count_moves(), "{fen}");
                    // Each stone keeps its square's colour.
                    for (&from, &to) in reading.stones.iter().zip(&turned) {
                        let (from, to) = (usize::from(from) / 2, usize::from(to) / 2);
                        let parity = |square: usize| (square % width + square / width) % 2;
                        assert_eq!(parity(from), parity(to));
                    }
                }
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                position.play_unchecked(moves[random.below(moves.len())]);
            }
        }
    }

    /// Samples from real positions, one with a move choice, one proven.
    fn samples() -> Vec<Sample> {
        read_samples(
            "w bwbwbwbw/wbwbwbwb/bwbwbwbw/wbw1wbw1/bwb1b3/wbwbwbw1/bwb1bwbw/wb1b2w1 w 40 e3e1\n\
             L bwbwbw/wb1bwb/3wbw/wb1bwb/bw1wbw/wbwbwb b\n\
             l b1bwbw/3bwb/b3bw/wb1b1w/bw1wbw/w1wb1b b -120",
        )
        .unwrap()
    }

    /// A network whose every weight is drawn from `seed`, the units open.
    fn random_net(seed: u64) -> FloatNet {
        let mut random = Random::new(seed);
        let mut net = FloatNet::new(seed);
        for (index, weight) in net.weights.iter_mut().enumerate() {
            let draw = (random.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            *weight = match index {
                BIAS_AT..FILL_AT => 0.5 + 0.2 * draw,
                EMBEDDING_AT..BIAS_AT => 0.05 * draw,
                _ => draw,
            };
        }
        net
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let samples = samples();
        assert!(samples[0].choice.is_some());
        let options = TrainOptions {
            choice_weight: 0.7,
            choice_temperature: 1.3,
            ..TrainOptions::default()
        };
        let net = random_net(4);
        for sample in &samples {
            let target = target(sample, options.search_share);
            // Seen through the board's last symmetry (a diagonal reflection on these square
            // boards), as training draws them.
            let (width, height) = sample.reading.size;
            let turned = symmetries(width, height);
            let symmetry = &turned[turned.len() - 1];
            let mut gradient = vec![0.0; WEIGHTS];
            net.add_gradient(sample, symmetry, target, &options, &mut gradient);
            let mut checked = 0;
            for (index, &analytic) in gradient.iter().enumerate() {
                let step = 1e-6;
                let mut up = net.clone();
                up.weights[index] += step;
                let mut down = net.clone();
                down.weights[index] -= step;
                let slope = (up.sample_loss(sample, symmetry, target, &options)
                    - down.sample_loss(sample, symmetry, target, &options))
                    / (2.0 * step);
                assert!(
                    (slope - analytic).abs() < 1e-5,
                    "weight {index}: {analytic} against {slope}"
                );
                checked += usize::from(slope != 0.0);
            }
            assert!(checked > 3 * HIDDEN, "only {checked} weights move the loss");
        }
    }

    #[test]
    fn rounding_keeps_the_networks_score_within_a_few_hundredths() {
        let net = random_net(9);
        let rounded = net.quantized((8, 8));
        for sample in samples() {
            let float = 100.0 * net.pass(&sample.reading, &IDENTITY).output;
            let integer = f64::from(integer_evaluation(&rounded, &sample.reading));
            assert!((float - integer).abs() < 3.0, "{float} against {integer}");
        }
    }

    #[test]
    fn training_lowers_the_losses() {
        let samples = samples();
        let options = TrainOptions {
            epochs: 100,
            batch: 1,
            learning_rate: 1e-2,
            ..TrainOptions::default()
        };
        let before = FloatNet::new(options.seed);
        let after = train(&samples, &options);
        assert!(after.loss(&samples, 1.0) < before.loss(&samples, 1.0));
        let chosen = &samples[0];
        let target = target(chosen, 1.0);
        let loss = |net: &FloatNet| net.sample_loss(chosen, &IDENTITY, target, &options);
        assert!(loss(&after) < loss(&before) - 0.1);
        // The same samples and options give the same weights.
        assert_eq!(train(&samples, &options), after);
    }
}
