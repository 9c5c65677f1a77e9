//! The tidy CSV of `data/`: one observation per row,
//! `dataset_code,nuts_code,nuts_level,time,value,unit,flags,<dims...>[,conf_status][,src_line]`.
//! Columns are found by name, so their order does not matter; every column not named here is a
//! dimension. `nuts_level` is ignored: the level is derived from the code where it is needed.

use super::common::{self, Cells};
use super::{Format, FormatError, ParsedFile};

/// Where each known column is, and which columns are dimensions.
struct Columns {
    dataset: usize,
    region: usize,
    period: usize,
    value: usize,
    unit: usize,
    flags: usize,
    conf_status: Option<usize>,
    src_line: Option<usize>,
    dims: Vec<usize>,
    width: usize,
}

/// Parses a whole tidy CSV file (not gzipped; see [`super::parse_file`]).
pub fn parse(file: &str, bytes: &[u8]) -> Result<ParsedFile, FormatError> {
    let mut csv = common::CsvRows::new(file, bytes);
    let Some((header_line, header)) = csv.next()? else {
        return Err(FormatError::new(file, 0, "file is empty"));
    };
    let (cols, dim_names) =
        columns(header).map_err(|reason| FormatError::new(file, header_line, reason))?;

    // The first row's dataset_code and line: every row must name the same one.
    let mut dataset: Option<(String, u64)> = None;
    let mut rows = common::Observations::with_capacity(common::line_count(bytes));
    while let Some((line, record)) = csv.next()? {
        common::check_width(file, line, cols.width, record.len())?;
        let at_line = |reason: String| FormatError::new(file, line, reason);
        let field = |i: usize| record[i].trim();

        let code = field(cols.dataset);
        match &dataset {
            None => dataset = Some((code.to_owned(), line)),
            Some((first, _)) if !first.eq_ignore_ascii_case(code) => {
                return Err(at_line(format!(
                    "dataset_code \"{code}\" differs from \"{first}\" of the first row"
                )));
            }
            Some(_) => {}
        }
        let src_line = match cols.src_line {
            None => line,
            Some(i) => match field(i).parse::<u64>() {
                Ok(n) if n > 0 => n,
                _ => {
                    return Err(at_line(format!(
                        "src_line \"{}\" is not a line number",
                        field(i)
                    )));
                }
            },
        };
        let cells = Cells {
            region: field(cols.region),
            period: field(cols.period),
            unit: field(cols.unit),
            value: field(cols.value),
            flags: field(cols.flags),
            conf_status: cols.conf_status.map_or("", field),
        };
        if cells.value.is_empty() && cells.flags.is_empty() && cells.conf_status.is_empty() {
            return Err(at_line(
                "empty value with neither flags nor conf_status".into(),
            ));
        }
        let dim_values = cols.dims.iter().map(|&i| field(i).to_owned()).collect();
        rows.push(
            file,
            line,
            common::observation(cells, dim_values, src_line).map_err(at_line)?,
        )?;
    }

    let Some((code, line)) = dataset else {
        return Err(FormatError::new(
            file,
            0,
            "no data rows, so no dataset_code",
        ));
    };
    let dataset = common::dataset_code(&code).ok_or_else(|| {
        FormatError::new(
            file,
            line,
            format!("dataset_code \"{code}\" is not a dataset code"),
        )
    })?;
    Ok(ParsedFile {
        format: Format::Tidy,
        dataset,
        title: None,
        dim_names,
        rows: rows.into_vec(),
    })
}

/// The columns with a meaning of their own; every other column is a dimension.
pub const KNOWN: [&str; 9] = [
    "dataset_code",
    "nuts_code",
    "nuts_level",
    "time",
    "value",
    "unit",
    "flags",
    "conf_status",
    "src_line",
];

/// Maps header names to positions; the error is the reason.
fn columns(header: &csv::StringRecord) -> Result<(Columns, Vec<String>), String> {
    common::check_column_count(header.len())?;
    let names: Vec<&str> = header.iter().map(str::trim).collect();
    let mut seen = common::SeenNames::default();
    for (i, &name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err(format!("column {} has no name", i + 1));
        }
        if !seen.first_time(name) {
            return Err(format!("duplicate column \"{name}\""));
        }
        if !KNOWN.contains(&name) {
            common::check_code("dimension name", name)?;
        }
    }
    let find = |wanted: &str| names.iter().position(|&n| n == wanted);
    let required =
        |wanted: &str| find(wanted).ok_or_else(|| format!("missing column \"{wanted}\""));
    let dims: Vec<usize> = (0..names.len())
        .filter(|&i| !KNOWN.contains(&names[i]))
        .collect();
    let dim_names = dims.iter().map(|&i| names[i].to_owned()).collect();
    let cols = Columns {
        dataset: required("dataset_code")?,
        region: required("nuts_code")?,
        period: required("time")?,
        value: required("value")?,
        unit: required("unit")?,
        flags: required("flags")?,
        conf_status: find("conf_status"),
        src_line: find("src_line"),
        dims,
        width: names.len(),
    };
    Ok((cols, dim_names))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,sex";

    fn err(text: &str) -> FormatError {
        parse("t.csv", text.as_bytes()).unwrap_err()
    }

    #[test]
    fn happy_path() {
        let text = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,sex,conf_status,src_line\n\
                    TGS00010,AT11,2,2013,4.3,PC,,A,T,,2\n\
                    tgs00010,BE21,2,2018,,PC,,A,T,C,7\n\
                    tgs00010,EU27_2020,,2022,-1.50,PC,bP,A,T,,9\n";
        let p = parse("t.csv", text.as_bytes()).unwrap();
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
        let p = parse("t.csv", text.as_bytes()).unwrap();
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
        assert_eq!((e.line, e.reason.as_str()), (1, "missing column \"unit\""));
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
        let p = parse("t.csv", text.as_bytes()).unwrap();
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
        let many: Vec<String> = (0..300_000).map(|i| format!("d{i}")).collect();
        let e = err(&format!("{HEADER},{}\n", many.join(",")));
        assert_eq!(e.line, 1);
        assert_eq!(
            e.reason,
            "the header has 300009 columns; at most 1000 are accepted"
        );
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
        assert_eq!(parse("t.csv", ok.as_bytes()).unwrap().rows.len(), 2);
    }

    #[test]
    fn invalid_utf8_is_reported_with_its_line() {
        let mut bytes =
            format!("{HEADER}\nx,AT,0,2020,1,NR,,A,T\nx,AT,0,2021,1,NR,,A,").into_bytes();
        bytes.extend_from_slice(b"\xff\n");
        let e = parse("t.csv", &bytes).unwrap_err();
        assert_eq!((e.line, e.reason.as_str()), (3, "not valid UTF-8"));
    }
}
