//! The regions an import writes: the classification's, codes seen only in data (earlier NUTS
//! editions, aggregates, an account's private codes), and the aggregates' names.

use std::collections::BTreeMap;

use super::MAX_PRIVATE_REGIONS;
use crate::store::classification::RegionSource;
use crate::store::regions::RegionRow;
use crate::store::sql::{Db, SqlResult, Stmt, params};

/// Writes the bundled classification where the database has none yet (an import of a file or
/// a fetch before any `import --bundled`), so that the codes of the release's own regions are
/// not taken for codes of earlier editions; the regions written. Where it is, `import --bundled`
/// keeps it up to date, and this costs one lookup.
pub fn classification_in_place(tx: &Db<'_>) -> anyhow::Result<usize> {
    let present: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM regions WHERE classification = 'NUTS')",
        params![],
        |r| r.get(0),
    )?;
    if present {
        return Ok(0);
    }
    Ok(upsert_regions(
        tx,
        &crate::store::classification::bundled()?,
    )?)
}

/// Writes the classification's regions, each with its source (where its row stands, and the
/// citation answers give it). Returns the rows inserted or changed.
pub fn upsert_regions(tx: &Db<'_>, regions: &[(RegionRow, RegionSource)]) -> SqlResult<usize> {
    let mut stmt = tx.prepare(
        "INSERT INTO regions (code, name_latin, name_national, level, parent_code, country_code,
                              classification, in_nuts2021, in_nuts2024, change_2021_2024,
                              recoded_from, recoded_to, citation_id, source_file, source_sha256,
                              source_line, name_source, name_latin_source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
         ON CONFLICT (code) DO UPDATE SET
             name_latin = excluded.name_latin, name_national = excluded.name_national,
             level = excluded.level, parent_code = excluded.parent_code,
             country_code = excluded.country_code, classification = excluded.classification,
             in_nuts2021 = excluded.in_nuts2021, in_nuts2024 = excluded.in_nuts2024,
             change_2021_2024 = excluded.change_2021_2024, recoded_from = excluded.recoded_from,
             recoded_to = excluded.recoded_to, citation_id = excluded.citation_id,
             source_file = excluded.source_file, source_sha256 = excluded.source_sha256,
             source_line = excluded.source_line, name_source = excluded.name_source,
             name_latin_source = excluded.name_latin_source
         WHERE (regions.name_latin, regions.name_national, regions.level, regions.parent_code,
                regions.country_code, regions.classification, regions.in_nuts2021,
                regions.in_nuts2024, regions.change_2021_2024, regions.recoded_from,
                regions.recoded_to, regions.citation_id, regions.name_source,
                regions.name_latin_source)
               IS DISTINCT FROM (excluded.name_latin, excluded.name_national, excluded.level,
                       excluded.parent_code, excluded.country_code, excluded.classification,
                       excluded.in_nuts2021, excluded.in_nuts2024, excluded.change_2021_2024,
                       excluded.recoded_from, excluded.recoded_to, excluded.citation_id,
                       excluded.name_source, excluded.name_latin_source)",
    )?;
    // Rows inserted or changed: an identical classification changes nothing (and renews no
    // answer).
    let mut changed = 0;
    for (r, source) in regions {
        changed += stmt.execute(params![
            r.code,
            r.name_latin,
            r.name_national,
            r.level,
            r.parent_code,
            r.country_code,
            r.classification,
            r.in_nuts2021,
            r.in_nuts2024,
            r.change_2021_2024,
            r.recoded_from,
            r.recoded_to,
            source.citation_id(&r.code),
            source.file,
            source.sha256,
            source.line as i64,
            source.name_source,
            source.name_latin_source
        ])?;
    }
    Ok(changed)
}

/// Codes seen in data but not in the classification are still served: NUTS-shaped codes as
/// 'historical' (earlier NUTS editions), the rest as 'aggregate' (EU27_2020, EFTA, ...). Aggregate
/// names are filled in by [`name_aggregates`]. Codes from an account's private data go to its
/// `private_regions`, so no one else learns of them.
pub(super) struct UnclassifiedRegions<'t, 'c> {
    tx: &'t Db<'c>,
    owner: Option<i64>,
    insert: Stmt<'c>,
    /// The codes made the account's own (the owner's import only).
    added: Vec<String>,
}

impl<'t, 'c> UnclassifiedRegions<'t, 'c> {
    pub(super) fn new(tx: &'t Db<'c>, owner: Option<i64>) -> SqlResult<Self> {
        let insert = match owner {
            None => tx.prepare_cached(
                "INSERT INTO regions (code, level, parent_code, country_code, classification)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (code) DO NOTHING",
            )?,
            Some(_) => tx.prepare_cached(
                "INSERT INTO private_regions (account_id, code, level, parent_code, country_code, classification)
                 SELECT ?6, ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (SELECT 1 FROM regions WHERE code = ?1)
                 ON CONFLICT (account_id, code) DO NOTHING",
            )?,
        };
        Ok(UnclassifiedRegions {
            tx,
            owner,
            insert,
            added: Vec::new(),
        })
    }

    pub(super) fn add(&mut self, code: &str) -> SqlResult<()> {
        let nuts_shaped = (2..=5).contains(&code.len())
            && code.as_bytes()[..2].iter().all(u8::is_ascii_uppercase)
            && code[2..]
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
        let (level, parent, country, class) = if nuts_shaped {
            let level = code.len() as i64 - 2;
            let parent = (level > 0).then(|| &code[..code.len() - 1]);
            (Some(level), parent, Some(&code[..2]), "historical")
        } else {
            (None, None, None, "aggregate")
        };
        match self.owner {
            None => self
                .insert
                .execute(params![code, level, parent, country, class])?,
            Some(account) => {
                let made =
                    (self.insert).execute(params![code, level, parent, country, class, account])?;
                if made > 0 {
                    self.added.push(code.to_owned());
                }
                made
            }
        };
        Ok(())
    }

    /// Refuses an account's import that would give it more codes of its own than allowed;
    /// returns the codes it made the account's own, in code order.
    pub(super) fn finish(self) -> anyhow::Result<Vec<String>> {
        if let Some(account) = self.owner {
            let own: i64 = self.tx.query_row(
                "SELECT count(*) FROM private_regions WHERE account_id = ?1",
                params![account],
                |r| r.get(0),
            )?;
            if own > MAX_PRIVATE_REGIONS {
                return Err(crate::store::error::StoreError::Conflict(format!(
                    "the account would have {own} region codes of its own; the limit is {MAX_PRIVATE_REGIONS}"
                ))
                .into());
            }
        }
        let mut added = self.added;
        added.sort_unstable();
        Ok(added)
    }
}

/// Names non-NUTS aggregate codes (and reclassifies NUTS-shaped ones such as `FX`), each cited
/// to its line of the bundled catalogue.
pub fn name_aggregates(tx: &Db<'_>, aggregates: &BTreeMap<String, String>) -> SqlResult<()> {
    let mut stmt = tx.prepare(
        "UPDATE regions SET name_latin = ?2, name_national = ?2, classification = 'aggregate',
                level = NULL, parent_code = NULL, country_code = NULL, citation_id = ?3,
                source_file = ?4, source_sha256 = ?5, source_line = ?6, name_source = ?7,
                name_latin_source = NULL
         WHERE code = ?1 AND classification IN ('historical', 'aggregate')",
    )?;
    for (code, name) in aggregates {
        let source = crate::store::classification::aggregate_source(code);
        stmt.execute(params![
            code,
            name,
            source.as_ref().map(|s| s.citation_id(code)),
            source.as_ref().map(|s| s.file),
            source.as_ref().map(|s| s.sha256.as_str()),
            source.as_ref().map(|s| s.line as i64),
            source.as_ref().and_then(|s| s.name_source.as_deref()),
        ])?;
    }
    Ok(())
}
