//! Secret files under `<data_dir>/secrets/`: the API key pepper and the JWT key ring. They live
//! outside the SQLite file, so a stolen database or backup alone cannot confirm a guessed API key
//! or forge a session.

use std::fmt;
use std::io::ErrorKind;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::ids::fill_random;

const PEPPER_FILE: &str = "api_key_pepper";
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
            crate::private_files::write(&tmp, &bytes)?;
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
        let hex: String = mac.iter().map(|b| format!("{b:02x}")).collect();
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
