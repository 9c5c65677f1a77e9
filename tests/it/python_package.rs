//! The hand-written Python package (clients/python/regintel): installed offline with its pandas
//! extra into a fresh venv beside the generated client; type-checked with mypy in strict mode;
//! its tests (tests/test_offline.py, and tests/test_live.py against a live HTTPS server) and its
//! README's examples run, with httpx's deprecation warnings as errors.

use crate::bounded::Bounded;

use std::path::Path;
use std::process::Command;

use crate::python_client::{fresh_venv, install_offline, readme_examples, succeeded, write_files};
use crate::support::{Options, TestServer, Tier, tool};

const PACKAGE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/clients/python/regintel");
const CLIENT_DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/clients/python/regintel-client"
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_package_installs_offline_type_checks_and_works_against_a_live_server() {
    let work = tempfile::tempdir().unwrap();
    let package = work.path().join("regintel");
    let client = work.path().join("regintel-client");
    write_files(
        &package,
        &crate::python_client::files(Path::new(PACKAGE_DIR)),
    );
    write_files(&client, &crate::python_client::files(Path::new(CLIENT_DIR)));
    let python = fresh_venv(&work.path().join("venv"));
    let with_pandas = format!("{}[pandas]", package.display());
    install_offline(
        &python,
        &[
            client.as_os_str(),
            with_pandas.as_ref(),
            "pytest".as_ref(),
            "standardwebhooks".as_ref(),
        ],
    );

    // Strict mypy over the package as installed beside its dependencies (its pyproject.toml
    // says strict).
    succeeded(
        "mypy",
        Command::new(tool("TEST_PYTHON"))
            .args(["-m", "mypy", "--python-executable"])
            .arg(&python)
            .arg("--cache-dir")
            .arg(work.path().join("mypy-cache"))
            .arg("regintel")
            .current_dir(&package)
            .bounded_output(),
    );

    // Over HTTPS with the server's own certificate, as against the demo; anonymous callers
    // get two requests a minute, so that one meets the limit at once.
    let server = TestServer::start_with(Options {
        tls: true,
        configure: Some(|c| c.limits.anonymous.minute = 2),
        ..Default::default()
    })
    .await;
    let analyst = server.account("python-package@example.org", Tier::Institutional);
    let url = format!(
        "https://localhost:{}{}",
        server.addr.port(),
        crate::support::BASE
    );
    let certificate = server.dir.path().join("demo-cert.pem");
    // The tests and the examples run where no source of the package is: what they import is
    // what was installed.
    let run = work.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::rename(package.join("tests"), run.join("tests")).unwrap();
    std::fs::write(
        run.join("examples.py"),
        readme_examples(&Path::new(PACKAGE_DIR).join("README.md"), 8),
    )
    .unwrap();
    let key = analyst.api_key.clone();
    let exported = run.join("tgs00010-AT.csv");
    let venv = work.path().join("venv");
    let python_run = move |args: &[&str]| {
        Command::new(&python)
            .args(["-W", "error::DeprecationWarning"])
            .args(args)
            .current_dir(&run)
            .env("REGINTEL_URL", &url)
            .env("REGINTEL_CA_FILE", &certificate)
            .env("REGINTEL_API_KEY", &key)
            .bounded_output()
    };
    let tested = tokio::task::spawn_blocking(move || {
        let tests = python_run(&["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]);
        let examples = python_run(&["examples.py"]);
        let location = python_run(&["-c", "import regintel; print(regintel.__file__)"]);
        (tests, examples, location)
    })
    .await
    .unwrap();
    let printed = succeeded("pytest", tested.0);
    assert!(printed.contains("passed"), "{printed}");
    let printed = succeeded("the README's examples", tested.1);
    for expected in [
        "Oberbayern",
        "period_start",
        "cit_",
        "verified",
        "rows; mean value",
        "NUTS 2 regions in Austria",
        "unknown_region",
    ] {
        assert!(
            printed.contains(expected),
            "{expected:?} not in:\n{printed}"
        );
    }
    assert!(std::fs::metadata(&exported).unwrap().len() > 0);
    let location = succeeded("import regintel", tested.2);
    assert!(location.starts_with(&*venv.to_string_lossy()), "{location}");
    server.stop().await.unwrap();
}
