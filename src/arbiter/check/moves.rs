//! The checks of moves: positions of every announced rule, and time limits.

use super::setup::{
    clock_go, legal_in, no_move_position, opening_line, position_command, random_position,
};
use super::*;
use crate::protocol::info::BestMove;

impl Checker<'_> {
    /// `position startpos`/`fen` with moves, legal moves in random positions, and no move.
    pub(super) fn positions(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let timeout = self.settings.timeout;
        let go = "go movetime 50";
        self.on_engine("startpos", report, |s, announced| {
            let rules = announced.default_rules();
            let (_, moves, position) = opening_line(rules);
            for line in announced.select(rules) {
                s.send(&line)?;
            }
            let command = position_command(&position, &moves, false);
            s.send(&command)?;
            let (best, _) = s.go(go, timeout)?;
            legal_in(&position, &best, &format!("sent \"{command}\", \"{go}\""))?;
            Ok(format!("{command}: bestmove {best}, legal"))
        });
        self.on_engine("fen", report, |s, announced| {
            let rules = announced.default_rules();
            let (_, _, mut position) = opening_line(rules);
            let fen = position.fen();
            let reply = position.legal_moves()[0];
            position.play_unchecked(reply);
            let command = format!("position fen {fen} moves {reply}");
            s.send(&command)?;
            let (best, _) = s.go(go, timeout)?;
            legal_in(&position, &best, &format!("sent \"{command}\", \"{go}\""))?;
            Ok(format!("{command}: bestmove {best}, legal"))
        });
        let count = if self.settings.quick { 20 } else { 200 };
        let seed = self.settings.seed;
        self.on_engine("legal-moves", report, |s, announced| {
            let mut random = Random::new(seed);
            let go = "go movetime 20";
            for i in 0..count {
                let (rules, moves, position) = random_position(announced, &mut random);
                for line in announced.select(rules) {
                    s.send(&line)?;
                }
                let command = position_command(&position, &moves, i % 2 == 1);
                s.send(&command)?;
                let (best, _) = s.go(go, timeout)?;
                let asked = format!(
                    "position {} of {count}: sent \"{command}\", \"{go}\"",
                    i + 1
                );
                legal_in(&position, &best, &asked)?;
            }
            Ok(format!(
                "{count} random positions ({}), every bestmove legal",
                announced.describe()
            ))
        });
        self.on_engine("no-move", report, |s, announced| {
            let rules = announced.default_rules();
            for line in announced.select(rules) {
                s.send(&line)?;
            }
            let command = format!("position fen {}", no_move_position(rules));
            s.send(&command)?;
            s.send(go)?;
            let within = Duration::from_millis(50) + timeout.min(Duration::from_secs(2));
            match s.expect(go, "bestmove", within, is_bestmove) {
                Ok((line, _)) if BestMove::parse(&line).is_some_and(|best| best.mv == "0000") => {
                    Ok(format!("{command}: {line}"))
                }
                Ok((line, _)) => Err(format!(
                    "sent \"{command}\", \"{go}\": got {}, but Black has no move (expected bestmove 0000)",
                    quote(&line)
                )),
                Err(_) => {
                    // No answer is the other accepted reply; the engine must still listen.
                    s.send("stop")?;
                    s.sync("stop")?;
                    Ok(format!(
                        "{command}: no bestmove (accepted), and the engine still answers isready"
                    ))
                }
            }
        });
    }

    /// `go movetime` kept and clocks respected.
    pub(super) fn limits(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let margin = self.settings.margin;
        let protocol = self.spec.protocol.clone();
        let movetime = Duration::from_millis(if self.settings.quick { 200 } else { 500 });
        self.on_engine("movetime", report, |s, announced| {
            let (_, moves, position) = opening_line(announced.default_rules());
            s.send(&position_command(&position, &moves, false))?;
            let go = format!("go movetime {}", movetime.as_millis());
            let (best, took) = s.go(&go, movetime + margin + Duration::from_secs(2))?;
            legal_in(&position, &best, &format!("sent \"{go}\""))?;
            if took > movetime + margin {
                return Err(format!(
                    "sent \"{go}\": bestmove after {} ms, beyond {} ms + {} ms margin",
                    took.as_millis(),
                    movetime.as_millis(),
                    margin.as_millis()
                ));
            }
            Ok(format!(
                "{go}: bestmove {best} after {} ms",
                took.as_millis()
            ))
        });
        let clocks: &[u64] = if self.settings.quick {
            &[1000]
        } else {
            &[1000, 100]
        };
        self.on_engine("clock", report, |s, announced| {
            let (_, moves, position) = opening_line(announced.default_rules());
            let mut seen = Vec::new();
            for &millis in clocks {
                s.send(&position_command(&position, &moves, false))?;
                let go = clock_go(&protocol, position.side_to_move(), millis);
                let allowed = Duration::from_millis(millis) + margin;
                let (best, took) = s.go(&go, allowed + Duration::from_secs(2))?;
                legal_in(&position, &best, &format!("sent \"{go}\""))?;
                if took > allowed {
                    return Err(format!(
                        "sent \"{go}\": bestmove after {} ms, with {millis} ms on the clock (+{} ms margin)",
                        took.as_millis(),
                        margin.as_millis()
                    ));
                }
                seen.push(format!("{millis} ms on the clock: {} ms", took.as_millis()));
            }
            Ok(seen.join(", "))
        });
    }
}
