//! Who is calling: an API key (`X-API-Key`, or `Authorization: Bearer sk_service_...`), a browser
//! session JWT (`Authorization: Bearer <jwt>`, or the account pages' session cookie with its CSRF
//! token in `X-CSRF-Token`), or nobody. A credential that is sent but not valid is an error, never
//! a downgrade to anonymous; a session cookie without its own CSRF token in the header is no
//! credential (another site can make a browser send the cookie, never the header), so such a
//! request is anonymous and can change nothing.
//!
//! Keys are checked for format and checksum before any database access, then looked up by key id
//! and compared as HMAC-SHA256 under the pepper in constant time. Verified keys are cached for at
//! most [`KEY_CACHE_TTL`]; a revocation through this server clears the entry at once, and one made
//! by the operator commands within about a second (`auth_generation`).

pub mod api_key;
mod error;
pub mod jwt;
pub mod password;
pub mod secret_guard;
pub mod secrets;
pub mod throttle;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderName};

use crate::store::accounts::{AccountRow, KeyRecord, KeyRow, NewKey, Tier};
use crate::store::{Store, StoreError};
pub use error::{AuthError, Refusal};

/// How long a verified key is trusted without asking the database again: a revocation
/// elsewhere (another process, a restore) takes effect within this time.
pub const KEY_CACHE_TTL: Duration = Duration::from_secs(30);
/// `last_used_at` is written at most this often per key.
const TOUCH_INTERVAL: Duration = Duration::from_secs(60);
/// Lifetime of a session token: short, as OWASP's session guidance asks for tokens that cannot be
/// revoked one by one; the account area logs in again after it.
pub const SESSION_TTL_SECS: i64 = 15 * 60;
/// Longest email address (RFC 5321 path limit): a longer one cannot be an account's.
pub const MAX_EMAIL_BYTES: usize = 254;
/// Entries kept in the in-memory maps before the oldest half is dropped.
const MAP_BOUND: usize = 10_000;

/// How the caller proved who they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    ApiKey { key_id: String },
    Session { sid: String },
}

/// An authenticated account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub account_id: i64,
    pub tier: Tier,
    pub via: Via,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Principal {
    Anonymous,
    Account(Caller),
}

impl Principal {
    pub fn account_id(&self) -> Option<i64> {
        match self {
            Principal::Anonymous => None,
            Principal::Account(c) => Some(c.account_id),
        }
    }
}

struct CachedKey {
    /// Shared, so a cache hit costs a reference count, not a copy of the MAC.
    record: Arc<KeyRecord>,
    fetched: Instant,
    touched: Option<Instant>,
}

pub struct Auth {
    pepper: secrets::Pepper,
    keyring: jwt::KeyRing,
    keys: Mutex<HashMap<String, CachedKey>>,
    logins: throttle::LoginThrottle,
    generation: AtomicI64,
    /// Bumped by every revocation: a key read from the database before a revocation is not
    /// cached after it (it could be the revoked one).
    revocations: AtomicI64,
}

/// The browser's session token, in a cookie scripts cannot read; `__Host-` makes browsers
/// accept it only from this host, over HTTPS, for every path (no sibling domain can set it).
pub const SESSION_COOKIE: &str = "__Host-regintel_session";
/// The session's CSRF token, in a cookie the account pages read and send back in
/// [`CSRF_HEADER`]: a page of another site can neither read it nor set that header.
pub const CSRF_COOKIE: &str = "__Host-regintel_csrf";
pub const CSRF_HEADER: HeaderName = HeaderName::from_static("x-csrf-token");
/// An API key's header. (Header names as constants: looked up by text, a name is parsed again
/// on every request.)
pub const API_KEY_HEADER: HeaderName = HeaderName::from_static("x-api-key");

/// The session token and CSRF token of a browser request, when it carries both. The cookie
/// alone is no credential: a request without the header (a link from another site, a form
/// posted from one) is anonymous, so it can change nothing.
pub fn browser_session(headers: &HeaderMap) -> Option<(&str, &str)> {
    let csrf = headers.get(CSRF_HEADER)?.to_str().ok()?.trim();
    Some((session_cookie(headers)?, csrf))
}

/// Whether the browser says the request comes from this origin or from the person (a typed
/// address, a bookmark): `Sec-Fetch-Site` (Fetch Metadata). `SameSite=Strict` still sends the
/// cookie with requests from a sibling subdomain's pages, which this refuses; a client that sends
/// no such header is taken at its cookie.
fn same_origin(headers: &HeaderMap) -> bool {
    headers
        .get("sec-fetch-site")
        .is_none_or(|site| matches!(site.as_bytes(), b"same-origin" | b"none"))
}

/// The session token of the browser's cookie, with or without its CSRF header.
fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == SESSION_COOKIE).then_some(value)
        })
}

/// What the CSRF MAC covers: the session token, in a domain no API key shares (keys have no
/// NUL byte).
fn csrf_input(session_token: &str) -> String {
    format!("regintel-csrf\0{session_token}")
}

/// Whether a key last recorded as used at `touched` is due to be recorded again.
fn touch_due(touched: Option<Instant>) -> bool {
    touched.is_none_or(|t| t.elapsed() >= TOUCH_INTERVAL)
}

/// A successful login.
#[derive(Debug, serde::Serialize)]
pub struct Session {
    pub access_token: String,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub account: AccountRow,
}

fn now_ms() -> i64 {
    crate::runtime::clock::now_ms()
}

impl Auth {
    /// Loads (creating on first start) the pepper and the JWT key ring under `<data_dir>/secrets`.
    pub fn open(data_dir: &Path, issuer: &str) -> anyhow::Result<Auth> {
        let dir = secrets::secrets_dir(data_dir)?;
        Ok(Auth {
            pepper: secrets::Pepper::load_or_create(&dir)?,
            keyring: jwt::KeyRing::load_or_create(&dir, issuer)?,
            keys: Mutex::new(HashMap::new()),
            logins: throttle::LoginThrottle::default(),
            generation: AtomicI64::new(0),
            revocations: AtomicI64::new(0),
        })
    }

    /// The password of PostgreSQL's request role `role` (see [`secrets::Pepper`]).
    pub fn request_role_password(&self, role: &str) -> String {
        self.pepper.request_role_password(role)
    }

    /// Drops cached keys when the operator changed accounts or keys in another process.
    pub fn refresh(&self, store: &Store) {
        if let Ok(g) = store.system().and_then(|s| s.auth_generation())
            && self.generation.swap(g, Ordering::AcqRel) != g
        {
            self.keys.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    /// The caller of a request. `cookie_reads`: the request only reads a page of this host
    /// (an explorer page), so the session cookie alone is enough when the browser says the
    /// request comes from this origin or the person: `SameSite=Strict` keeps other sites'
    /// links and forms from sending it, and such a request changes nothing. A stale cookie
    /// there reads the page as anonymous rather than refusing it.
    pub fn authenticate(
        &self,
        store: &Store,
        headers: &HeaderMap,
        cookie_reads: bool,
    ) -> Result<Principal, AuthError> {
        let api_key = headers.get(API_KEY_HEADER);
        let authorization = headers.get(AUTHORIZATION);
        let token = match (api_key, authorization) {
            (None, None) => {
                // The header is what makes the cookie a credential: with a token that is not
                // its session's (another session's, a stale page's), the request is anonymous,
                // exactly as without one.
                return match browser_session(headers) {
                    Some((token, csrf)) if self.verify_csrf(token, csrf) => {
                        self.verify_session(store, token).map(Principal::Account)
                    }
                    _ => match session_cookie(headers)
                        .filter(|_| cookie_reads && same_origin(headers))
                    {
                        // A stale or foreign cookie reads the page as anonymous; a failure to
                        // look the session up is the server's, and says so.
                        Some(token) => match self.verify_session(store, token) {
                            Ok(caller) => Ok(Principal::Account(caller)),
                            Err(AuthError::Refused(_)) => Ok(Principal::Anonymous),
                            Err(other) => Err(other),
                        },
                        None => Ok(Principal::Anonymous),
                    },
                };
            }
            (Some(_), Some(_)) => {
                return Err(Refusal::Ambiguous(
                    "send one credential: X-API-Key or Authorization, not both",
                )
                .into());
            }
            (Some(key), None) => {
                let key = key.to_str().map_err(|_| Refusal::InvalidCredential)?;
                return self.verify_key(store, key.trim()).map(Principal::Account);
            }
            (None, Some(value)) => value.to_str().map_err(|_| Refusal::InvalidCredential)?,
        };
        let Some(bearer) = token
            .split_once(' ')
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, t)| t.trim())
        else {
            return Err(Refusal::Ambiguous("Authorization must use the Bearer scheme").into());
        };
        if bearer.starts_with(api_key::PREFIX) {
            self.verify_key(store, bearer).map(Principal::Account)
        } else {
            self.verify_session(store, bearer).map(Principal::Account)
        }
    }

    /// The CSRF token of a browser session: an HMAC of its token under the pepper, so only the
    /// server can make it, and a page can send it without reading the HttpOnly session cookie.
    pub fn csrf_token(&self, session_token: &str) -> String {
        URL_SAFE_NO_PAD.encode(self.pepper.mac(&csrf_input(session_token)))
    }

    /// Whether `given` is the CSRF token of `session_token`, compared in constant time.
    fn verify_csrf(&self, session_token: &str, given: &str) -> bool {
        URL_SAFE_NO_PAD
            .decode(given)
            .is_ok_and(|mac| self.pepper.verify(&csrf_input(session_token), &mac))
    }

    /// Runs on the async threads: the lookup of an uncached key uses a lookup connection, which
    /// never waits.
    fn verify_key(&self, store: &Store, presented: &str) -> Result<Caller, AuthError> {
        let key_id = api_key::parse(presented).ok_or(Refusal::InvalidCredential)?;
        // With the record, whether a use is due to be recorded (checked again before recording,
        // so a request for which it is not due takes the lock once).
        let cached = {
            let keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
            keys.get(key_id)
                .filter(|entry| entry.fetched.elapsed() < KEY_CACHE_TTL)
                .map(|entry| (Arc::clone(&entry.record), touch_due(entry.touched)))
        };
        let (record, touch) = match cached {
            Some(cached) => cached,
            None => {
                let epoch = self.revocations.load(Ordering::Acquire);
                let record = Arc::new(
                    store
                        .lookup()?
                        .key_for_auth(key_id)?
                        .ok_or(Refusal::InvalidCredential)?,
                );
                let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
                // A revocation that ran meanwhile may have been of this key: use the record
                // once and cache nothing.
                if self.revocations.load(Ordering::Acquire) == epoch {
                    if keys.len() >= MAP_BOUND {
                        keys.clear();
                    }
                    let touched = keys.get(key_id).and_then(|e| e.touched);
                    keys.insert(
                        key_id.to_owned(),
                        CachedKey {
                            record: Arc::clone(&record),
                            fetched: Instant::now(),
                            touched,
                        },
                    );
                }
                (record, true)
            }
        };
        if !self.pepper.verify(presented, &record.mac) || record.revoked || record.account_disabled
        {
            return Err(Refusal::InvalidCredential.into());
        }
        if touch {
            self.note_use(store, key_id);
        }
        Ok(Caller {
            account_id: record.account_id,
            tier: record.tier,
            via: Via::ApiKey {
                key_id: key_id.to_owned(),
            },
        })
    }

    /// Records a verified key's use in `last_used_at`, at most once a minute. Only after the key
    /// verified: a wrong secret carrying a victim's key id must not count as the victim's use
    /// (nor hold back the recording of a real one).
    fn note_use(&self, store: &Store, key_id: &str) {
        {
            let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
            let Some(entry) = keys.get_mut(key_id) else {
                return; // not cached (a revocation raced with it): recorded next time
            };
            if !touch_due(entry.touched) {
                return;
            }
            entry.touched = Some(Instant::now());
        }
        // A write, so off the async threads; once a minute per key, so fire and forget.
        let (store, key_id) = (store.clone(), key_id.to_owned());
        crate::runtime::task::spawn_blocking_in_span(move || {
            if let Err(e) = store.system().and_then(|s| s.touch_key(&key_id, now_ms())) {
                tracing::warn!(key_id, error = %e, "could not record the key's last use");
            }
        });
    }

    fn verify_session(&self, store: &Store, token: &str) -> Result<Caller, AuthError> {
        let claims = self
            .keyring
            .verify(token)
            .map_err(|_| Refusal::InvalidCredential)?;
        let account_id: i64 = claims.sub.parse().map_err(|_| Refusal::InvalidCredential)?;
        let system = store.lookup()?;
        if !system.session_active(&claims.sid, account_id, now_ms())? {
            return Err(Refusal::InvalidCredential.into());
        }
        let account = system
            .account(account_id)?
            .ok_or(Refusal::InvalidCredential)?;
        Ok(Caller {
            account_id,
            tier: account.tier,
            via: Via::Session { sid: claims.sid },
        })
    }

    /// Verifies email and password (argon2id: call from a blocking thread). Unknown emails cost
    /// the same as wrong passwords. Repeated failures make further attempts wait (see
    /// [`throttle`]).
    pub fn verify_login(
        &self,
        store: &Store,
        email: &str,
        password: &str,
        client: u128,
    ) -> Result<AccountRow, AuthError> {
        let who = email.trim().to_lowercase();
        if who.len() > MAX_EMAIL_BYTES {
            return Err(Refusal::LoginFailed.into());
        }
        if let Some(wait) = self.logins.wait(&who, client, Instant::now()) {
            return Err(AuthError::Throttled { retry_after: wait });
        }
        let found = store.system()?.account_by_email(&who)?;
        let verified = match &found {
            Some((account, hash)) => password::verify(password, hash) && !account.disabled,
            None => {
                password::verify_dummy(password);
                false
            }
        };
        match (verified, found) {
            (true, Some((account, _))) => {
                self.logins.succeeded(&who, client);
                Ok(account)
            }
            _ => {
                self.logins.failed(&who, client, Instant::now());
                Err(Refusal::LoginFailed.into())
            }
        }
    }

    /// Opens a session for an account whose login verified.
    pub fn open_session(&self, store: &Store, account: AccountRow) -> Result<Session, AuthError> {
        let sid = api_key::random_base62(32);
        let now = now_ms();
        store
            .system()?
            .create_session(&sid, account.id, now, now + SESSION_TTL_SECS * 1000)?;
        let token = self
            .keyring
            .issue(account.id, &sid, now / 1000, SESSION_TTL_SECS)
            .map_err(AuthError::Internal)?;
        Ok(Session {
            access_token: token,
            token_type: "Bearer",
            expires_in: SESSION_TTL_SECS,
            account,
        })
    }

    /// Forgets what no longer matters (failed logins past the longest wait).
    pub fn sweep(&self) {
        self.logins.sweep(Instant::now());
    }

    pub fn logout(&self, store: &Store, sid: &str) -> Result<(), StoreError> {
        store.system()?.revoke_session(sid, now_ms())
    }

    /// Creates a key for the account: the plaintext is returned here and nowhere else.
    pub fn create_key(
        &self,
        store: &Store,
        account_id: i64,
        tier: Tier,
        name: &str,
    ) -> Result<(KeyRow, String), StoreError> {
        let key = api_key::generate();
        let mac = self.pepper.mac(&key.plaintext);
        let row = store.system()?.insert_key(
            &NewKey {
                account_id,
                key_id: &key.key_id,
                name,
                mac: &mac,
                pepper_version: self.pepper.version(),
                now: now_ms(),
            },
            tier.key_limit(),
        )?;
        Ok((row, key.plaintext))
    }

    /// Revokes a key of `account` (None: any account, for the operator); effective at once here,
    /// and in other processes on the database when they next see `auth_generation`.
    pub fn revoke_key(
        &self,
        store: &Store,
        account: Option<i64>,
        key_id: &str,
    ) -> Result<bool, StoreError> {
        let generation = store.system()?.revoke_key(account, key_id, now_ms())?;
        self.revocations.fetch_add(1, Ordering::AcqRel);
        self.keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key_id);
        // Our own bump needs no emptying of this cache (the key is gone from it already); a bump
        // by another process in between does, so only a step of exactly one is taken as ours.
        if let Some(new) = generation {
            let _ =
                self.generation
                    .compare_exchange(new - 1, new, Ordering::AcqRel, Ordering::Acquire);
        }
        Ok(generation.is_some())
    }
}
