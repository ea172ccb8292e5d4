//! Fitting the evaluation's weights: logistic regression of labelled positions' results on the
//! evaluation's [`features`](super::eval::features) and the frequencies of its line
//! [`patterns`](super::patterns), each split between the two rows of weights by the position's
//! fill, as chess engines tune on labelled positions. A proven position's target is its result;
//! a game's position, the mean of the game's result and the win probability of a search of it
//! when the data set gives one (a game's result alone says little about a position far from its
//! end). The fit is Newton's method from zero weights with a light ridge penalty: no randomness
//! and no learning rate, so the same data set always gives the same weights. [`refine`] then
//! trains them further by Adam, to choose the best moves of a deep search as well (a softmax of
//! the moves' values), from a seeded shuffle: the same data and options give the same weights.

use super::eval::{FEATURES, PATTERN_SCALE};
use super::fill::FULL;
use super::patterns::{PATTERNS, pattern_counts};
use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::position::{BoardVisitor, Position};
use crate::rules::{Capture, Move, Opening};

/// The inputs of one row of weights: the features, then the patterns.
const ROW: usize = FEATURES + PATTERNS;
/// The regression's inputs: each row once for the empty-board weights and once for the
/// full-board ones.
const INPUTS: usize = 2 * ROW;

/// The evaluation's weights, one row for an empty board and one for a full one: the
/// features' and the patterns'.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights<T> {
    /// Per row, each feature's weight.
    pub features: [[T; FEATURES]; 2],
    /// Per row, each pattern's weight.
    pub patterns: [[T; PATTERNS]; 2],
}

/// What the evaluation reads of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The evaluation's features of the position.
    pub features: [i32; FEATURES],
    /// The position's fill (see [`super::fill::fill`]).
    pub fill: i32,
    /// Each pattern its windows show, with how many show it.
    pub patterns: Vec<(u16, u32)>,
    /// How many windows the board has.
    pub windows: u32,
    /// The evaluation without its network ([`super::eval::linear_evaluation`]).
    pub evaluation: i32,
    /// The board's width and height.
    pub size: (u8, u8),
    /// The network's inputs that are on ([`super::net::stone_inputs`]); none on a board too
    /// big for a network (more than [`super::net::NET_SQUARES`] squares).
    pub stones: Vec<u16>,
}

/// A searched position's move choice: what the evaluation reads of each position its moves
/// lead to, and which of them the search chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Each legal move's position, in the order of the legal moves.
    pub children: Vec<Reading>,
    /// The index in `children` of the search's best move.
    pub best: usize,
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// What the evaluation reads of the position.
    pub reading: Reading,
    /// True when the side to move won.
    pub wins: bool,
    /// True when the solver proved the result; false when it is the result of the game the
    /// position was taken from.
    pub proven: bool,
    /// A search's score of the position for the side to move, in hundredths of log-odds.
    pub search: Option<i32>,
    /// The search's move choice, when the data set gives its best move.
    pub choice: Option<Choice>,
}

impl Sample {
    /// What the fit predicts: 1 for a win of the side to move, 0 for a loss, and for a game's
    /// position with a search score, [`SEARCH_SHARE`] of the score's win probability and the
    /// rest of the game's result.
    pub fn target(&self) -> f64 {
        let result = f64::from(u8::from(self.wins));
        match self.search {
            Some(score) if !self.proven => {
                let searched = logistic(f64::from(score) / 100.0);
                SEARCH_SHARE * searched + (1.0 - SEARCH_SHARE) * result
            }
            _ => result,
        }
    }

    /// The regression's inputs that are not zero, as (input, value).
    fn inputs(&self) -> Vec<(usize, f64)> {
        self.reading.inputs()
    }
}

impl Reading {
    /// The regression's inputs that are not zero, as (input, value).
    fn inputs(&self) -> Vec<(usize, f64)> {
        let full = f64::from(self.fill) / f64::from(FULL);
        let mut inputs = Vec::with_capacity(2 * (FEATURES + self.patterns.len()));
        for (row, share) in [(0, 1.0 - full), (1, full)] {
            for (i, &feature) in self.features.iter().enumerate() {
                inputs.push((row * ROW + i, f64::from(feature) * share));
            }
            for &(pattern, count) in &self.patterns {
                let frequency =
                    f64::from(count) * f64::from(PATTERN_SCALE) / f64::from(self.windows);
                inputs.push((
                    row * ROW + FEATURES + usize::from(pattern),
                    frequency * share,
                ));
            }
        }
        inputs
    }
}

/// What the evaluation reads of a position of any size.
pub(super) struct Read;

impl BoardVisitor for Read {
    type Output = Reading;

    fn visit<B: Bits>(self, board: &Board<B>) -> Reading {
        let (counts, windows) = pattern_counts(board);
        let patterns = (0..PATTERNS)
            .filter(|&p| counts[p] > 0)
            .map(|p| (p as u16, counts[p]))
            .collect();
        Reading {
            features: super::eval::features(board),
            fill: super::fill::fill(board),
            patterns,
            windows,
            evaluation: super::eval::linear_evaluation(board),
            size: (board.rules().width(), board.rules().height()),
            stones: match board.rules().area() <= super::net::NET_SQUARES {
                true => super::net::stone_inputs(board),
                false => Vec::new(),
            },
        }
    }
}

/// What the readings of a data set keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Everything the evaluation reads: the linear fit needs the patterns.
    Everything,
    /// No patterns: the network's training reads the stones, the fill and the linear
    /// evaluation only, and on 12x12 the patterns of the positions a move choice's moves lead
    /// to were half of its memory.
    NoPatterns,
}

impl Kept {
    /// Every choice, in the order of the declaration.
    pub const ALL: [Kept; 2] = [Kept::Everything, Kept::NoPatterns];

    /// `reading` with only what is kept.
    fn keep(self, mut reading: Reading) -> Reading {
        match self {
            Kept::Everything => {}
            Kept::NoPatterns => {
                reading.patterns = Vec::new();
                reading.stones.shrink_to_fit();
            }
        }
        reading
    }
}

/// The choice of `best` (a move's text) among the moves of `position`; none when a move wins
/// at once.
fn choice(position: &Position, best: &str, kept: Kept) -> Result<Option<Choice>, String> {
    let chosen: Move = best
        .parse()
        .map_err(|e| format!("the best move '{best}': {e}"))?;
    let moves = position.legal_moves();
    let best = (moves.iter().position(|&mv| mv == chosen))
        .ok_or_else(|| format!("the best move '{best}' is not legal here"))?;
    // A move that leaves the opponent without a reply wins at once: nothing to learn.
    let mut children = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut child = *position;
        child.play_unchecked(mv);
        if child.is_game_over() {
            return Ok(None);
        }
        children.push(kept.keep(child.visit(Read)));
    }
    Ok(Some(Choice { children, best }))
}

/// How much of a game's position's target is its search's win probability (the rest is the
/// game's result).
pub const SEARCH_SHARE: f64 = 0.5;

/// Reads a data set: one `<label> <position string> [<score> [<move>]]` a line, blank lines
/// and `#` comments skipped; the score is a search's, in hundredths of log-odds for the side to
/// move, and the move its best (`scripts/label-search.py` adds them). The label is `W` or `L`
/// when the solver proved that the side to move wins or loses, `w` or `l` when the side to
/// move won or lost the game the position comes from. The error names the line.
pub fn read_samples(text: &str) -> Result<Vec<Sample>, String> {
    read_samples_keeping(text, Kept::Everything)
}

/// [`read_samples`], the readings keeping only what `kept` says.
pub fn read_samples_keeping(text: &str, kept: Kept) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = number + 1;
        let (label, fen) = line
            .split_once(' ')
            .ok_or_else(|| format!("line {at}: expected a label, a space, a position"))?;
        let (wins, proven) = match label {
            "W" => (true, true),
            "L" => (false, true),
            "w" => (true, false),
            "l" => (false, false),
            other => {
                return Err(format!(
                    "line {at}: the label is 'W', 'L', 'w' or 'l', not '{other}'"
                ));
            }
        };
        // A position string is a board and a side to move: a third word is the score, a
        // fourth the best move.
        let words: Vec<&str> = fen.split(' ').collect();
        let (fen, score, best) = match words[..] {
            [_] | [_, _] => (fen, None, None),
            [board, side, score] => (&fen[..board.len() + 1 + side.len()], Some(score), None),
            [board, side, score, best] => (
                &fen[..board.len() + 1 + side.len()],
                Some(score),
                Some(best),
            ),
            _ => return Err(format!("line {at}: more than four words after the label")),
        };
        let search = match score {
            Some(score) => Some(score.parse::<i32>().map_err(|_| {
                format!("line {at}: the search score is a whole number, not '{score}'")
            })?),
            None => None,
        };
        let position = Position::from_fen(fen, Opening::Any, Capture::Straight)
            .map_err(|e| format!("line {at}: {e}"))?;
        let choice = match best {
            Some(best) => choice(&position, best, kept).map_err(|e| format!("line {at}: {e}"))?,
            None => None,
        };
        samples.push(Sample {
            reading: kept.keep(position.visit(Read)),
            wins,
            proven,
            search,
            choice,
        });
    }
    Ok(samples)
}

/// The ridge penalty on every weight but the tempo's, against the sum of the samples'
/// log-likelihoods: enough to keep a feature that separates the data perfectly finite, and a
/// pattern no sample shows at zero.
const RIDGE: f64 = 1.0;

/// Newton steps at most: the fit converges in well under this many.
const STEPS: usize = 30;
/// The fit stops once no weight moves by more than this in a step.
const CONVERGED: f64 = 1e-9;

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The weights, in log-odds per unit of each input, that best predict the samples.
pub fn fit(samples: &[Sample]) -> Weights<f64> {
    let inputs: Vec<Vec<(usize, f64)>> = samples.iter().map(Sample::inputs).collect();
    let mut weights = vec![0.0; INPUTS];
    for _ in 0..STEPS {
        let mut gradient = vec![0.0; INPUTS];
        // The upper triangle, row by row.
        let mut hessian = vec![0.0; INPUTS * INPUTS];
        for (sample, x) in samples.iter().zip(&inputs) {
            let p = logistic(dot(&weights, x));
            let error = p - sample.target();
            let curvature = p * (1.0 - p);
            for &(i, xi) in x {
                gradient[i] += error * xi;
                for &(j, xj) in x {
                    if j >= i {
                        hessian[i * INPUTS + j] += curvature * xi * xj;
                    }
                }
            }
        }
        for i in (0..INPUTS).filter(|i| i % ROW != 0) {
            gradient[i] += RIDGE * weights[i];
            hessian[i * INPUTS + i] += RIDGE;
        }
        for i in 0..INPUTS {
            for j in 0..i {
                hessian[i * INPUTS + j] = hessian[j * INPUTS + i];
            }
        }
        let step = solve_linear(hessian, gradient);
        for (weight, step) in weights.iter_mut().zip(&step) {
            *weight -= step;
        }
        if step.iter().all(|s| s.abs() < CONVERGED) {
            break;
        }
    }
    unflatten(&weights)
}

/// The regression's weight vector (each row's features, then its patterns) as [`Weights`].
fn unflatten(weights: &[f64]) -> Weights<f64> {
    let mut unflat = Weights {
        features: [[0.0; FEATURES]; 2],
        patterns: [[0.0; PATTERNS]; 2],
    };
    for row in 0..2 {
        unflat.features[row].copy_from_slice(&weights[row * ROW..row * ROW + FEATURES]);
        unflat.patterns[row].copy_from_slice(&weights[row * ROW + FEATURES..(row + 1) * ROW]);
    }
    unflat
}

/// [`Weights`] as the regression's weight vector, the inverse of [`unflatten`].
fn flatten(weights: &Weights<f64>) -> Vec<f64> {
    let mut flat = vec![0.0; INPUTS];
    for row in 0..2 {
        flat[row * ROW..row * ROW + FEATURES].copy_from_slice(&weights.features[row]);
        flat[row * ROW + FEATURES..(row + 1) * ROW].copy_from_slice(&weights.patterns[row]);
    }
    flat
}

/// The weights as the evaluation uses them: hundredths of log-odds, rounded.
pub fn centi_weights(weights: &Weights<f64>) -> Weights<i32> {
    let centi = |w: f64| (w * 100.0).round() as i32;
    Weights {
        features: weights.features.map(|row| row.map(centi)),
        patterns: weights.patterns.map(|row| row.map(centi)),
    }
}

/// The mean log-loss of predicting the samples with `centi` weights (hundredths of log-odds):
/// lower is better; ln 2 = 0.693 is a coin toss.
pub fn log_loss(samples: &[Sample], centi: &Weights<i32>) -> f64 {
    let weights = flatten(&from_centi(centi));
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let p = logistic(dot(&weights, &sample.inputs()));
            let p = if sample.wins { p } else { 1.0 - p };
            -p.max(1e-12).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn dot(weights: &[f64], inputs: &[(usize, f64)]) -> f64 {
    inputs.iter().map(|&(i, x)| weights[i] * x).sum()
}

/// Solves `a x = b` (`a` an `n` x `n` matrix, row by row) by Gaussian elimination with partial
/// pivoting; `a` is positive definite here (the ridge sees to it), so no pivot is zero.
fn solve_linear(mut a: Vec<f64>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&i, &j| a[i * n + column].abs().total_cmp(&a[j * n + column].abs()))
            .expect("a column has rows");
        if pivot != column {
            for k in 0..n {
                a.swap(column * n + k, pivot * n + k);
            }
            b.swap(column, pivot);
        }
        let (above, below) = a.split_at_mut((column + 1) * n);
        let pivot_row = &above[column * n..];
        for (offset, row) in below.chunks_mut(n).enumerate() {
            let factor = row[column] / pivot_row[column];
            if factor == 0.0 {
                continue;
            }
            for (value, pivot_value) in row.iter_mut().zip(pivot_row).skip(column) {
                *value -= factor * pivot_value;
            }
            b[column + 1 + offset] -= factor * b[column];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row * n + k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row * n + row];
    }
    x
}

/// How [`refine`] trains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefineOptions {
    /// Passes over the samples.
    pub epochs: usize,
    /// Adam's step size, in log-odds.
    pub learning_rate: f64,
    /// How much the move-choice loss weighs against the target's.
    pub choice_weight: f64,
    /// The move-choice softmax's temperature, in log-odds.
    pub choice_temperature: f64,
    /// The seed of the shuffles.
    pub seed: u64,
}

/// How the evaluation's weights were refined: from the fit of `scripts/data/eval-positions.txt`,
/// on it and `scripts/data/eval-choices.txt`.
pub const REFINE: RefineOptions = RefineOptions {
    epochs: 5,
    learning_rate: 1e-3,
    choice_weight: 0.5,
    choice_temperature: 0.5,
    seed: 1,
};

/// `centi` weights (hundredths of log-odds) in log-odds.
pub fn from_centi(centi: &Weights<i32>) -> Weights<f64> {
    let unit = |w: i32| f64::from(w) / 100.0;
    Weights {
        features: centi.features.map(|row| row.map(unit)),
        patterns: centi.patterns.map(|row| row.map(unit)),
    }
}

/// Weights trained from `start` by Adam (mini-batches of 256) on two losses: the
/// cross-entropy of each sample's prediction against its target, and, for samples with the
/// search's move choice, the cross-entropy of the chosen move under a softmax of the moves'
/// values (the negated predictions of the positions they lead to).
pub fn refine(samples: &[Sample], start: &Weights<f64>, options: &RefineOptions) -> Weights<f64> {
    let mut weights = flatten(start);
    let inputs: Vec<Vec<(usize, f64)>> = samples.iter().map(Sample::inputs).collect();
    let children: Vec<Vec<Vec<(usize, f64)>>> = samples
        .iter()
        .map(|sample| match &sample.choice {
            Some(choice) => choice.children.iter().map(Reading::inputs).collect(),
            None => Vec::new(),
        })
        .collect();
    let mut random = crate::rules::mix::Random::new(options.seed);
    let (beta1, beta2, epsilon): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let (mut first, mut second) = (vec![0.0; INPUTS], vec![0.0; INPUTS]);
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut steps = 0;
    for _ in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, random.below(i + 1));
        }
        for batch in order.chunks(256) {
            let mut gradient = vec![0.0; INPUTS];
            for &index in batch {
                let error = logistic(dot(&weights, &inputs[index])) - samples[index].target();
                for &(i, x) in &inputs[index] {
                    gradient[i] += error * x;
                }
                let (Some(choice), kids) = (&samples[index].choice, &children[index]) else {
                    continue;
                };
                let temperature = options.choice_temperature;
                let values: Vec<f64> = kids
                    .iter()
                    .map(|x| -dot(&weights, x) / temperature)
                    .collect();
                let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let total: f64 = values.iter().map(|v| (v - top).exp()).sum();
                for (child, x) in kids.iter().enumerate() {
                    let p = (values[child] - top).exp() / total;
                    let chosen = if child == choice.best { 1.0 } else { 0.0 };
                    let slope = -options.choice_weight * (p - chosen) / temperature;
                    for &(i, xi) in x {
                        gradient[i] += slope * xi;
                    }
                }
            }
            steps += 1;
            let (fix1, fix2) = (1.0 - beta1.powi(steps), 1.0 - beta2.powi(steps));
            for i in 0..INPUTS {
                let g = gradient[i] / batch.len() as f64;
                first[i] = beta1 * first[i] + (1.0 - beta1) * g;
                second[i] = beta2 * second[i] + (1.0 - beta2) * g * g;
                weights[i] -=
                    options.learning_rate * first[i] / fix1 / ((second[i] / fix2).sqrt() + epsilon);
            }
        }
    }
    unflatten(&weights)
}

/// How often the move that `centi` weights rank first (the lowest prediction of the position
/// it leads to) is the search's best move, over the samples with a move choice.
pub fn choice_agreement(samples: &[Sample], centi: &Weights<i32>) -> f64 {
    let weights = flatten(&from_centi(centi));
    let choices: Vec<&Choice> = samples.iter().filter_map(|s| s.choice.as_ref()).collect();
    let agreed = choices
        .iter()
        .filter(|choice| {
            let values = (choice.children.iter()).map(|child| -dot(&weights, &child.inputs()));
            let first = values
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
            first.map(|(index, _)| index) == Some(choice.best)
        })
        .count();
    agreed as f64 / choices.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::{PATTERN_WEIGHTS, WEIGHTS};

    #[test]
    fn the_weights_are_the_fit_of_the_data_set_refined_on_the_search_choices() {
        let mut samples =
            read_samples(include_str!("../../scripts/data/eval-positions.txt")).unwrap();
        assert!(samples.len() > 1000);
        let fitted = centi_weights(&fit(&samples));
        let choices = read_samples(include_str!("../../scripts/data/eval-choices.txt")).unwrap();
        assert!(choices.iter().filter(|s| s.choice.is_some()).count() > 1000);
        samples.extend(choices);
        let weights = Weights {
            features: WEIGHTS,
            patterns: PATTERN_WEIGHTS,
        };
        let refined = refine(&samples, &from_centi(&fitted), &REFINE);
        assert_eq!(centi_weights(&refined), weights);
    }

    #[test]
    fn refining_on_choices_ranks_the_chosen_moves_first_more_often() {
        // Refining hard on 300 positions' choices ranks more of the chosen moves first.
        let text = include_str!("../../scripts/data/eval-choices.txt");
        let samples: Vec<Sample> = read_samples(text)
            .unwrap()
            .into_iter()
            .filter(|s| s.choice.is_some())
            .take(300)
            .collect();
        let start = from_centi(&Weights {
            features: WEIGHTS,
            patterns: PATTERN_WEIGHTS,
        });
        let options = RefineOptions {
            epochs: 200,
            learning_rate: 1e-2,
            choice_weight: 5.0,
            ..REFINE
        };
        let before = choice_agreement(&samples, &centi_weights(&start));
        let refined = refine(&samples, &start, &options);
        let after = choice_agreement(&samples, &centi_weights(&refined));
        assert!(after > before + 0.03, "{before} to {after}");
        // The same samples and options give the same weights.
        assert_eq!(refine(&samples, &start, &options), refined);
    }

    #[test]
    fn the_fit_recovers_weights_that_made_the_labels() {
        // Labels drawn from known odds on a grid of feature values, fills and the counts of
        // two patterns among 64 windows: the fit finds both rows of weights.
        let truth = [
            [0.5, 0.3, -0.2, 0.1, 0.0, 1.0],
            [-0.3, 0.1, 0.2, 0.0, -0.4, 0.6],
        ];
        let (first, second) = (5u16, 77u16);
        let pattern_truth = [[0.4, -0.2], [-0.1, 0.3]];
        let mut truth_weights = vec![0.0; INPUTS];
        for row in 0..2 {
            truth_weights[row * ROW..row * ROW + FEATURES].copy_from_slice(&truth[row]);
            truth_weights[row * ROW + FEATURES + usize::from(first)] = pattern_truth[row][0];
            truth_weights[row * ROW + FEATURES + usize::from(second)] = pattern_truth[row][1];
        }
        let mut samples = Vec::new();
        let mut random = crate::rules::mix::Random::new(1);
        let mut draw = |modulus: u64| random.next_u64() % modulus;
        for _ in 0..60_000 {
            let mut features = [1; FEATURES];
            for f in features.iter_mut().skip(1) {
                *f = draw(9) as i32 - 4;
            }
            let fill = draw(FULL as u64 + 1) as i32;
            let counts = (draw(17) as u32, draw(17) as u32);
            let mut sample = Sample {
                reading: Reading {
                    features,
                    fill,
                    patterns: vec![(first, counts.0), (second, counts.1)],
                    windows: 64,
                    evaluation: 0,
                    size: (8, 8),
                    stones: Vec::new(),
                },
                wins: false,
                proven: true,
                search: None,
                choice: None,
            };
            let p = logistic(dot(&truth_weights, &sample.inputs()));
            sample.wins = (draw(1 << 53)) as f64 / (1u64 << 53) as f64 > 1.0 - p;
            samples.push(sample);
        }
        let found = fit(&samples);
        for (found, wanted) in found.features.iter().flatten().zip(truth.iter().flatten()) {
            assert!((found - wanted).abs() < 0.08, "{found} against {wanted}");
        }
        for (row, wanted_row) in found.patterns.iter().zip(&pattern_truth) {
            let found = [first, second].map(|p| row[usize::from(p)]);
            for (found, wanted) in found.iter().zip(wanted_row) {
                assert!((found - wanted).abs() < 0.08, "{found} against {wanted}");
            }
        }
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            read_samples("W 4/4/1bw1/4 b\nX 4/4/1bw1/4 b").unwrap_err(),
            "line 2: the label is 'W', 'L', 'w' or 'l', not 'X'"
        );
        assert!(
            read_samples("\nL 4/4/zz/4 b")
                .unwrap_err()
                .starts_with("line 2: ")
        );
        assert!(read_samples("W").unwrap_err().starts_with("line 1: "));
        assert_eq!(
            read_samples("w 4/4/1bw1/4 b 12\nl 4/4/1bw1/4 b x1").unwrap_err(),
            "line 2: the search score is a whole number, not 'x1'"
        );
    }

    #[test]
    fn keeping_no_patterns_drops_them_and_nothing_else() {
        let fen = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbw1wbw1/bwb1b3/wbwbwbw1/bwb1bwbw/wb1b2w1 w";
        let line = format!("w {fen} 40 e3e1");
        let without_patterns = |mut reading: Reading| {
            reading.patterns.clear();
            reading
        };
        for kept in Kept::ALL {
            let all = read_samples(&line).unwrap().remove(0);
            let read = read_samples_keeping(&line, kept).unwrap().remove(0);
            let (all_choice, choice) = (all.choice.unwrap(), read.choice.unwrap());
            assert_eq!(all_choice.best, choice.best);
            assert_eq!(all_choice.children.len(), choice.children.len());
            let pairs = std::iter::once((all.reading, read.reading))
                .chain(all_choice.children.into_iter().zip(choice.children));
            for (everything, reading) in pairs {
                assert!(!everything.patterns.is_empty());
                match kept {
                    Kept::Everything => assert_eq!(reading, everything),
                    Kept::NoPatterns => assert_eq!(reading, without_patterns(everything)),
                }
            }
        }
    }

    #[test]
    fn a_best_move_gives_the_choice_among_the_moves() {
        // White to move; the search chose e3e1.
        let fen = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbw1wbw1/bwb1b3/wbwbwbw1/bwb1bwbw/wb1b2w1 w";
        let samples = read_samples(&format!("w {fen} 40 e3e1")).unwrap();
        let choice = samples[0].choice.as_ref().unwrap();
        let position = Position::from_fen(fen, Opening::Any, Capture::Straight).unwrap();
        let moves = position.legal_moves();
        assert_eq!(choice.children.len(), moves.len());
        assert_eq!(moves[choice.best].to_string(), "e3e1");
        let mut child = position;
        child.play_unchecked(moves[choice.best]);
        assert_eq!(choice.children[choice.best], child.visit(Read));
        assert_eq!(
            read_samples(&format!("w {fen} 40 a1a3")).unwrap_err(),
            "line 1: the best move 'a1a3' is not legal here"
        );
        assert!(
            read_samples(&format!("w {fen} 40 zz"))
                .unwrap_err()
                .starts_with("line 1: the best move 'zz': ")
        );
        assert_eq!(
            read_samples(&format!("w {fen} 40 e3e1 more")).unwrap_err(),
            "line 1: more than four words after the label"
        );
    }

    #[test]
    fn a_search_score_moves_a_games_target_halfway_and_a_proofs_not_at_all() {
        let samples =
            read_samples("w 4/4/1bw1/4 b 0\nl 4/4/1bw1/4 b\nW 4/4/1bw1/4 b -300").unwrap();
        let targets: Vec<f64> = samples.iter().map(Sample::target).collect();
        assert_eq!(samples[0].search, Some(0));
        assert_eq!(targets, [0.75, 0.0, 1.0]);
    }
}
