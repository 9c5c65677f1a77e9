//! `regintel fetch` against a stand-in for Eurostat's dissemination API on loopback, serving
//! answers Eurostat gave (tests/fixtures/eurostat/PROVENANCE.md): the table of contents, a
//! regional dataset's TSV, faults, the answer that an extraction was queued; and the ways a
//! download fails.

use crate::bounded::Bounded;

use std::sync::{Arc, Mutex};

use http_body_util::Full;
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::Value;

use crate::support::{TestServer, regintel};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eurostat");
const PREFIX: &str = "/eurostat/api/dissemination";

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}/{name}")).unwrap()
}

/// How the stand-in answers; the requests it got.
#[derive(Default)]
struct Behaviour {
    /// 503 to this many data requests first.
    data_failures: u32,
    /// Answer data requests that Eurostat queued the extraction, and its status SUBMITTED once.
    queued: bool,
    /// Cut the gzip stream short.
    truncated: bool,
    /// Answer data requests with an HTML page.
    html: bool,
    /// Answer data requests with 2 MiB: the gzip magic, then zeros.
    huge: bool,
    /// Answer data requests with a gzip that decompresses to 2 MiB (the header, then empty
    /// lines).
    bomb: bool,
    /// Answer structure requests 404.
    no_structure: bool,
    /// gzip's compression level (another level, other bytes, the same data).
    level: u32,
    /// Eurostat updated nama_10r_3gdp: its table of contents' date moved, and its data revised
    /// one value (Albania's GDP per inhabitant of 2021, 5400 then 5500).
    updated: bool,
    /// Eurostat renamed nama_10r_3gdp in its table of contents (with `updated`).
    retitled: bool,
    /// Eurostat no longer publishes the line of this series (its key, as the TSV's first
    /// column writes it).
    dropped: Option<&'static str>,
    /// Eurostat broke the series down by one more dimension (nace_r2, every line TOTAL).
    restructured: bool,
    /// The data hold a line of a region code of an earlier NUTS edition (DE915, Göttingen until
    /// 2016), which the bundled classification does not know.
    historical: bool,
    /// A table of contents of two regional datasets (nama_10r_3gdp, hlth_rs_physreg) and one
    /// other, cut from the recorded one.
    small_toc: bool,
    requests: Vec<String>,
}

struct StandIn {
    url: String,
    behaviour: Arc<Mutex<Behaviour>>,
}

impl StandIn {
    async fn start() -> StandIn {
        let behaviour = Arc::new(Mutex::new(Behaviour {
            level: 6,
            ..Default::default()
        }));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::clone(&behaviour);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let shared = Arc::clone(&shared);
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(
                        move |req: hyper::Request<hyper::body::Incoming>| {
                            let answer = answer(&shared, req.uri());
                            async move { Ok::<_, std::convert::Infallible>(answer) }
                        },
                    );
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        StandIn {
            url: format!("http://{addr}{PREFIX}"),
            behaviour,
        }
    }

    fn set(&self, change: impl FnOnce(&mut Behaviour)) {
        change(&mut self.behaviour.lock().unwrap());
    }

    /// The requests it got, their paths below the API's root.
    fn requests(&self) -> Vec<String> {
        self.behaviour.lock().unwrap().requests.clone()
    }
}

fn gzip(bytes: &[u8], level: u32) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// The stand-in's answer to `uri`.
fn answer(shared: &Mutex<Behaviour>, uri: &http::Uri) -> hyper::Response<Full<Bytes>> {
    let mut b = shared.lock().unwrap();
    let path = uri.path().strip_prefix(PREFIX).unwrap_or("").to_owned();
    b.requests.push(path.clone());
    let reply = |status: u16, body: Vec<u8>| {
        hyper::Response::builder()
            .status(status)
            .body(Full::new(Bytes::from(body)))
            .unwrap()
    };
    let tsv = || {
        let mut text = fixture("estat_nama_10r_3gdp.tsv");
        if b.updated {
            let revised =
                String::from_utf8(text)
                    .unwrap()
                    .replacen("4700 \t5400 ", "4700 \t5500 ", 1);
            text = revised.into_bytes();
        }
        if let Some(key) = b.dropped {
            let kept: String = String::from_utf8(text)
                .unwrap()
                .split_inclusive('\n')
                .filter(|line| !line.starts_with(&format!("{key}\t")))
                .collect();
            text = kept.into_bytes();
        }
        if b.historical {
            let mut with = String::from_utf8(text).unwrap();
            with.push_str(&format!("A,EUR_HAB,DE915\t{}31000 \n", ": \t".repeat(22)));
            text = with.into_bytes();
        }
        if b.restructured {
            let lines: String = String::from_utf8(text)
                .unwrap()
                .split_inclusive('\n')
                .map(|line| {
                    let (key, rest) = line.split_once('\t').unwrap();
                    let (head, geo) = key.rsplit_once(',').unwrap();
                    let code = if line.starts_with("freq") {
                        "nace_r2"
                    } else {
                        "TOTAL"
                    };
                    format!("{head},{code},{geo}\t{rest}")
                })
                .collect();
            text = lines.into_bytes();
        }
        let mut data = gzip(&text, b.level);
        if b.truncated {
            data.truncate(data.len() / 2);
        }
        data
    };
    match path.as_str() {
        "/catalogue/toc/txt" if b.updated => {
            let toc = String::from_utf8(fixture("table_of_contents_en.txt")).unwrap();
            let mut moved = toc.replace(
                "\"nama_10r_3gdp\"\t\"dataset\"\t\"21.02.2023\"",
                "\"nama_10r_3gdp\"\t\"dataset\"\t\"28.11.2026\"",
            );
            if b.retitled {
                moved = moved.replace(
                    "Gross domestic product (GDP) at current market prices by NUTS 3 regions\"",
                    "Regional GDP at current market prices, NUTS 3\"",
                );
            }
            reply(200, moved.into_bytes())
        }
        "/catalogue/toc/txt" if b.small_toc => reply(200, small_toc().into_bytes()),
        "/catalogue/toc/txt" => reply(200, fixture("table_of_contents_en.txt")),
        "/sdmx/2.1/data/HLTH_RS_PHYSREG" => reply(200, fixture("estat_hlth_rs_physreg.tsv.gz")),
        // A dataset the bundled catalogue does not know (its data the GDP's: the test reads how
        // it is described, not its figures).
        "/sdmx/2.1/data/NAMA_10R_3POPGDP" => reply(200, tsv()),
        "/sdmx/2.1/dataflow/ESTAT/NAMA_10R_3GDP/latest" if b.no_structure => {
            reply(404, fixture("fault-100-dataflow.xml"))
        }
        "/sdmx/2.1/dataflow/ESTAT/NAMA_10R_3GDP/latest" => {
            reply(200, fixture("structure-nama_10r_3gdp.xml"))
        }
        // A dataset of the table of contents without a geo dimension: a structure in the form
        // Eurostat gives (its dimensions freq, reporter, partner, ...).
        "/sdmx/2.1/dataflow/ESTAT/EI_BPM6CA_Q/latest" => {
            let xml = String::from_utf8(fixture("comext-dataflow-ds-045409.xml")).unwrap();
            reply(200, xml.replace("DS-045409", "EI_BPM6CA_Q").into_bytes())
        }
        "/sdmx/2.1/data/NAMA_10R_3GDP" => {
            if b.data_failures > 0 {
                b.data_failures -= 1;
                return reply(503, b"<html>Service Unavailable</html>".to_vec());
            }
            if b.html {
                return reply(
                    200,
                    b"<html><body>Sorry, we are down</body></html>".to_vec(),
                );
            }
            if b.huge {
                let mut body = vec![0u8; 2 << 20];
                body[..2].copy_from_slice(&[0x1f, 0x8b]);
                return reply(200, body);
            }
            if b.bomb {
                let mut text = b"freq,unit,geo\\TIME_PERIOD\t2020 \n".to_vec();
                text.resize(2 << 20, b'\n');
                return reply(200, gzip(&text, 9));
            }
            if b.queued {
                return reply(200, fixture("async-queued.xml"));
            }
            reply(200, tsv())
        }
        "/1.0/async/status/e3d39a1b-27eb-4ce4-936d-8f95b23bf74f" => {
            let status = match b.queued {
                true => "SUBMITTED",
                false => "AVAILABLE",
            };
            b.queued = false;
            let body = format!(
                r#"<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><ns0:asyncResponse xmlns:ns0="http://estat.ec.europa.eu/disschain/soap/asynchronous" xmlns:ns1="http://estat.ec.europa.eu/disschain/asynchronous"><ns1:status><ns1:key>e3d39a1b-27eb-4ce4-936d-8f95b23bf74f</ns1:key><ns1:status>{status}</ns1:status></ns1:status></ns0:asyncResponse></S:Body></S:Envelope>"#
            );
            reply(200, body.into_bytes())
        }
        "/1.0/async/data/e3d39a1b-27eb-4ce4-936d-8f95b23bf74f" => reply(200, tsv()),
        _ => reply(404, fixture("fault-100-data.xml")),
    }
}

/// The recorded table of contents' lines of nama_10r_3gdp, of ei_bpm6ca_q (not regional), of
/// their folders, and a line of hlth_rs_physreg in the regional health folder.
fn small_toc() -> String {
    let recorded = String::from_utf8(fixture("table_of_contents_en.txt")).unwrap();
    let lines: Vec<&str> = recorded.lines().collect();
    let mut kept: Vec<&str> = [0, 1, 2, 3, 4, 5, 70, 188, 189, 192, 269]
        .iter()
        .map(|&i| lines[i])
        .collect();
    assert!(kept[9].contains("\"nama_10r_3gdp\"") && kept[10].contains("\"reg_hlth\""));
    kept.push("\"                Health personnel by NUTS 2 regions\"\t\"hlth_rs_physreg\"\t\"dataset\"\t\"20.06.2023\"\t\"20.06.2023\"\t\"1993\"\t\"2022\"\t");
    kept.join("\n") + "\n"
}

/// `regintel fetch` of `datasets` into `dir` from `stand_in`, with quick retries and polls; its
/// success, its JSON outcome and what it said on standard error.
async fn fetch(
    stand_in: &StandIn,
    dir: &std::path::Path,
    datasets: &[&str],
) -> (bool, Value, String) {
    fetch_with(stand_in, dir, datasets, &[]).await
}

/// [`fetch`] with more flags.
async fn fetch_with(
    stand_in: &StandIn,
    dir: &std::path::Path,
    datasets: &[&str],
    flags: &[&str],
) -> (bool, Value, String) {
    let mut command = regintel();
    command
        .args([
            "fetch",
            "--json",
            "--retry-seconds",
            "0.01",
            "--poll-seconds",
            "0.01",
        ])
        .args(["--eurostat-url", &stand_in.url, "--data-dir"])
        .arg(dir)
        .args(flags)
        .args(datasets);
    let out = tokio::task::spawn_blocking(move || command.bounded_output())
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    let outcome = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.success(), outcome, said)
}

/// `regintel` with `args` in `dir`, its JSON output.
async fn run_json(args: &[&str], dir: &std::path::Path) -> Value {
    let (args, dir): (Vec<String>, _) =
        (args.iter().map(|a| a.to_string()).collect(), dir.to_owned());
    let out = tokio::task::spawn_blocking(move || {
        crate::support::run_ok(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            &dir,
            None,
        )
    })
    .await
    .unwrap();
    serde_json::from_str(&out).unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A dataset fetched whole: a snapshot with its title from the table of contents and its labels
/// from its structure, every row cited to the download (its URL, time, and the SHA-256 of the
/// bytes received and of the file they decompress to). The same data fetched again, compressed
/// otherwise, makes no snapshot and keeps every citation id; the bundled extract then leaves the
/// dataset alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fetched_dataset_is_imported_cited_to_its_download_and_kept() {
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (ok, first, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let outcome = &first[0];
    assert_eq!(outcome["dataset"], "nama_10r_3gdp", "{first}");
    assert!(outcome["snapshot"].is_string(), "{first}");
    assert_eq!(
        (&outcome["rows_in_file"], &outcome["added"]),
        (&38510.into(), &38510.into()),
        "{first}"
    );
    assert_eq!(outcome["error"], Value::Null);

    let record = |dir: &std::path::Path| -> (String, String, Option<String>) {
        let conn = rusqlite::Connection::open(dir.join(regintel::store::DB_FILE)).unwrap();
        conn.query_row(
            "SELECT sha256_received, sha256, error FROM eurostat_fetches WHERE dataset_code = 'nama_10r_3gdp'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    let (received, decompressed, error) = record(dir.path());
    assert_eq!(
        decompressed,
        sha256_hex(&fixture("estat_nama_10r_3gdp.tsv"))
    );
    assert_eq!(
        received,
        sha256_hex(&gzip(&fixture("estat_nama_10r_3gdp.tsv"), 6))
    );
    assert_eq!(error, None);
    assert!(
        dir.path()
            .join("eurostat/estat_nama_10r_3gdp.tsv.gz")
            .exists()
    );

    // The bundled extract's file of the dataset does not override it (the others import).
    let bundled = run_json(&["import", "--bundled", "--json"], dir.path()).await;
    let datasets = bundled[0]["datasets"].as_array().unwrap();
    let nama = (datasets.iter())
        .find(|d| d["dataset"] == "nama_10r_3gdp")
        .unwrap();
    assert_eq!(nama["snapshot"], Value::Null, "{nama}");
    assert!(
        datasets
            .iter()
            .filter(|d| d["snapshot"].is_string())
            .count()
            >= 12,
        "{bundled}"
    );
    // The same data compressed otherwise: no new snapshot, and the record says what came.
    stand_in.set(|b| b.level = 9);
    let (ok, again, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    assert_eq!(again[0]["snapshot"], Value::Null, "{again}");
    let (received_again, decompressed_again, _) = record(dir.path());
    assert_ne!(received_again, received);
    assert_eq!(decompressed_again, decompressed);

    let s = TestServer::start_in(dir, Default::default()).await;
    let detail = s.get("/datasets/nama_10r_3gdp").await.json();
    assert_eq!(
        detail["data"]["title"],
        "Gross domestic product (GDP) at current market prices by NUTS 3 regions"
    );
    let obtained = &detail["data"]["data_obtained"];
    assert_eq!(
        (&obtained["basis"], &obtained["eurostat_last_update"]),
        (&"downloaded".into(), &"2023-02-21".into()),
        "{detail}"
    );
    let compared = s
        .get("/compare?regions=AT21,AT22&dataset=nama_10r_3gdp")
        .await
        .json();
    let citation = compared["data"]["regions"][0]["value"]["citation"]
        .as_str()
        .unwrap_or_else(|| panic!("{compared}"))
        .to_owned();
    let cited = s.get(&format!("/citations/{citation}")).await.json();
    let data = &cited["data"];
    let origin = &data["source"]["origin"];
    assert_eq!(origin["type"], "eurostat", "{cited}");
    assert_eq!(
        origin["url"],
        format!(
            "{}/sdmx/2.1/data/NAMA_10R_3GDP?format=TSV&compressed=true",
            stand_in.url
        )
    );
    assert_eq!(origin["sha256"], decompressed);
    assert_eq!(
        origin["sha256_received"], received,
        "the download the rows came from"
    );
    let how = data["how_to_verify"].as_str().unwrap();
    assert!(
        how.contains("estat_nama_10r_3gdp.tsv") && how.contains("the column headed"),
        "{how}"
    );
    assert_eq!(data["unit"], "EUR_HAB", "the headline series: {cited}");
    // Labels from its structure.
    assert_eq!(
        compared["data"]["dataset"]["unit_label"], "Euro per inhabitant",
        "{compared}"
    );
    s.stop().await.unwrap();
}

/// What fails leaves the dataset as it was, says which dataset and why, and exits non-zero; what
/// another try can mend is tried again; a queued extraction is followed; a structure that cannot
/// be read only costs the labels.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_are_safe_said_and_retried_where_that_helps() {
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    // An unknown code: refused at once, naming it, before any data is asked for.
    let (ok, _, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp", "no_such_set"]).await;
    assert!(!ok && said.contains("has no dataset no_such_set"), "{said}");
    assert!(
        !stand_in.requests().iter().any(|r| r.starts_with("/sdmx")),
        "{:?}",
        stand_in.requests()
    );
    // No geo dimension: refused with its dimensions, before its data is asked for.
    let (ok, outcome, said) = fetch(&stand_in, dir.path(), &["ei_bpm6ca_q"]).await;
    assert!(!ok, "{said}");
    let error = outcome[0]["error"].as_str().unwrap();
    assert!(
        error.contains("has no geo dimension") && error.contains("reporter"),
        "{error}"
    );
    assert!(
        !stand_in
            .requests()
            .iter()
            .any(|r| r.starts_with("/sdmx/2.1/data/EI"))
    );
    // Not recorded: a sync would ask for it again twice a day, and fail each time.
    let recorded: i64 = rusqlite::Connection::open(dir.path().join(regintel::store::DB_FILE))
        .unwrap()
        .query_row(
            "SELECT count(*) FROM eurostat_fetches WHERE dataset_code = 'ei_bpm6ca_q'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(recorded, 0);

    // Two 503s, then the data: tried again, and imported.
    stand_in.set(|b| b.data_failures = 2);
    let (ok, outcome, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let data_requests = |s: &StandIn| {
        s.requests()
            .iter()
            .filter(|r| r.starts_with("/sdmx/2.1/data/NAMA"))
            .count()
    };
    assert_eq!(data_requests(&stand_in), 3);
    let snapshot = outcome[0]["snapshot"].as_str().unwrap().to_owned();

    let snapshots = |dir: &std::path::Path| -> i64 {
        let conn = rusqlite::Connection::open(dir.join(regintel::store::DB_FILE)).unwrap();
        conn.query_row("SELECT count(*) FROM snapshots", [], |r| r.get(0))
            .unwrap()
    };
    let before = snapshots(dir.path());
    type Behave = fn(&mut Behaviour);
    let refusals: [(Behave, &str); 4] = [
        (|b| b.data_failures = 100, "503"),
        // A structure change the importer cannot map onto the dataset it holds.
        (
            |b| b.restructured = true,
            "has dimensions [freq] but the file has [freq, nace_r2]",
        ),
        (|b| b.truncated = true, "gzip"),
        (|b| b.html = true, "not the compressed TSV asked for"),
    ];
    for (behave, reason) in refusals {
        stand_in.set(|b| {
            *b = Behaviour {
                level: 6,
                requests: std::mem::take(&mut b.requests),
                ..Default::default()
            };
            behave(b);
        });
        let (ok, outcome, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
        assert!(!ok && said.contains("nama_10r_3gdp"), "{reason}: {said}");
        let error = outcome[0]["error"].as_str().unwrap_or_default();
        assert!(error.contains(reason), "{reason}: {error}");
        assert_eq!(snapshots(dir.path()), before, "nothing half-imported");
        let conn = rusqlite::Connection::open(dir.path().join(regintel::store::DB_FILE)).unwrap();
        let (kept, recorded): (String, String) = conn
            .query_row(
                "SELECT snapshot, error FROM eurostat_fetches WHERE dataset_code = 'nama_10r_3gdp'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(kept, snapshot, "the last success stays");
        assert!(recorded.contains(reason), "{recorded}");
    }

    // `check` says the last attempt failed, and what the dataset keeps; /metrics says when.
    {
        use std::os::unix::fs::PermissionsExt;
        let private = std::fs::Permissions::from_mode(0o700);
        std::fs::set_permissions(dir.path(), private).unwrap();
    }
    let mut check = regintel();
    check
        .args(["check", "--plain-http", "--data-dir"])
        .arg(dir.path());
    let out = tokio::task::spawn_blocking(move || check.bounded_output())
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("warning: eurostat nama_10r_3gdp: fetched ")
            && said.contains("the last attempt failed at")
            && said.contains("not the compressed TSV asked for"),
        "{said}"
    );
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(
        dir.path().join(regintel::store::DB_FILE),
        copy.path().join(regintel::store::DB_FILE),
    )
    .unwrap();
    let server = TestServer::start_in(copy, Default::default()).await;
    let line = "regintel_eurostat_last_failure_timestamp_seconds{dataset=\"nama_10r_3gdp\"}";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let metrics = String::from_utf8(server.client.get("/metrics").await.body).unwrap();
        if metrics.contains(line) {
            assert!(metrics.contains(
                "regintel_eurostat_last_success_timestamp_seconds{dataset=\"nama_10r_3gdp\"}"
            ));
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{metrics}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    server.stop().await.unwrap();

    // A queued extraction, then its status asked until it is available.
    stand_in.set(|b| {
        *b = Behaviour {
            level: 6,
            queued: true,
            no_structure: true,
            ..Default::default()
        }
    });
    let (ok, outcome, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    assert_eq!(outcome[0]["error"], Value::Null);
    let asked = stand_in.requests();
    assert_eq!(
        asked
            .iter()
            .filter(|r| r.starts_with("/1.0/async/status/"))
            .count(),
        2,
        "{asked:?}"
    );
    assert!(
        asked.iter().any(|r| r.starts_with("/1.0/async/data/")),
        "{asked:?}"
    );
    // Without a structure: codes stand for labels, and it says so.
    let warning = outcome[0]["warnings"][0].as_str().unwrap_or_default();
    assert!(warning.contains("could not be read"), "{outcome}");
}

/// A sync reads the table of contents once and fetches again only what Eurostat changed: with
/// nothing new, that one request and no other; after an update, a snapshot revising what
/// changed. A sync that finds another one running does nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_fetches_only_what_eurostat_changed() {
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    // Nothing fetched yet: it says so, and asks Eurostat nothing.
    let (ok, out, said) = regintel_in(&["sync", "--eurostat-url", &stand_in.url], dir.path()).await;
    assert!(ok, "{said}");
    assert!(
        out.contains("no dataset was fetched from Eurostat here yet"),
        "{out}"
    );
    assert!(stand_in.requests().is_empty());
    let (ok, _, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let sync = |dir: std::path::PathBuf, url: String| async move {
        let mut command = regintel();
        command
            .args([
                "sync",
                "--json",
                "--retry-seconds",
                "0.01",
                "--eurostat-url",
                &url,
            ])
            .arg("--data-dir")
            .arg(&dir);
        let out = tokio::task::spawn_blocking(move || command.bounded_output())
            .await
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{said}");
        serde_json::from_slice::<Value>(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
    };
    stand_in.set(|b| b.requests.clear());
    let report = sync(dir.path().to_owned(), stand_in.url.clone()).await;
    assert_eq!(
        report["current"],
        serde_json::json!(["nama_10r_3gdp"]),
        "{report}"
    );
    assert_eq!(report["fetched"], serde_json::json!([]));
    assert_eq!(stand_in.requests(), ["/catalogue/toc/txt"]);

    stand_in.set(|b| {
        b.updated = true;
        b.requests.clear();
    });
    let report = sync(dir.path().to_owned(), stand_in.url.clone()).await;
    let fetched = &report["fetched"][0];
    assert_eq!(fetched["dataset"], "nama_10r_3gdp", "{report}");
    assert!(fetched["snapshot"].is_string(), "{report}");
    assert_eq!(
        (&fetched["revised"], &fetched["added"]),
        (&1.into(), &0.into()),
        "{report}"
    );
    // Its record now holds the new date: the next sync finds it current.
    stand_in.set(|b| b.requests.clear());
    let report = sync(dir.path().to_owned(), stand_in.url.clone()).await;
    assert_eq!(
        report["current"],
        serde_json::json!(["nama_10r_3gdp"]),
        "{report}"
    );

    // Another sync holds the lock.
    let lock = std::fs::File::create(dir.path().join("eurostat/sync.lock")).unwrap();
    lock.lock().unwrap();
    stand_in.set(|b| b.requests.clear());
    let report = sync(dir.path().to_owned(), stand_in.url.clone()).await;
    assert_eq!(report["already_running"], true, "{report}");
    assert!(stand_in.requests().is_empty());
}

/// A fetch is the whole dataset: rows its file no longer holds are withdrawn, not deleted. Each
/// old citation still resolves and names the snapshot that withdrew it; the withdrawal has a
/// citation of its own, without a value or a line; the changes list and the snapshot count them.
/// Published again, the values are current once more and the change names the withdrawal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fetch_withdraws_rows_eurostat_no_longer_publishes_and_restores_them() {
    const KEY: &str = "A,EUR_HAB,AL011";
    let values_on_line = String::from_utf8(fixture("estat_nama_10r_3gdp.tsv"))
        .unwrap()
        .lines()
        .find(|l| l.starts_with(&format!("{KEY}\t")))
        .unwrap()
        .split('\t')
        .skip(1)
        .filter(|cell| !cell.trim().starts_with(':'))
        .count() as u64;
    assert_eq!(values_on_line, 14);
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (ok, first, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let first_snapshot = first[0]["snapshot"].as_str().unwrap().to_owned();
    let cited_2021 = |dir: &std::path::Path| -> Option<String> {
        let conn = rusqlite::Connection::open(dir.join(regintel::store::DB_FILE)).unwrap();
        conn.query_row(
            "SELECT o.citation_id FROM observations o JOIN series s ON s.id = o.series_id
             WHERE o.region_code = 'AL011' AND o.period = '2021' AND s.unit = 'EUR_HAB'
               AND o.superseded_by IS NULL",
            [],
            |r| r.get(0),
        )
        .ok()
    };
    let old = cited_2021(dir.path()).unwrap();

    stand_in.set(|b| b.dropped = Some(KEY));
    let (ok, second, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let outcome = &second[0];
    assert_eq!(outcome["withdrawn"], values_on_line, "{second}");
    assert_eq!(
        (&outcome["added"], &outcome["revised"]),
        (&0.into(), &0.into())
    );
    let withdrawing = outcome["snapshot"].as_str().unwrap().to_owned();
    assert_eq!(cited_2021(dir.path()), None, "no current row");

    let s = TestServer::start_in(dir, Default::default()).await;
    let cited = s.get(&format!("/citations/{old}")).await.json();
    let data = &cited["data"];
    assert_eq!(data["value_text"], "3900", "{cited}");
    assert_eq!(data["withdrawn_in"], withdrawing.as_str(), "{cited}");
    // Its source is the download it came in, not the dataset's latest.
    assert_eq!(
        data["source"]["origin"]["sha256"], data["snapshot"]["file_sha256"],
        "{cited}"
    );
    assert_eq!(data["snapshot"]["id"], first_snapshot.as_str());
    let withdrawal = data["superseded_by"].as_str().unwrap().to_owned();
    assert_eq!(data["current_citation"], withdrawal.as_str());
    let shown = s.get(&format!("/citations/{withdrawal}")).await.json();
    let w = &shown["data"];
    assert_eq!(
        (&w["value"], &w["location"], &w["superseded_by"]),
        (&Value::Null, &Value::Null, &Value::Null),
        "{shown}"
    );
    assert_eq!(w["withdrawn_in"], withdrawing.as_str());
    assert_eq!(w["snapshot"]["id"], withdrawing.as_str());
    assert_eq!(w["snapshot"]["rows_withdrawn"], values_on_line);
    let how = w["how_to_verify"].as_str().unwrap();
    assert!(how.contains("no line of it holds region AL011"), "{how}");
    // The page says so too.
    let page = String::from_utf8(
        s.client
            .get(&format!("/explore/citations/{old}"))
            .await
            .body,
    )
    .unwrap();
    assert!(page.contains("data-testid=\"withdrawn\""), "{page}");

    let changes = s
        .get(&format!(
            "/datasets/nama_10r_3gdp/changes?since_snapshot={first_snapshot}&limit=100"
        ))
        .await
        .json();
    let listed = changes["data"].as_array().unwrap();
    assert_eq!(listed.len() as u64, values_on_line, "{changes}");
    let change = listed.iter().find(|c| c["period"] == "2021").unwrap();
    assert_eq!(change["change"], "withdrawn", "{change}");
    assert_eq!(change["region"], "AL011");
    assert_eq!(change["value"], Value::Null);
    assert_eq!(change["previous_value"], "3900");
    assert_eq!(change["replaces"], old.as_str());
    assert_eq!(change["citation_id"], withdrawal.as_str());
    assert_eq!(change["snapshot"], withdrawing.as_str());
    // The region's figures no longer hold the series' values.
    let compared = s
        .get("/compare?regions=AL011,AL012&dataset=nama_10r_3gdp")
        .await
        .json();
    let al011 = (compared["data"]["regions"].as_array().unwrap().iter())
        .find(|r| r["region"]["code"] == "AL011" || r["code"] == "AL011")
        .cloned()
        .unwrap_or(Value::Null);
    assert!(
        !al011.to_string().contains(&old),
        "a withdrawn value is not served: {compared}"
    );
    let dir = s.stop_keeping_data().await;

    // Published again: the same file as the first fetch, so the same rows and citations.
    stand_in.set(|b| b.dropped = None);
    let (ok, third, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    assert_eq!(
        (&third[0]["added"], &third[0]["withdrawn"]),
        (&values_on_line.into(), &0.into()),
        "{third}"
    );
    assert_eq!(cited_2021(dir.path()).as_deref(), Some(old.as_str()));
    let s = TestServer::start_in(dir, Default::default()).await;
    let cited = s.get(&format!("/citations/{old}")).await.json();
    assert_eq!(
        (
            &cited["data"]["withdrawn_in"],
            &cited["data"]["superseded_by"]
        ),
        (&Value::Null, &Value::Null),
        "{cited}"
    );
    let shown = s.get(&format!("/citations/{withdrawal}")).await.json();
    assert_eq!(shown["data"]["superseded_by"], old.as_str(), "{shown}");
    assert_eq!(shown["data"]["withdrawn_in"], Value::Null, "{shown}");
    let dir = s.stop_keeping_data().await;

    // Withdrawn again by the same file: the same withdrawal stands again.
    stand_in.set(|b| b.dropped = Some(KEY));
    let (ok, fourth, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    assert_eq!(fourth[0]["withdrawn"], values_on_line, "{fourth}");
    let conn = rusqlite::Connection::open(dir.path().join(regintel::store::DB_FILE)).unwrap();
    let superseded = |citation: &str| -> Option<String> {
        conn.query_row(
            "SELECT superseded_by FROM observations WHERE citation_id = ?1",
            [citation],
            |r| r.get(0),
        )
        .unwrap()
    };
    assert_eq!(superseded(&withdrawal).as_deref(), Some("withdrawn"));
    assert_eq!(superseded(&old).as_deref(), Some(withdrawal.as_str()));
    drop(conn);

    // Its revisions: the value, current twice (before the first withdrawal and after it was
    // published again), and the withdrawal, standing twice, now too; each snapshot with the
    // publication date Eurostat's table of contents gave.
    let s = TestServer::start_in(dir, Default::default()).await;
    let revisions = s.get(&format!("/citations/{old}/revisions")).await.json();
    let listed = revisions["data"].as_array().unwrap();
    assert_eq!(listed.len(), 2, "{revisions}");
    let (value, withdrawn) = (&listed[0], &listed[1]);
    assert_eq!(
        (&value["id"], &value["value_text"], &value["is_current"]),
        (&old.as_str().into(), &"3900".into(), &false.into()),
        "{revisions}"
    );
    assert_eq!(
        (
            &withdrawn["id"],
            &withdrawn["withdrawn"],
            &withdrawn["is_current"]
        ),
        (&withdrawal.as_str().into(), &true.into(), &true.into()),
        "{revisions}"
    );
    let stretches = |r: &Value| -> Vec<(String, Option<String>)> {
        (r["current"].as_array().unwrap().iter())
            .map(|c| {
                let snapshot = |m: &Value| m["snapshot"].as_str().map(str::to_owned);
                (snapshot(&c["from"]).unwrap(), snapshot(&c["until"]))
            })
            .collect()
    };
    let third_snapshot = stretches(value)[1].0.clone();
    assert_eq!(
        stretches(value),
        [
            (first_snapshot.clone(), Some(withdrawing.clone())),
            (
                third_snapshot.clone(),
                stretches(withdrawn)[1].0.clone().into()
            ),
        ]
    );
    assert_eq!(
        stretches(withdrawn)[0],
        (withdrawing.clone(), Some(third_snapshot))
    );
    assert_eq!(stretches(withdrawn)[1].1, None);
    let published = value["published_at"].as_str().unwrap();
    assert!(published.ends_with("T23:59:59.999Z"), "{value}");
    // As of each stretch, the citation stood as it did then.
    let at = |r: &Value, stretch: usize| -> String {
        r["current"][stretch]["from"]["imported_at"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    for (moment, superseded_by, withdrawn_in) in [
        (at(value, 0), Value::Null, Value::Null),
        (
            at(withdrawn, 0),
            withdrawal.as_str().into(),
            withdrawing.as_str().into(),
        ),
        (at(value, 1), Value::Null, Value::Null),
    ] {
        let then = s
            .get(&format!("/citations/{old}?as_of={moment}"))
            .await
            .json();
        assert_eq!(
            (
                &then["data"]["superseded_by"],
                &then["data"]["withdrawn_in"]
            ),
            (&superseded_by, &withdrawn_in),
            "as of {moment}: {then}"
        );
    }
    // The citation's page lists them.
    let page = String::from_utf8(
        s.client
            .get(&format!("/explore/citations/{old}"))
            .await
            .body,
    )
    .unwrap();
    let table = page.split("data-testid=\"revisions\"").nth(1).unwrap();
    assert_eq!(
        table.matches("<tr").count(),
        3,
        "a head and two rows: {table}"
    );
    assert!(
        table.contains("(this citation)") && table.contains("withdrawn"),
        "{table}"
    );
}

/// `regintel` with `args` and `--data-dir dir`: its success, standard output and standard error.
async fn regintel_in(args: &[&str], dir: &std::path::Path) -> (bool, String, String) {
    let mut with_dir: Vec<&str> = args.to_vec();
    with_dir.extend(["--data-dir", dir.to_str().unwrap()]);
    regintel_with(&with_dir).await
}

/// `regintel` with `args`: its success, standard output and standard error.
async fn regintel_with(args: &[&str]) -> (bool, String, String) {
    let mut command = regintel();
    command.args(args);
    let out = tokio::task::spawn_blocking(move || command.bounded_output())
        .await
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `fetch --list` lists the datasets of Eurostat's regional folders from the table of contents
/// alone, found by words of their code or title, with what this install holds; `--all-regional`
/// fetches each, saying which of how many it is at, and sums up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_regional_datasets_are_listed_and_fetched_all_at_once() {
    let stand_in = StandIn::start().await;
    stand_in.set(|b| b.small_toc = true);
    let dir = tempfile::tempdir().unwrap();
    let url = stand_in.url.clone();
    let list = |search: Option<&'static str>| {
        let (url, dir) = (url.clone(), dir.path().to_owned());
        async move {
            let mut args = vec!["fetch", "--list", "--json", "--eurostat-url", &url];
            if let Some(words) = search {
                args.extend(["--search", words]);
            }
            let (ok, out, said) = regintel_in(&args, &dir).await;
            assert!(ok, "{said}");
            serde_json::from_str::<Value>(&out).unwrap()
        }
    };
    let listed = list(None).await;
    let codes: Vec<&str> = (listed.as_array().unwrap().iter())
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["hlth_rs_physreg", "nama_10r_3gdp"], "{listed}");
    let gdp = &listed[1];
    assert_eq!(
        (&gdp["kind"], &gdp["last_update_of_data"], &gdp["held"]),
        (&"dataset".into(), &"2023-02-21".into(), &Value::Null),
        "{gdp}"
    );
    let found = list(Some("health PERSONNEL")).await;
    assert_eq!(found.as_array().unwrap().len(), 1, "{found}");
    assert_eq!(found[0]["code"], "hlth_rs_physreg");
    assert_eq!(stand_in.requests(), ["/catalogue/toc/txt"; 2], "no more");

    let (ok, _, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let listed = list(Some("gdp")).await;
    assert_eq!(
        (&listed[0]["held"], &listed[0]["held_update"]),
        (&"fetched".into(), &"2023-02-21".into()),
        "{listed}"
    );
    let (ok, out, said) = regintel_in(
        &["fetch", "--list", "--eurostat-url", &stand_in.url],
        dir.path(),
    )
    .await;
    assert!(ok, "{said}");
    assert!(
        out.contains("2 of Eurostat's regional datasets and tables")
            && out
                .lines()
                .any(|l| l.starts_with("nama_10r_3gdp ") && l.contains("fetched (2023-02-21)")),
        "{out}"
    );

    let (ok, out, said) = regintel_in(
        &[
            "fetch",
            "--all-regional",
            "--retry-seconds",
            "0.01",
            "--eurostat-url",
            &stand_in.url,
        ],
        dir.path(),
    )
    .await;
    assert!(ok, "{said}");
    assert!(
        said.contains("[1/2] hlth_rs_physreg: downloading")
            && said.contains("[2/2] nama_10r_3gdp: downloading"),
        "{said}"
    );
    assert!(
        out.contains(
            "warning: hlth_rs_physreg: the structure of hlth_rs_physreg could not be read"
        ),
        "{out}"
    );
    assert!(
        out.contains("2 datasets: 1 new snapshots, 1 unchanged, 0 failed"),
        "{out}"
    );

    // Codes and a list at once, or neither: refused.
    for args in [&["fetch", "--list", "nama_10r_3gdp"][..], &["fetch"]] {
        let (ok, _, said) = regintel_in(args, dir.path()).await;
        assert!(!ok, "{args:?}: {said}");
    }
}

/// Bytes of `file` in the tar file `tar`, where they begin.
fn offset_in(tar: &[u8], file: &[u8]) -> usize {
    tar.windows(file.len().min(4096))
        .position(|w| w == &file[..file.len().min(4096)])
        .unwrap()
}

/// A bundle carries what fetches received to an install with no route to Eurostat: imported
/// there, the same rows have the same citation ids and sources. A bundle that does not verify,
/// a file changed or a signature missing or wrong where a key is trusted, is refused whole,
/// naming why, and imports nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bundle_carries_fetched_data_to_an_install_without_a_route_to_eurostat() {
    let stand_in = StandIn::start().await;
    let connected = tempfile::tempdir().unwrap();
    let files = tempfile::tempdir().unwrap();
    let bundle = files.path().join("regional.tar");
    let bundle_arg = bundle.to_str().unwrap();
    // Not fetched here yet: fetched first.
    let (ok, out, said) = regintel_in(
        &[
            "bundle",
            "create",
            "--out",
            bundle_arg,
            "nama_10r_3gdp",
            "--json",
            "--retry-seconds",
            "0.01",
            "--eurostat-url",
            &stand_in.url,
        ],
        connected.path(),
    )
    .await;
    assert!(ok, "{said}");
    assert!(said.contains("fetching it first"), "{said}");
    let manifest: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(manifest["datasets"], serde_json::json!(["nama_10r_3gdp"]));
    let gz = gzip(&fixture("estat_nama_10r_3gdp.tsv"), 6);
    let data = (manifest["files"].as_array().unwrap().iter())
        .find(|f| f["path"] == "nama_10r_3gdp/estat_nama_10r_3gdp.tsv.gz")
        .unwrap_or_else(|| panic!("{manifest}"));
    assert_eq!(data["sha256"], sha256_hex(&gz), "as received");
    assert_eq!(
        data["origin"],
        format!(
            "{}/sdmx/2.1/data/NAMA_10R_3GDP?format=TSV&compressed=true",
            stand_in.url
        )
    );
    assert_eq!(manifest["files"].as_array().unwrap().len(), 3, "{manifest}");

    // A column of the database in `dir`, in the order `sql` gives.
    let column = |dir: &std::path::Path, sql: &str| -> Vec<String> {
        let conn = rusqlite::Connection::open(dir.join(regintel::store::DB_FILE)).unwrap();
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let citations = |dir: &std::path::Path| {
        column(
            dir,
            "SELECT citation_id FROM observations ORDER BY citation_id",
        )
    };
    let sources =
        |dir: &std::path::Path| column(dir, "SELECT origin_json FROM sources ORDER BY id");
    let import = |bundle: std::path::PathBuf,
                  dir: std::path::PathBuf,
                  trust: Option<std::path::PathBuf>| async move {
        let mut args = vec![
            "import".to_owned(),
            "--bundle".into(),
            bundle.to_str().unwrap().into(),
            "--json".into(),
        ];
        if let Some(key) = trust {
            args.extend(["--trust".into(), key.to_str().unwrap().into()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        regintel_in(&args, &dir).await
    };

    let air_gapped = tempfile::tempdir().unwrap();
    let (ok, out, said) = import(bundle.clone(), air_gapped.path().into(), None).await;
    assert!(ok, "{said}");
    let outcome: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(outcome[0]["added"], 38510, "{outcome}");
    assert_eq!(citations(air_gapped.path()), citations(connected.path()));
    assert_eq!(sources(air_gapped.path()), sources(connected.path()));
    let (ok, out, said) = import(bundle.clone(), air_gapped.path().into(), None).await;
    assert!(ok, "{said}");
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()[0]["snapshot"],
        Value::Null
    );

    // While another fetch, sync or import holds the data supply, an import waits its turn.
    let lock = std::fs::File::open(air_gapped.path().join("eurostat/sync.lock")).unwrap();
    lock.lock().unwrap();
    let (ok, _, said) = import(bundle.clone(), air_gapped.path().into(), None).await;
    assert!(
        !ok && said.contains("another fetch, sync or bundle import"),
        "{said}"
    );
    drop(lock);

    // One byte of the data changed: refused, naming the file; nothing imported.
    let mut bytes = std::fs::read(&bundle).unwrap();
    let at = offset_in(&bytes, &gz) + gz.len() / 2;
    bytes[at] ^= 0x55;
    let changed = files.path().join("changed.tar");
    std::fs::write(&changed, &bytes).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let (ok, _, said) = import(changed, fresh.path().into(), None).await;
    assert!(!ok);
    assert!(
        said.contains("nama_10r_3gdp/estat_nama_10r_3gdp.tsv.gz in the bundle does not verify"),
        "{said}"
    );
    assert!(
        !fresh.path().join(regintel::store::DB_FILE).exists() || citations(fresh.path()).is_empty()
    );

    // Signed with a key made here; trusted there.
    let key = files.path().join("signing.pem");
    let (ok, _, said) = regintel_with(&["bundle", "keygen", "--out", key.to_str().unwrap()]).await;
    assert!(ok, "{said}");
    let public = files.path().join("signing.pem.pub");
    let signed = files.path().join("signed.tar");
    let (ok, _, said) = regintel_in(
        &[
            "bundle",
            "create",
            "--out",
            signed.to_str().unwrap(),
            "--sign",
            key.to_str().unwrap(),
            "nama_10r_3gdp",
            "--eurostat-url",
            &stand_in.url,
        ],
        connected.path(),
    )
    .await;
    assert!(ok, "{said}");
    let trusting = tempfile::tempdir().unwrap();
    let (ok, _, said) = import(signed.clone(), trusting.path().into(), Some(public.clone())).await;
    assert!(ok, "{said}");
    assert_eq!(citations(trusting.path()), citations(connected.path()));

    // A later download bundled and imported; then the older bundle again would take the dataset
    // back: refused, unless asked for.
    let (ok, _, said) = fetch(&stand_in, connected.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let newer = files.path().join("newer.tar");
    let (ok, _, said) = regintel_in(
        &[
            "bundle",
            "create",
            "--out",
            newer.to_str().unwrap(),
            "nama_10r_3gdp",
            "--eurostat-url",
            &stand_in.url,
        ],
        connected.path(),
    )
    .await;
    assert!(ok, "{said}");
    let (ok, _, said) = import(newer, trusting.path().into(), None).await;
    assert!(ok, "{said}");
    let (ok, out, _) = import(signed.clone(), trusting.path().into(), None).await;
    assert!(
        !ok && out.contains("older than the one this install holds"),
        "{out}"
    );
    let (ok, _, said) = regintel_in(
        &[
            "import",
            "--bundle",
            signed.to_str().unwrap(),
            "--allow-older",
        ],
        trusting.path(),
    )
    .await;
    assert!(ok, "{said}");

    // Where a key is trusted: an unsigned bundle, another key's, a manifest changed after
    // signing, are refused.
    let other = files.path().join("other.pem");
    let (ok, _, said) =
        regintel_with(&["bundle", "keygen", "--out", other.to_str().unwrap()]).await;
    assert!(ok, "{said}");
    let mut manifest_changed = std::fs::read(&signed).unwrap();
    let at = offset_in(&manifest_changed, b"\"created_by\": \"regintel ");
    manifest_changed[at + 15] = b'R';
    let manifest_changed_path = files.path().join("manifest-changed.tar");
    std::fs::write(&manifest_changed_path, manifest_changed).unwrap();
    for (bundle, key, why) in [
        (bundle.clone(), public.clone(), "the bundle is not signed"),
        (
            signed.clone(),
            files.path().join("other.pem.pub"),
            "does not verify with the trusted key",
        ),
        (
            manifest_changed_path,
            public.clone(),
            "does not verify with the trusted key",
        ),
    ] {
        let fresh = tempfile::tempdir().unwrap();
        let (ok, _, said) = import(bundle, fresh.path().into(), Some(key)).await;
        assert!(!ok && said.contains(why), "{why}: {said}");
    }
    // A key is never overwritten.
    let (ok, _, said) = regintel_with(&["bundle", "keygen", "--out", key.to_str().unwrap()]).await;
    assert!(!ok && said.contains("exists already"), "{said}");
}

/// A fetched dataset the bundled catalogue does not know is described from Eurostat: its short
/// label from its title, its topic from its folders, its headline by rule (a relative unit over
/// an absolute one). What the operator sets in `<data dir>/eurostat/datasets.json` overrides it
/// at the next fetch, even of the same data; a headline its data do not hold fails the fetch,
/// naming it, and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fetched_dataset_is_described_by_eurostat_or_by_the_operators_settings() {
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    let described = |dir: &std::path::Path| -> (String, String, String) {
        let conn = rusqlite::Connection::open(dir.join(regintel::store::DB_FILE)).unwrap();
        conn.query_row(
            "SELECT description, topic, headline_json FROM datasets WHERE code = 'nama_10r_3popgdp'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    stand_in.set(|b| b.historical = true);
    let (ok, first, said) = fetch(&stand_in, dir.path(), &["nama_10r_3popgdp"]).await;
    assert!(ok, "{said}");
    // A code the classification does not know: kept, and said.
    assert_eq!(
        first[0]["unclassified_regions"],
        serde_json::json!(["DE915"]),
        "{first}"
    );
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let (ok, out, said) = regintel_in(&["check", "--plain-http"], dir.path()).await;
    assert!(ok, "{said}");
    assert!(
        out.contains("eurostat nama_10r_3popgdp: 1 region codes the classification does not know, kept and served as published (DE915)"),
        "{out}"
    );
    let (label, topic, headline) = described(dir.path());
    assert_eq!(
        label,
        "Average annual population to calculate regional GDP data (thousand persons)"
    );
    assert_eq!(topic, "economy");
    assert!(headline.contains(r#""unit":"EUR_HAB""#), "{headline}");

    let settings = dir.path().join("eurostat/datasets.json");
    std::fs::write(
        &settings,
        r#"{"NAMA_10R_3POPGDP": {"headline": {"unit": "EUR_HAB_EU27_2020"}, "short_title": "Population for GDP", "topic": "demography"}}"#,
    )
    .unwrap();
    let (ok, again, said) = fetch(&stand_in, dir.path(), &["nama_10r_3popgdp"]).await;
    assert!(ok, "{said}");
    assert_eq!(again[0]["snapshot"], Value::Null, "the same data: {again}");
    let (label, topic, headline) = described(dir.path());
    assert_eq!(
        (label.as_str(), topic.as_str()),
        ("Population for GDP", "demography")
    );
    let headline_unit: String =
        rusqlite::Connection::open(dir.path().join(regintel::store::DB_FILE))
            .unwrap()
            .query_row(
                "SELECT s.unit FROM datasets d JOIN series s ON s.id = d.headline_series_id
             WHERE d.code = 'nama_10r_3popgdp'",
                [],
                |r| r.get(0),
            )
            .unwrap();
    assert_eq!(
        headline_unit, "EUR_HAB_EU27_2020",
        "the series facts and briefings read"
    );
    assert!(
        headline.contains(r#""unit":"EUR_HAB_EU27_2020""#),
        "{headline}"
    );
    assert!(
        headline.contains(r#""freq":"A""#),
        "the rule's choice of the rest: {headline}"
    );

    std::fs::write(
        &settings,
        r#"{"nama_10r_3popgdp": {"headline": {"unit": "NOPE"}}}"#,
    )
    .unwrap();
    let (ok, outcome, said) = fetch(&stand_in, dir.path(), &["nama_10r_3popgdp"]).await;
    assert!(!ok, "{said}");
    let error = outcome[0]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("names unit NOPE, which its data do not hold"),
        "{outcome}"
    );
    assert_eq!(described(dir.path()).0, "Population for GDP", "unchanged");
    std::fs::write(&settings, r#"{"nama_10r_3popgdp": {"headlines": {}}}"#).unwrap();
    let (ok, _, said) = fetch(&stand_in, dir.path(), &["nama_10r_3popgdp"]).await;
    assert!(!ok && said.contains("datasets.json"), "{said}");
}

/// Downloads are capped, as received and as decompressed; a cap of this install is not tried
/// again (another try would bring as much), and nothing is imported.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn downloads_are_capped_and_a_cap_is_not_tried_again() {
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    type Behave = fn(&mut Behaviour);
    let capped: [(Behave, &str, &str); 2] = [
        (
            |b| b.huge = true,
            "--max-download-mb",
            "(the download limit)",
        ),
        (
            |b| b.bomb = true,
            "--max-inflated-mb",
            "decompresses to more than 1048576 bytes (the limit)",
        ),
    ];
    for (behave, flag, reason) in capped {
        stand_in.set(|b| {
            *b = Behaviour {
                level: 6,
                ..Default::default()
            };
            behave(b);
        });
        let (ok, outcome, said) =
            fetch_with(&stand_in, dir.path(), &["nama_10r_3gdp"], &[flag, "1"]).await;
        assert!(!ok, "{said}");
        let error = outcome[0]["error"].as_str().unwrap_or_default();
        assert!(error.contains(reason), "{flag}: {outcome}");
        let data_requests = (stand_in.requests().iter())
            .filter(|r| r.starts_with("/sdmx/2.1/data/"))
            .count();
        assert_eq!(data_requests, 1, "{flag}: not tried again");
        let conn = rusqlite::Connection::open(dir.path().join(regintel::store::DB_FILE)).unwrap();
        let snapshots: i64 = conn
            .query_row("SELECT count(*) FROM snapshots", [], |r| r.get(0))
            .unwrap();
        assert_eq!(snapshots, 0, "{flag}: nothing imported");
        let left: Vec<_> = std::fs::read_dir(dir.path().join("eurostat"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tsv"))
            .collect();
        assert!(left.is_empty(), "{flag}: {left:?} left behind");
    }
}

/// A running server needs no restart: a fetch's new snapshot reaches it through the data
/// generation it watches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_server_serves_a_fetch_without_a_restart() {
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let data_dir = dir.path().to_owned();
    let s = TestServer::start_in(dir, Default::default()).await;
    let count = |detail: &Value| detail["data"]["snapshot_count"].clone();
    assert_eq!(count(&s.get("/datasets/nama_10r_3gdp").await.json()), 1);

    stand_in.set(|b| b.updated = true);
    let (ok, _, said) = fetch(&stand_in, &data_dir, &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let detail = s.get("/datasets/nama_10r_3gdp").await.json();
        if count(&detail) == 2 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{detail}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    s.stop().await.unwrap();
}

/// A briefing citing rows a later fetch withdraws names, among its revisions, the snapshot that
/// withdrew each one, with the withdrawal as the row that stands now; its text stays as written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_briefings_revisions_name_the_fetch_that_withdrew_a_cited_row() {
    use crate::support::{BASE, Tier};
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let s = TestServer::start_in(dir, Default::default()).await;
    let who = s.account("writer@example.org", Tier::Institutional);
    let body = serde_json::json!({"region_nuts_code": "AL011", "briefing_type": "economy"});
    let posted = s
        .call(
            "POST",
            "/briefings",
            &[who.key_header(), ("content-type", "application/json")],
            body.to_string().as_bytes(),
        )
        .await;
    assert_eq!(
        posted.status,
        201,
        "{}",
        String::from_utf8_lossy(&posted.body)
    );
    let posted = posted.json();
    let id = posted["data"]["id"].as_str().unwrap().to_owned();
    let dir = s.stop_keeping_data().await;

    stand_in.set(|b| b.dropped = Some("A,EUR_HAB,AL011"));
    let (ok, second, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let withdrawing = second[0]["snapshot"].as_str().unwrap().to_owned();
    let s = TestServer::start_in(dir, Default::default()).await;
    let got = s
        .client
        .get_with(&format!("{BASE}/briefings/{id}"), &[who.key_header()])
        .await
        .json();
    let revisions = &got["data"]["revisions"];
    assert_eq!(revisions["any_superseded"], true, "{revisions}");
    let superseded = revisions["superseded"].as_array().unwrap();
    assert!(!superseded.is_empty(), "{revisions}");
    for entry in superseded {
        assert_eq!(entry["withdrawn_in"], withdrawing.as_str(), "{entry}");
        let current = entry["current_citation"].as_str().unwrap();
        let standing = s.get(&format!("/citations/{current}")).await.json();
        assert_eq!(standing["data"]["value"], Value::Null, "{standing}");
        assert_eq!(standing["data"]["withdrawn_in"], withdrawing.as_str());
    }
    assert_eq!(got["data"]["sections"], posted["data"]["sections"]);
}

/// A dataset Eurostat renamed between two fetches is shown, as of a moment between them, as it
/// was then: the title (and all else it said of itself) its snapshot of then was imported with;
/// read now, as it is now. Its comparison as of then names it so too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dataset_read_as_of_a_moment_is_described_as_it_was_then() {
    const THEN: &str = "Gross domestic product (GDP) at current market prices by NUTS 3 regions";
    const NOW: &str = "Regional GDP at current market prices, NUTS 3";
    let stand_in = StandIn::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    let between =
        regintel::runtime::clock::rfc3339_millis(crate::as_of::a_moment_after_now().await);
    stand_in.set(|b| {
        b.updated = true;
        b.retitled = true;
    });
    let (ok, second, said) = fetch(&stand_in, dir.path(), &["nama_10r_3gdp"]).await;
    assert!(ok, "{said}");
    assert!(second[0]["snapshot"].is_string(), "{second}");
    let s = TestServer::start_in(dir, Default::default()).await;
    let now = s.get("/datasets/nama_10r_3gdp").await.json();
    assert_eq!(now["data"]["title"], NOW, "{now}");
    let then = s
        .get(&format!("/datasets/nama_10r_3gdp?as_of={between}"))
        .await
        .json();
    assert_eq!(then["data"]["title"], THEN, "{then}");
    let compare = "/compare?regions=AL011,AL012&dataset=nama_10r_3gdp";
    let compared = s.get(&format!("{compare}&as_of={between}")).await.json();
    assert_eq!(compared["data"]["dataset"]["title"], THEN, "{compared}");
    let compared = s.get(compare).await.json();
    assert_eq!(compared["data"]["dataset"]["title"], NOW, "{compared}");
}
