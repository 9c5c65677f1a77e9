//! The bundled classification as regintel imports it and cites it: each region of
//! `nuts_regions.csv` with the line it stands on and the sources that line names for its names,
//! and each aggregate (`EU27_2020`) with its line of `catalogue.json`. A region answer cites the
//! row its names, level and parent come from; the citation resolves to the file (with its
//! SHA-256), the line and the columns.

use anyhow::Context;

use super::rows::regions::RegionRow;
use crate::bundled::{CATALOGUE_JSON, NUTS_REGIONS_CSV};

/// The bundled classification file, as citations name it.
pub const REGIONS_FILE: &str = "nuts_regions.csv";
/// The bundled catalogue, which names the aggregates.
pub const CATALOGUE_FILE: &str = "catalogue.json";

/// Where a region's row stands and what it names as the source of each name.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionSource {
    pub file: &'static str,
    pub sha256: String,
    /// 1-based, the header being line 1.
    pub line: u64,
    pub name_source: Option<String>,
    pub name_latin_source: Option<String>,
}

impl RegionSource {
    /// The citation id of `code`'s row.
    pub fn citation_id(&self, code: &str) -> String {
        crate::citation_id::source_citation_id(
            "classification",
            &[self.file, &self.sha256, &self.line.to_string(), code],
        )
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    crate::ids::hex(&Sha256::digest(bytes))
}

/// The regions of `nuts_regions.csv` (columns documented in data/README.md), each with its
/// source.
pub fn parse_regions(bytes: &[u8]) -> anyhow::Result<Vec<(RegionRow, RegionSource)>> {
    let sha256 = sha256_hex(bytes);
    let mut reader = csv::Reader::from_reader(bytes);
    let headers = reader.headers()?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{REGIONS_FILE}: missing column {name}"))
    };
    let (code, latin, national, level, parent, country, class, in21, in24, change, from, to) = (
        col("nuts_code")?,
        col("name_latin")?,
        col("name_national")?,
        col("level")?,
        col("parent_code")?,
        col("country_code")?,
        col("classification")?,
        col("in_nuts2021")?,
        col("in_nuts2024")?,
        col("change_2021_2024")?,
        col("recoded_from")?,
        col("recoded_to")?,
    );
    let (name_source, latin_source) = (col("name_source").ok(), col("name_latin_source").ok());
    let mut out = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.with_context(|| format!("{REGIONS_FILE}: line {}", i + 2))?;
        let line = record.position().map_or(i as u64 + 2, |p| p.line());
        let text = |c: usize| {
            let v = record.get(c).unwrap_or("").trim();
            (!v.is_empty()).then(|| v.to_owned())
        };
        let row = RegionRow {
            code: text(code).with_context(|| format!("{REGIONS_FILE}: line {line}: empty code"))?,
            name_latin: text(latin),
            name_national: text(national),
            level: text(level).and_then(|l| l.parse().ok()),
            parent_code: text(parent),
            country_code: text(country),
            classification: text(class).unwrap_or_else(|| "NUTS".into()),
            in_nuts2021: record.get(in21) == Some("true"),
            in_nuts2024: record.get(in24) == Some("true"),
            change_2021_2024: text(change),
            recoded_from: text(from),
            recoded_to: text(to),
            citation: None,
            shown: Default::default(),
        };
        let source = RegionSource {
            file: REGIONS_FILE,
            sha256: sha256.clone(),
            line,
            name_source: name_source.and_then(text),
            name_latin_source: latin_source.and_then(text),
        };
        out.push((row, source));
    }
    Ok(out)
}

/// The regions of the bundled classification.
pub fn bundled() -> anyhow::Result<Vec<(RegionRow, RegionSource)>> {
    parse_regions(NUTS_REGIONS_CSV)
}

/// The line of `catalogue.json` that names `code` among its aggregates, as a source.
pub fn aggregate_source(code: &str) -> Option<RegionSource> {
    let key = format!("\"{code}\":");
    let start = CATALOGUE_JSON.find("\"aggregates\"")?;
    let before = CATALOGUE_JSON[..start].matches('\n').count() as u64;
    let block = &CATALOGUE_JSON[start..];
    let block = &block[..block.find('}')?];
    let at = block.find(&key)?;
    Some(RegionSource {
        file: CATALOGUE_FILE,
        sha256: sha256_hex(CATALOGUE_JSON.as_bytes()),
        line: before + block[..at].matches('\n').count() as u64 + 1,
        name_source: Some("Eurostat's geo code list, as data/catalogue.json records it".into()),
        name_latin_source: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_region_knows_its_line_and_sources() {
        let regions = bundled().unwrap();
        let (row, source) = regions.iter().find(|(r, _)| r.code == "DE21").unwrap();
        assert_eq!(row.name_latin.as_deref(), Some("Oberbayern"));
        let lines: Vec<&str> = std::str::from_utf8(NUTS_REGIONS_CSV)
            .unwrap()
            .lines()
            .collect();
        assert!(lines[source.line as usize - 1].starts_with("DE21,Oberbayern,"));
        assert!(source.name_source.is_some());
        assert_eq!(source.sha256, sha256_hex(NUTS_REGIONS_CSV));
        // Another file, another line or another code: another id.
        let id = source.citation_id("DE21");
        assert!(crate::citation_id::is_well_formed(&id), "{id}");
        let moved = RegionSource {
            line: source.line + 1,
            ..source.clone()
        };
        assert_ne!(moved.citation_id("DE21"), id);
        assert_ne!(source.citation_id("DE22"), id);

        let eu = aggregate_source("EU27_2020").unwrap();
        let lines: Vec<&str> = CATALOGUE_JSON.lines().collect();
        assert!(
            lines[eu.line as usize - 1].contains("\"EU27_2020\": \"European Union"),
            "{}",
            lines[eu.line as usize - 1]
        );
        assert!(aggregate_source("XX").is_none());
    }
}
