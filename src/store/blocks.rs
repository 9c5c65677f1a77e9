//! Observation blocks: each region's current rows of a series, in period order, in one row of
//! `observation_blocks`. A profile cites about 300 current rows (a dozen headline series of 25
//! periods) and a comparison 75; read from `observations` row by row (an index step, a table
//! lookup and eight columns each), they were most of an uncached answer's time. Read as blocks,
//! a profile takes a dozen rows and a comparison three. Every import writes again the blocks
//! of the series and regions whose rows it added or revised, in its own transaction, so a block
//! always holds exactly the current rows of `observations`.
//!
//! A block is a sequence of rows; a row is its snapshot's row id (8 bytes, little-endian), a
//! byte saying whether a value follows (0 or 1) and the value (8 bytes, an IEEE 754 double,
//! little-endian), then the texts period, value text, flags, confidentiality status and citation
//! id, each as its length (LEB128) and its UTF-8 bytes.

use super::sql::{Db, SqlResult, params};
use compact_str::CompactString;

use super::error::{StoreError, StoreResult};
use super::rows::observations::ObsRow;
use crate::citation_id::CitationId;

/// Writes the blocks of `series_id` again from its current rows in `observations`, one per
/// region with any (a region left with none has no block). Read in one pass over the
/// current-row index in its order and written in bulk: an import writes the blocks of every
/// series it touched, on PostgreSQL across the network.
pub fn write_series(tx: &Db<'_>, series_id: i64) -> SqlResult<()> {
    tx.prepare_cached("DELETE FROM observation_blocks WHERE series_id = ?1")?
        .execute(params![series_id])?;
    let mut read = tx.prepare_cached(
        "SELECT region_code, owner_account_id, period, value, value_text, flags, conf_status,
                citation_id, snapshot_id
         FROM observations INDEXED BY observations_current
         WHERE series_id = ?1 AND superseded_by IS NULL
         ORDER BY region_code, period",
    )?;
    let mut insert = tx.bulk_insert(
        "observation_blocks",
        &["series_id", "region_code", "owner_account_id", "rows"],
    )?;
    let mut rows = read.query(params![series_id])?;
    // The region being gathered, its owner (every row of a series belongs to its dataset's
    // one owner, or none) and its block.
    let mut region: Option<(String, Option<i64>)> = None;
    let mut block = Vec::new();
    while let Some(r) = rows.next_row()? {
        let r = &r.row();
        let code = r.text(0)?;
        if region.as_ref().is_some_and(|(c, _)| c != code) {
            if let Some((code, owner)) = region.take() {
                insert.add(params![series_id, code, owner, block])?;
            }
            block.clear();
        }
        if region.is_none() {
            region = Some((code.to_owned(), r.get(1)?));
        }
        encode_row(
            &mut block,
            r.get(8)?,
            r.get(3)?,
            [r.text(2)?, r.text(4)?, r.text(5)?, r.text(6)?, r.text(7)?],
        );
    }
    if let Some((code, owner)) = region {
        insert.add(params![series_id, code, owner, block])?;
    }
    insert.finish()
}

/// Writes every block: for a database made before blocks existed.
pub fn write_all(tx: &Db<'_>) -> SqlResult<()> {
    let series: Vec<i64> = tx
        .prepare("SELECT DISTINCT series_id FROM observations WHERE superseded_by IS NULL")?
        .query_map(params![], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for id in series {
        write_series(tx, id)?;
    }
    Ok(())
}

/// `texts`: period, value text, flags, confidentiality status, citation id.
fn encode_row(out: &mut Vec<u8>, snapshot_id: i64, value: Option<f64>, texts: [&str; 5]) {
    out.extend_from_slice(&snapshot_id.to_le_bytes());
    match value {
        Some(v) => {
            out.push(1);
            out.extend_from_slice(&v.to_le_bytes());
        }
        None => out.push(0),
    }
    for t in texts {
        let mut len = t.len();
        loop {
            let low = (len & 0x7f) as u8;
            len >>= 7;
            if len == 0 {
                out.push(low);
                break;
            }
            out.push(low | 0x80);
        }
        out.extend_from_slice(t.as_bytes());
    }
}

/// The rows of series `series_id` in the block of column `i` of `row`, appended to `out`.
pub fn read(
    row: &crate::store::sql::Row<'_>,
    i: usize,
    series_id: i64,
    out: &mut Vec<ObsRow>,
) -> StoreResult<()> {
    decode(series_id, row.blob(i)?, out)
}

/// The rows of a block of series `series_id`, appended to `out`.
fn decode(series_id: i64, mut block: &[u8], out: &mut Vec<ObsRow>) -> StoreResult<()> {
    while !block.is_empty() {
        let snapshot_id = i64::from_le_bytes(take(&mut block, 8)?.try_into().expect("8 bytes"));
        let value = match take(&mut block, 1)?[0] {
            0 => None,
            1 => Some(f64::from_le_bytes(
                take(&mut block, 8)?.try_into().expect("8 bytes"),
            )),
            _ => return Err(corrupt()),
        };
        let [period, value_text, flags, conf_status, citation_id] = texts(&mut block)?;
        out.push(ObsRow {
            citation_id: CitationId::new(&citation_id).ok_or_else(corrupt)?,
            series_id,
            period,
            value,
            value_text,
            flags,
            conf_status,
            snapshot_id,
        });
    }
    Ok(())
}

/// A row's five texts. Their lengths are single ASCII bytes when below 128, so the texts with
/// their lengths between them are UTF-8 when each text is: one check for the five instead of
/// five (a profile decodes about 300 rows). When that check fails (a length of 128 or more, or
/// a text that is not UTF-8), each text is checked on its own.
fn texts(block: &mut &[u8]) -> StoreResult<[CompactString; 5]> {
    let start = *block;
    let mut places: [std::ops::Range<usize>; 5] = Default::default();
    for place in &mut places {
        let len = length(block)?;
        let at = start.len() - block.len();
        take(block, len)?;
        *place = at..at + len;
    }
    let span = &start[..start.len() - block.len()];
    let all = std::str::from_utf8(span).ok();
    let mut texts: [CompactString; 5] = Default::default();
    for (text, place) in texts.iter_mut().zip(places) {
        let read = match all {
            // Not at a character's boundary if the lengths are wrong, or if a text that is not
            // UTF-8 on its own became so with the length after it.
            Some(all) => all.get(place),
            None => std::str::from_utf8(&span[place]).ok(),
        };
        *text = CompactString::new(read.ok_or_else(corrupt)?);
    }
    Ok(texts)
}

fn take<'b>(block: &mut &'b [u8], n: usize) -> StoreResult<&'b [u8]> {
    if block.len() < n {
        return Err(corrupt());
    }
    let (head, rest) = block.split_at(n);
    *block = rest;
    Ok(head)
}

fn length(block: &mut &[u8]) -> StoreResult<usize> {
    let mut len = 0usize;
    for shift in (0..35).step_by(7) {
        let byte = take(block, 1)?[0];
        len |= usize::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(len);
        }
    }
    Err(corrupt())
}

fn corrupt() -> StoreError {
    StoreError::Other(anyhow::anyhow!("an observation block is corrupt"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_as_they_were_written() {
        let long = "x".repeat(300);
        let written = [
            (
                7,
                Some(4729243.0),
                ["2022", "4729243", "", "", "cit_aaaaaaaaaaaaaaaaaaaa"],
            ),
            (8, None, ["2023", ":", "c", "Ç", "cit_bbbbbbbbbbbbbbbbbbbb"]),
            (
                9,
                Some(-0.1),
                ["2024Q1", &long, "bep", "", "cit_cccccccccccccccccccc"],
            ),
        ];
        let mut block = Vec::new();
        let mut row_ends = Vec::new();
        for (snapshot, value, texts) in &written {
            encode_row(&mut block, *snapshot, *value, *texts);
            row_ends.push(block.len());
        }
        let mut rows = Vec::new();
        decode(3, &block, &mut rows).unwrap();
        assert_eq!(rows.len(), 3);
        for (row, (snapshot, value, texts)) in rows.iter().zip(&written) {
            assert_eq!(row.series_id, 3);
            assert_eq!(row.snapshot_id, *snapshot);
            assert_eq!(row.value.map(f64::to_bits), value.map(f64::to_bits));
            let read = [
                row.period.as_str(),
                &row.value_text,
                &row.flags,
                &row.conf_status,
                row.citation_id.as_str(),
            ];
            assert_eq!(read, *texts);
        }
        // Text that is not UTF-8 is refused, in a row of short texts and in one with a long one.
        for row_start in [0, row_ends[1]] {
            let mut bad = block.clone();
            // After the snapshot, the value and the period's length.
            bad[row_start + 8 + 1 + 8 + 1] = 0xff;
            assert!(decode(3, &bad, &mut Vec::new()).is_err(), "{row_start}");
        }
        // A citation id no answer could show as it is (longer than an id, or with a character
        // JSON escapes) is refused as corrupt.
        for id in ["cit_aaaaaaaaaaaaaaaaaaaaa", "cit_\"a", "cit_\na"] {
            let mut bad = Vec::new();
            encode_row(&mut bad, 7, None, ["2022", "", "", "", id]);
            assert!(decode(3, &bad, &mut Vec::new()).is_err(), "{id:?}");
        }
        // A block cut short anywhere is refused, not misread.
        for end in 1..block.len() {
            let mut rows = Vec::new();
            let cut = decode(3, &block[..end], &mut rows);
            assert_eq!(cut.is_ok(), row_ends.contains(&end), "cut at {end}");
        }
    }
}
