//! How long an engine may think, decoded once for every face: the command line's `--tc
//! 10+0.1`, `--movetime`, `--depth` and `--nodes`, the GUI's time settings and Python's
//! seconds all become one checked [`TimeControl`].

use std::fmt;
use std::time::Duration;

/// How long each engine may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock of `base`, plus `increment` after each move.
    Clock {
        /// Starting time.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth per move.
    Depth(u32),
    /// A fixed node count per move.
    Nodes(u64),
}

/// The longest time a clock or a move may be given: a day.
pub const MAX_TIME: Duration = Duration::from_secs(86_400);

/// The deepest fixed depth accepted (the engine's own limit).
pub const MAX_DEPTH: u32 = 120;

/// Why a time control or a number of seconds is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum LimitError {
    /// Seconds that are not a number, or below zero.
    BadSeconds(String, f64),
    /// A move time or clock base of no time, or more than a day.
    OutOfRange(String, Duration),
    /// A depth outside 1 to [`MAX_DEPTH`].
    BadDepth(u32),
    /// A node limit of none.
    NoNodes,
    /// `--tc` text that is not `BASE+INC` in seconds.
    BadText(String),
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitError::BadSeconds(what, value) => {
                write!(
                    f,
                    "{what} must be a number of seconds, 0 or more, not {value}"
                )
            }
            LimitError::OutOfRange(what, time) => write!(
                f,
                "{what} must be more than 0 s and at most a day, not {} s",
                time.as_secs_f64()
            ),
            LimitError::BadDepth(depth) => {
                write!(f, "depth must be 1 to {MAX_DEPTH}, not {depth}")
            }
            LimitError::NoNodes => write!(f, "nodes must be at least 1, not 0"),
            LimitError::BadText(text) => write!(
                f,
                "bad time control '{text}': expected BASE+INC in seconds, such as 10+0.1"
            ),
        }
    }
}

impl std::error::Error for LimitError {}

/// `value` seconds as a duration: infinity (Python's "no limit") is [`MAX_TIME`] and so is
/// anything longer; NaN and negative values are refused, naming `what`.
pub fn seconds(what: &str, value: f64) -> Result<Duration, LimitError> {
    if value.is_nan() || value < 0.0 {
        return Err(LimitError::BadSeconds(what.to_string(), value));
    }
    Ok(if value >= MAX_TIME.as_secs_f64() {
        MAX_TIME
    } else {
        Duration::from_secs_f64(value)
    })
}

impl TimeControl {
    /// Reads `BASE+INC` in seconds (`10+0.1`; `5` has no increment), as `--tc` takes it.
    pub fn parse_clock(text: &str) -> Result<TimeControl, LimitError> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let part = |part: &str| {
            let value: f64 = part
                .trim()
                .parse()
                .ok()
                .filter(|value: &f64| value.is_finite() && *value >= 0.0)
                .ok_or_else(|| LimitError::BadText(text.to_string()))?;
            // Text names a time, never "no limit": more than a day is refused, not cut.
            if value > MAX_TIME.as_secs_f64() {
                return Err(LimitError::OutOfRange(
                    "a time control".into(),
                    Duration::from_secs_f64(value.min(1e15)),
                ));
            }
            Ok(Duration::from_secs_f64(value))
        };
        TimeControl::Clock {
            base: part(base)?,
            increment: part(increment)?,
        }
        .checked()
    }

    /// This time control if every part is one a game can be played under: a move time and a
    /// clock's base above 0 and at most a day, an increment at most a day, a depth from 1 to
    /// [`MAX_DEPTH`], at least one node.
    pub fn checked(self) -> Result<TimeControl, LimitError> {
        let time = |what: &str, time: Duration| {
            if time.is_zero() || time > MAX_TIME {
                Err(LimitError::OutOfRange(what.to_string(), time))
            } else {
                Ok(())
            }
        };
        match self {
            TimeControl::Clock { base, increment } => {
                time("a clock's base time", base)?;
                if increment > MAX_TIME {
                    return Err(LimitError::OutOfRange("an increment".into(), increment));
                }
            }
            TimeControl::MoveTime(move_time) => time("the time a move", move_time)?,
            TimeControl::Depth(depth) if !(1..=MAX_DEPTH).contains(&depth) => {
                return Err(LimitError::BadDepth(depth));
            }
            TimeControl::Nodes(0) => return Err(LimitError::NoNodes),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => {}
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_read_from_text_and_checked() {
        let clock = |base: u64, inc: u64| TimeControl::Clock {
            base: Duration::from_millis(base),
            increment: Duration::from_millis(inc),
        };
        assert_eq!(TimeControl::parse_clock("10+0.1"), Ok(clock(10_000, 100)));
        assert_eq!(TimeControl::parse_clock("5"), Ok(clock(5_000, 0)));
        for bad in ["", "x+1", "10+", "-1+0", "0+1", "1e9+0", "nan+0"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
        assert!(TimeControl::Depth(0).checked().is_err());
        assert!(TimeControl::Depth(121).checked().is_err());
        assert!(TimeControl::Nodes(0).checked().is_err());
        assert!(TimeControl::MoveTime(Duration::ZERO).checked().is_err());
    }

    #[test]
    fn seconds_take_infinity_as_no_limit_and_refuse_nan_and_negatives() {
        assert_eq!(seconds("t", f64::INFINITY), Ok(MAX_TIME));
        assert_eq!(seconds("t", 1e30), Ok(MAX_TIME));
        assert_eq!(seconds("t", 0.5), Ok(Duration::from_millis(500)));
        let error = seconds("movetime", -5.0).unwrap_err().to_string();
        assert_eq!(
            error,
            "movetime must be a number of seconds, 0 or more, not -5"
        );
        assert!(seconds("t", f64::NAN).is_err());
    }
}
