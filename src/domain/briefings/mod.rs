//! AI briefings (spec endpoint 3): a short text about a region in which every number is a claim
//! tied to cited rows. The deterministic writer (`writer`) picks the facts and writes the text;
//! the verifier (`verify`) re-reads it before it is stored or shown.

mod claims;
mod numbers;
mod verify;
mod writer;

use serde::{Deserialize, Serialize};

use super::error::{Error, Rejection};
use super::{CitationRef, Sources, regions};
use crate::catalogue::Catalogue;
use crate::store::Scoped;
use crate::store::briefings::BriefingRow;
use crate::store::regions::RegionRow;
pub use claims::{Claim, ClaimInput};
pub use verify::Verification;

/// The `briefing_type` values a briefing request may name.
pub const TYPES: &[&str] = &[
    "profile_summary",
    "economy",
    "labour_market",
    "demography",
    "health",
    "peer_comparison",
];

/// Version of the deterministic writer, stored with each briefing it wrote.
const WRITER_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Briefing {
    pub id: String,
    pub region: BriefingRegion,
    pub briefing_type: String,
    pub title: String,
    pub created_at: String,
    pub sections: Vec<Section>,
    pub claims: Vec<Claim>,
    /// Headline series of the briefing's topics with no value for the region.
    pub not_covered: Vec<String>,
    pub verification: Verification,
    pub generator: Generator,
    /// On reading a stored briefing: the cited rows revised since it was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisions: Option<Revisions>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BriefingRegion {
    pub code: String,
    pub name: Option<String>,
    pub level: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Section {
    pub heading: String,
    pub text: String,
}

/// Who wrote the text.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Generator {
    /// `deterministic`: regintel's own writer.
    pub name: String,
    pub version: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Revisions {
    pub any_superseded: bool,
    /// Each cited row a later import revised, with the row that stands now.
    pub superseded: Vec<Superseded>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Superseded {
    pub citation: String,
    pub current_citation: String,
}

/// A briefing in the caller's list.
#[derive(Debug, Serialize)]
pub struct BriefingSummary {
    pub id: String,
    pub region_code: String,
    pub briefing_type: String,
    pub title: String,
    pub created_at: String,
}

/// What the writer hands the verifier.
pub struct Draft {
    pub title: String,
    pub sections: Vec<Section>,
    pub claims: Vec<Claim>,
    /// Names and titles the text quotes.
    pub labels: Vec<String>,
    pub not_covered: Vec<String>,
}

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

/// Writes and verifies a briefing. A deterministic text that fails its verification is a bug in
/// the writer: an internal error, never an answer.
pub fn generate(
    store: &Scoped,
    catalogue: &Catalogue,
    region_code: &str,
    briefing_type: &str,
    id: String,
    created_at: String,
) -> Result<(Briefing, Sources), Error> {
    let region = subject(store, region_code, briefing_type)?;
    let datasets = super::headline_datasets(store)?;
    let draft = writer::write(store, catalogue, &region, briefing_type, &datasets)?;
    let mut rows = |citation: &str| -> Result<Option<verify::CitedRow>, Error> {
        Ok(store.citation(citation)?.map(|row| verify::CitedRow {
            period: row.obs.period,
            value: row.obs.value,
            value_text: row.obs.value_text,
        }))
    };
    let verification = verify::verify(&mut rows, &draft.sections, &draft.claims, &draft.labels)?
        .map_err(|why| {
            Error::internal(anyhow::anyhow!(
                "the deterministic briefing failed its verification: {why}"
            ))
        })?;
    let briefing = Briefing {
        id,
        region: BriefingRegion {
            code: region.code.clone(),
            name: region.name_latin.clone().or(region.name_national.clone()),
            level: region.level,
        },
        briefing_type: briefing_type.to_owned(),
        title: draft.title,
        created_at,
        sections: draft.sections,
        claims: draft.claims,
        not_covered: draft.not_covered,
        verification,
        generator: Generator {
            name: "deterministic".into(),
            version: WRITER_VERSION,
        },
        revisions: None,
    };
    let sources = sources(store, &briefing)?;
    Ok((briefing, sources))
}

/// A stored briefing as written, with the cited rows revised since.
pub fn stored(store: &Scoped, row: &BriefingRow) -> Result<(Briefing, Sources), Error> {
    let mut briefing: Briefing = serde_json::from_str(&row.body_json).map_err(Error::internal)?;
    let mut superseded = Vec::new();
    for citation in cited(&briefing) {
        let current = store.current_citation(citation)?;
        if current != citation {
            superseded.push(Superseded {
                citation: citation.to_owned(),
                current_citation: current,
            });
        }
    }
    briefing.revisions = Some(Revisions {
        any_superseded: !superseded.is_empty(),
        superseded,
    });
    let sources = sources(store, &briefing)?;
    Ok((briefing, sources))
}

pub fn summary(row: &BriefingRow) -> Result<BriefingSummary, Error> {
    let briefing: Briefing = serde_json::from_str(&row.body_json).map_err(Error::internal)?;
    Ok(BriefingSummary {
        id: row.public_id.clone(),
        region_code: row.region_code.clone(),
        briefing_type: row.briefing_type.clone(),
        title: briefing.title,
        created_at: briefing.created_at,
    })
}

/// Every citation the claims rest on, each once, in order.
fn cited(briefing: &Briefing) -> Vec<&str> {
    let mut seen = std::collections::BTreeSet::new();
    briefing
        .claims
        .iter()
        .flat_map(|c| {
            c.citations
                .iter()
                .map(String::as_str)
                .chain(c.inputs.iter().map(|i| i.citation.as_str()))
        })
        .filter(|c| seen.insert(*c))
        .collect()
}

/// `meta.citations` and snapshots for the rows a briefing cites.
fn sources(store: &Scoped, briefing: &Briefing) -> Result<Sources, Error> {
    let mut sources = Sources::default();
    let mut urls = std::collections::HashMap::new();
    for citation in cited(briefing) {
        let Some(row) = store.citation(citation)? else {
            continue;
        };
        let url = match row.source_id {
            Some(id) => match urls.get(&id) {
                Some(url) => Option::clone(url),
                None => {
                    let url = store.source(id)?.and_then(|s| s.landing_url);
                    urls.insert(id, url.clone());
                    url
                }
            },
            None => None,
        };
        sources.snapshots.insert(row.obs.snapshot.clone());
        sources.citations.insert(
            citation.to_owned(),
            CitationRef {
                dataset: row.dataset_code,
                region: row.region_code,
                period: row.obs.period,
                source_url: url,
            },
        );
    }
    Ok(sources)
}
