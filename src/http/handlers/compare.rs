//! `GET /compare?regions=A,B&dataset=X[&period=P][&<dimension>=<value>...]`.

use super::{Req, cited_text};
use crate::domain::compare::{self, CompareQuery};
use crate::http::error::ApiError;
use crate::reply::Reply;

pub fn compare(req: &mut Req) -> Result<Reply, ApiError> {
    // Before the dimension filters, which take every parameter left.
    req.read_as_of()?;
    let query = compare_query(req)?;
    let (comparison, sources) = compare::compare(req.store()?, &req.state.catalogue, &query)?;
    let data = crate::json_text::written(|out| comparison.write_json(out));
    cited_text(data, sources)
}

/// The comparison a request asks for (the explorer's comparison page takes the same query).
pub fn compare_query(req: &mut Req) -> Result<CompareQuery, ApiError> {
    let regions: Vec<String> = req
        .query
        .require("regions")?
        .split(',')
        .map(|r| r.trim().to_owned())
        .collect();
    if regions.iter().any(String::is_empty) {
        return Err(ApiError::invalid(
            "regions",
            "empty region code in the list",
        ));
    }
    let dataset = req.query.require("dataset")?;
    let period = req.query.take_period("period")?;
    let filters = req.query.take_rest();
    Ok(CompareQuery {
        regions,
        dataset,
        period,
        filters,
    })
}
