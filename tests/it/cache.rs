//! The answer cache and ETags: one request's answer is never another's, and they tell a caller
//! about changes to what that caller sees, and nothing about anyone else.

use crate::support::{BASE, TestServer, Tier};

/// The cache key joined decoded names and values, so `cursor=DE21%26country%3DFR` (one parameter)
/// and `cursor=DE21&country=FR` (two) shared an entry: the second request got the first one's
/// answer and ETag.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encoded_parameters_do_not_share_an_answer() {
    let s = TestServer::start().await;
    let smuggled = s.get("/regions?cursor=DE21%26country%3DFR&limit=3").await;
    let two = s.get("/regions?cursor=DE21&country=FR&limit=3").await;
    assert_eq!((smuggled.status, two.status), (200, 200));
    assert_ne!(smuggled.header("etag"), two.header("etag"));
    let codes = |r: &crate::support::Resp| -> Vec<String> {
        r.json()["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["code"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(
        codes(&two).iter().all(|c| c.starts_with("FR")),
        "{:?}",
        codes(&two)
    );
    assert_ne!(codes(&smuggled), codes(&two));
}

/// Every import bumped one global generation, so an account's private import changed every
/// caller's ETags and `/readyz`: anyone could watch another account work. Now it renews only its
/// owner's answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_import_renews_only_its_owners_answers() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let b = s.account("b@example.org", Tier::Professional);
    let path = format!("{BASE}/datasets");
    let etag = async |headers: &[(&str, &str)]| {
        let r = s.client.get_with(&path, headers).await;
        assert_eq!(r.status, 200);
        r.header("etag").unwrap().to_owned()
    };
    let generation =
        async || s.client.get("/readyz").await.json()["data"]["data_generation"].clone();
    let (anonymous, mine, theirs) = (
        etag(&[]).await,
        etag(&[a.key_header()]).await,
        etag(&[b.key_header()]).await,
    );
    let ready = generation().await;

    let r = s
        .call(
            "POST",
            "/datasets",
            &[a.key_header(), ("content-type", "application/json")],
            br#"{"code": "mine", "title": "Mine", "unit": "NR"}"#,
        )
        .await;
    assert_eq!(r.status, 201);
    let csv = "dataset_code,nuts_code,nuts_level,time,value,unit,flags\nmine,DE21,2,2022,1,NR,\n";
    let r = s
        .call(
            "PUT",
            "/datasets/mine/data",
            &[a.key_header(), ("content-type", "text/csv")],
            csv.as_bytes(),
        )
        .await;
    assert_eq!(r.status, 200);

    assert_ne!(
        etag(&[a.key_header()]).await,
        mine,
        "the owner's answers are renewed"
    );
    assert_eq!(
        etag(&[]).await,
        anonymous,
        "anonymous answers are untouched"
    );
    assert_eq!(
        etag(&[b.key_header()]).await,
        theirs,
        "another account's too"
    );
    let not_modified = s
        .client
        .get_with(&path, &[b.key_header(), ("if-none-match", &theirs)])
        .await;
    assert_eq!(not_modified.status, 304);
    assert_eq!(generation().await, ready, "/readyz tells nobody");
}

/// An import by another process renews the answers it changes: the old ETag no longer matches
/// (200 with a new one), where before it gave 304.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_changes_the_etag_of_what_it_changed() {
    let s = TestServer::start().await;
    let path = "/compare?regions=DE21,FR10&dataset=tgs00010";
    let before = s.get(path).await;
    let old = before.header("etag").unwrap().to_owned();
    let again = s
        .client
        .get_with(&format!("{BASE}{path}"), &[("if-none-match", &old)])
        .await;
    assert_eq!(again.status, 304);

    let revised = s.dir.path().join("tgs00010.csv");
    std::fs::write(
        &revised,
        "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,isced11,age,sex\n\
         tgs00010,DE21,2,2099,7.7,PC,,A,TOTAL,Y15-74,T\n",
    )
    .unwrap();
    crate::support::run_ok(&["import", revised.to_str().unwrap()], s.dir.path(), None);

    // The server reads the new data generation on its next background round.
    s.background_rounds(2).await;
    let fresh = s
        .client
        .get_with(&format!("{BASE}{path}"), &[("if-none-match", &old)])
        .await;
    assert_eq!(fresh.status, 200, "the old ETag no longer matches");
    assert_ne!(fresh.header("etag"), Some(old.as_str()));
    assert!(
        String::from_utf8_lossy(&fresh.body).contains("2099"),
        "the answer has the new row"
    );
}

fn no_cache(config: &mut regintel::config::ServerConfig) {
    config.cache_bytes = 0;
}

/// `--cache-mb 0` turns the cache off: the same answer asked for three times is rendered three
/// times (three misses, no hit), where a server with its cache answers the second and third
/// from memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cache_of_zero_megabytes_is_off() {
    let counts = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("regintel_cache_requests_total{"))
            .map(str::to_owned)
            .collect()
    };
    for (configure, expected) in [
        (Some(no_cache as fn(&mut _)), ["hit\"} 0", "miss\"} 3"]),
        (None, ["hit\"} 2", "miss\"} 1"]),
    ] {
        let server = TestServer::start_with(crate::support::Options {
            configure,
            ..Default::default()
        })
        .await;
        let mut bodies = Vec::new();
        for _ in 0..3 {
            let resp = server.get("/regions/DE21/profile").await;
            assert_eq!(resp.status, 200);
            bodies.push(resp.json()["data"].clone());
        }
        assert!(bodies.windows(2).all(|w| w[0] == w[1]));
        let metrics = String::from_utf8(server.client.get("/metrics").await.body).unwrap();
        let counts = counts(&metrics);
        assert_eq!(counts.len(), 2, "{metrics}");
        for (line, end) in counts.iter().zip(expected) {
            assert!(line.ends_with(end), "{counts:?}");
        }
        server.stop().await.unwrap();
    }
}
