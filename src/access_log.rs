//! The access line: one per request, saying who asked (address, account, key id, never the key),
//! what, and how it ended; the request id comes from the request's span. Text logs write it
//! directly ([`Lines`]): through tracing-subscriber's full format (a `write!` per field with its
//! styles, the time through `fmt`) it took about 6 % of a citation's server time.

use std::fmt;
use std::net::IpAddr;

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::field::RecordFields;
use tracing_subscriber::fmt::format::{DefaultFields, Format, Full, Writer};
use tracing_subscriber::fmt::time::FormatTime;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, FormattedFields};
use tracing_subscriber::registry::LookupSpan;

const TARGET: &str = "regintel::access";

/// What the access line says.
pub struct Access<'a> {
    pub peer: IpAddr,
    /// 0 for anonymous requests.
    pub account: i64,
    /// The API key's id, `session` for a browser, `-` for anonymous requests.
    pub key_id: &'a str,
    pub method: &'a str,
    /// With any key in it redacted.
    pub path: &'a str,
    pub status: u16,
    pub micros: u64,
}

/// Logs the access line. [`Lines`] writes it; its fields are the ones it knows how to write.
pub fn log(a: &Access<'_>) {
    tracing::info!(
        target: TARGET,
        peer = %a.peer,
        account = a.account,
        key_id = a.key_id,
        method = %a.method,
        path = %a.path,
        status = a.status,
        micros = a.micros,
    );
}

/// The access line of `a` at `micros` (since the Unix epoch), inside the request span of
/// `request_id` (None: outside any, as when the filter leaves the span out), exactly as [`Lines`]
/// writes it through tracing. Text logs take a request's line this way
/// (`config::AccessLines`), without tracing's dispatch, its field visitors and the span's
/// lookup: they were most of the line's 7,500 instructions.
pub fn line(out: &mut String, micros: i64, request_id: Option<&str>, a: &Access<'_>) {
    use std::fmt::Write as _;
    crate::runtime::clock::push_rfc3339_micros(out, micros);
    out.push_str("  INFO ");
    if let Some(id) = request_id {
        out.push_str("request{request_id=");
        out.push_str(id);
        out.push_str("}: ");
    }
    out.push_str(TARGET);
    out.push_str(": peer=");
    match a.peer {
        // As `Display` writes it, without its formatting machinery: a thousand instructions.
        IpAddr::V4(v4) => {
            for (i, octet) in v4.octets().into_iter().enumerate() {
                if i > 0 {
                    out.push('.');
                }
                out.push_str(itoa::Buffer::new().format(octet));
            }
        }
        IpAddr::V6(v6) => {
            let _ = write!(out, "{v6}");
        }
    }
    out.push_str(" account=");
    out.push_str(itoa::Buffer::new().format(a.account));
    out.push_str(" key_id=");
    let _ = push_quoted(out, a.key_id);
    out.push_str(" method=");
    out.push_str(a.method);
    out.push_str(" path=");
    out.push_str(a.path);
    out.push_str(" status=");
    out.push_str(itoa::Buffer::new().format(a.status));
    out.push_str(" micros=");
    out.push_str(itoa::Buffer::new().format(a.micros));
    out.push('\n');
}

/// Whether the filter (`RUST_LOG`) lets access lines through.
pub fn enabled() -> bool {
    tracing::enabled!(target: TARGET, Level::INFO)
}

/// Text as tracing-subscriber's field formatter quotes it: as `{:?}` does, written directly when
/// nothing in it needs escaping.
fn push_quoted(out: &mut impl fmt::Write, text: &str) -> fmt::Result {
    if is_plain(text) {
        out.write_char('"')?;
        out.write_str(text)?;
        out.write_char('"')
    } else {
        write!(out, "{text:?}")
    }
}

fn is_plain(text: &str) -> bool {
    text.bytes()
        .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\')
}

/// The time now, in microseconds since the Unix epoch.
pub fn now_micros() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

/// Text lines: the access line written directly, exactly as the full format writes it without
/// colours; every other line (and every line to a terminal, in colour) by the full format. The
/// test `lines_are_what_the_full_format_writes` holds the two to the same bytes, whatever
/// version of tracing-subscriber is built.
pub struct Lines<T> {
    full: Format<Full, T>,
    timer: T,
}

impl<T: FormatTime + Clone> Lines<T> {
    pub fn new(timer: T) -> Self {
        Lines {
            full: tracing_subscriber::fmt::format().with_timer(timer.clone()),
            timer,
        }
    }
}

impl<S, N, T> FormatEvent<S, N> for Lines<T>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    T: FormatTime,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        if writer.has_ansi_escapes() || meta.target() != TARGET {
            return self.full.format_event(ctx, writer, event);
        }
        if self.timer.format_time(&mut writer).is_err() {
            writer.write_str("<unknown time>")?;
        }
        writer.write_str(match *meta.level() {
            Level::TRACE => " TRACE ",
            Level::DEBUG => " DEBUG ",
            Level::INFO => "  INFO ",
            Level::WARN => "  WARN ",
            Level::ERROR => " ERROR ",
        })?;
        if let Some(scope) = ctx.event_scope() {
            let mut seen = false;
            for span in scope.from_root() {
                writer.write_str(span.metadata().name())?;
                seen = true;
                let extensions = span.extensions();
                if let Some(fields) = extensions.get::<FormattedFields<N>>()
                    && !fields.is_empty()
                {
                    writer.write_char('{')?;
                    writer.write_str(fields)?;
                    writer.write_char('}')?;
                }
                writer.write_char(':')?;
            }
            if seen {
                writer.write_char(' ')?;
            }
        }
        writer.write_str(meta.target())?;
        writer.write_str(": ")?;
        let mut fields = AccessFields {
            writer: &mut writer,
            first: true,
            result: Ok(()),
        };
        event.record(&mut fields);
        fields.result?;
        writer.write_char('\n')
    }
}

/// The access line's fields as tracing-subscriber's default field formatter writes them without
/// colours: `name=value` separated by spaces, text quoted as `{:?}` quotes it, displayed values
/// (`%`) as they display; numbers and text without escapes written directly.
struct AccessFields<'w, 'a> {
    writer: &'w mut Writer<'a>,
    first: bool,
    result: fmt::Result,
}

impl AccessFields<'_, '_> {
    fn write(&mut self, field: &Field, value: impl FnOnce(&mut Writer<'_>) -> fmt::Result) {
        if self.result.is_err() {
            return;
        }
        if !self.first {
            self.result = self.writer.write_char(' ');
        }
        self.first = false;
        self.result = self
            .result
            .and_then(|()| self.writer.write_str(field.name()))
            .and_then(|()| self.writer.write_char('='))
            .and_then(|()| value(self.writer));
    }
}

impl Visit for AccessFields<'_, '_> {
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.write(field, |w| w.write_str(itoa::Buffer::new().format(value)));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.write(field, |w| w.write_str(itoa::Buffer::new().format(value)));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.write(field, |w| push_quoted(w, value));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.write(field, |w| write!(w, "{value:?}"));
    }
}

/// Fields of spans and events as tracing-subscriber's `DefaultFields` writes them without
/// colours, written as [`AccessFields`] writes the access line's: `DefaultFields` styles each
/// name and `=` (with no colours, an empty style) through `fmt`, which cost every request 1,400
/// instructions for its span's one field. Fields of other kinds (a message, an error, `log.` and
/// `r#` names), and every line in colour, go to `DefaultFields` whole. The test
/// `plain_fields_are_what_default_fields_write` holds the two to the same bytes.
#[derive(Default)]
pub struct PlainFields;

impl<'w> FormatFields<'w> for PlainFields {
    fn format_fields<R: RecordFields>(&self, mut writer: Writer<'w>, fields: R) -> fmt::Result {
        let mut plain = OnlyPlain(true);
        fields.record(&mut plain);
        if writer.has_ansi_escapes() || !plain.0 {
            return DefaultFields::new().format_fields(writer, fields);
        }
        let mut written = AccessFields {
            writer: &mut writer,
            first: true,
            result: Ok(()),
        };
        fields.record(&mut written);
        written.result
    }
}

/// Whether every field is one that `DefaultFields` writes as `name={value:?}`.
struct OnlyPlain(bool);

impl Visit for OnlyPlain {
    fn record_error(&mut self, _: &Field, _: &(dyn std::error::Error + 'static)) {
        self.0 = false;
    }

    fn record_debug(&mut self, field: &Field, _: &dyn fmt::Debug) {
        let name = field.name();
        self.0 &= name != "message" && !name.starts_with("log.") && !name.starts_with("r#");
    }
}

/// The time as tracing-subscriber's `SystemTime` writes it (RFC 3339 UTC with microseconds),
/// digit by digit.
#[derive(Clone, Copy)]
pub struct Micros;

impl FormatTime for Micros {
    fn format_time(&self, w: &mut Writer<'_>) -> fmt::Result {
        w.write_str(&crate::runtime::clock::rfc3339_micros(now_micros()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::test_logs::Captured;

    #[derive(Clone, Copy)]
    struct Fixed;

    /// 2026-11-25T16:55:45.091108Z
    const FIXED: i64 = 1_795_625_745_091_108;

    impl FormatTime for Fixed {
        fn format_time(&self, w: &mut Writer<'_>) -> fmt::Result {
            w.write_str(&crate::runtime::clock::rfc3339_micros(FIXED))
        }
    }

    const REQUEST_ID: &str = "req_01M89T4YQ5KT3AX7N22KCNYGG1";

    /// Access lines of every kind: addresses of both families, anonymous and account callers,
    /// key ids plain and needing escapes.
    fn accesses() -> Vec<Access<'static>> {
        let access = |peer: &str, account, key_id, status| Access {
            peer: peer.parse().unwrap(),
            account,
            key_id,
            method: "GET",
            path: "/api/v1/regional/regions/DE21/profile",
            status,
            micros: 1234,
        };
        vec![
            access("2001:db8::7", 42, "CP8ilmBQ", 200),
            access("::ffff:192.0.2.1", 0, "-", 304),
            access("127.0.0.1", 7, "a \"quoted\" \\ key\n\u{7f}é", 401),
            Access {
                peer: "10.1.2.3".parse().unwrap(),
                account: -1,
                key_id: "session",
                method: "POST",
                path: "/api/v1/regional/auth/login",
                status: 429,
                micros: u64::MAX,
            },
        ]
    }

    /// Access lines inside a request span and outside any, and other lines.
    fn log_some() {
        let all = accesses();
        log(&all[1]);
        let span = tracing::info_span!("request", request_id = %REQUEST_ID);
        let _entered = span.enter();
        for access in &all {
            log(access);
        }
        tracing::info!(peer = 1, "export stopped: {}", "the client left");
        tracing::warn!(target: "regintel::other", key_id = "x", "not an access line");
    }

    fn written<E>(format: E) -> String
    where
        E: FormatEvent<
                tracing_subscriber::Registry,
                tracing_subscriber::fmt::format::DefaultFields,
            > + Send
            + Sync
            + 'static,
    {
        let out = Captured::default();
        let writer = out.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .event_format(format)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, log_some);
        String::from_utf8(out.0.lock().unwrap().clone()).unwrap()
    }

    /// Written directly, the lines are byte for byte what the full format writes.
    #[test]
    fn lines_are_what_the_full_format_writes() {
        let full = written(tracing_subscriber::fmt::format().with_timer(Fixed));
        let ours = written(Lines::new(Fixed));
        assert_eq!(full.lines().count(), 7, "{full}");
        assert!(
            full.contains("key_id=\"a \\\"quoted\\\" \\\\ key\\n\\u{7f}é\""),
            "{full}"
        );
        assert_eq!(ours, full);
    }

    /// Written without tracing, access lines are what tracing writes, inside the request span
    /// and outside any.
    #[test]
    fn direct_lines_are_what_tracing_writes() {
        let through_tracing = written(Lines::new(Fixed));
        let mut direct = String::new();
        let all = accesses();
        line(&mut direct, FIXED, None, &all[1]);
        for access in &all {
            line(&mut direct, FIXED, Some(REQUEST_ID), access);
        }
        let access_lines: Vec<&str> = through_tracing
            .lines()
            .filter(|l| l.contains(" regintel::access: "))
            .collect();
        assert_eq!(access_lines.len(), 5, "{through_tracing}");
        assert_eq!(direct, access_lines.join("\n") + "\n");
    }

    /// Spans and events with fields of every kind, written through `fields`.
    fn written_with<N>(fields: N) -> String
    where
        N: for<'w> FormatFields<'w> + Send + Sync + 'static,
    {
        #[derive(Debug)]
        struct Failed(std::io::Error);
        impl fmt::Display for Failed {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the export failed")
            }
        }
        impl std::error::Error for Failed {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let out = Captured::default();
        let writer = out.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .fmt_fields(fields)
            .event_format(tracing_subscriber::fmt::format().with_timer(Fixed))
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let request = tracing::info_span!("request", request_id = %REQUEST_ID);
            let _entered = request.enter();
            let export = tracing::info_span!(
                "export",
                rows = 3_u64,
                offset = -2_i64,
                share = 0.5,
                done = false,
                name = "a \"quoted\" name\n",
                list = ?["x", "y"],
                r#type = "csv",
                later = tracing::field::Empty,
            );
            export.record("later", "recorded");
            let _inside = export.enter();
            tracing::info!("plain message");
            tracing::info!(peer = 1, key_id = "x y", "message {} and fields", 2);
            tracing::warn!(rows = 7_u64, path = %"/api/v1", "\u{1b}[31mred\u{1b}[0m");
            tracing::info!(count = 3_u64, state = ?Some("idle"));
            tracing::info!(r#type = "fields only", plain = true);
            let failed = Failed(std::io::Error::other("disk full"));
            tracing::error!(error = &failed as &dyn std::error::Error, "gave up");
            let alone = std::io::Error::other("alone");
            tracing::error!(error = &alone as &dyn std::error::Error);
            tracing::info_span!("empty").in_scope(|| tracing::info!(n = 1_i64));
        });
        String::from_utf8(out.0.lock().unwrap().clone()).unwrap()
    }

    /// Spans' and events' fields of every kind are written as `DefaultFields` writes them.
    #[test]
    fn plain_fields_are_what_default_fields_write() {
        let theirs = written_with(tracing_subscriber::fmt::format::DefaultFields::new());
        let ours = written_with(PlainFields);
        assert_eq!(theirs.lines().count(), 8, "{theirs}");
        assert!(
            theirs.contains(&format!("request{{request_id={REQUEST_ID}}}")),
            "{theirs}"
        );
        assert!(theirs.contains("later=\"recorded\""), "{theirs}");
        assert_eq!(ours, theirs);
    }

    /// The time reads as tracing-subscriber's: the same length, digits where it has digits.
    #[test]
    fn the_time_is_written_as_tracing_subscribers() {
        let write = |timer: &dyn FormatTime| {
            let mut text = String::new();
            timer.format_time(&mut Writer::new(&mut text)).unwrap();
            text
        };
        let ours = write(&Micros);
        let theirs = write(&tracing_subscriber::fmt::time::SystemTime);
        assert_eq!(ours.len(), theirs.len(), "{ours} {theirs}");
        for (a, b) in ours.chars().zip(theirs.chars()) {
            assert_eq!(a.is_ascii_digit(), b.is_ascii_digit(), "{ours} {theirs}");
            if !a.is_ascii_digit() {
                assert_eq!(a, b, "{ours} {theirs}");
            }
        }
    }
}
