//! Konane, the Hawaiian jumping game: rules, notation, hashing and perft for every board from
//! 2x2 to 26x26 and every documented rule variant (see `RULES.md` of the project).
//!
//! The rules know nothing of search or I/O. [`Position`] is the entry point; it picks the
//! narrowest bitboard that fits the board, and [`Board`] is the position on one bitboard width.

pub mod arbiter;
pub mod bench;
pub mod bot;
pub mod cgt;
pub mod engine;
pub(crate) mod exact;
pub mod gui;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod solve;
pub mod value;

pub use rules::{
    Bits, Board, Capture, Color, Diagram, Direction, FenError, IllegalMove, ImageError, Move,
    MoveError, Opening, Phase, Position, PositionError, Rules, RulesError, Square, Symmetry,
    Unreachable, Wide,
};
