//! The command line: `demo`, `serve`, `import`, `account`, `key`, `fetch`, `sync`, `bundle`,
//! `mcp`, `openapi`, `check`, `backup`, `migrate`. Settings come from flags or `REGINTEL_*`
//! environment variables, with the defaults of [`crate::config::defaults`]; bad settings stop the
//! program with a message saying what to fix. The commands and their flags are in
//! `command_line`, the flags several share and how each becomes a setting in `args`; this module
//! runs the command given. The commands are carried out by `demo`, `launch` (`serve`), `admin`
//! (`import`, `account`, `key`), `fetch` (`fetch`, `sync`, `bundle`), `mcp`, `check`, `backup`,
//! `migrate` and [`crate::openapi`] (`openapi`).

mod admin;
mod args;
mod backup;
mod check;
mod command_line;
mod demo;
mod fetch;
mod launch;
mod logging;
mod mcp;
mod migrate;
mod variables;

use std::path::PathBuf;
use std::process::ExitCode;
pub use variables::known_variables;
use variables::warn_unknown_variables;

use args::{SecretVar, secret, url_given};
use command_line::{Cli, Command};

use anyhow::{Context, bail};
use clap::Parser;

use crate::config::{AccessLines, ServerConfig};

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let format = cli.log_format;
    let logged = logging::init(format);
    warn_unknown_variables();
    let outcome = dispatch(cli.command, format, logged.access_lines());
    if let (Err(e), logging::LogFormat::Json) = (&outcome, format) {
        tracing::error!(error = %format!("{e:#}"), "regintel stopped");
    }
    drop(logged);
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if format == logging::LogFormat::Text {
                eprintln!("regintel: {e:#}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Runs `command`, telling the operator in `format`; a server writes its access lines to
/// `access_lines` where logging gives one.
fn dispatch(
    command: Command,
    format: logging::LogFormat,
    access_lines: Option<AccessLines>,
) -> anyhow::Result<()> {
    match command {
        Command::Demo {
            dir,
            listen,
            plain_http,
            limits,
            webhooks,
        } => {
            let mut config = ServerConfig::new(dir);
            config.access_lines = access_lines;
            config.tls = !plain_http;
            config.limits = limits.config();
            webhooks.apply(&mut config);
            demo::run(config, listen, plain_http, format)
        }
        Command::Serve(args) => {
            let mut config = args.config()?;
            config.access_lines = access_lines;
            launch::production(
                config,
                args.listen,
                args.tls.pair()?,
                args.plain_http,
                format,
            )
        }
        Command::Import {
            bundle: Some(bundle),
            trust,
            allow_older,
            memory,
            data,
            json,
            ..
        } => fetch::import_bundle(
            (&bundle, trust.as_deref(), allow_older),
            (&data, &memory),
            json,
            format,
        ),
        Command::Import {
            files,
            bundled,
            dataset,
            unit,
            title,
            account,
            memory,
            data,
            json,
            ..
        } => admin::import(
            &data.database()?,
            &crate::import::Room {
                memory: memory.bytes()?,
                spill_dir: if data.data_dir.is_dir() {
                    data.data_dir.clone()
                } else {
                    std::env::temp_dir()
                },
            },
            admin::ImportSources {
                files: &files,
                bundled,
            },
            &crate::import::Naming {
                dataset: dataset.as_deref(),
                unit: unit.as_deref(),
                title: title.as_deref(),
            },
            account.as_deref(),
            json,
            format,
        ),
        Command::Account { action, admin } => admin::account(
            &admin.database.choose(&admin.data_dir)?,
            action,
            logging::Printed::of(admin.json, format),
        ),
        Command::Key { action, admin } => admin::key(
            &admin.data_dir,
            &admin.database.choose(&admin.data_dir)?,
            action,
            logging::Printed::of(admin.json, format),
        ),
        Command::Openapi { address } => {
            let mut config = ServerConfig::new(PathBuf::new());
            config.service = address.service;
            config.public_url = address.public_url;
            config.validate()?;
            let doc = crate::openapi::document(&config.base_url(), &config.limits);
            println!("{}", serde_json::to_string_pretty(&doc)?);
            Ok(())
        }
        Command::Check(args) => check::run(&args, format),
        Command::Fetch(args) => fetch::run(args, format),
        Command::Sync(args) => fetch::sync(args, format),
        Command::Bundle { action } => fetch::bundle(action, format),
        Command::Mcp {
            url,
            api_key_file,
            ca_file,
        } => {
            let from_env = std::env::var(SecretVar::API_KEY).is_ok_and(|v| !v.trim().is_empty());
            if from_env && api_key_file.is_some() {
                bail!("REGINTEL_API_KEY and --api-key-file both give the key: keep one");
            }
            let key = secret(
                SecretVar::API_KEY,
                "--api-key-file",
                api_key_file.as_deref(),
            )?;
            mcp::run(&url, key, ca_file)
        }
        Command::Backup { data, file } => backup::run(&data.database()?, &file, format),
        Command::Migrate {
            data_dir,
            to,
            to_file,
            json,
        } => {
            if let Some(file) = &to_file {
                check::private(file, 0o077, "--to-file")
                    .context("it holds the database's URL, which may hold its owner's password")?;
            }
            let Some(url) = url_given(to.as_deref(), to_file.as_deref(), "--to and --to-file")?
            else {
                bail!(
                    "name the PostgreSQL database to copy into: --to postgres://OWNER@HOST/DATABASE, or --to-file FILE"
                );
            };
            migrate::run(&data_dir, url, logging::Printed::of(json, format))
        }
    }
}

#[cfg(test)]
mod tests;
