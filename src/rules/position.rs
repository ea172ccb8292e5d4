//! [`Position`]: a game state on whichever bitboard width fits its board.

use crate::rules::bits::{Bits, Wide};
use crate::rules::board::{Board, IllegalMove, Phase};
use crate::rules::fen::{Diagram, FenError};
use crate::rules::moves::Move;
use crate::rules::square::{Color, Square};
use crate::rules::{Capture, Opening, Rules, RulesError};
use std::fmt;

/// A Konane position of any size: up to 64 squares on `u64`, up to 128 on `u128`, else [`Wide`].
///
/// ```
/// use konane::{Position, Rules};
///
/// let mut position = Position::start(Rules::default())?; // 8x8, traditional, straight
/// assert_eq!(position.legal_moves().len(), 4); // Black removes a centre or corner stone
/// position.play("d5".parse()?)?; // a black stone of the centre
/// position.play("c5".parse()?)?; // White removes a stone next to the hole
/// assert!(position.play("a1a3".parse()?).is_err()); // checked: nothing to capture there
/// position.play("f5d5".parse()?)?; // Black jumps the white stone on e5
/// assert_eq!(position.side_to_move(), konane::Color::White);
/// assert_eq!(position.perft(1), position.legal_moves().len() as u64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// Boards of at most 64 squares (8x8 and smaller).
    Small(Board<u64>),
    /// Boards of 65 to 128 squares (10x10, 9x13, 11x11).
    Medium(Board<u128>),
    /// Boards of more than 128 squares, up to 26x26.
    Large(Board<Wide>),
}

/// Work to do on a [`Board`] of whichever width a [`Position`] holds.
pub trait BoardVisitor {
    /// What the work returns.
    type Output;
    /// Does the work on `board`.
    fn visit<B: Bits>(self, board: &Board<B>) -> Self::Output;
}

/// Why a position string cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is malformed.
    Fen(FenError),
    /// The rules cannot be played on this position.
    Rules(RulesError),
    /// A full board is Black's removal: White cannot be to move.
    FullBoardWhiteToMove,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "{e}"),
            PositionError::Rules(e) => write!(f, "{e}"),
            PositionError::FullBoardWhiteToMove => {
                write!(
                    f,
                    "a full board must have Black to move (Black removes first)"
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

macro_rules! on_board {
    ($position:expr, $board:ident => $body:expr) => {
        match $position {
            Position::Small($board) => $body,
            Position::Medium($board) => $body,
            Position::Large($board) => $body,
        }
    };
}

impl Position {
    /// The starting position under `rules`; refuses a traditional opening on an odd side.
    pub fn start(rules: Rules) -> Result<Position, RulesError> {
        rules.check_opening()?;
        Ok(Position::build(rules, StartBoard))
    }

    fn build(rules: Rules, make: impl BoardMaker) -> Position {
        if rules.area() <= u64::CAPACITY {
            Position::Small(make.make(rules))
        } else if rules.area() <= u128::CAPACITY {
            Position::Medium(make.make(rules))
        } else {
            Position::Large(make.make(rules))
        }
    }

    /// The position a position string shows, played with the given opening and capture rules.
    pub fn from_fen(
        text: &str,
        opening: Opening,
        capture: Capture,
    ) -> Result<Position, PositionError> {
        let diagram = Diagram::parse(text).map_err(PositionError::Fen)?;
        let rules = Rules::new(diagram.width, diagram.height, opening, capture)
            .map_err(PositionError::Rules)?;
        let empty = diagram.squares.iter().filter(|s| s.is_none()).count();
        if empty == 0 {
            if diagram.side == Color::White {
                return Err(PositionError::FullBoardWhiteToMove);
            }
            rules.check_opening().map_err(PositionError::Rules)?;
        }
        Ok(Position::build(rules, DiagramBoard(&diagram)))
    }

    /// The position string.
    pub fn fen(&self) -> String {
        self.diagram().to_string()
    }

    /// The diagram of this position.
    pub fn diagram(&self) -> Diagram {
        on_board!(self, b => b.diagram())
    }

    /// Runs `visitor` on the board at its own width.
    pub fn visit<V: BoardVisitor>(&self, visitor: V) -> V::Output {
        on_board!(self, b => visitor.visit(b))
    }

    /// The independent regions of this position (see [`Board::region_stones`]), each as the
    /// position holding only its stones, with the same side to move: the position is their
    /// sum as combinatorial games.
    pub fn regions(&self) -> Vec<Position> {
        match self {
            Position::Small(b) => b
                .region_stones()
                .into_iter()
                .map(|s| Position::Small(b.keep_only(s)))
                .collect(),
            Position::Medium(b) => b
                .region_stones()
                .into_iter()
                .map(|s| Position::Medium(b.keep_only(s)))
                .collect(),
            Position::Large(b) => b
                .region_stones()
                .into_iter()
                .map(|s| Position::Large(b.keep_only(s)))
                .collect(),
        }
    }

    /// This position with `color` to move.
    pub fn with_side_to_move(&self, color: Color) -> Position {
        match self {
            Position::Small(b) => Position::Small(b.with_side_to_move(color)),
            Position::Medium(b) => Position::Medium(b.with_side_to_move(color)),
            Position::Large(b) => Position::Large(b.with_side_to_move(color)),
        }
    }

    /// The rules this position is played under.
    pub fn rules(&self) -> Rules {
        on_board!(self, b => b.rules())
    }

    /// Whose turn it is.
    pub fn side_to_move(&self) -> Color {
        on_board!(self, b => b.side_to_move())
    }

    /// What kind of move is due.
    pub fn phase(&self) -> Phase {
        on_board!(self, b => b.phase())
    }

    /// The stone on `square`, if any.
    pub fn stone_on(&self, square: Square) -> Option<Color> {
        on_board!(self, b => b.stone_on(square))
    }

    /// The number of stones of `color`.
    pub fn stone_count(&self, color: Color) -> u32 {
        on_board!(self, b => b.stones(color).count())
    }

    /// The number of stones on the board, of both colours.
    pub fn stone_total(&self) -> u32 {
        self.stone_count(Color::Black) + self.stone_count(Color::White)
    }

    /// The Zobrist hash.
    pub fn hash(&self) -> u64 {
        on_board!(self, b => b.hash())
    }

    /// The Zobrist hash computed from scratch (equal to [`Position::hash`]).
    pub fn hash_from_scratch(&self) -> u64 {
        on_board!(self, b => b.hash_from_scratch())
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        on_board!(self, b => b.legal_moves())
    }

    /// The number of legal moves.
    pub fn count_moves(&self) -> u64 {
        on_board!(self, b => b.count_moves())
    }

    /// The number of moves `color` would have if it were its turn.
    pub fn count_moves_of(&self, color: Color) -> u64 {
        on_board!(self, b => b.count_moves_of(color))
    }

    /// The number of moves `color` would have if it were its turn, and of its stones that
    /// have at least one.
    pub fn mobility_of(&self, color: Color) -> (u64, u32) {
        on_board!(self, b => b.mobility_of(color))
    }

    /// True when the side to move has no legal move and has lost.
    pub fn is_game_over(&self) -> bool {
        on_board!(self, b => b.is_game_over())
    }

    /// The winner when the game is over.
    pub fn winner(&self) -> Option<Color> {
        self.is_game_over().then(|| self.side_to_move().opponent())
    }

    /// Says whether `mv` is legal here, and if not, why.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        on_board!(self, b => b.check(mv))
    }

    /// Plays `mv` if it is legal; otherwise leaves the position unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        on_board!(self, b => b.play(mv))
    }

    /// Plays `mv` without checking it: for one of [`Position::legal_moves`].
    /// [`Position::play`] checks.
    ///
    /// # Panics
    ///
    /// An illegal `mv` may panic (a jump off the board) or leave a position no game reaches.
    pub fn play_unchecked(&mut self, mv: Move) {
        on_board!(self, b => b.play_unchecked(mv))
    }

    /// Leaf positions `depth` plies ahead.
    pub fn perft(&self, depth: u32) -> u64 {
        on_board!(self, b => b.perft(depth))
    }

    /// Leaf positions `depth` plies ahead, split by the first move.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        on_board!(self, b => b.divide(depth))
    }

    /// The board drawn in text, top rank first, with file letters below.
    pub fn pretty(&self) -> String {
        let diagram = self.diagram();
        let mut text = String::new();
        for rank in (0..diagram.height).rev() {
            text += &format!("{:>3} ", rank + 1);
            for file in 0..diagram.width {
                let mark = match diagram.squares[rank * diagram.width + file] {
                    Some(color) => color.letter(),
                    None => '.',
                };
                text.push(' ');
                text.push(mark);
            }
            text.push('\n');
        }
        text += "    ";
        for file in 0..diagram.width {
            text.push(' ');
            text.push(char::from(b'a' + file as u8));
        }
        text.push('\n');
        text
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

/// Builds a board of any width for given rules.
trait BoardMaker {
    fn make<B: Bits>(&self, rules: Rules) -> Board<B>;
}

struct StartBoard;

impl BoardMaker for StartBoard {
    fn make<B: Bits>(&self, rules: Rules) -> Board<B> {
        Board::start(rules)
    }
}

struct DiagramBoard<'a>(&'a Diagram);

impl BoardMaker for DiagramBoard<'_> {
    fn make<B: Bits>(&self, rules: Rules) -> Board<B> {
        Board::from_diagram(self.0, rules)
    }
}
