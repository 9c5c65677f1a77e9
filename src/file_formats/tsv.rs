//! Eurostat bulk TSV: one time series per line.
//!
//! ```text
//! freq,unit,geo\TIME_PERIOD<TAB>2021 <TAB>2022      (current API; legacy: `unit,geo\time`,
//! A,MIO_EUR,AT<TAB>406232.06 <TAB>448007.45 p         often with years descending)
//! ```
//!
//! A cell is `<value> <flags>`: `123.4 ` plain, `12 bep` flagged, `:` / `: ` not available
//! (dropped), `: c` only a flag (kept with no value, because the flag is information). The format
//! has no quoting, so lines are split by hand, which is also faster than a CSV reader.

use std::io::BufRead;

use super::common::{self, Cells};
use super::input::Lines;
use super::parsing::{FileEnd, FormatError, ReadError, Sink};
use crate::dataset_file::{FileHeader, Format};

/// Reads a TSV stream (not gzipped; `file_formats::read` gunzips). The file carries no dataset code, so
/// it is `dataset` or else the file name (`estat_nama_10r_3gdp.tsv.gz` → `nama_10r_3gdp`).
pub fn read(
    file: &str,
    stream: Box<dyn BufRead + '_>,
    dataset: Option<&str>,
    sink: &mut Sink<'_>,
) -> Result<FileEnd, ReadError> {
    let dataset = match dataset {
        Some(code) => common::dataset_code(code).ok_or_else(|| {
            FormatError::new(file, 0, format!("\"{code}\" is not a dataset code"))
        })?,
        None => dataset_from_file_name(file).ok_or_else(|| {
            FormatError::new(
                file,
                0,
                "cannot tell the dataset code from the file name; give it explicitly",
            )
        })?,
    };
    let mut lines = Lines::new(file, stream);
    let header = match lines.next_line()? {
        Some((_, header)) if !header.is_empty() => header.to_owned(),
        _ => return Err(FormatError::new(file, 0, "file is empty").into()),
    };
    let layout =
        Layout::from_header(&header).map_err(|reason| FormatError::new(file, 1, reason))?;
    let header = FileHeader {
        format: Format::EurostatTsv,
        dataset,
        dim_names: layout
            .dims
            .iter()
            .map(|&i| layout.names[i].to_owned())
            .collect(),
    };

    while let Some((line, text)) = lines.next_line()? {
        if text.is_empty() {
            continue;
        }
        let at_line = |reason: String| FormatError::new(file, line, reason);
        let cells: Vec<&str> = text.split('\t').collect();
        if cells.len() != layout.periods.len() + 1 {
            let expected = layout.periods.len() + 1;
            let found = cells.len();
            return Err(at_line(format!("expected {expected} fields, found {found}")).into());
        }
        let codes: Vec<&str> = cells[0].split(',').map(str::trim).collect();
        if codes.len() != layout.names.len() {
            let expected = layout.names.len();
            let found = codes.len();
            return Err(at_line(format!(
                "expected {expected} dimension codes, found {found}"
            ))
            .into());
        }
        let dim_values: Vec<String> = layout.dims.iter().map(|&i| codes[i].to_owned()).collect();
        for (period, cell) in layout.periods.iter().zip(&cells[1..]) {
            let Some((value, flags)) = split_cell(cell) else {
                continue;
            };
            let cells = Cells {
                region: codes[layout.geo],
                period,
                unit: codes[layout.unit],
                value,
                flags,
                conf_status: "",
            };
            let row = common::observation(cells, dim_values.clone(), line).map_err(at_line)?;
            sink(&header, line, row).map_err(ReadError::Sink)?;
        }
    }
    Ok(FileEnd {
        header,
        title: None,
    })
}

/// What the header line says about every following line.
struct Layout<'a> {
    /// Dimension names before the backslash, in order.
    names: Vec<&'a str>,
    geo: usize,
    unit: usize,
    /// Positions in `names` of the dimensions other than geo and unit.
    dims: Vec<usize>,
    /// Period labels, trimmed, one per cell column.
    periods: Vec<&'a str>,
}

impl<'a> Layout<'a> {
    /// The error is the reason; the header is line 1.
    fn from_header(header: &'a str) -> Result<Self, String> {
        let mut fields = header.split('\t');
        let first = fields.next().unwrap_or_default();
        let (names, time) = first
            .split_once('\\')
            .ok_or("the header's first field must look like \"unit,geo\\TIME_PERIOD\"")?;
        if !matches!(time.trim(), "TIME_PERIOD" | "time") {
            return Err(format!(
                "expected \\TIME_PERIOD or \\time in the header, found \\{time}"
            ));
        }
        let names: Vec<&str> = names.split(',').map(str::trim).collect();
        common::check_column_count(names.len())?;
        let mut seen = common::SeenNames::default();
        for &name in &names {
            common::check_dimension_name(name)?;
            if !seen.first_time(name) {
                return Err(format!("duplicate dimension \"{name}\""));
            }
        }
        let find = |wanted: &str| {
            names.iter().position(|&n| n == wanted).ok_or_else(|| {
                format!("no \"{wanted}\" dimension in the header; every series needs one")
            })
        };
        let (geo, unit) = (find("geo")?, find("unit")?);
        let dims = (0..names.len())
            .filter(|&i| i != geo && i != unit)
            .collect();
        let periods: Vec<&str> = fields.map(str::trim).collect();
        if let Some(col) = periods.iter().position(|p| p.is_empty()) {
            return Err(format!("empty period label in column {}", col + 2));
        }
        Ok(Layout {
            names,
            geo,
            unit,
            dims,
            periods,
        })
    }
}

/// Splits a cell into value and flags; `None` for a plain `:` (not available, nothing to keep).
fn split_cell(cell: &str) -> Option<(&str, &str)> {
    let cell = cell.trim();
    let (value, flags) = match cell.split_once(' ') {
        Some((value, flags)) => (value, flags.trim()),
        None => (cell, ""),
    };
    match value {
        ":" if flags.is_empty() => None,
        ":" => Some(("", flags)),
        _ => Some((value, flags)),
    }
}

/// `data/estat_demo_r_pjangrp3.tsv.gz` → `demo_r_pjangrp3`; `None` when what is left cannot be
/// a dataset code (e.g. a renamed `Eurostat Demo D3Dens.tsv.gz`).
fn dataset_from_file_name(file: &str) -> Option<String> {
    let name = file.rsplit(['/', '\\']).next()?.to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let name = name.strip_suffix(".tsv").unwrap_or(name);
    let name = name.strip_prefix("estat_").unwrap_or(name);
    common::dataset_code(name)
}

#[cfg(test)]
mod tests {
    use super::super::{Accept, ParsedFile, collect};
    use super::*;

    fn parse(file: &str, bytes: &[u8], dataset: Option<&str>) -> Result<ParsedFile, FormatError> {
        let defaults = super::super::Defaults {
            dataset,
            ..Default::default()
        };
        collect(file, bytes, Accept::Only(Format::EurostatTsv), defaults)
    }

    fn err(text: &str) -> FormatError {
        parse("x.tsv", text.as_bytes(), None).unwrap_err()
    }

    #[test]
    fn current_format() {
        let text = "freq,sex,unit,age,geo\\TIME_PERIOD\t2014 \t2015 \t2016 \n\
                    A,F,NR,TOTAL,AL\t1430827 \t: \t12.5 p\n\
                    A,F,NR,TOTAL,DE21\t: c\t:\t12 bep\n";
        let p = parse("data/estat_demo_r_pjangrp3.tsv", text.as_bytes(), None).unwrap();
        assert_eq!(p.format, Format::EurostatTsv);
        assert_eq!(p.dataset, "demo_r_pjangrp3");
        assert_eq!(p.dim_names, ["freq", "sex", "age"]);
        let got: Vec<_> = p
            .rows
            .iter()
            .map(|r| {
                let key = (r.region.as_str(), r.period.as_str(), r.unit.as_str());
                (
                    key,
                    r.value_text.as_str(),
                    r.value,
                    r.flags.as_str(),
                    r.src_line,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (("AL", "2014", "NR"), "1430827", Some(1430827.0), "", 2),
                (("AL", "2016", "NR"), "12.5", Some(12.5), "p", 2),
                (("DE21", "2014", "NR"), "", None, "c", 3),
                (("DE21", "2016", "NR"), "12", Some(12.0), "bep", 3),
            ]
        );
        assert!(
            p.rows
                .iter()
                .all(|r| r.dim_values == ["A", "F", "TOTAL"] && r.conf_status.is_empty())
        );
    }

    #[test]
    fn legacy_format_with_descending_years_crlf_and_trailing_blank_line() {
        let text = "unit,na_item,geo\\time\t2014 \t2013 \t2012 \r\n\
                    EUR_HAB,B6N,AT\t: \t24500.00 \t: e\r\n\
                    EUR_HAB,B6N,AT1\t23000.00 p\t24600.00 \t: \r\n\r\n";
        let p = parse("nama_10r_2hhinc.tsv", text.as_bytes(), None).unwrap();
        assert_eq!(p.dataset, "nama_10r_2hhinc");
        assert_eq!(p.dim_names, ["na_item"]);
        let got: Vec<_> = p
            .rows
            .iter()
            .map(|r| {
                (
                    r.region.as_str(),
                    r.period.as_str(),
                    r.value_text.as_str(),
                    r.flags.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("AT", "2013", "24500.00", ""),
                ("AT", "2012", "", "e"),
                ("AT1", "2014", "23000.00", "p"),
                ("AT1", "2013", "24600.00", ""),
            ]
        );
        assert_eq!(p.rows[3].src_line, 3);
    }

    #[test]
    fn dataset_code_from_argument_or_file_name() {
        let text = "unit,geo\\time\t2020 \nNR,AT\t1 \n";
        let parsed = |file: &str, dataset| parse(file, text.as_bytes(), dataset).map(|p| p.dataset);
        assert_eq!(
            parsed("a/b/Eurostat Demo D3Dens.tsv.gz", Some("DEMO_R_D3DENS")).unwrap(),
            "demo_r_d3dens"
        );
        assert_eq!(
            parsed("c:\\dl\\ESTAT_TGS00010.TSV.GZ", None).unwrap(),
            "tgs00010"
        );
        assert_eq!(
            parsed("hlth_rs_physreg.tsv", None).unwrap(),
            "hlth_rs_physreg"
        );
        let e = parsed("a/b/Eurostat Demo D3Dens.tsv.gz", None).unwrap_err();
        assert_eq!(e.line, 0);
        assert!(e.reason.contains("dataset code"), "{}", e.reason);
        assert!(parsed("x.tsv", Some("no such")).is_err());
    }

    #[test]
    fn missing_unit_dimension() {
        let e = err("freq,geo\\TIME_PERIOD\t2020 \nA,AT\t1 \n");
        assert_eq!(e.line, 1);
        assert_eq!(
            e.reason,
            "no \"unit\" dimension in the header; every series needs one"
        );
        assert_eq!(err("unit,sex\\time\t2020 \nNR,T\t1 \n").line, 1);
    }

    #[test]
    fn bad_header() {
        assert_eq!(err("").reason, "file is empty");
        assert_eq!(err("unit,geo\t2020 \n").line, 1);
        assert_eq!(err("unit,geo\\year\t2020 \n").line, 1);
        assert_eq!(
            err("unit,geo\\time\t2020 \t \n").reason,
            "empty period label in column 3"
        );
        assert_eq!(
            err("unit,geo,unit\\time\t2020 \n").reason,
            "duplicate dimension \"unit\""
        );
    }

    #[test]
    fn bad_number() {
        let e = err("unit,geo\\time\t2021 \t2020 \nNR,AT\t1 \t2 \nNR,BE\t1 \t12,3 \n");
        assert_eq!(
            (e.line, e.reason.as_str()),
            (3, "value \"12,3\" is not a number")
        );
        assert_eq!(
            err("unit,geo\\time\t2020 \nNR,AT\t12p\n").reason,
            "value \"12p\" is not a number"
        );
    }

    #[test]
    fn bad_flag() {
        let e = err("unit,geo\\time\t2020 \nNR,AT\t1 \nNR,BE\t1 p1\n");
        assert_eq!(e.line, 3);
        assert!(e.reason.contains("flags \"p1\""), "{}", e.reason);
    }

    #[test]
    fn wrong_field_count() {
        let e = err("unit,geo\\time\t2021 \t2020 \nNR,AT\t1 \t2 \nNR,BE\t1 \n");
        assert_eq!(
            (e.line, e.reason.as_str()),
            (3, "expected 3 fields, found 2")
        );
        let e = err("unit,geo\\time\t2020 \nNR,AT\t1 \nNR\t1 \n");
        assert_eq!(
            (e.line, e.reason.as_str()),
            (3, "expected 2 dimension codes, found 1")
        );
    }

    #[test]
    fn bad_region() {
        let e = err("unit,geo\\time\t2020 \nNR,AT\t1 \n\nNR,\t1 \n");
        assert_eq!((e.line, e.reason.as_str()), (4, "empty region code"));
    }

    #[test]
    fn duplicate() {
        let e = err("unit,geo\\time\t2020 \t2021 \nNR,AT\t1 \t2 \nPC,AT\t1 \t: \nNR,AT\t: \t3 \n");
        assert_eq!(e.line, 4);
        assert_eq!(
            e.reason,
            "duplicate observation for AT 2021 NR (first seen on line 2)"
        );
    }
}
