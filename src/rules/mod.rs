//! The rules of Konane and nothing else: squares and moves with their notation, bitboards,
//! the board and the position, position strings, the rule options and symmetric images.
//! Search, solving and I/O live elsewhere and use this module through the names below.

pub(crate) mod bits;
pub(crate) mod board;
pub(crate) mod fen;
pub mod mix;
pub(crate) mod moves;
pub(crate) mod origin;
pub(crate) mod position;
pub(crate) mod regions;
pub(crate) mod square;
pub(crate) mod symmetry;
pub(crate) mod variant;

pub use bits::{Bits, Wide};
pub use board::{Board, IllegalMove, Phase};
pub use fen::{Diagram, FenError};
pub use moves::{Move, MoveError};
pub use origin::Unreachable;
pub use position::{Position, PositionError};
pub use square::{Color, Direction, Square};
pub use symmetry::{ImageError, Symmetry};
pub use variant::{Capture, Layout, Opening, Rules, RulesError, UnknownOption};
