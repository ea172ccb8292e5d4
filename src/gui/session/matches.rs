//! The session's side of a match: the reports of the tournament thread that plays it shown as
//! the game on screen, and the match stopped.

use super::Core;
use crate::arbiter::events::Event;
use crate::gui::game::{Ended, Game, capitalised};
use crate::gui::series::{Report, Series};
use std::time::Instant;

impl Core {
    /// Stops the match, if one runs: its thread is joined when the session ends.
    pub(super) fn retire_series(&mut self) {
        if let Some(thread) = self.series.take().and_then(Series::stop) {
            self.retired.push(thread);
        }
    }

    /// What the thread of match `token` reports; true when the state changed.
    pub(super) fn match_report(&mut self, token: u64, report: Report) -> bool {
        let Some(mut series) = self.series.take() else {
            return false;
        };
        if series.token != token {
            self.series = Some(series);
            return false;
        }
        let changed = match report {
            Report::Event(Event::GameStarted(start)) => {
                if let Some(next) = series.next_game(&start) {
                    let number = self.game.number + 1;
                    match Game::new(number, &next, &self.roster, self.deadlines.stall) {
                        Ok(mut game) => {
                            series.name_players(&mut game, &start);
                            self.replace_game(game);
                            self.seats = [None, None];
                        }
                        Err(why) => self.notice = Some(format!("The match's game: {why}")),
                    }
                }
                true
            }
            Report::Event(Event::Moved { id, mv, clocks, .. }) if series.shows(id) => {
                series.since = Instant::now();
                let mut after = *self.game.current();
                if self.game.ended.is_none() && after.play(mv).is_ok() {
                    self.game.play(mv, after);
                }
                if let Some(left) = clocks {
                    self.game.clocks.left = left;
                }
                self.end_live(format!("played {mv}"));
                true
            }
            Report::Event(Event::EngineOutput { id, line, .. }) if series.shows(id) => {
                self.show_line(&line);
                false
            }
            Report::Event(Event::GameFinished { record, .. }) => {
                let shown = series.shows(record.id);
                let ended = series.finished(*record);
                if shown {
                    self.game.ended = Some(ended);
                }
                true
            }
            Report::Event(_) => false,
            Report::Done(done) => {
                series.over();
                if let Err(why) = done {
                    self.notice = Some(format!("The match stopped: {why}"));
                    self.game.ended.get_or_insert_with(Ended::stopped);
                }
                true
            }
        };
        self.series = Some(series);
        if changed {
            self.show_match_turn();
        }
        changed
    }

    /// Shows the live figures of the match's engine to move, while its game goes on.
    pub(super) fn show_match_turn(&mut self) {
        let shown = !self.live_who.0.is_empty() && self.live_who.2 == self.game.end();
        if self.game.ended.is_some() || shown {
            return;
        }
        let side = self.game.current().side_to_move();
        let name = self.game.players[side.index()].name();
        let who = format!("{name} ({})", capitalised(side));
        self.show_live(who, side, self.game.end());
    }
}
