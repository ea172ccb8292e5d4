//! Saving a level of the proof table to a file and loading it back, at its size or another.
//!
//! The file is one header line naming the rules and the number of buckets, then every entry
//! as eight little-endian bytes, empty ones included.

use super::level::{DATA_BITS, ENTRY_BYTES, KEY_MASK, Level, MIN_BUCKETS, WAYS};
use crate::rules::Rules;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::Ordering;

/// The first words of a saved table's header line.
const SAVED_MAGIC: &str = "konane proof table 1";

impl Level {
    /// Writes the level to `path` (whole or not at all: into a temporary file, then renamed),
    /// headed by `rules`, whose positions it holds.
    pub fn save(&self, path: &Path, rules: Rules) -> Result<(), String> {
        let fail =
            |e: std::io::Error| format!("cannot save the proof table to {}: {e}", path.display());
        let temporary = path.with_extension(format!("tmp{}", std::process::id()));
        let file = std::fs::File::create(&temporary).map_err(fail)?;
        let mut out = BufWriter::with_capacity(1 << 22, file);
        writeln!(
            out,
            "{SAVED_MAGIC} {rules} buckets {} little-endian",
            self.bucket_mask + 1
        )
        .map_err(fail)?;
        for chunk in self.entries().chunks(1 << 16) {
            let bytes: Vec<u8> = chunk
                .iter()
                .flat_map(|entry| entry.load(Ordering::Relaxed).to_le_bytes())
                .collect();
            out.write_all(&bytes).map_err(fail)?;
        }
        out.into_inner()
            .map_err(|e| fail(e.into_error()))?
            .sync_all()
            .map_err(fail)?;
        std::fs::rename(&temporary, path).map_err(fail)
    }

    /// The level saved in `path` by [`Level::save`], which must hold positions of `rules`: of
    /// the saved size, or of `megabytes` MB when given, its results moved to their buckets in
    /// the new size (into a smaller level, the ones that cost the most work where buckets
    /// overflow).
    pub fn load(path: &Path, rules: Rules, megabytes: Option<usize>) -> Result<Level, String> {
        let fail = |why: String| format!("cannot load the proof table {}: {why}", path.display());
        let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
        let length = file.metadata().map_err(|e| fail(e.to_string()))?.len();
        let mut input = BufReader::with_capacity(1 << 22, file);
        let mut header = String::new();
        input
            .by_ref()
            .take(200)
            .read_line(&mut header)
            .map_err(|e| fail(e.to_string()))?;
        let expected = format!("{SAVED_MAGIC} {rules} buckets ");
        let buckets = header
            .strip_prefix(&expected)
            .and_then(|rest| rest.trim_end().strip_suffix(" little-endian"))
            .and_then(|count| count.parse::<usize>().ok())
            .filter(|count| count.is_power_of_two() && *count >= MIN_BUCKETS)
            .ok_or_else(|| {
                fail(format!(
                    "it is not a saved table of {rules} (its header is '{}')",
                    header.trim_end()
                ))
            })?;
        let bytes = buckets * WAYS * ENTRY_BYTES;
        if length != (header.len() + bytes) as u64 {
            return Err(fail(format!(
                "it has {length} bytes, not the {} its header promises (cut short?)",
                header.len() + bytes
            )));
        }
        let mut table = Level::new(megabytes.unwrap_or(bytes >> 20))?;
        if table.bytes() == bytes {
            input
                .read_exact(table.words.bytes_mut())
                .map_err(|e| fail(e.to_string()))?;
            if cfg!(target_endian = "big") {
                for entry in table.entries() {
                    entry.store(
                        u64::from_le(entry.load(Ordering::Relaxed)),
                        Ordering::Relaxed,
                    );
                }
            }
        } else {
            // The bucket index holds the mixed key's low bits, at least DATA_BITS of them,
            // and the entry the rest: together the whole mixed key, to place anew.
            let low_bits = (1u64 << DATA_BITS) - 1;
            let mut chunk = vec![0u8; ENTRY_BYTES << 16];
            for first in (0..buckets * WAYS).step_by(1 << 16) {
                input
                    .read_exact(&mut chunk)
                    .map_err(|e| fail(e.to_string()))?;
                for (i, word) in chunk.chunks_exact(ENTRY_BYTES).enumerate() {
                    let entry =
                        u64::from_le_bytes(word.try_into().expect("an entry is eight bytes"));
                    if entry != 0 {
                        let bucket = ((first + i) / WAYS) as u64;
                        table.place((entry & KEY_MASK) | (bucket & low_bits), entry);
                    }
                }
            }
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Proof, ProofTable};
    use super::*;

    fn key(code: u64) -> super::super::Key {
        super::super::Key { code, stones: 40 }
    }

    #[test]
    fn a_saved_table_loads_with_its_results_and_only_for_its_rules() {
        let rules = Rules::new(
            6,
            8,
            crate::rules::Opening::Traditional,
            crate::rules::Capture::Straight,
        )
        .unwrap();
        let table = ProofTable::new(2).unwrap();
        let proof = Proof {
            wins: false,
            plies: 33,
        };
        for k in 0..1000u64 {
            table.store(key(k * 7919), proof, k);
        }
        let dir = std::env::temp_dir().join(format!("konane-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("six-by-eight.table");
        table.save(&path, rules).unwrap();
        for megabytes in [None, Some(2), Some(4), Some(1)] {
            let loaded = ProofTable::load(&path, rules, megabytes).unwrap();
            assert_eq!(loaded.bytes(), megabytes.unwrap_or(2) << 20);
            assert_eq!(loaded.stored(), 1000, "{megabytes:?}");
            assert!((0..1000u64).all(|k| loaded.probe(key(k * 7919)) == Some(proof)));
            assert_eq!(loaded.probe(key(1)), None);
        }
        // Shrunk below what it holds, a table keeps a result for every key or none, never a
        // wrong one, and keeps the costlier ones.
        let full = ProofTable::new(2).unwrap();
        let entries = full.bytes() / ENTRY_BYTES;
        let result = |key: u64| Proof {
            wins: key.is_multiple_of(3),
            plies: (key % 200) as u8,
        };
        for k in 0..entries as u64 {
            full.store(key(k), result(k), k);
        }
        full.save(&path, rules).unwrap();
        let small = ProofTable::load(&path, rules, Some(1)).unwrap();
        let kept: Vec<u64> = (0..entries as u64)
            .filter(|&k| small.probe(key(k)).is_some())
            .collect();
        assert!(
            kept.iter().all(|&k| small.probe(key(k)) == Some(result(k))),
            "a wrong result"
        );
        assert_eq!(small.stored(), kept.len() as u64);
        assert!(kept.len() > entries / 3, "{} of {entries} kept", kept.len());
        let cheap = kept.iter().filter(|&&k| k < entries as u64 / 2).count();
        assert!(
            cheap * 2 < kept.len(),
            "{cheap} of {} kept cost least",
            kept.len()
        );
        let other = Rules::new(
            8,
            6,
            crate::rules::Opening::Traditional,
            crate::rules::Capture::Straight,
        )
        .unwrap();
        let error = ProofTable::load(&path, other, None).err().unwrap();
        assert!(error.contains("it is not a saved table of 8x6"), "{error}");
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 8]).unwrap();
        let error = ProofTable::load(&path, rules, None).err().unwrap();
        assert!(error.contains("cut short?"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
