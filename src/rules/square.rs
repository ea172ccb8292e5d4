//! Colours, squares and directions: the board-independent vocabulary of the rules.

use std::fmt;
use std::str::FromStr;

/// The largest number of files or ranks a board may have (files are `a`..`z`).
pub const MAX_SIDE: u8 = 26;
/// The smallest number of files or ranks a board may have.
pub const MIN_SIDE: u8 = 2;

/// A player's colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player (UGI's `p1`).
    Black,
    /// The second player (UGI's `p2`).
    White,
}

impl Color {
    /// Both colours, in the order of [`Color::index`]: Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The colour of the stone that starts on `square`: black exactly when file + rank is odd.
    pub fn of_start_square(square: Square) -> Color {
        if (square.file() + square.rank()) % 2 == 1 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The place of this colour's entry in a pair kept Black first (clocks, seats, players).
    pub fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The lower-case name, `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The one-letter code used in position strings, `b` or `w`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square named by its file (`a` = 0) and rank (`1` = 0), on a board of up to 26x26.
///
/// `Display` and `FromStr` are the notation: `d5`, `a10`, `z26`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    file: u8,
    rank: u8,
}

impl Square {
    /// The square at `file` and `rank` (both from 0), or `None` beyond `z26`.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < MAX_SIDE && rank < MAX_SIDE).then_some(Square { file, rank })
    }

    /// The file index, `a` = 0.
    pub fn file(self) -> u8 {
        self.file
    }

    /// The rank index, rank `1` = 0.
    pub fn rank(self) -> u8 {
        self.rank
    }

    /// The square `steps` away in `direction`, or `None` if that leaves `a1`..`z26`.
    pub fn offset(self, direction: Direction, steps: u8) -> Option<Square> {
        let (df, dr) = direction.delta();
        let file = i16::from(self.file) + i16::from(df) * i16::from(steps);
        let rank = i16::from(self.rank) + i16::from(dr) * i16::from(steps);
        Square::new(u8::try_from(file).ok()?, u8::try_from(rank).ok()?)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file), self.rank + 1)
    }
}

/// Why a square's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// The text does not start with a file letter `a`..`z`.
    BadFile(String),
    /// The rank after the file letter is missing, not a number, or outside 1..=26.
    BadRank(String),
}

impl fmt::Display for SquareError {
    /// Names the text read, control characters escaped (`'\u{1b}'`) so that a message never
    /// sends them raw to a terminal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The notation is lowercase, as the protocol's; a capital is told how to write it.
            SquareError::BadFile(text) if text.starts_with(|c: char| c.is_ascii_uppercase()) => {
                let lower = text.to_ascii_lowercase();
                let (text, lower) = (text.escape_debug(), lower.escape_debug());
                write!(
                    f,
                    "bad square '{text}': files are lowercase letters a..z (write '{lower}')"
                )
            }
            SquareError::BadFile(text) => {
                let text = text.escape_debug();
                write!(f, "bad square '{text}': expected a file letter a..z first")
            }
            SquareError::BadRank(text) => {
                let text = text.escape_debug();
                write!(
                    f,
                    "bad square '{text}': expected a rank 1..26 after the file"
                )
            }
        }
    }
}

impl std::error::Error for SquareError {}

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(text: &str) -> Result<Square, SquareError> {
        let mut chars = text.chars();
        let file = match chars.next() {
            Some(c @ 'a'..='z') => c as u8 - b'a',
            _ => return Err(SquareError::BadFile(text.to_string())),
        };
        let digits = chars.as_str();
        let valid = !digits.is_empty()
            && digits.len() <= 2
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !digits.starts_with('0');
        let rank: u8 = match digits.parse() {
            Ok(rank @ 1..=MAX_SIDE) if valid => rank,
            _ => return Err(SquareError::BadRank(text.to_string())),
        };
        Ok(Square {
            file,
            rank: rank - 1,
        })
    }
}

/// One of the four orthogonal directions a stone may jump in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards higher ranks.
    North,
    /// Towards higher files.
    East,
    /// Towards lower ranks.
    South,
    /// Towards lower files.
    West,
}

impl Direction {
    /// All four directions, in the order used for move generation.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The (file, rank) change of one step.
    pub fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }

    /// The index of this direction in [`Direction::ALL`], 0..4.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction from `from` to `to` when they share a file or a rank, with the distance.
    pub fn between(from: Square, to: Square) -> Option<(Direction, u8)> {
        use std::cmp::Ordering::*;
        match (to.file.cmp(&from.file), to.rank.cmp(&from.rank)) {
            (Equal, Greater) => Some((Direction::North, to.rank - from.rank)),
            (Equal, Less) => Some((Direction::South, from.rank - to.rank)),
            (Greater, Equal) => Some((Direction::East, to.file - from.file)),
            (Less, Equal) => Some((Direction::West, from.file - to.file)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_through_text() {
        for file in 0..MAX_SIDE {
            for rank in 0..MAX_SIDE {
                let square = Square::new(file, rank).unwrap();
                assert_eq!(square.to_string().parse::<Square>(), Ok(square));
            }
        }
    }

    #[test]
    fn malformed_squares_name_the_fault() {
        for text in ["", "A1", "11", "-1", "é1"] {
            assert!(
                matches!(text.parse::<Square>(), Err(SquareError::BadFile(_))),
                "{text}"
            );
        }
        for text in ["a", "a0", "a27", "a01", "a1x", "a+1", "a999"] {
            assert!(
                matches!(text.parse::<Square>(), Err(SquareError::BadRank(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn a_capital_file_is_told_the_lowercase_spelling() {
        let error = "D1".parse::<Square>().unwrap_err().to_string();
        assert_eq!(
            error,
            "bad square 'D1': files are lowercase letters a..z (write 'd1')"
        );
        let error = "1d".parse::<Square>().unwrap_err().to_string();
        assert_eq!(error, "bad square '1d': expected a file letter a..z first");
    }

    #[test]
    fn start_colours_follow_the_convention() {
        let colour = |s: &str| Color::of_start_square(s.parse().unwrap());
        assert_eq!(colour("a1"), Color::White);
        for s in ["d5", "e4", "a8", "h1"] {
            assert_eq!(colour(s), Color::Black, "{s}");
        }
        for s in ["d4", "e5", "h8"] {
            assert_eq!(colour(s), Color::White, "{s}");
        }
    }
}
