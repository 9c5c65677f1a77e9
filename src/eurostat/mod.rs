//! regintel's data supply: Eurostat's dissemination API
//! (<https://ec.europa.eu/eurostat/web/user-guides/data-browser/api-data-access>). `regintel
//! fetch` reads the table of contents ([`toc`]), a dataset's structure ([`structure`]) and its
//! data as compressed TSV through [`client`], and imports each download as a snapshot through
//! the same path as `regintel import` ([`fetch`]); [`sync`] fetches again what Eurostat changed;
//! [`bundle`] carries what was fetched to an install without a route to Eurostat.

pub mod bundle;
pub mod client;
pub mod described;
pub mod fetch;
pub mod lock;
pub mod structure;
pub mod sync;
pub mod toc;

/// Eurostat's API, unless a setting names a mirror, a proxy or a test's stand-in.
pub const DEFAULT_URL: &str = "https://ec.europa.eu/eurostat/api/dissemination";

/// Text from the network as regintel repeats it (in a message, a log line, a listing): control
/// characters (a terminal's escapes, line breaks that would forge log lines) become spaces, and
/// at most 200 characters are kept.
pub fn printable(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    crate::error_text::shown_up_to(&cleaned, 200).into_owned()
}

/// What the product files a dataset under (the topics of the bundled catalogue, which briefings
/// group by), from the folders Eurostat's table of contents puts it in; `other` where none
/// says.
pub fn topic_of(folders: &[String]) -> &'static str {
    const BY_FOLDER: [(&str, &str); 10] = [
        ("reg_eco10", "economy"),
        ("reg_sbs", "economy"),
        ("reg_agr", "economy"),
        ("reg_dem", "demography"),
        ("reg_hlth", "health"),
        ("reg_lmk", "labour market"),
        ("reg_educ", "education"),
        ("reg_sct", "research"),
        ("hlth", "health"),
        ("demo", "demography"),
    ];
    (folders.iter().rev())
        .find_map(|folder| {
            BY_FOLDER
                .iter()
                .find(|(prefix, _)| folder.starts_with(prefix))
                .map(|(_, topic)| *topic)
        })
        .unwrap_or("other")
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_from_the_network_loses_its_control_characters_and_length() {
        assert_eq!(
            super::printable("GDP\u{1b}[31m by\nregion\r"),
            "GDP [31m by region "
        );
        assert_eq!(super::printable(&"x".repeat(500)).chars().count(), 201);
    }

    #[test]
    fn topics_come_from_the_innermost_folder_that_says_one() {
        let folders = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            super::topic_of(&folders(&[
                "data",
                "general",
                "reg",
                "reg_eco10",
                "reg_eco10gdp"
            ])),
            "economy"
        );
        assert_eq!(
            super::topic_of(&folders(&["data", "hlth", "hlth_care"])),
            "health"
        );
        assert_eq!(
            super::topic_of(&folders(&["data", "general", "reg"])),
            "other"
        );
    }
}
