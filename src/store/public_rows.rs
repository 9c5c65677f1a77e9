//! The current public observations in memory, read once per public data generation, for the
//! callers who see public data only. Read from SQLite, every uncached answer paid for a read
//! transaction (the WAL's read lock, a process-wide mutex around it, `fcntl`), a B-tree descent
//! per block that mostly missed the connection's page cache (`pread`), and SQLite's statement
//! engine: a third of a comparison's server time, more of a citation's. Held here, a profile's
//! or a comparison's rows and a citation's row are a hash lookup and a copy.
//!
//! A row takes 40 bytes: the value, the source line, its value text's place, its block's
//! number, and one-byte or two-byte places in small tables of the texts few rows differ in
//! (periods, flags, confidentiality statuses, snapshots); its citation id as the 13 bytes its 20
//! base32 characters stand for. With its place in the citation index, its share of the index's
//! buckets and its value text, about 55: the bundled data (570,289 rows) takes 30 MiB.
//!
//! Within the operator's budget (`--public-data-mb`), whole datasets are held, the smallest
//! first: a comparison or a series reads one dataset, so the most datasets held is the most of
//! such answers read from memory when requests spread over the datasets. The rows of a dataset
//! not held, a profile that lists one, and a citation of a row not held are read from the
//! database, as before.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::sql::{Db, params};
use compact_str::CompactString;

use super::error::StoreResult;
use super::public_catalogue::PublicCatalogue;
use super::rows::observations::{ObsRow, RowValue, SeriesCoverage};
use crate::citation_id::{CitationId, PREFIX, is_well_formed};
use crate::ids::base32_lower_decode;

/// What a caller who sees public data only reads from memory, all of one public data
/// generation: read in one transaction, so they agree with each other as SQLite would.
pub struct PublicData {
    pub generation: i64,
    pub catalogue: std::sync::Arc<PublicCatalogue>,
    pub rows: PublicRows,
    /// Rows as of past snapshots, read when asked for, within the same budget again.
    pub past: super::past_rows::PastRows,
}

pub struct PublicRows {
    /// The series whose rows are held: every series of each dataset held.
    series: HashSet<i64, foldhash::fast::RandomState>,
    /// Datasets held, public datasets in all, and those not held for what the compact form
    /// cannot hold.
    datasets: (usize, usize, usize),
    rows: Vec<Row>,
    /// Each (series, region)'s rows, a dataset's after another's; a block's rows are
    /// `rows[start..]` up to the next block's start, in period order.
    blocks: Vec<Block>,
    /// Hashed with foldhash: a profile looks up a block per dataset, and SipHash's rounds were
    /// most of a lookup's cost. The keys are the bundled data's, not a client's.
    by_key: HashMap<(i64, CompactString), u32, foldhash::fast::RandomState>,
    /// Row numbers in citation id order.
    by_citation: Vec<u32>,
    /// Where in `by_citation` the ids of each bucket begin (and, last, its length); see
    /// [`Buckets`].
    by_bucket: Vec<u32>,
    buckets: Buckets,
    periods: Vec<CompactString>,
    /// Flags and confidentiality statuses: the few distinct texts of both.
    marks: Vec<CompactString>,
    snapshots: Vec<i64>,
    /// Every row's value text, one after another: a text, so a row's is a slice of it without
    /// checking its bytes again.
    texts: String,
}

struct Block {
    series_id: i64,
    region: CompactString,
    start: u32,
}

/// One current row; its series and region are its block's.
#[derive(Clone, Copy)]
struct Row {
    /// NaN where the row has no value (SQLite stores no NaN: a value is a number or NULL).
    value: f64,
    src_line: u32,
    text_at: u32,
    /// Its block's place in `blocks`: found by a search through the blocks' starts, a
    /// citation's row took a dozen cache misses more (it fills what would be padding).
    block: u32,
    period: u16,
    snapshot: u16,
    /// The 100 bits of the citation id's base32 characters.
    citation: [u8; 13],
    text_len: u8,
    flags: u8,
    conf_status: u8,
}

const _: () = assert!(std::mem::size_of::<Row>() == 40);

/// The citation index's buckets: a quarter as many as the rows, rounded up to a power of two, each
/// the ids whose first bits are its number. SHA-256 spreads ids evenly, so a bucket holds two to
/// four ids on average (eleven at most for the bundled data), and a lookup reads them without
/// waiting on one comparison before the next load, where a binary search through buckets of about
/// nine read four one after another (each a cache miss, most of a citation's time in memory). As
/// many buckets as rows saved little more and took 4 MiB instead of 1 for the bundled data, which
/// counts where matrices already take most of the memory bound.
#[derive(Clone, Copy)]
struct Buckets {
    bits: u32,
}

/// Ids per bucket on average, at most: rounding the count of buckets up to a power of two
/// makes it two to four.
const IDS_PER_BUCKET: usize = 4;

impl Buckets {
    fn for_rows(rows: usize) -> Buckets {
        let buckets = rows.div_ceil(IDS_PER_BUCKET).max(1).next_power_of_two();
        Buckets {
            bits: buckets.trailing_zeros().min(32),
        }
    }

    fn count(self) -> usize {
        1 << self.bits
    }

    fn of(self, citation: &[u8; 13]) -> usize {
        let first = u32::from_be_bytes([citation[0], citation[1], citation[2], citation[3]]);
        (u64::from(first) >> (32 - self.bits)) as usize
    }
}

/// Bytes held for `rows` rows with `texts` bytes of value texts in `blocks` blocks of `series`
/// series, near enough: the rows with their places in the citation index, the texts, the blocks
/// with their index, the series held, and the index's buckets.
fn held_bytes(rows: usize, texts: usize, blocks: usize, series: usize) -> usize {
    let block = std::mem::size_of::<Block>() + std::mem::size_of::<((i64, CompactString), u32)>();
    let buckets = Buckets::for_rows(rows).count() + 1;
    rows * ROW_BYTES
        + texts
        + blocks * block
        + series * 2 * std::mem::size_of::<i64>()
        + buckets * std::mem::size_of::<u32>()
}

/// Bytes held per row, as the budget counts them: the row and its place in `by_citation`, plus
/// its value text (counted as read).
pub const ROW_BYTES: usize = std::mem::size_of::<Row>() + std::mem::size_of::<u32>();

/// A series' rows: how many, in how many regions, from which period to which.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SeriesCounts {
    pub rows: i64,
    pub regions: i64,
    pub first: Option<CompactString>,
    pub last: Option<CompactString>,
}

/// A row as [`ObsRow`] would read it, found by its citation id.
pub struct CitedRow<'a> {
    pub obs: ObsRow,
    pub region: &'a str,
    pub src_line: i64,
}

/// What [`PublicData::load`] found.
pub enum Loaded {
    Held(Box<PublicData>),
    /// The rows of `generation` are not held, for `reason`.
    NotHeld {
        generation: i64,
        reason: NotHeld,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotHeld {
    /// Even the smallest dataset needs more than the budget.
    TooLarge,
    /// Every dataset that fits the budget holds what the compact form cannot (see
    /// [`PublicData::load`]).
    Unfit,
}

impl PublicData {
    /// Reads the catalogue and the current public rows of as many datasets as fit `budget`
    /// bytes, the smallest first, through `db`'s views, as no account, in one read transaction.
    /// A dataset is not held when it holds what the compact form cannot (over 65,535 periods or
    /// snapshots, 255 kinds of flags, a value text over 255 bytes, a source line over 2^32, a
    /// citation id of another shape; counted with the datasets read before it).
    pub fn load(db: &Db<'_>, budget: usize) -> StoreResult<Loaded> {
        let snapshot = db.read_snapshot()?;
        let generation: i64 =
            db.query_row("SELECT value FROM v_data_generation", params![], |r| {
                r.get(0)
            })?;
        let catalogue = PublicCatalogue::load(db)?;
        let rows = PublicRows::load(db, &catalogue, budget)?;
        let rows = match rows {
            Ok(rows) => rows,
            Err(reason) => return Ok(Loaded::NotHeld { generation, reason }),
        };
        drop(snapshot);
        Ok(Loaded::Held(Box::new(PublicData {
            generation,
            catalogue: std::sync::Arc::new(catalogue),
            rows,
            past: super::past_rows::PastRows::new(budget),
        })))
    }
}

/// Places of distinct values (texts, snapshot ids) in a small table.
struct Interned<T, V = CompactString> {
    texts: Vec<V>,
    places: HashMap<V, T>,
}

impl<T, V> Default for Interned<T, V> {
    fn default() -> Self {
        Interned {
            texts: Vec::new(),
            places: HashMap::new(),
        }
    }
}

impl<T: Copy + TryFrom<usize>, V: Clone + Eq + std::hash::Hash> Interned<T, V> {
    /// The place of `value` (kept as `own` makes it), added if new; None when the table is
    /// full.
    fn place<Q>(&mut self, value: &Q, own: impl Fn(&Q) -> V) -> Option<T>
    where
        Q: ?Sized + Eq + std::hash::Hash,
        V: std::borrow::Borrow<Q>,
    {
        if let Some(&place) = self.places.get(value) {
            return Some(place);
        }
        let place = T::try_from(self.texts.len()).ok()?;
        self.texts.push(own(value));
        self.places.insert(own(value), place);
        Some(place)
    }

    /// Forgets the values placed after the first `len`.
    fn truncate(&mut self, len: usize) {
        for value in self.texts.drain(len.min(self.texts.len())..) {
            self.places.remove(&value);
        }
    }
}

/// The rows read so far, of the datasets held and of the one being read.
struct Reading {
    rows: Vec<Row>,
    blocks: Vec<Block>,
    periods: Interned<u16>,
    marks: Interned<u8>,
    snapshots: Interned<u16, i64>,
    texts: String,
    series_ids: HashSet<i64, foldhash::fast::RandomState>,
    datasets: usize,
    /// Datasets not held for what the compact form cannot hold.
    unfit: usize,
}

/// Where a dataset's reading began: what it added goes again when it is not held.
struct Mark {
    rows: usize,
    blocks: usize,
    texts: usize,
    periods: usize,
    marks: usize,
    snapshots: usize,
}

impl Reading {
    fn with_capacity(rows: usize) -> Reading {
        Reading {
            rows: Vec::with_capacity(rows),
            blocks: Vec::new(),
            periods: Interned::default(),
            marks: Interned::default(),
            snapshots: Interned::default(),
            // Eurostat's value texts are mostly 4 to 7 bytes.
            texts: String::with_capacity(rows * 6),
            series_ids: HashSet::default(),
            datasets: 0,
            unfit: 0,
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            rows: self.rows.len(),
            blocks: self.blocks.len(),
            texts: self.texts.len(),
            periods: self.periods.texts.len(),
            marks: self.marks.texts.len(),
            snapshots: self.snapshots.texts.len(),
        }
    }

    fn back_to(&mut self, mark: Mark) {
        self.rows.truncate(mark.rows);
        self.blocks.truncate(mark.blocks);
        self.texts.truncate(mark.texts);
        self.periods.truncate(mark.periods);
        self.marks.truncate(mark.marks);
        self.snapshots.truncate(mark.snapshots);
    }

    /// Bytes held once the series of the dataset being read, `more_series`, are too.
    fn bytes(&self, more_series: usize) -> usize {
        held_bytes(
            self.rows.len(),
            self.texts.len(),
            self.blocks.len(),
            self.series_ids.len() + more_series,
        )
    }

    /// Reads the rows of a dataset, of `dataset_series` series, through `stmt` given `args`:
    /// Err when they take what is held past `budget`, or hold what the compact form cannot.
    fn dataset(
        &mut self,
        stmt: &mut super::sql::Stmt<'_>,
        args: &[&dyn super::sql::Param],
        dataset_series: usize,
        budget: usize,
    ) -> StoreResult<Result<(), NotHeld>> {
        let mut read = stmt.query(args)?;
        while let Some(r) = read.next_row()? {
            let r = &r.row();
            let (series_id, region): (i64, &str) = (r.get(0)?, r.text(1)?);
            let new_block = self
                .blocks
                .last()
                .is_none_or(|b| b.series_id != series_id || b.region != region);
            if new_block {
                let Ok(start) = u32::try_from(self.rows.len()) else {
                    return Ok(Err(NotHeld::TooLarge));
                };
                self.blocks.push(Block {
                    series_id,
                    region: CompactString::new(region),
                    start,
                });
            }
            let value_text = r.text(4)?;
            let (citation, value, snapshot_id, src_line): (&str, Option<f64>, i64, i64) =
                (r.text(7)?, r.get(3)?, r.get(8)?, r.get(9)?);
            let (period, flags, conf_status) = (r.text(2)?, r.text(5)?, r.text(6)?);
            let (texts, blocks) = (&self.texts, &self.blocks);
            let (periods, marks) = (&mut self.periods, &mut self.marks);
            let snapshots = &mut self.snapshots;
            let row = (|| {
                Some(Row {
                    value: value.unwrap_or(f64::NAN),
                    src_line: u32::try_from(src_line).ok()?,
                    text_at: u32::try_from(texts.len()).ok()?,
                    block: u32::try_from(blocks.len() - 1).ok()?,
                    text_len: u8::try_from(value_text.len()).ok()?,
                    period: periods.place(period, |t| CompactString::new(t))?,
                    flags: marks.place(flags, |t| CompactString::new(t))?,
                    conf_status: marks.place(conf_status, |t| CompactString::new(t))?,
                    snapshot: snapshots.place(&snapshot_id, |&id| id)?,
                    citation: is_well_formed(citation)
                        .then(|| base32_lower_decode(&citation.as_bytes()[PREFIX.len()..]))??,
                })
            })();
            let Some(row) = row else {
                return Ok(Err(NotHeld::Unfit));
            };
            self.texts.push_str(value_text);
            self.rows.push(row);
            if self.bytes(dataset_series) > budget {
                return Ok(Err(NotHeld::TooLarge));
            }
        }
        Ok(Ok(()))
    }

    /// The rows read, indexed.
    fn finish(self, public_datasets: usize) -> PublicRows {
        let Reading {
            mut rows,
            blocks,
            periods,
            marks,
            snapshots,
            mut texts,
            series_ids,
            datasets,
            unfit,
        } = self;
        let mut by_citation: Vec<u32> = (0..rows.len() as u32).collect();
        by_citation.sort_unstable_by_key(|&i| rows[i as usize].citation);
        let buckets = Buckets::for_rows(rows.len());
        // Each bucket begins where the first id of its bucket or a later one stands.
        let mut by_bucket: Vec<u32> = Vec::with_capacity(buckets.count() + 1);
        for (at, &i) in by_citation.iter().enumerate() {
            let bucket = buckets.of(&rows[i as usize].citation);
            by_bucket.resize(by_bucket.len().max(bucket + 1), at as u32);
        }
        by_bucket.resize(buckets.count() + 1, by_citation.len() as u32);
        let by_key = (blocks.iter().enumerate())
            .map(|(i, b)| ((b.series_id, b.region.clone()), i as u32))
            .collect();
        rows.shrink_to_fit();
        texts.shrink_to_fit();
        PublicRows {
            series: series_ids,
            datasets: (datasets, public_datasets, unfit),
            rows,
            blocks,
            by_key,
            by_citation,
            by_bucket,
            buckets,
            periods: periods.texts,
            marks: marks.texts,
            snapshots: snapshots.texts,
            texts,
        }
    }
}

impl PublicRows {
    /// Reads the current rows of as many of `catalogue`'s datasets as fit `budget`, the smallest
    /// first (as the import counted their rows), each dataset's in (series, region, period)
    /// order (the order of the current-row index, so nothing is sorted); Err as
    /// [`PublicData::load`] says.
    fn load(
        db: &Db<'_>,
        catalogue: &PublicCatalogue,
        budget: usize,
    ) -> StoreResult<Result<PublicRows, NotHeld>> {
        let mut datasets: Vec<_> = (catalogue.datasets().iter())
            .filter_map(|d| {
                let series = catalogue.series_of(d.id)?;
                let counted: i64 = series.iter().map(|s| s.obs_count).sum();
                let counted = usize::try_from(counted).unwrap_or(usize::MAX);
                Some((counted, d.code.as_str(), d.id, series))
            })
            .collect();
        datasets.sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        // The buffers are sized once, for the datasets that fit as counted: grown by doubling,
        // they would take up to twice the budget while one is copied.
        let mut planned = 0usize;
        for &(counted, ..) in &datasets {
            match planned.checked_add(counted) {
                Some(more) if more.saturating_mul(ROW_BYTES) <= budget => planned = more,
                _ => break,
            }
        }
        let mut read = Reading::with_capacity(planned);
        let mut stmt = db.prepare_streamed(
            "SELECT series_id, region_code, period, value, value_text, flags, conf_status,
                    citation_id, snapshot_id, src_line
             FROM v_observations
             WHERE series_id IN (SELECT id FROM v_series WHERE dataset_id = ?1)
               AND superseded_by IS NULL
             ORDER BY series_id, region_code, period",
        )?;
        for (counted, _, dataset_id, series) in &datasets {
            let fits = (read.rows.len().checked_add(*counted))
                .and_then(|rows| rows.checked_mul(ROW_BYTES))
                .is_some_and(|bytes| bytes <= budget);
            if !fits {
                // The rest are larger still, as counted.
                break;
            }
            let before = read.mark();
            match read.dataset(&mut stmt, params![dataset_id], series.len(), budget)? {
                Ok(()) => {
                    read.series_ids.extend(series.iter().map(|s| s.id));
                    read.datasets += 1;
                }
                Err(reason) => {
                    read.back_to(before);
                    if reason == NotHeld::TooLarge {
                        break;
                    }
                    read.unfit += 1;
                }
            }
        }
        if read.datasets == 0 {
            // Those that fit the budget, if any, hold what the compact form cannot.
            return Ok(Err(if read.unfit > 0 {
                NotHeld::Unfit
            } else {
                NotHeld::TooLarge
            }));
        }
        Ok(Ok(read.finish(datasets.len())))
    }

    /// The rows of dataset `dataset_id` (its series `series`) current in its snapshot
    /// `snapshot_id` (see [`super::as_of`]), within `budget`; Err as [`PublicData::load`] says.
    pub(super) fn load_as_of(
        db: &Db<'_>,
        dataset_id: i64,
        series: &[super::rows::datasets::SeriesRow],
        snapshot_id: i64,
        budget: usize,
    ) -> StoreResult<Result<PublicRows, NotHeld>> {
        let mut stmt = db.prepare_streamed(&super::as_of::DATASET_ROWS_AT)?;
        let mut read = Reading::with_capacity(0);
        let args = params![dataset_id, snapshot_id];
        if let Err(reason) = read.dataset(&mut stmt, args, series.len(), budget)? {
            return Ok(Err(reason));
        }
        read.series_ids.extend(series.iter().map(|s| s.id));
        read.datasets = 1;
        Ok(Ok(read.finish(1)))
    }

    /// Whether the rows of `series_id` are held (its dataset's all are).
    pub fn holds(&self, series_id: i64) -> bool {
        self.series.contains(&series_id)
    }

    /// Datasets held, public datasets in all, and those not held for what the compact form
    /// cannot hold.
    pub fn datasets(&self) -> (usize, usize, usize) {
        self.datasets
    }

    /// Current rows held.
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// Bytes held, as the budget counts them.
    pub fn bytes(&self) -> usize {
        held_bytes(
            self.rows.len(),
            self.texts.len(),
            self.blocks.len(),
            self.series.len(),
        )
    }

    /// The rows of `series_id` in `region`, by period (none when it has no block).
    pub fn series_rows(&self, series_id: i64, region: &str) -> Vec<ObsRow> {
        match self.block(series_id, region) {
            Some(b) => self
                .block_rows(b)
                .map(|row| self.obs(series_id, row))
                .collect(),
            None => Vec::new(),
        }
    }

    /// [`PublicRows::series_rows`] without what cites each row.
    pub fn series_values(&self, series_id: i64, region: &str) -> Vec<RowValue> {
        match self.block(series_id, region) {
            Some(b) => self.block_rows(b).map(|row| self.row_value(row)).collect(),
            None => Vec::new(),
        }
    }

    /// Which of `regions` have rows of `series_id`, and how many of those have a value at each
    /// period: counted by the rows' period numbers, so no row is made into a value.
    pub fn coverage<'r>(
        &self,
        series_id: i64,
        regions: impl Iterator<Item = &'r str>,
    ) -> SeriesCoverage {
        let mut counts = vec![0usize; self.periods.len()];
        let mut with_rows = Vec::new();
        for (at, region) in regions.enumerate() {
            let Some(b) = self.block(series_id, region) else {
                continue;
            };
            with_rows.push(at);
            for row in self.block_rows(b).filter(|row| !row.value.is_nan()) {
                counts[usize::from(row.period)] += 1;
            }
        }
        let mut periods: Vec<(CompactString, usize)> = counts
            .into_iter()
            .enumerate()
            .filter(|(_, n)| *n > 0)
            .map(|(p, n)| (self.periods[p].clone(), n))
            .collect();
        periods.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        SeriesCoverage {
            regions: with_rows,
            periods,
            rows: Vec::new(),
        }
    }

    /// The row of `series_id` in `region` at `period`, if there is one.
    pub fn value_at(&self, series_id: i64, region: &str, period: &str) -> Option<ObsRow> {
        let b = self.block(series_id, region)?;
        self.block_rows(b)
            .find(|row| self.periods[usize::from(row.period)] == period)
            .map(|row| self.obs(series_id, row))
    }

    /// The current row cited as `id`, if it is one of these.
    pub fn cited(&self, id: &str) -> Option<CitedRow<'_>> {
        if !is_well_formed(id) {
            return None;
        }
        let bits: [u8; 13] = base32_lower_decode(&id.as_bytes()[PREFIX.len()..])?;
        let bucket = self.buckets.of(&bits);
        let (start, end) = (self.by_bucket[bucket], self.by_bucket[bucket + 1]);
        let candidates = &self.by_citation[start as usize..end as usize];
        // Read one after another rather than by a binary search: no row's address waits on the
        // comparison before it, so their cache misses overlap.
        let row = candidates
            .iter()
            .map(|&i| &self.rows[i as usize])
            .find(|row| row.citation == bits)?;
        let block = &self.blocks[row.block as usize];
        Some(CitedRow {
            obs: self.obs(block.series_id, row),
            region: &block.region,
            src_line: i64::from(row.src_line),
        })
    }

    /// Each series' rows held: how many rows and regions, and the first and last period, by
    /// series id.
    pub fn coverage_by_series(&self) -> HashMap<i64, SeriesCounts> {
        let mut out: HashMap<i64, SeriesCounts> = HashMap::new();
        for (at, block) in self.blocks.iter().enumerate() {
            let counts = out.entry(block.series_id).or_default();
            counts.regions += 1;
            for row in self.block_rows(at) {
                let period = &self.periods[usize::from(row.period)];
                counts.rows += 1;
                if counts.first.as_ref().is_none_or(|p| period < p) {
                    counts.first = Some(period.clone());
                }
                if counts.last.as_ref().is_none_or(|p| period > p) {
                    counts.last = Some(period.clone());
                }
            }
        }
        out
    }

    fn block(&self, series_id: i64, region: &str) -> Option<usize> {
        let key = (series_id, CompactString::new(region));
        self.by_key.get(&key).map(|&i| i as usize)
    }

    fn block_rows(&self, block: usize) -> impl Iterator<Item = &Row> {
        let start = self.blocks[block].start as usize;
        let end = self
            .blocks
            .get(block + 1)
            .map_or(self.rows.len(), |b| b.start as usize);
        self.rows[start..end].iter()
    }

    fn obs(&self, series_id: i64, row: &Row) -> ObsRow {
        let text: Range<usize> = row.text_at as usize..row.text_at as usize + row.text_len as usize;
        let RowValue {
            period,
            value,
            flags,
            conf_status,
            whole: _,
        } = self.row_value(row);
        ObsRow {
            citation_id: CitationId::from_bits(&row.citation),
            series_id,
            period,
            value,
            value_text: CompactString::new(&self.texts[text]),
            flags,
            conf_status,
            snapshot_id: self.snapshots[usize::from(row.snapshot)],
        }
    }

    fn row_value(&self, row: &Row) -> RowValue {
        RowValue {
            period: self.periods[usize::from(row.period)].clone(),
            value: (!row.value.is_nan()).then_some(row.value),
            flags: self.marks[usize::from(row.flags)].clone(),
            conf_status: self.marks[usize::from(row.conf_status)].clone(),
            whole: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Buckets, IDS_PER_BUCKET};

    /// Buckets number ids in their order, none past the last, for every count of rows.
    #[test]
    fn buckets_keep_the_order_of_ids_and_stay_in_range() {
        let ids: Vec<[u8; 13]> = [0u8, 1, 0x7f, 0x80, 0xfe, 0xff]
            .iter()
            .flat_map(|&b| [[b; 13], [b, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]])
            .collect();
        for rows in [0, 1, 2, 3, 5, 1000, 570_289, u32::MAX as usize] {
            let buckets = Buckets::for_rows(rows);
            let at_least = rows.div_ceil(IDS_PER_BUCKET).max(1);
            assert!(buckets.count() >= at_least, "{rows}");
            assert!(buckets.count() < 2 * at_least, "{rows}");
            let mut sorted = ids.clone();
            sorted.sort();
            let numbers: Vec<usize> = sorted.iter().map(|id| buckets.of(id)).collect();
            assert!(numbers.windows(2).all(|w| w[0] <= w[1]), "{rows}");
            assert!(numbers.iter().all(|&n| n < buckets.count()), "{rows}");
        }
    }
}
