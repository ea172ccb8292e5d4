//! The arbiter binary against konane-engine and against fixture engines that misbehave.

mod common;

use common::arbiter::{arbiter, engine_spec, fixture, records, survivors};
use common::scratch::Scratch;
use std::process::Command;

/// A scratch directory of this test's own, removed when the test ends.
fn scratch(test: &str) -> Scratch {
    Scratch::new(&format!("arbiter-{test}"))
}

/// Plays `games` games of `behaviour` against the correct `first` fixture and checks that the
/// misbehaving engine lost every game with `termination`, and that nothing is left running.
fn misbehaving(behaviour: &str, termination: &str, limits: &[&str]) {
    let key = format!("{behaviour}-{}", termination.replace(' ', "-"));
    let dir = scratch(&key);
    let results = dir.join("results.jsonl");
    let pgn = dir.join("games.pgn");
    let tag = format!("tag-{}-{key}", std::process::id());
    let mut args = vec![
        "--games",
        "2",
        "--results",
        results.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    args.extend_from_slice(limits);
    let output = arbiter(&[fixture(behaviour, &tag), fixture("first", &tag)], &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{behaviour}: {stdout} {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = records(&results);
    assert_eq!(games.len(), 2, "{behaviour}: {stdout}");
    for game in &games {
        let winner = game["winner"].as_str().unwrap();
        assert_eq!(
            game[winner].as_str().unwrap(),
            "first",
            "{behaviour}: {game}"
        );
        assert!(
            game["termination"]
                .as_str()
                .unwrap()
                .starts_with(termination),
            "{behaviour}: {game}"
        );
        // One verdict (or null) per timed move, the losing answer's included.
        let verdicts = game["verdicts"].as_array().map_or(0, Vec::len);
        let times = game["move_times_ms"].as_array().unwrap().len();
        assert_eq!(verdicts, times, "{behaviour}: {game}");
    }
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_text.matches("[Event ").count(), 2);
    assert!(pgn_text.contains(&format!("[Termination \"{termination}")));
    assert!(stdout.contains("2/2"), "{stdout}");
    assert!(
        survivors(&tag).is_empty(),
        "{behaviour}: left running: {:?}",
        survivors(&tag)
    );
}

#[test]
fn crash_mid_game_loses_by_crash() {
    misbehaving("crash-mid-game", "crash", &["--movetime", "20"]);
}

#[test]
fn a_crash_is_recorded_with_the_exit_status_and_last_lines() {
    let dir = scratch("crash-detail");
    let (results, pgn) = (dir.join("results.jsonl"), dir.join("games.pgn"));
    let tag = format!("tag-{}-crash-detail", std::process::id());
    let output = arbiter(
        &[fixture("crash-loud", &tag), fixture("first", &tag)],
        &[
            "--games",
            "2",
            "--movetime",
            "20",
            "--results",
            results.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    // The progress line shows why the engine crashed (its stderr), not its search's lines.
    let crashed = stdout.lines().find(|l| l.contains(", crash (")).unwrap();
    assert!(crashed.contains("on stderr: panicked at"), "{crashed}");
    for game in records(&results) {
        assert_eq!(game["termination"], "crash", "{game}");
        let detail = game["detail"].as_str().unwrap();
        assert!(detail.starts_with("it exited (exit code 101)"), "{detail}");
        assert!(
            detail.contains("stderr: ") && detail.contains("/very/long/path/"),
            "{detail}"
        );
    }
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        pgn_text
            .matches("{crash: it exited (exit code 101)")
            .count(),
        2,
        "{pgn_text}"
    );
    assert_eq!(
        stdout.matches("crash (it exited (exit code 101)").count(),
        2,
        "{stdout}"
    );
    assert!(survivors(&tag).is_empty());
}

#[test]
fn hanging_engine_loses_on_time_under_a_clock() {
    misbehaving("hang", "time forfeit", &["--tc", "0.5+0"]);
}

#[test]
fn hanging_engine_stalls_under_a_depth_limit() {
    misbehaving("hang", "stall", &["--depth", "3", "--stall-timeout", "1"]);
}

#[test]
fn late_answers_lose_on_time() {
    misbehaving(
        "late",
        "time forfeit",
        &["--tc", "1+0", "--timemargin", "50"],
    );
}

#[test]
fn illegal_move_loses_and_is_named() {
    misbehaving("illegal", "illegal move a1", &["--movetime", "20"]);
}

#[test]
fn garbage_move_loses_and_is_named() {
    misbehaving("garbage", "illegal move xyzzy", &["--movetime", "20"]);
}

/// Runs a match that must stop before its first game; returns the error text.
fn fails_fast(engines: &[String], extra: &[&str], tag: &str) -> String {
    let dir = scratch(&format!("fail-fast-{tag}"));
    let results = dir.join("results.jsonl");
    let mut args = vec!["--games", "2", "--results", results.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = arbiter(engines, &args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        std::fs::read_to_string(&results)
            .unwrap_or_default()
            .is_empty(),
        "no game may be played or recorded"
    );
    assert!(
        survivors(tag).is_empty(),
        "left running: {:?}",
        survivors(tag)
    );
    stderr
}

#[test]
fn an_engine_that_cannot_start_stops_the_run_with_its_cause() {
    let tag = format!("tag-{}-fail-fast", std::process::id());
    let good = fixture("first", &tag);
    let stderr = fails_fast(
        &["cmd=./no-such-engine name=typo".to_string(), good.clone()],
        &[],
        &tag,
    );
    assert!(
        stderr.contains("engine 'typo' (./no-such-engine) could not start")
            && stderr.contains("No such file or directory"),
        "{stderr}"
    );
    let stderr = fails_fast(&["cmd=/ name=dir".to_string(), good.clone()], &[], &tag);
    assert!(
        stderr.contains("engine 'dir' (/) could not start"),
        "{stderr}"
    );
    let stderr = fails_fast(&[fixture("crash-at-start", &tag), good.clone()], &[], &tag);
    assert!(
        stderr.contains("engine 'crash-at-start'")
            && stderr.contains("failed its uci handshake: it exited (exit code 3) before 'uciok'")
            && stderr.contains("cannot start: crash-at-start exits at once"),
        "the engine's stderr is quoted: {stderr}"
    );
    let stderr = fails_fast(
        &[fixture("no-isready", &tag), good],
        &["--stall-timeout", "1"],
        &tag,
    );
    assert!(
        stderr.contains(
            "no 'readyok' within 1.0 s; its last lines: id name fixture-no-isready | uciok"
        ),
        "{stderr}"
    );
}

#[test]
fn junk_lines_are_ignored_and_logged() {
    let dir = scratch("junk");
    let results = dir.join("results.jsonl");
    let log = dir.join("engines.log");
    let tag = format!("tag-{}-junk", std::process::id());
    let output = arbiter(
        &[fixture("junk", &tag), fixture("first", &tag)],
        &[
            "--games",
            "4",
            "--movetime",
            "20",
            "--concurrency",
            "2",
            "--results",
            results.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ],
    );
    assert!(output.status.success());
    for game in records(&results) {
        assert_eq!(game["termination"], "normal", "{game}");
    }
    let log_text = std::fs::read_to_string(&log).unwrap();
    // Each process has its own tag, `name#pid`: the two junk processes of the two games at
    // once are told apart.
    let tagged = |suffix: &str| {
        log_text
            .lines()
            .filter(|l| l.ends_with(suffix))
            .filter_map(|l| l.split_whitespace().nth(1))
            .filter(|tag| tag.starts_with("junk#"))
            .collect::<std::collections::HashSet<_>>()
    };
    // Three processes: the check before the first game, then one per game at once.
    assert_eq!(
        tagged("> hello from the junk engine").len(),
        3,
        "{log_text}"
    );
    assert!(
        !tagged("! junk on stderr").is_empty(),
        "stderr is logged: {log_text}"
    );
    assert_eq!(tagged("< go movetime 20").len(), 2, "{log_text}");
    assert!(survivors(&tag).is_empty());
}

#[test]
fn results_and_pgn_agree_with_a_replay_of_every_game() {
    let dir = scratch("replay");
    let results = dir.join("results.jsonl");
    let pgn = dir.join("games.pgn");
    let output = arbiter(
        &[engine_spec("a"), engine_spec("b")],
        &[
            "--games",
            "6",
            "--concurrency",
            "2",
            "--tc",
            "1+0.01",
            "--random-plies",
            "4",
            "--results",
            results.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = records(&results);
    assert_eq!(games.len(), 6);
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    for game in &games {
        let mut position = konane::Position::from_fen(
            game["start"].as_str().unwrap(),
            konane::Opening::Traditional,
            konane::Capture::Straight,
        )
        .unwrap();
        for mv in game["moves"].as_array().unwrap() {
            position
                .play(mv.as_str().unwrap().parse().unwrap())
                .unwrap();
        }
        assert!(position.is_game_over(), "{game}");
        let loser = position.side_to_move().name();
        assert_ne!(game["winner"].as_str().unwrap(), loser);
        assert_eq!(game["opening_plies"], 4);
        let first_moves: Vec<&str> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .take(2)
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(pgn_text.contains(&format!("1. {} {}", first_moves[0], first_moves[1])));
        // Each engine move's verdict is kept, and the PGN writes it with the move's time as
        // cutechess-cli does: `f5d5 {+0.35/12 0.50s}`.
        let verdicts = game["verdicts"].as_array().unwrap();
        let times = game["move_times_ms"].as_array().unwrap();
        assert_eq!(verdicts.len(), times.len(), "{game}");
        let first_engine_move = game["moves"][4].as_str().unwrap();
        let verdict = verdicts[0].as_str().expect("konane-engine reports a score");
        let seconds = times[0].as_u64().unwrap() as f64 / 1000.0;
        let comment = format!("{first_engine_move} {{{verdict} {seconds:.2}s}}");
        let words = pgn_text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains(&comment), "{comment} in {pgn_text}");
    }
    let engine_results = pgn_text.matches("[Result \"").count();
    assert_eq!(engine_results, 6);
}

#[test]
fn resume_replays_nothing_that_finished() {
    let dir = scratch("resume");
    let results = dir.join("results.jsonl");
    let tag = format!("tag-{}-resume", std::process::id());
    let engines = [fixture("first", &tag), fixture("min-replies", &tag)];
    let path = results.to_str().unwrap();
    assert!(
        arbiter(
            &engines,
            &[
                "--games",
                "4",
                "--movetime",
                "10",
                "--random-plies",
                "3",
                "--results",
                path
            ]
        )
        .status
        .success()
    );
    let full = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    // Keep two games and a torn third line, as an interruption mid-write would leave.
    std::fs::write(
        &results,
        format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..20]),
    )
    .unwrap();
    let refused = arbiter(
        &engines,
        &[
            "--games",
            "4",
            "--movetime",
            "10",
            "--random-plies",
            "3",
            "--results",
            path,
        ],
    );
    assert!(
        !refused.status.success(),
        "an existing results file needs --resume"
    );
    std::fs::write(&results, format!("{}\n{}\n", lines[0], lines[1])).unwrap();
    let output = arbiter(
        &engines,
        &[
            "--games",
            "4",
            "--movetime",
            "10",
            "--random-plies",
            "3",
            "--results",
            path,
            "--resume",
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        !stdout.contains("1/4") && !stdout.contains("2/4") && stdout.contains("4/4"),
        "{stdout}"
    );
    let games = records(&results);
    let ids: Vec<u64> = games.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    assert_eq!(ids.len(), 4);
    assert_eq!(
        ids.iter().collect::<std::collections::BTreeSet<_>>().len(),
        4,
        "{ids:?}"
    );
    // The fixtures are deterministic: the resumed games are the ones first played.
    let without_times = |mut game: serde_json::Value| {
        game["move_times_ms"] = serde_json::Value::Null;
        game
    };
    let first_run: Vec<serde_json::Value> = full
        .lines()
        .map(|l| without_times(serde_json::from_str(l).unwrap()))
        .collect();
    assert_eq!(
        games.into_iter().map(without_times).collect::<Vec<_>>(),
        first_run
    );
}

#[test]
fn sprt_stops_when_decided_and_finishes_the_games_in_progress() {
    let dir = scratch("sprt");
    let results = dir.join("results.jsonl");
    let log = dir.join("log.txt");
    let tag = format!("tag-{}-sprt", std::process::id());
    let output = arbiter(
        &[engine_spec("engine"), fixture("first", &tag)],
        &[
            "--games",
            "400",
            "--movetime",
            "10",
            "--random-plies",
            "6",
            "--results",
            results.to_str().unwrap(),
            "--sprt",
            "elo0=0",
            "elo1=100",
            "--concurrency",
            "3",
            "--log",
            log.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let games = records(&results);
    assert!(games.len() < 400);
    // Games start in order, so the games started are 1..=n: all of them are recorded.
    let ids: Vec<u64> = games.iter().map(|g| g["id"].as_u64().unwrap()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        (1..=ids.len() as u64).collect::<Vec<_>>(),
        "{stdout}"
    );
    let decided_at: usize = stdout
        .split("The SPRT decided after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the decision is reported");
    let in_progress: usize = stdout
        .find(" games then in progress")
        .map(|end| stdout[..end].rsplit(' ').next().unwrap().parse().unwrap())
        .unwrap_or(0);
    assert_eq!(decided_at + in_progress, games.len(), "{stdout}");
    // Each game begins with a new game for both engines.
    let log = std::fs::read_to_string(&log).unwrap();
    let started = log.lines().filter(|l| l.ends_with("< ucinewgame")).count() / 2;
    assert_eq!(
        started,
        games.len(),
        "every game started was finished and recorded"
    );
    assert!(survivors(&tag).is_empty());
}

#[test]
fn interrupt_prints_the_table_and_leaves_no_process() {
    let tag = format!("tag-{}-interrupt", std::process::id());
    let mut command = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"));
    for engine in [fixture("hang", &tag), fixture("hang", &tag)] {
        command.arg("--engine").args(engine.split(' '));
    }
    let child = command
        .args(["--games", "2", "--tc", "600+0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!survivors(&tag).is_empty(), "the engines are running");
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("Interrupted after 0 of 2 games"),
        "{stdout}"
    );
    assert!(stdout.contains("engine "), "{stdout}");
    assert!(survivors(&tag).is_empty(), "{:?}", survivors(&tag));
}

#[test]
fn tournaments_pair_every_engine() {
    let dir = scratch("tournament");
    let results = dir.join("results.jsonl");
    let tag = format!("tag-{}-tournament", std::process::id());
    let engines = [
        fixture("first", &tag),
        fixture("min-replies", &tag),
        fixture("mobility4", &tag),
    ];
    let path = results.to_str().unwrap();
    let output = arbiter(
        &engines,
        &[
            "--games",
            "2",
            "--movetime",
            "10",
            "--results",
            path,
            "--format",
            "round-robin",
        ],
    );
    assert!(output.status.success());
    assert_eq!(records(&results).len(), 6);
    std::fs::remove_file(&results).unwrap();
    let output = arbiter(
        &engines,
        &[
            "--games",
            "2",
            "--movetime",
            "10",
            "--results",
            path,
            "--format",
            "gauntlet",
        ],
    );
    assert!(output.status.success());
    let games = records(&results);
    assert_eq!(games.len(), 4);
    assert!(
        games
            .iter()
            .all(|g| g["black"] == "first" || g["white"] == "first")
    );
}

#[test]
fn bad_arguments_are_named() {
    let engine = engine_spec("a");
    for (engines, args, expected) in [
        (vec![engine.clone()], vec![], "at least two --engine"),
        (
            vec![engine.clone(), "name=x".to_string()],
            vec![],
            "cmd=PATH is missing",
        ),
        (
            vec![engine.clone(), format!("{engine} colour=red")],
            vec![],
            "unknown key 'colour'",
        ),
        (
            vec![engine.clone(), engine.clone()],
            vec!["--tc", "fast"],
            "bad time control 'fast'",
        ),
        (
            vec![engine.clone(), engine.clone()],
            vec!["--size", "9x9"],
            "even width and height",
        ),
        (
            vec![engine.clone(), engine.clone()],
            vec!["--sprt", "elo0=5", "elo1=0"],
            "elo1 must be greater",
        ),
        (
            vec![engine.clone(), engine.clone()],
            vec!["--openings", "/nonexistent/openings.txt"],
            "/nonexistent/openings.txt",
        ),
        (
            vec![engine.clone(), engine.clone()],
            vec!["--resume"],
            "--resume needs --results",
        ),
    ] {
        let output = arbiter(&engines, &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn openings_file_lines_are_checked() {
    let dir = scratch("openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# comment\nd5 c5\n\nd5 c5 f5f3\n").unwrap();
    let engines = [engine_spec("a"), engine_spec("b")];
    let output = arbiter(&engines, &["--openings", file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("openings.txt:4: illegal move f5f3: f3 is not empty"),
        "{stderr}"
    );
    std::fs::write(&file, "d5 c5 f5d5\nbwbwbwbw/wbwbwbwb/bwbwbwbw/wbw1wbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w moves e5\n").unwrap();
    let results = dir.join("results.jsonl");
    let output = arbiter(
        &engines,
        &[
            "--openings",
            file.to_str().unwrap(),
            "--games",
            "4",
            "--movetime",
            "10",
            "--results",
            results.to_str().unwrap(),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = records(&results);
    assert_eq!(games[0]["moves"][2], "f5d5");
    assert!(games[2]["start"].as_str().unwrap().contains("wbw1wbwb"));
    assert_eq!(games[2]["moves"][0], "e5");
}

#[test]
fn an_option_the_engine_does_not_have_or_cannot_take_stops_the_run() {
    let tag = format!("tag-{}-bad-option", std::process::id());
    let good = fixture("first", &tag);
    let skill = |setting: &str| format!("{} {setting}", engine_spec("engine"));
    let stderr = fails_fast(&[skill("option.Skil=5"), good.clone()], &[], &tag);
    assert!(
        stderr.contains("option 'Skil' is not one of the engine's options (Hash, Skill,"),
        "{stderr}"
    );
    let stderr = fails_fast(&[skill("option.Skill=50"), good.clone()], &[], &tag);
    assert!(
        stderr.contains("option Skill=50: the engine accepts a whole number from 0 to 20"),
        "{stderr}"
    );
    // An option the engine announced, with a value it takes, is fine.
    let output = arbiter(
        &[skill("option.skill=3"), good],
        &["--games", "2", "--movetime", "20", "--size", "6x6"],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn an_unwritable_results_or_pgn_file_stops_the_run_before_any_game() {
    let dir = scratch("unwritable");
    let tag = format!("tag-{}-unwritable", std::process::id());
    let engines = [fixture("first", &tag), fixture("first", &tag)];
    let results = dir.join("results.jsonl");
    let nowhere = dir.join("no-such-dir").join("games.pgn");
    let output = arbiter(
        &engines,
        &[
            "--games",
            "2",
            "--size",
            "4x4",
            "--results",
            results.to_str().unwrap(),
            "--pgn",
            nowhere.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("PGN file ") && stderr.contains("games.pgn: No such file or directory"),
        "{stderr}"
    );
    assert!(
        std::fs::read_to_string(&results)
            .unwrap_or_default()
            .is_empty(),
        "no game was written to the results"
    );
    assert!(survivors(&tag).is_empty());
}

#[test]
fn a_command_that_cannot_start_gets_a_hint() {
    let dir = scratch("hints");
    let program = dir.join("mybot");
    std::fs::copy(env!("CARGO_BIN_EXE_konane-engine"), &program).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .current_dir(dir.path())
        .args(["--games", "2", "--engine", "cmd=mybot", "--engine"])
        .arg(format!("cmd={} --fast", program.display()))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("(there is a mybot in the current folder: write cmd=./mybot)"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "(cmd= is one program: for arguments write cmd={} arg=--fast)",
            program.display()
        )),
        "{stderr}"
    );
}

#[test]
fn random_plies_no_game_can_last_are_refused() {
    let tag = format!("tag-{}-long-openings", std::process::id());
    let stderr = fails_fast(
        &[fixture("first", &tag), fixture("first", &tag)],
        &["--size", "4x4", "--random-plies", "30"],
        &tag,
    );
    assert!(
        stderr.contains(
            "random openings of 30 plies: no random game of 4x4 lasts 30 plies without ending"
        ),
        "{stderr}"
    );
}

#[test]
fn a_pondering_engine_ponders_on_the_reply_it_expects_and_keeps_its_clock() {
    let dir = scratch("ponder");
    let results = dir.join("results.jsonl");
    let log = dir.join("log.txt");
    let pondering = format!("{} ponder", engine_spec("pondering"));
    let output = arbiter(
        &[pondering, engine_spec("plain")],
        &[
            "--games",
            "4",
            "--tc",
            "1+0.01",
            "--results",
            results.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // No game is lost on time, pondering or not.
    for game in records(&results) {
        assert_eq!(game["termination"], "normal", "{game}");
    }
    let log = std::fs::read_to_string(&log).unwrap();
    let sent_to = |engine: &str| -> Vec<String> {
        log.lines()
            .filter_map(|line| common::arbiter::sent_to(line, engine).map(str::to_string))
            .collect()
    };
    let sent = sent_to("pondering");
    assert!(sent.contains(&"setoption name Ponder value true".to_string()));
    let ponders = sent.iter().filter(|l| l.starts_with("go ponder ")).count();
    let hits = sent.iter().filter(|l| *l == "ponderhit").count();
    assert!(
        ponders >= 10 && hits >= 1,
        "{ponders} ponder searches, {hits} hits"
    );
    // Each ponder search ends with `ponderhit` (the reply came) or `stop` (another did).
    for (i, line) in sent.iter().enumerate() {
        if line.starts_with("go ponder ") {
            let next = sent.get(i + 1).map(String::as_str);
            assert!(
                matches!(next, Some("ponderhit" | "stop")),
                "after {line}: {next:?}"
            );
        }
    }
    assert!(
        !sent_to("plain").iter().any(|l| l.contains("ponder")),
        "the engine without `ponder` is never asked to"
    );
}
