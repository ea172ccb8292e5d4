//! A match of several games between two players, as in cutechess: colours alternate from game
//! to game, the score runs, and the next game starts by itself a moment after one ends.

use crate::gui::game::NewGame;
use crate::rules::square::Color;
use serde::Serialize;
use std::time::{Duration, Instant};

/// The pause between two games of a match, to see how one ended.
pub const BETWEEN_GAMES: Duration = Duration::from_secs(2);

/// The most games one match may have.
pub const MAX_GAMES: u32 = 1000;

/// A match in progress.
#[derive(Clone, Debug)]
pub struct Series {
    /// Games in the match.
    pub total: u32,
    /// Games finished.
    pub played: u32,
    /// The two players: Black of the first game, then White of it.
    pub names: [String; 2],
    /// Points of each (one a win).
    pub score: [u32; 2],
    /// The game number counted last, so that no game counts twice.
    counted: u64,
    /// The next game's request, and when it starts.
    next: Option<(NewGame, Instant)>,
}

/// The match as the page is told of it.
#[derive(Serialize)]
pub struct SeriesView {
    games: u32,
    played: u32,
    names: [String; 2],
    score: [u32; 2],
    /// Milliseconds until the next game starts, between games.
    next_in_ms: Option<u64>,
}

impl Series {
    /// A match of `total` games whose first game is `first`.
    pub fn new(total: u32, first: &NewGame, number: u64) -> Series {
        Series {
            total,
            played: 0,
            names: [first.black.clone(), first.white.clone()],
            score: [0, 0],
            counted: number - 1,
            next: None,
        }
    }

    /// Counts game `number`, played as `setup`, won by `winner` (no one when stopped), and
    /// schedules the next game with the colours swapped if the match goes on; false when that
    /// game was counted already.
    pub fn finished(&mut self, number: u64, setup: &NewGame, winner: Option<Color>) -> bool {
        if number <= self.counted {
            return false;
        }
        self.counted = number;
        if let Some(color) = winner {
            // Game k (from 0) has the first game's colours when k is even, swapped when odd.
            let swapped = self.played % 2 == 1;
            self.score[color.index() ^ usize::from(swapped)] += 1;
        }
        self.played += 1;
        if self.played < self.total {
            let mut next = setup.clone();
            std::mem::swap(&mut next.black, &mut next.white);
            next.options.swap(0, 1);
            self.next = Some((next, Instant::now() + BETWEEN_GAMES));
        }
        true
    }

    /// The next game's request once its time has come.
    pub fn due(&mut self) -> Option<NewGame> {
        match &self.next {
            Some((_, at)) if Instant::now() >= *at => self.next.take().map(|(next, _)| next),
            _ => None,
        }
    }

    /// What the page is told.
    pub fn view(&self) -> SeriesView {
        SeriesView {
            games: self.total,
            played: self.played,
            names: self.names.clone(),
            score: self.score,
            next_in_ms: self
                .next
                .as_ref()
                .map(|(_, at)| at.saturating_duration_since(Instant::now()).as_millis() as u64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::game::TimeSetting;

    #[test]
    fn colours_alternate_and_each_win_goes_to_its_player() {
        let first = NewGame {
            width: 6,
            height: 6,
            opening: "traditional".into(),
            capture: "straight".into(),
            black: "a".into(),
            white: "b".into(),
            time: TimeSetting::Depth { depth: 1 },
            fen: None,
            stall_s: None,
            options: Default::default(),
            games: None,
        };
        let mut series = Series::new(3, &first, 1);
        assert!(series.finished(1, &first, Some(Color::White)));
        assert_eq!(series.score, [0, 1], "b won as White");
        assert!(!series.finished(1, &first, Some(Color::White)));
        assert_eq!(series.played, 1, "a game counts once");
        assert!(series.next.is_some(), "the next game is due");
        assert!(series.due().is_none(), "the next game waits a moment");
        let second = series.next.take().unwrap().0;
        assert_eq!((second.black.as_str(), second.white.as_str()), ("b", "a"));
        series.finished(2, &second, Some(Color::White));
        assert_eq!(series.score, [1, 1], "a won as White in game 2");
        let third = series.next.take().unwrap().0;
        series.finished(3, &third, Some(Color::Black));
        assert_eq!(series.score, [2, 1]);
        assert!(series.next.is_none(), "the match is over");
    }
}
