//! The symmetries of the board (eight of a square, four of a rectangle) and the images of a
//! position under them.
//!
//! A symmetry either keeps the colour of every square or swaps them all. After the opening
//! removals the capture rules know no colours, so a position and its image with the stones'
//! colours and the side to move swapped have the same value for the side to move: both kinds
//! of image are positions of the same worth.

use crate::rules::fen::Diagram;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::{Phase, Rules};
use std::fmt;
use std::str::FromStr;

/// One symmetry of the board, named as it moves the stones.
///
/// `Display` and `FromStr` use the names of [`Symmetry::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Every square stays.
    Identity,
    /// Files mirrored: `a` swaps with the last file.
    MirrorFiles,
    /// Ranks mirrored: `1` swaps with the last rank.
    MirrorRanks,
    /// Turned half a turn about the centre.
    HalfTurn,
    /// Mirrored in the diagonal through `a1` (square boards only).
    Transpose,
    /// Mirrored in the other diagonal (square boards only).
    AntiTranspose,
    /// Turned a quarter turn anticlockwise: `a1` goes to the bottom right (square boards only).
    QuarterTurnLeft,
    /// Turned a quarter turn clockwise: `a1` goes to the top left (square boards only).
    QuarterTurnRight,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::MirrorFiles,
        Symmetry::MirrorRanks,
        Symmetry::HalfTurn,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::QuarterTurnLeft,
        Symmetry::QuarterTurnRight,
    ];

    /// The name used in text: `identity`, `mirror-files`, `mirror-ranks`, `half-turn`,
    /// `transpose`, `anti-transpose`, `quarter-turn-left`, `quarter-turn-right`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::MirrorFiles => "mirror-files",
            Symmetry::MirrorRanks => "mirror-ranks",
            Symmetry::HalfTurn => "half-turn",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti-transpose",
            Symmetry::QuarterTurnLeft => "quarter-turn-left",
            Symmetry::QuarterTurnRight => "quarter-turn-right",
        }
    }

    /// True when this symmetry maps a `width` x `height` board onto itself.
    pub fn fits(self, width: u8, height: u8) -> bool {
        self.map_indices(0, 0, usize::from(width), usize::from(height))
            .is_some()
    }

    /// The symmetries of a `width` x `height` board, the identity first.
    pub fn of_board(width: u8, height: u8) -> impl Iterator<Item = Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(move |symmetry| symmetry.fits(width, height))
    }

    /// The image of file `f`, rank `r` (from 0) on a `w` x `h` board, or `None` when the
    /// symmetry does not fit the board.
    pub fn map_indices(self, f: usize, r: usize, w: usize, h: usize) -> Option<(usize, usize)> {
        let square = w == h;
        match self {
            Symmetry::Identity => Some((f, r)),
            Symmetry::MirrorFiles => Some((w - 1 - f, r)),
            Symmetry::MirrorRanks => Some((f, h - 1 - r)),
            Symmetry::HalfTurn => Some((w - 1 - f, h - 1 - r)),
            Symmetry::Transpose if square => Some((r, f)),
            Symmetry::AntiTranspose if square => Some((w - 1 - r, h - 1 - f)),
            Symmetry::QuarterTurnLeft if square => Some((w - 1 - r, f)),
            Symmetry::QuarterTurnRight if square => Some((r, h - 1 - f)),
            _ => None,
        }
    }

    /// The image of `square` on a `width` x `height` board, or `None` when the symmetry does
    /// not fit the board or the square is off it.
    pub fn map(self, square: Square, width: u8, height: u8) -> Option<Square> {
        if square.file() >= width || square.rank() >= height {
            return None;
        }
        let (f, r) = self.map_indices(
            usize::from(square.file()),
            usize::from(square.rank()),
            usize::from(width),
            usize::from(height),
        )?;
        Square::new(f as u8, r as u8)
    }

    /// True when every square keeps its colour (the symmetry must fit the board).
    pub fn keeps_colours(self, width: u8, height: u8) -> bool {
        // Each map takes neighbouring squares to neighbouring squares, so the colour of one
        // square's image tells them all.
        self.map_indices(0, 0, usize::from(width), usize::from(height))
            .is_some_and(|(f, r)| (f + r) % 2 == 0)
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = ImageError;

    fn from_str(text: &str) -> Result<Symmetry, ImageError> {
        Symmetry::ALL
            .into_iter()
            .find(|symmetry| symmetry.name() == text)
            .ok_or_else(|| ImageError::UnknownSymmetry(text.to_string()))
    }
}

/// Why a position has no image under a symmetry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageError {
    /// The name is none of the eight.
    UnknownSymmetry(String),
    /// A diagonal or a quarter turn of a board that is not square.
    DoesNotFit {
        /// The symmetry.
        symmetry: Symmetry,
        /// Files of the board.
        width: u8,
        /// Ranks of the board.
        height: u8,
    },
    /// A symmetry that swaps the colours of the squares, during the opening removals (which
    /// are a matter of colour: Black removes first), or of a position with one empty square
    /// (whose image would read as White's removal).
    SwapsColoursInRemovals(Symmetry),
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::UnknownSymmetry(text) => {
                let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
                write!(
                    f,
                    "unknown symmetry '{text}': expected one of {}",
                    names.join(", ")
                )
            }
            ImageError::DoesNotFit {
                symmetry,
                width,
                height,
            } => write!(
                f,
                "{symmetry} does not map a {width}x{height} board onto itself (only a square board has it)"
            ),
            ImageError::SwapsColoursInRemovals(symmetry) => write!(
                f,
                "{symmetry} swaps the colours of the squares, which the opening removals do not allow: images under it exist once both removals are made"
            ),
        }
    }
}

impl std::error::Error for ImageError {}

impl Position {
    /// The image of this position under `symmetry`. A symmetry that swaps the squares'
    /// colours swaps the stones' colours and the side to move too, so that the image is a
    /// position of the same worth for the side to move.
    pub fn image(&self, symmetry: Symmetry) -> Result<Position, ImageError> {
        let rules = self.rules();
        let (width, height) = (rules.width(), rules.height());
        if !symmetry.fits(width, height) {
            return Err(ImageError::DoesNotFit {
                symmetry,
                width,
                height,
            });
        }
        let swaps = !symmetry.keeps_colours(width, height);
        // With colours swapped, a single empty square and White to move would read as White's
        // removal: such an image is not a position of the same worth.
        let one_empty = self.stone_total() as usize + 1 == rules.area();
        if swaps && (self.phase() != Phase::Jumps || one_empty) {
            return Err(ImageError::SwapsColoursInRemovals(symmetry));
        }
        let diagram = self.diagram();
        let (w, h) = (usize::from(width), usize::from(height));
        let mut squares = vec![None; w * h];
        for (index, stone) in diagram.squares.iter().enumerate() {
            let (f, r) = symmetry
                .map_indices(index % w, index / w, w, h)
                .expect("the symmetry fits the board");
            squares[f + r * w] = stone.map(|colour| if swaps { colour.opponent() } else { colour });
        }
        let side = if swaps {
            diagram.side.opponent()
        } else {
            diagram.side
        };
        let image = Diagram {
            width: w,
            height: h,
            squares,
            side,
        };
        Ok(
            Position::from_fen(&image.to_string(), rules.opening, rules.capture)
                .expect("the image of a position is a position of the same rules"),
        )
    }

    /// Every image of this position under the symmetries of its board, the identity first,
    /// as (symmetry, image) pairs; during the opening removals only the colour-keeping ones.
    pub fn images(&self) -> Vec<(Symmetry, Position)> {
        let rules: Rules = self.rules();
        Symmetry::of_board(rules.width(), rules.height())
            .filter_map(|symmetry| Some((symmetry, self.image(symmetry).ok()?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Color, Opening};

    fn position(width: usize, height: usize, moves: &[&str]) -> Position {
        let rules = Rules::new(width, height, Opening::Any, Capture::Straight).unwrap();
        let mut position = Position::start(rules).unwrap();
        for text in moves {
            position.play(text.parse().unwrap()).unwrap();
        }
        position
    }

    #[test]
    fn names_read_back_and_bad_names_are_named() {
        for symmetry in Symmetry::ALL {
            assert_eq!(symmetry.name().parse::<Symmetry>().unwrap(), symmetry);
        }
        let error = "flip".parse::<Symmetry>().unwrap_err().to_string();
        assert!(
            error.contains("'flip'") && error.contains("half-turn"),
            "{error}"
        );
    }

    #[test]
    fn rectangles_have_four_symmetries_and_squares_eight() {
        assert_eq!(Symmetry::of_board(6, 8).count(), 4);
        assert_eq!(Symmetry::of_board(6, 6).count(), 8);
        let image = position(6, 8, &[]).image(Symmetry::Transpose);
        assert!(matches!(image, Err(ImageError::DoesNotFit { .. })));
    }

    #[test]
    fn colour_keeping_is_a_matter_of_the_board() {
        // On an even square board the half turn keeps colours and a mirror swaps them; on an
        // odd one every symmetry keeps them.
        assert!(Symmetry::HalfTurn.keeps_colours(6, 6));
        assert!(!Symmetry::MirrorFiles.keeps_colours(6, 6));
        assert!(Symmetry::ALL.iter().all(|s| s.keeps_colours(5, 5)));
        for symmetry in Symmetry::of_board(6, 6) {
            let a1 = Square::new(0, 0).unwrap();
            let image = symmetry.map(a1, 6, 6).unwrap();
            assert_eq!(
                Color::of_start_square(a1) == Color::of_start_square(image),
                symmetry.keeps_colours(6, 6),
                "{symmetry}"
            );
        }
    }

    #[test]
    fn images_move_the_stones_and_keep_the_number_of_moves() {
        let before = position(6, 6, &["d3", "c3", "d5d3"]);
        for (symmetry, image) in before.images() {
            assert_eq!(image.stone_total(), before.stone_total());
            assert_eq!(
                image.legal_moves().len(),
                before.legal_moves().len(),
                "{symmetry}"
            );
            assert_eq!(image.perft(3), before.perft(3), "{symmetry}");
            let swaps = !symmetry.keeps_colours(6, 6);
            assert_eq!(image.side_to_move() != before.side_to_move(), swaps);
            // Applying a symmetry and then its inverse gives the position back.
            let back = Symmetry::ALL
                .into_iter()
                .filter_map(|inverse| image.image(inverse).ok())
                .any(|twice| twice == before);
            assert!(back, "{symmetry}");
        }
        assert_eq!(before.images().len(), 8);
    }

    #[test]
    fn a_single_empty_square_allows_only_colour_keeping_images() {
        // Found by fuzzing: its colour-swapped image, White to move with one empty square,
        // would read as White's removal.
        let position = Position::from_fen(
            "bwbwbwbw/wbwbwbwb/bwbwbw1w b",
            Opening::Any,
            Capture::Straight,
        )
        .unwrap();
        for (symmetry, image) in position.images() {
            assert!(symmetry.keeps_colours(8, 3), "{symmetry}");
            assert_eq!(image.legal_moves().len(), position.legal_moves().len());
        }
        assert!(position.image(Symmetry::MirrorFiles).is_err());
    }

    #[test]
    fn removals_allow_only_colour_keeping_images() {
        let start = position(6, 6, &[]);
        assert_eq!(start.images().len(), 4);
        assert_eq!(
            start.image(Symmetry::MirrorFiles),
            Err(ImageError::SwapsColoursInRemovals(Symmetry::MirrorFiles))
        );
    }
}
