//! Moves and their notation: an opening removal `d5`, a jump `f5d5`, a multi-leg jump `b5d5d7`.
//!
//! A move parses without a board; whether it is legal is the position's question.

use crate::rules::square::{Direction, Square, SquareError};
use std::fmt;
use std::str::FromStr;

/// The most jumps one move may make (a `turning` path longer than this is not generated).
pub const MAX_JUMPS: u8 = 32;

/// The longest move text accepted: 33 squares of 3 characters.
const MAX_MOVE_TEXT: usize = 3 * (MAX_JUMPS as usize + 1);

/// An opening removal, or a jump path: a start square and the direction of each single jump.
/// Its text names the start and the end of each straight leg (`d5` removes, `f5d5` jumps
/// once, `f5b5` twice in a line, `f5d5d3` twice with a turn).
///
/// ```
/// use konane::Move;
///
/// let jump: Move = "f5b5".parse()?;
/// assert_eq!(jump.to_string(), "f5b5");
/// assert_eq!(jump.jump_count(), 2);
/// assert!("d5".parse::<Move>()?.is_removal());
/// assert!("f5d5b5".parse::<Move>().is_err()); // one straight leg is written f5b5
/// assert!("f5d6".parse::<Move>().is_err()); // a jump goes two squares in a line
/// # Ok::<(), konane::MoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    jumps: u8,
    /// Two bits per jump, the first jump in the lowest bits.
    directions: u64,
}

impl Move {
    /// The opening removal of the stone on `square`.
    pub fn removal(square: Square) -> Move {
        Move {
            from: square,
            jumps: 0,
            directions: 0,
        }
    }

    /// A jump of `count` (1..=`MAX_JUMPS`) single jumps from `from`, all towards `direction`.
    pub fn straight(from: Square, direction: Direction, count: u8) -> Move {
        debug_assert!((1..=MAX_JUMPS).contains(&count));
        let pattern = 0x5555_5555_5555_5555u64 * direction.index() as u64;
        Move {
            from,
            jumps: count,
            directions: pattern & (u64::MAX >> (64 - 2 * u32::from(count))),
        }
    }

    /// This path extended by one more jump towards `direction`; `None` past `MAX_JUMPS`.
    pub fn then(self, direction: Direction) -> Option<Move> {
        (self.jumps < MAX_JUMPS).then(|| Move {
            from: self.from,
            jumps: self.jumps + 1,
            directions: self.directions | (direction.index() as u64) << (2 * self.jumps),
        })
    }

    fn then_repeat(self, direction: Direction, count: u8) -> Move {
        (0..count).fold(self, |path, _| {
            path.then(direction)
                .expect("a straight path fits MAX_JUMPS")
        })
    }

    /// True for an opening removal.
    pub fn is_removal(self) -> bool {
        self.jumps == 0
    }

    /// The square emptied by a removal, or where a jumping stone starts.
    pub fn from(self) -> Square {
        self.from
    }

    /// The number of single jumps (stones captured); 0 for a removal.
    pub fn jump_count(self) -> u8 {
        self.jumps
    }

    /// The direction of each single jump, in order.
    pub fn directions(self) -> impl Iterator<Item = Direction> {
        (0..self.jumps).map(move |i| Direction::ALL[(self.directions >> (2 * i) & 3) as usize])
    }

    /// True when every jump goes the same way (always so for a removal or a single jump).
    pub fn is_straight(self) -> bool {
        let mut directions = self.directions();
        let first = directions.next();
        directions.all(|d| Some(d) == first)
    }

    /// The squares the move touches: its start, then each jumped square and landing square
    /// in turn (cut short where the path would leave `a1`..`z26`).
    pub fn touched_squares(self) -> Vec<Square> {
        let mut squares = vec![self.from];
        let mut at = self.from;
        for direction in self.directions() {
            for _ in 0..2 {
                match at.offset(direction, 1) {
                    Some(next) => {
                        squares.push(next);
                        at = next;
                    }
                    None => return squares,
                }
            }
        }
        squares
    }

    /// The squares the stone lands on, one per single jump (none for a removal).
    pub fn landings(self) -> Vec<Square> {
        self.touched_squares()
            .into_iter()
            .skip(2)
            .step_by(2)
            .collect()
    }

    /// The squares named in the notation: the start, then the end of every straight leg.
    /// `None` if the path leaves `a1`..`z26` (it cannot be legal anywhere).
    pub fn waypoints(self) -> Option<Vec<Square>> {
        let mut points = vec![self.from];
        let mut at = self.from;
        let mut previous = None;
        for direction in self.directions() {
            at = at.offset(direction, 2)?;
            if previous == Some(direction) {
                points.pop();
            }
            points.push(at);
            previous = Some(direction);
        }
        Some(points)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.waypoints() {
            Some(points) => points.iter().try_for_each(|square| write!(f, "{square}")),
            None => write!(
                f,
                "{}+{:?}",
                self.from,
                self.directions().collect::<Vec<_>>()
            ),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// Why a move's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// No text at all.
    Empty,
    /// More text than any move can have.
    TooLong(usize),
    /// One of the squares is malformed.
    BadSquare(SquareError),
    /// Two consecutive squares share neither a file nor a rank, or are the same square.
    NotInLine(Square, Square),
    /// A leg covers an odd number of squares: each jump moves exactly two.
    OddDistance(Square, Square),
    /// Two consecutive legs go the same way: they are one leg, written without the middle square.
    SplitLeg(Square, Square, Square),
    /// The path makes more than `MAX_JUMPS` jumps.
    TooManyJumps,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "empty move"),
            MoveError::TooLong(n) => write!(f, "move text too long ({n} bytes)"),
            MoveError::BadSquare(e) => write!(f, "{e}"),
            MoveError::NotInLine(a, b) => {
                write!(f, "{a} to {b} is not along one file or rank")
            }
            MoveError::OddDistance(a, b) => write!(
                f,
                "{a} to {b} is an odd number of squares: every jump moves two"
            ),
            MoveError::SplitLeg(a, b, c) => {
                write!(f, "{a}{b}{c} goes on the same way: write it {a}{c}")
            }
            MoveError::TooManyJumps => write!(f, "more than {MAX_JUMPS} jumps in one move"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Splits move text into its squares: a letter, then digits, again and again.
fn split_squares(text: &str) -> Result<Vec<Square>, MoveError> {
    let mut squares = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let letter_len = rest.chars().next().map_or(0, char::len_utf8);
        let digits = rest[letter_len..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - letter_len);
        let (square, tail) = rest.split_at(letter_len + digits);
        squares.push(square.parse().map_err(MoveError::BadSquare)?);
        rest = tail;
    }
    Ok(squares)
}

impl FromStr for Move {
    type Err = MoveError;

    fn from_str(text: &str) -> Result<Move, MoveError> {
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        if text.len() > MAX_MOVE_TEXT {
            return Err(MoveError::TooLong(text.len()));
        }
        let squares = split_squares(text)?;
        let mut path = Move::removal(squares[0]);
        let mut previous: Option<Direction> = None;
        for (i, pair) in squares.windows(2).enumerate() {
            let (from, to) = (pair[0], pair[1]);
            let (direction, distance) =
                Direction::between(from, to).ok_or(MoveError::NotInLine(from, to))?;
            if distance % 2 == 1 {
                return Err(MoveError::OddDistance(from, to));
            }
            if previous == Some(direction) {
                return Err(MoveError::SplitLeg(squares[i - 1], from, to));
            }
            if u32::from(path.jumps) + u32::from(distance / 2) > u32::from(MAX_JUMPS) {
                return Err(MoveError::TooManyJumps);
            }
            path = path.then_repeat(direction, distance / 2);
            previous = Some(direction);
        }
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    fn names(squares: Vec<Square>) -> Vec<String> {
        squares.iter().map(Square::to_string).collect()
    }

    #[test]
    fn a_jump_touches_its_squares_and_lands_on_every_second() {
        let turning: Move = "b5d5d7".parse().unwrap();
        assert_eq!(
            names(turning.touched_squares()),
            ["b5", "c5", "d5", "d6", "d7"]
        );
        assert_eq!(names(turning.landings()), ["d5", "d7"]);
        let double: Move = "f5b5".parse().unwrap();
        assert_eq!(names(double.landings()), ["d5", "b5"]);
        let removal: Move = "d5".parse().unwrap();
        assert_eq!(names(removal.touched_squares()), ["d5"]);
        assert!(removal.landings().is_empty(), "a removal lands nowhere");
    }

    #[test]
    fn notation_round_trips() {
        for text in [
            "d5",
            "f5d5",
            "f5b5",
            "b5d5d7",
            "a1a3c3c1a1",
            "z26z2",
            "a10a14",
        ] {
            let parsed: Move = text.parse().unwrap();
            assert_eq!(parsed.to_string(), text);
        }
    }

    #[test]
    fn paths_carry_their_jumps() {
        let double: Move = "f5b5".parse().unwrap();
        assert_eq!(double, Move::straight(sq("f5"), Direction::West, 2));
        assert_eq!(double.jump_count(), 2);
        assert!(double.is_straight());
        let turning: Move = "b5d5d7".parse().unwrap();
        assert_eq!(
            turning.directions().collect::<Vec<_>>(),
            [Direction::East, Direction::North]
        );
        assert!(!turning.is_straight());
        assert!(Move::removal(sq("d5")).is_removal());
    }

    #[test]
    fn malformed_moves_name_the_fault() {
        let cases = [
            ("", "empty move"),
            ("f5", ""),
            ("f5d", "bad square 'd'"),
            ("F5D5", "bad square 'F5'"),
            ("f5-d5", "bad square '-'"),
            ("f5e4", "f5 to e4 is not along"),
            ("f5f5", "f5 to f5 is not along"),
            ("f5f2", "odd number"),
            ("b5d5f5", "write it b5f5"),
            ("a0", "bad square 'a0'"),
            ("é5", "bad square 'é5'"),
        ];
        for (text, expected) in cases {
            match text.parse::<Move>() {
                Ok(_) => assert!(expected.is_empty(), "{text} parsed"),
                Err(e) => assert!(e.to_string().contains(expected), "{text}: {e}"),
            }
        }
        assert_eq!(
            "a1".repeat(200).parse::<Move>(),
            Err(MoveError::TooLong(400))
        );
        let long_path: String = (0..17)
            .map(|i| if i % 2 == 0 { "a1a5" } else { "c5c1" })
            .collect();
        assert!(long_path.parse::<Move>().is_err());
    }
}
