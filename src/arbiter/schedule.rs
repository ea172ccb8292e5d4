//! The order of a tournament's games: pairings, colour-swapped pairs, game numbers.

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Every engine plays every other.
    RoundRobin,
    /// The first engine plays every other one.
    Gauntlet,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// The game's number, from 1.
    pub id: usize,
    /// Which pairing of engines plays it.
    pub pairing: usize,
    /// Which pair of that pairing: both games of a pair share an opening.
    pub pair: usize,
    /// True for the pair's second game, colours swapped.
    pub swapped: bool,
}

/// The schedule: pairings and games, interleaved so that a stopped tournament is balanced.
pub struct Schedule {
    /// The engine indices of each pairing.
    pub pairings: Vec<(usize, usize)>,
    pairs_per_pairing: usize,
}

impl Schedule {
    /// The schedule of `games` games per pairing (rounded up to whole pairs).
    pub fn new(engines: usize, format: Format, games: usize) -> Schedule {
        let pairings = match format {
            _ if engines == 2 => vec![(0, 1)],
            Format::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
            Format::RoundRobin => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
                .collect(),
        };
        Schedule {
            pairings,
            pairs_per_pairing: games.div_ceil(2).max(1),
        }
    }

    /// The number of games.
    pub fn total(&self) -> usize {
        self.pairings.len() * self.pairs_per_pairing * 2
    }

    /// Game `id` (from 1).
    pub fn job(&self, id: usize) -> Job {
        let index = id - 1;
        let swapped = index % 2 == 1;
        let slot = index / 2;
        Job {
            id,
            pairing: slot % self.pairings.len(),
            pair: slot / self.pairings.len(),
            swapped,
        }
    }

    /// Black's and White's engine indices.
    pub fn colours(&self, job: Job) -> (usize, usize) {
        let (a, b) = self.pairings[job.pairing];
        if job.swapped { (b, a) } else { (a, b) }
    }
}
