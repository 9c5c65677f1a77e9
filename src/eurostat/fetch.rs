//! `regintel fetch DATASET...`: each dataset downloaded whole from Eurostat's API (its data as
//! compressed TSV, `sdmx/2.1/data/{code}?format=TSV&compressed=true`: the format Eurostat's own
//! bulk files always had, one line per series, which regintel's importer reads in one pass and
//! cites by line and period column; SDMX-CSV repeats every dimension on every observation's line,
//! several times the bytes), decompressed, and imported as a snapshot through the import path,
//! its title from the table of contents and its labels from its structure. A failure leaves the
//! dataset as it was: nothing is half-imported, and the previous snapshot keeps serving.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};

use super::client::{self, Client};
use super::described::DatasetSettings;
use super::structure::{self, Structure};
use super::toc::{self, Entry, Toc};
use crate::bundled::{Catalogue, ShownOnce, SourceRecord};
use crate::import::{FetchedFile, Room};
use crate::runtime::progress::Progress;
use crate::store::Store;
use crate::store::import::ImportOutcome;

/// How fetch reaches Eurostat and how much it takes.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The API's base URL ([`super::DEFAULT_URL`], a mirror, a proxy).
    pub url: String,
    /// Roots to trust besides the system's.
    pub ca_file: Option<PathBuf>,
    /// Most bytes a download may bring, and most its decompressed file may hold.
    pub max_download: u64,
    pub max_inflated: u64,
    /// Tries of a request that failed in a way another try can mend (no answer, a 5xx, a 429,
    /// a download cut short), the first wait `backoff`, doubled each time.
    pub tries: u32,
    pub backoff: Duration,
    /// How often a queued extraction's status is asked, and for how long at most.
    pub poll: Duration,
    pub wait: Duration,
}

impl Settings {
    /// Defaults for `url`: downloads of at most 2 GiB, decompressing to at most 16 GiB (the
    /// largest regional tables are a few hundred MB), four tries 10 s apart and more, a queued
    /// extraction asked after every 30 s for up to 30 minutes.
    pub fn new(url: &str) -> Settings {
        Settings {
            url: url.to_owned(),
            ca_file: None,
            max_download: 2 << 30,
            max_inflated: 16 << 30,
            tries: 4,
            backoff: Duration::from_secs(10),
            poll: Duration::from_secs(30),
            wait: Duration::from_secs(30 * 60),
        }
    }
}

/// What fetching one dataset did.
#[derive(Debug, serde::Serialize)]
pub struct Outcome {
    pub dataset: String,
    /// The import's outcome (its snapshot is none when the download was the latest snapshot's
    /// file), or why the dataset stays as it was.
    #[serde(flatten, serialize_with = "without_dataset")]
    pub imported: Option<ImportOutcome>,
    pub error: Option<String>,
    /// What did not stop it (a structure that could not be read: codes stand for labels).
    pub warnings: Vec<String>,
    /// Region codes its rows hold that the bundled classification does not know (earlier NUTS
    /// editions, aggregates it does not name): kept and served as published.
    pub unclassified_regions: Vec<String>,
}

/// An import's outcome without its `dataset`, which the fetch's outcome gives once.
fn without_dataset<S: serde::Serializer>(
    imported: &Option<ImportOutcome>,
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::Serialize;
    let mut shown = serde_json::to_value(imported).map_err(serde::ser::Error::custom)?;
    if let Some(fields) = shown.as_object_mut() {
        fields.remove("dataset");
    }
    shown.serialize(s)
}

impl Outcome {
    /// The outcome of dataset `code`: what `imported` gave, or why it failed, with the region
    /// codes the dataset then holds that the classification does not know.
    pub fn of(
        store: &Store,
        code: &str,
        imported: anyhow::Result<ImportOutcome>,
        warnings: Vec<String>,
    ) -> anyhow::Result<Outcome> {
        let unclassified_regions =
            crate::store::eurostat::unclassified_codes(&store.admin()?.sql(), code)?;
        let (imported, error) = match imported {
            Ok(imported) => (Some(imported), None),
            Err(e) => (None, Some(format!("{e:#}"))),
        };
        Ok(Outcome {
            dataset: code.to_owned(),
            imported,
            error,
            warnings,
            unclassified_regions,
        })
    }
}

/// Most bytes of the table of contents and of a structure message read (Eurostat's whole
/// table of contents is a few MB), held in memory as text.
pub const MAX_TEXT: u64 = 64 << 20;

/// Why a request failed, and whether trying again can help.
enum Failure {
    Again(anyhow::Error),
    Final(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Final(e)
    }
}

/// A conversation with Eurostat's API: the client, its settings, and where downloads go.
pub struct Session<'s> {
    runtime: tokio::runtime::Runtime,
    client: Client,
    settings: &'s Settings,
    dir: PathBuf,
    /// What the operator set of datasets, in the downloads directory's settings file.
    described: DatasetSettings,
}

impl<'s> Session<'s> {
    /// A session with the API `settings` name, downloading into `<data_dir>/eurostat`.
    pub fn open(settings: &'s Settings, data_dir: &Path) -> anyhow::Result<Session<'s>> {
        let dir = downloads_dir(data_dir)?;
        Ok(Session {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?,
            client: Client::new(&settings.url, settings.ca_file.as_deref())?,
            settings,
            described: DatasetSettings::load(&dir)?,
            dir,
        })
    }

    /// Eurostat's table of contents, read now.
    pub fn toc(&self) -> anyhow::Result<Toc> {
        self.runtime
            .block_on(read_toc(&self.client, self.settings, &self.dir))
            .context("cannot read Eurostat's table of contents")
    }

    /// The entries of `codes` in `toc`; an unknown one fails, naming it.
    pub fn entries(toc: &Toc, codes: &[String]) -> anyhow::Result<Vec<Entry>> {
        codes
            .iter()
            .map(|code| {
                (toc.get(code).cloned())
                    .with_context(|| format!("Eurostat's table of contents has no dataset {code}"))
            })
            .collect()
    }

    /// Fetches the datasets of `entries` one after another: the outcome of each, a failed one
    /// among them (recorded as the dataset's last error).
    pub fn fetch(
        &self,
        (store, catalogue): (&Store, &Catalogue),
        entries: &[Entry],
        room: &Room,
        progress: &mut Progress,
    ) -> anyhow::Result<Vec<Outcome>> {
        let mut outcomes = Vec::with_capacity(entries.len());
        for (number, entry) in entries.iter().enumerate() {
            if entries.len() > 1 {
                progress.place(number + 1, entries.len());
            }
            progress.note(&entry.code, "downloading");
            let mut warnings = Vec::new();
            let fetched = fetch_one(
                &self.runtime,
                (&self.client, self.settings),
                (store, catalogue, &self.described),
                entry,
                (&self.dir, room),
                &mut warnings,
                progress,
            );
            // A dataset that is not regional, and was never fetched, stays out of the record:
            // a sync would ask for it again twice a day, and fail each time.
            let record = |e: &anyhow::Error| -> anyhow::Result<bool> {
                Ok(e.downcast_ref::<NotRegional>().is_none()
                    || crate::store::eurostat::fetched(&store.admin()?.sql(), &entry.code)?
                        .is_some())
            };
            if let Err(e) = &fetched
                && record(e)?
            {
                let url = self.client.url(&data_target(&entry.code));
                crate::store::eurostat::record_failure(
                    &store.admin()?.sql(),
                    (&entry.code, &entry.title, &url),
                    crate::runtime::clock::now_ms(),
                    &format!("{e:#}"),
                )?;
            }
            outcomes.push(Outcome::of(store, &entry.code, fetched, warnings)?);
        }
        Ok(outcomes)
    }
}

/// `<data_dir>/eurostat`, made owner-only: the last download of each dataset, kept.
pub fn downloads_dir(data_dir: &Path) -> anyhow::Result<PathBuf> {
    let dir = data_dir.join("eurostat");
    crate::runtime::private_files::create_dir(&dir)?;
    Ok(dir)
}

/// The data request of dataset `code`.
pub fn data_target(code: &str) -> String {
    format!(
        "/sdmx/2.1/data/{}?format=TSV&compressed=true",
        code.to_ascii_uppercase()
    )
}

fn structure_target(code: &str) -> String {
    format!(
        "/sdmx/2.1/dataflow/ESTAT/{}/latest?references=descendants&detail=referencepartial",
        code.to_ascii_uppercase()
    )
}

/// The table of contents' request (English titles).
const TOC_TARGET: &str = "/catalogue/toc/txt?lang=en";

async fn read_toc(client: &Client, settings: &Settings, dir: &Path) -> anyhow::Result<Toc> {
    let text = get_text(client, settings, TOC_TARGET, dir).await?;
    toc::parse(&text)
}

/// The text answer to `target`, tried again where that can help.
async fn get_text(
    client: &Client,
    settings: &Settings,
    target: &str,
    dir: &Path,
) -> anyhow::Result<String> {
    let body = with_tries(settings, target, || async {
        let mut body = Vec::new();
        let answer = client
            .get(target, &mut body, MAX_TEXT, dir)
            .await
            .map_err(Failure::Again)?;
        check_status(answer.status, &body)?;
        Ok(body)
    })
    .await?;
    String::from_utf8(body).context("the answer is not UTF-8 text")
}

/// Whether `status` is an answer to read; a fault or a failure otherwise, said with Eurostat's
/// own words where its body gives them.
fn check_status(status: u16, body: &[u8]) -> Result<(), Failure> {
    let said = || fault_string(body).unwrap_or_else(|| format!("HTTP {status}"));
    match status {
        200 => Ok(()),
        404 => Err(Failure::Final(anyhow::anyhow!(
            "Eurostat has no such dataset: {}",
            said()
        ))),
        413 => Err(Failure::Final(anyhow::anyhow!(
            "Eurostat refuses to extract the dataset whole: {}",
            said()
        ))),
        429 | 500..=599 => Err(Failure::Again(anyhow::anyhow!(
            "Eurostat answered {}",
            said()
        ))),
        _ => Err(Failure::Final(anyhow::anyhow!(
            "Eurostat answered {}",
            said()
        ))),
    }
}

/// The `faultstring` of a SOAP fault (Eurostat's error answers), if `body` is one.
fn fault_string(body: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(body.get(..body.len().min(64 * 1024))?).ok()?;
    let start = text.find("<faultstring>")? + "<faultstring>".len();
    let end = start + text[start..].find("</faultstring>")?;
    Some(super::printable(text[start..end].trim()))
}

/// Runs `attempt` up to `settings.tries` times while it fails in a way another try may mend,
/// waiting `backoff`, then twice as long, between tries.
async fn with_tries<T, F, Fut>(settings: &Settings, what: &str, attempt: F) -> anyhow::Result<T>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<T, Failure>>,
{
    let mut wait = settings.backoff;
    let mut tried = 1;
    loop {
        match attempt().await {
            Ok(value) => return Ok(value),
            Err(Failure::Final(e)) => return Err(e),
            Err(Failure::Again(e)) if tried >= settings.tries.max(1) => {
                return Err(e.context(format!("{what}: {tried} tries failed")));
            }
            Err(Failure::Again(e)) => {
                tracing::warn!(request = what, error = %format!("{e:#}"), retry_in_secs = wait.as_secs_f64(), "Eurostat: trying again");
                tokio::time::sleep(wait).await;
                wait = wait.saturating_mul(2);
                tried += 1;
            }
        }
    }
}

/// What a fetch received of one dataset, and where from: kept beside its download as
/// `<code>.json` (what a bundle carries of it), and what citations of its rows name.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Received {
    /// Its entry in the table of contents read for the fetch.
    pub entry: Entry,
    pub toc_url: String,
    /// The data request, when it was answered, and the SHA-256 and size of what came.
    pub url: String,
    /// Unix ms.
    pub downloaded_at: i64,
    pub sha256_received: String,
    pub bytes_received: u64,
    /// The structure request, when one was answered (none: its codes stand for labels).
    pub structure_url: Option<String>,
}

/// The files kept of dataset `code` in the downloads directory: its record, its structure
/// message as received and its data as received.
pub fn kept_files(dir: &Path, code: &str) -> [PathBuf; 3] {
    [
        dir.join(format!("{code}.json")),
        dir.join(format!("structure_{code}.xml")),
        dir.join(format!("estat_{code}.tsv.gz")),
    ]
}

/// A dataset without a `geo` dimension: refused, whatever another try would bring.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotRegional(String);

impl NotRegional {
    fn of(code: &str, dimensions: &str) -> NotRegional {
        NotRegional(format!(
            "{code} has no geo dimension (its dimensions: {}): regintel serves regional data",
            super::printable(dimensions)
        ))
    }
}

/// Fetches and imports one dataset.
fn fetch_one(
    runtime: &tokio::runtime::Runtime,
    (client, settings): (&Client, &Settings),
    (store, catalogue, described): (&Store, &Catalogue, &DatasetSettings),
    entry: &Entry,
    (dir, room): (&Path, &Room),
    warnings: &mut Vec<String>,
    progress: &mut Progress,
) -> anyhow::Result<ImportOutcome> {
    let code = &entry.code;
    let structure_xml = runtime
        .block_on(get_text(client, settings, &structure_target(code), dir))
        .map_err(|e| {
            warnings.push(unread_structure(code, &e));
        })
        .ok();
    let structure = read_structure(code, structure_xml.as_deref(), warnings)?;
    let download = runtime.block_on(download(client, settings, code, dir))?;
    let received = Received {
        entry: entry.clone(),
        toc_url: client.url(TOC_TARGET),
        url: client.url(&data_target(code)),
        downloaded_at: crate::runtime::clock::now_ms(),
        sha256_received: download.sha256.clone(),
        bytes_received: download.bytes,
        structure_url: structure_xml
            .as_ref()
            .map(|_| client.url(&structure_target(code))),
    };
    let outcome = import_received(
        (store, catalogue, described),
        &received,
        &structure,
        &download,
        (dir, room, settings.max_inflated),
        progress,
    )?;
    // What was received, kept (the last of each dataset) for a bundle made later.
    let [record, kept_structure, data] = kept_files(dir, code);
    match &structure_xml {
        Some(xml) => crate::runtime::private_files::write(&kept_structure, xml.as_bytes())?,
        None => {
            let _ = std::fs::remove_file(&kept_structure);
        }
    }
    std::fs::rename(&download.path, data).context("keeping the download")?;
    crate::runtime::private_files::write(&record, &serde_json::to_vec_pretty(&received)?)?;
    Ok(outcome)
}

fn unread_structure(code: &str, e: &anyhow::Error) -> String {
    format!("the structure of {code} could not be read ({e:#}): its codes stand for their labels")
}

/// The structure of dataset `code` from its message (none, or unreadable: codes stand for
/// labels, with a warning); a dataset without a geo dimension is refused.
pub fn read_structure(
    code: &str,
    xml: Option<&str>,
    warnings: &mut Vec<String>,
) -> anyhow::Result<Structure> {
    let structure = match xml.map(|xml| structure::parse(xml, code)) {
        Some(Ok(structure)) => structure,
        Some(Err(e)) => {
            warnings.push(unread_structure(code, &e));
            Structure::default()
        }
        None => Structure::default(),
    };
    let dimensions: Vec<&str> = structure
        .dimensions
        .iter()
        .map(|(d, _)| d.as_str())
        .collect();
    if !dimensions.is_empty() && !dimensions.contains(&"geo") {
        return Err(NotRegional::of(code, &dimensions.join(", ")).into());
    }
    Ok(structure)
}

/// Imports the data `received` of a dataset (its download, as received, at `download`) as a
/// snapshot cited to that download, described as `described` sets, and records the fetch;
/// nothing when it fails.
pub fn import_received(
    (store, catalogue, described): (&Store, &Catalogue, &DatasetSettings),
    received: &Received,
    structure: &Structure,
    download: &Written,
    (dir, room, max_inflated): (&Path, &Room, u64),
    progress: &mut Progress,
) -> anyhow::Result<ImportOutcome> {
    let entry = &received.entry;
    let code = &entry.code;
    let inflated = inflate(download, max_inflated, dir)
        .with_context(|| format!("decompressing the download of {code}"))?;
    let outcome = check_header(code, &inflated.path).and_then(|()| {
        let name = format!("estat_{code}.tsv");
        let source = SourceRecord {
            publisher: "Eurostat".into(),
            title: entry.title.clone(),
            landing_url: Some(format!(
                "https://ec.europa.eu/eurostat/databrowser/view/{code}/default/table?lang=en"
            )),
            license: "Eurostat copyright notice (https://ec.europa.eu/eurostat/web/main/help/copyright-notice): reuse authorised provided the source (Eurostat) is acknowledged.".into(),
            origin_json: serde_json::json!({
                "type": "eurostat",
                "url": received.url,
                "downloaded_at": crate::runtime::clock::rfc3339(received.downloaded_at),
                "sha256_received": received.sha256_received,
                "path": name,
                "sha256": inflated.sha256,
                "format": "eurostat-tsv",
                "last_update_of_data": entry.last_update_of_data,
            })
            .to_string(),
            transformation: None,
            shown: ShownOnce::default(),
        };
        let short_title = super::described::short_title(entry);
        let fetched = FetchedFile {
            path: &inflated.path,
            name: &name,
            code,
            title: &entry.title,
            topic: super::topic_of(&entry.folders),
            labels: &structure.labels,
            short_title: &short_title,
            set: described.of(code),
            source,
        };
        let record =
            |tx: &crate::store::sql::Tx<'_>, outcome: &ImportOutcome| -> anyhow::Result<()> {
                let snapshot = match &outcome.snapshot {
                    Some(new) => Some(new.clone()),
                    None => crate::store::import::latest_snapshot_id(tx, code)?,
                };
                crate::store::eurostat::record_success(
                    tx,
                    &crate::store::eurostat::Download {
                        dataset_code: code,
                        title: &entry.title,
                        url: &received.url,
                        last_update_of_data: entry.last_update_of_data.as_deref(),
                        last_structure_change: entry.last_structure_change.as_deref(),
                        downloaded_at: received.downloaded_at,
                        sha256_received: &received.sha256_received,
                        sha256: &inflated.sha256,
                        bytes_received: received.bytes_received,
                        snapshot: snapshot.as_deref(),
                    },
                )?;
                Ok(())
            };
        crate::import::import_fetched(store, catalogue, &fetched, room, &record, progress)
    });
    let _ = std::fs::remove_file(&inflated.path);
    outcome
}

/// A file written as it was received or decompressed, with its SHA-256 and size.
pub struct Written {
    pub path: PathBuf,
    pub sha256: String,
    pub bytes: u64,
}

/// Copies `from` to `to`: the SHA-256 (hex) and size of what was copied.
pub fn copy_hashing(mut from: impl Read, to: impl Write) -> std::io::Result<(String, u64)> {
    let mut sink = Hashing {
        inner: to,
        sha256: Sha256::new(),
    };
    let bytes = std::io::copy(&mut from, &mut sink)?;
    sink.flush()?;
    Ok((crate::ids::hex(&sink.sha256.finalize()), bytes))
}

/// A writer that hashes what it writes.
struct Hashing<W> {
    inner: W,
    sha256: Sha256,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sha256.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Downloads dataset `code`'s data to `<dir>/<code>.download`, following Eurostat's answer that
/// it queued the extraction.
async fn download(
    client: &Client,
    settings: &Settings,
    code: &str,
    dir: &Path,
) -> anyhow::Result<Written> {
    let path = dir.join(format!("{code}.download"));
    let target = data_target(code);
    let mut resubmitted = false;
    loop {
        let written = get_file(client, settings, &target, &path, dir).await?;
        let queued = match sniff(&written.path)? {
            Body::Data => return Ok(written),
            Body::Queued(key) => key,
            Body::Other(start) => bail!(
                "Eurostat's answer is not the compressed TSV asked for (it begins {})",
                crate::error_text::shown(&start)
            ),
        };
        tracing::info!(dataset = code, key = %queued, "Eurostat queued the extraction");
        match wait_for(client, settings, &queued, dir).await? {
            Ready::Available => {
                let ready = format!("/1.0/async/data/{queued}");
                let written = get_file(client, settings, &ready, &path, dir).await?;
                match sniff(&written.path)? {
                    Body::Data => return Ok(written),
                    _ => bail!("Eurostat's queued extraction {queued} gave no compressed TSV"),
                }
            }
            // An extraction kept too long expires; asked again once, it is made anew.
            Ready::Expired if !resubmitted => resubmitted = true,
            Ready::Expired => bail!("Eurostat's queued extraction expired twice"),
        }
    }
}

/// GETs `target` to `path`, tried again where that can help.
async fn get_file(
    client: &Client,
    settings: &Settings,
    target: &str,
    path: &Path,
    dir: &Path,
) -> anyhow::Result<Written> {
    with_tries(settings, target, || async {
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let mut sink = Hashing {
            inner: std::io::BufWriter::new(file),
            sha256: Sha256::new(),
        };
        let answer = client
            .get(target, &mut sink, settings.max_download, dir)
            .await
            .map_err(|e| match e.downcast_ref::<client::Refused>() {
                Some(_) => Failure::Final(e),
                None => Failure::Again(e),
            })?;
        sink.flush().context("writing the download")?;
        if answer.status != 200 {
            let mut start = Vec::new();
            std::fs::File::open(path)
                .and_then(|f| f.take(64 * 1024).read_to_end(&mut start))
                .ok();
            check_status(answer.status, &start)?;
        }
        Ok(Written {
            path: path.to_owned(),
            sha256: crate::ids::hex(&sink.sha256.finalize()),
            bytes: answer.bytes,
        })
    })
    .await
}

/// What a data answer holds.
enum Body {
    /// Compressed TSV.
    Data,
    /// Eurostat's word that it queued the extraction, with its key.
    Queued(String),
    /// Something else; its first characters.
    Other(String),
}

/// First two bytes of every gzip member (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

fn sniff(path: &Path) -> anyhow::Result<Body> {
    let mut start = Vec::new();
    std::fs::File::open(path)?
        .take(64 * 1024)
        .read_to_end(&mut start)?;
    if start.starts_with(&GZIP_MAGIC) {
        return Ok(Body::Data);
    }
    let text = String::from_utf8_lossy(&start);
    // The key goes into a request's path: a key of other characters is no answer Eurostat gives.
    if let Some(key) = between(&text, "<queued>", "</queued>")
        .and_then(|queued| between(queued, "<id>", "</id>"))
        .map(str::trim)
        .filter(|key| super::toc::is_code(key))
    {
        return Ok(Body::Queued(key.to_owned()));
    }
    Ok(Body::Other(super::printable(
        &text.chars().take(80).collect::<String>(),
    )))
}

fn between<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let start = text.find(open)? + open.len();
    let end = start + text[start..].find(close)?;
    Some(&text[start..end])
}

/// How a queued extraction ended.
enum Ready {
    Available,
    Expired,
}

/// Asks for the status of the queued extraction `key` every `settings.poll` until it is
/// available or expired, for `settings.wait` at most.
async fn wait_for(
    client: &Client,
    settings: &Settings,
    key: &str,
    dir: &Path,
) -> anyhow::Result<Ready> {
    let deadline = tokio::time::Instant::now() + settings.wait;
    let target = format!("/1.0/async/status/{key}");
    loop {
        let answer = get_text(client, settings, &target, dir).await?;
        // `<ns1:status><ns1:key>…</ns1:key><ns1:status>AVAILABLE</ns1:status></ns1:status>`.
        let status = ["AVAILABLE", "EXPIRED", "PROCESSING", "SUBMITTED"]
            .into_iter()
            .find(|s| answer.contains(&format!(">{s}<")));
        match status {
            Some("AVAILABLE") => return Ok(Ready::Available),
            Some("EXPIRED") => return Ok(Ready::Expired),
            Some(_) => {}
            None => bail!(
                "Eurostat's status of the queued extraction {key} is none it documents: {}",
                crate::error_text::shown(&answer)
            ),
        }
        if tokio::time::Instant::now() + settings.poll > deadline {
            bail!(
                "Eurostat's queued extraction {key} was not ready within {} s",
                settings.wait.as_secs()
            );
        }
        tokio::time::sleep(settings.poll).await;
    }
}

/// Decompresses `download` (every gzip member) to `<dir>/<name>.tsv`, at most `max` bytes, while
/// the disk keeps its reserve (checked before, from what the last member says it holds, and
/// every [`ROOM_CHECK_EVERY`] bytes written: a member's stated size is the sender's word).
/// Nothing is left behind when it fails.
fn inflate(download: &Written, max: u64, dir: &Path) -> anyhow::Result<Written> {
    let path = download.path.with_extension("tsv");
    let inflated = inflate_to(download, max, dir, &path);
    if inflated.is_err() {
        let _ = std::fs::remove_file(&path);
    }
    inflated
}

/// Bytes written between two looks at the disk's free space.
const ROOM_CHECK_EVERY: u64 = 64 << 20;

fn inflate_to(download: &Written, max: u64, dir: &Path, path: &Path) -> anyhow::Result<Written> {
    let mut file = std::fs::File::open(&download.path)?;
    // ISIZE, the last four bytes of a member: its size modulo 2^32, a lower bound of the whole.
    let length = file.metadata()?.len();
    if length >= 4 {
        use std::io::Seek;
        let mut isize = [0u8; 4];
        file.seek(std::io::SeekFrom::End(-4))?;
        file.read_exact(&mut isize)?;
        client::ensure_room(dir, u64::from(u32::from_le_bytes(isize)))?;
        file.seek(std::io::SeekFrom::Start(0))?;
    }
    let out =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let room = |needed| client::ensure_room(dir, needed);
    let mut sink = Hashing {
        inner: RoomKept::new(std::io::BufWriter::new(out), &room),
        sha256: Sha256::new(),
    };
    let mut decoder =
        flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file)).take(max + 1);
    let bytes = match std::io::copy(&mut decoder, &mut sink) {
        Ok(bytes) => bytes,
        Err(e) => match sink.inner.refused.take() {
            Some(refused) => return Err(refused),
            None => return Err(anyhow::Error::new(e).context("corrupt or cut-short gzip data")),
        },
    };
    if bytes > max {
        bail!("the download decompresses to more than {max} bytes (the limit)");
    }
    sink.flush()?;
    Ok(Written {
        path: path.to_owned(),
        sha256: crate::ids::hex(&sink.sha256.finalize()),
        bytes,
    })
}

/// A writer that stops when `room` (the disk's check: is there room for so many more bytes?)
/// refuses, asked every [`ROOM_CHECK_EVERY`] bytes.
struct RoomKept<'r, W> {
    inner: W,
    room: &'r dyn Fn(u64) -> anyhow::Result<()>,
    /// Bytes written since the last look.
    unchecked: u64,
    /// Why it stopped, when the disk's reserve did.
    refused: Option<anyhow::Error>,
}

impl<'r, W> RoomKept<'r, W> {
    fn new(inner: W, room: &'r dyn Fn(u64) -> anyhow::Result<()>) -> Self {
        RoomKept {
            inner,
            room,
            unchecked: 0,
            refused: None,
        }
    }
}

impl<W: Write> Write for RoomKept<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.unchecked >= ROOM_CHECK_EVERY {
            if let Err(refused) = (self.room)(ROOM_CHECK_EVERY) {
                let said = std::io::Error::other(refused.to_string());
                self.refused = Some(refused);
                return Err(said);
            }
            self.unchecked = 0;
        }
        let n = self.inner.write(buf)?;
        self.unchecked += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Refuses a file whose header is not a Eurostat TSV's with a `geo` dimension.
fn check_header(code: &str, path: &Path) -> anyhow::Result<()> {
    use std::io::BufRead;
    let mut first = String::new();
    std::io::BufReader::new(std::fs::File::open(path)?.take(64 * 1024)).read_line(&mut first)?;
    let dims = first.split('\t').next().unwrap_or("");
    let Some((names, _)) = dims.split_once('\\') else {
        bail!(
            "the download of {code} is not a Eurostat TSV (its first line begins {})",
            crate::error_text::shown(dims)
        );
    };
    if !names.split(',').any(|d| d.trim() == "geo") {
        return Err(NotRegional::of(code, names).into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decompressing stops when the disk's reserve would be touched, and what fails leaves no
    /// file behind.
    #[test]
    fn decompression_keeps_the_disks_reserve_and_leaves_nothing_when_it_fails() {
        let full = |_: u64| -> anyhow::Result<()> { bail!("the disk keeps its reserve") };
        let mut sink = RoomKept::new(std::io::sink(), &full);
        let mut zeros = std::io::repeat(0).take(ROOM_CHECK_EVERY + 1);
        assert!(std::io::copy(&mut zeros, &mut sink).is_err());
        let refused = sink.refused.take().expect("the refusal kept");
        assert_eq!(refused.to_string(), "the disk keeps its reserve");
        let roomy = |_: u64| Ok(());
        let mut sink = RoomKept::new(std::io::sink(), &roomy);
        let mut zeros = std::io::repeat(0).take(3 * ROOM_CHECK_EVERY);
        assert_eq!(
            std::io::copy(&mut zeros, &mut sink).unwrap(),
            3 * ROOM_CHECK_EVERY
        );

        let dir = tempfile::tempdir().unwrap();
        let download = dir.path().join("x.download");
        let mut cut = {
            use std::io::Write;
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(&[b'a'; 100_000]).unwrap();
            gz.finish().unwrap()
        };
        cut.truncate(cut.len() / 2);
        std::fs::write(&download, &cut).unwrap();
        let written = Written {
            path: download,
            sha256: String::new(),
            bytes: cut.len() as u64,
        };
        let why = format!(
            "{:#}",
            inflate(&written, 1 << 30, dir.path()).err().unwrap()
        );
        assert!(why.contains("gzip"), "{why}");
        assert!(!dir.path().join("x.tsv").exists(), "nothing left behind");
    }

    #[test]
    fn an_outcome_names_its_dataset_once() {
        let imported = ImportOutcome {
            dataset: "x".into(),
            file: "estat_x.tsv".into(),
            snapshot: None,
            written: true,
            rows_in_file: 1,
            added: 0,
            revised: 0,
            unchanged: 1,
            withdrawn: 0,
            new_regions: Vec::new(),
        };
        for imported in [Some(imported), None] {
            let outcome = Outcome {
                dataset: "x".into(),
                imported,
                error: None,
                warnings: Vec::new(),
                unclassified_regions: Vec::new(),
            };
            let text = serde_json::to_string(&outcome).unwrap();
            assert_eq!(text.matches("\"dataset\"").count(), 1, "{text}");
        }
    }

    #[test]
    fn eurostats_answers_are_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().join("answer");
        let queued = include_str!("../../tests/fixtures/eurostat/async-queued.xml");
        std::fs::write(&at, queued).unwrap();
        assert!(
            matches!(sniff(&at).unwrap(), Body::Queued(key) if key == "e3d39a1b-27eb-4ce4-936d-8f95b23bf74f")
        );
        std::fs::write(&at, [0x1f, 0x8b, 8, 0]).unwrap();
        assert!(matches!(sniff(&at).unwrap(), Body::Data));
        std::fs::write(&at, "<html>sorry</html>").unwrap();
        assert!(matches!(sniff(&at).unwrap(), Body::Other(s) if s.starts_with("<html>")));
        let fault = include_bytes!("../../tests/fixtures/eurostat/fault-100-data.xml");
        assert_eq!(
            fault_string(fault).as_deref(),
            Some("ERR_NOT_FOUND_2: DATA_SET:DS-999999 is not available for dissemination.")
        );
        assert!(matches!(check_status(404, fault), Err(Failure::Final(_))));
        assert!(matches!(check_status(503, b""), Err(Failure::Again(_))));
        assert!(matches!(check_status(429, b""), Err(Failure::Again(_))));
        assert!(matches!(check_status(413, b""), Err(Failure::Final(_))));
    }
}
