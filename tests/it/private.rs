//! Private datasets: created by an account, loaded from a tidy CSV validated whole, visible in
//! that account's answers only.

use serde_json::{Value, json};

use crate::support::{Options, TestServer, Tier};

const CSV: &str = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,sex,src_line
my_jobs,DE21,2,2022,1234.5,NR,,T,2
my_jobs,DE21,2,2023,1300,NR,p,T,3
my_jobs,FR10,2,2023,900,NR,,T,4
";

async fn create(s: &TestServer, key: (&str, &str), body: Value) -> crate::support::Resp {
    s.call(
        "POST",
        "/datasets",
        &[key, ("content-type", "application/json")],
        body.to_string().as_bytes(),
    )
    .await
}

/// The pointers of a validation error's problems, in order.
fn pointers(e: &Value) -> Vec<&str> {
    e["details"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect()
}

async fn put(s: &TestServer, key: (&str, &str), code: &str, csv: &str) -> crate::support::Resp {
    s.call(
        "PUT",
        &format!("/datasets/{code}/data"),
        &[key, ("content-type", "text/csv")],
        csv.as_bytes(),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_dataset_is_created_loaded_and_served_to_its_owner_only() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let r = create(
        &s,
        a.key_header(),
        json!({"code": "my_jobs", "title": "Jobs we track", "unit": "NR", "dimensions": ["sex"]}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["data"]["private"], true);
    assert_eq!(r.json()["data"]["observations"], 0);

    let r = put(&s, a.key_header(), "my_jobs", CSV).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["data"]["added"], 3);
    // The same body again changes nothing.
    let again = put(&s, a.key_header(), "my_jobs", CSV).await.json();
    assert_eq!(again["data"]["snapshot"], Value::Null);

    // In the owner's profile, with a citation that resolves for the owner...
    let profile = s
        .client
        .get_with("/api/v1/regional/regions/DE21/profile", &[a.key_header()])
        .await
        .json();
    assert_eq!(profile["meta"]["access"], "account");
    let mine = profile["data"]["indicators"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["dataset"] == "my_jobs")
        .expect("private indicator");
    assert_eq!(mine["latest"]["value"], 1300);
    let cit = mine["latest"]["citation"].as_str().unwrap();
    let c = s
        .client
        .get_with(
            &format!("/api/v1/regional/citations/{cit}"),
            &[a.key_header()],
        )
        .await
        .json();
    assert_eq!(c["data"]["value_text"], "1300");
    // A tidy CSV holds its values in the column headed value, whatever the period.
    assert_eq!(c["data"]["location"]["column"], "the column headed value");
    let how = c["data"]["how_to_verify"].as_str().unwrap();
    assert!(
        how.contains("read the column headed value: it shows 1300"),
        "{how}"
    );
    // ...and in comparisons and the dataset list.
    let cmp = s
        .client
        .get_with(
            "/api/v1/regional/compare?regions=DE21,FR10&dataset=my_jobs",
            &[a.key_header()],
        )
        .await
        .json();
    assert_eq!(cmp["data"]["period"], "2023");
    let list = s
        .client
        .get_with("/api/v1/regional/datasets", &[a.key_header()])
        .await
        .json();
    assert!(
        list["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "my_jobs")
    );

    // Nobody else sees any of it.
    let b = s.account("b@example.org", Tier::Institutional);
    for headers in [vec![], vec![b.key_header()]] {
        let p = s
            .client
            .get_with("/api/v1/regional/regions/DE21/profile", &headers)
            .await;
        assert!(!String::from_utf8_lossy(&p.body).contains("my_jobs"));
        let c = s
            .client
            .get_with(&format!("/api/v1/regional/citations/{cit}"), &headers)
            .await;
        c.error(404, "not_found");
        let d = s
            .client
            .get_with("/api/v1/regional/datasets/my_jobs", &headers)
            .await;
        d.error(404, "unknown_dataset");
        put(&s, b.key_header(), "my_jobs", CSV)
            .await
            .error(404, "unknown_dataset");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_definitions_and_bad_csv_are_refused_whole() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.max_upload_bytes = 4096),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    let e = create(
        &s,
        a.key_header(),
        json!({"code": "Bad Code", "title": "", "unit": "n-r", "dimensions": ["geo", "x", "x"], "description": "d".repeat(201)}),
    )
    .await
    .error(422, "validation_failed");
    assert_eq!(
        pointers(&e),
        [
            "#/code",
            "#/title",
            "#/unit",
            "#/dimensions/0",
            "#/dimensions/2",
            "#/description"
        ]
    );
    create(
        &s,
        a.key_header(),
        json!({"code": "x", "title": "t", "unit": "NR", "extra": 1}),
    )
    .await
    .error(422, "validation_failed");
    create(
        &s,
        a.key_header(),
        json!({"code": "tgs00010", "title": "t", "unit": "PC"}),
    )
    .await
    .error(409, "conflict");
    let r = s
        .call(
            "POST",
            "/datasets",
            &[a.key_header(), ("content-type", "text/plain")],
            b"{}",
        )
        .await;
    r.error(415, "unsupported_media_type");
    s.call(
        "POST",
        "/datasets",
        &[("content-type", "application/json")],
        b"{}",
    )
    .await
    .error(401, "missing_credential");

    assert_eq!(
        create(
            &s,
            a.key_header(),
            json!({"code": "my_jobs", "title": "Jobs", "unit": "NR", "dimensions": ["sex"]})
        )
        .await
        .status,
        201
    );
    create(
        &s,
        a.key_header(),
        json!({"code": "my_jobs", "title": "Again", "unit": "NR"}),
    )
    .await
    .error(409, "conflict");

    // Every problem is reported with its line; nothing is written.
    let wrong = CSV
        .replace("2023,900,NR", "2023,900,PC")
        .replace("1234.5", "12x");
    let e = put(&s, a.key_header(), "my_jobs", &wrong)
        .await
        .error(422, "validation_failed");
    let listed = pointers(&e);
    assert_eq!(listed, ["line 2", "line 4"], "{e}");
    assert!(e["details"].get("errors_not_listed").is_none(), "{e}");
    let wrong_unit = CSV.replace("2023,900,NR", "2023,900,PC");
    let e = put(&s, a.key_header(), "my_jobs", &wrong_unit)
        .await
        .error(422, "validation_failed");
    assert_eq!(e["details"]["errors"][0]["pointer"], "line 4", "{e}");
    // A period must be a year, quarter, semester or month: `@2023` would sort after every year
    // and be taken as the latest.
    let odd_period = CSV.replace(",2023,900,NR", ",@2023,900,NR");
    let e = put(&s, a.key_header(), "my_jobs", &odd_period)
        .await
        .error(422, "validation_failed");
    assert_eq!(e["details"]["errors"][0]["pointer"], "line 4", "{e}");
    let detail = e["details"]["errors"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("period \"@2023\" is not a year (2023), quarter (2023-Q1)"),
        "{detail}"
    );
    // Columns other than the dataset's dimensions, and a bad row, in one answer.
    let wrong_dims = CSV.replace(",sex,", ",age,").replace("1234.5", "12x");
    let e = put(&s, a.key_header(), "my_jobs", &wrong_dims)
        .await
        .error(422, "validation_failed");
    let listed = pointers(&e);
    assert_eq!(listed, ["line 1", "line 2"], "{e}");
    assert!(
        e["details"]["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("the dataset declares [sex]"),
        "{e}"
    );
    let detail = s
        .client
        .get_with("/api/v1/regional/datasets/my_jobs", &[a.key_header()])
        .await
        .json();
    assert_eq!(detail["data"]["observations"], 0);
    assert!(detail["data"]["snapshots"].as_array().unwrap().is_empty());

    let big = format!("{CSV}{}", "my_jobs,DE21,2,1999,1,NR,,T,9\n".repeat(200));
    put(&s, a.key_header(), "my_jobs", &big)
        .await
        .error(413, "payload_too_large");
    put(&s, a.key_header(), "my_jobs", CSV).await;
    let r = s
        .call(
            "PUT",
            "/datasets/my_jobs/data",
            &[a.key_header(), ("content-type", "application/json")],
            b"{}",
        )
        .await;
    r.error(415, "unsupported_media_type");
}

/// The CSV a user writes: the URL names the dataset and the region code implies its level, so
/// `nuts_code,period,value` (and the dataset's dimensions) is enough; the unit defaults to the
/// dataset's. `dataset_code` and `nuts_level`, when given, must agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_minimal_csv_a_user_writes_is_accepted() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let r = create(
        &s,
        a.key_header(),
        json!({"code": "survey", "title": "Survey", "unit": "PC", "dimensions": ["sex"]}),
    )
    .await;
    assert_eq!(r.status, 201);
    let minimal = "nuts_code,period,value,sex\nDE21,2022,12.5,T\nDE22,2022,11,T\n";
    let r = put(&s, a.key_header(), "survey", minimal).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["data"]["added"], 2);
    let profile = s
        .client
        .get_with("/api/v1/regional/regions/DE21/profile", &[a.key_header()])
        .await
        .json();
    let mine = profile["data"]["indicators"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["dataset"] == "survey")
        .expect("the upload is in the profile");
    assert_eq!(mine["unit"], "PC", "the dataset's unit");

    let aliases = "geo,time,value,sex,flags\nDE23,2022,10,T,p\n";
    assert_eq!(put(&s, a.key_header(), "survey", aliases).await.status, 200);
    // A known code in another case is that region's.
    let lower = "nuts_code,period,value,sex\nde24,2022,9,T\n";
    assert_eq!(put(&s, a.key_header(), "survey", lower).await.status, 200);
    let de24 = s
        .client
        .get_with("/api/v1/regional/regions/DE24/profile", &[a.key_header()])
        .await
        .json();
    assert!(
        de24["data"]["indicators"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["dataset"] == "survey"),
        "{de24}"
    );
    let twice = "nuts_code,period,value,sex\nde25,2022,9,T\nDE25,2022,8,T\n";
    let e = put(&s, a.key_header(), "survey", twice)
        .await
        .error(422, "validation_failed");
    assert_eq!(e["details"]["errors"][0]["pointer"], "line 3", "{e}");

    let other = "dataset_code,nuts_code,period,value,sex\nsomething_else,DE21,2023,1,T\n";
    let e = put(&s, a.key_header(), "survey", other)
        .await
        .error(422, "validation_failed");
    assert_eq!(e["details"]["errors"][0]["pointer"], "line 2");
    assert_eq!(
        e["details"]["errors"][0]["detail"],
        "dataset_code \"something_else\" is not this dataset's code \"survey\""
    );
    let level = "nuts_code,nuts_level,period,value,sex\nDE21,3,2023,1,T\n";
    let e = put(&s, a.key_header(), "survey", level)
        .await
        .error(422, "validation_failed");
    assert_eq!(
        e["details"]["errors"][0]["detail"],
        "nuts_level 3 does not match DE21, a level 2 code"
    );
}

/// An account's series are in blocks only it reads: another account asking for the same
/// series and region, or for a region's headline rows, gets nothing of them.
#[test]
fn another_account_reads_none_of_an_accounts_blocks() {
    use regintel::store::accounts::Tier;
    let dir = tempfile::tempdir().unwrap();
    let store = regintel::store::Store::open(dir.path(), 3).unwrap();
    let system = store.system().unwrap();
    let alpha = system.create_account("a@example.org", "A", Tier::Professional, "", 0);
    let bravo = system.create_account("b@example.org", "B", Tier::Professional, "", 0);
    let (alpha, bravo) = (alpha.unwrap().id, bravo.unwrap().id);
    drop(system);
    let file = dir.path().join("own.csv");
    std::fs::write(
        &file,
        "dataset_code,nuts_code,nuts_level,time,value,unit\nown,DE21,2,2022,7,NR\n",
    )
    .unwrap();
    regintel::import::import_files(
        &store,
        &regintel::bundled::Catalogue::bundled(),
        &[&file],
        &Default::default(),
        Some(alpha),
        &regintel::import::Room::default(),
        &mut regintel::runtime::progress::Progress::hidden(),
    )
    .unwrap();
    let owner = store.scoped(Some(alpha)).unwrap();
    let series = owner
        .dataset("own")
        .unwrap()
        .unwrap()
        .headline_series_id
        .unwrap();
    assert_eq!(owner.series_rows("DE21", series).unwrap().len(), 1);
    let headline = owner.headline_rows("DE21").unwrap();
    assert_eq!(
        headline.iter().map(|(_, rows)| rows.len()).sum::<usize>(),
        1
    );
    for other in [
        store.scoped(Some(bravo)).unwrap(),
        store.scoped(None).unwrap(),
    ] {
        assert!(other.series_rows("DE21", series).unwrap().is_empty());
        assert!(other.headline_rows("DE21").unwrap().is_empty());
    }
}

/// An upload with many bad lines reports them all in one answer (up to 100, then a count); a
/// header that says `region` or `year` is told the names to use; a unit in lower case is read in
/// capitals, in the dataset's definition and in the CSV alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_lists_every_problem_and_reads_units_in_capitals() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let r = create(
        &s,
        a.key_header(),
        json!({"code": "rates", "title": "Rates", "unit": "pc"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.json());
    let detail = s
        .client
        .get_with("/api/v1/regional/datasets/rates", &[a.key_header()])
        .await
        .json();
    assert_eq!(detail["data"]["headline"]["unit"], "PC", "{detail}");

    let mut csv = String::from("nuts_code,period,value,unit\n");
    for i in 0..130 {
        csv.push_str(&format!("DE{i},2023,{i}x,pc\n"));
    }
    let e = put(&s, a.key_header(), "rates", &csv)
        .await
        .error(422, "validation_failed");
    let errors = e["details"]["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 100, "{e}");
    assert_eq!(errors[0]["pointer"], "line 2");
    assert_eq!(errors[99]["pointer"], "line 101");
    assert_eq!(e["details"]["errors_not_listed"], 30, "{e}");

    let e = put(
        &s,
        a.key_header(),
        "rates",
        "region,year,value\nDE21,2023,1\n",
    )
    .await
    .error(422, "validation_failed");
    let detail = e["details"]["errors"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("rename \"region\" to \"nuts_code\", \"year\" to \"period\""),
        "{detail}"
    );

    let r = put(
        &s,
        a.key_header(),
        "rates",
        "nuts_code,period,value,unit\nDE21,2023,4.5,pc\n",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.json());
    let detail = s
        .client
        .get_with("/api/v1/regional/datasets/rates", &[a.key_header()])
        .await
        .json();
    assert_eq!(detail["data"]["observations"], 1, "{detail}");
}

/// `GET /datasets/{code}/changes` lists every row each snapshot wrote, in import order: since a
/// snapshot, only the later ones', revisions with the value and citation they replace; it pages
/// by cursor; a snapshot of another dataset is refused. A `dataset.updated` event of more rows
/// than it lists links to exactly this list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_datasets_changes_list_every_row_its_snapshots_wrote() {
    let s = TestServer::start().await;
    let a = s.account("changes@example.org", Tier::Professional);
    let key = a.key_header();
    let receiver = crate::receiver::Receiver::start(204).await;
    let hook = json!({"url": receiver.url("/in"), "event_types": ["dataset.updated"]});
    let r = s
        .call(
            "POST",
            "/webhooks",
            &[key, ("content-type", "application/json")],
            hook.to_string().as_bytes(),
        )
        .await;
    assert_eq!(r.status, 201);
    let r = create(
        &s,
        key,
        json!({"code": "many", "title": "Many", "unit": "NR"}),
    )
    .await;
    assert_eq!(r.status, 201);
    // 60 rows (more than an event lists), then 2 of them revised, 1 flagged provisional with its
    // value unchanged (a revision too), and 1 added.
    let header = "dataset_code,nuts_code,nuts_level,time,value,unit,flags\n";
    let rows = |revised: bool| -> String {
        let mut csv = String::from(header);
        for year in 1960..2020 {
            let value = if revised && year < 1962 {
                year + 1
            } else {
                year
            };
            let flags = if revised && year == 2019 { "p" } else { "" };
            csv.push_str(&format!("many,DE21,2,{year},{value},NR,{flags}\n"));
        }
        if revised {
            csv.push_str("many,DE21,2,2020,2020,NR,\n");
        }
        csv
    };
    assert_eq!(put(&s, key, "many", &rows(false)).await.status, 200);
    assert_eq!(put(&s, key, "many", &rows(true)).await.status, 200);
    let detail = s.call("GET", "/datasets/many", &[key], b"").await.json();
    let snapshots = detail["data"]["snapshots"].as_array().unwrap();
    let first = snapshots.last().unwrap()["id"].as_str().unwrap().to_owned();

    let get = async |path: &str| s.call("GET", path, &[key], b"").await;
    let all = get("/datasets/many/changes?limit=1000").await.json();
    assert_eq!(all["data"].as_array().unwrap().len(), 64, "{all}");
    assert_eq!(all["meta"]["next_cursor"], Value::Null);
    assert!(all["meta"].get("total").is_none());
    let later = get(&format!("/datasets/many/changes?since_snapshot={first}"))
        .await
        .json();
    let later = later["data"].as_array().unwrap().clone();
    assert_eq!(later.len(), 4, "{later:?}");
    assert_eq!(later[0]["change"], "revised");
    assert_eq!(later[0]["period"], "1960");
    assert_eq!(later[0]["value"], "1961");
    assert_eq!(later[0]["previous_value"], "1960");
    let replaced = later[0]["replaces"].as_str().unwrap();
    let old = get(&format!("/citations/{replaced}")).await;
    assert_eq!(old.status, 200, "the replaced row resolves");
    // Only the flag changed: the same value, the flags saying what did.
    assert_eq!(later[2]["change"], "revised");
    assert_eq!(later[2]["period"], "2019");
    assert_eq!(
        (&later[2]["value"], &later[2]["previous_value"]),
        (&json!("2019"), &json!("2019"))
    );
    assert_eq!(
        (&later[2]["flags"], &later[2]["previous_flags"]),
        (&json!("p"), &json!(""))
    );
    assert_eq!(later[3]["change"], "added");
    assert_eq!(later[3]["period"], "2020");
    assert_eq!(later[3]["previous_value"], Value::Null);
    assert_eq!(later[3]["previous_flags"], Value::Null);
    // Paged, the same rows in the same order: within one snapshot, and across two.
    let walk = async |query: String| {
        let mut walked = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let path = match &cursor {
                Some(c) => format!("/datasets/many/changes?{query}&cursor={c}"),
                None => format!("/datasets/many/changes?{query}"),
            };
            let page = get(&path).await.json();
            walked.extend(page["data"].as_array().unwrap().iter().cloned());
            match page["meta"]["next_cursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => return walked,
            }
        }
    };
    assert_eq!(walk(format!("since_snapshot={first}&limit=2")).await, later);
    assert_eq!(Value::Array(walk("limit=7".to_owned()).await), all["data"]);
    // A snapshot of another dataset is no snapshot of this one.
    let public = s.get("/datasets/tgs00010").await.json();
    let theirs = public["data"]["snapshots"][0]["id"].as_str().unwrap();
    get(&format!("/datasets/many/changes?since_snapshot={theirs}"))
        .await
        .error(400, "invalid_parameter");
    get("/datasets/none_such/changes")
        .await
        .error(404, "unknown_dataset");

    // The first upload's event lists 50 of its 60 rows and links to all of them.
    let got = receiver
        .wait_for(std::time::Duration::from_secs(60), |r| r.len() >= 2)
        .await;
    let event = got
        .iter()
        .map(|r| r.json())
        .find(|e| e["data"]["rows_added"] == 60)
        .expect("the first upload's event");
    assert_eq!(event["data"]["changes"].as_array().unwrap().len(), 50);
    assert_eq!(event["data"]["changes_complete"], false);
    let link = event["data"]["links"]["changes"].as_str().unwrap();
    assert_eq!(link, "/datasets/many/changes");
    let linked = get(&format!("{link}?limit=1000")).await.json();
    assert_eq!(linked["data"], all["data"]);
    let second = got
        .iter()
        .map(|r| r.json())
        .find(|e| e["data"]["rows_revised"] == 3)
        .expect("the second upload's event");
    assert_eq!(
        second["data"]["links"]["changes"],
        format!("/datasets/many/changes?since_snapshot={first}")
    );
}

/// An upload names every code it made a region of the account's own, with the known codes it
/// may be a typo of; a code in another case is the known code; with `strict_regions` (the
/// upload's parameter, or the dataset's setting) such a code is refused naming its line, but a
/// code the account already has as its own is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codes_of_no_known_region_are_named_or_refused() {
    let s = TestServer::start().await;
    let a = s.account("typos@example.org", Tier::Professional);
    let key = a.key_header();
    let created = create(
        &s,
        key,
        json!({"code": "loose", "title": "Loose", "unit": "NR"}),
    )
    .await;
    assert_eq!(created.status, 201);
    assert_eq!(created.json()["data"]["strict_regions"], false);
    let csv = "nuts_code,period,value\nDE21,2022,1\nde22,2022,2\nQQ99,2022,3\nDE2Z,2022,4\n";
    let loaded = put(&s, key, "loose", csv).await;
    assert_eq!(
        loaded.status,
        200,
        "{}",
        String::from_utf8_lossy(&loaded.body)
    );
    let outcome = loaded.json()["data"].clone();
    assert_eq!(outcome["added"], 4);
    assert_eq!(
        outcome["new_regions"],
        json!([
            {"code": "DE2Z", "suggestions": ["DE2", "DE21", "DE22", "DE23", "DE24"]},
            {"code": "QQ99", "suggestions": []},
        ]),
        "{outcome}"
    );
    // `de22` is DE22's: its figure stands beside the public ones.
    let profile = s
        .client
        .get_with("/api/v1/regional/regions/DE22/profile", &[key])
        .await
        .json();
    assert!(profile.to_string().contains("Loose"), "{profile}");

    // Strict by parameter: the first code of no known region is refused with its line, and
    // nothing is written; the account's own QQ99 is not refused.
    let strict =
        "nuts_code,period,value\nQQ99,2023,3\nDE21,2023,1\nDE2Y,2023,4\nqq99,2024,5\nDE2X,2023,6\n";
    let path = "/datasets/loose/data?strict_regions=true";
    let refused = s
        .call(
            "PUT",
            path,
            &[key, ("content-type", "text/csv")],
            strict.as_bytes(),
        )
        .await;
    let error = refused.error(422, "validation_failed");
    let lines: Vec<&str> = (error["details"]["errors"].as_array().unwrap().iter())
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(
        lines,
        ["line 4", "line 6"],
        "every such code; qq99 is the account's own"
    );
    let detail = error["details"]["errors"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("\"DE2Y\" is no known region") && detail.contains("did you mean DE2, DE21"),
        "{detail}"
    );
    let bad = s
        .call(
            "PUT",
            "/datasets/loose/data?strict_regions=yes",
            &[key, ("content-type", "text/csv")],
            strict.as_bytes(),
        )
        .await;
    bad.error(400, "invalid_parameter");

    // Strict by setting, which the parameter overrides.
    let body = json!({"code": "tight", "title": "Tight", "unit": "NR", "strict_regions": true});
    let created = create(&s, key, body).await;
    assert_eq!(created.json()["data"]["strict_regions"], true);
    put(&s, key, "tight", strict)
        .await
        .error(422, "validation_failed");
    let loose = s
        .call(
            "PUT",
            "/datasets/tight/data?strict_regions=false",
            &[key, ("content-type", "text/csv")],
            strict.as_bytes(),
        )
        .await;
    assert_eq!(
        loose.status,
        200,
        "{}",
        String::from_utf8_lossy(&loose.body)
    );
    assert_eq!(
        loose.json()["data"]["new_regions"],
        json!([
            {"code": "DE2X", "suggestions": ["DE2", "DE21", "DE22", "DE23", "DE24"]},
            {"code": "DE2Y", "suggestions": ["DE2", "DE21", "DE22", "DE23", "DE24"]},
        ]),
        "qq99 is QQ99, the account's own"
    );
    // A public dataset's detail has no such setting.
    let public = s.get("/datasets/nama_10r_3gdp").await.json();
    assert!(public["data"].get("strict_regions").is_none());
}

/// A dataset's answer shows its newest snapshots and how many it has; `/snapshots` pages them
/// all, newest first, with the same ids and citations; a cursor naming no snapshot of it gives
/// an empty last page, and another account's dataset is not found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_datasets_snapshots_are_paged_newest_first() {
    let s = TestServer::start().await;
    let a = s.account("snapshots@example.org", Tier::Professional);
    let key = a.key_header();
    let r = create(
        &s,
        key,
        json!({"code": "daily", "title": "Daily", "unit": "NR"}),
    )
    .await;
    assert_eq!(r.status, 201);
    let mut written = Vec::new();
    for value in 0..12 {
        let csv = format!(
            "dataset_code,nuts_code,nuts_level,time,value,unit\ndaily,DE21,2,2020,{value},NR\n"
        );
        let r = put(&s, key, "daily", &csv).await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        written.push(r.json()["data"]["snapshot"].as_str().unwrap().to_owned());
    }
    written.reverse();

    let detail = s.call("GET", "/datasets/daily", &[key], b"").await.json();
    let shown: Vec<&str> = (detail["data"]["snapshots"].as_array().unwrap().iter())
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(shown, written[..10], "{detail}");
    assert_eq!(detail["data"]["snapshot_count"], 12);

    let mut paged = Vec::new();
    let mut cursor = String::new();
    loop {
        let page = s
            .call(
                "GET",
                &format!("/datasets/daily/snapshots?limit=5{cursor}"),
                &[key],
                b"",
            )
            .await;
        assert_eq!(page.status, 200, "{}", String::from_utf8_lossy(&page.body));
        let page = page.json();
        assert_eq!(
            (&page["meta"]["total"], &page["meta"]["limit"]),
            (&12.into(), &5.into())
        );
        for snapshot in page["data"].as_array().unwrap() {
            let citation = snapshot["citation"].as_str().unwrap();
            assert!(page["meta"]["citations"][citation].is_object(), "{page}");
            paged.push(snapshot["id"].as_str().unwrap().to_owned());
        }
        match page["meta"]["next_cursor"].as_str() {
            Some(next) => cursor = format!("&cursor={next}"),
            None => break,
        }
    }
    assert_eq!(paged, written);

    let made_up = s
        .call(
            "GET",
            "/datasets/daily/snapshots?cursor=snp_nothing",
            &[key],
            b"",
        )
        .await
        .json();
    assert_eq!(made_up["data"], json!([]), "{made_up}");
    let other = s.account("other@example.org", Tier::Professional);
    let r = s
        .call(
            "GET",
            "/datasets/daily/snapshots",
            &[other.key_header()],
            b"",
        )
        .await;
    r.error(404, "unknown_dataset");
    let r = s
        .call("GET", "/datasets/daily/snapshots?limit=0", &[key], b"")
        .await;
    assert_eq!(
        r.error(400, "invalid_parameter")["details"]["parameter"],
        "limit"
    );
}
