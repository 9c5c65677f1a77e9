//! Every error code reachable so far, each in the error envelope (`data` null, `error` with
//! `code`, `message`, `status` and `request_id`).

use crate::support::{BASE, Request, TestServer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_parameters_are_400_naming_the_parameter() {
    let s = TestServer::start().await;
    let cases = [
        ("/regions?level=7", "level"),
        ("/regions?level=two", "level"),
        ("/regions?country=Germany", "country"),
        ("/regions?limit=0", "limit"),
        ("/regions?limit=100000", "limit"),
        ("/regions?colour=red", "colour"),
        ("/regions?level=1&level=2", "level"),
        ("/regions/DE21/profile?history=no", "history"),
        ("/regions?q=%ZZ", "q"),
        ("/compare?dataset=tgs00010", "regions"),
        ("/compare?regions=DE21&dataset=tgs00010", "regions"),
        ("/compare?regions=DE21,DE21&dataset=tgs00010", "regions"),
        ("/compare?regions=DE21,,FR10&dataset=tgs00010", "regions"),
        ("/compare?regions=DE21,FR10", "dataset"),
        (
            "/compare?regions=DE21,FR10&dataset=tgs00010&colour=red",
            "colour",
        ),
        (
            "/compare?regions=DE21,FR10&dataset=demo_r_pjangrp3&sex=X",
            "sex",
        ),
        (
            "/compare?regions=DE21,FR10&dataset=tgs00010&period=",
            "period",
        ),
    ];
    for (path, parameter) in cases {
        let r = s.get(path).await;
        let error = r.error(400, "invalid_parameter");
        assert_eq!(error["details"]["parameter"], parameter, "{path}: {error}");
        assert!(!error["message"].as_str().unwrap().is_empty());
    }
    let many: Vec<String> = (0..51).map(|i| format!("R{i}")).collect();
    let r = s
        .get(&format!(
            "/compare?regions={}&dataset=tgs00010",
            many.join(",")
        ))
        .await;
    let error = r.error(400, "invalid_parameter");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("between 2 and 50")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_objects_are_404_with_their_own_codes() {
    let s = TestServer::start().await;
    let e = s.get("/regions/XX99").await.error(404, "unknown_region");
    assert_eq!(e["details"]["region"], "XX99");
    s.get("/regions/XX99/profile")
        .await
        .error(404, "unknown_region");
    s.get("/compare?regions=DE21,XX99&dataset=tgs00010")
        .await
        .error(404, "unknown_region");
    let e = s.get("/datasets/nope").await.error(404, "unknown_dataset");
    assert_eq!(e["details"]["dataset"], "nope");
    s.get("/compare?regions=DE21,FR10&dataset=nope")
        .await
        .error(404, "unknown_dataset");
    s.get("/citations/cit_aaaaaaaaaaaaaaaaaaaa")
        .await
        .error(404, "not_found");
    s.get("/citations/garbage").await.error(404, "not_found");
    s.get("/nothing/here").await.error(404, "not_found");
    s.client
        .get("/api/v1/other/regions")
        .await
        .error(404, "not_found");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_methods_are_405_with_allow_and_options_is_a_preflight() {
    let s = TestServer::start().await;
    for method in ["POST", "PUT", "DELETE", "PATCH", "TRACE"] {
        let r = s
            .client
            .send(Request {
                method,
                path: &format!("{BASE}/regions"),
                headers: &[],
                body: Vec::new(),
            })
            .await;
        r.error(405, "method_not_allowed");
        assert_eq!(r.header("allow"), Some("GET, HEAD, OPTIONS"), "{method}");
    }
    let r = s
        .client
        .send(Request {
            method: "OPTIONS",
            path: &format!("{BASE}/regions/DE21/profile"),
            headers: &[
                ("origin", "https://example.org"),
                ("access-control-request-method", "GET"),
            ],
            body: Vec::new(),
        })
        .await;
    assert_eq!(r.status, 204);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    assert!(
        r.header("access-control-allow-methods")
            .unwrap()
            .contains("GET")
    );
    assert!(
        r.header("access-control-allow-headers")
            .unwrap()
            .contains("X-API-Key")
    );
    // HEAD answers like GET without a body.
    let r = s
        .client
        .send(Request {
            method: "HEAD",
            path: &format!("{BASE}/regions/DE21"),
            headers: &[],
            body: Vec::new(),
        })
        .await;
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
    assert!(r.header("etag").is_some());
}

/// A body over the limit is refused before anything is written, whether its length is declared
/// or it arrives chunked: the dataset it would create does not exist, the data it would load is
/// not there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_are_413_and_change_nothing() {
    let s = TestServer::start_with(crate::support::Options {
        configure: Some(|c| {
            c.max_body_bytes = 1000;
            c.max_upload_bytes = 1000;
        }),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", crate::support::Tier::Professional);
    let definition = |code: &str| {
        serde_json::json!({"code": code, "title": "t", "unit": "NR", "description": "x".repeat(5000)})
            .to_string()
    };
    let json = [a.key_header(), ("content-type", "application/json")];
    let e = s
        .call(
            "POST",
            "/datasets",
            &json,
            definition("declared").as_bytes(),
        )
        .await
        .error(413, "payload_too_large");
    assert_eq!(e["details"]["limit_bytes"], 1000);

    // The same without a declared length: the limit cuts the stream.
    let body = definition("chunked");
    let mut tcp = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "POST {BASE}/datasets HTTP/1.1\r\nhost: localhost\r\nx-api-key: {}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
        a.api_key,
        body.len()
    );
    tokio::io::AsyncWriteExt::write_all(&mut tcp, head.as_bytes())
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(30),
        tokio::io::AsyncReadExt::read_to_end(&mut tcp, &mut answer),
    )
    .await
    .expect("answered")
    .ok();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");

    for code in ["declared", "chunked"] {
        s.client
            .get_with(&format!("{BASE}/datasets/{code}"), &[a.key_header()])
            .await
            .error(404, "unknown_dataset");
    }
    let small = definition("loaded").replace(&"x".repeat(5000), "small");
    assert_eq!(
        s.call("POST", "/datasets", &json, small.as_bytes())
            .await
            .status,
        201
    );
    let rows = "nuts_code,period,value\n".to_owned() + &"DE21,2022,1\n".repeat(100);
    s.call(
        "PUT",
        "/datasets/loaded/data",
        &[a.key_header(), ("content-type", "text/csv")],
        rows.as_bytes(),
    )
    .await
    .error(413, "payload_too_large");
    let loaded = s
        .client
        .get_with(&format!("{BASE}/datasets/loaded"), &[a.key_header()])
        .await
        .json();
    assert_eq!(loaded["data"]["observations"], 0, "{loaded}");
    assert!(loaded["data"]["snapshots"].as_array().unwrap().is_empty());
}
