//! Bulk export beyond the whole file: filters, gzip, the file name and the CSVW description.

use std::io::Read;

use crate::support::{Resp, TestAccount, TestServer, Tier};

async fn export(s: &TestServer, who: &TestAccount, query: &str, gzip: bool) -> Resp {
    let mut headers = vec![who.key_header()];
    if gzip {
        headers.push(("accept-encoding", "gzip"));
    }
    s.client
        .get_with(
            &format!("/api/v1/regional/export/bulk/tgs00010.csv{query}"),
            &headers,
        )
        .await
}

fn rows(body: &[u8]) -> (Vec<String>, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_reader(body);
    let header = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    (header, reader.records().map(Result::unwrap).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_select_rows_by_country_level_and_period() {
    let s = TestServer::start().await;
    let a = s.account("inst@example.org", Tier::Institutional);
    let all = export(&s, &a, "", false).await;
    assert_eq!(all.status, 200);
    let (header, everything) = rows(&all.body);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (code, level, time) = (col("nuts_code"), col("nuts_level"), col("time"));

    let r = export(&s, &a, "?country=de&level=2&from=2015&to=2020", false).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let (same_header, some) = rows(&r.body);
    assert_eq!(same_header, header);
    let expected: Vec<&csv::StringRecord> = everything
        .iter()
        .filter(|row| {
            row[code].starts_with("DE")
                && &row[level] == "2"
                && ("2015".."2021").contains(&&row[time])
        })
        .collect();
    assert!(expected.len() > 100, "{}", expected.len());
    assert_eq!(some.len(), expected.len());
    assert!(some.iter().zip(&expected).all(|(a, b)| a == *b));

    for (query, parameter) in [
        ("?country=Germany", "country"),
        ("?level=4", "level"),
        ("?from=2015;drop", "from"),
        ("?to=", "to"),
        ("?format=xlsx", "format"),
    ] {
        let e = export(&s, &a, query, false)
            .await
            .error(400, "invalid_parameter");
        assert_eq!(e["details"]["parameter"], parameter, "{query}");
    }
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_export_is_offered_as_a_file_and_gzipped_when_accepted() {
    let s = TestServer::start().await;
    let a = s.account("inst@example.org", Tier::Institutional);
    let plain = export(&s, &a, "", false).await;
    assert_eq!(
        plain.header("content-disposition"),
        Some("attachment; filename=\"tgs00010.csv\"")
    );
    assert_eq!(plain.header("content-encoding"), None);
    let zipped = export(&s, &a, "", true).await;
    assert_eq!(zipped.status, 200);
    assert_eq!(zipped.header("content-encoding"), Some("gzip"));
    assert!(zipped.body.len() * 3 < plain.body.len(), "compressed");
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(zipped.body.as_slice())
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, plain.body);
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_csvw_document_describes_every_column_of_the_export() {
    let s = TestServer::start().await;
    let a = s.account("inst@example.org", Tier::Institutional);
    let (header, all) = rows(&export(&s, &a, "", false).await.body);
    let r = s
        .client
        .get_with(
            "/api/v1/regional/export/bulk/tgs00010.csv-metadata.json",
            &[a.key_header()],
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("content-type"), Some("application/csvm+json"));
    let doc: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(doc["@context"], "http://www.w3.org/ns/csvw");
    assert_eq!(doc["url"], "tgs00010.csv");
    let names: Vec<&str> = doc["tableSchema"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, header);
    assert_eq!(doc["notes"][0]["rows"], all.len());
    assert!(
        doc["dc:license"].as_str().unwrap().contains("Eurostat"),
        "{}",
        doc["dc:license"]
    );
    assert!(doc["notes"][0]["snapshot"]["file_sha256"].is_string());
    let units = doc["notes"][0]["units"].to_string();
    assert!(units.contains("\"PC\""), "{units}");
    // A dimension column lists its codes with their labels.
    let sex = doc["tableSchema"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "sex")
        .unwrap();
    assert!(
        sex["dc:description"]
            .as_str()
            .unwrap()
            .contains("T = Total"),
        "{sex}"
    );
    // The gate is the export's.
    let pro = s.account("pro@example.org", Tier::Professional);
    s.client
        .get_with(
            "/api/v1/regional/export/bulk/tgs00010.csv-metadata.json",
            &[pro.key_header()],
        )
        .await
        .error(403, "insufficient_tier");
    s.stop().await.unwrap();
}
