//! What engines send while and after they search, read once for every GUI-side face (the
//! arbiter's GUI, `check`, Python): `info` lines with one [`Score`] type, and `bestmove`.

use std::fmt;

/// A score as an engine reports it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp N`: hundredths of the log-odds of winning (protocol.md: +100 is about 73 %).
    Centi(i64),
    /// `score mate N`: a forced win in N moves (negative: a forced loss).
    Mate(i64),
}

impl Score {
    /// The chance that the side to move wins, read from the score.
    pub fn chance(self) -> f64 {
        match self {
            Score::Centi(cp) => 1.0 / (1.0 + (-(cp as f64) / 100.0).exp()),
            Score::Mate(n) if n > 0 => 1.0,
            Score::Mate(_) => 0.0,
        }
    }
}

impl fmt::Display for Score {
    /// As protocol.md writes it: `cp 35`, `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centi(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// One `info` line: each field it has (a malformed field is left out).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`: the line's rank, 1 for the best.
    pub multipv: Option<u32>,
    /// `score cp N` or `score mate N`.
    pub score: Option<Score>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time`, in milliseconds.
    pub time_ms: Option<u64>,
    /// `hashfull`, in permille.
    pub hashfull: Option<u64>,
    /// `pv`: the moves as sent, to the end of the line.
    pub pv: Vec<String>,
    /// `string`: the text to the end of the line.
    pub string: Option<String>,
}

impl Info {
    /// Reads an `info` line; `None` for any other line.
    pub fn parse(line: &str) -> Option<Info> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = Info::default();
        while let Some(key) = words.next() {
            match key {
                "depth" => info.depth = number(words.next()),
                "seldepth" => info.seldepth = number(words.next()),
                "multipv" => info.multipv = number(words.next()),
                "nodes" => info.nodes = number(words.next()),
                "nps" => info.nps = number(words.next()),
                "time" => info.time_ms = number(words.next()),
                "hashfull" => info.hashfull = number(words.next()),
                "score" => {
                    let kind = words.next();
                    let value = words.next().and_then(|w| w.parse::<i64>().ok());
                    info.score = match (kind, value) {
                        (Some("cp"), Some(cp)) => Some(Score::Centi(cp)),
                        (Some("mate"), Some(n)) => Some(Score::Mate(n)),
                        _ => None,
                    };
                }
                "pv" => info.pv = words.by_ref().map(str::to_string).collect(),
                "string" => info.string = Some(words.by_ref().collect::<Vec<_>>().join(" ")),
                _ => {}
            }
        }
        Some(info)
    }
}

/// The number `word` holds, if it holds one of this type (a depth past `u32` is no depth).
fn number<T: std::str::FromStr>(word: Option<&str>) -> Option<T> {
    word.and_then(|w| w.parse().ok())
}

/// A `bestmove` line: the move as sent, and the `ponder` move if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move's text (`0000` when the engine has none); empty when the line names none.
    pub mv: String,
    /// The reply the engine expects.
    pub ponder: Option<String>,
}

impl BestMove {
    /// Reads a `bestmove` line; `None` for any other line (`bestmovexyz` included).
    pub fn parse(line: &str) -> Option<BestMove> {
        let mut words = line.split_whitespace();
        if words.next() != Some("bestmove") {
            return None;
        }
        let mv = words.next().unwrap_or("").to_string();
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(reply)) => Some(reply.to_string()),
            _ => None,
        };
        Some(BestMove { mv, ponder })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read_field_by_field() {
        let info =
            Info::parse("info depth 5 seldepth 9 multipv 2 score mate -3 nodes 12 nps 600 time 20 hashfull 7 pv f5d5 c3c5")
                .unwrap();
        assert_eq!(info.depth, Some(5));
        assert_eq!(info.seldepth, Some(9));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some(Score::Mate(-3)));
        assert_eq!(
            (info.nodes, info.nps, info.time_ms),
            (Some(12), Some(600), Some(20))
        );
        assert_eq!(info.hashfull, Some(7));
        assert_eq!(info.pv, ["f5d5", "c3c5"]);
        let text = Info::parse("info string solving 8 plies").unwrap();
        assert_eq!(text.string.as_deref(), Some("solving 8 plies"));
        assert_eq!(
            Info::parse("info score cp x depth y").unwrap(),
            Info::default()
        );
        let huge = Info::parse("info depth 4294967297 nodes 4294967297").unwrap();
        assert_eq!((huge.depth, huge.nodes), (None, Some(4_294_967_297)));
        assert_eq!(Info::parse("readyok"), None);
        assert_eq!(Score::Centi(35).to_string(), "cp 35");
    }

    #[test]
    fn bestmove_lines_are_read_with_their_ponder_move() {
        let best = BestMove::parse("bestmove f5d5 ponder c3c5").unwrap();
        assert_eq!(best.mv, "f5d5");
        assert_eq!(best.ponder.as_deref(), Some("c3c5"));
        assert_eq!(BestMove::parse("bestmove").unwrap().mv, "");
        assert_eq!(BestMove::parse("bestmovexyz f5d5"), None);
    }
}
