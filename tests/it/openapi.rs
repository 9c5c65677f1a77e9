//! The OpenAPI document: valid by a real validator, and in step with the router.

use std::process::Command;

use serde_json::Value;

use crate::support::{BASE, TestServer};

/// The validator from PyPI that `tests/run.sh` installs; its path comes in OPENAPI_SPEC_VALIDATOR.
fn validator() -> String {
    std::env::var("OPENAPI_SPEC_VALIDATOR").unwrap_or_else(|_| {
        panic!("OPENAPI_SPEC_VALIDATOR is not set: run the tests with tests/run.sh, which installs openapi-spec-validator")
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_document_passes_openapi_spec_validator() {
    let s = TestServer::start().await;
    let r = s.get("/openapi.json").await;
    assert_eq!(r.status, 200);
    let doc = r.json();
    assert_eq!(doc["openapi"], "3.1.0");
    let file = s.dir.path().join("openapi.json");
    std::fs::write(&file, &r.body).unwrap();
    let out = Command::new(validator())
        .arg(&file)
        .output()
        .expect("run openapi-spec-validator");
    assert!(
        out.status.success(),
        "openapi-spec-validator failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    // Every documented path answers (with its example parameters), so no route is missing from
    // the router and no documented one is stale.
    for (path, item) in doc["paths"].as_object().unwrap() {
        if item.get("get").is_none() {
            continue;
        }
        let concrete = path.replace(
            "{code}",
            if path.contains("datasets") {
                "tgs00010"
            } else {
                "DE21"
            },
        );
        let concrete = concrete
            .replace("{id}", "cit_aaaaaaaaaaaaaaaaaaaa")
            .replace("{dataset}", "tgs00010");
        let concrete = if concrete.ends_with("/compare") {
            format!("{concrete}?regions=DE21,FR10&dataset=tgs00010")
        } else {
            concrete
        };
        let r = s.client.get(&concrete).await;
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
    assert!(
        doc["paths"]
            .get(format!("{BASE}/regions/{{code}}/profile"))
            .is_some()
    );
    assert!(doc["paths"].get("/healthz").is_some());
}

#[test]
fn openapi_command_prints_the_same_document() {
    let out = Command::new(env!("CARGO_BIN_EXE_regintel"))
        .arg("openapi")
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed, regintel::openapi::document(BASE, &[]));
}
