//! The handshake check: `id name`, well-formed options (and the user's own), the `ok` line.

use super::*;

impl Checker<'_> {
    /// `uci`/`ugi`: `id name`, well-formed options, the `ok` line.
    pub(super) fn handshake(&mut self, report: &mut impl FnMut(&CheckResult)) -> bool {
        let protocol = self.spec.protocol.clone();
        let ok = format!("{protocol}ok");
        let mut session = match Session::start(self.spec, self.settings) {
            Ok(session) => session,
            Err(why) => {
                self.record("handshake", Outcome::Fail, why, report);
                self.record("options", Outcome::Skip, "no handshake".into(), report);
                self.record("isready", Outcome::Skip, "no handshake".into(), report);
                return false;
            }
        };
        let deadline = Instant::now() + self.settings.timeout;
        let mut lines = Vec::new();
        let answered = session
            .process
            .send(&protocol)
            .and_then(|_| {
                loop {
                    match session.read(deadline) {
                        Ok((line, _)) if line.trim() == ok => break Ok(()),
                        Ok((line, _)) => lines.push(line),
                        Err(error) => break Err(error),
                    }
                }
            })
            .map_err(|error| {
                let failure = HandshakeError {
                    awaited: ok.clone(),
                    error,
                };
                let why = session.process.explain(&failure, self.settings.timeout);
                format!("sent \"{protocol}\": {why}")
            });
        if let Err(why) = answered {
            self.keep_stray(&session);
            self.record("handshake", Outcome::Fail, why, report);
            self.record("options", Outcome::Skip, "no handshake".into(), report);
            self.record("isready", Outcome::Skip, "no handshake".into(), report);
            return false;
        }
        let name = lines
            .iter()
            .find_map(|l| l.trim().strip_prefix("id name "))
            .map(str::to_string);
        let mut options = Vec::new();
        let mut malformed = Vec::new();
        for line in lines.iter().filter(|l| l.starts_with("option")) {
            match options::parse(line) {
                Ok(option) => options.push(option),
                Err(why) => malformed.push(format!("{} ({why})", quote(line))),
            }
        }
        match &name {
            Some(name) => self.record(
                "handshake",
                Outcome::Pass,
                format!(
                    "id name {name}, {} option lines, {ok}",
                    options.len() + malformed.len()
                ),
                report,
            ),
            None => self.record(
                "handshake",
                Outcome::Fail,
                format!("sent \"{protocol}\": '{ok}' came without an 'id name' line before it"),
                report,
            ),
        }
        self.announced = Announced::from_options(&options);
        // The user's own settings must name options the engine has, with values it accepts.
        let refused: Vec<String> = self
            .spec
            .options
            .iter()
            .filter_map(|(name, value)| options::check_value(&options, name, value).err())
            .collect();
        if !refused.is_empty() {
            self.record("options", Outcome::Fail, refused.join("; "), report);
        } else if malformed.is_empty() {
            let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
            let evidence = if names.is_empty() {
                "none announced: only 8x8 under the default rules is checked".to_string()
            } else {
                format!(
                    "{}; rules checked: {}",
                    names.join(", "),
                    self.announced.describe()
                )
            };
            self.record("options", Outcome::Pass, evidence, report);
        } else {
            self.record("options", Outcome::Fail, malformed.join("; "), report);
        }
        match session
            .set_options(self.spec)
            .and_then(|_| session.sync("isready"))
        {
            Ok(took) => {
                self.session = Some(session);
                let evidence = format!("readyok after {} ms", took.as_millis());
                self.record("isready", Outcome::Pass, evidence, report);
                name.is_some()
            }
            Err(why) => {
                self.keep_stray(&session);
                self.record("isready", Outcome::Fail, why, report);
                false
            }
        }
    }
}
