//! The rows of observations as the store reads them: one current value with what cites it, its
//! compact form held in memory, and a series' coverage.

use compact_str::CompactString;

use crate::citation_id::CitationId;
use crate::store::sql::{Row, SqlError, SqlResult};

/// The `superseded_by` of a withdrawal while its cell has no value: no citation id (those begin
/// `cit_`), and not NULL, so a withdrawal is never a current row.
pub const WITHDRAWN: &str = "withdrawn";

/// One current value with what is needed to cite it. Its texts are short (a citation id is 24
/// bytes, a Eurostat period at most 7) and held inline up to 24 bytes, so a row costs no
/// allocation: an answer reads hundreds.
#[derive(Debug, Clone)]
pub struct ObsRow {
    pub citation_id: CitationId,
    pub series_id: i64,
    pub period: CompactString,
    pub value: Option<f64>,
    pub value_text: CompactString,
    pub flags: CompactString,
    pub conf_status: CompactString,
    /// The snapshot's row id; `Scoped::snapshot_public_id` names it. (Joining the snapshots
    /// for every row would cost a table lookup per row for a handful of distinct values.)
    pub snapshot_id: i64,
}

impl ObsRow {
    /// Confidential: SDMX status `C` or Eurostat flag `c` (then without a usable value).
    pub fn is_confidential(&self) -> bool {
        confidential(&self.flags, &self.conf_status)
    }

    /// Of low reliability (flag `u`) or confidential: a value an analysis neither ranks, compares
    /// nor correlates.
    pub fn is_unreliable(&self) -> bool {
        self.flags.contains('u') || self.is_confidential()
    }
}

pub(crate) fn confidential(flags: &str, conf_status: &str) -> bool {
    conf_status.eq_ignore_ascii_case("c") || flags.contains('c')
}

/// What a current row says without what cites it (its citation id, source text and snapshot):
/// enough to choose rows before citing the chosen ones. A correlation matrix reads every period
/// of every region to choose one; making each a citable row took a third of its time.
#[derive(Debug, Clone)]
pub struct RowValue {
    pub period: CompactString,
    pub value: Option<f64>,
    pub flags: CompactString,
    pub conf_status: CompactString,
    /// The whole row where it was read anyway (SQLite reads a block whole), so that citing it
    /// costs no second read; rows held in memory are made whole when used ([`Scoped::whole`]).
    /// Boxed, so a value from memory stays smaller than a row (96 bytes against 152).
    pub whole: Option<Box<ObsRow>>,
}

/// Which regions have rows of a series, and how many of them have a value at each period: what
/// a map needs to choose its period before it reads one period's rows.
#[derive(Debug, Default)]
pub struct SeriesCoverage {
    /// Positions, among the regions asked about, of those with any row of the series.
    pub regions: Vec<usize>,
    /// Each period at which some of them have a value, oldest first, and how many do.
    pub periods: Vec<(CompactString, usize)>,
    /// Each of `regions`' rows, where they were read whole from the database to be counted (a
    /// map cites one period's of them without reading them again); empty when counted from
    /// the rows in memory.
    pub rows: Vec<Vec<ObsRow>>,
}

impl PartialEq for SeriesCoverage {
    /// The same regions and counts, however they were read.
    fn eq(&self, other: &Self) -> bool {
        self.regions == other.regions && self.periods == other.periods
    }
}

impl RowValue {
    /// As [`ObsRow::is_confidential`].
    pub fn is_confidential(&self) -> bool {
        confidential(&self.flags, &self.conf_status)
    }
}

impl From<ObsRow> for RowValue {
    fn from(row: ObsRow) -> Self {
        RowValue {
            period: row.period.clone(),
            value: row.value,
            flags: row.flags.clone(),
            conf_status: row.conf_status.clone(),
            whole: Some(Box::new(row)),
        }
    }
}

pub(crate) const OBS_COLUMNS: &str =
    "o.citation_id, o.series_id, o.period, o.value, o.value_text, o.flags,
    o.conf_status, o.snapshot_id";

/// The citation id in column `at`.
pub(crate) fn citation_at(r: &Row, at: usize) -> SqlResult<CitationId> {
    let id = r.text(at)?;
    CitationId::new(id).ok_or_else(|| SqlError::Conversion {
        column: at,
        message: format!("{} is no citation id", crate::error_text::shown(id)),
    })
}

/// Reads [`OBS_COLUMNS`] starting at column `at`.
pub(crate) fn obs_at(r: &Row, at: usize) -> SqlResult<ObsRow> {
    let inline = |i: usize| r.text(i).map(CompactString::new);
    Ok(ObsRow {
        citation_id: citation_at(r, at)?,
        series_id: r.get(at + 1)?,
        period: inline(at + 2)?,
        value: r.get(at + 3)?,
        value_text: inline(at + 4)?,
        flags: inline(at + 5)?,
        conf_status: inline(at + 6)?,
        snapshot_id: r.get(at + 7)?,
    })
}
