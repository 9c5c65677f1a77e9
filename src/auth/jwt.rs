//! HS256 access tokens for browser sessions, hardened per RFC 8725 (JWT Best Current Practices): one
//! allowed algorithm, keys only from our own key ring (looked up by `kid`, never taken from the
//! token), explicit `typ`, and `exp`, `nbf`, `iss`, `aud` and `sub` all required and checked.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use super::api_key::random_base62;
use super::secrets::read_or_create;
use crate::ids::fill_random;

pub const AUDIENCE: &str = "regintel:account";
pub const TYP: &str = "session+jwt";
pub const LEEWAY_SECS: u64 = 30;

pub const KEYRING_FILE: &str = "jwt_keys.json";
/// RFC 8725 §3.5 / OWASP: at least the hash output size for HS256.
const KEY_LEN: usize = 32;
const KID_LEN: usize = 8;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Claims {
    pub sub: String,
    pub sid: String,
    pub iat: i64,
    pub nbf: i64,
    pub exp: i64,
    pub iss: String,
    pub aud: String,
}

/// Both variants are answered with the same 401; the distinction is for tests and metrics, and
/// neither carries detail an attacker could probe with.
#[derive(Debug, thiserror::Error)]
pub enum JwtError {
    #[error("malformed token")]
    Malformed,
    #[error("token rejected")]
    Rejected,
}

/// `jwt_keys.json`: key ids to base64 32-byte secrets, and which one signs. Rotation adds a kid
/// and makes it current; old kids keep verifying until removed by hand.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyRingFile {
    current: String,
    keys: BTreeMap<String, String>,
}

/// The signing key and every key that may verify, plus the validation rules, built once.
pub struct KeyRing {
    issuer: String,
    current: String,
    signing: EncodingKey,
    keys: BTreeMap<String, DecodingKey>,
    validation: Validation,
}

impl KeyRing {
    /// Loads `jwt_keys.json` from `secrets_dir`, creating it with one random key on first use.
    /// `issuer` (the public base URL) goes into `iss` and is required back.
    pub fn load_or_create(secrets_dir: &Path, issuer: &str) -> anyhow::Result<KeyRing> {
        let path = secrets_dir.join(KEYRING_FILE);
        let bytes = read_or_create(&path, new_ring_file)?;
        parse_ring_file(&bytes, issuer)
            .with_context(|| format!("{} is not a valid JWT key ring", path.display()))
    }

    /// A signed access token for `account_id` in session `sid`, valid from `now_secs` for
    /// `ttl_secs`.
    pub fn issue(
        &self,
        account_id: i64,
        sid: &str,
        now_secs: i64,
        ttl_secs: i64,
    ) -> anyhow::Result<String> {
        let claims = Claims {
            sub: account_id.to_string(),
            sid: sid.to_owned(),
            iat: now_secs,
            nbf: now_secs,
            exp: now_secs
                .checked_add(ttl_secs)
                .context("the token lifetime overflows")?,
            iss: self.issuer.clone(),
            aud: AUDIENCE.to_owned(),
        };
        let mut header = Header::new(Algorithm::HS256);
        header.typ = Some(TYP.to_owned());
        header.kid = Some(self.current.clone());
        jsonwebtoken::encode(&header, &claims, &self.signing).context("cannot sign a session token")
    }

    /// The claims of `token` if it is one of ours and currently valid. The header only selects a
    /// key by `kid` from the ring; its `alg` must be HS256 and `jku`, `x5u`, `jwk`, `x5c` are
    /// ignored.
    pub fn verify(&self, token: &str) -> Result<Claims, JwtError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| JwtError::Malformed)?;
        // RFC 7515 §4.1.11: we understand no critical extensions, so a token naming one is refused.
        if header.typ.as_deref() != Some(TYP) || header.crit.is_some() {
            return Err(JwtError::Rejected);
        }
        let key = header
            .kid
            .as_deref()
            .filter(|kid| valid_kid(kid))
            .and_then(|kid| self.keys.get(kid))
            .ok_or(JwtError::Rejected)?;
        jsonwebtoken::decode::<Claims>(token, key, &self.validation)
            .map(|data| data.claims)
            .map_err(|err| match err.kind() {
                ErrorKind::InvalidToken | ErrorKind::Base64(_) | ErrorKind::Utf8(_) => {
                    JwtError::Malformed
                }
                _ => JwtError::Rejected,
            })
    }
}

/// Shows the issuer and key ids, never the keys.
impl fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyRing")
            .field("issuer", &self.issuer)
            .field("current", &self.current)
            .field("kids", &self.keys.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// `kid` is only ever a lookup key; this bounds what an attacker can make us look up.
fn valid_kid(kid: &str) -> bool {
    (1..=16).contains(&kid.len())
        && kid
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn new_ring_file() -> anyhow::Result<Vec<u8>> {
    let kid = random_base62(KID_LEN);
    let mut key = [0u8; KEY_LEN];
    fill_random(&mut key);
    let file = KeyRingFile {
        current: kid.clone(),
        keys: BTreeMap::from([(kid, STANDARD.encode(key))]),
    };
    let mut json = serde_json::to_vec_pretty(&file)?;
    json.push(b'\n');
    Ok(json)
}

/// Every kid and key is checked, so a hand-edited file fails at startup rather than at the first
/// login.
fn parse_ring_file(bytes: &[u8], issuer: &str) -> anyhow::Result<KeyRing> {
    // Only the position of a JSON error is reported: serde's message could quote a value (a key).
    let file: KeyRingFile = serde_json::from_slice(bytes).map_err(|err| {
        let shape = r#"{"current": "<kid>", "keys": {"<kid>": "<base64 32 bytes>"}}"#;
        anyhow!(
            "expected {shape} (error at line {}, column {})",
            err.line(),
            err.column()
        )
    })?;
    let mut keys = BTreeMap::new();
    let mut signing = None;
    for (kid, encoded) in &file.keys {
        if !valid_kid(kid) {
            bail!("key id {kid:?} must be 1 to 16 characters of A-Z a-z 0-9 _ -");
        }
        let secret = STANDARD
            .decode(encoded)
            .ok()
            .filter(|secret| secret.len() == KEY_LEN)
            .with_context(|| format!("key {kid:?} must be {KEY_LEN} bytes in standard base64"))?;
        if *kid == file.current {
            signing = Some(EncodingKey::from_secret(&secret));
        }
        keys.insert(kid.clone(), DecodingKey::from_secret(&secret));
    }
    let signing = signing.with_context(|| {
        format!(
            "the current key id {:?} is not among the keys",
            file.current
        )
    })?;
    Ok(KeyRing {
        issuer: issuer.to_owned(),
        current: file.current,
        signing,
        keys,
        validation: validation(issuer),
    })
}

/// RFC 8725 §3.1, §3.8–3.9 and RFC 7519 §4.1.4–5: exactly HS256; `exp` and `nbf` checked with
/// 30 s of clock skew (the crate skips `nbf` by default); every spec claim we rely on required.
fn validation(issuer: &str) -> Validation {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.algorithms = vec![Algorithm::HS256];
    validation.validate_exp = true;
    validation.validate_nbf = true;
    validation.leeway = LEEWAY_SECS;
    validation.set_required_spec_claims(&["exp", "nbf", "iss", "aud", "sub"]);
    validation.set_issuer(&[issuer]);
    validation.set_audience(&[AUDIENCE]);
    validation
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::time::{SystemTime, UNIX_EPOCH};

    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use hmac::{Hmac, KeyInit, Mac};
    use serde_json::{Value, json};
    use sha2::{Sha256, Sha512};

    use super::*;

    const ISSUER: &str = "https://stats.example";

    fn now() -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64
    }

    fn new_ring() -> (tempfile::TempDir, KeyRing) {
        let dir = tempfile::tempdir().unwrap();
        let ring = KeyRing::load_or_create(dir.path(), ISSUER).unwrap();
        (dir, ring)
    }

    fn current_key(ring: &KeyRing) -> Vec<u8> {
        ring.keys[&ring.current]
            .try_get_as_bytes()
            .unwrap()
            .to_vec()
    }

    fn good_header(ring: &KeyRing) -> Value {
        json!({"alg": "HS256", "typ": TYP, "kid": ring.current})
    }

    fn good_claims(now: i64) -> Value {
        json!({"sub": "42", "sid": "s1", "iat": now, "nbf": now, "exp": now + 900,
               "iss": ISSUER, "aud": AUDIENCE})
    }

    fn b64(value: &Value) -> String {
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(value).unwrap())
    }

    /// A token built by hand, HMAC-SHA256 over `header.payload` with `key`.
    fn hs256(header: &Value, payload: &Value, key: &[u8]) -> String {
        let input = format!("{}.{}", b64(header), b64(payload));
        let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
        mac.update(input.as_bytes());
        format!(
            "{input}.{}",
            URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
        )
    }

    /// `payload` signed correctly with the ring's current key under `header`.
    fn signed(ring: &KeyRing, header: &Value, payload: &Value) -> String {
        hs256(header, payload, &current_key(ring))
    }

    #[test]
    fn issued_tokens_verify_with_their_claims() {
        let (_dir, ring) = new_ring();
        let now = now();
        let token = ring.issue(42, "sess_1", now, 900).unwrap();
        let claims = ring.verify(&token).unwrap();
        assert_eq!(
            claims,
            Claims {
                sub: "42".into(),
                sid: "sess_1".into(),
                iat: now,
                nbf: now,
                exp: now + 900,
                iss: ISSUER.into(),
                aud: AUDIENCE.into(),
            }
        );
        let header = jsonwebtoken::decode_header(&token).unwrap();
        assert_eq!(header.alg, Algorithm::HS256);
        assert_eq!(header.typ.as_deref(), Some(TYP));
        assert_eq!(header.kid.as_deref(), Some(ring.current.as_str()));
        // A hand-built token with the same content verifies too, so the helpers below are sound.
        assert!(
            ring.verify(&signed(&ring, &good_header(&ring), &good_claims(now)))
                .is_ok()
        );
    }

    #[test]
    fn alg_none_is_rejected() {
        let (_dir, ring) = new_ring();
        let mut header = good_header(&ring);
        for alg in ["none", "None", "NONE"] {
            header["alg"] = json!(alg);
            let token = format!("{}.{}.", b64(&header), b64(&good_claims(now())));
            assert!(ring.verify(&token).is_err(), "{alg}");
        }
    }

    #[test]
    fn other_algorithms_are_rejected() {
        let (_dir, ring) = new_ring();
        let key = current_key(&ring);
        let payload = good_claims(now());
        // HS512 with the right key: a valid signature, but not the one allowed algorithm.
        let mut header = good_header(&ring);
        header["alg"] = json!("HS512");
        let input = format!("{}.{}", b64(&header), b64(&payload));
        let mut mac = Hmac::<Sha512>::new_from_slice(&key).unwrap();
        mac.update(input.as_bytes());
        let token = format!(
            "{input}.{}",
            URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
        );
        assert!(matches!(ring.verify(&token), Err(JwtError::Rejected)));
        // RS256 / HS384 headers over an HS256 MAC (algorithm confusion).
        for alg in ["RS256", "HS384", "ES256", "EdDSA", "PS256"] {
            header["alg"] = json!(alg);
            assert!(
                ring.verify(&hs256(&header, &payload, &key)).is_err(),
                "{alg}"
            );
        }
    }

    #[test]
    fn a_foreign_key_is_rejected() {
        let (_dir, ring) = new_ring();
        let (_other_dir, other) = new_ring();
        let token = other.issue(42, "s1", now(), 900).unwrap();
        assert!(matches!(ring.verify(&token), Err(JwtError::Rejected)));
        // Our kid, someone else's key.
        let forged = hs256(&good_header(&ring), &good_claims(now()), &[7u8; KEY_LEN]);
        assert!(matches!(ring.verify(&forged), Err(JwtError::Rejected)));
        // A key supplied in the header itself is ignored.
        let mut header = good_header(&ring);
        header["jwk"] = json!({"kty": "oct", "k": URL_SAFE_NO_PAD.encode([7u8; KEY_LEN])});
        header["jku"] = json!("https://attacker.example/keys");
        let forged = hs256(&header, &good_claims(now()), &[7u8; KEY_LEN]);
        assert!(ring.verify(&forged).is_err());
    }

    #[test]
    fn expiry_is_checked_with_leeway() {
        let (_dir, ring) = new_ring();
        let now = now();
        let expired = ring.issue(42, "s1", now - 1000, 900).unwrap();
        assert!(matches!(ring.verify(&expired), Err(JwtError::Rejected)));
        let mut payload = good_claims(now - 900);
        payload["exp"] = json!(now - 10);
        assert!(
            ring.verify(&signed(&ring, &good_header(&ring), &payload))
                .is_ok(),
            "within leeway"
        );
        payload["exp"] = json!(now - 2 * LEEWAY_SECS as i64);
        assert!(
            ring.verify(&signed(&ring, &good_header(&ring), &payload))
                .is_err()
        );
    }

    #[test]
    fn not_before_in_the_future_is_rejected() {
        let (_dir, ring) = new_ring();
        let now = now();
        let early = ring.issue(42, "s1", now + 120, 900).unwrap();
        assert!(matches!(ring.verify(&early), Err(JwtError::Rejected)));
        let slightly_early = ring.issue(42, "s1", now + 10, 900).unwrap();
        assert!(ring.verify(&slightly_early).is_ok(), "within leeway");
    }

    #[test]
    fn wrong_audience_or_issuer_is_rejected() {
        let (dir, ring) = new_ring();
        for (claim, value) in [
            ("aud", json!("regintel:admin")),
            ("aud", json!(["other"])),
            ("iss", json!("https://evil.example")),
            ("iss", json!("")),
        ] {
            let mut payload = good_claims(now());
            payload[claim] = value;
            let token = signed(&ring, &good_header(&ring), &payload);
            assert!(ring.verify(&token).is_err(), "{claim}: {payload}");
        }
        // Same keys, another deployment's issuer.
        let elsewhere = KeyRing::load_or_create(dir.path(), "https://other.example").unwrap();
        let token = elsewhere.issue(42, "s1", now(), 900).unwrap();
        assert!(matches!(ring.verify(&token), Err(JwtError::Rejected)));
    }

    #[test]
    fn a_tampered_payload_is_rejected() {
        let (_dir, ring) = new_ring();
        let token = ring.issue(42, "s1", now(), 900).unwrap();
        let mut parts: Vec<&str> = token.split('.').collect();
        let mut payload = good_claims(now());
        payload["sub"] = json!("1");
        let tampered_payload = b64(&payload);
        parts[1] = &tampered_payload;
        assert!(matches!(
            ring.verify(&parts.join(".")),
            Err(JwtError::Rejected)
        ));
        let mut sig = parts[2].to_owned();
        sig.replace_range(..1, if sig.starts_with('A') { "B" } else { "A" });
        let original = token.rsplit_once('.').unwrap().0;
        assert!(ring.verify(&format!("{original}.{sig}")).is_err());
    }

    #[test]
    fn typ_must_be_exact() {
        let (_dir, ring) = new_ring();
        let mut header = good_header(&ring);
        for typ in [
            json!("JWT"),
            json!("Session+JWT"),
            json!("at+jwt"),
            json!(null),
        ] {
            header["typ"] = typ.clone();
            let token = signed(&ring, &header, &good_claims(now()));
            assert!(
                matches!(ring.verify(&token), Err(JwtError::Rejected)),
                "{typ}"
            );
        }
        header.as_object_mut().unwrap().remove("typ");
        let token = signed(&ring, &header, &good_claims(now()));
        assert!(matches!(ring.verify(&token), Err(JwtError::Rejected)));
    }

    #[test]
    fn unknown_missing_or_odd_kids_are_rejected() {
        let (_dir, mut ring) = new_ring();
        // The file parser refuses such kids; the header check must hold on its own as well.
        let odd_key = [5u8; KEY_LEN];
        ring.keys
            .insert("a/b".to_owned(), DecodingKey::from_secret(&odd_key));
        let mut header = good_header(&ring);
        header["kid"] = json!("a/b");
        let token = hs256(&header, &good_claims(now()), &odd_key);
        assert!(matches!(ring.verify(&token), Err(JwtError::Rejected)));
        for kid in [
            json!("nope1234"),
            json!(""),
            json!("../../etc/passwd"),
            json!("a".repeat(17)),
        ] {
            header["kid"] = kid.clone();
            let token = signed(&ring, &header, &good_claims(now()));
            assert!(
                matches!(ring.verify(&token), Err(JwtError::Rejected)),
                "{kid}"
            );
        }
        header.as_object_mut().unwrap().remove("kid");
        let token = signed(&ring, &header, &good_claims(now()));
        assert!(matches!(ring.verify(&token), Err(JwtError::Rejected)));
    }

    #[test]
    fn critical_header_extensions_are_rejected() {
        let (_dir, ring) = new_ring();
        let mut header = good_header(&ring);
        header["crit"] = json!(["exp"]);
        let token = signed(&ring, &header, &good_claims(now()));
        assert!(matches!(ring.verify(&token), Err(JwtError::Rejected)));
    }

    #[test]
    fn required_claims_must_be_present() {
        let (_dir, ring) = new_ring();
        for claim in ["exp", "nbf", "sub", "iss", "aud", "iat", "sid"] {
            let mut payload = good_claims(now());
            payload.as_object_mut().unwrap().remove(claim);
            let token = signed(&ring, &good_header(&ring), &payload);
            assert!(ring.verify(&token).is_err(), "without {claim}");
        }
        let mut payload = good_claims(now());
        payload["exp"] = json!("never");
        assert!(
            ring.verify(&signed(&ring, &good_header(&ring), &payload))
                .is_err()
        );
    }

    #[test]
    fn garbage_is_malformed_and_never_panics() {
        let (_dir, ring) = new_ring();
        for token in [
            "",
            ".",
            "..",
            "a.b.c",
            "a.b",
            "ä.ö.ü",
            "sk_service_x",
            "Bearer x.y.z",
        ] {
            assert!(
                matches!(ring.verify(token), Err(JwtError::Malformed)),
                "{token}"
            );
        }
        let valid = ring.issue(42, "s1", now(), 900).unwrap();
        let unsigned = valid.rsplit_once('.').unwrap().0;
        let bad_signature = format!("{unsigned}.%%%");
        assert!(matches!(
            ring.verify(&bad_signature),
            Err(JwtError::Malformed)
        ));
        assert!(ring.verify(&format!("{valid}.extra")).is_err());
        assert!(ring.verify(&format!("{valid}é")).is_err());
        let payload_not_json = format!(
            "{}.{}",
            b64(&good_header(&ring)),
            URL_SAFE_NO_PAD.encode("not json")
        );
        let mut mac = Hmac::<Sha256>::new_from_slice(&current_key(&ring)).unwrap();
        mac.update(payload_not_json.as_bytes());
        let token = format!(
            "{payload_not_json}.{}",
            URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
        );
        assert!(ring.verify(&token).is_err());
    }

    #[test]
    fn key_ring_file_is_private_and_reloaded_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let ring = KeyRing::load_or_create(dir.path(), ISSUER).unwrap();
        let path = dir.path().join(KEYRING_FILE);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let kid = file["current"].as_str().unwrap();
        assert_eq!(kid, ring.current);
        assert_eq!(kid.len(), KID_LEN);
        let secret = STANDARD
            .decode(file["keys"][kid].as_str().unwrap())
            .unwrap();
        assert_eq!(secret, current_key(&ring));

        let before = std::fs::read(&path).unwrap();
        let again = KeyRing::load_or_create(dir.path(), ISSUER).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), before, "not rewritten");
        let token = ring.issue(7, "s", now(), 60).unwrap();
        assert_eq!(again.verify(&token).unwrap().sub, "7");

        let shown = format!("{again:?}");
        assert!(shown.contains(kid), "{shown}");
        assert!(
            !shown.contains(file["keys"][kid].as_str().unwrap()),
            "{shown}"
        );
    }

    #[test]
    fn old_keys_keep_verifying_after_rotation() {
        let dir = tempfile::tempdir().unwrap();
        let old = KeyRing::load_or_create(dir.path(), ISSUER).unwrap();
        let token = old.issue(42, "s1", now(), 900).unwrap();
        let path = dir.path().join(KEYRING_FILE);
        let mut file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        file["keys"]["new-key_2"] = json!(STANDARD.encode([9u8; KEY_LEN]));
        file["current"] = json!("new-key_2");
        std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
        let rotated = KeyRing::load_or_create(dir.path(), ISSUER).unwrap();
        assert_eq!(rotated.verify(&token).unwrap().sub, "42");
        let fresh = rotated.issue(42, "s1", now(), 900).unwrap();
        let kid = jsonwebtoken::decode_header(&fresh).unwrap().kid;
        assert_eq!(kid.as_deref(), Some("new-key_2"));
        assert!(old.verify(&fresh).is_err());
    }

    #[test]
    fn malformed_key_ring_files_are_errors_naming_the_file() {
        let key = STANDARD.encode([1u8; KEY_LEN]);
        let short = STANDARD.encode([1u8; KEY_LEN - 1]);
        for (content, why) in [
            ("not json".to_owned(), "expected"),
            ("{}".to_owned(), "expected"),
            (
                format!(r#"{{"current":"a","keys":{{"b":"{key}"}}}}"#),
                "not among the keys",
            ),
            (
                format!(r#"{{"current":"a","keys":{{"a":"{short}"}}}}"#),
                "32 bytes",
            ),
            (
                r#"{"current":"a","keys":{"a":"%%%"}}"#.to_owned(),
                "32 bytes",
            ),
            (
                format!(r#"{{"current":"a b","keys":{{"a b":"{key}"}}}}"#),
                "key id",
            ),
            (
                format!(r#"{{"current":"a","keys":{{"a":"{key}"}},"x":1}}"#),
                "expected",
            ),
            (
                format!(r#"{{"current":"a","keys":"{key}"}}"#),
                r#"expected {"current": "<kid>", "keys": {"<kid>": "<base64 32 bytes>"}} (error at line 1, column"#,
            ),
        ] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join(KEYRING_FILE), &content).unwrap();
            let err = format!(
                "{:#}",
                KeyRing::load_or_create(dir.path(), ISSUER).unwrap_err()
            );
            assert!(
                err.contains(KEYRING_FILE) && err.contains(why),
                "{content}: {err}"
            );
            assert!(!err.contains(&key), "{err}");
        }
    }
}
