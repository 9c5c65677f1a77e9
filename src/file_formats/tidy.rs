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
use super::parsing::{FileEnd, FormatError, ReadError, Sink};
use super::region_codes::KnownRegions;
use crate::dataset_file::{FileHeader, Format, RawObservation};

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

/// Reads a tidy CSV stream (not gzipped; `file_formats::read` gunzips).
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
    let mut problems = super::parsing::Problems::new(file);
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
                let refused = defaults
                    .regions
                    .and_then(|k| k.refusal(&observation.region));
                if let Some(why) = refused {
                    problems.add(line, why);
                    continue;
                }
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
mod tests;
