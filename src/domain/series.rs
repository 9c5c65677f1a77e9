//! Which series of a dataset an answer uses: the headline series, one the caller names by its
//! dimension values, or one the analysis prefers (a rate instead of a total, purchasing power
//! standards instead of euro across countries). Also what a unit code says about its figures.

use std::collections::{BTreeMap, BTreeSet};

use super::error::{Error, Rejection};
use crate::bundled::Catalogue;
use crate::citation_id::canonical_dims;
use crate::error_text::shown;
use crate::store::Scoped;
use crate::store::datasets::{DatasetRow, SeriesRow};

/// A series of a dataset: its id, unit and other dimension values.
#[derive(Debug, Clone, PartialEq)]
pub struct Chosen {
    pub id: i64,
    pub unit: String,
    pub dims: BTreeMap<String, String>,
}

/// The series with the headline series' dimension values, except those `filters` replace
/// (`unit` and dimension names of the dataset). A filter naming no dimension, or a series the
/// dataset does not hold, is refused naming `parameter` (or, when None, the filter's own name,
/// as a query parameter of that name).
pub fn select(
    store: &Scoped,
    dataset: &DatasetRow,
    filters: &BTreeMap<String, String>,
    parameter: Option<&str>,
) -> Result<Chosen, Error> {
    let (headline_unit, headline) = dataset.headline().map_err(Error::internal)?;
    let (mut unit, mut wanted) = (headline_unit.clone(), headline.clone());
    let dim_names = dataset.dim_names().map_err(Error::internal)?;
    let all_series = store.series_of(dataset.id)?;
    for (name, value) in filters {
        if name != "unit" && !dim_names.contains(name) {
            return Err(Rejection::invalid(
                parameter.unwrap_or(name),
                format!(
                    "unknown dimension {}; {} has the dimensions unit{}",
                    shown(name),
                    dataset.code,
                    dim_names
                        .iter()
                        .map(|d| format!(", {d}"))
                        .collect::<String>()
                ),
            )
            .into());
        }
        if name == "unit" {
            value.clone_into(&mut unit);
        } else {
            wanted.insert(name.clone(), value.clone());
        }
    }
    let dims = dims_text(&wanted);
    match all_series.iter().find(|s| s.unit == unit && s.dims == dims) {
        Some(s) => Ok(Chosen {
            id: s.id,
            unit,
            dims: wanted,
        }),
        None => {
            let offered: BTreeSet<String> = all_series
                .iter()
                .map(|s| format!("unit={};{}", s.unit, s.dims))
                .collect();
            let parameter = parameter
                .or(filters.keys().next().map(String::as_str))
                .unwrap_or("dataset");
            Err(Rejection::invalid(
                parameter,
                format!(
                    "{} has no series {}; available: {}",
                    dataset.code,
                    shown(&format!("unit={unit};{dims}")),
                    offered.into_iter().collect::<Vec<_>>().join(" | ")
                ),
            )
            .into())
        }
    }
}

/// The dataset's series with the same dimension values as `like` but another unit, the first
/// for which `rank` gives the lowest number (None: not wanted), ties in unit order.
pub fn other_unit(
    series: &[SeriesRow],
    like: &Chosen,
    rank: impl Fn(&str) -> Option<u8>,
) -> Option<Chosen> {
    let dims = dims_text(&like.dims);
    series
        .iter()
        .filter(|s| s.dims == dims && s.unit != like.unit)
        .filter_map(|s| Some((rank(&s.unit)?, s)))
        .min_by(|(a, s), (b, t)| (a, &s.unit).cmp(&(b, &t.unit)))
        .map(|(_, s)| Chosen {
            id: s.id,
            unit: s.unit.clone(),
            dims: like.dims.clone(),
        })
}

fn dims_text(dims: &BTreeMap<String, String>) -> String {
    let (names, values): (Vec<String>, Vec<String>) =
        dims.iter().map(|(k, v)| (k.clone(), v.clone())).unzip();
    canonical_dims(&names, &values)
}

/// A unit that adds up over regions (persons, million euro) rather than relating to population
/// or area: such figures mostly measure a region's size.
pub fn is_total(unit: &str) -> bool {
    unit == "NR" || unit.starts_with("MIO_") || unit.starts_with("THS_")
}

/// How well a unit stands for a rate in place of a total: per inhabitant in euro first, then per
/// inhabitant in any other measure (purchasing power standards, % of the EU average), per area
/// or per 100 000, then shares (`PC`, `PC_GDP`). None for anything else: totals, growth rates
/// (`PCH_PRE`: a change, not a level), indices (`I15`: growth since a base year) and national
/// currencies (not comparable across countries).
pub fn rate_rank(unit: &str) -> Option<u8> {
    let growth_or_index = unit.starts_with("PCH") || index_base(unit).is_some();
    if is_total(unit) || growth_or_index || unit.contains("NAC") {
        None
    } else if unit.starts_with("EUR") && unit.contains("HAB") {
        Some(0)
    } else if unit.contains("HAB") {
        Some(1)
    } else if unit.starts_with("PER_") || unit.starts_with("P_") {
        Some(2)
    } else if unit == "PC" || unit.starts_with("PC_") {
        Some(3)
    } else {
        None
    }
}

/// Money in euro, at exchange rates: figures of different countries compared in it are not
/// adjusted for their price levels.
pub fn in_euro(unit: &str) -> bool {
    unit.contains("EUR") && !is_price_adjusted(unit)
}

/// Money whose figures are at current prices, as the catalogue says of the dataset: changes
/// over time include inflation. Said of a dataset the catalogue describes, never of an
/// account's own (whose prices regintel does not know).
pub fn at_current_prices(catalogue: &Catalogue, dataset: &DatasetRow, unit: &str) -> bool {
    let money = in_euro(unit) || is_price_adjusted(unit) || unit.contains("NAC");
    money
        && !dataset.private
        && catalogue
            .entry(&dataset.code)
            .is_some_and(|e| e.at_current_prices())
}

/// Purchasing power standards (PPS, PPCS): money figures adjusted for price levels.
pub fn is_price_adjusted(unit: &str) -> bool {
    unit.contains("PPS") || unit.contains("PPCS")
}

/// The price-adjusted unit that stands for a euro unit across countries: of the same kind
/// (total, per inhabitant, per inhabitant in % of the EU average), PPS before PPCS.
pub fn price_adjusted_rank(euro_unit: &str) -> impl Fn(&str) -> Option<u8> + '_ {
    move |unit: &str| {
        (is_price_adjusted(unit) && money_kind(unit) == money_kind(euro_unit))
            .then_some(u8::from(unit.contains("PPCS")))
    }
}

/// Total, per inhabitant in % of the EU average, per inhabitant, or other.
fn money_kind(unit: &str) -> u8 {
    if is_total(unit) {
        0
    } else if in_percent_of_eu_average(unit) {
        1
    } else if unit.contains("HAB") {
        2
    } else {
        3
    }
}

/// Per inhabitant in % of the EU average (`PPS_HAB_EU27_2020`; `MIO_PPS_EU27_2020` is a total
/// in the EU's purchasing power standards).
pub fn in_percent_of_eu_average(unit: &str) -> bool {
    unit.contains("HAB") && unit.ends_with("_EU27_2020")
}

/// The base year of an index unit (`I15`: 2015, `I2010`: 2010), whose value 100 is that year's.
pub fn index_base(unit: &str) -> Option<u16> {
    let digits = unit.strip_prefix('I')?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year: u16 = digits.parse().ok()?;
    match digits.len() {
        2 if year <= 50 => Some(2000 + year),
        2 => Some(1900 + year),
        4 => Some(year),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_say_what_their_figures_are() {
        assert!(is_total("NR") && is_total("MIO_EUR") && is_total("THS_PER"));
        assert!(!is_total("EUR_HAB") && !is_total("PC"));
        assert_eq!(rate_rank("MIO_EUR"), None);
        assert!(rate_rank("EUR_HAB") < rate_rank("PPS_EU27_2020_HAB"));
        assert!(rate_rank("P_HTHAB") < rate_rank("PC"));
        assert!(rate_rank("PER_KM2") < rate_rank("PC_GDP"));
        for not_a_rate in ["PCH_PRE", "I15", "I2010", "NAC_HAB", "MIO_NAC", "YR"] {
            assert_eq!(rate_rank(not_a_rate), None, "{not_a_rate}");
        }
        assert!(in_euro("EUR_HAB") && in_euro("MIO_EUR") && in_euro("EUR_HAB_EU27_2020"));
        assert!(!in_euro("PPS_EU27_2020_HAB") && !in_euro("MIO_NAC") && !in_euro("PC"));
        let per_head = price_adjusted_rank("EUR_HAB");
        assert_eq!(per_head("PPS_EU27_2020_HAB"), Some(0));
        assert_eq!(per_head("PPCS_HAB"), Some(1));
        assert_eq!(per_head("MIO_PPS_EU27_2020"), None);
        assert_eq!(
            per_head("PPS_HAB_EU27_2020"),
            None,
            "a share of the EU average"
        );
        assert_eq!(price_adjusted_rank("MIO_EUR")("MIO_PPS_EU27_2020"), Some(0));
        assert_eq!(
            price_adjusted_rank("EUR_HAB_EU27_2020")("PPS_HAB_EU27_2020"),
            Some(0)
        );
        assert_eq!(index_base("I15"), Some(2015));
        assert_eq!(index_base("I95"), Some(1995));
        assert_eq!(index_base("I2010"), Some(2010));
        assert_eq!(index_base("IX"), None);
        assert_eq!(index_base("NR"), None);
    }
}
