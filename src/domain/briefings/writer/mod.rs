//! The deterministic writer: picks the facts a briefing of one type needs and writes them as
//! short paragraphs in which every number is a claim, following the rules of
//! `docs/analysis.md`: a change over time only within a stretch without a break in series; an
//! index as growth since its base year; ranks among the regions of the same level in the
//! country and the EU (the parent's children only beside them, and only when there are enough),
//! saying the direction, the ties and what was left out for its flags; no comparison of a region
//! with a parent of which it is the only child; a ratio past 2 as "times"; stale years and
//! current prices named; across countries, purchasing power standards where the data hold them.

use std::sync::Arc;

use super::claims::{ClaimBook, Operation};
use super::draft::{Break, Draft, Label, Section};
use super::peers::{self, Among, Group};
use super::source::{ReadOnce, Source};
use super::wording::{self, additive, listed};
use crate::bundled::Catalogue;
use crate::domain::Error;
use crate::domain::series::{self, Chosen};
use crate::period::{STALE_YEARS, year};
use crate::store::datasets::DatasetRow;
use crate::store::observations::ObsRow;
use crate::store::regions::RegionRow;

/// The EU aggregate a region is set against where the data has it.
const EU: &str = "EU27_2020";
/// How far back the change over time of annual data looks, in years.
const LOOK_BACK_YEARS: i32 = 5;
/// Regions a sentence names at most (ties, those left out); past that, "and others".
const NAMED: usize = 5;
/// A parent's other children needed before a region is also ranked among them.
const PARENT_PEERS: usize = 3;
/// Regions a rank needs: between two, a rank says no more than the comparison.
const RANKED_AT_LEAST: usize = 3;
/// A ratio from which "is 9.7 times" reads better than "is 865.8 % above".
const TIMES_FROM: f64 = 2.0;

/// The headline series' topics a briefing type covers (None: all), its title, and whether it
/// sets the region against its peers.
pub fn plan(briefing_type: &str) -> (Option<&'static str>, &'static str, bool) {
    match briefing_type {
        "economy" => (Some("economy"), "Economy", true),
        "labour_market" => (Some("labour market"), "Labour market", true),
        "demography" => (Some("demography"), "Demography", true),
        "health" => (Some("health"), "Health", true),
        "peer_comparison" => (None, "Peer comparison", true),
        _ => (None, "Profile summary", false),
    }
}

/// A value to state: published (its flags are said with it; one of low reliability or
/// confidential is neither ranked nor compared).
pub fn stated(row: &ObsRow) -> bool {
    row.value.is_some()
}

/// One series of the region: what its section states.
struct Fact {
    dataset: Arc<DatasetRow>,
    short: String,
    measure: String,
    series_id: i64,
    unit: String,
    /// Every current row of the region's series, by period (gaps that carry only a flag too:
    /// a break is a break whether or not it has a value).
    rows: Vec<ObsRow>,
    /// The latest row with a value to state.
    latest: usize,
    current_prices: bool,
}

impl Fact {
    fn own(&self) -> &ObsRow {
        &self.rows[self.latest]
    }

    /// The value a change over time starts from: for annual data that of five years before the
    /// latest (or the first year after it with a value), for data within the year the same
    /// quarter, half or month a year before (a quarter against the one before would mix in the season). None
    /// when there is none.
    fn base_of_change(&self) -> Option<&ObsRow> {
        let own = self.own();
        let before = &self.rows[..self.latest];
        match own.period.split_once('-') {
            Some((year, within)) => {
                let a_year_before = format!("{}-{within}", year.parse::<i32>().ok()? - 1);
                before
                    .iter()
                    .find(|r| r.period.as_str() == a_year_before && stated(r))
            }
            None => {
                let since = year(&own.period)? - LOOK_BACK_YEARS;
                (before.iter()).find(|r| stated(r) && year(&r.period).is_some_and(|y| y >= since))
            }
        }
    }

    /// The rows from `from` to `to` (periods, both included).
    fn window(&self, from: &str, to: &str) -> Vec<&ObsRow> {
        (self.rows.iter())
            .filter(|r| r.period.as_str() >= from && r.period.as_str() <= to)
            .collect()
    }
}

/// Whom a region is set against, found once for all its series.
#[derive(Default)]
struct Comparators {
    /// The parent, unless it is the country or the region is its only child.
    parent: Option<(Arc<RegionRow>, String)>,
    country: Option<(Arc<RegionRow>, String)>,
    eu: Option<Arc<RegionRow>>,
    /// The regions of its level in its country.
    in_country: Option<Group>,
    /// The parent's other children (ranked among when enough of them have a figure).
    in_parent: Option<Group>,
    /// Across countries: the regions of its level in the EU's member states, or for a country
    /// the member states (all countries, for one outside the EU).
    across: Option<Group>,
}

struct Writer<'a> {
    store: &'a dyn Source,
    catalogue: &'a Catalogue,
    book: ClaimBook<'a>,
    /// Names and titles written in the text (they may hold digits that are no claims).
    labels: Vec<Label>,
    breaks: Vec<Break>,
}

/// The briefing's draft, or None when the region has no figure on the type's topics.
pub fn write(
    store: &dyn Source,
    catalogue: &Catalogue,
    region: &RegionRow,
    briefing_type: &str,
    datasets: &[Arc<DatasetRow>],
) -> Result<Option<Draft>, Error> {
    let (topic, type_title, peers) = plan(briefing_type);
    let store = ReadOnce::new(store);
    let mut w = Writer {
        store: &store,
        catalogue,
        book: ClaimBook::new(catalogue),
        labels: Vec::new(),
        breaks: Vec::new(),
    };
    let name = w.name_of(region);
    let mut facts = Vec::new();
    let mut missing = Vec::new();
    for dataset in datasets
        .iter()
        .filter(|d| topic.is_none_or(|t| d.topic == t))
    {
        let short = dataset.description.clone().unwrap_or(dataset.title.clone());
        let short = w.label(short, dataset.private);
        let series_id = dataset.headline_series_id.expect("headline datasets only");
        let rows = store.series_rows(&region.code, series_id)?;
        let Some(latest) = rows.iter().rposition(stated) else {
            missing.push(short);
            continue;
        };
        let unit = dataset.headline().map_err(Error::internal)?.0.clone();
        facts.push(Fact {
            measure: w.label(wording::measure(&short), dataset.private),
            current_prices: series::at_current_prices(catalogue, dataset, &unit),
            dataset: Arc::clone(dataset),
            short,
            series_id,
            unit,
            rows,
            latest,
        });
    }
    if facts.is_empty() {
        return Ok(None);
    }
    let newest = facts.iter().filter_map(|f| year(&f.own().period)).max();
    let comparators = match peers {
        true => Some(w.comparators(region)?),
        false => None,
    };
    let mut sections = Vec::new();
    for fact in &facts {
        let mut text = String::new();
        w.latest(&mut text, &name, fact, newest);
        w.index_growth(&mut text, fact);
        w.change(&mut text, fact);
        if let Some(c) = &comparators {
            w.peers(&mut text, &name, region, fact, c)?;
        }
        sections.push(Section {
            heading: fact.short.clone(),
            text,
        });
    }
    if !peers {
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
    w.labels.push(Label {
        text: title.clone(),
        private: false,
    });
    // Each region is named once per rank it is tied or left out in: the verifier needs each
    // name once.
    w.labels
        .sort_by(|a, b| (a.private, &a.text).cmp(&(b.private, &b.text)));
    w.labels.dedup();
    Ok(Some(Draft {
        title,
        sections,
        claims: w.book.claims,
        labels: w.labels,
        breaks: w.breaks,
        not_covered: missing,
    }))
}

/// How a value stands against another, as the text must read it.
enum Reading {
    /// "2.1 % more", "0.8 percentage points less", "3.5 above".
    By(String),
    /// "9.7 times".
    Times(String),
    /// Rounds to nothing.
    Same,
}

impl Writer<'_> {
    fn label(&mut self, text: String, private: bool) -> String {
        self.labels.push(Label {
            text: text.clone(),
            private,
        });
        text
    }

    /// A region's name; one not of the classification (a code an account uploaded) is quoted
    /// to a model like an account's titles.
    fn name_of(&mut self, region: &RegionRow) -> String {
        let name = region.name().unwrap_or(&region.code).to_owned();
        self.label(name, region.citation.is_none())
    }

    fn unit_label(&mut self, dataset: &DatasetRow, unit: &str) -> String {
        let label = dataset
            .label("unit", unit)
            .ok()
            .flatten()
            .map(str::to_owned)
            .or_else(|| self.catalogue.units.get(unit).cloned())
            .unwrap_or_else(|| unit.to_owned());
        self.label(label, dataset.private)
    }

    /// Parent, country, the EU and the groups to rank among. An aggregate (the EU itself) is set
    /// against nothing; a code not of the classification is ranked among no one.
    fn comparators(&mut self, region: &RegionRow) -> Result<Comparators, Error> {
        let store = self.store;
        if region.classification == "aggregate" {
            return Ok(Comparators::default());
        }
        let classified = region.in_classification();
        let country = match &region.country_code {
            Some(code) if *code != region.code => store.region(code)?,
            _ => None,
        };
        let parent = match &region.parent_code {
            Some(code) if country.as_ref().is_none_or(|c| c.code != *code) => store.region(code)?,
            _ => None,
        };
        // A parent alone at its level in its country (CZ0 in CZ) is the country, as far as
        // figures go.
        let parent = match parent {
            Some(p) if self.alone_in_country(&p)? => None,
            parent => parent,
        };
        let family = match &parent {
            Some(parent) if classified => Some(Group::children(store, parent, region)?),
            _ => None,
        };
        let level = region.level.unwrap_or(0);
        let member = peers::is_eu_member(region.country_code.as_deref());
        let in_country = match (&country, level) {
            (Some(country), 1..) if classified => Some(Group::at_level(
                store,
                Among::Country(self.name_of(country)),
                level,
                Some(&country.code),
                &region.code,
            )?),
            _ => None,
        };
        let among = match (level, member) {
            (0, true) => Some(Among::MemberStates),
            (0, false) => Some(Among::Countries),
            (_, true) => Some(Among::Eu),
            (_, false) => None,
        };
        let across = match among.filter(|_| classified) {
            Some(among) => Some(Group::at_level(store, among, level, None, &region.code)?),
            None => None,
        };
        let parent = match (parent, &family) {
            // A region that is its parent's only child is its parent: nothing to compare.
            (Some(_), Some(family)) if family.others.is_empty() => None,
            (Some(parent), _) => {
                let named = self.name_of(&parent);
                Some((parent, named))
            }
            (None, _) => None,
        };
        let in_parent = family.filter(|f| !f.others.is_empty() && parent.is_some());
        // A region alone at its level in its country is the country, as far as figures go.
        let alone = in_country.as_ref().is_some_and(|g| g.others.is_empty());
        let country = country.filter(|_| !alone).map(|c| {
            let named = self.name_of(&c);
            (c, named)
        });
        Ok(Comparators {
            parent,
            country,
            eu: store.region(EU)?,
            in_country,
            in_parent,
            across,
        })
    }

    /// Whether `region` is the only one of its level in its country (extra-regio codes aside).
    fn alone_in_country(&self, region: &RegionRow) -> Result<bool, Error> {
        let (Some(level), Some(country)) = (region.level, region.country_code.as_deref()) else {
            return Ok(false);
        };
        let others = Group::at_level(
            self.store,
            Among::Countries,
            level,
            Some(country),
            &region.code,
        )?;
        Ok(others.others.is_empty())
    }

    /// "GDP in Oberbayern: 349,686.03 (Million euro) at current prices in 2023, estimated."
    fn latest(&mut self, text: &mut String, name: &str, fact: &Fact, newest: Option<i32>) {
        let own = fact.own();
        let value = self.book.direct(own).expect("stated rows have values");
        let unit_label = self.unit_label(&fact.dataset, &fact.unit);
        // A count needs no unit ("4,729,243", not "4,729,243 (Number)").
        let unit_note = if fact.unit == "NR" || unit_label.is_empty() {
            String::new()
        } else {
            format!(" ({unit_label})")
        };
        let prices = if fact.current_prices {
            " at current prices"
        } else {
            ""
        };
        let flags = wording::flag_note(self.catalogue, own);
        let stale = match (newest, year(&own.period)) {
            (Some(newest), Some(y)) if newest - y > STALE_YEARS => ", the latest available",
            _ => "",
        };
        text.push_str(&format!(
            "{} in {name}: {value}{unit_note}{prices} in {}{flags}{stale}.",
            fact.short, own.period
        ));
    }

    /// An index is growth since its base year: "It is 7.9 % more than in 2015, the base year of
    /// the index." Not stated where the series breaks since then.
    fn index_growth(&mut self, text: &mut String, fact: &Fact) {
        let Some(base) = series::index_base(&fact.unit) else {
            return;
        };
        let own = fact.own();
        if year(&own.period).is_none_or(|y| y <= i32::from(base)) {
            return;
        }
        let window = fact.window(&base.to_string(), &own.period);
        if let Some(breaks) = self.breaks_in(fact, &window) {
            text.push_str(&format!(
                " The series breaks in {breaks} (break in time series), so its growth since {base} is neither stated, ranked nor compared."
            ));
            return;
        }
        if let Some(reads) = self.growth(own, &window) {
            text.push_str(&format!(
                " It is {reads} than in {base}, the base year of the index."
            ));
        }
    }

    /// An index value's distance from its base year's 100, as the claim reads it ("7.9 %
    /// more"), carrying the flags of `window`.
    fn growth(&mut self, index: &ObsRow, window: &[&ObsRow]) -> Option<String> {
        let direction = if index.value > Some(100.0) {
            "more"
        } else {
            "less"
        };
        self.book.derived_reading(
            Operation::IndexChange,
            &[index],
            window,
            &format!("% {direction}"),
        )
    }

    /// The breaks in series among `window` (values flagged b), recorded and named ("2020",
    /// "2018 and 2020"); None when there are none.
    fn breaks_in(&mut self, fact: &Fact, window: &[&ObsRow]) -> Option<String> {
        let breaks: Vec<&&ObsRow> = window.iter().filter(|r| r.flags.contains('b')).collect();
        if breaks.is_empty() {
            return None;
        }
        for b in &breaks {
            let known = self
                .breaks
                .iter()
                .any(|k| k.citation == b.citation_id.as_str());
            if !known {
                self.breaks.push(Break {
                    dataset: fact.dataset.code.clone(),
                    period: b.period.to_string(),
                    citation: b.citation_id.to_string(),
                });
            }
        }
        let periods: Vec<String> = breaks.iter().map(|b| b.period.to_string()).collect();
        Some(listed(&periods, periods.len()))
    }

    /// "That is 3.2 % more than in 2017 (4,582,000)." over five years for annual data, over a
    /// year (from the same quarter, half or month) for data within the year, and within the
    /// stretch after the last break in series; or why no change is stated.
    fn change(&mut self, text: &mut String, fact: &Fact) {
        let own = fact.own();
        let Some(earlier) = fact.base_of_change() else {
            return;
        };
        if own.is_unreliable() {
            text.push_str(&format!(
                " As it is {}, no change over time is stated.",
                wording::unreliable_because(own)
            ));
            return;
        }
        if earlier.is_unreliable() {
            let value = self.book.direct(earlier).expect("stated rows have values");
            text.push_str(&format!(
                " The figure for {} ({value}) is {}, so no change over time is stated.",
                earlier.period,
                wording::unreliable_because(earlier)
            ));
            return;
        }
        let window = fact.window(&earlier.period, &own.period);
        let Some(breaks) = self.breaks_in(fact, &window) else {
            return self.change_since(text, fact, earlier, &window, "");
        };
        let last_break = window
            .iter()
            .rfind(|r| r.flags.contains('b'))
            .expect("a break was found")
            .period
            .clone();
        // The comparable stretch: the values after the last break (for data within the year,
        // none: its change is over a year).
        let first = fact.rows[..fact.latest]
            .iter()
            .filter(|r| stated(r) && !r.is_unreliable() && !sub_annual(&r.period))
            .find(|r| r.period > last_break);
        match first {
            Some(first) => {
                let window = fact.window(&first.period, &own.period);
                let opening = format!(
                    " The series breaks in {breaks} (break in time series), so it is compared only from {} on:",
                    first.period
                );
                self.change_since(text, fact, first, &window, &opening);
            }
            None => text.push_str(&format!(
                " The series breaks in {breaks} (break in time series), so no comparable change can be given."
            )),
        }
    }

    /// The change from `earlier` to the latest value, after `opening` (which then starts the
    /// sentence).
    fn change_since(
        &mut self,
        text: &mut String,
        fact: &Fact,
        earlier: &ObsRow,
        window: &[&ObsRow],
        opening: &str,
    ) {
        let own = fact.own();
        // The change first: where it cannot be computed, neither it nor its base is stated.
        let Some(reading) = self.relative(earlier, own, &fact.unit, window, ("more", "less"))
        else {
            return;
        };
        let before = self.book.direct(earlier).expect("stated rows have values");
        let period = &earlier.period;
        let lead = if opening.is_empty() {
            " That is".to_owned()
        } else {
            format!("{opening} it is")
        };
        match reading {
            Reading::By(reads) => {
                text.push_str(&format!("{lead} {reads} than in {period} ({before})."))
            }
            Reading::Times(reads) => text.push_str(&format!(
                "{lead} {reads} the figure for {period} ({before})."
            )),
            Reading::Same => {
                let lead = if opening.is_empty() {
                    " It".to_owned()
                } else {
                    format!("{opening} it")
                };
                text.push_str(&format!(
                    "{lead} was about the same in {period} ({before})."
                ))
            }
        }
    }

    /// How `later` stands against `base`, as a claim the text must read so: "2.1 % more",
    /// "0.8 percentage points less", "9.7 times", or a plain difference ("3.5 more") where a
    /// percentage of the base would mislead (a base at or below zero). None where it cannot be
    /// computed (a gap past the largest double).
    fn relative(
        &mut self,
        base: &ObsRow,
        later: &ObsRow,
        unit: &str,
        window: &[&ObsRow],
        (up, down): (&str, &str),
    ) -> Option<Reading> {
        let (a, b) = (base.value?, later.value?);
        let direction = if b > a { up } else { down };
        let (operation, words) = match additive(unit) {
            Some(words) => (Operation::Difference, format!("{words} {direction}")),
            None if a <= 0.0 || b < 0.0 => (Operation::Difference, direction.to_owned()),
            None if b / a >= TIMES_FROM => (Operation::Ratio, "times".to_owned()),
            None => (Operation::PercentChange, format!("% {direction}")),
        };
        let reads = self
            .book
            .derived_reading(operation, &[base, later], window, &words)?;
        if self.book.claims.last().is_some_and(|c| c.value == 0.0) {
            self.book.take_back();
            return Some(Reading::Same);
        }
        Some(match operation {
            Operation::Ratio => Reading::Times(reads),
            _ => Reading::By(reads),
        })
    }
}

/// A period within a year (`2023-Q1`, `2023-S1`, `2023-07`).
fn sub_annual(period: &str) -> bool {
    period.contains('-')
}

mod standing;
#[cfg(test)]
mod tests;
