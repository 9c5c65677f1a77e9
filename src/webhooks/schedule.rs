//! When a delivery is tried again, and what a receiver's answer means (Standard Webhooks 1.0,
//! "Retry schedule" and "Endpoint failure handling").

use std::time::Duration;

/// Delays before each attempt after the first (which is immediate): the specification's
/// example schedule, 10 attempts over about 75 hours.
const SCHEDULE: [Duration; 9] = [
    Duration::from_secs(5),
    Duration::from_secs(5 * 60),
    Duration::from_secs(30 * 60),
    Duration::from_secs(2 * 3600),
    Duration::from_secs(5 * 3600),
    Duration::from_secs(10 * 3600),
    Duration::from_secs(14 * 3600),
    Duration::from_secs(20 * 3600),
    Duration::from_secs(24 * 3600),
];

/// Attempts a delivery gets in all.
pub const MAX_ATTEMPTS: u32 = SCHEDULE.len() as u32 + 1;

/// The longest a receiver's `Retry-After` may push the next attempt out.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(24 * 3600);

/// The delay before the next attempt after `attempts` failed ones, or None when the schedule is
/// spent. `jitter` in [0, 1) spreads it over ±10 % so that deliveries failed together are not
/// retried together; a `retry_after` the receiver asked for is honoured when it is longer.
pub fn next_delay(attempts: u32, jitter: f64, retry_after: Option<Duration>) -> Option<Duration> {
    let base = *SCHEDULE.get(usize::try_from(attempts).ok()?.checked_sub(1)?)?;
    let spread = base.mul_f64(0.9 + 0.2 * jitter.clamp(0.0, 1.0));
    Some(spread.max(retry_after.unwrap_or_default().min(MAX_RETRY_AFTER)))
}

/// What an attempt's answer means for the delivery and its endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// 2xx: delivered.
    Delivered,
    /// 410 Gone: the receiver asks never to be called again; the endpoint is disabled.
    Gone,
    /// Anything else (3xx included: redirects are never followed), a timeout or a connection
    /// error: tried again on the schedule.
    Failed,
}

/// The verdict on an HTTP status (None: no answer at all).
pub fn verdict(status: Option<u16>) -> Verdict {
    match status {
        Some(200..=299) => Verdict::Delivered,
        Some(410) => Verdict::Gone,
        _ => Verdict::Failed,
    }
}

/// A `Retry-After` value (RFC 9110 §10.2.3): seconds, or an HTTP date, as a delay from `now`
/// (unix seconds). None when it is neither; a date in the past is no delay.
pub fn parse_retry_after(value: &str, now: i64) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = parse_imf_fixdate(value)?;
    Some(Duration::from_secs(u64::try_from(at - now).unwrap_or(0)))
}

/// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7, the form senders must use) as unix seconds.
fn parse_imf_fixdate(value: &str) -> Option<i64> {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let rest = value.split_once(", ")?.1;
    let parts: Vec<&str> = rest.split(' ').collect();
    let [day, month, year, time, "GMT"] = parts[..] else {
        return None;
    };
    let month = MONTHS.iter().position(|m| *m == month)? as i64 + 1;
    let (day, year): (i64, i64) = (day.parse().ok()?, year.parse().ok()?);
    if !(1970..=9999).contains(&year) {
        return None;
    }
    let hms: Vec<i64> = time
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, s] = hms[..] else { return None };
    if !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    Some(crate::runtime::clock::days_from_civil(year, month, day) * 86_400 + h * 3600 + m * 60 + s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_is_the_specifications_with_jitter() {
        let mid = |attempts| next_delay(attempts, 0.5, None).unwrap().as_secs();
        let all: Vec<u64> = (1..MAX_ATTEMPTS).map(mid).collect();
        assert_eq!(all, [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
        assert_eq!(next_delay(MAX_ATTEMPTS, 0.5, None), None, "spent after 10");
        assert_eq!(next_delay(0, 0.5, None), None);
        assert_eq!(next_delay(2, 0.0, None), Some(Duration::from_secs(270)));
        assert_eq!(next_delay(2, 1.0, None), Some(Duration::from_secs(330)));
    }

    #[test]
    fn retry_after_is_honoured_when_longer_and_capped() {
        let hour = Duration::from_secs(3600);
        assert_eq!(next_delay(1, 0.5, Some(hour)), Some(hour));
        assert_eq!(
            next_delay(3, 0.5, Some(Duration::from_secs(1))),
            Some(Duration::from_secs(1800))
        );
        assert_eq!(
            next_delay(1, 0.5, Some(Duration::from_secs(10 * 86_400))),
            Some(MAX_RETRY_AFTER)
        );
    }

    #[test]
    fn answers_are_judged_as_the_specification_says() {
        assert_eq!(verdict(Some(200)), Verdict::Delivered);
        assert_eq!(verdict(Some(204)), Verdict::Delivered);
        assert_eq!(verdict(Some(410)), Verdict::Gone);
        for failed in [
            Some(301),
            Some(302),
            Some(400),
            Some(429),
            Some(500),
            Some(503),
            None,
        ] {
            assert_eq!(verdict(failed), Verdict::Failed, "{failed:?}");
        }
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        // 1994-11-06T08:49:37Z is 784111777.
        let now = 784_111_777;
        assert_eq!(
            parse_retry_after("120", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:50:37 GMT", now),
            Some(Duration::from_secs(60))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 1970 00:00:10 GMT", 0),
            Some(Duration::from_secs(10))
        );
        for bad in [
            "",
            "-5",
            "soon",
            "Sun, 06 Nov 1994 08:49:37 CET",
            "06 Nov 1994",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 99999999999999 08:49:37 GMT",
            "Sun, 06 Nov 1969 08:49:37 GMT",
        ] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad}");
        }
    }
}
