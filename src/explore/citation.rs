//! A citation's page: the row as published, its flags explained, the snapshot and file it was
//! read from (SHA-256, line, column), the source and its licence, and how to check it by hand.
//! A superseded value says so and links the current one; every value the observation has had
//! is listed with when each was current.

use std::fmt::Write;

use super::{citation_href, flags_html, format_value, region_href, region_name};
use crate::bundled::SourceRecord;
use crate::domain::citations::{Citation, CitationDetail, ClassificationDetail, SnapshotDetail};
use crate::domain::revisions::RevisionItem;
use crate::pages::escape;

/// The page's title and `main` content; `revisions`, those of an observation's row.
pub fn render(citation: &Citation, revisions: &[RevisionItem]) -> (String, String) {
    match citation {
        Citation::Row(found) => row(&found.detail(), revisions),
        Citation::Classification(detail) => classification(detail),
        Citation::Snapshot(detail) => snapshot(detail),
    }
}

fn row(c: &CitationDetail<'_>, revisions: &[RevisionItem]) -> (String, String) {
    let title = format!("{} {} {}", c.dataset.code, c.region.code, c.period);
    let mut html = String::with_capacity(8 * 1024);
    let _ = write!(
        html,
        "<h1>Citation <code data-testid=\"citation-id\">{}</code></h1>",
        escape(c.id)
    );
    match (c.withdrawn_in, c.superseded_by) {
        (Some(snapshot), _) if c.location.is_none() => {
            let _ = write!(
                html,
                "<p class=\"notice\" data-testid=\"withdrawn\">A withdrawal: the file of snapshot \
                 <code>{}</code> no longer held this value.</p>",
                escape(snapshot)
            );
        }
        (Some(snapshot), _) => {
            let _ = write!(
                html,
                "<p class=\"notice\" data-testid=\"withdrawn\">This value has been withdrawn: \
                 the file of snapshot <code>{}</code> no longer held it \
                 (<a href=\"{}\">the withdrawal</a>).</p>",
                escape(snapshot),
                citation_href(c.current_citation),
            );
        }
        (None, Some(next)) => {
            let _ = write!(
                html,
                "<p class=\"notice\" data-testid=\"superseded\">This value has been revised: \
                 <a href=\"{}\">the current value</a> (revised first by <a href=\"{}\">{}</a>).</p>",
                citation_href(c.current_citation),
                citation_href(next),
                escape(next)
            );
        }
        (None, None) => {}
    }
    let value = match c.value {
        Some(v) => format!(
            "<span class=\"value\" data-testid=\"value\" data-value=\"{0}\">{0}</span> {1}",
            format_value(v),
            escape(c.unit)
        ),
        None if c.location.is_none() => "none (withdrawn)".to_owned(),
        None => "no value (the source publishes only a flag)".to_owned(),
    };
    let dims: Vec<String> = c
        .dimensions
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    let _ = write!(
        html,
        "<dl class=\"facts\"><dt>Value</dt><dd>{value}</dd>\
         <dt>As printed in the file</dt><dd><code>{text}</code></dd>\
         <dt>Flags</dt><dd>{flags}</dd>\
         <dt>Region</dt><dd><a href=\"{region_href}\">{region}</a></dd>\
         <dt>Period</dt><dd>{period}</dd>\
         <dt>Dataset</dt><dd><code>{dataset}</code> {dataset_title}</dd>\
         <dt>Series</dt><dd>{dims}</dd></dl>",
        text = escape(if c.value_text.is_empty() {
            ":"
        } else {
            c.value_text
        }),
        flags = if c.flags.is_empty() {
            "none".to_owned()
        } else {
            flags_html(c.flags)
        },
        region_href = region_href(c.region.code),
        region = escape(&region_name(c.region.code, c.region.name)),
        period = escape(c.period),
        dataset = escape(c.dataset.code),
        dataset_title = escape(c.dataset.title),
        dims = escape(&dims.join(", ")),
    );
    let _ = write!(
        html,
        "<h2>Where it was read</h2><dl class=\"facts\">\
         <dt>Snapshot</dt><dd><code>{}</code>, imported {}</dd>\
         <dt>File</dt><dd><code>{}</code></dd><dt>SHA-256</dt><dd><code>{}</code></dd>",
        escape(&c.snapshot.public_id),
        escape(&c.snapshot.imported_at),
        escape(&c.snapshot.file_name),
        escape(&c.snapshot.file_sha256),
    );
    match &c.location {
        Some(at) => {
            let _ = write!(
                html,
                "<dt>Line</dt><dd>{}</dd><dt>Column</dt><dd>{}</dd></dl>",
                at.line,
                escape(&at.column)
            );
        }
        None => html.push_str("<dt>Line</dt><dd>none: the file does not hold it</dd></dl>"),
    }
    push_revisions(&mut html, c.id, revisions);
    push_source(&mut html, c.source);
    push_how_to_verify(&mut html, &c.how_to_verify);
    (title, html)
}

/// Every value the observation has had, in order, with when each was current (this one marked).
fn push_revisions(html: &mut String, id: &str, revisions: &[RevisionItem]) {
    html.push_str(
        "<h2>Revisions</h2><p>Every value this observation has had here, in order: Eurostat keeps \
         no past versions, so this is what regintel saw.</p>\
         <div class=\"scroll\"><table data-testid=\"revisions\"><thead><tr><th scope=\"col\">Value as printed</th>\
         <th scope=\"col\">Flags</th><th scope=\"col\">Snapshot</th>\
         <th scope=\"col\">Published by Eurostat</th><th scope=\"col\">Current</th>\
         </tr></thead><tbody>",
    );
    for r in revisions {
        let value = match (r.withdrawn, r.value_text.is_empty()) {
            (true, _) => "withdrawn".to_owned(),
            (false, true) => "<code>:</code>".to_owned(),
            (false, false) => format!("<code>{}</code>", escape(&r.value_text)),
        };
        let current: Vec<String> = (r.current.iter())
            .map(|c| match &c.until {
                Some(until) => format!(
                    "from {} until {}",
                    escape(&c.from.imported_at),
                    escape(&until.imported_at)
                ),
                None => format!("from {} (now)", escape(&c.from.imported_at)),
            })
            .collect();
        let this = r.id == id;
        let _ = write!(
            html,
            "<tr{mark}><td><a href=\"{href}\">{value}</a>{this}</td><td>{flags}</td>\
             <td><code>{snapshot}</code>, imported {imported}</td><td>{published}</td>\
             <td>{current}</td></tr>",
            mark = if this { " aria-current=\"true\"" } else { "" },
            href = citation_href(&r.id),
            this = if this { " (this citation)" } else { "" },
            flags = if r.flags.is_empty() {
                "none".to_owned()
            } else {
                flags_html(&r.flags)
            },
            snapshot = escape(&r.snapshot.snapshot),
            imported = escape(&r.snapshot.imported_at),
            published = r
                .snapshot
                .published_at
                .as_deref()
                .map_or("not known".to_owned(), |p| escape(p).into_owned()),
            current = current.join("; "),
        );
    }
    html.push_str("</tbody></table></div>");
}

fn classification(c: &ClassificationDetail) -> (String, String) {
    let title = format!("Classification row of {}", c.region.code);
    let mut html = String::with_capacity(4 * 1024);
    let _ = write!(
        html,
        "<h1>Citation <code data-testid=\"citation-id\">{}</code></h1>\
         <p>The row of <a href=\"{}\">{}</a> in the NUTS classification regintel ships.</p>\
         <dl class=\"facts\"><dt>File</dt><dd><code>{}</code></dd><dt>SHA-256</dt><dd><code>{}</code></dd>\
         <dt>Line</dt><dd>{}</dd></dl><h2>Fields</h2><div class=\"scroll\"><table><thead><tr>\
         <th scope=\"col\">Field</th><th scope=\"col\">Column</th><th scope=\"col\">Value</th>\
         <th scope=\"col\">Source</th></tr></thead><tbody>",
        escape(&c.id),
        region_href(&c.region.code),
        escape(&c.region.code),
        escape(&c.file.name),
        escape(&c.file.sha256),
        c.file.line,
    );
    for field in &c.fields {
        let value = match &field.value {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => "none".to_owned(),
            other => other.to_string(),
        };
        let _ = write!(
            html,
            "<tr><th scope=\"row\">{}</th><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            field.field,
            field.column,
            escape(&value),
            escape(field.source.as_deref().or(field.derived).unwrap_or("")),
        );
    }
    html.push_str("</tbody></table></div>");
    push_source(&mut html, c.source.as_deref());
    push_how_to_verify(&mut html, &c.how_to_verify);
    (title, html)
}

fn snapshot(c: &SnapshotDetail) -> (String, String) {
    let title = format!("Snapshot of {}", c.dataset.code);
    let mut html = String::with_capacity(4 * 1024);
    let s = &c.snapshot;
    let _ = write!(
        html,
        "<h1>Citation <code data-testid=\"citation-id\">{}</code></h1>\
         <p>A snapshot of the dataset <code>{}</code> {}.</p><dl class=\"facts\">\
         <dt>Snapshot</dt><dd><code>{}</code>, imported {}</dd><dt>File</dt><dd><code>{}</code> ({})</dd>\
         <dt>SHA-256</dt><dd><code>{}</code></dd><dt>Rows</dt><dd>{} in the file: {} added, {} revised, {} unchanged</dd></dl>",
        escape(&c.id),
        escape(&c.dataset.code),
        escape(&c.dataset.title),
        escape(&s.id),
        escape(&s.imported_at),
        escape(&s.file_name),
        escape(&s.format),
        escape(&s.file_sha256),
        s.rows_in_file,
        s.rows_added,
        s.rows_revised,
        s.rows_unchanged,
    );
    push_source(&mut html, c.source.as_deref());
    push_how_to_verify(&mut html, &c.how_to_verify);
    (title, html)
}

fn push_source(html: &mut String, source: Option<&SourceRecord>) {
    let Some(source) = source else {
        html.push_str("<h2>Source</h2><p>Uploaded by the account that owns the dataset.</p>");
        return;
    };
    let _ = write!(
        html,
        "<h2>Source</h2><dl class=\"facts\"><dt>Publisher</dt><dd>{}</dd><dt>Title</dt><dd>{}</dd>\
         <dt>Original file</dt><dd>{}</dd><dt>Licence</dt><dd data-testid=\"license\">{}</dd>",
        escape(&source.publisher),
        escape(&source.title),
        escape(&source.shown().file),
        escape(&source.license),
    );
    if let Some(url) = &source.landing_url {
        // A link only to the web: a source's URL comes from the operator's catalogue.
        if url.starts_with("https://") || url.starts_with("http://") {
            let _ = write!(
                html,
                "<dt>Landing page</dt><dd><a href=\"{0}\" rel=\"noreferrer\">{0}</a></dd>",
                escape(url)
            );
        }
    }
    if let Some(transformation) = &source.transformation {
        let _ = write!(
            html,
            "<dt>Transformation</dt><dd>{}</dd>",
            escape(transformation)
        );
    }
    html.push_str("</dl>");
}

fn push_how_to_verify(html: &mut String, how: &str) {
    let _ = write!(
        html,
        "<h2>How to verify</h2><p data-testid=\"how-to-verify\">{}</p>",
        escape(how)
    );
}

/// The citation's figures as CSV: a cited row in one line; a classification row field by
/// field; a snapshot in one line.
pub fn csv(citation: &Citation) -> Vec<u8> {
    match citation {
        Citation::Row(found) => row_csv(&found.detail()),
        Citation::Classification(c) => super::csv_text(
            &[
                "citation", "region", "field", "column", "value", "source", "file", "sha256",
                "line",
            ],
            c.fields.iter().map(|f| {
                vec![
                    c.id.clone(),
                    c.region.code.clone(),
                    f.field.to_owned(),
                    f.column.to_owned(),
                    match &f.value {
                        serde_json::Value::String(s) => s.clone(),
                        serde_json::Value::Null => String::new(),
                        other => other.to_string(),
                    },
                    f.source
                        .as_deref()
                        .or(f.derived)
                        .unwrap_or_default()
                        .to_owned(),
                    c.file.name.clone(),
                    c.file.sha256.clone(),
                    c.file.line.to_string(),
                ]
            }),
        ),
        Citation::Snapshot(c) => super::csv_text(
            &[
                "citation",
                "dataset",
                "snapshot",
                "imported_at",
                "file",
                "format",
                "sha256",
                "rows_in_file",
            ],
            [vec![
                c.id.clone(),
                c.dataset.code.clone(),
                c.snapshot.id.clone(),
                c.snapshot.imported_at.clone(),
                c.snapshot.file_name.clone(),
                c.snapshot.format.clone(),
                c.snapshot.file_sha256.clone(),
                c.snapshot.rows_in_file.to_string(),
            ]],
        ),
    }
}

fn row_csv(c: &CitationDetail<'_>) -> Vec<u8> {
    super::csv_text(
        &[
            "citation",
            "dataset",
            "region",
            "period",
            "series",
            "value",
            "value_text",
            "unit",
            "flags",
            "snapshot",
            "file",
            "sha256",
            "line",
            "column",
            "superseded_by",
            "withdrawn_in",
        ],
        [vec![
            c.id.to_owned(),
            c.dataset.code.to_owned(),
            c.region.code.to_owned(),
            c.period.to_owned(),
            super::series_csv(&c.dimensions),
            super::csv_value(c.value),
            c.value_text.to_owned(),
            c.unit.to_owned(),
            super::csv_flags(c.flags),
            c.snapshot.public_id.clone(),
            c.snapshot.file_name.clone(),
            c.snapshot.file_sha256.clone(),
            c.location
                .as_ref()
                .map(|at| at.line.to_string())
                .unwrap_or_default(),
            c.location
                .as_ref()
                .map(|at| at.column.clone())
                .unwrap_or_default(),
            c.superseded_by.unwrap_or_default().to_owned(),
            c.withdrawn_in.unwrap_or_default().to_owned(),
        ]],
    )
}
