//! Turns tournament results files into evaluation data: every position an engine moved from,
//! labelled with the game's result for the side to move (`w`, `l`), that engine's score of it
//! and the move it played (the labels, scores and best moves of
//! `konane::search::tune::read_samples`). Mate scores are written as +/- MATE_SCORE; positions
//! without a verdict, and games that did not end normally, are left out. With `--board`, only
//! the games on that board.
//!
//! Usage: cargo run --release --example game_positions -- [--board 8x8] FILE... > OUT

use konane::Rules;
use konane::arbiter::record::{GameRecord, Termination};
use konane::protocol::info::Score;
use std::io::{BufRead, Write};

/// The score written for a mate found by the engine, in hundredths of log-odds.
const MATE_SCORE: i64 = 1000;

fn main() {
    let mut board = None::<String>;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--board" => {
                board = Some(args.next().unwrap_or_else(|| fail("--board wants WxH")));
            }
            _ if arg.starts_with("--") => fail(&format!("unknown option '{arg}'")),
            _ => files.push(arg),
        }
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut games, mut positions) = (0usize, 0usize);
    for file in &files {
        let reader = std::fs::File::open(file)
            .map(std::io::BufReader::new)
            .unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        for (number, line) in reader.lines().enumerate() {
            let line = line.unwrap_or_else(|e| fail(&format!("{file}: {e}")));
            let record: GameRecord = match serde_json::from_str(&line) {
                Ok(record) => record,
                Err(e) => fail(&format!("{file}:{}: not a game record ({e})", number + 1)),
            };
            if record.termination != Termination::Normal
                || board
                    .as_ref()
                    .is_some_and(|b| *b != board_name(&record.rules))
            {
                continue;
            }
            games += 1;
            positions += write_positions(&record, &mut out)
                .unwrap_or_else(|e| fail(&format!("{file}:{}: {e}", number + 1)));
        }
    }
    out.flush().unwrap_or_else(|e| fail(&e.to_string()));
    eprintln!("{games} games, {positions} positions");
}

/// Writes the positions of one game; returns how many.
fn write_positions(record: &GameRecord, out: &mut impl Write) -> Result<usize, String> {
    let mut written = 0;
    record.replay(|ply, text, position| {
        let verdict = ply
            .checked_sub(record.opening_plies)
            .and_then(|engine_ply| record.move_verdicts.get(engine_ply))
            .and_then(Option::as_ref);
        let Some(verdict) = verdict else {
            return Ok(());
        };
        let score = match verdict.score {
            Score::Centi(score) => score.clamp(-MATE_SCORE, MATE_SCORE),
            Score::Mate(n) if n < 0 => -MATE_SCORE,
            Score::Mate(_) => MATE_SCORE,
        };
        let label = if position.side_to_move() == record.winner {
            'w'
        } else {
            'l'
        };
        writeln!(out, "{label} {} {score} {text}", position.fen()).map_err(|e| e.to_string())?;
        written += 1;
        Ok(())
    })?;
    Ok(written)
}

/// The board's name, as `8x8`.
fn board_name(rules: &Rules) -> String {
    format!("{}x{}", rules.width(), rules.height())
}

fn fail(message: &str) -> ! {
    eprintln!("game_positions: {message}");
    std::process::exit(2);
}
