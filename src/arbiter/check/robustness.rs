//! The checks of the protocol's edges: UGI, bad input, stray output, `quit`.

use super::setup::{legal_in, no_move_position, opening_line, position_command};
use super::*;

impl Checker<'_> {
    /// The UGI handshake and queries, on an engine of its own.
    pub(super) fn ugi(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let mut spec = self.spec.clone();
        spec.protocol = "ugi".to_string();
        let session = match Session::ready(&spec, self.settings) {
            Ok(session) => session,
            Err(why) if self.spec.protocol == "uci" => {
                let evidence = format!("the engine does not speak UGI ({why})");
                return self.record("ugi", Outcome::Skip, evidence, report);
            }
            Err(why) => return self.record("ugi", Outcome::Fail, why, report),
        };
        let previous = self.session.replace(session);
        let rules = self.announced.default_rules();
        self.on_engine("ugi", report, |s, announced| {
            let (_, moves, position) = opening_line(rules);
            for line in announced.select(rules) {
                s.send(&line)?;
            }
            let playing = position_command(&position, &moves, false);
            let over = format!("position fen {}", no_move_position(rules));
            let questions = [
                (playing.as_str(), "query gameover", "response false"),
                (playing.as_str(), "query p1turn", "response true"),
                (playing.as_str(), "query result", "response none"),
                (over.as_str(), "query gameover", "response true"),
                (over.as_str(), "query result", "response p2win"),
            ];
            for (setup, query, answer) in questions {
                s.send(setup)?;
                s.send(query)?;
                let asked = format!("{setup}, {query}");
                let (line, _) =
                    s.expect(&asked, "response", s.timeout, |l| l.starts_with("response"))?;
                if line.trim() != answer {
                    return Err(format!(
                        "sent \"{asked}\": got {}, expected \"{answer}\"",
                        quote(&line)
                    ));
                }
            }
            s.send(&playing)?;
            let (best, _) = s.go("go movetime 50", s.timeout)?;
            legal_in(&position, &best, "sent \"go movetime 50\" after ugi")?;
            Ok(
                "ugiok; query gameover, p1turn and result answered rightly; two-word bestmove"
                    .into(),
            )
        });
        self.retire();
        self.session = previous;
    }

    /// Bad input, one line at a time: after each the engine must still answer `isready`.
    pub(super) fn bad_input(&mut self, report: &mut impl FnMut(&CheckResult)) {
        self.on_engine("bad-input", report, |s, announced| {
            let probes: [(&str, Vec<u8>); 8] = [
                ("an unknown command", b"frobnicate now".to_vec()),
                ("a bad move", b"position startpos moves z99".to_vec()),
                ("an illegal move", b"position startpos moves a1".to_vec()),
                ("a malformed position string", b"position fen bx/qq w".to_vec()),
                ("a bad go parameter", b"go depth soon".to_vec()),
                ("an unknown option", b"setoption name NoSuchOption value 1".to_vec()),
                ("a line that is not UTF-8", b"position startpos moves d5 \xff\xfe".to_vec()),
                ("a 100 kB line", vec![b'x'; 100_000]),
            ];
            let mut answered = 0;
            for (what, bytes) in &probes {
                let shown = quote(&String::from_utf8_lossy(bytes));
                s.send_bytes(bytes, &format!("{what} {shown}"))?;
                let asked = format!("{what} {shown}, then isready");
                s.send("isready")?;
                let deadline = Instant::now() + s.timeout;
                loop {
                    match s.read(deadline) {
                        Ok((line, _)) if line.trim() == "readyok" => break,
                        Ok((line, _)) if line.starts_with("info string") => answered += 1,
                        Ok(_) => {}
                        Err(ReadError::Timeout) => {
                            return Err(format!("sent {asked}: no readyok within {} ms", s.timeout.as_millis()));
                        }
                        Err(ReadError::Closed) => {
                            return Err(format!("sent {asked}: {}", s.gone("")));
                        }
                        Err(ReadError::Interrupted) => return Err("interrupted".to_string()),
                    }
                }
            }
            let (_, moves, position) = opening_line(announced.default_rules());
            let command = position_command(&position, &moves, false);
            s.send(&command)?;
            let (best, _) = s.go("go movetime 50", s.timeout)?;
            legal_in(&position, &best, &format!("after the bad input, sent \"{command}\""))?;
            Ok(format!(
                "survived {} bad lines (non-UTF-8 included), {answered} of them answered with info string; still plays legal moves",
                probes.len()
            ))
        });
    }

    /// Every line the engine wrote is a protocol message.
    pub(super) fn output(&mut self, report: &mut impl FnMut(&CheckResult)) {
        if let Some(mut session) = self.session.take() {
            self.keep_stray(&session);
            session.stray.clear();
            session.stray_count = 0;
            self.session = Some(session);
        }
        if self.stray_count == 0 {
            let evidence = "every line the engine wrote is a protocol message".to_string();
            self.record("output", Outcome::Pass, evidence, report);
        } else {
            let quoted: Vec<String> = self.stray.iter().map(|l| quote(l)).collect();
            let evidence = format!(
                "{} lines that are not protocol messages, such as {}",
                self.stray_count,
                quoted.join(", ")
            );
            self.record("output", Outcome::Fail, evidence, report);
        }
    }

    /// `quit` ends the process.
    pub(super) fn quit(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let session = match self.session.take() {
            Some(session) => session,
            None => match Session::ready(self.spec, self.settings) {
                Ok(session) => session,
                Err(why) => {
                    let evidence = format!("the engine could not be made ready: {why}");
                    return self.record("quit", Outcome::Skip, evidence, report);
                }
            },
        };
        match session.quit(Duration::from_secs(1)) {
            Ok(status) => {
                let evidence = format!("sent \"quit\": the engine exited ({status})");
                self.record("quit", Outcome::Pass, evidence, report)
            }
            Err(why) => self.record("quit", Outcome::Fail, why, report),
        }
    }
}
