//! The values of Konane positions as combinatorial games: Black is Left, White is Right, and
//! a position is the game whose Left options are the positions after Black's moves and whose
//! Right options those after White's. A position is the sum of its independent regions
//! ([`Position::regions`]), so each region is valued once and the parts added.

use crate::cgt::{Game, Games, Outcome};
use crate::rules::mix::{absorb, splitmix64};
use crate::rules::position::BoardVisitor;
use crate::rules::{Bits, Board, Color, Phase, Position, Square};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a position has no value here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// The opening removals are not over: values start once every move is a capture.
    Opening,
    /// Valuing it needs more distinct positions than the limit allows.
    TooLarge {
        /// The limit that was reached.
        limit: u64,
    },
    /// The stop flag was set.
    Stopped,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::Opening => write!(
                f,
                "the opening removals are not over: values start once every move is a capture"
            ),
            ValueError::TooLarge { limit } => write!(
                f,
                "the position needs more than {limit} distinct positions to value: give a \
                 larger limit, or a position with fewer stones"
            ),
            ValueError::Stopped => write!(f, "stopped before the value was known"),
        }
    }
}

impl std::error::Error for ValueError {}

/// One independent region of a position and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionValue {
    /// The squares of the region's stones.
    pub squares: Vec<Square>,
    /// The region's value, a canonical game of [`Values::games`].
    pub value: Game,
}

/// A position's regions with their values, and their sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionValue {
    /// The independent regions, in order of their lowest square.
    pub regions: Vec<RegionValue>,
    /// The sum of the regions: the value of the whole position.
    pub total: Game,
    /// The outcome class of the total: who wins as either player starts.
    pub outcome: Outcome,
    /// Who wins with perfect play, the side to move starting.
    pub winner: Color,
}

/// The outcome class in words, for people: who wins, and when.
pub fn outcome_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Left => "Black wins whoever starts",
        Outcome::Right => "White wins whoever starts",
        Outcome::Next => "the player to move wins",
        Outcome::Previous => "the player to move loses",
    }
}

/// A position's stones, whoever is to move, as a 128-bit fingerprint: the key of a value.
/// Two lanes of splitmix64 steps (the first one [`absorb`] each), each from its own seed, take
/// in the rules, Black's squares, a separator, then White's; two different positions share a
/// fingerprint with odds of about one in 2^128 (for 10^8 positions valued, one in 10^22 that
/// any two do). Kept in 16 bytes instead of a list of squares (9x3 at the corner: 356 MB
/// against 487 MB).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Stones(u64, u64);

impl Stones {
    fn of<B: Bits>(board: &Board<B>) -> Stones {
        let rules = board.rules();
        let header = u64::from(rules.width())
            | u64::from(rules.height()) << 8
            | (rules.opening as u64) << 16
            | (rules.capture as u64) << 24;
        // No square has this index: it ends Black's squares.
        const SEPARATOR: u64 = u64::MAX;
        let items = std::iter::once(header)
            .chain(board.stones(Color::Black).squares().map(|i| i as u64))
            .chain(std::iter::once(SEPARATOR))
            .chain(board.stones(Color::White).squares().map(|i| i as u64));
        let (mut first, mut second) = (0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344_u64);
        for item in items {
            first = absorb(first, item);
            // The second lane mixes each item differently, so that it does not repeat the first.
            second = splitmix64(second.rotate_left(29) ^ item.wrapping_mul(0xd6e8_feb8_6659_fd93));
        }
        Stones(first, second)
    }
}

/// [`Values::value`] on a board of one width.
struct Valuing<'v> {
    values: &'v mut Values,
    stop: &'v AtomicBool,
}

impl BoardVisitor for Valuing<'_> {
    type Output = Result<PositionValue, ValueError>;

    fn visit<B: Bits>(self, board: &Board<B>) -> Self::Output {
        let stones = board.region_stones();
        let (parts, total) = self.values.sum_of_regions(board, &stones, self.stop)?;
        let rules = board.rules();
        let regions = (stones.iter().zip(parts))
            .map(|(region, value)| RegionValue {
                squares: region.squares().map(|i| rules.square(i)).collect(),
                value,
            })
            .collect();
        let outcome = self.values.games.outcome(total);
        let black_starts = board.side_to_move() == Color::Black;
        let winner = if outcome.left_wins(black_starts) {
            Color::Black
        } else {
            Color::White
        };
        Ok(PositionValue {
            regions,
            total,
            outcome,
            winner,
        })
    }
}

/// Values of positions, with every region valued so far remembered.
///
/// ```
/// use konane::value::Values;
/// use konane::{Capture, Color, Opening, Position};
/// use std::sync::atomic::AtomicBool;
///
/// let never = AtomicBool::new(false);
/// let mut values = Values::new(1_000_000);
/// // Black's a1 can jump b1 and land on c1; White's b1 has nowhere to land: one move for Black.
/// let position = Position::from_fen("4/4/bw2 w", Opening::Any, Capture::Straight)?;
/// let value = values.value(&position, &never)?;
/// assert_eq!(values.games().notation(value.total), "1");
/// // White, to move, has no move and loses.
/// assert_eq!(value.winner, Color::Black);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Values {
    games: Games,
    known: HashMap<Stones, Game>,
    limit: u64,
}

/// The default limit of positions to value, for the command line and Python: about 2 GB, at
/// some 60 bytes a position with its games (10x3 at the corner: 14.6M positions in 0.89 GB).
pub const DEFAULT_LIMIT: u64 = 30_000_000;

/// How many new positions are valued between looks at the stop flag.
const STOP_EVERY: usize = 4096;

impl Values {
    /// An empty memory, valuing at most `limit` distinct positions in all.
    pub fn new(limit: u64) -> Values {
        Values {
            games: Games::new(),
            known: HashMap::new(),
            limit,
        }
    }

    /// Lets `more` positions be valued beyond those valued so far.
    pub fn allow(&mut self, more: u64) {
        self.limit = self.positions().saturating_add(more);
    }

    /// The games the values are handles of: to write, compare or add them.
    pub fn games(&mut self) -> &mut Games {
        &mut self.games
    }

    /// How many distinct positions have been valued.
    pub fn positions(&self) -> u64 {
        self.known.len() as u64
    }

    /// The value of `position` and of each of its independent regions. Refused during the
    /// opening removals, past the limit of positions, or once `stop` is set.
    pub fn value(
        &mut self,
        position: &Position,
        stop: &AtomicBool,
    ) -> Result<PositionValue, ValueError> {
        let empty = position.rules().area() - position.stone_total() as usize;
        if position.phase() != Phase::Jumps || empty < 2 {
            return Err(ValueError::Opening);
        }
        position.visit(Valuing { values: self, stop })
    }

    /// The value of each of `board`'s `regions` (its [`Board::region_stones`]) and their sum.
    fn sum_of_regions<B: Bits>(
        &mut self,
        board: &Board<B>,
        regions: &[B],
        stop: &AtomicBool,
    ) -> Result<(Vec<Game>, Game), ValueError> {
        let mut parts = Vec::with_capacity(regions.len());
        for &stones in regions {
            parts.push(self.value_of(&board.keep_only(stones), stop)?);
        }
        let total = self.games.sum_all(&parts);
        Ok((parts, total))
    }

    /// The value of a position of one region or more, remembered by its stones.
    fn value_of<B: Bits>(
        &mut self,
        board: &Board<B>,
        stop: &AtomicBool,
    ) -> Result<Game, ValueError> {
        let key = Stones::of(board);
        if let Some(&known) = self.known.get(&key) {
            return Ok(known);
        }
        if self.positions() >= self.limit {
            return Err(ValueError::TooLarge { limit: self.limit });
        }
        if self.known.len().is_multiple_of(STOP_EVERY) && stop.load(Ordering::Relaxed) {
            return Err(ValueError::Stopped);
        }
        let regions = board.region_stones();
        let value = if regions.len() > 1 {
            self.sum_of_regions(board, &regions, stop)?.1
        } else {
            let left = self.options(&board.with_side_to_move(Color::Black), stop)?;
            let right = self.options(&board.with_side_to_move(Color::White), stop)?;
            self.games.game(&left, &right)
        };
        self.known.insert(key, value);
        Ok(value)
    }

    /// The values of the positions after each move of the side to move.
    fn options<B: Bits>(
        &mut self,
        board: &Board<B>,
        stop: &AtomicBool,
    ) -> Result<Vec<Game>, ValueError> {
        let mut options = Vec::new();
        for mv in board.legal_moves() {
            let mut after = *board;
            after.play_unchecked(mv);
            options.push(self.value_of(&after, stop)?);
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests;
