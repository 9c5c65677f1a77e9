//! Observation reads: the values behind profiles and comparisons, and citations.

use crate::store::sql::{OptionalExtension, params};
use compact_str::CompactString;

use super::blocks;
use super::connections::Scoped;
use super::error::StoreResult;
use super::rows::datasets::{SNAPSHOT_COLUMNS, SnapshotRow, snapshot_from_row};
use super::rows::observations::{OBS_COLUMNS, WITHDRAWN, obs_at};
pub use super::rows::observations::{ObsRow, RowValue, SeriesCoverage};

/// The end of a citation's chain of revisions ([`Scoped::chain_end`]).
pub struct ChainEnd {
    /// The citation that stands for the observation now.
    pub citation: String,
    /// The snapshot that withdrew the observation, when the chain ends in a withdrawal.
    pub withdrawn_in: Option<String>,
}

/// A citation with everything `GET /citations/{citation_id}` shows.
#[derive(Debug, Clone)]
pub struct CitationRow {
    pub obs: ObsRow,
    pub region_code: String,
    pub src_line: i64,
    pub superseded_by: Option<String>,
    /// A withdrawal (no value: a whole-dataset file no longer held the row it supersedes).
    pub withdrawn: bool,
    pub dataset_code: String,
    pub dataset_id: i64,
    pub unit: String,
    pub dims: String,
    pub snapshot: std::sync::Arc<SnapshotRow>,
    pub source_id: Option<i64>,
}

impl Scoped {
    /// Current values of every visible dataset's headline series for a region: each dataset's
    /// id and its rows by period (its block, see [`super::blocks`]), by dataset id.
    pub fn headline_rows(&self, region: &str) -> StoreResult<Vec<(i64, Vec<ObsRow>)>> {
        if self.as_of().is_some() {
            return self.headline_rows_as_of(region);
        }
        if let (Some(rows), Some(catalogue)) = (self.public_rows(), self.public_catalogue()) {
            let mut datasets: Vec<_> = (catalogue.datasets().iter())
                .filter_map(|d| Some((d.id, d.headline_series_id?)))
                .collect();
            // Read from the database if one is not held: one query for them all.
            if datasets.iter().all(|&(_, series)| rows.holds(series)) {
                datasets.sort_unstable();
                return Ok(datasets
                    .into_iter()
                    .map(|(id, series)| (id, rows.series_rows(series, region)))
                    .filter(|(_, rows)| !rows.is_empty())
                    .collect());
            }
        }
        let mut stmt = self.sql().prepare_cached(
            "SELECT d.id, d.headline_series_id, b.rows
             FROM v_datasets d
             JOIN v_observation_blocks b
               ON b.series_id = d.headline_series_id AND b.region_code = ?1
             ORDER BY d.id",
        )?;
        let mut rows = stmt.query(params![region])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next_row()? {
            let r = &r.row();
            let mut block = Vec::new();
            blocks::read(r, 2, r.get(1)?, &mut block)?;
            out.push((r.get(0)?, block));
        }
        Ok(out)
    }

    /// Current values of one series for one region, by period (its block, see
    /// [`super::blocks`]).
    pub fn series_rows(&self, region: &str, series_id: i64) -> StoreResult<Vec<ObsRow>> {
        if self.as_of().is_some() {
            return self.rows_as_of(region, series_id);
        }
        if let Some(rows) = self.public_rows_of(series_id) {
            return Ok(rows.series_rows(series_id, region));
        }
        let mut stmt = self.sql().prepare_cached(
            "SELECT rows FROM v_observation_blocks WHERE series_id = ?1 AND region_code = ?2",
        )?;
        let mut rows = stmt.query(params![series_id, region])?;
        let mut out = Vec::new();
        if let Some(r) = rows.next_row()? {
            blocks::read(&r.row(), 0, series_id, &mut out)?;
        }
        Ok(out)
    }

    /// [`Scoped::series_rows`] without what cites each row.
    pub fn series_values(&self, region: &str, series_id: i64) -> StoreResult<Vec<RowValue>> {
        if let Some(rows) = self.held_rows_of(series_id)? {
            return Ok(rows.series_values(series_id, region));
        }
        let rows = self.series_rows(region, series_id)?;
        Ok(rows.into_iter().map(RowValue::from).collect())
    }

    /// Which of `regions` have rows of `series_id`, and how many of them have a value at each
    /// period (see [`SeriesCoverage`]).
    pub fn series_coverage<'r>(
        &self,
        series_id: i64,
        regions: impl Iterator<Item = &'r str>,
    ) -> StoreResult<SeriesCoverage> {
        if let Some(rows) = self.held_rows_of(series_id)? {
            return Ok(rows.coverage(series_id, regions));
        }
        let mut counts = std::collections::HashMap::<CompactString, usize>::new();
        let mut with_rows = Vec::new();
        let mut kept = Vec::new();
        for (at, region) in regions.enumerate() {
            let rows = self.series_rows(region, series_id)?;
            if rows.is_empty() {
                continue;
            }
            with_rows.push(at);
            for row in rows.iter().filter(|r| r.value.is_some()) {
                *counts.entry(row.period.clone()).or_default() += 1;
            }
            kept.push(rows);
        }
        let mut periods: Vec<(CompactString, usize)> = counts.into_iter().collect();
        periods.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Ok(SeriesCoverage {
            regions: with_rows,
            periods,
            rows: kept,
        })
    }

    /// The row `value` of `series_id` in `region` says, whole, to cite it: as read with it, or
    /// made from the rows in memory. None only if it is no longer current (a later snapshot).
    pub fn whole(
        &self,
        region: &str,
        series_id: i64,
        value: &RowValue,
    ) -> StoreResult<Option<ObsRow>> {
        match &value.whole {
            Some(row) => Ok(Some(ObsRow::clone(row))),
            None => self.value_at(region, series_id, &value.period),
        }
    }

    /// The current value of one series for one region at one period, if there is one.
    pub fn value_at(
        &self,
        region: &str,
        series_id: i64,
        period: &str,
    ) -> StoreResult<Option<ObsRow>> {
        if self.as_of().is_some() {
            let rows = self.rows_as_of(region, series_id)?;
            return Ok(rows.into_iter().find(|r| r.period == period));
        }
        if let Some(rows) = self.public_rows_of(series_id) {
            return Ok(rows.value_at(series_id, region, period));
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {OBS_COLUMNS}
             FROM v_observations o
             WHERE o.region_code = ?1 AND o.series_id = ?2 AND o.period = ?3
               AND o.superseded_by IS NULL"
        ))?;
        Ok(stmt
            .query_row(params![region, series_id, period], |r| obs_at(r, 0))
            .optional()?)
    }

    pub fn citation(&self, id: &str) -> StoreResult<Option<CitationRow>> {
        if let Some(catalogue) = self.public_catalogue() {
            // The row alone (from memory if it is a current one held there; superseded rows
            // are read from SQLite); its series, dataset and snapshot from the catalogue.
            let held = self.public_rows().and_then(|rows| rows.cited(id));
            let found = match held {
                Some(row) => Some((row.obs, row.region.to_owned(), row.src_line, None, false)),
                None => self
                    .sql()
                    .prepare_cached(&format!(
                        "SELECT {OBS_COLUMNS}, o.region_code, o.src_line, o.superseded_by,
                                o.withdrawn
                         FROM v_observations o WHERE o.citation_id = ?1"
                    ))?
                    .query_row(params![id], |r| {
                        Ok((obs_at(r, 0)?, r.get(8)?, r.get(9)?, r.get(10)?, r.get(11)?))
                    })
                    .optional()?,
            };
            let Some((obs, region_code, src_line, superseded_by, withdrawn)) = found else {
                return Ok(None);
            };
            let described = catalogue
                .series(obs.series_id)
                .zip(catalogue.snapshot(obs.snapshot_id));
            if let Some(((dataset, series), snapshot)) = described {
                return Ok(Some(CitationRow {
                    region_code,
                    src_line,
                    superseded_by,
                    withdrawn,
                    dataset_code: dataset.code.clone(),
                    dataset_id: dataset.id,
                    unit: series.unit.clone(),
                    dims: series.dims.clone(),
                    snapshot: std::sync::Arc::clone(snapshot),
                    source_id: snapshot.source_id.or(dataset.source_id),
                    obs,
                }));
            }
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {OBS_COLUMNS}, o.region_code, o.src_line, o.superseded_by, d.code, d.id,
                    se.unit, se.dims, d.source_id, o.withdrawn, {SNAPSHOT_COLUMNS}
             FROM v_observations o
             JOIN v_snapshots s ON s.id = o.snapshot_id
             JOIN v_series se ON se.id = o.series_id
             JOIN v_datasets d ON d.id = se.dataset_id
             WHERE o.citation_id = ?1"
        ))?;
        Ok(stmt
            .query_row(params![id], |r| {
                let snapshot = snapshot_from_row(r, 17)?;
                Ok(CitationRow {
                    obs: obs_at(r, 0)?,
                    region_code: r.get(8)?,
                    src_line: r.get(9)?,
                    superseded_by: r.get(10)?,
                    dataset_code: r.get(11)?,
                    dataset_id: r.get(12)?,
                    unit: r.get(13)?,
                    dims: r.get(14)?,
                    source_id: snapshot.source_id.or(r.get(15)?),
                    withdrawn: r.get(16)?,
                    snapshot: std::sync::Arc::new(snapshot),
                })
            })
            .optional()?)
    }

    /// The public id (`snp_…`) of a snapshot the caller can see.
    pub fn snapshot_public_id(&self, id: i64) -> StoreResult<Option<String>> {
        if let Some(found) = self
            .public_catalogue()
            .and_then(|c| c.snapshot(id).map(|s| s.public_id.clone()))
        {
            return Ok(Some(found));
        }
        let mut stmt = self
            .sql()
            .prepare_cached("SELECT public_id FROM v_snapshots WHERE id = ?1")?;
        Ok(stmt.query_row(params![id], |r| r.get(0)).optional()?)
    }

    /// Where the `superseded_by` chain from `id` ends (bounded, in case of a revision cycle
    /// A → B → A): the citation that stands for the observation now, and the snapshot that
    /// withdrew it when that is a withdrawal.
    pub fn chain_end(&self, id: &str) -> StoreResult<ChainEnd> {
        let mut stmt = self.sql().prepare_cached(
            "SELECT o.superseded_by, s.public_id FROM v_observations o
             JOIN v_snapshots s ON s.id = o.snapshot_id WHERE o.citation_id = ?1",
        )?;
        let mut citation = id.to_owned();
        for _ in 0..64 {
            let next: Option<(Option<String>, String)> = stmt
                .query_row(params![&citation], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            match next {
                Some((Some(next), snapshot)) if next == WITHDRAWN => {
                    return Ok(ChainEnd {
                        citation,
                        withdrawn_in: Some(snapshot),
                    });
                }
                Some((Some(next), _)) => citation = next,
                _ => break,
            }
        }
        Ok(ChainEnd {
            citation,
            withdrawn_in: None,
        })
    }
}

/// One row of a bulk export, borrowed from the statement (no allocation per row).
pub struct ExportRow<'r> {
    pub region: &'r str,
    pub period: &'r str,
    pub unit: &'r str,
    pub dims: &'r str,
    pub value_text: &'r str,
    pub flags: &'r str,
    pub conf_status: &'r str,
    pub citation_id: &'r str,
}

/// Which rows an export holds: regions of one country (two letters as Eurostat writes them: EL
/// for Greece) and of one NUTS level, periods from `from` to `to` (included; periods compare as
/// text, which orders years, quarters `2021-Q3`, semesters `2021-S1` and months `2021-07` correctly
/// within each frequency).
/// SQLite applies the periods; the export applies country and level through the regions it
/// reads once ([`Scoped::regions`]), so a filter costs no lookup per series.
#[derive(Debug, Default, Clone)]
pub struct ExportFilter {
    pub country: Option<String>,
    pub level: Option<i64>,
    pub from: Option<String>,
    pub to: Option<String>,
}

impl Scoped {
    /// Calls `f` for every current observation (as of the moment reads are as of) of a dataset
    /// in `from..=to` (periods; the filter's country and level are the caller's to apply, see
    /// [`ExportFilter`]), by series, region and period, without holding the dataset in memory:
    /// series are read one at a time, each in one pass over `observations_current` in its own
    /// order, so nothing is sorted (as of a moment, each series' rows then are: three index
    /// ranges). All of it is read in one snapshot (see [`Scoped::snapshot`]).
    pub fn for_each_export_row(
        &self,
        dataset_id: i64,
        filter: &ExportFilter,
        mut f: impl FnMut(ExportRow<'_>) -> bool,
    ) -> StoreResult<()> {
        let _snapshot = self.snapshot()?;
        let mut series = self.sql().prepare_cached(
            "SELECT id, unit, dims FROM v_series WHERE dataset_id = ?1 ORDER BY id",
        )?;
        // As of a moment, the rows current in the snapshot read then (sorted: three ranges).
        let then = match self.as_of() {
            Some(_) => Some(self.snapshot_bound(dataset_id)?),
            None => None,
        };
        let mut rows_of = match then {
            Some(_) => self.sql().prepare_streamed(&super::as_of::EXPORT_ROWS_AT)?,
            None => self.sql().prepare_streamed(
                "SELECT o.region_code, o.period, o.value_text, o.flags, o.conf_status,
                        o.citation_id
                 FROM v_observations o
                 WHERE o.series_id = ?1 AND o.superseded_by IS NULL
                   AND (o.period >= ?2 OR ?2 IS NULL) AND (o.period <= ?3 OR ?3 IS NULL)
                 ORDER BY o.region_code, o.period",
            )?,
        };
        let mut each_series = series.query(params![dataset_id])?;
        while let Some(s) = each_series.next_row()? {
            let s = &s.row();
            let (unit, dims) = (s.text(1)?, s.text(2)?);
            let id = s.get::<i64>(0)?;
            let mut rows = match then {
                Some(snapshot) => rows_of.query(params![id, filter.from, filter.to, snapshot])?,
                None => rows_of.query(params![id, filter.from, filter.to])?,
            };
            while let Some(r) = rows.next_row()? {
                let r = &r.row();
                let more = f(ExportRow {
                    region: r.text(0)?,
                    period: r.text(1)?,
                    unit,
                    dims,
                    value_text: r.text(2)?,
                    flags: r.text(3)?,
                    conf_status: r.text(4)?,
                    citation_id: r.text(5)?,
                });
                if !more {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::rows::observations::citation_at;

    /// A stored citation id is read as it is if an answer can show it so, and refused otherwise.
    #[test]
    fn stored_citation_ids_are_checked_when_read() {
        let db = rusqlite::Connection::open_in_memory().unwrap();
        let db = crate::store::sql::Db::Sqlite(&db);
        let read = |id: &str| db.query_row("SELECT ?1", params![id], |r| citation_at(r, 0));
        let id = "cit_oqrh2d7jvc5jqlzuutgd";
        assert_eq!(read(id).unwrap().as_str(), id);
        assert_eq!(read("cit_old").unwrap().as_str(), "cit_old");
        for bad in ["cit_oqrh2d7jvc5jqlzuutgdx", "cit_\"a", "cit_\\a", "cit_\ta"] {
            assert!(read(bad).is_err(), "{bad:?}");
        }
    }
}
