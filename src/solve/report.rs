//! `konane-engine solve`: one position or every opening, solved and reported. Results go to
//! the output; nodes, time, memory and progress lines to the diagnostics stream.

use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::solve::{MoveResult, Progress, ProofTable, Searching, Solution, Solver};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How often a long solve prints a progress line.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// The proof table's default size for a solve of `position`: 64 MB for 36 stones, doubling
/// every two stones more and halving every two fewer, at least 16 MB, at most a quarter of the
/// machine's memory and 8 GB. A table far larger than the solve needs costs time: its pages,
/// huge ones, are cleared as the scattered results first touch them (a 4x6 board took 7 s
/// with a 4 GB table and 0.02 s with 16 MB).
pub fn default_hash_mb(position: &Position) -> usize {
    let stones = position.stone_count(Color::Black) + position.stone_count(Color::White);
    let ceiling = (crate::solve::table::physical_memory_mb().unwrap_or(0) / 4).clamp(64, 8192);
    let exponent = (i64::from(stones) - 36).div_euclid(2);
    let megabytes = if exponent >= 0 {
        64usize.saturating_mul(1 << exponent.min(40))
    } else {
        64 >> (-exponent).min(6)
    };
    megabytes.clamp(16, ceiling)
}

/// MB of table a solve's budget can use: a fresh table costs nothing until a page of it is
/// first written, and then the time to zero that page (2 MB with huge pages), so a short solve
/// on a large table spends its budget zeroing pages instead of searching. Measured on 8x8 after
/// `d5 e5` with 0.5 s on one thread: 4,096 nodes with the default 6 GB table, 573,440 with
/// 1 GB, 1.04M with 16 MB. So a time budget allows this many MB a second of it.
pub const TABLE_MB_PER_SECOND: f64 = 512.0;

/// Bytes of table worth having per node of a node budget (each node stores one 8-byte entry
/// at most; the rest is room for the buckets to spread).
pub const TABLE_BYTES_PER_NODE: u64 = 64;

/// The table for solving `position` within a budget of `time` and `nodes` (either may be
/// absent): [`default_hash_mb`], but no larger than the budget can use, and at least 16 MB.
pub fn hash_mb_within(position: &Position, time: Option<Duration>, nodes: Option<u64>) -> usize {
    let by_time = time.map_or(usize::MAX, |time| {
        (time.as_secs_f64() * TABLE_MB_PER_SECOND) as usize
    });
    let by_nodes = nodes.map_or(usize::MAX, |nodes| {
        usize::try_from(nodes.saturating_mul(TABLE_BYTES_PER_NODE) >> 20).unwrap_or(usize::MAX)
    });
    default_hash_mb(position)
        .min(by_time.max(16))
        .min(by_nodes.max(16))
}

/// The process's peak resident memory in MB, where the system tells it.
fn peak_memory_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    let kb: u64 = line.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb / 1024)
}

fn progress_line(label: &str, progress: &Progress) -> String {
    format!(
        "{label}progress: {} nodes, {} results stored, deepest ply {}, root moves proven {}/{}, {:.1} s",
        progress.nodes,
        progress.stored,
        progress.deepest,
        progress.root_done.0,
        progress.root_done.1,
        progress.elapsed.as_secs_f64()
    )
}

fn summary(table: &ProofTable, nodes: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let memory = peak_memory_mb().map_or(String::new(), |mb| format!(", peak memory {mb} MB"));
    format!(
        "nodes {nodes}, time {seconds:.3} s, {:.0} nodes/s, table {} MB ({} results stored){memory}",
        nodes as f64 / seconds.max(1e-9),
        table.bytes() >> 20,
        table.stored()
    )
}

/// The colour that wins when the side to move of `position` does (or does not).
fn winner(position: &Position, side_to_move_wins: bool) -> Color {
    let side = position.side_to_move();
    if side_to_move_wins {
        side
    } else {
        side.opponent()
    }
}

/// Solves `position`, writing a progress line headed `label` every [`PROGRESS_EVERY`].
fn solve_reporting(
    position: &Position,
    all: bool,
    label: &str,
    table: &ProofTable,
    stop: &AtomicBool,
    searching: Searching,
    diagnostics: &mut impl Write,
) -> Solution {
    let mut sink = |p: &Progress| {
        let _ = writeln!(diagnostics, "{}", progress_line(label, p));
    };
    Solver::new(table, stop)
        .with_progress(PROGRESS_EVERY, &mut sink)
        .with_searching(searching)
        .solve(position, all)
}

/// How a solve of one position ended.
pub struct Solved {
    /// False when stopped before the answer.
    pub finished: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// Solves one position as `searching` says and writes `result:`, `winner:`, `best:` and, with
/// `all`, `winning moves:` (when stopped before the answer, what is known).
pub fn solve_position(
    position: &Position,
    all: bool,
    table: &ProofTable,
    stop: &AtomicBool,
    searching: Searching,
    out: &mut impl Write,
    diagnostics: &mut impl Write,
) -> std::io::Result<Solved> {
    let started = Instant::now();
    writeln!(diagnostics, "{}", searching.describe(position.rules()))?;
    let solution = solve_reporting(position, all, "", table, stop, searching, diagnostics);
    let finished = write_solution(position, &solution, all, out)?;
    let elapsed = started.elapsed();
    writeln!(diagnostics, "{}", summary(table, solution.nodes, elapsed))?;
    Ok(Solved {
        finished,
        nodes: solution.nodes,
        elapsed,
    })
}

fn write_solution(
    position: &Position,
    solution: &Solution,
    all: bool,
    out: &mut impl Write,
) -> std::io::Result<bool> {
    let Some(wins) = solution.wins else {
        writeln!(out, "result: unknown (stopped)")?;
        let known: Vec<String> = solution
            .moves
            .iter()
            .filter(|(_, r)| *r != MoveResult::Unknown)
            .map(|(mv, r)| {
                format!(
                    "{mv} {}",
                    if *r == MoveResult::Wins {
                        "wins"
                    } else {
                        "loses"
                    }
                )
            })
            .collect();
        writeln!(out, "proven so far: {}", known.join(", "))?;
        return Ok(false);
    };
    writeln!(out, "result: {}", if wins { "win" } else { "loss" })?;
    let colour = winner(position, wins);
    writeln!(
        out,
        "winner: {}",
        if colour == Color::Black {
            "Black"
        } else {
            "White"
        }
    )?;
    let best = solution
        .best()
        .map_or("0000".to_string(), |mv| mv.to_string());
    writeln!(out, "best: {best}")?;
    if all {
        let moves: Vec<String> = solution
            .winning_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        let complete = solution
            .moves
            .iter()
            .all(|(_, r)| *r != MoveResult::Unknown);
        if complete {
            writeln!(out, "winning moves: {}", moves.join(" "))?;
        } else {
            writeln!(
                out,
                "winning moves (stopped, incomplete): {}",
                moves.join(" ")
            )?;
            return Ok(false);
        }
    }
    Ok(true)
}

/// Solves every opening of `start` (each Black removal, then each White reply) as
/// `searching` says and writes one line per opening, then which removals win for Black. Returns false
/// when stopped.
pub fn solve_openings(
    start: &Position,
    table: &ProofTable,
    stop: &AtomicBool,
    searching: Searching,
    out: &mut impl Write,
    diagnostics: &mut impl Write,
) -> std::io::Result<bool> {
    let started = Instant::now();
    writeln!(diagnostics, "{}", searching.describe(start.rules()))?;
    let mut nodes = 0;
    let mut black_wins_by = Vec::new();
    for removal in start.legal_moves() {
        let mut after_removal = *start;
        after_removal.play_unchecked(removal);
        let mut every_reply_loses = true;
        for reply in after_removal.legal_moves() {
            let mut position = after_removal;
            position.play_unchecked(reply);
            let label = format!("{removal} {reply}: ");
            let opening_started = Instant::now();
            let solution = solve_reporting(
                &position,
                false,
                &label,
                table,
                stop,
                searching,
                diagnostics,
            );
            nodes += solution.nodes;
            let Some(wins) = solution.wins else {
                writeln!(out, "{label}unknown (stopped)")?;
                writeln!(diagnostics, "{}", summary(table, nodes, started.elapsed()))?;
                return Ok(false);
            };
            let colour = winner(&position, wins);
            writeln!(
                out,
                "{label}{} wins",
                if colour == Color::Black {
                    "Black"
                } else {
                    "White"
                }
            )?;
            writeln!(
                diagnostics,
                "{label}{:.3} s, {} nodes",
                opening_started.elapsed().as_secs_f64(),
                solution.nodes
            )?;
            every_reply_loses &= colour == Color::Black;
        }
        if every_reply_loses {
            black_wins_by.push(removal.to_string());
        }
    }
    if black_wins_by.is_empty() {
        writeln!(out, "Black wins by removing: none (White wins the game)")?;
    } else {
        writeln!(out, "Black wins by removing: {}", black_wins_by.join(" "))?;
    }
    writeln!(diagnostics, "{}", summary(table, nodes, started.elapsed()))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn a_budget_keeps_the_table_to_what_it_can_use() {
        let mut position = Position::start(Rules::default()).unwrap();
        for mv in ["d5", "e5"] {
            position.play(mv.parse().unwrap()).unwrap();
        }
        let default = default_hash_mb(&position);
        assert_eq!(hash_mb_within(&position, None, None), default);
        let half_second = hash_mb_within(&position, Some(Duration::from_millis(500)), None);
        assert_eq!(half_second, default.min(256));
        assert_eq!(hash_mb_within(&position, None, Some(20_000)), 16);
        assert_eq!(hash_mb_within(&position, Some(Duration::ZERO), None), 16);
        let long = hash_mb_within(&position, Some(Duration::from_secs(3600)), Some(u64::MAX));
        assert_eq!(long, default, "a long budget takes the position's own size");
    }
}
