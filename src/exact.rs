//! Exact play in small positions: before searching, the engine tries to prove a win, from the
//! values of the position's independent regions when it splits (src/value), else with the
//! solver (src/solve), so that it never misplays an endgame it could have proven. A proof is
//! reported as `mate N`; anything else falls back to the playing search, which leaves out the
//! moves the attempt proved to lose.

use crate::rules::Rules;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::solve::{Method, MoveResult, Proof, ProofTable, Searching, Solver};
use crate::value::Values;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The share of a move's soft time budget a proof attempt may take; the search has the rest.
pub const PROOF_SHARE: f64 = 0.5;

/// The most stones a position may have for a proof attempt of `time` on a board of `area`
/// squares. Measured by `cargo run --release --example proof_times` on positions of engine
/// games, with a cold table: the median proof takes about 50 ms at `20 + area / 5` stones (28
/// on 6x6, 32 on 8x8, 40 on 10x10; on 12x12, 13 ms at 44 stones, the most measured), and about
/// three times longer with each stone more. A position is tried when its median proof would
/// take at most nine times `time` (two stones over the 50 ms count at 50 ms), and at 32 stones
/// or fewer whatever the time: the table of a game's earlier attempts makes later proofs much
/// faster than the cold median, most of all on small boards. On 6x6 against a perfect defender
/// (`scripts/convert.sh`), this converts 33, 34 and 36 of 36 won positions at 10, 30 and 100 ms
/// a move; without the 32-stone floor 28, 33 and 35.
pub fn max_stones(area: usize, time: Duration) -> usize {
    const MARGIN: f64 = 2.0;
    const FLOOR: usize = 32;
    let at_50_ms = 20 + area / 5;
    let ms = time.as_secs_f64() * 1000.0;
    let extra = ((ms / 50.0).ln() / 3f64.ln() + MARGIN).floor();
    (at_50_ms as f64 + extra).max(FLOOR as f64) as usize
}

/// The proof table's size in MB.
const TABLE_MB: usize = 16;
/// The most stones a region may hold for an attempt by values: a region of a dozen stones
/// takes at most some thousands of positions (4x4 full but for two squares, 14 stones: 1,800),
/// and a position with a larger region is left to the solver. Without this bound a position
/// early in a 12x12 game that split off one lost stone spent a move's time valuing the rest,
/// and the engine lost 45 Elo (-45.3, 95% interval -93 to +1, 216 games at 1+0.01).
const MOST_REGION_STONES: u32 = 12;
/// Positions an attempt by values may value anew per millisecond of its time: valuing runs at
/// about 65,000 positions a second on the regions of narrow boards (10x3: 14.6M positions in
/// 216 s of CPU), faster on small ones; a third of that leaves room for slower machines.
const VALUED_PER_MS: u64 = 20;
/// Positions valued by the attempts of one move at least, however short its time.
const LEAST_VALUED: u64 = 500;
/// Positions whose values are kept from move to move (then forgotten at once): some 60 bytes
/// each with their games, so about 60 MB.
const MOST_KEPT: u64 = 1_000_000;

/// A proven win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenWin {
    /// A winning move.
    pub best: Move,
    /// The opponent's reply to expect after `best` (the move to ponder on); `None` when the
    /// opponent has no move.
    pub reply: Option<Move>,
    /// Our moves until the opponent has none, at most (the `N` of `mate N`).
    pub mate_in: u32,
    /// Nodes the proof took.
    pub nodes: u64,
}

/// What one proof attempt found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attempt {
    /// A proven win, if found.
    pub win: Option<ProvenWin>,
    /// Moves proven to lose (all of them when the position is lost).
    pub losing: Vec<Move>,
}

/// The solver's table, kept from move to move for one set of rules, and the values of the
/// regions met.
pub struct Exact {
    table: Option<(Rules, ProofTable)>,
    values: Values,
}

impl Default for Exact {
    fn default() -> Exact {
        Exact::new()
    }
}

impl Exact {
    /// No table yet: it is made on first use.
    pub fn new() -> Exact {
        Exact {
            table: None,
            values: Values::new(0),
        }
    }

    /// Makes the table ready for `rules` (a proof is true in every game under the same rules,
    /// so it is kept from game to game): made and written through on first use, cleared when
    /// the rules change. Called before the clock runs, so that no timed proof pays for it.
    pub fn prepare(&mut self, rules: Rules) {
        match &mut self.table {
            Some((known, _)) if *known == rules => {}
            Some((known, table)) => {
                table.clear();
                *known = rules;
            }
            None => {
                if let Ok(mut table) = ProofTable::new(TABLE_MB) {
                    table.clear();
                    self.table = Some((rules, table));
                }
            }
        }
    }

    /// Tries to prove a win in `position` by `deadline` (or until `stop` is set); nothing is
    /// tried in a position with more stones than [`max_stones`] allows for the time left.
    pub fn attempt(
        &mut self,
        position: &Position,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Attempt {
        let time = deadline.saturating_duration_since(Instant::now());
        self.attempt_sized(position, time, Some(deadline), stop)
    }

    /// Tries to prove a win in `position` while pondering: in the positions an attempt of
    /// `time` would try, with no deadline, until the proof is done or `stop` is set (by
    /// `ponderhit` or `stop`).
    pub fn ponder(&mut self, position: &Position, time: Duration, stop: &AtomicBool) -> Attempt {
        self.attempt_sized(position, time, None, stop)
    }

    /// An attempt sized for `time` (which positions are tried, how many regions valued), that
    /// ends at `deadline` if there is one.
    fn attempt_sized(
        &mut self,
        position: &Position,
        time: Duration,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Attempt {
        let stones = position.stone_total() as usize;
        if position.is_game_over() {
            return Attempt::default();
        }
        if let Some(attempt) = self.by_values(position, time, stop) {
            return attempt;
        }
        if stones > max_stones(position.rules().area(), time) {
            return Attempt::default();
        }
        self.prepare(position.rules());
        let Some((_, table)) = self.table.as_mut() else {
            return Attempt::default();
        };
        // Depth-first on every board: the proof-number search, better for long solves of
        // narrow boards, has not been measured in play.
        let solver = Solver::new(table, stop).with_searching(Searching {
            threads: 1,
            method: Some(Method::DepthFirst),
        });
        let mut solver = match deadline {
            Some(deadline) => solver.with_deadline(deadline),
            None => solver,
        };
        let solution = solver.solve(position, false);
        let win = match (solution.wins, solution.best(), solution.plies) {
            (Some(true), Some(best), Some(plies)) => Some(ProvenWin {
                best,
                reply: expected_reply(position, best, solver.proven_under(position.rules())),
                mate_in: u32::from(plies).div_ceil(2),
                nodes: solution.nodes,
            }),
            _ => None,
        };
        let losing = solution
            .moves
            .iter()
            .filter(|(_, result)| *result == MoveResult::Loses)
            .map(|&(mv, _)| mv)
            .collect();
        Attempt { win, losing }
    }

    /// Proves what it can of `position` from the values of its regions, when it splits into
    /// two or more and each move's value is found within the positions `time` allows: a
    /// winning move, or every move lost. `None` otherwise (the solver is tried then).
    fn by_values(
        &mut self,
        position: &Position,
        time: Duration,
        stop: &AtomicBool,
    ) -> Option<Attempt> {
        let regions = position.regions();
        let largest = regions.iter().map(Position::stone_total).max().unwrap_or(0);
        if regions.len() < 2 || largest > MOST_REGION_STONES {
            return None;
        }
        if self.values.positions() > MOST_KEPT {
            self.values = Values::new(0);
        }
        let before = self.values.positions();
        let millis = u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
        self.values
            .allow(millis.saturating_mul(VALUED_PER_MS).max(LEAST_VALUED));
        let mover = position.side_to_move();
        let mut losing = Vec::new();
        for mv in position.legal_moves() {
            let mut after = *position;
            after.play_unchecked(mv);
            if self.values.value(&after, stop).ok()?.winner == mover {
                // No game lasts more plies than there are stones.
                let plies = after.stone_total();
                return Some(Attempt {
                    win: Some(ProvenWin {
                        best: mv,
                        reply: after.legal_moves().first().copied(),
                        mate_in: 1 + plies.div_ceil(2),
                        nodes: self.values.positions() - before,
                    }),
                    losing,
                });
            }
            losing.push(mv);
        }
        Some(Attempt { win: None, losing })
    }
}

/// The reply to expect after our proven winning move `best`: every reply loses, and a defender
/// holds out longest, so the reply after which `proven` (the proof table) gives our win the most
/// plies; the first reply when it knows none of them. `None` when the opponent has no move.
fn expected_reply(
    position: &Position,
    best: Move,
    proven: impl Fn(&Position) -> Option<Proof>,
) -> Option<Move> {
    let mut after = *position;
    after.play_unchecked(best);
    let replies = after.legal_moves();
    let plies_after = |reply: &Move| {
        let mut next = after;
        next.play_unchecked(*reply);
        proven(&next).map_or(0, |proof| proof.plies)
    };
    // `max_by_key` keeps the last of equals; the first reply is wanted among those unknown.
    replies
        .iter()
        .rev()
        .max_by_key(|reply| plies_after(reply))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Color, Diagram, Opening};

    /// 24 stones on 6x6 after these moves, Black to move and win (a proof of some 500 nodes).
    const QUICK_WIN: &str = "f1 f2 d1f1 d2f2 e4e2 b2d2 b1d1 c3e3 c4e4 d6d4 e2c2 b6d6";

    fn six_by_six(moves: &str) -> Position {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let mut position = Position::start(rules).unwrap();
        for mv in moves.split(' ') {
            position.play(mv.parse().unwrap()).unwrap();
        }
        position
    }

    #[test]
    fn an_attempt_gives_the_win_or_the_moves_that_lose() {
        let mut exact = Exact::new();
        let stop = AtomicBool::new(false);
        let far = Instant::now() + Duration::from_secs(60);
        // Black to move and win (the solver's pinned 6x6 results).
        let won = six_by_six(QUICK_WIN);
        let attempt = exact.attempt(&won, far, &stop);
        let win = attempt.win.expect("proven");
        let mut after = won;
        after.play(win.best).unwrap();
        assert!(exact.attempt(&after, far, &stop).win.is_none());
        // Black to move and lose: every move is proven to lose.
        let lost = six_by_six("d3 c3 d1d3 f2d2 f1d1 c5c3 c2e2 d4d2 e2c2 c1e1 b3d3 b2d2");
        let attempt = exact.attempt(&lost, far, &stop);
        assert_eq!(attempt.win, None);
        let mut losing = attempt.losing;
        let mut legal = lost.legal_moves();
        losing.sort_by_key(|m| m.to_string());
        legal.sort_by_key(|m| m.to_string());
        assert_eq!(losing, legal);
        // Past the deadline nothing is proven.
        let attempt = exact.attempt(&six_by_six("c4 c3"), Instant::now(), &stop);
        assert_eq!(attempt, Attempt::default());
    }

    #[test]
    fn the_reply_expected_after_a_win_is_the_one_the_table_says_holds_out_longest() {
        let won = six_by_six(QUICK_WIN);
        let mut exact = Exact::new();
        let far = Instant::now() + Duration::from_secs(60);
        let win = exact
            .attempt(&won, far, &AtomicBool::new(false))
            .win
            .unwrap();
        let best = win.best;
        let mut after = won;
        after.play(best).unwrap();
        let replies = after.legal_moves();
        assert!(replies.len() >= 2, "{replies:?}");
        let after_reply = |reply: Move| {
            let mut next = after;
            next.play(reply).unwrap();
            next
        };
        // Nothing known: the first reply.
        assert_eq!(expected_reply(&won, best, |_| None), Some(replies[0]));
        // The second reply holds out longest; the first is known to be short.
        let (short, long) = (after_reply(replies[0]), after_reply(replies[1]));
        let table = |position: &Position| {
            let plies = if *position == short {
                3
            } else if *position == long {
                9
            } else {
                return None;
            };
            Some(Proof { wins: true, plies })
        };
        assert_eq!(expected_reply(&won, best, table), Some(replies[1]));
        // A real attempt names a legal reply.
        assert!(replies.contains(&win.reply.unwrap()));
        // No reply at all: none expected.
        let quick = Position::from_fen("4/4/1bw1/4 b", Opening::Any, Capture::Straight).unwrap();
        let jump = quick.legal_moves()[0];
        assert_eq!(expected_reply(&quick, jump, |_| None), None);
    }

    #[test]
    fn positions_that_split_are_proven_from_values_as_the_solver_proves_them() {
        let stop = AtomicBool::new(false);
        let far = Instant::now() + Duration::from_secs(60);
        let mut random = crate::rules::mix::Random::new(3);
        let mut exact = Exact::new();
        let (mut wins, mut losses) = (0, 0);
        while wins < 10 || losses < 10 {
            // Sparse random positions of 10x10: most split into several regions.
            let squares = (0..100)
                .map(|i| match (random.below(100) < 18, (i % 10 + i / 10) % 2) {
                    (false, _) => None,
                    (true, 0) => Some(Color::White),
                    (true, _) => Some(Color::Black),
                })
                .collect();
            let side = if random.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            let diagram = Diagram {
                width: 10,
                height: 10,
                squares,
                side,
            };
            let fen = diagram.to_string();
            let position = Position::from_fen(&fen, Opening::Any, Capture::Straight).unwrap();
            if position.regions().len() < 2 || position.is_game_over() {
                continue;
            }
            // Positions with a region of more than a dozen stones are left to the solver.
            let Some(attempt) = exact.by_values(&position, Duration::from_secs(10), &stop) else {
                continue;
            };
            let table = ProofTable::new(16).unwrap();
            let truth = Solver::new(&table, &stop)
                .with_deadline(far)
                .solve(&position, true);
            assert_eq!(attempt.win.is_some(), truth.wins == Some(true), "{fen}");
            match attempt.win {
                Some(win) => {
                    assert!(
                        truth.winning_moves().contains(&win.best),
                        "{fen}: {}",
                        win.best
                    );
                    wins += 1;
                }
                None => {
                    assert_eq!(attempt.losing.len(), position.legal_moves().len(), "{fen}");
                    losses += 1;
                }
            }
        }
    }

    #[test]
    fn the_stone_limit_grows_with_the_board_and_the_time() {
        let ms = Duration::from_millis;
        // At 50 ms: the measured count plus the margin of two stones.
        assert_eq!(max_stones(64, ms(50)), 34);
        assert_eq!(max_stones(100, ms(50)), 42);
        // Three times the time, one stone more; a third, one less.
        assert_eq!(max_stones(64, ms(150)), 35);
        assert_eq!(max_stones(64, ms(17)), 33);
        // Never below 32 stones.
        assert_eq!(max_stones(64, ms(10)), 32);
        assert_eq!(max_stones(36, ms(50)), 32);
        assert_eq!(max_stones(100, Duration::ZERO), 32);
    }
}
