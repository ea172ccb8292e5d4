//! The line patterns kept up to date as stones leave the board, so that the search reads a
//! position's pattern sums at a leaf instead of every window of the board.
//!
//! The accumulator holds each window's pattern in fixed colours (Black where a pattern says
//! "ours", White where it says "theirs") and the sums of the windows' weights from each
//! side's view. A move changes a few squares; each changed square lies in at most sixteen
//! windows, whose patterns and the sums are mended. A change of a square's colour bits is an
//! exclusive or on its two bits of each window, so flipping the same bits again takes a move
//! back: the search applies a move's changes before it searches the move, then flips them
//! back and restores the sums it kept.

use super::pattern_weights::PATTERN_WEIGHTS;
use super::patterns::{EMPTY, OFF_BOARD, OURS, PATTERNS, THEIRS};
use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::square::Color;

/// A Black stone's code in a window's pattern: the patterns' "ours" read as Black.
const BLACK: u8 = OURS;
/// A White stone's code in a window's pattern: the patterns' "theirs" read as White.
const WHITE: u8 = THEIRS;

/// The directions of windows, in the order of a window's index: east, west, north, south.
const DIRECTIONS: usize = 4;

/// The pattern weights by fixed colours: for each pattern (Black as "ours"), its weights on an
/// empty and on a full board from Black's view, then from White's (the same pattern with the
/// colours swapped).
static WEIGHTS_BY_VIEW: [[i32; 4]; PATTERNS] = {
    let mut table = [[0; 4]; PATTERNS];
    let [empty, full] = PATTERN_WEIGHTS;
    let mut pattern = 0;
    while pattern < PATTERNS {
        let swapped = swap_colours(pattern);
        table[pattern] = [empty[pattern], full[pattern], empty[swapped], full[swapped]];
        pattern += 1;
    }
    table
};

/// `pattern` with Black and White exchanged on each of its squares (empty and off-board
/// squares stay).
const fn swap_colours(pattern: usize) -> usize {
    let mut swapped = 0;
    let mut square = 0;
    while square < 4 {
        let kind = match ((pattern >> (2 * square)) & 3) as u8 {
            BLACK => WHITE,
            WHITE => BLACK,
            other => other,
        };
        swapped |= (kind as usize) << (2 * square);
        square += 1;
    }
    swapped
}

/// The sums of an [`Accumulator`] at one time, to restore them.
#[derive(Clone, Copy, Debug)]
pub struct Sums([i32; 4]);

/// Each window's pattern and the sums of their weights, for one board.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    width: usize,
    height: usize,
    /// Window `square * 4 + direction`'s pattern in fixed colours.
    patterns: Vec<u8>,
    /// The sums over the windows of [`WEIGHTS_BY_VIEW`]'s four columns.
    sums: [i32; 4],
}

impl Accumulator {
    /// The accumulator of `board`, every window read.
    pub fn new<B: Bits>(board: &Board<B>) -> Accumulator {
        let rules = board.rules();
        let (width, height) = (usize::from(rules.width()), usize::from(rules.height()));
        let (black, white) = (board.stones(Color::Black), board.stones(Color::White));
        let mut accumulator = Accumulator {
            width,
            height,
            patterns: vec![0; DIRECTIONS * width * height],
            sums: [0; 4],
        };
        for start in 0..width * height {
            for direction in 0..DIRECTIONS {
                let mut pattern = 0;
                for (place, square) in window_squares(width, height, start, direction) {
                    let kind = match square {
                        None => OFF_BOARD,
                        Some(square) if black.has(square) => BLACK,
                        Some(square) if white.has(square) => WHITE,
                        Some(_) => EMPTY,
                    };
                    pattern |= kind << (2 * place);
                }
                accumulator.patterns[start * DIRECTIONS + direction] = pattern;
                accumulator.add(usize::from(pattern));
            }
        }
        accumulator
    }

    /// Mends the windows and the sums for the squares whose Black stone (`black`) or White
    /// stone (`white`) came or went (a move's changes are `before ^ after` for each colour, as
    /// [`Accumulator::changes`] gives them); returns the sums from before, for
    /// [`Accumulator::take_back`].
    pub fn apply<B: Bits>(&mut self, black: B, white: B) -> Sums {
        let before = Sums(self.sums);
        let mut change = [0; 4];
        self.flip_all(black, white, |old, new| {
            let (old, new) = (WEIGHTS_BY_VIEW[old], WEIGHTS_BY_VIEW[new]);
            for column in 0..4 {
                change[column] += new[column] - old[column];
            }
        });
        for (sum, change) in self.sums.iter_mut().zip(change) {
            *sum += change;
        }
        before
    }

    /// Takes back [`Accumulator::apply`] of the same changes, which returned `before`: the
    /// patterns flip back (flipping is its own inverse) and the sums are restored.
    pub fn take_back<B: Bits>(&mut self, black: B, white: B, before: Sums) {
        self.flip_all(black, white, |_, _| {});
        self.sums = before.0;
    }

    /// The changes that lead from `before` to `after`, for [`Accumulator::apply`].
    pub fn changes<B: Bits>(before: &Board<B>, after: &Board<B>) -> (B, B) {
        let changed = |color| before.stones(color) ^ after.stones(color);
        (changed(Color::Black), changed(Color::White))
    }

    /// The sums of the windows' weights on an empty and on a full board, from `side`'s view.
    pub fn sums(&self, side: Color) -> (i64, i64) {
        let [empty, full] = match side {
            Color::Black => [self.sums[0], self.sums[1]],
            Color::White => [self.sums[2], self.sums[3]],
        };
        (i64::from(empty), i64::from(full))
    }

    /// How many windows the board has.
    pub fn windows(&self) -> usize {
        self.patterns.len()
    }

    /// Flips the colour bits of the changed squares (`black`, `white`) in each window that
    /// holds them, telling `flipped` each window's pattern before and after.
    fn flip_all<B: Bits>(&mut self, black: B, white: B, mut flipped: impl FnMut(usize, usize)) {
        for (changed, bits) in [(black, BLACK), (white, WHITE)] {
            for square in changed.squares() {
                self.flip(square, bits, &mut flipped);
            }
        }
    }

    /// Flips the colour bits `bits` of `square` in each window that holds it.
    fn flip(&mut self, square: usize, bits: u8, flipped: &mut impl FnMut(usize, usize)) {
        let (width, height) = (self.width, self.height);
        let (file, rank) = (square % width, square / width);
        for place in 0..4 {
            // The window that holds `square` as its square `place`, going east, west, north
            // and south: it starts `place` squares back along its direction, if that is on
            // the board.
            let starts = [
                (file >= place).then(|| square - place),
                (file + place < width).then(|| square + place),
                (rank >= place).then(|| square - place * width),
                (rank + place < height).then(|| square + place * width),
            ];
            for (direction, start) in starts.into_iter().enumerate() {
                if let Some(start) = start {
                    let window = &mut self.patterns[start * DIRECTIONS + direction];
                    let old = usize::from(*window);
                    *window ^= bits << (2 * place);
                    flipped(old, usize::from(*window));
                }
            }
        }
    }

    /// Adds the weights of `pattern` to the sums.
    fn add(&mut self, pattern: usize) {
        for (sum, weight) in self.sums.iter_mut().zip(WEIGHTS_BY_VIEW[pattern]) {
            *sum += weight;
        }
    }
}

/// The squares of the window that starts on `start` and goes in `direction` (east, west, north,
/// south), each with its place in the window; `None` past the board's edge.
fn window_squares(
    width: usize,
    height: usize,
    start: usize,
    direction: usize,
) -> impl Iterator<Item = (usize, Option<usize>)> {
    let (file, rank) = ((start % width) as isize, (start / width) as isize);
    let (file_step, rank_step) = [(1, 0), (-1, 0), (0, 1), (0, -1)][direction];
    (0..4).map(move |place| {
        let (file, rank) = (file + place * file_step, rank + place * rank_step);
        let on_board = (0..width as isize).contains(&file) && (0..height as isize).contains(&rank);
        (
            place as usize,
            on_board.then(|| rank as usize * width + file as usize),
        )
    })
}

/// A test helper: plays a random game from `board` (the moves drawn from `seed`), mending an
/// accumulator move by move, and calls `visit` at every position, the last included, with the
/// position, the game's next position (`None` at the end) and the mended accumulator, which
/// `visit` must leave as it found it.
#[cfg(test)]
pub(super) fn walk_random_game<B: Bits>(
    board: &Board<B>,
    seed: u64,
    mut visit: impl FnMut(&Board<B>, Option<&Board<B>>, &mut Accumulator),
) {
    let mut random = crate::rules::mix::Random::new(seed);
    let mut board = *board;
    let mut accumulator = Accumulator::new(&board);
    loop {
        let moves = board.legal_moves();
        if moves.is_empty() {
            visit(&board, None, &mut accumulator);
            return;
        }
        let mut child = board;
        child.play_unchecked(moves[random.below(moves.len())]);
        visit(&board, Some(&child), &mut accumulator);
        let (black, white) = Accumulator::changes(&board, &child);
        accumulator.apply(black, white);
        board = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::BoardVisitor;
    use crate::rules::{Capture, Opening, Position, Rules};

    /// Plays random games and checks, at each position, that the mended accumulator equals
    /// one read from scratch, and so does it after the game's next move and after taking that
    /// move back.
    struct RandomGame(u64);

    impl BoardVisitor for RandomGame {
        type Output = ();

        fn visit<B: Bits>(self, board: &Board<B>) {
            let same = |accumulator: &Accumulator, board: &Board<B>| {
                let fresh = Accumulator::new(board);
                assert_eq!(accumulator.patterns, fresh.patterns);
                assert_eq!(accumulator.sums, fresh.sums);
            };
            walk_random_game(board, self.0, |board, child, accumulator| {
                same(accumulator, board);
                if let Some(child) = child {
                    let (black, white) = Accumulator::changes(board, child);
                    let before = accumulator.apply(black, white);
                    same(accumulator, child);
                    accumulator.take_back(black, white, before);
                    same(accumulator, board);
                }
            });
        }
    }

    #[test]
    fn mended_sums_equal_sums_read_from_scratch() {
        let mut random = crate::rules::mix::Random::new(11);
        for capture in [Capture::Straight, Capture::Turning, Capture::Single] {
            for _ in 0..20 {
                let (width, height) = (2 + random.below(25), 2 + random.below(25));
                let rules = Rules::new(width, height, Opening::Any, capture).unwrap();
                let position = Position::start(rules).unwrap();
                position.visit(RandomGame(random.below(1000) as u64));
            }
        }
    }

    #[test]
    fn swapping_colours_twice_gives_the_pattern_back() {
        for pattern in 0..PATTERNS {
            assert_eq!(swap_colours(swap_colours(pattern)), pattern);
        }
        // Black, White, empty, off the board becomes White, Black, empty, off the board.
        assert_eq!(swap_colours(0b11_00_10_01), 0b11_00_01_10);
    }
}
