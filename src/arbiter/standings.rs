//! The running totals of a tournament and its final table.

use crate::arbiter::record::GameRecord;
use crate::arbiter::schedule::Schedule;
use crate::arbiter::stats::{Pairs, Sprt, Verdict};
use std::collections::{BTreeMap, HashMap};

/// The running totals of a tournament.
pub struct Standings {
    names: Vec<String>,
    wins: Vec<u64>,
    losses: Vec<u64>,
    /// Per pairing: the first game's points for the pairing's first engine, by pair.
    half_pairs: Vec<HashMap<usize, u8>>,
    /// Per pairing: the complete pairs.
    pub pairs: Vec<Pairs>,
    terminations: BTreeMap<String, u64>,
}

impl Standings {
    /// No games yet for `names` in `pairings` pairings.
    pub fn new(names: Vec<String>, pairings: usize) -> Standings {
        let n = names.len();
        Standings {
            names,
            wins: vec![0; n],
            losses: vec![0; n],
            half_pairs: vec![HashMap::new(); pairings],
            pairs: vec![Pairs::default(); pairings],
            terminations: BTreeMap::new(),
        }
    }

    /// Counts one finished game.
    pub fn add(&mut self, schedule: &Schedule, record: &GameRecord) {
        let job = schedule.job(record.id);
        let (black, white) = schedule.colours(job);
        let (winner, loser) = match record.winner {
            crate::Color::Black => (black, white),
            crate::Color::White => (white, black),
        };
        self.wins[winner] += 1;
        self.losses[loser] += 1;
        *self
            .terminations
            .entry(record.termination.kind().to_string())
            .or_default() += 1;
        let first = schedule.pairings[job.pairing].0;
        let points = u8::from(winner == first);
        match self.half_pairs[job.pairing].remove(&job.pair) {
            Some(other) => self.pairs[job.pairing].add(points + other),
            None => {
                self.half_pairs[job.pairing].insert(job.pair, points);
            }
        }
    }

    /// The games engine `engine` (its index in the names) has won.
    pub fn wins(&self, engine: usize) -> u64 {
        self.wins.get(engine).copied().unwrap_or(0)
    }

    /// The final table: per engine, then per pairing with Elo and the SPRT.
    pub fn table(&self, schedule: &Schedule, sprt: Option<&Sprt>) -> String {
        let mut text = String::new();
        text += &format!(
            "{:<24} {:>6} {:>6} {:>6} {:>7}\n",
            "engine", "games", "wins", "losses", "score"
        );
        for (i, name) in self.names.iter().enumerate() {
            let games = self.wins[i] + self.losses[i];
            let score = if games == 0 {
                0.0
            } else {
                100.0 * self.wins[i] as f64 / games as f64
            };
            text += &format!(
                "{:<24} {:>6} {:>6} {:>6} {:>6.1}%\n",
                name, games, self.wins[i], self.losses[i], score
            );
        }
        for (p, &(a, b)) in schedule.pairings.iter().enumerate() {
            let pairs = &self.pairs[p];
            text += &format!("{} vs {}: {}", self.names[a], self.names[b], pairs);
            match pairs.estimate() {
                Some(e) => text += &format!(", {e}, LOS {:.1}%\n", 100.0 * e.los),
                None => text += ", no complete pair yet\n",
            }
            if let Some(sprt) = sprt {
                let llr = pairs.llr(sprt);
                let (lower, upper) = sprt.bounds();
                let verdict = match sprt.verdict(llr) {
                    Verdict::H1 => "H1 accepted",
                    Verdict::H0 => "H0 accepted",
                    Verdict::Continue => "undecided",
                };
                text += &format!(
                    "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) {}\n",
                    sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, lower, upper, verdict
                );
            }
        }
        let terminations: Vec<String> = self
            .terminations
            .iter()
            .map(|(t, n)| format!("{t}: {n}"))
            .collect();
        text += &format!("terminations: {}\n", terminations.join(", "));
        text
    }
}
