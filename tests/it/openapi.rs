//! The OpenAPI document: valid by a real validator, and in step with the router.

use crate::bounded::Bounded;

use std::process::Command;

use serde_json::Value;

use crate::support::{BASE, TestServer, Tier, tool};

/// A tool from PyPI that `tests/run.sh` installs; its path comes in the environment variable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_document_passes_openapi_spec_validator() {
    let s = TestServer::start().await;
    let r = s.get("/openapi.json").await;
    assert_eq!(r.status, 200);
    let doc = r.json();
    assert_eq!(doc["openapi"], "3.1.0");
    let file = s.dir.path().join("openapi.json");
    std::fs::write(&file, &r.body).unwrap();
    let out = Command::new(tool("OPENAPI_SPEC_VALIDATOR"))
        .arg(&file)
        .bounded_output();
    assert!(
        out.status.success(),
        "openapi-spec-validator failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    // The base URL in `servers`, paths relative to it, the operational routes at the root
    // outside it.
    assert_eq!(doc["servers"][0]["url"], BASE);
    assert!(doc["paths"].get("/regions/{region_code}/profile").is_some());
    assert!(doc["paths"].get("/healthz").is_none());

    // Every documented path answers below the base URL (with its example parameters), so no
    // route is missing from the router and no documented one is stale.
    for (path, item) in doc["paths"].as_object().unwrap() {
        if item.get("get").is_none() {
            continue;
        }
        let concrete = path
            .replace("{region_code}", "DE21")
            .replace("{dataset_code}", "tgs00010")
            .replace("{citation_id}", "cit_aaaaaaaaaaaaaaaaaaaa");
        let concrete = if concrete.ends_with("/compare") {
            format!("{concrete}?regions=DE21,FR10&dataset=tgs00010")
        } else {
            concrete
        };
        let r = s.client.get(&format!("{BASE}{concrete}")).await;
        let documented: Vec<&String> = item["get"]["responses"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert!(
            documented.contains(&&r.status.to_string()),
            "{concrete} answered {} which is not documented ({documented:?})",
            r.status
        );
        if r.status != 200 {
            let code = r.json()["error"]["code"].as_str().unwrap().to_owned();
            let desc = item["get"]["responses"][r.status.to_string()]["description"]
                .as_str()
                .unwrap();
            assert!(desc.contains(&code), "{concrete}: {code} not in {desc}");
        }
    }
}

#[test]
fn openapi_command_prints_the_same_document() {
    let out = Command::new(env!("CARGO_BIN_EXE_regintel"))
        .arg("openapi")
        .bounded_output();
    assert!(out.status.success());
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        printed,
        regintel::openapi::document(BASE, &Default::default())
    );
}

/// Behind a public URL (`--public-url`), the document's `servers` is that URL with the base path,
/// as served and as `regintel openapi --public-url` prints it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_documents_server_is_the_public_url() {
    let s = crate::support::TestServer::start_with(crate::support::Options {
        configure: Some(|c| c.public_url = Some("https://stats.regintel.test/".into())),
        ..Default::default()
    })
    .await;
    let served = s.get("/openapi.json").await.json();
    let expected = format!("https://stats.regintel.test{BASE}");
    assert_eq!(served["servers"][0]["url"], expected.as_str());
    let out = Command::new(env!("CARGO_BIN_EXE_regintel"))
        .args(["openapi", "--public-url", "https://stats.regintel.test"])
        .bounded_output();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["servers"][0]["url"], expected.as_str());
}

/// A new user's path: generate a Python client from the served document with
/// openapi-python-client, give it the API's base URL, and call profile, region,
/// compare, regions, citations, export, dataset creation and the CSV upload through it; every
/// answer must parse into its typed model (tests/it/generated_client/check.py).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_generated_from_the_document_works_at_the_base_url() {
    let s = TestServer::start().await;
    let institutional = s.account("inst@example.org", Tier::Institutional);
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        work.path().join("openapi.json"),
        s.get("/openapi.json").await.body,
    )
    .unwrap();
    std::fs::write(
        work.path().join("config.yaml"),
        "package_name_override: regintel_client\nproject_name_override: regintel-client\n",
    )
    .unwrap();
    let generated = Command::new(tool("OPENAPI_PYTHON_CLIENT"))
        .args(["generate", "--path", "openapi.json", "--meta", "none"])
        .args(["--config", "config.yaml"])
        .current_dir(work.path())
        .bounded_output();
    let log = String::from_utf8_lossy(&generated.stdout);
    assert!(generated.status.success(), "{log}");
    assert!(!log.contains("will not be generated"), "{log}");

    let checked = Command::new(tool("TEST_PYTHON"))
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/it/generated_client/check.py"
        ))
        .env("PYTHONPATH", work.path())
        .env("BASE_URL", format!("http://{}{BASE}", s.addr))
        .env("API_KEY", &institutional.api_key)
        .bounded_output();
    assert!(
        checked.status.success() && checked.stdout.starts_with(b"ok"),
        "{}\n{}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );
}
