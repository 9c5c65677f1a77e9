//! Maps drawn as SVG from the bundled boundaries. Every map names the boundaries' source and
//! carries the notice GISCO's provisions require, in its caption.

use std::fmt::Write;

use super::boundaries::{Boundaries, Edition, Outline, view_box};
use crate::pages::escape;

/// The caption every map carries: where its boundaries come from (`beside`: the edition of
/// countries drawn outside the map's own), and their notice.
pub fn source_caption(edition: &Edition, beside: Option<&Edition>) -> String {
    let beside = beside.map_or(String::new(), |other| {
        format!("; countries outside it: {}", escape(&other.source))
    });
    format!(
        "<figcaption class=\"map-source\">Boundaries: {}{beside}. {}.</figcaption>",
        escape(&edition.source),
        escape(&edition.attribution)
    )
}

fn overlaps(a: [i32; 4], b: [i32; 4]) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/// A locator map: `code`'s country framed, its neighbours faint, the region drawn over it. When
/// the region has no outline the map says so rather than showing the country alone as if it
/// were the region; without the country's outline there is no map.
pub fn locator(boundaries: &Boundaries, country: &str, code: &str, name: &str) -> Option<String> {
    // The region's newest edition; the country's outline when no edition has the region.
    let edition = boundaries
        .edition_of(code)
        .or_else(|| boundaries.edition_of(country))?;
    let frame = edition.outline(country)?;
    let region = edition.outline(code);
    let mut svg = String::with_capacity(16 * 1024);
    let _ = write!(
        svg,
        "<figure class=\"map locator\"><svg viewBox=\"{}\" role=\"img\" aria-label=\"{}\">",
        view_box(frame.bbox, 10),
        escape(&format!("Where {name} ({code}) lies in {country}")),
    );
    let margin_box = {
        let [x0, y0, x1, y1] = frame.bbox;
        let m = (x1 - x0).max(y1 - y0) / 10 + 10;
        [x0 - m, y0 - m, x1 + m, y1 + m]
    };
    for neighbour in edition
        .level(0)
        .filter(|o| o.code != frame.code && overlaps(o.bbox, margin_box))
    {
        push_path(&mut svg, "neighbour", neighbour);
    }
    push_path(&mut svg, "country", frame);
    if let Some(region) = region.filter(|r| r.code != frame.code) {
        push_path(&mut svg, "here", region);
    }
    svg.push_str("</svg>");
    if region.is_none() {
        let _ = write!(
            svg,
            "<p class=\"note\">{} has no outline in the bundled boundaries: only its country is \
             drawn.</p>",
            escape(code)
        );
    }
    svg.push_str(&source_caption(edition, None));
    svg.push_str("</figure>");
    Some(svg)
}

/// Classes of a choropleth: at most five quantile classes of the values shown, each given by
/// its upper bound (the last is the largest value).
pub fn quantile_bounds(values: &[f64]) -> Vec<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    let Some(&largest) = sorted.last() else {
        return Vec::new();
    };
    let n = sorted.len();
    let mut bounds: Vec<f64> = (1..CLASSES)
        .map(|k| sorted[(k * n).div_ceil(CLASSES) - 1])
        .collect();
    bounds.push(largest);
    bounds.dedup();
    bounds
}

/// The class (1 = lowest) of `value` among `bounds`.
pub fn class_of(value: f64, bounds: &[f64]) -> usize {
    1 + bounds
        .iter()
        .take_while(|b| value > **b)
        .count()
        .min(bounds.len() - 1)
}

pub const CLASSES: usize = 5;

/// Regions without data are hatched: a presentation attribute, since a stylesheet's
/// `url(#id)` would name an element of the stylesheet's own document.
const NO_DATA_FILL: &str = " fill=\"url(#no-data)\"";

/// One region of a choropleth: its code and name, the class of its value (None: no value),
/// and the text hovering or focusing it shows.
pub struct Shaded<'a> {
    pub code: &'a str,
    pub class: Option<usize>,
    pub info: String,
}

/// A choropleth of one level, written to `svg`: `shaded` regions filled by class and linked to
/// their pages, then the level's other outlines as regions without data. Returns the codes of
/// `shaded` that have no outline (to be listed below it).
pub fn choropleth(
    svg: &mut String,
    boundaries: &Boundaries,
    edition: &Edition,
    level: u8,
    label: &str,
    shaded: &[Shaded<'_>],
) -> Vec<String> {
    // Framed on the level's outlines: the extent's empty north and west would only shrink it.
    let frame = edition
        .level(level)
        .map(|o| o.bbox)
        .reduce(|a, b| {
            [
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[2].max(b[2]),
                a[3].max(b[3]),
            ]
        })
        .unwrap_or([0, 0, edition.extent[0], edition.extent[1]]);
    let _ = write!(
        svg,
        "<svg viewBox=\"{}\" role=\"group\" aria-label=\"{}\">\
         <defs><pattern id=\"no-data\" width=\"24\" height=\"24\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect class=\"no-data-ground\" width=\"24\" height=\"24\"/>\
         <line class=\"no-data-line\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"24\"/></pattern></defs>",
        view_box(frame, 20),
        escape(label)
    );
    for country in boundaries.other_countries(edition) {
        push_path(svg, "neighbour", country);
    }
    let mut drawn = std::collections::HashSet::new();
    let mut unmapped = Vec::new();
    for region in shaded {
        let Some(outline) = edition.outline(region.code) else {
            unmapped.push(region.code.to_owned());
            continue;
        };
        drawn.insert(outline.code.as_str());
        let (class, fill) = match region.class {
            Some(c) => (format!("q{c}"), ""),
            None => ("missing".to_owned(), NO_DATA_FILL),
        };
        let code = escape(region.code);
        let info = escape(&region.info);
        let _ = write!(
            svg,
            "<a class=\"region {class}\" href=\"/explore/regions/{code}\" data-code=\"{code}\" \
             data-info=\"{info}\"><title>{info}</title><path{fill} d=\"{}\"/></a>",
            outline.d,
        );
    }
    for outline in edition
        .level(level)
        .filter(|o| !drawn.contains(o.code.as_str()))
    {
        let _ = write!(
            svg,
            "<path class=\"missing\"{NO_DATA_FILL} data-code=\"{}\" d=\"{}\"/>",
            escape(&outline.code),
            outline.d
        );
    }
    svg.push_str("</svg>");
    unmapped
}

fn push_path(svg: &mut String, class: &str, outline: &Outline) {
    let _ = write!(
        svg,
        "<path class=\"{class}\" data-code=\"{}\" d=\"{}\"/>",
        escape(&outline.code),
        outline.d
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_classes_split_the_values_in_fifths() {
        let values: Vec<f64> = (1..=10).map(f64::from).collect();
        let bounds = quantile_bounds(&values);
        assert_eq!(bounds, [2.0, 4.0, 6.0, 8.0, 10.0]);
        let classes: Vec<usize> = values.iter().map(|v| class_of(*v, &bounds)).collect();
        assert_eq!(classes, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        // Few or equal values make fewer classes, never an empty one.
        assert_eq!(quantile_bounds(&[3.0, 3.0, 3.0]), [3.0]);
        assert_eq!(class_of(3.0, &[3.0]), 1);
        assert_eq!(quantile_bounds(&[1.0, 2.0]), [1.0, 2.0]);
        assert!(quantile_bounds(&[]).is_empty());
    }

    #[test]
    fn a_choropleth_links_each_region_and_lists_codes_without_an_outline() {
        let boundaries = Boundaries::bundled();
        let shaded = [
            Shaded {
                code: "DE21",
                class: Some(5),
                info: "Oberbayern (DE21): 3.1 %".into(),
            },
            Shaded {
                code: "NL36",
                class: None,
                info: "a 2024 region".into(),
            },
            Shaded {
                code: "PT19",
                class: Some(1),
                info: "Região de Leiria".into(),
            },
        ];
        let mut svg = String::new();
        // NL332 is only in the 2021 edition (NUTS 2024 renamed it NL361), which has none of
        // the 2024 regions.
        let nuts_2021 = boundaries.edition_of("NL332").unwrap();
        let unmapped = choropleth(&mut svg, &boundaries, nuts_2021, 2, "map", &shaded);
        assert!(svg.contains("class=\"region q5\" href=\"/explore/regions/DE21\""));
        assert_eq!(unmapped, ["NL36", "PT19"]);
        // Every other NUTS 2 outline is drawn as without data, not linked.
        let level_2 = nuts_2021.level(2).count();
        let others = boundaries.other_countries(nuts_2021).count();
        assert_eq!(svg.matches("<path").count(), level_2 + others);
        assert!(!svg.contains("style="));
        // The 2024 edition has them all.
        let nuts_2024 = boundaries.edition_for(shaded.iter().map(|s| s.code));
        assert_eq!(nuts_2024.year, 2024);
        let mut svg = String::new();
        assert!(choropleth(&mut svg, &boundaries, nuts_2024, 2, "map", &shaded).is_empty());
        let others = boundaries.other_countries(nuts_2024).count();
        assert!(others >= 1, "the United Kingdom, in NUTS 2021 only");
        assert_eq!(
            svg.matches("<path").count(),
            nuts_2024.level(2).count() + others
        );
        assert_eq!(svg.matches("class=\"neighbour\"").count(), others);
    }

    #[test]
    fn a_locator_map_draws_the_region_over_its_country() {
        let boundaries = Boundaries::bundled();
        let map = locator(&boundaries, "DE", "DE212", "München").unwrap();
        assert_eq!(map.matches("class=\"here\"").count(), 1);
        assert!(map.contains("class=\"country\" data-code=\"DE\""));
        // Austria borders Bavaria; Portugal is far away.
        assert!(map.contains("data-code=\"AT\""));
        assert!(!map.contains("data-code=\"PT\""));
        assert!(map.contains("© EuroGeographics for the administrative boundaries"));
        assert!(!map.contains("style="));
    }

    #[test]
    fn a_region_is_drawn_from_its_edition_and_one_without_an_outline_is_named() {
        let boundaries = Boundaries::bundled();
        // A new 2024 region is drawn from the 2024 edition.
        let map = locator(&boundaries, "PT", "PT1A0", "Grande Lisboa").unwrap();
        assert_eq!(map.matches("class=\"here\"").count(), 1);
        let map = locator(&boundaries, "PT", "PTZZZ", "Extra-Regio").unwrap();
        assert!(!map.contains("class=\"here\""));
        assert!(map.contains("PTZZZ has no outline"));
        // Without the country's outline there is no map.
        assert!(locator(&boundaries, "XX", "XX0", "Nowhere").is_none());
    }
}
