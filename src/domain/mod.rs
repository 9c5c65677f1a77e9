//! Answers about regions and data: what the endpoints compute, independent of HTTP. Every number
//! put into an answer comes from a cited row ([`Cited`]) or is derived in code from cited rows
//! ([`Derived`]), and the citations used are collected for `meta.citations`.

pub mod briefings;
pub mod citations;
pub mod compare;
pub mod correlations;
pub mod datasets;
mod error;
pub mod export;
pub mod maps;
pub mod profile;
pub mod regions;
pub mod revisions;
pub mod series;
pub mod stats;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use compact_str::CompactString;
use serde::Serialize;

use crate::bundled::Catalogue;
use crate::citation_id::CitationId;
use crate::json_text;
use crate::store::Scoped;
use crate::store::datasets::DatasetRow;
use crate::store::observations::{CitationRow, ObsRow};
pub use error::{Error, Rejection};

/// An Eurostat flag with its meaning.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Flag {
    pub code: CompactString,
    pub meaning: CompactString,
}

/// Flags a reader must see beside a value before comparing it: a break in series, provisional,
/// estimated, low reliability, confidential, a definition that differs, revised.
pub fn is_noteworthy_flag(code: &str) -> bool {
    matches!(code, "b" | "p" | "e" | "u" | "c" | "d" | "r")
}

/// Flags of a row, explained; an SDMX confidentiality status `C` shows as flag `c`.
pub fn explain_flags(catalogue: &Catalogue, flags: &str, conf_status: &str) -> Vec<Flag> {
    let mut out: Vec<Flag> = flags
        .chars()
        .map(|c| Flag {
            code: CompactString::new(c.encode_utf8(&mut [0; 4])),
            meaning: CompactString::new(catalogue.flag_meaning(c)),
        })
        .collect();
    if conf_status.eq_ignore_ascii_case("c") && !flags.contains('c') {
        out.push(Flag {
            code: "c".into(),
            meaning: CompactString::new(catalogue.flag_meaning('c')),
        });
    }
    out
}

/// A published value and the citation that resolves to its primary row. Answers write it with
/// [`Cited::write_json`]; its `Serialize` is what that is tested against.
#[derive(Debug, Clone)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct Cited {
    pub period: CompactString,
    /// Null when the source publishes only a flag (e.g. confidential).
    #[cfg_attr(test, serde(serialize_with = "opt_number"))]
    pub value: Option<f64>,
    pub flags: Vec<Flag>,
    pub citation: CitationId,
}

impl Cited {
    /// `{"period":…,"value":…,"flags":[…],"citation":…}`, byte for byte what serde_json writes
    /// for it: a profile writes a hundred or more, and serde's way through its fields and their
    /// names took three times the instructions.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"period\":");
        json_text::push_str(out, &self.period);
        out.extend_from_slice(b",\"value\":");
        push_opt_number(out, self.value);
        out.extend_from_slice(b",\"flags\":");
        write_flags(&self.flags, out);
        out.extend_from_slice(b",\"citation\":");
        self.citation.push_json(out);
        out.push(b'}');
    }

    /// `cited` as a JSON array.
    pub fn write_list(cited: &[Cited], out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, c) in cited.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            c.write_json(out);
        }
        out.push(b']');
    }

    /// `cited` as JSON, or `null`.
    pub fn write_opt(cited: Option<&Cited>, out: &mut Vec<u8>) {
        match cited {
            Some(c) => c.write_json(out),
            None => out.extend_from_slice(b"null"),
        }
    }
}

/// `flags` as a JSON array of `{"code":…,"meaning":…}`.
fn write_flags(flags: &[Flag], out: &mut Vec<u8>) {
    out.push(b'[');
    for (i, flag) in flags.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"code\":");
        json_text::push_str(out, &flag.code);
        out.extend_from_slice(b",\"meaning\":");
        json_text::push_str(out, &flag.meaning);
        out.push(b'}');
    }
    out.push(b']');
}

/// A figure computed in code from cited values; `citations` are its inputs.
#[derive(Debug, Clone, Serialize)]
pub struct Derived {
    pub kind: &'static str,
    #[serde(serialize_with = "number")]
    pub value: f64,
    pub description: String,
    pub citations: Vec<CitationId>,
}

/// A warning a careful analyst should read before using the numbers.
#[derive(Debug, Clone, Serialize)]
pub struct Warning {
    pub code: &'static str,
    pub message: String,
}

/// The citations and snapshots an answer used, for its `meta`.
#[derive(Debug, Default)]
pub struct Sources {
    snapshots: BTreeSet<String>,
    /// Each cited (dataset, region)'s JSON text before a citation's period, escaped once.
    groups: Vec<Group>,
    /// Each cited dataset's id and JSON text after a citation's period (`,"source_url":…}`): a
    /// list, as an answer cites at most the datasets its caller sees (the public ones and at
    /// most 100 of its own).
    endings: Vec<(i64, Vec<u8>)>,
    /// Every cited row, in the order cited, possibly more than once: sorted and deduplicated
    /// when written, which costs less than keeping an ordered map while citing.
    cited: Vec<CitedRow>,
    /// Citations of what is no observation (a region's row of the classification, a dataset's
    /// snapshot), each with its entry of `meta.citations` as JSON text.
    others: BTreeMap<CitationId, Vec<u8>>,
}

/// The members a (dataset, region)'s citations share, as JSON text: `before` the period is
/// `{"dataset":…,"region":…,"period":`; after it comes the dataset's ending (its place in
/// `Sources::endings`), kept once per dataset since a matrix cites thousands of groups.
#[derive(Debug)]
struct Group {
    before: Vec<u8>,
    ending: usize,
}

impl Group {
    fn new(dataset_code: &str, region: &str, ending: usize) -> Group {
        // Room for the text unless it needs escaping, so it is not grown on the way.
        let mut before = Vec::with_capacity(40 + dataset_code.len() + region.len());
        before.extend_from_slice(b"{\"dataset\":");
        json_text::push_str(&mut before, dataset_code);
        before.extend_from_slice(b",\"region\":");
        json_text::push_str(&mut before, region);
        before.extend_from_slice(b",\"period\":");
        Group { before, ending }
    }
}

/// `,"source_url":…}`, what follows the period of each citation of a dataset.
fn ending(source_url: Option<&str>) -> Vec<u8> {
    let mut ending = Vec::with_capacity(24 + source_url.map_or(0, str::len));
    ending.extend_from_slice(b",\"source_url\":");
    match source_url {
        Some(url) => json_text::push_str(&mut ending, url),
        None => ending.extend_from_slice(b"null"),
    }
    ending.push(b'}');
    ending
}

#[derive(Debug)]
struct CitedRow {
    citation_id: CitationId,
    period: CompactString,
    group: usize,
}

impl Sources {
    /// `{"snapshots": [...], "citations": {id: {"dataset", "region", "period", "source_url"}}}`,
    /// the citations ordered by id, as JSON text byte for byte what serde_json would write for
    /// the same values (see [`json_text`]).
    pub fn to_json(self) -> Vec<u8> {
        // Sorted as numbers, each the first 12 bytes of an id above the place it was cited at
        // (32 bits): they move and compare faster than (id, place) pairs. A run with the same
        // first bytes (an id cited twice, or ids that share them) is then put in (id, place)
        // order, so of an id cited twice the first citing stays, whatever the sort.
        let citings = u32::try_from(self.cited.len()).expect("fewer than 2^32 citings");
        let mut order: Vec<u128> = (self.cited.iter().zip(0..citings))
            .map(|(c, place)| c.citation_id.leading() >> 32 << 32 | u128::from(place))
            .collect();
        let place = |key: u128| key as u32 as usize;
        let id = |key: u128| self.cited[place(key)].citation_id;
        let first_bytes = |key: u128| key >> 32;
        order.sort_unstable();
        for run in order.chunk_by_mut(|&a, &b| first_bytes(a) == first_bytes(b)) {
            if run.len() > 1 {
                run.sort_unstable_by(|&a, &b| id(a).cmp(&id(b)).then(a.cmp(&b)));
            }
        }
        // An id is one row: every citing of it names the same dataset, region and period.
        order.dedup_by(|a, b| first_bytes(*a) == first_bytes(*b) && id(*a) == id(*b));
        let mut out = Vec::with_capacity(
            64 + order
                .iter()
                .map(|&key| {
                    let c = &self.cited[place(key)];
                    let group = &self.groups[c.group];
                    8 + crate::citation_id::ID_LEN
                        + c.period.len()
                        + group.before.len()
                        + self.endings[group.ending].1.len()
                })
                .sum::<usize>(),
        );
        out.extend_from_slice(b"{\"snapshots\":[");
        for (i, snapshot) in self.snapshots.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json_text::push_str(&mut out, snapshot);
        }
        out.extend_from_slice(b"],\"citations\":{");
        // The rows' citations and the others', merged in id order.
        let mut others = self.others.iter().peekable();
        let mut first = true;
        let mut separate = |out: &mut Vec<u8>| {
            if !std::mem::take(&mut first) {
                out.push(b',');
            }
        };
        for &key in &order {
            let c = &self.cited[place(key)];
            while let Some((id, entry)) = others.next_if(|(id, _)| **id < c.citation_id) {
                separate(&mut out);
                write_other(&mut out, id, entry);
            }
            let group = &self.groups[c.group];
            separate(&mut out);
            c.citation_id.push_json(&mut out);
            out.push(b':');
            out.extend_from_slice(&group.before);
            json_text::push_str(&mut out, &c.period);
            out.extend_from_slice(&self.endings[group.ending].1);
        }
        for (id, entry) in others {
            separate(&mut out);
            write_other(&mut out, id, entry);
        }
        out.extend_from_slice(b"}}");
        out
    }

    /// The answer's `meta`: these sources and the members of `extra` (a JSON object, such as a
    /// list's `total`).
    pub fn to_json_with(self, extra: &serde_json::Value) -> Vec<u8> {
        let mut out = self.to_json();
        if let Some(members) = extra.as_object().filter(|m| !m.is_empty()) {
            let text = serde_json::to_vec(members).expect("a JSON object serialises");
            out.pop();
            out.push(b',');
            out.extend_from_slice(&text[1..]);
        }
        out
    }
}

/// `id:entry` of `meta.citations`.
fn write_other(out: &mut Vec<u8>, id: &CitationId, entry: &[u8]) {
    id.push_json(out);
    out.push(b':');
    out.extend_from_slice(entry);
}

/// Turns rows into cited values while recording what they cite. Source URLs and snapshot ids
/// are looked up once per dataset and snapshot.
pub struct Citer<'a> {
    store: &'a Scoped,
    catalogue: &'a Catalogue,
    /// The group of each cited (dataset id, region) in `sources.groups`; the last one used is
    /// tried first, since rows come a series at a time.
    /// Hashed with foldhash (seeded per process), cheaper than SipHash for such short keys.
    groups: HashMap<(i64, CompactString), usize, foldhash::fast::RandomState>,
    last_group: Option<(i64, CompactString, usize)>,
    /// Snapshots already in `sources.snapshots`, by row id: an ordered set, not a list, since an
    /// account's rows may come from as many snapshots as it made uploads.
    named: BTreeSet<i64>,
    last_snapshot: Option<i64>,
    pub sources: Sources,
}

impl<'a> Citer<'a> {
    pub fn new(store: &'a Scoped, catalogue: &'a Catalogue) -> Self {
        Citer {
            store,
            catalogue,
            groups: HashMap::default(),
            last_group: None,
            named: BTreeSet::new(),
            last_snapshot: None,
            sources: Sources::default(),
        }
    }

    pub fn cite(
        &mut self,
        dataset: &DatasetRow,
        region: &str,
        row: &ObsRow,
    ) -> Result<Cited, Error> {
        self.record(dataset.id, &dataset.code, dataset.source_id, region, row)?;
        Ok(Cited {
            period: row.period.clone(),
            value: row.value,
            flags: explain_flags(self.catalogue, &row.flags, &row.conf_status),
            citation: row.citation_id,
        })
    }

    /// [`Citer::cite`] for each of `rows`, into lists made at their size: collected through
    /// `Result`, they grew four times over for a series of twenty periods.
    pub fn cite_all(
        &mut self,
        dataset: &DatasetRow,
        region: &str,
        rows: &[ObsRow],
    ) -> Result<Vec<Cited>, Error> {
        self.sources.cited.reserve(rows.len());
        let mut cited = Vec::with_capacity(rows.len());
        for row in rows {
            cited.push(self.cite(dataset, region, row)?);
        }
        Ok(cited)
    }

    /// A region's classification row (None for a code seen only in data, whose fields are all
    /// derived from the code), listed in `meta.citations`: `{"kind": "classification",
    /// "region", "file", "source_url"}`.
    pub fn cite_region(&mut self, region: &crate::store::regions::RegionRow) -> Option<CitationId> {
        let id = region.citation?;
        if !self.sources.others.contains_key(&id) {
            let file = match region.classification.as_str() {
                "aggregate" => crate::store::classification::CATALOGUE_FILE,
                _ => crate::store::classification::REGIONS_FILE,
            };
            let entry = serde_json::json!({
                "kind": "classification",
                "region": region.code,
                "file": file,
                "source_url": self.catalogue.classification.as_ref().and_then(|s| s.landing_url.as_deref()),
            });
            self.sources
                .others
                .insert(id, serde_json::to_vec(&entry).expect("JSON serialises"));
        }
        Some(id)
    }

    /// A dataset's snapshot, listed in `meta.citations` (`{"kind": "snapshot", "dataset",
    /// "file", "source_url"}`) and `meta.snapshots`. None for a snapshot without a citation id
    /// (made before they had one, until the migration gives it one).
    pub fn cite_snapshot(
        &mut self,
        dataset: &DatasetRow,
        snapshot: &crate::store::datasets::SnapshotRow,
    ) -> Result<Option<CitationId>, Error> {
        let Some(id) = snapshot.citation_id.as_deref().and_then(CitationId::new) else {
            return Ok(None);
        };
        self.sources.snapshots.insert(snapshot.public_id.clone());
        if !self.sources.others.contains_key(&id) {
            let source = match dataset.source_id {
                Some(source) => self.store.source(source)?,
                None => None,
            };
            let entry = serde_json::json!({
                "kind": "snapshot",
                "dataset": dataset.code,
                "file": snapshot.file_name,
                "source_url": source.as_ref().and_then(|s| s.landing_url.as_deref()),
            });
            self.sources
                .others
                .insert(id, serde_json::to_vec(&entry).expect("JSON serialises"));
        }
        Ok(Some(id))
    }

    /// Names a snapshot in `meta.snapshots`.
    pub fn snapshot_named(&mut self, public_id: &str) {
        self.sources.snapshots.insert(public_id.to_owned());
    }

    /// Records a row read by its citation id (`Scoped::citation`).
    pub fn cite_row(&mut self, row: &CitationRow) -> Result<(), Error> {
        self.record(
            row.dataset_id,
            &row.dataset_code,
            row.source_id,
            &row.region_code,
            &row.obs,
        )
    }

    /// Adds the row to `meta.citations` (with its dataset's source URL, looked up once per
    /// dataset) and its snapshot to `meta.snapshots`.
    fn record(
        &mut self,
        dataset_id: i64,
        dataset_code: &str,
        source_id: Option<i64>,
        region: &str,
        row: &ObsRow,
    ) -> Result<(), Error> {
        let group = match &self.last_group {
            Some((id, code, group)) if *id == dataset_id && code == region => *group,
            _ => {
                let group = self.group(dataset_id, dataset_code, source_id, region)?;
                self.last_group = Some((dataset_id, region.into(), group));
                group
            }
        };
        // Rows mostly come from the snapshot of the row before.
        if self.last_snapshot != Some(row.snapshot_id) && self.named.insert(row.snapshot_id) {
            let public_id = self
                .store
                .snapshot_public_id(row.snapshot_id)?
                .ok_or_else(|| {
                    Error::internal(anyhow::anyhow!("snapshot {} not visible", row.snapshot_id))
                })?;
            self.sources.snapshots.insert(public_id);
        }
        self.last_snapshot = Some(row.snapshot_id);
        self.sources.cited.push(CitedRow {
            citation_id: row.citation_id,
            period: row.period.clone(),
            group,
        });
        Ok(())
    }

    /// The group of (dataset, region) in `sources.groups`, made on first use.
    fn group(
        &mut self,
        dataset_id: i64,
        dataset_code: &str,
        source_id: Option<i64>,
        region: &str,
    ) -> Result<usize, Error> {
        let key = (dataset_id, CompactString::new(region));
        if let Some(&group) = self.groups.get(&key) {
            return Ok(group);
        }
        let endings = &mut self.sources.endings;
        let ending = match endings.iter().position(|(id, _)| *id == dataset_id) {
            Some(at) => at,
            None => {
                let source = match source_id {
                    Some(id) => self.store.source(id)?,
                    None => None,
                };
                let url = source.as_ref().and_then(|s| s.landing_url.as_deref());
                endings.push((dataset_id, self::ending(url)));
                endings.len() - 1
            }
        };
        let group = self.sources.groups.len();
        self.sources
            .groups
            .push(Group::new(dataset_code, region, ending));
        self.groups.insert(key, group);
        Ok(group)
    }
}

/// Every visible dataset with a headline series, public first, a private one replacing a public
/// one of the same code (as [`Scoped::dataset`] resolves codes).
pub fn headline_datasets(store: &Scoped) -> Result<Vec<Arc<DatasetRow>>, Error> {
    let mut by_code: BTreeMap<String, Arc<DatasetRow>> = BTreeMap::new();
    let mut order = Vec::new();
    for d in store.datasets()? {
        if d.headline_series_id.is_none() {
            continue;
        }
        if !by_code.contains_key(&d.code) {
            order.push(d.code.clone());
        }
        by_code.insert(d.code.clone(), d);
    }
    Ok(order
        .into_iter()
        .filter_map(|code| by_code.remove(&code))
        .collect())
}

/// Whole numbers are written without a fraction (`4729243`, not `4729243.0`), as sources print
/// them; the exact source text is in the citation.
pub fn number<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    match whole(*v) {
        Some(n) => s.serialize_i64(n),
        None => s.serialize_f64(*v),
    }
}

/// `v` as [`opt_number`] serialises it.
fn push_opt_number(out: &mut Vec<u8>, v: Option<f64>) {
    match v {
        Some(v) => push_number(out, v),
        None => out.extend_from_slice(b"null"),
    }
}

/// `v` as [`number`] serialises it.
fn push_number(out: &mut Vec<u8>, v: f64) {
    match whole(v) {
        Some(n) => json_text::push_int(out, n),
        None => json_text::push_f64(out, v),
    }
}

/// `v` as a whole number, if it is one that an `i64` holds exactly: below 2^53 every whole f64 is.
/// (Checked by converting it and back: `fract` is a call into libm on baseline x86-64.)
fn whole(v: f64) -> Option<i64> {
    let n = v as i64;
    (n as f64 == v && v.abs() < 9.0e15).then_some(n)
}

pub fn opt_number<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => number(v, s),
        None => s.serialize_none(),
    }
}

/// Decimal places printed in a value's source text (`447217.64` → 2).
pub fn decimals(value_text: &str) -> usize {
    value_text.split_once('.').map_or(0, |(_, f)| f.len())
}

/// Rounds to `places` decimals, so a difference of two published values does not show
/// floating-point noise beyond the precision of its inputs.
pub fn round_to(value: f64, places: usize) -> f64 {
    let factor = 10f64.powi(places.min(12) as i32);
    let scaled = value * factor;
    // A value too large to scale has no fractional digits left to round.
    if !scaled.is_finite() {
        return value;
    }
    scaled.round() / factor
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_confidentiality_are_explained() {
        let cat = Catalogue::bundled();
        let flags = explain_flags(&cat, "bp", "");
        assert_eq!(flags.len(), 2);
        assert_eq!(flags[0].meaning, "break in time series");
        assert_eq!(flags[1].meaning, "provisional");
        let conf = explain_flags(&cat, "", "C");
        assert_eq!(conf[0].code, "c");
        assert_eq!(conf[0].meaning, "confidential");
    }

    #[test]
    fn whole_numbers_serialise_without_a_fraction() {
        let cited = Cited {
            period: "2022".into(),
            value: Some(4729243.0),
            flags: vec![],
            citation: CitationId::new("cit_x").unwrap(),
        };
        let text = serde_json::to_string(&cited).unwrap();
        assert!(text.contains("\"value\":4729243,"), "{text}");
        // Whole as the definition has it, at the edges of what an i64 holds and beyond.
        for v in [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -3.0,
            4729243.0,
            8.999e15,
            9.0e15,
            -9.0e15,
            1.0e19,
            1.0e21,
            -1.0e21,
            1.0e-7,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
        ] {
            let defined = (v.fract() == 0.0 && v.abs() < 9.0e15).then_some(v as i64);
            assert_eq!(whole(v), defined, "{v}");
        }
        let derived = Derived {
            kind: "ratio",
            value: 0.5,
            description: String::new(),
            citations: vec![],
        };
        assert!(
            serde_json::to_string(&derived)
                .unwrap()
                .contains("\"value\":0.5")
        );
    }

    /// Cited values of every shape: texts that need escapes, no value, whole numbers large and
    /// small, fractions, values no JSON number holds, and zero to two flags.
    pub(crate) fn cited_values() -> Vec<Cited> {
        let flag = |code: &str, meaning: &str| Flag {
            code: code.into(),
            meaning: meaning.into(),
        };
        let values = [
            None,
            Some(4729243.0),
            Some(0.78),
            Some(-0.0),
            Some(-12.5),
            Some(9.0e15),
            Some(1.0e21),
            Some(1.0e-7),
            Some(f64::NAN),
            Some(f64::INFINITY),
        ];
        let flags = [
            vec![],
            vec![flag("p", "provisional")],
            vec![
                flag("b", "break in \"time\" series"),
                flag("c", "confidential\n"),
            ],
        ];
        let mut out = Vec::new();
        for (i, value) in values.into_iter().enumerate() {
            out.push(Cited {
                period: if i % 3 == 0 { "2020-Q\"1" } else { "2021" }.into(),
                value,
                flags: flags[i % flags.len()].clone(),
                citation: CitationId::new("cit_oqrh2d7jvc5jqlzuutgd").unwrap(),
            });
        }
        out
    }

    #[test]
    fn cited_values_are_written_as_serde_json_writes_them() {
        let values = cited_values();
        for cited in &values {
            let mut ours = Vec::new();
            cited.write_json(&mut ours);
            assert_eq!(ours, serde_json::to_vec(cited).unwrap(), "{cited:?}");
        }
        let mut ours = Vec::new();
        Cited::write_list(&values, &mut ours);
        assert_eq!(ours, serde_json::to_vec(&values).unwrap());
        for cited in [None, values.get(1)] {
            let mut ours = Vec::new();
            Cited::write_opt(cited, &mut ours);
            assert_eq!(ours, serde_json::to_vec(&cited).unwrap());
        }
    }

    #[test]
    fn meta_lists_each_citation_once_ordered_by_id() {
        let mut sources = Sources::default();
        sources.snapshots.insert("snp_b".into());
        sources.snapshots.insert("snp_a".into());
        sources
            .endings
            .push((1, ending(Some("https://x/?a=1&b=\\"))));
        sources.endings.push((2, ending(None)));
        sources.groups.push(Group::new("gdp", "DE\"1", 0));
        sources.groups.push(Group::new("own", "FR10", 1));
        for (id, period, group) in [
            ("cit_c", "2020", 0),
            ("cit_a", "2021", 1),
            ("cit_c", "2020", 0),
            ("cit_b", "2019\n", 0),
            // Equal in their first 16 bytes.
            ("cit_0123456789abZ", "2018", 1),
            ("cit_0123456789abA", "2017", 1),
        ] {
            sources.cited.push(CitedRow {
                citation_id: CitationId::new(id).unwrap(),
                period: period.into(),
                group,
            });
        }
        // Citations of what is no row, merged in id order.
        sources.others.insert(
            CitationId::new("cit_b0").unwrap(),
            br#"{"kind":"classification","region":"DE21"}"#.to_vec(),
        );
        sources.others.insert(
            CitationId::new("cit_z").unwrap(),
            br#"{"kind":"snapshot","dataset":"own"}"#.to_vec(),
        );
        sources.others.insert(
            CitationId::new("cit_0").unwrap(),
            br#"{"kind":"snapshot","dataset":"gdp"}"#.to_vec(),
        );
        // The members in the order the API documents, as serde_json writes a struct.
        let expected = concat!(
            r#"{"snapshots":["snp_a","snp_b"],"citations":{"#,
            r#""cit_0":{"kind":"snapshot","dataset":"gdp"},"#,
            r#""cit_0123456789abA":{"dataset":"own","region":"FR10","period":"2017","source_url":null},"#,
            r#""cit_0123456789abZ":{"dataset":"own","region":"FR10","period":"2018","source_url":null},"#,
            r#""cit_a":{"dataset":"own","region":"FR10","period":"2021","source_url":null},"#,
            r#""cit_b":{"dataset":"gdp","region":"DE\"1","period":"2019\n","source_url":"https://x/?a=1&b=\\"},"#,
            r#""cit_b0":{"kind":"classification","region":"DE21"},"#,
            r#""cit_c":{"dataset":"gdp","region":"DE\"1","period":"2020","source_url":"https://x/?a=1&b=\\"},"#,
            r#""cit_z":{"kind":"snapshot","dataset":"own"}}}"#,
        );
        assert_eq!(String::from_utf8(sources.to_json()).unwrap(), expected);
    }

    #[test]
    fn derived_values_keep_the_precision_of_their_inputs() {
        assert_eq!(decimals("447217.64"), 2);
        assert_eq!(decimals("83"), 0);
        assert_eq!(round_to(0.1 + 0.2, 1), 0.3);
        assert_eq!(round_to(4729243.0 - 4719716.0, 0), 9527.0);
        assert_eq!(round_to(1e300, 2), 1e300);
    }
}
