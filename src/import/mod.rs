//! `regintel import`: reads files (or the bundled extract) with [`crate::file_formats`] and writes
//! them with [`crate::store::import`], each in two readings ([`file`]): a malformed file is
//! refused with its lines and reasons before anything of it is written, and no file is held in
//! memory whole, whatever its size.

mod file;
mod meta;

pub use meta::SetByOperator;

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::bundled::{self, Catalogue, ShownOnce, SourceRecord};
use crate::domain::{Error, Rejection};
use crate::error_text::{FieldError, shown};
use crate::file_formats::{self, Accept, Format, KnownRegions};
use crate::runtime::progress::Progress;
use crate::store::datasets::DatasetRow;
use crate::store::generations;
use crate::store::import::{self as write, DatasetMeta, ImportOutcome};
use crate::store::sql::Tx;
use crate::store::{Store, StoreError};
use file::Input;

/// Where an import may keep what a file's check needs: at most `memory` bytes of it, the rest
/// in unnamed files in `spill_dir` (best next to the database: a temporary directory may be
/// memory). Operators' files are all checked before their rows are written, and then `memory`
/// is SQLite's page cache.
#[derive(Debug, Clone)]
pub struct Room {
    pub memory: usize,
    pub spill_dir: PathBuf,
}

/// Memory an import holds for checking a file unless told otherwise: fingerprints of 16 million
/// rows. The rest of an import's memory does not grow with its files.
pub const DEFAULT_MEMORY: usize = 256 << 20;

impl Room {
    fn file_room(&self) -> file_formats::Room<'_> {
        file_formats::Room {
            memory: self.memory,
            spill_dir: &self.spill_dir,
        }
    }
}

impl Default for Room {
    fn default() -> Self {
        Room {
            memory: DEFAULT_MEMORY,
            spill_dir: std::env::temp_dir(),
        }
    }
}

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

/// Imports the extract compiled into the binary: the NUTS classification, then every dataset.
/// Files identical to their dataset's latest snapshot are skipped without being parsed, so a
/// second run (e.g. `regintel demo` on an existing directory) takes milliseconds; so are the
/// datasets fetched from Eurostat, whose rows a bundled file must never override.
pub fn import_bundled(
    store: &Store,
    catalogue: &Catalogue,
    room: &Room,
    progress: &mut Progress,
) -> anyhow::Result<ImportReport> {
    let regions = crate::store::classification::bundled()?;
    let mut conn = store.admin()?;
    let tx = conn.transaction()?;
    let mut report = ImportReport {
        regions: write::upsert_regions(&tx, &regions)?,
        datasets: Vec::new(),
    };
    for bundled in bundled::BUNDLED_FILES {
        let entry = catalogue
            .datasets
            .iter()
            .find(|d| d.file == bundled.name)
            .with_context(|| format!("{} has no catalogue entry", bundled.name))?;
        let sha = crate::store::classification::sha256_hex(bundled.bytes);
        // A dataset fetched from Eurostat is newer than any bundled file: never overridden.
        if write::latest_snapshot_sha(&tx, &entry.code, None)?.as_deref() == Some(sha.as_str())
            || crate::store::eurostat::was_fetched(&tx, &entry.code)?
        {
            report.datasets.push(unchanged(&entry.code, bundled.name));
            continue;
        }
        let open = || Ok(Box::new(bundled.bytes) as Box<dyn std::io::Read>);
        let input = Input {
            shown: bundled.name,
            stored: bundled.name,
            open: &open,
            accept: Accept::Any,
            defaults: file_formats::Defaults {
                dataset: Some(&entry.code),
                ..Default::default()
            },
            whole_dataset: false,
        };
        let checked = file::check(&input, room.file_room())?;
        let source = bundled::bundled_source(bundled.name)
            .with_context(|| format!("{} has no entry in sources.json", bundled.name))?;
        let source_id = Some(write::upsert_source(&tx, &source)?);
        let meta = meta::dataset_meta(catalogue, &checked.end, &checked.summary);
        report.datasets.push(file::write(
            &tx, &input, &checked, &meta, source_id, None, progress,
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
/// its dataset, checked and written one after another: a file refused rolls back every one
/// before it.
pub fn import_files(
    store: &Store,
    catalogue: &Catalogue,
    paths: &[&Path],
    naming: &Naming<'_>,
    owner: Option<i64>,
    room: &Room,
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
    let given_unit = naming.unit.and_then(crate::file_formats::unit_code);
    if let (Some(existing), Some(given)) = (&existing_unit, &given_unit)
        && existing != given
    {
        anyhow::bail!(
            "--unit {}: the dataset's unit is {existing}",
            shown(naming.unit.unwrap_or_default())
        );
    }
    // An account's region codes are matched to the known ones (in any case); read once.
    let known_regions = match owner {
        Some(_) => Some(KnownRegions::new(&write::region_codes(
            &store.admin()?.sql(),
        )?)),
        None => None,
    };
    let defaults = file_formats::Defaults {
        dataset: naming.dataset,
        unit: existing_unit.as_deref().or(given_unit.as_deref()),
        unit_only: existing_unit.is_some(),
        dims: None,
        regions: known_regions.as_ref(),
    };
    // Every file is checked before the transaction begins: SQLite's write lock is held while
    // rows are written, not while files are read for the first time.
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let file = OperatorFile::new(path)?;
        let mut checked = file::check(&file.input(&|| file.open(), defaults), room.file_room())?;
        if let Some(title) = naming.title
            && catalogue.entry(&checked.end.header.dataset).is_none()
        {
            checked.end.title = Some(title.to_owned());
        }
        files.push((file, checked));
    }
    // The memory that checked the files for duplicates is free again: it is the page cache's
    // while rows are written.
    let mut conn = store.admin()?;
    conn.page_cache(room.memory)?;
    let tx = conn.transaction()?;
    let mut report = ImportReport {
        regions: write::classification_in_place(&tx)?,
        datasets: Vec::new(),
    };
    for (file, checked) in &files {
        let (name, dataset) = (&file.name, &checked.end.header.dataset);
        if owner.is_some() && write::latest_snapshot_sha(&tx, dataset, None)?.is_some() {
            anyhow::bail!(
                "{name}: {dataset} is a public dataset; give the private data another dataset code (--dataset)"
            );
        }
        let source = imported_source(catalogue, name, &checked.end);
        let source_id = Some(write::upsert_source(&tx, &source)?);
        let meta = meta::dataset_meta(catalogue, &checked.end, &checked.summary);
        let open = || file.open();
        let input = file.input(&open, defaults);
        report.datasets.push(file::write(
            &tx, &input, checked, &meta, source_id, owner, progress,
        )?);
    }
    finish(tx, catalogue, &report, owner)?;
    Ok(report)
}

/// A dataset downloaded from Eurostat, decompressed, and what Eurostat says of it.
pub struct FetchedFile<'a> {
    /// The decompressed file (its SHA-256 is what its rows' citation ids hash, however the
    /// download was compressed).
    pub path: &'a Path,
    /// Its name, as stored and cited: `estat_<code>.tsv`.
    pub name: &'a str,
    /// The dataset's code as Eurostat's table of contents writes it.
    pub code: &'a str,
    /// Its title in the table of contents.
    pub title: &'a str,
    /// What the product files it under (see `eurostat::topic_of`), where the bundled catalogue
    /// does not know it.
    pub topic: &'a str,
    /// Labels of its codes, by dimension (`unit` among them), from its structure.
    pub labels: &'a std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
    /// Its short label (from its title), where the bundled catalogue does not know it.
    pub short_title: &'a str,
    /// What the operator's settings file sets of it.
    pub set: Option<&'a SetByOperator>,
    pub source: SourceRecord,
}

/// Imports a file fetched from Eurostat as a snapshot of its dataset (none when it is the
/// dataset's latest snapshot already), in one transaction with what `record` writes (the fetch's
/// own record) given the outcome. Its title comes from Eurostat's table of contents and its
/// labels from its structure; the bundled catalogue, where it knows the dataset, still says its
/// topic, short name, NUTS edition and headline series.
pub fn import_fetched(
    store: &Store,
    catalogue: &Catalogue,
    fetched: &FetchedFile<'_>,
    room: &Room,
    record: &dyn Fn(&Tx<'_>, &ImportOutcome) -> anyhow::Result<()>,
    progress: &mut Progress,
) -> anyhow::Result<ImportOutcome> {
    let open = || -> std::io::Result<Box<dyn std::io::Read>> {
        Ok(Box::new(std::fs::File::open(fetched.path)?))
    };
    let input = Input {
        shown: fetched.name,
        stored: fetched.name,
        open: &open,
        accept: Accept::Only(Format::EurostatTsv),
        defaults: file_formats::Defaults {
            dataset: Some(fetched.code),
            ..Default::default()
        },
        whole_dataset: true,
    };
    let checked = file::check(&input, room.file_room())?;
    let mut meta = meta::dataset_meta(catalogue, &checked.end, &checked.summary);
    meta.title = fetched.title.to_owned();
    let from_eurostat = meta::labels_of(
        &checked.summary,
        &checked.end.header.dim_names,
        fetched.labels,
    );
    if from_eurostat != "{}" {
        meta.labels_json = from_eurostat;
    }
    if catalogue.entry(fetched.code).is_none() {
        meta.topic = fetched.topic.to_owned();
        meta.description = Some(fetched.short_title.to_owned());
        meta::prefer_relative_unit(&mut meta, &checked.summary);
    }
    if let Some(set) = fetched.set {
        meta::apply_set(
            &mut meta,
            set,
            &checked.summary,
            &checked.end.header.dim_names,
        )?;
    }
    let mut conn = store.admin()?;
    conn.page_cache(room.memory)?;
    let tx = conn.transaction()?;
    let regions = write::classification_in_place(&tx)?;
    // The data of the latest snapshot again: its rows stay cited to the download they came in.
    let same = write::latest_snapshot_sha(&tx, fetched.code, None)?.as_deref()
        == Some(checked.sha256.as_str());
    let source_id = match same {
        true => write::dataset_source_id(&tx, fetched.code)?,
        false => Some(write::upsert_source(&tx, &fetched.source)?),
    };
    let outcome = file::write(&tx, &input, &checked, &meta, source_id, None, progress)?;
    record(&tx, &outcome)?;
    let report = ImportReport {
        regions,
        datasets: vec![outcome.clone()],
    };
    finish(tx, catalogue, &report, None)?;
    Ok(outcome)
}

/// A file an operator names: errors give the path as given; what is stored (and shown in
/// citations) is the file's name, not where it happened to lie on the operator's machine.
struct OperatorFile<'p> {
    path: &'p Path,
    shown: String,
    name: String,
}

impl<'p> OperatorFile<'p> {
    fn new(path: &'p Path) -> anyhow::Result<Self> {
        let shown = path.display().to_string();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .with_context(|| format!("{shown} is not a file"))?;
        Ok(OperatorFile { path, shown, name })
    }

    fn open(&self) -> std::io::Result<Box<dyn std::io::Read>> {
        let file = std::fs::File::open(self.path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot read it: {e}")))?;
        Ok(Box::new(file))
    }

    fn input<'a>(
        &'a self,
        open: &'a file::Open<'a>,
        defaults: file_formats::Defaults<'a>,
    ) -> Input<'a> {
        Input {
            shown: &self.shown,
            stored: &self.name,
            open,
            accept: Accept::Any,
            defaults,
            whole_dataset: false,
        }
    }
}

/// Creates an account's private dataset (`POST /datasets`).
pub fn create_private_dataset(
    store: &Store,
    owner: i64,
    meta: &DatasetMeta,
    dim_names: &[String],
    strict_regions: bool,
) -> Result<(), Error> {
    let mut system = store.system()?;
    let tx = system.transaction().map_err(StoreError::from)?;
    write::create_private_dataset(&tx, meta, dim_names, owner, strict_regions)?;
    generations::bump(&tx, Some(owner)).map_err(StoreError::from_anyhow)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(())
}

/// A file's problems as the answer to an upload lists them: each with its line, past
/// [`file_formats::MAX_PROBLEMS`] counted.
fn rejection(e: &file_formats::FormatError) -> Rejection {
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
/// whole body is checked first (format, dataset code, dimensions, unit, duplicates, and with
/// `strict_regions` region codes of no known region but the account's own); problems come back as
/// 422 with their lines, and nothing is written. Codes of no known region otherwise become the
/// account's own, each named in the outcome with the known codes it may be a typo of.
pub fn import_private_csv(
    store: &Store,
    catalogue: &Catalogue,
    dataset: &DatasetRow,
    body: &[u8],
    owner: i64,
    strict_regions: bool,
) -> Result<ImportOutcome, Error> {
    let unit = dataset.headline().map_err(Error::internal)?.0.clone();
    let dims = dataset.dim_names().map_err(Error::internal)?;
    let system = store.system()?;
    let mut known_regions =
        KnownRegions::new(&system.region_codes()?).with_own(&system.own_region_codes(owner)?);
    drop(system);
    if strict_regions {
        known_regions = known_regions.strict();
    }
    let open = || Ok(Box::new(body) as Box<dyn std::io::Read>);
    let input = Input {
        shown: "request body",
        stored: "request body",
        open: &open,
        accept: Accept::Only(Format::Tidy),
        defaults: file_formats::Defaults {
            dataset: Some(&dataset.code),
            unit: Some(&unit),
            unit_only: true,
            dims: Some(dims),
            regions: Some(&known_regions),
        },
        whole_dataset: false,
    };
    // A body is at most --max-upload bytes (32 MiB unless told) and is read as sent, never
    // inflated: its rows' fingerprints fit in the default memory.
    let room = Room::default();
    let checked = file::check(&input, room.file_room()).map_err(upload_error)?;
    let mut meta = meta::dataset_meta(catalogue, &checked.end, &checked.summary);
    meta.title.clone_from(&dataset.title);
    meta.topic.clone_from(&dataset.topic);
    meta.description.clone_from(&dataset.description);
    meta.headline.insert("unit".into(), unit.clone());
    let mut system = store.system()?;
    let tx = system.transaction().map_err(StoreError::from)?;
    let mut outcome = file::write(
        &tx,
        &input,
        &checked,
        &meta,
        None,
        Some(owner),
        &mut Progress::hidden(),
    )
    .map_err(upload_error)?;
    if outcome.snapshot.is_some() {
        generations::bump(&tx, Some(owner)).map_err(StoreError::from_anyhow)?;
    }
    write::stamp_import_time(&tx, outcome.snapshot.as_deref()).map_err(StoreError::from)?;
    tx.commit().map_err(StoreError::from)?;
    for region in &mut outcome.new_regions {
        region.suggestions = known_regions.nearest(&region.code);
    }
    Ok(outcome)
}

/// An upload's problems as the answer lists them; anything else is the store's.
fn upload_error(e: anyhow::Error) -> Error {
    match e.downcast::<file_formats::FormatError>() {
        Ok(format) => rejection(&format).into(),
        Err(other) => StoreError::from_anyhow(other).into(),
    }
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
    write::stamp_import_time(
        &tx,
        report.datasets.iter().filter_map(|d| d.snapshot.as_deref()),
    )?;
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
        withdrawn: 0,
        new_regions: Vec::new(),
    }
}

/// Where a file imported by an operator came from: the catalogue's dataset page when the dataset
/// is a known Eurostat one, and the file itself as the origin.
fn imported_source(
    catalogue: &Catalogue,
    file_name: &str,
    file: &file_formats::FileEnd,
) -> SourceRecord {
    let code = &file.header.dataset;
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
            "format": file.header.format.as_str(),
        })
        .to_string(),
        transformation: None,
        shown: ShownOnce::default(),
    }
}
