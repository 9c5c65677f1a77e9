//! The analytics endpoints besides briefings: bulk export and the correlation matrix.
//! Gating is done by the route table.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;

use flate2::Compression;
use flate2::write::GzEncoder;
use tokio::sync::mpsc;

use super::{Req, cited};
use crate::domain::correlations::{self, MatrixQuery};
use crate::domain::export::{self, ExportFilter};
use crate::domain::stats::{Method, Transform};
use crate::http::error::ApiError;
use crate::reply::{Reply, StreamChunk};

/// `GET /intelligence/correlations/matrix?nuts_code=X[&level=L][&method=M][&datasets=A,B]
/// [&series=A:dim=code,...][&period=P][&transform=log][&min_n=N]`.
pub fn correlations(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    let query = matrix_query(req)?;
    req.no_more_params()?;
    let (matrix, sources) = correlations::matrix(req.store()?, &req.state.catalogue, &query)?;
    cited(&matrix, sources)
}

/// The matrix a request asks for (the explorer's matrix page takes the same query).
pub fn matrix_query(req: &mut Req) -> Result<MatrixQuery, ApiError> {
    let region = req.query.require("nuts_code")?;
    let level = req.query.take_int("level", 1, 3)?;
    let method =
        take_named(req, "method", Method::NAMES, Method::parse)?.unwrap_or(Method::Pearson);
    let transform = take_named(req, "transform", Transform::NAMES, Transform::parse)?
        .unwrap_or(Transform::None);
    let datasets = match req.query.take("datasets") {
        None => None,
        Some(list) => {
            let codes: Vec<String> = list.split(',').map(|c| c.trim().to_owned()).collect();
            if codes.iter().any(String::is_empty) {
                return Err(ApiError::invalid(
                    "datasets",
                    "empty dataset code in the list",
                ));
            }
            Some(codes)
        }
    };
    let series = match req.query.take("series") {
        None => BTreeMap::new(),
        Some(list) => series_choices(&list)?,
    };
    let period = req.query.take_period("period")?;
    let min_n = req
        .query
        .take_int("min_n", correlations::SMALLEST_MIN_N as i64, 10_000)?
        .map_or(correlations::DEFAULT_MIN_N, |n| n as usize);
    Ok(MatrixQuery {
        region,
        level,
        method,
        datasets,
        series,
        period,
        transform,
        min_n,
    })
}

/// The parameter `name` as one of `names`, parsed.
fn take_named<T>(
    req: &mut Req,
    name: &str,
    names: &[&str],
    parse: fn(&str) -> Option<T>,
) -> Result<Option<T>, ApiError> {
    req.query
        .take(name)
        .map(|value| {
            parse(&value).ok_or_else(|| {
                ApiError::invalid(name, format!("{name} must be one of {}", names.join(", ")))
            })
        })
        .transpose()
}

/// Most `dataset:dimension=code` items a `series` list may hold.
const MAX_SERIES_ITEMS: usize = 40;

/// `series=tgs00010:sex=F,nama_10r_3gdp:unit=PPS_EU27_2020_HAB`: for each dataset named, the
/// dimension values (`unit` among them) that replace its default series' ones.
fn series_choices(list: &str) -> Result<BTreeMap<String, BTreeMap<String, String>>, ApiError> {
    let refuse = |why: String| ApiError::invalid("series", why);
    let items: Vec<&str> = list.split(',').map(str::trim).collect();
    if items.len() > MAX_SERIES_ITEMS {
        return Err(refuse(format!(
            "series lists at most {MAX_SERIES_ITEMS} dataset:dimension=code items, not {}",
            items.len()
        )));
    }
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for item in items {
        let parsed = item.split_once(':').and_then(|(dataset, choice)| {
            let (dim, code) = choice.split_once('=')?;
            let plain = |s: &str| !s.is_empty() && !s.contains(['=', ':']);
            (plain(dataset) && plain(dim) && plain(code)).then_some((dataset, dim, code))
        });
        let Some((dataset, dim, code)) = parsed else {
            return Err(refuse(format!(
                "{} is not dataset:dimension=code (such as tgs00010:sex=F)",
                crate::error_text::shown(item)
            )));
        };
        let dims = out.entry(dataset.to_owned()).or_default();
        if dims.insert(dim.to_owned(), code.to_owned()).is_some() {
            return Err(refuse(format!(
                "series sets {}:{} twice",
                crate::error_text::shown(dataset),
                crate::error_text::shown(dim)
            )));
        }
    }
    Ok(out)
}

/// An export must take this many bytes of CSV a second of the time it kept the producer waiting,
/// once that time passes [`RATE_GRACE`]: a client that takes one chunk just before each send
/// deadline would otherwise hold its slot, connection and read transaction (which keeps SQLite
/// from checkpointing its WAL) for as long as it likes. Only time spent waiting for the client
/// counts, so a filter that passes few rows of a large dataset is not taken for a slow reader.
const MIN_BYTES_PER_SEC: u64 = 32 * 1024;
const RATE_GRACE: std::time::Duration = std::time::Duration::from_secs(30);

fn fast_enough(produced: u64, waited: std::time::Duration) -> bool {
    waited < RATE_GRACE || produced >= MIN_BYTES_PER_SEC * waited.as_secs()
}

/// `country`, `level`, `from` and `to` of an export request.
fn export_filter(req: &mut Req) -> Result<ExportFilter, ApiError> {
    Ok(ExportFilter {
        country: req.query.take_country("country")?,
        level: req.query.take_int("level", 0, 3)?,
        from: req.query.take_period("from")?,
        to: req.query.take_period("to")?,
    })
}

/// The file name an export is offered as: the dataset code, with anything but letters, digits,
/// `_`, `-` and `.` replaced, so the header needs no quoting rules.
fn file_name(code: &str, extension: &str) -> String {
    let safe: String = code
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}{extension}")
}

/// Streams the dataset as CSV (gzip-coded when the client takes it): the rows are read and
/// written by a blocking task in chunks while the response is being sent, so memory stays at a
/// few chunks whatever the dataset's size. Each export holds a slot (one per account,
/// `--max-exports` in all; see [`super::slot_refused`]), a database connection and its read
/// transaction; a chunk the client does not take within `--send-timeout`, or a reader slower
/// than `MIN_BYTES_PER_SEC` of CSV, ends the export and frees all three.
pub fn export(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    let filter = export_filter(req)?;
    req.no_more_params()?;
    let code = req.param("dataset_code").to_owned();
    let account = req.caller()?.account_id;
    let dataset = crate::domain::datasets::dataset(req.store()?, &code)?;
    let slot = req
        .state
        .exports
        .try_take(account)
        .map_err(|refused| super::slot_refused(refused, "account-exports"))?;
    let store = req.take_store()?.without_public_rows();
    let deadline = req.state.config.send_timeout;
    let gzip = req.accepts_gzip;
    let runtime = tokio::runtime::Handle::current();
    let (tx, rx) = mpsc::channel(8);
    crate::runtime::task::spawn_blocking_in_span(move || {
        // Time spent waiting for the client to take chunks.
        let waited = std::cell::Cell::new(std::time::Duration::ZERO);
        let send = |chunk| {
            let started = std::time::Instant::now();
            let sent = runtime
                .block_on(tokio::time::timeout(deadline, tx.send(chunk)))
                .is_ok_and(|sent| sent.is_ok());
            waited.set(waited.get() + started.elapsed());
            sent
        };
        // Fast compression: the export is bound by how fast rows are read and written, and
        // CSV of repeated codes compresses well at any level.
        let mut encoder = gzip.then(|| GzEncoder::new(Vec::new(), Compression::fast()));
        let mut produced = 0u64;
        let written = export::write_csv(&store, &dataset, &filter, |chunk: Vec<u8>| {
            produced += chunk.len() as u64;
            let bytes = match &mut encoder {
                Some(encoder) => {
                    encoder
                        .write_all(&chunk)
                        .expect("writing to a Vec cannot fail");
                    std::mem::take(encoder.get_mut())
                }
                None => chunk,
            };
            // The compressor may still be holding everything it was given.
            let sent = bytes.is_empty() || send(StreamChunk::Data(bytes.into()));
            sent && fast_enough(produced, waited.get())
        });
        // Free the connection and the slot before the client can see the end, so its next
        // export finds them free.
        drop((store, slot));
        match written {
            Ok(true) => {
                let tail = encoder.map(|e| e.finish().expect("writing to a Vec cannot fail"));
                let tail_sent = tail.is_none_or(|t| send(StreamChunk::Data(t.into())));
                if tail_sent {
                    send(StreamChunk::End);
                }
            }
            Ok(false) => tracing::info!(
                dataset = %dataset.code,
                "export stopped: the client left, stopped reading or read too slowly"
            ),
            // Ending without `End` aborts the response.
            Err(e) => {
                tracing::error!(dataset = %dataset.code, error = %e, "export failed mid-stream")
            }
        }
    });
    Ok(Reply::Stream {
        content_type: "text/csv; charset=utf-8",
        gzip,
        file_name: Some(file_name(&code, ".csv")),
        chunks: Mutex::new(Some(rx)),
    })
}

/// `GET /export/bulk/{dataset_code}.csv-metadata.json`: the export described in CSV on the Web
/// terms (<https://www.w3.org/TR/tabular-metadata/>).
pub fn export_metadata(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    req.no_more_params()?;
    let code = req.param("dataset_code").to_owned();
    let store = req.store()?;
    // As of a moment, the export it describes is the one read as of the same moment.
    let url = match store.as_of() {
        Some(as_of) => format!(
            "{}?as_of={}&as_of_basis={}",
            file_name(&code, ".csv"),
            crate::runtime::clock::rfc3339_millis(as_of.at_ms),
            as_of.basis.as_str()
        ),
        None => file_name(&code, ".csv"),
    };
    let mut document = export::metadata(store, &req.state.catalogue, &code, &url)?;
    if let Some(as_of) = super::as_of_meta(store) {
        document["notes"][0]["as_of"] =
            serde_json::from_slice(&as_of).map_err(|e| ApiError::Internal(e.into()))?;
    }
    let body = serde_json::to_vec_pretty(&document).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(Reply::Raw {
        content_type: "application/csvm+json",
        body: body.into(),
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_trickling_reader_is_too_slow_after_the_grace() {
        let secs = Duration::from_secs;
        assert!(fast_enough(0, secs(29)), "within the grace, anything goes");
        assert!(fast_enough(40 * MIN_BYTES_PER_SEC, secs(40)));
        // One 64 KiB chunk every 29 s: about 2 KiB/s.
        assert!(!fast_enough(2 * 64 * 1024, secs(58)));
    }
}
