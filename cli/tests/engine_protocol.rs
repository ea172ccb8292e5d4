//! The engine binary driven through pipes, one test per protocol command and bad input.

mod common;

use common::Rng;
use common::process::Piped;
use konane::{Capture, Move, Opening, Position, Rules};

fn engine() -> Piped {
    Piped::start(env!("CARGO_BIN_EXE_konane-engine"), &[])
}

/// The move of the last line, `bestmove <move> [ponder <reply>]`.
fn bestmove(lines: &[String]) -> &str {
    let words = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    words.split(' ').next().unwrap()
}

/// The reply the last line, `bestmove <move> [ponder <reply>]`, names to ponder on.
fn ponder_move(lines: &[String]) -> Option<&str> {
    lines.last().unwrap().split(" ponder ").nth(1)
}

/// Checks that `bestmove` is legal in `position` and the ponder reply it names (which it must)
/// is legal after it.
fn assert_move_and_ponder_legal(position: &Position, lines: &[String]) {
    let mut after = *position;
    after.play(bestmove(lines).parse().unwrap()).unwrap();
    let reply: Move = ponder_move(lines).expect("a ponder move").parse().unwrap();
    assert!(after.legal_moves().contains(&reply), "{lines:?}");
}

#[test]
fn uci_handshake_lists_every_option() {
    let mut e = engine();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name Konane"));
    assert!(lines[1].starts_with("id author"));
    for option in [
        "Hash",
        "Skill",
        "Threads",
        "MoveOverhead",
        "Ponder",
        "MultiPV",
        "Width",
        "Height",
        "Opening",
        "Capture",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}"
        );
    }
    assert!(e.sync().is_empty());
}

#[test]
fn an_error_comes_after_the_answers_to_the_commands_before_it() {
    let mut e = engine();
    e.send("uci");
    e.send("isready");
    e.send("junk");
    let lines = e.until(|l| l.starts_with("info string error"));
    assert_eq!(
        &lines[lines.len() - 3..],
        [
            "uciok",
            "readyok",
            "info string error: unknown command 'junk'"
        ]
    );
    // During a search an error is answered at once, as `isready` is.
    e.send("go infinite");
    e.send("junk");
    assert_eq!(
        e.until(|l| l.starts_with("info string error"))
            .last()
            .unwrap(),
        "info string error: unknown command 'junk'"
    );
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
}

#[test]
fn ugi_handshake_queries_and_two_word_bestmove() {
    let mut e = engine();
    e.send("ugi");
    assert_eq!(e.until(|l| l == "ugiok").last().unwrap(), "ugiok");
    e.send("uginewgame");
    e.send("position startpos moves d5 c5");
    for (query, answer) in [
        ("gameover", "false"),
        ("p1turn", "true"),
        ("result", "none"),
    ] {
        e.send(&format!("query {query}"));
        assert_eq!(e.next_line(), format!("response {answer}"));
    }
    e.send("go p1time 1000 p2time 1000 p1inc 10 p2inc 10");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(
        lines.last().unwrap().split_whitespace().count(),
        2,
        "{lines:?}"
    );
    // 2x2 with the any opening: after b1 and a1 go, Black (a2) has no move and has lost.
    e.send("setoption name Width value 2");
    e.send("setoption name Height value 2");
    e.send("position startpos moves b1 a1");
    for (query, answer) in [
        ("gameover", "true"),
        ("p1turn", "true"),
        ("result", "p2win"),
    ] {
        e.send(&format!("query {query}"));
        assert_eq!(e.next_line(), format!("response {answer}"));
    }
    e.send("go movetime 50");
    assert_eq!(e.next_line(), "bestmove 0000");
}

#[test]
fn position_and_display() {
    let mut e = engine();
    e.send("position startpos moves d5 c5 f5d5");
    e.send("d");
    let lines = e.sync();
    assert!(
        lines.contains(
            &"Fen: bwbwbwbw/wbwbwbwb/bwbwbwbw/wb1b2wb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w"
                .to_string()
        ),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("Legal moves: ")));
    assert!(
        lines
            .iter()
            .any(|l| l.trim_start().starts_with("8  b w b w"))
    );
    e.send("position fen 1w2/w3/b3/4 b");
    e.send("d");
    let lines = e.sync();
    assert!(
        lines.contains(&"Legal moves: a2a4".to_string()),
        "{lines:?}"
    );
    e.send("setoption name Capture value turning");
    e.send("position fen 1w2/w3/b3/4 b");
    e.send("d");
    assert!(e.sync().contains(&"Legal moves: a2a4 a2a4c4".to_string()));
}

#[test]
fn every_bad_input_gets_one_error_line_and_changes_nothing() {
    let mut e = engine();
    e.send("position startpos moves d5");
    let cases = [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("position fen bw/wx b", "unexpected character 'x'"),
        ("position fen", "'fen' needs a position string"),
        (
            "position startpos moves d5 c5 d5d3",
            "illegal move d5d3 (move 3 of the list)",
        ),
        ("position startpos moves d5 q99", "bad move 'q99'"),
        (
            "setoption name Hash value lots",
            "Hash must be a whole number from 1 to 65536, not 'lots'",
        ),
        (
            "setoption name Capture value diagonal",
            "Capture must be one of straight, single, turning, not 'diagonal'",
        ),
        ("setoption name Colour value red", "unknown option 'Colour'"),
        (
            "setoption name Skill value 21",
            "Skill must be a whole number from 0 to 20, not '21'",
        ),
        ("go depth soon", "'depth' needs a whole number, not 'soon'"),
        ("go sideways", "unknown parameter 'sideways'"),
        ("query weather", "not 'weather'"),
        ("setoption name Width value 9", ""),
        ("position startpos", "even width and height"),
    ];
    for (line, expected) in cases {
        e.send(line);
        let lines = e.sync();
        if expected.is_empty() {
            assert!(lines.is_empty(), "{line}: {lines:?}");
            continue;
        }
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{line}: {lines:?}"
        );
        assert!(lines[0].contains(expected), "{line}: {lines:?}");
    }
    e.send("d");
    let fen = "Fen: bwbwbwbw/wbwbwbwb/bwbwbwbw/wbw1wbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w";
    assert!(
        e.sync().contains(&fen.to_string()),
        "rejected positions left the old one in force"
    );
    e.send(&"x".repeat(100_000));
    assert_eq!(e.sync().len(), 1);
}

#[test]
fn go_limits_info_lines_and_ponder_move() {
    let mut e = engine();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("position startpos moves d5 c5");
    e.send("go depth 6");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(depths.len(), 6, "{lines:?}");
    let last = depths.last().unwrap();
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(last.contains(field), "{field} missing from {last}");
    }
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(words[2], "ponder", "{words:?}");
    let mut position = Position::start(Rules::default()).unwrap();
    for mv in ["d5", "c5", words[1], words[3]] {
        position.play(mv.parse().unwrap()).unwrap();
    }
    e.send("go nodes 5000");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let nodes: u64 = lines[lines.len() - 2]
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes < 20_000, "{nodes} nodes for a 5000-node search");
    e.send("go movetime 100");
    e.until(|l| l.starts_with("bestmove"));
    e.send("go wtime 500 btime 500 winc 10 binc 10 movestogo 10");
    e.until(|l| l.starts_with("bestmove"));
}

#[test]
fn stop_ends_infinite_and_ponder_searches_and_isready_answers_meanwhile() {
    let mut e = engine();
    e.send("position startpos moves d5 c5");
    e.send("go infinite");
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    std::thread::sleep(std::time::Duration::from_millis(100));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    e.send("go ponder wtime 300 btime 300");
    e.send("ponderhit");
    e.until(|l| l.starts_with("bestmove"));
    // `stop` straight after `go` is not lost.
    e.send("go infinite");
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    assert!(e.sync().is_empty());
}

#[test]
fn perft_bench_eval_and_end_of_input() {
    let mut e = engine();
    e.send("go perft 3");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 28");
    assert_eq!(lines.len(), 5);
    e.send("position startpos moves d5 c5");
    e.send("eval");
    // The library's evaluation of the position, from the side to move's view.
    let rules = Rules::new(8, 8, Opening::Traditional, Capture::Straight).unwrap();
    let mut position = Position::start(rules).unwrap();
    for mv in ["d5", "c5"] {
        position.play(mv.parse().unwrap()).unwrap();
    }
    let score = konane::search::eval::evaluate_position(&position);
    assert_eq!(
        e.next_line(),
        format!("info string eval {score} cp for black")
    );
    e.send("bench 3");
    let line = e.next_line();
    assert!(line.ends_with(" nps") && line.contains(" nodes "), "{line}");
    e.send("go infinite");
    e.close_input();
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert!(e.wait_exit().is_some_and(|s| s.success()));
}

#[test]
fn quit_exits_during_a_search() {
    let mut e = engine();
    e.send("go infinite");
    e.send("quit");
    assert!(e.wait_exit().is_some_and(|s| s.success()));
}

#[test]
fn skill_levels_play_legal_moves_and_weak_levels_vary() {
    // An early middle game: many moves, several of them close in value.
    let mut position = Position::start(Rules::default()).unwrap();
    let mut played = Vec::new();
    for ply in 0..6 {
        let legal = position.legal_moves();
        let mv = legal[ply * 7 % legal.len()];
        position.play(mv).unwrap();
        played.push(mv.to_string());
    }
    let moves = played.join(" ");
    let chosen = |skill: u8, depth: u32| {
        let mut e = engine();
        e.send(&format!("setoption name Skill value {skill}"));
        e.send(&format!("position startpos moves {moves}"));
        e.send(&format!("go depth {depth}"));
        let lines = e.until(|l| l.starts_with("bestmove"));
        let text = bestmove(&lines).split_whitespace().next().unwrap();
        let mv: Move = text.parse().unwrap();
        assert_eq!(position.check(mv), Ok(()), "skill {skill}");
        mv
    };
    let weak: std::collections::HashSet<Move> = (0..12).map(|_| chosen(0, 3)).collect();
    assert!(
        weak.len() > 1,
        "Skill 0 chooses at random among close moves: {weak:?}"
    );
    let full: std::collections::HashSet<Move> = (0..3).map(|_| chosen(20, 3)).collect();
    assert_eq!(full.len(), 1, "full strength is deterministic: {full:?}");
    chosen(10, 4);
}

#[test]
fn answers_keep_the_order_of_commands_sent_all_at_once() {
    let mut e = engine();
    e.send_bytes(b"uci\nposition startpos moves d5 e5\ngo movetime 300\nisready\n");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let at = |wanted: &str| lines.iter().position(|l| l == wanted);
    let (uciok, readyok) = (at("uciok"), at("readyok"));
    assert!(uciok.is_some() && readyok.is_some(), "{lines:?}");
    assert!(
        uciok < readyok,
        "readyok answers during the search, after uciok: {lines:?}"
    );
}

#[test]
fn threads_and_hash_options_search_legally() {
    let mut e = engine();
    e.send("setoption name Threads value 2");
    e.send("setoption name Hash value 8");
    e.send("position startpos moves d5 c5");
    e.send("go depth 8");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let mut position = Position::start(Rules::default()).unwrap();
    position.play("d5".parse().unwrap()).unwrap();
    position.play("c5".parse().unwrap()).unwrap();
    let mv: Move = bestmove(&lines)
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(position.check(mv), Ok(()));
}

#[test]
fn bestmove_is_legal_in_random_positions_of_every_size_and_rule() {
    let mut e = engine();
    let mut rng = Rng::new(99);
    for round in 0..1500 {
        let (w, h) = (2 + rng.below(25), 2 + rng.below(25));
        let capture = Capture::ALL[round % 3];
        let opening = if w % 2 == 0 && h % 2 == 0 && round % 2 == 0 {
            Opening::Traditional
        } else {
            Opening::Any
        };
        let mut position = Position::start(Rules::new(w, h, opening, capture).unwrap()).unwrap();
        let plies = rng.below(40);
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position.play(moves[rng.below(moves.len())]).unwrap();
        }
        e.send(&format!("setoption name Opening value {opening}"));
        e.send(&format!("setoption name Capture value {capture}"));
        e.send(&format!("position fen {}", position.fen()));
        e.send(if round % 2 == 0 {
            "go nodes 300"
        } else {
            "go depth 2"
        });
        let lines = e.until(|l| l.starts_with("bestmove"));
        let answer = bestmove(&lines).split_whitespace().next().unwrap();
        if position.is_game_over() {
            assert_eq!(answer, "0000", "{position}");
        } else {
            let mv: Move = answer.parse().unwrap();
            assert_eq!(
                position.check(mv),
                Ok(()),
                "{answer} in {position} ({})",
                position.rules()
            );
        }
    }
}

#[test]
fn lines_that_are_not_utf8_or_too_long_get_an_error_and_are_skipped() {
    let mut e = engine();
    e.send_bytes(b"position startpos moves d5 \xe9\n");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: line is not UTF-8 text (byte 0xe9 at offset 27)"),
        "{lines:?}"
    );
    e.send_bytes(b"\xff\xfe\x00\x01\r\n");
    assert_eq!(e.sync().len(), 1);
    let mut huge = vec![b'd'; 3 << 20];
    huge.push(b'\n');
    e.send_bytes(&huge);
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "one error for the whole line");
    assert!(lines[0].contains("line longer than"), "{lines:?}");
    e.send("position startpos moves d5 c5");
    e.send("go depth 2");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_ne!(bestmove(&lines), "0000", "later commands still work");
    e.send("quit");
    assert!(e.wait_exit().is_some_and(|s| s.success()));
}

#[test]
fn stop_and_quit_interrupt_perft_and_bench() {
    let mut e = engine();
    e.send("go perft 30");
    assert!(e.sync().is_empty(), "isready is answered during a perft");
    e.send("stop");
    let lines = e.until(|l| l.starts_with("info string perft stopped"));
    assert!(lines.iter().all(|l| !l.starts_with("Nodes searched")));
    e.send("bench 60");
    e.send("stop");
    e.until(|l| l == "info string bench stopped");
    e.send("go perft 5");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().unwrap(),
        "Nodes searched: 892",
        "a new perft counts in full"
    );
    e.send("go perft 30");
    e.send("quit");
    assert!(e.wait_exit().is_some_and(|s| s.success()));
}

/// Commands to mutate. `Hash` is left out: a mutated size such as 16000 MB would be honoured.
const FUZZ_SEEDS: [&str; 24] = [
    "uci",
    "ugi",
    "isready",
    "ucinewgame",
    "setoption name Width value 6",
    "setoption name Height value 10",
    "setoption name Opening value any",
    "setoption name Capture value turning",
    "setoption name Threads value 2",
    "setoption name Ponder value true",
    "position startpos",
    "position startpos moves d5 c5 f5d5",
    "position fen bwbwbw/wbwbwb/bw1wbw/wbwbwb/bwbwbw/wbwbwb w moves c4c2",
    "position fen b1w/3/w1b b",
    "go depth 3",
    "go movetime 5",
    "go nodes 500",
    "go wtime 100 btime 100 winc 5 binc 5",
    "go perft 4",
    "go infinite",
    "stop",
    "query gameover",
    "d",
    "eval",
];

/// One fuzz line: random bytes, a huge line, or a mutated command.
fn fuzz_line(rng: &mut Rng) -> Vec<u8> {
    match rng.below(10) {
        0 | 1 => (0..rng.below(120)).map(|_| rng.below(256) as u8).collect(),
        2 if rng.below(20) == 0 => vec![b'9'; 200_000 + rng.below(2_000_000)],
        _ => {
            let mut line = FUZZ_SEEDS[rng.below(FUZZ_SEEDS.len())].as_bytes().to_vec();
            for _ in 0..rng.below(4) {
                let at = rng.below(line.len() + 1);
                match rng.below(5) {
                    0 if at < line.len() => line[at] = rng.below(256) as u8,
                    1 if at < line.len() => {
                        line.remove(at);
                    }
                    2 => line.insert(at, b"0123456789 -x\t\xc3"[rng.below(15)]),
                    3 => line.extend_from_slice(b" 99999999999999999999"),
                    _ => line.extend_from_slice(b" moves a1 z26 0000"),
                }
            }
            line
        }
    }
}

#[test]
fn seeded_fuzz_of_random_and_mutated_lines_never_stops_the_engine() {
    for seed in 1..=3 {
        let mut rng = Rng::new(seed);
        let mut e = engine();
        let mut sent = 0;
        while sent < 1500 {
            let mut line = fuzz_line(&mut rng);
            // The fuzzer must not say `quit` itself; everything else is fair.
            if line.windows(4).any(|w| w.eq_ignore_ascii_case(b"quit")) {
                continue;
            }
            line.retain(|&b| b != b'\n');
            line.push(b'\n');
            e.send_bytes(&line);
            sent += 1;
        }
        e.send("stop");
        e.sync();
        e.send("quit");
        assert!(
            e.wait_exit().is_some_and(|s| s.success()),
            "seed {seed}: no clean exit"
        );
    }
}

#[test]
fn small_positions_are_proven_and_reported_as_mate() {
    let mut e = engine();
    // Black jumps c5e5 and White, left alone, has no move: mate in 1.
    e.send("position fen 8/8/8/2bw4/8/8/8/8 b");
    e.send("go movetime 500");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" score mate 1 ") && l.ends_with(" pv c5e5")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines), "c5e5");
    // Late positions of random games: whatever is proven, the move is legal.
    let mut rng = Rng::new(77);
    for _ in 0..6 {
        let mut position = Position::start(Rules::default()).unwrap();
        let mut moves = Vec::new();
        while position.count_moves() > 0 && moves.len() < 34 {
            let legal = position.legal_moves();
            let mv = legal[rng.below(legal.len())];
            position.play_unchecked(mv);
            moves.push(mv.to_string());
        }
        if position.is_game_over() {
            continue;
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go movetime 200");
        let lines = e.until(|l| l.starts_with("bestmove"));
        let text = bestmove(&lines).split(' ').next().unwrap();
        let mv: Move = text.parse().unwrap();
        assert!(position.play(mv).is_ok(), "{lines:?}");
    }
    // Fixed depth is left to the search alone.
    e.send("position fen 8/8/8/2bw4/8/8/8/8 b");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains(" seldepth ")), "{lines:?}");
}

/// The winning moves of a position, by the solver.
fn winning_moves(position: &Position) -> Vec<String> {
    let table = konane::solve::ProofTable::new(16).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let solution = konane::solve::Solver::new(&table, &stop).solve(position, true);
    solution
        .winning_moves()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// 24 stones on 6x6 after these moves, Black to move and win: the solver proves it in about
/// 500 nodes.
const QUICK_WIN_6X6: &str = "f1 f2 d1f1 d2f2 e4e2 b2d2 b1d1 c3e3 c4e4 d6d4 e2c2 b6d6";

/// The 6x6 position after `moves` from the start.
fn six_by_six(moves: &str) -> Position {
    let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
    let mut position = Position::start(rules).unwrap();
    for mv in moves.split(' ') {
        position.play(mv.parse().unwrap()).unwrap();
    }
    position
}

#[test]
fn a_30_ms_move_proves_a_quick_win_and_plays_it() {
    let opening = QUICK_WIN_6X6;
    let position = six_by_six(opening);
    let winning = winning_moves(&position);
    assert!(!winning.is_empty());
    let mut e = engine();
    e.send("setoption name Width value 6");
    e.send("setoption name Height value 6");
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send(&format!("position startpos moves {opening}"));
    e.send("go movetime 30");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains(" score mate ")),
        "{lines:?}"
    );
    assert!(
        winning.contains(&bestmove(&lines).to_string()),
        "{lines:?} not in {winning:?}"
    );
    // The proof names the reply to expect, in the mate line and as the move to ponder on.
    assert_move_and_ponder_legal(&position, &lines);
    let reply = ponder_move(&lines).unwrap();
    let mate = lines.iter().find(|l| l.contains(" score mate ")).unwrap();
    assert!(
        mate.ends_with(&format!(" pv {} {reply}", bestmove(&lines))),
        "{lines:?}"
    );
}

#[test]
fn a_pondering_engine_proves_on_the_opponents_time_and_plays_the_proof_at_ponderhit() {
    let opening = QUICK_WIN_6X6;
    let position = six_by_six(opening);
    let winning = winning_moves(&position);
    let mut e = engine();
    e.send("setoption name Width value 6");
    e.send("setoption name Height value 6");
    e.send("setoption name Ponder value true");
    for end in ["ponderhit", "stop"] {
        e.send(&format!("position startpos moves {opening}"));
        e.send("go ponder wtime 60000 btime 60000");
        // The proof's line (the search's lines name a seldepth) comes while pondering, and
        // bestmove waits for the end of the ponder.
        let lines = e.until(|l| l.contains(" score mate "));
        assert!(!lines.last().unwrap().contains(" seldepth "), "{lines:?}");
        assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
        e.send(end);
        let lines = e.until(|l| l.starts_with("bestmove"));
        assert!(winning.contains(&bestmove(&lines).to_string()), "{lines:?}");
        assert_move_and_ponder_legal(&position, &lines);
        assert!(e.sync().is_empty(), "one bestmove only");
    }
    // 27 stones, a proof of some 250,000 nodes: `ponderhit` at once stops the proof on the
    // opponent's time and it goes on under our clock; the move comes, and it is legal.
    let critical = "d3 c3 d1d3 d4d2 f1d1 e3e1 d1d3 f4d4 b1d1";
    let mut position = six_by_six(critical);
    e.send(&format!("position startpos moves {critical}"));
    e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
    e.send("ponderhit");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let mv: Move = bestmove(&lines).split(' ').next().unwrap().parse().unwrap();
    assert!(position.play(mv).is_ok(), "{lines:?}");
    assert!(e.sync().is_empty());
}

#[test]
fn multipv_works_at_every_skill_level() {
    let mut e = engine();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name MultiPV value 3");
    for level in [0, 10, 19] {
        e.send(&format!("setoption name Skill value {level}"));
        e.send("position startpos moves d5 e5");
        e.send("go depth 2");
        let lines = e.until(|l| l.starts_with("bestmove"));
        // Skill 0 searches one ply, the others the two asked for.
        let depth = if level == 0 { 1 } else { 2 };
        let last: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("info depth {depth} ")))
            .collect();
        assert_eq!(last.len(), 3, "Skill {level}: {lines:?}");
        for (rank, line) in last.iter().enumerate() {
            assert!(line.contains(&format!(" multipv {} ", rank + 1)), "{line}");
        }
    }
}

#[test]
fn multipv_reports_ranked_lines_and_searchmoves_keeps_to_its_moves() {
    let mut e = engine();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves d5 e5");
    e.send("go depth 4");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let last_iteration: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(last_iteration.len(), 3, "{lines:?}");
    let mut firsts = Vec::new();
    for (rank, line) in last_iteration.iter().enumerate() {
        assert!(line.contains(&format!(" multipv {} ", rank + 1)), "{line}");
        firsts.push(
            line.split(" pv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap(),
        );
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(
        firsts.len(),
        3,
        "three different first moves: {last_iteration:?}"
    );
    let best = bestmove(&lines).split(' ').next().unwrap();
    assert!(
        last_iteration[0].contains(&format!(" pv {best}")),
        "{lines:?}"
    );
    // searchmoves: only the moves given, illegal ones named and left out.
    e.send("setoption name MultiPV value 1");
    e.send("position startpos moves d5 e5");
    e.send("go depth 3 searchmoves d7d5 a1a3");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l == "info string searchmoves: not legal here, left out: a1a3"),
        "{lines:?}"
    );
    assert!(bestmove(&lines).starts_with("d7d5"), "{lines:?}");
    e.send("go searchmoves");
    assert!(
        e.next_line()
            .contains("searchmoves needs at least one move")
    );
}
