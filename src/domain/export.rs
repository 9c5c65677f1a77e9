//! Bulk export: a dataset's current observations as CSV, one row each with its region's name
//! and level and its citation, optionally limited to a country, a level and a range of periods.

use std::collections::HashMap;

use super::error::Error;
use crate::citation_id::parse_dims;
use crate::store::Scoped;
use crate::store::datasets::DatasetRow;
pub use crate::store::observations::ExportFilter;

/// The columns of an export before the dataset's dimensions, and after them.
pub const LEADING_COLUMNS: &[&str] = &[
    "dataset_code",
    "nuts_code",
    "region_name",
    "nuts_level",
    "time",
    "unit",
];
pub const TRAILING_COLUMNS: &[&str] = &["value", "flags", "conf_status", "citation_id"];

/// The header of `dataset`'s export.
pub fn columns(dataset: &DatasetRow) -> Result<Vec<String>, Error> {
    let dim_names = dataset.dim_names().map_err(Error::internal)?;
    Ok(LEADING_COLUMNS
        .iter()
        .map(|c| (*c).to_owned())
        .chain(dim_names.iter().cloned())
        .chain(TRAILING_COLUMNS.iter().map(|c| (*c).to_owned()))
        .collect())
}

/// What each fixed column holds, for the CSVW description: name, title, datatype, description.
const FIXED_COLUMNS: &[(&str, &str, &str, &str)] = &[
    (
        "dataset_code",
        "Dataset code",
        "string",
        "The dataset this row belongs to.",
    ),
    (
        "nuts_code",
        "Region code",
        "string",
        "NUTS code as published (or an aggregate such as EU27_2020).",
    ),
    (
        "region_name",
        "Region name",
        "string",
        "The region's name in Latin script; empty for codes found only in data.",
    ),
    (
        "nuts_level",
        "NUTS level",
        "integer",
        "0 country, 1, 2 or 3; empty for aggregates.",
    ),
    (
        "time",
        "Period",
        "string",
        "The period of the observation (a year 2021, a quarter 2021-Q3, a semester 2021-S1, a month 2021-07).",
    ),
    ("unit", "Unit", "string", "Unit code; see the units note."),
    (
        "value",
        "Value",
        "decimal",
        "The value exactly as published; empty where the source has only a flag.",
    ),
    (
        "flags",
        "Flags",
        "string",
        "Eurostat flags, one letter each; see the flags note.",
    ),
    (
        "conf_status",
        "Confidentiality status",
        "string",
        "SDMX confidentiality status (C: confidential).",
    ),
    (
        "citation_id",
        "Citation",
        "string",
        "Resolves to the primary row at GET {base_url}/citations/{citation_id}.",
    ),
];

/// The CSV on the Web metadata (<https://www.w3.org/TR/tabular-metadata/>) of a dataset's
/// export at `url`: its columns with titles and datatypes, units, flags, the latest snapshot,
/// source and licence, and the number of rows of the whole export.
pub fn metadata(
    store: &Scoped,
    catalogue: &crate::bundled::Catalogue,
    code: &str,
    url: &str,
) -> Result<serde_json::Value, Error> {
    use serde_json::json;
    let dataset = super::datasets::dataset(store, code)?;
    let labels = dataset.labels().map_err(Error::internal)?;
    let series = store.series_then(dataset.id)?;
    let rows: i64 = series.iter().map(|s| s.obs_count).sum();
    let described = |name: &str, title: &str, datatype: &str, description: String| {
        let mut column = json!({"name": name, "titles": title, "datatype": datatype, "dc:description": description});
        if matches!(datatype, "decimal" | "integer") {
            column["null"] = json!("");
        }
        column
    };
    let header = columns(&dataset)?;
    let mut out = Vec::with_capacity(header.len());
    for name in &header {
        let column = match FIXED_COLUMNS.iter().find(|(n, ..)| n == name) {
            Some((name, title, datatype, description)) => {
                described(name, title, datatype, (*description).to_owned())
            }
            None => {
                let codes = labels.get(name).map_or(String::new(), |codes| {
                    let listed: Vec<String> =
                        codes.iter().map(|(c, l)| format!("{c} = {l}")).collect();
                    format!(": {}", listed.join("; "))
                });
                described(name, name, "string", format!("Dimension {name}{codes}"))
            }
        };
        out.push(column);
    }
    let units: std::collections::BTreeSet<&str> = series.iter().map(|s| s.unit.as_str()).collect();
    let units: Vec<_> = units
        .into_iter()
        .map(|u| {
            let label = labels
                .get("unit")
                .and_then(|l| l.get(u))
                .or_else(|| catalogue.units.get(u));
            json!({"code": u, "label": label})
        })
        .collect();
    let snapshot = store.latest_snapshot_of(dataset.id)?;
    let source = match snapshot
        .as_ref()
        .and_then(|s| s.source_id)
        .or(dataset.source_id)
    {
        Some(id) => store.source(id)?,
        None => None,
    };
    Ok(json!({
        "@context": "http://www.w3.org/ns/csvw",
        "url": url,
        "dc:identifier": dataset.code,
        "dc:title": dataset.title,
        "dc:description": dataset.description,
        "dc:publisher": source.as_ref().map(|s| s.publisher.clone()),
        "dc:source": source.as_ref().and_then(|s| s.landing_url.clone()),
        "dc:license": source.as_ref().map(|s| s.license.clone()),
        "dc:modified": snapshot.as_ref().map(|s| &s.imported_at),
        "dialect": {"header": true, "encoding": "utf-8"},
        "tableSchema": {"columns": out, "primaryKey": "citation_id"},
        "notes": [{
            "rows": rows,
            "private": dataset.private,
            "units": units,
            "flags": catalogue.flags,
            "snapshot": snapshot.map(|s| json!({
                "id": s.public_id,
                "imported_at": s.imported_at,
                "file_name": s.file_name,
                "file_sha256": s.file_sha256,
            })),
            "filters": "rows is the count of the whole export; country, level, from and to select fewer",
        }],
    }))
}

/// Spreadsheets run cells that start with these; such text cells get a leading `'`. (The first
/// character is looked at before parsing: this runs for every cell of every row.)
fn neutralise(cell: &str) -> std::borrow::Cow<'_, str> {
    match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@') if cell.parse::<f64>().is_err() => {
            format!("'{cell}").into()
        }
        _ => cell.into(),
    }
}

/// Chunks of about this size are handed to the sink.
const CHUNK_BYTES: usize = 64 * 1024;

/// A region as an export row shows it.
struct RegionInfo {
    name: String,
    level: String,
}

/// Writes the dataset's rows that pass `filter` as CSV in chunks of about `CHUNK_BYTES` to
/// `sink`, which returns false to stop (the client went away). Memory stays at one chunk (and
/// the region names) whatever the dataset's size. Returns whether the sink took everything.
pub fn write_csv(
    store: &Scoped,
    dataset: &DatasetRow,
    filter: &ExportFilter,
    mut sink: impl FnMut(Vec<u8>) -> bool,
) -> Result<bool, Error> {
    // The header, the region names and the rows: one state of the data.
    let _snapshot = store.snapshot()?;
    let header = columns(dataset)?;
    let dim_names = &header[LEADING_COLUMNS.len()..header.len() - TRAILING_COLUMNS.len()];
    // Names and levels once, rather than a join per row: a few thousand regions. With a
    // country or level, these are also the regions whose rows the export keeps.
    let regions: HashMap<String, RegionInfo> = store
        .regions(filter.level, filter.country.as_deref())?
        .into_iter()
        .map(|r| {
            let info = RegionInfo {
                name: r.name().unwrap_or_default().to_owned(),
                level: r.level.map_or(String::new(), |l| l.to_string()),
            };
            (r.code, info)
        })
        .collect();
    let unknown = RegionInfo {
        name: String::new(),
        level: String::new(),
    };
    let mut out = csv::Writer::from_writer(Vec::with_capacity(CHUNK_BYTES * 2));
    let internal = |e: csv::Error| Error::internal(e);
    out.write_record(&header).map_err(internal)?;
    let mut failure = None;
    let mut open = true;
    // Rows come by series, region and period: consecutive rows share their region and their
    // dimension values, which are looked up again only when they change.
    let filtered = filter.country.is_some() || filter.level.is_some();
    let mut region_code = String::new();
    let mut region = Some(&unknown);
    let mut dims = String::new();
    let mut dim_values: Vec<String> = Vec::new();
    store.for_each_export_row(dataset.id, filter, |row| {
        if row.region != region_code {
            region_code.clear();
            region_code.push_str(row.region);
            region = match regions.get(row.region) {
                Some(info) => Some(info),
                None if filtered => None,
                None => Some(&unknown),
            };
        }
        let Some(region) = region else {
            return open;
        };
        if row.dims != dims {
            dims.clear();
            dims.push_str(row.dims);
            let parsed = parse_dims(row.dims);
            dim_values = dim_names
                .iter()
                .map(|name| {
                    let value = parsed
                        .iter()
                        .find(|(n, _)| n == name)
                        .map_or("", |(_, v)| v);
                    neutralise(value).into_owned()
                })
                .collect();
        }
        let fields = [
            dataset.code.as_str().into(),
            neutralise(row.region),
            neutralise(&region.name),
            region.level.as_str().into(),
            neutralise(row.period),
            neutralise(row.unit),
        ];
        let trailing = [
            neutralise(row.value_text),
            neutralise(row.flags),
            neutralise(row.conf_status),
            row.citation_id.into(),
        ];
        let record = fields
            .iter()
            .map(|c: &std::borrow::Cow<'_, str>| c.as_ref())
            .chain(dim_values.iter().map(String::as_str))
            .chain(trailing.iter().map(|c| c.as_ref()));
        if let Err(e) = out.write_record(record) {
            failure.get_or_insert(internal(e));
            return false;
        }
        // `get_ref` lags the writer's own buffer by a few KiB: close enough for a chunk size.
        if out.get_ref().len() >= CHUNK_BYTES {
            let fresh = csv::Writer::from_writer(Vec::with_capacity(CHUNK_BYTES * 2));
            match std::mem::replace(&mut out, fresh).into_inner() {
                Ok(full) => open = sink(full),
                Err(e) => {
                    failure.get_or_insert(Error::internal(anyhow::anyhow!("{e}")));
                    return false;
                }
            }
        }
        open
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    let rest = out
        .into_inner()
        .map_err(|e| Error::internal(anyhow::anyhow!("{e}")))?;
    if open && !rest.is_empty() {
        open = sink(rest);
    }
    Ok(open)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_but_negative_numbers_kept() {
        assert_eq!(neutralise("=cmd()"), "'=cmd()");
        assert_eq!(neutralise("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(neutralise("-0.5"), "-0.5");
        assert_eq!(neutralise("DE21"), "DE21");
    }
}
