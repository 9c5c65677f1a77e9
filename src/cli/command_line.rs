//! The command line: the commands and their flags (clap's derive).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use super::args::{
    AdminArgs, DataDir, ImportMemory, LimitArgs, PublicAddress, ServeArgs, WebhookArgs,
};
use super::{admin, fetch, logging};
use crate::config::defaults;

#[derive(Parser)]
#[command(
    name = "regintel",
    version,
    about = "Regional Intelligence Service: cited Eurostat regional statistics over HTTPS"
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
    /// Log lines as text or as JSON objects (one per line).
    #[arg(long, env = "REGINTEL_LOG_FORMAT", value_enum, default_value_t = logging::LogFormat::Text, global = true)]
    pub(super) log_format: logging::LogFormat,
}

#[derive(Subcommand)]
pub(super) enum Command {
    /// The local demo in one command: imports the bundled data, makes a self-signed certificate
    /// for localhost, writes demo-credentials.json, prints curl commands, serves until Ctrl-C.
    Demo {
        /// Directory for the demo's database, certificate and credentials.
        #[arg(long, default_value = "./regintel-demo")]
        dir: PathBuf,
        /// Address to listen on (default 127.0.0.1:8443, or 127.0.0.1:8080 with --plain-http).
        #[arg(long)]
        listen: Option<SocketAddr>,
        /// Serve plain HTTP instead of HTTPS.
        #[arg(long)]
        plain_http: bool,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        webhooks: WebhookArgs,
    },
    /// The production server.
    Serve(Box<ServeArgs>),
    /// The MCP tools over stdio for a desktop AI assistant, answering from the REST API at
    /// --url with the key in REGINTEL_API_KEY (anonymous without one).
    Mcp {
        /// The API's base URL, such as https://stats.example.org/api/v1/regional.
        #[arg(long)]
        url: String,
        /// A file holding the API key, instead of REGINTEL_API_KEY.
        #[arg(long)]
        api_key_file: Option<PathBuf>,
        /// A certificate authority (PEM) to trust besides the system's: a private CA, or the
        /// demo's certificate.
        #[arg(long)]
        ca_file: Option<PathBuf>,
    },
    /// Load data: the bundled extract (--bundled), Eurostat bulk TSV (.tsv, .tsv.gz), SDMX-CSV,
    /// or regintel's tidy CSV. Each file becomes a snapshot of its dataset.
    Import {
        /// Files to import.
        files: Vec<PathBuf>,
        /// Import the Eurostat extract compiled into this binary.
        #[arg(long)]
        bundled: bool,
        /// Import a bundle made by `regintel bundle create`: every file is checked against its
        /// manifest before anything is imported.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["files", "bundled", "dataset", "unit", "title", "account"])]
        bundle: Option<PathBuf>,
        /// With --bundle: refuse a bundle not signed by this ed25519 public key (PEM, the
        /// `.pub` file of `bundle keygen`).
        #[arg(long, value_name = "PUBKEY", requires = "bundle")]
        trust: Option<PathBuf>,
        /// With --bundle: import a dataset whose download is older than the one this install
        /// holds (refused otherwise: it would take the dataset back).
        #[arg(long, requires = "bundle")]
        allow_older: bool,
        /// Dataset code for files that do not name it (TSV named otherwise than the dataset, a
        /// tidy CSV without a dataset_code column).
        #[arg(long)]
        dataset: Option<String>,
        /// Unit of a tidy CSV's rows without a unit column (a code such as PC; read in
        /// capitals). An account's existing dataset has its own.
        #[arg(long)]
        unit: Option<String>,
        /// Title of a dataset the bundled catalogue does not know (otherwise its code).
        #[arg(long)]
        title: Option<String>,
        /// Import as this account's private data.
        #[arg(long)]
        account: Option<String>,
        #[command(flatten)]
        memory: ImportMemory,
        #[command(flatten)]
        data: DataDir,
        /// Print the outcome as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Download Eurostat datasets whole from its API and import each as a snapshot.
    Fetch(fetch::FetchArgs),
    /// Fetch again every dataset fetched before whose data or structure Eurostat changed since.
    Sync(fetch::EurostatArgs),
    /// Carry Eurostat downloads to an install without a route to Eurostat.
    Bundle {
        #[command(subcommand)]
        action: fetch::BundleAction,
    },
    /// Operator administration of accounts.
    Account {
        #[command(subcommand)]
        action: admin::AccountAction,
        #[command(flatten)]
        admin: AdminArgs,
    },
    /// Operator administration of API keys.
    Key {
        #[command(subcommand)]
        action: admin::KeyAction,
        #[command(flatten)]
        admin: AdminArgs,
    },
    /// Print the OpenAPI 3.1 document.
    Openapi {
        #[command(flatten)]
        address: PublicAddress,
    },
    /// Check what `serve` would start with (the same flags and variables), then exit: settings,
    /// TLS files, file permissions, secrets, database integrity and schema version. Exits
    /// non-zero with the reason at the first problem.
    Check(Box<ServeArgs>),
    /// Copy the database while the server runs into FILE (a new file), consistent at one
    /// moment, and check the copy's integrity. Restore: stop the server and put FILE in place
    /// of <data dir>/regintel.sqlite (see docs/operations.md, installed as
    /// /usr/share/doc/regintel/docs/operations.md).
    Backup {
        #[command(flatten)]
        data: DataDir,
        /// The backup file to write; it must not exist.
        file: PathBuf,
    },
    /// Move this appliance onto PostgreSQL, for several nodes: copies every row of the data
    /// dir's SQLite file into a new PostgreSQL database, ids unchanged, so citations stay what
    /// they were and keys keep working with the data dir's secrets. Stop the server first: what
    /// it writes meanwhile stays behind. A database holding other tables or any rows is refused
    /// before anything is written to it; a failed copy leaves no row behind.
    Migrate {
        /// The data dir whose SQLite file to copy, and whose secrets every node then needs.
        #[arg(long, env = "REGINTEL_DATA_DIR", default_value = defaults::DATA_DIR)]
        data_dir: PathBuf,
        /// The PostgreSQL database to copy into (see --database-url of serve): new, owned by an
        /// ordinary role with CREATEROLE. A password on a command line is visible to every user
        /// of the machine: prefer --to-file.
        #[arg(long)]
        to: Option<String>,
        /// A file holding that URL.
        #[arg(long)]
        to_file: Option<PathBuf>,
        /// Print the rows copied as JSON.
        #[arg(long)]
        json: bool,
    },
}
