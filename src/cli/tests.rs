use super::*;

/// The defaults docs/operations.md documents, as the command line gives them and as a config built in
/// code has them: one source of truth checked against the other.
#[test]
fn default_quotas_are_the_documented_ones() {
    use crate::config::{LimitConfig, Quotas};
    let Cli {
        command: Command::Serve(args),
        ..
    } = Cli::try_parse_from(["regintel", "serve", "--plain-http"]).unwrap()
    else {
        panic!("serve parses");
    };
    let parsed = args.limits.config();
    let defaults = LimitConfig::default();
    let documented = [
        (
            parsed.anonymous,
            Quotas {
                minute: 30,
                hour: 300,
                day: 1_000,
            },
        ),
        (
            parsed.professional,
            Quotas {
                minute: 60,
                hour: 1_000,
                day: 10_000,
            },
        ),
        (
            parsed.institutional,
            Quotas {
                minute: 300,
                hour: 10_000,
                day: 100_000,
            },
        ),
    ];
    for (given, expected) in documented {
        assert_eq!(given, expected);
    }
    assert_eq!(
        (
            defaults.anonymous,
            defaults.professional,
            defaults.institutional
        ),
        (parsed.anonymous, parsed.professional, parsed.institutional)
    );
    assert_eq!(
        (
            parsed.auth_fail_per_minute,
            parsed.logins_per_hour,
            parsed.key_creations_per_hour
        ),
        (20, 30, 10)
    );
    assert_eq!(
        (
            defaults.auth_fail_per_minute,
            defaults.logins_per_hour,
            defaults.key_creations_per_hour
        ),
        (20, 30, 10)
    );
    assert!(parsed.enabled && parsed.trusted_proxies.is_empty());
    assert_eq!(defaults.max_entries, 100_000);
}

/// `--no-rate-limits` (or `REGINTEL_NO_RATE_LIMITS`) turns the limits off.
#[test]
fn no_rate_limits_turns_the_limits_off() {
    for argv in [
        &["regintel", "serve", "--plain-http", "--no-rate-limits"][..],
        &["regintel", "serve", "--plain-http"][..],
    ] {
        let Cli {
            command: Command::Serve(args),
            ..
        } = Cli::try_parse_from(argv).unwrap()
        else {
            panic!("serve parses");
        };
        assert_eq!(args.limits.config().enabled, argv.len() == 3, "{argv:?}");
    }
}

/// The operator's documents list every setting: the package's environment file (each one
/// commented out, with its default) and the table of docs/operations.md.
#[test]
fn every_setting_is_documented() {
    let env_file = include_str!("../../packaging/regintel.env");
    let guide = include_str!("../../docs/operations.md");
    let known = known_variables();
    assert!(known.len() > 40, "{known:?}");
    for var in &known {
        assert!(
            env_file.contains(&format!("\n#{var}=")),
            "{var} is not in packaging/regintel.env"
        );
        assert!(
            guide.contains(&format!("`{var}`")),
            "{var} is not in docs/operations.md"
        );
    }
}

#[test]
fn a_secret_comes_from_its_variable_or_its_file_not_both() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("token");
    std::fs::write(&file, "  from-file\n").unwrap();
    // A variable no test or environment sets.
    let unset = "REGINTEL_TEST_SECRET_NEVER_SET";
    assert_eq!(
        secret(unset, "--x-file", Some(&file)).unwrap().as_deref(),
        Some("from-file")
    );
    assert_eq!(secret(unset, "--x-file", None).unwrap(), None);
    std::fs::write(&file, "\n").unwrap();
    assert!(secret(unset, "--x-file", Some(&file)).is_err());
    let missing = dir.path().join("missing");
    let err = format!(
        "{:#}",
        secret(unset, "--x-file", Some(&missing)).unwrap_err()
    );
    assert!(err.contains("--x-file") && err.contains("missing"), "{err}");
}
