//! Daily usage counters (`usage_daily`): written by the limiter's flush, read at start and by
//! `GET /account/usage`.

use rusqlite::params;

use super::{Scoped, StoreResult, System};

/// `2026-11-21` for a day number (days since the unix epoch, UTC).
pub fn day_label(day: i64) -> String {
    crate::clock::rfc3339(day * 86_400_000)[..10].to_owned()
}

impl System {
    /// Every counter of one day: (scope, used).
    pub fn usage_of_day(&self, day: i64) -> StoreResult<Vec<(String, u64)>> {
        let mut stmt = self
            .db()
            .prepare_cached("SELECT scope, used FROM usage_daily WHERE day = ?1")?;
        let rows = stmt.query_map([day_label(day)], |r| {
            Ok((r.get(0)?, r.get::<_, i64>(1)?.max(0) as u64))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes counters (scope, day, used) in one transaction; a counter only ever grows within a
    /// day, so the larger value wins.
    pub fn write_usage(&mut self, rows: &[(String, i64, u64)]) -> StoreResult<()> {
        let tx = self.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO usage_daily (scope, day, used) VALUES (?1, ?2, ?3)
                 ON CONFLICT (scope, day) DO UPDATE SET used = max(used, excluded.used)",
            )?;
            for (scope, day, used) in rows {
                stmt.execute(params![scope, day_label(*day), *used as i64])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

impl Scoped {
    /// The caller's account's counters from `since` (a day number) on: (day label, used), oldest
    /// first.
    pub fn my_usage(&self, since: i64) -> StoreResult<Vec<(String, u64)>> {
        let mut stmt = self
            .db()
            .prepare_cached("SELECT day, used FROM v_usage_daily WHERE day >= ?1 ORDER BY day")?;
        let rows = stmt.query_map(params![day_label(since)], |r| {
            Ok((r.get(0)?, r.get::<_, i64>(1)?.max(0) as u64))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_labelled_in_utc() {
        assert_eq!(day_label(0), "1970-01-01");
        assert_eq!(day_label(20_413), "2025-11-21");
    }
}
