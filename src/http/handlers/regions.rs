//! `GET /regions`, `/regions/{region_code}`, `/regions/{region_code}/profile`.

use super::{Req, cited, cited_page, cited_text};
use crate::domain::Citer;
use crate::domain::{profile, regions};
use crate::http::error::ApiError;
use crate::http::paging::PageRequest;
use crate::reply::Reply;

const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 1000;

pub fn list(req: &mut Req) -> Result<Reply, ApiError> {
    // Regions are those of the running release, as of any moment; `meta.as_of` says the
    // moment was read.
    req.read_as_of()?;
    let level = req.query.take_int("level", 0, 3)?;
    let country = req.query.take_country("country")?;
    let search = req.query.take("q");
    if search
        .as_deref()
        .is_some_and(|s| s.is_empty() || s.chars().count() > 100)
    {
        return Err(ApiError::invalid("q", "q must have 1 to 100 characters"));
    }
    let page = PageRequest::take(&mut req.query, DEFAULT_LIMIT, MAX_LIMIT)?;
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let found = regions::list(
        store,
        &mut citer,
        &regions::RegionQuery {
            level,
            country: country.as_deref(),
            search: search.as_deref(),
            after: page.cursor.as_deref(),
            limit: page.limit,
        },
    )?;
    let meta = page.meta(found.next_after, Some(found.total));
    cited_page(&regions::Summaries(&found.regions), citer.sources, &meta)
}

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let region = regions::detail(store, &mut citer, req.param("region_code"))?;
    cited(&region, citer.sources)
}

pub fn profile(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    req.no_more_params()?;
    let (profile, sources) =
        profile::profile(req.store()?, &req.state.catalogue, req.param("region_code"))?;
    let data = crate::json_text::written(|out| profile.write_json(out));
    cited_text(data, sources)
}
