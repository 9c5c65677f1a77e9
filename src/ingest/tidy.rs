//! regintel's tidy CSV: one observation per row. The full form is the one of `data/`,
//! `dataset_code,nuts_code,nuts_level,time,value,unit,flags,<dims...>[,conf_status][,src_line]`;
//! the least a user writes is `nuts_code,period,value` (plus the dataset's dimension columns):
//!
//! - `nuts_code` or `geo`: the region code; `time` or `period`: the period; `value`;
//! - `dataset_code`: optional when the caller names the dataset (an upload's URL, `--dataset`);
//!   when present it must be that dataset on every row;
//! - `unit`: optional when the dataset has a unit to default to;
//! - `nuts_level`: optional; when present and not empty, it must be the code's level;
//! - `flags`, `conf_status`, `src_line`: optional;
//! - every other column is a dimension.
//!
//! Columns are found by name, so their order does not matter.

use std::borrow::Cow;
use std::io::BufRead;

use super::common::{self, Cells};
use super::{
    FileEnd, FileHeader, Format, FormatError, KnownRegions, RawObservation, ReadError, Sink,
};

/// What a tidy file may leave out, and what stands in for it.
#[derive(Default, Clone, Copy)]
pub struct Defaults<'a> {
    /// The dataset the caller names; rows that name one must name this one.
    pub dataset: Option<&'a str>,
    /// The unit of rows without a `unit` column.
    pub unit: Option<&'a str>,
    /// Rows with a `unit` column must give `unit` (a private dataset has one unit).
    pub unit_only: bool,
    /// The dimension columns the file must have (a private dataset's, in any order).
    pub dims: Option<&'a [String]>,
    /// Known region codes, each read in any case (an account's own data).
    pub regions: Option<&'a KnownRegions>,
}

/// Where each known column is, and which columns are dimensions.
struct Columns {
    dataset: Option<usize>,
    region: usize,
    nuts_level: Option<usize>,
    period: usize,
    value: usize,
    unit: Option<usize>,
    flags: Option<usize>,
    conf_status: Option<usize>,
    src_line: Option<usize>,
    dims: Vec<usize>,
    width: usize,
}

/// Reads a tidy CSV stream (not gzipped; see [`super::read`]).
pub fn read(
    file: &str,
    stream: Box<dyn BufRead + '_>,
    defaults: Defaults<'_>,
    sink: &mut Sink<'_>,
) -> Result<FileEnd, ReadError> {
    let mut csv = common::CsvRows::new(file, stream);
    let Some((header_line, header)) = csv.next()? else {
        return Err(FormatError::new(file, 0, "file is empty").into());
    };
    let header_error = |reason: String| FormatError::new(file, header_line, reason);
    let (cols, dim_names) = columns(header).map_err(header_error)?;
    if cols.dataset.is_none() && defaults.dataset.is_none() {
        return Err(header_error(
            "missing column \"dataset_code\" (or name the dataset: --dataset)".into(),
        )
        .into());
    }
    if cols.unit.is_none() && defaults.unit.is_none() {
        return Err(
            header_error("missing column \"unit\" (or name the unit: --unit)".into()).into(),
        );
    }

    // Every row's problem is reported, not only the first; a CSV that cannot be read further
    // (broken quoting, bytes that are not UTF-8) ends the reading.
    let mut problems = super::Problems::new(file);
    if let Some(declared) = defaults.dims {
        let sorted = |names: &[String]| {
            let mut names = names.to_vec();
            names.sort();
            names
        };
        let (given, declared) = (sorted(&dim_names), sorted(declared));
        if given != declared {
            problems.add(
                header_line,
                format!(
                    "dimension columns are [{}]; the dataset declares [{}]",
                    common::shown(&given.join(", ")),
                    declared.join(", ")
                ),
            );
        }
    }
    // The dataset every row must name: the caller's, or else the first row's (with its line).
    let mut dataset: Option<(String, u64)> = defaults.dataset.map(|d| (d.to_owned(), 0));
    // Known once the dataset is: the caller's, or the first row's if it is a dataset code.
    let mut file_header = match defaults.dataset {
        Some(code) => Some(header_of(file, code, 0, &dim_names)?),
        None => None,
    };
    loop {
        let (line, record) = match csv.next() {
            Ok(Some(next)) => next,
            Ok(None) => break,
            Err(e) => {
                problems.add_all(e);
                break;
            }
        };
        if let Err(e) = common::check_width(file, line, cols.width, record.len()) {
            problems.add_all(e);
            continue;
        }
        let field = |i: usize| record[i].trim();
        if let Some(i) = cols.dataset {
            let code = field(i);
            match &dataset {
                None => {
                    dataset = Some((code.to_owned(), line));
                    match header_of(file, code, line, &dim_names) {
                        Ok(header) => file_header = Some(header),
                        Err(e) => problems.add_all(e),
                    }
                }
                Some((expected, _)) if !expected.eq_ignore_ascii_case(code) => {
                    problems.add(
                        line,
                        format!(
                            "dataset_code \"{}\" is not {}",
                            common::shown(code),
                            match defaults.dataset {
                                Some(_) => format!("this dataset's code \"{expected}\""),
                                None => format!("\"{expected}\" of the first row"),
                            }
                        ),
                    );
                    continue;
                }
                Some(_) => {}
            }
        }
        match row(&cols, defaults, line, record) {
            Ok(observation) => {
                if let Some(header) = &file_header {
                    sink(header, line, observation).map_err(ReadError::Sink)?;
                }
            }
            Err(reason) => problems.add(line, reason),
        }
    }
    problems.into_result()?;
    let header =
        file_header.ok_or_else(|| FormatError::new(file, 0, "no data rows, so no dataset_code"))?;
    Ok(FileEnd {
        header,
        title: None,
    })
}

/// The header of a file of dataset `code`, named on `line`.
fn header_of(
    file: &str,
    code: &str,
    line: u64,
    dim_names: &[String],
) -> Result<FileHeader, FormatError> {
    let dataset = common::dataset_code(code).ok_or_else(|| {
        FormatError::new(
            file,
            line,
            format!(
                "dataset_code \"{}\" is not a dataset code",
                common::shown(code)
            ),
        )
    })?;
    Ok(FileHeader {
        format: Format::Tidy,
        dataset,
        dim_names: dim_names.to_vec(),
    })
}

/// One row's observation, or the reason it is refused.
fn row(
    cols: &Columns,
    defaults: Defaults<'_>,
    line: u64,
    record: &csv::StringRecord,
) -> Result<RawObservation, String> {
    let field = |i: usize| record[i].trim();
    let src_line = match cols.src_line {
        None => line,
        Some(i) => match field(i).parse::<u64>() {
            Ok(n) if n > 0 => n,
            _ => {
                return Err(format!(
                    "src_line \"{}\" is not a line number",
                    common::shown(field(i))
                ));
            }
        },
    };
    let region = field(cols.region);
    if let Some(level) = cols.nuts_level.map(field).filter(|l| !l.is_empty()) {
        check_level(region, level)?;
    }
    // Units are codes in capitals (PC, EUR_HAB); one written in lower case means the same.
    let unit = cols.unit.map_or(defaults.unit.unwrap_or(""), field);
    let unit: Cow<'_, str> = if unit.bytes().any(|b| b.is_ascii_lowercase()) {
        Cow::Owned(unit.to_ascii_uppercase())
    } else {
        Cow::Borrowed(unit)
    };
    if let Some(only) = defaults.unit.filter(|_| defaults.unit_only)
        && unit != only
    {
        return Err(format!(
            "unit is {}; the dataset's unit is {only}",
            common::shown(&unit)
        ));
    }
    let cells = Cells {
        region,
        period: field(cols.period),
        unit: &unit,
        value: field(cols.value),
        flags: cols.flags.map_or("", field),
        conf_status: cols.conf_status.map_or("", field),
    };
    if cells.value.is_empty() && cells.flags.is_empty() && cells.conf_status.is_empty() {
        return Err("empty value with neither flags nor conf_status".into());
    }
    let dim_values = cols.dims.iter().map(|&i| field(i).to_owned()).collect();
    common::observation(cells, dim_values, src_line)
}

/// A `nuts_level` must be the level the code has: its length less the two letters of the
/// country for a NUTS code (`DE` 0, `DE2` 1, `DE21` 2, `DE212` 3).
fn check_level(region: &str, level: &str) -> Result<(), String> {
    let nuts_shaped = (2..=5).contains(&region.len())
        && region.as_bytes()[..2].iter().all(u8::is_ascii_alphabetic)
        && region.bytes().all(|b| b.is_ascii_alphanumeric());
    let expected = nuts_shaped.then(|| (region.len() - 2).to_string());
    match expected {
        Some(expected) if expected == level => Ok(()),
        Some(expected) => Err(format!(
            "nuts_level {} does not match {region}, a level {expected} code",
            common::shown(level)
        )),
        None => Err(format!(
            "nuts_level {} given for {}, which is not a NUTS code",
            common::shown(level),
            common::shown(region)
        )),
    }
}

/// The columns with a meaning of their own; every other column is a dimension.
pub const KNOWN: [&str; 11] = [
    "dataset_code",
    "nuts_code",
    "geo",
    "nuts_level",
    "time",
    "period",
    "value",
    "unit",
    "flags",
    "conf_status",
    "src_line",
];

/// Whether a CSV header line looks like tidy CSV: a value column and a region column, however
/// named (one named otherwise than regintel reads is then told its name).
pub(super) fn is_header(first_line: &str) -> bool {
    let names: Vec<String> = first_line
        .split(',')
        .map(|n| n.trim().trim_matches('"').to_ascii_lowercase())
        .collect();
    let region_like = |name: &String| {
        name == "nuts_code"
            || ALIKE
                .iter()
                .any(|(alike, read_as)| *read_as == "nuts_code" && alike == name)
    };
    names.iter().any(|n| n == "value") && names.iter().any(region_like)
}

/// Names people give the columns regintel reads, each with the name it reads.
const ALIKE: [(&str, &str); 14] = [
    ("region", "nuts_code"),
    ("regions", "nuts_code"),
    ("region_code", "nuts_code"),
    ("nuts", "nuts_code"),
    ("nuts_id", "nuts_code"),
    ("geo", "nuts_code"),
    ("geo_code", "nuts_code"),
    ("year", "period"),
    ("years", "period"),
    ("date", "period"),
    ("time", "period"),
    ("time_period", "period"),
    ("period", "period"),
    ("value", "value"),
];

/// A header without a region, period or value column, whose other columns are named as people
/// often name them (`region`, `Year`, `GEO`), is told the name to use: otherwise it would read
/// as a dimension and the error would not say why.
fn misnamed(names: &[&str]) -> Result<(), String> {
    let has = |wanted: &str| names.contains(&wanted);
    let missing = |read_as: &str| match read_as {
        "nuts_code" => !has("nuts_code") && !has("geo"),
        "period" => !has("period") && !has("time"),
        _ => !has(read_as),
    };
    let renames: Vec<String> = names
        .iter()
        .filter(|name| !KNOWN.contains(name))
        .filter_map(|name| {
            let lower = name.to_ascii_lowercase();
            let (_, read_as) = ALIKE.iter().find(|(alike, _)| *alike == lower)?;
            missing(read_as).then(|| format!("\"{}\" to \"{read_as}\"", common::shown(name)))
        })
        .collect();
    if renames.is_empty() {
        return Ok(());
    }
    Err(format!(
        "a tidy CSV's columns are nuts_code, period and value (and the dataset's dimensions): rename {}",
        renames.join(", ")
    ))
}

/// Maps header names to positions; the error is the reason.
fn columns(header: &csv::StringRecord) -> Result<(Columns, Vec<String>), String> {
    common::check_column_count(header.len())?;
    let names: Vec<&str> = header.iter().map(str::trim).collect();
    misnamed(&names)?;
    let mut seen = common::SeenNames::default();
    for (i, &name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err(format!("column {} has no name", i + 1));
        }
        if !seen.first_time(name) {
            return Err(format!("duplicate column \"{}\"", common::shown(name)));
        }
        if !KNOWN.contains(&name) {
            common::check_dimension_name(name)?;
        }
    }
    let find = |wanted: &str| names.iter().position(|&n| n == wanted);
    // One of two names for the same thing, but not both.
    let either = |a: &str, b: &str| match (find(a), find(b)) {
        (Some(_), Some(_)) => Err(format!(
            "columns \"{a}\" and \"{b}\" say the same: keep one"
        )),
        (Some(i), None) | (None, Some(i)) => Ok(i),
        (None, None) => Err(format!("missing column \"{a}\" (or \"{b}\")")),
    };
    let dims: Vec<usize> = (0..names.len())
        .filter(|&i| !KNOWN.contains(&names[i]))
        .collect();
    let dim_names = dims.iter().map(|&i| names[i].to_owned()).collect();
    let cols = Columns {
        dataset: find("dataset_code"),
        region: either("nuts_code", "geo")?,
        nuts_level: find("nuts_level"),
        period: either("time", "period")?,
        value: find("value").ok_or("missing column \"value\"")?,
        unit: find("unit"),
        flags: find("flags"),
        conf_status: find("conf_status"),
        src_line: find("src_line"),
        dims,
        width: names.len(),
    };
    Ok((cols, dim_names))
}

#[cfg(test)]
mod tests {
    use super::super::{Accept, ParsedFile, collect};
    use super::*;

    pub(super) fn parse(
        file: &str,
        bytes: &[u8],
        defaults: Defaults<'_>,
    ) -> Result<ParsedFile, FormatError> {
        collect(file, bytes, Accept::Only(Format::Tidy), defaults)
    }

    const HEADER: &str = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,sex";

    fn err(text: &str) -> FormatError {
        parse("t.csv", text.as_bytes(), Defaults::default()).unwrap_err()
    }

    #[test]
    fn happy_path() {
        let text = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,sex,conf_status,src_line\n\
                    TGS00010,AT11,2,2013,4.3,PC,,A,T,,2\n\
                    tgs00010,BE21,2,2018,,PC,,A,T,C,7\n\
                    tgs00010,EU27_2020,,2022,-1.50,PC,bP,A,T,,9\n";
        let p = parse("t.csv", text.as_bytes(), Defaults::default()).unwrap();
        assert_eq!(p.format, Format::Tidy);
        assert_eq!(p.dataset, "tgs00010");
        assert_eq!(p.title, None);
        assert_eq!(p.dim_names, ["freq", "sex"]);
        assert_eq!(p.rows.len(), 3);
        let r = &p.rows[0];
        assert_eq!(
            (r.region.as_str(), r.period.as_str(), r.unit.as_str()),
            ("AT11", "2013", "PC")
        );
        assert_eq!(
            (r.value_text.as_str(), r.value, r.src_line),
            ("4.3", Some(4.3), 2)
        );
        assert_eq!(r.dim_values, ["A", "T"]);
        let r = &p.rows[1];
        assert_eq!(
            (r.value_text.as_str(), r.value, r.conf_status.as_str()),
            ("", None, "C")
        );
        let r = &p.rows[2];
        assert_eq!(
            (r.value_text.as_str(), r.value, r.flags.as_str()),
            ("-1.50", Some(-1.5), "bp")
        );
    }

    #[test]
    fn src_line_defaults_to_the_csv_line_and_crlf_is_fine() {
        let text = format!("{HEADER}\r\nx,AT,0,2020,1,NR,,A,T\r\nx,AT,0,2021,2,NR,e,A,T\r\n");
        let p = parse("t.csv", text.as_bytes(), Defaults::default()).unwrap();
        assert_eq!(
            p.rows.iter().map(|r| r.src_line).collect::<Vec<_>>(),
            [2, 3]
        );
        assert_eq!(p.rows[1].flags, "e");
    }

    #[test]
    fn bad_number() {
        let e = err(&format!(
            "{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2021,\"12,3\",NR,,A,T\n"
        ));
        assert_eq!(
            (e.line, e.reason.as_str()),
            (3, "value \"12,3\" is not a number")
        );
    }

    #[test]
    fn bad_flag() {
        let e = err(&format!("{HEADER}\nx,AT,0,2020,1,NR,p!,A,T\n"));
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("flags \"p!\""), "{}", e.reason);
    }

    #[test]
    fn missing_column() {
        let e = err("dataset_code,nuts_code,nuts_level,time,value,flags\nx,AT,0,2020,1,\n");
        assert_eq!(
            (e.line, e.reason.as_str()),
            (1, "missing column \"unit\" (or name the unit: --unit)")
        );
    }

    fn for_dataset<'a>(dataset: &'a str, unit: &'a str) -> Defaults<'a> {
        Defaults {
            dataset: Some(dataset),
            unit: Some(unit),
            ..Default::default()
        }
    }

    /// The least a user writes: region, period, value; the dataset and unit come from the caller.
    #[test]
    fn the_minimal_form_takes_the_dataset_and_unit_from_the_caller() {
        let text = "nuts_code,period,value\nDE21,2022,1.5\nfr10,2023,2\n";
        let p = parse("t.csv", text.as_bytes(), for_dataset("mine", "NR")).unwrap();
        assert_eq!(p.dataset, "mine");
        assert_eq!(p.dim_names, Vec::<String>::new());
        let r = &p.rows[1];
        assert_eq!(
            (
                r.region.as_str(),
                r.period.as_str(),
                r.unit.as_str(),
                r.flags.as_str()
            ),
            ("fr10", "2023", "NR", "")
        );
        let aliases = "geo,time,value,sex\nDE21,2022,1,T\n";
        let p = parse("t.csv", aliases.as_bytes(), for_dataset("mine", "NR")).unwrap();
        assert_eq!(p.dim_names, ["sex"]);
        let e = parse("t.csv", text.as_bytes(), Defaults::default()).unwrap_err();
        assert!(e.reason.contains("--dataset"), "{}", e.reason);
    }

    #[test]
    fn optional_columns_when_present_must_agree() {
        let mine = for_dataset("mine", "NR");
        let e = parse(
            "t.csv",
            b"dataset_code,nuts_code,period,value\nmine,DE21,2022,1\nother,DE21,2023,1\n",
            mine,
        )
        .unwrap_err();
        assert_eq!(
            (e.line, e.reason.as_str()),
            (
                3,
                "dataset_code \"other\" is not this dataset's code \"mine\""
            )
        );
        let e = parse(
            "t.csv",
            b"nuts_code,nuts_level,period,value\nDE21,2,2022,1\nDE21,3,2023,1\n",
            mine,
        )
        .unwrap_err();
        assert_eq!(
            (e.line, e.reason.as_str()),
            (3, "nuts_level 3 does not match DE21, a level 2 code")
        );
        let e = parse(
            "t.csv",
            b"nuts_code,nuts_level,period,value\nEU27_2020,0,2022,1\n",
            mine,
        )
        .unwrap_err();
        assert!(e.reason.contains("not a NUTS code"), "{}", e.reason);
        // An empty level says nothing, as for aggregates in data/.
        parse(
            "t.csv",
            b"nuts_code,nuts_level,period,value\nEU27_2020,,2022,1\n",
            mine,
        )
        .unwrap();
        let e = parse("t.csv", b"nuts_code,geo,period,value\n", mine).unwrap_err();
        assert_eq!(
            e.reason,
            "columns \"nuts_code\" and \"geo\" say the same: keep one"
        );
    }

    #[test]
    fn long_input_is_quoted_short() {
        let long = "9x".repeat(2_500);
        let e = err(&format!("{HEADER}\nx,AT,0,2020,{long},NR,,A,T\n"));
        assert!(e.reason.len() < 120, "{}", e.reason);
        assert!(e.reason.ends_with("…\" is not a number"), "{}", e.reason);
    }

    #[test]
    fn wrong_field_count() {
        let e = err(&format!(
            "{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2021,1,NR,\n"
        ));
        assert_eq!(
            (e.line, e.reason.as_str()),
            (3, "expected 9 fields, found 7")
        );
    }

    #[test]
    fn duplicate() {
        let e = err(&format!(
            "{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2020,1,NR,,A,F\nx,AT,0,2020,2,NR,,A,T\n"
        ));
        assert_eq!(e.line, 4);
        assert_eq!(
            e.reason,
            "duplicate observation for AT 2020 NR A T (first seen on line 2)"
        );
    }

    #[test]
    fn duplicate_names_lines_of_this_file_not_src_line() {
        let e = err(&format!(
            "{HEADER},src_line\nx,AT,0,2020,1,NR,,A,T,40\n\nx,AT,0,2020,2,NR,,A,T,40\n"
        ));
        assert_eq!(e.line, 4);
        assert_eq!(
            e.reason,
            "duplicate observation for AT 2020 NR A T (first seen on line 2)"
        );
    }

    #[test]
    fn blank_lines_are_skipped_and_counted() {
        let text = format!("{HEADER}\n\nx,AT,0,2020,1,NR,,A,T\r\n\r\nx,AT,0,2021,1,NR,,A,T\n\n");
        let p = parse("t.csv", text.as_bytes(), Defaults::default()).unwrap();
        assert_eq!(
            p.rows.iter().map(|r| r.src_line).collect::<Vec<_>>(),
            [3, 5]
        );
    }

    #[test]
    fn mixed_dataset_codes() {
        let e = err(&format!(
            "{HEADER}\nx,AT,0,2020,1,NR,,A,T\ny,AT,0,2021,1,NR,,A,T\n"
        ));
        assert_eq!(e.line, 3);
        assert!(e.reason.contains("\"y\""), "{}", e.reason);
    }

    #[test]
    fn empty_value_needs_a_flag() {
        let e = err(&format!("{HEADER}\nx,AT,0,2020,,NR,,A,T\n"));
        assert_eq!(e.line, 2);
    }

    #[test]
    fn bad_region_period_unit_and_src_line() {
        assert_eq!(err(&format!("{HEADER}\nx,A-T,0,2020,1,NR,,A,T\n")).line, 2);
        assert_eq!(
            err(&format!("{HEADER}\nx,AT,0,,1,NR,,A,T\n")).reason,
            "empty period"
        );
        assert_eq!(
            err(&format!("{HEADER}\nx,AT,0,2020,1,,,A,T\n")).reason,
            "empty unit"
        );
        let e = err(&format!("{HEADER},src_line\nx,AT,0,2020,1,NR,,A,T,0\n"));
        assert_eq!(
            (e.line, e.reason.as_str()),
            (2, "src_line \"0\" is not a line number")
        );
    }

    #[test]
    fn header_problems() {
        assert_eq!(err("").reason, "file is empty");
        assert_eq!(
            err(&format!("{HEADER}\n")).reason,
            "no data rows, so no dataset_code"
        );
        assert_eq!(
            err(&format!("{HEADER},sex\n")).reason,
            "duplicate column \"sex\""
        );
        assert_eq!(
            err(&format!("{HEADER},unit\n")).reason,
            "duplicate column \"unit\""
        );
        assert_eq!(err(&format!("{HEADER},\n")).reason, "column 10 has no name");
    }

    /// 300,000 column names took 79 s of CPU when each was compared with every earlier one.
    #[test]
    fn huge_headers_are_refused_and_repeats_found_under_the_cap() {
        let many: Vec<String> = (0..120_000).map(|i| format!("d{i}")).collect();
        let e = err(&format!("{HEADER},{}\n", many.join(",")));
        assert_eq!(e.line, 1);
        assert_eq!(
            e.reason,
            "the header has 120009 columns; at most 1000 are accepted"
        );
        // Past a line's bound in bytes, the reading stops before the names are looked at.
        let longer: Vec<String> = (0..300_000).map(|i| format!("d{i}")).collect();
        let e = err(&format!("{HEADER},{}\n", longer.join(",")));
        assert!(
            e.reason.starts_with("more than 1048576 bytes"),
            "{}",
            e.reason
        );
        assert_eq!(e.line, 1);
        // Under the cap, a repeat at the very end is still found.
        let mut names: Vec<String> = (0..990).map(|i| format!("d{i}")).collect();
        names.push("d0".into());
        let e = err(&format!("{HEADER},{}\n", names.join(",")));
        assert_eq!(e.reason, "duplicate column \"d0\"");
    }

    /// `a="x;b=y"` and `b="y;b=z"` both made the series key `a=x;b=y;b=z`: the second write
    /// broke a unique index. Names and values are codes, so no two series share a key.
    #[test]
    fn dimension_names_and_values_are_codes() {
        let header = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,a,b";
        let e = err(&format!("{header}\nx,AT,0,2020,1,NR,,\"x;b=y\",z\n"));
        assert_eq!(e.line, 2);
        assert!(
            e.reason
                .starts_with("dimension value \"x;b=y\" is not a code"),
            "{}",
            e.reason
        );
        let e = err(&format!("{header}\nx,AT,0,2020,1,NR,,x,\n"));
        assert_eq!(e.reason, "empty dimension value");
        let e = err(&format!(
            "{header}\nx,AT,0,2020,1,NR,,{},y\n",
            "v".repeat(65)
        ));
        assert!(e.reason.contains("1 to 64"), "{}", e.reason);
        let e = err(
            "dataset_code,nuts_code,nuts_level,time,value,unit,flags,\"a=b\"\nx,AT,0,2020,1,NR,,x\n",
        );
        assert_eq!(e.line, 1);
        assert!(e.reason.contains("dimension name \"a=b\""), "{}", e.reason);
        // Eurostat's own codes pass.
        let ok = format!("{header}\nx,AT,0,2020,1,NR,,Y15-64,B-E\nx,AT,0,2021,1,NR,,Y_GE65,T\n");
        assert_eq!(
            parse("t.csv", ok.as_bytes(), Defaults::default())
                .unwrap()
                .rows
                .len(),
            2
        );
    }

    #[test]
    fn invalid_utf8_is_reported_with_its_line() {
        let mut bytes =
            format!("{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2021,1,NR,,A,").into_bytes();
        bytes.extend_from_slice(b"\xff\n");
        let e = parse("t.csv", &bytes, Defaults::default()).unwrap_err();
        assert_eq!((e.line, e.reason.as_str()), (3, "not valid UTF-8"));
    }
}

#[cfg(test)]
mod problems {
    use super::super::ParsedFile;
    use super::tests::parse;
    use super::*;

    fn parse_minimal(text: &str, unit_only: bool) -> Result<ParsedFile, FormatError> {
        let defaults = Defaults {
            dataset: Some("mine"),
            unit: Some("PC"),
            unit_only,
            ..Default::default()
        };
        parse("body", text.as_bytes(), defaults)
    }

    /// Every bad row is reported, in line order, each with its reason, not only the first.
    #[test]
    fn every_bad_row_is_reported() {
        let text = "nuts_code,period,value,unit\nDE21,2023,1x,PC\nDE22,2023,2,PC\nDE23,20x3,3,PC\nDE24,2023,4,NR\nDE25,2023\n";
        let e = parse_minimal(text, true).unwrap_err();
        let listed: Vec<(u64, &str)> = e.problems().collect();
        assert_eq!(
            listed.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            [2, 4, 5, 6],
            "{e}"
        );
        assert!(listed[0].1.contains("value \"1x\""), "{e}");
        assert!(listed[2].1.contains("the dataset's unit is PC"), "{e}");
        assert!(listed[3].1.contains("expected 4 fields"), "{e}");
        assert_eq!(e.not_listed, 0);
        assert_eq!(e.to_string().lines().count(), 4, "{e}");
    }

    /// Past [`super::super::MAX_PROBLEMS`], problems are counted, not listed.
    #[test]
    fn problems_past_the_bound_are_counted() {
        let mut text = String::from("nuts_code,period,value\n");
        for i in 0..250 {
            text.push_str(&format!("DE{i},2023,bad\n"));
        }
        let e = parse_minimal(&text, false).unwrap_err();
        assert_eq!(e.problems().count(), super::super::MAX_PROBLEMS);
        assert_eq!(e.not_listed, 150);
        assert!(e.to_string().ends_with("body: 150 more problems"), "{e}");
    }

    /// A unit in lower case is the same code: read in capitals, from the column and from the
    /// caller's default alike.
    #[test]
    fn units_are_read_in_capitals() {
        let parsed = parse_minimal("nuts_code,period,value,unit\nDE21,2023,1,pc\n", true).unwrap();
        assert_eq!(parsed.rows[0].unit, "PC");
        let defaults = Defaults {
            dataset: Some("mine"),
            unit: Some("eur_hab"),
            ..Default::default()
        };
        let parsed = parse("f", b"nuts_code,period,value\nDE21,2023,1\n", defaults).unwrap();
        assert_eq!(parsed.rows[0].unit, "EUR_HAB");
    }

    /// Columns named as people often name them are told the name regintel reads.
    #[test]
    fn a_header_saying_region_or_year_is_told_the_names_to_use() {
        let e = parse_minimal("region,year,value\nDE21,2023,1\n", false).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.reason
                .contains("rename \"region\" to \"nuts_code\", \"year\" to \"period\""),
            "{e}"
        );
        let e = parse_minimal("GEO,TIME,Value\nDE21,2023,1\n", false).unwrap_err();
        assert!(
            e.reason.contains(
                "\"GEO\" to \"nuts_code\", \"TIME\" to \"period\", \"Value\" to \"value\""
            ),
            "{e}"
        );
        // A file so named is still recognised as tidy CSV, so the operator gets the hint too.
        assert!(is_header("region,year,value"));
        assert!(!is_header("region,year,obs_value"));
        // Where the column regintel reads is there, a look-alike is a dimension.
        let parsed =
            parse_minimal("nuts_code,period,value,region\nDE21,2023,1,north\n", false).unwrap();
        assert_eq!(parsed.dim_names, ["region"]);
    }
}
