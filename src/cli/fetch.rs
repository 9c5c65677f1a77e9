//! `regintel fetch DATASET...` and `regintel sync`: datasets downloaded from Eurostat's API and
//! imported, each as a snapshot (see `crate::eurostat`). Operator commands like `import`: they
//! write to the database of the data directory (or `--database-url`), which a running server
//! reads.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;

use super::args::{DataDir, ImportMemory};
use super::logging::{LogFormat, Printed};
use crate::bundled::Catalogue;
use crate::eurostat::fetch::{self, Settings};

#[derive(Args)]
pub struct FetchArgs {
    /// Dataset codes as Eurostat writes them (nama_10r_3gdp, demo_r_pjanaggr3).
    #[arg(required_unless_present_any = ["list", "all_regional"], conflicts_with_all = ["list", "all_regional"])]
    datasets: Vec<String>,
    /// List the datasets and tables of Eurostat's regional folders (code, title, last update,
    /// whether this install holds it) instead of fetching.
    #[arg(long, conflicts_with = "all_regional")]
    list: bool,
    /// With --list: only those whose code or title holds every one of these words.
    #[arg(long, requires = "list", value_name = "WORDS")]
    search: Option<String>,
    /// Fetch every dataset and table of Eurostat's regional folders (a few hundred).
    #[arg(long)]
    all_regional: bool,
    #[command(flatten)]
    eurostat: EurostatArgs,
}

/// A regional dataset of Eurostat's table of contents, and whether this install holds it.
#[derive(serde::Serialize)]
struct Listed<'t> {
    #[serde(flatten)]
    entry: &'t crate::eurostat::toc::Entry,
    /// `fetched` (from Eurostat), `imported` (the bundled extract or a file), or none.
    held: Option<&'static str>,
    /// For a fetched one, Eurostat's last update of its data when it was fetched.
    held_update: Option<String>,
}

/// How fetch and sync reach Eurostat, and where they import.
#[derive(Args)]
pub struct EurostatArgs {
    /// The base URL of Eurostat's dissemination API, or of a mirror or proxy that answers as it
    /// does.
    #[arg(long, env = "REGINTEL_EUROSTAT_URL", default_value = crate::eurostat::DEFAULT_URL)]
    eurostat_url: String,
    /// PEM certificates to trust for the Eurostat URL besides the system's (a proxy's own CA).
    #[arg(long, env = "REGINTEL_EUROSTAT_CA_FILE")]
    eurostat_ca_file: Option<PathBuf>,
    /// Most MiB a download may bring.
    #[arg(long, env = "REGINTEL_EUROSTAT_MAX_DOWNLOAD_MB", default_value_t = 2048,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_download_mb: u64,
    /// Most MiB a download may decompress to.
    #[arg(long, env = "REGINTEL_EUROSTAT_MAX_INFLATED_MB", default_value_t = 16384,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_inflated_mb: u64,
    /// Seconds before the second try of a request that failed in a way another try may mend
    /// (no answer, 5xx, 429, cut short), doubled before each next one; four tries in all.
    #[arg(long, env = "REGINTEL_EUROSTAT_RETRY_SECONDS", default_value_t = 10.0)]
    retry_seconds: f64,
    /// Seconds between asks for the status of an extraction Eurostat queued.
    #[arg(long, env = "REGINTEL_EUROSTAT_POLL_SECONDS", default_value_t = 30.0)]
    poll_seconds: f64,
    /// Most seconds to wait for an extraction Eurostat queued.
    #[arg(long, env = "REGINTEL_EUROSTAT_WAIT_SECONDS", default_value_t = 1800.0)]
    wait_seconds: f64,
    #[command(flatten)]
    memory: ImportMemory,
    #[command(flatten)]
    data: DataDir,
    /// Print the outcome as JSON.
    #[arg(long)]
    json: bool,
}

/// A number of seconds a flag gives, as a duration (refusing what is none).
fn seconds(flag: &str, value: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(value)
        .map_err(|_| anyhow::anyhow!("--{flag} must be a number of seconds, not {value}"))
}

impl EurostatArgs {
    fn settings(&self) -> anyhow::Result<Settings> {
        Ok(Settings {
            ca_file: self.eurostat_ca_file.clone(),
            max_download: self.max_download_mb << 20,
            max_inflated: self.max_inflated_mb << 20,
            backoff: seconds("retry-seconds", self.retry_seconds)?,
            poll: seconds("poll-seconds", self.poll_seconds)?,
            wait: seconds("wait-seconds", self.wait_seconds)?,
            ..Settings::new(&self.eurostat_url)
        })
    }

    fn store(&self) -> anyhow::Result<(crate::store::Store, crate::import::Room)> {
        open_store(&self.data, &self.memory)
    }
}

/// The store to import into (made where missing), and the room of its imports.
fn open_store(
    data: &DataDir,
    memory: &ImportMemory,
) -> anyhow::Result<(crate::store::Store, crate::import::Room)> {
    let data_dir = &data.data_dir;
    crate::runtime::private_files::create_dir(data_dir)?;
    let room = crate::import::Room {
        memory: memory.bytes()?,
        spill_dir: data_dir.clone(),
    };
    let store = crate::store::Store::open_with(
        &data.database()?,
        1,
        1,
        crate::config::defaults::DATABASE_WAIT,
    )?;
    Ok((store, room))
}

#[derive(clap::Subcommand)]
pub enum BundleAction {
    /// Write one file holding the last downloads of DATASET... as Eurostat sent them, their
    /// table-of-contents entries and structures, and a manifest of their SHA-256s (datasets not
    /// fetched here yet are fetched first), for `import --bundle` on an install with no route
    /// to Eurostat.
    Create {
        /// The bundle to write.
        #[arg(long)]
        out: PathBuf,
        /// Dataset codes as Eurostat writes them.
        #[arg(required = true)]
        datasets: Vec<String>,
        /// Sign the bundle with this ed25519 private key (PEM, from `bundle keygen` or
        /// `openssl genpkey -algorithm ed25519`).
        #[arg(long, value_name = "KEYFILE")]
        sign: Option<PathBuf>,
        #[command(flatten)]
        eurostat: Box<EurostatArgs>,
    },
    /// Make a key pair to sign bundles: KEYFILE (private, owner-only) and KEYFILE.pub (what
    /// `import --bundle --trust` takes).
    Keygen {
        /// Where to write the private key (the public one goes beside it, with `.pub` added).
        #[arg(long, value_name = "KEYFILE")]
        out: PathBuf,
    },
}

/// `regintel bundle ...`.
pub fn bundle(action: BundleAction, format: LogFormat) -> anyhow::Result<()> {
    use crate::eurostat::bundle;
    match action {
        BundleAction::Keygen { out } => {
            let public = bundle::keygen(&out)?;
            format.say(&format!(
                "wrote {} (keep it private) and {} (give it to the installs that import your bundles: import --bundle FILE --trust {})",
                out.display(),
                public.display(),
                public.display()
            ));
            Ok(())
        }
        BundleAction::Create {
            out,
            datasets,
            sign,
            eurostat,
        } => {
            let key = sign.as_deref().map(bundle::signing_key).transpose()?;
            let (store, room) = eurostat.store()?;
            // Held while the downloads are read: a sync must not replace one meanwhile.
            let _lock = supply_lock(&store, &eurostat.data.data_dir)?;
            let dir = fetch::downloads_dir(&eurostat.data.data_dir)?;
            let mut missing = Vec::new();
            for code in &datasets {
                if bundle::kept_record(&dir, &code.to_ascii_lowercase())?.is_none() {
                    missing.push(code.clone());
                }
            }
            if !missing.is_empty() {
                fetch_first((&eurostat, &store, &room), &missing, format)?;
            }
            let manifest = bundle::create(&dir, &datasets, &out, key.as_ref())?;
            let bytes: u64 = manifest.files.iter().map(|f| f.bytes).sum();
            Printed::of(eurostat.json, format).print(&manifest, || {
                format!(
                    "wrote {}: {} datasets ({}), {} files, {:.1} MiB, {}",
                    out.display(),
                    manifest.datasets.len(),
                    manifest.datasets.join(", "),
                    manifest.files.len(),
                    bytes as f64 / (1 << 20) as f64,
                    match key {
                        Some(_) => "signed",
                        None => "not signed",
                    }
                )
            });
            Ok(())
        }
    }
}

/// Fetches `codes`, of which no download is kept, before a bundle is made of them: what it
/// says goes to standard error (standard output is the bundle's answer); one failed fails all.
fn fetch_first(
    (eurostat, store, room): (&EurostatArgs, &crate::store::Store, &crate::import::Room),
    codes: &[String],
    format: LogFormat,
) -> anyhow::Result<()> {
    let settings = eurostat.settings()?;
    let session = fetch::Session::open(&settings, &eurostat.data.data_dir)?;
    let entries = fetch::Session::entries(&session.toc()?, codes)?;
    let mut progress = format.progress();
    for code in codes {
        progress.note(code, "no download of it is kept here: fetching it first");
    }
    let outcomes = session.fetch(
        (store, &Catalogue::bundled()),
        &entries,
        room,
        &mut progress,
    )?;
    for outcome in &outcomes {
        for warning in &outcome.warnings {
            progress.note(&outcome.dataset, &format!("warning: {warning}"));
        }
        if let Some(error) = &outcome.error {
            bail!("cannot fetch {}: {error}", outcome.dataset);
        }
    }
    Ok(())
}

/// `regintel import --bundle FILE [--trust KEY]`: every file verified first, then each dataset
/// imported as a fetch would have.
pub fn import_bundle(
    (file, trust, allow_older): (&std::path::Path, Option<&std::path::Path>, bool),
    (data, memory): (&DataDir, &ImportMemory),
    json: bool,
    format: LogFormat,
) -> anyhow::Result<()> {
    use crate::eurostat::bundle;
    let trusted = trust.map(bundle::trusted_key).transpose()?;
    let started = std::time::Instant::now();
    let limits = Settings::new(crate::eurostat::DEFAULT_URL);
    let work_dir = fetch::downloads_dir(&data.data_dir)?;
    // Nothing is opened, let alone imported, before the whole bundle verifies.
    let verified = bundle::verify(file, trusted.as_deref(), &work_dir, limits.max_download)
        .with_context(|| format!("{} does not verify", file.display()))?;
    let (store, room) = open_store(data, memory)?;
    let _lock = supply_lock(&store, &data.data_dir)?;
    // With --json, standard output is the outcome alone.
    if !json {
        format.say(&format!(
            "{} verified: {} files of {} datasets, made {} by {}{}",
            file.display(),
            verified.manifest.files.len(),
            verified.manifest.datasets.len(),
            verified.manifest.created_at,
            verified.manifest.created_by,
            match trusted {
                Some(_) => ", signed by the trusted key",
                None => " (its signature, if any, not checked: no --trust)",
            }
        ));
    }
    let described = crate::eurostat::described::DatasetSettings::load(&work_dir)?;
    let outcomes = bundle::import(
        (&store, &Catalogue::bundled(), &described),
        &verified,
        (&room, limits.max_inflated, allow_older),
        &mut format.progress(),
    )?;
    tell(
        &outcomes,
        &outcomes,
        Printed::of(json, format),
        format,
        started,
    )
}

pub fn run(args: FetchArgs, format: LogFormat) -> anyhow::Result<()> {
    let eurostat = &args.eurostat;
    let settings = eurostat.settings()?;
    let (store, room) = eurostat.store()?;
    let started = std::time::Instant::now();
    let session = fetch::Session::open(&settings, &eurostat.data.data_dir)?;
    let toc = session.toc()?;
    if args.list {
        return list(
            &toc,
            args.search.as_deref().unwrap_or(""),
            &store,
            eurostat.json,
            format,
        );
    }
    let _lock = supply_lock(&store, &eurostat.data.data_dir)?;
    let entries = match args.all_regional {
        true => toc.regional("").into_iter().cloned().collect(),
        false => fetch::Session::entries(&toc, &args.datasets)?,
    };
    let outcomes = session.fetch(
        (&store, &Catalogue::bundled()),
        &entries,
        &room,
        &mut format.progress(),
    )?;
    tell(
        &outcomes,
        &outcomes,
        Printed::of(eurostat.json, format),
        format,
        started,
    )
}

/// The lock of `store`'s data supply: refused while another fetch, sync or bundle import holds
/// it.
fn supply_lock(
    store: &crate::store::Store,
    data_dir: &std::path::Path,
) -> anyhow::Result<crate::store::process_lock::ProcessLock> {
    crate::eurostat::lock::take(store, data_dir)?.context(
        "another fetch, sync or bundle import of this database is running: try again when it has ended",
    )
}

/// `fetch --list`: the regional entries of `toc` that `search` finds, with what the install
/// holds of each.
fn list(
    toc: &crate::eurostat::toc::Toc,
    search: &str,
    store: &crate::store::Store,
    json: bool,
    format: LogFormat,
) -> anyhow::Result<()> {
    let admin = store.admin()?;
    let fetched: std::collections::HashMap<String, crate::store::eurostat::FetchRecord> =
        (crate::store::eurostat::all(&admin.sql())?.into_iter())
            .filter(|f| f.succeeded_at.is_some())
            .map(|f| (f.dataset_code.to_ascii_lowercase(), f))
            .collect();
    let imported = crate::store::import::public_dataset_codes(&admin.sql())?;
    let listed: Vec<Listed> = (toc.regional(search).into_iter())
        .map(|entry| {
            let code = entry.code.to_ascii_lowercase();
            let (held, held_update) = match fetched.get(&code) {
                Some(f) => (Some("fetched"), f.last_update_of_data.clone()),
                None if imported.contains(&code) => (Some("imported"), None),
                None => (None, None),
            };
            Listed {
                entry,
                held,
                held_update,
            }
        })
        .collect();
    Printed::of(json, format).print(&listed, || {
        let mut lines = vec![format!(
            "{:<20} {:<7} {:<11} {:<20} title",
            "code", "type", "updated", "held"
        )];
        for l in &listed {
            let held = match (l.held, &l.held_update) {
                (Some(held), Some(update)) => format!("{held} ({update})"),
                (Some(held), None) => held.to_owned(),
                (None, _) => "-".to_owned(),
            };
            lines.push(format!(
                "{:<20} {:<7} {:<11} {:<20} {}",
                l.entry.code,
                l.entry.kind,
                l.entry.last_update_of_data.as_deref().unwrap_or("-"),
                held,
                l.entry.title
            ));
        }
        lines.push(format!(
            "{} of Eurostat's regional datasets and tables{}",
            listed.len(),
            match search.trim() {
                "" => String::new(),
                words => format!(" hold \"{words}\""),
            }
        ));
        lines.join("\n")
    });
    Ok(())
}

/// `regintel sync`.
pub fn sync(args: EurostatArgs, format: LogFormat) -> anyhow::Result<()> {
    let settings = args.settings()?;
    let (store, room) = args.store()?;
    let started = std::time::Instant::now();
    let report = crate::eurostat::sync::sync(
        &store,
        &Catalogue::bundled(),
        &settings,
        &args.data.data_dir,
        &room,
        &mut format.progress(),
    )?;
    let printed = Printed::of(args.json, format);
    if !args.json {
        if report.already_running {
            format.say(
                "another fetch, sync or bundle import of this database is running: nothing done",
            );
        } else if report.fetched.is_empty() && report.current.is_empty() && report.gone.is_empty() {
            format.say("no dataset was fetched from Eurostat here yet: regintel fetch DATASET... first (regintel fetch --list names them)");
        }
        for (what, list) in [
            ("current (Eurostat changed nothing)", &report.current),
            (
                "no longer in Eurostat's table of contents, kept as they are",
                &report.gone,
            ),
        ] {
            if !list.is_empty() {
                format.say(&format!("{what}: {}", list.join(", ")));
            }
        }
    }
    tell(&report, &report.fetched, printed, format, started)
}

/// Prints `shown` (the outcomes in `outcomes`, warnings and all) and fails naming every dataset
/// that failed.
fn tell(
    shown: &impl serde::Serialize,
    outcomes: &[fetch::Outcome],
    printed: Printed,
    format: LogFormat,
    started: std::time::Instant,
) -> anyhow::Result<()> {
    // With --json the warnings are in what is printed.
    if !matches!(printed, Printed::Json) {
        for outcome in outcomes {
            for warning in &outcome.warnings {
                format.warn(&format!("{}: {warning}", outcome.dataset));
            }
        }
    }
    printed.print(shown, || {
        let mut lines: Vec<String> = outcomes.iter().map(said).collect();
        if outcomes.len() > 1 {
            lines.push(summary(outcomes));
        }
        lines.push(format!("done in {:.1} s", started.elapsed().as_secs_f64()));
        lines.join("\n")
    });
    let failed: Vec<&str> = (outcomes.iter())
        .filter(|o| o.error.is_some())
        .map(|o| o.dataset.as_str())
        .collect();
    if !failed.is_empty() {
        bail!(
            "{} of {} datasets failed ({}); each keeps what it held",
            failed.len(),
            outcomes.len(),
            failed.join(", ")
        );
    }
    Ok(())
}

/// What a run of several datasets did, in a line.
fn summary(outcomes: &[fetch::Outcome]) -> String {
    let imported = || outcomes.iter().filter_map(|o| o.imported.as_ref());
    let written = imported().filter(|i| i.snapshot.is_some()).count();
    let failed = outcomes.iter().filter(|o| o.error.is_some()).count();
    let sum =
        |field: fn(&crate::store::import::ImportOutcome) -> u64| imported().map(field).sum::<u64>();
    format!(
        "{} datasets: {written} new snapshots, {} unchanged, {failed} failed; {} rows added, {} revised, {} withdrawn",
        outcomes.len(),
        imported().count() - written,
        sum(|i| i.added),
        sum(|i| i.revised),
        sum(|i| i.withdrawn),
    )
}

/// One dataset's outcome in words.
fn said(outcome: &fetch::Outcome) -> String {
    let d = &outcome.dataset;
    let line = outcome_said(outcome);
    match outcome.unclassified_regions.as_slice() {
        [] => line,
        codes => format!("{line}\n{d}: {}", super::check::unclassified_said(codes)),
    }
}

fn outcome_said(outcome: &fetch::Outcome) -> String {
    let d = &outcome.dataset;
    match (&outcome.imported, &outcome.error) {
        (_, Some(error)) => format!("{d}: failed: {error}"),
        (Some(i), None) => match &i.snapshot {
            Some(s) => format!(
                "{d}: snapshot {s} from {}: {} rows, {} added, {} revised, {} unchanged, {} withdrawn (no longer in Eurostat's data)",
                i.file, i.rows_in_file, i.added, i.revised, i.unchanged, i.withdrawn
            ),
            None => format!(
                "{d}: {} is the latest snapshot's data, nothing written",
                i.file
            ),
        },
        (None, None) => format!("{d}: nothing done"),
    }
}
