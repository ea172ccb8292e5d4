//! Iterative-deepening principal-variation alpha-beta with aspiration windows, a shared
//! transposition table, killer, counter-move and history move ordering, reverse futility and
//! late move pruning, late move and internal iterative reductions, and lazy SMP helper
//! threads.

mod accumulator;
pub mod eval;
pub mod fill;
pub mod net;
pub mod net_train;
mod net_weights_10x10;
mod net_weights_6x6;
mod net_weights_8x8;
pub mod networks;
mod pattern_weights;
pub mod patterns;
pub mod selfplay;
pub(crate) mod skill;
pub mod stone_accumulator;
pub(crate) mod time;
pub(crate) mod tt;
pub mod tune;

use crate::protocol::info::Score;
use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::moves::Move;
use crate::rules::position::{BoardVisitor, Position};
use accumulator::Accumulator;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use stone_accumulator::StoneAccumulator;
use time::{Budget, Limits};
use tt::{Bound, Entry, Table};

/// The score of a position whose side to move has lost (minus the plies to get there).
pub const MATE: i32 = 30_000;
const INFINITY: i32 = 31_000;
/// The deepest the search ever goes.
pub const MAX_PLY: usize = 120;
/// Scores at least this far from zero are forced wins or losses.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The score a GUI is shown for an internal `score`: the protocol's one [`Score`], a
/// forced win or loss counted in our moves.
pub fn shown_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate(i64::from((MATE - score + 1) / 2))
    } else if score <= -MATE_BOUND {
        Score::Mate(-i64::from((MATE + score + 1) / 2))
    } else {
        Score::Centi(i64::from(score))
    }
}

/// What one finished iteration found, for `info` lines.
#[derive(Clone, Debug)]
pub struct Report {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score of the best line.
    pub score: Score,
    /// Nodes searched by all threads so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Its rank among the lines of a multi-line search (1 the best); `None` with one line.
    pub multipv: Option<u32>,
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// Signals from the thread that reads commands to the searching threads.
#[derive(Debug, Default)]
pub struct Flags {
    /// Set to make every search thread return at once.
    pub stop: AtomicBool,
    /// True while the search is pondering: time limits wait until it is cleared (`ponderhit`).
    pub pondering: AtomicBool,
    /// Set by `ponderhit` and `stop`: ends a proof attempted while pondering.
    pub ponder_ended: AtomicBool,
}

impl Flags {
    /// Waits, as UCI asks before `bestmove`, until `stop`, or until `ponderhit` while
    /// pondering; with `infinite` (after `go infinite`) only `stop` ends the wait.
    pub fn wait_for_the_end_of_thinking(&self, infinite: bool) {
        while !self.stop.load(Ordering::Relaxed)
            && (infinite || self.pondering.load(Ordering::Relaxed))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// What every search thread shares: the table and the flags.
#[derive(Clone, Copy)]
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Table,
    /// Stop and ponder signals.
    pub flags: &'a Flags,
}

/// How a search is run, beyond the GUI's limits.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Search threads, the main one included.
    pub threads: usize,
    /// Time kept back per move for communication delays.
    pub move_overhead: Duration,
    /// 0 (weakest) to `skill::FULL` (full strength): see the `Skill` option in protocol.md.
    pub skill: u8,
    /// The number of best lines searched and reported (the `MultiPV` option), at least 1.
    pub lines: usize,
}

/// Searches `position` within `limits`, calling `report` after each finished iteration. Time
/// limits count from `started`, the moment the GUI's `go` arrived: time already spent on the
/// move (a proof attempt) is not given again.
pub fn search(
    position: &Position,
    limits: &Limits,
    settings: Settings,
    shared: Shared,
    started: Instant,
    report: &mut dyn FnMut(&Report),
) -> Outcome {
    let budget = budget(position, limits, settings.move_overhead);
    match budget {
        Some(budget) => log::debug!(
            "time: soft {} ms, hard {} ms, counted from the go ({} ms ago), {} stones",
            budget.soft.as_millis(),
            budget.hard.as_millis(),
            started.elapsed().as_millis(),
            position.stone_total()
        ),
        None => log::debug!("time: no clock; limits {limits:?}"),
    }
    position.visit(RootSearch {
        limits,
        budget,
        settings,
        shared,
        started,
        report,
    })
}

/// Searches `position` to `depth` plies on one thread at full strength, with no time limit:
/// the fixed-depth search of `bench` and of engine games for data sets.
pub fn search_to_depth(position: &Position, depth: u32, tt: &Table, flags: &Flags) -> Outcome {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let settings = Settings {
        threads: 1,
        move_overhead: Duration::ZERO,
        skill: skill::FULL,
        lines: 1,
    };
    search(
        position,
        &limits,
        settings,
        Shared { tt, flags },
        Instant::now(),
        &mut |_| {},
    )
}

/// The time budget of a search of `position`, or `None` when it is bounded otherwise.
pub fn budget(position: &Position, limits: &Limits, overhead: Duration) -> Option<Budget> {
    limits.budget(
        overhead,
        time::expected_moves_left(position.stone_total() as usize),
    )
}

/// How many root lines one iteration searches and reports.
#[derive(Clone, Copy, Debug)]
struct Lines {
    /// Lines searched (capped by the legal moves).
    searched: usize,
    /// Of those, how many are reported, best first.
    shown: usize,
    /// Whether reports carry their line's number (`multipv`).
    numbered: bool,
}

impl Lines {
    /// The best line alone, reported without a number.
    const ONE: Lines = Lines {
        searched: 1,
        shown: 1,
        numbered: false,
    };
}

struct RootSearch<'a> {
    limits: &'a Limits,
    budget: Option<Budget>,
    started: Instant,
    settings: Settings,
    shared: Shared<'a>,
    report: &'a mut dyn FnMut(&Report),
}

impl BoardVisitor for RootSearch<'_> {
    type Output = Outcome;

    fn visit<B: Bits>(self, board: &Board<B>) -> Outcome {
        let shared = self.shared;
        shared.tt.new_search();
        let total_nodes = AtomicU64::new(0);
        let helpers_stop = AtomicBool::new(false);
        let start = self.started;
        let budget = self.budget;
        let level = self.settings.skill;
        // Below full strength the search is weaker on purpose: one thread, every root move
        // scored for Skill to choose from, and a depth limit by level.
        let skilled = level < skill::FULL;
        let helpers = if skilled {
            0
        } else {
            self.settings.threads.max(1) - 1
        };
        std::thread::scope(|scope| {
            let root_moves = self.limits.root_moves.as_slice();
            for helper in 1..=helpers {
                let (total_nodes, helpers_stop) = (&total_nodes, &helpers_stop);
                let board = *board;
                scope.spawn(move || {
                    let mut searcher = Searcher::new(shared, total_nodes, start);
                    searcher.helper_stop = Some(helpers_stop);
                    searcher.root_moves = root_moves;
                    let depths = (1 + helper as u32 % 2, MAX_PLY as u32 - 1);
                    searcher.iterate(&board, depths, Lines::ONE, &mut |_| {});
                });
            }
            let mut searcher = Searcher::new(shared, &total_nodes, start);
            searcher.root_moves = root_moves;
            searcher.budget = budget;
            searcher.node_limit = self.limits.nodes;
            let max_depth = self
                .limits
                .depth
                .unwrap_or(MAX_PLY as u32 - 1)
                .clamp(1, MAX_PLY as u32 - 1);
            let wanted = self.settings.lines.max(1);
            let lines = Lines {
                searched: if skilled { usize::MAX } else { wanted },
                shown: wanted,
                numbered: wanted > 1,
            };
            let max_depth = if skilled {
                max_depth.min(skill::depth_limit(level))
            } else {
                max_depth
            };
            let (mut outcome, scored) = searcher.iterate(board, (1, max_depth), lines, self.report);
            if skilled {
                // Skill plays one of the scored moves, chosen with random bits.
                let clock = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                let seed = board.hash() ^ clock;
                outcome.best = skill::choose(&scored, level, seed).or(outcome.best);
                outcome.ponder = None;
            }
            let unbounded = self.limits.infinite || shared.flags.pondering.load(Ordering::Relaxed);
            if unbounded && outcome.best.is_some() {
                shared
                    .flags
                    .wait_for_the_end_of_thinking(self.limits.infinite);
            }
            helpers_stop.store(true, Ordering::Relaxed);
            searcher.flush_nodes();
            outcome.nodes = total_nodes.load(Ordering::Relaxed);
            outcome
        })
    }
}

/// History scores stay strictly within +/- this bound (well below the killers' sort key).
const HISTORY_LIMIT: i32 = 1 << 14;

/// Moves a history score by `bonus` (negative for a malus), less the more the score already
/// leans that way, so that it stays within [`HISTORY_LIMIT`] and old results fade.
fn update_history(slot: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
    *slot += bonus - *slot * bonus.abs() / HISTORY_LIMIT;
}

/// The deepest node reverse futility pruning cuts.
const FUTILITY_DEPTH: i32 = 3;
/// Reverse futility's margin per ply of depth, in centi-log-odds.
const FUTILITY_MARGIN: i32 = 80;
/// The deepest node futility pruning applies to.
const MOVE_FUTILITY_DEPTH: i32 = 2;
/// Futility pruning's margin per ply of depth, in centi-log-odds.
const MOVE_FUTILITY_MARGIN: i32 = 60;
/// The shallowest node internal iterative reduction applies to.
const IIR_DEPTH: i32 = 4;
/// The deepest node late move pruning applies to.
const LATE_PRUNING_DEPTH: i32 = 3;
/// Late move pruning searches the first `LATE_MOVES_KEPT + depth * depth` moves of the order.
const LATE_MOVES_KEPT: usize = 3;

/// How many plies shallower a late quiet move (the `n`th in the order, from 0) is searched
/// first at `depth`: none before the fourth move or below depth 3, then more the deeper the
/// node and the later the move (the logarithms of both), one less at a node of the principal
/// variation, and always leaving at least a ply.
fn late_move_reduction(depth: i32, n: usize, is_pv: bool) -> i32 {
    static REDUCTIONS: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
        std::array::from_fn(|depth| {
            std::array::from_fn(|n| {
                let (depth, n) = (depth as f64, n as f64);
                (0.75 + depth.max(1.0).ln() * (n + 1.0).ln() / 2.25) as i32
            })
        })
    });
    if depth < 3 || n < 3 {
        return 0;
    }
    let reduction = REDUCTIONS[(depth as usize).min(63)][n.min(63)] - i32::from(is_pv);
    reduction.max(1).min(depth - 2)
}

/// One thread's search state.
struct Searcher<'a> {
    shared: Shared<'a>,
    total_nodes: &'a AtomicU64,
    helper_stop: Option<&'a AtomicBool>,
    /// The root moves searched; empty: all of them.
    root_moves: &'a [Move],
    /// Root moves left out of this search (the better lines of a multi-line search).
    excluded: Vec<Move>,
    budget: Option<Budget>,
    node_limit: Option<u64>,
    start: Instant,
    clock_started: bool,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    stopped: bool,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// By the history index of a move, the reply that last refuted it.
    counter_moves: Vec<Option<Move>>,
    /// The move played at each ply of the line being searched.
    line: Vec<Option<Move>>,
    pv: Vec<Vec<Move>>,
    /// The line patterns of the position being searched, mended move by move.
    patterns: Accumulator,
    /// The network's first layer for the position being searched, mended move by move.
    stones: StoneAccumulator,
    /// Each ply's lists, kept so that a node allocates nothing.
    move_lists: Vec<PlyLists>,
}

/// The lists a node of the search fills: its moves, and their order (sort key, index).
#[derive(Clone, Default)]
struct PlyLists {
    moves: Vec<Move>,
    order: Vec<(i32, usize)>,
}

impl<'a> Searcher<'a> {
    fn new(shared: Shared<'a>, total_nodes: &'a AtomicU64, start: Instant) -> Searcher<'a> {
        Searcher {
            shared,
            total_nodes,
            helper_stop: None,
            root_moves: &[],
            excluded: Vec::new(),
            budget: None,
            node_limit: None,
            start,
            clock_started: !shared.flags.pondering.load(Ordering::Relaxed),
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 26 * 26 * 4],
            counter_moves: vec![None; 26 * 26 * 4],
            line: vec![None; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            patterns: Accumulator::default(),
            stones: StoneAccumulator::default(),
            move_lists: vec![Default::default(); MAX_PLY + 1],
        }
    }

    fn flush_nodes(&mut self) {
        self.total_nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    fn check_limits(&mut self) {
        self.flush_nodes();
        if self.shared.flags.stop.load(Ordering::Relaxed)
            || self
                .helper_stop
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return;
        }
        if !self.clock_started && !self.shared.flags.pondering.load(Ordering::Relaxed) {
            // `ponderhit`: our own clock starts now.
            self.clock_started = true;
            self.start = Instant::now();
        }
        if self.clock_started && self.budget.is_some_and(|b| self.start.elapsed() >= b.hard) {
            self.stopped = true;
        }
        if self.node_limit.is_some_and(|limit| self.nodes >= limit) {
            self.stopped = true;
        }
    }

    /// Reports line `multipv` of a finished iteration (`None`: the only line).
    fn report_line(
        &mut self,
        depth: u32,
        score: i32,
        pv: Vec<Move>,
        multipv: Option<u32>,
        report: &mut dyn FnMut(&Report),
    ) {
        self.flush_nodes();
        report(&Report {
            depth,
            seldepth: self.seldepth as u32,
            score: shown_score(score),
            nodes: self.total_nodes.load(Ordering::Relaxed),
            elapsed: self.start.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv,
            multipv,
        });
    }

    /// True once the clock has run past the soft budget: no new iteration should start.
    fn past_soft_limit(&self) -> bool {
        self.clock_started && self.budget.is_some_and(|b| self.start.elapsed() >= b.soft)
    }

    /// The one iterative deepening loop, from `first_depth` to `max_depth`. Each iteration
    /// searches the root once per line of `lines`, leaving out the moves of the lines found
    /// before (one search with one line), and once it is complete reports its `shown` best
    /// lines (numbered when `numbered`, as MultiPV asks). Returns the outcome and every line
    /// of the last complete iteration as (move, score), best first: Skill chooses from those.
    fn iterate<B: Bits>(
        &mut self,
        board: &Board<B>,
        depths: (u32, u32),
        lines: Lines,
        report: &mut dyn FnMut(&Report),
    ) -> (Outcome, Vec<(Move, i32)>) {
        let (first_depth, max_depth) = depths;
        self.patterns = Accumulator::new(board);
        self.stones = StoneAccumulator::new(board);
        let moves = self.root_legal_moves(board);
        let mut outcome = Outcome {
            best: moves.first().copied(),
            ..Outcome::default()
        };
        let mut scored = Vec::new();
        if moves.len() <= 1 && self.helper_stop.is_none() && self.budget.is_some() {
            // One legal move (or none): nothing to think about under a clock.
            return (outcome, scored);
        }
        let count = lines.searched.min(moves.len()).max(1);
        let mut guesses = vec![0; count];
        for depth in first_depth..=max_depth {
            self.seldepth = 0;
            self.excluded.clear();
            let mut found: Vec<(i32, Vec<Move>)> = Vec::with_capacity(count);
            for (line, &guess) in guesses.iter().enumerate() {
                let score = self.aspiration(board, depth as i32, guess);
                // A stopped search is kept only as the very first line there is.
                if self.stopped && (depth > first_depth || line > 0) {
                    break;
                }
                let pv = self.pv[0].clone();
                let first = pv.first().copied();
                found.push((score, pv));
                match first {
                    Some(mv) if !self.stopped => self.excluded.push(mv),
                    _ => break,
                }
            }
            self.excluded.clear();
            if found.len() < count && depth > first_depth {
                break;
            }
            found.sort_by_key(|(score, _)| -score);
            for (guess, (score, _)) in guesses.iter_mut().zip(&found) {
                *guess = *score;
            }
            if let Some((_, pv)) = found.first() {
                outcome.best = pv.first().copied().or(outcome.best);
                outcome.ponder = pv.get(1).copied();
            }
            scored = found
                .iter()
                .filter_map(|(score, pv)| pv.first().map(|&mv| (mv, *score)))
                .collect();
            let best_score = found.first().map_or(0, |(score, _)| *score);
            for (rank, (score, pv)) in found.into_iter().take(lines.shown).enumerate() {
                let multipv = lines.numbered.then_some(rank as u32 + 1);
                self.report_line(depth, score, pv, multipv, report);
            }
            let proven = best_score.abs() >= MATE_BOUND && depth as i32 > MATE - best_score.abs();
            let proven_stop = proven && count == 1 && self.budget.is_some();
            if self.stopped || self.past_soft_limit() || proven_stop {
                break;
            }
        }
        (outcome, scored)
    }

    /// The legal moves of the root that the search may play.
    fn root_legal_moves<B: Bits>(&self, board: &Board<B>) -> Vec<Move> {
        let mut moves = board.legal_moves();
        if !self.root_moves.is_empty() {
            moves.retain(|mv| self.root_moves.contains(mv));
        }
        moves
    }

    /// A search of the root in a narrow window around the last score, widened until it holds.
    fn aspiration<B: Bits>(&mut self, board: &Board<B>, depth: i32, guess: i32) -> i32 {
        if depth < 4 || guess.abs() >= MATE_BOUND {
            return self.negamax(board, depth, 0, -INFINITY, INFINITY);
        }
        let mut delta = 25;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let score = self.negamax(board, depth, 0, alpha, beta);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
        }
    }

    fn history_index(board_width: u8, mv: Move) -> usize {
        let from = usize::from(mv.from().file())
            + usize::from(mv.from().rank()) * usize::from(board_width);
        from * 4 + mv.directions().next().map_or(0, |d| d.index())
    }

    fn negamax<B: Bits>(
        &mut self,
        board: &Board<B>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.unflushed += 1;
        if self.nodes.is_multiple_of(1024) {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if board.is_game_over() {
            return -(MATE - ply as i32);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return eval::evaluate_with(board, &self.patterns, &self.stones);
        }
        let key = board.hash();
        let is_pv = beta - alpha > 1;
        let mut hash_index = None;
        if let Some(entry) = self.shared.tt.probe(key) {
            hash_index = Some(usize::from(entry.move_index));
            let score = score_from_tt(i32::from(entry.score), ply);
            let cuts = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if ply > 0 && !is_pv && i32::from(entry.depth) >= depth && cuts {
                return score;
            }
        }
        // Internal iterative reduction: a node the table knows no move for is searched a ply
        // shallower, its order being no better than a guess.
        let depth = if hash_index.is_none() && depth >= IIR_DEPTH {
            depth - 1
        } else {
            depth
        };
        // Reverse futility: near the leaves, off the principal variation, a position whose
        // evaluation beats beta by a margin per ply is taken to hold it. Futility: one whose
        // evaluation falls short of alpha by a margin per ply searches its quiet moves no
        // further once a move has scored better than a loss.
        let mut futile = false;
        if !is_pv
            && ply > 0
            && depth <= FUTILITY_DEPTH.max(MOVE_FUTILITY_DEPTH)
            && beta.abs() < MATE_BOUND
        {
            let static_eval = eval::evaluate_with(board, &self.patterns, &self.stones);
            if depth <= FUTILITY_DEPTH && static_eval - FUTILITY_MARGIN * depth >= beta {
                return static_eval;
            }
            futile =
                depth <= MOVE_FUTILITY_DEPTH && static_eval + MOVE_FUTILITY_MARGIN * depth <= alpha;
        }
        // This ply's lists, taken for the node and given back at its end (a stopped search
        // drops them).
        let PlyLists {
            mut moves,
            mut order,
        } = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        board.for_each_move(|mv| moves.push(mv));
        let hash_move = hash_index.and_then(|index| moves.get(index).copied());
        let width = board.rules().width();
        let killers = self.killers[ply];
        let previous = ply
            .checked_sub(1)
            .and_then(|before| self.line[before])
            .map(|mv| Self::history_index(width, mv));
        // The reply that last refuted the move before this node, tried after the killers
        // (quiet still: ordered early, it is rarely late enough to be pruned or reduced).
        let counter = previous.and_then(|index| self.counter_moves[index]);
        // Neither the table's move nor a killer: what pruning, reductions and the history
        // malus treat as quiet.
        let is_quiet = |mv: Move| Some(mv) != hash_move && !killers.contains(&Some(mv));
        order.clear();
        order.extend(moves.iter().enumerate().map(|(i, &mv)| {
            let key = if Some(mv) == hash_move {
                1 << 30
            } else if killers.contains(&Some(mv)) {
                1 << 28
            } else if Some(mv) == counter {
                1 << 27
            } else {
                self.history[Self::history_index(width, mv)]
            };
            (-key, i)
        }));
        if ply == 0 && !self.root_moves.is_empty() {
            order.retain(|&(_, i)| self.root_moves.contains(&moves[i]));
        }
        if ply == 0 && !self.excluded.is_empty() {
            order.retain(|&(_, i)| !self.excluded.contains(&moves[i]));
        }

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_index = 0;
        for n in 0..order.len() {
            // The next move is picked from those left, not the whole list sorted first: most
            // nodes end with a cut-off after a move or two (the same order as a sort, as the
            // keys differ by their move's index).
            let next = (n..order.len()).min_by_key(|&k| order[k]).unwrap_or(n);
            order.swap(n, next);
            let (_, i) = order[n];
            let mv = moves[i];
            // Once a move has scored better than a loss, the quiet moves left are not searched
            // (the table's move and the killers come first, so the rest of the order is quiet
            // too) at a futile node (above), and, by late move pruning, near the leaves off
            // the principal variation past the first few.
            let late = !is_pv
                && ply > 0
                && depth <= LATE_PRUNING_DEPTH
                && n >= LATE_MOVES_KEPT + (depth * depth) as usize;
            if (futile || late) && best > -MATE_BOUND && is_quiet(mv) {
                break;
            }
            let mut child = *board;
            child.play_unchecked(mv);
            self.line[ply] = Some(mv);
            let (black_changes, white_changes) = Accumulator::changes(board, &child);
            let sums = self.patterns.apply(black_changes, white_changes);
            let stone_sums = self.stones.apply(black_changes, white_changes, &child);
            let score = if n == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                // Late move reduction: quiet moves ordered late are searched shallower first
                // (`late_move_reduction`), and again at full depth only if they beat alpha.
                let reduction = if is_quiet(mv) {
                    late_move_reduction(depth, n, is_pv)
                } else {
                    0
                };
                let mut probe =
                    -self.negamax(&child, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
                if reduction > 0 && probe > alpha {
                    probe = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if probe > alpha && probe < beta {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            self.patterns.take_back(black_changes, white_changes, sums);
            self.stones.take_back(stone_sums);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if killers[0] != Some(mv) {
                            self.killers[ply] = [Some(mv), killers[0]];
                        }
                        if let Some(index) = previous {
                            self.counter_moves[index] = Some(mv);
                        }
                        // The move that cut gains; the quiet moves tried before it lose.
                        let bonus = depth * depth;
                        update_history(&mut self.history[Self::history_index(width, mv)], bonus);
                        for &(_, tried) in &order[..n] {
                            let other = moves[tried];
                            if is_quiet(other) {
                                let slot = &mut self.history[Self::history_index(width, other)];
                                update_history(slot, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                move_index: best_index as u16,
                score: score_to_tt(best, ply) as i16,
                depth: depth.min(i32::from(i8::MAX)) as i8,
                bound,
            },
        );
        self.move_lists[ply] = PlyLists { moves, order };
        best
    }
}

/// Mate scores are stored relative to the node, so they stay right wherever the node recurs.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn late_moves_are_reduced_more_the_deeper_and_later_but_never_to_nothing() {
        for depth in 0..80 {
            for n in 0..80 {
                for is_pv in [false, true] {
                    let reduction = late_move_reduction(depth, n, is_pv);
                    if depth < 3 || n < 3 {
                        assert_eq!(reduction, 0);
                        continue;
                    }
                    assert!(reduction >= 1 && depth - 1 - reduction >= 1, "{depth} {n}");
                    assert!(late_move_reduction(depth, n + 1, is_pv) >= reduction);
                    assert!(late_move_reduction(depth + 1, n, is_pv) >= reduction);
                    assert!(
                        late_move_reduction(depth, n, true) <= late_move_reduction(depth, n, false)
                    );
                }
            }
        }
        // A few values: one ply at depth 3, more deep in the tree.
        assert_eq!(late_move_reduction(3, 3, false), 1);
        assert_eq!(late_move_reduction(10, 10, false), 3);
        assert_eq!(late_move_reduction(10, 10, true), 2);
    }

    use super::*;
    use crate::rules::Rules;

    #[test]
    fn the_search_plays_only_the_root_moves_it_is_given() {
        let position = Position::from_fen(
            "b1bwbwbw/3bwbwb/b3bwbw/wb1b1w1b/bw1wbwbw/w1wb1bwb/bwbwbwbw/wbwbwbwb b",
            crate::rules::Opening::Traditional,
            crate::rules::Capture::Straight,
        )
        .unwrap();
        assert_eq!(position.rules(), Rules::default());
        let (tt, flags) = (Table::new(1), Flags::default());
        let settings = Settings {
            threads: 2,
            move_overhead: Duration::ZERO,
            skill: skill::FULL,
            lines: 1,
        };
        let legal = position.legal_moves();
        assert!(legal.len() > 2);
        for allowed in [&legal[1..2], &legal[..2], &legal[legal.len() - 1..]] {
            let limits = Limits {
                depth: Some(5),
                root_moves: allowed.to_vec(),
                ..Limits::default()
            };
            let shared = Shared {
                tt: &tt,
                flags: &flags,
            };
            let outcome = search(
                &position,
                &limits,
                settings,
                shared,
                Instant::now(),
                &mut |_| {},
            );
            assert!(allowed.contains(&outcome.best.unwrap()), "{allowed:?}");
        }
    }

    #[test]
    fn mate_scores_count_our_moves() {
        assert_eq!(shown_score(MATE - 1), Score::Mate(1));
        assert_eq!(shown_score(MATE - 3), Score::Mate(2));
        assert_eq!(shown_score(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(shown_score(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(shown_score(57), Score::Centi(57));
    }
}
