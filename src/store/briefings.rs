//! Stored briefings: written through the system connection, read by their owner through
//! `v_briefings`.

use crate::store::sql::{OptionalExtension, Row, SqlResult, params};

use super::connections::{Scoped, System};
use super::error::{StoreError, StoreResult};

/// Briefings an account keeps at most; beyond it, creating one is refused (409).
pub const MAX_PER_ACCOUNT: i64 = 10_000;

#[derive(Debug, Clone)]
pub struct BriefingRow {
    pub public_id: String,
    pub region_code: String,
    pub briefing_type: String,
    pub title: String,
    pub created_at: i64,
    pub body_json: String,
}

/// A briefing in a list: without its body, which can be large.
#[derive(Debug, Clone)]
pub struct BriefingListRow {
    pub public_id: String,
    pub region_code: String,
    pub briefing_type: String,
    pub title: String,
    pub created_at: i64,
}

const COLUMNS: &str = "public_id, region_code, briefing_type, title, created_at, body_json";

fn from_row(r: &Row) -> SqlResult<BriefingRow> {
    Ok(BriefingRow {
        public_id: r.get(0)?,
        region_code: r.get(1)?,
        briefing_type: r.get(2)?,
        title: r.get(3)?,
        created_at: r.get(4)?,
        body_json: r.get(5)?,
    })
}

impl System {
    /// Stores a briefing for `account`, unless it already keeps [`MAX_PER_ACCOUNT`].
    pub fn insert_briefing(&self, account: i64, row: &BriefingRow) -> StoreResult<()> {
        // Immediate: a read-then-write transaction that another writer overtakes fails at once,
        // where this one waits for the lock (the busy timeout) before it reads.
        let tx = self.sql().transaction()?;
        let kept: i64 = tx
            .prepare_cached("SELECT count(*) FROM briefings WHERE account_id = ?1")?
            .query_row(params![account], |r| r.get(0))?;
        if kept >= MAX_PER_ACCOUNT {
            return Err(full());
        }
        tx.prepare_cached(
            "INSERT INTO briefings (public_id, account_id, region_code, briefing_type, title, created_at, body_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![
                row.public_id,
                account,
                row.region_code,
                row.briefing_type,
                row.title,
                row.created_at,
                row.body_json
            ],
        )?;
        let data = serde_json::json!({
            "briefing_id": row.public_id,
            "region": row.region_code,
            "briefing_type": row.briefing_type,
            "title": row.title,
            "created_at": crate::runtime::clock::rfc3339(row.created_at),
            "links": { "briefing": format!("/briefings/{}", row.public_id) },
        });
        super::webhooks::emit(
            &tx,
            crate::webhooks::events::BRIEFING_CREATED,
            super::webhooks::Audience::Account(account),
            &data,
        )?;
        tx.commit()?;
        Ok(())
    }
}

/// The refusal when an account keeps the most briefings it may.
fn full() -> StoreError {
    StoreError::Conflict(format!(
        "the account keeps {MAX_PER_ACCOUNT} briefings, the most it may"
    ))
}

impl Scoped {
    /// Refuses (409) when the caller keeps the most briefings it may: checked before one is
    /// written, so a full account costs nothing more (the insert checks again).
    pub fn check_briefing_room(&self) -> StoreResult<()> {
        if self.briefing_count()? >= MAX_PER_ACCOUNT as usize {
            return Err(full());
        }
        Ok(())
    }

    /// How many briefings the caller keeps (at most a few thousand, so counting is cheap).
    pub fn briefing_count(&self) -> StoreResult<usize> {
        let kept: i64 = self
            .sql()
            .prepare_cached("SELECT count(*) FROM v_briefings")?
            .query_row(params![], |r| r.get(0))?;
        Ok(usize::try_from(kept).unwrap_or(0))
    }

    /// The caller's briefing with this id; someone else's is None, like a missing one.
    pub fn briefing(&self, public_id: &str) -> StoreResult<Option<BriefingRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_briefings WHERE public_id = ?1"
        ))?;
        Ok(stmt.query_row(params![public_id], from_row).optional()?)
    }

    /// The caller's briefings, newest first, older than `before` (a public id) when given.
    pub fn briefings(
        &self,
        before: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<BriefingListRow>> {
        let mut stmt = self.sql().prepare_cached(
            "SELECT public_id, region_code, briefing_type, title, created_at FROM v_briefings
             WHERE id < (SELECT id FROM v_briefings WHERE public_id = ?1) OR ?1 IS NULL
             ORDER BY id DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![before, limit as i64], |r| {
            Ok(BriefingListRow {
                public_id: r.get(0)?,
                region_code: r.get(1)?,
                briefing_type: r.get(2)?,
                title: r.get(3)?,
                created_at: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
