//! The API reference as HTML, rendered once at start from the OpenAPI document the server serves:
//! every operation by tag (parameters, request body, responses), the webhook events and the
//! component schemas, cross-linked. No script: the page reads in any browser, offline.

use std::fmt::Write;

use serde_json::{Map, Value};

use super::html::escape;

/// The `<main>` content of `/docs`.
pub fn render(doc: &Value) -> String {
    let mut out = String::new();
    let info = &doc["info"];
    let title = info["title"].as_str().unwrap_or("API reference");
    let _ = write!(out, "<h1>{}</h1>", escape(title));
    if let Some(summary) = info["summary"].as_str() {
        let _ = write!(out, "<p class=\"lead\">{}</p>", prose_inline(summary));
    }
    let base = doc["servers"][0]["url"].as_str().unwrap_or("");
    let _ = write!(
        out,
        "<p>Version {} · base URL <code>{}</code> · every path below is relative to it · \
         <a href=\"{}/openapi.json\">the OpenAPI document</a></p>",
        escape(info["version"].as_str().unwrap_or("")),
        escape(base),
        escape(base),
    );
    out.push_str(&prose(info["description"].as_str().unwrap_or("")));

    let operations = operations(doc);
    let tags: Vec<(&str, &str)> = doc["tags"]
        .as_array()
        .map(|tags| {
            tags.iter()
                .map(|t| {
                    (
                        t["name"].as_str().unwrap_or(""),
                        t["description"].as_str().unwrap_or(""),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    contents(&mut out, &tags, &operations, doc);
    for (tag, description) in &tags {
        let _ = write!(
            out,
            "<section aria-labelledby=\"tag-{0}\"><h2 id=\"tag-{0}\">{1}</h2><p>{2}</p>",
            escape(tag),
            escape(&capitalised(tag)),
            prose_inline(description)
        );
        for op in operations.iter().filter(|op| op.tag == *tag) {
            operation(&mut out, op);
        }
        out.push_str("</section>");
    }
    events(&mut out, doc);
    schemas(&mut out, doc);
    out
}

struct Operation<'a> {
    method: String,
    path: &'a str,
    tag: &'a str,
    body: &'a Map<String, Value>,
}

impl Operation<'_> {
    fn id(&self) -> &str {
        self.body
            .get("operationId")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    fn summary(&self) -> &str {
        self.body
            .get("summary")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

fn operations(doc: &Value) -> Vec<Operation<'_>> {
    let mut out = Vec::new();
    let Some(paths) = doc["paths"].as_object() else {
        return out;
    };
    for (path, item) in paths {
        let Some(item) = item.as_object() else {
            continue;
        };
        for (method, body) in item {
            let Some(body) = body.as_object() else {
                continue;
            };
            out.push(Operation {
                method: method.to_ascii_uppercase(),
                path,
                tag: body
                    .get("tags")
                    .and_then(|t| t[0].as_str())
                    .unwrap_or("operations"),
                body,
            });
        }
    }
    out
}

fn contents(out: &mut String, tags: &[(&str, &str)], operations: &[Operation<'_>], doc: &Value) {
    out.push_str("<nav aria-label=\"Contents\" class=\"contents\"><h2>Contents</h2><ul>");
    for (tag, _) in tags {
        let _ = write!(
            out,
            "<li><a href=\"#tag-{}\">{}</a><ul>",
            escape(tag),
            escape(&capitalised(tag))
        );
        for op in operations.iter().filter(|op| op.tag == *tag) {
            let _ = write!(
                out,
                "<li><a href=\"#op-{}\"><span class=\"method\">{}</span> <code>{}</code></a> {}</li>",
                escape(op.id()),
                op.method,
                escape(op.path),
                escape(op.summary())
            );
        }
        out.push_str("</ul></li>");
    }
    if doc["webhooks"].as_object().is_some_and(|w| !w.is_empty()) {
        out.push_str("<li><a href=\"#webhook-events\">Webhook events</a></li>");
    }
    out.push_str("<li><a href=\"#schemas\">Schemas</a></li></ul></nav>");
}

fn operation(out: &mut String, op: &Operation<'_>) {
    let _ = write!(
        out,
        "<article class=\"operation\" id=\"op-{}\"><h3><span class=\"method\">{}</span> <code>{}</code></h3><p><strong>{}</strong></p>",
        escape(op.id()),
        op.method,
        escape(op.path),
        escape(op.summary())
    );
    out.push_str(&prose(
        op.body
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or(""),
    ));
    let access = match op.body.get("security").and_then(Value::as_array) {
        None => "anyone (an API key, if sent, adds the account's private data)".to_owned(),
        Some(schemes) if schemes.is_empty() => "anyone".to_owned(),
        Some(schemes) => schemes
            .iter()
            .filter_map(Value::as_object)
            .flat_map(|s| s.keys())
            .map(|s| escape(s))
            .collect::<Vec<_>>()
            .join(" or "),
    };
    let _ = write!(out, "<p>Credential: {access}");
    if let Some(weight) = op.body.get("x-ratelimit-weight").and_then(Value::as_u64) {
        let _ = write!(
            out,
            " · counts as {weight} request{}",
            if weight == 1 { "" } else { "s" }
        );
    }
    out.push_str("</p>");
    parameters(out, op.body.get("parameters"));
    bodies(out, "Request body", op.body.get("requestBody"));
    responses(out, op.body.get("responses"));
    out.push_str("</article>");
}

/// A request body (or an event's payload): each media type and its schema.
fn bodies(out: &mut String, heading: &str, body: Option<&Value>) {
    let Some(content) = body.and_then(|b| b["content"].as_object()) else {
        return;
    };
    let _ = write!(out, "<h4>{heading}</h4><ul>");
    for (media, body) in content {
        let _ = write!(
            out,
            "<li><code>{}</code>: {}</li>",
            escape(media),
            type_of(&body["schema"])
        );
    }
    out.push_str("</ul>");
}

/// Opens a scrollable table with these column headings (closed by [`table_end`]).
fn table_start(out: &mut String, columns: &[&str]) {
    out.push_str("<div class=\"scroll\"><table><thead><tr>");
    for column in columns {
        let _ = write!(out, "<th scope=\"col\">{column}</th>");
    }
    out.push_str("</tr></thead><tbody>");
}

fn table_end(out: &mut String) {
    out.push_str("</tbody></table></div>");
}

/// ` required` after a field's name, when it is.
fn required_mark(required: bool) -> &'static str {
    if required {
        " <span class=\"required\">required</span>"
    } else {
        ""
    }
}

fn parameters(out: &mut String, parameters: Option<&Value>) {
    let Some(parameters) = parameters
        .and_then(Value::as_array)
        .filter(|p| !p.is_empty())
    else {
        return;
    };
    out.push_str("<h4>Parameters</h4>");
    table_start(out, &["Name", "In", "Type", "Description"]);
    for p in parameters {
        let required = required_mark(p["required"].as_bool() == Some(true));
        let _ = write!(
            out,
            "<tr><td><code>{}</code>{required}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(p["name"].as_str().unwrap_or("")),
            escape(p["in"].as_str().unwrap_or("")),
            type_of(&p["schema"]),
            prose_inline(p["description"].as_str().unwrap_or(""))
        );
    }
    table_end(out);
}

fn responses(out: &mut String, responses: Option<&Value>) {
    let Some(responses) = responses.and_then(Value::as_object) else {
        return;
    };
    out.push_str("<h4>Responses</h4>");
    table_start(out, &["Status", "Meaning", "Body"]);
    for (status, response) in responses {
        let body = response["content"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(media, c)| format!("<code>{}</code> {}", escape(media), body_type(&c["schema"])))
            .collect::<Vec<_>>()
            .join("<br>");
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{body}</td></tr>",
            escape(status),
            prose_inline(response["description"].as_str().unwrap_or(""))
        );
    }
    table_end(out);
}

fn events(out: &mut String, doc: &Value) {
    let Some(events) = doc["webhooks"].as_object().filter(|w| !w.is_empty()) else {
        return;
    };
    out.push_str(
        "<section aria-labelledby=\"webhook-events\"><h2 id=\"webhook-events\">Webhook events</h2>",
    );
    for (name, item) in events {
        let post = &item["post"];
        let _ = write!(
            out,
            "<article class=\"operation\" id=\"event-{0}\"><h3><code>{0}</code></h3><p><strong>{1}</strong></p>",
            escape(name),
            escape(post["summary"].as_str().unwrap_or(""))
        );
        out.push_str(&prose(post["description"].as_str().unwrap_or("")));
        parameters(out, post.get("parameters"));
        bodies(out, "Payload", post.get("requestBody"));
        out.push_str("</article>");
    }
    out.push_str("</section>");
}

fn schemas(out: &mut String, doc: &Value) {
    out.push_str("<section aria-labelledby=\"schemas\"><h2 id=\"schemas\">Schemas</h2>");
    for (name, schema) in doc["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
    {
        let _ = write!(
            out,
            "<article class=\"schema\" id=\"schema-{0}\"><h3>{0}</h3>",
            escape(name)
        );
        out.push_str(&prose(schema["description"].as_str().unwrap_or("")));
        match schema["properties"].as_object() {
            Some(properties) => properties_table(out, schema, properties),
            None => {
                let _ = write!(out, "<p>{}</p>", type_of(schema));
            }
        }
        out.push_str("</article>");
    }
    out.push_str("</section>");
}

fn properties_table(out: &mut String, schema: &Value, properties: &Map<String, Value>) {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    table_start(out, &["Field", "Type", "Description"]);
    for (field, property) in properties {
        let mark = required_mark(required.contains(&field.as_str()));
        let _ = write!(
            out,
            "<tr><td><code>{}</code>{mark}</td><td>{}</td><td>{}</td></tr>",
            escape(field),
            type_of(property),
            prose_inline(property["description"].as_str().unwrap_or(""))
        );
    }
    table_end(out);
}

/// A response body: the envelope's `data` type when it is an envelope.
fn body_type(schema: &Value) -> String {
    match schema["properties"].get("data") {
        Some(data) => format!("envelope, <code>data</code>: {}", type_of(data)),
        None => type_of(schema),
    }
}

/// A schema in a few words, with links to the named schemas it uses.
fn type_of(schema: &Value) -> String {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        return format!("<a href=\"#schema-{0}\">{0}</a>", escape(name));
    }
    for (key, word) in [("oneOf", " or "), ("anyOf", " or "), ("allOf", " and ")] {
        if let Some(options) = schema[key].as_array() {
            return options.iter().map(type_of).collect::<Vec<_>>().join(word);
        }
    }
    let kind = match &schema["type"] {
        Value::String(t) => t.clone(),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ if schema.get("const").is_some() => String::new(),
        _ => "any".to_owned(),
    };
    let mut text = escape(&kind).into_owned();
    if kind.starts_with("array") {
        let _ = write!(text, " of {}", type_of(&schema["items"]));
    }
    if let Some(format) = schema["format"].as_str() {
        let _ = write!(text, " ({})", escape(format));
    }
    if let Some(values) = schema["enum"].as_array() {
        let _ = write!(text, ", one of {}", code_list(values));
    }
    if let Some(value) = schema.get("const") {
        let _ = write!(text, "always <code>{}</code>", escape(&value.to_string()));
    }
    text
}

fn code_list(values: &[Value]) -> String {
    values
        .iter()
        .map(|v| {
            let shown = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            format!("<code>{}</code>", escape(&shown))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Paragraphs (blank-line separated) of [`prose_inline`].
fn prose(text: &str) -> String {
    text.split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .map(|p| format!("<p>{}</p>", prose_inline(p)))
        .collect()
}

/// Escaped text whose `backtick spans` become `<code>`, as the document's Markdown writes them.
fn prose_inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn renders_operations_parameters_and_linked_schemas() {
        let doc = json!({
            "info": {"title": "T", "version": "1", "description": "Intro with `code`.\n\nSecond <b>."},
            "servers": [{"url": "/api"}],
            "tags": [{"name": "regions", "description": "Regions"}],
            "paths": {"/regions/{id}": {"get": {
                "operationId": "getRegion", "summary": "One region", "tags": ["regions"],
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                    "properties": {"data": {"$ref": "#/components/schemas/Region"}}}}}}}
            }}},
            "components": {"schemas": {"Region": {"type": "object", "required": ["code"],
                "properties": {"code": {"type": "string", "enum": ["DE", "FR"]},
                               "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Region"}}}}}}
        });
        let html = render(&doc);
        assert!(html.contains("<p>Intro with <code>code</code>.</p><p>Second &lt;b&gt;.</p>"));
        assert!(html.contains("id=\"op-getRegion\""));
        assert!(html.contains("<a href=\"#op-getRegion\">"));
        assert!(html.contains("<code>id</code> <span class=\"required\">required</span>"));
        assert!(
            html.contains("envelope, <code>data</code>: <a href=\"#schema-Region\">Region</a>")
        );
        assert!(html.contains("id=\"schema-Region\""));
        assert!(html.contains("string, one of <code>DE</code>, <code>FR</code>"));
        assert!(html.contains("array of <a href=\"#schema-Region\">Region</a>"));
        assert!(html.contains("<a href=\"/api/openapi.json\">"));
    }
}
