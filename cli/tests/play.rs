//! `konane-arbiter play`: a person (here, the test through pipes) against an engine.

mod common;

use common::process::Piped;
use common::scratch::Scratch;

fn play(engine: &[&str], extra: &[&str]) -> Piped {
    let mut args = vec!["play", "--engine"];
    args.extend_from_slice(engine);
    args.extend_from_slice(extra);
    Piped::start(env!("CARGO_BIN_EXE_konane-arbiter"), &args)
}

/// Asks for the legal moves; `None` once the game is over (the last line is returned then).
fn legal_moves(game: &mut Piped) -> Result<Vec<String>, String> {
    game.send("moves");
    let lines = game.until(|l| l.contains("Legal moves: ") || l.starts_with("Game over: "));
    let last = lines.last().unwrap().clone();
    match last.split_once("Legal moves: ") {
        Some((_, moves)) => Ok(moves.split(' ').map(str::to_string).collect()),
        None => Err(last),
    }
}

#[test]
fn a_person_plays_a_whole_game_with_undo_and_refused_moves() {
    let dir = Scratch::new("play-game");
    let (results, pgn) = (dir.join("results.jsonl"), dir.join("games.pgn"));
    let fixture = format!("cmd={}", env!("CARGO_BIN_EXE_konane-fixture"));
    let mut game = play(
        &[&fixture, "arg=first", "name=firstbot"],
        &[
            "--size",
            "4x4",
            "--human",
            "white",
            "--name",
            "tester",
            "--movetime",
            "20",
            "--results",
            results.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    let lines = game.until(|l| l.contains("firstbot plays "));
    assert!(lines[0].starts_with("firstbot (Black) against tester (White), 4x4"));
    // The engine's removal is drawn, marked in brackets.
    let lines = game.until(|l| l.trim_start().starts_with("a  b  c  d"));
    assert!(lines.iter().any(|l| l.contains("[.]")), "{lines:?}");
    game.send("b5q");
    let refused = game.until(|l| l.contains("is not a move") || l.contains("not legal"));
    assert!(refused.last().unwrap().contains("'b5q' is not a move: "));
    game.send("a1a3");
    let refused = game.until(|l| l.contains("not legal here"));
    assert!(refused.last().unwrap().contains("a1a3 is not legal here: "));
    game.send("undo");
    game.until(|l| l.contains("Nothing to undo"));
    let first = legal_moves(&mut game).unwrap();
    game.send(&first[0]);
    game.until(|l| l.contains("firstbot plays "));
    let second = legal_moves(&mut game).unwrap();
    game.send("undo");
    game.until(|l| l.contains("Took back your last move and the reply."));
    assert_eq!(legal_moves(&mut game).unwrap(), first, "back where we were");
    let mut plies = 0;
    let over = loop {
        match legal_moves(&mut game) {
            Ok(moves) => {
                game.send(moves.last().unwrap());
                plies += 1;
            }
            Err(over) => break over,
        }
    };
    assert!(plies >= 1 && !second.is_empty());
    assert!(
        over.contains(" wins; ") && over.contains("has no move"),
        "{over}"
    );
    assert!(game.wait_exit().is_some_and(|s| s.success()));
    let record: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&results).unwrap().trim()).unwrap();
    assert_eq!(record["black"], "firstbot");
    assert_eq!(record["white"], "tester");
    assert_eq!(record["termination"], "normal");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[White \"tester\"]") && text.contains("[Event \"konane-arbiter play\"]")
    );
}

#[test]
fn an_engine_crash_ends_the_game_for_the_person_and_quit_leaves_cleanly() {
    let dir = Scratch::new("play-crash");
    let results = dir.join("results.jsonl");
    let fixture = format!("cmd={}", env!("CARGO_BIN_EXE_konane-fixture"));
    let mut game = play(
        &[&fixture, "arg=crash-mid-game", "name=crashy"],
        &["--movetime", "20", "--results", results.to_str().unwrap()],
    );
    let over = loop {
        match legal_moves(&mut game) {
            Ok(moves) => game.send(&moves[0]),
            Err(over) => break over,
        }
    };
    assert!(
        over.contains("human (Black) wins; crashy lost by crash (it exited (exit code 4)"),
        "{over}"
    );
    let end = game.until(|l| l.starts_with("The game is written to"));
    assert!(end.iter().any(|l| l.starts_with("Moves: ")), "{end:?}");
    assert!(end.last().unwrap().contains("results.jsonl"), "{end:?}");
    assert!(game.wait_exit().is_some_and(|s| s.success()));
    assert!(
        std::fs::read_to_string(&results)
            .unwrap()
            .contains("\"termination\":\"crash\"")
    );

    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine"));
    let mut game = play(&[&engine], &["--movetime", "20"]);
    legal_moves(&mut game).unwrap();
    game.send("quit");
    game.until(|l| l.contains("You left the game; it is not recorded."));
    assert!(game.wait_exit().is_some_and(|s| s.success()));
}

#[test]
fn an_engine_that_cannot_start_is_named() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args(["play", "--engine", "cmd=./missing-bot"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("engine 'missing-bot' (./missing-bot) could not start"),
        "{stderr}"
    );
}

#[test]
fn the_stall_limit_of_a_depth_game_is_set_by_a_flag() {
    let fixture = format!("cmd={}", env!("CARGO_BIN_EXE_konane-fixture"));
    // `chatty` reports every 200 ms for 2.4 s: alive under a 1 s limit; `late` is silent 3 s.
    for (behaviour, stalled) in [("chatty", false), ("late", true)] {
        let mut game = play(
            &[&fixture, &format!("arg={behaviour}"), "name=slow"],
            &["--human", "white", "--depth", "30", "--stall-timeout", "1"],
        );
        let lines = game.until(|l| l.contains("slow plays ") || l.starts_with("Game over: "));
        let last = lines.last().unwrap();
        assert_eq!(
            last.starts_with("Game over: "),
            stalled,
            "{behaviour}: {last}"
        );
        if stalled {
            // The game is over: the program ends by itself.
            assert!(last.contains("slow lost by stall"), "{last}");
        } else {
            game.send("quit");
        }
        assert!(game.wait_exit().is_some_and(|s| s.success()));
    }
}

#[test]
fn the_intro_follows_the_board_and_ctrl_c_while_the_engine_thinks_is_explained() {
    let fixture = format!("cmd={}", env!("CARGO_BIN_EXE_konane-fixture"));
    let mut game = play(
        &[&fixture, "arg=hang", "name=hangbot"],
        &["--size", "6x6", "--human", "White", "--movetime", "20000"],
    );
    let lines = game.until(|l| l.contains("is thinking..."));
    // The examples are moves of this board: a 6x6 removal and jump, no 8x8 square.
    assert!(
        lines[0].contains("(f1 to remove a stone, f3f1 to jump; "),
        "{lines:?}"
    );
    assert!(
        !lines[0].contains("d5") && !lines[0].contains("f5"),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "hangbot (Black) is thinking...");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(game.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    game.until(|l| l == "Interrupted while hangbot was thinking: the game is not recorded.");
    assert_eq!(game.wait_exit().and_then(|s| s.code()), Some(130));
}
