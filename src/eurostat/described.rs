//! How a fetched dataset is described where the bundled catalogue (`data/catalogue.json`) does
//! not know it: its topic from the folders Eurostat files it in, its short label from its title,
//! its headline series by rule (see `crate::import::meta`); and what an operator sets instead in
//! `<data dir>/eurostat/datasets.json`, which overrides both the rule and the catalogue:
//!
//! ```json
//! {"nama_10r_3gdp": {"headline": {"unit": "EUR_HAB"}, "short_title": "GDP per inhabitant",
//!                    "topic": "economy", "nuts_edition": "2024"}}
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, ensure};

use super::toc::Entry;
use crate::import::SetByOperator;

/// The settings file's name in the downloads directory.
pub const FILE: &str = "datasets.json";

/// The settings of every dataset the file names, by code in lower case.
#[derive(Debug, Default)]
pub struct DatasetSettings {
    by_code: BTreeMap<String, SetByOperator>,
}

impl DatasetSettings {
    /// The settings file of downloads directory `dir`: none when there is no file; a file that
    /// is not valid (unknown fields, other types) is refused, naming it.
    pub fn load(dir: &Path) -> anyhow::Result<DatasetSettings> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(DatasetSettings::default());
            }
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let read: BTreeMap<String, SetByOperator> = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not a settings file of datasets ({{\"<code>\": {{\"headline\": {{...}}, \"short_title\": ..., \"topic\": ..., \"nuts_edition\": ...}}}})",
                path.display()
            )
        })?;
        let mut by_code = BTreeMap::new();
        for (code, settings) in read {
            ensure!(
                !settings
                    .short_title
                    .as_ref()
                    .is_some_and(|t| t.trim().is_empty())
                    && !settings.topic.as_ref().is_some_and(|t| t.trim().is_empty()),
                "{}: {code} has an empty short_title or topic",
                path.display()
            );
            by_code.insert(code.to_ascii_lowercase(), settings);
        }
        Ok(DatasetSettings { by_code })
    }

    /// What is set of dataset `code`.
    pub fn of(&self, code: &str) -> Option<&SetByOperator> {
        self.by_code.get(&code.to_ascii_lowercase())
    }
}

/// A short label of a dataset from its title in the table of contents: the title without the
/// breakdown Eurostat's regional titles end with (`... by NUTS 2 region`, `... by sex and NUTS 3
/// regions`), which every regional dataset shares and a chart's legend does not need.
pub fn short_title(entry: &Entry) -> String {
    let title = entry.title.trim();
    let lower = title.to_ascii_lowercase();
    let cut = [
        " by nuts",
        " by sex",
        " by age",
        " by degree of urbanisation",
        " by typology",
    ]
    .iter()
    .filter_map(|tail| lower.find(tail))
    .min();
    match cut {
        Some(at) if at > 0 => title[..at].trim_end_matches([',', ' ']).to_owned(),
        _ => title.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(title: &str) -> Entry {
        Entry {
            code: "x".into(),
            title: title.into(),
            kind: "dataset".into(),
            last_update_of_data: None,
            last_structure_change: None,
            data_start: None,
            data_end: None,
            folders: Vec::new(),
            regional: true,
        }
    }

    #[test]
    fn a_short_title_drops_the_regional_breakdown() {
        for (title, short) in [
            (
                "Gross domestic product (GDP) at current market prices by NUTS 3 regions",
                "Gross domestic product (GDP) at current market prices",
            ),
            (
                "Population on 1 January by age group, sex and NUTS 3 region",
                "Population on 1 January",
            ),
            (
                "Employment rates by sex, age, educational attainment level and NUTS 2 region (%)",
                "Employment rates",
            ),
            ("Health personnel by NUTS 2 regions", "Health personnel"),
            ("By NUTS 2 regions", "By NUTS 2 regions"),
            ("Regional typologies", "Regional typologies"),
        ] {
            assert_eq!(short_title(&entry(title)), short, "{title}");
        }
    }

    #[test]
    fn the_settings_file_is_read_strictly_and_by_code_in_any_case() {
        let dir = tempfile::tempdir().unwrap();
        assert!(DatasetSettings::load(dir.path()).unwrap().of("x").is_none());
        std::fs::write(
            dir.path().join(FILE),
            r#"{"NAMA_10R_3GDP": {"headline": {"unit": "EUR_HAB"}, "short_title": "GDP per inhabitant"}}"#,
        )
        .unwrap();
        let read = DatasetSettings::load(dir.path()).unwrap();
        let gdp = read.of("nama_10r_3gdp").unwrap();
        assert_eq!(gdp.headline["unit"], "EUR_HAB");
        assert_eq!(gdp.short_title.as_deref(), Some("GDP per inhabitant"));
        assert_eq!(gdp.topic, None);
        for bad in [
            r#"{"x": {"headlines": {}}}"#,
            r#"{"x": {"headline": {"unit": 1}}}"#,
            r#"{"x": {"short_title": " "}}"#,
            "[]",
        ] {
            std::fs::write(dir.path().join(FILE), bad).unwrap();
            let why = format!("{:#}", DatasetSettings::load(dir.path()).unwrap_err());
            assert!(why.contains("datasets.json"), "{bad}: {why}");
        }
    }
}
