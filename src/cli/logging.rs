//! Log output on standard error, as text or as JSON lines (`--log-format json`), with every API
//! key redacted (OWASP Logging cheat sheet: no secrets in logs): whatever a log line quotes, a
//! key never reaches the log. Lines logged while a request runs carry its request id (the
//! `request` span: `request{request_id=...}` in text, `"span":{"request_id":...}` in JSON).

use std::io::{IsTerminal, Write};

use crate::config::AccessLines;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

impl LogFormat {
    /// A line a command tells its operator: on standard output as it is in text; with JSON logs
    /// a log event (the line its message) on standard error, like every other line.
    pub fn say(self, line: &str) {
        match self {
            LogFormat::Text => println!("{line}"),
            LogFormat::Json => tracing::info!("{line}"),
        }
    }

    /// A warning a command tells its operator: `warning: ` and the line in text, a WARN event
    /// with JSON logs.
    pub fn warn(self, line: &str) {
        match self {
            LogFormat::Text => println!("warning: {line}"),
            LogFormat::Json => tracing::warn!("{line}"),
        }
    }

    /// How an import shows its progress: a bar or lines in text, log events with JSON logs.
    pub fn progress(self) -> crate::runtime::progress::Progress {
        match self {
            LogFormat::Text => crate::runtime::progress::Progress::on_stderr(),
            LogFormat::Json => crate::runtime::progress::Progress::as_log_events(),
        }
    }
}

/// How a command prints its result on standard output: text, JSON for a script (`--json`), or,
/// with JSON logs, JSON on one line (so every line the command writes is JSON). A result that
/// holds a secret (a new key, a generated password) is printed, never logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Printed {
    Text,
    Json,
    JsonLine,
}

impl Printed {
    pub fn of(json_flag: bool, format: LogFormat) -> Printed {
        match (json_flag, format) {
            (_, LogFormat::Json) => Printed::JsonLine,
            (true, LogFormat::Text) => Printed::Json,
            (false, LogFormat::Text) => Printed::Text,
        }
    }

    /// `value` as JSON, or `text` when the result is printed as text.
    pub fn print(self, value: &impl serde::Serialize, text: impl FnOnce() -> String) {
        let json = match self {
            Printed::Text => return println!("{}", text()),
            Printed::Json => serde_json::to_string_pretty(value),
            Printed::JsonLine => serde_json::to_string(value),
        };
        println!("{}", json.expect("results serialise"));
    }
}

/// `RUST_LOG` if set, else `info` (rustls's own warnings about clients' handshakes muted). Lines
/// are written as [`Pending`] says; the returned guard writes what is left when dropped.
pub fn init(format: LogFormat) -> Flushed {
    let pending = std::sync::Arc::new(Pending::default());
    let writer = std::sync::Arc::clone(&pending);
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rustls=error"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(move || RedactingStderr(std::sync::Arc::clone(&writer)));
    let ansi = std::io::stderr().is_terminal();
    match format {
        LogFormat::Text => builder
            .with_ansi(ansi)
            .fmt_fields(crate::access_log::PlainFields)
            .event_format(crate::access_log::Lines::new(crate::access_log::Micros))
            .init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
    }
    let flusher = std::sync::Arc::clone(&pending);
    let started = std::thread::Builder::new()
        .name("log-flush".into())
        .spawn(move || {
            loop {
                std::thread::sleep(FLUSH_EVERY);
                flusher.write_out();
            }
        });
    if started.is_err() {
        // Nothing would write the last lines in time: each goes out as it comes.
        pending
            .at_once
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
    // A panic's message comes after the lines logged before it.
    let on_panic = std::sync::Arc::clone(&pending);
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        on_panic.write_out();
        report(info);
    }));
    // Access lines are written directly where they read as the text format writes them.
    let direct = (format == LogFormat::Text && !ansi).then(|| {
        let pending = std::sync::Arc::clone(&pending);
        AccessLines::new(move |line| pending.push(crate::auth::api_key::redact(line).as_bytes()))
    });
    Flushed { pending, direct }
}

/// How long a line may wait to be written.
const FLUSH_EVERY: std::time::Duration = std::time::Duration::from_millis(100);
/// Lines written together once this many bytes have gathered.
const FLUSH_AT: usize = 16 * 1024;

/// Lines not yet written to standard error. A server logs a line per request: written one at a
/// time, each cost a system call (3 to 5 % of an uncached answer's time); gathered, they are written
/// when [`FLUSH_AT`] bytes have gathered, by a thread every [`FLUSH_EVERY`] (a wait, not a wake-up
/// per line), and at exit, in the order they were logged.
struct Pending {
    lines: std::sync::Mutex<Vec<u8>>,
    /// Each line written as it comes (no thread writes them out).
    at_once: std::sync::atomic::AtomicBool,
    /// Where lines go: standard error (a log that cannot be written has nowhere to report it).
    out: fn(&[u8]),
}

impl Default for Pending {
    fn default() -> Self {
        Pending {
            lines: Default::default(),
            at_once: Default::default(),
            out: |lines| {
                let _ = std::io::stderr().write_all(lines);
            },
        }
    }
}

impl Pending {
    fn push(&self, line: &[u8]) {
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.extend_from_slice(line);
        if lines.len() >= FLUSH_AT || self.at_once.load(std::sync::atomic::Ordering::Relaxed) {
            self.write(&mut lines);
        }
    }

    fn write_out(&self) {
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if !lines.is_empty() {
            self.write(&mut lines);
        }
    }

    /// Writes `lines` under their lock, so the order holds, and empties them.
    fn write(&self, lines: &mut Vec<u8>) {
        (self.out)(lines);
        lines.clear();
    }
}

/// Writes the lines still pending when dropped (at the end of the command).
pub struct Flushed {
    pending: std::sync::Arc<Pending>,
    direct: Option<AccessLines>,
}

impl Flushed {
    /// Where a server writes its access lines directly, if its logs are text.
    pub fn access_lines(&self) -> Option<AccessLines> {
        self.direct.clone()
    }
}

impl Drop for Flushed {
    fn drop(&mut self) {
        self.pending.write_out();
    }
}

/// Standard error through [`crate::auth::api_key::redact`]; tracing-subscriber writes each event
/// in one call, so a key is never split across two writes.
struct RedactingStderr(std::sync::Arc<Pending>);

impl Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.0.push(crate::auth::api_key::redact(&text).as_bytes());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static WRITTEN: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());

    fn written() -> Vec<u8> {
        WRITTEN.lock().unwrap().clone()
    }

    /// Lines wait until enough have gathered or they are written out, then go in their order.
    #[test]
    fn lines_gather_and_go_out_in_order() {
        let pending = Pending {
            lines: Default::default(),
            at_once: Default::default(),
            out: |lines| WRITTEN.lock().unwrap().extend_from_slice(lines),
        };
        pending.push(b"first\n");
        assert!(written().is_empty(), "one short line waits");
        let line = [b'x'; 1000];
        let mut expected = b"first\n".to_vec();
        while expected.len() < FLUSH_AT {
            pending.push(&line);
            expected.extend_from_slice(&line);
        }
        assert_eq!(written(), expected, "written once 16 KiB gathered");
        pending.push(b"last\n");
        assert_eq!(written().len(), expected.len());
        pending.write_out();
        expected.extend_from_slice(b"last\n");
        assert_eq!(written(), expected);
        pending.write_out();
        assert_eq!(written(), expected, "nothing is written twice");
    }
}
