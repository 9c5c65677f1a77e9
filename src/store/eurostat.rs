//! What `regintel fetch` downloaded from Eurostat, dataset by dataset (`eurostat_fetches`): the
//! record a later sync compares with Eurostat's table of contents, what `check` and `/metrics`
//! report, and what keeps `import --bundled` off a dataset that was fetched.

use super::sql::{Db, OptionalExtension, SqlResult, params};

/// A dataset's record.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FetchRecord {
    pub dataset_code: String,
    pub title: String,
    pub url: String,
    pub last_update_of_data: Option<String>,
    pub last_structure_change: Option<String>,
    /// Unix ms.
    pub downloaded_at: Option<i64>,
    pub sha256_received: Option<String>,
    pub sha256: Option<String>,
    pub bytes_received: Option<i64>,
    pub snapshot: Option<String>,
    pub succeeded_at: Option<i64>,
    pub failed_at: Option<i64>,
    pub error: Option<String>,
}

/// A download imported.
pub struct Download<'a> {
    pub dataset_code: &'a str,
    pub title: &'a str,
    pub url: &'a str,
    pub last_update_of_data: Option<&'a str>,
    pub last_structure_change: Option<&'a str>,
    pub downloaded_at: i64,
    pub sha256_received: &'a str,
    pub sha256: &'a str,
    pub bytes_received: u64,
    pub snapshot: Option<&'a str>,
}

const COLUMNS: &str = "dataset_code, title, url, last_update_of_data, last_structure_change,
    downloaded_at, sha256_received, sha256, bytes_received, snapshot, succeeded_at, failed_at,
    error";

fn from_row(r: &super::sql::Row<'_>) -> SqlResult<FetchRecord> {
    Ok(FetchRecord {
        dataset_code: r.get(0)?,
        title: r.get(1)?,
        url: r.get(2)?,
        last_update_of_data: r.get(3)?,
        last_structure_change: r.get(4)?,
        downloaded_at: r.get(5)?,
        sha256_received: r.get(6)?,
        sha256: r.get(7)?,
        bytes_received: r.get(8)?,
        snapshot: r.get(9)?,
        succeeded_at: r.get(10)?,
        failed_at: r.get(11)?,
        error: r.get(12)?,
    })
}

/// Records a download imported (or found the same as the snapshot it had made before): the
/// last attempt succeeded.
pub fn record_success(tx: &Db<'_>, d: &Download<'_>) -> SqlResult<()> {
    tx.execute(
        "INSERT INTO eurostat_fetches (dataset_code, title, url, last_update_of_data,
             last_structure_change, downloaded_at, sha256_received, sha256, bytes_received,
             snapshot, succeeded_at, failed_at, error)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?6, NULL, NULL)
         ON CONFLICT (dataset_code) DO UPDATE SET title = excluded.title, url = excluded.url,
             last_update_of_data = excluded.last_update_of_data,
             last_structure_change = excluded.last_structure_change,
             downloaded_at = excluded.downloaded_at, sha256_received = excluded.sha256_received,
             sha256 = excluded.sha256, bytes_received = excluded.bytes_received,
             snapshot = excluded.snapshot, succeeded_at = excluded.succeeded_at,
             failed_at = NULL, error = NULL",
        params![
            d.dataset_code,
            d.title,
            d.url,
            d.last_update_of_data,
            d.last_structure_change,
            d.downloaded_at,
            d.sha256_received,
            d.sha256,
            d.bytes_received as i64,
            d.snapshot
        ],
    )?;
    Ok(())
}

/// Records a failed attempt at `dataset_code` (`title` and `url` of a dataset not fetched
/// before): what it succeeded in before stays.
pub fn record_failure(
    conn: &Db<'_>,
    (dataset_code, title, url): (&str, &str, &str),
    at: i64,
    error: &str,
) -> SqlResult<()> {
    conn.execute(
        "INSERT INTO eurostat_fetches (dataset_code, title, url, failed_at, error)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (dataset_code) DO UPDATE SET failed_at = excluded.failed_at,
             error = excluded.error",
        params![dataset_code, title, url, at, error],
    )?;
    Ok(())
}

/// The record of `dataset_code` (any case).
pub fn fetched(conn: &Db<'_>, dataset_code: &str) -> SqlResult<Option<FetchRecord>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM eurostat_fetches WHERE lower(dataset_code) = lower(?1)"),
        params![dataset_code],
        from_row,
    )
    .optional()
}

/// Every record, by code.
pub fn all(conn: &Db<'_>) -> SqlResult<Vec<FetchRecord>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM eurostat_fetches ORDER BY dataset_code"
    ))?;
    let rows = stmt.query_map(params![], from_row)?;
    rows.collect()
}

/// Whether a download of `dataset_code` was ever imported: the bundled extract then leaves the
/// dataset alone.
pub fn was_fetched(conn: &Db<'_>, dataset_code: &str) -> SqlResult<bool> {
    Ok(fetched(conn, dataset_code)?.is_some_and(|f| f.succeeded_at.is_some()))
}

/// The region codes public dataset `dataset_code`'s current rows hold that the bundled
/// classification does not know (codes of earlier NUTS editions, aggregates it does not name):
/// kept and served all the same, and reported. By code.
pub fn unclassified_codes(conn: &Db<'_>, dataset_code: &str) -> SqlResult<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT r.code FROM regions r
         WHERE (r.classification = 'historical'
                OR (r.classification = 'aggregate' AND r.name_latin IS NULL))
           AND EXISTS (SELECT 1 FROM series s
                       JOIN datasets d ON d.id = s.dataset_id
                       JOIN observations o ON o.series_id = s.id AND o.region_code = r.code
                                          AND o.superseded_by IS NULL
                       WHERE d.code = ?1 AND d.owner_account_id IS NULL)
         ORDER BY r.code",
    )?;
    let codes = stmt.query_map(params![dataset_code], |r| r.get(0))?;
    codes.collect()
}

impl super::connections::System {
    /// What was fetched from Eurostat, dataset by dataset.
    pub fn eurostat_fetches(&self) -> super::error::StoreResult<Vec<FetchRecord>> {
        Ok(all(&self.sql())?)
    }
}
