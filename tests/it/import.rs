//! Imports as snapshots: same file → nothing changes; one revised value → one new row,
//! the old one superseded and still resolving; Eurostat's own formats; malformed files refused
//! whole with file, line and reason.

use regintel::runtime::progress::Progress;
use std::path::{Path, PathBuf};

use regintel::bundled::Catalogue;
use regintel::import::{ImportReport, import_bundled, import_files};
use regintel::store::Store;
use serde_json::Value;

use crate::child_memory::{Finished, run_measured};
use crate::support::{Options, TestServer, bundled_data_dir};

const TIDY_V1: &str = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,sex,src_line
test_pop,DE21,2,2021,100,NR,,T,2
test_pop,DE21,2,2022,110,NR,p,T,2
test_pop,DE22,2,2022,50,NR,,T,3
";

fn write(dir: &Path, name: &str, content: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn import(dir: &Path, files: &[&Path]) -> anyhow::Result<ImportReport> {
    let store = Store::open(dir, 1).unwrap();
    import_files(
        &store,
        &Catalogue::bundled(),
        files,
        &Default::default(),
        None,
        &regintel::import::Room::default(),
        &mut Progress::hidden(),
    )
}

fn count(dir: &Path, sql: &str) -> i64 {
    let store = Store::open(dir, 1).unwrap();
    store
        .admin()
        .unwrap()
        .sql()
        .query_row(sql, &[], |r| r.get(0))
        .unwrap()
}

const OBS: &str = "SELECT count(*) FROM observations";
const SNAPSHOTS: &str = "SELECT count(*) FROM snapshots";

#[test]
fn reimporting_the_same_file_changes_nothing() {
    let data = bundled_data_dir();
    let files = tempfile::tempdir().unwrap();
    let file = write(files.path(), "pop.csv", TIDY_V1.as_bytes());
    let first = import(data.path(), &[&file]).unwrap();
    assert_eq!(first.datasets[0].added, 3);
    assert!(first.datasets[0].snapshot.is_some());
    let (obs, snaps) = (count(data.path(), OBS), count(data.path(), SNAPSHOTS));

    let second = import(data.path(), &[&file]).unwrap();
    assert_eq!(second.datasets[0].snapshot, None);
    assert_eq!(count(data.path(), OBS), obs);
    assert_eq!(count(data.path(), SNAPSHOTS), snaps);

    // The same rows in another file (other bytes, same values) change no row either; the
    // dataset's description is written again from it, so answers are renewed (generation).
    let generation = "SELECT value FROM store_meta WHERE key = 'data_generation'";
    let before = count(data.path(), generation);
    let reformatted = write(
        files.path(),
        "pop2.csv",
        TIDY_V1.replace('\n', "\r\n").as_bytes(),
    );
    let third = import(data.path(), &[&reformatted]).unwrap();
    assert_eq!((third.datasets[0].added, third.datasets[0].revised), (0, 0));
    assert_eq!(third.datasets[0].unchanged, 3);
    assert_eq!(count(data.path(), SNAPSHOTS), snaps);
    assert_eq!(count(data.path(), generation), before + 1);

    // And the bundled extract, imported again, is recognised without a write.
    let store = Store::open(data.path(), 1).unwrap();
    let report = import_bundled(
        &store,
        &Catalogue::bundled(),
        &regintel::import::Room::default(),
        &mut Progress::hidden(),
    )
    .unwrap();
    assert!(!report.changed());
    assert_eq!(count(data.path(), OBS), obs);
    assert_eq!(count(data.path(), generation), before + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revised_value_adds_one_row_and_the_old_citation_points_to_it() {
    let data = bundled_data_dir();
    let files = tempfile::tempdir().unwrap();
    let v1 = write(files.path(), "pop.csv", TIDY_V1.as_bytes());
    import(data.path(), &[&v1]).unwrap();
    let obs = count(data.path(), OBS);

    // Read the citation of DE21 2022 as served.
    let s = TestServer::start_in(data, Options::default()).await;
    let compare = "/compare?regions=DE21,DE22&dataset=test_pop";
    let before = s.get(compare).await.json();
    let old_cit = before["data"]["regions"][0]["value"]["citation"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(before["data"]["regions"][0]["value"]["value"], 110.0);
    let data = s.dir.path().to_path_buf();

    // One value revised (110 p → 111): one row added, one superseded, nothing else.
    let v2 = write(
        files.path(),
        "pop-v2.csv",
        TIDY_V1.replace("2022,110,NR,p", "2022,111,NR,").as_bytes(),
    );
    let report = import(&data, &[&v2]).unwrap();
    let d = &report.datasets[0];
    assert_eq!((d.added, d.revised, d.unchanged), (0, 1, 2));
    assert_eq!(count(&data, OBS), obs + 1);
    assert_eq!(
        count(
            &data,
            "SELECT count(*) FROM observations WHERE superseded_by IS NOT NULL"
        ),
        1
    );

    // The running server notices the import (data generation) on its next background round
    // and serves the new value...
    s.background_rounds(2).await;
    let after = s.get(compare).await.json();
    assert_eq!(after["data"]["regions"][0]["value"]["value"], 111.0);
    let new_cit = after["data"]["regions"][0]["value"]["citation"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(new_cit, old_cit);
    // ...the unchanged row keeps its citation...
    assert_eq!(
        after["data"]["regions"][1]["value"]["citation"],
        before["data"]["regions"][1]["value"]["citation"]
    );
    // ...and the old citation still resolves, to the old value, pointing at the new one.
    let old = s.get(&format!("/citations/{old_cit}")).await.json();
    assert_eq!(old["data"]["value"], 110.0);
    assert_eq!(old["data"]["superseded_by"], new_cit.as_str());
    assert_eq!(old["data"]["current_citation"], new_cit.as_str());
    let new = s.get(&format!("/citations/{new_cit}")).await.json();
    assert_eq!(new["data"]["superseded_by"], Value::Null);

    // Going back to the first file revives the first row and its citation.
    let report = import(&data, &[&v1]).unwrap();
    assert_eq!(report.datasets[0].revised, 1);
    assert_eq!(
        count(&data, OBS),
        obs + 1,
        "no third row: the old one is current again"
    );
    let store = Store::open(&data, 1).unwrap();
    let scoped = store.scoped(None).unwrap();
    assert_eq!(scoped.chain_end(&new_cit).unwrap().citation, old_cit);
    assert_eq!(scoped.chain_end(&old_cit).unwrap().citation, old_cit);
    // What answers read is the current rows again: the revived one, not its revision.
    let series = scoped
        .dataset("test_pop")
        .unwrap()
        .unwrap()
        .headline_series_id
        .unwrap();
    let cited: Vec<String> = scoped
        .series_rows("DE21", series)
        .unwrap()
        .iter()
        .map(|r| format!("{} {}", r.period, r.citation_id))
        .collect();
    assert_eq!(cited.len(), 2, "{cited:?}");
    assert_eq!(cited[1], format!("2022 {old_cit}"), "{cited:?}");
}

const TSV: &str = "freq,unit,geo\\TIME_PERIOD\t2020 \t2021 \t2022 \nA,NR,DE21\t100 \t110 p\t: c\nA,NR,DE22\t200 \t: \t220\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eurostat_tsv_gz_and_sdmx_csv_are_imported() {
    let data = bundled_data_dir();
    let files = tempfile::tempdir().unwrap();
    let tsv = write(files.path(), "estat_test_tsv.tsv", TSV.as_bytes());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, TSV.replace("DE2", "AT1").as_bytes()).unwrap();
    let tsv_gz = write(files.path(), "test_gz.tsv.gz", &gz.finish().unwrap());
    let sdmx = write(
        files.path(),
        "sdmx.csv",
        b"STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,freq,unit,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS
dataflow,ESTAT:TEST_SDMX(1.0),Test indicator by NUTS 2 region,A,PC,DE21,2023,4.5,p,
dataflow,ESTAT:TEST_SDMX(1.0),Test indicator by NUTS 2 region,A,PC,DE22,2023,,,C
",
    );
    let report = import(data.path(), &[&tsv, &tsv_gz, &sdmx]).unwrap();
    let codes: Vec<&str> = report.datasets.iter().map(|d| d.dataset.as_str()).collect();
    assert_eq!(codes, ["test_tsv", "test_gz", "test_sdmx"]);
    assert_eq!(report.datasets[0].added, 5, "': ' dropped, ': c' kept");

    let s = TestServer::start_in(data, Options::default()).await;
    let v = s
        .get("/compare?regions=DE21,DE22&dataset=test_tsv&period=2022")
        .await
        .json();
    let de21 = &v["data"]["regions"][0]["value"];
    assert_eq!(de21["value"], Value::Null);
    assert_eq!(de21["flags"][0]["meaning"], "confidential");
    let v = s
        .get("/compare?regions=AT11,AT12&dataset=test_gz")
        .await
        .json();
    assert_eq!(
        v["data"]["period"], "2020",
        "the latest period both have a value for"
    );
    assert_eq!(v["data"]["regions"][0]["value"]["value"], 100.0);
    let d = s.get("/datasets/test_sdmx").await.json();
    assert_eq!(d["data"]["title"], "Test indicator by NUTS 2 region");
    assert_eq!(d["data"]["snapshots"][0]["format"], "sdmx-csv");
    let v = s
        .get("/compare?regions=DE21,DE22&dataset=test_sdmx")
        .await
        .json();
    assert_eq!(
        v["data"]["regions"][0]["value"]["flags"][0]["meaning"],
        "provisional"
    );
    // An SDMX citation points at its line and OBS_VALUE.
    let cit = v["data"]["regions"][0]["value"]["citation"]
        .as_str()
        .unwrap();
    let c = s.get(&format!("/citations/{cit}")).await.json();
    assert_eq!(c["data"]["location"]["line"], 2);
    assert_eq!(c["data"]["location"]["column"], "OBS_VALUE (with OBS_FLAG)");
    // A TSV citation points at the line of the TSV file itself and the period's column: DE22's
    // 2022 value is on line 3, under the header 2022.
    let v = s
        .get("/compare?regions=DE21,DE22&dataset=test_tsv&period=2022")
        .await
        .json();
    let value = &v["data"]["regions"][1]["value"];
    assert_eq!(value["value"], 220.0);
    let c = s
        .get(&format!(
            "/citations/{}",
            value["citation"].as_str().unwrap()
        ))
        .await
        .json();
    assert_eq!(c["data"]["location"]["line"], 3, "{c}");
    let column = c["data"]["location"]["column"].as_str().unwrap();
    assert!(column.contains("2022"), "{column}");
}

/// Eurostat's bulk TSV writes quarters `2023Q1`, SDMX-CSV `2023-Q1`: stored in one form, a
/// quarter from one file is the same period as the quarter from the other (unchanged, not a
/// second row), and the series sorts in time order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quarters_of_tsv_and_sdmx_files_are_stored_in_one_form() {
    let data = bundled_data_dir();
    let files = tempfile::tempdir().unwrap();
    let tsv = write(
        files.path(),
        "test_quarters.tsv",
        b"freq,unit,geo\\TIME_PERIOD\t2022Q4 \t2023Q1 \nQ,PC,DE21\t1.5 \t2.5 \n",
    );
    let sdmx = write(
        files.path(),
        "sdmx.csv",
        b"DATAFLOW,LAST UPDATE,freq,unit,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG
ESTAT:TEST_QUARTERS(1.0),01/01/24,Q,PC,DE21,2023-Q1,2.5,
ESTAT:TEST_QUARTERS(1.0),01/01/24,Q,PC,DE21,2023-Q2,3.5,
",
    );
    import(data.path(), &[&tsv]).unwrap();
    let report = import(data.path(), &[&sdmx]).unwrap();
    let outcome = &report.datasets[0];
    assert_eq!(outcome.dataset, "test_quarters");
    assert_eq!((outcome.added, outcome.unchanged), (1, 1), "{outcome:?}");
    let s = TestServer::start_in(data, Options::default()).await;
    let v = s
        .get("/compare?regions=DE21,DE22&dataset=test_quarters&period=2023Q1")
        .await
        .json();
    assert_eq!(
        v["data"]["period"], "2023-Q1",
        "the parameter is read in the stored form"
    );
    let periods: Vec<&str> = v["data"]["regions"][0]["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["period"].as_str().unwrap())
        .collect();
    assert_eq!(periods, ["2022-Q4", "2023-Q1", "2023-Q2"]);
    s.get("/compare?regions=DE21,DE22&dataset=test_quarters&period=2023Q5")
        .await
        .error(400, "invalid_parameter");
    s.stop().await.unwrap();
}

/// An export reads its dataset series by series; an import committing while it runs must change
/// none of what it writes (one read transaction), here revising and adding rows of the series
/// it has not reached yet.
#[test]
fn an_export_reads_one_state_while_an_import_commits() {
    let data = bundled_data_dir();
    let files = tempfile::tempdir().unwrap();
    let v1 = write(
        files.path(),
        "v1.csv",
        b"dataset_code,nuts_code,time,value,unit,sex
test_pop,DE21,2021,1,NR,F
test_pop,DE21,2021,100,NR,T
test_pop,DE22,2022,50,NR,T
",
    );
    let v2 = write(
        files.path(),
        "v2.csv",
        b"dataset_code,nuts_code,time,value,unit,sex
test_pop,DE21,2021,1,NR,F
test_pop,DE21,2021,100,NR,T
test_pop,DE22,2022,60,NR,T
test_pop,DE23,2022,70,NR,T
",
    );
    let store = Store::open(data.path(), 1).unwrap();
    let catalogue = Catalogue::bundled();
    import_files(
        &store,
        &catalogue,
        &[&v1],
        &Default::default(),
        None,
        &regintel::import::Room::default(),
        &mut Progress::hidden(),
    )
    .unwrap();
    let reader = store.scoped(None).unwrap();
    let dataset = reader.dataset("test_pop").unwrap().unwrap();
    let mut seen = Vec::new();
    reader
        .for_each_export_row(dataset.id, &Default::default(), |row| {
            if seen.is_empty() {
                let report = import_files(
                    &store,
                    &catalogue,
                    &[&v2],
                    &Default::default(),
                    None,
                    &regintel::import::Room::default(),
                    &mut Progress::hidden(),
                )
                .unwrap();
                let outcome = &report.datasets[0];
                assert_eq!(
                    (outcome.added, outcome.revised),
                    (1, 1),
                    "committed mid-export"
                );
            }
            seen.push(format!("{} {} {}", row.region, row.dims, row.value_text));
            true
        })
        .unwrap();
    assert_eq!(seen, ["DE21 sex=F 1", "DE21 sex=T 100", "DE22 sex=T 50"]);
    // The next reader sees the import.
    drop(reader);
    let mut after = 0;
    let reader = store.scoped(None).unwrap();
    reader
        .for_each_export_row(dataset.id, &Default::default(), |_| {
            after += 1;
            true
        })
        .unwrap();
    assert_eq!(after, 4);
}

#[test]
fn malformed_files_are_refused_whole_with_line_and_reason() {
    let data = bundled_data_dir();
    let files = tempfile::tempdir().unwrap();
    let good = write(files.path(), "pop.csv", TIDY_V1.as_bytes());
    let cases: [(&str, &str, &str); 4] = [
        (
            "bad-number.csv",
            &TIDY_V1.replace("2021,100,", "2021,1o0,"),
            ":2:",
        ),
        ("bad-flag.tsv", &TSV.replace("110 p", "110 ?"), ":2:"),
        (
            "dup.csv",
            &format!("{TIDY_V1}test_pop,DE22,2,2022,51,NR,,T,4\n"),
            ":5:",
        ),
        ("unknown.txt", "hello,world\n1,2\n", "unknown.txt"),
    ];
    let (obs, snaps) = (count(data.path(), OBS), count(data.path(), SNAPSHOTS));
    for (name, content, location) in cases {
        let bad = write(files.path(), name, content.as_bytes());
        // The good file comes first: it must not be written either.
        let err = format!("{:#}", import(data.path(), &[&good, &bad]).unwrap_err());
        assert!(
            err.contains(name) && err.contains(location),
            "{name}: {err}"
        );
        assert_eq!(count(data.path(), OBS), obs, "{name}");
        assert_eq!(count(data.path(), SNAPSHOTS), snaps, "{name}");
    }
}

/// A Eurostat TSV of `series` lines of 30 years each (`series` × 30 rows), every cell distinct;
/// `extra` is appended as it is.
fn large_tsv(series: usize, extra: &str) -> String {
    use std::fmt::Write;
    let years: Vec<String> = (1995..2025).map(|y| format!("{y} ")).collect();
    let mut text = format!("freq,unit,age,geo\\TIME_PERIOD\t{}\n", years.join("\t"));
    for i in 0..series {
        let (age, region) = (i / 1000, i % 1000);
        write!(text, "A,NR,Y{age},X{region:03}").unwrap();
        for y in 0..30 {
            write!(text, "\t{}.{y} ", i % 977).unwrap();
        }
        text.push('\n');
    }
    text + extra
}

/// Runs `regintel import --memory 1 FILE` on a fresh data directory.
fn import_within_one_mib(file: &Path) -> Finished {
    let data = tempfile::tempdir().unwrap();
    run_measured(
        std::process::Command::new(env!("CARGO_BIN_EXE_regintel"))
            .args(["import", "--memory", "1", "--json", "--dataset", "big_test"])
            .arg(file)
            .arg("--data-dir")
            .arg(data.path()),
        std::time::Duration::from_secs(600),
    )
    .unwrap()
}

/// A file far larger than the memory an import may hold (`--memory 1`: 1 MiB for checking it)
/// imports whole, with the memory of a one-row file give or take a few megabytes; held in
/// memory, its rows alone would take over 100 MB. A second observation of a cell, 600,000 rows
/// after the first and so in another of the runs spilled to disk, is still found and named.
#[test]
fn a_file_larger_than_the_memory_bound_is_imported_within_it() {
    let files = tempfile::tempdir().unwrap();
    let small = write(files.path(), "small.tsv", large_tsv(1, "").as_bytes());
    let large_text = large_tsv(20_000, "");
    let large = write(files.path(), "large.tsv", large_text.as_bytes());
    assert!(large_text.len() > 4 << 20, "{}", large_text.len());

    let imported = |file: &Path| {
        let out = import_within_one_mib(file);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        out
    };
    let small_peak = imported(&small).peak_rss_bytes;
    let out = imported(&large);
    let large_peak = out.peak_rss_bytes;
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dataset = &report[0]["datasets"][0];
    assert_eq!(dataset["rows_in_file"], 600_000, "{report}");
    assert_eq!(dataset["added"], 600_000, "{report}");
    let grown = large_peak.saturating_sub(small_peak);
    eprintln!("peak RSS: one row {small_peak} B, 600,000 rows {large_peak} B");
    assert!(grown < 16 << 20, "grew by {grown} bytes");

    let again = format!("A,NR,Y0,X000\t: \t: \t9 {}\n", "\t: ".repeat(27));
    let twice = write(
        files.path(),
        "twice.tsv",
        large_tsv(20_000, &again).as_bytes(),
    );
    let out = import_within_one_mib(&twice);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .contains(":20002: duplicate observation for X000 1997 NR A Y0 (first seen on line 2)"),
        "{stderr}"
    );
}

/// An import that meets more series and regions than it remembers one by one (100,000) reads
/// them back from the database at its end, a page at a time: every series gets its statistics
/// and its blocks, and every region is registered.
#[test]
fn past_what_an_import_remembers_series_and_regions_are_read_back() {
    use std::fmt::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let n = 100_001;
    let mut text = String::from("freq,unit,age,geo\\TIME_PERIOD\t2020 \n");
    for i in 0..n {
        writeln!(text, "A,NR,Y{i},X{i:06}\t{i} ").unwrap();
    }
    let file = write(dir.path(), "estat_many_test.tsv", text.as_bytes());
    import(dir.path(), &[&file]).unwrap();
    let counted = |sql: &str| count(dir.path(), sql);
    assert_eq!(
        counted("SELECT count(*) FROM regions WHERE code GLOB 'X[0-9][0-9][0-9][0-9][0-9][0-9]'"),
        n
    );
    assert_eq!(
        counted(
            "SELECT count(*) FROM series s JOIN datasets d ON d.id = s.dataset_id
             WHERE d.code = 'many_test' AND s.obs_count = 1 AND s.period_max = '2020'"
        ),
        n
    );
    assert_eq!(counted("SELECT count(*) FROM observation_blocks"), n);
}

/// A file imported into a new data directory, before any `import --bundled`: the codes of the
/// release's own regions are the classification's, not codes of an earlier edition; a code it
/// does not know is one. A second import finds the classification in place.
#[test]
fn a_first_import_writes_the_classification_before_its_codes() {
    let data = tempfile::tempdir().unwrap();
    let files = tempfile::tempdir().unwrap();
    let tidy =
        "dataset_code,nuts_code,time,value,unit\nfirst,AT11,2022,1,NR\nfirst,DE915,2022,2,NR\n";
    let file = write(files.path(), "first.csv", tidy.as_bytes());
    let report = import(data.path(), &[&file]).unwrap();
    assert!(report.regions > 2000, "{}", report.regions);
    let classified = |code: &str| {
        count(
            data.path(),
            &format!(
                "SELECT count(*) FROM regions WHERE code = '{code}' AND classification = 'NUTS'"
            ),
        )
    };
    assert_eq!(classified("AT11"), 1);
    assert_eq!(classified("DE915"), 0);
    assert_eq!(
        count(
            data.path(),
            "SELECT count(*) FROM regions WHERE code = 'DE915' AND classification = 'historical'"
        ),
        1
    );
    let again = write(
        files.path(),
        "again.csv",
        tidy.replace("first", "again").as_bytes(),
    );
    assert_eq!(import(data.path(), &[&again]).unwrap().regions, 0);
}
