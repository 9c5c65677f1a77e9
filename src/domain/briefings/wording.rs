//! How a briefing names what it states: the measure, its unit, its flags, its prices.

use crate::bundled::Catalogue;
use crate::domain::series;
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
/// than a percentage of a percentage: shares (`PC`, `PC_GDP`), growth rates (`PCH_PRE`), a
/// figure in % of the EU average (`PPS_HAB_EU27_2020`), years.
pub fn additive(unit: &str) -> Option<&'static str> {
    if unit.starts_with("PC") || series::in_percent_of_eu_average(unit) {
        Some("percentage points")
    } else if unit == "YR" {
        Some("years")
    } else {
        None
    }
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
        assert_eq!(additive("PPS_HAB_EU27_2020"), Some("percentage points"));
        assert_eq!(additive("PCH_PRE"), Some("percentage points"));
        assert_eq!(additive("PPS_EU27_2020_HAB"), None);
        assert_eq!(additive("MIO_PPS_EU27_2020"), None);
        assert_eq!(
            listed(&["A".into(), "B".into(), "C".into()], 5),
            "A, B and C"
        );
        assert_eq!(
            listed(&["A".into(), "B".into(), "C".into()], 2),
            "A, B and others"
        );
    }
}
