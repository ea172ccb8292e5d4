//! An engine's verdict on the move it played: the score and depth of its best line when it
//! moved ([`Verdict`], read from its `info` lines as they come), and with the move's time
//! ([`MoveEval`]), written in PGN as cutechess-cli writes it: `{+0.35/12 0.50s}`.

use crate::protocol::info::{Info, Score};
use std::time::Duration;

/// The score (from the mover's side) and depth of an engine's best line when it moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The score of the best line.
    pub score: Score,
    /// The depth of that line.
    pub depth: u32,
}

impl Verdict {
    /// As cutechess-cli writes it: `+0.35/12`, `-M3/20` (the score in hundreds).
    pub fn text(&self) -> String {
        let score = match self.score {
            Score::Centi(cp) => format!("{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) if n < 0 => format!("-M{}", -n),
            Score::Mate(n) => format!("+M{n}"),
        };
        format!("{score}/{}", self.depth)
    }

    /// Reads a verdict as [`Verdict::text`] writes it; `None` for any other word.
    pub fn read(word: &str) -> Option<Verdict> {
        let (score, depth) = word.split_once('/')?;
        let depth = depth.parse().ok()?;
        let (sign, magnitude) = match score.as_bytes().first()? {
            b'+' => (1, &score[1..]),
            b'-' => (-1, &score[1..]),
            _ => (1, score),
        };
        let score = match magnitude.strip_prefix('M') {
            Some(moves) => Score::Mate(sign * moves.parse::<i64>().ok()?),
            None => {
                let pawns: f64 = magnitude.parse().ok()?;
                if !pawns.is_finite() || !magnitude.contains('.') {
                    return None;
                }
                Score::Centi(sign * (pawns * 100.0).round() as i64)
            }
        };
        Some(Verdict { score, depth })
    }
}

/// Follows an engine's `info` lines during one search: the verdict is the last score and
/// depth its best line (`multipv 1`, or no rank) reported.
#[derive(Clone, Copy, Debug, Default)]
pub struct VerdictReader {
    score: Option<Score>,
    depth: Option<u32>,
}

impl VerdictReader {
    /// Takes one line the engine sent (lines other than `info` change nothing).
    pub fn hear(&mut self, line: &str) {
        let Some(info) = Info::parse(line) else {
            return;
        };
        if info.multipv.unwrap_or(1) == 1 {
            self.score = info.score.or(self.score);
            self.depth = info.depth.or(self.depth);
        }
    }

    /// The verdict, once a score and a depth came.
    pub fn verdict(&self) -> Option<Verdict> {
        Some(Verdict {
            score: self.score?,
            depth: self.depth?,
        })
    }
}

/// An engine's verdict on its move with the time the move took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEval {
    /// The score and depth.
    pub verdict: Verdict,
    /// The time from the question to the move.
    pub time: Duration,
}

impl MoveEval {
    /// As cutechess-cli writes it: `+0.35/12 0.50s`, `-M3/20 1.20s`.
    pub fn text(&self) -> String {
        let seconds = self.time.as_secs_f64();
        format!("{} {seconds:.2}s", self.verdict.text())
    }

    /// Reads an evaluation from the start of a PGN comment, as [`MoveEval::text`] writes it;
    /// the evaluation and the rest of the comment, trimmed.
    pub fn read(comment: &str) -> Option<(MoveEval, &str)> {
        let comment = comment.trim_start();
        let (first, rest) = comment.split_once(' ')?;
        let verdict = Verdict::read(first)?;
        let (time, rest) = match rest.split_once(' ') {
            Some((time, rest)) => (time, rest),
            None => (rest, ""),
        };
        let seconds: f64 = time.strip_suffix('s')?.parse().ok()?;
        let time = Duration::try_from_secs_f64(seconds).ok()?;
        Some((MoveEval { verdict, time }, rest.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_are_written_as_cutechess_writes_them_and_read_back() {
        let ms = Duration::from_millis;
        for (score, depth, time, text) in [
            (Score::Centi(35), 12, ms(500), "+0.35/12 0.50s"),
            (Score::Centi(-120), 3, ms(1234), "-1.20/3 1.23s"),
            (Score::Mate(-3), 20, ms(10), "-M3/20 0.01s"),
            (Score::Mate(2), 1, ms(0), "+M2/1 0.00s"),
        ] {
            let verdict = Verdict { score, depth };
            let eval = MoveEval { verdict, time };
            assert_eq!(eval.text(), text);
            let comment = format!("{text} a fine move");
            let (read, rest) = MoveEval::read(&comment).unwrap();
            assert_eq!(read.verdict, verdict, "{text}");
            assert_eq!(rest, "a fine move");
            assert_eq!(Verdict::read(&verdict.text()), Some(verdict));
        }
        for words in [
            "a fine move",
            "+0.35 0.5s",
            "+x/12 0.5s",
            "+1/2 3s",
            "+0.35/12 0.5",
        ] {
            assert_eq!(MoveEval::read(words), None, "{words}");
        }
    }

    #[test]
    fn the_verdict_is_the_best_lines_last_score_and_depth() {
        let mut reader = VerdictReader::default();
        reader.hear("info depth 1 nodes 5");
        assert_eq!(reader.verdict(), None, "no score yet");
        for line in [
            "info depth 3 multipv 1 score cp 20 pv d5f5",
            "info depth 3 multipv 2 score cp -40 pv b5d5",
            "info string thinking",
            "info depth 4 score mate 2 pv d5f5",
            "bestmove d5f5",
        ] {
            reader.hear(line);
        }
        let expected = Verdict {
            score: Score::Mate(2),
            depth: 4,
        };
        assert_eq!(reader.verdict(), Some(expected));
    }
}
