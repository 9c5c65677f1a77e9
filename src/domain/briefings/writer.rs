//! The deterministic writer: picks the facts a briefing of one type needs (the region's latest
//! values, their change over time, its rank among the regions of its parent, the gap to its
//! parent and its country, the EU figure), and writes them as short paragraphs in which every
//! number is a claim.

use std::sync::Arc;

use super::claims::{ClaimBook, Operation};
use super::{Draft, Section};
use crate::catalogue::Catalogue;
use crate::domain::Error;
use crate::store::Scoped;
use crate::store::datasets::DatasetRow;
use crate::store::observations::ObsRow;
use crate::store::regions::RegionRow;

/// The EU aggregate a region is set against where the data has it.
const EU: &str = "EU27_2020";
/// How far back the change over time looks, in periods (years for annual data).
const LOOK_BACK: usize = 5;

/// The headline series' topics a briefing type covers (None: all), its title, and whether it
/// sets the region against its peers.
fn plan(briefing_type: &str) -> (Option<&'static str>, &'static str, bool) {
    match briefing_type {
        "economy" => (Some("economy"), "Economy", true),
        "labour_market" => (Some("labour market"), "Labour market", true),
        "demography" => (Some("demography"), "Demography", true),
        "health" => (Some("health"), "Health", true),
        "peer_comparison" => (None, "Peer comparison", true),
        _ => (None, "Profile summary", false),
    }
}

/// A value fit to state: published, not confidential.
fn stated(row: &ObsRow) -> bool {
    row.value.is_some() && !row.is_confidential()
}

/// Units whose change reads best as a difference in the unit (percentage points, years) rather
/// than a percentage of a percentage: shares (`PC`, `PC_GDP`), growth rates (`PCH_PRE`), years.
fn additive(unit: &str) -> Option<&'static str> {
    if unit.starts_with("PC") {
        Some("percentage points")
    } else if unit == "YR" {
        Some("years")
    } else {
        None
    }
}

struct Writer<'a> {
    store: &'a Scoped,
    catalogue: &'a Catalogue,
    book: ClaimBook,
    /// Names and titles written in the text (they may hold digits that are no claims).
    labels: Vec<String>,
}

pub fn write(
    store: &Scoped,
    catalogue: &Catalogue,
    region: &RegionRow,
    briefing_type: &str,
    datasets: &[Arc<DatasetRow>],
) -> Result<Draft, Error> {
    let (topic, type_title, peers) = plan(briefing_type);
    let mut w = Writer {
        store,
        catalogue,
        book: ClaimBook::default(),
        labels: Vec::new(),
    };
    let name = w.name_of(region);
    let parent = match &region.parent_code {
        Some(code) => store.region(code)?,
        None => None,
    };
    let country = match &region.country_code {
        Some(code) if *code != region.code => store.region(code)?,
        _ => None,
    };
    let eu = store.region(EU)?;
    // The comparators, named and listed once for all datasets.
    let mut siblings = Vec::new();
    let mut parent_named = None;
    if let (Some(parent), true) = (&parent, peers) {
        siblings = store
            .subregions(&parent.code)?
            .into_iter()
            .map(|r| r.code)
            .filter(|c| *c != region.code && !crate::domain::regions::is_extra_regio(c))
            .collect();
        parent_named = Some((parent, w.name_of(parent)));
    }
    let country_named = match (&country, peers) {
        (Some(country), true) => Some((country, w.name_of(country))),
        _ => None,
    };

    let mut sections = Vec::new();
    let mut missing = Vec::new();
    for dataset in datasets
        .iter()
        .filter(|d| topic.is_none_or(|t| d.topic == t))
    {
        let short = w.label(dataset.description.clone().unwrap_or(dataset.title.clone()));
        let series_id = dataset.headline_series_id.expect("headline datasets only");
        let rows: Vec<ObsRow> = store
            .series_rows(&region.code, series_id)?
            .into_iter()
            .filter(stated)
            .collect();
        let Some(latest) = rows.last() else {
            missing.push(short);
            continue;
        };
        let unit = &dataset.headline().map_err(Error::internal)?.0;
        let unit_label = w.unit_label(dataset, unit);
        let value = w.book.direct(latest).expect("stated rows have values");
        // A count needs no unit ("4,729,243", not "4,729,243 (number)").
        let unit_note = if unit == "NR" || unit_label.is_empty() {
            String::new()
        } else {
            format!(" ({unit_label})")
        };
        let flags: Vec<String> =
            crate::domain::explain_flags(catalogue, &latest.flags, &latest.conf_status)
                .into_iter()
                .map(|f| f.meaning.into_string())
                .collect();
        let flag_note = if flags.is_empty() {
            String::new()
        } else {
            format!(", {}", flags.join(", "))
        };
        let mut text = format!(
            "{short} in {name}: {value}{unit_note} in {}{flag_note}.",
            latest.period
        );
        w.change(&mut text, &rows, unit);
        if peers {
            if let Some((parent, parent_name)) = &parent_named {
                w.rank(&mut text, &name, parent_name, &siblings, latest, series_id)?;
                // A NUTS 1 region's parent is its country, stated next.
                if country.as_ref().is_none_or(|c| c.code != parent.code) {
                    w.gap(
                        &mut text,
                        &name,
                        (parent, parent_name),
                        latest,
                        series_id,
                        unit,
                    )?;
                }
            }
            if let Some((country, country_name)) = &country_named {
                w.gap(
                    &mut text,
                    &name,
                    (country, country_name),
                    latest,
                    series_id,
                    unit,
                )?;
            }
            if let Some(eu) = &eu {
                w.eu(&mut text, eu, latest, series_id)?;
            }
        }
        sections.push(Section {
            heading: short,
            text,
        });
    }
    if !peers && !sections.is_empty() {
        let text = sections
            .drain(..)
            .map(|s| s.text)
            .collect::<Vec<_>>()
            .join(" ");
        sections.push(Section {
            heading: "Overview".into(),
            text,
        });
    }
    if sections.is_empty() {
        let what = topic.map_or(String::new(), |t| format!("{t} "));
        sections.push(Section {
            heading: "No data".into(),
            text: format!("regintel holds no {what}figures for {name}."),
        });
    }
    if !missing.is_empty() {
        sections.push(Section {
            heading: "Not covered".into(),
            text: format!(
                "regintel holds no figures for {name} on: {}.",
                missing.join("; ")
            ),
        });
    }
    let title = format!("{type_title}: {name} ({})", region.code);
    w.labels.push(title.clone());
    Ok(Draft {
        title,
        sections,
        claims: w.book.claims,
        labels: w.labels,
        not_covered: missing,
    })
}

impl Writer<'_> {
    fn label(&mut self, text: String) -> String {
        self.labels.push(text.clone());
        text
    }

    fn name_of(&mut self, region: &RegionRow) -> String {
        self.label(region.name().unwrap_or(&region.code).to_owned())
    }

    fn unit_label(&mut self, dataset: &DatasetRow, unit: &str) -> String {
        let label = dataset
            .label("unit", unit)
            .ok()
            .flatten()
            .map(str::to_owned)
            .or_else(|| self.catalogue.units.get(unit).cloned())
            .unwrap_or_else(|| unit.to_owned());
        self.label(label)
    }

    /// "That is 3.2 % more than in 2017 (4,582,000)."
    fn change(&mut self, text: &mut String, rows: &[ObsRow], unit: &str) {
        let latest = rows.last().expect("called with rows");
        let back = rows.len().saturating_sub(1 + LOOK_BACK);
        let earlier = &rows[back];
        if earlier.period == latest.period {
            return;
        }
        let before = self.book.direct(earlier).expect("stated rows have values");
        let period = &earlier.period;
        match self.relative(earlier, latest, unit, "more", "less") {
            Some(reads) => {
                text.push_str(&format!(" That is {reads} than in {period} ({before})."));
            }
            None => text.push_str(&format!(" It was about the same in {period} ({before}).")),
        }
    }

    /// How `later` stands against `base`, as a claim the text must read so: "2.1 % more",
    /// "0.8 percentage points less", or a plain difference ("3.5 more") where a percentage of
    /// the base would mislead (a base at or below zero). None where it rounds to nothing.
    fn relative(
        &mut self,
        base: &ObsRow,
        later: &ObsRow,
        unit: &str,
        up: &str,
        down: &str,
    ) -> Option<String> {
        let (a, b) = (base.value?, later.value?);
        let direction = if b > a { up } else { down };
        let (operation, words) = match additive(unit) {
            Some(words) => (Operation::Difference, format!("{words} {direction}")),
            None if a <= 0.0 || b < 0.0 => (Operation::Difference, direction.to_owned()),
            None => (Operation::PercentChange, format!("% {direction}")),
        };
        let reads = self
            .book
            .derived_reading(operation, &[base, later], &words)?;
        if self.book.claims.last().is_some_and(|c| c.value == 0.0) {
            self.book.take_back();
            return None;
        }
        Some(reads)
    }

    /// "Among the 7 regions of Bayern with a 2022 figure, Oberbayern ranks 1 from the top."
    fn rank(
        &mut self,
        text: &mut String,
        name: &str,
        parent_name: &str,
        siblings: &[String],
        latest: &ObsRow,
        series_id: i64,
    ) -> Result<(), Error> {
        let mut others = Vec::new();
        for sibling in siblings {
            others.extend(
                self.store
                    .value_at(sibling, series_id, &latest.period)?
                    .filter(stated),
            );
        }
        if others.is_empty() {
            return Ok(());
        }
        let mut all: Vec<&ObsRow> = vec![latest];
        all.extend(others.iter());
        let count = self.book.derived(Operation::Count, &all);
        let rank = self
            .book
            .derived_reading(Operation::Rank, &all, "from the top");
        if let (Some(count), Some(rank)) = (count, rank) {
            text.push_str(&format!(
                " Among the {count} regions of {parent_name} with a {} figure, {name} ranks {rank}.",
                latest.period
            ));
        }
        Ok(())
    }

    /// The gap to a larger region (the parent, the country): "The figure for Deutschland is
    /// 46,300; Oberbayern is 45.1 % above it." or, for totals, "The total for Deutschland is
    /// 83,237,124; Oberbayern accounts for 5.7 % of it."
    fn gap(
        &mut self,
        text: &mut String,
        name: &str,
        (comparator, comparator_name): (&RegionRow, &str),
        latest: &ObsRow,
        series_id: i64,
        unit: &str,
    ) -> Result<(), Error> {
        let Some(larger) = self.at_period(comparator, latest, series_id)? else {
            return Ok(());
        };
        let figure = self.book.direct(&larger).expect("stated rows have values");
        if crate::domain::series::is_total(unit) {
            if let Some(share) = self.book.derived(Operation::Share, &[&larger, latest]) {
                text.push_str(&format!(
                    " The total for {comparator_name} is {figure}; {name} accounts for {share} % of it."
                ));
            }
            return Ok(());
        }
        match self.relative(&larger, latest, unit, "above", "below") {
            Some(reads) => text.push_str(&format!(
                " The figure for {comparator_name} is {figure}; {name} is {reads} it."
            )),
            None => text.push_str(&format!(
                " The figure for {comparator_name} is about the same, {figure}."
            )),
        }
        Ok(())
    }

    /// "The EU figure is 37,600."
    fn eu(
        &mut self,
        text: &mut String,
        eu: &RegionRow,
        latest: &ObsRow,
        series_id: i64,
    ) -> Result<(), Error> {
        if let Some(row) = self.at_period(eu, latest, series_id)? {
            let figure = self.book.direct(&row).expect("stated rows have values");
            text.push_str(&format!(" The EU figure is {figure}."));
        }
        Ok(())
    }

    fn at_period(
        &self,
        region: &RegionRow,
        latest: &ObsRow,
        series_id: i64,
    ) -> Result<Option<ObsRow>, Error> {
        Ok(self
            .store
            .value_at(&region.code, series_id, &latest.period)?
            .filter(stated))
    }
}
