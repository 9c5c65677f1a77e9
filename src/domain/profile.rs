//! Region profile (`GET /regions/{code}/profile`): the region and, for every dataset with data for
//! it, the headline series with its latest value and history.

use std::collections::BTreeMap;

use super::error::Error;
use super::regions::{self, RegionDetail};
use super::{Cited, Citer, Sources, Warning};
use crate::bundled::Catalogue;
use crate::json_text;
use crate::store::Scoped;
use crate::store::datasets::DatasetRow;

/// A region's profile. Answers write it with [`Profile::write_json`]; its `Serialize` is what that
/// is tested against.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct Profile {
    pub region: RegionDetail,
    pub indicators: Vec<Indicator>,
    pub warnings: Vec<Warning>,
}

#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct Indicator {
    pub dataset: String,
    pub title: String,
    pub label: Option<String>,
    pub topic: String,
    /// Dimension values of the headline series (without the unit).
    pub series: BTreeMap<String, String>,
    pub unit: String,
    pub unit_label: Option<String>,
    /// The latest period with a published value; null if the series has only flagged gaps.
    pub latest: Option<Cited>,
    /// Every period of the series, oldest first.
    pub history: Vec<Cited>,
    pub notes: Vec<Warning>,
}

impl Profile {
    /// The profile as JSON text, byte for byte what serde_json writes for it; its cited values
    /// (most of its text) by [`Cited::write_json`].
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"region\":");
        json_text::append(out, &self.region)?;
        out.extend_from_slice(b",\"indicators\":[");
        for (i, indicator) in self.indicators.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            indicator.write_json(out)?;
        }
        out.extend_from_slice(b"],\"warnings\":");
        json_text::append(out, &self.warnings)?;
        out.push(b'}');
        Ok(())
    }
}

impl Indicator {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"dataset\":");
        json_text::push_str(out, &self.dataset);
        out.extend_from_slice(b",\"title\":");
        json_text::push_str(out, &self.title);
        out.extend_from_slice(b",\"label\":");
        json_text::push_opt_str(out, self.label.as_deref());
        out.extend_from_slice(b",\"topic\":");
        json_text::push_str(out, &self.topic);
        out.extend_from_slice(b",\"series\":");
        json_text::append(out, &self.series)?;
        out.extend_from_slice(b",\"unit\":");
        json_text::push_str(out, &self.unit);
        out.extend_from_slice(b",\"unit_label\":");
        json_text::push_opt_str(out, self.unit_label.as_deref());
        out.extend_from_slice(b",\"latest\":");
        Cited::write_opt(self.latest.as_ref(), out);
        out.extend_from_slice(b",\"history\":");
        Cited::write_list(&self.history, out);
        out.extend_from_slice(b",\"notes\":");
        json_text::append(out, &self.notes)?;
        out.push(b'}');
        Ok(())
    }
}

pub fn profile(
    store: &Scoped,
    catalogue: &Catalogue,
    code: &str,
) -> Result<(Profile, Sources), Error> {
    let _snapshot = store.snapshot()?;
    let mut citer = Citer::new(store, catalogue);
    let region = regions::detail(store, &mut citer, code)?;
    // The code as published, whatever case it was asked in.
    let code = region.summary.code.as_str();
    let datasets = store.datasets()?;
    let headline_rows = store.headline_rows(code)?;
    let mut indicators: Vec<Indicator> = Vec::with_capacity(headline_rows.len());
    for (dataset_id, rows) in headline_rows {
        let Some(dataset) = datasets.iter().find(|d| d.id == dataset_id) else {
            continue;
        };
        let mut indicator = new_indicator(dataset, code)?;
        indicator.history = citer.cite_all(dataset, code, &rows)?;
        // Copied once, not at every period with a value on the way.
        indicator.latest = indicator
            .history
            .iter()
            .rfind(|c| c.value.is_some())
            .cloned();
        indicators.push(indicator);
    }
    // Topic order reads better than dataset ids: demography, economy, labour market, ...
    let topic_rank = |topic: &str| {
        catalogue
            .datasets
            .iter()
            .position(|d| d.topic == topic)
            .unwrap_or(usize::MAX)
    };
    indicators.sort_by(|a, b| {
        (topic_rank(&a.topic), &a.dataset).cmp(&(topic_rank(&b.topic), &b.dataset))
    });
    let warnings = regions::code_warnings(&region.summary);
    Ok((
        Profile {
            region,
            indicators,
            warnings,
        },
        citer.sources,
    ))
}

fn new_indicator(dataset: &DatasetRow, region: &str) -> Result<Indicator, Error> {
    let (unit, series) = dataset.headline().map_err(Error::internal)?.clone();
    let unit_label = dataset
        .label("unit", &unit)
        .map_err(Error::internal)?
        .map(str::to_owned);
    let mut notes = Vec::new();
    if let Some(edition) = dataset.nuts_edition.as_deref() {
        let note = match edition {
            "mixed" => Some(format!(
                "{} uses the NUTS code Eurostat published for each year; a series may continue under another code after a NUTS revision",
                dataset.code
            )),
            "2013" => Some(format!(
                "{} is an older vintage with NUTS 2013 codes; {region}'s boundaries may differ from today's",
                dataset.code
            )),
            _ => None,
        };
        notes.extend(note.map(|message| Warning {
            code: "nuts_edition",
            message,
        }));
    }
    Ok(Indicator {
        dataset: dataset.code.clone(),
        title: dataset.title.clone(),
        label: dataset.description.clone(),
        topic: dataset.topic.clone(),
        series,
        unit_label,
        unit,
        latest: None,
        history: Vec::new(),
        notes,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::regions::{ParentRef, RegionSummary};

    pub(crate) fn region() -> RegionDetail {
        RegionDetail {
            summary: RegionSummary {
                code: "DEA2".into(),
                name: Some("K\u{f6}ln \"Rhein\"".into()),
                name_national: None,
                level: Some(2),
                country: Some("DE".into()),
                parent_code: Some("DEA".into()),
                classification: "NUTS".into(),
                nuts_editions: vec!["2021".into(), "2024".into()],
                in_classification: true,
                citation: Some("cit_oqrh2d7jvc5jqlzuutgd".into()),
            },
            parent: Some(ParentRef {
                code: "DEA".into(),
                name: None,
                citation: None,
            }),
            children: vec!["DEA22".into(), "DEA23".into()],
            change_2021_2024: None,
            recoded_from: Some("DEA2\\".into()),
            recoded_to: None,
        }
    }

    /// Indicators with and without a label, unit label, latest value, history and notes.
    #[test]
    fn a_profile_is_written_as_serde_json_writes_it() {
        let cited = crate::domain::tests::cited_values();
        let indicator = |n: usize| Indicator {
            dataset: format!("nama_10r_{n}gdp"),
            title: "GDP at \"current\" prices".into(),
            label: n
                .is_multiple_of(2)
                .then(|| "Gross domestic product\t(GDP)".into()),
            topic: "economy".into(),
            series: BTreeMap::from([
                ("freq".into(), "A".into()),
                ("na_item".into(), "B1G".into()),
            ]),
            unit: "MIO_EUR".into(),
            unit_label: n.is_multiple_of(3).then(|| "Million euro".into()),
            latest: (n % 2 == 1).then(|| cited[n % cited.len()].clone()),
            history: cited[..n % cited.len()].to_vec(),
            notes: (0..n % 2)
                .map(|_| Warning {
                    code: "nuts_edition",
                    message: "an older vintage".into(),
                })
                .collect(),
        };
        for indicators in [0, 1, 7] {
            let profile = Profile {
                region: region(),
                indicators: (0..indicators).map(indicator).collect(),
                warnings: vec![Warning {
                    code: "recoded",
                    message: "DEA2 was \"recoded\"".into(),
                }],
            };
            let mut ours = Vec::new();
            profile.write_json(&mut ours).unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(&profile).unwrap()
            );
        }
    }
}
