//! The correlation matrix page: a heat map of r with n in each cell and the caveats; a chosen
//! cell shows the scatter plot of its inputs, each point linked to its rows.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{citation_href, format_value};
use crate::domain::correlations::{Basis, Input, Matrix};
use crate::pages::escape;

const CELL: f64 = 64.0;
const LABEL: f64 = 130.0;

/// The page's `main` content. `chosen` is the cell asked for (`x`, `y` variable ids);
/// `cell_href` makes the link that chooses a cell.
pub fn render(
    matrix: &Matrix,
    chosen: Option<(&str, &str)>,
    cell_href: &dyn Fn(&str, &str) -> String,
) -> String {
    let mut html = String::with_capacity(32 * 1024);
    let region = &matrix.region;
    let scope = match matrix.basis {
        Basis::CrossSection => format!(
            "across the NUTS {} regions of {} ({})",
            matrix.level.map_or("–".to_owned(), |l| l.to_string()),
            escape(region.name.as_deref().unwrap_or(&region.code)),
            escape(&region.code)
        ),
        Basis::TimeSeries => format!(
            "over the years in {} ({})",
            escape(region.name.as_deref().unwrap_or(&region.code)),
            escape(&region.code)
        ),
    };
    let _ = write!(
        html,
        "<h1>Correlations {scope}</h1><dl class=\"facts\"><dt>Method</dt><dd>{}</dd>\
         <dt>Transform</dt><dd>{}</dd><dt>Least n for r</dt><dd>{}</dd><dt>Regions used</dt><dd>{}</dd></dl>",
        matrix.method,
        if matrix.transform == "log" {
            "natural logarithm of each value"
        } else {
            "none"
        },
        matrix.min_n,
        matrix.regions_used.len(),
    );
    if !matrix.caveats.is_empty() {
        html.push_str("<h2>Before reading r</h2><ul class=\"warnings\">");
        for caveat in &matrix.caveats {
            let _ = write!(
                html,
                "<li data-code=\"{}\">{}</li>",
                caveat.code,
                escape(&caveat.message)
            );
        }
        html.push_str("</ul>");
    }
    push_variables(&mut html, matrix);
    html.push_str(&heat_map(matrix, chosen, cell_href));
    push_cell_table(&mut html, matrix, cell_href);
    if let Some((x, y)) = chosen {
        push_scatter(&mut html, matrix, x, y);
    }
    html
}

/// What each variable is: the series taken, why, at which period, and how many values.
fn push_variables(html: &mut String, matrix: &Matrix) {
    html.push_str(
        "<h2>Variables</h2><div class=\"scroll\"><table data-testid=\"variables\"><thead><tr>\
         <th scope=\"col\">Variable</th><th scope=\"col\">Dataset</th><th scope=\"col\">Unit and series</th>\
         <th scope=\"col\">Why this series</th><th scope=\"col\">Period</th><th scope=\"col\">Values</th></tr></thead><tbody>",
    );
    for v in &matrix.variables {
        let _ = write!(
            html,
            "<tr><th scope=\"row\"><code>{id}</code></th><td>{title}</td><td>{unit}{series}</td>\
             <td>{choice}</td><td>{period}</td><td>{coverage}</td></tr>",
            id = escape(&v.id),
            title = escape(&v.title),
            unit = escape(&v.unit),
            series = super::series_html(&v.series),
            choice = v.series_choice.replace('_', " "),
            period = escape(v.period.as_deref().unwrap_or("each year")),
            coverage = v.coverage,
        );
    }
    html.push_str("</tbody></table></div>");
}

/// The steps of r the heat map colours, each with its class, for the legend.
const STEPS: [(&str, &str); 7] = [
    ("r-3", "−0.6 or less"),
    ("r-2", "−0.6 to −0.3"),
    ("r-1", "−0.3 to −0.1"),
    ("r0", "−0.1 to 0.1"),
    ("r1", "0.1 to 0.3"),
    ("r2", "0.3 to 0.6"),
    ("r3", "0.6 or more"),
];

/// The class of r: seven steps of a diverging palette, from strongly negative to strongly positive.
fn r_class(r: f64) -> &'static str {
    match r {
        r if r <= -0.6 => "r-3",
        r if r <= -0.3 => "r-2",
        r if r < -0.1 => "r-1",
        r if r <= 0.1 => "r0",
        r if r < 0.3 => "r1",
        r if r < 0.6 => "r2",
        _ => "r3",
    }
}

fn heat_map(
    matrix: &Matrix,
    chosen: Option<(&str, &str)>,
    cell_href: &dyn Fn(&str, &str) -> String,
) -> String {
    let k = matrix.variables.len();
    let size = LABEL + CELL * k as f64;
    // The last column's slanted label runs past the grid.
    let width = size + LABEL * 0.6;
    let mut svg = String::with_capacity(1024 + k * k * 300);
    let _ = write!(
        svg,
        "<figure class=\"heat\"><svg class=\"chart heat\" viewBox=\"0 0 {width} {size}\" role=\"group\" \
         aria-label=\"Heat map of r for each pair of variables\" data-cells=\"{}\">",
        matrix.cells.len()
    );
    let index: BTreeMap<&str, usize> = matrix
        .variables
        .iter()
        .enumerate()
        .map(|(i, v)| (v.id.as_str(), i))
        .collect();
    for (i, variable) in matrix.variables.iter().enumerate() {
        let at = LABEL + CELL * (i as f64 + 0.5);
        let _ = write!(
            svg,
            "<text class=\"tick\" x=\"{:.1}\" y=\"{at:.1}\" text-anchor=\"end\">{id}</text>\
             <text class=\"tick\" x=\"{at:.1}\" y=\"{:.1}\" transform=\"rotate(-45 {at:.1} {:.1})\">{id}</text>",
            LABEL - 6.0,
            LABEL - 6.0,
            LABEL - 6.0,
            id = escape(&variable.id),
        );
    }
    for cell in &matrix.cells {
        let (Some(&i), Some(&j)) = (index.get(cell.x.as_str()), index.get(cell.y.as_str())) else {
            continue;
        };
        // Each pair in both halves, so rows and columns read alike.
        for (row, col) in [(i, j), (j, i)] {
            let (x, y) = (LABEL + CELL * col as f64, LABEL + CELL * row as f64);
            let class = cell.r.map_or("none", r_class);
            let picked = chosen == Some((cell.x.as_str(), cell.y.as_str()));
            let _ = write!(
                svg,
                "<a class=\"cell {class}{}\" href=\"{}\" data-x=\"{}\" data-y=\"{}\" data-n=\"{}\">\
                 <title>{} and {}: {}, n = {}</title><rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\
                 <text class=\"n\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">n={}</text></a>",
                if picked { " picked" } else { "" },
                escape(&cell_href(&cell.x, &cell.y)),
                escape(&cell.x),
                escape(&cell.y),
                cell.n,
                escape(&cell.x),
                escape(&cell.y),
                cell.r
                    .map_or(cell.status.replace('_', " "), |r| format!("r = {r:.2}")),
                cell.n,
                x + CELL / 2.0,
                y + CELL / 2.0,
                cell.r.map_or("–".to_owned(), |r| format!("{r:.2}")),
                x + CELL / 2.0,
                y + CELL / 2.0 + 16.0,
                cell.n,
            );
        }
    }
    svg.push_str("</svg><figcaption><ul class=\"legend\" aria-label=\"Legend\">");
    for (class, range) in STEPS {
        let _ = write!(
            svg,
            "<li><span class=\"swatch {class}\"></span>r {range}</li>"
        );
    }
    svg.push_str(
        "<li><span class=\"swatch none\"></span>no r: too few pairs or a constant input</li></ul>\
         n is the number of pairs. Choose a cell to see its scatter plot.</figcaption></figure>",
    );
    svg
}

fn push_cell_table(html: &mut String, matrix: &Matrix, cell_href: &dyn Fn(&str, &str) -> String) {
    html.push_str(
        "<details class=\"figures\"><summary>The cells as a table</summary><div class=\"scroll\"><table>\
         <thead><tr><th scope=\"col\">Pair</th><th scope=\"col\">r</th><th scope=\"col\">n</th>\
         <th scope=\"col\">p-value</th><th scope=\"col\">95 % interval</th><th scope=\"col\">Status</th></tr></thead><tbody>",
    );
    for cell in &matrix.cells {
        let _ = write!(
            html,
            "<tr><th scope=\"row\"><a href=\"{}\">{} and {}</a></th><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&cell_href(&cell.x, &cell.y)),
            escape(&cell.x),
            escape(&cell.y),
            cell.r.map_or("–".to_owned(), |r| format!("{r:.3}")),
            cell.n,
            cell.p_value.map_or("–".to_owned(), |p| format!("{p:.3}")),
            cell.ci95
                .map_or("–".to_owned(), |[a, b]| format!("{a:.2} to {b:.2}")),
            escape(&cell.status.replace('_', " ")),
        );
    }
    html.push_str("</tbody></table></div></details>");
}

/// The pairs of a cell: the inputs of `x` and `y` at the same region (or period).
fn pairs<'a>(matrix: &'a Matrix, x: &str, y: &str) -> Vec<(&'a Input, &'a Input)> {
    let (Some(xs), Some(ys)) = (matrix.inputs.get(x), matrix.inputs.get(y)) else {
        return Vec::new();
    };
    let key = |input: &Input| match matrix.basis {
        Basis::CrossSection => input.region.clone(),
        Basis::TimeSeries => input.period.clone(),
    };
    let by_key: BTreeMap<String, &Input> = ys.iter().map(|i| (key(i), i)).collect();
    xs.iter()
        .filter_map(|a| by_key.get(&key(a)).map(|b| (a, *b)))
        .collect()
}

fn push_scatter(html: &mut String, matrix: &Matrix, x: &str, y: &str) {
    let pairs = pairs(matrix, x, y);
    let _ = write!(
        html,
        "<h2 id=\"scatter\">{} against {}</h2>",
        escape(y),
        escape(x)
    );
    if pairs.is_empty() {
        html.push_str("<p>These two variables have no region in common.</p>");
        return;
    }
    let note = match (matrix.method, matrix.transform) {
        ("spearman", _) => "The plot shows the values as published; r correlates their ranks.",
        (_, "log") => "The plot shows the values as published; r correlates their logarithms.",
        _ => "",
    };
    if !note.is_empty() {
        let _ = write!(html, "<p class=\"note\">{note}</p>");
    }
    html.push_str(
        "<p class=\"help\">Each point links to its row of the second variable; the table \
         below links both rows of each pair.</p>",
    );
    let (w, h, pad) = (420.0, 300.0, 40.0);
    let range = |values: Vec<f64>| {
        let low = values.iter().copied().fold(f64::INFINITY, f64::min);
        let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if high > low {
            (low, high)
        } else {
            (low - 1.0, high + 1.0)
        }
    };
    let (x0, x1) = range(pairs.iter().map(|(a, _)| a.value).collect());
    let (y0, y1) = range(pairs.iter().map(|(_, b)| b.value).collect());
    let sx = |v: f64| pad + (w - 2.0 * pad) * (v - x0) / (x1 - x0);
    let sy = |v: f64| h - pad - (h - 2.0 * pad) * (v - y0) / (y1 - y0);
    let (bottom, right) = (h - pad, w - pad);
    let _ = write!(
        html,
        "<figure class=\"scatter\"><svg class=\"chart scatter\" viewBox=\"0 0 {w} {h}\" role=\"group\" \
         aria-label=\"{y_label} against {x_label}\" data-points=\"{n}\">\
         <line class=\"axis\" x1=\"{pad}\" y1=\"{bottom}\" x2=\"{right}\" y2=\"{bottom}\"/>\
         <line class=\"axis\" x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{bottom}\"/>\
         <text class=\"tick\" x=\"{pad}\" y=\"{below}\">{x_low}</text>\
         <text class=\"tick\" x=\"{right}\" y=\"{below}\" text-anchor=\"end\">{x_high}</text>\
         <text class=\"tick\" x=\"{left}\" y=\"{bottom}\" text-anchor=\"end\">{y_low}</text>\
         <text class=\"tick\" x=\"{left}\" y=\"{pad}\" text-anchor=\"end\">{y_high}</text>",
        y_label = escape(y),
        x_label = escape(x),
        n = pairs.len(),
        below = bottom + 16.0,
        left = pad - 4.0,
        x_low = format_value(x0),
        x_high = format_value(x1),
        y_low = format_value(y0),
        y_high = format_value(y1),
    );
    for (a, b) in &pairs {
        let label = match matrix.basis {
            Basis::CrossSection => &a.region,
            Basis::TimeSeries => &a.period,
        };
        let _ = write!(
            html,
            "<a class=\"point\" href=\"{}\" data-label=\"{}\"><title>{}: {} = {}, {} = {}</title>\
             <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\"/></a>",
            citation_href(&b.citation),
            escape(label),
            escape(label),
            escape(x),
            format_value(a.value),
            escape(y),
            format_value(b.value),
            sx(a.value),
            sy(b.value),
        );
    }
    html.push_str("</svg></figure>");
    let _ = write!(
        html,
        "<div class=\"scroll\"><table data-testid=\"scatter-table\"><thead><tr><th scope=\"col\">{}</th>\
         <th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>",
        match matrix.basis {
            Basis::CrossSection => "Region",
            Basis::TimeSeries => "Period",
        },
        escape(x),
        escape(y)
    );
    for (a, b) in &pairs {
        let _ = write!(
            html,
            "<tr><th scope=\"row\">{label}</th>\
             <td><a class=\"value\" href=\"{a_href}\" data-value=\"{a_value}\">{a_value}</a> ({a_period})</td>\
             <td><a class=\"value\" href=\"{b_href}\" data-value=\"{b_value}\">{b_value}</a> ({b_period})</td></tr>",
            label = escape(match matrix.basis {
                Basis::CrossSection => &a.region,
                Basis::TimeSeries => &a.period,
            }),
            a_href = citation_href(&a.citation),
            a_value = format_value(a.value),
            a_period = escape(&a.period),
            b_href = citation_href(&b.citation),
            b_value = format_value(b.value),
            b_period = escape(&b.period),
        );
    }
    html.push_str("</tbody></table></div>");
}

/// The matrix's figures as CSV: each cell, or with a cell chosen, its pairs.
pub fn csv(matrix: &Matrix, chosen: Option<(&str, &str)>) -> Vec<u8> {
    let number = |v: Option<f64>| v.map(format_value).unwrap_or_default();
    match chosen {
        None => super::csv_text(
            &[
                "x",
                "y",
                "n",
                "r",
                "p_value",
                "ci95_low",
                "ci95_high",
                "status",
            ],
            matrix.cells.iter().map(|c| {
                vec![
                    c.x.clone(),
                    c.y.clone(),
                    c.n.to_string(),
                    number(c.r),
                    number(c.p_value),
                    number(c.ci95.map(|[low, _]| low)),
                    number(c.ci95.map(|[_, high]| high)),
                    c.status.to_owned(),
                ]
            }),
        ),
        Some((x, y)) => super::csv_text(
            &[
                "region",
                "x_period",
                "x_value",
                "x_citation",
                "y_period",
                "y_value",
                "y_citation",
            ],
            pairs(matrix, x, y).into_iter().map(|(a, b)| {
                vec![
                    a.region.clone(),
                    a.period.clone(),
                    format_value(a.value),
                    a.citation.clone(),
                    b.period.clone(),
                    format_value(b.value),
                    b.citation.clone(),
                ]
            }),
        ),
    }
}
