//! What the writer reads, and from where: the caller's scoped store in the service, constructed
//! series in the writer's tests.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::domain::Error;
use crate::store::Scoped;
use crate::store::datasets::SeriesRow;
use crate::store::observations::ObsRow;
use crate::store::regions::RegionRow;

/// Regions and current rows, as the caller may see them.
pub trait Source {
    fn region(&self, code: &str) -> Result<Option<Arc<RegionRow>>, Error>;
    /// The regions whose parent is `code`, in code order.
    fn subregions(&self, code: &str) -> Result<Vec<RegionRow>, Error>;
    /// The regions of a level, of one country or of all, in code order.
    fn regions_at(&self, level: i64, country: Option<&str>) -> Result<Vec<Arc<RegionRow>>, Error>;
    /// A region's current rows of a series, by period.
    fn series_rows(&self, region: &str, series_id: i64) -> Result<Vec<ObsRow>, Error>;
    /// A region's current row of a series at a period.
    fn value_at(&self, region: &str, series_id: i64, period: &str)
    -> Result<Option<ObsRow>, Error>;
    /// A dataset's series.
    fn series_of(&self, dataset_id: i64) -> Result<Arc<[SeriesRow]>, Error>;
}

impl Source for Scoped {
    fn region(&self, code: &str) -> Result<Option<Arc<RegionRow>>, Error> {
        Ok(Scoped::region(self, code)?)
    }

    fn subregions(&self, code: &str) -> Result<Vec<RegionRow>, Error> {
        Ok(Scoped::subregions(self, code)?)
    }

    fn regions_at(&self, level: i64, country: Option<&str>) -> Result<Vec<Arc<RegionRow>>, Error> {
        Ok(self
            .regions_matching((Some(level), country), None, None, usize::MAX)?
            .page)
    }

    fn series_rows(&self, region: &str, series_id: i64) -> Result<Vec<ObsRow>, Error> {
        Ok(Scoped::series_rows(self, region, series_id)?)
    }

    fn value_at(
        &self,
        region: &str,
        series_id: i64,
        period: &str,
    ) -> Result<Option<ObsRow>, Error> {
        Ok(Scoped::value_at(self, region, series_id, period)?)
    }

    fn series_of(&self, dataset_id: i64) -> Result<Arc<[SeriesRow]>, Error> {
        Ok(Scoped::series_of(self, dataset_id)?)
    }
}

/// A source that reads each row once per briefing: a region's value is read for every group it
/// is ranked in (its country's regions, its parent's children, the EU's), and a series for every
/// rank that checks it for breaks.
pub struct ReadOnce<'a> {
    inner: &'a dyn Source,
    values: RefCell<HashMap<(String, i64, String), Option<ObsRow>>>,
    series: RefCell<HashMap<(String, i64), Vec<ObsRow>>>,
}

impl<'a> ReadOnce<'a> {
    pub fn new(inner: &'a dyn Source) -> Self {
        ReadOnce {
            inner,
            values: RefCell::default(),
            series: RefCell::default(),
        }
    }
}

impl Source for ReadOnce<'_> {
    fn region(&self, code: &str) -> Result<Option<Arc<RegionRow>>, Error> {
        self.inner.region(code)
    }

    fn subregions(&self, code: &str) -> Result<Vec<RegionRow>, Error> {
        self.inner.subregions(code)
    }

    fn regions_at(&self, level: i64, country: Option<&str>) -> Result<Vec<Arc<RegionRow>>, Error> {
        self.inner.regions_at(level, country)
    }

    fn series_rows(&self, region: &str, series_id: i64) -> Result<Vec<ObsRow>, Error> {
        let key = (region.to_owned(), series_id);
        if let Some(rows) = self.series.borrow().get(&key) {
            return Ok(rows.clone());
        }
        let rows = self.inner.series_rows(region, series_id)?;
        self.series.borrow_mut().insert(key, rows.clone());
        Ok(rows)
    }

    fn value_at(
        &self,
        region: &str,
        series_id: i64,
        period: &str,
    ) -> Result<Option<ObsRow>, Error> {
        let key = (region.to_owned(), series_id, period.to_owned());
        if let Some(row) = self.values.borrow().get(&key) {
            return Ok(row.clone());
        }
        let row = self.inner.value_at(region, series_id, period)?;
        self.values.borrow_mut().insert(key, row.clone());
        Ok(row)
    }

    fn series_of(&self, dataset_id: i64) -> Result<Arc<[SeriesRow]>, Error> {
        self.inner.series_of(dataset_id)
    }
}
