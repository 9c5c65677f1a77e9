//! How a briefing names what it states: the measure, its unit, its flags, its prices.

use crate::catalogue::Catalogue;
use crate::domain::series;
use crate::store::datasets::DatasetRow;
use crate::store::observations::ObsRow;

/// The measure as it stands inside a sentence ("the highest unemployment rate"): the series'
/// short title, lower-cased at its start unless that is an acronym (`GDP per inhabitant`,
/// `R&D expenditure`).
pub fn measure(short: &str) -> String {
    let mut chars = short.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => {
            first.to_lowercase().chain(short.chars().skip(1)).collect()
        }
        _ => short.to_owned(),
    }
}

/// Units whose change reads best as a difference in the unit (percentage points, years) rather
/// than a percentage of a percentage: shares (`PC`, `PC_GDP`), growth rates (`PCH_PRE`), years.
pub fn additive(unit: &str) -> Option<&'static str> {
    if unit.starts_with("PC") {
        Some("percentage points")
    } else if unit == "YR" {
        Some("years")
    } else {
        None
    }
}

/// A value of low reliability (flag `u`) or confidential: neither ranked nor compared.
pub fn unreliable(row: &ObsRow) -> bool {
    row.flags.contains('u') || row.is_confidential()
}

/// Why a value is neither ranked nor compared, in words.
pub fn unreliable_because(row: &ObsRow) -> &'static str {
    if row.is_confidential() {
        "confidential"
    } else {
        "of low reliability"
    }
}

/// The flags of a value, spelled out: ", estimated, provisional".
pub fn flag_note(catalogue: &Catalogue, row: &ObsRow) -> String {
    crate::domain::explain_flags(catalogue, &row.flags, &row.conf_status)
        .into_iter()
        .map(|f| format!(", {}", f.meaning))
        .collect()
}

/// Money whose figures are at current prices, as the catalogue says of the dataset: changes
/// over time include inflation. Said of a dataset the catalogue describes, never of an
/// account's own (whose prices regintel does not know).
pub fn at_current_prices(catalogue: &Catalogue, dataset: &DatasetRow, unit: &str) -> bool {
    let money = series::in_euro(unit) || series::is_price_adjusted(unit) || unit.contains("NAC");
    money
        && !dataset.private
        && catalogue
            .entry(&dataset.code)
            .is_some_and(|e| e.at_current_prices())
}

/// The year a period falls in (`2021`, `2021-Q3`, `2021-07`).
pub fn year(period: &str) -> Option<i32> {
    period.get(..4)?.parse().ok()
}

/// Names listed in a sentence: "A", "A and B", "A, B and C"; past `most`, "A, B, C and others".
pub fn listed(names: &[String], most: usize) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        _ if names.len() > most => format!("{} and others", names[..most].join(", ")),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_read_inside_a_sentence() {
        assert_eq!(measure("Unemployment rate"), "unemployment rate");
        assert_eq!(measure("GDP per inhabitant"), "GDP per inhabitant");
        assert_eq!(
            measure("R&D expenditure (% of GDP)"),
            "R&D expenditure (% of GDP)"
        );
        assert_eq!(measure("Élan"), "élan");
        assert_eq!(
            listed(&["A".into(), "B".into(), "C".into()], 5),
            "A, B and C"
        );
        assert_eq!(
            listed(&["A".into(), "B".into(), "C".into()], 2),
            "A, B and others"
        );
        assert_eq!(year("2021-Q3"), Some(2021));
    }
}
