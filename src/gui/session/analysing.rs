//! The session's analysis: which engine analyses which position with how many lines, the
//! worker that runs it, and why it waits while an engine of the game thinks.

use super::{Core, Message};
use crate::arbiter::game::Seat;
use crate::gui::analysis::{self, Analyst, Worker};
use crate::gui::game::Player;
use crate::gui::tree::Node;
use crate::gui::view;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most lines the analysis shows at once.
const MAX_LINES: usize = 5;

impl Core {
    pub(super) fn analyse(
        &mut self,
        engine: Option<String>,
        node: Option<Node>,
        lines: usize,
    ) -> Result<(), String> {
        let Some(name) = engine else {
            match &mut self.analyst {
                Some(analyst) => analyst.wanted = false,
                None => return Err("analysis: nothing is being analysed".to_string()),
            }
            return Ok(());
        };
        let Some(engine) = self.roster.iter().position(|e| e.name == name) else {
            return Err(format!("analysis: '{name}' is not a configured engine"));
        };
        if let Some(node) = node {
            self.game
                .find(node)
                .map_err(|why| format!("analysis: {why}"))?;
        }
        let multipv = self.roster[engine]
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case("MultiPV"));
        let most = multipv.and_then(|o| o.max).unwrap_or(1).max(1) as usize;
        if !(1..=most.min(MAX_LINES)).contains(&lines) {
            return Err(match multipv {
                None if lines > 1 => {
                    format!("analysis: {name} announces no MultiPV option, so it shows one line")
                }
                _ => format!(
                    "analysis: lines must be 1 to {}, not {lines}",
                    most.min(MAX_LINES)
                ),
            });
        }
        match &mut self.analyst {
            Some(analyst) if analyst.engine == engine && analyst.lines == lines => {
                analyst.wanted = true;
                analyst.node = node;
            }
            _ => {
                if let Some(old) = self.analyst.take() {
                    old.retire();
                }
                let mut spec = self.engines[engine].clone();
                if let Some(option) = multipv {
                    let setting = (option.name.clone(), lines.to_string());
                    spec = spec.with_options([(&setting.0, &setting.1)]);
                }
                self.analyst = Some(Analyst {
                    engine,
                    seat: Some(Box::new(Seat::new(
                        &spec,
                        self.game.rules,
                        self.log.clone(),
                    ))),
                    worker: None,
                    target: None,
                    wanted: true,
                    node,
                    lines,
                });
            }
        }
        Ok(())
    }

    /// Why the analysis waits, if it does: an engine of the game has the move (the two would
    /// share the processor), or no page is open. It resumes by itself when that is over.
    pub(super) fn analysis_waits(&self) -> Option<String> {
        if self.paused {
            return Some("no page is open".to_string());
        }
        match (&self.game.ended, self.game.player_to_move()) {
            (None, Player::Engine { name, .. }) => Some(format!("{name} is thinking on the game")),
            _ => None,
        }
    }

    pub(super) fn step_analysis(&mut self) {
        let waits = self.analysis_waits();
        let Some(analyst) = &mut self.analyst else {
            return;
        };
        if analyst
            .node
            .is_some_and(|node| self.game.position_at(node).is_none())
        {
            // Its variation was deleted: follow the game again.
            analyst.node = None;
        }
        let target = (analyst.wanted && waits.is_none())
            .then(|| view::position_command(&self.game, analyst.node));
        if let Some(worker) = &analyst.worker {
            if analyst.target != target {
                worker.stop.store(true, Ordering::SeqCst);
            }
            return;
        }
        if !analyst.wanted {
            // Turned off and idle: the engine is not needed any more.
            self.analyst = None;
            return;
        }
        let Some(target) = target else {
            // Waiting: the engine stays idle in its seat.
            return;
        };
        let Some(mut seat) = analyst.seat.take() else {
            return;
        };
        self.next_token += 1;
        let token = self.next_token;
        let stop = Arc::new(AtomicBool::new(false));
        let messages = self.messages.clone();
        let (flag, deadlines, command) = (stop.clone(), self.deadlines, target.clone());
        self.outstanding += 1;
        std::thread::spawn(move || {
            let lines = messages.clone();
            let error = analysis::analyse(&mut seat, &command, &deadlines, &flag, &mut |line| {
                let _ = lines.send(Message::Line {
                    token,
                    line: line.to_string(),
                });
            })
            .err();
            let _ = messages.send(Message::Analysed { token, seat, error });
        });
        let node = analyst.node.unwrap_or(self.game.end());
        let side = self
            .game
            .position_at(node)
            .unwrap_or(*self.game.current())
            .side_to_move();
        analyst.worker = Some(Worker {
            token,
            stop,
            side,
            game: self.game.number,
        });
        analyst.target = Some(target);
        let who = format!("analysis: {}", self.roster[analyst.engine].name);
        self.show_live(who, side, node);
    }

    /// The analysis worker ended; true when the state changed.
    pub(super) fn analysed(&mut self, token: u64, seat: Box<Seat>, error: Option<String>) -> bool {
        let Some(analyst) = &mut self.analyst else {
            return false;
        };
        if analyst.worker.as_ref().map(|w| w.token) != Some(token) {
            return false;
        }
        analyst.worker = None;
        analyst.target = None;
        analyst.seat = Some(seat);
        let shown = self.live_who.0.starts_with("analysis: ");
        if let Some(error) = error {
            analyst.wanted = false;
            let name = &self.roster[analyst.engine].name;
            self.notice = Some(format!("Analysis by {name} failed: {error}"));
        }
        if shown {
            self.end_live("stopped".to_string());
        }
        true
    }
}
