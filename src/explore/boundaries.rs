//! The outlines of NUTS regions the maps draw, bundled into the binary (air-gapped sites fetch
//! nothing): Eurostat-GISCO's NUTS 2021 regions projected to ETRS89-LAEA (EPSG:3035), simplified
//! for 1:60 million and written as SVG paths in kilometres of the map's extent (see
//! `data/boundaries/README.md` for how they are made and the provisions of their use).

use std::collections::HashMap;

use serde::Deserialize;

const BUNDLED: &str = include_str!("../../data/boundaries/nuts-2021.json");

/// One region's outline.
#[derive(Debug, Deserialize)]
pub struct Outline {
    pub code: String,
    pub level: u8,
    /// `[x0, y0, x1, y1]` in kilometres from the extent's north-west corner (y grows south).
    pub bbox: [i32; 4],
    /// SVG path data in the same units.
    pub d: String,
}

#[derive(Deserialize)]
struct File {
    source: String,
    attribution: String,
    extent_km: [i32; 2],
    /// NUTS 2024 codes that renamed a NUTS 2021 region with the same borders, to that region.
    recoded_2024: HashMap<String, String>,
    regions: Vec<Outline>,
}

pub struct Boundaries {
    /// Where the outlines come from, for the maps' source line.
    pub source: String,
    /// The notice GISCO's provisions require on every map that uses its boundaries.
    pub attribution: String,
    /// Width and height of the whole map in kilometres.
    pub extent: [i32; 2],
    outlines: Vec<Outline>,
    by_code: HashMap<String, usize>,
}

impl Boundaries {
    pub fn bundled() -> Boundaries {
        Boundaries::parse(BUNDLED).expect("the bundled boundaries are valid")
    }

    fn parse(text: &str) -> serde_json::Result<Boundaries> {
        let file: File = serde_json::from_str(text)?;
        let mut by_code: HashMap<String, usize> = file
            .regions
            .iter()
            .enumerate()
            .map(|(i, outline)| (outline.code.clone(), i))
            .collect();
        for (new, old) in &file.recoded_2024 {
            if let Some(&i) = by_code.get(old) {
                by_code.entry(new.clone()).or_insert(i);
            }
        }
        Ok(Boundaries {
            source: file.source,
            attribution: file.attribution,
            extent: file.extent_km,
            outlines: file.regions,
            by_code,
        })
    }

    /// The outline of `code` (a NUTS 2021 code, or a 2024 code that only renamed one).
    pub fn outline(&self, code: &str) -> Option<&Outline> {
        self.by_code.get(code).map(|&i| &self.outlines[i])
    }

    /// Every outline of one NUTS level, in code order.
    pub fn level(&self, level: u8) -> impl Iterator<Item = &Outline> {
        self.outlines.iter().filter(move |o| o.level == level)
    }
}

/// A view box around `bbox` with a margin of a tenth of its larger side (at least `min_margin`),
/// as SVG's `viewBox` attribute wants it.
pub fn view_box(bbox: [i32; 4], min_margin: i32) -> String {
    let [x0, y0, x1, y1] = bbox;
    let margin = ((x1 - x0).max(y1 - y0) / 10).max(min_margin);
    format!(
        "{} {} {} {}",
        x0 - margin,
        y0 - margin,
        x1 - x0 + 2 * margin,
        y1 - y0 + 2 * margin
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_nuts_2021_region_in_europe_has_an_outline_inside_the_extent() {
        let boundaries = Boundaries::bundled();
        let regions = csv::Reader::from_reader(crate::catalogue::NUTS_REGIONS_CSV)
            .into_records()
            .map(Result::unwrap)
            .filter(|r| &r[6] == "NUTS" && &r[7] == "true")
            .map(|r| r[0].to_owned())
            .collect::<Vec<_>>();
        assert!(regions.len() > 1000, "{}", regions.len());
        // The outermost regions are outside the map's extent: French Guiana, the Antilles,
        // Mayotte and Réunion (FRY), the Azores (PT2) and Madeira (PT3).
        let overseas = ["FRY", "PT2", "PT3"];
        let missing: Vec<&String> = regions
            .iter()
            .filter(|code| !overseas.iter().any(|o| code.starts_with(o)))
            .filter(|code| !code.ends_with('Z'))
            .filter(|code| boundaries.outline(code).is_none())
            .collect();
        assert!(missing.is_empty(), "{missing:?}");
        let [w, h] = boundaries.extent;
        for outline in boundaries.level(3) {
            let [x0, y0, x1, y1] = outline.bbox;
            assert!(x0 <= x1 && y0 <= y1, "{}", outline.code);
            assert!(x1 >= 0 && y1 >= 0 && x0 <= w && y0 <= h, "{}", outline.code);
            assert!(outline.d.starts_with('M') && outline.d.ends_with('z'));
        }
        assert_eq!(boundaries.level(0).count(), 37);
    }

    #[test]
    fn a_2024_code_that_renamed_a_region_has_its_outline() {
        let boundaries = Boundaries::bundled();
        let renamed = boundaries.outline("NL361").expect("NL361 renamed NL332");
        assert_eq!(renamed.code, "NL332");
        // A new 2024 region has no outline of its own; nothing stands in for it.
        assert!(boundaries.outline("PT1A0").is_none());
    }

    #[test]
    fn a_view_box_has_a_margin() {
        assert_eq!(view_box([100, 200, 300, 250], 5), "80 180 240 90");
        assert_eq!(view_box([0, 0, 10, 10], 5), "-5 -5 20 20");
    }
}
