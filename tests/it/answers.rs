//! What the answers say, pinned: `data` and `meta.citations` of a fixed sample of 500 requests
//! (comparisons, profiles, citations, region searches) are hashed byte for byte and compared with
//! `tests/fixtures/answers.sha256`, so work on the read path (how rows are read, how answers are
//! serialised) cannot change a single byte a client receives without this test saying which
//! request changed.
//!
//! After an intended change of answers, rewrite the file with `REGINTEL_WRITE_ANSWER_DIGESTS=1`
//! (that run fails, having compared nothing) and review its diff.

use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use crate::sample::Sample;
use regintel::store::Store;
use regintel::store::public_rows::{Loaded, NotHeld, PublicData};
use regintel::store::regions::RegionRow;

use crate::support::{Options, TestServer, bundled_data_dir};

const DIGESTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/answers.sha256");
const NUTS_REGIONS: &str = include_str!("../../data/nuts_regions.csv");

const COMPARISONS: usize = 200;
const PROFILES: usize = 150;
const CITATIONS: usize = 100;
const SEARCHES: usize = 50;

/// The envelope's parts this test pins, as the bytes the server sent.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    data: &'a RawValue,
    #[serde(borrow)]
    meta: Meta<'a>,
}

#[derive(Deserialize)]
struct Meta<'a> {
    #[serde(borrow)]
    citations: Option<&'a RawValue>,
}

/// Picks one of `from`.
fn pick<'a>(sample: &mut Sample, from: &'a [String]) -> &'a str {
    &from[sample.below(from.len())]
}

/// NUTS 2024 codes of one level, without the extra-regio `..ZZ` ones.
fn regions_at(level: &str) -> Vec<String> {
    NUTS_REGIONS
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            (f[3] == level && f[8] == "true" && !f[0].ends_with("ZZ")).then(|| f[0].to_owned())
        })
        .collect()
}

/// The sample's paths below the base path, citations last (they are taken from the answers).
fn sample_paths(datasets: &[String]) -> Vec<String> {
    let (nuts2, nuts3) = (regions_at("2"), regions_at("3"));
    let mut any_level = regions_at("0");
    any_level.extend(regions_at("1"));
    any_level.extend(nuts2.iter().cloned());
    any_level.extend(nuts3.iter().cloned());
    let mut sample = Sample(20_261_124);
    let mut paths = Vec::new();
    for _ in 0..COMPARISONS {
        let mut three: Vec<&str> = Vec::new();
        while three.len() < 3 {
            let code = pick(&mut sample, &nuts2);
            if !three.contains(&code) {
                three.push(code);
            }
        }
        paths.push(format!(
            "/compare?regions={}&dataset={}",
            three.join(","),
            pick(&mut sample, datasets)
        ));
    }
    for _ in 0..PROFILES {
        paths.push(format!(
            "/regions/{}/profile",
            pick(&mut sample, &any_level)
        ));
    }
    for _ in 0..SEARCHES {
        let name = pick(&mut sample, &any_level);
        let prefix = &name[..1 + sample.below(name.len())];
        paths.push(format!("/regions?q={prefix}&limit=20"));
    }
    paths
}

/// `path status sha256(data ␟ meta.citations)`, one line per request.
fn digest_line(path: &str, status: u16, body: &[u8]) -> String {
    let envelope: Envelope =
        serde_json::from_slice(body).unwrap_or_else(|e| panic!("{path}: not an envelope ({e})"));
    let mut h = Sha256::new();
    h.update(envelope.data.get());
    h.update([0x1f]);
    h.update(envelope.meta.citations.map_or("", |c| c.get()));
    let hash: String = h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{path} {status} {hash}")
}

#[tokio::test]
async fn a_fixed_sample_of_answers_is_byte_for_byte_as_committed() {
    the_sample_answers_as_committed(&TestServer::start().await).await;
}

/// The same answers from the public rows held in memory as from SQLite.
#[tokio::test]
async fn the_public_rows_in_memory_answer_byte_for_byte_as_committed() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.public_data_bytes = 64 << 20),
        ..Options::default()
    })
    .await;
    assert!(s.public_data_held().await > 20 << 20);
    the_sample_answers_as_committed(&s).await;
}

async fn the_sample_answers_as_committed(s: &TestServer) {
    let listed = s.get("/datasets").await.json();
    let datasets: Vec<String> = listed["data"]
        .as_array()
        .expect("datasets")
        .iter()
        .map(|d| d["code"].as_str().expect("code").to_owned())
        .collect();
    assert!(datasets.len() >= 10, "{datasets:?}");

    let mut lines = Vec::new();
    let mut citations = Vec::new();
    for path in sample_paths(&datasets) {
        let r = s.get(&path).await;
        if path.starts_with("/compare") && r.status == 200 {
            let cited = r.json()["meta"]["citations"].clone();
            let ids = cited.as_object().expect("citations");
            // The first of a row's (not a region's classification row).
            let rows = ids.iter().filter(|(_, c)| c.get("kind").is_none());
            citations.extend(rows.map(|(id, _)| id.clone()).take(1));
        }
        lines.push(digest_line(&path, r.status, &r.body));
    }
    assert!(
        citations.len() >= CITATIONS,
        "{} citations",
        citations.len()
    );
    // A citation's snapshot has an id and an import time of its own on every import: they are
    // not what the answer says about the row.
    for id in citations
        .iter()
        .step_by(citations.len() / CITATIONS)
        .take(CITATIONS)
    {
        let path = format!("/citations/{id}");
        let r = s.get(&path).await;
        assert_eq!(r.status, 200, "{path}");
        let snapshot = r.json()["data"]["snapshot"].clone();
        let mut body = String::from_utf8(r.body).expect("UTF-8");
        for (field, stands_for) in [("id", "snapshot"), ("imported_at", "imported")] {
            let own = snapshot[field].as_str().expect("snapshot id and time");
            body = body.replace(own, stands_for);
        }
        lines.push(digest_line(&path, r.status, body.as_bytes()));
    }
    assert_eq!(lines.len(), 500);
    let ok = lines.iter().filter(|l| l.contains(" 200 ")).count();
    assert!(ok >= 450, "only {ok} of 500 answered 200");

    let mut text = String::new();
    for line in &lines {
        writeln!(text, "{line}").unwrap();
    }
    // Renewing the digests is done on purpose, and such a run never passes: it compared nothing.
    if std::env::var_os("REGINTEL_WRITE_ANSWER_DIGESTS").is_some() {
        std::fs::write(DIGESTS, &text).expect("writes the digests");
        panic!(
            "wrote {DIGESTS}: review and commit it, then run again without REGINTEL_WRITE_ANSWER_DIGESTS"
        );
    }
    let committed = std::fs::read_to_string(DIGESTS).expect("tests/fixtures/answers.sha256");
    let changed: Vec<String> = committed
        .lines()
        .zip(text.lines())
        .filter(|(was, is)| was != is)
        .map(|(was, is)| format!("was {was}\n is {is}"))
        .collect();
    assert!(
        changed.is_empty() && committed.lines().count() == lines.len(),
        "{} of {} answers differ from the committed ones:\n{}",
        changed.len(),
        lines.len(),
        changed[..changed.len().min(10)].join("\n")
    );
}

/// The index answers every region read as the view does, for a caller who sees public
/// regions only: lookups in any case, unknown codes, and searches by level, country, text
/// and page.
#[test]
fn the_public_index_answers_as_the_view_does() {
    let dir = bundled_data_dir();
    let store = Store::open(dir.path(), 2).unwrap();
    let view = store.scoped(None).unwrap();
    let index = store
        .scoped(None)
        .unwrap()
        .with_public_data_only(1)
        .unwrap();
    let shown = |r: Option<std::sync::Arc<RegionRow>>| format!("{r:?}");
    for code in ["DE21", "de21", "FrK", "EL30", "XX99", "", "DE"] {
        assert_eq!(
            shown(view.region(code).unwrap()),
            shown(index.region(code).unwrap()),
            "{code}"
        );
        assert_eq!(
            shown(view.region_any_case(code).unwrap()),
            shown(index.region_any_case(code).unwrap()),
            "{code}"
        );
    }
    let mut codes = view.region_codes().unwrap();
    codes.sort();
    assert_eq!(codes, index.region_codes().unwrap());
    let mut parents = 0;
    for code in codes.iter().map(String::as_str).chain(["XX", ""]) {
        let children = view.children(code).unwrap();
        assert_eq!(children, index.children(code).unwrap(), "{code}");
        assert_eq!(
            format!("{:?}", view.subregions(code).unwrap()),
            format!("{:?}", index.subregions(code).unwrap()),
            "{code}"
        );
        parents += usize::from(!children.is_empty());
    }
    assert!(parents > 300, "{parents} regions with children");
    for filter in [
        (None, None),
        (Some(2), None),
        (Some(3), Some("DE")),
        (None, Some("EL")),
    ] {
        for needle in [
            None,
            Some("a"),
            Some("de"),
            Some("île"),
            Some("i̇s"),
            Some("zz"),
            // A Greek word's final sigma, and a character no name holds.
            Some("ς"),
            Some("\0"),
        ] {
            for (after, limit) in [(None, 20), (Some("DE2"), 7), (Some("ZZ"), 5)] {
                let a = view.regions_matching(filter, needle, after, limit).unwrap();
                let b = index
                    .regions_matching(filter, needle, after, limit)
                    .unwrap();
                let context = format!("{filter:?} {needle:?} {after:?}");
                assert_eq!((a.total, a.skipped), (b.total, b.skipped), "{context}");
                assert_eq!(
                    format!("{:?}", a.page),
                    format!("{:?}", b.page),
                    "{context}"
                );
            }
        }
    }
}

/// The public rows held in memory answer every read as SQLite does for a caller who sees public
/// data only: each region's headline rows, a sample of every other series' rows, a row at a
/// period, and a sample of rows by citation id (ids that are no current public row are left to
/// SQLite). Within a budget, the smallest datasets are held and the rest read from SQLite, and
/// the answers are the same.
#[test]
fn the_public_rows_in_memory_answer_as_sqlite_does() {
    let dir = bundled_data_dir();
    let store = Store::open(dir.path(), 2).unwrap();
    let generation = store.system().unwrap().generations().unwrap().public;
    let conn = store.admin().unwrap();
    let conn = conn.sql();
    let datasets_held = |budget| match PublicData::load(&conn, budget).unwrap() {
        Loaded::Held(data) if data.generation == generation => {
            let (held, of, unfit) = data.rows.datasets();
            assert_eq!(unfit, 0);
            Ok((held, of))
        }
        Loaded::NotHeld {
            generation: g,
            reason,
        } if g == generation => Err(reason),
        _ => panic!("read another generation"),
    };
    // The smallest bundled dataset has 2,523 rows.
    assert_eq!(
        datasets_held(100 << 10),
        Err(NotHeld::TooLarge),
        "counted too many"
    );
    let held = hold(&store, generation, 64 << 20);
    let all = held.datasets.1;
    assert_eq!(held.datasets, (all, all));
    assert!(all > 10, "{all} public datasets");
    assert_eq!(datasets_held(held.bytes), Ok((all, all)));
    let fewer = datasets_held(held.bytes - 1).unwrap();
    assert!(fewer.0 < all, "read too many: {fewer:?}");
    answers_as_sqlite(&store, generation, held.rows);

    let part = Store::open(dir.path(), 2).unwrap();
    let held_part = hold(&part, generation, held.bytes / 2);
    let (some, _) = held_part.datasets;
    assert!(0 < some && some < all, "{:?}", held_part.datasets);
    assert!(held_part.rows < held.rows && held_part.bytes <= held.bytes / 2);
    answers_as_sqlite(&part, generation, held_part.rows);
}

/// The public data `store` holds within `budget` bytes, once it has read them.
fn hold(store: &Store, generation: i64, budget: usize) -> regintel::store::HeldPublicData {
    store.hold_public_data(generation, budget);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        if let Some(held) = store.held_public_data() {
            assert_eq!(held.generation, generation);
            return held;
        }
        assert!(std::time::Instant::now() < deadline, "not held in time");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Reads through the rows `store` holds (`held` of them) answer as SQLite's.
fn answers_as_sqlite(store: &Store, generation: i64, held: usize) {
    let sqlite = store.scoped(None).unwrap();
    let memory = store
        .scoped(None)
        .unwrap()
        .with_public_data_only(generation)
        .unwrap();
    let shown = |x: &dyn std::fmt::Debug| format!("{x:?}");
    let datasets = sqlite.datasets().unwrap();
    let mut compared = 0;
    for (n, region) in sqlite.region_codes().unwrap().iter().enumerate() {
        let (a, b) = (
            sqlite.headline_rows(region).unwrap(),
            memory.headline_rows(region).unwrap(),
        );
        assert_eq!(shown(&a), shown(&b), "{region}");
        compared += a.iter().map(|(_, rows)| rows.len()).sum::<usize>();
        if n % 10 != 0 {
            continue;
        }
        for dataset in &datasets {
            for series in sqlite.series_of(dataset.id).unwrap().iter() {
                let rows = sqlite.series_rows(region, series.id).unwrap();
                let held = memory.series_rows(region, series.id).unwrap();
                assert_eq!(shown(&rows), shown(&held), "{region} {}", series.id);
                // What each row says, and the row it makes whole to cite (read with it from
                // SQLite, made when asked from memory).
                let values = |s: &regintel::store::Scoped| {
                    let values = s.series_values(region, series.id).unwrap();
                    let said: Vec<_> = (values.iter())
                        .map(|v| (&v.period, v.value, &v.flags, &v.conf_status))
                        .collect();
                    let whole: Vec<_> = (values.iter())
                        .map(|v| s.whole(region, series.id, v).unwrap())
                        .collect();
                    (shown(&said), shown(&whole))
                };
                assert_eq!(values(&sqlite), values(&memory), "{region} {}", series.id);
                for (i, row) in rows.iter().enumerate().step_by(7) {
                    let at = |s: &regintel::store::Scoped| {
                        shown(&s.value_at(region, series.id, &row.period).unwrap())
                    };
                    assert_eq!(at(&sqlite), at(&memory), "{region} {i}");
                    let cited = |s: &regintel::store::Scoped| {
                        shown(&s.citation(row.citation_id.as_str()).unwrap())
                    };
                    assert_eq!(cited(&sqlite), cited(&memory), "{}", row.citation_id);
                }
            }
        }
    }
    assert!(compared > 100_000, "{compared} rows compared of {held}");
    // A map's coverage of each series over a level's regions, counted from memory without
    // making rows, as SQLite's rows count it.
    let regions = sqlite.region_codes().unwrap();
    let nuts_2: Vec<&str> = (regions.iter().map(|c| c.as_str()))
        .filter(|c| c.len() == 4)
        .collect();
    let mut covered = 0;
    for dataset in &datasets {
        for series in sqlite.series_of(dataset.id).unwrap().iter() {
            let of = |s: &regintel::store::Scoped| {
                s.series_coverage(series.id, nuts_2.iter().copied())
                    .unwrap()
            };
            let counted = of(&sqlite);
            let held = of(&memory);
            assert_eq!(counted, held, "{}", series.id);
            covered += counted.regions.len();
            // SQLite's rows, read whole to be counted, are kept for the map to cite; those in
            // memory are made when cited (a dataset not held is read from SQLite).
            assert!(held.rows.is_empty() || shown(&held.rows) == shown(&counted.rows));
            assert_eq!(counted.rows.len(), counted.regions.len());
            for (rows, &at) in counted.rows.iter().zip(&counted.regions) {
                let read = sqlite.series_rows(nuts_2[at], series.id).unwrap();
                assert_eq!(shown(rows), shown(&read), "{} {}", nuts_2[at], series.id);
            }
        }
    }
    assert!(
        covered > 1_000,
        "{covered} series of NUTS 2 regions covered"
    );
    for id in [
        "cit_aaaaaaaaaaaaaaaaaaaa",
        "cit_short",
        "cit_AAAAAAAAAAAAAAAAAAAA",
        "",
    ] {
        assert!(memory.citation(id).unwrap().is_none(), "{id}");
    }
}

/// A public import by another process: answers have its row as soon as the server sees the new
/// generation (from SQLite while the rows of the old one are held), and the rows are read again
/// for the new generation and answer the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_import_is_answered_from_the_rows_of_its_generation() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            c.public_data_bytes = 64 << 20;
            c.cache_bytes = 0;
        }),
        ..Options::default()
    })
    .await;
    let held = s.public_data_held().await;
    let path = "/compare?regions=DE21,FR10&dataset=tgs00010";
    let before = s.get(path).await.json();
    assert!(!before.to_string().contains("\"2099\""));
    // DE21's latest row, which the import revises.
    let latest = before["data"]["regions"][0]["series"]
        .as_array()
        .and_then(|s| s.last())
        .cloned()
        .expect("DE21 has rows");
    let (period, old_citation) = (latest["period"].as_str().unwrap(), &latest["citation"]);

    let revised = s.dir.path().join("tgs00010.csv");
    std::fs::write(
        &revised,
        format!(
            "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,isced11,age,sex\n\
             tgs00010,DE21,2,2099,7.7,PC,,A,TOTAL,Y15-74,T\n\
             tgs00010,DE21,2,{period},99.9,PC,,A,TOTAL,Y15-74,T\n"
        ),
    )
    .unwrap();
    crate::support::run_ok(&["import", revised.to_str().unwrap()], s.dir.path(), None);
    let has_new_row = |v: &serde_json::Value| v.to_string().contains("\"2099\"");
    let seen = s.eventually_json(path, &[], has_new_row).await;
    assert!(has_new_row(&seen), "{seen}");

    // The rows of the new generation, one more than before, then answer alike.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while s.public_data_held().await == held {
        assert!(std::time::Instant::now() < deadline, "not read again");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let after = s.get(path).await;
    assert_eq!(after.status, 200);
    assert!(has_new_row(&after.json()), "from the rows held");
    assert_eq!(after.json()["data"], seen["data"]);
    // The revised row's citation is no current row: SQLite still answers it, superseded.
    let old = s
        .get(&format!("/citations/{}", old_citation.as_str().unwrap()))
        .await
        .json();
    let current = &old["data"]["current_citation"];
    assert!(old["data"]["superseded_by"].is_string(), "{old}");
    assert_ne!(current, old_citation);
    let new = s
        .get(&format!("/citations/{}", current.as_str().unwrap()))
        .await
        .json();
    assert_eq!(new["data"]["value_text"], "99.9", "{new}");
    assert!(new["data"]["superseded_by"].is_null());
}

/// A caller reading the public rows from memory begins no transaction for its snapshot until it
/// reads SQLite; from that read on, it reads one state until the snapshot ends.
#[test]
fn a_snapshot_read_from_memory_begins_at_its_first_sqlite_read() {
    let dir = bundled_data_dir();
    let store = Store::open(dir.path(), 2).unwrap();
    let generation = store.system().unwrap().generations().unwrap().public;
    hold(&store, generation, 64 << 20);
    let memory = store
        .scoped(None)
        .unwrap()
        .with_public_data_only(generation)
        .unwrap();
    let write = |version: i64| {
        let conn = store.admin().unwrap();
        conn.sql()
            .execute_batch(&format!("PRAGMA user_version = {version}"))
            .unwrap();
    };
    let was = memory.ping().unwrap();
    let snapshot = memory.snapshot().unwrap();
    write(was + 1);
    assert_eq!(
        memory.ping().unwrap(),
        was + 1,
        "no state taken before a read"
    );
    write(was + 2);
    assert_eq!(
        memory.ping().unwrap(),
        was + 1,
        "one state from the first read on"
    );
    drop(snapshot);
    assert_eq!(memory.ping().unwrap(), was + 2, "ended with the snapshot");
}

/// Within a budget that holds some datasets, a caller's first read of one not held finds the
/// database at the generation of the rows in memory and goes on reading memory; when a public
/// import has committed since, the rest of its answer reads the database alone.
#[test]
fn a_read_past_the_rows_in_memory_finds_whether_the_database_moved_on() {
    let dir = bundled_data_dir();
    let store = Store::open(dir.path(), 2).unwrap();
    let generation = store.system().unwrap().generations().unwrap().public;
    let full = hold(&store, generation, 64 << 20);
    let part = Store::open(dir.path(), 4).unwrap();
    // The smallest datasets only: not the largest, nama_10r_3gdp (NUTS 3).
    hold(&part, generation, full.bytes / 2);
    let sqlite = part.scoped(None).unwrap();
    let id_of = |code: &str| {
        let dataset = sqlite.dataset(code).unwrap().unwrap();
        (dataset.id, dataset.headline_series_id.unwrap())
    };
    let ((held_dataset, held), (_, not_held)) = (id_of("tgs00010"), id_of("nama_10r_3gdp"));
    let (_, rows) = (sqlite.headline_rows("DE21").unwrap().into_iter())
        .find(|(dataset, _)| *dataset == held_dataset)
        .unwrap();
    let row = rows.last().unwrap();
    let value_at = |s: &regintel::store::Scoped| {
        let row = s.value_at("DE21", held, &row.period).unwrap().unwrap();
        row.value_text.to_string()
    };
    let admin = part.admin().unwrap();
    let write = |sql: &str| admin.sql().execute_batch(sql).unwrap();
    // Written behind the server's back, so that a read shows where it came from.
    write(&format!(
        "UPDATE observations SET value_text = '-1' WHERE citation_id = '{}'",
        row.citation_id.as_str()
    ));
    let memory = || {
        (part.scoped(None).unwrap())
            .with_public_data_only(generation)
            .unwrap()
    };
    let same_generation = memory();
    let snapshot = same_generation.snapshot().unwrap();
    assert_eq!(value_at(&same_generation), row.value_text.as_str());
    let past = same_generation.series_rows("DE212", not_held).unwrap();
    assert!(!past.is_empty(), "read from the database");
    assert_eq!(
        value_at(&same_generation),
        row.value_text.as_str(),
        "memory"
    );
    drop(snapshot);

    write("UPDATE store_meta SET value = value + 1 WHERE key = 'data_generation'");
    let moved_on = memory();
    let _snapshot = moved_on.snapshot().unwrap();
    assert_eq!(value_at(&moved_on), row.value_text.as_str(), "memory first");
    moved_on.series_rows("DE212", not_held).unwrap();
    assert_eq!(value_at(&moved_on), "-1", "the database from then on");
}

/// A dataset holding what the rows in memory cannot (a value text over 255 bytes) is left to
/// the database, and what it added while being read goes with it: the other datasets are held
/// and answer as SQLite does.
#[test]
fn a_dataset_the_compact_form_cannot_hold_is_read_from_the_database() {
    let dir = bundled_data_dir();
    let store = Store::open(dir.path(), 2).unwrap();
    let generation = store.system().unwrap().generations().unwrap().public;
    let admin = store.admin().unwrap();
    admin
        .sql()
        .execute_batch(&format!(
            "UPDATE observations SET value_text = '{}' WHERE id = (
                 SELECT o.id FROM observations o JOIN series s ON s.id = o.series_id
                 JOIN datasets d ON d.id = s.dataset_id
                 WHERE d.code = 'tgs00042' AND o.superseded_by IS NULL
                 ORDER BY o.id DESC LIMIT 1)",
            "9".repeat(300)
        ))
        .unwrap();
    let Loaded::Held(data) = PublicData::load(&admin.sql(), 64 << 20).unwrap() else {
        panic!("not held");
    };
    let (held, of, unfit) = data.rows.datasets();
    assert_eq!((held + 1, unfit), (of, 1));
    let others: i64 = rusqlite::Connection::open(dir.path().join("regintel.sqlite"))
        .unwrap()
        .query_row(
            "SELECT count(*) FROM observations o JOIN series s ON s.id = o.series_id
             JOIN datasets d ON d.id = s.dataset_id
             WHERE d.code <> 'tgs00042' AND o.superseded_by IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(data.rows.rows() as i64, others, "its rows went");
    drop(data);
    let held = hold(&store, generation, 64 << 20);
    answers_as_sqlite(&store, generation, held.rows);
}
