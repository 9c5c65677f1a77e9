//! A dataset file as read: its header (format, dataset, dimension names) and its observations.
//! The parsers of [`crate::file_formats`] produce them; the import write path of [`crate::store`]
//! writes them. It sits below both, so neither depends on the other.

/// The file formats `regintel import` understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tidy CSV: `nuts_code` (or `geo`), `period` (or `time`), `value` and the dimension columns;
    /// optional `unit`, `flags`, `dataset_code`, `nuts_level`, `conf_status`, `src_line`.
    Tidy,
    /// Eurostat bulk TSV: `freq,unit,geo\TIME_PERIOD<TAB>2022 <TAB>...` or legacy `unit,geo\time`.
    EurostatTsv,
    /// SDMX-CSV as served by the Eurostat API (`DATAFLOW`/`STRUCTURE` columns, `OBS_VALUE`).
    SdmxCsv,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Tidy => "tidy-csv",
            Format::EurostatTsv => "eurostat-tsv",
            Format::SdmxCsv => "sdmx-csv",
        }
    }
}

/// One observation as read from a file, before it is given a citation.
#[derive(Debug, Clone, PartialEq)]
pub struct RawObservation {
    /// Geo code exactly as published (NUTS code or an aggregate such as `EU27_2020`).
    pub region: String,
    /// Period label as published, trimmed (`2022`, `2022Q1`, `2022-01`).
    pub period: String,
    /// Eurostat `unit` code.
    pub unit: String,
    /// Values of [`FileHeader::dim_names`], same order and length.
    pub dim_values: Vec<String>,
    /// The number exactly as printed by the source; empty when the source has only a flag.
    pub value_text: String,
    /// `value_text` parsed; `None` exactly when `value_text` is empty.
    pub value: Option<f64>,
    /// Eurostat observation flags, concatenated as published (`p`, `bep`); empty if none.
    pub flags: String,
    /// SDMX `CONF_STATUS` (e.g. `C`), empty if absent.
    pub conf_status: String,
    /// 1-based line in the (decompressed) original source file where the value can be read.
    pub src_line: u64,
}

/// What a file says of every one of its rows, known before its first row is read on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHeader {
    pub format: Format,
    /// Lower-case Eurostat dataset code (`demo_r_pjangrp3`).
    pub dataset: String,
    /// Dimension names other than `geo`, `unit` and time, in source order (e.g. `freq`, `sex`, `age`).
    pub dim_names: Vec<String>,
}
