//! Time management: how long to think, from the clock, the increment and the move overhead.

use crate::rules::moves::Move;
use std::time::Duration;

/// What the GUI allows for one search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search only these moves at the root; empty: every legal move.
    pub root_moves: Vec<Move>,
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

/// The most moves a clock is ever shared among.
const MAX_MOVES_TO_GO: u32 = 50;

/// Our moves still to come, estimated from the stones on the board when the GUI does not say:
/// every move removes at least one stone, and in games between engines a side makes about one
/// move for every four stones left (8x8: 62 stones, games of 15 to 20 moves a side).
pub fn expected_moves_left(stones: usize) -> u32 {
    (stones / 4).clamp(4, MAX_MOVES_TO_GO as usize) as u32
}

impl Limits {
    /// The time budget when `moves_left` of our moves are expected to follow (see
    /// [`expected_moves_left`]), or `None` when the search is bounded by depth, nodes or `stop`.
    ///
    /// `overhead` is the delay of one move between engine and GUI. As in Stockfish, it is charged
    /// against the whole of the remaining clock (once for every move still to come), not
    /// subtracted from each move's share, so that it never swallows short moves; a fixed move
    /// time keeps back at most a tenth of itself.
    pub fn budget(&self, overhead: Duration, moves_left: u32) -> Option<Budget> {
        let floor = Duration::from_millis(1);
        if let Some(move_time) = self.move_time {
            let hard = move_time
                .saturating_sub(overhead.min(move_time / 10))
                .max(floor);
            return Some(Budget { soft: hard, hard });
        }
        let time = self.time?;
        let moves = self
            .moves_to_go
            .unwrap_or(moves_left)
            .clamp(1, MAX_MOVES_TO_GO);
        let pool = (time + self.increment * (moves - 1)).saturating_sub(overhead * (moves + 1));
        let target = pool / moves;
        let hard = (target * 3).min(time.saturating_sub(overhead) * 2 / 3);
        Some(Budget {
            soft: (target * 3 / 5).min(hard).max(floor),
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
                for moves_left in [1, 4, 16, 50] {
                    let limits = Limits {
                        time: Some(ms(time)),
                        increment: ms(increment),
                        ..Limits::default()
                    };
                    let budget = limits.budget(ms(30), moves_left).unwrap();
                    assert!(budget.soft <= budget.hard);
                    assert!(
                        budget.hard <= ms(time.saturating_sub(30)).max(ms(1)),
                        "{time}+{increment}, {moves_left} moves left"
                    );
                }
            }
        }
    }

    #[test]
    fn move_time_keeps_back_at_most_a_tenth() {
        let limits = |time| Limits {
            move_time: Some(ms(time)),
            ..Limits::default()
        };
        let hard = |time, overhead| limits(time).budget(ms(overhead), 16).unwrap().hard;
        assert_eq!(hard(30, 30), ms(27));
        assert_eq!(hard(1000, 30), ms(970));
        assert_eq!(hard(100, 5), ms(95));
        assert_eq!(hard(1, 30), ms(1));
        assert_eq!(Limits::default().budget(ms(5), 16), None);
    }

    #[test]
    fn the_overhead_does_not_swallow_short_clock_moves() {
        // 1+0.01 with 200 ms left and a 10 ms overhead still thinks for milliseconds, not 1.
        let limits = Limits {
            time: Some(ms(200)),
            increment: ms(10),
            ..Limits::default()
        };
        let budget = limits.budget(ms(10), expected_moves_left(20)).unwrap();
        assert!(budget.soft >= ms(10), "{budget:?}");
        // More moves to come leave less for this one.
        let later = limits.budget(ms(10), 5).unwrap();
        let sooner = limits.budget(ms(10), 40).unwrap();
        assert!(later.soft > sooner.soft);
    }

    #[test]
    fn moves_left_follow_the_stones() {
        assert_eq!(expected_moves_left(62), 15);
        assert_eq!(expected_moves_left(3), 4);
        assert_eq!(expected_moves_left(674), 50);
    }
}
