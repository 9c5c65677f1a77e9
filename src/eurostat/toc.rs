//! Eurostat's table of contents (`catalogue/toc/txt?lang=en`): every folder, dataset and table of
//! its database, one per line, tab-separated and quoted, the hierarchy as four spaces of
//! indentation per level inside the title. A dataset's line says when its data and its
//! structure last changed: what `fetch` records and `sync` compares.
//! <https://ec.europa.eu/eurostat/web/user-guides/data-browser/api-data-access/api-detailed-guidelines/catalogue-api/toc>

use std::collections::BTreeMap;

use anyhow::{Context, bail};

/// One dataset (or table) of the table of contents.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// As the table of contents writes it (lower case for datasets).
    pub code: String,
    pub title: String,
    /// `dataset` or `table`.
    pub kind: String,
    /// When its data last changed, as an ISO date (the table of contents writes `dd.mm.yyyy`).
    pub last_update_of_data: Option<String>,
    /// When its structure (dimensions, positions) last changed, as an ISO date.
    pub last_structure_change: Option<String>,
    pub data_start: Option<String>,
    pub data_end: Option<String>,
    /// The codes of the folders it sits in, outermost first (its first place: a dataset may sit
    /// in several folders).
    pub folders: Vec<String>,
    /// Also in the regional folders (`reg`, `reg_typ`, `degurb`, `urb`, `reg_nat`), in any of its
    /// places.
    pub regional: bool,
}

/// Folders whose datasets Eurostat files as regional statistics ("General and regional
/// statistics": by NUTS classification, by typology, degree of urbanisation, cities, other
/// sub-national statistics).
pub const REGIONAL_FOLDERS: [&str; 5] = ["reg", "reg_typ", "degurb", "urb", "reg_nat"];

/// The table of contents, by dataset code (lower case).
#[derive(Debug, Default)]
pub struct Toc {
    pub entries: BTreeMap<String, Entry>,
}

impl Toc {
    /// The entry of dataset `code`, in any case.
    pub fn get(&self, code: &str) -> Option<&Entry> {
        self.entries.get(&code.to_ascii_lowercase())
    }

    /// The datasets and tables of the regional folders whose code or title holds every word of
    /// `search` (in any case; all of them for no words), by code.
    pub fn regional(&self, search: &str) -> Vec<&Entry> {
        let words: Vec<String> = search.split_whitespace().map(str::to_lowercase).collect();
        (self.entries.values())
            .filter(|e| e.regional)
            .filter(|e| {
                let text = format!("{} {}", e.code, e.title).to_lowercase();
                words.iter().all(|w| text.contains(w.as_str()))
            })
            .collect()
    }
}

/// A `dd.mm.yyyy` date as `yyyy-mm-dd`; None for an empty field.
fn iso_date(text: &str) -> anyhow::Result<Option<String>> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let parts: Vec<&str> = text.split('.').collect();
    match parts.as_slice() {
        [d, m, y]
            if d.len() == 2
                && m.len() == 2
                && y.len() == 4
                && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit())) =>
        {
            Ok(Some(format!("{y}-{m}-{d}")))
        }
        _ => bail!(
            "the date \"{}\" is not dd.mm.yyyy",
            crate::error_text::shown(text)
        ),
    }
}

/// A field without its quotes.
fn unquoted(field: &str) -> &str {
    let field = field.trim_end_matches(['\r', '\n']);
    field
        .strip_prefix('"')
        .and_then(|f| f.strip_suffix('"'))
        .unwrap_or(field)
}

/// Whether `code` is a dataset code as Eurostat writes them (letters, digits, `_` and `-`, at
/// most 64): what may name a file, a request and a metric's label. The table of contents comes
/// from the network; an entry of any other code is left out.
pub fn is_code(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= 64
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Reads the table of contents' text (`lang=en`).
pub fn parse(text: &str) -> anyhow::Result<Toc> {
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().context("the table of contents is empty")?;
    let names: Vec<&str> = header.split('\t').map(unquoted).collect();
    let at = |name: &str| {
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .with_context(|| format!("the table of contents has no column \"{name}\""))
    };
    let (title, code, kind) = (at("title")?, at("code")?, at("type")?);
    let (updated, restructured) = (
        at("last update of data")?,
        at("last table structure change")?,
    );
    let (start, end) = (at("data start")?, at("data end")?);
    let mut toc = Toc::default();
    // The codes of the folders open at each depth.
    let mut path: Vec<String> = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').map(unquoted).collect();
        let field = |n: usize| fields.get(n).copied().unwrap_or("");
        let raw_title = field(title);
        let depth = (raw_title.len() - raw_title.trim_start_matches(' ').len()) / 4;
        let entry_code = field(code).trim().to_owned();
        if entry_code.is_empty() {
            bail!("line {} of the table of contents has no code", i + 1);
        }
        path.truncate(depth);
        match field(kind).trim() {
            "folder" => path.push(entry_code),
            kind @ ("dataset" | "table") if !is_code(&entry_code) => {
                tracing::warn!(
                    line = i + 1,
                    kind,
                    code = %crate::error_text::shown(&entry_code),
                    "Eurostat's table of contents: an entry whose code is none Eurostat writes, left out"
                );
            }
            kind @ ("dataset" | "table") => {
                let line_error = || format!("line {} of the table of contents", i + 1);
                let regional = path.iter().any(|f| REGIONAL_FOLDERS.contains(&f.as_str()));
                let key = entry_code.to_ascii_lowercase();
                if let Some(known) = toc.entries.get_mut(&key) {
                    known.regional |= regional;
                    continue;
                }
                let optional = |n: usize| {
                    let text = field(n).trim();
                    (!text.is_empty()).then(|| text.to_owned())
                };
                toc.entries.insert(
                    key,
                    Entry {
                        code: entry_code,
                        title: super::printable(raw_title.trim()),
                        kind: kind.to_owned(),
                        last_update_of_data: iso_date(field(updated)).with_context(line_error)?,
                        last_structure_change: iso_date(field(restructured))
                            .with_context(line_error)?,
                        data_start: optional(start),
                        data_end: optional(end),
                        folders: path.clone(),
                        regional,
                    },
                );
            }
            other => bail!(
                "line {} of the table of contents has the type \"{}\"",
                i + 1,
                crate::error_text::shown(other)
            ),
        }
    }
    Ok(toc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of contents as Eurostat published it in April 2023 (the first 2,108 lines of
    /// it: tests/fixtures/eurostat/PROVENANCE.md).
    const RECORDED: &str = include_str!("../../tests/fixtures/eurostat/table_of_contents_en.txt");

    #[test]
    fn the_recorded_table_of_contents_reads_with_folders_and_dates() {
        let toc = parse(RECORDED).unwrap();
        let gdp = toc.get("NAMA_10R_3GDP").unwrap();
        assert_eq!(gdp.code, "nama_10r_3gdp");
        assert_eq!(
            gdp.title,
            "Gross domestic product (GDP) at current market prices by NUTS 3 regions"
        );
        assert_eq!(gdp.last_update_of_data.as_deref(), Some("2023-02-21"));
        assert_eq!(gdp.last_structure_change.as_deref(), Some("2023-02-19"));
        assert_eq!(
            (gdp.data_start.as_deref(), gdp.data_end.as_deref()),
            (Some("2000"), Some("2021"))
        );
        assert_eq!(
            gdp.folders,
            ["data", "general", "reg", "reg_eco10", "reg_eco10gdp"]
        );
        assert!(gdp.regional);
        // Short-term indicators of the same theme are not regional.
        let bop = toc.get("ei_bpm6ca_q").unwrap();
        assert!(!bop.regional, "{bop:?}");
        assert!(toc.entries.len() > 1000, "{}", toc.entries.len());
    }

    #[test]
    fn the_regional_entries_are_found_by_words_of_their_code_or_title() {
        let toc = parse(RECORDED).unwrap();
        let all = toc.regional("");
        assert!(all.len() > 100, "{}", all.len());
        assert!(all.iter().all(|e| e.regional));
        let codes = |search| -> Vec<&str> {
            toc.regional(search)
                .iter()
                .map(|e| e.code.as_str())
                .collect()
        };
        let gdp = codes("gdp NUTS 3");
        assert!(gdp.contains(&"nama_10r_3gdp"), "{gdp:?}");
        assert!(
            gdp.iter()
                .all(|c| toc.get(c).unwrap().title.contains("NUTS 3"))
        );
        assert_eq!(codes("NAMA_10R_3GDP"), ["nama_10r_3gdp"]);
        assert!(codes("balance of payments").is_empty());
    }

    #[test]
    fn entries_of_codes_that_could_name_a_path_are_left_out() {
        let header = "\"title\"\t\"code\"\t\"type\"\t\"last update of data\"\t\"last table structure change\"\t\"data start\"\t\"data end\"\t\"values\"\n";
        let line =
            |code: &str| format!("\"x\"\t\"{code}\"\t\"dataset\"\t\" \"\t\" \"\t\" \"\t\" \"\t\n");
        let text = [
            header.to_owned(),
            line("../../etc/x"),
            line("a/b"),
            line("x}\"y"),
            line("DS-045409"),
        ]
        .concat();
        let toc = parse(&text).unwrap();
        let codes: Vec<&str> = toc.entries.values().map(|e| e.code.as_str()).collect();
        assert_eq!(codes, ["DS-045409"]);
        assert!(!is_code("") && !is_code(&"a".repeat(65)) && is_code("nama_10r_3gdp"));
    }

    #[test]
    fn malformed_lines_are_refused_with_their_number() {
        let header = "\"title\"\t\"code\"\t\"type\"\t\"last update of data\"\t\"last table structure change\"\t\"data start\"\t\"data end\"\t\"values\"\n";
        let bad_date =
            format!("{header}\"x\"\t\"x_1\"\t\"dataset\"\t\"2023-02-21\"\t\" \"\t\" \"\t\" \"\t\n");
        let why = format!("{:#}", parse(&bad_date).unwrap_err());
        assert!(
            why.contains("line 2") && why.contains("dd.mm.yyyy"),
            "{why}"
        );
        let bad_kind = format!("{header}\"x\"\t\"x_1\"\t\"chart\"\t\" \"\t\" \"\t\" \"\t\" \"\t\n");
        assert!(format!("{:#}", parse(&bad_kind).unwrap_err()).contains("\"chart\""));
        assert!(parse("\"title\"\t\"code\"\n").is_err(), "columns missing");
    }
}
