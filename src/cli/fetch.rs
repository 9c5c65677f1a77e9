//! `regintel fetch DATASET...`: datasets downloaded from Eurostat's API and imported, each as a
//! snapshot (see `crate::eurostat::fetch`). An operator command like `import`: it writes to the
//! database of the data directory (or `--database-url`), which a running server reads.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::Args;

use super::{DataDir, ImportMemory};
use super::logging::{LogFormat, Printed};
use crate::catalogue::Catalogue;
use crate::eurostat::fetch::{self, Settings};

#[derive(Args)]
pub struct FetchArgs {
    /// Dataset codes as Eurostat writes them (nama_10r_3gdp, demo_r_pjanaggr3).
    #[arg(required = true)]
    datasets: Vec<String>,
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

pub fn run(args: FetchArgs, format: LogFormat) -> anyhow::Result<()> {
    let database = args.data.database()?;
    let data_dir = &args.data.data_dir;
    crate::runtime::private_files::create_dir(data_dir)?;
    let settings = Settings {
        ca_file: args.eurostat_ca_file.clone(),
        max_download: args.max_download_mb << 20,
        max_inflated: args.max_inflated_mb << 20,
        backoff: seconds("retry-seconds", args.retry_seconds)?,
        poll: seconds("poll-seconds", args.poll_seconds)?,
        wait: seconds("wait-seconds", args.wait_seconds)?,
        ..Settings::new(&args.eurostat_url)
    };
    let room = crate::import::Room {
        memory: args.memory.bytes()?,
        spill_dir: data_dir.clone(),
    };
    let store =
        crate::store::Store::open_with(&database, 1, 1, crate::config::defaults::DATABASE_WAIT)?;
    let started = std::time::Instant::now();
    let outcomes = fetch::fetch(
        &store,
        &Catalogue::bundled(),
        &settings,
        &args.datasets,
        data_dir,
        &room,
        &mut format.progress(),
    )?;
    let printed = Printed::of(args.json, format);
    // With --json the warnings are in the outcome.
    for outcome in outcomes.iter().filter(|_| !args.json) {
        for warning in &outcome.warnings {
            format.warn(&format!("{}: {warning}", outcome.dataset));
        }
    }
    printed.print(&outcomes, || {
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
                "{d}: snapshot {s} from {}: {} rows, {} added, {} revised, {} unchanged",
                i.file, i.rows_in_file, i.added, i.revised, i.unchanged
            ),
            None => format!(
                "{d}: {} is the latest snapshot's data, nothing written",
                i.file
            ),
        },
        (None, None) => format!("{d}: nothing done"),
    }
}
