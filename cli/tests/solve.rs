//! The solver against a deliberately naive memoised negamax (on the naive move generator of
//! tests/common), over random positions of several sizes, every capture rule and both openings;
//! then `konane-engine solve` through its command line, with the pinned results.

mod common;

use common::Rng;
use common::naive::Naive;
use konane::solve::{Method, ProofTable, Searching, Solver};
use konane::{Capture, Opening, Position, Rules};
use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::AtomicBool;

/// Does the side to move of `position` win? Plain negamax over every move, memoised.
fn naive_wins(position: &Naive, memo: &mut HashMap<String, bool>) -> bool {
    let key = position.key();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let wins = position
        .moves()
        .iter()
        .any(|(_, child)| !naive_wins(child, memo));
    memo.insert(key, wins);
    wins
}

/// The plies to the end with perfect play on both sides: the winner ends the game as soon as
/// it can, the loser lasts as long as it can. Memoised by position.
fn naive_distance(position: &Naive, memo: &mut HashMap<String, (bool, u32)>) -> (bool, u32) {
    let key = position.key();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mut best: Option<(bool, u32)> = None;
    for (_, child) in position.moves() {
        let (child_wins, plies) = naive_distance(&child, memo);
        let mine = (!child_wins, plies + 1);
        best = Some(match best {
            None => mine,
            // A win beats a loss; a quicker win, or a longer loss, is better.
            Some(b) if mine.0 != b.0 => {
                if mine.0 {
                    mine
                } else {
                    b
                }
            }
            Some(b) if mine.0 => {
                if mine.1 < b.1 {
                    mine
                } else {
                    b
                }
            }
            Some(b) => {
                if mine.1 > b.1 {
                    mine
                } else {
                    b
                }
            }
        });
    }
    let result = best.unwrap_or((false, 0));
    memo.insert(key, result);
    result
}

/// The naive winning moves of a position.
fn naive_winning_moves(position: &Naive, memo: &mut HashMap<String, bool>) -> Vec<String> {
    let mut moves: Vec<String> = position
        .moves()
        .into_iter()
        .filter(|(_, child)| !naive_wins(child, memo))
        .map(|(text, _)| text)
        .collect();
    moves.sort();
    moves
}

/// A random position: `plies` random moves from the start (fewer if the game ends first).
fn random_position(rules: Rules, plies: usize, rng: &mut Rng) -> Position {
    let mut position = Position::start(rules).unwrap();
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(moves[rng.below(moves.len())]);
    }
    position
}

/// Compares solver and naive negamax on `count` random positions after `plies` (a range);
/// with `distances`, also the proof's length against perfect play (a full, unpruned search).
fn agree(
    width: usize,
    height: usize,
    plies: std::ops::Range<usize>,
    count: usize,
    distances: bool,
) {
    let mut rng = Rng::new((width * 100 + height) as u64);
    let stop = AtomicBool::new(false);
    for capture in Capture::ALL {
        for opening in [Opening::Traditional, Opening::Any] {
            let Ok(rules) = Rules::new(width, height, opening, capture) else {
                continue;
            };
            if rules.check_opening().is_err() {
                continue;
            }
            let mut memo = HashMap::new();
            let mut lengths = HashMap::new();
            let table = ProofTable::new(16).unwrap();
            for n in 0..count {
                let ply = plies.start + rng.below(plies.end - plies.start);
                let position = random_position(rules, ply, &mut rng);
                let naive = Naive::from_fen(&position.fen(), opening, capture);
                let expected = naive_winning_moves(&naive, &mut memo);
                // Depth-first on one thread, then on two sharing the table, then by proof
                // numbers, in turn.
                let searching = Searching {
                    threads: 1 + n % 2,
                    method: Some(Method::ALL[n / 2 % 2]),
                };
                let solution = Solver::new(&table, &stop)
                    .with_searching(searching)
                    .solve(&position, true);
                let mut found: Vec<String> = solution
                    .winning_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                found.sort();
                assert_eq!(
                    found,
                    expected,
                    "{} under {rules}, {searching:?}",
                    position.fen()
                );
                assert_eq!(solution.wins, Some(!expected.is_empty()));
                if !distances {
                    continue;
                }
                // The proof's length bounds the game with perfect play, and has its parity.
                let (_, shortest) = naive_distance(&naive, &mut lengths);
                let plies = u32::from(solution.plies.unwrap());
                assert!(
                    plies >= shortest.min(255),
                    "{}: {plies} < {shortest}",
                    position.fen()
                );
                assert_eq!(plies % 2, shortest % 2, "{}", position.fen());
            }
        }
    }
}

#[test]
fn agrees_with_naive_negamax_on_4x4_and_3x5() {
    agree(4, 4, 0..8, 12, true);
    agree(3, 5, 0..6, 12, true);
}

#[test]
fn agrees_with_naive_negamax_on_5x5() {
    agree(5, 5, 2..10, 10, true);
}

#[test]
fn agrees_with_naive_negamax_on_6x6_after_the_opening() {
    agree(6, 6, 10..18, 8, false);
}

#[test]
fn agrees_with_naive_negamax_on_late_8x8_positions() {
    agree(8, 8, 40..56, 6, false);
}

fn solve(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_konane-engine"))
        .arg("solve")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn four_by_four_is_won_by_white_from_every_opening_reply_of_black() {
    let (code, out, err) = solve(&["--size", "4x4", "--all", "--hash", "16"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out, "result: loss\nwinner: White\nbest: d1\nwinning moves: \n",
        "Black, to move at the start, loses"
    );
    assert!(err.contains("nodes ") && err.contains(" MB"), "{err}");
}

#[test]
fn narrow_boards_are_solved_by_proof_numbers_unless_told_and_both_agree() {
    // 12x3 with the gap vertical in the middle, Black to move: White wins.
    let fen = "wbwbw1wbwbwb/bwbwb1bwbwbw/wbwbwbwbwbwb b";
    let base = [
        "--size",
        "12x3",
        "--opening",
        "any",
        "--fen",
        fen,
        "--all",
        "--hash",
        "16",
    ];
    let mut answers = Vec::new();
    for (method, said) in [
        (None, "proof-number search, 1 thread"),
        (Some("proof-number"), "proof-number search, 1 thread"),
        (Some("depth-first"), "depth-first search, 2 threads"),
    ] {
        let mut args = base.to_vec();
        args.extend(["--threads", "2"]);
        if let Some(method) = method {
            args.extend(["--method", method]);
        }
        let (code, out, err) = solve(&args);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(err.lines().next(), Some(said), "{method:?}: {err}");
        answers.push(
            out.lines()
                .filter(|l| !l.starts_with("best"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    assert_eq!(answers[0], "result: loss\nwinner: White\nwinning moves: ");
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    let (code, _, err) = solve(&["--size", "4x4", "--method", "df-pn"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("unknown method 'df-pn'"), "{err}");
}

#[test]
fn a_table_size_that_is_rounded_down_is_said() {
    let (code, _, err) = solve(&["--size", "4x4", "--hash", "24"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("--hash 24: the table holds a power of two of buckets, so it has 16 MB"),
        "{err}"
    );
    let (_, _, err) = solve(&["--size", "4x4", "--hash", "16"]);
    assert!(!err.contains("power of two"), "{err}");
}

#[test]
fn a_time_limit_stops_the_solve_and_sizes_its_table() {
    // 8x8 after two removals is far beyond 0.03 s: stopped, said so, exit code 1, and a table
    // small enough to clear in that time (not the gigabytes the stones alone would ask for).
    let (code, out, err) = solve(&["--size", "8x8", "--moves", "d5 e5", "--time", "0.03"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.starts_with("result: unknown (stopped)\n"), "{out}");
    assert!(err.contains("table 16 MB"), "{err}");
    // Within its time, the answer is the same as without.
    let (code, out, err) = solve(&["--size", "4x4", "--all", "--time", "60"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("result: loss\nwinner: White\n"), "{out}");
    for bad in ["0", "-1", "nan", "inf", "soon"] {
        let (code, _, err) = solve(&["--size", "4x4", "--time", bad]);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(
            err.contains(&format!("'{bad}'")) || err.contains(bad),
            "{err}"
        );
    }
}

#[test]
fn six_by_six_openings_as_norvig_reports_them() {
    let (code, out, err) = solve(&["--size", "6x6", "--openings", "--hash", "512"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13, "{out}");
    // With best play White wins after the corner removal and after the central removal.
    for removal in ["f1", "a6", "d3", "c4"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("{removal} ")) && l.ends_with("White wins")),
            "{removal}: {out}"
        );
    }
    assert_eq!(
        lines[12],
        "Black wins by removing: none (White wins the game)"
    );
    for line in [
        "f1 e1: White wins",
        "f1 f2: White wins",
        "d3 d2: Black wins",
        "d3 c3: White wins",
        "d3 e3: Black wins",
        "d3 d4: White wins",
        "c4 c3: White wins",
        "c4 b4: Black wins",
        "c4 d4: White wins",
        "c4 c5: Black wins",
        "a6 a5: White wins",
        "a6 b6: White wins",
    ] {
        assert!(lines.contains(&line), "{line}: {out}");
    }
}

#[test]
fn positions_and_moves_are_taken_and_bad_input_is_named() {
    let (code, out, _) = solve(&["--fen", "b3/4/4/3w b", "--all", "--hash", "16"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "result: loss\nwinner: White\nbest: 0000\nwinning moves: \n"
    );
    let (code, out, _) = solve(&["--size", "4x4", "--moves", "c2 c1", "--hash", "16"]);
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("result: win\nwinner: Black\nbest: "),
        "{out}"
    );
    for (args, error) in [
        (&["--size", "5x5"][..], "even width and height"),
        (&["--fen", "bw/wx b"][..], "unexpected character 'x'"),
        (
            &["--moves", "d5 d5"][..],
            "--moves: illegal move d5 (move 2 of the list)",
        ),
        (&["--moves", "q0"][..], "--moves: bad move 'q0'"),
        (&["--hash", "1000000"][..], "cannot allocate 1000000 MB"),
    ] {
        let (code, _, err) = solve(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains(error), "{args:?}: {err}");
    }
}

#[test]
fn small_boards_as_the_readme_table_has_them() {
    // (board, opening, White's winning replies to each Black removal, as in the README)
    let table: [(&str, &str, &[&str]); 3] = [
        (
            "4x6",
            "traditional",
            &[
                "d1 c1", "d1 d2", "b3 c3", "b3 b4", "c4 c3", "c4 b4", "a6 a5", "a6 b6",
            ],
        ),
        (
            "6x4",
            "traditional",
            &[
                "f1 e1", "f1 f2", "c2 d2", "c2 c3", "d3 d2", "d3 c3", "a4 a3", "a4 b4",
            ],
        ),
        (
            "5x5",
            "any",
            &[
                "b1 a1", "b1 c1", "b1 b2", "d1 c1", "d1 e1", "d1 d2", "a2 a1", "a2 b2", "a2 a3",
                "c2 c1", "c2 c3", "e2 e1", "e2 d2", "e2 e3", "b3 a3", "b3 c3", "d3 c3", "d3 e3",
                "a4 a3", "a4 b4", "a4 a5", "c4 c3", "c4 c5", "e4 e3", "e4 d4", "e4 e5", "b5 b4",
                "b5 a5", "b5 c5", "d5 d4", "d5 c5", "d5 e5",
            ],
        ),
    ];
    for (board, opening, white_wins) in table {
        let (code, out, err) = solve(&[
            "--size",
            board,
            "--opening",
            opening,
            "--openings",
            "--hash",
            "64",
        ]);
        assert_eq!(code, Some(0), "{err}");
        let mut lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines.pop(),
            Some("Black wins by removing: none (White wins the game)"),
            "{board}"
        );
        let won_by_white: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.strip_suffix(": White wins"))
            .collect();
        assert_eq!(won_by_white, white_wins, "{board}: {out}");
        assert!(lines.iter().all(|l| l.ends_with(" wins")), "{out}");
    }
}

/// Runs `konane-engine solve` with `args`, sends it Ctrl-C (SIGINT) after `ms` milliseconds,
/// and returns its exit code and standard error.
fn solve_until_ctrl_c(args: &[&str], ms: u64) -> (Option<i32>, String) {
    let solve = Command::new(env!("CARGO_BIN_EXE_konane-engine"))
        .arg("solve")
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(ms));
    let _ = Command::new("kill")
        .args(["-INT", &solve.id().to_string()])
        .status();
    let output = solve.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The `result:` and `winner:` lines of a solve's or a join's output.
fn verdict(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("result: ") || l.starts_with("winner: "))
        .collect()
}

/// Splits the position `args` name `depth` plies down into a scratch folder, runs every job
/// (on one thread, then two, in turn) and joins them; returns the join's output.
fn split_run_join(args: &[&str], depth: &str, name: &str) -> String {
    let dir = common::scratch::Scratch::new(name);
    let jobs = dir.path().to_str().unwrap();
    let (code, out, err) = solve(&[args, &["--split", depth, "--jobs", jobs]].concat());
    assert_eq!(code, Some(0), "{err}");
    let count: usize = out.split_whitespace().next().unwrap().parse().unwrap();
    let (code, out, _) = solve(&["--jobs", jobs, "--join"]);
    assert_eq!(code, Some(1), "nothing is proven before the jobs run");
    let all: Vec<String> = (1..=count).map(|n| n.to_string()).collect();
    assert!(
        out.ends_with(&format!(
            "missing jobs that could decide it: {}\n",
            all.join(" ")
        )),
        "{out}"
    );
    // A split committed to git before any job ran has no results folder in a clone.
    std::fs::remove_dir(dir.join("results")).unwrap();
    // Half the jobs one process each (on one thread, then two, in turn), the rest in one
    // process with `--run all`, which skips those solved already.
    let half = count / 2;
    for job in 1..=half {
        let threads = (1 + job % 2).to_string();
        let (code, out, err) = solve(&[
            "--jobs",
            jobs,
            "--run",
            &job.to_string(),
            "--threads",
            &threads,
            "--hash",
            "64",
        ]);
        assert_eq!(code, Some(0), "job {job}: {err}");
        assert!(out.starts_with(&format!("job {job}")), "{out}");
    }
    let table = dir.join("jobs.table");
    let table = table.to_str().unwrap();
    let (code, out, err) = solve(&[
        "--jobs", jobs, "--run", "all", "--hash", "64", "--table", table,
    ]);
    assert_eq!(code, Some(0), "{err}");
    for job in 1..=count {
        let line = out.lines().find(|l| l.starts_with(&format!("job {job}:")));
        let line = line.unwrap_or_else(|| panic!("job {job} missing from: {out}"));
        if job <= half {
            assert!(
                line.ends_with("solved already (win)")
                    || line.ends_with("solved already (loss)")
                    || line.contains("not needed"),
                "{line}"
            );
        }
    }
    // One table serves all the jobs of one process: saved once, at the end (if a job ran).
    let ran = out.matches("result: ").count();
    assert_eq!(err.matches("table saved to").count(), ran.min(1), "{err}");
    let (code, again, _) = solve(&["--jobs", jobs, "--run", "1"]);
    assert_eq!(code, Some(0));
    assert!(
        again.contains("solved already") || again.contains("not needed"),
        "{again}"
    );
    let (code, joined, err) = solve(&["--jobs", jobs, "--join"]);
    assert_eq!(code, Some(0), "{joined}{err}");
    joined
}

#[test]
fn split_jobs_joined_give_the_single_run_result() {
    for (args, depth) in [
        (&["--size", "6x6"][..], "3"),
        (&["--size", "6x6", "--moves", "c4 c3"][..], "2"),
        (&["--size", "6x6", "--moves", "d3 e3"][..], "4"),
        (&["--size", "5x5", "--opening", "any"][..], "1"),
        // A 7x7 opening 16 plies in (every symmetry of an odd board keeps the colours).
        (
            &[
                "--size",
                "7x7",
                "--opening",
                "any",
                "--moves",
                "d1 c1 d3d1 c3c1 a2c2 f2b2 d5d3 f4f2 a4a2 f6f4 f1f3 d6f6 e4e2 g3e3 g6e6 e3a3",
            ][..],
            "2",
        ),
    ] {
        let (code, single, err) = solve(&[args, &["--hash", "64"]].concat());
        assert_eq!(code, Some(0), "{err}");
        let joined = split_run_join(
            args,
            depth,
            &format!("split-{}", args.join("").replace(' ', "")),
        );
        assert_eq!(verdict(&joined), verdict(&single), "{args:?}: {joined}");
        assert!(joined.starts_with("jobs: "), "{joined}");
    }
}

#[test]
fn a_split_names_bad_jobs_and_results_and_keeps_no_half_result() {
    let dir = common::scratch::Scratch::new("split-bad");
    let jobs = dir.path().to_str().unwrap();
    let (code, out, err) = solve(&[
        "--size",
        "7x7",
        "--opening",
        "any",
        "--split",
        "1",
        "--jobs",
        jobs,
    ]);
    assert_eq!(code, Some(0), "{err}");
    // The 24 removals of Black are 4 up to the board's symmetries: b1, d1, c2 and d3.
    assert_eq!(out.split_whitespace().next(), Some("4"), "{out}");
    for (args, error) in [
        (
            &["--jobs", jobs, "--run", "5"][..],
            "no job 5: the split has jobs 1 to 4",
        ),
        (&["--jobs", jobs, "--run", "0"][..], "no job 0"),
        (
            &["--jobs", jobs, "--run", "2-5"][..],
            "no job 5: the split has jobs 1 to 4",
        ),
        (&["--jobs", jobs, "--run", "3-1"][..], "bad job list '3-1'"),
        (&["--jobs", jobs, "--run", "1,x"][..], "bad job list '1,x'"),
        (
            &["--jobs", jobs][..],
            "--jobs needs --split DEPTH, --run JOBS or --join",
        ),
        (
            &["--jobs", "/nonexistent/konane", "--join"][..],
            "/nonexistent/konane/split.txt",
        ),
        (&["--split", "2"][..], "--jobs <DIR>"),
        (&["--split", "9", "--jobs", jobs][..], "9 is not in 1..=8"),
        (
            &["--join", "--jobs", jobs, "--fen", "b3/4/4/3w b"][..],
            "cannot be used with",
        ),
    ] {
        let (code, _, err) = solve(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(error), "{args:?}: {err}");
    }
    // A result file without a result is named, not taken for one.
    std::fs::write(dir.join("results/2.txt"), "nodes 5\n").unwrap();
    let (code, _, err) = solve(&["--jobs", jobs, "--join"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("results/2.txt holds no 'result: win' or 'result: loss' line"),
        "{err}"
    );
    std::fs::remove_file(dir.join("results/2.txt")).unwrap();
    // A run of jobs stopped by Ctrl-C writes no result, and the join still wants them all.
    let (code, _) = solve_until_ctrl_c(&["--jobs", jobs, "--run", "all", "--hash", "64"], 500);
    assert_eq!(code, Some(130));
    assert!(!dir.join("results/1.txt").exists());
    // So does one that runs out of --time (exit code 1), its table saved for the next run.
    let table = dir.join("jobs.table");
    let (code, _, err) = solve(&[
        "--jobs",
        jobs,
        "--run",
        "all",
        "--hash",
        "16",
        "--time",
        "0.5",
        "--table",
        table.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(!dir.join("results/1.txt").exists());
    assert!(table.exists() && err.contains("table saved to"), "{err}");
    let (code, out, _) = solve(&["--jobs", jobs, "--join"]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("jobs: 0 of 4 solved") && out.contains("could decide it: 1 2 3 4"),
        "{out}"
    );
    // A manifest line that is not a split's is named with its line.
    let manifest = std::fs::read_to_string(dir.join("split.txt")).unwrap();
    std::fs::write(dir.join("split.txt"), manifest.replace("job 3 ", "job 5 ")).unwrap();
    let (code, _, err) = solve(&["--jobs", jobs, "--join"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("split.txt line") && err.contains("expected job 3"),
        "{err}"
    );
}

#[test]
fn the_jobs_script_runs_a_split_and_joins_it() {
    let dir = common::scratch::Scratch::new("split-script");
    let jobs = dir.path().to_str().unwrap();
    let (code, _, err) = solve(&[
        "--size", "6x6", "--moves", "c4 b4", "--split", "2", "--jobs", jobs,
    ]);
    assert_eq!(code, Some(0), "{err}");
    // One job at a time, sharing one table file: each job goes on from the ones before.
    let table = dir.join("jobs.table");
    let output = Command::new("bash")
        .args([
            concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/solve-jobs.sh"),
            jobs,
            "1",
            "--threads",
            "1",
            "--hash",
            "16",
            "--table",
            table.to_str().unwrap(),
        ])
        .env("KONANE_ENGINE", env!("CARGO_BIN_EXE_konane-engine"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{out}");
    assert!(
        out.contains("result: win\nwinner: Black\n"),
        "c4 b4 is won by Black: {out}"
    );
    // One process ran every job: the table was saved once, at the end, and never loaded.
    assert!(out.matches("nodes ").count() > 1, "{out}");
    assert_eq!(err.matches("table saved to").count(), 1, "{err}");
    assert_eq!(err.matches("table loaded from").count(), 0, "{err}");
}

/// Runs `scripts/narrow.py` on the 4-row boards with the gap horizontal at the corner, Black
/// to move, each solve carried by a split three plies deep, its records in `results`.
fn narrow_split(results: &std::path::Path, tables: &std::path::Path, flags: &[&str]) -> String {
    let output = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/narrow.py"))
        .args([
            "--heights",
            "4",
            "--setups",
            "hc",
            "--sides",
            "b",
            "--split",
            "3",
        ])
        .args(["--threads", "1", "--hash", "64"])
        .args(["--engine", env!("CARGO_BIN_EXE_konane-engine")])
        .arg("--results")
        .arg(results)
        .arg("--tables")
        .arg(tables)
        .args(flags)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{flags:?}: {err}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The records of a narrow.py results file.
fn narrow_records(results: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(results)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_narrow_script_carries_a_solve_by_a_committed_split_and_resumes_it() {
    let dir = common::scratch::Scratch::new("narrow-split");
    let (results, tables) = (dir.join("results.jsonl"), dir.join("tables"));
    narrow_split(&results, &tables, &["--widths", "6-7", "--time", "120"]);
    let records = narrow_records(&results);
    assert_eq!(records.len(), 2, "{records:?}");
    for record in &records {
        // The winner is the plain solve's, and the split's own join says so too.
        let fen = record["fen"].as_str().unwrap();
        let width = record["width"].as_u64().unwrap();
        let size = format!("{width}x4");
        let (code, plain, err) = solve(&["--size", &size, "--opening", "any", "--fen", fen]);
        assert_eq!(code, Some(0), "{err}");
        let winner = record["winner"].as_str().unwrap();
        assert!(
            plain.contains(&format!("winner: {winner}\n")),
            "{record}: {plain}"
        );
        let folder = std::fs::canonicalize(dir.join(&format!("jobs/{width}x4-hc-b"))).unwrap();
        assert_eq!(record["split"].as_str(), folder.to_str(), "{record}");
        let (code, joined, _) = solve(&["--jobs", folder.to_str().unwrap(), "--join"]);
        assert_eq!(code, Some(0), "{joined}");
        assert!(joined.contains(&format!("winner: {winner}\n")), "{joined}");
        let jobs = record["jobs"].as_str().unwrap();
        assert!(
            joined.starts_with(&format!("jobs: {jobs} solved")),
            "{jobs}: {joined}"
        );
    }
    // 11x4 (millions of positions) cut short: recorded open, its split and table kept ...
    narrow_split(&results, &tables, &["--widths", "11", "--time", "0.3"]);
    let cut = narrow_records(&results).pop().unwrap();
    assert!(cut["winner"].is_null() && cut["split"].is_string(), "{cut}");
    assert!(tables.join("11x4-hc-b.table").exists());
    // ... and the next run goes on from them to the proof, its figures added to the first's.
    narrow_split(&results, &tables, &["--widths", "11", "--time", "120"]);
    let done = narrow_records(&results).pop().unwrap();
    assert_eq!(done["winner"], "White", "{done}");
    assert_eq!(done["resumed"], true, "{done}");
    let table = narrow_split(&results, &tables, &["--table"]);
    let row = table.lines().find(|l| l.starts_with("| 11 |")).unwrap();
    assert!(
        row.contains("Black to move: White wins (") && row.contains(" over 2 runs)"),
        "{row}"
    );
}

/// The node count of a solve's summary line on standard error.
fn nodes_in(err: &str) -> u64 {
    let line = err.lines().find(|l| l.starts_with("nodes ")).unwrap();
    line["nodes ".len()..line.find(',').unwrap()]
        .parse()
        .unwrap()
}

/// The count in `err`'s "numbers of N unproven positions" on its line starting `line`.
fn numbers_in(err: &str, line: &str) -> u64 {
    let line = err.lines().find(|l| l.starts_with(line)).unwrap();
    let (_, rest) = line.split_once("numbers of ").unwrap();
    rest.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn a_resumed_proof_number_solve_gets_back_what_it_had_learnt() {
    let dir = common::scratch::Scratch::new("numbers-file");
    let file = dir.join("twelve.table");
    let file = file.to_str().unwrap();
    // 12x4 with the gap at the corner and Black to move: millions of positions, cut short.
    let args = [
        "--size",
        "12x4",
        "--opening",
        "any",
        "--fen",
        "bwbwbwbwbwbw/wbwbwbwbwbwb/bwbwbwbwbwbw/2wbwbwbwbwb b",
        "--threads",
        "1",
        "--time",
        "0.5",
        "--hash",
        "16",
        "--table",
        file,
    ];
    let (code, out, err) = solve(&args);
    assert_eq!(code, Some(1), "stopped by --time: {out}{err}");
    let saved = numbers_in(&err, "table saved to");
    assert!(saved > 1000, "{err}");
    let (_, _, err) = solve(&args);
    assert_eq!(numbers_in(&err, "table loaded from"), saved, "{err}");
    // Beside a table of another size they cannot be placed, and the solve goes on without.
    let mut larger = args;
    larger[11] = "64";
    let (_, _, err) = solve(&larger);
    assert!(
        err.contains(&format!("table loaded from {file}: 64 MB, ")),
        "{err}"
    );
    assert_eq!(numbers_in(&err, "table loaded from"), 0, "{err}");
}

#[test]
fn a_table_file_keeps_what_a_solve_proved_for_the_next_one() {
    let dir = common::scratch::Scratch::new("table-file");
    let file = dir.join("six.table");
    let file = file.to_str().unwrap();
    let args = [
        "--size", "6x6", "--moves", "d3 c3", "--hash", "16", "--table", file,
    ];
    let (code, first, err) = solve(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains(&format!("table saved to {file}")), "{err}");
    let cold = nodes_in(&err);
    let (code, second, err) = solve(&args);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(verdict(&second), verdict(&first));
    assert!(
        err.contains(&format!("table loaded from {file}: 16 MB, ")),
        "{err}"
    );
    assert!(
        nodes_in(&err) * 100 < cold,
        "the proof is found at once: {err}"
    );
    // Loaded into a larger table, it keeps its results.
    let mut larger = args;
    larger[5] = "32";
    let (code, third, err) = solve(&larger);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(verdict(&third), verdict(&first));
    assert!(
        err.contains(&format!("table loaded from {file}: 32 MB, ")),
        "{err}"
    );
    assert!(nodes_in(&err) * 100 < cold, "found at once again: {err}");
    // The table of one board is refused for another, by name.
    let (code, _, err) = solve(&["--size", "4x4", "--table", file]);
    assert_eq!(code, Some(2));
    assert!(err.contains("it is not a saved table of 4x4"), "{err}");
    // Ctrl-C saves what is proven so far.
    let stopped = dir.join("seven.table");
    let seven = [
        "--size",
        "7x7",
        "--opening",
        "any",
        "--hash",
        "16",
        "--table",
    ];
    let (code, err) = solve_until_ctrl_c(&[&seven[..], &[stopped.to_str().unwrap()]].concat(), 800);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("table saved to"), "{err}");
    assert!(stopped.exists());
}
