//! A match of several games between two engines, as in cutechess: the arbiter's own tournament
//! runner ([`arbiter::run`]) plays it on a thread of its own, with colours swapped from game
//! to game, and the session shows each game as its events arrive.

use crate::arbiter::events::{Event, GameStart};
use crate::arbiter::game::{Deadlines, GameRules};
use crate::arbiter::log::Log;
use crate::arbiter::openings::OpeningSource;
use crate::arbiter::pgn;
use crate::arbiter::process::Cancel;
use crate::arbiter::record::{GameRecord, Termination};
use crate::arbiter::schedule::{Format, Schedule};
use crate::arbiter::spec::{self, EngineSpec};
use crate::arbiter::standings::Standings;
use crate::arbiter::{self, Config, RunError, Summary};
use crate::gui::game::{Ended, Game, NewGame, Player};
use crate::rules::square::Color;
use serde::Serialize;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The pause between two games of a match, to see how one ended.
pub const BETWEEN_GAMES: Duration = Duration::from_secs(2);

/// The most games one match may have.
pub const MAX_GAMES: u32 = 1000;

/// The event of the PGN of a match's games.
const EVENT: &str = "konane-arbiter gui match";

/// What a match's thread tells the session.
pub enum Report {
    /// Something happened in the match.
    Event(Event),
    /// The match is over: how, or why it could not go on.
    Done(Result<Summary, RunError>),
}

/// A match in progress (or just over).
pub struct Series {
    /// Tells this match's reports from those of a match stopped before it.
    pub token: u64,
    /// Games in the match (whole colour-swapped pairs).
    total: u32,
    /// The two engines, as the match names them (a repeated name gets a number): Black of
    /// the first game, then White of it.
    names: [String; 2],
    /// The first game's request, from which every game's is made.
    first: NewGame,
    /// The number, in the match, of the game on screen.
    shown: usize,
    /// The finished games, in the order they ended.
    records: Vec<GameRecord>,
    /// The match's games as the arbiter schedules them (colours swapped within each pair).
    schedule: Schedule,
    /// The score by colour-swapped pairs, from the first engine's side.
    standings: Standings,
    /// When the next game starts, between games.
    next_at: Option<Instant>,
    /// When the side to move began thinking.
    pub since: Instant,
    /// False once the match's thread has ended.
    pub running: bool,
    cancel: Cancel,
    thread: Option<JoinHandle<()>>,
}

/// The match as the page is told of it.
#[derive(Serialize)]
pub struct SeriesView {
    games: u32,
    played: u32,
    names: [String; 2],
    /// Games won by each engine, in the order of `names`.
    score: [u64; 2],
    /// Milliseconds until the next game starts, between games.
    next_in_ms: Option<u64>,
    /// The first engine's Elo over the second, with its 95% interval, from complete pairs.
    elo: Option<String>,
    /// The likelihood that the first engine is the stronger, in percent.
    los: Option<f64>,
}

/// One finished game of a match, as its table lists it.
#[derive(Serialize)]
pub struct GameRow {
    /// Its number in the match.
    round: usize,
    /// Black's engine.
    black: String,
    /// White's engine.
    white: String,
    /// The winner's engine.
    winner: String,
    /// How it ended (`normal`, `time forfeit`, ...).
    termination: String,
    /// Its length in plies.
    plies: usize,
}

impl Series {
    /// Starts a match of `games` games (rounded up to whole pairs) between the two engines of
    /// `first`, the game on screen, which becomes the match's first game. `engines` are the
    /// configured engines; `send` takes each report, tagged with `token`, on the match's thread.
    pub fn start(
        token: u64,
        games: u32,
        first: &mut Game,
        engines: &[EngineSpec],
        deadlines: Deadlines,
        log: Log,
        send: impl Fn(u64, Report) + Send + 'static,
    ) -> Result<Series, String> {
        let mut specs = Vec::new();
        for (side, player) in first.players.iter().enumerate() {
            let Player::Engine { index, .. } = player else {
                let side = Color::ALL[side].name();
                return Err(format!(
                    "games: a match is between two engines, and a person plays {side}"
                ));
            };
            let mut spec = engines[*index].with_options(&first.setup.options[side]);
            spec.launch.name = player.name();
            specs.push(spec);
        }
        spec::make_names_unique(&mut specs);
        let names = [specs[0].launch.name.clone(), specs[1].launch.name.clone()];
        show_engine_names(first, &names);
        let openings = match &first.opening.fen {
            Some(_) => OpeningSource::List(vec![first.opening.clone()]),
            None => OpeningSource::Start,
        };
        let config = Config {
            engines: specs,
            format: Format::RoundRobin,
            games: games as usize,
            concurrency: 1,
            seed: 1,
            game_rules: GameRules {
                rules: first.rules,
                time_control: first.time_control,
                deadlines: Deadlines {
                    stall: first.stall,
                    ..deadlines
                },
            },
            openings,
            pgn: None,
            results: None,
            resume: false,
            sprt: None,
            shard: None,
            log,
            wait: BETWEEN_GAMES,
            engine_output: true,
        };
        let cancel = Cancel::new();
        let stop = cancel.clone();
        let thread = std::thread::spawn(move || {
            let done = arbiter::run(config, &stop, &mut |event| {
                send(token, Report::Event(event))
            });
            send(token, Report::Done(done));
        });
        Ok(Series {
            token,
            total: games.div_ceil(2) * 2,
            schedule: Schedule::new(2, Format::RoundRobin, games as usize),
            standings: Standings::new(names.to_vec(), 1),
            names,
            first: first.setup.clone(),
            shown: 1,
            records: Vec::new(),
            next_at: None,
            since: Instant::now(),
            running: true,
            cancel,
            thread: Some(thread),
        })
    }

    /// The request of the game `start` begins, when it is not the one on screen: the first
    /// game's, with the colours `start` gives. The game's players are then to be named
    /// [`Series::name_players`].
    pub fn next_game(&mut self, start: &GameStart) -> Option<NewGame> {
        if start.id == self.shown {
            return None;
        }
        self.shown = start.id;
        self.next_at = None;
        self.since = Instant::now();
        let mut next = self.first.clone();
        if start.players[0] != self.names[0] {
            std::mem::swap(&mut next.black, &mut next.white);
            next.options.swap(0, 1);
        }
        Some(next)
    }

    /// Names `game`'s engines as the match does (`k` and `k-2` for two of one engine).
    pub fn name_players(&self, game: &mut Game, start: &GameStart) {
        show_engine_names(game, &start.players);
    }

    /// True when game `id` of the match is the one on screen.
    pub fn shows(&self, id: usize) -> bool {
        self.shown == id
    }

    /// Counts a finished game and says how it ended.
    pub fn finished(&mut self, record: GameRecord) -> Ended {
        let ended = ended_of(&record);
        self.standings.add(&self.schedule, &record);
        self.records.push(record);
        self.next_at =
            (self.records.len() < self.total as usize).then(|| Instant::now() + BETWEEN_GAMES);
        ended
    }

    /// The match's thread ended.
    pub fn over(&mut self) {
        self.running = false;
        self.next_at = None;
    }

    /// Stops the match (its engines are killed) and hands back its thread, to be joined.
    pub fn stop(mut self) -> Option<JoinHandle<()>> {
        self.cancel.cancel();
        self.thread.take()
    }

    /// Every finished game of the match as PGN, in the order they ended.
    pub fn pgn(&self) -> String {
        self.records
            .iter()
            .map(|record| pgn::pgn(record, record.id, EVENT))
            .collect()
    }

    /// Every finished game of the match as a row of its table, in the order they ended.
    pub fn games(&self) -> Vec<GameRow> {
        self.records
            .iter()
            .map(|record| GameRow {
                round: record.id,
                black: record.black.clone(),
                white: record.white.clone(),
                winner: record.winner_name().to_string(),
                termination: record.termination.to_string(),
                plies: record.moves.len(),
            })
            .collect()
    }

    /// What the page is told.
    pub fn view(&self) -> SeriesView {
        let estimate = self
            .standings
            .pairs
            .first()
            .and_then(|pairs| pairs.estimate());
        SeriesView {
            games: self.total,
            played: self.records.len() as u32,
            names: self.names.clone(),
            score: [0, 1].map(|engine| self.standings.wins(engine)),
            next_in_ms: self
                .next_at
                .map(|at| at.saturating_duration_since(Instant::now()).as_millis() as u64),
            elo: estimate.map(|e| e.to_string()),
            los: estimate.map(|e| (e.los * 1000.0).round() / 10.0),
        }
    }
}

/// How the game `record` keeps ended, as the page says it.
fn ended_of(record: &GameRecord) -> Ended {
    let loser = record.winner.opponent();
    match &record.termination {
        Termination::Normal => Ended::no_move(record.winner),
        other => {
            let name = match loser {
                Color::Black => &record.black,
                Color::White => &record.white,
            };
            Ended::forfeit(loser, name, other, record.detail.clone())
        }
    }
}

/// Shows `names` (Black's, then White's) for the engines of `game`.
fn show_engine_names(game: &mut Game, names: &[String]) {
    for (player, name) in game.players.iter_mut().zip(names) {
        if let Player::Engine { name: shown, .. } = player {
            shown.clone_from(name);
        }
    }
}
