//! Private datasets: `POST /datasets` and `PUT /datasets/{dataset_code}/data`.

use std::collections::BTreeSet;

use serde::Deserialize;
use serde_json::json;

use super::{Req, json};
use crate::domain::Rejection;
use crate::domain::datasets;
use crate::error_text::FieldError;
use crate::http::error::ApiError;
use crate::reply::Reply;
use crate::store::import::MAX_DIMENSIONS;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewDataset {
    code: String,
    title: String,
    unit: String,
    #[serde(default)]
    dimensions: Vec<String>,
    #[serde(default)]
    topic: Option<String>,
    #[serde(default)]
    description: Option<String>,
    /// Uploads refuse region codes of no known region (see [`put_data`]).
    #[serde(default)]
    strict_regions: bool,
}

/// 1 to `max` characters of a-z, 0-9 and `_`: dataset codes and dimension names.
fn is_code(text: &str, max: usize) -> bool {
    (1..=max).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'_' || b.is_ascii_lowercase())
}

fn problem(errors: &mut Vec<FieldError>, pointer: &str, detail: &str) {
    errors.push(FieldError {
        pointer: pointer.into(),
        detail: detail.into(),
    });
}

pub fn create(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let body: NewDataset = req.json_body()?;
    let mut errors = Vec::new();
    if !is_code(&body.code, 64) {
        problem(
            &mut errors,
            "#/code",
            "code must be 1 to 64 characters of a-z, 0-9 and _",
        );
    }
    if body.title.trim().is_empty() || body.title.chars().count() > 200 {
        problem(
            &mut errors,
            "#/title",
            "title must have 1 to 200 characters",
        );
    }
    // A unit is a code in capitals (PC, EUR_HAB); `pc` means the same and is stored so.
    let unit = crate::file_formats::unit_code(&body.unit);
    if unit.is_none() {
        problem(
            &mut errors,
            "#/unit",
            "unit must be 1 to 32 characters of letters, digits and _ (e.g. NR, PC), stored in capitals",
        );
    }
    if body.dimensions.len() > MAX_DIMENSIONS {
        problem(
            &mut errors,
            "#/dimensions",
            &format!("at most {MAX_DIMENSIONS} dimensions"),
        );
    }
    let mut seen = BTreeSet::new();
    for (i, dim) in body.dimensions.iter().enumerate().take(MAX_DIMENSIONS) {
        let pointer = format!("#/dimensions/{i}");
        // A CSV column of one of these names means something else, so the dataset could never
        // be loaded.
        let reserved = crate::file_formats::tidy::KNOWN.contains(&dim.as_str());
        if !is_code(dim, 32) || reserved {
            problem(
                &mut errors,
                &pointer,
                &format!(
                    "a dimension name is 1 to 32 characters of a-z, 0-9 and _, and not geo or {}",
                    crate::file_formats::tidy::KNOWN.join(", ")
                ),
            );
        } else if !seen.insert(dim) {
            problem(&mut errors, &pointer, "dimension listed twice");
        }
    }
    if body
        .topic
        .as_deref()
        .is_some_and(|t| t.trim().is_empty() || t.chars().count() > 50)
    {
        problem(&mut errors, "#/topic", "topic must have 1 to 50 characters");
    }
    // A briefing names the dataset by its description where it has one.
    if body
        .description
        .as_deref()
        .is_some_and(|d| d.trim().is_empty() || d.chars().count() > 200)
    {
        problem(
            &mut errors,
            "#/description",
            "description must have 1 to 200 characters",
        );
    }
    if !errors.is_empty() {
        return Err(Rejection::Invalid {
            errors,
            not_listed: 0,
        }
        .into());
    }
    let owner = req.caller()?.account_id;
    crate::import::create_private_dataset(
        &req.state.store,
        owner,
        &crate::store::import::DatasetMeta {
            code: body.code.clone(),
            title: body.title.trim().to_owned(),
            topic: body.topic.unwrap_or_else(|| "private".into()),
            description: body.description.map(|d| d.trim().to_owned()),
            nuts_edition: None,
            headline: [("unit".to_owned(), unit.unwrap_or_default())]
                .into_iter()
                .collect(),
            labels_json: "{}".into(),
        },
        &body.dimensions,
        body.strict_regions,
    )?;
    req.state.refresh_generations();
    let store = req.store()?;
    let mut citer = crate::domain::Citer::new(store, &req.state.catalogue);
    let detail = datasets::detail(store, &mut citer, &body.code)?;
    Ok(super::cited(&detail, citer.sources)?.with_status(201))
}

/// Runs on the blocking pool: a large CSV takes a while to validate and write. A region code of no
/// known region becomes one of the account's own, named in `new_regions` with the known codes it
/// may be a typo of; with `strict_regions=true` (or the dataset's setting, which the parameter
/// overrides) such a code is refused, naming its line.
pub fn put_data(req: &mut Req) -> Result<Reply, ApiError> {
    let strict = req.query.take_bool("strict_regions")?;
    req.no_more_params()?;
    let code = req.param("dataset_code").to_owned();
    let owner = req.caller()?.account_id;
    let dataset = req
        .store()?
        .dataset(&code)?
        .filter(|d| d.private)
        .ok_or_else(|| Rejection::UnknownDataset(code.clone()))?;
    let outcome = {
        let _one_at_a_time = req.state.import.lock().unwrap_or_else(|e| e.into_inner());
        let started = std::time::Instant::now();
        let outcome = crate::import::import_private_csv(
            &req.state.store,
            &req.state.catalogue,
            &dataset,
            &req.body,
            owner,
            strict.unwrap_or(dataset.strict_regions),
        )?;
        req.state.metrics.import(started.elapsed());
        outcome
    };
    req.state.refresh_generations();
    json(&outcome, &json!({}))
}
