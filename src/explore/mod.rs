//! The region explorer: HTML pages under `/explore` that show what the API answers, as charts,
//! maps and tables, each number one click from the primary row it came from. Pages are rendered
//! on the server from the same domain answers the JSON routes serve (so they cost what those
//! cost), read without JavaScript, and draw their charts and maps as SVG styled by the one
//! stylesheet (the page policy forbids inline style).

pub mod boundaries;
pub mod briefing;
pub mod charts;
pub mod citation;
pub mod compare;
pub mod home;
pub mod map_page;
pub mod maps;
pub mod matrix;
pub mod region;

use std::fmt::Write;

use crate::domain::{Cited, Flag, Warning};
use crate::pages::escape;

/// The explorer's page of a citation.
pub fn citation_href(citation: &str) -> String {
    format!("/explore/citations/{citation}")
}

/// The explorer's page of a region.
pub fn region_href(code: &str) -> String {
    format!("/explore/regions/{code}")
}

/// A value as the pages show it: the shortest text that reads back as the same number, the
/// form the JSON answers and the citation page use, so a value can be checked against its row.
pub fn format_value(value: f64) -> String {
    value.to_string()
}

/// The links every view ends with: the API request whose answer it shows, and its figures as
/// CSV.
pub fn view_links(api_href: &str, csv_href: &str) -> String {
    format!(
        "<p class=\"view-links\">This view's figures: <a href=\"{1}\" data-testid=\"csv-link\">as CSV</a>; \
         from the API: <a href=\"{0}\" data-testid=\"api-link\">{0}</a></p>",
        escape(api_href),
        escape(csv_href)
    )
}

/// A CSV document of `header` and `rows` (RFC 4180, every field quoted where it must be).
pub fn csv_text<R, F>(header: &[&str], rows: R) -> Vec<u8>
where
    R: IntoIterator<Item = Vec<F>>,
    F: AsRef<[u8]>,
{
    let mut out = csv::Writer::from_writer(Vec::new());
    // Writing to memory cannot fail.
    let _ = out.write_record(header);
    for row in rows {
        let _ = out.write_record(&row);
    }
    out.into_inner().unwrap_or_default()
}

/// An optional value as a CSV field: empty when there is none.
pub fn csv_value(value: Option<f64>) -> String {
    value.map(format_value).unwrap_or_default()
}

/// Flag codes as one CSV field (`pe`).
pub fn csv_flags(flags: &[Flag]) -> String {
    flags.iter().map(|f| f.code.as_str()).collect()
}

/// A region as pages name it: `Oberbayern (DE21)`, or its code alone when it has no name.
pub fn region_name(code: &str, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{name} ({code})"),
        None => code.to_owned(),
    }
}

/// A cited value as a table shows it: linked to its citation, or "no value" (a flagged gap)
/// linked to the row that says so.
pub fn cited_value_html(cited: &Cited) -> String {
    let href = citation_href(cited.citation.as_str());
    match cited.value {
        Some(v) => format!(
            "<a class=\"value\" href=\"{href}\" data-value=\"{0}\">{0}</a>",
            format_value(v)
        ),
        None => format!("<a href=\"{href}\">no value</a>"),
    }
}

/// A series' dimension values for a sentence (`; series sex = T, age = TOTAL`), or nothing for
/// a series without any.
pub fn series_html<K: AsRef<str>, V: AsRef<str>>(
    series: impl IntoIterator<Item = (K, V)>,
) -> String {
    let parts: Vec<String> = series
        .into_iter()
        .map(|(k, v)| format!("{} = {}", k.as_ref(), v.as_ref()))
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    format!("; series {}", escape(&parts.join(", ")))
}

/// A series' dimension values as one CSV field (`sex=T;age=TOTAL`).
pub fn series_csv<K: AsRef<str>, V: AsRef<str>>(
    series: impl IntoIterator<Item = (K, V)>,
) -> String {
    let parts: Vec<String> = series
        .into_iter()
        .map(|(k, v)| format!("{}={}", k.as_ref(), v.as_ref()))
        .collect();
    parts.join(";")
}

/// Warnings about what is shown, each with its code.
pub fn warnings_html(warnings: &[Warning]) -> String {
    if warnings.is_empty() {
        return String::new();
    }
    let mut html = String::from("<ul class=\"warnings\">");
    for warning in warnings {
        let _ = write!(
            html,
            "<li data-code=\"{}\">{}</li>",
            escape(warning.code),
            escape(&warning.message)
        );
    }
    html.push_str("</ul>");
    html
}

/// Says that a page was read as of a past moment (`at`, RFC 3339, on `basis`), and links the
/// same page as of now (`now_href`): links to other pages read as of now.
pub fn as_of_html(at: &str, basis: &str, now_href: &str) -> String {
    format!(
        "<ul class=\"warnings\"><li data-code=\"as_of\">Read as of {at} ({basis} basis): the \
         figures as this installation answered then. Links to other pages show today's figures; \
         <a href=\"{href}\">this page today</a>.</li></ul>",
        at = escape(at),
        basis = escape(basis),
        href = escape(now_href),
    )
}

/// A value's flags spelled out: each code with its meaning.
pub fn flags_html(flags: &[Flag]) -> String {
    let mut out = String::new();
    for (i, flag) in flags.iter().enumerate() {
        let _ = write!(
            out,
            "{}<span class=\"flag\"><abbr title=\"{meaning}\">{code}</abbr> {meaning}</span>",
            if i > 0 { ", " } else { "" },
            code = escape(&flag.code),
            meaning = escape(&flag.meaning),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_as_the_same_number() {
        assert_eq!(format_value(12.0), "12");
        assert_eq!(format_value(12.5), "12.5");
        assert_eq!(format_value(-0.25), "-0.25");
        assert_eq!(format_value(1234567.0), "1234567");
        for v in [0.1 + 0.2, 1e-7, 123456.789] {
            assert_eq!(format_value(v).parse::<f64>().unwrap(), v);
        }
    }

    #[test]
    fn flags_are_spelled_out_and_escaped() {
        let flags = [
            Flag {
                code: "p".into(),
                meaning: "provisional".into(),
            },
            Flag {
                code: "e".into(),
                meaning: "<estimated>".into(),
            },
        ];
        let html = flags_html(&flags);
        assert!(html.contains("<abbr title=\"provisional\">p</abbr> provisional"));
        assert!(html.contains("&lt;estimated&gt;"));
    }
}
