//! AI briefings (`POST /briefings`): a short text about a region in which every number is a claim
//! tied to cited rows. The deterministic writer (`writer`) picks the facts and writes the text,
//! following the rules of `docs/analysis.md` (`peers` finds whom a region is ranked among,
//! `wording` how things are named) and hands the verifier a `draft`; a configured model server
//! may write the prose instead (`model`); the verifier (`verify`) re-reads it before it is stored
//! or shown.

pub mod claims;
mod draft;
mod model;
pub mod numbers;
mod peers;
mod source;
mod verify;
mod wording;
mod writer;

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::error::{Error, Rejection};
use super::{Citer, Sources, regions};
use crate::bundled::Catalogue;
use crate::store::Scoped;
use crate::store::briefings::{BriefingListRow, BriefingRow};
use crate::store::observations::CitationRow;
use crate::store::regions::RegionRow;
pub use claims::{Claim, ClaimFlag, ClaimInput, OPERATIONS};
pub use draft::{Break, Draft, Label, Section};
pub use model::{Prompt, ProseModel};
use verify::Author;
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

/// Version of the deterministic writer, stored with each briefing it wrote. Version 2 follows
/// the rules of `docs/analysis.md` (breaks, indices, peers, wording, flags, stale years and
/// prices); a briefing stored by version 1 stays as it was written, and says so.
const WRITER_VERSION: u32 = 2;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Briefing {
    pub id: String,
    pub region: BriefingRegion,
    pub briefing_type: String,
    pub title: String,
    pub created_at: String,
    pub sections: Vec<Section>,
    pub claims: Vec<Claim>,
    /// The breaks in series the text names (a value flagged b), each with its row.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub breaks: Vec<Break>,
    /// Headline series of the briefing's topics with no value for the region.
    pub not_covered: Vec<String>,
    pub verification: Verification,
    pub generator: Generator,
    /// On reading a stored briefing: the cited rows revised since it was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisions: Option<Revisions>,
    /// The moment it was written from the data as of, when not its creation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<BriefingAsOf>,
}

/// The moment a briefing was written from the data as of.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BriefingAsOf {
    /// RFC 3339.
    pub at: String,
    /// `imported` or `published` (see `store::as_of::Basis`).
    pub basis: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BriefingRegion {
    pub code: String,
    pub name: Option<String>,
    pub level: Option<i64>,
}

/// Who wrote the text.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Generator {
    /// `deterministic` (regintel's own writer) or `model` (the configured model server).
    pub name: String,
    /// Version of regintel's writer, whose facts and claims the text states either way.
    pub version: u32,
    /// The model that wrote the text, or whose text was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Why the model's text was not used (it stated a number that is no claim, it failed or
    /// timed out): the deterministic text stands instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback_reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Revisions {
    pub any_superseded: bool,
    /// Each cited row a later import revised or withdrew, with the row that stands now.
    pub superseded: Vec<Superseded>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Superseded {
    pub citation: String,
    /// The value that stands now, or, when the observation was withdrawn, the withdrawal.
    pub current_citation: String,
    /// The snapshot that withdrew the observation (a whole-dataset file no longer held it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_in: Option<String>,
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

/// The region a briefing of `briefing_type` about `region_code` would be about: 422 for a type
/// not in [`TYPES`], `unknown_region` for a code the caller cannot see.
pub fn subject(
    store: &Scoped,
    region_code: &str,
    briefing_type: &str,
) -> Result<Arc<RegionRow>, Error> {
    if !TYPES.contains(&briefing_type) {
        return Err(Rejection::invalid_at(
            "#/briefing_type",
            format!("briefing_type must be one of {}", TYPES.join(", ")),
        )
        .into());
    }
    regions::find(store, region_code)
}

/// The briefing types with something to say about `region`: those of whose topics it has a
/// figure (`profile_summary` and `peer_comparison` cover every topic).
fn available_types(
    store: &Scoped,
    region: &RegionRow,
    datasets: &[Arc<crate::store::datasets::DatasetRow>],
) -> Result<Vec<&'static str>, Error> {
    let mut topics = std::collections::BTreeSet::new();
    for dataset in datasets {
        let series = dataset.headline_series_id.expect("headline datasets only");
        if store
            .series_rows(&region.code, series)?
            .iter()
            .any(writer::stated)
        {
            topics.insert(dataset.topic.as_str());
        }
    }
    Ok(TYPES
        .iter()
        .copied()
        .filter(|t| match writer::plan(t).0 {
            Some(topic) => topics.contains(topic),
            None => !topics.is_empty(),
        })
        .collect())
}

/// Writes and verifies a briefing. With a `model`, the model rewrites the prose from the same
/// facts; its text must pass the same verifier, or the deterministic one stands and the answer
/// says why. A type with nothing to say about the region is refused (422 naming
/// `briefing_type`, with the types that have something). A deterministic text that fails its
/// verification is a bug in the writer: an internal error, never an answer.
pub fn generate(
    store: &Scoped,
    catalogue: &Catalogue,
    region_code: &str,
    briefing_type: &str,
    model: Option<&dyn ProseModel>,
    id: String,
    created_at: String,
) -> Result<(Briefing, Sources), Error> {
    // The writer and the verifier read one state of the data: an import committing between
    // them cannot make a faithful text fail its check. The snapshot ends before the model is
    // asked (for up to `--llm-timeout`): its text is checked against the rows read already.
    let snapshot = store.snapshot()?;
    let region = subject(store, region_code, briefing_type)?;
    let datasets = super::headline_datasets(store)?;
    let Some(mut draft) = writer::write(store, catalogue, &region, briefing_type, &datasets)?
    else {
        let available = available_types(store, &region, &datasets)?;
        return Err(Rejection::NothingToSay {
            message: format!(
                "regintel holds no {} figures for {}; briefing types with figures for it: {}",
                writer::plan(briefing_type).0.unwrap_or("regional"),
                region.code,
                if available.is_empty() {
                    "none".to_owned()
                } else {
                    available.join(", ")
                }
            ),
            available,
        }
        .into());
    };
    // Each cited row is read once: by the verifier, then for `meta.citations`.
    let mut read: HashMap<String, Option<CitationRow>> = HashMap::new();
    let mut rows = |citation: &str| -> Result<Option<verify::CitedRow>, Error> {
        if !read.contains_key(citation) {
            read.insert(citation.to_owned(), store.citation(citation)?);
        }
        let Some(row) = read[citation].as_ref() else {
            return Ok(None);
        };
        let region = store.region(&row.region_code)?;
        Ok(Some(verify::CitedRow {
            period: row.obs.period.to_string(),
            region: row.region_code.clone(),
            region_name: (region.as_deref())
                .and_then(|r| r.name())
                .unwrap_or_default()
                .to_owned(),
            value: row.obs.value,
            value_text: row.obs.value_text.to_string(),
            unit: row.unit.clone(),
            flags: row.obs.flags.to_string(),
            conf_status: row.obs.conf_status.to_string(),
        }))
    };
    let own = verify::verify(
        &mut rows,
        &draft.sections,
        &draft.claims,
        &draft.labels,
        &draft.breaks,
        Author::Writer,
    )?;
    let mut verification = own.map(|checked| checked.verification).map_err(|why| {
        Error::internal(anyhow::anyhow!(
            "the deterministic briefing failed its verification: {why}"
        ))
    })?;
    drop(snapshot);
    let mut generator = Generator {
        name: "deterministic".into(),
        version: WRITER_VERSION,
        model: None,
        fallback_reason: None,
    };
    if let Some(model) = model {
        generator.model = Some(model.name().to_owned());
        let written = model::rewrite(model, &draft).and_then(|sections| {
            match verify::verify(
                &mut rows,
                &sections,
                &draft.claims,
                &draft.labels,
                &draft.breaks,
                Author::Model,
            ) {
                Ok(Ok(checked)) => Ok((sections, checked)),
                Ok(Err(why)) => Err(format!("the model's text failed verification: {why}")),
                Err(e) => Err(format!("the model's text could not be checked: {e}")),
            }
        });
        match written {
            Ok((sections, checked)) => {
                // Only the claims the model's text states, and those whose inputs they name.
                let named: std::collections::BTreeSet<String> = (draft.claims.iter())
                    .filter(|c| checked.used.contains(&c.id))
                    .filter_map(|c| c.inputs_of.clone())
                    .collect();
                draft
                    .claims
                    .retain(|c| checked.used.contains(&c.id) || named.contains(&c.id));
                draft.sections = sections;
                verification = checked.verification;
                generator.name = "model".into();
            }
            Err(why) => {
                tracing::info!(model = model.name(), reason = %why, "briefing: the model's text was refused; the deterministic one stands");
                generator.fallback_reason = Some(why);
            }
        }
    }
    let briefing = Briefing {
        id,
        region: BriefingRegion {
            code: region.code.clone(),
            name: region.name().map(str::to_owned),
            level: region.level,
        },
        briefing_type: briefing_type.to_owned(),
        title: draft.title,
        created_at,
        sections: draft.sections,
        claims: draft.claims,
        breaks: draft.breaks,
        not_covered: draft.not_covered,
        verification,
        generator,
        revisions: None,
        as_of: store.as_of().map(|a| BriefingAsOf {
            at: crate::runtime::clock::rfc3339_millis(a.at_ms),
            basis: a.basis.as_str().to_owned(),
        }),
    };
    let sources = sources(store, catalogue, &briefing, &read)?;
    Ok((briefing, sources))
}

/// A stored briefing as written, with the cited rows revised since. Each cited row is read
/// once; the revision chain is followed only from rows that were superseded.
pub fn stored(
    store: &Scoped,
    catalogue: &Catalogue,
    row: &BriefingRow,
) -> Result<(Briefing, Sources), Error> {
    let mut briefing: Briefing = serde_json::from_str(&row.body_json).map_err(Error::internal)?;
    let mut read = HashMap::new();
    let mut superseded = Vec::new();
    for citation in cited(&briefing) {
        let row = store.citation(citation)?;
        if row.as_ref().is_some_and(|r| r.superseded_by.is_some()) {
            let end = store.chain_end(citation)?;
            superseded.push(Superseded {
                citation: citation.to_owned(),
                current_citation: end.citation,
                withdrawn_in: end.withdrawn_in,
            });
        }
        read.insert(citation.to_owned(), row);
    }
    briefing.revisions = Some(Revisions {
        any_superseded: !superseded.is_empty(),
        superseded,
    });
    let sources = sources(store, catalogue, &briefing, &read)?;
    Ok((briefing, sources))
}

pub fn summary(row: &BriefingListRow) -> BriefingSummary {
    BriefingSummary {
        id: row.public_id.clone(),
        region_code: row.region_code.clone(),
        briefing_type: row.briefing_type.clone(),
        title: row.title.clone(),
        created_at: crate::runtime::clock::rfc3339(row.created_at),
    }
}

/// Every citation the claims rest on (their rows, and the rows whose flags they carry) and the
/// breaks the text names, each once, in order.
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
                .chain(c.flags.iter().map(|f| f.citation.as_str()))
        })
        .chain(briefing.breaks.iter().map(|b| b.citation.as_str()))
        .filter(|c| seen.insert(*c))
        .collect()
}

/// `meta.citations` and snapshots for the rows a briefing cites; rows in `known` are not read
/// again.
fn sources(
    store: &Scoped,
    catalogue: &Catalogue,
    briefing: &Briefing,
    known: &HashMap<String, Option<CitationRow>>,
) -> Result<Sources, Error> {
    let mut citer = Citer::new(store, catalogue);
    for citation in cited(briefing) {
        let row = match known.get(citation) {
            Some(row) => row.as_ref(),
            None => None,
        };
        match row {
            Some(row) => citer.cite_row(row)?,
            None => {
                if let Some(row) = store.citation(citation)? {
                    citer.cite_row(&row)?;
                }
            }
        }
    }
    Ok(citer.sources)
}
