//! An engine's `info` lines, gathered into what the page shows while it thinks: depth, score
//! (`mate N` as such), nodes, speed, the principal variation, and with `MultiPV` each ranked
//! line; and the first line's score as Black's chance to win, for the evaluation bar and graph.

use crate::protocol::info::{Info, Score};
use crate::rules::square::Color;
use serde::Serialize;
use std::sync::Arc;

/// A score as the page shows it: `+35`, `-120`, `mate 3`, `mate -2`.
fn score_text(score: Score) -> String {
    match score {
        Score::Centi(cp) => format!("{cp:+}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// One ranked line of a multi-line search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// 1 for the best.
    pub rank: u32,
    /// Its depth.
    pub depth: Option<u32>,
    /// Its score, as `score` below.
    pub score: Option<String>,
    /// Its moves.
    pub pv: String,
}

/// The newest search figures of the engine being watched.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Live {
    depth: Option<u32>,
    seldepth: Option<u32>,
    /// `+35`, `-120`, `mate 3`, `mate -2`: from the side to move's point of view.
    score: Option<String>,
    /// The chance that Black wins, from the best line's score (0 to 1).
    black_chance: Option<f64>,
    nodes: Option<u64>,
    nps: Option<u64>,
    time_ms: Option<u64>,
    pv: Option<String>,
    /// Every ranked line, best first, when the engine reports `multipv`.
    lines: Vec<Line>,
    /// The last `info string`.
    text: Option<String>,
    /// How the search ended (`stopped`, `played f5d5`), once it has: its figures are final.
    ended: Option<String>,
    /// The side to move in the searched position.
    #[serde(skip)]
    side: Option<Color>,
}

/// What the page receives: the figures with who is thinking, and on which position.
#[derive(Serialize)]
struct LiveView<'a> {
    who: &'a str,
    side: &'static str,
    node: &'a str,
    #[serde(flatten)]
    live: &'a Live,
}

impl Live {
    /// No figures yet, for a search of a position with `side` to move.
    pub fn new(side: Color) -> Live {
        Live {
            side: Some(side),
            ..Live::default()
        }
    }

    /// Takes in one line from the engine; true when it was an `info` line that changed what
    /// is shown. Lines that are not `info` (or are malformed) change nothing.
    pub fn update(&mut self, line: &str) -> bool {
        let Some(info) = Info::parse(line) else {
            return false;
        };
        let before = self.clone();
        self.seldepth = info.seldepth.or(self.seldepth);
        self.nodes = info.nodes.or(self.nodes);
        self.nps = info.nps.or(self.nps);
        self.time_ms = info.time_ms.or(self.time_ms);
        self.text = info.string.or(self.text.take());
        let (rank, depth, score) = (info.multipv, info.depth, info.score);
        let pv = (!info.pv.is_empty()).then(|| info.pv.join(" "));
        if rank.unwrap_or(1) == 1 {
            self.depth = depth.or(self.depth);
            if let Some(score) = score {
                self.score = Some(score_text(score));
                self.black_chance = self.side.map(|side| match side {
                    Color::Black => score.chance(),
                    Color::White => 1.0 - score.chance(),
                });
            }
            self.pv = pv.clone().or(self.pv.take());
        }
        if let (Some(rank), Some(pv)) = (rank, pv) {
            let line = Line {
                rank,
                depth,
                score: score.map(score_text),
                pv,
            };
            match self.lines.iter_mut().find(|l| l.rank == rank) {
                Some(old) => *old = line,
                None => {
                    self.lines.push(line);
                    self.lines.sort_by_key(|l| l.rank);
                }
            }
        }
        *self != before
    }

    /// Black's chance to win by the best line, once a score came.
    pub fn black_chance(&self) -> Option<f64> {
        self.black_chance
    }

    /// Marks the search as ended, `how` saying how; false when nothing was shown.
    pub fn end(&mut self, how: String) -> bool {
        if self.depth.is_none() && self.score.is_none() && self.text.is_none() {
            return false;
        }
        self.ended = Some(how);
        true
    }

    /// The figures as the page receives them, naming who thinks, for which side, and the
    /// position searched (`m12`, `v3`).
    pub fn json(&self, who: &str, side: Color, node: &str) -> Arc<str> {
        let view = LiveView {
            who,
            side: side.name(),
            node,
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
        let mut live = Live::new(Color::White);
        assert!(live.update(
            "info depth 5 seldepth 9 score cp 35 nodes 1200 nps 60000 time 20 pv f5d5 c3c5"
        ));
        assert_eq!(live.depth, Some(5));
        assert_eq!(live.score.as_deref(), Some("+35"));
        assert_eq!(live.pv.as_deref(), Some("f5d5 c3c5"));
        let chance = live.black_chance().unwrap();
        assert!((0.25..0.45).contains(&chance), "White is ahead: {chance}");
        assert!(live.update("info depth 6 score mate -3 pv a1a3"));
        assert_eq!(live.score.as_deref(), Some("mate -3"));
        assert_eq!(live.black_chance(), Some(1.0), "White loses by force");
        assert_eq!(live.nodes, Some(1200), "a field a line leaves out is kept");
        assert!(!live.update("readyok"));
        assert!(!live.update("info depth 6"), "nothing new");
        assert!(live.update("info string solving"));
        assert_eq!(live.text.as_deref(), Some("solving"));
        let json = live.json("konane-engine (White)", Color::White, "m4");
        assert!(json.contains("\"side\":\"white\""), "{json}");
        assert!(json.contains("\"node\":\"m4\""), "{json}");
        assert!(json.contains("\"score\":\"mate -3\""), "{json}");
    }

    #[test]
    fn ranked_lines_are_kept_apart_and_the_first_leads() {
        let mut live = Live::new(Color::Black);
        live.update("info depth 4 seldepth 4 multipv 1 score cp 20 nodes 10 pv d5f5 c3c5");
        live.update("info depth 4 seldepth 4 multipv 2 score cp -10 nodes 20 pv b5d5");
        live.update("info depth 4 seldepth 4 multipv 3 score mate 2 nodes 30 pv e6e4");
        assert_eq!(live.lines.len(), 3);
        assert_eq!(live.lines[2].score.as_deref(), Some("mate 2"));
        assert_eq!(
            live.pv.as_deref(),
            Some("d5f5 c3c5"),
            "the first line leads"
        );
        assert_eq!(live.score.as_deref(), Some("+20"));
        assert_eq!(live.nodes, Some(30));
        live.update("info depth 5 multipv 2 score cp 5 pv f5d5");
        assert_eq!(live.lines[1].pv, "f5d5");
        assert_eq!(
            live.depth,
            Some(4),
            "only the first line sets the depth shown"
        );
    }
}
