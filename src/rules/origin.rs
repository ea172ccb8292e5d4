//! Whether a position can arise in a game: the conditions every position reached from the full
//! board must meet, so that a position editor can say when a set-up is not one of them.
//!
//! The conditions are necessary, not sufficient: a position that breaks one cannot arise, one
//! that breaks none may still be out of reach (only a search back to the start could tell).
//! They follow from the rules alone:
//! - a jump moves its stone two squares along a line, so every stone stays on squares of the
//!   colour it started on (a black stone on a square where file + rank is odd);
//! - Black removes first and White second, next to Black's hole, and only then are there
//!   captures: the two removals are the only holes until the first capture;
//! - after the removals, each side's missing stones (but one) are the other side's captures,
//!   every move captures at least one stone (exactly one with `single`, at most
//!   (longest side - 1) / 2 with `straight`), and the moves alternate from Black's first.

use crate::rules::position::Position;
use crate::rules::square::{Color, Direction, Square};
use crate::rules::{Capture, Opening, Rules, RulesError};
use std::fmt;

/// A reason a position cannot arise in a game from the full board under its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreachable {
    /// No game starts on this board under these rules (the traditional opening on an odd side).
    NoStart(RulesError),
    /// A stone stands on a square of the other colour.
    OffColour {
        /// The square.
        square: Square,
        /// The stone's colour.
        color: Color,
    },
    /// White stones are missing but no black one: Black removes first.
    WhiteRemovedFirst,
    /// Black's removal is done and Black is to move: White's removal is due.
    WhiteRemovalDue,
    /// Black stones are missing beyond the first removal, but no white one: there is no
    /// capture before White's removal.
    CaptureBeforeRemovals {
        /// The black stones missing.
        missing: u32,
    },
    /// With the traditional opening, Black's hole is neither in the centre 2x2 nor a corner.
    RemovalNotAllowed {
        /// Black's hole.
        square: Square,
    },
    /// Before any capture, White's hole is not next to Black's.
    RemovalsApart {
        /// Black's hole.
        black: Square,
        /// White's hole.
        white: Square,
    },
    /// The captures cannot be split into alternating moves ending with this side to move.
    Captures {
        /// Stones Black has captured (white stones missing, less White's removal).
        by_black: u32,
        /// Stones White has captured (black stones missing, less Black's removal).
        by_white: u32,
        /// The side to move.
        to_move: Color,
        /// The most stones one move can capture under these rules.
        most_per_move: u32,
    },
}

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreachable::NoStart(why) => write!(f, "no game starts here: {why}"),
            Unreachable::OffColour { square, color } => write!(
                f,
                "the {} stone on {square} stands on a {} square: jumps move stones two \
                 squares, so each stays on squares of its own colour",
                color.name(),
                color.opponent().name()
            ),
            Unreachable::WhiteRemovedFirst => write!(
                f,
                "white stones are missing but no black one: Black removes a stone first"
            ),
            Unreachable::WhiteRemovalDue => write!(
                f,
                "one black stone is missing and Black is to move: White's removal comes next"
            ),
            Unreachable::CaptureBeforeRemovals { missing } => write!(
                f,
                "{missing} black stones are missing but no white one: nothing is captured \
                 before White's removal"
            ),
            Unreachable::RemovalNotAllowed { square } => write!(
                f,
                "Black's removal emptied {square}, neither in the centre 2x2 nor a corner \
                 (traditional opening)"
            ),
            Unreachable::RemovalsApart { black, white } => write!(
                f,
                "the removals emptied {black} and {white}, which are not side by side: White \
                 removes a stone next to Black's hole"
            ),
            Unreachable::Captures {
                by_black,
                by_white,
                to_move,
                most_per_move,
            } => {
                let turns = match to_move {
                    Color::Black => "both sides have made as many moves",
                    Color::White => "Black has made one move more than White",
                };
                let each = match most_per_move {
                    1 => "exactly one stone".to_string(),
                    most => format!("1 to {most} stones"),
                };
                write!(
                    f,
                    "Black has captured {by_black} stones and White {by_white} (the missing \
                     stones but the removals): with {} to move {turns}, each capturing {each}",
                    to_move.name()
                )
            }
        }
    }
}

impl Position {
    /// Every reason found that this position cannot arise in a game from the full board
    /// under its rules; empty when none is found (which does not prove it can arise).
    ///
    /// ```
    /// use konane::{Capture, Opening, Position};
    ///
    /// // 4x4 after Black removed c4 and White b4: Black to move, as it can be.
    /// let after = Position::from_fen("b2w/wbwb/bwbw/wbwb b", Opening::Any, Capture::Straight)?;
    /// assert!(after.why_unreachable().is_empty());
    /// // With White to move Black would have moved, but no white stone was captured.
    /// let wrong = after.with_side_to_move(konane::Color::White);
    /// assert_eq!(wrong.why_unreachable().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn why_unreachable(&self) -> Vec<Unreachable> {
        let rules = self.rules();
        if let Err(why) = rules.check_opening() {
            return vec![Unreachable::NoStart(why)];
        }
        let squares = (0..rules.area()).map(|i| rules.square(i));
        let reasons: Vec<Unreachable> = squares
            .clone()
            .filter_map(|square| {
                let color = self.stone_on(square)?;
                (color != Color::of_start_square(square))
                    .then_some(Unreachable::OffColour { square, color })
            })
            .collect();
        if !reasons.is_empty() {
            // The counts below assume each stone is on its own squares.
            return reasons;
        }
        let holes = |color: Color| -> Vec<Square> {
            squares
                .clone()
                .filter(|&s| Color::of_start_square(s) == color && self.stone_on(s).is_none())
                .collect()
        };
        let (black_holes, white_holes) = (holes(Color::Black), holes(Color::White));
        let (missing_black, missing_white) = (black_holes.len() as u32, white_holes.len() as u32);
        let to_move = self.side_to_move();
        let mut reasons = Vec::new();
        match (missing_black, missing_white) {
            (0, 0) => {}
            (0, _) => reasons.push(Unreachable::WhiteRemovedFirst),
            (1, 0) if to_move == Color::Black => reasons.push(Unreachable::WhiteRemovalDue),
            (1, 0) => {}
            (missing, 0) => reasons.push(Unreachable::CaptureBeforeRemovals { missing }),
            (black_gone, white_gone) => {
                // Each side's stones gone, but its removal, were the other side's captures.
                let (by_black, by_white) = (white_gone - 1, black_gone - 1);
                let most_per_move = most_captured_in_one_move(rules);
                if !captures_fit_moves(by_black, by_white, to_move, most_per_move) {
                    reasons.push(Unreachable::Captures {
                        by_black,
                        by_white,
                        to_move,
                        most_per_move,
                    });
                }
            }
        }
        // Until the first capture the holes are the removals.
        if let ([black], [] | [_]) = (black_holes.as_slice(), white_holes.as_slice()) {
            if rules.opening == Opening::Traditional && !rules.is_traditional_removal(*black) {
                reasons.push(Unreachable::RemovalNotAllowed { square: *black });
            }
            if let [white] = white_holes.as_slice()
                && Direction::between(*black, *white).is_none_or(|(_, steps)| steps != 1)
            {
                reasons.push(Unreachable::RemovalsApart {
                    black: *black,
                    white: *white,
                });
            }
        }
        reasons
    }
}

/// The most stones one move can capture under `rules`: one jump per move with `single`; a
/// straight line of jumps along the longest side with `straight`; with `turning` a move may
/// wind over the board, bounded here only by the stones there are.
fn most_captured_in_one_move(rules: Rules) -> u32 {
    let longest = u32::from(rules.width().max(rules.height()));
    match rules.capture {
        Capture::Single => 1,
        Capture::Straight => (longest - 1) / 2,
        Capture::Turning => rules.area() as u32,
    }
}

/// True when Black's `by_black` and White's `by_white` captures can be made in alternating
/// moves from Black's first, each capturing 1 to `most_per_move` stones, so that `to_move`
/// is then to move. Tries every number of White moves.
fn captures_fit_moves(by_black: u32, by_white: u32, to_move: Color, most_per_move: u32) -> bool {
    let fits = |moves: u32, captured: u32| moves <= captured && captured <= moves * most_per_move;
    (0..=by_white).any(|white_moves| {
        let black_moves = white_moves + u32::from(to_move == Color::White);
        fits(white_moves, by_white) && fits(black_moves, by_black)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen::Diagram;

    fn position(text: &str, opening: Opening, capture: Capture) -> Position {
        Position::from_fen(text, opening, capture).unwrap()
    }

    /// Every position of every game from `position` to `depth` plies, into `seen`.
    fn walk(position: Position, depth: u32, seen: &mut Vec<Position>) {
        seen.push(position);
        if depth == 0 {
            return;
        }
        for mv in position.legal_moves() {
            let mut next = position;
            next.play_unchecked(mv);
            walk(next, depth - 1, seen);
        }
    }

    #[test]
    fn every_position_of_real_games_passes() {
        for (width, height, opening, capture) in [
            (6, 6, Opening::Traditional, Capture::Straight),
            (5, 5, Opening::Any, Capture::Single),
            (4, 7, Opening::Any, Capture::Turning),
            (8, 3, Opening::Any, Capture::Straight),
        ] {
            let rules = Rules::new(width, height, opening, capture).unwrap();
            let mut seen = Vec::new();
            walk(Position::start(rules).unwrap(), 6, &mut seen);
            assert!(seen.len() > 100, "{rules}: {} positions", seen.len());
            for position in seen {
                let reasons = position.why_unreachable();
                assert!(reasons.is_empty(), "{}: {reasons:?}", position.fen());
            }
        }
    }

    #[test]
    fn each_reason_is_found_and_named() {
        let straight = |text| position(text, Opening::Traditional, Capture::Straight);
        let reasons = |p: Position| -> Vec<String> {
            p.why_unreachable().iter().map(|r| r.to_string()).collect()
        };
        // A white stone on b1, a black square (a1 is white).
        let off = reasons(straight("bwbw/wbwb/bwbw/ww1b b"));
        assert_eq!(off.len(), 1, "{off:?}");
        assert!(off[0].contains("white stone on b1 stands on a black square"));
        // White's hole without Black's.
        let first = straight("bwbw/wbwb/bwbw/1bwb b");
        assert_eq!(reasons(first), [Unreachable::WhiteRemovedFirst.to_string()]);
        // Black removed a corner, Black to move again.
        let due = straight("bwbw/wbwb/bwbw/wbw1 b");
        assert_eq!(due.why_unreachable(), [Unreachable::WhiteRemovalDue]);
        assert!(
            due.with_side_to_move(Color::White)
                .why_unreachable()
                .is_empty()
        );
        // Two black holes, no white one.
        let early = straight("bwbw/wbwb/bw1w/wbw1 w");
        assert_eq!(
            early.why_unreachable(),
            [Unreachable::CaptureBeforeRemovals { missing: 2 }]
        );
        // On 6x6, b3 is neither centre nor corner; with `any` it may be removed.
        let side = "bwbwbw/wbwbwb/bwbwbw/w1wbwb/bwbwbw/wbwbwb w";
        let square = "b3".parse().unwrap();
        assert_eq!(
            straight(side).why_unreachable(),
            [Unreachable::RemovalNotAllowed { square }]
        );
        assert!(
            position(side, Opening::Any, Capture::Straight)
                .why_unreachable()
                .is_empty()
        );
        // The traditional opening has no start on 5x5.
        let odd = straight("bwbwb/wbwbw/bw1wb/wbwbw/bwbwb w");
        assert!(matches!(
            odd.why_unreachable()[..],
            [Unreachable::NoStart(_)]
        ));
        // Holes c4 (Black's) and a1 (White's), apart.
        let apart = straight("bwbwbw/wbwbwb/bw1wbw/wbwbwb/bwbwbw/1bwbwb b");
        let (black, white) = ("c4".parse().unwrap(), "a1".parse().unwrap());
        assert_eq!(
            apart.why_unreachable(),
            [Unreachable::RemovalsApart { black, white }]
        );
    }

    #[test]
    fn captures_must_split_into_alternating_moves() {
        // 8x1 is not a board; 8x2: the bottom rank's stones only move along it.
        let fen_with = |empties: &[&str], side: Color| {
            let mut diagram = Diagram::parse("bwbwbwbw/wbwbwbwb b").unwrap();
            for name in empties {
                let square: Square = name.parse().unwrap();
                diagram.squares[usize::from(square.rank()) * 8 + usize::from(square.file())] = None;
            }
            diagram.side = side;
            diagram.to_string()
        };
        // Black's hole b1, White's c1, then one capture each: Black to move.
        let holes = ["b1", "c1", "a2", "b2"];
        for (capture, black_to_move, white_to_move) in [
            (Capture::Straight, true, false),
            (Capture::Single, true, false),
        ] {
            for (side, expected) in [(Color::Black, black_to_move), (Color::White, white_to_move)] {
                let p = position(&fen_with(&holes, side), Opening::Any, capture);
                assert_eq!(
                    p.why_unreachable().is_empty(),
                    expected,
                    "{capture:?} {side:?}"
                );
            }
        }
        // Three white stones captured and one black: one Black move took two with
        // `straight` (White to move), never with `single`.
        let holes = ["b1", "c1", "a2", "b2", "e1", "g1"];
        let straight = position(
            &fen_with(&holes, Color::White),
            Opening::Any,
            Capture::Straight,
        );
        let single = position(
            &fen_with(&holes, Color::White),
            Opening::Any,
            Capture::Single,
        );
        assert_eq!(straight.why_unreachable(), []);
        assert_eq!(
            single.why_unreachable(),
            [Unreachable::Captures {
                by_black: 3,
                by_white: 1,
                to_move: Color::White,
                most_per_move: 1,
            }]
        );
    }

    #[test]
    fn no_position_of_any_whole_game_on_small_boards_is_refused() {
        // Every game to its end, under every rule, from the start: the naive oracle of what
        // can arise.
        for (width, height) in [(3, 3), (4, 3), (2, 5), (4, 4)] {
            for opening in [Opening::Traditional, Opening::Any] {
                for capture in [Capture::Straight, Capture::Single, Capture::Turning] {
                    let rules = Rules::new(width, height, opening, capture).unwrap();
                    let Ok(start) = Position::start(rules) else {
                        continue;
                    };
                    let mut seen = Vec::new();
                    walk(start, u32::MAX, &mut seen);
                    for position in seen {
                        let reasons = position.why_unreachable();
                        assert!(
                            reasons.is_empty(),
                            "{rules} {}: {reasons:?}",
                            position.fen()
                        );
                    }
                }
            }
        }
    }
}
