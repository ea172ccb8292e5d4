//! Konane, the Hawaiian jumping game: rules, notation, hashing and perft for every board from
//! 2x2 to 26x26 and every documented rule variant (see `RULES.md` of the project).
//!
//! The rules know nothing of search or I/O. [`Position`] is the entry point; it picks the
//! narrowest bitboard that fits the board, and [`Board`] is the position on one bitboard width.

pub mod arbiter;
pub mod bench;
pub mod bits;
pub mod board;
pub mod cli;
pub mod engine;
pub mod fen;
pub mod gui;
pub mod moves;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod solve;
pub mod square;

pub use bits::{Bits, Wide};
pub use board::{Board, IllegalMove, Phase};
pub use fen::{Diagram, FenError};
pub use moves::{Move, MoveError};
pub use position::{Position, PositionError};
pub use rules::{Capture, Opening, Rules, RulesError};
pub use square::{Color, Direction, Square};
