//! SDMX-CSV as served by the Eurostat API, one observation per line:
//!
//! ```text
//! DATAFLOW,LAST UPDATE,freq,unit,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG                     (1.0)
//! STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,ACTION,freq,...,OBS_VALUE,OBS_FLAG,CONF_STATUS   (2.0)
//! ```
//!
//! With `labels=both` Eurostat adds a name to every code. Two spellings exist and both are read:
//! a separate label column right after each coded column (`geo,Geopolitical entity (reporting)`,
//! also after TIME_PERIOD, OBS_VALUE, OBS_FLAG and CONF_STATUS, as in the files of `data/`), or
//! `code: label` in the header and in the values (`geo: Geopolitical entity`, `AT11: Burgenland`).

use std::io::BufRead;

use super::common::{self, Cells};
use super::parsing::{FileEnd, FormatError, ReadError, Sink};
use crate::dataset_file::{FileHeader, Format};

/// The columns SDMX-CSV defines besides the dimensions.
#[derive(Clone, Copy)]
enum Known {
    Structure,
    StructureId,
    Dataflow,
    StructureName,
    Action,
    LastUpdate,
    TimePeriod,
    ObsValue,
    ObsFlag,
    ConfStatus,
    ObsStatus,
    Geo,
    Unit,
}

const KNOWN: [(&str, Known); 13] = [
    ("STRUCTURE", Known::Structure),
    ("STRUCTURE_ID", Known::StructureId),
    ("DATAFLOW", Known::Dataflow),
    ("STRUCTURE_NAME", Known::StructureName),
    ("ACTION", Known::Action),
    ("LAST UPDATE", Known::LastUpdate),
    ("TIME_PERIOD", Known::TimePeriod),
    ("OBS_VALUE", Known::ObsValue),
    ("OBS_FLAG", Known::ObsFlag),
    ("CONF_STATUS", Known::ConfStatus),
    // SDMX's own status code list (A = normal value...) is not Eurostat's flags, which are in
    // OBS_FLAG, so the column is recognised but not read.
    ("OBS_STATUS", Known::ObsStatus),
    ("geo", Known::Geo),
    ("unit", Known::Unit),
];

// `KNOWN[k as usize]` names `k`.
const _: () = {
    let mut i = 0;
    while i < KNOWN.len() {
        assert!(KNOWN[i].1 as usize == i);
        i += 1;
    }
};

impl Known {
    fn find(name: &str) -> Option<Known> {
        KNOWN
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, k)| k)
    }

    /// Coded columns are the ones `labels=both` gives a name to.
    fn coded(self) -> bool {
        !matches!(
            self,
            Known::Structure
                | Known::StructureId
                | Known::Dataflow
                | Known::StructureName
                | Known::Action
                | Known::LastUpdate
        )
    }
}

/// Where each column that matters is.
struct Columns {
    known: [Option<usize>; KNOWN.len()],
    dims: Vec<usize>,
    /// Per column: values are `code: label` and only the code is wanted.
    labelled: Vec<bool>,
}

impl Columns {
    fn get(&self, k: Known) -> Option<usize> {
        self.known[k as usize]
    }

    fn required(&self, k: Known) -> Result<usize, String> {
        self.get(k)
            .ok_or_else(|| format!("missing column \"{}\"", KNOWN[k as usize].0))
    }

    /// The column naming the dataflow, and its name: STRUCTURE_ID (2.0) or DATAFLOW (1.0).
    fn dataflow(&self) -> Option<(usize, &'static str)> {
        [Known::StructureId, Known::Dataflow]
            .into_iter()
            .find_map(|k| Some((self.get(k)?, KNOWN[k as usize].0)))
    }
}

/// Reads an SDMX-CSV stream (not gzipped; `file_formats::read` gunzips). The dataset code is `dataset`
/// if given, else read from STRUCTURE_ID / DATAFLOW of the first row
/// (`ESTAT:NAMA_10R_2GDP$DEFAULTVIEW(1.0)` → `nama_10r_2gdp`), which every row must repeat.
pub fn read(
    file: &str,
    stream: Box<dyn BufRead + '_>,
    dataset: Option<&str>,
    sink: &mut Sink<'_>,
) -> Result<FileEnd, ReadError> {
    let mut csv = common::CsvRows::new(file, stream);
    let Some((header_line, header)) = csv.next()? else {
        return Err(FormatError::new(file, 0, "file is empty").into());
    };
    let header_error = |reason| FormatError::new(file, header_line, reason);
    let (cols, dim_names) = columns(header).map_err(header_error)?;
    let required = |k| cols.required(k).map_err(header_error);
    let (period, value) = (required(Known::TimePeriod)?, required(Known::ObsValue)?);
    let (geo, unit) = (required(Known::Geo)?, required(Known::Unit)?);
    if dataset.is_none() && cols.dataflow().is_none() {
        return Err(header_error(
            "missing column \"STRUCTURE_ID\" or \"DATAFLOW\" (or give the dataset code)".into(),
        )
        .into());
    }
    let width = header.len();
    let header_for = |code: String| FileHeader {
        format: Format::SdmxCsv,
        dataset: code,
        dim_names: dim_names.clone(),
    };
    let mut file_header = match dataset {
        Some(code) => Some(header_for(common::dataset_code(code).ok_or_else(|| {
            FormatError::new(file, 0, format!("\"{code}\" is not a dataset code"))
        })?)),
        None => None,
    };

    // The first row's dataflow: every row must name the same one.
    let mut dataflow: Option<String> = None;
    let mut title = None;
    while let Some((line, record)) = csv.next()? {
        common::check_width(file, line, width, record.len())?;
        let at_line = |reason: String| FormatError::new(file, line, reason);
        let field = |i: usize| {
            let raw = &record[i];
            let code = if cols.labelled[i] {
                raw.split_once(':').map_or(raw, |(code, _)| code)
            } else {
                raw
            };
            code.trim()
        };

        if let Some((i, name)) = cols.dataflow() {
            match &dataflow {
                None => {
                    let id = field(i);
                    if file_header.is_none() {
                        let code = dataset_from_dataflow(id).ok_or_else(|| {
                            at_line(format!("cannot read a dataset code from \"{id}\""))
                        })?;
                        file_header = Some(header_for(code));
                    }
                    dataflow = Some(id.to_owned());
                }
                Some(first) if first != field(i) => {
                    return Err(at_line(format!(
                        "{name} \"{}\" differs from \"{first}\" of the first row; one dataset per file",
                        field(i)
                    ))
                    .into());
                }
                Some(_) => {}
            }
        }
        if title.is_none() {
            title = cols
                .get(Known::StructureName)
                .map(field)
                .filter(|t| !t.is_empty())
                .map(str::to_owned);
        }
        if cols.get(Known::Action).map(field) == Some("D") {
            return Err(at_line("ACTION \"D\" (delete) is not an observation".into()).into());
        }
        let cells = Cells {
            region: field(geo),
            period: field(period),
            unit: field(unit),
            value: field(value),
            flags: cols.get(Known::ObsFlag).map_or("", field),
            conf_status: cols.get(Known::ConfStatus).map_or("", field),
        };
        // No value, no flag, no status: the row says nothing that could be cited.
        if cells.value.is_empty() && cells.flags.is_empty() && cells.conf_status.is_empty() {
            continue;
        }
        let dim_values = cols.dims.iter().map(|&i| field(i).to_owned()).collect();
        let row = common::observation(cells, dim_values, line).map_err(at_line)?;
        let header = file_header
            .as_ref()
            .expect("named by the caller or the first row");
        sink(header, line, row).map_err(ReadError::Sink)?;
    }
    let header =
        file_header.ok_or_else(|| FormatError::new(file, 0, "no data rows, so no dataset code"))?;
    Ok(FileEnd { header, title })
}

/// Maps the header to columns; the error is the reason.
fn columns(header: &csv::StringRecord) -> Result<(Columns, Vec<String>), String> {
    common::check_column_count(header.len())?;
    let heads: Vec<(&str, bool)> = header
        .iter()
        .map(|h| {
            h.split_once(':')
                .map_or((h.trim(), false), |(code, _)| (code.trim(), true))
        })
        .collect();
    // Label columns have names like "Time frequency"; a code never has a space. When they are
    // there, each follows its coded column, whatever its name (a label may well be "Unit").
    let label_columns = heads
        .iter()
        .any(|(h, _)| Known::find(h).is_none() && !common::is_code(h));

    let mut cols = Columns {
        known: [None; KNOWN.len()],
        dims: Vec::new(),
        labelled: Vec::new(),
    };
    let mut dim_names: Vec<String> = Vec::new();
    let mut seen_dims = common::SeenNames::default();
    let mut after_code = false;
    for (i, &(name, has_label)) in heads.iter().enumerate() {
        if label_columns && after_code {
            cols.labelled.push(false);
            after_code = false;
            continue;
        }
        let known = Known::find(name);
        let duplicate = match known {
            Some(k) => cols.known[k as usize].replace(i).is_some(),
            None => {
                common::check_dimension_name(name)?;
                cols.dims.push(i);
                dim_names.push(name.to_owned());
                !seen_dims.first_time(name)
            }
        };
        if duplicate {
            return Err(format!("duplicate column \"{name}\""));
        }
        after_code = known.is_none_or(Known::coded);
        cols.labelled.push(has_label && after_code);
    }
    Ok((cols, dim_names))
}

/// `ESTAT:NAMA_10R_2GDP$DEFAULTVIEW(1.0)` → `nama_10r_2gdp`: drop version, agency and view.
fn dataset_from_dataflow(id: &str) -> Option<String> {
    let id = id.split('(').next()?;
    let id = id.rsplit(':').next()?;
    let id = id.split('$').next()?;
    common::dataset_code(id)
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
        collect(file, bytes, Accept::Only(Format::SdmxCsv), defaults)
    }

    fn err(text: &str) -> FormatError {
        parse("x.csv", text.as_bytes(), None).unwrap_err()
    }

    const V1: &str = "DATAFLOW,LAST UPDATE,freq,unit,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG\n";

    #[test]
    fn sdmx_csv_1() {
        let text = format!(
            "{V1}ESTAT:TGS00010(1.0),22/05/25 23:00:00,A,PC,AT11,2013,4.3,\n\
             ESTAT:TGS00010(1.0),22/05/25 23:00:00,A,PC,AT11,2014,,\n\
             ESTAT:TGS00010(1.0),22/05/25 23:00:00,A,PC,AT11,2015,,u\n\
             ESTAT:TGS00010(1.0),22/05/25 23:00:00,A,PC,AT12,2015,5.0,bP\n"
        );
        let p = parse("x.csv", text.as_bytes(), None).unwrap();
        assert_eq!(
            (p.format, p.dataset.as_str(), p.title.as_deref()),
            (Format::SdmxCsv, "tgs00010", None)
        );
        assert_eq!(p.dim_names, ["freq"]);
        let got: Vec<_> = p
            .rows
            .iter()
            .map(|r| {
                (
                    r.region.as_str(),
                    r.period.as_str(),
                    r.value,
                    r.flags.as_str(),
                    r.src_line,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("AT11", "2013", Some(4.3), "", 2),
                ("AT11", "2015", None, "u", 4),
                ("AT12", "2015", Some(5.0), "bp", 5)
            ]
        );
        assert!(
            p.rows
                .iter()
                .all(|r| r.unit == "PC" && r.dim_values == ["A"])
        );
    }

    #[test]
    fn sdmx_csv_2_with_view_suffix_and_crlf() {
        let text = "STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,ACTION,freq,unit,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\r\n\
                    dataflow,ESTAT:NAMA_10R_2GDP$DEFAULTVIEW(1.0),\"GDP, by NUTS 2 region\",I,A,MIO_EUR,AT,2022,448007.45,,\r\n\
                    dataflow,ESTAT:NAMA_10R_2GDP$DEFAULTVIEW(1.0),\"GDP, by NUTS 2 region\",I,A,MIO_EUR,BE10,2020,,,C\r\n";
        let p = parse("x.csv", text.as_bytes(), None).unwrap();
        assert_eq!(p.dataset, "nama_10r_2gdp");
        assert_eq!(p.title.as_deref(), Some("GDP, by NUTS 2 region"));
        assert_eq!(p.rows[0].value_text, "448007.45");
        assert_eq!(
            (
                p.rows[1].value,
                p.rows[1].conf_status.as_str(),
                p.rows[1].src_line
            ),
            (None, "C", 3)
        );
        let p = parse("x.csv", text.as_bytes(), Some("My_Code")).unwrap();
        assert_eq!(p.dataset, "my_code");
    }

    /// The shape of the Eurostat files behind `data/tgs00042.csv` (labels=both, SDMX-CSV 2.0).
    #[test]
    fn label_columns() {
        let text = "STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,freq,Time frequency,sectperf,Sector of performance,unit,Unit,geo,Geopolitical entity (reporting),TIME_PERIOD,Time,OBS_VALUE,Observation value,OBS_FLAG,Observation status (Flag) V2 structure,CONF_STATUS,Confidentiality status (flag)\n\
                    dataflow,ESTAT:TGS00042(1.0),Intramural R&D expenditure (GERD) by NUTS 2 region,A,Annual,TOTAL,All sectors,PC_GDP,Percentage of GDP,AT11,Burgenland,2013,,0.89,,b,break in time series,,\n\
                    dataflow,ESTAT:TGS00042(1.0),Intramural R&D expenditure (GERD) by NUTS 2 region,A,Annual,TOTAL,All sectors,PC_GDP,Percentage of GDP,BE10,\"Région de Bruxelles-Capitale, Brussels\",2020,,,,,,C,confidential\n";
        let p = parse("x.csv", text.as_bytes(), None).unwrap();
        assert_eq!(p.dataset, "tgs00042");
        assert_eq!(
            p.title.as_deref(),
            Some("Intramural R&D expenditure (GERD) by NUTS 2 region")
        );
        assert_eq!(p.dim_names, ["freq", "sectperf"]);
        let r = &p.rows[0];
        assert_eq!(
            (r.region.as_str(), r.period.as_str(), r.unit.as_str()),
            ("AT11", "2013", "PC_GDP")
        );
        assert_eq!((r.value, r.flags.as_str()), (Some(0.89), "b"));
        assert_eq!(r.dim_values, ["A", "TOTAL"]);
        let r = &p.rows[1];
        assert_eq!(
            (r.region.as_str(), r.value, r.conf_status.as_str()),
            ("BE10", None, "C")
        );
    }

    #[test]
    fn code_colon_label_spelling() {
        let text = "DATAFLOW,LAST UPDATE,freq: Time frequency,unit: Unit of measure,geo: Geopolitical entity (reporting),TIME_PERIOD: Time,OBS_VALUE: Observation value,OBS_FLAG: Observation status (Flag)\n\
                    ESTAT:TGS00010(1.0),22/05/25 23:00:00,A: Annual,PC: Percentage,AT11: Burgenland,2013,4.3,p: provisional\n";
        let p = parse("x.csv", text.as_bytes(), None).unwrap();
        assert_eq!(p.dataset, "tgs00010");
        assert_eq!(p.dim_names, ["freq"]);
        let r = &p.rows[0];
        assert_eq!(
            (r.region.as_str(), r.unit.as_str(), r.flags.as_str()),
            ("AT11", "PC", "p")
        );
        assert_eq!(
            (r.period.as_str(), r.dim_values.as_slice()),
            ("2013", &["A".to_owned()][..])
        );
    }

    #[test]
    fn missing_column() {
        let e = err("DATAFLOW,freq,geo,TIME_PERIOD,OBS_VALUE\nESTAT:X(1.0),A,AT,2020,1\n");
        assert_eq!((e.line, e.reason.as_str()), (1, "missing column \"unit\""));
        let e = err("freq,unit,geo,TIME_PERIOD,OBS_VALUE\nA,NR,AT,2020,1\n");
        assert_eq!(e.line, 1);
        let ok = parse(
            "x.csv",
            b"freq,unit,geo,TIME_PERIOD,OBS_VALUE\nA,NR,AT,2020,1\n",
            Some("x"),
        );
        assert_eq!(ok.unwrap().rows.len(), 1);
    }

    #[test]
    fn bad_number() {
        let e = err(&format!(
            "{V1}ESTAT:X(1.0),,A,PC,AT,2020,1,\nESTAT:X(1.0),,A,PC,AT,2021,NaN,\n"
        ));
        assert_eq!(
            (e.line, e.reason.as_str()),
            (3, "value \"NaN\" is not a number")
        );
    }

    #[test]
    fn bad_flag() {
        let e = err(&format!("{V1}ESTAT:X(1.0),,A,PC,AT,2020,1,p?\n"));
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("flags \"p?\""), "{}", e.reason);
    }

    #[test]
    fn wrong_field_count() {
        let e = err(&format!(
            "{V1}ESTAT:X(1.0),,A,PC,AT,2020,1,\nESTAT:X(1.0),,A,PC,AT,2021\n"
        ));
        assert_eq!(
            (e.line, e.reason.as_str()),
            (3, "expected 8 fields, found 6")
        );
    }

    #[test]
    fn duplicate() {
        let e = err(&format!(
            "{V1}ESTAT:X(1.0),,A,PC,AT,2020,1,\nESTAT:X(1.0),,A,PC,AT,2021,1,\nESTAT:X(1.0),,A,PC,AT,2020,2,\n"
        ));
        assert_eq!(e.line, 4);
        assert_eq!(
            e.reason,
            "duplicate observation for AT 2020 PC A (first seen on line 2)"
        );
    }

    #[test]
    fn mixed_dataflows() {
        let e = err(&format!(
            "{V1}ESTAT:X(1.0),,A,PC,AT,2020,1,\nESTAT:Y(1.0),,A,PC,AT,2021,1,\n"
        ));
        assert_eq!(e.line, 3);
        assert!(
            e.reason.starts_with("DATAFLOW \"ESTAT:Y(1.0)\" differs"),
            "{}",
            e.reason
        );
    }

    #[test]
    fn other_refusals() {
        assert_eq!(err("").reason, "file is empty");
        assert_eq!(err(V1).reason, "no data rows, so no dataset code");
        assert_eq!(
            err("DATAFLOW,unit,geo,geo,TIME_PERIOD,OBS_VALUE\n").reason,
            "duplicate column \"geo\""
        );
        let e = err(&format!("{V1}ESTAT:X(1.0),,A,PC,AT 1,2020,1,\n"));
        assert_eq!(e.line, 2);
        let e = err(&format!(
            "{V1}ESTAT:X(1.0),,A,PC,AT,2020,1,\n???,,A,PC,AT,2021,1,\n"
        ));
        assert_eq!(e.line, 3);
        let e = err(&format!("{V1}???,,A,PC,AT,2020,1,\n???,,A,PC,AT,2021,1,\n"));
        assert_eq!(
            (e.line, e.reason.as_str()),
            (2, "cannot read a dataset code from \"???\"")
        );
        let text = "STRUCTURE,STRUCTURE_ID,ACTION,unit,geo,TIME_PERIOD,OBS_VALUE\ndataflow,ESTAT:X(1.0),D,PC,AT,2020,1\n";
        assert_eq!(err(text).line, 2);
    }

    #[test]
    fn empty_rows_without_flag_are_dropped() {
        let text = format!("{V1}ESTAT:X(1.0),,A,PC,AT,2020,,\n");
        let p = parse("x.csv", text.as_bytes(), None).unwrap();
        assert_eq!((p.dataset.as_str(), p.rows.len()), ("x", 0));
    }
}
