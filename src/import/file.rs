//! One file imported in two readings, so that its memory is bounded whatever its size and a
//! malformed file still writes nothing: the first reading checks it whole (every problem,
//! duplicates included) and sums up what its rows hold; the second writes its rows as they are
//! read, inside the caller's transaction. The file is hashed both times: one that changed in
//! between is refused.

use std::cell::{Cell, RefCell};
use std::io::{self, Read};

use sha2::{Digest, Sha256};

use super::meta::Summary;
use crate::file_formats::{self, Accept, Defaults, FileEnd, ReadError, Room};
use crate::runtime::progress::Progress;
use crate::store::import::{Begun, DatasetMeta, FileOrigin, ImportOutcome, SnapshotWriter};
use crate::store::sql::Db;

/// Opens the file's bytes from the start, each time it is called.
pub type Open<'a> = dyn Fn() -> io::Result<Box<dyn Read + 'a>> + 'a;

/// A file to import: how to read it, the name its errors give, and the name stored (and shown
/// in citations).
pub struct Input<'a> {
    pub shown: &'a str,
    pub stored: &'a str,
    pub open: &'a Open<'a>,
    pub accept: Accept,
    pub defaults: Defaults<'a>,
    /// The file is the whole dataset as its publisher has it now (a Eurostat download): the
    /// dataset's current rows it lacks are withdrawn. Any other file only adds and revises.
    pub whole_dataset: bool,
}

/// What the first reading found: the file is sound, and this is what it holds.
pub struct Checked {
    pub end: FileEnd,
    pub summary: Summary,
    pub sha256: String,
}

/// Reads `input` once, checking it whole.
pub fn check(input: &Input<'_>, room: Room<'_>) -> anyhow::Result<Checked> {
    let sha256 = RefCell::new(Sha256::new());
    let opened = Cell::new(false);
    let hashed = || -> io::Result<Box<dyn Read + '_>> {
        // Only the first stream is hashed: a second one names duplicates, reading the file again.
        let inner = (input.open)()?;
        if opened.replace(true) {
            return Ok(inner);
        }
        Ok(Box::new(Hashed {
            inner,
            sha256: &sha256,
        }))
    };
    let mut summary = Summary::default();
    let end = file_formats::check(
        input.shown,
        &hashed,
        input.accept,
        input.defaults,
        room,
        &mut |_, _, row| {
            summary.add(&row);
            Ok(())
        },
    )?;
    Ok(Checked {
        end,
        summary,
        sha256: crate::ids::hex(&sha256.take().finalize()),
    })
}

/// Reads `input` again and writes its rows, as a snapshot of its dataset from the source row
/// `source_id`, counted on `progress`.
pub fn write(
    tx: &Db<'_>,
    input: &Input<'_>,
    checked: &Checked,
    meta: &DatasetMeta,
    source_id: Option<i64>,
    owner: Option<i64>,
    progress: &mut Progress,
) -> anyhow::Result<ImportOutcome> {
    let header = &checked.end.header;
    let rows = checked.summary.rows;
    let origin = FileOrigin {
        source_id,
        name: input.stored,
        sha256: &checked.sha256,
        whole_dataset: input.whole_dataset,
    };
    let mut writer = match SnapshotWriter::begin(tx, header, meta, &origin, owner, rows)? {
        Begun::Same(outcome) => return Ok(outcome),
        Begun::Writing(writer) => writer,
    };
    progress.start(&meta.code, rows);
    let sha256 = RefCell::new(Sha256::new());
    let stream = Hashed {
        inner: (input.open)()?,
        sha256: &sha256,
    };
    let reread = file_formats::read(
        input.shown,
        stream,
        input.accept,
        input.defaults,
        &mut |_, _, row| {
            progress.row();
            writer.add(&row)
        },
    );
    let changed = "the file changed while it was imported";
    match reread {
        Ok(_) if crate::ids::hex(&sha256.take().finalize()) == checked.sha256 => {}
        Ok(_) => anyhow::bail!("{}: {changed}", input.shown),
        // Read whole once, it cannot be refused the second time unless it changed (or could
        // not be read: the error says which).
        Err(ReadError::Format(e)) => anyhow::bail!("{changed}: {e}"),
        Err(ReadError::Sink(e)) => return Err(e),
    }
    progress.finish();
    writer.finish(meta)
}

/// A stream that hashes what is read through it.
struct Hashed<'h, R> {
    inner: R,
    sha256: &'h RefCell<Sha256>,
}

impl<R: Read> Read for Hashed<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.sha256.borrow_mut().update(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundled::Catalogue;

    /// A file whose bytes differ on the second reading from those checked is refused; read the
    /// same both times, it is written.
    #[test]
    fn a_file_that_changes_between_the_readings_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 1).unwrap();
        let checked_text = "nuts_code,period,value\nDE21,2023,1\n";
        let changed = Cell::new(Some("nuts_code,period,value\nDE21,2023,2\n"));
        let reads = Cell::new(0);
        let open = || -> io::Result<Box<dyn Read>> {
            reads.set(reads.get() + 1);
            let text = match reads.get() {
                1 => checked_text,
                _ => changed.get().unwrap_or(checked_text),
            };
            Ok(Box::new(text.as_bytes()))
        };
        let input = Input {
            shown: "f.csv",
            stored: "f.csv",
            open: &open,
            accept: Accept::Any,
            defaults: Defaults {
                dataset: Some("mine"),
                unit: Some("NR"),
                ..Default::default()
            },
            whole_dataset: false,
        };
        let room = Room {
            memory: 1 << 20,
            spill_dir: dir.path(),
        };
        // Each in a transaction of its own, rolled back.
        let write_once = || {
            let mut conn = store.admin().unwrap();
            let tx = conn.transaction().unwrap();
            reads.set(0);
            let checked = check(&input, room).unwrap();
            let meta = super::super::meta::dataset_meta(
                &Catalogue::bundled(),
                &checked.end,
                &checked.summary,
            );
            write(
                &tx,
                &input,
                &checked,
                &meta,
                None,
                None,
                &mut Progress::hidden(),
            )
        };
        let refused = write_once().unwrap_err();
        assert!(
            format!("{refused:#}").contains("the file changed while it was imported"),
            "{refused:#}"
        );
        changed.set(None);
        assert_eq!(write_once().unwrap().added, 1);
    }

    /// Imports `text` (a tidy CSV) into dataset `whole` in a transaction of its own: the
    /// outcome's counts (added, revised, unchanged, withdrawn) and its new snapshot.
    fn import_text(
        store: &crate::store::Store,
        spill_dir: &std::path::Path,
        text: &str,
        whole_dataset: bool,
    ) -> ((u64, u64, u64, u64), Option<String>) {
        let open = || -> io::Result<Box<dyn Read + '_>> { Ok(Box::new(text.as_bytes())) };
        let input = Input {
            shown: "f.csv",
            stored: "f.csv",
            open: &open,
            accept: Accept::Any,
            defaults: Defaults {
                dataset: Some("whole"),
                unit: Some("NR"),
                ..Default::default()
            },
            whole_dataset,
        };
        let room = Room {
            memory: 1 << 20,
            spill_dir,
        };
        let checked = check(&input, room).unwrap();
        let meta =
            super::super::meta::dataset_meta(&Catalogue::bundled(), &checked.end, &checked.summary);
        let mut conn = store.admin().unwrap();
        let tx = conn.transaction().unwrap();
        let outcome = write(
            &tx,
            &input,
            &checked,
            &meta,
            None,
            None,
            &mut Progress::hidden(),
        )
        .unwrap();
        tx.commit().unwrap();
        let counts = (
            outcome.added,
            outcome.revised,
            outcome.unchanged,
            outcome.withdrawn,
        );
        (counts, outcome.snapshot)
    }

    /// Every moment between imports reads back as it stood: after a random sequence of files
    /// (revisions, flag changes, files that are the whole dataset and withdraw, the same file
    /// again reviving earlier rows), reading as of each moment gives exactly the rows that were
    /// current then, citations included; before the first snapshot the dataset held nothing. On
    /// both backends.
    #[test]
    fn every_moment_between_imports_reads_back_as_it_stood() {
        use crate::store::as_of::{AsOf, Basis};
        crate::store::webhooks::fixtures::on_each_backend(|store| {
            let dir = tempfile::tempdir().unwrap();
            // splitmix64: the same sequence on every run.
            let mut seed = 0x5eed_u64;
            let mut next = move |n: u64| {
                seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = seed;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                (z ^ (z >> 31)) % n
            };
            let regions = ["DE21", "DE22", "AT13"];
            // A few files, each drawn again at random, so that an identical file returns (and
            // revives the rows it wrote) after others.
            let files: Vec<String> = (0..4)
                .map(|_| {
                    let mut text = String::from("nuts_code,period,value,flags\n");
                    for region in regions {
                        for period in ["2021", "2022", "2023"] {
                            if next(5) > 0 {
                                let flag = ["", "p", "e"][next(3) as usize];
                                text += &format!("{region},{period},{},{flag}\n", next(3));
                            }
                        }
                    }
                    text
                })
                .collect();
            type Seen = Vec<Vec<(String, String, String, String)>>;
            // From the database, or (given a public data generation) from the rows in memory.
            let read_from = |at: Option<i64>, memory: Option<i64>| -> Seen {
                let scoped = store.scoped(None).unwrap();
                let scoped = match memory {
                    Some(generation) => scoped.with_public_data_only(generation).unwrap(),
                    None => scoped,
                };
                scoped.read_as_of(at.map(|at_ms| AsOf {
                    at_ms,
                    basis: Basis::Imported,
                    moving: false,
                }));
                let series = scoped
                    .dataset("whole")
                    .unwrap()
                    .map(|d| scoped.series_of(d.id).unwrap()[0].id);
                (regions.iter())
                    .map(|region| match series {
                        None => Vec::new(),
                        Some(series) => (scoped.series_rows(region, series).unwrap().iter())
                            .map(|r| {
                                let id = r.citation_id.as_str().to_owned();
                                (
                                    r.period.to_string(),
                                    r.value_text.to_string(),
                                    r.flags.to_string(),
                                    id,
                                )
                            })
                            .collect(),
                    })
                    .collect()
            };
            let read = |at: Option<i64>| read_from(at, None);
            let mut seen: Vec<(i64, Seen)> = Vec::new();
            let (mut revived, mut withdrawn) = (0, 0);
            for round in 1..=14_i64 {
                let file = &files[next(files.len() as u64) as usize];
                let whole = next(2) == 0;
                let before: Vec<String> = current_citations(store);
                let (counts, snapshot) = import_text(store, dir.path(), file, whole);
                withdrawn += counts.3;
                let after = current_citations(store);
                revived += (after.iter())
                    .filter(|c| !before.contains(c) && was_written_before(store, c, &snapshot))
                    .count();
                // The import's moment, as the test's clock has it: a second per round.
                if let Some(snapshot) = &snapshot {
                    store
                        .admin()
                        .unwrap()
                        .sql()
                        .execute(
                            "UPDATE snapshots SET imported_at = ?1 WHERE public_id = ?2",
                            crate::store::sql::params![round * 1000, snapshot],
                        )
                        .unwrap();
                }
                seen.push((round * 1000, read(None)));
            }
            assert!(
                revived > 0 && withdrawn > 0,
                "the sequence revives and withdraws"
            );
            for (at, rows) in &seen {
                assert_eq!(&read(Some(*at)), rows, "as of {at}");
                assert_eq!(&read(Some(*at + 999)), rows, "as of {at} + 999 ms");
            }
            assert!(read(Some(999)).iter().all(Vec::is_empty));
            // The same from the rows held in memory, each moment's read once and held.
            let generation: i64 = (store.admin().unwrap().sql())
                .query_row(
                    "SELECT value FROM v_data_generation",
                    crate::store::sql::params![],
                    |r| r.get(0),
                )
                .unwrap();
            store.hold_public_data(generation, 64 << 20);
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
            while store
                .held_public_data()
                .is_none_or(|d| d.generation != generation)
            {
                assert!(std::time::Instant::now() < deadline, "public rows not held");
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            let now = current_citations(store);
            for (at, rows) in &seen {
                for _ in 0..2 {
                    assert_eq!(&read_from(Some(*at), Some(generation)), rows, "as of {at}");
                }
                // A citation is known current then exactly when it was.
                let scoped = (store.scoped(None).unwrap())
                    .with_public_data_only(generation)
                    .unwrap();
                scoped.read_as_of(Some(AsOf {
                    at_ms: *at,
                    basis: Basis::Imported,
                    moving: false,
                }));
                let dataset = scoped.dataset("whole").unwrap().unwrap().id;
                let then: Vec<&String> = rows.iter().flatten().map(|r| &r.3).collect();
                for id in then.iter().copied().chain(&now) {
                    let known = scoped.known_current_then(dataset, id).unwrap();
                    assert_eq!(known, then.contains(&id), "{id} as of {at}");
                }
            }
            assert!(store.held_public_data().unwrap().past_bytes > 0);
            let scoped = store.scoped(None).unwrap();
            scoped.read_as_of(Some(AsOf {
                at_ms: 999,
                basis: Basis::Imported,
                moving: false,
            }));
            let dataset = scoped.dataset("whole").unwrap().unwrap();
            assert_eq!(scoped.snapshot_as_of(dataset.id).unwrap(), None);
        });
    }

    /// The citations of the current rows.
    fn current_citations(store: &crate::store::Store) -> Vec<String> {
        (store.admin().unwrap().sql())
            .prepare("SELECT citation_id FROM observations WHERE superseded_by IS NULL")
            .unwrap()
            .query_map(crate::store::sql::params![], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    /// Whether the row of `citation` was written by a snapshot other than `snapshot`.
    fn was_written_before(
        store: &crate::store::Store,
        citation: &str,
        snapshot: &Option<String>,
    ) -> bool {
        let of: String = (store.admin().unwrap().sql())
            .query_row(
                "SELECT s.public_id FROM observations o JOIN snapshots s ON s.id = o.snapshot_id
                 WHERE o.citation_id = ?1",
                crate::store::sql::params![citation],
                |r| r.get(0),
            )
            .unwrap();
        snapshot.as_deref() != Some(of.as_str())
    }

    /// A whole-dataset file withdraws the current rows it lacks, and restores withdrawn ones it
    /// holds again; any other file only adds and revises. On both backends.
    #[test]
    fn a_whole_dataset_file_withdraws_what_it_lacks_and_restores_what_returns() {
        crate::store::webhooks::fixtures::on_each_backend(|store| {
            let dir = tempfile::tempdir().unwrap();
            let import = |text: &str, whole: bool| import_text(store, dir.path(), text, whole);
            let current = || -> Vec<(String, String, String)> {
                let conn = store.admin().unwrap();
                conn.sql()
                    .prepare(
                        "SELECT region_code, period, value_text FROM observations
                         WHERE superseded_by IS NULL ORDER BY region_code, period",
                    )
                    .unwrap()
                    .query_map(crate::store::sql::params![], |r| {
                        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                    })
                    .unwrap()
                    .map(Result::unwrap)
                    .collect()
            };
            let cells = |list: &[(&str, &str, &str)]| -> Vec<(String, String, String)> {
                (list.iter())
                    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
                    .collect()
            };
            const FIRST: &str = "nuts_code,period,value\nDE21,2021,1\nDE21,2022,2\nDE22,2022,3\n";
            assert_eq!(import(FIRST, true).0, (3, 0, 0, 0));
            let (counts, snapshot) =
                import("nuts_code,period,value\nDE21,2021,1\nDE22,2022,4\n", true);
            assert_eq!(counts, (0, 1, 1, 1), "DE21 2022 withdrawn");
            assert_eq!(
                current(),
                cells(&[("DE21", "2021", "1"), ("DE22", "2022", "4")])
            );
            // The withdrawal is a row of the snapshot, with no value, superseding the old row.
            let conn = store.admin().unwrap();
            let (withdrawn, superseded_by, of_snapshot): (bool, String, String) = conn
                .sql()
                .query_row(
                    "SELECT o.withdrawn, o.superseded_by, s.public_id FROM observations o
                     JOIN snapshots s ON s.id = o.snapshot_id
                     WHERE o.citation_id = (SELECT superseded_by FROM observations
                                            WHERE region_code = 'DE21' AND period = '2022'
                                              AND NOT withdrawn)",
                    crate::store::sql::params![],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .unwrap();
            drop(conn);
            assert!(withdrawn);
            assert_eq!(superseded_by, crate::store::import::WITHDRAWN);
            assert_eq!(Some(of_snapshot), snapshot);
            // A file that is not the whole dataset withdraws nothing.
            assert_eq!(
                import("nuts_code,period,value\nDE21,2023,5\n", false).0,
                (1, 0, 0, 0)
            );
            // The first file again: DE21 2022 published again (its row and citation revived),
            // DE22 2022 back to 3, DE21 2023 withdrawn.
            assert_eq!(import(FIRST, true).0, (1, 1, 1, 1));
            assert_eq!(
                current(),
                cells(&[
                    ("DE21", "2021", "1"),
                    ("DE21", "2022", "2"),
                    ("DE22", "2022", "3")
                ])
            );
        });
    }
}
