//! Wall-clock time as RFC 3339 UTC timestamps (`meta.generated_at`, snapshot times), both ways.
//! Civil-date conversion after Howard Hinnant's `civil_from_days`.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The wall clock, which a test may move forward (all copies together) to reach what is due
/// minutes or hours later without waiting for it.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
}

impl Clock {
    pub fn now_ms(&self) -> i64 {
        now_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Seconds since the unix epoch.
    pub fn unix_secs(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// The monotonic time, moved forward together with the wall clock.
    pub fn instant(&self) -> Instant {
        let ahead = u64::try_from(self.offset_ms.load(Ordering::Relaxed)).unwrap_or(0);
        let now = Instant::now();
        now.checked_add(Duration::from_millis(ahead)).unwrap_or(now)
    }

    /// Moves every copy forward by `ms`, never back (the monotonic time must not go back).
    #[cfg(any(test, feature = "testing"))]
    pub fn advance(&self, ms: i64) {
        assert!(ms >= 0, "a clock moves forward only: {ms} ms");
        let _ = (self.offset_ms).fetch_update(Ordering::Relaxed, Ordering::Relaxed, |offset| {
            Some(offset.saturating_add(ms))
        });
    }
}

/// For tests on tokio's paused clock: whether `took` is `deadline`, give or take the few
/// milliseconds of the steps around it (and never less: nothing may end before its deadline).
#[cfg(test)]
pub fn on_time(deadline: Duration, took: Duration) -> bool {
    (deadline..deadline + Duration::from_millis(100)).contains(&took)
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// `2026-11-21T10:00:00Z` for a unix time in milliseconds (seconds precision).
pub fn rfc3339(ms: i64) -> String {
    let mut out = String::with_capacity(20);
    push_date_time(&mut out, ms);
    out.push('Z');
    out
}

/// For serde's `serialize_with`: a unix time in milliseconds written as [`rfc3339`], the one
/// form every answer and event gives times in.
pub fn serialize_rfc3339<S: serde::Serializer>(ms: &i64, out: S) -> Result<S::Ok, S::Error> {
    out.serialize_str(&rfc3339(*ms))
}

/// RFC 3339 UTC with milliseconds: `2026-11-21T09:15:02.123Z`.
pub fn rfc3339_millis(ms: i64) -> String {
    let mut out = String::with_capacity(24);
    push_date_time(&mut out, ms);
    out.push('.');
    push_digits(&mut out, ms.rem_euclid(1000), 3);
    out.push('Z');
    out
}

/// RFC 3339 UTC with microseconds, as log lines carry it: `2026-11-21T09:15:02.123456Z`.
pub fn rfc3339_micros(micros: i64) -> String {
    let mut out = String::with_capacity(27);
    push_rfc3339_micros(&mut out, micros);
    out
}

/// [`rfc3339_micros`] appended to `out`.
pub fn push_rfc3339_micros(out: &mut String, micros: i64) {
    push_date_time(out, micros.div_euclid(1000));
    out.push('.');
    push_digits(out, micros.rem_euclid(1_000_000), 6);
    out.push('Z');
}

/// `2026-11-21T10:00:00`. Every answer and every access line carries the time now, many within
/// a second: the second last written on this thread is kept and copied while it lasts.
fn push_date_time(out: &mut String, ms: i64) {
    thread_local! {
        static KEPT: std::cell::Cell<Option<(i64, [u8; 19])>> = const { std::cell::Cell::new(None) };
    }
    let secs = ms.div_euclid(1000);
    if let Some((at, text)) = KEPT.get()
        && at == secs
    {
        out.push_str(std::str::from_utf8(&text).expect("written as ASCII"));
        return;
    }
    let start = out.len();
    write_date_time(out, secs);
    // Years of four digits only: the others are not 19 bytes long.
    if let Ok(text) = out.as_bytes()[start..].try_into() {
        KEPT.set(Some((secs, text)));
    }
}

/// The date and time of `secs`, digit by digit: `format!` with its padding took 2,600
/// instructions for one.
fn write_date_time(out: &mut String, secs: i64) {
    let (y, mo, d, h, mi, s) = civil(secs);
    if (0..=9999).contains(&y) {
        push_digits(out, y, 4);
    } else {
        // Outside four digits, as `{:04}` writes it: a sign and as many digits as it takes.
        out.push_str(&format!("{y:04}"));
    }
    for (separator, value) in [('-', mo), ('-', d), ('T', h), (':', mi), (':', s)] {
        out.push(separator);
        push_digits(out, i64::from(value), 2);
    }
}

/// The last `width` (at most 6) decimal digits of `value` (0 <= value), zero-padded.
fn push_digits(out: &mut String, mut value: i64, width: usize) {
    let mut digits = [b'0'; 6];
    for digit in digits[..width].iter_mut().rev() {
        *digit = b'0' + (value % 10) as u8;
        value /= 10;
    }
    out.push_str(std::str::from_utf8(&digits[..width]).expect("ASCII digits"));
}

/// Unix milliseconds of an RFC 3339 date-time (`2026-11-21T10:00:00Z`, fractions of a second
/// and `+01:00` offsets too; `T` or `t`, `Z` or `z`). None when it is not one, or outside the
/// years 1970 to 9999.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 20
        || !b[..19].iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => matches!(c, b'T' | b't'),
            13 | 16 => *c == b':',
            _ => c.is_ascii_digit(),
        })
    {
        return None;
    }
    let num = |range: std::ops::Range<usize>| text[range].parse::<i64>().ok();
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, m, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let days_in_month = match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    };
    if year < 1970 || !(1..=days_in_month).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    let mut rest = &text[19..];
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let first3: String = fraction[..digits]
            .chars()
            .chain("00".chars())
            .take(3)
            .collect();
        millis = first3.parse::<i64>().ok()?;
        rest = &fraction[digits..];
    }
    let offset_secs = match rest.as_bytes() {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2]
            if [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit()) =>
        {
            let digits = |a: &u8, b: &u8| i64::from(a - b'0') * 10 + i64::from(b - b'0');
            let (oh, om) = (digits(h1, h2), digits(m1, m2));
            if oh > 23 || om > 59 {
                return None;
            }
            let offset = oh * 3600 + om * 60;
            if *sign == b'+' { offset } else { -offset }
        }
        _ => return None,
    };
    let secs = days_from_civil(year, month, day) * 86_400 + h * 3600 + m * 60 + s - offset_secs;
    Some(secs * 1000 + millis)
}

/// Unix milliseconds of the start (UTC) of a date written `YYYY-MM-DD`; None when it is not one.
pub fn parse_date(text: &str) -> Option<i64> {
    if text.len() != 10 {
        return None;
    }
    parse_rfc3339(&format!("{text}T00:00:00Z"))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil(secs: i64) -> (i64, u32, u32, u32, u32, u32) {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        // 2024-02-29T23:59:59Z, a leap day
        assert_eq!(rfc3339(1_709_251_199_000), "2024-02-29T23:59:59Z");
    }

    /// Written digit by digit, the times read as `format!` with padding writes them, across
    /// the years (five-digit and negative ones included) and every millisecond place.
    #[test]
    fn digits_are_what_format_writes() {
        let mut ms: i64 = -70_000_000_000_000;
        while ms < 300_000_000_000_000 {
            let (y, mo, d, h, mi, s) = civil(ms.div_euclid(1000));
            let seconds = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}");
            assert_eq!(rfc3339(ms), format!("{seconds}Z"), "{ms}");
            let milli = ms.rem_euclid(1000);
            assert_eq!(rfc3339_millis(ms), format!("{seconds}.{milli:03}Z"), "{ms}");
            let micros = ms * 1000 + 456;
            assert_eq!(rfc3339_micros(micros), format!("{seconds}.{milli:03}456Z"));
            ms += 7_777_777_777_777 + 123;
        }
    }

    /// The kept second is used for that second only: times within one second, the next second,
    /// back again, and seconds that take turns.
    #[test]
    fn the_kept_second_is_used_only_for_itself() {
        let base = 1_764_000_000_000;
        for (ms, written) in [
            (base, "2025-11-24T16:00:00.000Z"),
            (base + 999, "2025-11-24T16:00:00.999Z"),
            (base + 1000, "2025-11-24T16:00:01.000Z"),
            (base + 999, "2025-11-24T16:00:00.999Z"),
            (base - 1, "2025-11-24T15:59:59.999Z"),
            (base + 1000, "2025-11-24T16:00:01.000Z"),
            (base, "2025-11-24T16:00:00.000Z"),
            (-1, "1969-12-31T23:59:59.999Z"),
            (base + 86_400_000, "2025-11-25T16:00:00.000Z"),
        ] {
            assert_eq!(rfc3339_millis(ms), written);
        }
    }

    #[test]
    fn parses_rfc3339_and_refuses_what_is_not() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339("2024-02-29T23:59:59.5Z"),
            Some(1_709_251_199_500)
        );
        assert_eq!(
            parse_rfc3339("2024-03-01T00:59:59+01:00"),
            Some(1_709_251_199_000)
        );
        // The offset after a fraction of any length.
        assert_eq!(
            parse_rfc3339("2024-03-01T01:59:59.123+02:00"),
            Some(1_709_251_199_123)
        );
        assert_eq!(
            parse_rfc3339("2024-02-29T18:59:59.000000-05:00"),
            Some(1_709_251_199_000)
        );
        assert_eq!(
            parse_rfc3339(&rfc3339_millis(1_764_000_000_123)),
            Some(1_764_000_000_123)
        );
        for bad in [
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-01-01 00:00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00.Z",
            "2024-01-01T00:00:00+1:00",
            "1969-12-31T23:59:59Z",
            "yesterday",
            "",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
