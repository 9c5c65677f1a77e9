//! An account's endpoints: registering, changing, rotating the secret and removing them.

use crate::store::sql::params;

use super::endpoint_state::{
    EndpointRow, GONE_REASON, MAX_ENDPOINTS_PER_ACCOUNT, endpoint_by_id, ensure_not_gone, url_key,
};
use crate::store::connections::System;
use crate::store::error::StoreResult;

/// A new endpoint; its secret sealed for `public_id` by the caller.
pub struct NewEndpoint<'a> {
    pub public_id: &'a str,
    pub url: &'a str,
    pub description: &'a str,
    pub event_types: &'a str,
    pub secret_sealed: &'a str,
    pub now: i64,
}

impl System {
    /// Registers an endpoint for `account`, unless it has [`MAX_ENDPOINTS_PER_ACCOUNT`].
    pub fn insert_endpoint(
        &mut self,
        account: i64,
        new: &NewEndpoint<'_>,
    ) -> StoreResult<EndpointRow> {
        let tx = self.transaction()?;
        let count: i64 = tx
            .prepare_cached("SELECT count(*) FROM webhook_endpoints WHERE account_id = ?1")?
            .query_row(params![account], |r| r.get(0))?;
        if count >= MAX_ENDPOINTS_PER_ACCOUNT {
            return Err(crate::store::error::StoreError::LimitReached(
                MAX_ENDPOINTS_PER_ACCOUNT as usize,
            ));
        }
        ensure_not_gone(&tx, account, new.url, new.now)?;
        let id: i64 = tx
            .prepare_cached(
            "INSERT INTO webhook_endpoints (public_id, account_id, url, description, event_types,
                                            secret_sealed, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             RETURNING id",
            )?
            .query_row(
                params![
            new.public_id,
            account,
            new.url,
            new.description,
            new.event_types,
            new.secret_sealed,
            new.now
                ],
                |r| r.get(0),
            )?;
        let row = endpoint_by_id(&tx, id)?;
        tx.commit()?;
        Ok(row)
    }

    /// Removes an endpoint of `account` with its deliveries and their attempts; its row id, or
    /// None when the account has no such endpoint.
    pub fn delete_endpoint(&mut self, account: i64, public_id: &str) -> StoreResult<Option<i64>> {
        let Some((tx, id)) = self.endpoint_write(account, public_id)? else {
            return Ok(None);
        };
        tx.execute(
            "DELETE FROM webhook_attempts WHERE delivery_id IN
                 (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?1)",
            params![id],
        )?;
        tx.execute(
            "DELETE FROM webhook_deliveries WHERE endpoint_id = ?1",
            params![id],
        )?;
        tx.execute("DELETE FROM webhook_endpoints WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(Some(id))
    }
}

/// What a `PATCH` changes of an endpoint; None leaves a field as it is.
#[derive(Default)]
pub struct EndpointPatch<'a> {
    pub url: Option<&'a str>,
    pub description: Option<&'a str>,
    /// JSON array of event type names.
    pub event_types: Option<&'a str>,
    /// Enabling clears the reason it was disabled (not a 410's: that takes a new URL); the
    /// breaker stays as it is.
    pub enabled: Option<bool>,
    /// When the change is made (unix ms): a 410's hold on a URL is counted from its answer.
    pub now: i64,
}

/// How far a reset moves an endpoint's breaker version: beyond every version the attempts under
/// way (a few per endpoint) may still save.
const RESET_VERSION_STEP: i64 = 1 << 20;

impl System {
    /// Changes an endpoint of `account`; None when it has no such endpoint.
    pub fn update_endpoint(
        &mut self,
        account: i64,
        public_id: &str,
        patch: &EndpointPatch<'_>,
    ) -> StoreResult<Option<EndpointRow>> {
        let Some((tx, id)) = self.endpoint_write(account, public_id)? else {
            return Ok(None);
        };
        let (url, reason): (String, Option<String>) = tx.query_row(
            "SELECT url, disabled_reason FROM webhook_endpoints WHERE id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        // The breaker's history and a 410 belong to the receiver at the URL: a new URL starts
        // afresh (closed, at a version above any an attempt under way may still save); disabling
        // and enabling again does not, so it cannot open the way to a failing or departed one.
        let new_url = patch.url.is_some_and(|u| url_key(u) != url_key(&url));
        if let Some(url) = patch.url.filter(|_| new_url) {
            ensure_not_gone(&tx, account, url, patch.now)?;
        }
        if new_url {
            tx.execute(
                "UPDATE webhook_endpoints
                 SET breaker_state = 'closed', consecutive_failures = 0, breaker_open_until = NULL,
                     breaker_trips = 0, failing_since = NULL,
                     breaker_version = breaker_version + ?2,
                     disabled_reason = CASE WHEN disabled_reason = ?3 THEN 'disabled after its previous URL answered 410 Gone' ELSE disabled_reason END
                 WHERE id = ?1",
                params![id, RESET_VERSION_STEP, GONE_REASON],
            )?;
        } else if patch.enabled == Some(true) && reason.as_deref() == Some(GONE_REASON) {
            return Err(crate::store::error::StoreError::Conflict(
                "the receiver answered 410 Gone, asking never to be called again: give a new url to enable the endpoint".into(),
            ));
        }
        // Before `enabled` changes: only a change of state touches the reason.
        match patch.enabled {
            // Disabling keeps the reason of an endpoint disabled already (a 410, say).
            Some(false) => tx.execute(
                "UPDATE webhook_endpoints SET disabled_reason = 'disabled by its owner'
                 WHERE id = ?1 AND enabled",
                params![id],
            )?,
            Some(true) => tx.execute(
                "UPDATE webhook_endpoints SET disabled_reason = NULL WHERE id = ?1 AND NOT enabled",
                params![id],
            )?,
            None => 0,
        };
        tx.execute(
            "UPDATE webhook_endpoints
             SET url = coalesce(?2, url), description = coalesce(?3, description),
                 event_types = coalesce(?4, event_types), enabled = coalesce(?5, enabled)
             WHERE id = ?1",
            params![
                id,
                patch.url,
                patch.description,
                patch.event_types,
                patch.enabled
            ],
        )?;
        let row = endpoint_by_id(&tx, id)?;
        tx.commit()?;
        Ok(Some(row))
    }

    /// Makes `new_sealed` the endpoint's secret; the current one keeps signing beside it until
    /// `grace_until`. None when `account` has no such endpoint; a conflict while a previous
    /// secret is still in its grace period at `now`.
    pub fn rotate_secret(
        &mut self,
        account: i64,
        public_id: &str,
        new_sealed: &str,
        now: i64,
        grace_until: i64,
    ) -> StoreResult<Option<EndpointRow>> {
        let Some((tx, id)) = self.endpoint_write(account, public_id)? else {
            return Ok(None);
        };
        // A receiver may still verify with the previous secret until its grace ends: replacing
        // it now would drop deliveries signed for it.
        let previous_until: Option<i64> = tx.query_row(
            "SELECT previous_secret_until FROM webhook_endpoints WHERE id = ?1",
            params![id],
            |r| r.get(0),
        )?;
        if previous_until.is_some_and(|until| until > now) {
            return Err(crate::store::error::StoreError::Conflict(format!(
                "the previous secret still signs until {}; rotate again after that",
                crate::runtime::clock::rfc3339(previous_until.unwrap_or(now))
            )));
        }
        tx.execute(
            "UPDATE webhook_endpoints
             SET previous_secret_sealed = secret_sealed, previous_secret_until = ?3,
                 secret_sealed = ?2
             WHERE id = ?1",
            params![id, new_sealed, grace_until],
        )?;
        let row = endpoint_by_id(&tx, id)?;
        tx.commit()?;
        Ok(Some(row))
    }
}

#[cfg(test)]
mod tests {
    use super::super::endpoint_state::GONE_FOR_MS;
    use super::super::fixtures::{HOOK, emit, gone_at, on_each_backend, register};
    use super::super::*;
    use super::*;
    use crate::webhooks::breaker::Breaker;

    /// Disabling and enabling keep the breaker's history, and an endpoint whose receiver
    /// answered 410 is enabled again only with a new URL, which starts afresh.
    #[test]
    fn breaker_and_410_survive_disable_and_enable_until_the_url_changes() {
        on_each_backend(|store| {
            let endpoint = register(store, 1, "whk_a", r#"["webhook.test"]"#, HOOK, "v1:s").id;
            emit(store, "msg_1", "webhook.test", Audience::Account(1), 2_000);
            let mut system = store.system().unwrap();
            let delivery = system.claim_due(2_000, 60_000, 10, 4, 100).unwrap()[0].delivery_id;
            let mut tripped = Breaker::default();
            for _ in 0..crate::webhooks::breaker::TRIP_AFTER {
                tripped.record(false, 3_000);
            }
            tripped.version = 1;
            let gone = |breaker: &Breaker| gone_at(delivery, endpoint, 1, HOOK, breaker);
            system.record_attempts(&[gone(&tripped)]).unwrap();
            let patch = |enabled: Option<bool>, url: Option<&'static str>| EndpointPatch {
                url,
                description: None,
                event_types: None,
                enabled,
                now: 4_000,
            };
            let refused = system.update_endpoint(1, "whk_a", &patch(Some(true), None));
            assert!(
                matches!(&refused, Err(crate::store::error::StoreError::Conflict(m)) if m.contains("new url")),
                "{refused:?}"
            );
            assert_eq!(system.breaker(endpoint).unwrap().trips, tripped.trips);

            // Another reason: disable and enable keep the breaker as it was.
            system
                .sql()
                .execute(
                    "UPDATE webhook_endpoints SET disabled_reason = 'disabled by its owner'",
                    params![],
                )
                .unwrap();
            let row = system
                .update_endpoint(1, "whk_a", &patch(Some(true), None))
                .unwrap()
                .unwrap();
            assert!(row.enabled);
            assert_eq!((row.breaker_state.as_str(), row.breaker_trips), ("open", 1));

            // A new URL starts afresh.
            system.record_attempts(&[gone(&tripped)]).unwrap();
            let row = system
                .update_endpoint(
                    1,
                    "whk_a",
                    &patch(Some(true), Some("https://hooks.example.org/new")),
                )
                .unwrap()
                .unwrap();
            assert!(row.enabled && row.disabled_reason.is_none(), "{row:?}");
            assert_eq!(
                (row.breaker_state.as_str(), row.breaker_trips),
                ("closed", 0)
            );

            // The URL that answered 410 stays refused to the account for 30 days, written in any
            // form, on a new endpoint too; another account may name it.
            let back = system.update_endpoint(
                1,
                "whk_a",
                &patch(None, Some("https://HOOKS.example.org./in?")),
            );
            assert!(
                matches!(&back, Err(crate::store::error::StoreError::Conflict(m)) if m.contains("410 Gone")),
                "{back:?}"
            );
            let new = |public_id, now| NewEndpoint {
                public_id,
                url: HOOK,
                description: "",
                event_types: r#"["webhook.test"]"#,
                secret_sealed: "v1:s",
                now,
            };
            assert!(system.insert_endpoint(1, &new("whk_b", 4_000)).is_err());
            assert!(system.insert_endpoint(2, &new("whk_c", 4_000)).is_ok());
            assert!(
                system
                    .insert_endpoint(1, &new("whk_d", 3_000 + GONE_FOR_MS))
                    .is_ok()
            );
        });
    }
}
