//! `konane-arbiter gui` through its HTTP endpoints: games refereed by the server, refusals
//! that change nothing, engine faults reported, the engines stopped when the page closes,
//! and no process left behind.

mod common;

use common::arbiter::{assert_none_left, engine_spec, eventually, fixture, survivors};
use common::gui::{Server, new_game};
use serde_json::Value;
use std::io::Read;
use std::time::Duration;

/// Plays the person's moves (the first legal move each time) until the game ends; the state
/// at the end.
fn play_out(server: &Server) -> Value {
    for _ in 0..200 {
        let state = server.state();
        if !state["result"].is_null() {
            return state;
        }
        match state["legal"].as_array().and_then(|moves| moves.first()) {
            Some(mv) => {
                let text = mv["text"].as_str().unwrap();
                let answer = server.post("/api/move", &format!(r#"{{"move":"{text}"}}"#));
                assert_eq!(answer.status, 200, "{text}: {}", answer.body);
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    panic!("the game did not end: {}", server.state());
}

#[test]
fn a_game_is_played_through_the_endpoints_and_exported() {
    let tag = "gui-game-tag";
    let mut server = Server::start(&[fixture("min-replies", tag)]);
    let answer = server.post(
        "/api/new",
        &new_game(6, "human", "min-replies", r#"{"kind":"movetime","ms":200}"#),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["rules"]["width"], 6);
    assert_eq!(answer.body["players"][1]["name"], "min-replies");
    assert!(answer.body["shown"]["removal_phase"].as_bool().unwrap());
    let end = play_out(&server);
    let moves = end["moves"].as_array().unwrap().len();
    assert!(moves >= 4, "{end}");
    assert_eq!(end["result"]["termination"], "normal", "{end}");
    assert!(
        end["result"]["text"]
            .as_str()
            .unwrap()
            .contains("has no move"),
        "{end}"
    );
    // The finished game's engine has quit.
    assert_none_left(tag);
    // Any earlier position can be looked at, without changing the game.
    let back = server.get("/api/position?ply=1");
    assert_eq!(back["ply"], 1);
    let holes: usize = back["shown"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rank| rank.as_str().unwrap().matches('.').count())
        .sum();
    assert_eq!(holes, 1, "one stone removed after one ply: {back}");
    assert_eq!(server.state()["moves"], end["moves"]);
    let (status, pgn) = server.get_text("/api/pgn");
    assert_eq!(status, 200);
    assert!(pgn.contains("[White \"min-replies\"]"), "{pgn}");
    let result = if end["result"]["winner"] == "white" {
        "1-0"
    } else {
        "0-1"
    };
    assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");
    assert_eq!(server.stop(), Some(0));
    assert_none_left(tag);
}

#[test]
fn illegal_and_malformed_requests_are_refused_and_change_nothing() {
    let server = Server::start(&[engine_spec("engine")]);
    let human = server.post(
        "/api/new",
        &new_game(6, "human", "human", r#"{"kind":"depth","depth":2}"#),
    );
    assert_eq!(human.status, 200);
    let before = server.state();
    let refusals: [(&str, &str, u16, &str); 16] = [
        (
            "/api/move",
            r#"{"move":"a1"}"#,
            422,
            "a1 is not legal here: a1 cannot be removed",
        ),
        ("/api/move", r#"{"move":"f5z"}"#, 422, "'f5z' is not a move"),
        (
            "/api/move",
            r#"{"move":1}"#,
            400,
            "malformed request: invalid type",
        ),
        (
            "/api/move",
            r#"{"move":"c3""#,
            400,
            "malformed request: EOF",
        ),
        ("/api/move", r#"{"mv":"c3"}"#, 400, "unknown field `mv`"),
        (
            "/api/analysis",
            r#"{"engine":"engine","ply":5}"#,
            422,
            "ply 5 is past the last move",
        ),
        (
            "/api/move",
            r#"{"move":"c3","ply":1}"#,
            422,
            "the move was made on the position after 1 plies, and the game has 0",
        ),
        (
            "/api/new",
            r#"{"width":6,"height":6,"opening":"traditional","capture":"straight","black":"human","white":"human","time":{"kind":"depth","depth":2},"stall_s":0}"#,
            422,
            "stall limit: 1 s to a day",
        ),
        (
            "/api/new",
            &new_game(
                6,
                "human",
                "engine",
                r#"{"kind":"clock","base_ms":0,"inc_ms":0}"#,
            ),
            422,
            "a clock's base time must be more than 0 s",
        ),
        (
            "/api/takeback",
            "{}",
            422,
            "you have made no move to take back",
        ),
        ("/api/stop", r#"{"now":true}"#, 400, "unknown field `now`"),
        (
            "/api/analysis",
            r#"{"engine":"rm -rf"}"#,
            422,
            "'rm -rf' is not a configured engine",
        ),
        (
            "/api/new",
            &new_game(27, "human", "engine", r#"{"kind":"depth","depth":2}"#),
            422,
            "board:",
        ),
        (
            "/api/new",
            &new_game(6, "human", "/bin/sh", r#"{"kind":"depth","depth":2}"#),
            422,
            "'/bin/sh' is neither 'human' nor a configured engine (engine)",
        ),
        (
            "/api/new",
            &new_game(6, "human", "engine", r#"{"kind":"depth","depth":0}"#),
            422,
            "depth must be 1 to 120",
        ),
        (
            "/api/new",
            &new_game(6, "human", "engine", r#"{"kind":"hours","n":2}"#),
            400,
            "unknown variant `hours`",
        ),
    ];
    for (path, body, status, error) in refusals {
        let answer = server.post(path, body);
        assert_eq!(answer.status, status, "{path} {body}: {}", answer.body);
        let text = answer.body["error"].as_str().unwrap();
        assert!(text.contains(error), "{path} {body}: {text}");
    }
    let fen = r#"{"width":6,"height":6,"opening":"traditional","capture":"straight","black":"human","white":"human","time":{"kind":"depth","depth":2},"fen":"bwbw/xx b"}"#;
    let answer = server.post("/api/new", fen);
    assert_eq!(answer.status, 422);
    assert!(
        answer.body["error"]
            .as_str()
            .unwrap()
            .starts_with("position string:"),
        "{}",
        answer.body
    );
    let plain = server.post_as("/api/move", r#"{"move":"c3"}"#, "text/plain");
    assert_eq!(plain.status, 415, "{}", plain.body);
    let (status, text) = server.get_text("/api/position?ply=3");
    assert_eq!(status, 422, "{text}");
    assert!(text.contains("ply 3 is past the last move"), "{text}");
    let (status, text) = server.get_text("/api/position?ply=-1");
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("give ?ply=N"), "{text}");
    let (status, icon) = server.get_text("/favicon.ico");
    assert_eq!(status, 200, "the page's icon is served");
    assert!(icon.starts_with("<svg"), "{icon}");
    let (status, text) = server.get_text("/api/nowhere");
    assert_eq!(status, 404, "{text}");
    assert!(text.contains("no such endpoint: /api/nowhere"), "{text}");
    assert_eq!(server.state(), before, "a refused request changed the game");
}

#[test]
fn the_turn_and_the_rules_are_refereed_for_the_person_too() {
    let tag = "gui-turn-tag";
    let server = Server::start(&[fixture("hang", tag)]);
    let answer = server.post(
        "/api/new",
        &new_game(6, "hang", "human", r#"{"kind":"depth","depth":3}"#),
    );
    assert_eq!(answer.status, 200);
    // Black is an engine (one that never answers): the person may not move for it.
    let refused = server.post("/api/move", r#"{"move":"c3"}"#);
    assert_eq!(refused.status, 422);
    let error = refused.body["error"].as_str().unwrap();
    assert!(
        error.contains("it is Black's turn, and hang plays Black"),
        "{error}"
    );
    assert!(eventually(
        Duration::from_secs(10),
        || server.state()["thinking"] == "black"
    ));
    assert_eq!(server.plies(), 0);
    // Ending the game stops the engine's search: it never answers `stop`, so it is killed.
    let stopped = server.post("/api/stop", "{}");
    assert_eq!(stopped.status, 200, "{}", stopped.body);
    assert_eq!(stopped.body["result"]["termination"], "abandoned");
    assert!(stopped.body["thinking"].is_null());
    assert_none_left(tag);
}

#[test]
fn the_editor_is_told_why_a_set_up_cannot_arise() {
    let server = Server::start(&[]);
    let ask = |fen: &str, rules: &str| {
        let fen = fen.replace('/', "%2F").replace(' ', "+");
        server.get_text(&format!("/api/setup?fen={fen}{rules}"))
    };
    // 6x6 after d4... : c4 emptied by Black and c3 by White, Black to move: can arise.
    let (status, fine) = ask("bwbwbw/wbwbwb/bw1wbw/wb1bwb/bwbwbw/wbwbwb b", "");
    assert_eq!((status, fine.as_str()), (200, r#"{"reasons":[]}"#));
    // b3 is no traditional removal; with the opening `any` it is.
    let hole = "bwbwbw/wbwbwb/bwbwbw/w1wbwb/bwbwbw/wbwbwb w";
    let (status, traditional) = ask(hole, "&opening=traditional&capture=single");
    assert_eq!(status, 200);
    assert!(traditional.contains("emptied b3"), "{traditional}");
    assert_eq!(ask(hole, "&opening=any").1, r#"{"reasons":[]}"#);
    // Requests that are wrong are refused naming what is wrong.
    for (fen, rules, named) in [
        ("bwx/wbw b", "", "'x'"),
        (hole, "&opening=centre", "'centre'"),
        (hole, "&capture=diagonal", "'diagonal'"),
    ] {
        let (status, refusal) = ask(fen, rules);
        assert_eq!(status, 400, "{refusal}");
        assert!(refusal.contains(named), "{refusal}");
    }
    let (status, refusal) = server.get_text("/api/setup");
    assert_eq!(status, 400);
    assert!(refusal.contains("fen"), "{refusal}");
}

#[test]
fn an_engine_crash_mid_game_is_reported_as_such() {
    let tag = "gui-crash-tag";
    let server = Server::start(&[fixture("crash-mid-game", tag)]);
    let answer = server.post(
        "/api/new",
        &new_game(
            8,
            "human",
            "crash-mid-game",
            r#"{"kind":"movetime","ms":500}"#,
        ),
    );
    assert_eq!(answer.status, 200);
    let end = play_out(&server);
    assert_eq!(end["result"]["termination"], "crash", "{end}");
    assert_eq!(end["result"]["winner"], "black", "{end}");
    let text = end["result"]["text"].as_str().unwrap();
    assert!(
        text.contains("crash-mid-game, playing white, crashed (it exited (exit code"),
        "{text}"
    );
    assert_none_left(tag);
}

#[test]
fn engines_watch_each_other_with_live_lines_and_clocks() {
    let server = Server::start(&[engine_spec("one"), engine_spec("two")]);
    let _page = server.open_page();
    let answer = server.post(
        "/api/new",
        &new_game(
            6,
            "one",
            "two",
            r#"{"kind":"clock","base_ms":5000,"inc_ms":50}"#,
        ),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    // Black's clock runs from the start (the state shows it already charged).
    assert_eq!(answer.body["clocks"][1], 5000, "{}", answer.body);
    assert!(answer.body["clocks"][0].as_u64().unwrap() <= 5000);
    assert_eq!(answer.body["thinking"], "black");
    let mut seen_live = false;
    assert!(
        eventually(Duration::from_secs(60), || {
            let live = server.get("/api/live");
            seen_live |= live["depth"].as_u64().is_some() && live["pv"].is_string();
            !server.state()["result"].is_null()
        }),
        "the game did not end: {}",
        server.state()
    );
    assert!(seen_live, "no engine line was shown");
    let end = server.state();
    assert_eq!(end["result"]["termination"], "normal", "{end}");
    // Each clock was charged for its engine's thinking: below the base plus its increments.
    let plies = end["moves"].as_array().unwrap().len() as u64;
    let moves_made = [plies.div_ceil(2), plies / 2];
    for (clock, moves) in end["clocks"].as_array().unwrap().iter().zip(moves_made) {
        assert!(clock.as_u64().unwrap() < 5000 + 50 * moves, "{end}");
    }
}

#[test]
fn analysis_follows_the_position_asked_for_until_stopped() {
    let server = Server::start(&[engine_spec("analyst")]);
    let _page = server.open_page();
    server.post(
        "/api/new",
        &new_game(6, "human", "human", r#"{"kind":"depth","depth":2}"#),
    );
    for mv in ["d3", "d4"] {
        let answer = server.post("/api/move", &format!(r#"{{"move":"{mv}"}}"#));
        assert_eq!(answer.status, 200);
    }
    let on = server.post("/api/analysis", r#"{"engine":"analyst"}"#);
    assert_eq!(on.status, 200, "{}", on.body);
    assert_eq!(on.body["analysis"]["engine"], "analyst");
    assert!(on.body["analysis"]["ply"].is_null(), "it follows the game");
    let analysing = |first_move: &str| {
        eventually(Duration::from_secs(20), || {
            let live = server.get("/api/live");
            live["who"] == "analysis: analyst"
                && live["depth"].as_u64().unwrap_or(0) >= 3
                && live["pv"]
                    .as_str()
                    .is_some_and(|pv| pv.starts_with(first_move))
        })
    };
    // Black to move after d3 d4: Black can only jump onto d3, its own colour's hole.
    assert!(analysing(""), "{}", server.get("/api/live"));
    let pv = server.get("/api/live")["pv"].as_str().unwrap().to_string();
    assert!(pv.split(' ').next().unwrap().ends_with("d3"), "{pv}");
    // A page stepping back to the first removal asks for that position.
    let back = server.post("/api/analysis", r#"{"engine":"analyst","ply":1}"#);
    assert_eq!(back.status, 200, "{}", back.body);
    assert!(
        eventually(Duration::from_secs(20), || {
            let live = server.get("/api/live");
            live["ended"].is_null()
                && live["pv"].as_str().is_some_and(|pv| {
                    let first = pv.split(' ').next().unwrap_or("");
                    first.len() == 2 && first != "d3"
                })
        }),
        "the analysis did not follow: {}",
        server.get("/api/live")
    );
    let off = server.post("/api/analysis", r#"{"engine":null}"#);
    assert_eq!(off.status, 200);
    assert!(off.body["analysis"].is_null());
    // The stopped search's figures stay, marked as ended.
    assert!(
        eventually(Duration::from_secs(10), || server.get("/api/live")["ended"]
            == "stopped"),
        "{}",
        server.get("/api/live")
    );
}

#[test]
fn analysis_waits_while_an_engine_thinks_and_resumes_on_the_persons_turn() {
    let server = Server::start(&[engine_spec("engine")]);
    let _page = server.open_page();
    let answer = server.post(
        "/api/new",
        &new_game(6, "human", "engine", r#"{"kind":"movetime","ms":300}"#),
    );
    assert_eq!(answer.status, 200);
    let on = server.post("/api/analysis", r#"{"engine":"engine"}"#);
    assert_eq!(on.status, 200, "{}", on.body);
    assert!(on.body["analysis"]["waits"].is_null(), "{}", on.body);
    server.post("/api/move", r#"{"move":"a6","ply":0}"#);
    // The engine thinks on the game: the analysis waits, and says why.
    let waiting = server.state();
    assert_eq!(
        waiting["analysis"]["waits"], "engine is thinking on the game",
        "{waiting}"
    );
    // Once the engine has moved, the person's turn is analysed again.
    assert!(
        eventually(Duration::from_secs(20), || {
            let state = server.state();
            let live = server.get("/api/live");
            state["moves"].as_array().unwrap().len() == 2
                && state["analysis"]["waits"].is_null()
                && live["who"] == "analysis: engine"
                && live["depth"].as_u64().is_some()
        }),
        "{} {}",
        server.state(),
        server.get("/api/live")
    );
}

#[test]
fn a_failed_analysis_is_told_until_the_game_moves_on() {
    let tag = "gui-notice-tag";
    let server = Server::start(&[fixture("crash-mid-game", tag)]);
    let _page = server.open_page();
    server.post(
        "/api/new",
        &new_game(6, "human", "human", r#"{"kind":"depth","depth":2}"#),
    );
    server.post("/api/analysis", r#"{"engine":"crash-mid-game"}"#);
    // The fixture exits on its third search: the analysis of the third position.
    let mut plies = 0;
    let notice = loop {
        let state = server.state();
        if let Some(notice) = state["notice"].as_str() {
            break notice.to_string();
        }
        assert!(plies < 6, "no notice: {state}");
        let text = state["legal"][0]["text"].as_str().unwrap().to_string();
        server.post("/api/move", &format!(r#"{{"move":"{text}"}}"#));
        plies += 1;
        std::thread::sleep(Duration::from_millis(300));
    };
    assert!(
        notice.starts_with("Analysis by crash-mid-game failed: it exited"),
        "{notice}"
    );
    let state = server.state();
    assert!(state["analysis"].is_null(), "{state}");
    let text = state["legal"][0]["text"].as_str().unwrap().to_string();
    let moved = server.post("/api/move", &format!(r#"{{"move":"{text}"}}"#));
    assert!(moved.body["notice"].is_null(), "{}", moved.body);
    assert_none_left(tag);
}

#[test]
fn closing_the_page_stops_the_searches_and_reopening_resumes() {
    let tag = "gui-close-tag";
    let server = Server::start(&[fixture("hang", tag)]);
    let mut page = server.open_page();
    let mut first = [0u8; 16];
    page.read_exact(&mut first).unwrap();
    server.post(
        "/api/new",
        &new_game(6, "hang", "hang", r#"{"kind":"depth","depth":3}"#),
    );
    assert!(eventually(
        Duration::from_secs(10),
        || server.state()["thinking"] == "black"
    ));
    drop(page);
    assert!(
        eventually(Duration::from_secs(15), || server.state()["paused"] == true),
        "{}",
        server.state()
    );
    assert!(server.state()["thinking"].is_null());
    // `hang` ignores `stop`, so its process was killed; a new one starts when a page opens.
    assert!(eventually(Duration::from_secs(10), || survivors(tag).is_empty()));
    let _again = server.open_page();
    assert!(
        eventually(Duration::from_secs(10), || server.state()["thinking"]
            == "black"),
        "{}",
        server.state()
    );
    // Its process starts just after the state says it thinks.
    assert!(
        eventually(Duration::from_secs(10), || survivors(tag).len() == 1),
        "Black's engine runs again: {:?}",
        survivors(tag)
    );
}

#[test]
fn stopping_the_server_leaves_no_engine_behind() {
    let tag = "gui-stop-tag";
    let mut server = Server::start(&[fixture("busy", tag), fixture("hang", tag)]);
    let _page = server.open_page();
    server.post(
        "/api/new",
        &new_game(6, "busy", "hang", r#"{"kind":"depth","depth":3}"#),
    );
    assert!(eventually(Duration::from_secs(10), || !survivors(tag).is_empty()));
    assert_eq!(server.stop(), Some(0));
    assert_none_left(tag);
}

#[test]
fn a_port_in_use_is_a_clear_error_at_start() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args(["gui", "--port", &port, "--engine"])
        .arg(format!("cmd={}", env!("CARGO_BIN_EXE_konane-engine")))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "cannot listen on 127.0.0.1:{port}: Address already in use"
        )),
        "{stderr}"
    );
    let engine = std::process::Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args(["gui", "--port", "0", "--engine", "cmd=x", "name=human"])
        .output()
        .unwrap();
    assert_eq!(engine.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&engine.stderr);
    assert!(
        stderr.contains("the name 'human' is kept for the person"),
        "{stderr}"
    );
}

#[test]
fn under_turning_two_paths_to_one_square_are_told_apart() {
    let server = Server::start(&[engine_spec("engine")]);
    let body = r#"{"width":4,"height":4,"opening":"traditional","capture":"turning","black":"human","white":"human","time":{"kind":"depth","depth":2},"fen":"4/1w2/w1w1/bw2 b"}"#;
    let answer = server.post("/api/new", body);
    assert_eq!(answer.status, 200, "{}", answer.body);
    let legal = answer.body["legal"].as_array().unwrap();
    let mut to_c3: Vec<(String, Vec<String>)> = legal
        .iter()
        .filter(|mv| mv["from"] == "a1" && mv["to"] == "c3")
        .map(|mv| {
            let path = mv["path"].as_array().unwrap().iter();
            (
                mv["text"].as_str().unwrap().to_string(),
                path.map(|s| s.as_str().unwrap().to_string()).collect(),
            )
        })
        .collect();
    to_c3.sort();
    assert_eq!(
        to_c3,
        [
            (
                "a1a3c3".to_string(),
                vec!["a3".to_string(), "c3".to_string()]
            ),
            (
                "a1c1c3".to_string(),
                vec!["c1".to_string(), "c3".to_string()]
            ),
        ]
    );
    let played = server.post("/api/move", r#"{"move":"a1a3c3"}"#);
    assert_eq!(played.status, 200, "{}", played.body);
    assert_eq!(
        played.body["shown"]["last"],
        serde_json::json!(["a1", "a2", "a3", "b3", "c3"])
    );
}

#[test]
fn a_page_that_names_the_server_otherwise_is_refused() {
    use std::io::Write;
    let server = Server::start(&[engine_spec("engine")]);
    let address = server.url.trim_start_matches("http://").to_string();
    let ask = |host: &str| {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "GET /api/state HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    // A page of evil.example whose name was made to point here (DNS rebinding).
    let refused = ask("evil.example:8080");
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(
        refused.contains("Host 'evil.example:8080' is refused"),
        "{refused}"
    );
    let port = address.rsplit(':').next().unwrap();
    assert!(ask(&format!("localhost:{port}")).starts_with("HTTP/1.1 200"));
    assert!(ask(&address).starts_with("HTTP/1.1 200"));
}

#[test]
fn a_start_whose_side_to_move_has_no_move_is_over_at_once() {
    let tag = "gui-no-move-tag";
    let server = Server::start(&[fixture("first", tag)]);
    // Black to move, and no black stone can jump; Black is the engine, White the person.
    for (black, white) in [("first", "human"), ("human", "first")] {
        let body = format!(
            r#"{{"width":4,"height":4,"opening":"traditional","capture":"straight","black":"{black}","white":"{white}","time":{{"kind":"movetime","ms":100}},"fen":"b3/4/4/3w b"}}"#
        );
        let answer = server.post("/api/new", &body);
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_eq!(answer.body["result"]["winner"], "white", "{}", answer.body);
        assert_eq!(answer.body["result"]["termination"], "normal");
        assert!(answer.body["thinking"].is_null(), "no engine is asked");
        assert_eq!(
            answer.body["setup"]["width"], 4,
            "the form shows the board played"
        );
        assert_eq!(answer.body["setup"]["fen"], "b3/4/4/3w b");
    }
    assert_none_left(tag);
}

#[test]
fn the_persons_clock_runs_and_loses_on_time() {
    let server = Server::start(&[engine_spec("engine")]);
    let _page = server.open_page();
    let answer = server.post(
        "/api/new",
        &new_game(
            6,
            "human",
            "engine",
            r#"{"kind":"clock","base_ms":30000,"inc_ms":2000}"#,
        ),
    );
    assert_eq!(answer.body["clock_running"], "black", "{}", answer.body);
    std::thread::sleep(Duration::from_millis(300));
    let moved = server.post("/api/move", r#"{"move":"a6","ply":0}"#);
    let left = moved.body["clocks"][0].as_u64().unwrap();
    // Charged the time taken, given the increment.
    assert!(
        (31_000..=31_800).contains(&left),
        "black has {left} ms: {}",
        moved.body
    );
    // A clock that runs out ends the game, with no move made.
    let short = server.post(
        "/api/new",
        &new_game(
            6,
            "human",
            "engine",
            r#"{"kind":"clock","base_ms":700,"inc_ms":0}"#,
        ),
    );
    assert_eq!(short.status, 200);
    assert!(
        eventually(Duration::from_secs(10), || !server.state()["result"]
            .is_null()),
        "{}",
        server.state()
    );
    let end = server.state();
    assert_eq!(end["result"]["termination"], "time forfeit", "{end}");
    assert_eq!(end["result"]["winner"], "white", "{end}");
    assert_eq!(
        end["result"]["text"],
        "White wins: Human, playing black, lost on time."
    );
    assert_eq!(end["clocks"][0], 0, "{end}");
    let late = server.post("/api/move", r#"{"move":"a6"}"#);
    assert_eq!(late.status, 422);
}

#[test]
fn a_depth_search_that_keeps_reporting_is_not_stalled_but_a_silent_one_is() {
    let tag = "gui-stall-tag";
    let server = Server::start(&[fixture("chatty", tag), fixture("late", tag)]);
    let _page = server.open_page();
    // Each engine takes 2.5 to 3 s a move; the stall limit is 1 s without output.
    let depth = |black: &str| {
        format!(
            r#"{{"width":6,"height":6,"opening":"traditional","capture":"straight","black":"{black}","white":"human","time":{{"kind":"depth","depth":30}},"stall_s":1}}"#
        )
    };
    let chatty = server.post("/api/new", &depth("chatty"));
    assert_eq!(chatty.status, 200, "{}", chatty.body);
    assert_eq!(
        chatty.body["time"],
        "depth 30; stalled after 1 s without output"
    );
    assert!(
        eventually(Duration::from_secs(15), || server.plies() == 1),
        "{}",
        server.state()
    );
    assert!(server.state()["result"].is_null(), "{}", server.state());
    server.post("/api/new", &depth("late"));
    assert!(
        eventually(Duration::from_secs(15), || !server.state()["result"]
            .is_null()),
        "{}",
        server.state()
    );
    let end = server.state();
    assert_eq!(end["result"]["termination"], "stall", "{end}");
    assert_eq!(
        end["result"]["text"],
        "White wins: late, playing black, stalled (no output for 1 s on a depth-limited move)."
    );
    assert_none_left(tag);
}

#[test]
fn takeback_and_resign_against_an_engine() {
    let server = Server::start(&[engine_spec("engine")]);
    let _page = server.open_page();
    server.post(
        "/api/new",
        &new_game(6, "human", "engine", r#"{"kind":"movetime","ms":100}"#),
    );
    server.post("/api/move", r#"{"move":"a6","ply":0}"#);
    assert!(eventually(Duration::from_secs(10), || server.plies() == 2));
    // The engine's reply and the person's move go: the person is to move at the start.
    let back = server.post("/api/takeback", "{}");
    assert_eq!(back.status, 200, "{}", back.body);
    assert_eq!(back.body["moves"], serde_json::json!([]));
    assert_eq!(back.body["to_move"], "black");
    server.post("/api/move", r#"{"move":"f1","ply":0}"#);
    assert!(eventually(Duration::from_secs(10), || server.plies() == 2));
    let resigned = server.post("/api/resign", "{}");
    assert_eq!(resigned.status, 200, "{}", resigned.body);
    assert_eq!(
        resigned.body["result"]["text"],
        "White wins: Black resigned."
    );
    assert_eq!(resigned.body["result"]["termination"], "resign");
    let again = server.post("/api/resign", "{}");
    assert_eq!(again.status, 422);
    let (_, pgn) = server.get_text("/api/pgn");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
}

#[test]
fn engines_are_checked_at_start() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_konane-arbiter"))
        .args([
            "gui",
            "--port",
            "0",
            "--engine",
            "cmd=/no/such/engine",
            "name=ghost",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("engine 'ghost' (/no/such/engine) could not start"),
        "{stderr}"
    );
    let tag = "gui-start-tag";
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_konane-arbiter"));
    command.args(["gui", "--port", "0", "--engine"]);
    command.args(fixture("crash-at-start", tag).split(' '));
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("engine 'crash-at-start'") && stderr.contains("failed its uci handshake"),
        "{stderr}"
    );
    assert_none_left(tag);
}

#[test]
fn variations_grow_beside_the_game_and_are_exported() {
    let server = Server::start(&[engine_spec("engine")]);
    let _page = server.open_page();
    server.post(
        "/api/new",
        &new_game(6, "human", "human", r#"{"kind":"depth","depth":2}"#),
    );
    for (ply, mv) in ["d3", "d4", "b3d3", "b4d4"].iter().enumerate() {
        let answer = server.post("/api/move", &format!(r#"{{"move":"{mv}","ply":{ply}}}"#));
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    // Another move from the position after 2 plies, and a reply to it: the game stays.
    let side = server.post("/api/move", r#"{"move":"f3d3","node":"m2"}"#);
    assert_eq!(side.status, 200, "{}", side.body);
    let reply = server.post("/api/move", r#"{"move":"f4d4","node":"v1"}"#);
    assert_eq!(reply.status, 200, "{}", reply.body);
    // The game's own move from a game position is the game's next position, not a variation.
    let same = server.post("/api/move", r#"{"move":"b3d3","node":"m2"}"#);
    assert_eq!(same.status, 200);
    let state = server.state();
    assert_eq!(
        state["moves"],
        serde_json::json!(["d3", "d4", "b3d3", "b4d4"])
    );
    assert_eq!(
        state["variations"],
        serde_json::json!([
            {"id": "v1", "parent": "m2", "move": "f3d3", "ply": 3},
            {"id": "v2", "parent": "v1", "move": "f4d4", "ply": 4},
        ])
    );
    let at = server.get("/api/position?node=v2");
    assert_eq!(at["ply"], 4);
    assert!(!at["legal"].as_array().unwrap().is_empty(), "{at}");
    let refused = server.post("/api/move", r#"{"move":"a1","node":"v2"}"#);
    assert_eq!(refused.status, 422);
    assert!(
        refused.body["error"]
            .as_str()
            .unwrap()
            .contains("a1 is not legal here")
    );
    let unknown = server.post("/api/move", r#"{"move":"d3","node":"v9"}"#);
    assert_eq!(unknown.status, 422);
    assert!(
        unknown.body["error"]
            .as_str()
            .unwrap()
            .contains("v9 is not a position")
    );
    let (_, pgn) = server.get_text("/api/pgn");
    assert!(
        pgn.contains("1. d3 d4 2. b3d3 (2. f3d3 f4d4) 2... b4d4 *"),
        "{pgn}"
    );
    // The analysis can follow a variation.
    let on = server.post("/api/analysis", r#"{"engine":"engine","node":"v2"}"#);
    assert_eq!(on.status, 200, "{}", on.body);
    assert_eq!(on.body["analysis"]["node"], "v2");
    // Deleting the variation takes its continuation with it.
    let deleted = server.post("/api/variation/delete", r#"{"node":"v1"}"#);
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert_eq!(deleted.body["variations"], serde_json::json!([]));
    assert!(deleted.body["analysis"]["node"].is_null() || deleted.body["analysis"]["node"] == "v2");
    let again = server.post("/api/variation/delete", r#"{"node":"v1"}"#);
    assert_eq!(again.status, 422);
}

#[test]
fn a_game_is_imported_from_pgn_or_a_move_list() {
    let server = Server::start(&[engine_spec("engine")]);
    let import = |text: &str| {
        let body = serde_json::json!({
            "text": text, "width": 8, "height": 8, "opening": "traditional", "capture": "straight"
        });
        server.post("/api/import", &body.to_string())
    };
    let pgn = "[Board \"6x6\"]\n[Result \"*\"]\n\n1. d3 d4 {a comment} 2. b3d3 (2. f3d3 (2. d1d3) b4d4) b4d4 *";
    let read = import(pgn);
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(read.body["rules"]["width"], 6);
    assert_eq!(
        read.body["moves"],
        serde_json::json!(["d3", "d4", "b3d3", "b4d4"])
    );
    assert_eq!(read.body["players"][0]["name"], "Human");
    // The variations come along, nested as written, and so do the players' names.
    let branches: Vec<(String, String)> = read.body["variations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["move"].as_str().unwrap().to_string(),
                b["parent"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let moves: Vec<&str> = branches.iter().map(|(mv, _)| mv.as_str()).collect();
    assert_eq!(moves, ["f3d3", "b4d4", "d1d3"], "{}", read.body);
    assert_eq!(branches[1].1, "v1", "b4d4 follows f3d3: {branches:?}");
    let named = import("[Black \"Ann\"]\n[White \"Bob\"]\n\n1. d5 e5 *");
    assert_eq!(named.body["players"][0]["name"], "Ann");
    assert_eq!(named.body["players"][1]["name"], "Bob");
    let (_, exported) = server.get_text("/api/pgn");
    assert!(exported.contains("[Black \"Ann\"]"), "{exported}");
    let own = import(&exported);
    assert_eq!(
        own.body["players"][1]["name"], "Bob",
        "the page's own PGN reads back"
    );
    // A bare move list takes the board of the request.
    let listed = import("d5 e5");
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(listed.body["rules"]["width"], 8);
    let bad = import("d5 e5 a1");
    assert_eq!(bad.status, 422);
    let error = bad.body["error"].as_str().unwrap();
    assert!(
        error.starts_with("import: ply 3 (a1) is not legal"),
        "{error}"
    );
    let garbled = import("[Board \"9\"]\n d5");
    assert!(
        garbled.body["error"]
            .as_str()
            .unwrap()
            .contains("Board tag is WIDTHxHEIGHT")
    );
    assert_eq!(
        server.state()["moves"],
        serde_json::json!(["d5", "e5"]),
        "a refusal changes nothing"
    );
}

#[test]
fn each_sides_engine_options_are_checked_and_set() {
    let dir = common::scratch::Scratch::new("gui-options");
    let log = dir.join("engines.log");
    let server = Server::start_with(
        &[engine_spec("engine")],
        &["--port", "0", "--log", log.to_str().unwrap()],
    );
    let state = server.state();
    let skill = state["engines"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "Skill")
        .cloned()
        .expect("the engine's options are in the state");
    assert_eq!(
        (skill["min"].as_i64(), skill["max"].as_i64()),
        (Some(0), Some(20))
    );
    let game = |options: &str| {
        format!(
            r#"{{"width":6,"height":6,"opening":"traditional","capture":"straight","black":"engine","white":"human","time":{{"kind":"movetime","ms":50}},"options":{options}}}"#
        )
    };
    for (options, error) in [
        (
            r#"[{"Skil":"5"},{}]"#,
            "black: option 'Skil' is not one of the engine's options",
        ),
        (
            r#"[{"Skill":"50"},{}]"#,
            "black: option Skill=50: the engine accepts a whole number from 0 to 20",
        ),
        (
            r#"[{},{"Skill":"5"}]"#,
            "white: options are for engines, and a person plays white",
        ),
    ] {
        let refused = server.post("/api/new", &game(options));
        assert_eq!(refused.status, 422, "{options}: {}", refused.body);
        let text = refused.body["error"].as_str().unwrap();
        assert!(text.contains(error), "{text}");
    }
    let _page = server.open_page();
    let started = server.post("/api/new", &game(r#"[{"Skill":"7"},{}]"#));
    assert_eq!(started.status, 200, "{}", started.body);
    assert_eq!(started.body["setup"]["options"][0]["Skill"], "7");
    assert!(
        eventually(Duration::from_secs(10), || {
            std::fs::read_to_string(&log)
                .unwrap_or_default()
                .contains("< setoption name Skill value 7")
        }),
        "the engine was not told its skill"
    );
}

#[test]
fn analysis_shows_several_lines_when_the_engine_has_multipv() {
    let tag = "gui-lines-tag";
    let server = Server::start(&[engine_spec("engine"), fixture("first", tag)]);
    let _page = server.open_page();
    server.post(
        "/api/new",
        &new_game(6, "human", "human", r#"{"kind":"depth","depth":2}"#),
    );
    for mv in ["d3", "d4"] {
        server.post("/api/move", &format!(r#"{{"move":"{mv}"}}"#));
    }
    let refused = server.post("/api/analysis", r#"{"engine":"first","lines":3}"#);
    assert_eq!(refused.status, 422);
    assert!(
        refused.body["error"]
            .as_str()
            .unwrap()
            .contains("first announces no MultiPV option"),
        "{}",
        refused.body
    );
    let too_many = server.post("/api/analysis", r#"{"engine":"engine","lines":9}"#);
    assert!(
        too_many.body["error"]
            .as_str()
            .unwrap()
            .contains("lines must be 1 to 5")
    );
    let on = server.post("/api/analysis", r#"{"engine":"engine","lines":3}"#);
    assert_eq!(on.status, 200, "{}", on.body);
    assert_eq!(on.body["analysis"]["lines"], 3);
    assert!(
        eventually(Duration::from_secs(20), || {
            let live = server.get("/api/live");
            live["node"] == "m2" && live["lines"].as_array().is_some_and(|l| l.len() == 3)
        }),
        "{}",
        server.get("/api/live")
    );
    // The graph of the game keeps the score of the analysed game position, for Black.
    let scored = |state: &Value| {
        let chances = state["chances"].as_array().unwrap().clone();
        chances
            .iter()
            .find(|c| c[0] == 2)
            .and_then(|c| c[1].as_f64())
    };
    assert!(
        eventually(Duration::from_secs(10), || scored(&server.state())
            .is_some()),
        "{}",
        server.state()
    );
    let chance = scored(&server.state()).unwrap();
    assert!((0.0..=1.0).contains(&chance), "{chance}");
    server.post("/api/analysis", r#"{"engine":null}"#);
}

#[test]
fn exact_values_prove_every_move_of_a_small_position() {
    let server = Server::start(&[engine_spec("engine")]);
    let body = r#"{"width":4,"height":4,"opening":"traditional","capture":"turning","black":"human","white":"human","time":{"kind":"depth","depth":2},"fen":"4/1w2/w1w1/bw2 b"}"#;
    server.post("/api/new", body);
    let values = server.get("/api/exact?node=m0");
    assert_eq!(values["node"], "m0");
    let moves = values["moves"].as_array().unwrap();
    assert_eq!(
        moves.len(),
        server.state()["legal"].as_array().unwrap().len()
    );
    for value in moves {
        assert!(
            ["win", "loss"].contains(&value["result"].as_str().unwrap()),
            "{values}"
        );
        assert!(value["plies"].as_u64().unwrap() >= 1, "{values}");
    }
    let wins = moves.iter().any(|m| m["result"] == "win");
    assert_eq!(values["wins"], wins, "{values}");
    // A full board is not tried, and says why.
    server.post(
        "/api/new",
        &new_game(8, "human", "human", r#"{"kind":"depth","depth":2}"#),
    );
    let big = server.get("/api/exact?ply=0");
    assert!(
        big["why_not"].as_str().unwrap().contains("64 stones"),
        "{big}"
    );
    let (status, text) = server.get_text("/api/exact?node=v4");
    assert_eq!(status, 422, "{text}");
}

#[test]
fn a_match_alternates_colours_and_keeps_the_score() {
    let tag = "gui-match-tag";
    let server = Server::start(&[engine_spec("engine"), fixture("first", tag)]);
    let _page = server.open_page();
    // Three games are asked for: the arbiter plays whole colour-swapped pairs, so four.
    let body = r#"{"width":6,"height":6,"opening":"traditional","capture":"straight","black":"engine","white":"first","time":{"kind":"movetime","ms":30},"games":3}"#;
    let started = server.post("/api/new", body);
    assert_eq!(started.status, 200, "{}", started.body);
    assert_eq!(started.body["series"]["games"], 4);
    let pause = server.post("/api/pause", "{}");
    assert!(
        pause.body["error"]
            .as_str()
            .is_some_and(|e| e.contains("stop the match")),
        "a match's games are not paused: {}",
        pause.body
    );
    let mut blacks = Vec::new();
    assert!(
        eventually(Duration::from_secs(90), || {
            let state = server.state();
            let black = state["setup"]["black"].as_str().unwrap().to_string();
            if blacks.last() != Some(&black) {
                blacks.push(black);
            }
            state["series"]["played"] == 4
        }),
        "{}",
        server.state()
    );
    let end = server.state();
    let score = end["series"]["score"].as_array().unwrap();
    assert_eq!(
        score[0].as_u64().unwrap() + score[1].as_u64().unwrap(),
        4,
        "{end}"
    );
    assert_eq!(
        end["series"]["names"],
        serde_json::json!(["engine", "first"])
    );
    assert_eq!(end["game"], 5, "four games after the first state's: {end}");
    // Elo and LOS from the two colour-swapped pairs, from the first engine's side, as the
    // arbiter's own table computes them.
    let won = score[0].as_u64().unwrap();
    let elo = end["series"]["elo"].as_str().unwrap();
    assert!(elo.starts_with("Elo "), "{end}");
    let los = end["series"]["los"].as_f64().unwrap();
    assert!((0.0..=100.0).contains(&los), "{end}");
    assert_eq!(
        won >= 3,
        los > 50.0,
        "the winner is the likelier stronger: {end}"
    );
    assert_eq!(
        end["setup"]["black"], "first",
        "game 4 has game 2's colours"
    );
    assert!(
        blacks.contains(&"engine".to_string()) && blacks.contains(&"first".to_string()),
        "the colours swapped: {blacks:?}"
    );
    assert!(
        end["series"]["next_in_ms"].is_null(),
        "no game after the last"
    );
    // The engine log holds the lines both ways, numbered, and follows on from a number.
    let log = server.get("/api/log");
    let lines = log["lines"].as_array().unwrap();
    let said = |direction: &str, start: &str| {
        lines
            .iter()
            .any(|l| l["direction"] == direction && l["text"].as_str().unwrap().starts_with(start))
    };
    assert!(said("<", "go ") && said(">", "bestmove "), "{log}");
    let last = lines.last().unwrap()["number"].as_u64().unwrap();
    let later = server.get(&format!("/api/log?after={}", last - 1));
    // Lines may have come since (the engines are told to quit as the match ends): the answer
    // starts at the line after the one asked from.
    assert_eq!(later["lines"][0]["number"], last, "{later}");
    assert_eq!(later["restarted"], false);
    // A count from an earlier server's log (past this one's) is told so and starts over.
    let earlier = server.get(&format!("/api/log?after={}", last + 1_000_000));
    assert_eq!(earlier["restarted"], true, "{earlier}");
    assert_eq!(
        earlier["lines"][0]["number"], lines[0]["number"],
        "{earlier}"
    );
    let (status, bad) = server.get_text("/api/log?after=x");
    assert_eq!(status, 400, "{bad}");
    // The table of the match's games: each with its engines, winner and length.
    let (status, table) = server.get_text("/api/match");
    assert_eq!(status, 200);
    let table: serde_json::Value = serde_json::from_str(&table).unwrap();
    let games = table["games"].as_array().unwrap();
    let rounds: Vec<u64> = games.iter().map(|g| g["round"].as_u64().unwrap()).collect();
    assert_eq!(rounds.len(), 4, "{table}");
    assert!((1..=4).all(|r| rounds.contains(&r)), "{table}");
    let engine_wins = games.iter().filter(|g| g["winner"] == "engine").count() as u64;
    assert_eq!(engine_wins, score[0].as_u64().unwrap(), "{table}");
    assert!(
        games.iter().all(|g| g["plies"].as_u64().unwrap() > 0),
        "{table}"
    );
    let (status, pgn) = server.get_text("/api/pgn");
    assert_eq!(status, 200);
    for round in 1..=4 {
        assert!(
            pgn.contains(&format!("[Round \"{round}\"]")),
            "the PGN holds every game of the match: {pgn}"
        );
    }
    let bad = server.post("/api/new", &body.replace("\"games\":3", "\"games\":0"));
    assert!(
        bad.body["error"]
            .as_str()
            .unwrap()
            .contains("a match has 1 to 1000 games")
    );
    let person = server.post(
        "/api/new",
        &body.replace("\"black\":\"engine\"", "\"black\":\"human\""),
    );
    assert!(
        person.body["error"]
            .as_str()
            .unwrap()
            .contains("a match is between two engines, and a person plays black"),
        "{}",
        person.body
    );
}

#[test]
fn a_match_of_one_engine_against_itself_names_each_side_and_stops_at_once() {
    let server = Server::start(&[engine_spec("k")]);
    let _page = server.open_page();
    let body = r#"{"width":6,"height":6,"opening":"traditional","capture":"straight","black":"k","white":"k","time":{"kind":"depth","depth":30},"options":[{"Skill":"3"},{}],"games":2}"#;
    let started = server.post("/api/new", body);
    assert_eq!(started.status, 200, "{}", started.body);
    assert_eq!(
        started.body["series"]["names"],
        serde_json::json!(["k", "k-2"]),
        "two sides of one engine get two names"
    );
    assert!(
        eventually(Duration::from_secs(30), || server.state()["thinking"]
            .is_string()),
        "the match's engine thinks: {}",
        server.state()
    );
    let stopped = server.post("/api/stop", "{}");
    assert_eq!(stopped.status, 200, "{}", stopped.body);
    assert_eq!(stopped.body["result"]["termination"], "abandoned");
    assert!(stopped.body["series"].is_null(), "{}", stopped.body);
}

#[test]
fn pause_resume_and_move_now() {
    let server = Server::start(&[engine_spec("engine")]);
    let _page = server.open_page();
    server.post(
        "/api/new",
        &new_game(8, "engine", "human", r#"{"kind":"movetime","ms":20000}"#),
    );
    assert!(eventually(
        Duration::from_secs(10),
        || server.state()["thinking"] == "black"
    ));
    // Pause stops the search; the engine is asked again on resume.
    let paused = server.post("/api/pause", "{}");
    assert_eq!(paused.status, 200, "{}", paused.body);
    assert_eq!(paused.body["held"], true);
    assert!(paused.body["thinking"].is_null(), "{}", paused.body);
    let refused = server.post("/api/move-now", "{}");
    assert!(
        refused.body["error"]
            .as_str()
            .unwrap()
            .contains("no engine is thinking")
    );
    let resumed = server.post("/api/resume", "{}");
    assert_eq!(resumed.body["held"], false);
    assert!(eventually(
        Duration::from_secs(10),
        || server.state()["thinking"] == "black"
    ));
    // Move now: a 20-second move comes at once.
    std::thread::sleep(Duration::from_millis(300));
    let hurried = server.post("/api/move-now", "{}");
    assert_eq!(hurried.status, 200, "{}", hurried.body);
    assert!(
        eventually(Duration::from_secs(3), || server.plies() == 1),
        "{}",
        server.state()
    );
    assert!(server.state()["result"].is_null(), "{}", server.state());
}

#[test]
fn an_engine_set_to_ponder_thinks_on_the_persons_time() {
    let dir = common::scratch::Scratch::new("gui-ponder");
    let log = dir.join("engines.log");
    let mut server = Server::start_with(
        &[engine_spec("engine")],
        &["--port", "0", "--log", log.to_str().unwrap()],
    );
    let started = server.post(
        "/api/new",
        r#"{"width":6,"height":6,"opening":"traditional","capture":"straight","black":"human","white":"engine","time":{"kind":"movetime","ms":50},"options":[{},{"Ponder":"true"}]}"#,
    );
    assert_eq!(started.status, 200, "{}", started.body);
    let end = play_out(&server);
    assert_eq!(end["result"]["termination"], "normal", "{end}");
    let log = std::fs::read_to_string(&log).unwrap();
    let sent: Vec<&str> = log
        .lines()
        .filter_map(|line| common::arbiter::sent_to(line, "engine"))
        .collect();
    assert!(
        sent.contains(&"setoption name Ponder value true"),
        "{sent:?}"
    );
    assert!(sent.iter().any(|l| l.starts_with("go ponder ")), "{sent:?}");
    // Each ponder search ends with `ponderhit` (the expected reply came) or `stop`.
    for (i, line) in sent.iter().enumerate() {
        if line.starts_with("go ponder ") {
            assert!(
                matches!(sent.get(i + 1), Some(&"ponderhit" | &"stop")),
                "after {line}: {:?}",
                sent.get(i + 1)
            );
        }
    }
    assert_eq!(server.stop(), Some(0));
}
