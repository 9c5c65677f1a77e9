//! GET requests to Eurostat's dissemination API (or whatever stands in for it: a mirror, a
//! proxy, a test's server), each answer written to a file as it arrives: at most a set number of
//! bytes, never past the disk's room, never waiting longer than a set time for the next bytes.
//! HTTPS through the system's roots (and a CA file the operator gives); the standard proxy
//! variables (`https_proxy`, `http_proxy`, `no_proxy`, as curl reads them) are honoured.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use http_body_util::BodyExt;
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Time to open a connection (to Eurostat or the proxy) and to get an answer's head.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for the next bytes of an answer: a large dataset takes minutes to arrive, but
/// never stalls that long.
const IDLE_TIMEOUT: Duration = Duration::from_secs(120);
/// Room a download leaves on the disk, whatever else it needs.
pub const DISK_RESERVE: u64 = 256 << 20;

/// Where requests go and how.
#[derive(Clone)]
pub struct Client {
    /// The API's base URL (`https://ec.europa.eu/eurostat/api/dissemination`).
    base: http::Uri,
    tls: tokio_rustls::TlsConnector,
    proxy: Option<Proxy>,
}

/// A proxy, from the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Proxy {
    host: String,
    port: u16,
    /// `Basic ...` for the proxy's user and password, if its URL gives them.
    authorization: Option<String>,
}

/// What an answer was: its status, and how many bytes of its body went to the file.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub bytes: u64,
}

/// A download refused by a limit of this install (its size, the disk's reserve): no other try
/// can mend it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(String);

impl Client {
    /// A client of the API at `base` (its path the API's root), trusting the system's roots and
    /// those in `ca_file`.
    pub fn new(base: &str, ca_file: Option<&Path>) -> anyhow::Result<Client> {
        let base: http::Uri = base.trim_end_matches('/').parse().with_context(|| {
            format!(
                "the Eurostat URL {} is not a URL",
                crate::error_text::shown(base)
            )
        })?;
        match base.scheme_str() {
            Some("https" | "http") if base.host().is_some() => {}
            _ => bail!("the Eurostat URL must be an http:// or https:// URL with a host"),
        }
        if base.authority().is_some_and(|a| a.as_str().contains('@')) {
            bail!("the Eurostat URL must not hold a user name or password");
        }
        let proxy = proxy_for(&base, &|name| std::env::var(name).ok())?;
        Ok(Client {
            tls: tls(ca_file)?,
            base,
            proxy,
        })
    }

    /// The full URL of `target` (a path below the base, with its query).
    pub fn url(&self, target: &str) -> String {
        format!("{}{target}", self.base.to_string().trim_end_matches('/'))
    }

    /// GETs `target`, writing at most `max_bytes` of the body to `sink` (whose disk is `dir`:
    /// the download stops when fewer than [`DISK_RESERVE`] bytes would be left on it).
    pub async fn get(
        &self,
        target: &str,
        sink: &mut dyn Write,
        max_bytes: u64,
        dir: &Path,
    ) -> anyhow::Result<Answer> {
        let uri: http::Uri = self.url(target).parse().context("a request URL")?;
        let host = uri.host().context("a URL without a host")?.to_owned();
        let https = uri.scheme_str() == Some("https");
        let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
        let stream = match &self.proxy {
            None => connect(&host, port).await?,
            Some(proxy) => connect(&proxy.host, proxy.port).await?,
        };
        // Through a proxy: a tunnel for HTTPS, the full URL in the request line for HTTP.
        let (request_target, proxy_authorization) = match (&self.proxy, https) {
            (Some(proxy), false) => (uri.to_string(), proxy.authorization.clone()),
            _ => (
                uri.path_and_query().map_or("/", |p| p.as_str()).to_owned(),
                None,
            ),
        };
        let mut stream = stream;
        if let (Some(proxy), true) = (&self.proxy, https) {
            tunnel(&mut stream, &host, port, proxy).await?;
        }
        let mut request = http::Request::get(request_target)
            .header(http::header::HOST, host_header(&host, port, https))
            .header(
                http::header::USER_AGENT,
                concat!("regintel/", env!("CARGO_PKG_VERSION")),
            )
            .header(http::header::ACCEPT_ENCODING, "identity");
        if let Some(authorization) = proxy_authorization {
            request = request.header(http::header::PROXY_AUTHORIZATION, authorization);
        }
        let request = request.body(http_body_util::Empty::<Bytes>::new())?;
        if https {
            let name = rustls_pki_types::ServerName::try_from(host.clone())
                .context("the host is no TLS name")?;
            let stream = tokio::time::timeout(CONNECT_TIMEOUT, self.tls.connect(name, stream))
                .await
                .context("no TLS handshake in time")?
                .with_context(|| format!("TLS with {host}"))?;
            exchange(stream, request, sink, max_bytes, dir).await
        } else {
            exchange(stream, request, sink, max_bytes, dir).await
        }
    }
}

/// `Host` as the request names it: the port only where it is not the scheme's default.
fn host_header(host: &str, port: u16, https: bool) -> String {
    match (https, port) {
        (true, 443) | (false, 80) => host.to_owned(),
        _ => format!("{host}:{port}"),
    }
}

async fn connect(host: &str, port: u16) -> anyhow::Result<tokio::net::TcpStream> {
    let stream = tokio::time::timeout(
        CONNECT_TIMEOUT,
        tokio::net::TcpStream::connect((host, port)),
    )
    .await
    .with_context(|| {
        format!(
            "no connection to {host}:{port} within {} s",
            CONNECT_TIMEOUT.as_secs()
        )
    })?
    .with_context(|| format!("cannot connect to {host}:{port}"))?;
    stream.set_nodelay(true).ok();
    Ok(stream)
}

/// Opens a tunnel to `host:port` through `proxy` (HTTP CONNECT, RFC 9110 §9.3.6).
async fn tunnel(
    stream: &mut tokio::net::TcpStream,
    host: &str,
    port: u16,
    proxy: &Proxy,
) -> anyhow::Result<()> {
    let mut ask = format!("CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n");
    if let Some(authorization) = &proxy.authorization {
        ask.push_str(&format!("Proxy-Authorization: {authorization}\r\n"));
    }
    ask.push_str("\r\n");
    stream.write_all(ask.as_bytes()).await?;
    // The proxy's answer head, byte by byte: what follows it is the tunnel's.
    let mut head = Vec::new();
    let read = async {
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            if stream.read(&mut byte).await? == 0 || head.len() > 16 * 1024 {
                bail!("the proxy closed the connection or answered at length");
            }
            head.push(byte[0]);
        }
        Ok(())
    };
    tokio::time::timeout(CONNECT_TIMEOUT, read)
        .await
        .context("no answer from the proxy in time")??;
    let status_line = String::from_utf8_lossy(&head);
    let status = status_line.split_whitespace().nth(1).unwrap_or("");
    if status != "200" {
        bail!(
            "the proxy {}:{} refused the tunnel to {host}:{port}: {}",
            proxy.host,
            proxy.port,
            crate::error_text::shown(status_line.lines().next().unwrap_or(""))
        );
    }
    Ok(())
}

/// Sends `request` on `stream` and writes the answer's body to `sink`.
async fn exchange<S>(
    stream: S,
    request: http::Request<http_body_util::Empty<Bytes>>,
    sink: &mut dyn Write,
    max_bytes: u64,
    dir: &Path,
) -> anyhow::Result<Answer>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .context("HTTP handshake")?;
    let connection = crate::runtime::task::AbortOnDrop(tokio::spawn(connection));
    let response = tokio::time::timeout(CONNECT_TIMEOUT, sender.send_request(request))
        .await
        .context("no answer within the connect timeout")?
        .context("the request failed")?;
    let status = response.status().as_u16();
    let mut body = response.into_body();
    let mut bytes = 0u64;
    let mut checked_room_at = 0u64;
    loop {
        let frame = tokio::time::timeout(IDLE_TIMEOUT, body.frame())
            .await
            .with_context(|| format!("no data for {} s", IDLE_TIMEOUT.as_secs()))?;
        let Some(frame) = frame else {
            break;
        };
        let frame = frame.context("the answer broke off")?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        bytes += data.len() as u64;
        if bytes > max_bytes {
            return Err(Refused(format!(
                "the answer is larger than {max_bytes} bytes (the download limit)"
            ))
            .into());
        }
        sink.write_all(&data).context("writing the download")?;
        if bytes - checked_room_at >= 8 << 20 {
            checked_room_at = bytes;
            ensure_room(dir, 0)?;
        }
    }
    drop(connection);
    Ok(Answer { status, bytes })
}

/// Fails when the file system of `dir` has fewer than `needed` bytes free beyond
/// [`DISK_RESERVE`].
pub fn ensure_room(dir: &Path, needed: u64) -> anyhow::Result<()> {
    let free = free_bytes(dir)?;
    if free < needed.saturating_add(DISK_RESERVE) {
        return Err(Refused(format!(
            "{} has {} MiB free: with the {} MiB this needs it would keep less than the {} MiB it must keep free",
            dir.display(),
            free >> 20,
            needed >> 20,
            DISK_RESERVE >> 20
        ))
        .into());
    }
    Ok(())
}

fn free_bytes(dir: &Path) -> anyhow::Result<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes())?;
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is a NUL-terminated string and `stat` a valid statvfs to fill.
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return Err(std::io::Error::last_os_error())
            .with_context(|| format!("cannot read the free space of {}", dir.display()));
    }
    Ok((stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

/// The system's roots and those of `ca_file`.
fn tls(ca_file: Option<&Path>) -> anyhow::Result<tokio_rustls::TlsConnector> {
    use rustls_pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    if let Some(file) = ca_file {
        for cert in rustls_pki_types::CertificateDer::pem_file_iter(file)
            .with_context(|| format!("cannot read --eurostat-ca-file {}", file.display()))?
        {
            roots.add(cert?)?;
        }
    }
    let config = crate::webhooks::send::client_tls_with(roots);
    Ok(tokio_rustls::TlsConnector::from(Arc::clone(&config)))
}

/// The proxy for `url` as curl reads the environment (`var`): `https_proxy` for https,
/// `http_proxy` for http (lower case first, then upper case), none where `no_proxy` names the
/// host (a name, a domain suffix, or `*`).
fn proxy_for(
    url: &http::Uri,
    var: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Option<Proxy>> {
    let host = url.host().unwrap_or("").to_ascii_lowercase();
    let either = |name: &str| {
        var(name)
            .or_else(|| var(&name.to_ascii_uppercase()))
            .filter(|v| !v.trim().is_empty())
    };
    if let Some(no_proxy) = either("no_proxy") {
        let skipped = no_proxy.split(',').map(str::trim).any(|entry| {
            let entry = entry.trim_start_matches('.').to_ascii_lowercase();
            entry == "*"
                || (!entry.is_empty() && (host == entry || host.ends_with(&format!(".{entry}"))))
        });
        if skipped {
            return Ok(None);
        }
    }
    let name = match url.scheme_str() {
        Some("https") => "https_proxy",
        _ => "http_proxy",
    };
    let Some(value) = either(name) else {
        return Ok(None);
    };
    let with_scheme = match value.contains("://") {
        true => value.clone(),
        false => format!("http://{value}"),
    };
    let proxy: http::Uri = with_scheme
        .parse()
        .with_context(|| format!("{name} is not a URL"))?;
    if proxy.scheme_str() != Some("http") {
        bail!("{name}: only http:// proxies are supported");
    }
    let authority = proxy.authority().context("a proxy URL without a host")?;
    let (userinfo, _) = match authority.as_str().rsplit_once('@') {
        Some((userinfo, rest)) => (Some(userinfo), rest),
        None => (None, authority.as_str()),
    };
    let authorization = userinfo.map(|userinfo| {
        use base64::Engine as _;
        let decoded = percent_decoded(userinfo);
        format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(decoded)
        )
    });
    Ok(Some(Proxy {
        host: proxy
            .host()
            .context("a proxy URL without a host")?
            .to_owned(),
        port: proxy.port_u16().unwrap_or(80),
        authorization,
    }))
}

/// `text` with its `%XX` escapes decoded (a proxy URL's user and password); an escape that is
/// none stays as written.
fn percent_decoded(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxy(url: &str, vars: &[(&str, &str)]) -> Option<Proxy> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let var = |name: &str| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        proxy_for(&url.parse().unwrap(), &var).unwrap()
    }

    #[test]
    fn proxies_are_read_as_curl_reads_them() {
        let eurostat = "https://ec.europa.eu/eurostat/api/dissemination";
        assert_eq!(proxy(eurostat, &[]), None);
        let through = proxy(eurostat, &[("HTTPS_PROXY", "proxy.example.org:3128")]).unwrap();
        assert_eq!(
            (through.host.as_str(), through.port),
            ("proxy.example.org", 3128)
        );
        assert_eq!(through.authorization, None);
        let lower_first = proxy(
            eurostat,
            &[
                ("https_proxy", "http://a:8080"),
                ("HTTPS_PROXY", "http://b:8080"),
            ],
        )
        .unwrap();
        assert_eq!(lower_first.host, "a");
        let with_user = proxy(eurostat, &[("https_proxy", "http://us%40er:p%3Aw@p:1")]).unwrap();
        // base64 of "us@er:p:w".
        assert_eq!(
            with_user.authorization.as_deref(),
            Some("Basic dXNAZXI6cDp3")
        );
        assert_eq!(
            proxy("http://mirror.local/api", &[("https_proxy", "http://p:1")]),
            None
        );
        for no_proxy in [
            "europa.eu",
            ".europa.eu",
            "ec.europa.eu",
            "*",
            "x, europa.eu",
        ] {
            let vars = [("https_proxy", "http://p:1"), ("no_proxy", no_proxy)];
            assert_eq!(proxy(eurostat, &vars), None, "{no_proxy}");
        }
        let vars = [("https_proxy", "http://p:1"), ("NO_PROXY", "example.org")];
        assert!(proxy(eurostat, &vars).is_some());
        let var = |name: &str| (name == "https_proxy").then(|| "socks5://p:1".to_owned());
        assert!(proxy_for(&eurostat.parse().unwrap(), &var).is_err());
    }

    #[test]
    fn base_urls_are_checked() {
        assert!(Client::new("ftp://example.org/x", None).is_err());
        assert!(Client::new("https://user:pw@example.org/x", None).is_err());
        let client = Client::new("http://127.0.0.1:9/eurostat/api/dissemination/", None).unwrap();
        assert_eq!(
            client.url("/catalogue/toc/txt?lang=en"),
            "http://127.0.0.1:9/eurostat/api/dissemination/catalogue/toc/txt?lang=en"
        );
        assert_eq!(host_header("h", 443, true), "h");
        assert_eq!(host_header("h", 8443, true), "h:8443");
    }
}
