//! Log output on standard error, as text or as JSON lines (`--log-format json`), with every API
//! key redacted (OWASP Logging cheat sheet: no secrets in logs): whatever a log line quotes, a
//! key never reaches the log. Lines logged while a request runs carry its request id (the
//! `request` span: `request{request_id=...}` in text, `"span":{"request_id":...}` in JSON).

use std::io::IsTerminal;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// `RUST_LOG` if set, else `info` (rustls's own warnings about clients' handshakes muted).
pub fn init(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rustls=error"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| RedactingStderr);
    match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
    }
}

/// Standard error through [`crate::auth::api_key::redact`]; tracing-subscriber writes each event
/// in one call, so a key is never split across two writes.
struct RedactingStderr;

impl std::io::Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        std::io::stderr().write_all(crate::auth::api_key::redact(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}
