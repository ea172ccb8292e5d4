//! An engine's `info` lines, gathered into what the page shows while it thinks: depth,
//! score (`mate N` as such), nodes, speed and principal variation.

use crate::square::Color;
use serde::Serialize;
use std::sync::Arc;

/// The newest search figures of the engine being watched.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Live {
    depth: Option<u32>,
    seldepth: Option<u32>,
    /// `+35`, `-120`, `mate 3`, `mate -2`: from the side to move's point of view.
    score: Option<String>,
    nodes: Option<u64>,
    nps: Option<u64>,
    time_ms: Option<u64>,
    pv: Option<String>,
    /// The last `info string`.
    text: Option<String>,
    /// How the search ended (`stopped`, `played f5d5`), once it has: its figures are final.
    ended: Option<String>,
}

/// What the page receives: the figures with who is thinking.
#[derive(Serialize)]
struct LiveView<'a> {
    who: &'a str,
    side: &'static str,
    #[serde(flatten)]
    live: &'a Live,
}

impl Live {
    /// Takes in one line from the engine; true when it was an `info` line that changed what
    /// is shown. Lines that are not `info` (or are malformed) change nothing.
    pub fn update(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return false;
        }
        let before = self.clone();
        while let Some(key) = words.next() {
            match key {
                "depth" => self.depth = words.next().and_then(|w| w.parse().ok()),
                "seldepth" => self.seldepth = words.next().and_then(|w| w.parse().ok()),
                "nodes" => self.nodes = words.next().and_then(|w| w.parse().ok()),
                "nps" => self.nps = words.next().and_then(|w| w.parse().ok()),
                "time" => self.time_ms = words.next().and_then(|w| w.parse().ok()),
                "score" => {
                    let kind = words.next();
                    let value = words.next().and_then(|w| w.parse::<i64>().ok());
                    self.score = match (kind, value) {
                        (Some("cp"), Some(cp)) => Some(format!("{cp:+}")),
                        (Some("mate"), Some(n)) => Some(format!("mate {n}")),
                        _ => self.score.take(),
                    };
                }
                "pv" => {
                    self.pv = Some(words.by_ref().collect::<Vec<_>>().join(" "));
                }
                "string" => {
                    self.text = Some(words.by_ref().collect::<Vec<_>>().join(" "));
                }
                _ => {}
            }
        }
        *self != before
    }

    /// Marks the search as ended, `how` saying how; false when nothing was shown.
    pub fn end(&mut self, how: String) -> bool {
        if *self == Live::default() {
            return false;
        }
        self.ended = Some(how);
        true
    }

    /// The figures as the page receives them, naming who thinks and for which side.
    pub fn json(&self, who: &str, side: Color) -> Arc<str> {
        let view = LiveView {
            who,
            side: side.name(),
            live: self,
        };
        Arc::from(serde_json::to_string(&view).expect("the figures serialise"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_gathered_and_mate_scores_kept_as_such() {
        let mut live = Live::default();
        assert!(live.update(
            "info depth 5 seldepth 9 score cp 35 nodes 1200 nps 60000 time 20 pv f5d5 c3c5"
        ));
        assert_eq!(live.depth, Some(5));
        assert_eq!(live.score.as_deref(), Some("+35"));
        assert_eq!(live.pv.as_deref(), Some("f5d5 c3c5"));
        assert!(live.update("info depth 6 score mate -3 pv a1a3"));
        assert_eq!(live.score.as_deref(), Some("mate -3"));
        assert_eq!(live.nodes, Some(1200), "a field a line leaves out is kept");
        assert!(!live.update("readyok"));
        assert!(!live.update("info depth 6"), "nothing new");
        assert!(live.update("info string solving"));
        assert_eq!(live.text.as_deref(), Some("solving"));
        let json = live.json("konane-engine (White)", Color::White);
        assert!(json.contains("\"side\":\"white\""), "{json}");
        assert!(json.contains("\"score\":\"mate -3\""), "{json}");
    }
}
