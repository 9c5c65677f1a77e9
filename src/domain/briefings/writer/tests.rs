//! The writer's rules, each on constructed series: a small Germany (two NUTS 1 regions, eleven
//! NUTS 2), a France whose Ile-de-France is its NUTS 1 region's only child, and the EU aggregate.

use std::collections::HashMap;
use std::sync::Arc;

use super::super::verify::{self, Author, CitedRow};
use super::super::{Draft, Section};
use super::*;
use crate::store::datasets::SeriesRow;

/// Regions, series and rows the writer reads.
#[derive(Default)]
struct Fixture {
    regions: Vec<Arc<RegionRow>>,
    rows: HashMap<(String, i64), Vec<ObsRow>>,
    series: HashMap<i64, Vec<SeriesRow>>,
    units: HashMap<i64, String>,
}

fn region(code: &str, name: &str, level: i64, parent: Option<&str>) -> RegionRow {
    RegionRow {
        level: Some(level),
        parent_code: parent.map(str::to_owned),
        country_code: Some(code[..2].to_owned()),
        ..RegionRow::sample(code, name)
    }
}

impl Fixture {
    fn new() -> Fixture {
        let mut f = Fixture::default();
        let mut add = |r: RegionRow| f.regions.push(Arc::new(r));
        add(region("DE", "Deutschland", 0, None));
        add(region("DE1", "Baden-Württemberg", 1, Some("DE")));
        add(region("DE2", "Bayern", 1, Some("DE")));
        for (i, name) in ["Stuttgart", "Karlsruhe", "Freiburg", "Tübingen"]
            .iter()
            .enumerate()
        {
            add(region(&format!("DE1{}", i + 1), name, 2, Some("DE1")));
        }
        for (i, name) in [
            "Oberbayern",
            "Niederbayern",
            "Oberpfalz",
            "Oberfranken",
            "Mittelfranken",
            "Unterfranken",
            "Schwaben",
        ]
        .iter()
        .enumerate()
        {
            add(region(&format!("DE2{}", i + 1), name, 2, Some("DE2")));
        }
        add(region("FR", "France", 0, None));
        add(region("FR1", "Ile-de-France", 1, Some("FR")));
        add(region("FR10", "Ile-de-France", 2, Some("FR1")));
        add(region("FRC", "Bourgogne-Franche-Comté", 1, Some("FR")));
        add(region("FRC1", "Bourgogne", 2, Some("FRC")));
        add(region("FRC2", "Franche-Comté", 2, Some("FRC")));
        add(RegionRow {
            level: None,
            country_code: None,
            classification: "aggregate".into(),
            ..RegionRow::sample("EU27_2020", "European Union - 27 countries (from 2020)")
        });
        f
    }

    /// A series `id` of `dataset` in `unit` (its headline series unless another of the dataset
    /// is).
    fn series(&mut self, dataset: i64, id: i64, unit: &str) {
        self.series.entry(dataset).or_default().push(SeriesRow {
            id,
            unit: unit.into(),
            dims: String::new(),
            obs_count: 0,
            region_count: 0,
            period_min: None,
            period_max: None,
        });
        self.units.insert(id, unit.into());
    }

    /// `region`'s rows of series `series`: (period, value as published, flags).
    fn put(&mut self, region: &str, series: i64, rows: &[(&str, &str, &str)]) {
        let rows = rows
            .iter()
            .map(|(period, text, flags)| ObsRow {
                citation_id: crate::citation_id::CitationId::new(&format!(
                    "cit_{region}_{series}_{period}"
                ))
                .unwrap(),
                series_id: series,
                period: (*period).into(),
                value: text.parse().ok(),
                value_text: (*text).into(),
                flags: (*flags).into(),
                conf_status: Default::default(),
                snapshot_id: 1,
            })
            .collect();
        self.rows.insert((region.to_owned(), series), rows);
    }

    /// One value at `period` for each of `regions`.
    fn put_at(&mut self, series: i64, period: &str, values: &[(&str, &str)]) {
        for (region, value) in values {
            self.put(region, series, &[(period, value, "")]);
        }
    }

    /// The writer's draft for `code`, and its verification (which must pass).
    fn write(&self, code: &str, kind: &str, datasets: &[&DatasetRow]) -> Option<Draft> {
        let catalogue = Catalogue::bundled();
        let region = Source::region(self, code).unwrap().unwrap();
        let datasets: Vec<Arc<DatasetRow>> =
            datasets.iter().map(|d| Arc::new((*d).clone())).collect();
        let draft = write(self, &catalogue, &region, kind, &datasets).unwrap()?;
        let mut rows = |id: &str| -> Result<Option<CitedRow>, Error> {
            Ok(self
                .rows
                .values()
                .flatten()
                .find(|r| r.citation_id.as_str() == id)
                .map(|r| CitedRow {
                    period: r.period.to_string(),
                    region: id.split('_').nth(1).unwrap().to_owned(),
                    // Names serve only the checks of a model's text (`Author::Model`).
                    region_name: String::new(),
                    value: r.value,
                    value_text: r.value_text.to_string(),
                    unit: self.units[&r.series_id].clone(),
                    flags: r.flags.to_string(),
                    conf_status: r.conf_status.to_string(),
                }))
        };
        let checked = verify::verify(
            &mut rows,
            &draft.sections,
            &draft.claims,
            &draft.labels,
            &draft.breaks,
            Author::Writer,
        )
        .unwrap();
        if let Err(why) = checked {
            panic!("{why}: {:?}", draft.sections);
        }
        Some(draft)
    }
}

impl Source for Fixture {
    fn region(&self, code: &str) -> Result<Option<Arc<RegionRow>>, Error> {
        Ok(self.regions.iter().find(|r| r.code == code).cloned())
    }

    fn subregions(&self, code: &str) -> Result<Vec<RegionRow>, Error> {
        Ok((self.regions.iter())
            .filter(|r| r.parent_code.as_deref() == Some(code))
            .map(|r| RegionRow::clone(r))
            .collect())
    }

    fn regions_at(&self, level: i64, country: Option<&str>) -> Result<Vec<Arc<RegionRow>>, Error> {
        Ok((self.regions.iter())
            .filter(|r| r.level == Some(level))
            .filter(|r| country.is_none_or(|c| r.country_code.as_deref() == Some(c)))
            .cloned()
            .collect())
    }

    fn series_rows(&self, region: &str, series_id: i64) -> Result<Vec<ObsRow>, Error> {
        Ok(self
            .rows
            .get(&(region.to_owned(), series_id))
            .cloned()
            .unwrap_or_default())
    }

    fn value_at(
        &self,
        region: &str,
        series_id: i64,
        period: &str,
    ) -> Result<Option<ObsRow>, Error> {
        Ok(self
            .series_rows(region, series_id)?
            .into_iter()
            .find(|r| r.period == period))
    }

    fn series_of(&self, dataset_id: i64) -> Result<Arc<[SeriesRow]>, Error> {
        Ok(self
            .series
            .get(&dataset_id)
            .cloned()
            .unwrap_or_default()
            .into())
    }
}

fn text(draft: &Draft) -> String {
    draft
        .sections
        .iter()
        .map(|s: &Section| s.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

const DE_NUTS2: [&str; 11] = [
    "DE11", "DE12", "DE13", "DE14", "DE21", "DE22", "DE23", "DE24", "DE25", "DE26", "DE27",
];

/// Unemployment (PC) for the German NUTS 2 regions at 2024, Oberbayern's series over time.
fn unemployment(oberbayern: &[(&str, &str, &str)]) -> (Fixture, DatasetRow) {
    let mut f = Fixture::new();
    f.series(1, 1, "PC");
    let values = [
        "3.1", "2.2", "2.9", "3.4", "-", "2.0", "2.5", "2.8", "2.6", "2.4", "3.0",
    ];
    for (code, value) in DE_NUTS2.iter().zip(values) {
        if *code != "DE21" {
            f.put(code, 1, &[("2024", value, "")]);
        }
    }
    f.put("DE21", 1, oberbayern);
    let dataset = DatasetRow::sample(1, "tgs00010", "labour market", "Unemployment rate", "PC", 1);
    (f, dataset)
}

#[test]
fn a_change_across_a_break_in_series_is_never_stated() {
    // Five years back lies 2019; the series breaks in 2020 (a survey redesign).
    let series = [
        ("2018", "1.8", ""),
        ("2019", "1.9", ""),
        ("2020", "2.4", "b"),
        ("2021", "2.5", ""),
        ("2022", "2.3", "p"),
        ("2023", "2.6", ""),
        ("2024", "2.7", ""),
    ];
    let (f, dataset) = unemployment(&series);
    let draft = f.write("DE21", "labour_market", &[&dataset]).unwrap();
    let said = text(&draft);
    assert!(!said.contains("than in 2019"), "{said}");
    assert!(
        said.contains(
            "The series breaks in 2020 (break in time series), so it is compared only from 2021 on: it is 0.2 percentage points more than in 2021 (2.5)."
        ),
        "{said}"
    );
    assert_eq!(draft.breaks.len(), 1);
    assert_eq!(draft.breaks[0].citation, "cit_DE21_1_2020");
    // The change carries the flags of every value in its window.
    let change = draft
        .claims
        .iter()
        .find(|c| c.operation.as_deref() == Some("difference"))
        .unwrap();
    let flags: Vec<(&str, &str)> = change
        .flags
        .iter()
        .map(|f| (f.period.as_str(), f.code.as_str()))
        .collect();
    assert_eq!(flags, [("2022", "p")]);

    // A break at the latest period leaves nothing comparable.
    let mut broken = series;
    broken[6].2 = "b";
    let (f, dataset) = unemployment(&broken);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("so no comparable change can be given"),
        "{said}"
    );
    assert!(!said.contains("than in 20"), "{said}");

    // Without a break, the change over five years is stated.
    let mut whole = series;
    whole[2].2 = "";
    let (f, dataset) = unemployment(&whole);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("That is 0.8 percentage points more than in 2019 (1.9)."),
        "{said}"
    );
}

#[test]
fn an_index_reads_as_growth_since_its_base_year_and_compares_only_as_growth() {
    let mut f = Fixture::new();
    f.series(2, 2, "I15");
    f.put("DE21", 2, &[("2018", "104.8", ""), ("2023", "107.9", "p")]);
    f.put("DE", 2, &[("2015", "100.0", ""), ("2023", "109.7", "")]);
    f.put("EU27_2020", 2, &[("2023", "114.5", "")]);
    let dataset = DatasetRow::sample(
        2,
        "nama_10r_2gvagr",
        "economy",
        "Real gross value added (index 2015=100)",
        "I15",
        2,
    );
    let draft = f.write("DE21", "economy", &[&dataset]).unwrap();
    let said = text(&draft);
    assert!(
        said.contains("It is 7.9 % more than in 2015, the base year of the index."),
        "{said}"
    );
    assert!(
        said.contains("In Deutschland it is 9.7 % more than in 2015 (109.7)."),
        "{said}"
    );
    assert!(
        said.contains("In the EU it is 14.5 % more than in 2015 (114.5)."),
        "{said}"
    );
    assert!(
        !said.contains("above it") && !said.contains("below it"),
        "no level gap: {said}"
    );
}

#[test]
fn ranks_are_among_the_countrys_regions_of_the_level_with_the_parents_beside_them() {
    let (mut f, dataset) = unemployment(&[("2024", "2.7", "")]);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    // Of the ten others, five are higher and five lower.
    assert!(
        said.contains(
            "Of the 11 NUTS 2 regions of Deutschland, Oberbayern has the sixth-highest unemployment rate."
        ),
        "{said}"
    );
    // Bayern has six other regions: a rank among them too.
    assert!(
        said.contains(
            "Of the 7 regions of Bayern, Oberbayern has the third-highest unemployment rate."
        ),
        "{said}"
    );
    // A region without a figure: the count says "with a figure".
    f.rows.remove(&("DE27".to_owned(), 1));
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "Of the 10 NUTS 2 regions of Deutschland with a figure for 2024, Oberbayern has the fifth-highest unemployment rate."
        ),
        "{said}"
    );

    // A parent with two other children: no rank among them.
    let mut f = Fixture::new();
    f.series(1, 1, "PC");
    f.put_at(
        1,
        "2024",
        &[
            ("FRC1", "6.1"),
            ("FRC2", "5.2"),
            ("FR10", "8.0"),
            ("FRC", "5.7"),
        ],
    );
    let dataset = DatasetRow::sample(1, "tgs00010", "labour market", "Unemployment rate", "PC", 1);
    let said = text(&f.write("FRC1", "labour_market", &[&dataset]).unwrap());
    assert!(
        !said.contains("regions of Bourgogne-Franche-Comté"),
        "{said}"
    );
    assert!(
        said.contains("The figure for Bourgogne-Franche-Comté is 5.7"),
        "{said}"
    );

    // Ile-de-France is its parent's only child: never compared with it.
    let said = text(&f.write("FR10", "labour_market", &[&dataset]).unwrap());
    assert!(!said.contains("for Ile-de-France"), "{said}");
}

#[test]
fn ranks_say_their_direction_their_ties_and_ratios_read_as_times() {
    let mut f = Fixture::new();
    f.series(1, 1, "PC");
    f.put_at(
        1,
        "2024",
        &[
            ("DE11", "3.1"),
            ("DE12", "2.2"),
            ("DE13", "2.9"),
            ("DE14", "3.4"),
            ("DE21", "3.1"),
            ("DE22", "2.0"),
            ("DE23", "2.5"),
            ("DE24", "2.8"),
            ("DE25", "2.6"),
            ("DE26", "2.4"),
            ("DE27", "1.9"),
        ],
    );
    let dataset = DatasetRow::sample(1, "tgs00010", "labour market", "Unemployment rate", "PC", 1);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "Of the 11 NUTS 2 regions of Deutschland, Oberbayern has the second-highest unemployment rate (tied with Stuttgart)."
        ),
        "{said}"
    );
    let said = text(&f.write("DE27", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("Schwaben has the lowest unemployment rate."),
        "{said}"
    );

    let mut f = Fixture::new();
    f.series(3, 3, "PER_KM2");
    f.put_at(3, "2022", &[("DE21", "1032.4"), ("DE2", "106.9")]);
    let dataset = DatasetRow::sample(
        3,
        "demo_r_d3dens",
        "demography",
        "Population density",
        "PER_KM2",
        3,
    );
    let said = text(&f.write("DE21", "demography", &[&dataset]).unwrap());
    assert!(
        said.contains("The figure for Bayern is 106.9; Oberbayern's is 9.7 times as high."),
        "{said}"
    );
}

#[test]
fn values_of_low_reliability_are_neither_ranked_nor_compared_without_a_word() {
    let (mut f, dataset) = unemployment(&[("2024", "2.7", "")]);
    f.put("DE22", 1, &[("2024", "2.2", "u")]);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "Of the 10 NUTS 2 regions of Deutschland with a reliable figure for 2024, Oberbayern has the fifth-lowest unemployment rate."
        ),
        "{said}"
    );
    assert!(
        said.contains(
            "Left out of that ranking as of low reliability or confidential: Niederbayern."
        ),
        "{said}"
    );
    let (f, dataset) = unemployment(&[("2024", "2.7", "u")]);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "2.7 (Percentage) in 2024, low reliability. Its figure is of low reliability, so it is neither ranked nor compared."
        ),
        "{said}"
    );
    assert!(!said.contains("Of the"), "{said}");
}

#[test]
fn stale_years_current_prices_and_euro_across_countries_are_named() {
    let mut f = Fixture::new();
    f.series(4, 4, "EUR_HAB");
    f.series(4, 5, "PPS_EU27_2020_HAB");
    f.put_at(
        4,
        "2022",
        &[
            ("DE21", "67200"),
            ("DE2", "54000"),
            ("DE", "46300"),
            ("EU27_2020", "35400"),
        ],
    );
    f.put_at(5, "2022", &[("DE21", "61200"), ("EU27_2020", "35400")]);
    f.series(6, 6, "EUR_HAB");
    f.put_at(
        6,
        "2013",
        &[
            ("DE21", "24900.00"),
            ("DE", "20800.00"),
            ("EU27_2020", "16000.00"),
        ],
    );
    let gdp = DatasetRow::sample(
        4,
        "nama_10r_3gdp",
        "economy",
        "GDP per inhabitant",
        "EUR_HAB",
        4,
    );
    let income = DatasetRow::sample(
        6,
        "nama_10r_2hhinc",
        "economy",
        "Net disposable household income per inhabitant",
        "EUR_HAB",
        6,
    );
    let draft = f.write("DE21", "economy", &[&gdp, &income]).unwrap();
    let gdp = &draft.sections[0].text;
    assert!(
        gdp.contains("67,200 (Euro per inhabitant) at current prices in 2022."),
        "{gdp}"
    );
    assert!(
        gdp.contains(
            "Across countries, in purchasing power standards (Purchasing power standard (PPS, EU27 from 2020), per inhabitant), which adjust for price levels, Oberbayern's figure for 2022 is 61,200."
        ),
        "{gdp}"
    );
    assert!(
        gdp.contains("The figure for the EU in purchasing power standards is 35,400; Oberbayern is 72.9 % above it."),
        "{gdp}"
    );
    // Within the country, euro compare as they are.
    assert!(
        gdp.contains("The figure for Deutschland is 46,300;"),
        "{gdp}"
    );
    let income = &draft.sections[1].text;
    assert!(
        income.contains(
            "24,900.00 (Euro per inhabitant) at current prices in 2013, the latest available."
        ),
        "{income}"
    );
    assert!(
        income.contains(
            "The figure for the EU (in euro, not adjusted for price levels) is 16,000.00;"
        ),
        "{income}"
    );
}

#[test]
fn a_type_without_figures_for_the_region_has_nothing_to_say() {
    let (f, dataset) = unemployment(&[("2024", "2.7", "")]);
    assert!(f.write("DE21", "health", &[&dataset]).is_none());
    assert!(f.write("FR10", "labour_market", &[&dataset]).is_none());
}

impl Fixture {
    fn add(&mut self, region: RegionRow) {
        self.regions.push(Arc::new(region));
    }

    /// Changes the region `code` in place.
    fn edit(&mut self, code: &str, change: impl FnOnce(&mut RegionRow)) {
        let region = self.regions.iter_mut().find(|r| r.code == code).unwrap();
        change(Arc::make_mut(region));
    }
}

/// The fixture's unemployment with a figure for Ile-de-France and Bourgogne too: 13 of the EU's
/// 14 NUTS 2 regions.
fn unemployment_in_the_eu() -> (Fixture, DatasetRow) {
    let (mut f, dataset) = unemployment(&[("2024", "2.7", "")]);
    f.put_at(1, "2024", &[("FR10", "8.0"), ("FRC1", "6.1")]);
    (f, dataset)
}

#[test]
fn a_rank_among_the_eus_regions_needs_four_fifths_of_them() {
    let (f, dataset) = unemployment_in_the_eu();
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "Of the 13 NUTS 2 regions of EU member states with a figure for 2024, Oberbayern has the sixth-lowest unemployment rate."
        ),
        "{said}"
    );
    // Germany's 11 alone are under four fifths of the 14: ranked among whoever reports.
    let (f, dataset) = unemployment(&[("2024", "2.7", "")]);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(!said.contains("EU member states"), "{said}");
}

#[test]
fn ranks_count_the_regions_of_the_datasets_nuts_edition() {
    // Schwaben is new in NUTS 2024; "Alt-Schwaben" was dropped from it. A dataset of mixed
    // codes has as many of either: it counts in 2024, without the code it replaced.
    let (mut f, mut dataset) = unemployment(&[("2024", "2.7", "")]);
    f.edit("DE27", |r| r.in_nuts2021 = false);
    f.add(RegionRow {
        in_nuts2024: false,
        ..region("DE28", "Alt-Schwaben", 2, Some("DE2"))
    });
    f.put("DE28", 1, &[("2024", "9.9", "")]);
    dataset.nuts_edition = Some("mixed".into());
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("Of the 11 NUTS 2 regions of Deutschland, Oberbayern"),
        "{said}"
    );
    assert!(!said.contains("Alt-Schwaben"), "{said}");
    // So does an account's own dataset, whose edition regintel does not know.
    dataset.nuts_edition = None;
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("Of the 11 NUTS 2 regions of Deutschland, Oberbayern"),
        "{said}"
    );
    dataset.nuts_edition = Some("mixed".into());
    // The dropped code itself is ranked among no one: it would stand beside its successor.
    let said = text(&f.write("DE28", "labour_market", &[&dataset]).unwrap());
    assert!(!said.contains("Of the"), "{said}");

    // Of Bayern's seven, only three are of the dataset's edition: too few to rank among.
    let (mut f, dataset) = unemployment(&[("2024", "2.7", "")]);
    for code in ["DE23", "DE24", "DE25", "DE26"] {
        f.edit(code, |r| r.in_nuts2021 = false);
    }
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(!said.contains("regions of Bayern"), "{said}");
    assert!(
        said.contains("Of the 7 NUTS 2 regions of Deutschland, Oberbayern"),
        "{said}"
    );
}

#[test]
fn a_country_is_ranked_among_the_member_states_and_a_non_member_among_countries() {
    let mut f = Fixture::new();
    f.add(region("AT", "Österreich", 0, None));
    f.add(region("BE", "Belgique", 0, None));
    f.add(region("CH", "Schweiz", 0, None));
    f.series(1, 1, "PC");
    f.put_at(
        1,
        "2024",
        &[
            ("DE", "3.4"),
            ("FR", "7.4"),
            ("AT", "5.2"),
            ("BE", "5.7"),
            ("CH", "4.1"),
        ],
    );
    let dataset = DatasetRow::sample(1, "tgs00010", "labour market", "Unemployment rate", "PC", 1);
    let said = text(&f.write("DE", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("Of the 4 EU member states, Deutschland has the lowest unemployment rate."),
        "{said}"
    );
    let said = text(&f.write("CH", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "Of the 5 countries with a figure for 2024, Schweiz has the second-lowest unemployment rate."
        ),
        "{said}"
    );
}

#[test]
fn a_confidential_value_is_neither_ranked_nor_compared() {
    let (mut f, dataset) = unemployment(&[("2024", "2.7", "")]);
    f.rows.get_mut(&("DE22".to_owned(), 1)).unwrap()[0].conf_status = "C".into();
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "Left out of that ranking as of low reliability or confidential: Niederbayern."
        ),
        "{said}"
    );
    let said = text(&f.write("DE22", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("Its figure is confidential, so it is neither ranked nor compared."),
        "{said}"
    );
}

#[test]
fn national_currencies_are_compared_within_the_country_only() {
    let (mut f, _) = unemployment_in_the_eu();
    f.units.insert(1, "NAC_HAB".into());
    f.series.clear();
    f.series(1, 1, "NAC_HAB");
    f.put_at(1, "2024", &[("EU27_2020", "3.0"), ("DE", "2.9")]);
    let dataset = DatasetRow::sample(1, "own_nac", "labour market", "Income", "NAC_HAB", 1);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(said.contains("NUTS 2 regions of Deutschland"), "{said}");
    assert!(said.contains("The figure for Deutschland is 2.9"), "{said}");
    assert!(
        !said.contains("EU member states") && !said.contains("the EU"),
        "{said}"
    );
}

#[test]
fn an_index_ranks_only_among_series_without_a_break_since_the_base_year() {
    let mut f = Fixture::new();
    f.series(2, 2, "I15");
    for (code, value) in DE_NUTS2.iter().zip([
        "104.1", "101.0", "99.5", "103.3", "107.9", "100.2", "102.0", "98.7", "105.5", "101.9",
        "100.8",
    ]) {
        f.put(code, 2, &[("2023", value, "")]);
    }
    f.put("DE11", 2, &[("2019", "100.4", "b"), ("2023", "104.1", "")]);
    let dataset = DatasetRow::sample(2, "nama_10r_2gvagr", "economy", "Real GVA", "I15", 2);
    let said = text(&f.write("DE21", "economy", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "Of the 10 NUTS 2 regions of Deutschland with a comparable figure for 2023, Oberbayern has the highest growth since 2015 in real GVA."
        ),
        "{said}"
    );
    assert!(
        said.contains("Left out of that ranking as their series break since 2015: Stuttgart."),
        "{said}"
    );
    // Its own series breaking: no growth, no rank, and why.
    let said = text(&f.write("DE11", "economy", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "The series breaks in 2019 (break in time series), so its growth since 2015 is neither stated, ranked nor compared."
        ),
        "{said}"
    );
    assert!(!said.contains("Of the"), "{said}");
}

#[test]
fn a_region_or_parent_alone_at_its_level_is_its_country() {
    let mut f = Fixture::new();
    f.add(region("LU", "Luxembourg", 0, None));
    f.add(region("LU0", "Luxembourg (NUTS 1)", 1, Some("LU")));
    f.add(region("LU00", "Luxembourg (NUTS 2)", 2, Some("LU0")));
    f.add(region("CZ", "Czechia", 0, None));
    f.add(region("CZ0", "Cesko", 1, Some("CZ")));
    for (code, name) in [
        ("CZ01", "Praha"),
        ("CZ02", "Stredni Cechy"),
        ("CZ03", "Jihozapad"),
        ("CZ04", "Severozapad"),
    ] {
        f.add(region(code, name, 2, Some("CZ0")));
    }
    f.series(1, 1, "PC");
    f.put_at(
        1,
        "2024",
        &[
            ("LU", "5.8"),
            ("LU0", "5.8"),
            ("LU00", "5.8"),
            ("CZ", "2.8"),
            ("CZ0", "2.8"),
            ("CZ01", "1.6"),
            ("CZ02", "2.0"),
            ("CZ03", "2.4"),
            ("CZ04", "4.1"),
        ],
    );
    let dataset = DatasetRow::sample(1, "tgs00010", "labour market", "Unemployment rate", "PC", 1);
    let said = text(&f.write("LU00", "labour_market", &[&dataset]).unwrap());
    assert!(!said.contains("Luxembourg (NUTS 1)"), "{said}");
    assert!(!said.contains("The figure for Luxembourg"), "{said}");
    assert!(!said.contains("Of the"), "{said}");
    // Cesko is Czechia's only NUTS 1 region: Praha is set against Czechia, once.
    let said = text(&f.write("CZ01", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "Of the 4 NUTS 2 regions of Czechia, Praha has the lowest unemployment rate."
        ),
        "{said}"
    );
    assert!(said.contains("The figure for Czechia is 2.8"), "{said}");
    assert!(!said.contains("Cesko"), "{said}");
}

#[test]
fn the_eu_aggregate_is_set_against_nothing() {
    let (mut f, dataset) = unemployment_in_the_eu();
    f.put("EU27_2020", 1, &[("2019", "6.7", ""), ("2024", "5.9", "")]);
    let draft = f.write("EU27_2020", "labour_market", &[&dataset]).unwrap();
    let said = text(&draft);
    assert!(
        said.contains("That is 0.8 percentage points less than in 2019 (6.7)."),
        "{said}"
    );
    assert!(
        !said.contains("Of the") && !said.contains("the EU"),
        "{said}"
    );
}

#[test]
fn no_change_is_stated_from_or_to_a_value_of_low_reliability() {
    let (f, dataset) = unemployment(&[("2019", "1.9", "u"), ("2024", "2.7", "")]);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "The figure for 2019 (1.9) is of low reliability, so no change over time is stated."
        ),
        "{said}"
    );
    assert!(!said.contains("than in 2019"), "{said}");
    let (f, dataset) = unemployment(&[("2019", "1.9", ""), ("2024", "2.7", "u")]);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains(
            "2.7 (Percentage) in 2024, low reliability. As it is of low reliability, no change over time is stated."
        ),
        "{said}"
    );
}

#[test]
fn annual_data_changes_over_five_years_whatever_the_gaps() {
    // Every second year up to 2020, then 2024: five years back is 2019, the first value from
    // then on is 2020's (the fifth value back would be 2012's, twelve years).
    let mut series: Vec<(&str, &str, &str)> = ["2010", "2012", "2014", "2016", "2018", "2020"]
        .iter()
        .map(|y| (*y, "2.0", ""))
        .collect();
    series.push(("2024", "2.7", ""));
    let (f, dataset) = unemployment(&series);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("That is 0.7 percentage points more than in 2020 (2.0)."),
        "{said}"
    );
}

#[test]
fn data_within_the_year_changes_over_a_year() {
    let quarters = [
        ("2023-Q1", "1.0", ""),
        ("2023-Q2", "1.4", ""),
        ("2023-Q3", "0.2", ""),
        ("2023-Q4", "-1.5", ""),
        ("2024-Q1", "2.5", "p"),
    ];
    let (f, dataset) = unemployment(&quarters);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("That is 1.5 percentage points more than in 2023-Q1 (1.0)."),
        "{said}"
    );
    // Without the same quarter a year before, no change: not one against the last quarter.
    let (f, dataset) = unemployment(&quarters[1..]);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(!said.contains("than in 2023"), "{said}");
    // A break within the year leaves nothing comparable.
    let mut broken = quarters;
    broken[2].2 = "b";
    let (f, dataset) = unemployment(&broken);
    let said = text(&f.write("DE21", "labour_market", &[&dataset]).unwrap());
    assert!(
        said.contains("The series breaks in 2023-Q3 (break in time series), so no comparable change can be given."),
        "{said}"
    );
}
