//! Secret files under `<data_dir>/secrets/`: the API key pepper and the JWT key ring. They live
//! outside the SQLite file, so a stolen database or backup alone cannot confirm a guessed API key
//! or forge a session.

use std::fmt;
use std::io::ErrorKind;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::ids::fill_random;

pub const PEPPER_FILE: &str = "api_key_pepper";
const PEPPER_LEN: usize = 32;

/// `<data_dir>/secrets`, created if missing. Its mode is (re)set to 0700 so only the service user
/// can list or read the secrets, even if the directory was created by hand.
pub fn secrets_dir(data_dir: &Path) -> anyhow::Result<PathBuf> {
    let dir = data_dir.join("secrets");
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Err(err) if err.kind() != ErrorKind::AlreadyExists => {
            return Err(err).with_context(|| format!("cannot create {}", dir.display()));
        }
        _ => {}
    }
    if !dir.is_dir() {
        bail!("{} exists but is not a directory", dir.display());
    }
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
        .with_context(|| format!("cannot restrict {} to mode 0700", dir.display()))?;
    Ok(dir)
}

/// The contents of the secret file `path`, or on first use the bytes `create` makes, written with
/// mode 0600.
pub(crate) fn read_or_create(
    path: &Path,
    create: impl FnOnce() -> anyhow::Result<Vec<u8>>,
) -> anyhow::Result<Vec<u8>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(bytes),
        Err(err) if err.kind() == ErrorKind::NotFound => {
            // Written whole to a private temporary file, then linked into place: a reader never
            // sees half a file, and if another process got there first, its file wins for both.
            let bytes = create()?;
            // A name no other writer (process or thread) uses.
            let tmp =
                path.with_extension(format!("tmp-{}", crate::auth::api_key::random_base62(16)));
            crate::runtime::private_files::write(&tmp, &bytes)?;
            let linked = std::fs::hard_link(&tmp, path);
            let _ = std::fs::remove_file(&tmp);
            match linked {
                Ok(()) => Ok(bytes),
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
                }
                Err(e) => Err(e).with_context(|| format!("cannot create {}", path.display())),
            }
        }
        Err(err) => Err(err).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The server-side key of the API key MACs (`api_keys.mac`). Its version is stored with each MAC
/// so a future pepper can be rolled in lazily.
pub struct Pepper {
    version: i64,
    key: [u8; PEPPER_LEN],
}

impl Pepper {
    /// Loads `api_key_pepper` from `secrets_dir`, creating it with 32 random bytes on first use.
    pub fn load_or_create(secrets_dir: &Path) -> anyhow::Result<Pepper> {
        let path = secrets_dir.join(PEPPER_FILE);
        let bytes = read_or_create(&path, || {
            let mut key = vec![0u8; PEPPER_LEN];
            fill_random(&mut key);
            Ok(key)
        })?;
        let key = <[u8; PEPPER_LEN]>::try_from(bytes.as_slice()).map_err(|_| {
            anyhow::anyhow!(
                "{} must hold exactly {PEPPER_LEN} bytes but holds {}; restore it from a backup \
                 (a new pepper would invalidate every API key)",
                path.display(),
                bytes.len()
            )
        })?;
        Ok(Pepper { version: 1, key })
    }

    pub fn version(&self) -> i64 {
        self.version
    }

    /// HMAC-SHA256 of the full presented key under the pepper: the value stored in `api_keys.mac`.
    pub fn mac(&self, key: &str) -> [u8; 32] {
        self.hmac(key).finalize().into_bytes().into()
    }

    /// The password of PostgreSQL's request role `role`: derived from the pepper, which every
    /// node of a database holds, so each computes it and it passes through no statement, table
    /// or log.
    pub fn request_role_password(&self, role: &str) -> String {
        let mut hmac = self.hmac("regintel request role password v1\0");
        hmac.update(role.as_bytes());
        crate::ids::hex(&hmac.finalize().into_bytes())
    }

    /// Whether `mac` is the MAC of `key`, compared in constant time.
    pub fn verify(&self, key: &str, mac: &[u8]) -> bool {
        self.hmac(key).verify_slice(mac).is_ok()
    }

    fn hmac(&self, key: &str) -> Hmac<Sha256> {
        let mut hmac =
            Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC accepts keys of any length");
        hmac.update(key.as_bytes());
        hmac
    }
}

pub const SEALING_KEY_FILE: &str = "webhook_secrets_key";

/// The key that seals webhook signing secrets in the database (AES-256-GCM). regintel must keep
/// those secrets in a form it can sign with; sealed, a stolen database or backup alone does not
/// give them away. Each sealed secret is bound to its endpoint's id, so one cannot be moved to
/// another endpoint's row.
pub struct SealingKey {
    key: LessSafeKey,
}

/// The version prefix of a sealed value.
const SEALED_V1: &str = "v1:";

impl SealingKey {
    /// Loads `webhook_secrets_key` from `secrets_dir`, creating it with 32 random bytes on first
    /// use.
    pub fn load_or_create(secrets_dir: &Path) -> anyhow::Result<SealingKey> {
        let path = secrets_dir.join(SEALING_KEY_FILE);
        let bytes = read_or_create(&path, || {
            let mut key = vec![0u8; 32];
            fill_random(&mut key);
            Ok(key)
        })?;
        Self::from_file(&path, &bytes)
    }

    /// Loads `webhook_secrets_key` from `secrets_dir` if it is there, making none.
    pub fn load(secrets_dir: &Path) -> anyhow::Result<Option<SealingKey>> {
        let path = secrets_dir.join(SEALING_KEY_FILE);
        match std::fs::read(&path) {
            Ok(bytes) => Self::from_file(&path, &bytes).map(Some),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    fn from_file(path: &Path, bytes: &[u8]) -> anyhow::Result<SealingKey> {
        let key = UnboundKey::new(&AES_256_GCM, bytes).map_err(|_| {
            anyhow::anyhow!(
                "{} must hold exactly 32 bytes but holds {}; restore it from a backup (without it \
                 no webhook can be signed)",
                path.display(),
                bytes.len()
            )
        })?;
        Ok(SealingKey {
            key: LessSafeKey::new(key),
        })
    }

    /// `plaintext` sealed for `context` (the endpoint's public id): `v1:` + base64 of a fresh
    /// random nonce, the ciphertext and its tag.
    pub fn seal(&self, plaintext: &str, context: &str) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        fill_random(&mut nonce);
        let mut sealed = plaintext.as_bytes().to_vec();
        self.key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context.as_bytes()),
                &mut sealed,
            )
            .expect("AES-GCM seals any message below 64 GiB");
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        format!("{SEALED_V1}{}", STANDARD.encode(out))
    }

    /// The plaintext of `sealed`, if it was sealed under this key for `context` and not altered.
    pub fn open(&self, sealed: &str, context: &str) -> Option<String> {
        let bytes = STANDARD.decode(sealed.strip_prefix(SEALED_V1)?).ok()?;
        if bytes.len() < NONCE_LEN {
            return None;
        }
        let (nonce, rest) = bytes.split_at(NONCE_LEN);
        let mut rest = rest.to_vec();
        let plain = self
            .key
            .open_in_place(
                Nonce::try_assume_unique_for_key(nonce).ok()?,
                Aad::from(context.as_bytes()),
                &mut rest,
            )
            .ok()?;
        String::from_utf8(plain.to_vec()).ok()
    }
}

/// Never prints the key.
impl fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SealingKey(..)")
    }
}

/// Never prints the key.
impl fmt::Debug for Pepper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pepper")
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_secrets_open_only_under_their_key_and_context() {
        let dir = tempfile::tempdir().unwrap();
        let key = SealingKey::load_or_create(dir.path()).unwrap();
        let sealed = key.seal("whsec_abc", "whk_1");
        assert!(sealed.starts_with("v1:") && !sealed.contains("whsec_abc"));
        assert_ne!(
            key.seal("whsec_abc", "whk_1"),
            sealed,
            "a fresh nonce each time"
        );
        assert_eq!(key.open(&sealed, "whk_1").as_deref(), Some("whsec_abc"));
        // The same file gives the same key.
        let again = SealingKey::load_or_create(dir.path()).unwrap();
        assert_eq!(again.open(&sealed, "whk_1").as_deref(), Some("whsec_abc"));
        assert_eq!(key.open(&sealed, "whk_2"), None, "bound to its endpoint");
        let mut tampered = STANDARD.decode(&sealed[3..]).unwrap();
        *tampered.last_mut().unwrap() ^= 1;
        let tampered = format!("v1:{}", STANDARD.encode(tampered));
        assert_eq!(key.open(&tampered, "whk_1"), None);
        let other = SealingKey::load_or_create(tempfile::tempdir().unwrap().path()).unwrap();
        assert_eq!(other.open(&sealed, "whk_1"), None);
        for bad in ["", "v1:", "v1:!!", "v2:AAAA", "whsec_abc"] {
            assert_eq!(key.open(bad, "whk_1"), None, "{bad}");
        }
        assert_eq!(format!("{key:?}"), "SealingKey(..)");
    }

    #[test]
    fn concurrent_first_starts_agree_on_one_secret() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shared_secret");
        let handles: Vec<_> = (0..8u8)
            .map(|i| {
                let path = path.clone();
                std::thread::spawn(move || read_or_create(&path, || Ok(vec![i; 32])).unwrap())
            })
            .collect();
        let seen: Vec<Vec<u8>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert!(
            seen.iter().all(|s| *s == seen[0]),
            "every caller got the file's contents"
        );
        assert_eq!(std::fs::read(&path).unwrap(), seen[0]);
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn secrets_dir_is_created_private_and_reused() {
        let data = tempfile::tempdir().unwrap();
        let dir = secrets_dir(data.path()).unwrap();
        assert_eq!(dir, data.path().join("secrets"));
        assert_eq!(mode(&dir), 0o700);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(secrets_dir(data.path()).unwrap(), dir);
        assert_eq!(mode(&dir), 0o700, "tightened again");
    }

    #[test]
    fn secrets_dir_errors_name_the_path() {
        let data = tempfile::tempdir().unwrap();
        std::fs::write(data.path().join("secrets"), "").unwrap();
        let err = format!("{:#}", secrets_dir(data.path()).unwrap_err());
        assert!(
            err.contains("secrets") && err.contains("not a directory"),
            "{err}"
        );
        let err = format!(
            "{:#}",
            secrets_dir(&data.path().join("missing")).unwrap_err()
        );
        assert!(err.contains("missing"), "{err}");
    }

    #[test]
    fn pepper_is_created_once_private_and_reloaded() {
        let data = tempfile::tempdir().unwrap();
        let dir = secrets_dir(data.path()).unwrap();
        let pepper = Pepper::load_or_create(&dir).unwrap();
        let file = dir.join(PEPPER_FILE);
        assert_eq!(mode(&file), 0o600);
        assert_eq!(std::fs::read(&file).unwrap().len(), PEPPER_LEN);
        assert_eq!(pepper.version(), 1);
        let again = Pepper::load_or_create(&dir).unwrap();
        assert_eq!(pepper.mac("sk_service_x"), again.mac("sk_service_x"));
        let other =
            Pepper::load_or_create(&secrets_dir(tempfile::tempdir().unwrap().path()).unwrap());
        assert_ne!(
            pepper.mac("sk_service_x"),
            other.unwrap().mac("sk_service_x")
        );
    }

    #[test]
    fn pepper_of_the_wrong_size_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(PEPPER_FILE), [7u8; 31]).unwrap();
        let err = Pepper::load_or_create(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains(PEPPER_FILE) && err.contains("holds 31"),
            "{err}"
        );
        std::fs::write(dir.path().join(PEPPER_FILE), "").unwrap();
        let err = Pepper::load_or_create(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains(PEPPER_FILE) && err.contains("holds 0"),
            "{err}"
        );
    }

    #[test]
    fn mac_is_hmac_sha256_and_verifies() {
        let mut key = [0u8; PEPPER_LEN];
        key.iter_mut().zip(0u8..).for_each(|(k, i)| *k = i);
        let pepper = Pepper { version: 1, key };
        let api_key = "sk_service_Ab3dE5gHk7Q2mZp9LwX4vB8nR1tY6cJ3hF0sD5gA1GYRVj";
        // Python: hmac.new(bytes(range(32)), api_key, hashlib.sha256).hexdigest()
        let expected = "1f3ab17afa7cf7f813edc71ccdcde6de3e9053bea7cb03be00c83e30b73d5092";
        let mac = pepper.mac(api_key);
        let hex = crate::ids::hex(&mac);
        assert_eq!(hex, expected);
        assert!(pepper.verify(api_key, &mac));
        assert!(!pepper.verify(&api_key.replace('A', "B"), &mac));
        assert!(!pepper.verify(api_key, &mac[..31]));
        assert!(!pepper.verify(api_key, &[]));
        let mut flipped = mac;
        flipped[0] ^= 1;
        assert!(!pepper.verify(api_key, &flipped));
    }

    #[test]
    fn debug_hides_the_pepper() {
        let pepper = Pepper {
            version: 1,
            key: [0xAB; PEPPER_LEN],
        };
        assert_eq!(format!("{pepper:?}"), "Pepper { version: 1, .. }");
    }
}
