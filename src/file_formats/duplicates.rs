//! Finding a second observation of the same cell (region, unit, dimensions, period) in a file of
//! any size, in bounded memory: importing either would silently pick one. Each row leaves a
//! 64-bit fingerprint of its cell and its ordinal; fingerprints are sorted in runs of at most the
//! memory given, runs past the first are spilled to disk, and one merge finds equal
//! fingerprints. Equal fingerprints are only candidates: the caller compares the rows themselves
//! ([`confirm`]), so a collision of fingerprints never refuses a file (and could hide a duplicate
//! only if two other cells shared its fingerprint, see [`Duplicates::candidates`]).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::hash::{BuildHasher, RandomState};
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

use super::parsing::{FormatError, MAX_PROBLEMS, Problems};
use crate::dataset_file::RawObservation;
use crate::error_text::shown;

/// One row: its cell's fingerprint, then its ordinal in the file (0-based, in reading order).
type Entry = (u64, u64);

const ENTRY_BYTES: usize = 16;

/// The fewest entries a run holds, whatever memory is given: smaller runs only cost files.
const MIN_RUN: usize = 4096;

pub struct Duplicates {
    hasher: RandomState,
    run: Vec<Entry>,
    capacity: usize,
    spilled: Vec<File>,
    spill_dir: PathBuf,
    rows: u64,
}

/// Rows that may observe the same cell: (ordinal of the first, ordinal of a later one), the
/// [`MAX_PROBLEMS`] earliest later ones, and how many more there are.
#[derive(Debug, Default)]
pub struct Candidates {
    pub pairs: Vec<(u64, u64)>,
    pub more: usize,
}

fn cell(row: &RawObservation) -> (&str, &str, &[String], &str) {
    (&row.region, &row.unit, &row.dim_values, &row.period)
}

impl Duplicates {
    /// Holds at most `memory` bytes of fingerprints; runs beyond go to unnamed files in
    /// `spill_dir`, which disappear when closed.
    pub fn new(memory: usize, spill_dir: &Path) -> Self {
        Duplicates {
            hasher: RandomState::new(),
            run: Vec::new(),
            capacity: (memory / ENTRY_BYTES).max(MIN_RUN),
            spilled: Vec::new(),
            spill_dir: spill_dir.to_path_buf(),
            rows: 0,
        }
    }

    /// Notes the next row of the file.
    pub fn add(&mut self, row: &RawObservation) -> io::Result<()> {
        if self.run.len() == self.capacity {
            self.spill()?;
        }
        if self.run.len() == self.run.capacity() {
            // Grown by doubling, but never past the bound.
            let more = self
                .run
                .len()
                .max(MIN_RUN)
                .min(self.capacity - self.run.len());
            self.run.reserve_exact(more);
        }
        self.run.push((self.hasher.hash_one(cell(row)), self.rows));
        self.rows += 1;
        Ok(())
    }

    fn spill(&mut self) -> io::Result<()> {
        self.run.sort_unstable();
        let run = std::mem::take(&mut self.run);
        let file = write_run(&self.spill_dir, run.into_iter().map(Ok))?;
        self.spilled.push(file);
        // Open files are bounded too: past the bound, the runs so far become one.
        if self.spilled.len() == MAX_OPEN_RUNS {
            let runs = std::mem::take(&mut self.spilled);
            let merged = write_run(&self.spill_dir, Merged::new(runs_of(Vec::new(), runs))?)?;
            self.spilled.push(merged);
        }
        Ok(())
    }

    /// Pairs of rows with the same fingerprint, as (earlier, later): each later row with the
    /// first of its fingerprint and with the one before it, so a real duplicate is missed only
    /// when two other cells share its fingerprint too (about 2^-128 a row).
    pub fn candidates(mut self) -> io::Result<Candidates> {
        self.run.sort_unstable();
        let runs = runs_of(
            std::mem::take(&mut self.run),
            std::mem::take(&mut self.spilled),
        );
        // The earliest later rows are kept: a max-heap of at most MAX_PROBLEMS pairs.
        let mut kept: BinaryHeap<(u64, u64)> = BinaryHeap::new();
        let mut found = 0usize;
        let mut keep = |later: u64, earlier: u64| {
            found += 1;
            kept.push((later, earlier));
            if kept.len() > MAX_PROBLEMS {
                kept.pop();
            }
        };
        // The fingerprint being read, its first row and the row before.
        let mut group: Option<(u64, u64, u64)> = None;
        for entry in Merged::new(runs)? {
            let (fingerprint, ordinal) = entry?;
            match &mut group {
                // Within a group ordinals come in increasing order.
                Some((f, first, previous)) if *f == fingerprint => {
                    keep(ordinal, *first);
                    if previous != first {
                        keep(ordinal, *previous);
                    }
                    *previous = ordinal;
                }
                _ => group = Some((fingerprint, ordinal, ordinal)),
            }
        }
        let mut pairs: Vec<(u64, u64)> = kept
            .into_iter()
            .map(|(later, earlier)| (earlier, later))
            .collect();
        pairs.sort_unstable_by_key(|&(earlier, later)| (later, earlier));
        Ok(Candidates {
            more: found - pairs.len(),
            pairs,
        })
    }
}

/// Most spilled runs open at once.
const MAX_OPEN_RUNS: usize = 64;

type Run = Box<dyn Iterator<Item = io::Result<Entry>>>;

/// The run in memory and the spilled ones, each in order.
fn runs_of(in_memory: Vec<Entry>, spilled: Vec<File>) -> Vec<Run> {
    let mut runs: Vec<Run> = vec![Box::new(in_memory.into_iter().map(Ok))];
    for file in spilled {
        runs.push(Box::new(SpilledRun(BufReader::new(file))));
    }
    runs
}

/// A run written to an unnamed file in `dir`, read back from its start.
fn write_run(dir: &Path, entries: impl Iterator<Item = io::Result<Entry>>) -> io::Result<File> {
    let mut file = BufWriter::new(tempfile::tempfile_in(dir)?);
    for entry in entries {
        let (fingerprint, ordinal) = entry?;
        file.write_all(&fingerprint.to_le_bytes())?;
        file.write_all(&ordinal.to_le_bytes())?;
    }
    let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.rewind()?;
    Ok(file)
}

/// Sorted runs read as one sorted sequence.
struct Merged {
    runs: Vec<Run>,
    heap: BinaryHeap<Reverse<(Entry, usize)>>,
}

impl Merged {
    fn new(mut runs: Vec<Run>) -> io::Result<Merged> {
        let mut heap = BinaryHeap::new();
        for (i, run) in runs.iter_mut().enumerate() {
            if let Some(entry) = run.next().transpose()? {
                heap.push(Reverse((entry, i)));
            }
        }
        Ok(Merged { runs, heap })
    }
}

impl Iterator for Merged {
    type Item = io::Result<Entry>;

    fn next(&mut self) -> Option<io::Result<Entry>> {
        let Reverse((entry, i)) = self.heap.pop()?;
        match self.runs[i].next().transpose() {
            Ok(Some(next)) => self.heap.push(Reverse((next, i))),
            Ok(None) => {}
            Err(e) => return Some(Err(e)),
        }
        Some(Ok(entry))
    }
}

struct SpilledRun(BufReader<File>);

impl Iterator for SpilledRun {
    type Item = io::Result<Entry>;

    fn next(&mut self) -> Option<io::Result<Entry>> {
        let mut bytes = [0u8; ENTRY_BYTES];
        match self.0.read_exact(&mut bytes) {
            Ok(()) => {
                let half = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
                Some(Ok((half(&bytes[..8]), half(&bytes[8..]))))
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => None,
            Err(e) => Some(Err(e)),
        }
    }
}

/// The duplicates among `candidates`, given the rows they name by ordinal with the line each
/// was read on; `None` when every candidate was a collision of fingerprints.
pub fn confirm(
    file: &str,
    candidates: &Candidates,
    rows: &HashMap<u64, (u64, RawObservation)>,
) -> Option<FormatError> {
    let mut problems = Problems::new(file);
    for (first, later) in &candidates.pairs {
        let (Some((first_line, first)), Some((line, row))) = (rows.get(first), rows.get(later))
        else {
            continue;
        };
        if cell(first) == cell(row) {
            let mut what = vec![&row.region, &row.period, &row.unit];
            what.extend(&row.dim_values);
            let what: Vec<_> = what.into_iter().map(|w| shown(w)).collect();
            problems.add(
                *line,
                format!(
                    "duplicate observation for {} (first seen on line {first_line})",
                    what.join(" ")
                ),
            );
        }
    }
    let mut error = problems.into_result().err()?;
    error.not_listed += candidates.more;
    Some(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(region: &str, period: &str) -> RawObservation {
        RawObservation {
            region: region.into(),
            period: period.into(),
            unit: "NR".into(),
            dim_values: vec!["T".into()],
            value_text: "1".into(),
            value: Some(1.0),
            flags: String::new(),
            conf_status: String::new(),
            src_line: 1,
        }
    }

    /// Runs spilled to disk and merged find the same pairs as one run in memory.
    #[test]
    fn spilled_runs_find_every_duplicate() {
        let dir = tempfile::tempdir().unwrap();
        let rows: Vec<RawObservation> = (0..20_000)
            .map(|i| row(&format!("R{}", i % 15_000), "2020"))
            .collect();
        for memory in [0, usize::MAX / 2] {
            let mut duplicates = Duplicates::new(memory, dir.path());
            for r in &rows {
                duplicates.add(r).unwrap();
            }
            let spilled = duplicates.spilled.len();
            assert_eq!(spilled > 0, memory == 0);
            let found = duplicates.candidates().unwrap();
            assert_eq!(found.pairs.len() + found.more, 5_000, "memory {memory}");
            // The earliest later rows are listed, each with its first.
            let want: Vec<(u64, u64)> = (15_000..15_000 + MAX_PROBLEMS as u64)
                .map(|later| (later - 15_000, later))
                .collect();
            assert_eq!(found.pairs, want);
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// Past [`MAX_OPEN_RUNS`] spilled runs, the runs so far are merged into one, and nothing is
    /// lost on the way.
    #[test]
    fn runs_past_the_open_files_bound_are_merged_on_the_way() {
        let dir = tempfile::tempdir().unwrap();
        let mut duplicates = Duplicates::new(0, dir.path());
        let rows = MIN_RUN * (MAX_OPEN_RUNS + 8);
        let repeat_from = rows - 1000;
        for i in 0..rows {
            let cell = if i < repeat_from { i } else { i - repeat_from };
            duplicates.add(&row(&format!("R{cell}"), "2020")).unwrap();
        }
        assert!(duplicates.spilled.len() < MAX_OPEN_RUNS);
        let found = duplicates.candidates().unwrap();
        assert_eq!(found.pairs.len() + found.more, 1000);
        assert_eq!(found.pairs[0], (0, repeat_from as u64));
    }

    #[test]
    fn confirmed_only_when_the_cells_are_the_same() {
        let candidates = Candidates {
            pairs: vec![(0, 1), (2, 3)],
            more: 0,
        };
        let rows = HashMap::from([
            (0, (2, row("AT", "2020"))),
            (1, (5, row("AT", "2020"))),
            (2, (6, row("AT", "2021"))),
            // A collision of fingerprints: another cell.
            (3, (7, row("BE", "2021"))),
        ]);
        let e = confirm("f", &candidates, &rows).unwrap();
        assert_eq!(
            (e.line, e.reason.as_str(), e.further.len()),
            (
                5,
                "duplicate observation for AT 2020 NR T (first seen on line 2)",
                0
            )
        );
        let collision = Candidates {
            pairs: vec![(2, 3)],
            more: 0,
        };
        assert!(confirm("f", &collision, &rows).is_none());
    }
}
