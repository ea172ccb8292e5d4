//! `konane-engine value`: a position's value as a combinatorial game, region by region.

use clap::Args;
use konane::Color;
use konane::value::{ValueError, Values};
use std::time::Instant;

/// The arguments of `konane-engine value`.
#[derive(Args)]
pub struct ValueArgs {
    #[command(flatten)]
    start: super::PositionArgs,
    /// The most distinct positions to value before giving up (exit code 1); each takes some
    /// 60 bytes.
    #[arg(long, default_value_t = konane::value::DEFAULT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
}

/// Runs `konane-engine value`: 0 with the value printed, 1 past the limit, 130 on Ctrl-C, 2
/// for bad input.
pub fn run(args: ValueArgs) -> u8 {
    let position = match args.start.position() {
        Ok(position) => position,
        Err(error) => {
            eprintln!("error: {error}");
            return 2;
        }
    };
    let stop = super::stop_on_ctrl_c();
    let started = Instant::now();
    let mut values = Values::new(args.limit);
    let value = match values.value(&position, &stop) {
        Ok(value) => value,
        Err(error) => {
            eprintln!("error: {error}");
            return match error {
                ValueError::Opening => 2,
                ValueError::TooLarge { .. } => 1,
                ValueError::Stopped => 130,
            };
        }
    };
    let games = values.games();
    say!("value: {}", games.notation(value.total));
    say!("outcome: {}", konane::value::outcome_words(value.outcome));
    say!(
        "winner: {} ({} to move)",
        title(value.winner),
        title(position.side_to_move())
    );
    say!("regions: {}", value.regions.len());
    for (i, region) in value.regions.iter().enumerate() {
        let squares: Vec<String> = region.squares.iter().map(|s| s.to_string()).collect();
        say!(
            "region {}: {} = {}",
            i + 1,
            squares.join(" "),
            games.notation(region.value)
        );
    }
    eprintln!(
        "{} positions valued, {} game forms, time {:.3} s",
        values.positions(),
        values.games().len(),
        started.elapsed().as_secs_f64()
    );
    0
}

/// `Black` or `White`, as `solve` writes the winner.
fn title(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}
