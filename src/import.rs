//! `regintel import`: reads files (or the bundled extract), parses them with [`crate::ingest`]
//! and writes them with [`crate::store::import`]. Parsing finishes before the write transaction
//! starts, so a malformed file is refused with its line and reason and nothing of it is written.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::catalogue::{self, Catalogue, ShownOnce, SourceRecord};
use crate::domain::{Error, Rejection};
use crate::error::{FieldError, shown};
use crate::ingest::{self, ParsedFile};
use crate::progress::Progress;
use crate::store::datasets::DatasetRow;
use crate::store::generations;
use crate::store::import::{self as write, DatasetMeta, FileOrigin, ImportOutcome};
use crate::store::sql::Tx;
use crate::store::{Store, StoreError};

#[derive(Debug, Default, serde::Serialize)]
pub struct ImportReport {
    /// NUTS regions the import added or changed (none for a classification as it stands).
    pub regions: usize,
    pub datasets: Vec<ImportOutcome>,
}

impl ImportReport {
    pub fn changed(&self) -> bool {
        self.datasets.iter().any(|d| d.snapshot.is_some())
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Imports the extract compiled into the binary: the NUTS classification, then every dataset.
/// Files identical to their dataset's latest snapshot are skipped without being parsed, so a
/// second run (e.g. `regintel demo` on an existing directory) takes milliseconds.
pub fn import_bundled(
    store: &Store,
    catalogue: &Catalogue,
    progress: &mut Progress,
) -> anyhow::Result<ImportReport> {
    let regions = crate::store::classification::bundled()?;
    let mut conn = store.admin()?;
    let tx = conn.transaction()?;
    let mut report = ImportReport {
        regions: write::upsert_regions(&tx, &regions)?,
        datasets: Vec::new(),
    };
    for file in catalogue::BUNDLED_FILES {
        let entry = catalogue
            .datasets
            .iter()
            .find(|d| d.file == file.name)
            .with_context(|| format!("{} has no catalogue entry", file.name))?;
        let sha = sha256_hex(file.bytes);
        if write::latest_snapshot_sha(&tx, &entry.code, None)?.as_deref() == Some(sha.as_str()) {
            report.datasets.push(unchanged(&entry.code, file.name));
            continue;
        }
        let defaults = ingest::Defaults {
            dataset: Some(&entry.code),
            ..Default::default()
        };
        let parsed = ingest::parse_file(file.name, file.bytes, defaults)?;
        let source = catalogue::bundled_source(file.name)
            .with_context(|| format!("{} has no entry in sources.json", file.name))?;
        let source_id = write::upsert_source(&tx, &source)?;
        let meta = dataset_meta(catalogue, &parsed);
        let origin = FileOrigin {
            source_id: Some(source_id),
            name: file.name,
            sha256: &sha,
        };
        report.datasets.push(write::import_dataset(
            &tx, &parsed, &meta, &origin, None, progress,
        )?);
    }
    finish(tx, catalogue, &report, None)?;
    Ok(report)
}

/// What the operator says of files that do not say it themselves (`import --dataset --unit
/// --title`).
#[derive(Debug, Default, Clone, Copy)]
pub struct Naming<'a> {
    /// The dataset of files that do not name it.
    pub dataset: Option<&'a str>,
    /// The unit of tidy rows without a `unit` column (read in capitals).
    pub unit: Option<&'a str>,
    /// The title of a dataset the catalogue does not know.
    pub title: Option<&'a str>,
}

/// Imports files in Eurostat TSV, SDMX-CSV or tidy CSV in one transaction, each as a snapshot of
/// its dataset, parsed and written one after another.
pub fn import_files(
    store: &Store,
    catalogue: &Catalogue,
    paths: &[&Path],
    naming: &Naming<'_>,
    owner: Option<i64>,
    progress: &mut Progress,
) -> anyhow::Result<ImportReport> {
    // Rows of a private dataset that exists already may leave out its unit, and must have it.
    let existing_unit = match (owner, naming.dataset) {
        (Some(owner), Some(code)) => {
            write::private_headline_json(&store.admin()?.sql(), code, owner)?
                .map(|json| crate::store::datasets::headline_of(&json).map(|(unit, _)| unit))
                .transpose()?
                .filter(|u| !u.is_empty())
        }
        _ => None,
    };
    let given_unit = naming.unit.and_then(crate::ingest::unit_code);
    if let (Some(existing), Some(given)) = (&existing_unit, &given_unit)
        && existing != given
    {
        anyhow::bail!(
            "--unit {}: the dataset's unit is {existing}",
            shown(naming.unit.unwrap_or_default())
        );
    }
    let defaults = ingest::Defaults {
        dataset: naming.dataset,
        unit: existing_unit.as_deref().or(given_unit.as_deref()),
        unit_only: existing_unit.is_some(),
        dims: None,
    };
    // An account's region codes are matched to the known ones (in any case); read once.
    let known_codes = match owner {
        Some(_) => write::region_codes(&store.admin()?.sql())?,
        None => Vec::new(),
    };
    // Each file is parsed and written in turn, in one transaction: what is held in memory is one
    // file's rows, not every file's, and a file refused rolls back every one before it.
    let mut conn = store.admin()?;
    let tx = conn.transaction()?;
    let mut report = ImportReport::default();
    for path in paths {
        let bytes =
            std::fs::read(path).with_context(|| format!("while reading {}", path.display()))?;
        // Errors name the path the operator gave; what is stored (and shown in citations) is
        // the file's name, not where it happened to lie on the operator's machine.
        let mut file = ingest::parse_file(&path.display().to_string(), &bytes, defaults)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .with_context(|| format!("{} is not a file", path.display()))?;
        let sha = sha256_hex(&bytes);
        drop(bytes);
        if let Some(title) = naming.title
            && catalogue.entry(&file.dataset).is_none()
        {
            file.title = Some(title.to_owned());
        }
        if owner.is_some() {
            canonical_region_codes(&known_codes, &mut file)
                .map_err(|(line, reason)| anyhow::anyhow!("{}:{line}: {reason}", path.display()))?;
        }
        if owner.is_some() && write::latest_snapshot_sha(&tx, &file.dataset, None)?.is_some() {
            anyhow::bail!(
                "{name}: {} is a public dataset; give the private data another dataset code (--dataset)",
                file.dataset
            );
        }
        let source_id = write::upsert_source(
            &tx,
            &imported_source(catalogue, &file.dataset, &name, &file),
        )?;
        let meta = dataset_meta(catalogue, &file);
        let origin = FileOrigin {
            source_id: Some(source_id),
            name: &name,
            sha256: &sha,
        };
        report.datasets.push(write::import_dataset(
            &tx, &file, &meta, &origin, owner, progress,
        )?);
    }
    finish(tx, catalogue, &report, owner)?;
    Ok(report)
}

/// Creates an account's private dataset (`POST /datasets`).
pub fn create_private_dataset(
    store: &Store,
    owner: i64,
    meta: &DatasetMeta,
    dim_names: &[String],
) -> Result<(), Error> {
    let mut system = store.system()?;
    let tx = system.transaction().map_err(StoreError::from)?;
    write::create_private_dataset(&tx, meta, dim_names, owner)?;
    generations::bump(&tx, Some(owner)).map_err(StoreError::from_anyhow)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(())
}

/// A file's problems as the answer to an upload lists them: each with its line, past
/// [`ingest::MAX_PROBLEMS`] counted.
fn rejection(e: &ingest::FormatError) -> Rejection {
    Rejection::Invalid {
        errors: e
            .problems()
            .map(|(line, reason)| FieldError {
                pointer: format!("line {line}"),
                detail: reason.to_owned(),
            })
            .collect(),
        not_listed: e.not_listed,
    }
}

/// Loads a tidy CSV body into an account's private dataset (`PUT /datasets/{dataset_code}/data`). The
/// whole body is checked first (format, dataset code, dimensions, unit); problems come back as
/// 422 with their lines, and nothing is written.
pub fn import_private_csv(
    store: &Store,
    catalogue: &Catalogue,
    dataset: &DatasetRow,
    body: &[u8],
    owner: i64,
) -> Result<ImportOutcome, Error> {
    let unit = dataset.headline().map_err(Error::internal)?.0.clone();
    let dims = dataset.dim_names().map_err(Error::internal)?;
    let defaults = ingest::Defaults {
        dataset: Some(&dataset.code),
        unit: Some(&unit),
        unit_only: true,
        dims: Some(dims),
    };
    let mut parsed =
        ingest::tidy::parse("request body", body, defaults).map_err(|e| rejection(&e))?;
    canonical_region_codes(&store.system()?.region_codes()?, &mut parsed)
        .map_err(|(line, reason)| Rejection::invalid_at(format!("line {line}"), reason))?;
    let mut meta = dataset_meta(catalogue, &parsed);
    meta.title.clone_from(&dataset.title);
    meta.topic.clone_from(&dataset.topic);
    meta.description.clone_from(&dataset.description);
    meta.headline.insert("unit".into(), unit);
    let mut system = store.system()?;
    let tx = system.transaction().map_err(StoreError::from)?;
    let origin = FileOrigin {
        source_id: None,
        name: "request body",
        sha256: &sha256_hex(body),
    };
    let outcome = write::import_dataset(
        &tx,
        &parsed,
        &meta,
        &origin,
        Some(owner),
        &mut Progress::hidden(),
    )
    .map_err(StoreError::from_anyhow)?;
    if outcome.snapshot.is_some() {
        generations::bump(&tx, Some(owner)).map_err(StoreError::from_anyhow)?;
    }
    tx.commit().map_err(StoreError::from)?;
    Ok(outcome)
}

/// A user's own data may write a known region code in another case (`de21`): it is stored as
/// the code is published (`DE21`), so it joins that region's public figures. Codes of no known
/// region stay as written. Two rows that become one (`de21` and `DE21` for the same period) are
/// refused: the error names the source line of the second.
fn canonical_region_codes(known: &[String], parsed: &mut ParsedFile) -> Result<(), (u64, String)> {
    let exact: HashSet<&str> = known.iter().map(String::as_str).collect();
    let by_lower: HashMap<String, &str> = known
        .iter()
        .map(|c| (c.to_ascii_lowercase(), c.as_str()))
        .collect();
    let mut changed = false;
    for row in &mut parsed.rows {
        if !exact.contains(row.region.as_str())
            && let Some(code) = by_lower.get(&row.region.to_ascii_lowercase())
        {
            row.region = (*code).to_owned();
            changed = true;
        }
    }
    if changed {
        let mut seen = HashSet::new();
        for row in &parsed.rows {
            if !seen.insert((&row.region, &row.unit, &row.dim_values, &row.period)) {
                return Err((
                    row.src_line,
                    format!(
                        "a second observation for {} {} (region codes are read in any case)",
                        row.region, row.period
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Names aggregates, marks what changed (public data, or `owner`'s private data) and commits.
fn finish(
    tx: Tx<'_>,
    catalogue: &Catalogue,
    report: &ImportReport,
    owner: Option<i64>,
) -> anyhow::Result<()> {
    write::name_aggregates(&tx, &catalogue.aggregates)?;
    if report.regions > 0 {
        generations::bump(&tx, None)?;
    }
    // A file that changed no row may still have changed its dataset's description (title,
    // labels, headline series), which answers and the public catalogue show.
    if report.datasets.iter().any(|d| d.written) {
        generations::bump(&tx, owner)?;
    }
    tx.commit().context("while committing the import")?;
    Ok(())
}

fn unchanged(dataset: &str, file: &str) -> ImportOutcome {
    ImportOutcome {
        dataset: dataset.to_owned(),
        file: file.to_owned(),
        snapshot: None,
        written: false,
        rows_in_file: 0,
        added: 0,
        revised: 0,
        unchanged: 0,
    }
}

/// Where a file imported by an operator came from: the catalogue's dataset page when the dataset
/// is a known Eurostat one, and the file itself as the origin.
fn imported_source(
    catalogue: &Catalogue,
    code: &str,
    file_name: &str,
    file: &ParsedFile,
) -> SourceRecord {
    let known = catalogue.entry(code);
    SourceRecord {
        publisher: if known.is_some() {
            "Eurostat".into()
        } else {
            "imported by the operator".into()
        },
        title: known
            .map(|e| e.title.clone())
            .or_else(|| file.title.clone())
            .unwrap_or_else(|| code.to_owned()),
        landing_url: known.map(|_| {
            format!("https://ec.europa.eu/eurostat/databrowser/view/{code}/default/table?lang=en")
        }),
        license: if known.is_some() {
            "Eurostat copyright notice (https://ec.europa.eu/eurostat/web/main/help/copyright-notice): reuse authorised provided the source (Eurostat) is acknowledged.".into()
        } else {
            "as agreed with the data owner".into()
        },
        origin_json: serde_json::json!({
            "type": "file",
            "path": file_name,
            "format": file.format.as_str(),
        })
        .to_string(),
        transformation: None,
        shown: ShownOnce::default(),
    }
}

/// Descriptive fields for a dataset: from the catalogue when it is known, otherwise derived from
/// the file (title from SDMX, headline series = the most common unit and total-like codes).
fn dataset_meta(catalogue: &Catalogue, file: &ParsedFile) -> DatasetMeta {
    let mut labels: BTreeMap<&str, BTreeMap<String, String>> = BTreeMap::new();
    let mut units: BTreeSet<&str> = BTreeSet::new();
    let mut dim_values: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); file.dim_names.len()];
    for row in &file.rows {
        units.insert(&row.unit);
        for (set, value) in dim_values.iter_mut().zip(&row.dim_values) {
            set.insert(value);
        }
    }
    for unit in &units {
        if let Some(label) = catalogue.units.get(*unit) {
            labels
                .entry("unit")
                .or_default()
                .insert(unit.to_string(), label.clone());
        }
    }
    for (name, values) in file.dim_names.iter().zip(&dim_values) {
        if let Some(known) = catalogue.dimensions.get(name) {
            for value in values {
                if let Some(label) = known.get(*value) {
                    labels
                        .entry(name)
                        .or_default()
                        .insert(value.to_string(), label.clone());
                }
            }
        }
    }
    let labels_json = serde_json::to_string(&labels).expect("labels serialise");
    match catalogue.entry(&file.dataset) {
        Some(entry) => DatasetMeta {
            code: entry.code.clone(),
            title: entry.title.clone(),
            topic: entry.topic.clone(),
            description: Some(entry.short_title.clone()),
            nuts_edition: Some(entry.nuts_edition.clone()),
            headline: entry.headline.clone(),
            labels_json,
        },
        None => {
            let mut headline = BTreeMap::new();
            headline.insert(
                "unit".to_owned(),
                most_common(file.rows.iter().map(|r| r.unit.as_str())),
            );
            for (i, name) in file.dim_names.iter().enumerate() {
                let values = &dim_values[i];
                let pick = ["T", "TOTAL", "A"]
                    .into_iter()
                    .find(|v| values.contains(v))
                    .map(str::to_owned)
                    .unwrap_or_else(|| {
                        most_common(file.rows.iter().map(|r| r.dim_values[i].as_str()))
                    });
                headline.insert(name.clone(), pick);
            }
            DatasetMeta {
                code: file.dataset.clone(),
                title: file.title.clone().unwrap_or_else(|| file.dataset.clone()),
                topic: "other".into(),
                description: None,
                nuts_edition: None,
                headline,
                labels_json,
            }
        }
    }
}

fn most_common<'a>(values: impl Iterator<Item = &'a str>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for v in values {
        *counts.entry(v).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(v, _)| v.to_owned())
        .unwrap_or_default()
}
