//! What an import says of a dataset besides its rows: its title, topic, labels and headline
//! series, from the bundled catalogue when the dataset is a known one, otherwise from what the
//! file's rows were seen to hold ([`Summary`], gathered while the file is checked).

use std::collections::{BTreeMap, HashMap};

use crate::bundled::Catalogue;
use crate::file_formats::{FileEnd, RawObservation};
use crate::store::import::DatasetMeta;

/// Most distinct values counted, of all dimensions (and units) together. Eurostat's dimensions
/// have at most a few thousand codes; a file inventing millions must not make the import hold
/// them. Values first seen past the bound are not counted, so get no label and are not the
/// headline unless they are one of [`TOTALS`].
const MAX_DISTINCT: usize = 100_000;

/// Codes of a total, the headline of a dimension that has one, in order of preference (`A`,
/// annual, of the frequency only: elsewhere it is a category, NACE's agriculture).
const TOTALS: [&str; 3] = ["T", "TOTAL", "A"];

/// Whether `value` stands for the total of dimension `name`.
fn is_total(name: &str, value: &str) -> bool {
    TOTALS.contains(&value) && (value != "A" || name == "freq")
}

/// The units and dimension values a file's rows hold, each with how often.
#[derive(Default)]
pub struct Summary {
    pub rows: u64,
    units: Counts,
    dims: Vec<Counts>,
    /// Distinct values counted so far, of all of them.
    distinct: usize,
}

#[derive(Default)]
struct Counts(HashMap<String, u64>);

impl Counts {
    /// Counts `value`; a new one only while `distinct` is under the bound (or a total).
    fn add(&mut self, value: &str, distinct: &mut usize) {
        if let Some(n) = self.0.get_mut(value) {
            *n += 1;
        } else if *distinct < MAX_DISTINCT || TOTALS.contains(&value) {
            *distinct += 1;
            self.0.insert(value.to_owned(), 1);
        }
    }

    fn contains(&self, value: &str) -> bool {
        self.0.contains_key(value)
    }

    /// The most frequent value, the greatest of equals (so the choice does not depend on the
    /// order of rows).
    fn most_common(&self) -> String {
        self.0
            .iter()
            .max_by(|(a, m), (b, n)| m.cmp(n).then_with(|| a.cmp(b)))
            .map(|(v, _)| v.clone())
            .unwrap_or_default()
    }
}

impl Summary {
    pub fn add(&mut self, row: &RawObservation) {
        self.rows += 1;
        self.units.add(&row.unit, &mut self.distinct);
        if self.dims.len() < row.dim_values.len() {
            self.dims.resize_with(row.dim_values.len(), Counts::default);
        }
        for (counts, value) in self.dims.iter_mut().zip(&row.dim_values) {
            counts.add(value, &mut self.distinct);
        }
    }
}

/// Whether a unit is a rate, a share or a value per inhabitant (or per area): comparable across
/// regions of any size, where an absolute amount (NR, MIO_EUR, THS) mostly says how large a
/// region is.
fn relative(unit: &str) -> bool {
    unit.starts_with("PC")
        || unit.starts_with("RT")
        || unit.starts_with("PER_")
        || unit.starts_with("P_")
        || unit.starts_with('I') && unit[1..].bytes().all(|b| b.is_ascii_digit())
        || unit.contains("_PC")
        || unit.contains("HAB")
        || unit.contains("KM2")
}

/// For a dataset fetched from Eurostat that the catalogue does not know: the headline unit is
/// the most common of its relative units ([`relative`]: a rate, a share, per inhabitant or per
/// area) where it has one, else its most common unit. (A file an operator imports keeps its
/// most common unit: what it holds is the operator's to say.)
pub fn prefer_relative_unit(meta: &mut DatasetMeta, summary: &Summary) {
    // Of equally common ones: a figure of its own before one in % of the EU average
    // (`EUR_HAB` before `EUR_HAB_EU27_2020`), then the shorter code, the plainer unit.
    let plainness = |unit: &str| (unit.contains("_HAB_EU"), unit.len(), unit.to_owned());
    let best = (summary.units.0.iter())
        .filter(|(unit, _)| relative(unit))
        .max_by(|(a, m), (b, n)| m.cmp(n).then_with(|| plainness(b).cmp(&plainness(a))));
    if let Some((unit, _)) = best {
        meta.headline.insert("unit".to_owned(), unit.clone());
    }
}

/// Applies what an operator set of a dataset (`set`) to `meta`; a headline value the data do not
/// hold (`summary`, of dimensions `dim_names`) is refused, naming it.
pub fn apply_set(
    meta: &mut DatasetMeta,
    set: &SetByOperator,
    summary: &Summary,
    dim_names: &[String],
) -> anyhow::Result<()> {
    for (name, value) in &set.headline {
        let values = match name.as_str() {
            "unit" => Some(&summary.units),
            dim => (dim_names.iter().position(|d| d == dim)).and_then(|i| summary.dims.get(i)),
        };
        let Some(values) = values else {
            anyhow::bail!(
                "the headline datasets.json sets for {} names the dimension {name}, which it does not have (its dimensions: unit, {})",
                meta.code,
                dim_names.join(", ")
            );
        };
        anyhow::ensure!(
            values.contains(value),
            "the headline datasets.json sets for {} names {name} {value}, which its data do not hold",
            meta.code
        );
        meta.headline.insert(name.clone(), value.clone());
    }
    if let Some(title) = &set.short_title {
        meta.description = Some(title.clone());
    }
    if let Some(topic) = &set.topic {
        meta.topic = topic.clone();
    }
    if let Some(edition) = &set.nuts_edition {
        meta.nuts_edition = Some(edition.clone());
    }
    Ok(())
}

/// Labels of the units and dimension values `summary` saw, taken from `labels` (by dimension
/// name, then code; `unit` among them): Eurostat's codelists for a fetched dataset.
pub fn labels_of(
    summary: &Summary,
    dim_names: &[String],
    labels: &BTreeMap<String, BTreeMap<String, String>>,
) -> String {
    let no_values = Counts::default();
    let mut out: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for (name, known) in labels {
        let seen = match name.as_str() {
            "unit" => &summary.units,
            dim => match dim_names.iter().position(|d| d == dim) {
                Some(i) => summary.dims.get(i).unwrap_or(&no_values),
                None => continue,
            },
        };
        for value in seen.0.keys() {
            if let Some(label) = known.get(value) {
                out.entry(name).or_default().insert(value, label);
            }
        }
    }
    serde_json::to_string(&out).expect("labels serialise")
}

/// Descriptive fields for a dataset: from the catalogue when it is known, otherwise derived from
/// the file (title from SDMX, headline series = the most common unit and total-like codes).
pub fn dataset_meta(catalogue: &Catalogue, file: &FileEnd, summary: &Summary) -> DatasetMeta {
    let header = &file.header;
    let mut labels: BTreeMap<&str, BTreeMap<String, String>> = BTreeMap::new();
    for unit in summary.units.0.keys() {
        if let Some(label) = catalogue.units.get(unit) {
            labels
                .entry("unit")
                .or_default()
                .insert(unit.clone(), label.clone());
        }
    }
    let no_values = Counts::default();
    let values_of = |i: usize| summary.dims.get(i).unwrap_or(&no_values);
    for (i, name) in header.dim_names.iter().enumerate() {
        if let Some(known) = catalogue.dimensions.get(name) {
            for value in values_of(i).0.keys() {
                if let Some(label) = known.get(value) {
                    labels
                        .entry(name)
                        .or_default()
                        .insert(value.clone(), label.clone());
                }
            }
        }
    }
    let labels_json = serde_json::to_string(&labels).expect("labels serialise");
    match catalogue.entry(&header.dataset) {
        Some(entry) => DatasetMeta {
            code: entry.code.clone(),
            title: entry.title.clone(),
            topic: entry.topic.clone(),
            description: Some(entry.short_title.clone()),
            nuts_edition: Some(entry.nuts_edition.clone()),
            headline: entry.headline.clone(),
            labels_json,
        },
        None => {
            let mut headline = BTreeMap::new();
            headline.insert("unit".to_owned(), summary.units.most_common());
            for (i, name) in header.dim_names.iter().enumerate() {
                let values = values_of(i);
                let pick = TOTALS
                    .into_iter()
                    .filter(|v| is_total(name, v))
                    .find(|v| values.contains(v))
                    .map_or_else(|| values.most_common(), str::to_owned);
                headline.insert(name.clone(), pick);
            }
            DatasetMeta {
                code: header.dataset.clone(),
                title: file.title.clone().unwrap_or_else(|| header.dataset.clone()),
                topic: "other".into(),
                description: None,
                nuts_edition: None,
                headline,
                labels_json,
            }
        }
    }
}

/// What an operator sets of a fetched dataset in a settings file (`eurostat::described`): each
/// field given replaces what the bundled catalogue or the rule says.
#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetByOperator {
    /// `unit` and dimension values of the headline series: those given replace what the rule
    /// chose, the others stay as it chose them.
    #[serde(default)]
    pub headline: std::collections::BTreeMap<String, String>,
    pub short_title: Option<String>,
    pub topic: Option<String>,
    pub nuts_edition: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset_file::{FileHeader, Format};

    /// What a file of these (unit, nace_r2, freq) rows is seen to hold.
    fn summary(rows: &[(&str, &str)]) -> Summary {
        let mut summary = Summary::default();
        for (unit, nace) in rows {
            summary.add(&RawObservation {
                region: "DE1".into(),
                period: "2020".into(),
                unit: (*unit).into(),
                dim_values: vec![(*nace).into(), "A".into()],
                value_text: "1".into(),
                value: Some(1.0),
                flags: String::new(),
                conf_status: String::new(),
                src_line: 0,
            });
        }
        summary
    }

    fn headline(rows: &[(&str, &str)]) -> BTreeMap<String, String> {
        let summary = summary(rows);
        let end = FileEnd {
            header: FileHeader {
                format: Format::EurostatTsv,
                dataset: "x".into(),
                dim_names: vec!["nace_r2".into(), "freq".into()],
            },
            title: None,
        };
        let mut meta = dataset_meta(&Catalogue::bundled(), &end, &summary);
        prefer_relative_unit(&mut meta, &summary);
        meta.headline
    }

    #[test]
    fn the_headline_is_totals_and_the_plainest_relative_unit() {
        // Equally common units: per inhabitant in euro, not in % of the EU average nor an
        // absolute amount.
        let units = [
            "MIO_EUR",
            "EUR_HAB_EU27_2020",
            "PPS_HAB_EU27_2020",
            "EUR_HAB",
        ];
        let rows: Vec<(&str, &str)> = units.iter().map(|u| (*u, "TOTAL")).collect();
        let chosen = headline(&rows);
        assert_eq!(chosen["unit"], "EUR_HAB");
        assert_eq!(chosen["nace_r2"], "TOTAL");
        // `A` is the total of the frequency, not of a breakdown (NACE's agriculture).
        assert_eq!(chosen["freq"], "A");
        let no_total = headline(&[("NR", "A"), ("NR", "C"), ("NR", "C")]);
        assert_eq!(no_total["nace_r2"], "C", "the most common, not agriculture");
    }
}
