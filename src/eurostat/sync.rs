//! `regintel sync`: every dataset fetched before brought up to date. Eurostat's table of
//! contents is read once; a dataset is fetched again only where its "last update of data" or
//! "last table structure change" moved since its last fetch, or its last attempt failed. A sync
//! with nothing new makes that one request and no other. One sync at a time per database: a
//! second one (another node, the timer and a person) finds the lock taken and does nothing.

use std::path::Path;

use super::fetch::{Outcome, Session, Settings};
use super::toc::Entry;
use crate::bundled::Catalogue;
use crate::import::Room;
use crate::runtime::progress::Progress;
use crate::store::Store;
use crate::store::eurostat::FetchRecord;

/// What a sync did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Report {
    /// The datasets fetched again, and how each went.
    pub fetched: Vec<Outcome>,
    /// Those whose data and structure Eurostat has not changed since their last fetch.
    pub current: Vec<String>,
    /// Those Eurostat's table of contents no longer lists (kept as they are).
    pub gone: Vec<String>,
    /// Another sync held the lock: nothing was done.
    pub already_running: bool,
}

/// Whether `fetched` is to be fetched again for what `entry` says now.
fn stale(fetched: &FetchRecord, entry: &Entry) -> bool {
    fetched.succeeded_at.is_none()
        || fetched.error.is_some()
        || fetched.last_update_of_data != entry.last_update_of_data
        || fetched.last_structure_change != entry.last_structure_change
}

/// Brings every fetched dataset up to date.
pub fn sync(
    store: &Store,
    catalogue: &Catalogue,
    settings: &Settings,
    data_dir: &Path,
    room: &Room,
    progress: &mut Progress,
) -> anyhow::Result<Report> {
    let Some(_lock) = super::lock::take(store, data_dir)? else {
        return Ok(Report {
            already_running: true,
            ..Report::default()
        });
    };
    let records = crate::store::eurostat::all(&store.admin()?.sql())?;
    let mut report = Report::default();
    if records.is_empty() {
        return Ok(report);
    }
    let session = Session::open(settings, data_dir)?;
    let toc = session.toc()?;
    let mut due = Vec::new();
    for record in &records {
        match toc.get(&record.dataset_code) {
            None => report.gone.push(record.dataset_code.clone()),
            Some(entry) if stale(record, entry) => due.push(entry.clone()),
            Some(_) => report.current.push(record.dataset_code.clone()),
        }
    }
    report.fetched = session.fetch((store, catalogue), &due, room, progress)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(updated: &str, restructured: &str) -> Entry {
        Entry {
            code: "x".into(),
            title: "X".into(),
            kind: "dataset".into(),
            last_update_of_data: Some(updated.into()),
            last_structure_change: Some(restructured.into()),
            data_start: None,
            data_end: None,
            folders: Vec::new(),
            regional: true,
        }
    }

    #[test]
    fn a_dataset_is_stale_when_its_dates_moved_or_its_last_attempt_failed() {
        let fetched = FetchRecord {
            dataset_code: "x".into(),
            title: "X".into(),
            url: "u".into(),
            last_update_of_data: Some("2026-11-27".into()),
            last_structure_change: Some("2026-01-01".into()),
            downloaded_at: Some(1),
            sha256_received: None,
            sha256: None,
            bytes_received: None,
            snapshot: None,
            succeeded_at: Some(1),
            failed_at: None,
            error: None,
        };
        assert!(!stale(&fetched, &entry("2026-11-27", "2026-01-01")));
        assert!(stale(&fetched, &entry("2026-11-28", "2026-01-01")));
        assert!(stale(&fetched, &entry("2026-11-27", "2026-11-28")));
        let failed = FetchRecord {
            error: Some("503".into()),
            ..fetched.clone()
        };
        assert!(stale(&failed, &entry("2026-11-27", "2026-01-01")));
    }
}
