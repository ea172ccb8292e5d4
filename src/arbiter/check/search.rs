//! The checks of a running search: several lines (`MultiPV`), `go infinite` and `stop`.

use super::setup::{legal_in, opening_line, position_command, start_infinite};
use super::*;
use crate::protocol::info::{BestMove, Info};

impl Checker<'_> {
    /// With `MultiPV` announced: three lines at once, each ranked (`multipv 1` to `3`) with a
    /// different first move, and `go searchmoves` kept to the moves given.
    pub(super) fn multipv(&mut self, report: &mut impl FnMut(&CheckResult)) {
        if !self.announced.multipv {
            let why = "the engine announces no MultiPV option (of 3 lines or more)".to_string();
            return self.record("multipv", Outcome::Skip, why, report);
        }
        let timeout = self.settings.timeout;
        self.on_engine("multipv", report, |s, announced| {
            let (_, moves, position) = opening_line(announced.default_rules());
            let legal = position.legal_moves();
            if legal.len() < 3 {
                return Ok("skipped: no position with three moves".to_string());
            }
            s.send("setoption name MultiPV value 3")?;
            let command = position_command(&position, &moves, false);
            s.send(&command)?;
            let go = "go movetime 300";
            s.send(go)?;
            let mut first_moves: [Option<String>; 3] = Default::default();
            let sent = format!("sent \"setoption name MultiPV value 3\", \"{command}\", \"{go}\"");
            let best = loop {
                let (line, _) = s.expect(go, "bestmove", timeout + Duration::from_millis(300), |l| {
                    is_bestmove(l) || l.starts_with("info ")
                })?;
                if let Some(best) = BestMove::parse(&line) {
                    break best.mv;
                }
                if let Some(info) = Info::parse(&line)
                    && let (Some(rank @ 1..=3), Some(first)) = (info.multipv, info.pv.first())
                {
                    first_moves[rank as usize - 1] = Some(first.clone());
                }
            };
            legal_in(&position, &best, &sent)?;
            let ranked: Vec<String> = first_moves.iter().flatten().cloned().collect();
            if ranked.len() < 3 {
                // The ranks that did come, which need not be the first ones.
                let seen: Vec<String> = (1..=3)
                    .zip(&first_moves)
                    .filter(|(_, first)| first.is_some())
                    .map(|(rank, _)| rank.to_string())
                    .collect();
                let seen = if seen.is_empty() {
                    "none".to_string()
                } else {
                    seen.join(", ")
                };
                return Err(format!(
                    "{sent}: info lines came with multipv {seen} only (expected 1, 2 and 3)"
                ));
            }
            for first in &ranked {
                legal_in(&position, first, &format!("{sent}: a line's first move"))?;
            }
            if ranked[0] == ranked[1] || ranked[1] == ranked[2] || ranked[0] == ranked[2] {
                return Err(format!(
                    "{sent}: the three lines start with {}: the same move twice",
                    ranked.join(", ")
                ));
            }
            s.send("setoption name MultiPV value 1")?;
            let chosen = [legal[legal.len() - 1], legal[legal.len() - 2]];
            let go = format!("go movetime 100 searchmoves {} {}", chosen[0], chosen[1]);
            s.send(&command)?;
            let (searched, _) = s.go(&go, timeout + Duration::from_millis(100))?;
            if !chosen.iter().any(|mv| mv.to_string() == searched) {
                return Err(format!(
                    "sent \"{command}\", \"{go}\": got bestmove {searched}, not one of the moves given"
                ));
            }
            Ok(format!(
                "lines start with {}; {go}: bestmove {searched}",
                ranked.join(", ")
            ))
        });
    }

    /// `isready` during `go infinite`, and `stop` answered promptly.
    pub(super) fn infinite(&mut self, report: &mut impl FnMut(&CheckResult)) {
        self.on_engine("isready-in-search", report, |s, announced| {
            let position = start_infinite(s, announced)?;
            s.send("isready")?;
            let (line, took) =
                s.expect("go infinite, then isready", "readyok", s.timeout, |l| {
                    l == "readyok" || is_bestmove(l)
                })?;
            if is_bestmove(&line) {
                return Err(format!(
                    "sent \"go infinite\": got {} before any stop (go infinite must wait for stop)",
                    quote(&line)
                ));
            }
            let (best, _) = s.go("stop", s.timeout)?;
            legal_in(
                &position,
                &best,
                "sent \"go infinite\", \"isready\", \"stop\"",
            )?;
            Ok(format!(
                "readyok after {} ms while searching",
                took.as_millis()
            ))
        });
        let prompt = Duration::from_millis(500);
        self.on_engine("stop", report, |s, announced| {
            let position = start_infinite(s, announced)?;
            let early = s.expect(
                "go infinite",
                "bestmove",
                Duration::from_millis(100),
                is_bestmove,
            );
            if let Ok((line, _)) = early {
                return Err(format!(
                    "sent \"go infinite\": got {} before any stop (go infinite must wait for stop)",
                    quote(&line)
                ));
            }
            let (best, took) = s.go("stop", prompt)?;
            legal_in(&position, &best, "sent \"go infinite\", \"stop\"")?;
            Ok(format!(
                "bestmove {best} {} ms after stop",
                took.as_millis()
            ))
        });
    }
}
