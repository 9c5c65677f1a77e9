//! The route table: one line of runtime facts per route, the one list that drives routing
//! (`router.rs`), the pipeline's per-route behaviour (`mod.rs`) and the OpenAPI document (whose
//! prose for each operation lives in `openapi::operations`, under the route's operation id). A
//! route added here (with its entry in `openapi::operations`, which a unit test demands) is
//! routed, documented and covered by the route-enumerating tests at once.

use http::Method;

use super::handlers::Handler::{Blocking, Heavy, Indexed, Inline, Memory};
use super::handlers::{
    Handler, account, analytics, briefings, citations, compare, datasets, explore, meta, pages,
    private, regions, webhooks,
};
use Access::{Credential, Institutional, Public, Session};

pub struct Route {
    pub method: Method,
    /// Path template below the base path (`/regions/{region_code}`), or from the root when `root`.
    /// A parameter may carry a fixed suffix in its segment (`{dataset_code}.csv`).
    pub path: &'static str,
    /// The operation's name in the OpenAPI document and in `--route-weight`.
    pub operation_id: &'static str,
    /// Who may call it (checked before the handler runs).
    pub access: Access,
    pub handler: Handler,
    /// The request body it takes.
    pub body: BodyKind,
    /// Answers depend only on the data, the path, the query and the caller's account: they are
    /// cached per data generation and carry an ETag.
    pub cacheable: bool,
    /// The answer carries a secret (a key's plaintext, a session token): never compressed
    /// (BREACH) and never stored.
    pub secret: bool,
    /// The body presents a credential (the login's password): like a request with a key or a
    /// token, it waits while its address has used up its failed authentications.
    pub presents_credential: bool,
    /// Served at the root of the host (`/healthz`), outside the base path and the OpenAPI
    /// document.
    pub root: bool,
    /// An explorer page: HTML rendered from the answers of data routes, errors as HTML pages
    /// too, and a browser's session cookie alone enough to read it as its account.
    pub explore: bool,
    /// The JSON body's `url` is a webhook URL whose host is resolved and checked before the
    /// handler takes a permit of the blocking pool.
    pub checks_webhook_url: bool,
    /// What a call costs against rate limits, in requests; 0 for operational routes, which are
    /// not counted. See [`Route::cost`].
    pub weight: u64,
    /// The length of `path` before its first parameter: a path that does not begin so is not
    /// this route's.
    fixed_len: usize,
}

/// Who may call a route. A caller without the right answers 401 (no or bad credential) or 403
/// (a credential of the wrong kind or tier).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access {
    /// Anyone; a credential, if sent, must be valid and adds the account's private data.
    Public,
    /// Any valid API key or session token.
    Credential,
    /// An account of the institutional tier.
    Institutional,
    /// A browser session token (the account plane); an API key is refused with 403.
    Session,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BodyKind {
    None,
    Json,
    Csv,
}

const GET: Method = Method::GET;
const POST: Method = Method::POST;
const PUT: Method = Method::PUT;
const DELETE: Method = Method::DELETE;
const PATCH: Method = Method::PATCH;

#[rustfmt::skip]
pub static ROUTES: &[Route] = &[
    Route::new(GET,    "/regions",                           "listRegions",        Public,        Indexed(regions::list)).cached(),
    Route::new(GET,    "/regions/{region_code}",             "getRegion",          Public,        Inline(regions::get)).cached(),
    Route::new(GET,    "/regions/{region_code}/profile",     "getRegionProfile",   Public,        Inline(regions::profile)).cached(),
    Route::new(GET,    "/compare",                           "compareRegions",     Public,        Inline(compare::compare)).cached(),
    Route::new(GET,    "/datasets",                          "listDatasets",       Public,        Heavy(datasets::list)).cached(),
    Route::new(GET,    "/datasets/{dataset_code}",           "getDataset",         Public,        Heavy(datasets::get)).cached(),
    Route::new(GET,    "/datasets/{dataset_code}/snapshots", "listDatasetSnapshots", Public,       Heavy(datasets::snapshots)).cached(),
    Route::new(GET,    "/datasets/{dataset_code}/changes",   "listDatasetChanges", Public,        Heavy(datasets::changes)).cached(),
    Route::new(GET,    "/citations/{citation_id}",           "getCitation",        Public,        Inline(citations::get)).cached(),
    Route::new(GET,    "/citations/{citation_id}/revisions", "listCitationRevisions", Public,      Inline(citations::revisions)).cached(),
    Route::new(POST,   "/auth/login",                        "login",              Public,        Blocking(account::login)).json().secret().presents_credential(),
    Route::new(POST,   "/auth/logout",                       "logout",             Session,       Blocking(account::logout)),
    Route::new(GET,    "/account/api-keys",                  "listApiKeys",        Session,       Inline(account::list_keys)),
    Route::new(POST,   "/account/api-keys",                  "createApiKey",       Session,       Blocking(account::create_key)).json().secret(),
    Route::new(DELETE, "/account/api-keys/{key_id}",         "revokeApiKey",       Session,       Blocking(account::revoke_key)),
    Route::new(POST,   "/datasets",                          "createDataset",      Credential,    Blocking(private::create)).json(),
    Route::new(PUT,    "/datasets/{dataset_code}/data",      "putDatasetData",     Credential,    Blocking(private::put_data)).csv(),
    Route::new(POST,   "/briefings",                         "createBriefing",     Institutional, Blocking(briefings::create)).json().weight(10),
    Route::new(GET,    "/briefings",                         "listBriefings",      Institutional, Inline(briefings::list)),
    Route::new(GET,    "/briefings/{briefing_id}",           "getBriefing",        Institutional, Heavy(briefings::get)),
    Route::new(GET,    "/export/bulk/{dataset_code}.csv",    "exportDataset",      Institutional, Inline(analytics::export)).weight(20),
    Route::new(GET,    "/export/bulk/{dataset_code}.csv-metadata.json", "exportMetadata", Institutional, Inline(analytics::export_metadata)).cached(),
    Route::new(GET,    "/intelligence/correlations/matrix",  "correlationMatrix",  Credential,    Heavy(analytics::correlations)).cached().weight(5),
    Route::new(GET,    "/account/usage",                     "getUsage",           Credential,    Inline(account::usage)),
    Route::new(POST,   "/webhooks",                          "createWebhook",      Credential,    Blocking(webhooks::create)).json().secret().checks_webhook_url(),
    Route::new(GET,    "/webhooks",                          "listWebhooks",       Credential,    Inline(webhooks::list)),
    Route::new(GET,    "/webhooks/{webhook_id}",             "getWebhook",         Credential,    Inline(webhooks::get)),
    Route::new(PATCH,  "/webhooks/{webhook_id}",             "updateWebhook",      Credential,    Blocking(webhooks::update)).json().checks_webhook_url(),
    Route::new(DELETE, "/webhooks/{webhook_id}",             "deleteWebhook",      Credential,    Blocking(webhooks::delete)),
    Route::new(POST,   "/webhooks/{webhook_id}/rotate-secret", "rotateWebhookSecret", Credential, Blocking(webhooks::rotate_secret)).secret(),
    Route::new(POST,   "/webhooks/{webhook_id}/test",        "testWebhook",        Credential,    Blocking(webhooks::test)),
    Route::new(GET,    "/webhooks/{webhook_id}/deliveries",  "listWebhookDeliveries", Credential, Heavy(webhooks::deliveries)),
    Route::new(POST,   "/webhooks/{webhook_id}/replay",      "replayWebhookEvents", Credential,   Blocking(webhooks::replay)).json().weight(10),
    Route::new(POST,   "/webhooks/deliveries/{delivery_id}/resend", "resendWebhookDelivery", Credential, Blocking(webhooks::resend)),
    Route::new(GET,    "/openapi.json",                      "getOpenApi",         Public,        Inline(meta::openapi)),
    Route::new(POST,   "/account/session",                   "startBrowserSession", Public,       Blocking(account::browser_login)).json().secret().presents_credential().root(),
    Route::new(DELETE, "/account/session",                   "endBrowserSession",  Session,       Blocking(account::browser_logout)).root(),
    Route::new(GET,    "/healthz",                           "healthz",            Public,        Inline(meta::healthz)).root().weight(0),
    Route::new(GET,    "/readyz",                            "readyz",             Public,        Inline(meta::readyz)).root().weight(0),
    Route::new(GET,    "/",                                  "pageHome",           Public,        Memory(pages::home)).page(),
    Route::new(GET,    "/account/login",                     "pageLogin",          Public,        Memory(pages::login)).page(),
    Route::new(GET,    "/account/api-keys",                  "pageApiKeys",        Public,        Memory(pages::api_keys)).page(),
    Route::new(GET,    "/account/webhooks",                  "pageWebhooks",       Public,        Memory(pages::webhooks)).page(),
    Route::new(GET,    "/account/usage",                     "pageUsage",          Public,        Memory(pages::usage)).page(),
    Route::new(GET,    "/docs",                              "pageDocs",           Public,        Memory(pages::docs)).page(),
    Route::new(GET,    "/explore",                           "pageExplore",        Public,        Indexed(explore::home)).explore(),
    Route::new(GET,    "/explore/regions/{region_code}",     "pageExploreRegion",  Public,        Inline(explore::region)).explore(),
    Route::new(GET,    "/explore/maps/{dataset_code}",       "pageExploreMap",     Public,        Heavy(explore::map)).explore().weight(5),
    Route::new(GET,    "/explore/compare",                   "pageExploreCompare", Public,        Inline(explore::compare)).explore(),
    Route::new(GET,    "/explore/matrix",                    "pageExploreMatrix",  Credential,    Heavy(explore::matrix)).explore().weight(5),
    Route::new(GET,    "/explore/briefings/{briefing_id}",   "pageExploreBriefing", Institutional, Heavy(explore::briefing)).explore(),
    Route::new(GET,    "/explore/citations/{citation_id}",   "pageExploreCitation", Public,       Inline(explore::citation)).explore(),
    Route::new(GET,    "/assets/account.js",                 "assetScript",        Public,        Memory(pages::script)).page(),
    Route::new(GET,    "/assets/style.css",                  "assetStyle",         Public,        Memory(pages::style)).page(),
    Route::new(GET,    "/assets/icon.svg",                   "assetIcon",          Public,        Memory(pages::icon)).page(),
];

impl Route {
    /// A route below the base path that takes no body, costs 1 and is not cached.
    const fn new(
        method: Method,
        path: &'static str,
        operation_id: &'static str,
        access: Access,
        handler: Handler,
    ) -> Route {
        Route {
            method,
            path,
            operation_id,
            access,
            handler,
            body: BodyKind::None,
            cacheable: false,
            secret: false,
            presents_credential: false,
            root: false,
            explore: false,
            checks_webhook_url: false,
            weight: 1,
            fixed_len: fixed_len(path),
        }
    }

    /// The part of the path before its first parameter.
    pub fn fixed(&self) -> &'static str {
        &self.path[..self.fixed_len]
    }

    const fn cached(mut self) -> Route {
        self.cacheable = true;
        self
    }

    const fn json(mut self) -> Route {
        self.body = BodyKind::Json;
        self
    }

    const fn csv(mut self) -> Route {
        self.body = BodyKind::Csv;
        self
    }

    const fn secret(mut self) -> Route {
        self.secret = true;
        self
    }

    const fn presents_credential(mut self) -> Route {
        self.presents_credential = true;
        self
    }

    const fn checks_webhook_url(mut self) -> Route {
        self.checks_webhook_url = true;
        self
    }

    const fn root(mut self) -> Route {
        self.root = true;
        self
    }

    /// An explorer page: at the root, cached per data generation and account like the answers
    /// it shows, and costing what they cost (1 unless set, as the matrix's 5; `--route-weight`
    /// overrides a page by its own operation id).
    const fn explore(mut self) -> Route {
        self.explore = true;
        self.root().cached()
    }

    /// A page of the host's root or one of its assets: static bytes, not counted against rate
    /// limits (like the health checks: no work to protect, and a person browsing the account
    /// area should not spend the calls their programs need).
    const fn page(self) -> Route {
        self.root().weight(0)
    }

    const fn weight(mut self, weight: u64) -> Route {
        self.weight = weight;
        self
    }

    /// What a call costs: the operator's override for this operation (`--route-weight
    /// <operation id>=<cost>`), else the table's weight.
    pub fn cost(&self, overrides: &[(String, u64)]) -> u64 {
        overrides
            .iter()
            .find(|(operation, _)| operation == self.operation_id)
            .map_or(self.weight, |(_, weight)| *weight)
    }
}

/// The bytes of `path` before its first `{`.
const fn fixed_len(path: &str) -> usize {
    let bytes = path.as_bytes();
    let mut at = 0;
    while at < bytes.len() && bytes[at] != b'{' {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(operation_id: &str) -> &'static Route {
        (ROUTES.iter())
            .find(|r| r.operation_id == operation_id)
            .unwrap_or_else(|| panic!("no route {operation_id}"))
    }

    /// An explorer page costs what the answer it draws costs (the map, which has no API route of
    /// its own, 5: it reads every region of its level); the account area's pages and assets cost
    /// nothing.
    #[test]
    fn a_page_costs_what_the_answer_it_shows_costs() {
        for (page, answer) in [
            ("pageExploreRegion", "getRegionProfile"),
            ("pageExploreCompare", "compareRegions"),
            ("pageExploreMatrix", "correlationMatrix"),
            ("pageExploreBriefing", "getBriefing"),
            ("pageExploreCitation", "getCitation"),
            ("pageExplore", "listRegions"),
        ] {
            assert_eq!(route(page).cost(&[]), route(answer).cost(&[]), "{page}");
        }
        assert_eq!(route("pageExploreMap").cost(&[]), 5);
        for free in ROUTES.iter().filter(|r| r.root && !r.explore) {
            let probe = matches!(free.operation_id, "healthz" | "readyz");
            let page =
                free.operation_id.starts_with("page") || free.operation_id.starts_with("asset");
            if probe || page {
                assert_eq!(free.cost(&[]), 0, "{}", free.operation_id);
            }
        }
        let overrides = [("pageExploreMap".to_owned(), 7)];
        assert_eq!(route("pageExploreMap").cost(&overrides), 7);
        assert_eq!(route("pageExploreRegion").cost(&overrides), 1);
    }
}
