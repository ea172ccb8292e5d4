//! [`Dyadic`]: the numbers short games can be, `m / 2^k`.

use std::cmp::Ordering;
use std::fmt;

/// A dyadic rational `numerator / 2^exponent`, kept in lowest terms (an odd numerator unless
/// the exponent is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    numerator: i64,
    exponent: u32,
}

/// The largest exponent kept: games of Konane regions never come near it.
const MAX_EXPONENT: u32 = 60;

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic {
        numerator: 0,
        exponent: 0,
    };

    /// The integer `n`.
    pub fn integer(n: i64) -> Dyadic {
        Dyadic {
            numerator: n,
            exponent: 0,
        }
    }

    /// `numerator / 2^exponent` in lowest terms; `None` when the exponent is above 60.
    pub fn new(numerator: i64, exponent: u32) -> Option<Dyadic> {
        let (mut numerator, mut exponent) = (numerator, exponent);
        while exponent > 0 && numerator % 2 == 0 {
            numerator /= 2;
            exponent -= 1;
        }
        (exponent <= MAX_EXPONENT).then_some(Dyadic {
            numerator,
            exponent,
        })
    }

    /// The numerator in lowest terms.
    pub fn numerator(self) -> i64 {
        self.numerator
    }

    /// The power of two of the denominator in lowest terms.
    pub fn exponent(self) -> u32 {
        self.exponent
    }

    /// True for whole numbers.
    pub fn is_integer(self) -> bool {
        self.exponent == 0
    }

    /// `-self`.
    pub fn negated(self) -> Dyadic {
        Dyadic {
            numerator: -self.numerator,
            exponent: self.exponent,
        }
    }

    /// Half the sum of `self` and `other`, if it fits.
    pub fn midpoint(self, other: Dyadic) -> Option<Dyadic> {
        let exponent = self.exponent.max(other.exponent);
        let total = self.floor_scaled(exponent) + other.floor_scaled(exponent);
        Dyadic::new(i64::try_from(total).ok()?, exponent + 1)
    }

    /// The largest integer at most this number.
    pub fn floor(self) -> i64 {
        self.numerator >> self.exponent
    }

    /// The simplest number strictly between `low` and `high` (either side unbounded when
    /// `None`), as a game `{low | high}` of numbers is: the integer nearest zero when one
    /// lies between, else the one with the smallest denominator. `None` when nothing lies
    /// between (`low >= high`).
    pub fn simplest_between(low: Option<Dyadic>, high: Option<Dyadic>) -> Option<Dyadic> {
        if let (Some(low), Some(high)) = (low, high)
            && low >= high
        {
            return None;
        }
        // The integers strictly between, as a range [first, last] with open ends as None.
        let first = low.map(|low| low.floor() + 1);
        let last = high.map(|high| {
            if high.is_integer() {
                high.numerator - 1
            } else {
                high.floor()
            }
        });
        let integers_between = match (first, last) {
            (Some(first), Some(last)) => first <= last,
            _ => true,
        };
        if integers_between {
            let nearest_zero = match (first, last) {
                (Some(first), _) if first > 0 => first,
                (_, Some(last)) if last < 0 => last,
                _ => 0,
            };
            return Some(Dyadic::integer(nearest_zero));
        }
        // Both bounds lie within one unit: the first denominator 2^e with a multiple between
        // has exactly one (two would make a simpler one between), the first above `low`.
        let (low, high) = (low?, high?);
        (1..=MAX_EXPONENT).find_map(|exponent| {
            let above_low = i64::try_from(low.floor_scaled(exponent) + 1).ok()?;
            let candidate = Dyadic::new(above_low, exponent)?;
            (candidate < high).then_some(candidate)
        })
    }

    /// The largest integer at most this number times `2^exponent`.
    fn floor_scaled(self, exponent: u32) -> i128 {
        let numerator = i128::from(self.numerator);
        if exponent >= self.exponent {
            numerator << (exponent - self.exponent)
        } else {
            numerator >> (self.exponent - exponent)
        }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Dyadic) -> Ordering {
        let exponent = self.exponent.max(other.exponent);
        self.floor_scaled(exponent)
            .cmp(&other.floor_scaled(exponent))
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Dyadic {
    /// As CGSuite writes numbers: `3`, `-1/2`, `5/8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exponent == 0 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, 1u64 << self.exponent)
        }
    }
}
