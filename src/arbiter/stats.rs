//! Match statistics from colour-swapped game pairs (pentanomial, as fastchess computes them;
//! Konane has no draws, so a pair scores 0, 1 or 2 points of 2).

use std::fmt;

/// The outcomes of complete pairs from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Pairs lost twice.
    pub lost_both: u64,
    /// Pairs split one each.
    pub split: u64,
    /// Pairs won twice.
    pub won_both: u64,
}

/// The logistic Elo difference of a score fraction.
pub fn elo(score: f64) -> f64 {
    let score = score.clamp(1e-6, 1.0 - 1e-6);
    // Adding 0 turns the -0 of an even score into 0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score fraction at an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal cumulative distribution.
fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Elo with a 95% interval and the likelihood of superiority. A one-sided score (every pair
/// won) has an infinite estimate and an interval open on that side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The Elo difference (infinite when every game was won, or lost).
    pub elo: f64,
    /// The lower end of the 95% interval (may be minus infinity).
    pub low: f64,
    /// The upper end of the 95% interval (may be infinity).
    pub high: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
}

/// The Elo of a score fraction, infinite at 0 and 1 rather than clamped.
fn open_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        elo(score)
    }
}

impl fmt::Display for Estimate {
    /// `Elo +35.2 +/- 40.1 (95%)` when the interval is finite; else the interval itself,
    /// `Elo +inf (95%: +120.4 to +inf)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.low.is_finite() && self.high.is_finite() {
            write!(
                f,
                "Elo {:+.1} +/- {:.1} (95%)",
                self.elo,
                (self.high - self.low) / 2.0
            )
        } else {
            write!(
                f,
                "Elo {:+.1} (95%: {:+.1} to {:+.1})",
                self.elo, self.low, self.high
            )
        }
    }
}

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: the first engine is at least elo1 stronger.
    H1,
    /// H0 accepted: it is not.
    H0,
    /// Not decided yet.
    Continue,
}

impl Sprt {
    /// Parses `elo0=A elo1=B alpha=X beta=Y` (alpha and beta default to 0.05).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, not '{word}'"))?;
            let number: f64 = value
                .parse()
                .map_err(|_| format!("--sprt: '{value}' is not a number"))?;
            match key {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                _ => {
                    return Err(format!(
                        "--sprt: unknown parameter '{key}' (elo0, elo1, alpha, beta)"
                    ));
                }
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("--sprt needs elo0=.. and elo1=..".to_string());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".to_string());
        }
        for (name, rate) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(format!("--sprt: {name} must be between 0 and 0.5"));
            }
        }
        Ok(sprt)
    }

    /// The lower and upper log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict at log-likelihood ratio `llr`.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

impl Pairs {
    /// Adds one complete pair in which the engine scored `points` (0, 1 or 2).
    pub fn add(&mut self, points: u8) {
        match points {
            0 => self.lost_both += 1,
            1 => self.split += 1,
            _ => self.won_both += 1,
        }
    }

    /// The number of pairs.
    pub fn count(&self) -> u64 {
        self.lost_both + self.split + self.won_both
    }

    /// Mean score per game and the variance of a pair's mean score. `prior` is added to each
    /// outcome's count, so that one-sided results (every pair won) keep a non-zero variance.
    fn moments(&self, prior: f64) -> Option<(f64, f64)> {
        if self.count() == 0 {
            return None;
        }
        let counts = [self.lost_both, self.split, self.won_both].map(|c| c as f64 + prior);
        let n: f64 = counts.iter().sum();
        let probabilities = counts.map(|c| c / n);
        let scores = [0.0, 0.5, 1.0];
        let mean: f64 = probabilities.iter().zip(scores).map(|(p, s)| p * s).sum();
        let variance: f64 = probabilities
            .iter()
            .zip(scores)
            .map(|(p, s)| p * (s - mean).powi(2))
            .sum();
        Some((mean, variance))
    }

    /// The Elo estimate, or `None` before the first pair. The error bars take the variance
    /// with half a pair added to each outcome, so that a handful of pairs that all went one
    /// way (no variance seen) still gets the wide interval it deserves, not `+/- 0`.
    pub fn estimate(&self) -> Option<Estimate> {
        let (mean, _) = self.moments(0.0)?;
        let (_, variance) = self.moments(0.5)?;
        let error_of_mean = (variance / self.count() as f64).sqrt();
        let los = normal_cdf((mean - 0.5) / error_of_mean);
        Some(Estimate {
            elo: open_elo(mean),
            low: open_elo(mean - 1.959_964 * error_of_mean),
            high: open_elo(mean + 1.959_964 * error_of_mean),
            los,
        })
    }

    /// The log-likelihood ratio of H1 against H0 (normal approximation, as fastchess and
    /// OpenBench compute it from pentanomial counts), with half a pair added to each outcome
    /// so that a one-sided start (every pair won) neither stalls nor decides the test at once.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let Some((mean, variance)) = self.moments(0.5) else {
            return 0.0;
        };
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(sprt.elo0), expected_score(sprt.elo1));
        self.count() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }
}

impl fmt::Display for Pairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pairs [LL, WL, WW] = [{}, {}, {}]",
            self.lost_both, self.split, self.won_both
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_results_are_zero_elo() {
        let pairs = Pairs {
            lost_both: 10,
            split: 30,
            won_both: 10,
        };
        let estimate = pairs.estimate().unwrap();
        assert!(estimate.elo.abs() < 1e-9);
        assert!((estimate.los - 0.5).abs() < 1e-6);
        assert!(estimate.low < -10.0 && estimate.high > 10.0);
        assert!((estimate.low + estimate.high).abs() < 1e-6, "symmetric");
    }

    #[test]
    fn few_one_sided_pairs_get_an_honest_interval() {
        let one_split = Pairs {
            split: 1,
            ..Pairs::default()
        };
        let estimate = one_split.estimate().unwrap();
        assert_eq!(estimate.elo, 0.0);
        assert!(estimate.high > 300.0, "one pair proves little: {estimate}");
        assert!(!estimate.to_string().contains("+/- 0.0"), "{estimate}");
        let sweep = Pairs {
            won_both: 3,
            ..Pairs::default()
        };
        let estimate = sweep.estimate().unwrap();
        assert_eq!(estimate.elo, f64::INFINITY);
        assert!(estimate.low.is_finite() && estimate.low > 0.0);
        assert!(estimate.los > 0.9 && estimate.los < 1.0);
        assert!(
            estimate.to_string().starts_with("Elo +inf (95%: +"),
            "{estimate}"
        );
        let many = Pairs {
            lost_both: 200,
            split: 600,
            won_both: 260,
        };
        let estimate = many.estimate().unwrap();
        assert!(estimate.to_string().contains(" +/- "), "{estimate}");
    }

    #[test]
    fn elo_and_expected_score_invert() {
        for e in [-300.0, -50.0, 0.0, 12.5, 400.0] {
            assert!((elo(expected_score(e)) - e).abs() < 1e-6);
        }
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-4);
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let strong = Pairs {
            lost_both: 5,
            split: 100,
            won_both: 60,
        };
        let weak = Pairs {
            lost_both: 60,
            split: 100,
            won_both: 5,
        };
        assert_eq!(sprt.verdict(strong.llr(&sprt)), Verdict::H1);
        assert_eq!(sprt.verdict(weak.llr(&sprt)), Verdict::H0);
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944).abs() < 1e-3 && (upper - 2.944).abs() < 1e-3);
        let sweep = Pairs {
            lost_both: 0,
            split: 0,
            won_both: 30,
        };
        assert_eq!(
            sprt.verdict(sweep.llr(&sprt)),
            Verdict::H1,
            "every pair won decides"
        );
        assert!(Sprt::parse(&["elo0=5".into(), "elo1=0".into()]).is_err());
        assert!(Sprt::parse(&["elo0=0".into(), "elo1=5".into(), "gamma=1".into()]).is_err());
    }
}
