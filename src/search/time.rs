//! Time management: how long to think, from the clock, the increment and the move overhead.

use std::time::Duration;

/// What the GUI allows for one search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time left on our clock.
    pub time: Option<Duration>,
    /// Our increment per move.
    pub increment: Duration,
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// Think exactly this long.
    pub move_time: Option<Duration>,
    /// Stop after this many plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search until told to stop.
    pub infinite: bool,
}

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration after this (the next one would likely not finish in time).
    pub soft: Duration,
    /// Stop at once after this.
    pub hard: Duration,
}

/// Moves a game is assumed to still last when the GUI does not say.
const DEFAULT_MOVES_TO_GO: u32 = 16;

impl Limits {
    /// The time budget, or `None` when the search is bounded by depth, nodes or `stop` alone.
    pub fn budget(&self, overhead: Duration) -> Option<Budget> {
        if let Some(move_time) = self.move_time {
            let hard = move_time
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            return Some(Budget { soft: hard, hard });
        }
        let time = self.time?;
        let usable = time.saturating_sub(overhead);
        let moves = self.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 50);
        let target = usable / moves + self.increment * 3 / 4;
        let soft = target * 3 / 5;
        let hard = (target * 3).min(usable * 2 / 3);
        let floor = Duration::from_millis(1);
        Some(Budget {
            soft: soft.min(hard).max(floor),
            hard: hard.max(floor),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_plans_past_the_clock() {
        for time in [0, 1, 10, 50, 1000, 60_000] {
            for increment in [0, 10, 1000] {
                let limits = Limits {
                    time: Some(ms(time)),
                    increment: ms(increment),
                    ..Limits::default()
                };
                let budget = limits.budget(ms(30)).unwrap();
                assert!(budget.soft <= budget.hard);
                assert!(
                    budget.hard <= ms(time.saturating_sub(30)).max(ms(1)),
                    "{time}+{increment}"
                );
            }
        }
    }

    #[test]
    fn move_time_is_taken_whole_less_overhead() {
        let limits = Limits {
            move_time: Some(ms(100)),
            ..Limits::default()
        };
        assert_eq!(
            limits.budget(ms(5)),
            Some(Budget {
                soft: ms(95),
                hard: ms(95)
            })
        );
        assert_eq!(Limits::default().budget(ms(5)), None);
    }
}
