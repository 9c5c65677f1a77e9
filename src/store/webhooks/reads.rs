//! An account's own endpoints and deliveries, read through the `v_webhook_*` views.

use crate::store::sql::{OptionalExtension, params};

use super::endpoint_state::{ENDPOINT_COLUMNS, EndpointRow, endpoint_from_row};
use crate::store::connections::Scoped;
use crate::store::error::StoreResult;

/// Attempts listed per delivery at most: the latest (resends and replays add attempts to a
/// delivery without bound over its 30 days).
pub const MAX_LOGGED_ATTEMPTS: i64 = 20;

/// A delivery as its endpoint's owner sees it, with its latest attempts.
#[derive(Debug, Clone)]
pub struct DeliveryRow {
    pub public_id: String,
    pub event_public_id: String,
    pub event_type: String,
    pub occurred_at: i64,
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: i64,
    pub delivered_at: Option<i64>,
    pub log: Vec<AttemptRow>,
}

#[derive(Debug, Clone)]
pub struct AttemptRow {
    pub attempted_at: i64,
    pub status_code: Option<u16>,
    pub latency_ms: i64,
    pub error: Option<String>,
}

impl Scoped {
    /// The caller's endpoints, oldest first.
    pub fn my_endpoints(&self) -> StoreResult<Vec<EndpointRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {ENDPOINT_COLUMNS} FROM v_webhook_endpoints ORDER BY id"
        ))?;
        let rows = stmt.query_map(params![], endpoint_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The caller's endpoint with this id; someone else's is None, like a missing one.
    pub fn my_endpoint(&self, public_id: &str) -> StoreResult<Option<EndpointRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {ENDPOINT_COLUMNS} FROM v_webhook_endpoints WHERE public_id = ?1"
        ))?;
        Ok(stmt
            .query_row(params![public_id], endpoint_from_row)
            .optional()?)
    }

    /// The newest `limit` deliveries of the caller's endpoint `endpoint` (a public id), before
    /// the delivery `before` of the same endpoint (a page's last; none when it is no delivery of
    /// it) when given, each with its latest [`MAX_LOGGED_ATTEMPTS`] attempts.
    pub fn my_deliveries(
        &self,
        endpoint: &str,
        limit: usize,
        before: Option<&str>,
    ) -> StoreResult<Vec<DeliveryRow>> {
        // The page's end as a row id. The event's id is selected though unused: a query that
        // reads no column of a table joined inside a view is authorised as a direct read of it,
        // which request connections may not make.
        let before: Option<i64> = match before {
            None => None,
            Some(before) => Some(
                self.sql()
                    .prepare_cached(
                        "SELECT id, event_public_id FROM v_webhook_deliveries
                         WHERE public_id = ?1 AND endpoint_public_id = ?2",
                    )?
                    .query_row(params![before, endpoint], |r| r.get(0))
                    .optional()?
                    .unwrap_or(0),
            ),
        };
        let mut deliveries: Vec<(i64, DeliveryRow)> = self
            .sql()
            .prepare_cached(
                "SELECT id, public_id, event_public_id, type, occurred_at, status, attempts,
                        next_attempt_at, delivered_at
                 FROM v_webhook_deliveries
                 WHERE endpoint_public_id = ?1
                   AND (id < ?3 OR ?3 IS NULL)
                 ORDER BY id DESC LIMIT ?2",
            )?
            .query_map(params![endpoint, limit as i64, before], |r| {
                Ok((
                    r.get(0)?,
                    DeliveryRow {
                        public_id: r.get(1)?,
                        event_public_id: r.get(2)?,
                        event_type: r.get(3)?,
                        occurred_at: r.get(4)?,
                        status: r.get(5)?,
                        attempts: r.get(6)?,
                        next_attempt_at: r.get(7)?,
                        delivered_at: r.get(8)?,
                        log: Vec::new(),
                    },
                ))
            })?
            .collect::<Result<_, _>>()?;
        let mut attempts = self.sql().prepare_cached(
            "SELECT attempted_at, status_code, latency_ms, error FROM
                 (SELECT id, attempted_at, status_code, latency_ms, error FROM v_webhook_attempts
                  WHERE delivery_id = ?1 ORDER BY id DESC LIMIT ?2) AS latest
             ORDER BY id",
        )?;
        for (id, delivery) in &mut deliveries {
            delivery.log = attempts
                .query_map(params![*id, MAX_LOGGED_ATTEMPTS], |r| {
                    Ok(AttemptRow {
                        attempted_at: r.get(0)?,
                        status_code: r.get(1)?,
                        latency_ms: r.get(2)?,
                        error: r.get(3)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
        }
        Ok(deliveries.into_iter().map(|(_, d)| d).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{emit, on_each_backend, register};
    use super::super::*;

    #[test]
    fn the_delivery_log_lists_deliveries_with_their_attempts() {
        on_each_backend(|store| {
            register(
                store,
                1,
                "whk_a1",
                r#"["webhook.test"]"#,
                "https://h.example/",
                "v1:s",
            );
            emit(store, "msg_1", "webhook.test", Audience::Account(1), 2_000);
            let mut system = store.system().unwrap();
            let c = system.claim_due(3_000, 60_000, 10, 4, 100).unwrap();
            system
                .record_attempts(&[AttemptRecord {
                    delivery_id: c[0].delivery_id,
                    at: 3_000,
                    status_code: Some(500),
                    latency_ms: 7,
                    error: None,
                    next: NextStep::RetryAt(9_000),
                    endpoint: None,
                }])
                .unwrap();
            let log = store
                .scoped(Some(1))
                .unwrap()
                .my_deliveries("whk_a1", 10, None)
                .unwrap();
            assert_eq!(log.len(), 1);
            assert_eq!(log[0].log[0].status_code, Some(500));
            let first = log[0].public_id.clone();
            emit(store, "msg_2", "webhook.test", Audience::Account(1), 2_500);
            let scoped = store.scoped(Some(1)).unwrap();
            let page = scoped.my_deliveries("whk_a1", 1, None).unwrap();
            assert_eq!(page[0].event_public_id, "msg_2", "newest first");
            let next = scoped
                .my_deliveries("whk_a1", 1, Some(&page[0].public_id))
                .unwrap();
            assert_eq!(next[0].public_id, first);
            assert!(
                scoped
                    .my_deliveries("whk_a1", 10, Some("dlv_unknown"))
                    .unwrap()
                    .is_empty(),
                "an unknown page end is the end"
            );
            drop(scoped);
            assert!(
                store
                    .scoped(Some(2))
                    .unwrap()
                    .my_deliveries("whk_a1", 10, None)
                    .unwrap()
                    .is_empty(),
                "another account's endpoint shows nothing"
            );
        });
    }
}
