//! A cited row as the verifier reads it.

use std::collections::BTreeSet;

/// A cited row as the verifier reads it.
pub struct CitedRow {
    pub period: String,
    pub region: String,
    /// The region's name, as the text may call it.
    pub region_name: String,
    pub value: Option<f64>,
    /// The value as published (its decimals are the rounding a claim must show).
    pub value_text: String,
    /// Its unit: an index's (`I15`) names the base year the text may write as a period.
    pub unit: String,
    pub flags: String,
    pub conf_status: String,
}

impl CitedRow {
    /// Its flags as claims carry them: the letters, and `c` for a confidential status.
    pub(super) fn flag_codes(&self) -> BTreeSet<char> {
        let mut codes: BTreeSet<char> = self.flags.chars().collect();
        if self.conf_status.eq_ignore_ascii_case("c") {
            codes.insert('c');
        }
        codes
    }
}
