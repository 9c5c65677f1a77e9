//! The environment: which `REGINTEL_*` variables are settings, and a warning for those that are
//! not.

use super::args::SecretVar;
use super::command_line::Cli;

/// Every `REGINTEL_*` variable regintel reads: those of the flags, and the secrets' values.
pub fn known_variables() -> std::collections::BTreeSet<String> {
    fn collect(command: &clap::Command, into: &mut std::collections::BTreeSet<String>) {
        for arg in command.get_arguments() {
            if let Some(var) = arg.get_env() {
                into.insert(var.to_string_lossy().into_owned());
            }
        }
        for sub in command.get_subcommands() {
            collect(sub, into);
        }
    }
    let mut known: std::collections::BTreeSet<String> =
        SecretVar::ALL.iter().map(|v| (*v).to_owned()).collect();
    collect(&<Cli as clap::CommandFactory>::command(), &mut known);
    known
}

/// A warning for each `REGINTEL_*` variable that is set but is no setting (a typo, or one of
/// an older or newer version), which would otherwise be ignored in silence.
pub(super) fn warn_unknown_variables() {
    let known = known_variables();
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("REGINTEL_")
            && !known.contains(name.as_ref())
            && name != SecretVar::API_KEY
        {
            tracing::warn!(
                variable = %name,
                "unknown REGINTEL_ variable ignored (see `regintel serve --help` for the settings)"
            );
        }
    }
}
