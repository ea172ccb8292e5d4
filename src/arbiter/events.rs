//! What a tournament tells its user while it runs: typed events sent to a [`Reporter`] that
//! each face implements (the command line prints them, Python passes them to a callback),
//! so that the tournament itself never prints.

use crate::arbiter::record::GameRecord;
use crate::arbiter::stats::Verdict;
use crate::rules::moves::Move;
use crate::rules::square::Color;
use std::time::Duration;

/// Something the user should know that does not stop the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// `--resume` repaired a file an interruption left torn; the text says what was done.
    Repaired(String),
    /// A shard plays its whole slice: the SPRT is applied when the shards are merged.
    ShardIgnoresSprt,
}

/// How far a tournament has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Games recorded, those of earlier runs (`--resume`) included.
    pub finished: usize,
    /// Games this run (or shard) plays in all.
    pub total: usize,
}

/// A game about to be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStart {
    /// Its number in the schedule.
    pub id: usize,
    /// Black's engine name, then White's.
    pub players: [String; 2],
}

/// One event of a running tournament.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// See [`Notice`].
    Notice(Notice),
    /// A game began.
    GameStarted(GameStart),
    /// An engine's move, checked and played.
    Moved {
        /// The game's number.
        id: usize,
        /// The move.
        mv: Move,
        /// How long the engine took.
        took: Duration,
        /// Black's and White's time left after it, under a clock time control.
        clocks: Option<[Duration; 2]>,
    },
    /// A line an engine sent while searching (its `info` lines), when the configuration asks
    /// for them ([`Config::engine_output`](crate::arbiter::Config::engine_output)).
    EngineOutput {
        /// The game's number.
        id: usize,
        /// The side whose engine sent it.
        side: Color,
        /// The line.
        line: String,
    },
    /// A game ended and was written to the output files.
    GameFinished {
        /// The game.
        record: Box<GameRecord>,
        /// The tournament's progress, this game counted.
        progress: Progress,
    },
    /// The SPRT accepted a hypothesis; the games in progress are finished, no new one begins.
    SprtDecided {
        /// Which.
        verdict: Verdict,
        /// After how many games.
        games: usize,
    },
}

/// Receives a tournament's events in order, on the thread that called the tournament. A
/// closure taking an [`Event`] is one (`|_| {}` ignores them all).
pub trait Reporter {
    /// Called with each event as it happens.
    fn report(&mut self, event: Event);
}

impl<F: FnMut(Event)> Reporter for F {
    fn report(&mut self, event: Event) {
        self(event)
    }
}
