//! `regintel demo`: the local demo in one command. Imports the bundled data, creates (or renews)
//! a professional and an institutional demo account with fresh keys, makes a self-signed
//! certificate for localhost, writes `demo-credentials.json`, prints curl commands and serves
//! until Ctrl-C.

use std::net::SocketAddr;

use super::logging::LogFormat;
use crate::auth::{Auth, password};
use crate::bundled::Catalogue;
use crate::config::{ServerConfig, defaults};
use crate::net::tls;
use crate::store::Store;
use crate::store::accounts::Tier;

/// Runs the demo with `config` (its data directory the demo's), HTTPS unless `plain_http`.
pub fn run(
    config: ServerConfig,
    listen: Option<SocketAddr>,
    plain_http: bool,
    format: LogFormat,
) -> anyhow::Result<()> {
    config.validate()?;
    let dir = config.data_dir.clone();
    crate::runtime::private_files::create_dir(&dir)?;
    let store = Store::open(&dir, 1)?;
    let room = crate::import::Room {
        spill_dir: dir.clone(),
        ..Default::default()
    };
    let report = crate::import::import_bundled(
        &store,
        &Catalogue::bundled(),
        &room,
        &mut format.progress(),
    )?;
    if report.changed() {
        tracing::info!(data_dir = %dir.display(), "imported the bundled Eurostat extract");
    } else {
        tracing::info!(data_dir = %dir.display(), "reusing the data");
    }
    let auth = crate::auth::secret_guard::open(&store, &dir, config.issuer(), false)?.auth;
    let accounts = demo_accounts(&store, &auth)?;
    drop((store, auth));
    let tls = if plain_http {
        None
    } else {
        let (cert, key) = tls::demo_certificate(&dir)?;
        Some((tls::server_config(&cert, &key)?, cert))
    };
    let listen = match listen {
        Some(listen) => listen,
        None if plain_http => defaults::LISTEN_PLAIN_HTTP.parse()?,
        None => defaults::LISTEN.parse()?,
    };
    let base_path = config.base_path();
    let cert = tls.as_ref().map(|(_, cert)| cert.clone());
    super::launch::serve(config, listen, tls.map(|(t, _)| t), format, move |addr| {
        let host = if addr.ip().is_loopback() {
            "localhost".to_owned()
        } else {
            addr.ip().to_string()
        };
        let base_url = format!(
            "{}://{host}:{}{base_path}",
            if cert.is_some() { "https" } else { "http" },
            addr.port(),
        );
        let credentials = serde_json::json!({ "base_url": base_url, "accounts": accounts });
        let path = dir.join("demo-credentials.json");
        crate::runtime::private_files::write(
            &path,
            serde_json::to_string_pretty(&credentials)?.as_bytes(),
        )?;
        let curl = match &cert {
            Some(cert) => format!("curl --cacert {}", cert.display()),
            None => "curl".to_owned(),
        };
        let key = |i: usize| accounts[i].api_key.as_str();
        let site = base_url.trim_end_matches(base_path.as_str());
        let account_area = format!("{site}/account/login");
        let explorer = format!("{site}/explore");
        let tries = [
            format!("{curl} {base_url}/regions/DE21/profile"),
            format!(
                "{curl} -H 'X-API-Key: {}' '{base_url}/compare?regions=DE21,FR10,ITC4&dataset=nama_10r_3gdp'",
                key(0)
            ),
            format!(
                "{curl} -H 'X-API-Key: {}' {base_url}/export/bulk/tgs00010.csv",
                key(1)
            ),
        ];
        match format {
            // The keys are in the commands: printed, never logged.
            LogFormat::Json => println!(
                "{}",
                serde_json::json!({
                    "demo": base_url,
                    "credentials": path.display().to_string(),
                    "account_area": account_area,
                    "explorer": explorer,
                    "try": tries,
                })
            ),
            LogFormat::Text => {
                println!(
                    "\nregintel demo: {base_url}  (credentials: {})",
                    path.display()
                );
                println!("Explorer: {explorer} (the regions as charts, maps and tables)");
                println!(
                    "Account area: {account_area} (sign in with an email and password from the credentials)"
                );
                println!("Try:");
                for command in &tries {
                    println!("  {command}");
                }
                println!("Press Ctrl-C to stop.\n");
            }
        }
        Ok(())
    })
}

/// One account of `demo-credentials.json`.
#[derive(Debug, serde::Serialize)]
struct DemoAccount {
    pub email: String,
    pub password: String,
    pub tier: Tier,
    pub api_key: String,
}

/// The demo's professional and institutional accounts, each with a fresh password and a fresh
/// key (earlier demo keys are revoked), so every run prints working credentials.
fn demo_accounts(store: &Store, auth: &Auth) -> anyhow::Result<Vec<DemoAccount>> {
    let mut out = Vec::new();
    for (email, tier) in [
        ("professional@demo.regintel.local", Tier::Professional),
        ("institutional@demo.regintel.local", Tier::Institutional),
    ] {
        let password = password::generate();
        let hash = password::hash(&password)?;
        let system = store.system()?;
        let account = match system.account_by_email(email)? {
            Some((account, _)) => {
                system.set_password(email, &hash)?;
                account
            }
            None => system.create_account(
                email,
                &format!("Demo ({})", tier.as_str()),
                tier,
                &hash,
                crate::runtime::clock::now_ms(),
            )?,
        };
        for old in system.keys(Some(account.id))? {
            auth.revoke_key(store, Some(account.id), &old.key_id)?;
        }
        let (_, api_key) = auth
            .create_key(store, account.id, tier, "demo")
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        out.push(DemoAccount {
            email: email.to_owned(),
            password,
            tier,
            api_key,
        });
    }
    store.system()?.bump_auth_generation()?;
    Ok(out)
}
