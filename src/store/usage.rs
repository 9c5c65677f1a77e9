//! Daily usage counters (`usage_daily`): written by the limiter's flush, read at start and by
//! `GET /account/usage`.

use crate::store::sql::{OptionalExtension, params};

use super::accounts::Tier;
use super::connections::{Scoped, System};
use super::error::StoreResult;
use super::webhooks::{Audience, emit};
use crate::rate_limiter::Scope;
use crate::webhooks::events;

/// `2026-11-21` for a day number (days since the unix epoch, UTC).
pub fn day_label(day: i64) -> String {
    crate::runtime::clock::rfc3339(day * 86_400_000)[..10].to_owned()
}

impl System {
    /// Every counter of one day: (scope, used).
    pub fn usage_of_day(&self, day: i64) -> StoreResult<Vec<(String, u64)>> {
        let mut stmt = self
            .sql()
            .prepare_cached("SELECT scope, used FROM usage_daily WHERE day = ?1")?;
        let rows = stmt.query_map(params![day_label(day)], |r| {
            Ok((r.get(0)?, r.get::<i64>(1)?.max(0) as u64))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Adds counts (scope, day, count) to the counters in one transaction: what this process
    /// counted since its last flush, so that every process on the database adds its own. An
    /// account's counter that crosses 80 % or 100 % of its daily cap (`cap` of its tier; None:
    /// no caps, limits are off) emits `usage.threshold` in the same transaction, once whichever
    /// process's count crossed it (each addition covers its own stretch of the sum). Returns the
    /// events emitted.
    pub fn write_usage(
        &mut self,
        rows: &[(String, i64, u64)],
        cap: Option<&dyn Fn(Tier) -> u64>,
    ) -> StoreResult<usize> {
        let tx = self.transaction()?;
        let mut emitted = 0;
        {
            let mut add = tx.prepare_cached(
                "INSERT INTO usage_daily (scope, day, used) VALUES (?1, ?2, ?3)
                 ON CONFLICT (scope, day) DO UPDATE SET used = usage_daily.used + excluded.used
                 RETURNING used",
            )?;
            let mut tier_of = tx.prepare_cached("SELECT tier FROM accounts WHERE id = ?1")?;
            for (scope, day, counted) in rows {
                let label = day_label(*day);
                let account = match Scope::from_persisted_name(scope) {
                    Some(Scope::Account(id)) => Some(id),
                    _ => None,
                };
                let count = i64::try_from(*counted).unwrap_or(i64::MAX);
                let total: i64 = add.query_row(params![scope, label, count], |r| r.get(0))?;
                let (Some(cap), Some(account)) = (cap, account) else {
                    continue;
                };
                let used = total.max(0) as u64;
                let old = used.saturating_sub(count as u64);
                let Some(tier) = tier_of
                    .query_row(params![account], |r| r.get::<String>(0))
                    .optional()?
                    .as_deref()
                    .and_then(Tier::parse)
                else {
                    continue;
                };
                let daily_cap = cap(tier);
                for percent in events::USAGE_THRESHOLDS {
                    let mark = (daily_cap * percent).div_ceil(100);
                    if old < mark && used >= mark {
                        let data = serde_json::json!({
                            "day": label,
                            "threshold_percent": percent,
                            "used": used,
                            "daily_cap": daily_cap,
                            "tier": tier,
                            "links": { "usage": "/account/usage" },
                        });
                        emit(
                            &tx,
                            events::USAGE_THRESHOLD,
                            Audience::Account(account),
                            &data,
                        )?;
                        emitted += 1;
                    }
                }
            }
        }
        tx.commit()?;
        Ok(emitted)
    }
}

impl Scoped {
    /// The caller's account's counters from `since` (a day number) on: (day label, used), oldest
    /// first.
    pub fn my_usage(&self, since: i64) -> StoreResult<Vec<(String, u64)>> {
        let mut stmt = self
            .sql()
            .prepare_cached("SELECT day, used FROM v_usage_daily WHERE day >= ?1 ORDER BY day")?;
        let rows = stmt.query_map(params![day_label(since)], |r| {
            Ok((r.get(0)?, r.get::<i64>(1)?.max(0) as u64))
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
