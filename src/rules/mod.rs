//! The rules of Konane and nothing else: squares and moves with their notation, bitboards,
//! the board and the position, position strings, the rule options and symmetric images.
//! Search, solving and I/O live elsewhere and use this module through the names below.

pub mod bits;
pub mod board;
pub mod fen;
pub mod mix;
pub mod moves;
pub mod position;
pub mod square;
pub mod symmetry;
pub mod variant;

pub use bits::{Bits, Wide};
pub use board::{Board, IllegalMove, Phase};
pub use fen::{Diagram, FenError};
pub use moves::{Move, MoveError};
pub use position::{Position, PositionError};
pub use square::{Color, Direction, Square};
pub use symmetry::{ImageError, Symmetry};
pub use variant::{Capture, Layout, Opening, Rules, RulesError, UnknownOption};
