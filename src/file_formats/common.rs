//! Checks shared by all parsers, so that a value, flag or code accepted from one format is
//! accepted from every other and refused with the same words.

use std::collections::HashSet;
use std::io::BufRead;

use super::input::LineBreaks;
use super::parsing::FormatError;
use crate::dataset_file::RawObservation;
pub(crate) use crate::error_text::shown;

/// The cells of one observation as they appear in the source, already trimmed.
pub(crate) struct Cells<'a> {
    pub region: &'a str,
    pub period: &'a str,
    pub unit: &'a str,
    pub value: &'a str,
    pub flags: &'a str,
    pub conf_status: &'a str,
}

/// Validates one observation and builds it; the error is the reason, the caller knows the line.
pub(crate) fn observation(
    cells: Cells<'_>,
    dim_values: Vec<String>,
    src_line: u64,
) -> Result<RawObservation, String> {
    check_region_code(cells.region)?;
    if cells.period.is_empty() {
        return Err("empty period".into());
    }
    let period = crate::period::canonical(cells.period)?;
    if cells.unit.is_empty() {
        return Err("empty unit".into());
    }
    // Every field is bounded, so a row is: an import holds rows in batches of a fixed count.
    if cells.unit.len() > MAX_CODE_LEN {
        return Err(format!(
            "unit \"{}\" is longer than {MAX_CODE_LEN} characters",
            shown(cells.unit)
        ));
    }

    for value in &dim_values {
        check_dim_value(value)?;
    }
    let value = if cells.value.is_empty() {
        None
    } else {
        Some(parse_value(cells.value)?)
    };
    if cells.value.len() > MAX_VALUE_LEN {
        return Err(format!(
            "value \"{}\" is longer than {MAX_VALUE_LEN} characters",
            shown(cells.value)
        ));
    }
    if cells.conf_status.len() > MAX_STATUS_LEN
        || !cells.conf_status.bytes().all(|b| b.is_ascii_alphabetic())
    {
        return Err(format!(
            "conf_status \"{}\" is not a status code",
            shown(cells.conf_status)
        ));
    }
    Ok(RawObservation {
        region: cells.region.to_owned(),
        period,
        unit: cells.unit.to_owned(),
        dim_values,
        value_text: cells.value.to_owned(),
        value,
        flags: parse_flags(cells.flags)?,
        conf_status: cells.conf_status.to_owned(),
        src_line,
    })
}

/// Accepts only what Eurostat prints: optional sign, digits, optional `.digits`. Anything else
/// (`12,3`, `1e5`, `NaN`, `.5`) means the file is not what we think it is, so it is refused
/// rather than guessed at.
fn parse_value(text: &str) -> Result<f64, String> {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (int, frac) = match unsigned.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (unsigned, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let parsed = if digits(int) && frac.is_none_or(digits) {
        text.parse::<f64>().ok()
    } else {
        None
    };
    match parsed {
        Some(v) if v.is_finite() => Ok(v),
        _ => Err(format!("value \"{}\" is not a number", shown(text))),
    }
}

/// Eurostat flags are single letters, concatenated (`bep`); stored lower-case as published.
/// Each letter says one thing of the value, so a letter given twice is a mistake (and would
/// make every claim on the value carry it as often).
fn parse_flags(text: &str) -> Result<String, String> {
    if !text.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(format!("flags \"{}\" are not letters", shown(text)));
    }
    let flags = text.to_ascii_lowercase();
    let mut seen = [false; 26];
    for b in flags.bytes() {
        let seen = &mut seen[usize::from(b - b'a')];
        if *seen {
            return Err(format!(
                "flags \"{}\" give the letter {} more than once",
                shown(text),
                char::from(b)
            ));
        }
        *seen = true;
    }
    Ok(flags)
}

/// Geo codes and dimension names: `[A-Za-z0-9_]+` (NUTS codes, `EU27_2020`, `na_item`).
pub(crate) fn is_code(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// [`is_code`] of at most `max_len` characters, with a reason; `what` names the thing in the
/// message.
fn check_code(what: &str, text: &str, max_len: usize) -> Result<(), String> {
    if text.is_empty() {
        Err(format!("empty {what}"))
    } else if !is_code(text) {
        Err(format!(
            "{what} \"{}\" has characters other than letters, digits and _",
            shown(text)
        ))
    } else if text.len() > max_len {
        Err(format!(
            "{what} \"{}\" is longer than {max_len} characters",
            shown(text)
        ))
    } else {
        Ok(())
    }
}

/// A region code as Eurostat writes them (`DE212`, `EU27_2020`): at most
/// [`MAX_REGION_CODE_LEN`] characters, which also keeps the search for codes close to an unknown
/// one cheap.
pub(crate) fn check_region_code(text: &str) -> Result<(), String> {
    check_code("region code", text, MAX_REGION_CODE_LEN)
}

/// A dimension's column name (`sex`, `na_item`).
pub(crate) fn check_dimension_name(text: &str) -> Result<(), String> {
    check_code("dimension name", text, MAX_CODE_LEN)
}

/// Longest region code accepted; Eurostat's longest are 9 (`EU27_2020`).
pub const MAX_REGION_CODE_LEN: usize = crate::region_code::MAX_LEN;

/// Dimension values are codes too (`T`, `Y15-64`, `B-E`): letters, digits and `_ - @ $` (SDMX's
/// identifier characters), at most [`MAX_CODE_LEN`]. Anything else is refused: a series is stored
/// under `name=value;name=value`, so a value holding `;` or `=` could pass for another series.
fn check_dim_value(value: &str) -> Result<(), String> {
    let ok = (1..=MAX_CODE_LEN).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'@' | b'$'));
    if ok {
        Ok(())
    } else if value.is_empty() {
        Err("empty dimension value".into())
    } else {
        Err(format!(
            "dimension value \"{}\" is not a code: 1 to {MAX_CODE_LEN} letters, digits, _, -, @ or $",
            shown(value)
        ))
    }
}

/// Longest dimension value and unit accepted; Eurostat's are a dozen characters at most.
const MAX_CODE_LEN: usize = 64;

/// Longest value accepted: the largest double written out in full has 309 digits (values have
/// no exponent), with room for a sign and decimals.
const MAX_VALUE_LEN: usize = 400;

/// Longest confidentiality status accepted (SDMX's are one letter).
const MAX_STATUS_LEN: usize = 8;

/// Most columns a CSV header (or dimensions a TSV header) may name. Real files have a few dozen;
/// a header of hundreds of thousands of names would only make every later check expensive.
pub(crate) const MAX_COLUMNS: usize = 1_000;

/// Refuses a header with more than [`MAX_COLUMNS`] names, before anything looks at them.
pub(crate) fn check_column_count(count: usize) -> Result<(), String> {
    if count > MAX_COLUMNS {
        Err(format!(
            "the header has {count} columns; at most {MAX_COLUMNS} are accepted"
        ))
    } else {
        Ok(())
    }
}

/// Names seen so far in a header, to refuse a repeat in linear time.
#[derive(Default)]
pub(crate) struct SeenNames<'a>(HashSet<&'a str>);

impl<'a> SeenNames<'a> {
    /// False if `name` was seen before.
    pub(crate) fn first_time(&mut self, name: &'a str) -> bool {
        self.0.insert(name)
    }
}

/// Normalises a dataset code (`TGS00010` → `tgs00010`); `None` if it cannot be one.
pub(crate) fn dataset_code(text: &str) -> Option<String> {
    let code = text.trim().to_ascii_lowercase();
    let valid = code
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    (valid && !code.is_empty()).then_some(code)
}

/// The records of a CSV stream with the line each starts on. Every line comes out, header
/// included, and field counts are left to the parser, so a short row is reported as such.
pub(crate) struct CsvRows<'r> {
    file: &'r str,
    reader: csv::Reader<LineBreaks<Box<dyn BufRead + 'r>>>,
    record: csv::StringRecord,
    line: u64,
}

impl<'r> CsvRows<'r> {
    pub(crate) fn new(file: &'r str, stream: Box<dyn BufRead + 'r>) -> Self {
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(LineBreaks::new(stream));
        CsvRows {
            file,
            reader,
            record: csv::StringRecord::new(),
            line: 1,
        }
    }

    /// The next record and its 1-based line, `None` at the end of the file; a record with a
    /// control character in a cell is refused.
    pub(crate) fn next(&mut self) -> Result<Option<(u64, &csv::StringRecord)>, FormatError> {
        match self.reader.read_record(&mut self.record) {
            Ok(false) => Ok(None),
            Ok(true) => {
                let byte = self.record.position().map_or(0, csv::Position::byte);
                let line = self.line_at(byte);
                // A cell's text is stored and shown as it stands: no control character in it.
                if let Some(why) = self
                    .record
                    .iter()
                    .find_map(|cell| crate::text::refusal(cell, false))
                {
                    return Err(FormatError::new(self.file, line, format!("a cell {why}")));
                }
                Ok(Some((line, &self.record)))
            }
            Err(err) => {
                let at = match err.position() {
                    Some(position) => position.byte(),
                    // Reading stopped inside the record that began here (see `LineBreaks`).
                    None => self.reader.get_ref().record_start(),
                };
                let line = self.line_at(at);
                let reason = match err.kind() {
                    csv::ErrorKind::Utf8 { .. } => "not valid UTF-8".to_owned(),
                    csv::ErrorKind::Io(e) => e.to_string(),
                    _ => err.to_string(),
                };
                Err(FormatError::new(self.file, line, reason))
            }
        }
    }

    /// The line of the record at `byte`. The csv crate's own `Position::line` is not used: it
    /// miscounts CRLF files and lines after a blank line, and its record offsets can point at the
    /// line break before the record.
    fn line_at(&mut self, byte: u64) -> u64 {
        self.reader.get_mut().line_at(byte, &mut self.line);
        self.line
    }
}

/// Checks the field count of a CSV row against the header's.
pub(crate) fn check_width(
    file: &str,
    line: u64,
    expected: usize,
    found: usize,
) -> Result<(), FormatError> {
    if expected == found {
        Ok(())
    } else {
        Err(FormatError::new(
            file,
            line,
            format!("expected {expected} fields, found {found}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record with a control character in any cell is refused with its line, whatever the
    /// cell is (a value, a flag, a dimension's code): it would be stored and shown as it stands.
    #[test]
    fn a_control_character_in_a_cell_is_refused_with_its_line() {
        let csv = "geo,time,value,note\nDE21,2020,1,fine\nDE22,2020,2,be\u{7}ll\n";
        let mut rows = CsvRows::new("f.csv", Box::new(csv.as_bytes()));
        assert!(rows.next().unwrap().is_some());
        assert!(rows.next().unwrap().is_some());
        let refused = rows.next().unwrap_err();
        assert_eq!(
            (refused.line, refused.reason.as_str()),
            (3, "a cell holds the control character U+0007")
        );
    }

    #[test]
    fn values_must_be_plain_decimals() {
        for ok in ["0", "12", "-3", "+4", "447217.64", "83.0", "-0.5"] {
            assert_eq!(parse_value(ok), Ok(ok.parse().unwrap()), "{ok}");
        }
        for bad in [
            "", "12,3", "1e5", "NaN", "inf", ".5", "5.", "1.2.3", "--1", "1 000", "0x10",
        ] {
            assert_eq!(
                parse_value(bad),
                Err(format!("value \"{bad}\" is not a number")),
                "{bad}"
            );
        }
        assert!(
            parse_value(&"9".repeat(400)).is_err(),
            "overflow to infinity"
        );
        // Too long to hold, whatever it says.
        let cells = |value| Cells {
            region: "AT",
            period: "2020",
            unit: "NR",
            value,
            flags: "",
            conf_status: "",
        };
        let long = format!("{}1", "0".repeat(400));
        let e = observation(cells(&long), Vec::new(), 1).unwrap_err();
        assert!(e.contains("longer than 400 characters"), "{e}");
        let largest = format!("{}.5", "9".repeat(308));
        assert!(observation(cells(&largest), Vec::new(), 1).is_ok());
    }

    #[test]
    fn flags_are_letters_lower_cased() {
        assert_eq!(parse_flags("").unwrap(), "");
        assert_eq!(parse_flags("bEp").unwrap(), "bep");
        assert!(parse_flags("p*").is_err());
        assert!(parse_flags("b p").is_err());
        assert!(
            parse_flags("bB")
                .unwrap_err()
                .contains("the letter b more than once")
        );
        assert_eq!(parse_flags("bcdefnprsuz").unwrap(), "bcdefnprsuz");
    }

    #[test]
    fn codes() {
        assert!(check_region_code("EU27_2020").is_ok());
        assert_eq!(check_region_code(""), Err("empty region code".into()));
        assert!(check_region_code("DE 1").is_err());
        assert!(check_region_code(&"A".repeat(16)).is_ok());
        assert!(check_region_code(&"A".repeat(17)).is_err());
        assert!(check_dimension_name(&"a".repeat(64)).is_ok());
        assert!(check_dimension_name(&"a".repeat(65)).is_err());
        assert_eq!(dataset_code(" TGS00010 ").as_deref(), Some("tgs00010"));
        assert_eq!(dataset_code("eurostat demo d3dens"), None);
        assert_eq!(dataset_code(""), None);
    }
}
