//! Fitting the evaluation's weights: logistic regression of solver-proven results on the
//! evaluation's [`features`](super::eval::features), as chess engines tune on labelled
//! positions. The fit is Newton's method from zero weights with a light ridge penalty: no
//! randomness and no learning rate, so the same data set always gives the same weights.

use super::eval::FEATURES;
use crate::position::Position;
use crate::rules::{Capture, Opening};

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The evaluation's features of the position.
    pub features: [i32; FEATURES],
    /// True when the side to move wins with perfect play.
    pub wins: bool,
}

/// Reads a data set: one `W <position string>` or `L <position string>` a line (the side to
/// move wins or loses), blank lines and `#` comments skipped. The error names the line.
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
            .ok_or_else(|| format!("line {at}: expected 'W' or 'L', a space, a position"))?;
        let wins = match label {
            "W" => true,
            "L" => false,
            other => return Err(format!("line {at}: the label is 'W' or 'L', not '{other}'")),
        };
        let position = Position::from_fen(fen, Opening::Any, Capture::Straight)
            .map_err(|e| format!("line {at}: {e}"))?;
        samples.push(Sample {
            features: super::eval::features_of(&position),
            wins,
        });
    }
    Ok(samples)
}

/// The ridge penalty on every weight but the first (tempo), against the sum of the samples'
/// log-likelihoods: enough to keep a feature that separates the data perfectly finite.
const RIDGE: f64 = 1.0;

/// Newton steps: the fit converges in well under this many.
const STEPS: usize = 30;

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The weights, in log-odds per unit of each feature, that best predict the samples.
pub fn fit(samples: &[Sample]) -> [f64; FEATURES] {
    let mut weights = [0.0; FEATURES];
    for _ in 0..STEPS {
        let mut gradient = [0.0; FEATURES];
        let mut hessian = [[0.0; FEATURES]; FEATURES];
        for sample in samples {
            let x = sample.features.map(f64::from);
            let p = logistic(dot(&weights, &x));
            let error = p - f64::from(u8::from(sample.wins));
            for i in 0..FEATURES {
                gradient[i] += error * x[i];
                for j in 0..FEATURES {
                    hessian[i][j] += p * (1.0 - p) * x[i] * x[j];
                }
            }
        }
        for i in 1..FEATURES {
            gradient[i] += RIDGE * weights[i];
            hessian[i][i] += RIDGE;
        }
        let step = solve_linear(hessian, gradient);
        for i in 0..FEATURES {
            weights[i] -= step[i];
        }
    }
    weights
}

/// The weights as the evaluation uses them: hundredths of log-odds, rounded.
pub fn centi_weights(weights: &[f64; FEATURES]) -> [i32; FEATURES] {
    weights.map(|w| (w * 100.0).round() as i32)
}

/// The mean log-loss of predicting the samples with `centi` weights (hundredths of log-odds):
/// lower is better; ln 2 = 0.693 is a coin toss.
pub fn log_loss(samples: &[Sample], centi: &[i32; FEATURES]) -> f64 {
    let weights = centi.map(|w| f64::from(w) / 100.0);
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let p = logistic(dot(&weights, &sample.features.map(f64::from)));
            let p = if sample.wins { p } else { 1.0 - p };
            -p.max(1e-12).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn dot(a: &[f64; FEATURES], b: &[f64; FEATURES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `a` is positive definite
/// here (the ridge sees to it), so no pivot is zero.
fn solve_linear(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for column in 0..FEATURES {
        let pivot = (column..FEATURES)
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
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let rest: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
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
        // Labels drawn from known odds on a grid of feature values: the fit finds the odds.
        let truth = [0.5, 0.3, -0.2, 0.1, 0.0, 1.0];
        let mut samples = Vec::new();
        let mut state = 1u64;
        for _ in 0..40_000 {
            let mut features = [1; FEATURES];
            for f in features.iter_mut().skip(1) {
                state = crate::board::splitmix64(state);
                *f = (state % 9) as i32 - 4;
            }
            state = crate::board::splitmix64(state);
            let p = logistic(dot(&truth, &features.map(f64::from)));
            let wins = (state >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p;
            samples.push(Sample { features, wins });
        }
        for (found, wanted) in fit(&samples).iter().zip(truth) {
            assert!((found - wanted).abs() < 0.05, "{found} against {wanted}");
        }
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            read_samples("W 4/4/1bw1/4 b\nX 4/4/1bw1/4 b").unwrap_err(),
            "line 2: the label is 'W' or 'L', not 'X'"
        );
        assert!(
            read_samples("\nL 4/4/zz/4 b")
                .unwrap_err()
                .starts_with("line 2: ")
        );
        assert!(read_samples("W").unwrap_err().starts_with("line 1: "));
    }
}
