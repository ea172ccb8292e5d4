//! What identifies a tournament, stored with each of its games, and the slices (shards) that
//! let one tournament be played on many machines and merged afterwards.

use crate::arbiter::Config;
use crate::arbiter::openings::OpeningSource;
use crate::arbiter::schedule::Schedule;
use crate::arbiter::stats::Sprt;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which tournament a game belongs to: enough to rebuild its schedule and standings, and a
/// fingerprint of everything else that decides its games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentId {
    /// FNV-1a (64 bits, hex) of the engines' names, protocols and options, the pairing, the
    /// games per pairing, the seed, the openings, the rules and the time control. Engine
    /// commands are left out: the same engine may live at another path on another machine.
    pub fingerprint: String,
    /// The engines' names, in `--engine` order.
    pub engines: Vec<String>,
    /// `round-robin` or `gauntlet`.
    pub format: String,
    /// Games per pairing.
    pub games: usize,
    /// The SPRT, if any: `elo0=A elo1=B alpha=X beta=Y`.
    pub sprt: Option<String>,
}

impl TournamentId {
    /// The identity of the tournament `config` describes (its engine names made unique).
    pub fn of(config: &Config) -> TournamentId {
        let mut text = String::new();
        for engine in &config.engines {
            text += &format!("engine {} {}", engine.launch.name, engine.protocol);
            for (name, value) in engine.options_for(config.game_rules.rules) {
                text += &format!(" {name}={value}");
            }
            text.push('\n');
        }
        let format = format_name(config.format);
        text += &format!("{format} {} seed {}\n", config.games, config.seed);
        match &config.openings {
            OpeningSource::Start => text += "openings start\n",
            OpeningSource::RandomPlies(plies) => text += &format!("openings random {plies}\n"),
            OpeningSource::List(list) => {
                for opening in list {
                    let moves: Vec<String> = opening.moves.iter().map(|m| m.to_string()).collect();
                    text += &format!("opening {:?} {}\n", opening.fen, moves.join(" "));
                }
            }
        }
        text += &format!(
            "{} {:?}\n",
            config.game_rules.rules, config.game_rules.time_control
        );
        TournamentId {
            fingerprint: format!("{:016x}", fnv1a(text.as_bytes())),
            engines: config
                .engines
                .iter()
                .map(|e| e.launch.name.clone())
                .collect(),
            format,
            games: config.games,
            sprt: config.sprt.map(|s| {
                format!(
                    "elo0={} elo1={} alpha={} beta={}",
                    s.elo0, s.elo1, s.alpha, s.beta
                )
            }),
        }
    }

    /// The schedule of this tournament.
    pub fn schedule(&self) -> Result<Schedule, String> {
        let format = clap::ValueEnum::from_str(&self.format, false)
            .map_err(|_| format!("unknown pairing '{}'", self.format))?;
        Ok(Schedule::new(self.engines.len(), format, self.games))
    }

    /// The SPRT, if the tournament has one.
    pub fn sprt(&self) -> Result<Option<Sprt>, String> {
        self.sprt
            .as_deref()
            .map(|text| Sprt::parse(&text.split(' ').map(String::from).collect::<Vec<_>>()))
            .transpose()
    }
}

/// The name of a pairing format, as `--format` spells it.
fn format_name(format: crate::arbiter::schedule::Format) -> String {
    clap::ValueEnum::to_possible_value(&format)
        .expect("every format has a name")
        .get_name()
        .to_string()
}

/// The 64-bit FNV-1a hash: stable across builds and machines, unlike the standard hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Slice `index` (from 1) of `count`: the game pairs whose number, counted from 0 over the
/// whole schedule, leaves remainder `index - 1` when divided by `count`. Both games of a pair
/// are in the same slice, so each slice's pairs are whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl Shard {
    /// True when game `id` (from 1) belongs to this slice.
    pub fn has(self, id: usize) -> bool {
        (id - 1) / 2 % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard '{text}': expected K/N with 1 <= K <= N, such as 2/8");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_pairs_and_nothing_else() {
        let shards: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        for id in 1..=20 {
            let owners = shards.iter().filter(|s| s.has(id)).count();
            assert_eq!(owners, 1, "game {id}");
        }
        assert!(shards[0].has(1) && shards[0].has(2) && shards[1].has(3) && shards[0].has(7));
        for bad in ["0/3", "4/3", "1/0", "x", "1-3", "/3", "2/"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_fingerprint_hash_is_fnv1a() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
