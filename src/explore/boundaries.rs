//! The outlines of NUTS regions the maps draw, bundled into the binary (air-gapped sites fetch
//! nothing): Eurostat-GISCO's NUTS 2021 and NUTS 2024 regions projected to ETRS89-LAEA
//! (EPSG:3035), simplified for 1:60 million and written as SVG paths in kilometres of the map's
//! extent (see `data/boundaries/README.md` for how they are made and the provisions of their use).

use std::collections::HashMap;

use serde::Deserialize;

const BUNDLED: &str = include_str!("../../data/boundaries/nuts.json");

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
    attribution: String,
    extent_km: [i32; 2],
    editions: Vec<EditionFile>,
}

#[derive(Deserialize)]
struct EditionFile {
    edition: u16,
    source: String,
    regions: Vec<Outline>,
}

/// The outlines of one NUTS edition: a map draws one edition, so that regions an edition redrew
/// are never drawn over the ones they replaced.
pub struct Edition {
    /// The NUTS edition's year.
    pub year: u16,
    /// Where the outlines come from, for the maps' source line.
    pub source: String,
    /// The notice GISCO's provisions require on every map that uses its boundaries.
    pub attribution: String,
    /// Width and height of the whole map in kilometres.
    pub extent: [i32; 2],
    outlines: Vec<Outline>,
    by_code: HashMap<String, usize>,
}

impl Edition {
    /// The outline of `code` in this edition.
    pub fn outline(&self, code: &str) -> Option<&Outline> {
        self.by_code.get(code).map(|&i| &self.outlines[i])
    }

    /// Every outline of one NUTS level, in code order.
    pub fn level(&self, level: u8) -> impl Iterator<Item = &Outline> {
        self.outlines.iter().filter(move |o| o.level == level)
    }
}

/// The bundled editions, oldest first.
pub struct Boundaries {
    /// The notice GISCO's provisions require on every map that uses its boundaries.
    pub attribution: String,
    editions: Vec<Edition>,
}

impl Boundaries {
    pub fn bundled() -> Boundaries {
        Boundaries::parse(BUNDLED).expect("the bundled boundaries are valid")
    }

    fn parse(text: &str) -> serde_json::Result<Boundaries> {
        let file: File = serde_json::from_str(text)?;
        let mut editions: Vec<Edition> = file
            .editions
            .into_iter()
            .map(|e| Edition {
                year: e.edition,
                source: e.source,
                attribution: file.attribution.clone(),
                extent: file.extent_km,
                by_code: (e.regions.iter().enumerate())
                    .map(|(i, outline)| (outline.code.clone(), i))
                    .collect(),
                outlines: e.regions,
            })
            .collect();
        editions.sort_by_key(|e| e.year);
        Ok(Boundaries {
            attribution: file.attribution,
            editions,
        })
    }

    /// The edition with outlines of the most of `codes` (the regions a map shows, which may be
    /// of either edition); the newest on a tie.
    pub fn edition_for<'a>(&self, codes: impl Iterator<Item = &'a str> + Clone) -> &Edition {
        // Oldest first: of equal counts, `max_by_key` keeps the last.
        self.editions
            .iter()
            .max_by_key(|e| codes.clone().filter(|c| e.outline(c).is_some()).count())
            .expect("at least one edition is bundled")
    }

    /// The newest edition with an outline of `code`.
    pub fn edition_of(&self, code: &str) -> Option<&Edition> {
        self.editions
            .iter()
            .rev()
            .find(|e| e.outline(code).is_some())
    }

    /// The other edition (two are bundled), whose countries that `edition` has none of (the
    /// United Kingdom is in NUTS 2021 only) a map draws as land outside its regions, so that
    /// they are not missing from it.
    pub fn other_edition(&self, edition: &Edition) -> Option<&Edition> {
        self.editions.iter().rev().find(|e| e.year != edition.year)
    }

    /// The countries of [`Boundaries::other_edition`] that `edition` has none of.
    pub fn other_countries<'a>(
        &'a self,
        edition: &'a Edition,
    ) -> impl Iterator<Item = &'a Outline> {
        (self.other_edition(edition).into_iter())
            .flat_map(|e| e.level(0))
            .filter(move |o| edition.outline(&o.code).is_none())
    }

    /// The outline of `code` in the newest edition that has one.
    pub fn outline(&self, code: &str) -> Option<&Outline> {
        self.edition_of(code).and_then(|e| e.outline(code))
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

    /// The regions of `edition` (a column of the bundled NUTS classification) in Europe: every
    /// one has an outline of that edition inside the extent.
    fn every_region_of_an_edition_has_an_outline(edition: u16, column: usize) {
        let boundaries = Boundaries::bundled();
        let outlines = boundaries
            .editions
            .iter()
            .find(|e| e.year == edition)
            .unwrap();
        let regions = csv::Reader::from_reader(crate::bundled::NUTS_REGIONS_CSV)
            .into_records()
            .map(Result::unwrap)
            .filter(|r| &r[6] == "NUTS" && &r[column] == "true")
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
            .filter(|code| outlines.outline(code).is_none())
            .collect();
        assert!(missing.is_empty(), "NUTS {edition}: {missing:?}");
        let [w, h] = outlines.extent;
        for outline in outlines.level(3) {
            let [x0, y0, x1, y1] = outline.bbox;
            assert!(x0 <= x1 && y0 <= y1, "{}", outline.code);
            assert!(x1 >= 0 && y1 >= 0 && x0 <= w && y0 <= h, "{}", outline.code);
            assert!(outline.d.starts_with('M') && outline.d.ends_with('z'));
        }
    }

    #[test]
    fn every_nuts_2021_and_2024_region_in_europe_has_an_outline_inside_the_extent() {
        every_region_of_an_edition_has_an_outline(2021, 7);
        every_region_of_an_edition_has_an_outline(2024, 8);
    }

    #[test]
    fn a_map_draws_the_edition_of_most_of_its_regions() {
        let boundaries = Boundaries::bundled();
        // Portugal's 2024 regions are new: only the 2024 edition has them.
        let portugal_2024 = ["PT19", "PT1A", "PT1B", "PT1C", "PT1D", "PT11"];
        let edition = boundaries.edition_for(portugal_2024.into_iter());
        assert_eq!(edition.year, 2024);
        assert!(edition.outline("PT1A").is_some());
        // Their 2021 predecessors are only in the 2021 edition.
        let portugal_2021 = ["PT16", "PT17", "PT18", "PT11", "PT15"];
        assert_eq!(boundaries.edition_for(portugal_2021.into_iter()).year, 2021);
        // Codes of both: the newest.
        assert_eq!(
            boundaries.edition_for(["DE21", "FR10"].into_iter()).year,
            2024
        );
        assert_eq!(boundaries.edition_of("PT17").unwrap().year, 2021);
        // A map of 2024 regions draws the United Kingdom, in NUTS 2021 only, as land beside them.
        let others: Vec<&str> = (boundaries.other_countries(edition))
            .map(|o| o.code.as_str())
            .collect();
        assert!(others.contains(&"UK"), "{others:?}");
        assert!(!others.contains(&"DE"), "{others:?}");
        assert!(boundaries.outline("XX99").is_none());
    }

    #[test]
    fn a_view_box_has_a_margin() {
        assert_eq!(view_box([100, 200, 300, 250], 5), "80 180 240 90");
        assert_eq!(view_box([0, 0, 10, 10], 5), "-5 -5 20 20");
    }
}
