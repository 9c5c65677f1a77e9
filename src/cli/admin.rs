//! The operator commands: `regintel import`, `regintel account ...` and `regintel key ...`.
//! Every change that affects credentials bumps `auth_generation`, so a running server drops its
//! cached keys within about a second.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Subcommand;
use serde_json::json;

use super::logging::{LogFormat, Printed};
use crate::auth::password;
use crate::bundled::Catalogue;
use crate::store::accounts::Tier;
use crate::store::{Database, Store};

fn parse_tier(text: &str) -> Result<Tier, String> {
    Tier::parse(text).ok_or_else(|| "tier is professional or institutional".into())
}

#[derive(Subcommand)]
pub enum AccountAction {
    /// Create an account. The password is read from standard input (--password-stdin) or
    /// generated and printed once.
    Create {
        email: String,
        #[arg(long, value_parser = parse_tier)]
        tier: Tier,
        /// Display name (default: the email).
        #[arg(long)]
        name: Option<String>,
        /// Read the password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
    },
    List,
    SetTier {
        email: String,
        #[arg(value_parser = parse_tier)]
        tier: Tier,
    },
    /// Disable an account: its keys and sessions stop working.
    Disable {
        email: String,
    },
}

#[derive(Subcommand)]
pub enum KeyAction {
    /// Create an API key for an account; the key is printed once.
    Create {
        email: String,
        #[arg(long, default_value = "operator")]
        name: String,
    },
    /// List keys (of one account with --email).
    List {
        #[arg(long)]
        email: Option<String>,
    },
    /// Revoke a key by its key id (the 8 characters after sk_service_).
    Revoke { key_id: String },
}

/// The database of `data_dir`, which must exist: an account or key made in a database no server
/// reads (a mistyped or forgotten `--data-dir`) would be lost without a word.
pub(super) fn open(database: &Database) -> anyhow::Result<Store> {
    if let Database::Sqlite(data_dir) = database {
        let file = data_dir.join(crate::store::DB_FILE);
        if !file.exists() {
            bail!(
                "no database at {}: name the server's data directory with --data-dir (or REGINTEL_DATA_DIR); `regintel import --bundled --data-dir DIR` or `regintel demo` makes one",
                file.display()
            );
        }
    }
    Store::open_with(database, 1, 1, crate::config::defaults::DATABASE_WAIT)
}

fn account_id(store: &Store, email: &str) -> anyhow::Result<i64> {
    match store.system()?.account_by_email(&email.to_lowercase())? {
        Some((account, _)) => Ok(account.id),
        None => bail!("no account with email {email}"),
    }
}

fn valid_email(email: &str) -> bool {
    let parts: Vec<&str> = email.split('@').collect();
    parts.len() == 2
        && !parts[0].is_empty()
        && parts[1].contains('.')
        && email.len() <= crate::auth::MAX_EMAIL_BYTES
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
}

pub fn account(database: &Database, action: AccountAction, printed: Printed) -> anyhow::Result<()> {
    let store = open(database)?;
    let system = store.system()?;
    match action {
        AccountAction::Create {
            email,
            tier,
            name,
            password_stdin,
        } => {
            let email = email.trim().to_lowercase();
            if !valid_email(&email) {
                bail!("{email:?} is not an email address");
            }
            let (password, generated) = if password_stdin {
                let mut line = String::new();
                std::io::stdin().lock().read_line(&mut line)?;
                (line.trim_end_matches(['\r', '\n']).to_owned(), false)
            } else {
                (password::generate(), true)
            };
            password::check_policy(&password).map_err(anyhow::Error::msg)?;
            let hash = password::hash(&password)?;
            let name = name.unwrap_or_else(|| email.clone());
            let account = system.create_account(
                &email,
                &name,
                tier,
                &hash,
                crate::runtime::clock::now_ms(),
            )?;
            let mut value = json!({ "account": account });
            let mut text = format!(
                "created {} account {} (id {})",
                tier.as_str(),
                email,
                account.id
            );
            if generated {
                value["password"] = json!(password);
                text.push_str(&format!("\npassword (shown once): {password}"));
            }
            printed.print(&value, || text);
        }
        AccountAction::List => {
            let accounts = system.accounts()?;
            let text = accounts
                .iter()
                .map(|a| {
                    format!(
                        "{:>5}  {:<14} {:<9} {}",
                        a.id,
                        a.tier.as_str(),
                        if a.disabled { "disabled" } else { "active" },
                        a.email
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            printed.print(&json!({ "accounts": accounts }), || text);
        }
        AccountAction::SetTier { email, tier } => {
            if !system.update_account(&email.to_lowercase(), Some(tier), None)? {
                bail!("no account with email {email}");
            }
            system.bump_auth_generation()?;
            printed.print(&json!({ "email": email, "tier": tier }), || {
                format!("{email} is now {}", tier.as_str())
            });
        }
        AccountAction::Disable { email } => {
            if !system.update_account(&email.to_lowercase(), None, Some(true))? {
                bail!("no account with email {email}");
            }
            system.bump_auth_generation()?;
            printed.print(&json!({ "email": email, "disabled": true }), || {
                format!("{email} is disabled")
            });
        }
    }
    Ok(())
}

pub fn key(
    data_dir: &Path,
    database: &Database,
    action: KeyAction,
    printed: Printed,
) -> anyhow::Result<()> {
    let store = open(database)?;
    let auth = crate::auth::secret_guard::open(&store, data_dir, "regintel", false)?.auth;
    match action {
        KeyAction::Create { email, name } => {
            let (account, _) = store
                .system()?
                .account_by_email(&email.to_lowercase())?
                .with_context(|| format!("no account with email {email}"))?;
            let (row, plaintext) = auth
                .create_key(&store, account.id, account.tier, &name)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            printed.print(
                &json!({ "key_id": row.key_id, "api_key": plaintext, "account": email }),
                || format!("API key for {email} (shown once): {plaintext}"),
            );
        }
        KeyAction::List { email } => {
            let account = match email {
                Some(e) => Some(account_id(&store, &e)?),
                None => None,
            };
            let keys = store.system()?.keys(account)?;
            let text = keys
                .iter()
                .map(|k| {
                    format!(
                        "{}  account {:<5} {:<8} {}",
                        k.key_id,
                        k.account_id,
                        if k.revoked_at.is_some() {
                            "revoked"
                        } else {
                            "active"
                        },
                        k.name
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            printed.print(&json!({ "keys": keys }), || text);
        }
        KeyAction::Revoke { key_id } => {
            if !auth.revoke_key(&store, None, &key_id)? {
                bail!("no active key {key_id}");
            }
            printed.print(&json!({ "key_id": key_id, "revoked": true }), || {
                format!("revoked {key_id}")
            });
        }
    }
    Ok(())
}

/// What `regintel import` reads: files, and the extract compiled in when `bundled`.
pub struct ImportSources<'a> {
    pub files: &'a [PathBuf],
    pub bundled: bool,
}

/// Imports the bundled extract and/or files, public or as `account`'s private data, and prints
/// what each snapshot changed.
pub fn import(
    database: &Database,
    room: &crate::import::Room,
    sources: ImportSources<'_>,
    naming: &crate::import::Naming<'_>,
    account: Option<&str>,
    json: bool,
    format: LogFormat,
) -> anyhow::Result<()> {
    let ImportSources { files, bundled } = sources;
    if !bundled && files.is_empty() {
        bail!("name files to import, or --bundled for the extract compiled into regintel");
    }
    if bundled && account.is_some() {
        bail!("--bundled imports public data; --account goes with files");
    }
    if let Some(title) = naming.title
        && (title.trim().is_empty() || title.chars().count() > 200)
    {
        bail!("--title must have 1 to 200 characters");
    }
    if let Some(unit) = naming.unit
        && crate::file_formats::unit_code(unit).is_none()
    {
        bail!(
            "--unit must be 1 to 32 characters of letters, digits and _ (e.g. PC, EUR_HAB), got {}",
            crate::error_text::shown(unit)
        );
    }
    let naming = crate::import::Naming {
        title: naming.title.map(str::trim),
        ..*naming
    };
    if let Database::Sqlite(data_dir) = database {
        crate::runtime::private_files::create_dir(data_dir)?;
    }
    let store = Store::open_with(database, 1, 1, crate::config::defaults::DATABASE_WAIT)?;
    let catalogue = Catalogue::bundled();
    let started = std::time::Instant::now();
    let owner = match account {
        Some(email) => Some(account_id(&store, email)?),
        None => None,
    };
    let mut reports = Vec::new();
    let mut progress = format.progress();
    if bundled {
        reports.push(crate::import::import_bundled(
            &store,
            &catalogue,
            room,
            &mut progress,
        )?);
    }
    if !files.is_empty() {
        let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        reports.push(crate::import::import_files(
            &store,
            &catalogue,
            &paths,
            &naming,
            owner,
            room,
            &mut progress,
        )?);
    }
    if json {
        Printed::of(json, format).print(&reports, String::new);
        return Ok(());
    }
    let seconds = started.elapsed().as_secs_f64();
    for d in reports.iter().flat_map(|r| &r.datasets) {
        match format {
            LogFormat::Json => tracing::info!(
                dataset = %d.dataset,
                file = %d.file,
                snapshot = d.snapshot.as_deref(),
                rows = d.rows_in_file,
                added = d.added,
                revised = d.revised,
                unchanged = d.unchanged,
                "imported"
            ),
            LogFormat::Text => match &d.snapshot {
                Some(s) => println!(
                    "{}: snapshot {s} from {}: {} rows, {} added, {} revised, {} unchanged",
                    d.dataset, d.file, d.rows_in_file, d.added, d.revised, d.unchanged
                ),
                None => println!("{}: {} unchanged, nothing written", d.dataset, d.file),
            },
        }
    }
    match format {
        LogFormat::Json => tracing::info!(seconds, "import done"),
        LogFormat::Text => println!("done in {seconds:.1} s"),
    }
    Ok(())
}
