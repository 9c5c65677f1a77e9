//! An observation's revisions (`GET /citations/{id}/revisions`): every value it has had, each
//! with the stretches of time it was current in; and where a citation stood at a past moment.

use serde::Serialize;

use super::error::{Error, Rejection};
use super::{Flag, explain_flags};
use crate::bundled::Catalogue;
use crate::runtime::clock::rfc3339_millis;
use crate::store::Scoped;
use crate::store::observations::ChainEnd;
use crate::store::revisions::{Revision, SnapshotTimes};

/// A snapshot as a revision shows it: its id, when it was imported here and when Eurostat
/// published its data (null where not known).
#[derive(Debug, Serialize, PartialEq)]
pub struct SnapshotRef {
    pub snapshot: String,
    pub imported_at: String,
    pub published_at: Option<String>,
}

impl From<&SnapshotTimes> for SnapshotRef {
    fn from(s: &SnapshotTimes) -> Self {
        SnapshotRef {
            snapshot: s.public_id.clone(),
            imported_at: rfc3339_millis(s.imported_at),
            published_at: s.published_at.map(rfc3339_millis),
        }
    }
}

/// When a value was current: from a snapshot until another (null: it still is).
#[derive(Debug, Serialize, PartialEq)]
pub struct Current {
    pub from: SnapshotRef,
    pub until: Option<SnapshotRef>,
}

/// One value the observation has had, or its withdrawal.
#[derive(Debug, Serialize, PartialEq)]
pub struct RevisionItem {
    /// Its citation id.
    pub id: String,
    #[serde(serialize_with = "super::opt_number")]
    pub value: Option<f64>,
    pub value_text: String,
    pub flags: Vec<Flag>,
    /// A withdrawal: the whole-dataset file of its snapshot no longer held the observation.
    pub withdrawn: bool,
    /// The snapshot that wrote it, with its import and publication times.
    #[serde(flatten)]
    pub snapshot: SnapshotRef,
    /// The stretches of time it was current in, in order (a value an identical file published
    /// again is current again from then).
    pub current: Vec<Current>,
    pub is_current: bool,
}

/// The revisions of the observation citation `id` is a row of, in order of time.
pub fn list(store: &Scoped, catalogue: &Catalogue, id: &str) -> Result<Vec<RevisionItem>, Error> {
    let _snapshot = store.snapshot()?;
    let history = history(store, id)?;
    Ok(history
        .iter()
        .map(|r| RevisionItem {
            id: r.citation_id.clone(),
            value: r.value,
            value_text: r.value_text.clone(),
            flags: explain_flags(catalogue, &r.flags, &r.conf_status),
            withdrawn: r.withdrawn,
            snapshot: SnapshotRef::from(&r.snapshot),
            current: (r.stretches.iter())
                .map(|s| Current {
                    from: SnapshotRef::from(&s.since),
                    until: s.until.as_ref().map(SnapshotRef::from),
                })
                .collect(),
            is_current: r.stretches.last().is_some_and(|s| s.until.is_none()),
        })
        .collect())
}

/// The history of the observation citation `id` names: 404 for an id the caller sees no
/// observation row of (a region's or a snapshot's citation has no revisions).
fn history(store: &Scoped, id: &str) -> Result<Vec<Revision>, Error> {
    let not_found = || {
        Rejection::NotFound(format!(
            "no observation with citation id {}",
            crate::error_text::shown(id)
        ))
    };
    if !crate::citation_id::is_well_formed(id) {
        return Err(not_found().into());
    }
    Ok(store.revisions(id)?.ok_or_else(not_found)?)
}

/// Where the observation row `id` (of dataset `dataset_id`, written by snapshot `written_in`, a
/// row id) stood at the moment reads are as of:
/// the citation that superseded it by then (None: it was current), and the end of its chain
/// then (the value current then, and the snapshot that had withdrawn it, if one had). Refused
/// when the dataset or the row did not exist yet then.
pub fn as_of_then(
    store: &Scoped,
    dataset_id: i64,
    dataset_code: &str,
    id: &str,
    written_in: i64,
) -> Result<Option<(Option<String>, ChainEnd)>, Error> {
    let Some(as_of) = store.as_of() else {
        return Ok(None);
    };
    let at = rfc3339_millis(as_of.at_ms);
    let Some(resolved) = store.snapshot_as_of(dataset_id)? else {
        return Err(not_yet(dataset_code, id, &at).into());
    };
    let then = resolved.snapshot.id;
    // Known at once, before anything is read.
    if written_in > then {
        return Err(not_yet(dataset_code, id, &at).into());
    }
    let current_then = || ChainEnd {
        citation: id.to_owned(),
        withdrawn_in: None,
    };
    if store.known_current_then(dataset_id, id)? {
        return Ok(Some((None, current_then())));
    }
    let history = store.revisions(id)?.unwrap_or_default();
    let Some(own) = history.iter().find(|r| r.citation_id == id) else {
        return Ok(None);
    };
    if own.stands_in(then) && !own.withdrawn {
        return Ok(Some((None, current_then())));
    }
    // The row that began where this one's last stretch before then ended.
    let ended = (own.stretches.iter())
        .filter_map(|s| s.until.as_ref().map(|u| u.id))
        .filter(|&until| until <= then)
        .max();
    let began_at = |snapshot: i64| {
        (history.iter()).find(|r| r.stretches.iter().any(|s| s.since.id == snapshot))
    };
    let superseded_by = ended.and_then(began_at).map(|r| r.citation_id.clone());
    // The chain then ends where it ends now for a row read now: at the value standing then,
    // or at the withdrawal standing then, with the snapshot that made it.
    let standing = history.iter().find(|r| r.stands_in(then));
    let chain = ChainEnd {
        citation: standing.map_or(id, |r| &r.citation_id).to_owned(),
        withdrawn_in: standing
            .filter(|r| r.withdrawn)
            .map(|w| w.snapshot.public_id.clone()),
    };
    Ok(Some((superseded_by, chain)))
}

fn not_yet(dataset: &str, id: &str, at: &str) -> Rejection {
    Rejection::NotHeldYet {
        dataset: dataset.to_owned(),
        message: format!(
            "citation {} did not exist yet at {at}: its snapshot of {dataset} came later",
            crate::error_text::shown(id)
        ),
    }
}
