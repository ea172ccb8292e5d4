//! Position keys shared by every symmetric image of a position.
//!
//! A stone never leaves squares of its start colour, so a position is its occupancy and the
//! side to move. Once the opening is over the capture rules know no colours: the image of a
//! position under a symmetry that swaps the squares' colours (a quarter turn of an even square
//! board, say), with the colours of the stones and of the side to move swapped too, has the
//! same value for the side to move. So every symmetry of the board applies: eight on a square
//! board, four on a rectangle. During the opening the removal rules name colours, and only
//! the colour-keeping symmetries apply.
//!
//! A key is the image's occupancy with the side to move in bit 63: exact (two positions share
//! a key only if they are images of each other) on boards of at most 63 squares; on larger
//! boards the occupancy is mixed into 64 bits.

use super::table::Key;
use crate::rules::bits::Bits;
use crate::rules::board::{Board, Phase};
use crate::rules::mix::splitmix64;
use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::rules::{Rules, Symmetry};

/// The most symmetries a board has.
const MOST: usize = 8;

/// The occupancy of a position's image under each symmetry of its board, kept up to date move
/// by move.
pub type Images<B> = [B; MOST];

/// The symmetries of one board size, and how to key positions by them.
pub struct Keys<B> {
    /// Per square index, per symmetry: the image square, as a one-square set.
    square_images: Vec<Images<B>>,
    /// Per symmetry: true when it maps each square onto one of the other colour.
    swaps_colours: [bool; MOST],
    /// How many symmetries the board has (the identity first).
    count: usize,
    /// True when a key is the occupancy itself (boards of at most 63 squares).
    exact: bool,
}

impl<B: Bits> Keys<B> {
    /// The symmetries of boards of `rules`' size.
    pub fn new(rules: Rules) -> Keys<B> {
        let (w, h) = (usize::from(rules.width()), usize::from(rules.height()));
        let symmetries: Vec<Symmetry> = Symmetry::of_board(rules.width(), rules.height()).collect();
        let square_images = (0..w * h)
            .map(|i| {
                let mut images = [B::default(); MOST];
                for (image, symmetry) in images.iter_mut().zip(&symmetries) {
                    let (f, r) = symmetry
                        .map_indices(i % w, i / w, w, h)
                        .expect("a symmetry of the board maps it onto itself");
                    *image = B::single(f + r * w);
                }
                images
            })
            .collect();
        let mut swaps_colours = [false; MOST];
        for (swaps, symmetry) in swaps_colours.iter_mut().zip(&symmetries) {
            *swaps = !symmetry.keeps_colours(rules.width(), rules.height());
        }
        Keys {
            square_images,
            swaps_colours,
            count: symmetries.len(),
            exact: w * h <= 63,
        }
    }

    /// The images of `board`'s occupancy, computed from scratch.
    pub fn images(&self, board: &Board<B>) -> Images<B> {
        let mut images = [B::default(); MOST];
        let occupancy = board.stones(Color::Black) | board.stones(Color::White);
        self.update(&mut images, occupancy);
        images
    }

    /// Updates the `images` of a position whose occupancy changed on the squares of `changed`.
    pub fn update(&self, images: &mut Images<B>, changed: B) {
        for i in changed.squares() {
            let square = &self.square_images[i];
            for (image, square_image) in images[..self.count].iter_mut().zip(square) {
                *image ^= *square_image;
            }
        }
    }

    /// The key of `board` (whose occupancy images are `images`), the same for all its images.
    pub fn key(&self, images: &Images<B>, board: &Board<B>) -> Key {
        let white_to_move = board.side_to_move() == Color::White;
        let jumps = board.phase() == Phase::Jumps;
        let code = (0..self.count)
            .filter(|&s| jumps || !self.swaps_colours[s])
            .map(|s| self.code(images[s], white_to_move ^ self.swaps_colours[s]))
            .min()
            .expect("the identity is a symmetry");
        Key {
            code,
            stones: images[0].count(),
        }
    }

    fn code(&self, occupancy: B, white_to_move: bool) -> u64 {
        let side = u64::from(white_to_move) << 63;
        if self.exact {
            occupancy.digest() | side
        } else {
            splitmix64(occupancy.digest() ^ side)
        }
    }
}

/// Position keys of one board size at whichever bitboard width its positions use.
pub enum PositionKeys {
    Small(Keys<u64>),
    Medium(Keys<u128>),
    Large(Keys<crate::rules::bits::Wide>),
}

impl PositionKeys {
    /// The keys of positions of `rules`' board size.
    pub fn new(rules: Rules) -> PositionKeys {
        if rules.area() <= u64::CAPACITY {
            PositionKeys::Small(Keys::new(rules))
        } else if rules.area() <= u128::CAPACITY {
            PositionKeys::Medium(Keys::new(rules))
        } else {
            PositionKeys::Large(Keys::new(rules))
        }
    }

    /// The key of `position`, a position of this board size.
    pub fn key(&self, position: &Position) -> Key {
        fn of<B: Bits>(keys: &Keys<B>, board: &Board<B>) -> Key {
            keys.key(&keys.images(board), board)
        }
        match (self, position) {
            (PositionKeys::Small(keys), Position::Small(board)) => of(keys, board),
            (PositionKeys::Medium(keys), Position::Medium(board)) => of(keys, board),
            (PositionKeys::Large(keys), Position::Large(board)) => of(keys, board),
            _ => unreachable!("the keys and the positions are of one board size"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Position;
    use crate::rules::{Capture, Opening};

    fn board(position: &Position) -> Board<u64> {
        let Position::Small(board) = position else {
            panic!("fits 64 bits")
        };
        *board
    }

    /// The key of `position`, from scratch.
    fn key(keys: &Keys<u64>, position: &Position) -> Key {
        keys.key(&keys.images(&board(position)), &board(position))
    }

    #[test]
    fn every_symmetry_of_the_board_is_used() {
        let count = |w, h| {
            Keys::<u64>::new(Rules::new(w, h, Opening::Any, Capture::Straight).unwrap()).count
        };
        assert_eq!(count(6, 6), 8);
        assert_eq!(count(7, 7), 8);
        assert_eq!(count(6, 8), 4);
        assert_eq!(count(5, 7), 4);
        assert_eq!(count(3, 3), 8);
    }

    #[test]
    fn images_share_a_key_other_positions_do_not_and_updates_match_scratch() {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let keys = Keys::<u64>::new(rules);
        let mut position = Position::start(rules).unwrap();
        let mut images = keys.images(&board(&position));
        let mut seen = std::collections::HashMap::new();
        // The first legal move each ply, then the last, and so on: a game to its end.
        for ply in 0.. {
            let moves = position.legal_moves();
            let Some(&mv) = (if ply % 2 == 0 {
                moves.first()
            } else {
                moves.last()
            }) else {
                break;
            };
            let before = board(&position);
            position.play(mv).unwrap();
            keys.update(&mut images, before.empty() ^ board(&position).empty());
            assert_eq!(
                images,
                keys.images(&board(&position)),
                "incremental = scratch"
            );
            let own = keys.key(&images, &board(&position));
            let on_board =
                board(&position).stones(Color::Black) | board(&position).stones(Color::White);
            assert_eq!(own.stones, on_board.count(), "ply {ply}");
            let all_images = position.images();
            // Eight images once the jumps begin, four (colour-keeping) in the opening.
            assert_eq!(all_images.len(), if ply < 1 { 4 } else { 8 }, "ply {ply}");
            for (symmetry, image) in all_images {
                assert_eq!(key(&keys, &image), own, "{symmetry} at ply {ply}");
            }
            assert!(seen.insert(own, ply).is_none(), "a key shared at ply {ply}");
        }
        assert!(seen.len() > 6, "a game of {} plies", seen.len());
    }

    #[test]
    fn a_large_board_mixes_its_keys() {
        let rules = Rules::new(8, 8, Opening::Any, Capture::Straight).unwrap();
        let keys = Keys::<u64>::new(rules);
        assert!(!keys.exact);
        let mut position = Position::start(rules).unwrap();
        position.play("d5".parse().unwrap()).unwrap();
        let with_d5 = key(&keys, &position);
        let mut other = Position::start(rules).unwrap();
        other.play("e4".parse().unwrap()).unwrap();
        assert_eq!(key(&keys, &other), with_d5, "the half turn maps d5 onto e4");
    }
}
