//! `konane-arbiter merge`: the results files of one tournament's shards read as one run.

use crate::arbiter::record::GameRecord;
use crate::arbiter::results::read_results;
use crate::arbiter::schedule::Schedule;
use crate::arbiter::standings::Standings;
use crate::arbiter::tournament::TournamentId;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The games of several results files, checked to be one tournament's, each game once.
pub struct Merged {
    /// The tournament they belong to.
    pub identity: TournamentId,
    /// Every game, by number.
    pub records: Vec<GameRecord>,
    /// What the user should know: the files whose torn last line was skipped.
    pub warnings: Vec<String>,
}

/// Reads and checks the results files at `paths`: every game must name the same tournament,
/// fit its schedule (number, engines, shard) and appear only once.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, String> {
    // The tournament of the first game, where it was found, and its schedule.
    let mut identity: Option<(TournamentId, &Path, Schedule)> = None;
    let mut seen: HashMap<usize, &Path> = HashMap::new();
    let mut records = Vec::new();
    let mut warnings = Vec::new();
    for path in paths {
        // A missing shard is not an empty one: the merge would quietly count fewer games.
        if let Err(e) = std::fs::metadata(path) {
            return Err(format!("{}: {e}", path.display()));
        }
        let file = read_results(path)?;
        if file.torn_last_line {
            warnings.push(format!(
                "{}: its torn last line (a game being written when the shard stopped) was skipped; --resume that shard to play it again",
                path.display()
            ));
        }
        for record in file.records {
            let place = format!("{}: game {}", path.display(), record.id);
            let Some(id) = &record.tournament else {
                return Err(format!(
                    "{place} names no tournament (it was written by `play` or by an older konane-arbiter), so it cannot be merged"
                ));
            };
            match &identity {
                None => identity = Some((id.clone(), path, id.schedule()?)),
                Some((known, first, _)) if known != id => {
                    return Err(format!(
                        "{} and {} hold games of different tournaments (fingerprints {} and {}): the engines, their options, --games, --seed, openings, rules or time control differ",
                        first.display(),
                        path.display(),
                        known.fingerprint,
                        id.fingerprint
                    ));
                }
                Some(_) => {}
            }
            let schedule = &identity.as_ref().expect("set above").2;
            check_place(&record, id, schedule).map_err(|why| format!("{place} {why}"))?;
            if let Some(other) = seen.insert(record.id, path) {
                return Err(format!(
                    "game {} is both in {} and in {}: was a shard given twice, or played twice?",
                    record.id,
                    other.display(),
                    path.display()
                ));
            }
            records.push(record);
        }
    }
    let (identity, _, _) = identity.ok_or("the files hold no games")?;
    records.sort_by_key(|record| record.id);
    Ok(Merged {
        identity,
        records,
        warnings,
    })
}

/// Why `record` cannot be game `record.id` of tournament `id`, whose schedule is `schedule`,
/// if it cannot.
fn check_place(record: &GameRecord, id: &TournamentId, schedule: &Schedule) -> Result<(), String> {
    if record.id == 0 || record.id > schedule.total() {
        return Err(format!(
            "is beyond the tournament's {} games",
            schedule.total()
        ));
    }
    let (black, white) = schedule.colours(schedule.job(record.id));
    if (&record.black, &record.white) != (&id.engines[black], &id.engines[white]) {
        return Err(format!(
            "has {} (Black) against {} (White), but the schedule has {} against {}",
            record.black, record.white, id.engines[black], id.engines[white]
        ));
    }
    if let Some(shard) = record.shard
        && !shard.has(record.id)
    {
        return Err(format!("is not part of shard {shard}, which played it"));
    }
    Ok(())
}

impl Merged {
    /// What was merged, then the standings and the SPRT as one run would print them.
    pub fn report(&self, files: usize) -> Result<String, String> {
        let schedule = self.identity.schedule()?;
        let mut standings = Standings::new(self.identity.engines.clone(), schedule.pairings.len());
        let mut shards: BTreeMap<String, usize> = BTreeMap::new();
        for record in &self.records {
            standings.add(&schedule, record);
            let shard = record
                .shard
                .map_or("unsharded".to_string(), |s| s.to_string());
            *shards.entry(shard).or_default() += 1;
        }
        let parts: Vec<String> = shards
            .iter()
            .map(|(shard, games)| format!("{shard}: {games}"))
            .collect();
        let mut text = format!(
            "Merged {} of {} games from {files} file{} (tournament {}; games by shard: {}).\n",
            self.records.len(),
            schedule.total(),
            if files == 1 { "" } else { "s" },
            self.identity.fingerprint,
            parts.join(", ")
        );
        text += &standings.table(&schedule, self.identity.sprt()?.as_ref());
        Ok(text)
    }
}
