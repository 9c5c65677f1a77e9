//! File formats regintel reads: the tidy CSV of `data/`, Eurostat bulk TSV (`.tsv`, `.tsv.gz`)
//! and Eurostat SDMX-CSV (1.0 and 2.0). A parser reads a stream, gunzipped where it is gzip,
//! hands each row to a [`Sink`] as it is read and keeps none of them, so a file of any size is
//! read in bounded memory; a malformed file ends in a [`FormatError`] naming the file, the line
//! and the reason. [`check`] reads a file once to find every problem, a second observation of
//! one cell included, before an import writes anything of it.

mod common;
mod duplicates;
mod input;
mod parsing;
mod region_codes;
pub mod sdmx;
pub mod tidy;
pub mod tsv;

pub use crate::dataset_file::{FileHeader, Format, RawObservation};
pub use common::MAX_REGION_CODE_LEN;
pub use parsing::{FileEnd, FormatError, MAX_PROBLEMS, ReadError, Sink};
pub use region_codes::KnownRegions;
pub use tidy::Defaults;

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::Path;

/// A unit as regintel stores it: a code of 1 to 32 letters, digits and `_`, in capitals
/// (`pc` is `PC`); None when `text` is no such code.
pub fn unit_code(text: &str) -> Option<String> {
    let unit = text.to_ascii_uppercase();
    ((1..=32).contains(&unit.len()) && unit.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then_some(unit)
}

/// Which formats a stream may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accept {
    /// Any: recognised from the first line, so `import` needs no format flag.
    Any,
    /// This one only (an upload to a private dataset is tidy CSV).
    Only(Format),
}

/// Reads one stream: gunzips it when it is gzip (whatever its name), then recognises the format
/// from the first line. `defaults.dataset` names the dataset for formats whose rows may not say
/// it (TSV, tidy CSV without `dataset_code`, or overriding SDMX); where a tidy file's rows name
/// one, it must be that one. `defaults.unit` is the unit of tidy rows without one, and
/// `defaults.regions` the known region codes a code in another case is read as (and, when
/// strict, the only ones a tidy row may name).
pub fn read(
    file: &str,
    input: impl Read,
    accept: Accept,
    defaults: Defaults<'_>,
    sink: &mut Sink<'_>,
) -> Result<FileEnd, ReadError> {
    // Files may be gzip, whatever their names; an upload is read as it was sent (a compressed
    // body would be a bomb that a size limit on the body does not stop).
    let opened = input::open(file, input, accept == Accept::Any)?;
    let format = match accept {
        Accept::Only(format) => Some(format),
        Accept::Any => detect(&opened.first_line),
    };
    let mut sink = |header: &FileHeader, line: u64, mut row: RawObservation| {
        if let Some(known) = defaults.regions {
            known.canonical(&mut row.region);
        }
        sink(header, line, row)
    };
    match format {
        Some(Format::Tidy) => tidy::read(file, opened.stream, defaults, &mut sink),
        Some(Format::EurostatTsv) => tsv::read(file, opened.stream, defaults.dataset, &mut sink),
        Some(Format::SdmxCsv) => sdmx::read(file, opened.stream, defaults.dataset, &mut sink),
        None => Err(FormatError::new(
            file,
            1,
            "unknown format: expected tidy CSV (a header with nuts_code or geo, and value), Eurostat TSV \
             (header like \"unit,geo\\TIME_PERIOD<TAB>2022\") or SDMX-CSV (a header with OBS_VALUE)",
        )
        .into()),
    }
}

/// Where [`check`] may keep what it needs: memory for fingerprints of the rows, and a directory
/// for what does not fit.
#[derive(Debug, Clone, Copy)]
pub struct Room<'a> {
    pub memory: usize,
    pub spill_dir: &'a Path,
}

/// Reads the stream `open` gives once to check it whole, each row also to `sink`: every problem
/// of the format, and every second observation of a cell (whose rows are read again from a
/// second stream to name them). Nothing is kept but fingerprints, within `room`.
pub fn check<'i>(
    file: &str,
    open: &dyn Fn() -> std::io::Result<Box<dyn Read + 'i>>,
    accept: Accept,
    defaults: Defaults<'_>,
    room: Room<'_>,
    sink: &mut Sink<'_>,
) -> Result<FileEnd, ReadError> {
    let opened = || open().map_err(|e| input::read_error(file, &e));
    let mut duplicates = duplicates::Duplicates::new(room.memory, room.spill_dir);
    let read_once = read(
        file,
        opened()?,
        accept,
        defaults,
        &mut |header, line, row| {
            duplicates.add(&row)?;
            sink(header, line, row)
        },
    );
    let (end, refused) = match read_once {
        Ok(end) => (Some(end), None),
        Err(ReadError::Format(e)) => (None, Some(e)),
        Err(e) => return Err(e),
    };
    let candidates = duplicates
        .candidates()
        .map_err(|e| ReadError::Sink(anyhow::Error::from(e).context("while finding duplicates")))?;
    let found = if candidates.pairs.is_empty() {
        None
    } else {
        let wanted = candidates.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        let rows = rows_at(file, opened()?, accept, defaults, &wanted);
        duplicates::confirm(file, &candidates, &rows)
    };
    match (refused, found, end) {
        (Some(e), Some(d), _) => Err(FormatError::merged(e, d).into()),
        (Some(e), None, _) | (None, Some(e), _) => Err(e.into()),
        (None, None, Some(end)) => Ok(end),
        (None, None, None) => unreachable!("a read that ends without an error has an end"),
    }
}

/// The rows at `wanted` ordinals, each with its line. The stream is the file read again, which
/// gives the same rows in the same order, up to where the file was refused.
fn rows_at(
    file: &str,
    input: impl Read,
    accept: Accept,
    defaults: Defaults<'_>,
    wanted: &HashSet<u64>,
) -> HashMap<u64, (u64, RawObservation)> {
    let mut rows = HashMap::new();
    let mut ordinal = 0u64;
    // Its end (or the same error as before) is known already.
    let _ = read(file, input, accept, defaults, &mut |_, line, row| {
        if wanted.contains(&ordinal) {
            rows.insert(ordinal, (line, row));
        }
        ordinal += 1;
        Ok(())
    });
    rows
}

/// A whole file, parsed and checked, as the parsers' tests read it.
#[cfg(test)]
#[derive(Debug, Clone)]
pub(crate) struct ParsedFile {
    pub format: Format,
    pub dataset: String,
    pub title: Option<String>,
    pub dim_names: Vec<String>,
    pub rows: Vec<RawObservation>,
}

/// [`check`] of `bytes`, every row collected.
#[cfg(test)]
pub(crate) fn collect(
    file: &str,
    bytes: &[u8],
    accept: Accept,
    defaults: Defaults<'_>,
) -> Result<ParsedFile, FormatError> {
    let mut rows = Vec::new();
    let spill_dir = std::env::temp_dir();
    let room = Room {
        memory: 1 << 20,
        spill_dir: &spill_dir,
    };
    let read = check(
        file,
        &|| Ok(Box::new(bytes)),
        accept,
        defaults,
        room,
        &mut |_, _, row| {
            rows.push(row);
            Ok(())
        },
    );
    match read {
        Ok(end) => Ok(ParsedFile {
            format: end.header.format,
            dataset: end.header.dataset,
            title: end.title,
            dim_names: end.header.dim_names,
            rows,
        }),
        Err(ReadError::Format(e)) => Err(e),
        Err(ReadError::Sink(e)) => panic!("collecting cannot fail: {e}"),
    }
}

/// Recognises the format from the first line alone; the parsers then validate everything.
fn detect(first: &str) -> Option<Format> {
    if first.contains('\t') && (first.contains("\\TIME_PERIOD") || first.contains("\\time")) {
        Some(Format::EurostatTsv)
    } else if first.contains("OBS_VALUE") {
        Some(Format::SdmxCsv)
    } else if tidy::is_header(first) {
        Some(Format::Tidy)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit is a code in capitals, written in any case; anything else is none.
    #[test]
    fn units_are_codes_in_capitals() {
        assert_eq!(unit_code("pc").as_deref(), Some("PC"));
        assert_eq!(unit_code("EUR_HAB").as_deref(), Some("EUR_HAB"));
        for bad in ["", "n-r", "é", &"X".repeat(33)] {
            assert_eq!(unit_code(bad), None, "{bad}");
        }
    }
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn parse_file(
        file: &str,
        bytes: &[u8],
        defaults: Defaults<'_>,
    ) -> Result<ParsedFile, FormatError> {
        collect(file, bytes, Accept::Any, defaults)
    }

    fn named(dataset: Option<&str>) -> Defaults<'_> {
        Defaults {
            dataset,
            ..Default::default()
        }
    }

    const TIDY: &str =
        "dataset_code,nuts_code,nuts_level,time,value,unit,flags\nx,AT,0,2020,1,NR,\n";
    const TSV: &str = "unit,geo\\time\t2020 \nNR,AT\t1 \n";
    const SDMX: &str = "DATAFLOW,unit,geo,TIME_PERIOD,OBS_VALUE\nESTAT:X(1.0),NR,AT,2020,1\n";

    #[test]
    fn detects_each_format() {
        let format = |text: &str, dataset| {
            parse_file("f", text.as_bytes(), named(dataset))
                .unwrap()
                .format
        };
        assert_eq!(format(TIDY, None), Format::Tidy);
        assert_eq!(format(TSV, Some("x")), Format::EurostatTsv);
        assert_eq!(format(SDMX, None), Format::SdmxCsv);
        let current = "freq,unit,geo\\TIME_PERIOD\t2020 \nA,NR,AT\t1 \n";
        assert_eq!(format(current, Some("x")), Format::EurostatTsv);
        assert_eq!(format(&format!("\u{feff}{TIDY}"), None), Format::Tidy);
    }

    #[test]
    fn gzip_input_is_inflated_whatever_the_name() {
        let p = parse_file(
            "estat_demo_r_d3dens.tsv.gz",
            &gzip(TSV.as_bytes()),
            named(None),
        )
        .unwrap();
        assert_eq!(
            (p.format, p.dataset.as_str(), p.rows.len()),
            (Format::EurostatTsv, "demo_r_d3dens", 1)
        );
        let p = parse_file("x.bin", &gzip(TIDY.as_bytes()), named(None)).unwrap();
        assert_eq!(p.format, Format::Tidy);
        let mut two_members = gzip(SDMX.as_bytes());
        two_members.extend(gzip(b"ESTAT:X(1.0),NR,AT,2021,2\n"));
        assert_eq!(
            parse_file("x.csv.gz", &two_members, named(None))
                .unwrap()
                .rows
                .len(),
            2
        );
    }

    /// Only files are inflated: an upload is read as it was sent, so a small compressed body
    /// cannot become gigabytes of rows.
    #[test]
    fn uploads_are_not_inflated() {
        let body = gzip(TIDY.as_bytes());
        assert!(collect("f", &body, Accept::Any, named(None)).is_ok());
        let as_upload = collect("body", &body, Accept::Only(Format::Tidy), named(None));
        assert!(as_upload.is_err());
    }

    #[test]
    fn corrupt_gzip() {
        let mut bytes = gzip(TIDY.as_bytes());
        bytes.truncate(bytes.len() / 2);
        let e = parse_file("x.csv.gz", &bytes, named(None)).unwrap_err();
        assert_eq!(e.line, 0);
        assert!(e.reason.starts_with("corrupt gzip data"), "{}", e.reason);
        assert_eq!(e.to_string(), format!("x.csv.gz: {}", e.reason));
    }

    #[test]
    fn unknown_format() {
        for text in ["", "a,b,c\n1,2,3\n", "unit,geo\\time 2020\n"] {
            let e = parse_file("x.txt", text.as_bytes(), named(None)).unwrap_err();
            assert_eq!(e.line, 1);
            assert!(
                e.reason.contains("tidy CSV")
                    && e.reason.contains("TSV")
                    && e.reason.contains("SDMX-CSV")
            );
        }
    }

    #[test]
    fn tidy_dataset_must_match_the_argument() {
        assert!(parse_file("f", TIDY.as_bytes(), named(Some("X"))).is_ok());
        let e = parse_file("f", TIDY.as_bytes(), named(Some("y"))).unwrap_err();
        assert_eq!(
            (e.line, e.reason.as_str()),
            (2, "dataset_code \"x\" is not this dataset's code \"y\"")
        );
    }

    /// Every observation file of `data/` parses, with the row counts of `data/sources.json`.
    #[test]
    fn parses_the_bundled_data() {
        const ROWS: [(&str, usize); 13] = [
            ("demo_r_pjangrp3.csv", 52477),
            ("demo_r_d3dens.csv", 53638),
            ("demo_r_pjanind3.csv", 68559),
            ("nama_10r_3gdp.csv.gz", 268494),
            ("nama_10r_2gdp.csv", 4625),
            ("nama_10r_2gvagr.csv", 3798),
            ("demo_r_mlifexp.csv", 72557),
            ("hlth_rs_physreg.csv", 17211),
            ("tgs00010.csv", 3744),
            ("tgs00007.csv", 3744),
            ("tgs00042.csv", 2523),
            ("tgs00109.csv", 3732),
            ("nama_10r_2hhinc.csv", 15187),
        ];
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/");
        let files: Vec<_> = ROWS
            .iter()
            .map(|(name, _)| std::fs::read(format!("{dir}{name}")).unwrap())
            .collect();
        let start = std::time::Instant::now();
        let parsed: Vec<_> = ROWS
            .iter()
            .zip(&files)
            .map(|((name, _), bytes)| {
                parse_file(name, bytes, named(None)).unwrap_or_else(|e| panic!("{e}"))
            })
            .collect();
        eprintln!("parsed data/ in {:?}", start.elapsed());
        for ((name, rows), p) in ROWS.iter().zip(&parsed) {
            assert_eq!(p.rows.len(), *rows, "{name}");
            assert_eq!(
                format!("{}.csv", p.dataset),
                name.trim_end_matches(".gz"),
                "{name}"
            );
            assert_eq!(p.format, Format::Tidy);
        }

        let find = |dataset: &str, region: &str, period: &str, unit: &str, dims: &[&str]| {
            let p = parsed.iter().find(|p| p.dataset == dataset).unwrap();
            let r = p.rows.iter().find(|r| {
                r.region == region && r.period == period && r.unit == unit && r.dim_values == dims
            });
            r.unwrap().value_text.clone()
        };
        assert_eq!(
            find("demo_r_pjangrp3", "DE", "2022", "NR", &["A", "T", "TOTAL"]),
            "83237124"
        );
        assert_eq!(
            find("nama_10r_2gdp", "AT", "2022", "MIO_EUR", &["A"]),
            "448007.45"
        );
        assert_eq!(
            find("nama_10r_3gdp", "AT", "2022", "MIO_EUR", &["A"]),
            "447217.64"
        );
    }
}
