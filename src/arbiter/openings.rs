//! Where each game pair starts: the start position, an openings file, or random plies.

use crate::rules::Rules;
use crate::rules::mix::{Random, splitmix64};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// Where a game starts: a position (the standard start or a position string) and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position string the game starts from, `None` for the standard start.
    pub fen: Option<String>,
    /// Moves played from there before the engines take over.
    pub moves: Vec<Move>,
}

/// Where the games' openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Every pair starts from the start position.
    Start,
    /// Pair `k` uses line `k` (cycling) of an openings file.
    List(Vec<Opening>),
    /// Pair `k` starts with this many random legal plies, drawn from the seed and `k`.
    RandomPlies(usize),
}

/// Reads an openings file (see protocol.md), checking each line under `rules`.
pub fn read_openings(path: &Path, rules: Rules) -> Result<Vec<Opening>, String> {
    let file = File::open(path).map_err(|e| format!("--openings {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("--openings {}: {e}", path.display()))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", path.display(), number + 1);
        let (fen, moves_text) = if text.contains('/') {
            match text.split_once(" moves") {
                Some((fen, moves)) => (Some(fen.trim().to_string()), moves),
                None => (Some(text.to_string()), ""),
            }
        } else {
            (None, text)
        };
        let mut position = match &fen {
            Some(fen) => {
                let position = Position::from_fen(fen, rules.opening, rules.capture)
                    .map_err(|e| format!("{at}: {e}"))?;
                let size = position.rules();
                if (size.width(), size.height()) != (rules.width(), rules.height()) {
                    return Err(format!(
                        "{at}: the position is {}x{}, the match is {}x{}",
                        size.width(),
                        size.height(),
                        rules.width(),
                        rules.height()
                    ));
                }
                position
            }
            None => Position::start(rules).map_err(|e| format!("{at}: {e}"))?,
        };
        let mut moves = Vec::new();
        for token in moves_text.split_whitespace() {
            let mv: Move = token
                .parse()
                .map_err(|e| format!("{at}: bad move '{token}': {e}"))?;
            position
                .play(mv)
                .map_err(|e| format!("{at}: illegal move {token}: {e}"))?;
            moves.push(mv);
        }
        if position.is_game_over() {
            return Err(format!("{at}: the game is already over after this opening"));
        }
        openings.push(Opening { fen, moves });
    }
    if openings.is_empty() {
        return Err(format!(
            "--openings {}: no openings in the file",
            path.display()
        ));
    }
    Ok(openings)
}

/// The seed of pair `pair`'s random opening.
fn pair_seed(seed: u64, pair: usize) -> u64 {
    seed ^ splitmix64(pair as u64 + 1)
}

/// `plies` random legal plies from the start, drawn from `seed`; never a finished game.
/// `None` when a thousand tries all ended the game within `plies`.
fn random_opening(rules: Rules, plies: usize, seed: u64) -> Option<Opening> {
    let mut random = Random::new(seed);
    for _attempt in 0..1000 {
        let mut position = Position::start(rules).expect("rules checked before the tournament");
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[random.below(legal.len())];
            position.play_unchecked(mv);
            moves.push(mv);
        }
        if !position.is_game_over() {
            return Some(Opening { fen: None, moves });
        }
    }
    None
}

impl OpeningSource {
    /// Checks that every one of `pairs` game pairs has its opening: random plies that a game
    /// of these rules can last (else every game would start from the same position).
    pub fn check(&self, rules: Rules, seed: u64, pairs: usize) -> Result<(), String> {
        let OpeningSource::RandomPlies(plies) = self else {
            return Ok(());
        };
        for pair in 0..pairs {
            if random_opening(rules, *plies, pair_seed(seed, pair)).is_none() {
                return Err(format!(
                    "random openings of {plies} plies: no random game of {}x{} lasts {plies} plies without ending (game pair {} tried 1000 times); give fewer plies",
                    rules.width(),
                    rules.height(),
                    pair + 1
                ));
            }
        }
        Ok(())
    }

    /// The opening of pair `pair`.
    pub fn for_pair(&self, rules: Rules, seed: u64, pair: usize) -> Opening {
        match self {
            OpeningSource::Start => Opening {
                fen: None,
                moves: Vec::new(),
            },
            OpeningSource::List(list) => list[pair % list.len()].clone(),
            OpeningSource::RandomPlies(plies) => {
                random_opening(rules, *plies, pair_seed(seed, pair))
                    .expect("checked before the tournament")
            }
        }
    }
}
