//! Saving the proof table to a file and loading it back, at its size or another: its main
//! level and, where the proof-number search made one, its numbers of unproven positions.
//!
//! The file is one header line naming the rules, the number of buckets of the main level and
//! of the numbers and whether the numbers mark every proof (`marks all`, else `marks some`),
//! then every entry of the main level as eight little-endian bytes, empty ones included, then
//! every word of the numbers the same way. Files of the first version, before the numbers were
//! saved, and of the second, before proofs were marked in them, load as before, their proofs
//! taken as unmarked. Builds before the third refuse its files: they would read a mark as
//! numbers.

use super::level::{DATA_BITS, ENTRY_BYTES, KEY_MASK, Level, MIN_BUCKETS, WAYS};
use crate::rules::Rules;
use crate::solve::numbers::{BUCKET_BYTES, NumberTable};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The first words of a saved table's header line, before its version.
const SAVED_MAGIC: &str = "konane proof table";
/// The version written: 3 says whether the numbers mark every proof; 2 (the numbers, never a
/// mark) and 1 (the main level only) are still read.
const SAVED_VERSION: u32 = 3;
/// Words read or written at a time.
const CHUNK_WORDS: usize = 1 << 16;

/// Writes `main` and `numbers` (which mark each proof of `main` if `marked`) to `path` (whole
/// or not at all: into a temporary file, then renamed), headed by `rules`, whose positions they
/// hold.
pub(super) fn save(
    main: &Level,
    numbers: Option<&NumberTable>,
    marked: bool,
    path: &Path,
    rules: Rules,
) -> Result<(), String> {
    let fail =
        |e: std::io::Error| format!("cannot save the proof table to {}: {e}", path.display());
    let temporary = path.with_extension(format!("tmp{}", std::process::id()));
    let file = std::fs::File::create(&temporary).map_err(fail)?;
    let mut out = BufWriter::with_capacity(1 << 22, file);
    let number_buckets = numbers.map_or(0, NumberTable::buckets);
    let marks = if marked { "all" } else { "some" };
    writeln!(
        out,
        "{SAVED_MAGIC} {SAVED_VERSION} {rules} buckets {} numbers {number_buckets} marks {marks} \
         little-endian",
        main.bucket_mask + 1
    )
    .map_err(fail)?;
    let number_words = numbers.map_or(&[][..], NumberTable::words);
    for chunk in main
        .entries()
        .chunks(CHUNK_WORDS)
        .chain(number_words.chunks(CHUNK_WORDS))
    {
        let bytes: Vec<u8> = chunk
            .iter()
            .flat_map(|word| word.load(Ordering::Relaxed).to_le_bytes())
            .collect();
        out.write_all(&bytes).map_err(fail)?;
    }
    out.into_inner()
        .map_err(|e| fail(e.into_error()))?
        .sync_all()
        .map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)
}

/// The main level and numbers saved in `path` by [`save`], which must hold positions of
/// `rules`: the level of the saved size, or of `megabytes` MB when given, its results moved to
/// their buckets in the new size (into a smaller level, the ones that cost the most work where
/// buckets overflow). The numbers come back only beside a level of the saved size (their
/// buckets cannot be placed anew: an entry keeps half its position's hash); they only steer
/// the search, so a solve without them is as right, only slower to resume. With them comes
/// whether they mark every proof of the level; without them, none is marked.
pub(super) fn load(
    path: &Path,
    rules: Rules,
    megabytes: Option<usize>,
) -> Result<(Level, Option<NumberTable>, bool), String> {
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
    let Header {
        buckets,
        number_buckets,
        marked,
    } = read_header(&header, rules).ok_or_else(|| {
        fail(format!(
            "it is not a saved table of {rules} (its header is '{}')",
            header.trim_end()
        ))
    })?;
    let bytes = buckets * WAYS * ENTRY_BYTES;
    let number_bytes = number_buckets * BUCKET_BYTES;
    if length != (header.len() + bytes + number_bytes) as u64 {
        return Err(fail(format!(
            "it has {length} bytes, not the {} its header promises (cut short?)",
            header.len() + bytes + number_bytes
        )));
    }
    let table = Level::new(megabytes.unwrap_or(bytes >> 20))?;
    let mut chunk = vec![0u64; CHUNK_WORDS];
    // The bucket index holds the mixed key's low bits, at least DATA_BITS of them, and the
    // entry the rest: together the whole mixed key, to place anew in a level of another size.
    let low_bits = (1u64 << DATA_BITS) - 1;
    let same_size = table.bytes() == bytes;
    for first in (0..buckets * WAYS).step_by(CHUNK_WORDS) {
        read_words(&mut input, &mut chunk).map_err(|e| fail(e.to_string()))?;
        for (i, &entry) in chunk.iter().enumerate().filter(|(_, entry)| **entry != 0) {
            if same_size {
                table.entries()[first + i].store(entry, Ordering::Relaxed);
            } else {
                let bucket = ((first + i) / WAYS) as u64;
                table.place((entry & KEY_MASK) | (bucket & low_bits), entry);
            }
        }
    }
    let numbers = NumberTable::beside(table.bytes());
    if number_buckets == 0 || numbers.buckets() != number_buckets {
        return Ok((table, None, false));
    }
    fill(numbers.words(), &mut input, &mut chunk).map_err(|e| fail(e.to_string()))?;
    Ok((table, Some(numbers), marked))
}

/// Reads the next `words.len()` little-endian words of `input` into `words`.
fn read_words(input: &mut impl Read, words: &mut [u64]) -> std::io::Result<()> {
    let mut bytes = vec![0u8; words.len() * ENTRY_BYTES];
    input.read_exact(&mut bytes)?;
    for (word, le) in words.iter_mut().zip(bytes.chunks_exact(ENTRY_BYTES)) {
        *word = u64::from_le_bytes(le.try_into().expect("a word is eight bytes"));
    }
    Ok(())
}

/// Copies the words that follow in `input` into `words`, a chunk at a time through `chunk`,
/// storing only those that are not zero (so that the table's untouched memory stays free).
fn fill(words: &[AtomicU64], input: &mut impl Read, chunk: &mut [u64]) -> std::io::Result<()> {
    for block in words.chunks(chunk.len()) {
        let chunk = &mut chunk[..block.len()];
        read_words(input, chunk)?;
        for (word, &value) in block.iter().zip(chunk.iter()) {
            if value != 0 {
                word.store(value, Ordering::Relaxed);
            }
        }
    }
    Ok(())
}

/// What a saved table's header line promises.
struct Header {
    /// Buckets of the main level.
    buckets: usize,
    /// Buckets of the numbers: none when the file has none.
    number_buckets: usize,
    /// True when the numbers mark every proof of the main level.
    marked: bool,
}

/// What a saved table's `header` line promises, if it is a table of `rules`, of any version.
fn read_header(header: &str, rules: Rules) -> Option<Header> {
    let rest = header.strip_prefix(SAVED_MAGIC)?.trim_end();
    let (version, rest) = rest.trim_start().split_once(' ')?;
    let rest = rest
        .strip_prefix(&format!("{rules} buckets "))?
        .strip_suffix(" little-endian")?;
    let (buckets, numbers, marked) = match version {
        "1" => (rest, "0", false),
        "2" => rest
            .split_once(" numbers ")
            .map(|(buckets, numbers)| (buckets, numbers, false))?,
        "3" => {
            let (buckets, rest) = rest.split_once(" numbers ")?;
            let (numbers, marks) = rest.split_once(" marks ")?;
            let marked = match marks {
                "all" => true,
                "some" => false,
                _ => return None,
            };
            (buckets, numbers, marked)
        }
        _ => return None,
    };
    let buckets = buckets.parse::<usize>().ok()?;
    let number_buckets = numbers.parse::<usize>().ok()?;
    let power = |count: usize| count == 0 || count.is_power_of_two();
    (buckets.is_power_of_two() && buckets >= MIN_BUCKETS && power(number_buckets)).then_some(
        Header {
            buckets,
            number_buckets,
            marked,
        },
    )
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

    #[test]
    fn the_numbers_are_saved_with_the_proofs_and_come_back_at_their_size() {
        use crate::solve::numbers::Numbers;
        let rules = Rules::new(
            3,
            12,
            crate::rules::Opening::Any,
            crate::rules::Capture::Straight,
        )
        .unwrap();
        let dir = std::env::temp_dir().join(format!("konane-numbers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("narrow.table");
        let proof = Proof {
            wins: true,
            plies: 9,
        };
        let numbers = |i: u64| Numbers {
            phi: 10 + i as u32,
            delta: 7,
        };
        let code = |i: u64| i.wrapping_mul(0x2545_f491_4f6c_dd1d);
        // 32 MB of proofs, 16 MB of numbers beside them, with a mark for the one proof.
        let table = ProofTable::new(32).unwrap();
        table.store_marked(key(99), code(1000), proof, 5);
        for i in 0..500 {
            table.numbers().put(code(i), numbers(i), i + 1);
        }
        table.save(&path, rules).unwrap();
        let loaded = ProofTable::load(&path, rules, None).unwrap();
        assert_eq!(loaded.numbers_held(), 500, "the mark aside");
        assert!((0..500).all(|i| loaded.numbers().get(code(i)) == Some(numbers(i))));
        assert_eq!(loaded.numbers().get(code(1000)), Some(Numbers::PROVEN));
        assert_eq!(loaded.probe(key(99)), Some(proof));
        assert!(loaded.marks_every_proof());
        // Beside 64 MB of proofs the numbers would have 32 MB, where they cannot be placed.
        let larger = ProofTable::load(&path, rules, Some(64)).unwrap();
        assert_eq!(larger.numbers_held(), 0);
        assert_eq!(larger.probe(key(99)), Some(proof), "the proofs still are");
        assert!(!larger.marks_every_proof(), "without their marks");
        // Under the header of the second version, before the marks, the numbers load the
        // same and the proofs count as unmarked.
        let bytes = std::fs::read(&path).unwrap();
        let end = bytes.iter().position(|&b| b == b'\n').unwrap();
        let header = String::from_utf8(bytes[..end].to_vec()).unwrap();
        let second = header.replace(" 3 ", " 2 ").replace(" marks all", "");
        assert_eq!(
            header,
            format!(
                "konane proof table 3 {rules} buckets {} numbers {} marks all little-endian",
                1 << 20,
                1 << 18
            )
        );
        std::fs::write(&path, [second.as_bytes(), &bytes[end..]].concat()).unwrap();
        let older = ProofTable::load(&path, rules, None).unwrap();
        assert_eq!(older.numbers_held(), 500);
        assert!(!older.marks_every_proof());
        // Cut short in its numbers, the file is refused.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 8]).unwrap();
        let error = ProofTable::load(&path, rules, None).err().unwrap();
        assert!(error.contains("cut short?"), "{error}");
        // A table no proof-number search used saves no numbers, and its depth-first proofs no
        // marks; with the header of the first version, before numbers were saved, it loads the
        // same.
        let plain = ProofTable::new(2).unwrap();
        plain.store(key(99), proof, 5);
        plain.save(&path, rules).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let end = bytes.iter().position(|&b| b == b'\n').unwrap();
        let header = String::from_utf8(bytes[..end].to_vec()).unwrap();
        let buckets = 1 << 16;
        assert_eq!(
            header,
            format!(
                "konane proof table 3 {rules} buckets {buckets} numbers 0 marks some little-endian"
            )
        );
        let first = format!("konane proof table 1 {rules} buckets {buckets} little-endian");
        std::fs::write(&path, [first.as_bytes(), &bytes[end..]].concat()).unwrap();
        let old = ProofTable::load(&path, rules, None).unwrap();
        assert_eq!(old.probe(key(99)), Some(proof));
        assert_eq!(old.numbers_held(), 0);
        assert!(
            old.numbers.get().is_none(),
            "made only when a search needs them"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
