//! Schema migrations on SQLite: the migrations of `schema.sql` (see `store::schema`), migration N
//! run in one transaction when `PRAGMA user_version` < N, setting it to N; a database newer than
//! this binary is refused rather than guessed at.

use anyhow::Context;

use crate::store::schema::{latest_version, sqlite_migrations as migrations, too_new};
use crate::store::sql::{Db, SqlError};
use rusqlite::{Connection, OptionalExtension};

/// What a migration needs beyond its SQL: data only regintel's code computes, from rows that
/// exist already. The step is today's code, run on the schema of its version: a later
/// migration that changes what a step reads must keep that step working (or replace it).
fn code_step(version: i64) -> Option<fn(&rusqlite::Transaction) -> anyhow::Result<()>> {
    match version {
        14 => Some(|tx| Ok(crate::store::blocks::write_all(&Db::Sqlite(tx))?)),
        15 => Some(|tx| Ok(canonical_periods(tx)?)),
        16 => Some(|tx| Ok(cite_regions_and_snapshots(tx)?)),
        _ => None,
    }
}

/// Gives every snapshot its citation id, and every region whose row is as the bundled
/// classification (or, for an aggregate, the bundled catalogue) has it its source and citation;
/// a region whose row differs waits for the next import of the bundled extract.
fn cite_regions_and_snapshots(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    let snapshots: Vec<(i64, String, String)> = tx
        .prepare("SELECT id, public_id, file_sha256 FROM snapshots")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    for (id, public_id, sha) in snapshots {
        tx.execute(
            "UPDATE snapshots SET citation_id = ?2 WHERE id = ?1",
            rusqlite::params![
                id,
                crate::store::rows::datasets::snapshot_citation_id(&public_id, &sha)
            ],
        )?;
    }
    let bundled = crate::store::classification::bundled()
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(e.into()))?;
    let mut cite = tx.prepare(
        "UPDATE regions SET citation_id = ?2, source_file = ?3, source_sha256 = ?4,
                source_line = ?5, name_source = ?6, name_latin_source = ?7
         WHERE code = ?1 AND name_latin IS ?8 AND name_national IS ?9 AND level IS ?10
           AND parent_code IS ?11 AND country_code IS ?12",
    )?;
    for (row, source) in &bundled {
        cite.execute(rusqlite::params![
            row.code,
            source.citation_id(&row.code),
            source.file,
            source.sha256,
            source.line as i64,
            source.name_source,
            source.name_latin_source,
            row.name_latin,
            row.name_national,
            row.level,
            row.parent_code,
            row.country_code,
        ])?;
    }
    let aggregates: Vec<String> = tx
        .prepare("SELECT code FROM regions WHERE classification = 'aggregate'")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for code in aggregates {
        if let Some(source) = crate::store::classification::aggregate_source(&code) {
            tx.execute(
                "UPDATE regions SET citation_id = ?2, source_file = ?3, source_sha256 = ?4,
                        source_line = ?5, name_source = ?6
                 WHERE code = ?1",
                rusqlite::params![
                    code,
                    source.citation_id(&code),
                    source.file,
                    source.sha256,
                    source.line as i64,
                    source.name_source,
                ],
            )?;
        }
    }
    // Answers cached under the old generation showed no citations for them.
    tx.execute(
        "UPDATE store_meta SET value = value + 1 WHERE key = 'data_generation'",
        [],
    )?;
    Ok(())
}

/// Rewrites stored periods in the one form [`crate::period::canonical`] gives (`2023Q1` and
/// `2023-Q1` both `2023-Q1`), with the series' bounds and blocks they appear in. Where a series
/// and region held the same period in both forms as current rows (two imports of one dataset
/// from different formats), the row of the later snapshot stands and the other is marked
/// superseded by it, as a revision would be. A period of no known form is left as it is.
fn canonical_periods(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    // One scan, of the rows in no canonical form: most are years.
    let rows: Vec<(i64, i64, String, String, String, i64, bool)> = tx
        .prepare(
            "SELECT id, series_id, region_code, period, citation_id, snapshot_id,
                    superseded_by IS NULL
             FROM observations
             WHERE period NOT GLOB '[0-9][0-9][0-9][0-9]'
               AND period NOT GLOB '[0-9][0-9][0-9][0-9]-[QS][0-9]'
               AND period NOT GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]'",
        )?
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    let mut twin_of = tx.prepare(
        "SELECT id, citation_id, snapshot_id FROM observations
         WHERE series_id = ?1 AND region_code = ?2 AND period = ?3 AND superseded_by IS NULL",
    )?;
    let mut supersede = tx.prepare("UPDATE observations SET superseded_by = ?2 WHERE id = ?1")?;
    let mut rename = tx.prepare("UPDATE observations SET period = ?2 WHERE id = ?1")?;
    let mut touched = std::collections::BTreeSet::new();
    for (id, series, region, period, citation, snapshot, current) in rows {
        let Ok(new) = crate::period::canonical(&period) else {
            continue;
        };
        if new == period {
            continue;
        }
        if current {
            let twin: Option<(i64, String, i64)> = twin_of
                .query_row(rusqlite::params![series, region, new], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()?;
            if let Some((twin, twin_citation, twin_snapshot)) = twin {
                let (older, newer) = if twin_snapshot > snapshot {
                    (id, twin_citation)
                } else {
                    (twin, citation)
                };
                supersede.execute(rusqlite::params![older, newer])?;
            }
        }
        rename.execute(rusqlite::params![id, new])?;
        touched.insert((series, region));
    }
    let series: std::collections::BTreeSet<i64> = touched.iter().map(|(s, _)| *s).collect();
    for id in &series {
        crate::store::blocks::write_series(&Db::Sqlite(tx), *id).map_err(into_rusqlite)?;
    }
    for id in series {
        tx.execute(
            "UPDATE series SET
                 period_min = (SELECT MIN(period) FROM observations
                               WHERE series_id = ?1 AND superseded_by IS NULL),
                 period_max = (SELECT MAX(period) FROM observations
                               WHERE series_id = ?1 AND superseded_by IS NULL)
             WHERE id = ?1",
            [id],
        )?;
    }
    if !touched.is_empty() {
        // Answers cached under the old generation showed the old forms.
        tx.execute(
            "UPDATE store_meta SET value = value + 1 WHERE key = 'data_generation'",
            [],
        )?;
        tx.execute(
            "UPDATE account_generations SET generation = generation + 1",
            [],
        )?;
    }
    Ok(())
}

/// An error of the store's SQL inside a step written with rusqlite's (SQLite's only: these
/// steps rewrite databases made before PostgreSQL was supported).
fn into_rusqlite(err: SqlError) -> rusqlite::Error {
    match err {
        SqlError::Sqlite(e) => e,
        other => rusqlite::Error::ToSqlConversionFailure(Box::new(other)),
    }
}

/// Brings the database up to the latest version. Returns the versions applied.
pub fn migrate(conn: &mut Connection) -> anyhow::Result<Vec<i64>> {
    let current: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let latest = latest_version();
    if current > latest {
        return Err(too_new(current, latest));
    }
    let mut applied = Vec::new();
    for m in migrations().into_iter().filter(|m| m.version > current) {
        let tx = conn.transaction()?;
        tx.execute_batch(m.sql)
            .with_context(|| format!("while applying migration {} ({})", m.version, m.title))?;
        if let Some(step) = code_step(m.version) {
            step(&tx).with_context(|| {
                format!("while filling in migration {} ({})", m.version, m.title)
            })?;
        }
        tx.pragma_update(None, "user_version", m.version)?;
        tx.commit()?;
        applied.push(m.version);
    }
    Ok(applied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sql::Row;

    fn memory() -> Connection {
        crate::store::sqlite::pool::open(
            std::path::Path::new(":memory:"),
            crate::store::sqlite::pool::Role::System,
        )
        .unwrap()
        .conn
    }

    #[test]
    fn schema_parses_into_numbered_migrations() {
        let all = migrations();
        assert!(!all.is_empty());
        assert_eq!(all[0].version, 1);
        assert!(all[0].sql.contains("CREATE TABLE observations"));
    }

    #[test]
    fn migrating_twice_applies_nothing_the_second_time() {
        let mut conn = memory();
        assert_eq!(migrate(&mut conn).unwrap().len() as i64, latest_version());
        assert!(migrate(&mut conn).unwrap().is_empty());
        let v: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, latest_version());
    }

    /// An upgrade from the first release: a database at version 1 holding data (an account, a
    /// public and a private dataset, a revised value) comes through every later migration with
    /// every row as it was, and sound.
    #[test]
    fn an_old_database_with_data_is_upgraded_keeping_its_rows() {
        let mut conn = memory();
        let first = &migrations()[0];
        conn.execute_batch(first.sql).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute_batch(
            "INSERT INTO accounts VALUES (7, 'ana@example.org', 'Ana', 'institutional', 0, 1);
             INSERT INTO regions (code, level, country_code, classification)
                 VALUES ('DE21', 2, 'DE', 'NUTS');
             INSERT INTO datasets (id, owner_account_id, code, title, topic)
                 VALUES (1, NULL, 'tgs00010', 'Unemployment', 'labour'),
                        (2, 7, 'own', 'Own figures', 'other');
             INSERT INTO series (id, dataset_id, unit, dims) VALUES (1, 1, 'PC', 'sex=T'),
                                                                    (2, 2, 'NR', '');
             INSERT INTO snapshots VALUES (1, 'snp_a', 1, NULL, 1, 'a.tsv', 'aa', 'tsv', 2, 2, 0, 0),
                                          (2, 'snp_b', 2, 7, 2, 'b.csv', 'bb', 'csv', 1, 1, 0, 0);
             INSERT INTO observations
                 (id, citation_id, series_id, region_code, period, value, value_text, src_line,
                  snapshot_id, owner_account_id, superseded_by)
             VALUES (1, 'cit_old', 1, 'DE21', '2020', 3.1, '3.1', 2, 1, NULL, 'cit_new'),
                    (2, 'cit_new', 1, 'DE21', '2020', 3.2, '3.2', 3, 1, NULL, NULL),
                    (3, 'cit_own', 2, 'DE21', '2020', 5, '5', 2, 2, 7, NULL);",
        )
        .unwrap();
        let rows = |conn: &Connection| -> Vec<(String, String, Option<String>, Option<i64>)> {
            let mut stmt = conn
                .prepare(
                    "SELECT citation_id, value_text, superseded_by, owner_account_id
                     FROM observations ORDER BY id",
                )
                .unwrap();
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let before = rows(&conn);

        let applied = migrate(&mut conn).unwrap();
        assert_eq!(applied, (2..=latest_version()).collect::<Vec<_>>());
        assert_eq!(rows(&conn), before);
        let current: i64 = conn
            .query_row(
                "SELECT count(*) FROM observations INDEXED BY observations_current
                 WHERE series_id = 1 AND region_code = 'DE21' AND superseded_by IS NULL",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            current, 1,
            "the current-row index of the later schema covers old rows"
        );
        crate::store::sqlite::file::integrity_check(&conn).unwrap();
        let broken: i64 = conn
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(broken, 0);
        let account: String = conn
            .query_row("SELECT email FROM accounts WHERE id = 7", [], |r| r.get(0))
            .unwrap();
        assert_eq!(account, "ana@example.org");
        // The blocks of the later schema hold the current rows, each with its owner.
        let blocks: Vec<(i64, Option<i64>, usize)> = conn
            .prepare("SELECT series_id, owner_account_id, rows FROM observation_blocks ORDER BY 1")
            .unwrap()
            .query_map([], |r| {
                let mut rows = Vec::new();
                crate::store::blocks::read(&Row::Sqlite(r), 2, r.get(0)?, &mut rows).unwrap();
                assert!(
                    rows.iter().all(|o| o.citation_id.as_str() != "cit_old"),
                    "{rows:?}"
                );
                Ok((r.get(0)?, r.get(1)?, rows.len()))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(blocks, [(1, None, 1), (2, Some(7), 1)]);
    }

    /// Periods stored before in Eurostat's TSV forms are rewritten in the one form; a period
    /// held in both forms keeps the later snapshot's row, the other superseded by it; blocks
    /// and series bounds follow; a period of no known form stays.
    #[test]
    fn stored_periods_are_rewritten_in_one_form() {
        let mut conn = memory();
        for m in migrations().iter().filter(|m| m.version < 15) {
            conn.execute_batch(m.sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 14).unwrap();
        conn.execute_batch(
            "INSERT INTO datasets (id, code, title, topic) VALUES (1, 'q', 'Quarterly', 'other');
             INSERT INTO series (id, dataset_id, unit, dims, period_min, period_max)
                 VALUES (1, 1, 'PC', '', '2023-Q2', '@2023');
             INSERT INTO snapshots VALUES (1, 'snp_a', 1, NULL, 1, 'a.tsv', 'aa', 'tsv', 3, 3, 0, 0),
                                          (2, 'snp_b', 1, NULL, 2, 'b.csv', 'bb', 'sdmx', 1, 1, 0, 0);
             INSERT INTO observations
                 (id, citation_id, series_id, region_code, period, value, value_text, src_line,
                  snapshot_id)
             VALUES (1, 'cit_q1_tsv', 1, 'DE21', '2023Q1', 1, '1', 2, 1),
                    (2, 'cit_q1_sdmx', 1, 'DE21', '2023-Q1', 2, '2', 2, 2),
                    (3, 'cit_m1', 1, 'DE21', '2023M01', 3, '3', 3, 1),
                    (4, 'cit_q2', 1, 'DE21', '2023-Q2', 4, '4', 4, 1),
                    (5, 'cit_odd', 1, 'DE21', '@2023', 5, '5', 5, 1);",
        )
        .unwrap();
        let tx = conn.transaction().unwrap();
        crate::store::blocks::write_all(&Db::Sqlite(&tx)).unwrap();
        tx.commit().unwrap();
        let generation = |conn: &Connection| -> i64 {
            conn.query_row(
                "SELECT value FROM store_meta WHERE key = 'data_generation'",
                [],
                |r| r.get(0),
            )
            .unwrap()
        };
        let before = generation(&conn);
        assert_eq!(
            migrate(&mut conn).unwrap(),
            (15..=latest_version()).collect::<Vec<_>>()
        );
        let rows: Vec<(String, String, Option<String>)> = conn
            .prepare("SELECT citation_id, period, superseded_by FROM observations ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let row =
            |c: &str, p: &str, s: Option<&str>| (c.to_owned(), p.to_owned(), s.map(str::to_owned));
        assert_eq!(
            rows,
            [
                row("cit_q1_tsv", "2023-Q1", Some("cit_q1_sdmx")),
                row("cit_q1_sdmx", "2023-Q1", None),
                row("cit_m1", "2023-01", None),
                row("cit_q2", "2023-Q2", None),
                row("cit_odd", "@2023", None),
            ]
        );
        let bounds: (String, String) = conn
            .query_row(
                "SELECT period_min, period_max FROM series WHERE id = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(bounds, ("2023-01".to_owned(), "@2023".to_owned()));
        let block: Vec<String> = conn
            .query_row(
                "SELECT rows FROM observation_blocks WHERE series_id = 1",
                [],
                |r| {
                    let mut rows = Vec::new();
                    crate::store::blocks::read(&Row::Sqlite(r), 0, 1, &mut rows).unwrap();
                    Ok(rows.iter().map(|o| o.period.to_string()).collect())
                },
            )
            .unwrap();
        assert_eq!(block, ["2023-01", "2023-Q1", "2023-Q2", "@2023"]);
        // Migration 16 renews them too (its answers cite regions).
        assert_eq!(generation(&conn), before + 2, "cached answers are renewed");
        crate::store::sqlite::file::integrity_check(&conn).unwrap();
    }

    /// A database made before citations of regions and snapshots: every snapshot gets its id,
    /// a region whose row is as the bundled classification has it gets its source, an
    /// aggregate its line of the catalogue, and a row that differs (or a code seen only in
    /// data) none.
    #[test]
    fn regions_and_snapshots_get_their_citations() {
        let mut conn = memory();
        for m in migrations().iter().filter(|m| m.version < 16) {
            conn.execute_batch(m.sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 15).unwrap();
        conn.execute_batch(
            "INSERT INTO regions (code, name_latin, name_national, level, parent_code, country_code,
                                  classification)
             VALUES ('DE21', 'Oberbayern', 'Oberbayern', 2, 'DE2', 'DE', 'NUTS'),
                    ('DE22', 'Renamed', 'Niederbayern', 2, 'DE2', 'DE', 'NUTS'),
                    ('DE2Z', NULL, NULL, 2, 'DE2', 'DE', 'historical'),
                    ('EU27_2020', 'European Union', 'European Union', NULL, NULL, NULL, 'aggregate');
             INSERT INTO datasets (id, code, title, topic) VALUES (1, 'x', 'X', 'other');
             INSERT INTO snapshots VALUES (1, 'snp_a', 1, NULL, 1, 'a.csv', 'aa', 'tidy', 1, 1, 0, 0);",
        )
        .unwrap();
        assert_eq!(
            migrate(&mut conn).unwrap(),
            (16..=latest_version()).collect::<Vec<_>>()
        );
        let cited = |code: &str| -> Option<(String, String, i64)> {
            conn.query_row(
                "SELECT citation_id, source_file, source_line FROM regions WHERE code = ?1",
                [code],
                |r| {
                    Ok(r.get::<_, Option<String>>(0)?
                        .map(|c| (c, r.get(1).unwrap(), r.get(2).unwrap())))
                },
            )
            .unwrap()
        };
        let bundled = crate::store::classification::bundled().unwrap();
        let (_, source) = bundled.iter().find(|(r, _)| r.code == "DE21").unwrap();
        assert_eq!(
            cited("DE21"),
            Some((
                source.citation_id("DE21"),
                "nuts_regions.csv".to_owned(),
                source.line as i64
            ))
        );
        assert_eq!(cited("DE22"), None, "not the bundled row");
        assert_eq!(cited("DE2Z"), None, "seen only in data");
        let eu = crate::store::classification::aggregate_source("EU27_2020").unwrap();
        assert_eq!(
            cited("EU27_2020"),
            Some((
                eu.citation_id("EU27_2020"),
                "catalogue.json".to_owned(),
                eu.line as i64
            ))
        );
        let snapshot: String = conn
            .query_row("SELECT citation_id FROM snapshots WHERE id = 1", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(
            snapshot,
            crate::store::rows::datasets::snapshot_citation_id("snp_a", "aa")
        );
        crate::store::sqlite::file::integrity_check(&conn).unwrap();
    }

    #[test]
    fn a_newer_database_is_refused_with_a_clear_message() {
        let mut conn = memory();
        conn.pragma_update(None, "user_version", latest_version() + 1)
            .unwrap();
        let err = migrate(&mut conn).unwrap_err().to_string();
        assert!(err.contains("newer than this regintel binary"), "{err}");
    }

    #[test]
    fn a_failing_migration_leaves_the_database_untouched() {
        let mut conn = memory();
        // A table the first migration wants to create makes it fail half way.
        conn.execute_batch("CREATE TABLE series (x)").unwrap();
        assert!(migrate(&mut conn).is_err());
        let v: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, 0);
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name IN ('accounts', 'regions')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            tables, 0,
            "the transaction rolled back the tables created before the failure"
        );
    }

    /// The stretches of time of rows imported before migration 24: a superseded row ends where
    /// its successor began, a withdrawn one where its withdrawal did; a row that a file brought
    /// back (A, then B, then A again) ends where B began and stands again from the second A on,
    /// and B ends there.
    #[test]
    fn rows_imported_before_get_their_stretches_of_time() {
        let mut conn = memory();
        for m in migrations().iter().filter(|m| m.version < 24) {
            let tx = conn.transaction().unwrap();
            tx.execute_batch(m.sql).unwrap();
            if let Some(step) = code_step(m.version) {
                step(&tx).unwrap();
            }
            tx.pragma_update(None, "user_version", m.version).unwrap();
            tx.commit().unwrap();
        }
        conn.execute_batch(
            "INSERT INTO datasets (id, code, title, topic) VALUES (1, 'd', 'D', 'other');
             INSERT INTO series (id, dataset_id, unit, dims) VALUES (1, 1, 'NR', '');
             INSERT INTO snapshots (id, public_id, dataset_id, imported_at, file_name, file_sha256,
                                    format, rows_in_file, rows_added, rows_revised, rows_unchanged)
             VALUES (1, 'snp_1', 1, 1, 'f', 'A', 'csv', 2, 2, 0, 0),
                    (2, 'snp_2', 1, 2, 'f', 'B', 'csv', 1, 0, 1, 0),
                    (3, 'snp_3', 1, 3, 'f', 'A', 'csv', 2, 0, 1, 1),
                    (4, 'snp_4', 1, 4, 'f', 'C', 'csv', 1, 0, 0, 0);
             INSERT INTO observations (id, citation_id, series_id, region_code, period, value,
                                       value_text, src_line, snapshot_id, superseded_by, withdrawn)
             VALUES (1, 'cit_a', 1, 'DE21', '2020', 1, '1', 2, 1, NULL, 0),
                    (2, 'cit_b', 1, 'DE21', '2020', 2, '2', 2, 2, 'cit_a', 0),
                    (3, 'cit_c', 1, 'DE21', '2021', 3, '3', 3, 1, 'cit_w', 0),
                    (4, 'cit_w', 1, 'DE21', '2021', NULL, '', 0, 4, 'withdrawn', 1);",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let until: Vec<(i64, Option<i64>)> = conn
            .prepare("SELECT id, until_snapshot_id FROM observations ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(until, [(1, Some(2)), (2, Some(3)), (3, Some(4)), (4, None)]);
        let spans: Vec<(i64, i64, Option<i64>)> = conn
            .prepare("SELECT observation_id, since_snapshot_id, until_snapshot_id FROM observation_spans")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(spans, [(1, 3, None)]);
    }
}
