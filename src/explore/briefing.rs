//! A briefing's page: its sections with every number linked to its claim, and the claims: a
//! direct one links its row; a derived one shows its formula and its inputs, each linked to its
//! row.

use std::fmt::Write;

use super::{citation_href, format_value, region_href, region_name};
use crate::domain::briefings::Briefing;
use crate::domain::briefings::claims::Claim;
use crate::domain::briefings::numbers;
use crate::pages::escape;

fn claim_anchor(id: &str) -> String {
    format!("claim-{id}")
}

/// `text` as HTML, each number that is a claim's display linked to that claim.
fn linked_text(text: &str, claims: &[Claim]) -> String {
    let mut html = String::with_capacity(text.len() * 2);
    let mut at = 0;
    for (offset, number) in numbers::find(text) {
        let Some(claim) = claims.iter().find(|c| c.display == number) else {
            continue;
        };
        html.push_str(&escape(&text[at..offset]));
        let _ = write!(
            html,
            "<a class=\"claim\" href=\"#{}\" data-claim=\"{}\">{}</a>",
            claim_anchor(&claim.id),
            escape(&claim.id),
            escape(number)
        );
        at = offset + number.len();
    }
    html.push_str(&escape(&text[at..]));
    html
}

/// The page's `main` content.
pub fn render(briefing: &Briefing) -> String {
    let mut html = String::with_capacity(32 * 1024);
    let region = &briefing.region;
    let _ = write!(
        html,
        "<h1>{}</h1><dl class=\"facts\"><dt>Region</dt><dd><a href=\"{}\">{}</a></dd>\
         <dt>Kind</dt><dd>{}</dd><dt>Written</dt><dd>{} by {}</dd><dt>Verification</dt>\
         <dd data-testid=\"verification\">{}: {} numbers, {} claims checked</dd></dl>",
        escape(&briefing.title),
        region_href(&region.code),
        escape(&region_name(&region.code, region.name.as_deref())),
        escape(&briefing.briefing_type.replace('_', " ")),
        escape(&briefing.created_at),
        escape(&match &briefing.generator.model {
            Some(model) if briefing.generator.fallback_reason.is_none() => {
                format!("the model {model}")
            }
            _ => format!("regintel's writer (version {})", briefing.generator.version),
        }),
        escape(&briefing.verification.status),
        briefing.verification.numbers_checked,
        briefing.verification.claims_checked,
    );
    if let Some(revisions) = briefing.revisions.as_ref().filter(|r| r.any_superseded) {
        html.push_str("<div class=\"notice\" data-testid=\"superseded\"><p>Rows this briefing cites have been revised since it was written:</p><ul>");
        for s in &revisions.superseded {
            let _ = write!(
                html,
                "<li><a href=\"{}\">{}</a>, now <a href=\"{}\">{}</a></li>",
                citation_href(&s.citation),
                escape(&s.citation),
                citation_href(&s.current_citation),
                escape(&s.current_citation)
            );
        }
        html.push_str("</ul></div>");
    }
    for section in &briefing.sections {
        let _ = write!(
            html,
            "<section class=\"briefing\"><h2>{}</h2>",
            escape(&section.heading)
        );
        for paragraph in section.text.split("\n\n") {
            let _ = write!(html, "<p>{}</p>", linked_text(paragraph, &briefing.claims));
        }
        html.push_str("</section>");
    }
    if !briefing.breaks.is_empty() {
        html.push_str("<h2>Breaks in series</h2><ul>");
        for b in &briefing.breaks {
            let _ = write!(
                html,
                "<li><code>{}</code> {}: <a href=\"{}\">the row flagged b</a></li>",
                escape(&b.dataset),
                escape(&b.period),
                citation_href(&b.citation)
            );
        }
        html.push_str("</ul>");
    }
    if !briefing.not_covered.is_empty() {
        let _ = write!(
            html,
            "<p class=\"note\">No value for this region: {}.</p>",
            escape(&briefing.not_covered.join(", "))
        );
    }
    html.push_str("<h2>Claims</h2><ol class=\"claims\">");
    for claim in &briefing.claims {
        push_claim(&mut html, claim);
    }
    html.push_str("</ol>");
    html
}

fn push_claim(html: &mut String, claim: &Claim) {
    let _ = write!(
        html,
        "<li id=\"{}\" data-kind=\"{}\"><strong>{}</strong> ({}, value {})",
        claim_anchor(&claim.id),
        escape(&claim.kind),
        escape(&claim.display),
        escape(&claim.kind),
        format_value(claim.value),
    );
    if !claim.citations.is_empty() {
        html.push_str(": the row ");
        let links: Vec<String> = claim
            .citations
            .iter()
            .map(|c| {
                format!(
                    "<a class=\"citation\" href=\"{}\">{}</a>",
                    citation_href(c),
                    escape(c)
                )
            })
            .collect();
        html.push_str(&links.join(", "));
    }
    if let Some(derivation) = &claim.derivation {
        let _ = write!(
            html,
            "<p class=\"formula\">{}{}</p>",
            claim
                .operation
                .as_deref()
                .map(|o| format!("<code>{}</code>: ", escape(o)))
                .unwrap_or_default(),
            escape(derivation)
        );
    }
    if !claim.inputs.is_empty() {
        html.push_str("<ul class=\"inputs\">");
        for input in &claim.inputs {
            let _ = write!(
                html,
                "<li><a class=\"value\" href=\"{}\" data-value=\"{1}\">{1}</a></li>",
                citation_href(&input.citation),
                format_value(input.value)
            );
        }
        html.push_str("</ul>");
    }
    if let Some(of) = &claim.inputs_of {
        let _ = write!(
            html,
            "<p>Its inputs are those of <a href=\"#{}\">claim {}</a>.</p>",
            claim_anchor(of),
            escape(of)
        );
    }
    if !claim.flags.is_empty() {
        let flags: Vec<String> = claim
            .flags
            .iter()
            .map(|f| {
                format!(
                    "<a href=\"{href}\">{period}</a>: <abbr title=\"{meaning}\">{code}</abbr> {meaning}",
                    href = citation_href(&f.citation),
                    period = escape(&f.period),
                    code = escape(&f.code),
                    meaning = escape(&f.meaning),
                )
            })
            .collect();
        let _ = write!(html, "<p class=\"flags\">Flags: {}</p>", flags.join("; "));
    }
    html.push_str("</li>");
}

/// The briefing's claims as CSV: each claim, its value, and the rows or inputs it comes from.
pub fn csv(briefing: &Briefing) -> Vec<u8> {
    super::csv_text(
        &[
            "claim",
            "display",
            "value",
            "kind",
            "operation",
            "citations",
        ],
        briefing.claims.iter().map(|c| {
            let citations: Vec<&str> = c
                .citations
                .iter()
                .map(String::as_str)
                .chain(c.inputs.iter().map(|i| i.citation.as_str()))
                .collect();
            vec![
                c.id.clone(),
                c.display.clone(),
                format_value(c.value),
                c.kind.clone(),
                c.operation.clone().unwrap_or_default(),
                citations.join(";"),
            ]
        }),
    )
}
