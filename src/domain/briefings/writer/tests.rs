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
                citation_id: crate::citation::CitationId::new(&format!(
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
