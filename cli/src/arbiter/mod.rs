//! `konane-arbiter`: matches and tournaments between Konane engines, every move checked, and
//! its tools. The arguments are read here and handed to the library (`konane::arbiter`); what
//! the library reports is printed by `report`.

mod report;
mod tools;

use crate::Installation;
use crate::console::{self, RulesArgs};
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use konane::arbiter::game::{Deadlines, GameRules};
use konane::arbiter::log::Log;
use konane::arbiter::openings::{OpeningSource, read_openings};
use konane::arbiter::process::Cancel;
use konane::arbiter::schedule::Format;
use konane::arbiter::spec::EngineSpec;
use konane::arbiter::stats::Sprt;
use konane::arbiter::time_control::TimeControl;
use konane::arbiter::tournament::Shard;
use konane::arbiter::watchdog;
use konane::arbiter::{self, Config, Ending};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;
use tools::{CheckArgs, GuiArgs, MergeArgs, PlayArgs, run_check, run_gui, run_merge, run_play};

#[derive(Parser)]
#[command(
    name = "konane-arbiter",
    version,
    about = "Plays Konane matches and tournaments between UCI/UGI engines, checking every move.",
    after_help = "Games come in colour-swapped pairs: each opening is played once with each engine as Black. \
Konane has no draws, so a pair scores 0, 1 or 2 points: Elo, error bars, LOS and the SPRT are computed \
from the pairs (the pentanomial model of fastchess, here with three outcomes), which accounts for the \
opening's bias. Each progress line names both engines with their colours, then the winner by name and \
colour (\"new (Black) vs old (White): old wins as White, normal\"); the PGN keeps the PGN convention \
(its White and Black tags name the engines, Result 1-0 means White won).\n\n\
With no --engine, plays a short demo match of konane-engine (found next to this program) against itself."
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    tool: Option<Tool>,
    /// An engine: cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]... [proto=uci|ugi] [ponder]. Give it twice for a match, more for a tournament.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// Pairing of three or more engines.
    #[arg(long, value_enum, default_value = "round-robin")]
    format: Format,
    /// Games per pairing, played in colour-swapped pairs (an odd number is rounded up).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: u64,
    /// Seed for --random-plies [default: 1; the demo draws one from the clock].
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
    /// Seconds an engine on a --depth/--nodes move may stay silent, or a start-up step may take, before it is stalled.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    stall_timeout: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Openings file: a move sequence or position string a line (see protocol.md).
    #[arg(long, conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Start each pair with this many random legal plies (deterministic from --seed).
    #[arg(long)]
    random_plies: Option<usize>,
    /// Append each game as PGN to this file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Append each game as one JSON object a line to this file.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Continue the tournament recorded in --results, replaying no finished game.
    #[arg(long)]
    resume: bool,
    /// Stop when a sequential probability ratio test decides: elo0=A elo1=B [alpha=0.05] [beta=0.05].
    #[arg(long, num_args = 2..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Log every line sent to (<) and received from (>) every engine, and what it writes on stderr (!), with timestamps.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Play only slice K of N of the game pairs (same seed and openings as the whole run), into its own --results; `merge` joins the slices.
    #[arg(long, value_name = "K/N", requires = "results")]
    shard: Option<Shard>,
    /// Milliseconds each worker waits between two of its games.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    wait: u64,
}

#[derive(Subcommand)]
enum Tool {
    /// Check one engine against the protocol: one PASS/FAIL/SKIP line per check, with evidence.
    #[command(
        after_help = "Checks: handshake and announced options, isready (also during a search), new game, \
position startpos/fen with moves, legal bestmoves over random positions of every size and rule the engine \
announces (Width, Height, Opening, Capture options; 8x8 default rules when it announces none), bestmove 0000 \
when there is no move, go movetime kept, a clock respected, stop in go infinite, the UGI queries, bad input \
(a line that is not UTF-8 among it), output that is protocol, and quit.\n\n\
Exit code 0 when no check failed, 1 when one did, 2 for bad arguments."
    )]
    Check(CheckArgs),
    /// Play an engine yourself in the terminal: type moves, `moves`, `undo`, `quit`.
    #[command(
        after_help = "The board is drawn after every move, the squares of the last move in brackets. \
A wrong or illegal move gets the reason and a new prompt, never a forfeit. You have no clock; the engine \
keeps its time control and loses by it, or by a crash or an illegal move, like in a match. A finished game \
is appended to --pgn and --results; a game left with quit is not recorded."
    )]
    Play(PlayArgs),
    /// Merge the results files of one tournament's shards: check them, print the table and SPRT.
    #[command(
        after_help = "Every game must carry the same tournament (engines, options, --games, --seed, openings, \
rules and time control) and fit its schedule and shard; a game found twice is refused. The table and the \
SPRT are those one run of all the games would print. Example: \
konane-arbiter merge results-1.jsonl results-2.jsonl results-3.jsonl --results all.jsonl"
    )]
    Merge(MergeArgs),
    /// Serve a web page to play, watch and analyse with the engines: prints its address.
    #[command(
        after_help = "Open the printed address in a browser. The page starts games of any size (2x2 to 26x26) \
and rules between a person and any of the --engine engines, or two of them, with live engine lines and clocks; \
it steps through the moves, exports PGN and position strings, loads a position string, and has an engine \
analyse the shown position without limit. The server referees every move; the page can run no other \
program than the --engine ones. With no --engine it offers konane-engine found next to this program. \
Ctrl-C stops the server and every engine. The HTTP endpoints are described in protocol.md."
    )]
    Gui(GuiArgs),
    /// Internal: kills the engines' process groups when the arbiter that started it dies.
    #[command(hide = true)]
    Watchdog,
}

/// How long an engine may think: at most one of --tc, --movetime, --depth and --nodes.
#[derive(Args)]
struct LimitArgs {
    /// Time control BASE+INC in seconds, e.g. 10+0.1 (10+0.1 when no other limit is given).
    #[arg(long, value_parser = parse_tc, conflicts_with_all = ["movetime", "depth", "nodes"])]
    tc: Option<TimeControl>,
    /// Milliseconds per move.
    #[arg(long, conflicts_with_all = ["depth", "nodes"], value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Fixed search depth per move.
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(1..=120))]
    depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Grace in milliseconds beyond the clock before a move loses on time.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
}

impl LimitArgs {
    /// The time control the flags name, or `None` when none is given.
    fn given(&self) -> Option<TimeControl> {
        match (self.tc, self.movetime, self.depth, self.nodes) {
            (Some(clock), ..) => Some(clock),
            (_, Some(ms), ..) => Some(TimeControl::MoveTime(Duration::from_millis(ms))),
            (_, _, Some(depth), _) => Some(TimeControl::Depth(depth)),
            (_, _, _, Some(nodes)) => Some(TimeControl::Nodes(nodes)),
            _ => None,
        }
    }

    /// The time control the flags name, or 10+0.1.
    fn time_control(&self) -> TimeControl {
        self.given().unwrap_or(TimeControl::Clock {
            base: Duration::from_secs(10),
            increment: Duration::from_millis(100),
        })
    }
}

/// The words of each `--engine`, one group per occurrence.
fn engine_groups(matches: &ArgMatches) -> Vec<Vec<String>> {
    matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|group| group.cloned().collect()).collect())
        .unwrap_or_default()
}

fn open_log(path: &Option<PathBuf>) -> Result<Log, String> {
    match path {
        Some(path) => Log::create(path).map_err(|e| format!("--log {}: {e}", path.display())),
        None => Ok(Log::default()),
    }
}

fn parse_tc(text: &str) -> Result<TimeControl, String> {
    TimeControl::parse_clock(text).map_err(|e| e.to_string())
}

/// The tournament the flags describe, and whether it is the demo (no `--engine` given).
fn config(
    cli: Cli,
    engine_groups: Vec<Vec<String>>,
    installation: &Installation,
) -> Result<(Config, bool), String> {
    let rules = cli.rules.rules();
    rules.check_opening().map_err(|e| e.to_string())?;
    let mut engines: Vec<EngineSpec> = engine_groups
        .iter()
        .map(|words| EngineSpec::parse(words))
        .collect::<Result<_, _>>()?;
    let mut games = cli.games;
    let mut time_control = cli.limits.time_control();
    let demo = engines.is_empty();
    let mut seed = cli.seed.unwrap_or(1);
    let mut random_plies = cli.random_plies;
    if demo {
        engines = vec![EngineSpec::parse(&installation.engine_words()?)?; 2];
        if cli.limits.given().is_none() {
            time_control = TimeControl::Clock {
                base: Duration::from_secs(2),
                increment: Duration::from_millis(20),
            };
        }
        games = games.min(4);
        // Varied openings, different on every run unless a seed is given.
        if cli.openings.is_none() && random_plies.is_none() {
            random_plies = Some(4);
        }
        seed = cli.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs() % 1_000_000)
        });
        say!(
            "Demo: konane-engine against itself, {games} games from random openings (--seed {seed})"
        );
    }
    if engines.len() < 2 {
        return Err("give at least two --engine (or none, for the demo match)".to_string());
    }
    if cli.resume && cli.results.is_none() {
        return Err("--resume needs --results FILE: the file whose games it continues".into());
    }
    let sprt = cli.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".to_string());
    }
    let openings = match (&cli.openings, random_plies) {
        (Some(path), _) => OpeningSource::List(read_openings(path, rules)?),
        (None, Some(plies)) => OpeningSource::RandomPlies(plies),
        (None, None) => OpeningSource::Start,
    };
    let log = open_log(&cli.log)?;
    let config = Config {
        engines,
        format: cli.format,
        games: games as usize,
        concurrency: cli.concurrency as usize,
        seed,
        game_rules: GameRules {
            rules,
            time_control,
            deadlines: Deadlines {
                time_margin: Duration::from_millis(cli.limits.timemargin),
                stall: Duration::from_secs(cli.stall_timeout),
                startup: Duration::from_secs(cli.stall_timeout.min(30)),
            },
        },
        openings,
        pgn: cli.pgn,
        results: cli.results,
        resume: cli.resume,
        sprt,
        shard: cli.shard,
        log,
        wait: Duration::from_millis(cli.wait),
        engine_output: false,
    };
    Ok((config, demo))
}

/// Runs `konane-arbiter` with `arguments` (the program's name first) and returns its exit
/// status: 0 done, 1 a failed check or an unwritable output, 2 bad arguments, 130 interrupted.
/// Help and version print here and return 0.
pub fn main<I, T>(arguments: I, installation: &Installation) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    console::init_logging();
    let parsed = Cli::command()
        .try_get_matches_from(arguments)
        .and_then(|matches| Ok((Cli::from_arg_matches(&matches)?, matches)));
    let (mut cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return console::clap_status(&error),
    };
    // Ctrl-C (or a termination signal) cancels whatever runs, and every wait for its engines.
    let interrupted = Cancel::new();
    let on_interrupt = interrupted.clone();
    if let Err(error) = ctrlc::set_handler(move || on_interrupt.cancel()) {
        eprintln!("warning: cannot catch Ctrl-C: {error}");
    }
    if let Some(Tool::Watchdog) = cli.tool {
        watchdog::serve(std::io::stdin().lock());
        return 0;
    }
    if let Err(error) = watchdog::start(&installation.arbiter) {
        eprintln!("warning: {error}; engines may outlive this program if it is killed");
    }
    if let Some(tool) = cli.tool.take() {
        let (name, sub) = matches.subcommand().expect("a subcommand was given");
        let groups = engine_groups(sub);
        let outcome = match tool {
            Tool::Check(args) => run_check(args, &groups, &interrupted),
            Tool::Play(args) => run_play(args, &groups, &interrupted),
            Tool::Merge(args) => run_merge(args),
            Tool::Gui(args) => run_gui(args, &groups, installation, &interrupted),
            Tool::Watchdog => unreachable!("served above"),
        };
        return outcome.unwrap_or_else(|error| {
            eprintln!("error: {name}: {error}");
            2
        });
    }
    let groups = engine_groups(&matches);
    let (config, demo) = match config(cli, groups, installation) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("error: {error}");
            return 2;
        }
    };
    let sprt = config.sprt;
    let mut printer = report::Printer;
    match arbiter::run(config, &interrupted, &mut printer) {
        Ok(summary) => {
            report::summary(&summary, sprt.as_ref(), demo);
            match summary.ending {
                Ending::Interrupted => 130,
                Ending::Complete | Ending::SprtDecided => 0,
            }
        }
        Err(error @ (arbiter::RunError::Rules(_) | arbiter::RunError::Setup(_))) => {
            eprintln!("error: {error}");
            2
        }
        Err(arbiter::RunError::Output(error)) => {
            eprintln!("error: {error}");
            1
        }
    }
}
