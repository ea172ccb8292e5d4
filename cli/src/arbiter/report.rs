//! What a tournament reports, printed: a line per finished game, the notices, and at the end
//! how it ended with the table.

use konane::Color;
use konane::arbiter::events::{Event, Notice, Reporter};
use konane::arbiter::record::GameRecord;
use konane::arbiter::stats::Sprt;
use konane::arbiter::{Ending, Summary};

/// Prints each event as the command line shows it.
pub struct Printer;

impl Reporter for Printer {
    fn report(&mut self, event: Event) {
        match event {
            Event::Notice(Notice::Repaired(what)) => eprintln!("warning: {what}"),
            Event::Notice(Notice::ShardIgnoresSprt) => say!(
                "This shard plays its whole slice: the SPRT is for `konane-arbiter merge` to apply to all shards together."
            ),
            Event::GameFinished { record, progress } => say!(
                "{}/{}  {}",
                progress.finished,
                progress.total,
                progress_line(&record)
            ),
            Event::GameStarted(_)
            | Event::Moved { .. }
            | Event::EngineOutput { .. }
            | Event::SprtDecided { .. } => {}
        }
    }
}

/// `1 game`, `2 games`.
pub fn games(count: usize) -> String {
    format!("{count} game{}", if count == 1 { "" } else { "s" })
}

/// How the tournament ended, its table, and for the demo the last game's final board.
pub fn summary(summary: &Summary, sprt: Option<&Sprt>, demo: bool) {
    let finished = summary.finished;
    match summary.ending {
        Ending::Interrupted if summary.started == 0 => {
            say!("\nInterrupted before the first game; --resume continues.");
            return;
        }
        Ending::Interrupted => {
            say!(
                "\nInterrupted after {finished} of {}; --resume continues.",
                games(summary.total)
            );
            if summary.abandoned > 0 {
                let (count, were) = match summary.abandoned {
                    1 => ("The game".to_string(), "was"),
                    n => (format!("The {n} games"), "were"),
                };
                say!(
                    "{count} in progress {were} abandoned, not recorded: --resume plays {} again.",
                    if summary.abandoned == 1 { "it" } else { "them" }
                );
            }
        }
        Ending::SprtDecided => {
            let decided_at = finished - summary.after_verdict;
            say!("\nThe SPRT decided after {}.", games(decided_at));
            if summary.after_verdict > 0 {
                say!(
                    "The {} then in progress {} finished; {} recorded and counted below.",
                    games(summary.after_verdict),
                    if summary.after_verdict == 1 {
                        "was"
                    } else {
                        "were"
                    },
                    if summary.after_verdict == 1 {
                        "it is"
                    } else {
                        "they are"
                    }
                );
            }
        }
        Ending::Complete => say!("\nFinished {}.", games(finished)),
    }
    say_on!("{}", summary.standings.table(&summary.schedule, sprt));
    if demo
        && let Some(record) = summary.records.last()
        && let Ok(position) = record.final_position()
    {
        say!("\nThe final position of game {}:", record.id);
        say!(
            "{}\n{}{}",
            progress_line(record),
            position.pretty(),
            position.fen()
        );
    }
}

/// A finished game in words that read one way: both engines with their colours, then the
/// winner by name and colour, then how the game ended.
pub fn progress_line(record: &GameRecord) -> String {
    let colour = match record.winner {
        Color::Black => "Black",
        Color::White => "White",
    };
    let mut line = format!(
        "{} (Black) vs {} (White): {} wins as {colour}, {}",
        record.black,
        record.white,
        record.winner_name(),
        record.termination
    );
    if let Some(detail) = &record.detail {
        // The whole text is in the results and the PGN; a progress line stays readable. The
        // detail says how the engine ended first, then what it wrote on stderr.
        let short: String = detail.chars().take(160).collect();
        let cut = if short.len() < detail.len() {
            "..."
        } else {
            ""
        };
        line += &format!(" ({short}{cut})");
    }
    line
}
