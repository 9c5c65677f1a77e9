//! `regintel fetch DATASET...` and `regintel sync`: datasets downloaded from Eurostat's API and
//! imported, each as a snapshot (see `crate::eurostat`). Operator commands like `import`: they
//! write to the database of the data directory (or `--database-url`), which a running server
//! reads.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::Args;

use super::logging::{LogFormat, Printed};
use super::{DataDir, ImportMemory};
use crate::catalogue::Catalogue;
use crate::eurostat::fetch::{self, Settings};

#[derive(Args)]
pub struct FetchArgs {
    /// Dataset codes as Eurostat writes them (nama_10r_3gdp, demo_r_pjanaggr3).
    #[arg(required = true)]
    datasets: Vec<String>,
    #[command(flatten)]
    eurostat: EurostatArgs,
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
    /// Seconds between asks for the status of an extraction Eurostat queued, and most seconds
    /// to wait for one.
    #[arg(long, env = "REGINTEL_EUROSTAT_POLL_SECONDS", default_value_t = 30.0)]
    poll_seconds: f64,
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

    /// The store to import into (made where missing), and the room of its imports.
    fn store(&self) -> anyhow::Result<(crate::store::Store, crate::import::Room)> {
        let data_dir = &self.data.data_dir;
        crate::runtime::private_files::create_dir(data_dir)?;
        let room = crate::import::Room {
            memory: self.memory.bytes()?,
            spill_dir: data_dir.clone(),
        };
        let store = crate::store::Store::open_with(
            &self.data.database()?,
            1,
            1,
            crate::config::defaults::DATABASE_WAIT,
        )?;
        Ok((store, room))
    }
}

pub fn run(args: FetchArgs, format: LogFormat) -> anyhow::Result<()> {
    let eurostat = &args.eurostat;
    let settings = eurostat.settings()?;
    let (store, room) = eurostat.store()?;
    let started = std::time::Instant::now();
    let session = fetch::Session::open(&settings, &eurostat.data.data_dir)?;
    let entries = fetch::Session::entries(&session.toc()?, &args.datasets)?;
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
            format.say("another sync of this database is running: nothing done");
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

/// One dataset's outcome in words.
fn said(outcome: &fetch::Outcome) -> String {
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
