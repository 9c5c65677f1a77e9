//! AI briefings: the kinds a client may ask for, and the checks a request passes before one is
//! written.

use super::error::{Error, Rejection};
use super::regions;
use crate::store::Scoped;
use crate::store::regions::RegionRow;

/// The `briefing_type` values a briefing request may name.
pub const TYPES: &[&str] = &[
    "profile_summary",
    "economy",
    "labour_market",
    "demography",
    "health",
    "peer_comparison",
];

/// The region a briefing of `briefing_type` about `region_code` would be about: 422 for a type
/// not in [`TYPES`], `unknown_region` for a code the caller cannot see.
pub fn subject(store: &Scoped, region_code: &str, briefing_type: &str) -> Result<RegionRow, Error> {
    if !TYPES.contains(&briefing_type) {
        return Err(Rejection::invalid_at(
            "#/briefing_type",
            format!("briefing_type must be one of {}", TYPES.join(", ")),
        )
        .into());
    }
    regions::find(store, region_code)
}
