//! Position strings: ranks from the top separated by `/`, `b` / `w` stones, digits for runs of
//! empty squares, then the side to move. This module reads and writes the text only; what the
//! position allows is the board's business.

use crate::rules::RulesError;
use crate::rules::square::{Color, MAX_SIDE, MIN_SIDE};
use std::fmt;

/// The longest position string accepted (a 26x26 board needs at most 704 bytes).
pub const MAX_FEN_LEN: usize = 1024;

/// A position as written: its size, the stone on each square and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Number of files.
    pub width: usize,
    /// Number of ranks.
    pub height: usize,
    /// Rank by rank from rank 1 (the bottom), file by file from `a`.
    pub squares: Vec<Option<Color>>,
    /// Whose turn it is.
    pub side: Color,
}

/// Why a position string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// No text at all.
    Empty,
    /// More text than any position needs.
    TooLong(usize),
    /// The text has no side to move after the board.
    MissingSide,
    /// The side to move is not `b` or `w`.
    BadSide(String),
    /// Something follows the side to move.
    Trailing(String),
    /// A character other than `b`, `w`, a digit or `/` in the board part.
    BadChar {
        /// The rank's number on the board (the first rank written is the top one).
        rank: usize,
        /// The offending character.
        found: char,
    },
    /// An empty-square run of zero, or of more squares than any board has.
    BadRun {
        /// The rank's number on the board.
        rank: usize,
        /// The run's text.
        run: String,
    },
    /// A rank whose squares do not add up to the first rank's.
    RankWidth {
        /// The rank's number on the board.
        rank: usize,
        /// How many squares it has.
        found: usize,
        /// How many the top rank has.
        expected: usize,
    },
    /// The size the text implies is outside 2..=26.
    Size(RulesError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty position string"),
            FenError::TooLong(n) => write!(
                f,
                "position string too long ({n} bytes, at most {MAX_FEN_LEN})"
            ),
            FenError::MissingSide => write!(
                f,
                "position string has no side to move: end it with ' b' or ' w'"
            ),
            FenError::BadSide(side) => {
                write!(f, "bad side to move '{side}': expected 'b' or 'w'")
            }
            FenError::Trailing(text) => {
                write!(f, "unexpected '{text}' after the side to move")
            }
            FenError::BadChar { rank, found } => write!(
                f,
                "unexpected character '{found}' in rank {rank}: expected b, w, a number or /"
            ),
            FenError::BadRun { rank, run } => {
                write!(f, "bad run of empty squares '{run}' in rank {rank}")
            }
            FenError::RankWidth {
                rank,
                found,
                expected,
            } => write!(
                f,
                "rank {rank} has {found} squares but the top rank has {expected}"
            ),
            FenError::Size(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads one rank's text into `row`, counting squares; `rank` is its number on the board.
fn parse_rank(text: &str, rank: usize) -> Result<Vec<Option<Color>>, FenError> {
    let mut row = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_digit() {
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let (run, tail) = rest.split_at(end);
            let count = run
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=usize::from(MAX_SIDE)).contains(n))
                .ok_or_else(|| FenError::BadRun {
                    rank,
                    run: run.to_string(),
                })?;
            row.extend(std::iter::repeat_n(None, count));
            rest = tail;
        } else {
            row.push(match c {
                'b' => Some(Color::Black),
                'w' => Some(Color::White),
                found => return Err(FenError::BadChar { rank, found }),
            });
            rest = &rest[c.len_utf8()..];
        }
        if row.len() > usize::from(MAX_SIDE) {
            break;
        }
    }
    Ok(row)
}

impl Diagram {
    /// Reads a position string such as `bwbw/wbwb/bwbw/wbwb b`.
    pub fn parse(text: &str) -> Result<Diagram, FenError> {
        if text.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(text.len()));
        }
        let mut words = text.split_whitespace();
        let board = words.next().ok_or(FenError::Empty)?;
        // A character that has no place in a board is named before anything else is judged.
        let ranks: Vec<&str> = board.split('/').collect();
        for (i, rank_text) in ranks.iter().enumerate() {
            if let Some(found) = rank_text
                .chars()
                .find(|c| !matches!(c, 'b' | 'w' | '0'..='9'))
            {
                return Err(FenError::BadChar {
                    rank: ranks.len() - i,
                    found,
                });
            }
        }
        let side = match words.next() {
            None => return Err(FenError::MissingSide),
            Some("b") => Color::Black,
            Some("w") => Color::White,
            Some(other) => return Err(FenError::BadSide(other.to_string())),
        };
        if let Some(extra) = words.next() {
            return Err(FenError::Trailing(extra.to_string()));
        }
        let texts: Vec<&str> = board.split('/').collect();
        let height = texts.len();
        let size_error = |width| FenError::Size(RulesError::BadSize { width, height });
        if !(usize::from(MIN_SIDE)..=usize::from(MAX_SIDE)).contains(&height) {
            let width = parse_rank(texts[0], height).map_or(0, |row| row.len());
            return Err(size_error(width));
        }
        let mut rows = Vec::with_capacity(height);
        for (i, rank_text) in texts.iter().enumerate() {
            let rank = height - i;
            let row = parse_rank(rank_text, rank)?;
            if i == 0 && !(usize::from(MIN_SIDE)..=usize::from(MAX_SIDE)).contains(&row.len()) {
                return Err(size_error(row.len()));
            }
            if let Some(first) = rows.first().map(Vec::len)
                && row.len() != first
            {
                return Err(FenError::RankWidth {
                    rank,
                    found: row.len(),
                    expected: first,
                });
            }
            rows.push(row);
        }
        let width = rows[0].len();
        let squares = rows.into_iter().rev().flatten().collect();
        Ok(Diagram {
            width,
            height,
            squares,
            side,
        })
    }
}

impl fmt::Display for Diagram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..self.height).rev() {
            let row = &self.squares[rank * self.width..(rank + 1) * self.width];
            let mut empty = 0;
            for square in row {
                match square {
                    None => empty += 1,
                    Some(color) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", color.letter())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.side.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AFTER_D5_C5: &str =
        "bwbwbwbw/wbwbwbwb/bwbwbwbw/wb2wbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";

    #[test]
    fn reads_and_writes_the_rules_example() {
        let diagram = Diagram::parse(AFTER_D5_C5).unwrap();
        assert_eq!((diagram.width, diagram.height), (8, 8));
        assert_eq!(diagram.squares.iter().filter(|s| s.is_none()).count(), 2);
        assert_eq!(diagram.squares[2 + 4 * 8], None, "c5 is empty");
        assert_eq!(diagram.to_string(), AFTER_D5_C5);
    }

    #[test]
    fn multi_digit_runs_and_rectangles() {
        let text = "12bw/14 w";
        let diagram = Diagram::parse(text).unwrap();
        assert_eq!((diagram.width, diagram.height), (14, 2));
        assert_eq!(diagram.to_string(), text);
    }

    #[test]
    fn malformed_strings_name_the_fault() {
        let huge = "b".repeat(5000);
        let wide = format!("{}/{} b", "b".repeat(27), "b".repeat(27));
        let tall = format!("{} b", vec!["bw"; 27].join("/"));
        let cases: Vec<(&str, &str)> = vec![
            ("", "empty position string"),
            ("   ", "empty position string"),
            ("bw/wb", "no side to move"),
            ("bw/wb x", "bad side to move 'x'"),
            ("bw/wb b extra", "unexpected 'extra'"),
            ("bw/wx b", "unexpected character 'x' in rank 1"),
            ("bw/w?/bw b", "unexpected character '?' in rank 2"),
            ("bw/wbw b", "rank 1 has 3 squares but the top rank has 2"),
            ("bw/0bw b", "bad run of empty squares '0' in rank 1"),
            ("bw/99999999999999999999 b", "bad run of empty squares"),
            ("bw b", "size 2x1"),
            ("b/w b", "size 1x2"),
            (&huge, "too long"),
            (&wide, "size 27x2"),
            (&tall, "size 2x27"),
            ("bw//bw b", "rank 2 has 0 squares"),
            ("garbage", "unexpected character 'g' in rank 1"),
            (
                "\u{20ac}\u{20ac} b",
                "unexpected character '\u{20ac}' in rank 1",
            ),
        ];
        for (text, expected) in cases {
            let error = Diagram::parse(text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }
}
