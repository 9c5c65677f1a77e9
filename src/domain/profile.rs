//! Region profile (spec endpoint 1): the region and, for every dataset with data for it, the
//! headline series with its latest value and history.

use std::collections::BTreeMap;

use serde::Serialize;

use super::error::Error;
use super::regions::{self, RegionDetail};
use super::{Cited, Citer, Sources, Warning};
use crate::catalogue::Catalogue;
use crate::store::Scoped;
use crate::store::datasets::DatasetRow;

#[derive(Debug, Serialize)]
pub struct Profile {
    pub region: RegionDetail,
    pub indicators: Vec<Indicator>,
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Serialize)]
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

pub fn profile(
    store: &Scoped,
    catalogue: &Catalogue,
    code: &str,
) -> Result<(Profile, Sources), Error> {
    let _snapshot = store.snapshot()?;
    let region = regions::detail(store, code)?;
    // The code as published, whatever case it was asked in.
    let code = region.summary.code.as_str();
    let datasets = store.datasets()?;
    let mut citer = Citer::new(store, catalogue);
    let mut indicators: Vec<Indicator> = Vec::new();
    for (dataset_id, rows) in store.headline_rows(code)? {
        let Some(dataset) = datasets.iter().find(|d| d.id == dataset_id) else {
            continue;
        };
        let mut indicator = new_indicator(dataset, code)?;
        indicator.history = (rows.iter())
            .map(|row| citer.cite(dataset, code, row))
            .collect::<Result<_, _>>()?;
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
