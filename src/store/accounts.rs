//! Accounts, API keys and sessions. Lookups for authentication and every write run on a
//! [`System`] connection and take the account they act for as an argument that callers fill from
//! the authenticated principal; the account's own reads (`my_keys`) go through the views.

use crate::store::sql::{Column, Db, Dialect, OptionalExtension, Owned, Row, SqlResult, params};
use serde::Serialize;

use super::connections::{Lookup, Scoped, System};
use super::error::{StoreError, StoreResult};
use super::webhooks::{Audience, emit};
use crate::webhooks::events;

/// The data of `api_key.created` and `api_key.revoked`: which key, never secret material.
fn key_event(key_id: &str, name: &str, at: i64) -> serde_json::Value {
    serde_json::json!({
        "key_id": key_id,
        "name": name,
        "at": crate::runtime::clock::rfc3339(at),
        "links": { "api_keys": "/account/api-keys" },
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Professional,
    Institutional,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Professional => "professional",
            Tier::Institutional => "institutional",
        }
    }

    pub fn parse(text: &str) -> Option<Tier> {
        match text {
            "professional" => Some(Tier::Professional),
            "institutional" => Some(Tier::Institutional),
            _ => None,
        }
    }

    /// Active API keys an account of this tier may hold, as the product's tiers promise.
    pub fn key_limit(self) -> usize {
        match self {
            Tier::Professional => 1,
            Tier::Institutional => 10,
        }
    }
}

impl rusqlite::types::FromSql for Tier {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        Tier::parse(value.as_str()?).ok_or(rusqlite::types::FromSqlError::InvalidType)
    }
}

impl Column for Tier {
    fn from_sqlite(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<Self> {
        row.get(index)
    }

    fn from_owned(value: Owned) -> Result<Self, String> {
        String::from_owned(value).and_then(|t| Tier::parse(&t).ok_or(format!("no tier {t}")))
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct AccountRow {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub tier: Tier,
    pub disabled: bool,
    /// Unix milliseconds; written as RFC 3339 in answers.
    #[serde(serialize_with = "crate::runtime::clock::serialize_rfc3339")]
    pub created_at: i64,
}

const ACCOUNT_COLUMNS: &str = "id, email, display_name, tier, disabled, created_at";

fn account_from_row(r: &Row) -> SqlResult<AccountRow> {
    Ok(AccountRow {
        id: r.get(0)?,
        email: r.get(1)?,
        display_name: r.get(2)?,
        tier: r.get(3)?,
        disabled: r.get(4)?,
        created_at: r.get(5)?,
    })
}

/// What authentication needs to know about a presented key.
#[derive(Debug, Clone)]
pub struct KeyRecord {
    pub account_id: i64,
    pub mac: Vec<u8>,
    pub revoked: bool,
    pub tier: Tier,
    pub account_disabled: bool,
}

/// What storing a new key takes.
#[derive(Clone, Copy)]
pub struct NewKey<'a> {
    pub account_id: i64,
    pub key_id: &'a str,
    pub name: &'a str,
    /// HMAC-SHA256 of the whole key under the pepper of `pepper_version`.
    pub mac: &'a [u8],
    pub pepper_version: i64,
    pub now: i64,
}

/// A key as its owner and the operator see it: never the MAC.
#[derive(Debug, Clone, Serialize)]
pub struct KeyRow {
    pub key_id: String,
    pub account_id: i64,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub revoked_at: Option<i64>,
}

const KEY_COLUMNS: &str = "key_id, account_id, name, created_at, last_used_at, revoked_at";

fn key_from_row(r: &Row) -> SqlResult<KeyRow> {
    Ok(KeyRow {
        key_id: r.get(0)?,
        account_id: r.get(1)?,
        name: r.get(2)?,
        created_at: r.get(3)?,
        last_used_at: r.get(4)?,
        revoked_at: r.get(5)?,
    })
}

/// How an account is found by email: without case, as the unique index compares them (SQLite's
/// column compares so itself; PostgreSQL's index is on `lower(email)`).
fn by_email(db: &Db<'_>) -> &'static str {
    match db.dialect() {
        Dialect::Sqlite => "email = ?1",
        Dialect::Postgres => "lower(email) = lower(?1)",
    }
}

impl System {
    pub fn create_account(
        &self,
        email: &str,
        display_name: &str,
        tier: Tier,
        password_hash: &str,
        now: i64,
    ) -> StoreResult<AccountRow> {
        let result = self.sql().query_row(
            "INSERT INTO accounts (email, display_name, tier, password_hash, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
            params![email, display_name, tier.as_str(), password_hash, now],
            |r| r.get::<i64>(0),
        );
        match result {
            Err(e) if e.is_constraint_violation() => Err(StoreError::Conflict(format!(
                "an account with email {email} exists"
            ))),
            Err(e) => Err(e.into()),
            Ok(id) => self
                .account(id)?
                .ok_or_else(|| StoreError::Other(anyhow::anyhow!("account {id} vanished"))),
        }
    }

    pub fn accounts(&self) -> StoreResult<Vec<AccountRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts ORDER BY id"
        ))?;
        let rows = stmt.query_map(params![], account_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn account(&self, id: i64) -> StoreResult<Option<AccountRow>> {
        account_by_id(&self.sql(), id)
    }

    /// The account and its password hash, for login and the operator commands.
    pub fn account_by_email(&self, email: &str) -> StoreResult<Option<(AccountRow, String)>> {
        let db = self.sql();
        let mut stmt = db.prepare_cached(&format!(
            "SELECT {ACCOUNT_COLUMNS}, password_hash FROM accounts WHERE {}",
            by_email(&db)
        ))?;
        Ok(stmt
            .query_row(params![email], |r| Ok((account_from_row(r)?, r.get(6)?)))
            .optional()?)
    }

    /// Sets tier and/or disabled flag; false if there is no such account.
    pub fn update_account(
        &self,
        email: &str,
        tier: Option<Tier>,
        disabled: Option<bool>,
    ) -> StoreResult<bool> {
        let db = self.sql();
        let changed = db.execute(
            &format!(
                "UPDATE accounts SET tier = coalesce(?2, tier), disabled = coalesce(?3, disabled)
                 WHERE {}",
                by_email(&db)
            ),
            params![email, tier.map(Tier::as_str), disabled],
        )?;
        Ok(changed == 1)
    }

    /// Replaces an account's password hash; false if there is no such account.
    pub fn set_password(&self, email: &str, password_hash: &str) -> StoreResult<bool> {
        let db = self.sql();
        let changed = db.execute(
            &format!(
                "UPDATE accounts SET password_hash = ?2 WHERE {}",
                by_email(&db)
            ),
            params![email, password_hash],
        )?;
        Ok(changed == 1)
    }

    /// Stores a new key unless the account already holds `limit` active keys; the count and the
    /// insert share one immediate transaction, so concurrent creations cannot exceed the limit.
    pub fn insert_key(&mut self, key: &NewKey<'_>, limit: usize) -> StoreResult<KeyRow> {
        let NewKey {
            account_id,
            key_id,
            name,
            mac,
            pepper_version,
            now,
        } = *key;
        let tx = self.transaction()?;
        let active: i64 = tx.query_row(
            "SELECT count(*) FROM api_keys WHERE account_id = ?1 AND revoked_at IS NULL",
            params![account_id],
            |r| r.get(0),
        )?;
        if active as usize >= limit {
            return Err(StoreError::LimitReached(limit));
        }
        tx.execute(
            "INSERT INTO api_keys (key_id, account_id, name, mac, pepper_version, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![key_id, account_id, name, mac, pepper_version, now],
        )?;
        emit(
            &tx,
            events::API_KEY_CREATED,
            Audience::Account(account_id),
            &key_event(key_id, name, now),
        )?;
        tx.commit()?;
        Ok(KeyRow {
            key_id: key_id.to_owned(),
            account_id,
            name: name.to_owned(),
            created_at: now,
            last_used_at: None,
            revoked_at: None,
        })
    }

    /// Revokes a key of `account` (or of any account when None: the operator). False when there
    /// is no such active key, so another account's key id looks exactly like a missing one.
    /// Revokes the key and bumps `auth_generation` in one transaction, so every other process
    /// on this database drops the key from its cache within about a second. Returns whether a
    /// key was revoked, and the new `auth_generation` if so.
    pub fn revoke_key(
        &self,
        account: Option<i64>,
        key_id: &str,
        now: i64,
    ) -> StoreResult<Option<i64>> {
        let tx = self.sql().transaction()?;
        let revoked: Option<(i64, String)> = tx
            .query_row(
                "UPDATE api_keys SET revoked_at = ?3
                 WHERE key_id = ?1 AND (account_id = ?2 OR ?2 IS NULL) AND revoked_at IS NULL
                 RETURNING account_id, name",
                params![key_id, account, now],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let generation = match revoked {
            Some((owner, name)) => {
                emit(
                    &tx,
                    events::API_KEY_REVOKED,
                    Audience::Account(owner),
                    &key_event(key_id, &name, now),
                )?;
                Some(bump_auth_generation(&tx)?)
            }
            None => None,
        };
        tx.commit()?;
        Ok(generation)
    }

    /// Keys of one account, or of all (operator), newest first.
    pub fn keys(&self, account: Option<i64>) -> StoreResult<Vec<KeyRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {KEY_COLUMNS} FROM api_keys WHERE account_id = ?1 OR ?1 IS NULL ORDER BY id DESC"
        ))?;
        let rows = stmt.query_map(params![account], key_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn touch_key(&self, key_id: &str, now: i64) -> StoreResult<()> {
        self.sql().execute(
            "UPDATE api_keys SET last_used_at = ?2 WHERE key_id = ?1",
            params![key_id, now],
        )?;
        Ok(())
    }

    pub fn create_session(
        &self,
        sid: &str,
        account_id: i64,
        now: i64,
        expires: i64,
    ) -> StoreResult<()> {
        self.sql().execute(
            "INSERT INTO sessions (id, account_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
            params![sid, account_id, now, expires],
        )?;
        Ok(())
    }

    pub fn revoke_session(&self, sid: &str, now: i64) -> StoreResult<()> {
        self.sql().execute(
            "UPDATE sessions SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
            params![sid, now],
        )?;
        Ok(())
    }

    /// Tells running servers to drop cached credentials (see `store_meta`).
    pub fn bump_auth_generation(&self) -> StoreResult<()> {
        bump_auth_generation(&self.sql())?;
        Ok(())
    }

    pub fn auth_generation(&self) -> StoreResult<i64> {
        Ok(self.sql().query_row(
            "SELECT value FROM store_meta WHERE key = 'auth_generation'",
            params![],
            |r| r.get(0),
        )?)
    }
}

/// The reads authentication makes on the async threads.
impl Lookup {
    pub fn key_for_auth(&self, key_id: &str) -> StoreResult<Option<KeyRecord>> {
        let mut stmt = self.sql().prepare_cached(
            "SELECT k.account_id, k.mac, k.revoked_at IS NOT NULL, a.tier, a.disabled
             FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_id = ?1",
        )?;
        Ok(stmt
            .query_row(params![key_id], |r| {
                Ok(KeyRecord {
                    account_id: r.get(0)?,
                    mac: r.get(1)?,
                    revoked: r.get(2)?,
                    tier: r.get(3)?,
                    account_disabled: r.get(4)?,
                })
            })
            .optional()?)
    }

    pub fn session_active(&self, sid: &str, account_id: i64, now: i64) -> StoreResult<bool> {
        let mut stmt = self.sql().prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM sessions s JOIN accounts a ON a.id = s.account_id
                            WHERE s.id = ?1 AND s.account_id = ?2 AND s.revoked_at IS NULL
                              AND s.expires_at > ?3 AND NOT a.disabled)",
        )?;
        Ok(stmt.query_row(params![sid, account_id, now], |r| r.get(0))?)
    }

    pub fn account(&self, id: i64) -> StoreResult<Option<AccountRow>> {
        account_by_id(&self.sql(), id)
    }
}

fn account_by_id(db: &Db<'_>, id: i64) -> StoreResult<Option<AccountRow>> {
    let mut stmt = db.prepare_cached(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?1"
    ))?;
    Ok(stmt.query_row(params![id], account_from_row).optional()?)
}

impl Scoped {
    /// Up to `limit` of the caller's keys, newest first, after the key `after` (none when the
    /// caller has no such key).
    pub fn my_keys_page(&self, after: Option<&str>, limit: usize) -> StoreResult<Vec<KeyRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {KEY_COLUMNS} FROM v_api_keys
             WHERE id < (SELECT id FROM v_api_keys WHERE key_id = ?1) OR ?1 IS NULL
             ORDER BY id DESC LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![after, limit as i64], key_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many keys the caller has, revoked ones included.
    pub fn my_key_count(&self) -> StoreResult<usize> {
        let n: i64 = self
            .sql()
            .prepare_cached("SELECT count(*) FROM v_api_keys")?
            .query_row(params![], |r| r.get(0))?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    pub fn my_keys(&self) -> StoreResult<Vec<KeyRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {KEY_COLUMNS} FROM v_api_keys ORDER BY id DESC"
        ))?;
        let rows = stmt.query_map(params![], key_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// Bumps `auth_generation` (see `schema.sql`); returns the new value.
fn bump_auth_generation(db: &Db<'_>) -> SqlResult<i64> {
    db.query_row(
        "UPDATE store_meta SET value = value + 1 WHERE key = 'auth_generation' RETURNING value",
        params![],
        |r| r.get(0),
    )
}
