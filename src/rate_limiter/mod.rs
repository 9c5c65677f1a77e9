//! Rate limits: GCRA buckets (<https://brandur.org/rate-limiting>) for minutes and hours on a
//! monotonic clock, and UTC calendar-day counters.
//!
//! A request names the buckets it touches ([`Policy`]); it is admitted only if every one has room
//! for its weight, and then consumes from all of them, under one lock, so concurrent requests can
//! never exceed a limit. Day counters of keys and accounts are flushed to `usage_daily` by
//! [`Limiter::take_dirty`] as what they grew by since the last flush, so that nodes sharing one
//! database add up their counts; each node then takes the sums back with [`Limiter::load_day`]
//! (also at start, so a restart does not reset a daily cap).

mod scope;

pub use scope::Scope;

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::runtime::clock::Clock;

/// Seconds of a UTC day: day counters roll over at multiples of it.
pub const DAY_SECS: i64 = 86_400;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// GCRA over a rolling minute.
    Minute,
    /// GCRA over a rolling hour.
    Hour,
    /// A counter per UTC calendar day.
    Day,
}

/// One bucket a request touches: a named policy (`key-minute`) on a scope with a quota.
#[derive(Clone, Debug)]
pub struct Policy {
    pub name: &'static str,
    pub scope: Scope,
    pub kind: Kind,
    pub limit: u64,
}

impl Kind {
    fn window_secs(self) -> u64 {
        match self {
            Kind::Minute => 60,
            Kind::Hour => 3600,
            Kind::Day => DAY_SECS as u64,
        }
    }
}

impl Policy {
    fn window_secs(&self) -> u64 {
        self.kind.window_secs()
    }

    /// A quota (an hour's or a day's) rather than the rolling minute, which bounds the rate at
    /// which a caller makes the service work.
    pub fn quota(&self) -> bool {
        self.kind != Kind::Minute
    }
}

/// Where a bucket stands after a decision.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Status {
    pub policy: &'static str,
    pub limit: u64,
    pub window_secs: u64,
    pub used: u64,
    pub remaining: u64,
    /// Seconds until the bucket is full again (rolling) or the next UTC midnight (day).
    pub reset_secs: u64,
}

#[derive(Debug, Default)]
pub struct Decision {
    pub allowed: bool,
    pub statuses: Vec<Status>,
    /// Names of the policies without room (empty when allowed).
    pub violated: Vec<&'static str>,
    /// Seconds until every violated bucket has room again.
    pub retry_after: u64,
}

impl Decision {
    /// The buckets as they stand after `weight` was refunded (to the rolling minutes too, or
    /// not: see [`Policy::quota`]).
    pub fn give_back(&mut self, weight: u64, minutes_too: bool) {
        let minute = Kind::Minute.window_secs();
        for status in (self.statuses.iter_mut()).filter(|s| minutes_too || s.window_secs != minute)
        {
            status.used = status.used.saturating_sub(weight);
            status.remaining = status.remaining.saturating_add(weight).min(status.limit);
        }
    }

    /// The bucket the `X-RateLimit-*` headers describe: the lowest remaining, ties broken by the
    /// later reset, so a client that waits for it waits long enough.
    pub fn binding(&self) -> Option<&Status> {
        self.statuses.iter().min_by(|a, b| {
            a.remaining
                .cmp(&b.remaining)
                .then(b.reset_secs.cmp(&a.reset_secs))
        })
    }
}

/// Every bucket of one scope, so a request costs one lookup per scope: theoretical arrival
/// times (nanoseconds since the limiter's origin, which a u64 holds for 584 years; 0 = full) and
/// the day's count.
#[derive(Default, Clone, Copy)]
struct Entry {
    minute: u64,
    hour: u64,
    day: i64,
    used: u64,
    /// What `usage_daily` held for `day` when last read, plus what this process has flushed
    /// since: `used - flushed` is what it counted and has not written yet.
    flushed: u64,
}

impl Entry {
    fn tat(&mut self, kind: Kind) -> &mut u64 {
        match kind {
            Kind::Hour => &mut self.hour,
            _ => &mut self.minute,
        }
    }

    /// Nothing to remember: both rolling buckets full and no count of today left to flush.
    fn idle(&self, now: u64, today: i64, persisted: bool) -> bool {
        self.minute <= now
            && self.hour <= now
            && (self.day != today || self.used == 0)
            && (!persisted || self.used == self.flushed)
    }
}

#[derive(Default)]
struct State {
    entries: HashMap<Scope, Entry>,
    /// What days that ended counted and did not flush: (scope name, day, count).
    rolled: Vec<(String, i64, u64)>,
}

pub struct Limiter {
    /// The time its callers read (monotonic for the rolling buckets, wall for the days): the
    /// wall clock, which tests move forward to reach a refill or the next day without waiting.
    clock: Clock,
    origin: Instant,
    /// When the last authentication failure happened (nanoseconds since `origin`; 0 = never):
    /// lets requests skip the auth-fail lookup when nobody failed recently.
    last_auth_failure: AtomicU64,
    /// Scopes kept at most; beyond that the ones closest to full are dropped first.
    max_entries: usize,
    state: Mutex<State>,
}

const NANOS_PER_SEC: u64 = 1_000_000_000;

/// GCRA's emission interval `T = W / L`, at least 1 ns (limits beyond a billion per second are
/// effectively unlimited).
fn nanos_per(limit: u64, window_secs: u64) -> u64 {
    (window_secs * NANOS_PER_SEC / limit.max(1)).max(1)
}

fn ceil_secs(nanos: u64) -> u64 {
    nanos.div_ceil(NANOS_PER_SEC)
}

impl Limiter {
    pub fn new(max_entries: usize, clock: Clock) -> Limiter {
        Limiter {
            origin: clock.instant(),
            clock,
            last_auth_failure: AtomicU64::new(0),
            max_entries,
            state: Mutex::new(State::default()),
        }
    }

    /// The time its buckets are read at: see [`Limiter::admit`]'s `now` and `wall_secs`.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The monotonic time now, the `now` of [`Limiter::admit`].
    pub fn now(&self) -> Instant {
        self.clock.instant()
    }

    /// The UTC day now (days since the unix epoch), the day the day counters count.
    pub fn today(&self) -> i64 {
        self.clock.unix_secs().div_euclid(DAY_SECS)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn nanos(&self, now: Instant) -> u64 {
        // +1 so that a TAT of 0 always means "full".
        let since = now.saturating_duration_since(self.origin).as_nanos();
        u64::try_from(since).map_or(u64::MAX, |n| n.saturating_add(1))
    }

    /// Admits a request of `weight` if every policy has room, consuming from all of them.
    /// `wall_secs` is the unix time (for calendar days); `now` the monotonic time.
    pub fn admit(
        &self,
        policies: &[Policy],
        weight: u64,
        now: Instant,
        wall_secs: i64,
    ) -> Decision {
        let now = self.nanos(now);
        let mut state = self.lock();
        let decision = evaluate(&mut state, policies, weight, now, wall_secs);
        if decision.allowed && weight > 0 {
            // Every bucket has room: each takes `weight` as `evaluate` found it could.
            each_entry(&mut state.entries, policies, |p, entry| match p.kind {
                Kind::Day => entry.used = entry.used.saturating_add(weight).min(p.limit),
                kind => {
                    let t = nanos_per(p.limit, p.window_secs());
                    let tat = entry.tat(kind);
                    *tat = (*tat).max(now).saturating_add(t.saturating_mul(weight));
                }
            });
        }
        if state.entries.len() > self.max_entries {
            // A flood of new clients: make room now rather than at the next periodic sweep.
            self.sweep_locked(&mut state, now, wall_secs);
        }
        decision
    }

    /// Where the policies stand, without consuming.
    pub fn peek(&self, policies: &[Policy], now: Instant, wall_secs: i64) -> Vec<Status> {
        let now = self.nanos(now);
        let mut state = self.lock();
        evaluate(&mut state, policies, 0, now, wall_secs).statuses
    }

    /// Gives back what an admitted request consumed (answers that do not count: an authenticated
    /// 304, 401, 429, 5xx).
    pub fn refund(&self, policies: &[Policy], weight: u64, wall_secs: i64) {
        let mut state = self.lock();
        let day = wall_secs.div_euclid(DAY_SECS);
        for p in policies {
            let Some(entry) = state.entries.get_mut(&p.scope) else {
                continue;
            };
            match p.kind {
                // A count already flushed stays written: `flushed` never passes `used`, so what
                // is left to flush never wraps below zero (the database keeps the request).
                Kind::Day if entry.day == day => {
                    entry.used = entry.used.saturating_sub(weight);
                    entry.flushed = entry.flushed.min(entry.used);
                }
                Kind::Day => {}
                kind => {
                    let back = nanos_per(p.limit, p.window_secs()).saturating_mul(weight);
                    let tat = entry.tat(kind);
                    *tat = tat.saturating_sub(back);
                }
            }
        }
    }

    /// Takes `used`, what `usage_daily` holds for `scope` on `day` (every process's counts
    /// flushed so far), keeping what this one counted since its last flush on top of it. A count
    /// of another day is left as it is.
    pub fn load_day(&self, scope: Scope, day: i64, used: u64) {
        let mut state = self.lock();
        let State { entries, rolled } = &mut *state;
        let name = scope.persisted_name();
        let entry = entries.entry(scope).or_default();
        if entry.day > day {
            return;
        }
        let unflushed = entry.used.saturating_sub(entry.flushed);
        if entry.day < day {
            // An earlier day's count not written yet is written with the next flush, as a day
            // that rolls over on a request is.
            if let Some(name) = name.filter(|_| unflushed > 0) {
                rolled.push((name, entry.day, unflushed));
            }
            entry.day = day;
            entry.used = used;
        } else {
            entry.used = used + unflushed;
        }
        entry.flushed = used;
    }

    /// What persisted day counters counted since the last call: (scope, day, count), to be
    /// added to `usage_daily`. The caller writes them; they count as flushed from here on.
    pub fn take_dirty(&self) -> Vec<(String, i64, u64)> {
        let mut state = self.lock();
        let mut out = std::mem::take(&mut state.rolled);
        for (scope, entry) in state.entries.iter_mut() {
            if entry.used != entry.flushed
                && let Some(name) = scope.persisted_name()
            {
                out.push((name, entry.day, entry.used.saturating_sub(entry.flushed)));
                entry.flushed = entry.used;
            }
        }
        out
    }

    /// Gives back counts whose write failed, to be added with the next flush.
    pub fn requeue(&self, rows: Vec<(String, i64, u64)>) {
        self.lock().rolled.extend(rows);
    }

    /// Drops scopes that carry no information any more (see `Entry::idle`).
    pub fn sweep(&self, now: Instant, wall_secs: i64) {
        let now = self.nanos(now);
        let mut state = self.lock();
        self.sweep_locked(&mut state, now, wall_secs);
    }

    /// Evicts idle scopes; if more than three quarters of `max_entries` remain, then also the
    /// scopes closest to full (memory-only ones first), so a flood pays for one sweep per
    /// quarter of the table, not one per request.
    fn sweep_locked(&self, state: &mut State, now: u64, wall_secs: i64) {
        let today = wall_secs.div_euclid(DAY_SECS);
        state
            .entries
            .retain(|scope, e| !e.idle(now, today, scope.is_persisted()));
        let target = self.max_entries * 3 / 4;
        let excess = state.entries.len().saturating_sub(target);
        if excess == 0 {
            return;
        }
        // Least to lose first: memory-only scopes (anonymous clients), then the soonest full. A
        // key's or account's count of today is never dropped: it would restart at 0 and reset
        // the daily cap (there are only as many as keys and accounts used today).
        let mut order: Vec<(bool, u64, Scope)> = state
            .entries
            .iter()
            .filter(|(scope, e)| {
                !scope.is_persisted() || ((e.day != today || e.used == 0) && e.used == e.flushed)
            })
            .map(|(scope, e)| (scope.is_persisted(), e.minute.max(e.hour), scope.clone()))
            .collect();
        order.sort_unstable_by_key(|(persisted, tat, _)| (*persisted, *tat));
        for (_, _, scope) in order.into_iter().take(excess) {
            state.entries.remove(&scope);
        }
    }

    pub fn note_auth_failure(&self, now: Instant) {
        self.last_auth_failure
            .store(self.nanos(now), Ordering::Relaxed);
    }

    /// Whether any authentication failed in the last minute (the auth-fail window).
    pub fn auth_failed_within_a_minute(&self, now: Instant) -> bool {
        let last = self.last_auth_failure.load(Ordering::Relaxed);
        last != 0 && self.nanos(now).saturating_sub(last) <= 61 * NANOS_PER_SEC
    }

    /// Scopes held in memory.
    pub fn entries(&self) -> usize {
        self.lock().entries.len()
    }
}

/// Calls `f` with each policy and its scope's entry (made if new), looked up once for each run of
/// policies of one scope (an anonymous caller's three, a key's three): a lookup hashes the scope
/// with SipHash, which a client cannot steer into collisions.
fn each_entry<'p>(
    entries: &mut HashMap<Scope, Entry>,
    policies: &'p [Policy],
    mut f: impl FnMut(&'p Policy, &mut Entry),
) {
    for run in policies.chunk_by(|a, b| a.scope == b.scope) {
        let scope = &run[0].scope;
        let entry = match entries.get_mut(scope) {
            Some(entry) => entry,
            None => entries.entry(scope.clone()).or_default(),
        };
        for p in run {
            f(p, entry);
        }
    }
}

/// Decides without consuming: where each bucket would stand after taking `weight` if every one
/// has room, and where it stands now if one has not.
fn evaluate(
    state: &mut State,
    policies: &[Policy],
    weight: u64,
    now: u64,
    wall_secs: i64,
) -> Decision {
    let day = wall_secs.div_euclid(DAY_SECS);
    let to_midnight = (DAY_SECS - wall_secs.rem_euclid(DAY_SECS)) as u64;
    let mut statuses = Vec::with_capacity(policies.len());
    let mut violated = Vec::new();
    let mut retry_after = 0;
    let State { entries, rolled } = state;
    each_entry(entries, policies, |p, entry| {
        let status = match p.kind {
            Kind::Day => {
                if entry.day != day {
                    if entry.used != entry.flushed
                        && let Some(name) = p.scope.persisted_name()
                    {
                        rolled.push((name, entry.day, entry.used.saturating_sub(entry.flushed)));
                    }
                    entry.day = day;
                    entry.used = 0;
                    entry.flushed = 0;
                }
                let room = entry.used.saturating_add(weight) <= p.limit;
                if !room {
                    violated.push(p.name);
                    retry_after = retry_after.max(to_midnight);
                }
                let used = if room {
                    entry.used.saturating_add(weight)
                } else {
                    entry.used
                }
                .min(p.limit);
                Status {
                    policy: p.name,
                    limit: p.limit,
                    window_secs: p.window_secs(),
                    used,
                    remaining: p.limit - used,
                    reset_secs: to_midnight,
                }
            }
            kind => {
                let w = p.window_secs();
                let t = nanos_per(p.limit, w);
                let window = w * NANOS_PER_SEC;
                let tat = (*entry.tat(kind)).max(now);
                let after = tat.saturating_add(t.saturating_mul(weight));
                let room = after - now <= window;
                if !room {
                    violated.push(p.name);
                    retry_after = retry_after.max(ceil_secs(after - now - window));
                }
                let shown = if room { after } else { tat };
                let remaining = ((now + window - shown.min(now + window)) / t).min(p.limit);
                Status {
                    policy: p.name,
                    limit: p.limit,
                    window_secs: w,
                    used: p.limit - remaining,
                    remaining,
                    reset_secs: ceil_secs(shown - now),
                }
            }
        };
        statuses.push(status);
    });
    let allowed = violated.is_empty();
    Decision {
        allowed,
        statuses,
        violated,
        // A refusal always asks to wait at least a second.
        retry_after: if allowed { 0 } else { retry_after.max(1) },
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn minute(limit: u64) -> Policy {
        Policy {
            name: "key-minute",
            scope: Scope::Key("k".into()),
            kind: Kind::Minute,
            limit,
        }
    }

    fn day(limit: u64) -> Policy {
        Policy {
            name: "account-day",
            scope: Scope::Account(1),
            kind: Kind::Day,
            limit,
        }
    }

    fn ip_minute(ip: u128) -> Policy {
        Policy {
            name: "ip-minute",
            scope: Scope::Ip(ip),
            kind: Kind::Minute,
            limit: 30,
        }
    }

    const NOON: i64 = 1_767_268_800; // 2026-01-01T12:00:00Z

    #[test]
    fn gcra_admits_exactly_the_limit_then_refills_steadily() {
        let l = Limiter::new(1000, Clock::default());
        let t0 = Instant::now();
        let p = [minute(6)];
        for i in 0..6 {
            let d = l.admit(&p, 1, t0, NOON);
            assert!(d.allowed, "request {i}");
            assert_eq!(d.statuses[0].remaining, 5 - i);
        }
        let d = l.admit(&p, 1, t0, NOON);
        assert!(!d.allowed);
        assert_eq!(d.violated, ["key-minute"]);
        assert_eq!(d.retry_after, 10, "one emission interval (60 s / 6)");
        // After one interval exactly one more is admitted.
        assert!(l.admit(&p, 1, t0 + Duration::from_secs(10), NOON).allowed);
        assert!(!l.admit(&p, 1, t0 + Duration::from_secs(10), NOON).allowed);
        // A full window later the bucket is full again.
        let later = t0 + Duration::from_secs(80);
        assert_eq!(l.peek(&p, later, NOON)[0].remaining, 6);
    }

    #[test]
    fn nothing_is_consumed_unless_every_bucket_has_room() {
        let l = Limiter::new(1000, Clock::default());
        let t0 = Instant::now();
        let both = [minute(100), day(2)];
        assert!(l.admit(&both, 1, t0, NOON).allowed);
        assert!(l.admit(&both, 1, t0, NOON).allowed);
        let refused = l.admit(&both, 1, t0, NOON);
        assert!(!refused.allowed);
        assert_eq!(refused.violated, ["account-day"]);
        assert_eq!(refused.retry_after, 12 * 3600, "until midnight UTC");
        // The minute bucket was not charged for the refused request.
        assert_eq!(l.peek(&[minute(100)], t0, NOON)[0].used, 2);
    }

    /// Route weights are the operator's: one beyond every limit is refused by each bucket,
    /// never wrapped around into room.
    #[test]
    fn a_weight_beyond_every_limit_is_refused_not_wrapped() {
        let l = Limiter::new(1000, Clock::default());
        let t0 = Instant::now();
        let both = [minute(10), day(100)];
        assert!(l.admit(&both, 1, t0, NOON).allowed);
        let refused = l.admit(&both, u64::MAX, t0, NOON);
        assert!(!refused.allowed);
        assert_eq!(refused.violated, ["key-minute", "account-day"]);
        let s = l.peek(&both, t0, NOON);
        assert_eq!((s[0].used, s[1].used), (1, 1));
    }

    #[test]
    fn weights_refunds_and_the_binding_bucket() {
        let l = Limiter::new(1000, Clock::default());
        let t0 = Instant::now();
        let both = [minute(10), day(100)];
        let d = l.admit(&both, 5, t0, NOON);
        assert_eq!(d.statuses[0].used, 5);
        assert_eq!(d.binding().unwrap().policy, "key-minute");
        l.refund(&both, 5, NOON);
        let s = l.peek(&both, t0, NOON);
        assert_eq!((s[0].used, s[1].used), (0, 0));
    }

    #[test]
    fn days_roll_over_at_utc_midnight_and_dirty_counts_are_flushed_once() {
        let l = Limiter::new(1000, Clock::default());
        let t0 = Instant::now();
        l.load_day(Scope::Account(1), NOON.div_euclid(DAY_SECS), 1);
        assert!(l.admit(&[day(2)], 1, t0, NOON).allowed);
        assert!(
            !l.admit(&[day(2)], 1, t0, NOON).allowed,
            "the loaded count counts"
        );
        assert_eq!(
            l.take_dirty(),
            vec![("acct:1".to_owned(), NOON / DAY_SECS, 1)],
            "what it counted, not what it loaded"
        );
        assert!(l.take_dirty().is_empty());
        let tomorrow = NOON + DAY_SECS / 2 + 1;
        assert!(l.admit(&[day(2)], 1, t0, tomorrow).allowed);
        assert_eq!(
            l.take_dirty(),
            vec![("acct:1".to_owned(), tomorrow / DAY_SECS, 1)]
        );
    }

    /// Loading a day's sum (other processes' counts added in) keeps what this process counted
    /// and has not flushed on top of it, and binds at once.
    #[test]
    fn a_loaded_sum_keeps_what_was_counted_since_the_last_flush() {
        let l = Limiter::new(1000, Clock::default());
        let t0 = Instant::now();
        let today = NOON.div_euclid(DAY_SECS);
        assert!(l.admit(&[day(10)], 3, t0, NOON).allowed);
        assert_eq!(l.take_dirty(), vec![("acct:1".to_owned(), today, 3)]);
        assert!(l.admit(&[day(10)], 2, t0, NOON).allowed);
        // Another node flushed 4: the sum is 3 + 4; 2 more are this one's, not flushed yet.
        l.load_day(Scope::Account(1), today, 7);
        assert_eq!(l.peek(&[day(10)], t0, NOON)[0].used, 9);
        assert!(!l.admit(&[day(10)], 2, t0, NOON).allowed, "the sum binds");
        assert_eq!(l.take_dirty(), vec![("acct:1".to_owned(), today, 2)]);
        // Yesterday's sum does not touch today's count.
        l.load_day(Scope::Account(1), today - 1, 50);
        assert_eq!(l.peek(&[day(10)], t0, NOON)[0].used, 9);
        // Tomorrow's sum takes the place of today's count, whose 1 not flushed is still written.
        assert!(l.admit(&[day(10)], 1, t0, NOON).allowed);
        l.load_day(Scope::Account(1), today + 1, 4);
        let tomorrow = NOON + DAY_SECS;
        assert_eq!(l.peek(&[day(10)], t0, tomorrow)[0].used, 4);
        assert_eq!(l.take_dirty(), vec![("acct:1".to_owned(), today, 1)]);
    }

    /// A request refunded after its count was flushed (a 5xx, a 304, a refused parameter on a
    /// heavy route, straddling the flush every second) leaves nothing to flush, never a count
    /// that wraps below zero.
    #[test]
    fn a_refund_after_the_flush_leaves_nothing_to_flush() {
        let l = Limiter::new(100, Clock::default());
        let t0 = Instant::now();
        assert!(l.admit(&[day(1000)], 5, t0, NOON).allowed);
        let today = NOON / DAY_SECS;
        assert_eq!(l.take_dirty(), vec![("acct:1".to_owned(), today, 5)]);
        l.refund(&[day(1000)], 4, NOON);
        assert_eq!(l.take_dirty(), vec![]);
        assert_eq!(l.peek(&[day(1000)], t0, NOON)[0].used, 1);
        assert!(l.admit(&[day(1000)], 2, t0, NOON).allowed);
        assert_eq!(l.take_dirty(), vec![("acct:1".to_owned(), today, 2)]);
        // The next day takes the place of the day whose count was refunded.
        l.refund(&[day(1000)], 9, NOON);
        l.load_day(Scope::Account(1), today + 1, 0);
        assert_eq!(l.take_dirty(), vec![]);
    }

    #[test]
    fn sweeping_bounds_memory() {
        let l = Limiter::new(50, Clock::default());
        let t0 = Instant::now();
        for ip in 0..200u128 {
            l.admit(&[ip_minute(ip)], 1, t0, NOON);
        }
        assert!(
            l.entries() <= 50,
            "admitting sweeps when full: {}",
            l.entries()
        );
        l.sweep(t0, NOON);
        assert!(l.entries() <= 50, "{}", l.entries());
        l.sweep(t0 + Duration::from_secs(61), NOON);
        assert_eq!(l.entries(), 0, "full buckets carry nothing");
    }

    #[test]
    fn a_flood_never_evicts_a_day_count_of_today() {
        let l = Limiter::new(20, Clock::default());
        let t0 = Instant::now();
        assert!(l.admit(&[day(1000)], 7, t0, NOON).allowed);
        l.take_dirty(); // flushed: only "today" keeps it
        for ip in 0..500u128 {
            l.admit(&[ip_minute(ip)], 1, t0, NOON);
        }
        assert!(l.entries() <= 20);
        assert_eq!(
            l.peek(&[day(1000)], t0, NOON)[0].used,
            7,
            "the cap did not restart"
        );
    }
}
