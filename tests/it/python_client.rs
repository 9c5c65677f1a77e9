//! The committed Python client (clients/python): what `regenerate.sh` makes from this source tree,
//! byte for byte; installable offline into a fresh venv; and its README's examples run against a
//! live server.

use crate::bounded::Bounded;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{TestServer, Tier, tool};

const CLIENT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/clients/python");

/// Every file below `dir` by its relative path, caches of Python left out.
pub fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, into: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|n| n == "__pycache__") {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, into);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                into.insert(path.strip_prefix(root).unwrap().to_owned(), bytes);
            }
        }
    }
    let mut all = BTreeMap::new();
    walk(dir, dir, &mut all);
    all
}

pub fn succeeded(what: &str, out: Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The Python blocks of `readme`, in order: one script. At least `at_least` of them.
pub fn readme_examples(readme: &Path, at_least: usize) -> String {
    let text = std::fs::read_to_string(readme).unwrap();
    let blocks: Vec<&str> = text
        .split("```python\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap())
        .collect();
    assert!(
        blocks.len() >= at_least,
        "{} has {} Python blocks",
        readme.display(),
        blocks.len()
    );
    blocks.join("\n")
}

/// Copies `files` (by relative path) below `dir`: packages are installed from copies, since a
/// build writes into its source directory.
pub fn write_files(dir: &Path, files: &BTreeMap<PathBuf, Vec<u8>>) {
    for (path, bytes) in files {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
}

/// A fresh venv at `dir` that holds nothing but pip; its python.
pub fn fresh_venv(dir: &Path) -> PathBuf {
    succeeded(
        "python -m venv",
        Command::new(tool("TEST_PYTHON"))
            .args(["-m", "venv"])
            .arg(dir)
            .bounded_output(),
    );
    dir.join("bin/python")
}

/// `python -m pip install` of `what` from the wheels tests/run.sh downloaded, with no index
/// (PIP_FIND_LINKS, if the machine sets it, would add another source), as an air-gapped site
/// installs.
pub fn install_offline<S: AsRef<std::ffi::OsStr>>(python: &Path, what: &[S]) {
    succeeded(
        "pip install",
        Command::new(python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--no-index",
                "--find-links",
            ])
            .arg(tool("CLIENT_WHEELS"))
            .args(what)
            .env_remove("PIP_FIND_LINKS")
            .env_remove("PIP_INDEX_URL")
            .env_remove("PIP_EXTRA_INDEX_URL")
            .bounded_output(),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_committed_python_client_is_current_installs_offline_and_its_examples_run() {
    let work = tempfile::tempdir().unwrap();
    let regenerated = work.path().join("regintel-client");
    let generate = Command::new(Path::new(CLIENT_DIR).join("regenerate.sh"))
        .arg(&regenerated)
        .env("REGINTEL", env!("CARGO_BIN_EXE_regintel"))
        .env("OPENAPI_PYTHON_CLIENT", tool("OPENAPI_PYTHON_CLIENT"))
        .bounded_output();
    succeeded("clients/python/regenerate.sh", generate);
    let committed_dir = Path::new(CLIENT_DIR).join("regintel-client");
    let committed = files(&committed_dir);
    let fresh = files(&regenerated);
    let differing: Vec<_> = committed
        .keys()
        .chain(fresh.keys())
        .filter(|path| committed.get(*path) != fresh.get(*path))
        .collect();
    assert!(
        differing.is_empty(),
        "the committed client differs from what clients/python/regenerate.sh makes (run it and \
         commit the result): {differing:?}"
    );

    // A fresh venv: the client and what it declares it needs, installed as
    // clients/python/README.md tells an air-gapped site to.
    let python = fresh_venv(&work.path().join("venv"));
    let source = work.path().join("source");
    write_files(&source, &committed);
    install_offline(&python, &[&source]);

    let server = TestServer::start().await;
    let analyst = server.account("python@example.org", Tier::Institutional);
    let script = work.path().join("examples.py");
    std::fs::write(
        &script,
        readme_examples(&Path::new(CLIENT_DIR).join("README.md"), 6),
    )
    .unwrap();
    let ran = Command::new(&python)
        .arg(&script)
        .current_dir(work.path())
        .env(
            "REGINTEL_URL",
            format!("http://{}{}", server.addr, crate::support::BASE),
        )
        .env("REGINTEL_API_KEY", &analyst.api_key)
        .bounded_output();
    let printed = succeeded("the README's examples", ran);
    for expected in [
        "Oberbayern",
        "citation cit_",
        "DE21:",
        "verification: verified",
        "rows; the first: DE",
        "r = ",
    ] {
        assert!(
            printed.contains(expected),
            "{expected:?} not in:\n{printed}"
        );
    }
    // The client ran from the venv, not from the source tree.
    let location = Command::new(&python)
        .args([
            "-c",
            "import regintel_client; print(regintel_client.__file__)",
        ])
        .current_dir(work.path())
        .bounded_output();
    let location = succeeded("import regintel_client", location);
    assert!(
        location.starts_with(&*work.path().join("venv").to_string_lossy()),
        "{location}"
    );
    server.stop().await.unwrap();
}
