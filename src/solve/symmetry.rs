//! Position keys that are the same for every symmetric image of a position. Only the board
//! symmetries that keep each square's colour are used (four on an even square board, two on a
//! rectangle): a stone never leaves squares of its start colour, so the other symmetries map
//! reachable positions onto positions that never occur.

use crate::rules::bits::Bits;
use crate::rules::board::{Board, splitmix64};
use crate::rules::square::Color;
use crate::rules::{Rules, Symmetry};

/// Zobrist keys for each colour-keeping symmetry of one board size.
pub struct SymmetricKeys {
    /// Per symmetry, per colour, per square index: the key of the stone's image.
    stones: Vec<[Vec<u64>; 2]>,
    white_to_move: u64,
}

impl SymmetricKeys {
    /// The keys for boards of `rules`' size.
    pub fn new(rules: Rules) -> SymmetricKeys {
        let (w, h) = (usize::from(rules.width()), usize::from(rules.height()));
        let area = w * h;
        let base: [Vec<u64>; 2] = [0u64, 1].map(|colour| {
            (0..area)
                .map(|i| splitmix64(0x736f_6c76_6572 ^ (i as u64 * 2 + colour)))
                .collect()
        });
        let mut stones = Vec::new();
        for symmetry in Symmetry::ALL {
            let images: Option<Vec<usize>> = (0..area)
                .map(|i| {
                    let (f, r) = (i % w, i / w);
                    let (f2, r2) = symmetry.map_indices(f, r, w, h)?;
                    ((f + r) % 2 == (f2 + r2) % 2).then_some(f2 + r2 * w)
                })
                .collect();
            if let Some(images) = images {
                stones.push([0, 1].map(|c| images.iter().map(|&j| base[c][j]).collect()));
            }
        }
        SymmetricKeys {
            stones,
            white_to_move: splitmix64(0x7768_6974_6521),
        }
    }

    /// How many symmetries are used (the identity included).
    pub fn count(&self) -> usize {
        self.stones.len()
    }

    /// The keys of `board` under every symmetry, computed from scratch.
    pub fn keys<B: Bits>(&self, board: &Board<B>) -> Vec<u64> {
        let side = if board.side_to_move() == Color::White {
            self.white_to_move
        } else {
            0
        };
        self.stones
            .iter()
            .map(|tables| {
                let mut key = side;
                for (c, color) in [Color::Black, Color::White].into_iter().enumerate() {
                    for i in board.stones(color).squares() {
                        key ^= tables[c][i];
                    }
                }
                key
            })
            .collect()
    }

    /// Updates `keys` (of `before`) to those of `after`, one move later.
    pub fn update<B: Bits>(&self, keys: &mut [u64], before: &Board<B>, after: &Board<B>) {
        for key in keys.iter_mut() {
            *key ^= self.white_to_move;
        }
        for (c, color) in [Color::Black, Color::White].into_iter().enumerate() {
            let changed = before.stones(color) ^ after.stones(color);
            for i in changed.squares() {
                for (key, tables) in keys.iter_mut().zip(&self.stones) {
                    *key ^= tables[c][i];
                }
            }
        }
    }
}

/// The key shared by all symmetric images: the smallest.
pub fn canonical(keys: &[u64]) -> u64 {
    keys.iter().copied().min().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Position;
    use crate::rules::{Capture, Opening};

    #[test]
    fn colour_keeping_symmetries_are_counted() {
        let count = |w, h| {
            SymmetricKeys::new(Rules::new(w, h, Opening::Any, Capture::Straight).unwrap()).count()
        };
        assert_eq!(count(6, 6), 4);
        assert_eq!(count(8, 8), 4);
        assert_eq!(count(6, 8), 2);
        assert_eq!(count(4, 6), 2);
        assert_eq!(
            count(5, 5),
            8,
            "odd squares keep colours under every symmetry"
        );
        assert_eq!(count(5, 7), 4);
    }

    #[test]
    fn symmetric_openings_share_a_key_and_updates_match_scratch() {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let keys = SymmetricKeys::new(rules);
        let Position::Small(start) = Position::start(rules).unwrap() else {
            panic!("6x6 fits 64 bits")
        };
        let after = |texts: &[&str]| {
            let mut board = start;
            let mut running = keys.keys(&board);
            for text in texts {
                let before = board;
                board.play(text.parse().unwrap());
                keys.update(&mut running, &before, &board);
            }
            assert_eq!(running, keys.keys(&board), "incremental = from scratch");
            canonical(&running)
        };
        // c4 and d3 are the two central removals: images of each other under the half turn.
        assert_eq!(after(&["c4", "c3"]), after(&["d3", "d4"]));
        assert_ne!(after(&["c4", "c3"]), after(&["c4", "b4"]));
    }
}
