//! The explorer's pages (`/explore/...`): the same domain answers as the JSON routes, rendered
//! as HTML by `crate::explore`, or with `format=csv` the figures a page shows as CSV. A
//! signed-in browser's session cookie is enough to read them (its own private datasets
//! included); they change nothing.

use hyper::body::Bytes;

use super::Req;
use crate::domain::regions::{self, RegionQuery};
use crate::domain::{Citer, Rejection, briefings, citations, correlations, maps, profile};
use crate::explore::{self, region::RegionPage};
use crate::http::error::ApiError;
use crate::http::query::encode_into;
use crate::reply::Reply;
use crate::store::as_of::AsOf;

const HTML: &str = "text/html; charset=utf-8";
const CSV: &str = "text/csv; charset=utf-8";
/// The most search results the front page lists.
const SEARCH_LIMIT: usize = 50;

/// What a request of a view asks for: the page, or its figures as CSV (`format=csv`); and the
/// view's own address with its query, from which the page links its CSV.
struct View {
    csv: bool,
    /// The path and the query (canonical, without `format`; with `as_of`, if asked).
    href: String,
    /// The moment the page is read as of, if not now (see `Req::read_as_of`).
    as_of: Option<AsOf>,
    /// The page's address without `as_of` and `as_of_basis`: the page as of now.
    now_href: String,
}

impl View {
    /// The view `path` (which reads data: it takes `as_of` too) that `req` asks for.
    fn of(req: &mut Req, path: &str) -> Result<View, ApiError> {
        View::new(req, path, true)
    }

    /// The view of what is stored as it was written (it takes no `as_of`).
    fn of_stored(req: &mut Req, path: &str) -> Result<View, ApiError> {
        View::new(req, path, false)
    }

    fn new(req: &mut Req, path: &str, reads_data: bool) -> Result<View, ApiError> {
        let csv = match req.query.take("format").as_deref() {
            None => false,
            Some("csv") => true,
            Some(_) => {
                return Err(ApiError::invalid(
                    "format",
                    "format is csv (the view's figures), or absent for the page",
                ));
            }
        };
        let with_query = |query: String| match query.is_empty() {
            true => path.to_owned(),
            false => format!("{path}?{query}"),
        };
        let href = with_query(req.query.canonical());
        // Taken before the page's own parameters: the comparison's dimension filters take
        // every parameter left.
        if reads_data {
            req.read_as_of()?;
        }
        let now_href = with_query(req.query.canonical());
        let as_of = req.store()?.as_of();
        Ok(View {
            csv,
            href,
            as_of,
            now_href,
        })
    }

    /// `as_of=...&as_of_basis=...` for a link to read as of the page's moment, or nothing.
    fn as_of_query(&self) -> String {
        match self.as_of {
            Some(as_of) => format!(
                "as_of={}&as_of_basis={}",
                crate::runtime::clock::rfc3339_millis(as_of.at_ms),
                as_of.basis.as_str()
            ),
            None => String::new(),
        }
    }

    fn csv_href(&self) -> String {
        let joiner = if self.href.contains('?') { '&' } else { '?' };
        format!("{}{joiner}format=csv", self.href)
    }

    /// The page, or `csv` when the figures were asked for.
    fn answer(
        &self,
        req: &Req,
        title: &str,
        api_href: &str,
        main_html: impl FnOnce() -> String,
        csv: impl FnOnce() -> Vec<u8>,
    ) -> Reply {
        if self.csv {
            return Reply::Raw {
                content_type: CSV,
                body: Bytes::from(csv()),
            };
        }
        let mut main = match self.as_of {
            Some(as_of) => explore::as_of_html(
                &crate::runtime::clock::rfc3339_millis(as_of.at_ms),
                as_of.basis.as_str(),
                &self.now_href,
            ),
            None => String::new(),
        };
        main.push_str(&main_html());
        // The API's answer read as of the same moment.
        let api_href = match self.as_of {
            Some(_) => {
                let joiner = if api_href.contains('?') { '&' } else { '?' };
                format!("{api_href}{joiner}{}", self.as_of_query())
            }
            None => api_href.to_owned(),
        };
        main.push_str(&explore::view_links(&api_href, &self.csv_href()));
        Reply::Raw {
            content_type: HTML,
            body: crate::pages::explore_page(title, &req.state.base_path, &main),
        }
    }
}

/// A path segment or query value, percent-encoded.
fn encoded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    encode_into(&mut out, text);
    out
}

/// `GET /explore`: the search and the countries.
pub fn home(req: &mut Req) -> Result<Reply, ApiError> {
    let view = View::of(req, "/explore")?;
    let search = req.query.take("q").filter(|q| !q.trim().is_empty());
    if search.as_deref().is_some_and(|s| s.chars().count() > 100) {
        return Err(ApiError::invalid("q", "q must have 1 to 100 characters"));
    }
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let list = |citer: &mut Citer, level, search, limit| {
        regions::list(
            store,
            citer,
            &RegionQuery {
                level,
                country: None,
                search,
                after: None,
                limit,
            },
        )
    };
    let countries = list(&mut citer, Some(0), None, 100)?;
    let found = match search.as_deref() {
        Some(search) => Some(list(&mut citer, None, Some(search.trim()), SEARCH_LIMIT)?),
        None => None,
    };
    let api = match &search {
        Some(q) => format!("{}/regions?q={}", req.state.base_path, encoded(q.trim())),
        None => format!("{}/regions?level=0", req.state.base_path),
    };
    Ok(view.answer(
        req,
        "Explore the regions",
        &api,
        || {
            explore::home::render(
                search.as_deref(),
                found
                    .as_ref()
                    .map(|f| (f.regions.as_slice(), f.next_after.is_some())),
                &countries.regions,
                &req.state.boundaries().attribution,
            )
        },
        || explore::home::csv(found.as_ref().unwrap_or(&countries).regions.as_slice()),
    ))
}

/// `GET /explore/regions/{region_code}`.
pub fn region(req: &mut Req) -> Result<Reply, ApiError> {
    let code = req.param("region_code").to_owned();
    let view = View::of(req, &format!("/explore/regions/{}", encoded(&code)))?;
    req.no_more_params()?;
    let store = req.store()?;
    let (profile, _) = profile::profile(store, &req.state.catalogue, &code)?;
    let code = profile.region.summary.code.clone();
    let title = profile
        .region
        .summary
        .name
        .as_deref()
        .map_or(code.clone(), |n| format!("{n} ({code})"));
    let api = format!("{}/regions/{code}/profile", req.state.base_path);
    if view.csv {
        return Ok(view.answer(req, &title, &api, String::new, || {
            explore::region::csv(&profile)
        }));
    }
    let mut ancestors = Vec::new();
    let mut parent = profile.region.summary.parent_code.clone();
    while let Some(p) = parent {
        let Some(row) = store.region(&p)? else { break };
        parent = row.parent_code.clone();
        ancestors.push(row);
    }
    ancestors.reverse();
    let mut children = Vec::with_capacity(profile.region.children.len());
    for child in &profile.region.children {
        if let Some(row) = store.region(child)? {
            children.push(row);
        }
    }
    let siblings = match &profile.region.summary.parent_code {
        Some(p) => store.children(p)?,
        None => Vec::new(),
    };
    let page = RegionPage {
        profile: &profile,
        ancestors,
        children,
        siblings,
    };
    Ok(view.answer(
        req,
        &title,
        &api,
        || explore::region::render(&page, req.state.boundaries()),
        Vec::new,
    ))
}

/// `GET /explore/maps/{dataset_code}`: `level`, `period` and the series' dimensions.
pub fn map(req: &mut Req) -> Result<Reply, ApiError> {
    let dataset = req.param("dataset_code").to_owned();
    let view = View::of(req, &format!("/explore/maps/{}", encoded(&dataset)))?;
    let level = req.query.take_int("level", 0, 3)?;
    let period = req.query.take_period("period")?;
    let filters = req.query.take_rest();
    let figures = maps::figures(
        req.store()?,
        &req.state.catalogue,
        &maps::MapQuery {
            dataset,
            level,
            period,
            filters: filters.clone(),
        },
    )?;
    let series: Vec<String> = filters
        .iter()
        .map(|(name, value)| format!("{}={}", encoded(name), encoded(value)))
        .collect();
    let title = format!(
        "{}: map of NUTS {} regions",
        figures.dataset.title, figures.level
    );
    let api = format!("{}/datasets/{}", req.state.base_path, figures.dataset.code);
    Ok(view.answer(
        req,
        &title,
        &api,
        || {
            explore::map_page::render(
                &figures,
                req.state.boundaries(),
                &explore::map_page::SeriesQuery {
                    filters: &filters,
                    encoded: &series.join("&"),
                },
            )
        },
        || explore::map_page::csv(&figures),
    ))
}

/// `GET /explore/compare`: the comparison's query, as `/compare` takes it.
pub fn compare(req: &mut Req) -> Result<Reply, ApiError> {
    let view = View::of(req, "/explore/compare")?;
    let api = format!("{}/compare?{}", req.state.base_path, req.query.canonical());
    let query = super::compare::compare_query(req)?;
    let (comparison, _) =
        crate::domain::compare::compare(req.store()?, &req.state.catalogue, &query)?;
    let title = format!("{}: a comparison", comparison.dataset.title);
    Ok(view.answer(
        req,
        &title,
        &api,
        || explore::compare::render(&comparison),
        || explore::compare::csv(&comparison),
    ))
}

/// `GET /explore/matrix`: the matrix's query, as the correlation matrix takes it, and the
/// cell chosen (`x` and `y`, two of its variables) whose scatter plot the page shows.
pub fn matrix(req: &mut Req) -> Result<Reply, ApiError> {
    // The view's address keeps the cell, so its CSV gives the cell's pairs.
    let view = View::of(req, "/explore/matrix")?;
    let chosen = match (req.query.take("x"), req.query.take("y")) {
        (Some(x), Some(y)) => Some((x, y)),
        (None, None) => None,
        _ => {
            return Err(ApiError::invalid(
                "x",
                "give x and y together: the cell's two variables",
            ));
        }
    };
    let matrix_query = req.query.canonical();
    let query = super::analytics::matrix_query(req)?;
    req.no_more_params()?;
    let (matrix, _) = correlations::matrix(req.store()?, &req.state.catalogue, &query)?;
    if let Some((x, y)) = &chosen {
        for (name, id) in [("x", x), ("y", y)] {
            if !matrix.variables.iter().any(|v| v.id == *id) {
                return Err(ApiError::invalid(
                    name,
                    format!("{name} must name one of the matrix's variables (dataset codes)"),
                ));
            }
        }
    }
    let chosen = chosen.as_ref().map(|(x, y)| (x.as_str(), y.as_str()));
    let as_of = match view.as_of {
        Some(_) => format!("&{}", view.as_of_query()),
        None => String::new(),
    };
    let cell_href = |x: &str, y: &str| {
        format!(
            "/explore/matrix?{matrix_query}&x={}&y={}{as_of}#scatter",
            encoded(x),
            encoded(y)
        )
    };
    let title = format!("Correlations: {}", matrix.region.code);
    let api = format!(
        "{}/intelligence/correlations/matrix?{matrix_query}",
        req.state.base_path
    );
    Ok(view.answer(
        req,
        &title,
        &api,
        || explore::matrix::render(&matrix, chosen, &cell_href),
        || explore::matrix::csv(&matrix, chosen),
    ))
}

/// `GET /explore/briefings/{briefing_id}`: one of the account's briefings.
pub fn briefing(req: &mut Req) -> Result<Reply, ApiError> {
    let id = req.param("briefing_id").to_owned();
    let view = View::of_stored(req, &format!("/explore/briefings/{}", encoded(&id)))?;
    req.no_more_params()?;
    let store = req.store()?;
    let row = store.briefing(&id)?.ok_or_else(|| {
        Rejection::NotFound(format!("no briefing {}", crate::error_text::shown(&id)))
    })?;
    let (briefing, _) = briefings::stored(store, &req.state.catalogue, &row)?;
    let api = format!("{}/briefings/{id}", req.state.base_path);
    Ok(view.answer(
        req,
        &briefing.title,
        &api,
        || explore::briefing::render(&briefing),
        || explore::briefing::csv(&briefing),
    ))
}

/// `GET /explore/citations/{citation_id}`.
pub fn citation(req: &mut Req) -> Result<Reply, ApiError> {
    let id = req.param("citation_id").to_owned();
    let view = View::of(req, &format!("/explore/citations/{}", encoded(&id)))?;
    req.no_more_params()?;
    let found = citations::find(req.store()?, &req.state.catalogue, &id)?;
    let api = format!("{}/citations/{id}", req.state.base_path);
    if view.csv {
        return Ok(view.answer(req, "", &api, String::new, || {
            explore::citation::csv(&found)
        }));
    }
    let revisions = match &found {
        citations::Citation::Row(_) => {
            crate::domain::revisions::list(req.store()?, &req.state.catalogue, &id)?
        }
        _ => Vec::new(),
    };
    let (title, main) = explore::citation::render(&found, &revisions);
    Ok(view.answer(req, &title, &api, || main, Vec::new))
}
