//! Fitting the evaluation's weights: logistic regression of labelled positions' results on the
//! evaluation's [`features`](super::eval::features), each split between the two rows of
//! weights by the position's fill, as chess engines tune on labelled positions. The fit is
//! Newton's method from zero weights with a light ridge penalty: no randomness and no learning
//! rate, so the same data set always gives the same weights.

use super::eval::{FEATURES, FULL};
use crate::rules::position::Position;
use crate::rules::{Capture, Opening};

/// The regression's inputs: each feature once for the empty-board row of weights and once for
/// the full-board row.
const INPUTS: usize = 2 * FEATURES;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The evaluation's features of the position.
    pub features: [i32; FEATURES],
    /// The position's fill (see [`super::eval::fill`]).
    pub fill: i32,
    /// True when the side to move won.
    pub wins: bool,
    /// True when the solver proved the result; false when it is the result of the game the
    /// position was taken from.
    pub proven: bool,
}

impl Sample {
    fn inputs(&self) -> [f64; INPUTS] {
        let full = f64::from(self.fill) / f64::from(FULL);
        let mut inputs = [0.0; INPUTS];
        for (i, &feature) in self.features.iter().enumerate() {
            inputs[i] = f64::from(feature) * (1.0 - full);
            inputs[FEATURES + i] = f64::from(feature) * full;
        }
        inputs
    }
}

/// Reads a data set: one `<label> <position string>` a line, blank lines and `#` comments
/// skipped. The label is `W` or `L` when the solver proved that the side to move wins or
/// loses, `w` or `l` when the side to move won or lost the game the position comes from. The
/// error names the line.
pub fn read_samples(text: &str) -> Result<Vec<Sample>, String> {
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
        let position = Position::from_fen(fen, Opening::Any, Capture::Straight)
            .map_err(|e| format!("line {at}: {e}"))?;
        let (features, fill) = super::eval::features_of(&position);
        samples.push(Sample {
            features,
            fill,
            wins,
            proven,
        });
    }
    Ok(samples)
}

/// The ridge penalty on every weight but the tempo's, against the sum of the samples'
/// log-likelihoods: enough to keep a feature that separates the data perfectly finite.
const RIDGE: f64 = 1.0;

/// Newton steps: the fit converges in well under this many.
const STEPS: usize = 30;

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The weights, in log-odds per unit of each feature (the empty-board row, then the full-board
/// row), that best predict the samples.
pub fn fit(samples: &[Sample]) -> [[f64; FEATURES]; 2] {
    let mut weights = [0.0; INPUTS];
    for _ in 0..STEPS {
        let mut gradient = [0.0; INPUTS];
        let mut hessian = [[0.0; INPUTS]; INPUTS];
        for sample in samples {
            let x = sample.inputs();
            let p = logistic(dot(&weights, &x));
            let error = p - f64::from(u8::from(sample.wins));
            for i in 0..INPUTS {
                gradient[i] += error * x[i];
                for j in 0..INPUTS {
                    hessian[i][j] += p * (1.0 - p) * x[i] * x[j];
                }
            }
        }
        for i in (0..INPUTS).filter(|i| i % FEATURES != 0) {
            gradient[i] += RIDGE * weights[i];
            hessian[i][i] += RIDGE;
        }
        let step = solve_linear(hessian, gradient);
        for i in 0..INPUTS {
            weights[i] -= step[i];
        }
    }
    let mut rows = [[0.0; FEATURES]; 2];
    rows[0].copy_from_slice(&weights[..FEATURES]);
    rows[1].copy_from_slice(&weights[FEATURES..]);
    rows
}

/// The weights as the evaluation uses them: hundredths of log-odds, rounded.
pub fn centi_weights(weights: &[[f64; FEATURES]; 2]) -> [[i32; FEATURES]; 2] {
    weights.map(|row| row.map(|w| (w * 100.0).round() as i32))
}

/// The mean log-loss of predicting the samples with `centi` weights (hundredths of log-odds):
/// lower is better; ln 2 = 0.693 is a coin toss.
pub fn log_loss(samples: &[Sample], centi: &[[i32; FEATURES]; 2]) -> f64 {
    let mut weights = [0.0; INPUTS];
    for (i, weight) in weights.iter_mut().enumerate() {
        *weight = f64::from(centi[i / FEATURES][i % FEATURES]) / 100.0;
    }
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

fn dot(a: &[f64; INPUTS], b: &[f64; INPUTS]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `a` is positive definite
/// here (the ridge sees to it), so no pivot is zero.
fn solve_linear(mut a: [[f64; INPUTS]; INPUTS], mut b: [f64; INPUTS]) -> [f64; INPUTS] {
    for column in 0..INPUTS {
        let pivot = (column..INPUTS)
            .max_by(|&i, &j| a[i][column].abs().total_cmp(&a[j][column].abs()))
            .expect("a column has rows");
        a.swap(column, pivot);
        b.swap(column, pivot);
        let (above, below) = a.split_at_mut(column + 1);
        let pivot_row = &above[column];
        for (offset, row) in below.iter_mut().enumerate() {
            let factor = row[column] / pivot_row[column];
            for (value, pivot_value) in row.iter_mut().zip(pivot_row).skip(column) {
                *value -= factor * pivot_value;
            }
            b[column + 1 + offset] -= factor * b[column];
        }
    }
    let mut x = [0.0; INPUTS];
    for row in (0..INPUTS).rev() {
        let rest: f64 = (row + 1..INPUTS).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::WEIGHTS;

    #[test]
    fn the_weights_are_the_fit_of_the_data_set() {
        let samples = read_samples(include_str!("../../scripts/data/eval-positions.txt")).unwrap();
        assert!(samples.len() > 1000);
        assert_eq!(centi_weights(&fit(&samples)), WEIGHTS);
    }

    #[test]
    fn the_fit_recovers_weights_that_made_the_labels() {
        // Labels drawn from known odds on a grid of feature values and fills: the fit finds
        // both rows of weights.
        let truth = [
            [0.5, 0.3, -0.2, 0.1, 0.0, 1.0],
            [-0.3, 0.1, 0.2, 0.0, -0.4, 0.6],
        ];
        let mut samples = Vec::new();
        let mut random = crate::rules::mix::Random::new(1);
        let mut draw = |modulus: u64| random.next_u64() % modulus;
        for _ in 0..60_000 {
            let mut features = [1; FEATURES];
            for f in features.iter_mut().skip(1) {
                *f = draw(9) as i32 - 4;
            }
            let fill = draw(FULL as u64 + 1) as i32;
            let mut sample = Sample {
                features,
                fill,
                wins: false,
                proven: true,
            };
            let mut weights = [0.0; INPUTS];
            weights[..FEATURES].copy_from_slice(&truth[0]);
            weights[FEATURES..].copy_from_slice(&truth[1]);
            let p = logistic(dot(&weights, &sample.inputs()));
            sample.wins = (draw(1 << 53)) as f64 / (1u64 << 53) as f64 > 1.0 - p;
            samples.push(sample);
        }
        let found = fit(&samples);
        for (found, wanted) in found.iter().flatten().zip(truth.iter().flatten()) {
            assert!((found - wanted).abs() < 0.08, "{found} against {wanted}");
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
    }
}
