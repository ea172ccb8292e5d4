//! A protocol front end for a move chooser. A bot author writes one function from a position
//! (and the `go` limits) to a move; [`serve`] speaks protocol.md for it: the handshake with the
//! rule options, positions, `isready` at any moment, `go` in all its forms (after `go infinite`
//! or `go ponder` the move waits for `stop`), `go perft`, queries, `d`, and one error line for
//! each bad input. The bot then runs under `konane-arbiter`, its `check` and its GUI.

use crate::protocol::game::{GameSetup, RULE_OPTIONS};
use crate::protocol::io::{Output, Queued, Reader, read_commands};
use crate::protocol::{Command, Go};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crossbeam_channel::unbounded;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How the bot introduces itself in the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
}

/// What the chooser answers: a move, or why it has none (reported as an error line, and
/// `bestmove 0000` sent, which the arbiter records as the bot's loss).
pub type Choice = Result<Move, String>;

/// Flags the reading thread sets for the thread that chooses moves.
#[derive(Default)]
struct Flags {
    /// `stop` or `ponderhit` came: a held move may go.
    release: AtomicBool,
    /// A `go` was passed on and its `bestmove` is not written yet.
    busy: AtomicBool,
    /// The input ended or `quit` came.
    quit: AtomicBool,
}

/// Speaks the protocol on `input` and `output` until `quit` or the end of the input, asking
/// `choose` for each move. `choose` runs on the calling thread; a reading thread answers
/// `isready` while it thinks.
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: Output,
    identity: &Identity,
    mut choose: impl FnMut(&Position, &Go) -> Choice,
) {
    let flags = Arc::new(Flags::default());
    let (sender, receiver) = unbounded();
    let reader = {
        let (flags, output) = (flags.clone(), output.clone());
        std::thread::spawn(move || {
            read_commands(input, &output, &*flags, &sender);
            flags.quit.store(true, Ordering::SeqCst);
        })
    };
    let mut setup = GameSetup::default();
    while let Ok(received) = receiver.recv() {
        let command = match received {
            Queued::Command(command) => command,
            Queued::Error(error) => {
                output.error(&error);
                continue;
            }
        };
        match command {
            Command::Uci | Command::Ugi => {
                output.line(&format!("id name {}", identity.name));
                output.line(&format!("id author {}", identity.author));
                for option in RULE_OPTIONS.iter() {
                    output.line(&option.line());
                }
                output.line(if command == Command::Ugi {
                    "ugiok"
                } else {
                    "uciok"
                });
            }
            Command::IsReady => output.line("readyok"),
            Command::SetOption { name, value } => match setup.set_option(&name, value.as_deref()) {
                Ok(true) => {}
                Ok(false) => output.error(&format!("setoption: unknown option '{name}'")),
                Err(error) => output.error(&error),
            },
            Command::Position { start, moves } => {
                if let Err(error) = setup.set_position(&start, &moves) {
                    output.error(&format!("position: {error}"));
                }
            }
            Command::Go(go) => {
                let answer = match go.perft {
                    Some(depth) => perft(&setup.position, depth, &output),
                    None => format!(
                        "bestmove {}",
                        decide(&setup.position, &go, &output, &mut choose)
                    ),
                };
                if go.infinite || go.ponder {
                    while !flags.release.load(Ordering::SeqCst)
                        && !flags.quit.load(Ordering::SeqCst)
                    {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                // Idle before the answer goes out: the GUI's next `go` may come the moment it
                // reads `bestmove`, and clearing the flag after it would undo that `go`'s
                // arming (an `isready` would then wait behind the next search).
                flags.busy.store(false, Ordering::SeqCst);
                output.line(&answer);
            }
            Command::Query(query) => output.line(&setup.answer(query)),
            Command::Display => {
                for line in setup.position.pretty().lines() {
                    output.line(line);
                }
                output.line(&format!("Fen: {}", setup.position.fen()));
            }
            Command::Eval | Command::Bench(_) => {
                output.error("this bot has no evaluation or benchmark (eval, bench)")
            }
            Command::NewGame | Command::Stop | Command::PonderHit | Command::Quit => {}
        }
    }
    let _ = reader.join();
}

/// The bot's move in `position` as `bestmove` writes it. A move that is not legal is still
/// sent (the arbiter then records the loss with the move), after an error line saying why.
fn decide(
    position: &Position,
    go: &Go,
    output: &Output,
    choose: &mut impl FnMut(&Position, &Go) -> Choice,
) -> String {
    if position.is_game_over() {
        return "0000".to_string();
    }
    match choose(position, go) {
        Ok(mv) => {
            if let Err(why) = position.check(mv) {
                output.error(&format!("the bot chose {mv}, which is not legal: {why}"));
            }
            mv.to_string()
        }
        Err(why) => {
            output.error(&format!("the bot chose no move: {why}"));
            "0000".to_string()
        }
    }
}

/// `go perft`: one line per move, then the total, as the engine prints them; the last line is
/// returned to be written like a `bestmove`.
fn perft(position: &Position, depth: u64, output: &Output) -> String {
    let depth = u32::try_from(depth).unwrap_or(u32::MAX);
    let mut total = 0;
    for (mv, count) in position.divide(depth) {
        output.line(&format!("{mv}: {count}"));
        total += count;
    }
    format!("Nodes searched: {total}")
}

impl Reader for Flags {
    fn busy(&self) -> bool {
        self.busy.load(Ordering::SeqCst)
    }

    /// A bot's move is one call: nothing is taken up before it returns.
    fn running(&self) -> bool {
        false
    }

    fn interrupt(&self, _command: &Command) {
        self.release.store(true, Ordering::SeqCst);
    }

    fn arm(&self, command: &Command) {
        if let Command::Go(_) = command {
            self.release.store(false, Ordering::SeqCst);
            self.busy.store(true, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::scripted::Script;
    use std::io::{Cursor, Write};
    use std::sync::Mutex;

    /// An output that keeps what was written.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn run(input: &str, choose: impl FnMut(&Position, &Go) -> Choice) -> Vec<String> {
        let captured = Captured::default();
        let identity = Identity {
            name: "First".to_string(),
            author: "tests".to_string(),
        };
        serve(
            Cursor::new(input.as_bytes().to_vec()),
            Output::new(captured.clone()),
            &identity,
            choose,
        );
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    fn first_move(position: &Position, _: &Go) -> Choice {
        position
            .legal_moves()
            .first()
            .copied()
            .ok_or("no move".to_string())
    }

    #[test]
    fn handshake_options_position_and_moves() {
        let lines = run(
            "uci\nsetoption name Width value 6\nsetoption name Height value 6\nisready\nposition startpos moves d3 d4\ngo movetime 10\nquery p1turn\n",
            first_move,
        );
        assert_eq!(lines[0], "id name First");
        assert!(lines.contains(&"uciok".to_string()));
        assert!(lines.contains(&RULE_OPTIONS[0].line()));
        let mut position = Position::start(
            crate::Rules::new(6, 6, crate::Opening::Traditional, crate::Capture::Straight).unwrap(),
        )
        .unwrap();
        for text in ["d3", "d4"] {
            position.play(text.parse().unwrap()).unwrap();
        }
        let expected = format!("bestmove {}", position.legal_moves()[0]);
        assert!(lines.contains(&expected), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "response true");
    }

    #[test]
    fn infinite_waits_for_stop_and_no_move_is_0000() {
        let lines = run("position startpos\ngo infinite\nstop\n", first_move);
        assert_eq!(lines, ["bestmove h1"]);
        let finished = "position fen 1w/w1 b\ngo movetime 10\n";
        assert_eq!(run(finished, first_move), ["bestmove 0000"]);
    }

    #[test]
    fn bad_input_and_bad_choices_are_named() {
        let lines = run(
            "hello\nsetoption name Skil value 3\nposition startpos moves z9\ngo movetime 5\n",
            |_: &Position, _: &Go| "a1".parse::<Move>().map_err(|e| e.to_string()),
        );
        assert!(lines[0].starts_with("info string error: ") && lines[0].contains("hello"));
        assert_eq!(
            lines[1],
            "info string error: setoption: unknown option 'Skil'"
        );
        assert!(
            lines[2].starts_with("info string error: position"),
            "{lines:?}"
        );
        assert!(
            lines[3].contains("the bot chose a1, which is not legal"),
            "{lines:?}"
        );
        assert_eq!(lines[4], "bestmove a1");
        let failed = run("go movetime 5\n", |_: &Position, _: &Go| Err("oops".into()));
        assert_eq!(
            failed,
            [
                "info string error: the bot chose no move: oops",
                "bestmove 0000"
            ]
        );
    }

    #[test]
    fn errors_come_in_their_turn() {
        let lines = run("uci\nisready\njunk\n", first_move);
        let tail = &lines[lines.len() - 3..];
        assert_eq!(
            tail,
            [
                "uciok",
                "readyok",
                "info string error: unknown command 'junk'"
            ]
        );
    }

    /// A `go` that arrives while the answer to the one before is being written keeps its
    /// `isready` answered during the search (the bot once cleared its busy flag after writing
    /// `bestmove`, undoing the new `go`'s arming, and `readyok` waited for `stop`).
    #[test]
    fn a_go_sent_as_bestmove_is_read_keeps_isready_answered() {
        let identity = Identity {
            name: "First".to_string(),
            author: "tests".to_string(),
        };
        let mut script = Script::start(
            |line| line.starts_with("bestmove"),
            move |input, output| serve(input, output, &identity, first_move),
        );
        script.send("position startpos\ngo movetime 1\n");
        script.wait_held();
        script.isready_in_a_search_sent_before_the_held_line();
        script.wait_held();
        script.release();
        assert_eq!(script.finish(), ["bestmove h1", "readyok", "bestmove h1"]);
    }

    #[test]
    fn perft_counts_as_the_engine_does() {
        let lines = run("go perft 2\n", first_move);
        assert_eq!(lines.last().unwrap(), "Nodes searched: 12");
    }
}
