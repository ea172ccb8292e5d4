//! A game state on bitboards of one width: stones, side to move, hash; move generation,
//! legality, play and perft.

use crate::rules::bits::Bits;
use crate::rules::fen::Diagram;
use crate::rules::mix::splitmix64;
use crate::rules::moves::Move;
use crate::rules::square::{Color, Direction, MAX_SIDE, Square};
use crate::rules::{Capture, Layout, Opening, Rules};
use std::fmt;

/// What kind of move is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Black removes one of its stones (the board is full).
    BlackRemoval,
    /// White removes a stone next to the single hole.
    WhiteRemoval,
    /// Every move is a capture.
    Jumps,
}

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// A square of the move is not on this board.
    OffBoard(Square),
    /// An opening removal is due, but the move is a jump.
    RemovalDue,
    /// The opening is over, but the move is a removal.
    JumpDue,
    /// The removal names a square these rules do not allow to be emptied now.
    NotRemovable(Square, &'static str),
    /// The jumping stone's square does not hold a stone of the side to move.
    NotOwnStone(Square),
    /// The jumped-over square does not hold an enemy stone.
    NothingToCapture(Square),
    /// The landing square is not empty.
    LandingOccupied(Square),
    /// The capture rule does not allow this path.
    Forbidden(Capture, &'static str),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard(s) => write!(f, "{s} is off the board"),
            IllegalMove::RemovalDue => write!(f, "an opening removal is due, not a jump"),
            IllegalMove::JumpDue => write!(f, "the opening is over: a jump is due"),
            IllegalMove::NotRemovable(s, why) => write!(f, "{s} cannot be removed: {why}"),
            IllegalMove::NotOwnStone(s) => write!(f, "{s} holds no stone of the side to move"),
            IllegalMove::NothingToCapture(s) => write!(f, "no enemy stone to jump on {s}"),
            IllegalMove::LandingOccupied(s) => write!(f, "{s} is not empty"),
            IllegalMove::Forbidden(capture, why) => {
                write!(f, "the {capture} capture rule {why}")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Zobrist keys: one per colour and square index, and one for White to move.
struct Keys {
    stones: [[u64; Keys::SQUARES]; 2],
    white_to_move: u64,
}

impl Keys {
    const SQUARES: usize = MAX_SIDE as usize * MAX_SIDE as usize;

    const fn generate() -> Keys {
        let mut state: u64 = 0x4b6f_6e61_6e65_2121;
        let mut stones = [[0; Keys::SQUARES]; 2];
        let mut i = 0;
        while i < 2 * Keys::SQUARES {
            state = splitmix64(state);
            stones[i % 2][i / 2] = state;
            i += 1;
        }
        Keys {
            stones,
            white_to_move: splitmix64(state),
        }
    }

    fn stone(&self, color: Color, index: usize) -> u64 {
        self.stones[color as usize][index]
    }
}

static KEYS: Keys = Keys::generate();

/// A position on a bitboard of type `B`: the stones, the side to move and its hash.
#[derive(Clone, Copy)]
pub struct Board<B: 'static> {
    black: B,
    white: B,
    side: Color,
    hash: u64,
    layout: &'static Layout<B>,
}

impl<B: Bits> PartialEq for Board<B> {
    fn eq(&self, other: &Board<B>) -> bool {
        self.black == other.black
            && self.white == other.white
            && self.side == other.side
            && self.layout.rules == other.layout.rules
    }
}

impl<B: Bits> Eq for Board<B> {}

impl<B: Bits> Board<B> {
    /// The starting position: a full checkerboard, `a1` white, Black to move.
    pub fn start(rules: Rules) -> Board<B> {
        let layout = Layout::<B>::get(rules);
        let black = layout
            .all
            .squares()
            .filter(|&i| Color::of_start_square(rules.square(i)) == Color::Black)
            .fold(B::default(), |set, i| set | B::single(i));
        Board::from_parts(layout, black, layout.all ^ black, Color::Black)
    }

    /// The position a diagram shows, under `rules` (whose size must match the diagram's).
    pub fn from_diagram(diagram: &Diagram, rules: Rules) -> Board<B> {
        let layout = Layout::<B>::get(rules);
        let stones_of = |color| {
            diagram
                .squares
                .iter()
                .enumerate()
                .filter(|(_, stone)| **stone == Some(color))
                .fold(B::default(), |set, (i, _)| set | B::single(i))
        };
        Board::from_parts(
            layout,
            stones_of(Color::Black),
            stones_of(Color::White),
            diagram.side,
        )
    }

    fn from_parts(layout: &'static Layout<B>, black: B, white: B, side: Color) -> Board<B> {
        let mut board = Board {
            black,
            white,
            side,
            hash: 0,
            layout,
        };
        board.hash = board.hash_from_scratch();
        board
    }

    /// The diagram of this position.
    pub fn diagram(&self) -> Diagram {
        let rules = self.rules();
        Diagram {
            width: usize::from(rules.width()),
            height: usize::from(rules.height()),
            squares: (0..rules.area()).map(|i| self.stone_at(i)).collect(),
            side: self.side,
        }
    }

    /// The rules this position is played under.
    pub fn rules(&self) -> Rules {
        self.layout.rules
    }

    /// Whose turn it is.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The stones of one colour.
    pub fn stones(&self, color: Color) -> B {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The masks of this board's size.
    pub fn layout(&self) -> &'static Layout<B> {
        self.layout
    }

    /// This position with only the stones on `squares` left (the side to move unchanged).
    pub fn keep_only(&self, squares: B) -> Board<B> {
        Board::from_parts(
            self.layout,
            self.black & squares,
            self.white & squares,
            self.side,
        )
    }

    /// This position with `color` to move.
    pub fn with_side_to_move(&self, color: Color) -> Board<B> {
        Board::from_parts(self.layout, self.black, self.white, color)
    }

    /// The empty squares.
    pub fn empty(&self) -> B {
        self.layout.all & !(self.black | self.white)
    }

    fn stone_at(&self, index: usize) -> Option<Color> {
        if self.black.has(index) {
            Some(Color::Black)
        } else if self.white.has(index) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The stone on `square`, if any (`None` also off the board).
    pub fn stone_on(&self, square: Square) -> Option<Color> {
        let rules = self.rules();
        rules
            .contains(square)
            .then(|| self.stone_at(rules.index(square)))
            .flatten()
    }

    /// The Zobrist hash, kept up to date move by move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from the stones alone.
    pub fn hash_from_scratch(&self) -> u64 {
        let stones = |color| {
            self.stones(color)
                .squares()
                .fold(0, |hash, i| hash ^ KEYS.stone(color, i))
        };
        let side = match self.side {
            Color::Black => 0,
            Color::White => KEYS.white_to_move,
        };
        stones(Color::Black) ^ stones(Color::White) ^ side
    }

    /// What kind of move is due: the board's emptiness decides (see RULES.md).
    pub fn phase(&self) -> Phase {
        match self.empty().count() {
            0 => Phase::BlackRemoval,
            1 if self.side == Color::White => Phase::WhiteRemoval,
            _ => Phase::Jumps,
        }
    }

    /// The squares whose stone may be removed now; empty once the opening is over.
    fn removable(&self) -> B {
        match self.phase() {
            Phase::BlackRemoval if self.side == Color::Black => match self.rules().opening {
                Opening::Traditional => self.black & self.layout.traditional_removals,
                Opening::Any => self.black,
            },
            Phase::BlackRemoval => B::default(),
            Phase::WhiteRemoval => {
                let hole = self.empty();
                let neighbours = Direction::ALL.iter().fold(B::default(), |set, d| {
                    set | (hole & self.layout.step_from[d.index()])
                        .shift(self.layout.step[d.index()])
                });
                neighbours & self.white
            }
            Phase::Jumps => B::default(),
        }
    }

    fn own_and_enemy(&self) -> (B, B) {
        match self.side {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        }
    }

    /// Calls `visit(from, direction, jumps)` for every straight jump (under `straight` and
    /// `single` capture); `from` is a bit index.
    fn for_each_straight(&self, mut visit: impl FnMut(usize, Direction, u8)) {
        let (own, enemy) = self.own_and_enemy();
        let empty = self.empty();
        let longest = if self.rules().capture.single_jump() {
            1
        } else {
            MAX_SIDE
        };
        for direction in Direction::ALL {
            let from = self.layout.jump_from[direction.index()];
            let step = self.layout.step[direction.index()];
            let mut landed = own;
            for jumps in 1..=longest {
                landed = ((landed & from).shift(step) & enemy).shift(step) & empty;
                if landed.is_empty() {
                    break;
                }
                for to in landed.squares() {
                    let origin = to as i32 - 2 * i32::from(jumps) * step;
                    visit(origin as usize, direction, jumps);
                }
            }
        }
    }

    /// The number of straight jumps, by population counts alone.
    fn count_straight(&self) -> u64 {
        let (own, enemy) = self.own_and_enemy();
        self.count_straight_of(own, enemy)
    }

    /// The number of straight jumps of `own` over `enemy` on this board's layout and rules.
    #[inline(always)]
    fn count_straight_of(&self, own: B, enemy: B) -> u64 {
        let empty = self.layout.all & !(own | enemy);
        let single = self.rules().capture.single_jump();
        self.count_direction::<true>(0, own, enemy, empty, single)
            + self.count_direction::<true>(1, own, enemy, empty, single)
            + self.count_direction::<false>(2, own, enemy, empty, single)
            + self.count_direction::<false>(3, own, enemy, empty, single)
    }

    /// The straight jumps in direction `d` (towards higher indices when `UP`), counted: each
    /// pass of the loop lands one more jump further along the chains.
    #[inline(always)]
    fn count_direction<const UP: bool>(
        &self,
        d: usize,
        own: B,
        enemy: B,
        empty: B,
        single: bool,
    ) -> u64 {
        self.count_and_jumpers::<UP>(d, own, enemy, empty, single).0
    }

    /// [`Board::count_direction`], and the stones of `own` that can jump in direction `d`.
    #[inline]
    fn count_and_jumpers<const UP: bool>(
        &self,
        d: usize,
        own: B,
        enemy: B,
        empty: B,
        single: bool,
    ) -> (u64, B) {
        let from = self.layout.jump_from[d];
        let step = self.layout.step[d].unsigned_abs();
        let target = hop::<B, UP>(enemy, step, false) & empty;
        let once = hop::<B, UP>(own & from, 2 * step, false) & target;
        let jumpers = hop::<B, UP>(once, 2 * step, true);
        if single {
            return (u64::from(once.count()), jumpers);
        }
        // The second jump is taken whether or not the first landed anywhere: an empty set
        // costs less than the branch it saves. Longer chains are rare.
        let mut landed = hop::<B, UP>(once & from, 2 * step, false) & target;
        let mut count = u64::from(once.count()) + u64::from(landed.count());
        while !landed.is_empty() {
            landed = hop::<B, UP>(landed & from, 2 * step, false) & target;
            count += u64::from(landed.count());
        }
        (count, jumpers)
    }

    /// Perft of straight jumps with the side to move's stones `own` against `enemy`: the
    /// stones alone, swapped at each ply, with no side, hash or board to copy.
    fn perft_straight(&self, own: B, enemy: B, depth: u32) -> u64 {
        if depth == 1 {
            return self.count_straight_of(own, enemy);
        }
        let empty = self.layout.all & !(own | enemy);
        self.perft_direction::<true>(0, own, enemy, empty, depth)
            + self.perft_direction::<true>(1, own, enemy, empty, depth)
            + self.perft_direction::<false>(2, own, enemy, empty, depth)
            + self.perft_direction::<false>(3, own, enemy, empty, depth)
    }

    /// [`Board::perft_straight`] of a child, with the last ply's count inlined: most of the
    /// time goes there.
    #[inline(always)]
    fn perft_child(&self, own: B, enemy: B, depth: u32) -> u64 {
        if depth == 1 {
            self.count_straight_of(own, enemy)
        } else {
            self.perft_straight(own, enemy, depth)
        }
    }

    /// The part of [`Board::perft_straight`] that starts with a jump in direction `d`.
    #[inline(always)]
    fn perft_direction<const UP: bool>(
        &self,
        d: usize,
        own: B,
        enemy: B,
        empty: B,
        depth: u32,
    ) -> u64 {
        let from = self.layout.jump_from[d];
        let step = self.layout.step[d].unsigned_abs();
        let single = self.rules().capture.single_jump();
        let target = hop::<B, UP>(enemy, step, false) & empty;
        let mut total = 0;
        let mut landed = hop::<B, UP>(own & from, 2 * step, false) & target;
        // Single jumps, the most common, need no loop for their captured stone.
        for to in landed.squares() {
            let end = B::single(to);
            let captured = hop::<B, UP>(end, step, true);
            let start = hop::<B, UP>(captured, step, true);
            total += self.perft_child(enemy ^ captured, own ^ start ^ end, depth - 1);
        }
        let mut jumps = 1;
        while !single && !landed.is_empty() {
            landed = hop::<B, UP>(landed & from, 2 * step, false) & target;
            jumps += 1;
            for to in landed.squares() {
                let end = B::single(to);
                let mut captured = hop::<B, UP>(end, step, true);
                for _ in 1..jumps {
                    captured |= hop::<B, UP>(captured, 2 * step, true);
                }
                let length = (2 * step * jumps) as usize;
                let start = B::single(if UP { to - length } else { to + length });
                total += self.perft_child(enemy ^ captured, own ^ start ^ end, depth - 1);
            }
        }
        total
    }

    /// Calls `visit` with every legal move.
    pub fn for_each_move(&self, mut visit: impl FnMut(Move)) {
        let rules = self.rules();
        if self.phase() != Phase::Jumps {
            for i in self.removable().squares() {
                visit(Move::removal(self.layout_square(i)));
            }
            return;
        }
        if rules.capture.turns() {
            let (own, _) = self.own_and_enemy();
            for from in own.squares() {
                let origin = Move::removal(self.layout_square(from));
                self.turning_paths(
                    from,
                    self.empty() | B::single(from),
                    self.own_and_enemy().1,
                    origin,
                    &mut visit,
                );
            }
            return;
        }
        self.for_each_straight(|from, direction, jumps| {
            visit(Move::straight(self.layout_square(from), direction, jumps));
        });
    }

    fn layout_square(&self, index: usize) -> Square {
        self.layout.squares[index]
    }

    /// Extends a turning path that has reached `at`, with `empty` and `enemy` as they stand now;
    /// the jumping stone is lifted off the board, so `empty` includes every square it visits.
    fn turning_paths(
        &self,
        at: usize,
        empty: B,
        enemy: B,
        path: Move,
        visit: &mut impl FnMut(Move),
    ) {
        for direction in Direction::ALL {
            let d = direction.index();
            if !self.layout.jump_from[d].has(at) {
                continue;
            }
            let over = (at as i32 + self.layout.step[d]) as usize;
            let to = (at as i32 + 2 * self.layout.step[d]) as usize;
            if !enemy.has(over) || !empty.has(to) {
                continue;
            }
            let Some(next) = path.then(direction) else {
                continue;
            };
            visit(next);
            let captured = B::single(over);
            self.turning_paths(to, empty | captured, enemy ^ captured, next, visit);
        }
    }

    /// Every legal move, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.for_each_move(|mv| moves.push(mv));
        moves
    }

    /// The number of legal moves, counted without listing them where the rules allow.
    pub fn count_moves(&self) -> u64 {
        if self.phase() != Phase::Jumps {
            return u64::from(self.removable().count());
        }
        if self.rules().capture.turns() {
            let mut count = 0;
            self.for_each_move(|_| count += 1);
            return count;
        }
        self.count_straight()
    }

    /// The number of moves `color` would have if it were its turn.
    pub fn count_moves_of(&self, color: Color) -> u64 {
        let mut board = *self;
        board.side = color;
        board.count_moves()
    }

    /// For each direction (in [`Direction::ALL`]'s order), `color`'s stones that could jump
    /// that way now, if it were `color`'s turn.
    pub fn jumpers(&self, color: Color) -> [B; 4] {
        let (own, enemy) = match color {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        };
        let empty = self.empty();
        std::array::from_fn(|d| {
            let step = self.layout.step[d];
            own & self.layout.jump_from[d] & enemy.shift(-step) & empty.shift(-2 * step)
        })
    }

    /// The stones that `jumpers` of direction `d` (a set from [`Board::jumpers`]) would jump.
    pub fn jumped(&self, jumpers: B, d: usize) -> B {
        jumpers.shift(self.layout.step[d])
    }

    /// The number of moves `color` would have if it were its turn, and of its stones that
    /// have at least one: [`Board::count_moves_of`] and [`Board::movers_of`] in one pass.
    pub fn mobility_of(&self, color: Color) -> (u64, u32) {
        if self.phase() != Phase::Jumps || self.rules().capture.turns() {
            return (self.count_moves_of(color), self.movers_of(color));
        }
        let (own, enemy) = match color {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        };
        let empty = self.layout.all & !(own | enemy);
        let single = self.rules().capture.single_jump();
        let (a, from_a) = self.count_and_jumpers::<true>(0, own, enemy, empty, single);
        let (b, from_b) = self.count_and_jumpers::<true>(1, own, enemy, empty, single);
        let (c, from_c) = self.count_and_jumpers::<false>(2, own, enemy, empty, single);
        let (d, from_d) = self.count_and_jumpers::<false>(3, own, enemy, empty, single);
        (a + b + c + d, (from_a | from_b | from_c | from_d).count())
    }

    /// The number of `color`'s stones that have at least one jump.
    pub fn movers_of(&self, color: Color) -> u32 {
        let [a, b, c, d] = self.jumpers(color);
        (a | b | c | d).count()
    }

    /// True when the side to move has no legal move, and so has lost.
    pub fn is_game_over(&self) -> bool {
        if self.phase() != Phase::Jumps {
            return self.removable().is_empty();
        }
        let (own, enemy) = self.own_and_enemy();
        let empty = self.empty();
        (0..4).all(|d| {
            let step = self.layout.step[d];
            (((own & self.layout.jump_from[d]).shift(step) & enemy).shift(step) & empty).is_empty()
        })
    }

    /// Says whether `mv` is legal here, and if not, why.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let rules = self.rules();
        if !rules.contains(mv.from()) {
            return Err(IllegalMove::OffBoard(mv.from()));
        }
        let from = rules.index(mv.from());
        if mv.is_removal() {
            return match self.phase() {
                Phase::Jumps => Err(IllegalMove::JumpDue),
                _ if self.removable().has(from) => Ok(()),
                phase => Err(IllegalMove::NotRemovable(
                    mv.from(),
                    self.removal_rule(phase),
                )),
            };
        }
        if self.phase() != Phase::Jumps {
            return Err(IllegalMove::RemovalDue);
        }
        let forbidden = match rules.capture {
            Capture::Single => (mv.jump_count() > 1).then_some("allows one jump a move"),
            Capture::Straight => {
                (!mv.is_straight()).then_some("does not allow a change of direction")
            }
            Capture::Turning => None,
        };
        if let Some(why) = forbidden {
            return Err(IllegalMove::Forbidden(rules.capture, why));
        }
        let (own, mut enemy) = self.own_and_enemy();
        if !own.has(from) {
            return Err(IllegalMove::NotOwnStone(mv.from()));
        }
        let mut empty = self.empty() | B::single(from);
        let mut at = mv.from();
        for direction in mv.directions() {
            let over = at.offset(direction, 1).filter(|s| rules.contains(*s));
            let to = at.offset(direction, 2).filter(|s| rules.contains(*s));
            let (Some(over), Some(to)) = (over, to) else {
                let outside = at.offset(direction, 2).unwrap_or(at);
                return Err(IllegalMove::OffBoard(outside));
            };
            let (over_index, to_index) = (rules.index(over), rules.index(to));
            if !enemy.has(over_index) {
                return Err(IllegalMove::NothingToCapture(over));
            }
            if !empty.has(to_index) {
                return Err(IllegalMove::LandingOccupied(to));
            }
            // The jumping stone is lifted off: the squares it visits stay empty.
            enemy ^= B::single(over_index);
            empty |= B::single(over_index);
            at = to;
        }
        Ok(())
    }

    fn removal_rule(&self, phase: Phase) -> &'static str {
        match (phase, self.rules().opening) {
            (Phase::WhiteRemoval, _) => "White removes a white stone next to the hole",
            (_, Opening::Traditional) => {
                "Black removes a black stone from the centre 2x2 or a corner"
            }
            (_, Opening::Any) => "Black removes a black stone",
        }
    }

    /// Toggles the mover's `mine` squares and removes the `captured` stones, then passes the turn.
    #[inline(always)]
    fn finish_move(&mut self, mine: B, captured: B, hash: u64) {
        match self.side {
            Color::Black => {
                self.black ^= mine;
                self.white ^= captured;
            }
            Color::White => {
                self.white ^= mine;
                self.black ^= captured;
            }
        }
        self.side = self.side.opponent();
        self.hash = hash;
    }

    /// Plays `mv` without checking it: for moves this board generated. [`Board::play`]
    /// checks.
    ///
    /// # Panics
    ///
    /// An illegal `mv` may panic (a jump off the board) or leave a position no game reaches.
    pub fn play_unchecked(&mut self, mv: Move) {
        let rules = self.rules();
        let mover = self.side;
        let from = rules.index(mv.from());
        let mut hash = self.hash ^ KEYS.white_to_move ^ KEYS.stone(mover, from);
        let mut mine = B::single(from);
        let mut captured = B::default();
        let mut at = from as i32;
        for direction in mv.directions() {
            let step = self.layout.step[direction.index()];
            let over = (at + step) as usize;
            captured |= B::single(over);
            hash ^= KEYS.stone(mover.opponent(), over);
            at += 2 * step;
        }
        if !mv.is_removal() {
            let to = at as usize;
            mine ^= B::single(to);
            hash ^= KEYS.stone(mover, to);
        }
        self.finish_move(mine, captured, hash);
    }

    /// Plays `mv` if it is legal; otherwise leaves the position as it was.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// The number of leaf positions `depth` plies ahead (every ply counts, removals too).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ if self.phase() == Phase::Jumps && !self.rules().capture.turns() => {
                let (own, enemy) = self.own_and_enemy();
                self.perft_straight(own, enemy, depth)
            }
            _ => {
                let mut total = 0;
                self.for_each_move(|mv| {
                    let mut child = *self;
                    child.play_unchecked(mv);
                    total += child.perft(depth - 1);
                });
                total
            }
        }
    }

    /// [`Board::perft`] split by the first move.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let mut counts = Vec::new();
        if depth == 0 {
            return counts;
        }
        self.for_each_move(|mv| {
            let mut child = *self;
            child.play_unchecked(mv);
            counts.push((mv, child.perft(depth - 1)));
        });
        counts
    }
}

impl<B: Bits> fmt::Debug for Board<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} {})", self.diagram(), self.rules())
    }
}

/// `set` moved `by` places (below 64) in a jump's direction: towards higher indices when
/// `UP`, lower ones otherwise; against that direction when `back`.
#[inline(always)]
fn hop<B: Bits, const UP: bool>(set: B, by: u32, back: bool) -> B {
    if UP != back {
        set.shift_up(by)
    } else {
        set.shift_down(by)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_matches_the_rules_page() {
        let board = Board::<u64>::start(Rules::default());
        let counts: Vec<u64> = (1..=6).map(|d| board.perft(d)).collect();
        assert_eq!(counts, [4, 12, 28, 172, 892, 7124]);
    }

    #[test]
    fn mobility_is_the_moves_and_the_movers_counted_apart() {
        let mut seed = 7u64;
        for capture in Capture::ALL {
            for (width, height) in [(6, 6), (5, 7), (8, 8)] {
                let rules = Rules::new(width, height, Opening::Any, capture).unwrap();
                for _ in 0..20 {
                    let mut board = Board::<u64>::start(rules);
                    loop {
                        for color in [Color::Black, Color::White] {
                            let apart = (board.count_moves_of(color), board.movers_of(color));
                            assert_eq!(board.mobility_of(color), apart, "{rules}");
                        }
                        let mut moves = Vec::new();
                        board.for_each_move(|mv| moves.push(mv));
                        if moves.is_empty() {
                            break;
                        }
                        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        board.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
                    }
                }
            }
        }
    }
}
