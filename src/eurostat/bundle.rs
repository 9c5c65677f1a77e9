//! Bundles: what fetches received from Eurostat, carried to an install with no route to it.
//! `regintel bundle create` writes one tar file: `manifest.json` first (every other file's path,
//! SHA-256, size, the URL it came from and when), its ed25519 signature `manifest.json.sig` when
//! a key signs it, then for each dataset its fetch record (`<code>/fetch.json`: its entry in
//! the table of contents and what the download was), its structure message and its data exactly
//! as received. `regintel import --bundle` checks the signature against a trusted key when one is
//! set and every file against the manifest before importing anything, then imports each dataset
//! through the same path as a fetch: the same rows have the same citation ids.
//! The signature covers the manifest's bytes, which name every file's SHA-256: one signature
//! binds the whole bundle.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail, ensure};
use aws_lc_rs::signature::{self, Ed25519KeyPair};

use super::described::DatasetSettings;
use super::fetch::{self, Received, Written};
use crate::bundled::Catalogue;
use crate::import::Room;
use crate::runtime::progress::Progress;
use crate::store::Store;

pub const MANIFEST: &str = "manifest.json";
pub const SIGNATURE: &str = "manifest.json.sig";
const FORMAT: &str = "regintel-eurostat-bundle";
const VERSION: u32 = 1;
/// Most bytes of a manifest (a few hundred datasets take a few hundred KiB) and of a signature.
const MAX_MANIFEST: u64 = 16 << 20;
const MAX_SIGNATURE: u64 = 1024;

/// What a bundle holds.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    pub created_at: String,
    pub created_by: String,
    /// Its datasets, in the order they import.
    pub datasets: Vec<String>,
    pub files: Vec<BundledFile>,
}

/// A file of a bundle.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BundledFile {
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
    /// The request whose answer it is (a fetch record: the table of contents' request).
    pub origin: String,
    pub downloaded_at: String,
}

/// The paths in a bundle of dataset `code`'s files, in the order of [`fetch::kept_files`].
fn bundled_paths(code: &str) -> [String; 3] {
    [
        format!("{code}/fetch.json"),
        format!("{code}/structure.xml"),
        format!("{code}/estat_{code}.tsv.gz"),
    ]
}

/// A dataset code as Eurostat writes them: what a path in a bundle may be made of.
fn check_code(code: &str) -> anyhow::Result<()> {
    ensure!(
        super::toc::is_code(code) && !code.bytes().any(|b| b.is_ascii_uppercase()),
        "\"{}\" is not a Eurostat dataset code",
        crate::error_text::shown(code)
    );
    Ok(())
}

/// SHA-256 (hex) and size of the file at `path`.
fn hash_file(path: &Path) -> anyhow::Result<(String, u64)> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    fetch::copy_hashing(file, std::io::sink())
        .with_context(|| format!("cannot read {}", path.display()))
}

/// The record kept of dataset `code`'s last fetch in `dir`.
pub fn kept_record(dir: &Path, code: &str) -> anyhow::Result<Option<Received>> {
    let [record, ..] = fetch::kept_files(dir, code);
    match std::fs::read(&record) {
        Ok(bytes) => {
            Ok(Some(serde_json::from_slice(&bytes).with_context(|| {
                format!("cannot read {}", record.display())
            })?))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", record.display())),
    }
}

/// Writes to `out` a bundle of the last downloads of `codes` kept in `dir` (the downloads
/// directory), signed by `key` when given.
pub fn create(
    dir: &Path,
    codes: &[String],
    out: &Path,
    key: Option<&Ed25519KeyPair>,
) -> anyhow::Result<Manifest> {
    let now = crate::runtime::clock::now_ms();
    let mut manifest = Manifest {
        format: FORMAT.into(),
        version: VERSION,
        created_at: crate::runtime::clock::rfc3339(now),
        created_by: format!("regintel {}", env!("CARGO_PKG_VERSION")),
        datasets: Vec::new(),
        files: Vec::new(),
    };
    let mut sources: Vec<PathBuf> = Vec::new();
    for code in codes {
        let code = code.to_ascii_lowercase();
        check_code(&code)?;
        let received = kept_record(dir, &code)?.with_context(|| {
            format!("no download of {code} is kept here: fetch it first (regintel fetch {code})")
        })?;
        let kept = fetch::kept_files(dir, &code);
        let paths = bundled_paths(&code);
        let downloaded_at = crate::runtime::clock::rfc3339(received.downloaded_at);
        let origins = [
            Some(received.toc_url.clone()),
            received.structure_url.clone(),
            Some(received.url.clone()),
        ];
        for ((file, path), origin) in kept.iter().zip(paths).zip(origins) {
            let Some(origin) = origin else { continue };
            let (sha256, bytes) = hash_file(file)?;
            sources.push(file.clone());
            manifest.files.push(BundledFile {
                path,
                sha256,
                bytes,
                origin,
                downloaded_at: downloaded_at.clone(),
            });
        }
        let data = manifest.files.last().expect("the data file");
        ensure!(
            data.sha256 == received.sha256_received,
            "the kept download of {code} is not the one its record names (SHA-256 {}, recorded {}): fetch it again",
            data.sha256,
            received.sha256_received
        );
        manifest.datasets.push(code);
    }
    let manifest_bytes = serde_json::to_vec_pretty(&manifest)?;
    let partial = out.with_extension("partial");
    let written = write_tar(
        &partial,
        &manifest_bytes,
        key,
        &manifest.files,
        &sources,
        now,
    );
    if let Err(e) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    std::fs::rename(&partial, out).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(manifest)
}

fn write_tar(
    path: &Path,
    manifest: &[u8],
    key: Option<&Ed25519KeyPair>,
    files: &[BundledFile],
    sources: &[PathBuf],
    now_ms: i64,
) -> anyhow::Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut tar = tar::Builder::new(std::io::BufWriter::new(file));
    let header = |bytes: u64| {
        let mut header = tar::Header::new_ustar();
        header.set_size(bytes);
        header.set_mode(0o644);
        header.set_mtime(u64::try_from(now_ms / 1000).unwrap_or(0));
        header.set_entry_type(tar::EntryType::Regular);
        header
    };
    tar.append_data(&mut header(manifest.len() as u64), MANIFEST, manifest)?;
    if let Some(key) = key {
        let signed = base64_text(key.sign(manifest).as_ref());
        tar.append_data(
            &mut header(signed.len() as u64),
            SIGNATURE,
            signed.as_bytes(),
        )?;
    }
    for (file, source) in files.iter().zip(sources) {
        let reader = std::fs::File::open(source)
            .with_context(|| format!("cannot read {}", source.display()))?;
        // The size hashed is the size written: a file that changed since is refused.
        tar.append_data(&mut header(file.bytes), &file.path, reader.take(file.bytes))?;
    }
    tar.into_inner()?.flush()?;
    Ok(())
}

fn base64_text(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A bundle's files, verified, in a directory of their own (removed when dropped).
pub struct Verified {
    pub manifest: Manifest,
    dir: tempfile::TempDir,
}

impl Verified {
    /// Where bundled file `path` (a manifest path) was written.
    fn file(&self, path: &str) -> PathBuf {
        self.dir.path().join(path.replace('/', "__"))
    }
}

/// Reads the bundle at `bundle` into a directory made in `work_dir`, checking as it goes: its
/// manifest first, signed by `trusted` when a key is set; every other file listed in it, of the
/// size and SHA-256 it says, none twice, none missing, none larger than `max_file`. Fails naming
/// the first file that does not verify.
pub fn verify(
    bundle: &Path,
    trusted: Option<&[u8]>,
    work_dir: &Path,
    max_file: u64,
) -> anyhow::Result<Verified> {
    let file =
        std::fs::File::open(bundle).with_context(|| format!("cannot read {}", bundle.display()))?;
    let mut archive = tar::Archive::new(std::io::BufReader::new(file));
    let mut entries = archive.entries().context("not a bundle (a tar file)")?;
    let mut next = || next_entry(&mut entries);

    let mut first = next()?.context("the bundle is empty")?;
    ensure!(
        entry_path(&first)? == MANIFEST,
        "the bundle does not begin with its {MANIFEST}"
    );
    let manifest_bytes = read_small(&mut first, MAX_MANIFEST, MANIFEST)?;
    drop(first);
    let mut following = next()?;
    let signature = match &mut following {
        Some(entry) if entry_path(entry)? == SIGNATURE => {
            let text = read_small(entry, MAX_SIGNATURE, SIGNATURE)?;
            following = None;
            Some(text)
        }
        _ => None,
    };
    if let Some(key) = trusted {
        let signature = signature
            .context("the bundle is not signed, and a trusted key is set: refused whole")?;
        let signature = {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(String::from_utf8_lossy(&signature).trim())
                .context("the bundle's signature is not base64")?
        };
        signature::UnparsedPublicKey::new(&signature::ED25519, key)
            .verify(&manifest_bytes, &signature)
            .map_err(|_| {
                anyhow::anyhow!(
                    "the bundle's signature does not verify with the trusted key: refused whole"
                )
            })?;
    }
    let manifest: Manifest =
        serde_json::from_slice(&manifest_bytes).context("the bundle's manifest is not readable")?;
    ensure!(
        manifest.format == FORMAT && manifest.version == VERSION,
        "the bundle's manifest is not a {FORMAT} of version {VERSION}"
    );
    let expected = expected_files(&manifest, max_file)?;
    // Each size is capped, and a manifest of 16 MiB lists a few hundred thousand files at most:
    // the sum cannot overflow.
    let total: u64 = expected.values().map(|f| f.bytes).sum();
    crate::eurostat::client::ensure_room(work_dir, total)?;
    let dir = tempfile::Builder::new()
        .prefix("bundle-")
        .tempdir_in(work_dir)
        .with_context(|| format!("cannot make a directory in {}", work_dir.display()))?;
    let verified = Verified { manifest, dir };

    let mut seen = std::collections::BTreeSet::new();
    // A signature entry read above is not a file; any other entry read is.
    let mut pending = following;
    loop {
        let mut entry = match pending.take() {
            Some(entry) => entry,
            None => match next()? {
                Some(entry) => entry,
                None => break,
            },
        };
        let path = entry_path(&entry)?;
        let Some(listed) = expected.get(&path) else {
            bail!(
                "the bundle holds {}, which its manifest does not list: refused whole",
                crate::error_text::shown(&path)
            );
        };
        ensure!(
            entry.header().entry_type() == tar::EntryType::Regular,
            "{path} in the bundle is not a plain file: refused whole"
        );
        ensure!(
            seen.insert(path.clone()),
            "the bundle holds {path} twice: refused whole"
        );
        let out = verified.file(&path);
        let sink = std::io::BufWriter::new(
            std::fs::File::create(&out)
                .with_context(|| format!("cannot write {}", out.display()))?,
        );
        // At most one byte past the size listed: enough to see it lie.
        let (sha256, bytes) = fetch::copy_hashing((&mut entry).take(listed.bytes + 1), sink)
            .with_context(|| format!("cannot read {path} from the bundle"))?;
        ensure!(
            bytes == listed.bytes && sha256 == listed.sha256,
            "{path} in the bundle does not verify: {bytes} bytes of SHA-256 {sha256}, where the manifest says {} bytes of SHA-256 {}: refused whole",
            listed.bytes,
            listed.sha256
        );
    }
    if let Some(missing) = expected.keys().find(|p| !seen.contains(*p)) {
        bail!("the bundle lacks {missing}, which its manifest lists: refused whole");
    }
    Ok(verified)
}

/// Most bytes of a fetch record (a table-of-contents entry and a few URLs and hashes).
const MAX_RECORD: u64 = 1 << 20;

/// The files the manifest lists, by path: for each dataset, its record and data, and perhaps its
/// structure; nothing else, and none larger than such a file may be (a record [`MAX_RECORD`], a
/// structure what a fetch reads of one, data `max_data`).
fn expected_files(
    manifest: &Manifest,
    max_data: u64,
) -> anyhow::Result<std::collections::BTreeMap<String, BundledFile>> {
    // Each path's most bytes, and whether it must be there.
    let mut allowed = std::collections::BTreeMap::new();
    for code in &manifest.datasets {
        check_code(code)?;
        let [record, structure, data] = bundled_paths(code);
        allowed.insert(record, (MAX_RECORD, true));
        // A structure may be absent: its codes then stand for labels.
        allowed.insert(structure, (fetch::MAX_TEXT, false));
        allowed.insert(data, (max_data, true));
    }
    let mut files = std::collections::BTreeMap::new();
    for file in &manifest.files {
        let Some(&(most, _)) = allowed.get(&file.path) else {
            bail!(
                "the bundle's manifest lists {}, which is no file a bundle holds",
                crate::error_text::shown(&file.path)
            );
        };
        ensure!(
            file.bytes <= most,
            "the bundle's manifest gives {} {} bytes, more than such a file may hold ({most})",
            file.path,
            file.bytes
        );
        ensure!(
            files.insert(file.path.clone(), file.clone()).is_none(),
            "the bundle's manifest lists {} twice",
            file.path
        );
        ensure!(
            file.sha256.len() == 64 && file.sha256.bytes().all(|b| b.is_ascii_hexdigit()),
            "the bundle's manifest gives {} no SHA-256",
            file.path
        );
    }
    if let Some((missing, _)) = allowed
        .iter()
        .find(|(path, (_, required))| *required && !files.contains_key(*path))
    {
        bail!("the bundle's manifest lists no {missing}");
    }
    Ok(files)
}

fn next_entry<'a, R: Read>(
    entries: &mut tar::Entries<'a, R>,
) -> anyhow::Result<Option<tar::Entry<'a, R>>> {
    entries
        .next()
        .transpose()
        .context("the bundle is not a readable tar file")
}

fn entry_path<R: Read>(entry: &tar::Entry<'_, R>) -> anyhow::Result<String> {
    let path = entry
        .path()
        .context("a path in the bundle is not readable")?;
    Ok(path.to_string_lossy().into_owned())
}

fn read_small<R: Read>(
    entry: &mut tar::Entry<'_, R>,
    max: u64,
    name: &str,
) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    entry
        .take(max + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name} from the bundle"))?;
    ensure!(
        bytes.len() as u64 <= max,
        "the bundle's {name} is larger than {max} bytes"
    );
    Ok(bytes)
}

/// Imports every dataset of a verified bundle, one after another, described as `described`
/// sets: the outcome of each. A dataset whose download is older than the one the install holds
/// fails, unless `allow_older`.
pub fn import(
    (store, catalogue, described): (&Store, &Catalogue, &DatasetSettings),
    verified: &Verified,
    (room, max_inflated, allow_older): (&Room, u64, bool),
    progress: &mut Progress,
) -> anyhow::Result<Vec<fetch::Outcome>> {
    let datasets = &verified.manifest.datasets;
    let mut outcomes = Vec::with_capacity(datasets.len());
    for (number, code) in datasets.iter().enumerate() {
        if datasets.len() > 1 {
            progress.place(number + 1, datasets.len());
        }
        let mut warnings = Vec::new();
        let imported = import_one(
            (store, catalogue, described),
            verified,
            code,
            (room, max_inflated, allow_older),
            &mut warnings,
            progress,
        );
        outcomes.push(fetch::Outcome::of(store, code, imported, warnings)?);
    }
    Ok(outcomes)
}

fn import_one(
    (store, catalogue, described): (&Store, &Catalogue, &DatasetSettings),
    verified: &Verified,
    code: &str,
    (room, max_inflated, allow_older): (&Room, u64, bool),
    warnings: &mut Vec<String>,
    progress: &mut Progress,
) -> anyhow::Result<crate::store::import::ImportOutcome> {
    let [record, structure, data] = bundled_paths(code).map(|p| verified.file(&p));
    let received: Received = serde_json::from_slice(&std::fs::read(&record)?)
        .with_context(|| format!("{code}/fetch.json in the bundle is not a fetch record"))?;
    ensure!(
        received.entry.code.eq_ignore_ascii_case(code),
        "{code}/fetch.json in the bundle is the record of {}",
        crate::error_text::shown(&received.entry.code)
    );
    // A bundle made before the data this install holds would take the dataset back, and withdraw
    // what was published since.
    let held = crate::store::eurostat::fetched(&store.admin()?.sql(), code)?;
    if let Some(held_at) = held.and_then(|f| f.downloaded_at.filter(|_| f.succeeded_at.is_some())) {
        let time = crate::runtime::clock::rfc3339;
        ensure!(
            allow_older || held_at <= received.downloaded_at,
            "the bundle's download of {code} ({}) is older than the one this install holds ({}): importing it would take the dataset back; --allow-older imports it all the same",
            time(received.downloaded_at),
            time(held_at)
        );
    }
    let xml = match std::fs::read(&structure) {
        Ok(bytes) => Some(String::from_utf8(bytes).context("the bundled structure is not UTF-8")?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            warnings.push(format!(
                "the bundle holds no structure of {code}: its codes stand for their labels"
            ));
            None
        }
        Err(e) => return Err(e.into()),
    };
    let structure = fetch::read_structure(code, xml.as_deref(), warnings)?;
    let (sha256, bytes) = hash_file(&data)?;
    ensure!(
        sha256 == received.sha256_received,
        "the data of {code} in the bundle is not the download its record names"
    );
    progress.note(code, "importing from the bundle");
    fetch::import_received(
        (store, catalogue, described),
        &received,
        &structure,
        &Written {
            path: data,
            sha256,
            bytes,
        },
        (verified.dir.path(), room, max_inflated),
        progress,
    )
}

/// Makes a signing key: its private half (PKCS#8, PEM) written to `private` readable by its
/// owner only, its public half (SubjectPublicKeyInfo, PEM) to `private` + `.pub`; returns the
/// public half's path.
pub fn keygen(private: &Path) -> anyhow::Result<PathBuf> {
    let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ED25519)?;
    let public = PathBuf::from(format!("{}.pub", private.display()));
    ensure!(
        !public.exists(),
        "{} exists already: a key is never overwritten",
        public.display()
    );
    write_new(private, key.serialize_pem().as_bytes(), 0o600)?;
    write_new(&public, key.public_key_pem().as_bytes(), 0o644)?;
    Ok(public)
}

/// Writes a new file of mode `mode`: one that exists already (or a link where it would be) is
/// refused, never overwritten or followed.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> anyhow::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => anyhow::anyhow!(
                "{} exists already: a key is never overwritten",
                path.display()
            ),
            _ => anyhow::Error::new(e).context(format!("cannot create {}", path.display())),
        })?;
    file.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The signing key in PEM file `path` (PKCS#8, as `bundle keygen` or `openssl genpkey
/// -algorithm ed25519` write it).
pub fn signing_key(path: &Path) -> anyhow::Result<Ed25519KeyPair> {
    use rustls_pki_types::pem::PemObject;
    let der = rustls_pki_types::PrivatePkcs8KeyDer::from_pem_file(path)
        .with_context(|| format!("{} holds no PKCS#8 private key in PEM", path.display()))?;
    Ed25519KeyPair::from_pkcs8(der.secret_pkcs8_der())
        .map_err(|e| anyhow::anyhow!("{} is not an ed25519 key: {e}", path.display()))
}

/// The public key in PEM file `path` (SubjectPublicKeyInfo, as `bundle keygen` or `openssl pkey
/// -pubout` write it): its 32 bytes.
pub fn trusted_key(path: &Path) -> anyhow::Result<Vec<u8>> {
    use rustls_pki_types::pem::PemObject;
    // RFC 8410: the SubjectPublicKeyInfo of an Ed25519 key is this prefix, then the key.
    const ED25519_SPKI: [u8; 12] = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ];
    let der = rustls_pki_types::SubjectPublicKeyInfoDer::from_pem_file(path)
        .with_context(|| format!("{} holds no public key in PEM", path.display()))?;
    match der.as_ref().strip_prefix(&ED25519_SPKI) {
        Some(key) if key.len() == 32 => Ok(key.to_vec()),
        _ => bail!("{} is not an ed25519 public key", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// A key pair `openssl genpkey -algorithm ed25519` and `openssl pkey -pubout` made.
    const OPENSSL_KEY: &str = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIGRjVOUu/GM1ToOP+tpVmOZNbE5L7WX1SU/0BVUahrQ8\n-----END PRIVATE KEY-----\n";
    const OPENSSL_PUB: &str = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA1Jf0d3epTohPqdRfvYGpH8ux6NY2esx9nUoCfklx3eQ=\n-----END PUBLIC KEY-----\n";

    /// A downloads directory keeping what a fetch of dataset `x_1` received.
    fn kept() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let data = b"freq,geo\\TIME_PERIOD\t2020 \nA,DE\t1 \n";
        let received = Received {
            entry: super::super::toc::Entry {
                code: "x_1".into(),
                title: "X".into(),
                kind: "dataset".into(),
                last_update_of_data: Some("2026-11-28".into()),
                last_structure_change: None,
                data_start: None,
                data_end: None,
                folders: vec!["reg".into()],
                regional: true,
            },
            toc_url: "http://127.0.0.1:1/catalogue/toc/txt?lang=en".into(),
            url: "http://127.0.0.1:1/sdmx/2.1/data/X_1?format=TSV&compressed=true".into(),
            downloaded_at: 1_764_000_000_000,
            sha256_received: crate::ids::hex(&Sha256::digest(data)),
            bytes_received: data.len() as u64,
            structure_url: Some("http://127.0.0.1:1/sdmx/2.1/dataflow/ESTAT/X_1/latest".into()),
        };
        let [record, structure, download] = fetch::kept_files(dir.path(), "x_1");
        std::fs::write(record, serde_json::to_vec(&received).unwrap()).unwrap();
        std::fs::write(structure, "<Structure/>").unwrap();
        std::fs::write(download, data).unwrap();
        dir
    }

    /// An entry of a tar file: its path, kind and content.
    type TarEntry = (String, tar::EntryType, Vec<u8>);

    /// The entries of the tar file at `path`.
    fn entries(path: &Path) -> Vec<TarEntry> {
        let mut archive = tar::Archive::new(std::fs::File::open(path).unwrap());
        (archive.entries().unwrap())
            .map(|e| {
                let mut e = e.unwrap();
                let mut bytes = Vec::new();
                e.read_to_end(&mut bytes).unwrap();
                (entry_path(&e).unwrap(), e.header().entry_type(), bytes)
            })
            .collect()
    }

    fn write_entries(path: &Path, list: &[TarEntry]) {
        let mut tar = tar::Builder::new(std::fs::File::create(path).unwrap());
        for (name, kind, bytes) in list {
            let mut header = tar::Header::new_gnu();
            header.set_size(if *kind == tar::EntryType::Regular {
                bytes.len() as u64
            } else {
                0
            });
            header.set_entry_type(*kind);
            header.set_mode(0o644);
            if *kind == tar::EntryType::Symlink {
                header.set_link_name("/etc/passwd").unwrap();
                tar.append_data(&mut header, name, std::io::empty())
                    .unwrap();
            } else {
                tar.append_data(&mut header, name, bytes.as_slice())
                    .unwrap();
            }
        }
        tar.finish().unwrap();
    }

    fn refusal(path: &Path, trusted: Option<&[u8]>) -> String {
        let work = tempfile::tempdir().unwrap();
        match verify(path, trusted, work.path(), 1 << 20) {
            Ok(_) => panic!("{} verified", path.display()),
            Err(e) => format!("{e:#}"),
        }
    }

    #[test]
    fn keys_made_by_openssl_sign_and_verify() {
        let dir = kept();
        let keys = tempfile::tempdir().unwrap();
        let (private, public) = (keys.path().join("k.pem"), keys.path().join("k.pub"));
        std::fs::write(&private, OPENSSL_KEY).unwrap();
        std::fs::write(&public, OPENSSL_PUB).unwrap();
        let key = signing_key(&private).unwrap();
        let trusted = trusted_key(&public).unwrap();
        let out = keys.path().join("b.tar");
        create(dir.path(), &["X_1".into()], &out, Some(&key)).unwrap();
        let work = tempfile::tempdir().unwrap();
        let verified = verify(&out, Some(&trusted), work.path(), 1 << 20).unwrap();
        assert_eq!(verified.manifest.datasets, ["x_1"]);
        assert_eq!(verified.manifest.files.len(), 3);
        // A private key is no public key, and the reverse.
        assert!(trusted_key(&private).is_err());
        assert!(signing_key(&public).is_err());
    }

    /// What is not the manifest's, twice, missing, no plain file, named outside the bundle's
    /// own paths, or after the files: refused, naming it.
    #[test]
    fn a_bundle_holding_other_than_its_manifest_lists_is_refused() {
        let dir = kept();
        let out = dir.path().join("b.tar");
        create(dir.path(), &["x_1".into()], &out, None).unwrap();
        let good = entries(&out);
        assert_eq!(good[0].0, MANIFEST);
        let data = good.iter().position(|e| e.0.ends_with(".tsv.gz")).unwrap();
        let variant = |change: &dyn Fn(&mut Vec<TarEntry>)| {
            let mut list = good.clone();
            change(&mut list);
            let path = dir.path().join("variant.tar");
            write_entries(&path, &list);
            refusal(&path, None)
        };
        let extra =
            variant(&|l| l.push(("x_1/run.sh".into(), tar::EntryType::Regular, b"#!".to_vec())));
        assert!(
            extra.contains("x_1/run.sh, which its manifest does not list"),
            "{extra}"
        );
        let twice = variant(&|l| l.push(l[data].clone()));
        assert!(
            twice.contains("holds x_1/estat_x_1.tsv.gz twice"),
            "{twice}"
        );
        let missing = variant(&|l| {
            l.remove(data);
        });
        assert!(missing.contains("lacks x_1/estat_x_1.tsv.gz"), "{missing}");
        let link = variant(&|l| l[data].1 = tar::EntryType::Symlink);
        assert!(link.contains("not a plain file"), "{link}");
        let late = variant(&|l| {
            let manifest = l.remove(0);
            l.push(manifest);
        });
        assert!(
            late.contains("does not begin with its manifest.json"),
            "{late}"
        );
        let escaping = variant(&|l| {
            let text = String::from_utf8(l[0].2.clone()).unwrap();
            l[0].2 = text
                .replace("x_1/structure.xml", "../structure.xml")
                .into_bytes();
        });
        assert!(
            escaping.contains("../structure.xml, which is no file a bundle holds"),
            "{escaping}"
        );
        // A record claiming more than a record may hold, whatever its bytes.
        let oversized = variant(&|l| {
            let mut manifest: serde_json::Value = serde_json::from_slice(&l[0].2).unwrap();
            assert_eq!(manifest["files"][0]["path"], "x_1/fetch.json");
            manifest["files"][0]["bytes"] = (MAX_RECORD + 1).into();
            l[0].2 = serde_json::to_vec(&manifest).unwrap();
        });
        assert!(
            oversized.contains("x_1/fetch.json 1048577 bytes, more than such a file may hold"),
            "{oversized}"
        );
        let unsigned = refusal(&out, Some(&[0u8; 32]));
        assert!(unsigned.contains("not signed"), "{unsigned}");
    }

    #[test]
    fn a_kept_download_that_changed_since_its_fetch_is_not_bundled() {
        let dir = kept();
        let [_, _, download] = fetch::kept_files(dir.path(), "x_1");
        std::fs::write(download, b"other bytes").unwrap();
        let why = create(dir.path(), &["x_1".into()], &dir.path().join("b.tar"), None).unwrap_err();
        assert!(format!("{why:#}").contains("fetch it again"), "{why:#}");
        let why = create(dir.path(), &["y_2".into()], &dir.path().join("b.tar"), None).unwrap_err();
        assert!(format!("{why:#}").contains("regintel fetch y_2"), "{why:#}");
    }
}
