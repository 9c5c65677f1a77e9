//! Citation detail: the primary row behind a number, where it came from and how to check it.

use std::collections::BTreeMap;

use serde::Serialize;

use super::catalog::{shown_snapshot, shown_source};
use super::error::{Error, Rejection};
use super::{Flag, explain_flags};
use crate::catalogue::Catalogue;
use crate::catalogue::SourceRecord;
use crate::citation::{is_well_formed, parse_dims};
use crate::store::Scoped;
use crate::store::datasets::SnapshotRow;

#[derive(Debug, Serialize)]
pub struct CitationDetail {
    pub id: String,
    pub dataset: DatasetBrief,
    pub region: RegionBrief,
    pub period: String,
    #[serde(serialize_with = "super::opt_number")]
    pub value: Option<f64>,
    /// The value exactly as printed in the source file.
    pub value_text: String,
    pub unit: String,
    pub dimensions: BTreeMap<String, String>,
    pub flags: Vec<Flag>,
    #[serde(serialize_with = "shown_snapshot")]
    pub snapshot: std::sync::Arc<SnapshotRow>,
    #[serde(serialize_with = "shown_source")]
    pub source: Option<std::sync::Arc<SourceRecord>>,
    /// Where in the original file the value stands.
    pub location: Location,
    /// Null if this is the current value; otherwise the next revision of it.
    pub superseded_by: Option<String>,
    /// The citation that stands for this observation now (itself if not superseded).
    pub current_citation: String,
    pub how_to_verify: String,
}

#[derive(Debug, Serialize)]
pub struct DatasetBrief {
    pub code: String,
    pub title: String,
}

#[derive(Debug, Serialize)]
pub struct RegionBrief {
    pub code: String,
    pub name: Option<String>,
    pub level: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct Location {
    pub line: i64,
    /// The column to read on that line: the period's column in a TSV, OBS_VALUE in SDMX-CSV.
    pub column: String,
}

pub fn detail(store: &Scoped, catalogue: &Catalogue, id: &str) -> Result<CitationDetail, Error> {
    let not_found =
        || Rejection::NotFound(format!("no citation with id {}", crate::error::shown(id)));
    if !is_well_formed(id) {
        return Err(not_found().into());
    }
    let _snapshot = store.snapshot()?;
    let row = store.citation(id)?.ok_or_else(not_found)?;
    let dataset = store
        .dataset(&row.dataset_code)?
        .filter(|d| d.id == row.dataset_id)
        .ok_or_else(not_found)?;
    let region = store.region(&row.region_code)?;
    let source = match row.source_id {
        Some(id) => store.source(id)?,
        None => None,
    };
    let shown = source.as_ref().map(|s| s.shown());
    let origin_format = shown
        .and_then(|s| s.origin["format"].as_str())
        .unwrap_or(&row.snapshot.format);
    let sdmx = origin_format.contains("SDMX") || origin_format == "sdmx-csv";
    let column = if sdmx {
        "OBS_VALUE (with OBS_FLAG)".to_owned()
    } else {
        ["the column headed ", &row.obs.period].concat()
    };
    let original = shown.map_or(&row.snapshot.file_name, |s| &s.file);
    // Joined rather than `format!`ted: every citation looked up writes this sentence.
    let how_to_verify = [
        "Open ",
        original,
        ", go to line ",
        itoa::Buffer::new().format(row.src_line),
        " and read ",
        &column,
        ": it shows ",
        if row.obs.value_text.is_empty() {
            ":"
        } else {
            &row.obs.value_text
        },
        if row.obs.flags.is_empty() {
            ""
        } else {
            " with flag(s) "
        },
        &row.obs.flags,
        ". regintel imported it on ",
        &row.snapshot.imported_at,
        " from ",
        &row.snapshot.file_name,
        " (SHA-256 ",
        &row.snapshot.file_sha256,
        ") as snapshot ",
        &row.snapshot.public_id,
        ".",
    ]
    .concat();
    // A current row stands for itself; only a revised one has a chain to follow.
    let current_citation = match &row.superseded_by {
        None => id.to_owned(),
        Some(_) => store.current_citation(id)?,
    };
    Ok(CitationDetail {
        id: id.to_owned(),
        dataset: DatasetBrief {
            code: dataset.code.clone(),
            title: dataset.title.clone(),
        },
        region: RegionBrief {
            code: row.region_code.clone(),
            name: region.as_ref().and_then(|r| r.name().map(str::to_owned)),
            level: region.and_then(|r| r.level),
        },
        period: row.obs.period.to_string(),
        value: row.obs.value,
        value_text: row.obs.value_text.to_string(),
        unit: row.unit.clone(),
        dimensions: parse_dims(&row.dims)
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect(),
        flags: explain_flags(catalogue, &row.obs.flags, &row.obs.conf_status),
        snapshot: row.snapshot,
        source,
        location: Location {
            line: row.src_line,
            column,
        },
        superseded_by: row.superseded_by,
        current_citation,
        how_to_verify,
    })
}
