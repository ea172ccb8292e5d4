//! The tools of `konane-arbiter`: `play` (a person against an engine), `gui`, `merge` and
//! `check`, each read from its arguments and run by the library.

use super::*;
use konane::arbiter::check::{self, CheckSettings, Outcome};
use konane::arbiter::merge;
use konane::arbiter::play::{self, PlaySettings};
use konane::arbiter::preflight;
use konane::arbiter::results::{check_outputs, write_game};
use konane::arbiter::{pgn, spec};
use konane::{Color, Rules, gui};

#[derive(Args)]
pub(super) struct PlayArgs {
    /// The engine: cmd=PATH [arg=ARG]... [option.NAME=VALUE]... [proto=uci|ugi] [name=NAME] [ponder].
    #[arg(long, required = true, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// Your colour (Black moves first).
    #[arg(long, default_value = "black", value_parser = parse_colour)]
    human: Color,
    /// Your name in the PGN and results.
    #[arg(long, default_value = "human")]
    name: String,
    #[command(flatten)]
    limits: LimitArgs,
    /// Seconds the engine on a --depth/--nodes move may stay silent before it loses as stalled.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    stall_timeout: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Append the finished game as PGN to this file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Append the finished game as a JSON line to this file.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Log every line sent to (<) and received from (>) the engine, and its stderr (!).
    #[arg(long)]
    log: Option<PathBuf>,
}

#[derive(Args)]
pub(super) struct GuiArgs {
    /// An engine the page offers: cmd=PATH [arg=ARG]... [option.NAME=VALUE]... [proto=uci|ugi] [name=NAME] [ponder].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// The port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on: the default lets only this machine in.
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Milliseconds an engine may overrun its clock or move time before it loses on time.
    #[arg(long, default_value_t = 200)]
    timemargin: u64,
    /// Seconds an engine on a depth-limited move may stay silent before it loses as stalled (the page's form can set it per game).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    stall_timeout: u64,
    /// Log every line sent to (<) and received from (>) the engines, and their stderr (!).
    #[arg(long)]
    log: Option<PathBuf>,
}

pub(super) fn run_gui(
    args: GuiArgs,
    groups: &[Vec<String>],
    installation: &Installation,
    interrupted: &Cancel,
) -> Result<u8, String> {
    let mut engines: Vec<EngineSpec> = groups
        .iter()
        .map(|words| EngineSpec::parse(words).map(|spec| spec.cancelled_by(interrupted)))
        .collect::<Result<_, _>>()?;
    if engines.is_empty() {
        let spec = EngineSpec::parse(&installation.engine_words()?)?;
        engines.push(spec.cancelled_by(interrupted));
    }
    spec::check_names(&engines)?;
    if let Some(spec) = engines.iter().find(|spec| spec.launch.name == "human") {
        return Err(format!(
            "--engine cmd={}: the name 'human' is kept for the person; give name=...",
            spec.launch.command
        ));
    }
    spec::make_names_unique(&mut engines);
    let mut settings = gui::Settings {
        engines,
        announced: Vec::new(),
        host: args.host,
        port: args.port,
        deadlines: Deadlines {
            time_margin: Duration::from_millis(args.timemargin),
            stall: Duration::from_secs(args.stall_timeout),
            startup: Duration::from_secs(30),
        },
        log: open_log(&args.log)?,
    };
    // A missing or broken engine is named now, not offered on the page to crash later.
    let checked = preflight::check_engines(
        &settings.engines,
        Rules::default(),
        &settings.deadlines,
        &settings.log,
    );
    if interrupted.is_cancelled() {
        return Ok(130);
    }
    settings.announced = checked?
        .into_iter()
        .map(|announced| announced.options)
        .collect();
    gui::serve(settings, interrupted.flag().clone(), |address| {
        say!("Konane GUI: http://{address}/ (Ctrl-C stops it)");
        if !address.ip().is_loopback() {
            eprintln!(
                "warning: listening on {}: anyone who can reach it can play on this server",
                address.ip()
            );
        }
    })?;
    Ok(0)
}

#[derive(Args)]
pub(super) struct MergeArgs {
    /// The results files, one per shard.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also write every game, in order, to this new results file.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Also write every game, in order, as PGN to this new file.
    #[arg(long)]
    pgn: Option<PathBuf>,
}

/// Writes the merged games to the new files `results` and `pgn_file`; on a failure, removes
/// them again so that a retry is not refused for finding them.
fn write_merged(
    records: &[konane::arbiter::record::GameRecord],
    results: Option<&std::path::Path>,
    pgn_file: Option<&std::path::Path>,
) -> Result<(), String> {
    check_outputs(results, pgn_file)?;
    let written = records
        .iter()
        .try_for_each(|record| write_game(results, pgn_file, record, pgn::EVENT));
    if written.is_err() {
        for path in [results, pgn_file].into_iter().flatten() {
            let _ = std::fs::remove_file(path);
        }
    }
    written
}

pub(super) fn run_merge(args: MergeArgs) -> Result<u8, String> {
    for (flag, output) in [("--results", &args.results), ("--pgn", &args.pgn)] {
        if let Some(output) = output
            && (args.files.contains(output) || output.exists())
        {
            return Err(format!(
                "{flag} {} already exists: merge writes only new files",
                output.display()
            ));
        }
    }
    let merged = merge::merge(&args.files)?;
    for warning in &merged.warnings {
        eprintln!("warning: {warning}");
    }
    write_merged(
        &merged.records,
        args.results.as_deref(),
        args.pgn.as_deref(),
    )?;
    say_on!("{}", merged.report(args.files.len())?);
    Ok(0)
}

fn parse_colour(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Color::Black),
        "white" | "w" => Ok(Color::White),
        _ => Err(format!("'{text}' is not a colour: black or white")),
    }
}

pub(super) fn run_play(
    args: PlayArgs,
    groups: &[Vec<String>],
    interrupted: &Cancel,
) -> Result<u8, String> {
    let engine = one_engine(groups)?.cancelled_by(interrupted);
    let rules = args.rules.rules();
    rules.check_opening().map_err(|e| e.to_string())?;
    let log = open_log(&args.log)?;
    let deadlines = Deadlines {
        time_margin: Duration::from_millis(args.limits.timemargin),
        stall: Duration::from_secs(args.stall_timeout),
        startup: Duration::from_secs(30),
    };
    let checked = preflight::check_engines(std::slice::from_ref(&engine), rules, &deadlines, &log);
    if interrupted.is_cancelled() {
        return Ok(130);
    }
    checked?;
    let settings = PlaySettings {
        engine,
        human: args.human,
        human_name: args.name,
        game_rules: GameRules {
            rules,
            time_control: args.limits.time_control(),
            deadlines,
        },
        pgn: args.pgn,
        results: args.results,
        log,
    };
    let (sender, lines) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut out = std::io::stdout();
    play::play(&settings, &lines, &mut out, interrupted.flag())?;
    Ok(if interrupted.is_cancelled() { 130 } else { 0 })
}

#[derive(Args)]
pub(super) struct CheckArgs {
    /// The engine: cmd=PATH [arg=ARG]... [option.NAME=VALUE]... [proto=uci|ugi] [name=NAME] [ponder].
    #[arg(long, required = true, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// Fewer random positions (20 instead of 200), shorter movetime, one clock.
    #[arg(long)]
    quick: bool,
    /// Seconds the engine may take for a handshake, an isready, or a go beyond its own limit.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    timeout: u64,
    /// Milliseconds a move may come after its movetime or clock before it fails.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Log every line sent to (<) and received from (>) the engine, and its stderr (!).
    #[arg(long)]
    log: Option<PathBuf>,
}

pub(super) fn run_check(
    args: CheckArgs,
    groups: &[Vec<String>],
    interrupted: &Cancel,
) -> Result<u8, String> {
    let spec = one_engine(groups)?.cancelled_by(interrupted);
    let settings = CheckSettings {
        quick: args.quick,
        timeout: Duration::from_secs(args.timeout),
        margin: Duration::from_millis(args.timemargin),
        seed: args.seed,
        log: open_log(&args.log)?,
    };
    say!(
        "Checking engine '{}' ({}) over {}",
        spec.launch.name,
        spec.command_line(),
        spec.protocol
    );
    let results = check::run(&spec, &settings, |result| say!("{result}"));
    if interrupted.is_cancelled() {
        say!("Interrupted after {} checks", results.len());
        return Ok(130);
    }
    let count = |outcome| results.iter().filter(|r| r.outcome == outcome).count();
    let failed = count(Outcome::Fail);
    say!(
        "{} checks passed, {failed} failed, {} skipped",
        count(Outcome::Pass),
        count(Outcome::Skip)
    );
    Ok(if failed == 0 { 0 } else { 1 })
}

/// The one engine of `play` and `check`, its name checked: `--engine` must be given once,
/// followed by all of that engine's words.
fn one_engine(groups: &[Vec<String>]) -> Result<EngineSpec, String> {
    match groups {
        [words] => {
            let spec = EngineSpec::parse(words)?;
            spec::check_names(std::slice::from_ref(&spec))?;
            Ok(spec)
        }
        _ => Err(format!(
            "takes exactly one --engine, and {} were given (the words of one engine follow one --engine: --engine cmd=./bot name=bot)",
            groups.len()
        )),
    }
}
