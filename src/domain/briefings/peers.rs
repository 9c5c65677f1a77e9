//! The regions a region is ranked among: those of its NUTS level in its country, those of its
//! level in the EU's member states (for a country: the member states, or all countries), and
//! its parent's other children; each counted in the NUTS edition of the dataset, so that codes of
//! an earlier edition do not count twice.

use std::sync::Arc;

use super::source::Source;
use crate::domain::Error;
use crate::domain::regions::is_extra_regio;
use crate::store::observations::ObsRow;
use crate::store::regions::RegionRow;

/// The EU's member states, as Eurostat codes them (EL for Greece).
pub const EU27: [&str; 27] = [
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// Of the regions a group could rank, the share that must have a value before a rank among the
/// EU's is stated: fewer, and it would rank among whichever countries happen to report.
const EU_COVERAGE: f64 = 0.8;

pub fn is_eu_member(country: Option<&str>) -> bool {
    country.is_some_and(|c| EU27.contains(&c))
}

/// Whom a group holds, for the sentence that ranks among it.
#[derive(Debug, Clone, PartialEq)]
pub enum Among {
    /// The regions of the region's level in its country (named).
    Country(String),
    /// The regions of the region's level in the EU's member states.
    Eu,
    /// The EU's member states.
    MemberStates,
    /// Every country with a figure.
    Countries,
    /// The parent's children (the parent named).
    Parent(String),
}

/// Regions a region may be ranked among.
pub struct Group {
    pub among: Among,
    pub level: i64,
    /// Every region of the group but the region itself.
    pub others: Vec<Arc<RegionRow>>,
}

impl Group {
    /// The regions at `level` of `country` (every country when None), or of the EU's member
    /// states, without extra-regio codes and without `own`: only regions of the classification,
    /// so that codes of an earlier edition, aggregates and an account's own codes are neither
    /// ranked among nor read (an account may upload ten thousand).
    pub fn at_level(
        store: &dyn Source,
        among: Among,
        level: i64,
        country: Option<&str>,
        own: &str,
    ) -> Result<Group, Error> {
        let eu = matches!(among, Among::Eu | Among::MemberStates);
        let others = store
            .regions_at(level, country)?
            .into_iter()
            .filter(|r| {
                r.code != own
                    && !is_extra_regio(&r.code)
                    && r.in_classification()
                    && (!eu || is_eu_member(r.country_code.as_deref()))
            })
            .collect();
        Ok(Group {
            among,
            level,
            others,
        })
    }

    /// The children of a parent of the classification, without extra-regio codes and without
    /// `own`.
    pub fn children(
        store: &dyn Source,
        parent: &RegionRow,
        own: &RegionRow,
    ) -> Result<Group, Error> {
        let others = store
            .subregions(&parent.code)?
            .into_iter()
            .filter(|r| r.code != own.code && !is_extra_regio(&r.code) && r.in_classification())
            .map(Arc::new)
            .collect();
        Ok(Group {
            among: Among::Parent(parent.name().unwrap_or(&parent.code).to_owned()),
            level: own.level.unwrap_or(0),
            others,
        })
    }
}

/// A group's values at one period: what a rank is computed from, and what was left out.
pub struct Ranked {
    /// The region's own row first, then each other region's usable one.
    pub rows: Vec<ObsRow>,
    /// The region each row of `rows` is of (None for the region itself).
    pub regions: Vec<Option<Arc<RegionRow>>>,
    /// Regions with a value of low reliability or a confidential one, left out.
    pub excluded: Vec<Arc<RegionRow>>,
    /// Regions whose series breaks within the window a rank compares over (an index since its
    /// base year), left out.
    pub broken: Vec<Arc<RegionRow>>,
    /// Regions of the group (the region among them) in the dataset's NUTS edition; None where
    /// the edition is not one regintel ships.
    pub total: Option<usize>,
}

impl Ranked {
    /// Every region of the edition has a usable value: "of the 38 regions", not "of the 36
    /// with a figure".
    pub fn complete(&self) -> bool {
        self.total == Some(self.rows.len())
    }

    /// Regions with a value, usable or not, cover enough of the edition's to rank among the
    /// EU's.
    pub fn covers_the_eu(&self) -> bool {
        self.total.is_some_and(|total| {
            (self.rows.len() + self.excluded.len()) as f64 >= EU_COVERAGE * total as f64
        })
    }
}

/// Whether a region is in a NUTS edition: `2021`, `2024`, or any for an edition regintel does
/// not ship (None).
fn in_edition(region: &RegionRow, edition: Option<&str>) -> bool {
    match edition {
        Some("2021") => region.in_nuts2021,
        Some("2024") => region.in_nuts2024,
        _ => true,
    }
}

/// The group's values of `series_id` at `own`'s period, counted in the dataset's `edition`: a
/// dataset of `mixed` codes counts in NUTS 2021 or 2024, whichever more of the group's values
/// are of (2024 when as many). With `since` (an index's base year), regions whose series breaks
/// from then on are left out: their index is no growth. None when the group holds no other
/// region, or when the region (`own`, with its row) is not of the edition the group is counted
/// in: a code of NUTS 2021 ranked among those of 2024 would be counted beside its successor.
pub fn ranked(
    store: &dyn Source,
    group: &Group,
    (own_region, own): (&RegionRow, &ObsRow),
    series_id: i64,
    edition: Option<&str>,
    since: Option<u16>,
) -> Result<Option<Ranked>, Error> {
    if group.others.is_empty() {
        return Ok(None);
    }
    let mut values = Vec::with_capacity(group.others.len());
    for region in &group.others {
        let row = store
            .value_at(&region.code, series_id, &own.period)?
            .filter(|r| r.value.is_some());
        values.push(row);
    }
    let count = |edition: Option<&str>| {
        group
            .others
            .iter()
            .zip(&values)
            .filter(|(r, v)| v.is_some() && in_edition(r, edition))
            .count()
    };
    let edition = match edition {
        Some("mixed") if count(Some("2021")) > count(Some("2024")) => Some("2021"),
        Some("mixed") => Some("2024"),
        Some(e @ ("2021" | "2024")) => Some(e),
        _ => None,
    };
    if !in_edition(own_region, edition) {
        return Ok(None);
    }
    let mut out = Ranked {
        rows: vec![own.clone()],
        regions: vec![None],
        excluded: Vec::new(),
        broken: Vec::new(),
        total: edition.map(|e| {
            1 + group
                .others
                .iter()
                .filter(|r| in_edition(r, Some(e)))
                .count()
        }),
    };
    for (region, row) in group.others.iter().zip(values) {
        let Some(row) = row.filter(|_| in_edition(region, edition)) else {
            continue;
        };
        if row.is_unreliable() {
            out.excluded.push(Arc::clone(region));
        } else if let Some(since) = since
            && breaks_since(store, &region.code, series_id, since, &own.period)?
        {
            out.broken.push(Arc::clone(region));
        } else {
            out.rows.push(row);
            out.regions.push(Some(Arc::clone(region)));
        }
    }
    Ok(Some(out))
}

/// Whether `region`'s series breaks (a value flagged b) from the year `since` to `period`.
fn breaks_since(
    store: &dyn Source,
    region: &str,
    series_id: i64,
    since: u16,
    period: &str,
) -> Result<bool, Error> {
    let since = since.to_string();
    Ok(store.series_rows(region, series_id)?.iter().any(|r| {
        r.period.as_str() >= since.as_str() && r.period.as_str() <= period && r.flags.contains('b')
    }))
}
