//! Bulk export: a dataset's current observations as CSV, one row each with its citation.

use super::error::Error;
use crate::citation::parse_dims;
use crate::store::Scoped;
use crate::store::datasets::DatasetRow;

/// Spreadsheets run cells that start with these; such text cells get a leading `'`.
fn neutralise(cell: &str) -> std::borrow::Cow<'_, str> {
    let numeric = cell.parse::<f64>().is_ok();
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@') if !numeric => format!("'{cell}").into(),
        _ => cell.into(),
    }
}

/// Chunks of about this size are handed to the sink.
const CHUNK_BYTES: usize = 64 * 1024;

/// Writes the dataset as CSV in chunks of about `CHUNK_BYTES` to `sink`, which returns false
/// to stop (the client went away). Memory stays at one chunk whatever the dataset's size.
/// Returns whether the sink took everything.
pub fn write_csv(
    store: &Scoped,
    dataset: &DatasetRow,
    mut sink: impl FnMut(Vec<u8>) -> bool,
) -> Result<bool, Error> {
    let dim_names: Vec<String> =
        serde_json::from_str(&dataset.dim_names_json).map_err(Error::internal)?;
    let mut out = csv::Writer::from_writer(Vec::with_capacity(CHUNK_BYTES * 2));
    let mut header = vec!["dataset_code", "nuts_code", "time", "unit"];
    header.extend(dim_names.iter().map(String::as_str));
    header.extend(["value", "flags", "conf_status", "citation_id"]);
    let internal = |e: csv::Error| Error::internal(e);
    out.write_record(&header).map_err(internal)?;
    let mut failure = None;
    let mut open = true;
    store.for_each_export_row(dataset.id, |row| {
        let dims = parse_dims(&row.dims);
        let mut record: Vec<std::borrow::Cow<'_, str>> = vec![
            dataset.code.as_str().into(),
            neutralise(&row.region),
            neutralise(&row.period),
            neutralise(&row.unit),
        ];
        for name in &dim_names {
            let value = dims.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v);
            record.push(neutralise(value));
        }
        record.extend([
            neutralise(&row.value_text),
            neutralise(&row.flags),
            neutralise(&row.conf_status),
            row.citation_id.as_str().into(),
        ]);
        if let Err(e) = out.write_record(record.iter().map(|c| c.as_ref())) {
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
