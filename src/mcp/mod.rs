//! regintel as a Model Context Protocol server (https://modelcontextprotocol.io): tools for AI
//! assistants over the REST API's answers. Each tool makes the REST request it mirrors through a
//! [`Backend`] with the caller's own credential, so it costs what that route costs, under the
//! same limits, and sees only what the credential may see: over HTTPS for `regintel mcp` (stdio),
//! or in-process for `{base_url}/mcp`.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::Value;

/// An answer of the REST API: its status and its JSON body.
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

/// The largest answer a tool reads: a NUTS 3 profile is about 2 MB.
pub const MAX_ANSWER_BYTES: usize = 16 << 20;

/// A REST response read whole (at most [`MAX_ANSWER_BYTES`]) as the tool's [`Answer`], as either
/// backend receives it.
pub async fn read_answer<B>(response: http::Response<B>) -> anyhow::Result<Answer>
where
    B: http_body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    use http_body_util::BodyExt;
    let status = response.status().as_u16();
    let bytes = http_body_util::Limited::new(response.into_body(), MAX_ANSWER_BYTES)
        .collect()
        .await
        .map_err(|e| anyhow::anyhow!("cannot read the answer: {e}"))?
        .to_bytes();
    let body = serde_json::from_slice(&bytes)
        .map_err(|e| anyhow::anyhow!("the answer is not JSON: {e}"))?;
    Ok(Answer { status, body })
}

pub type BackendFuture<'a> = Pin<Box<dyn Future<Output = anyhow::Result<Answer>> + Send + 'a>>;

/// A tool's REST request: the segments of its path below the API's base path, and its query
/// parameters, each a list of values (sent comma-separated); the backend encodes them.
#[derive(Debug, Default)]
pub struct Call {
    pub segments: Vec<String>,
    pub query: Vec<(&'static str, Vec<String>)>,
}

impl Call {
    pub fn to(segments: &[&str]) -> Call {
        Call {
            segments: segments.iter().map(|s| (*s).to_owned()).collect(),
            query: Vec::new(),
        }
    }

    /// With `name=value`, when there is a value.
    pub fn with(mut self, name: &'static str, value: Option<impl ToString>) -> Call {
        if let Some(value) = value {
            self.query.push((name, vec![value.to_string()]));
        }
        self
    }

    /// With `name=a,b,c`.
    pub fn with_list(mut self, name: &'static str, values: &[String]) -> Call {
        self.query.push((name, values.to_vec()));
        self
    }
}

/// Where tools send their REST requests.
pub trait Backend: Send + Sync + 'static {
    fn get(&self, call: Call) -> BackendFuture<'_>;
    fn post(&self, call: Call, body: Value) -> BackendFuture<'_>;
}

/// Pages of 100 datasets `search_datasets` reads at most.
const MAX_DATASET_PAGES: usize = 50;

/// What the server's instructions say of every number: it comes with a citation, to be quoted.
const CITE: &str = " Every number in the result carries a citation id (`cit_...`) resolving to the \
    primary data row it comes from (`get_citation`): quote the citation with the number, and say \
    the period, unit and any flags (provisional, estimated, break in series) given with it.";

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchRegions {
    #[schemars(description = "Part of a region's name or code, e.g. 'Bayern' or 'DE2'.")]
    pub query: Option<String>,
    #[schemars(description = "NUTS level: 0 (countries) to 3 (small regions).")]
    pub level: Option<u8>,
    #[schemars(description = "A country's NUTS code, e.g. 'DE'.")]
    pub country: Option<String>,
    // Regions are the running release's at any moment: taken so that a conversation reads as
    // of one moment throughout.
    #[serde(flatten)]
    pub moment: Moment,
}

/// The moment a tool reads as of (every tool takes one).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Moment {
    #[schemars(
        description = "Answer as regintel would have at this moment: an RFC 3339 date-time or a date (its end, UTC), not later than now; now if absent."
    )]
    pub as_of: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RegionCode {
    #[schemars(description = "A NUTS region code, e.g. 'DE21' (Oberbayern).")]
    pub region: String,
    #[serde(flatten)]
    pub moment: Moment,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Compare {
    #[schemars(description = "Two to 50 NUTS region codes, e.g. ['DE21', 'FR10'].")]
    pub regions: Vec<String>,
    #[schemars(description = "A dataset code from search_datasets, e.g. 'tgs00010'.")]
    pub dataset: String,
    #[schemars(description = "A period, e.g. '2022'; the latest the regions share if absent.")]
    pub period: Option<String>,
    #[serde(flatten)]
    pub moment: Moment,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CitationId {
    #[schemars(description = "A citation id from a result, e.g. 'cit_...'.")]
    pub citation: String,
    #[serde(flatten)]
    pub moment: Moment,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchDatasets {
    #[schemars(
        description = "Words to look for in a dataset's code, title or topic, e.g. 'unemployment'; all datasets if absent."
    )]
    pub query: Option<String>,
    #[serde(flatten)]
    pub moment: Moment,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Matrix {
    #[schemars(description = "The region whose subregions are correlated, e.g. 'DE'.")]
    pub region: String,
    #[schemars(
        description = "The NUTS level of the subregions (1 to 3); the next below if absent."
    )]
    pub level: Option<u8>,
    #[schemars(
        description = "Two to 20 dataset codes (a matrix holds at most 20 variables), e.g. ['tgs00010', 'tgs00007']."
    )]
    pub datasets: Vec<String>,
    #[schemars(description = "'pearson' (default) or 'spearman'.")]
    pub method: Option<String>,
    #[serde(flatten)]
    pub moment: Moment,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BriefingRequest {
    #[schemars(description = "A NUTS region code, e.g. 'DE21'.")]
    pub region: String,
    #[schemars(
        description = "One of profile_summary, economy, labour_market, demography, health, peer_comparison."
    )]
    pub briefing_type: String,
    #[serde(flatten)]
    pub moment: Moment,
}

pub struct Tools {
    backend: Box<dyn Backend>,
    tool_router: ToolRouter<Tools>,
}

impl Tools {
    pub fn new(backend: Box<dyn Backend>) -> Tools {
        // The tools' JSON schemas are generated once, not for every message of the HTTP
        // transport (each message makes its own `Tools`).
        static ROUTER: std::sync::LazyLock<ToolRouter<Tools>> =
            std::sync::LazyLock::new(Tools::tool_router);
        Tools {
            backend,
            tool_router: ROUTER.clone(),
        }
    }

    /// The API's answer, or an error when the call is cancelled first: a client that goes away
    /// (or cancels) ends the REST request it was waiting for, as it would end its own REST
    /// request by closing the connection.
    async fn fetch(
        &self,
        request: BackendFuture<'_>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Answer, ErrorData> {
        tokio::select! {
            answer = request => answer.map_err(|e| {
                ErrorData::internal_error(format!("regintel did not answer: {e}"), None)
            }),
            () = context.ct.cancelled() => {
                Err(ErrorData::internal_error("the call was cancelled", None))
            }
        }
    }

    /// The API's answer as the tool's result: its JSON whole (data, citations, warnings); an
    /// error answer as a tool error carrying the API's error, which the assistant can read.
    async fn answer(
        &self,
        request: BackendFuture<'_>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let answer = self.fetch(request, context).await?;
        result(answer)
    }
}

/// A REST answer as a tool's result.
fn result(answer: Answer) -> Result<CallToolResult, ErrorData> {
    let text = serde_json::to_string(&answer.body)
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    let content = vec![ContentBlock::text(text)];
    Ok(if (200..300).contains(&answer.status) {
        CallToolResult::success(content)
    } else {
        CallToolResult::error(content)
    })
}

#[tool_router]
impl Tools {
    #[tool(
        description = "Search European regions by name or code (NUTS 2024 and 2021 \
        classifications: countries, NUTS 1, 2 and 3). Returns codes, names, levels and \
        parents; use the codes with the other tools."
    )]
    async fn search_regions(
        &self,
        Parameters(q): Parameters<SearchRegions>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let query = q.query.filter(|s| !s.trim().is_empty());
        let call = Call::to(&["regions"])
            .with("limit", Some(50))
            .with("q", query.as_deref().map(str::trim))
            .with("level", q.level)
            .with("country", q.country)
            .with("as_of", q.moment.as_of);
        self.answer(self.backend.get(call), &context).await
    }

    #[tool(
        description = "A region's profile: each headline indicator (population, GDP, \
        unemployment, ...) with its unit, its latest value and period, and its history; \
        warnings say what to mind (stale periods, breaks). Quote each value with its citation id."
    )]
    async fn region_profile(
        &self,
        Parameters(r): Parameters<RegionCode>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let call = Call::to(&["regions", &r.region, "profile"]).with("as_of", r.moment.as_of);
        self.answer(self.backend.get(call), &context).await
    }

    #[tool(
        description = "Compare one dataset's headline series across regions at one \
        period: each region's value, rank and difference to the first region. Quote each value with its citation id."
    )]
    async fn compare_regions(
        &self,
        Parameters(c): Parameters<Compare>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let call = Call::to(&["compare"])
            .with_list("regions", &c.regions)
            .with("dataset", Some(&c.dataset))
            .with("period", c.period)
            .with("as_of", c.moment.as_of);
        self.answer(self.backend.get(call), &context).await
    }

    #[tool(
        description = "What a citation id stands for: the data row as published (value, \
        flags explained, period, unit, region), the source file with its SHA-256, line and \
        column, the licence, and how to verify it by hand."
    )]
    async fn get_citation(
        &self,
        Parameters(c): Parameters<CitationId>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let call = Call::to(&["citations", &c.citation]).with("as_of", c.moment.as_of);
        self.answer(self.backend.get(call), &context).await
    }

    #[tool(
        description = "Which statistics exist: each dataset's code, title, topic, unit, \
        dimensions and the regions and periods it covers (public ones, and the caller's own \
        private ones). Use the codes with compare_regions and correlation_matrix."
    )]
    async fn search_datasets(
        &self,
        Parameters(q): Parameters<SearchDatasets>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let query = q.query.unwrap_or_default();
        // The search runs here, over the list's pages, so the check every route makes of its
        // parameters is made here: a control character matches nothing anyone wrote.
        if let Some(why) = crate::text::refusal(&query, false) {
            let message = format!("query {why}");
            let body = serde_json::json!({"data": null, "error": {
                "code": "invalid_parameter", "status": 400, "message": message,
                "details": {"parameter": "query"}}});
            return result(Answer { status: 400, body });
        }
        let words: Vec<String> = (query.split_whitespace()).map(str::to_lowercase).collect();
        let described = |d: &Value| -> String {
            ["code", "title", "topic", "unit", "description"]
                .iter()
                .filter_map(|k| d.get(*k).and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        // Every page of the list (an account may add private datasets to the public ones).
        let mut found = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_DATASET_PAGES {
            let call = Call::to(&["datasets"])
                .with("limit", Some(100))
                .with("cursor", cursor.take())
                .with("as_of", q.moment.as_of.as_deref());
            let answer = self.fetch(self.backend.get(call), &context).await?;
            if !(200..300).contains(&answer.status) {
                return result(answer);
            }
            let page = answer.body;
            if let Some(list) = page.get("data").and_then(Value::as_array) {
                found.extend(
                    list.iter()
                        .filter(|d| {
                            let text = described(d);
                            words.iter().all(|w| text.contains(w.as_str()))
                        })
                        .cloned(),
                );
            }
            cursor = page["meta"]["next_cursor"].as_str().map(str::to_owned);
            if cursor.is_none() {
                break;
            }
        }
        let body = serde_json::json!({ "data": found });
        result(Answer { status: 200, body })
    }

    #[tool(
        description = "Correlations between datasets across the subregions of a region: \
        each pair's r, n (regions used) and p-value, with caveats (small n, outliers, \
        ecological fallacy: a correlation across regions says nothing about people). Never \
        report an r without its n and caveats; its input values carry citation ids."
    )]
    async fn correlation_matrix(
        &self,
        Parameters(m): Parameters<Matrix>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let call = Call::to(&["intelligence", "correlations", "matrix"])
            .with("nuts_code", Some(&m.region))
            .with_list("datasets", &m.datasets)
            .with("level", m.level)
            .with("method", m.method)
            .with("as_of", m.moment.as_of);
        self.answer(self.backend.get(call), &context).await
    }

    #[tool(
        description = "A written briefing on a region (institutional accounts only): \
        prose whose every number is a claim checked against cited rows, with the claims and \
        their citations. Quote the briefing's numbers with their citations."
    )]
    async fn create_briefing(
        &self,
        Parameters(b): Parameters<BriefingRequest>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut body = serde_json::json!({
            "region_nuts_code": b.region,
            "briefing_type": b.briefing_type,
        });
        if let Some(as_of) = b.moment.as_of {
            body["as_of"] = as_of.into();
        }
        self.answer(self.backend.post(Call::to(&["briefings"]), body), &context)
            .await
    }
}

/// The protocol versions regintel speaks, each tested with the official Python SDK: a client
/// asking for another is offered the newest of these.
pub const PROTOCOL_VERSIONS: &[ProtocolVersion] =
    &[ProtocolVersion::V_2025_06_18, ProtocolVersion::V_2025_11_25];

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("regintel", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "regintel answers questions about European regions (NUTS codes) with official \
                 statistics (Eurostat).{CITE}"
            ))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(PROTOCOL_VERSIONS)
    }
}

/// For tests of cancellation: tells its notification (one waiter) when dropped, as a request's
/// future is when its call ends.
#[cfg(test)]
pub(crate) struct NotifiesOnDrop(pub &'static tokio::sync::Notify);

#[cfg(test)]
impl Drop for NotifiesOnDrop {
    fn drop(&mut self) {
        self.0.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rmcp::ServiceExt;
    use serde_json::json;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    use super::*;

    /// The tool's request started, and its future was dropped.
    static ENTERED: tokio::sync::Notify = tokio::sync::Notify::const_new();
    static DROPPED: tokio::sync::Notify = tokio::sync::Notify::const_new();

    /// A backend whose requests never end, and say when they start and when they are dropped.
    struct Held;

    impl Held {
        fn request() -> BackendFuture<'static> {
            Box::pin(async {
                let _dropped = NotifiesOnDrop(&DROPPED);
                ENTERED.notify_one();
                std::future::pending().await
            })
        }
    }

    impl Backend for Held {
        fn get(&self, _: Call) -> BackendFuture<'_> {
            Held::request()
        }

        fn post(&self, _: Call, _: Value) -> BackendFuture<'_> {
            Held::request()
        }
    }

    /// `notifications/cancelled` (as over stdio) ends the request the cancelled call was making:
    /// rmcp only cancels the call's token, and the tool stops waiting on it.
    #[tokio::test]
    async fn a_cancelled_call_ends_the_request_it_was_making() {
        let limit = Duration::from_secs(60);
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let server = tokio::spawn(async move {
            let running = Tools::new(Box::new(Held)).serve(theirs).await?;
            running.waiting().await?;
            anyhow::Ok(())
        });
        let (read, mut write) = tokio::io::split(ours);
        let mut lines = BufReader::new(read).lines();
        let mut send = async |message: Value| {
            let line = format!("{message}\n");
            write.write_all(line.as_bytes()).await.unwrap();
        };
        send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}}),
        )
        .await;
        let answer = tokio::time::timeout(limit, lines.next_line())
            .await
            .expect("an answer to initialize")
            .unwrap()
            .unwrap();
        assert!(answer.contains(r#""serverInfo""#), "{answer}");
        send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
        send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "region_profile", "arguments": {"region": "DE21"}}}))
        .await;
        tokio::time::timeout(limit, ENTERED.notified())
            .await
            .expect("the tool call's request started");
        send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 2, "reason": "the user stopped it"}}),
        )
        .await;
        tokio::time::timeout(limit, DROPPED.notified())
            .await
            .expect("the request ended with its call");
        server.abort();
    }
}
