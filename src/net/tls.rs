//! TLS with rustls: a server config from PEM files, and for `regintel demo` a self-signed
//! certificate for localhost (evaluation only; production uses the operator's certificate).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// A rustls server config from a PEM certificate chain and private key, offering HTTP/2 and
/// HTTP/1.1 by ALPN. Errors say which file is wrong and how.
pub fn server_config(cert: &Path, key: &Path) -> anyhow::Result<Arc<ServerConfig>> {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .with_context(|| format!("cannot read the TLS certificate {}", cert.display()))?
        .collect::<Result<_, _>>()
        .with_context(|| format!("{} is not a PEM certificate chain", cert.display()))?;
    if chain.is_empty() {
        bail!("{} holds no PEM certificate", cert.display());
    }
    let key = PrivateKeyDer::from_pem_file(key)
        .with_context(|| format!("cannot read a PEM private key from {}", key.display()))?;
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .context("the TLS certificate and private key do not belong together")?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Paths of the demo certificate in `dir`, created on first use for `localhost`, 127.0.0.1 and
/// ::1, and kept so a browser exception survives restarts.
pub fn demo_certificate(dir: &Path) -> anyhow::Result<(PathBuf, PathBuf)> {
    let cert = dir.join("demo-cert.pem");
    let key = dir.join("demo-key.pem");
    if cert.exists() && key.exists() {
        return Ok((cert, key));
    }
    let names = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
    ];
    let generated = rcgen::generate_simple_self_signed(names)
        .context("while generating the demo certificate")?;
    // Public, but like every file in the data dir readable by its owner only.
    crate::runtime::private_files::write(&cert, generated.cert.pem().as_bytes())?;
    crate::runtime::private_files::write(&key, generated.signing_key.serialize_pem().as_bytes())?;
    Ok((cert, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_certificate_loads_and_is_reused() {
        let dir = tempfile::tempdir().unwrap();
        let (cert, key) = demo_certificate(dir.path()).unwrap();
        let first = std::fs::read(&cert).unwrap();
        server_config(&cert, &key).unwrap();
        demo_certificate(dir.path()).unwrap();
        assert_eq!(first, std::fs::read(&cert).unwrap(), "not regenerated");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn mismatched_or_missing_files_are_explained() {
        let dir = tempfile::tempdir().unwrap();
        let err = server_config(&dir.path().join("nope.pem"), &dir.path().join("k.pem"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("nope.pem"), "{err}");
        let not_pem = dir.path().join("x.pem");
        std::fs::write(&not_pem, "hello").unwrap();
        let err = format!("{:#}", server_config(&not_pem, &not_pem).unwrap_err());
        assert!(err.contains("x.pem"), "{err}");
        // Two good files that are not a pair: one certificate, another certificate's key.
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (cert, _) = demo_certificate(one.path()).unwrap();
        let (_, other_key) = demo_certificate(two.path()).unwrap();
        let err = format!("{:#}", server_config(&cert, &other_key).unwrap_err());
        assert!(err.contains("do not belong together"), "{err}");
    }
}
