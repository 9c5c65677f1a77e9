//! A circuit breaker per endpoint (closed, open, half-open): after a run of failed attempts an
//! endpoint gets no requests for a while, then one probe decides whether it is back. Its due
//! deliveries wait without spending attempts. An endpoint that has failed everything for days is
//! disabled. Times are unix milliseconds, given by the caller.

use serde::Serialize;

/// Consecutive failed attempts (across the endpoint's deliveries) that open the breaker.
pub const TRIP_AFTER: u32 = 10;
/// How long the breaker first stays open; each re-trip doubles it, up to [`MAX_OPEN_MS`].
pub const FIRST_OPEN_MS: i64 = 5 * 60 * 1000;
pub const MAX_OPEN_MS: i64 = 60 * 60 * 1000;
/// An endpoint whose every attempt has failed for this long is disabled.
pub const DISABLE_AFTER_MS: i64 = 5 * 24 * 3600 * 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Closed,
    Open,
    HalfOpen,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Closed => "closed",
            State::Open => "open",
            State::HalfOpen => "half_open",
        }
    }

    pub fn parse(s: &str) -> Option<State> {
        [State::Closed, State::Open, State::HalfOpen]
            .into_iter()
            .find(|state| state.as_str() == s)
    }
}

/// An endpoint's breaker, as kept beside the endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breaker {
    pub state: State,
    pub consecutive_failures: u32,
    /// While open: when the probe may go.
    pub open_until: Option<i64>,
    /// Trips since the endpoint last succeeded (each doubles the open time).
    pub trips: u32,
    /// The first failure since the endpoint last succeeded.
    pub failing_since: Option<i64>,
    /// Half-open: the probe is under way, everything else waits.
    pub probing: bool,
    /// Counts the states saved: attempts end in any order, so a save of an older state that
    /// comes late must not overwrite a newer one.
    pub version: i64,
}

impl Default for Breaker {
    fn default() -> Breaker {
        Breaker {
            state: State::Closed,
            consecutive_failures: 0,
            open_until: None,
            trips: 0,
            failing_since: None,
            probing: false,
            version: 0,
        }
    }
}

/// Whether an attempt may be sent now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    Send,
    /// The half-open probe: its outcome closes or re-opens the breaker.
    Probe,
    /// Not before this time; no attempt is spent.
    WaitUntil(i64),
}

/// A change of state, for the log and the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transition {
    pub from: State,
    pub to: State,
}

impl Breaker {
    /// Whether the breaker would hold an attempt at `now`, without asking it (asking moves an
    /// open breaker whose time is up to half-open): None when it would let one go; else until
    /// when, if it knows (open), or None while the half-open probe is under way.
    pub fn holds_at(&self, now: i64) -> Option<Option<i64>> {
        match self.state {
            State::Closed => None,
            State::Open => {
                let until = self.open_until.unwrap_or(now);
                (now < until).then_some(Some(until))
            }
            State::HalfOpen => self.probing.then_some(None),
        }
    }

    /// Asks to send an attempt at `now`.
    pub fn admit(&mut self, now: i64) -> (Admission, Option<Transition>) {
        match self.state {
            State::Closed => (Admission::Send, None),
            State::Open => {
                let until = self.open_until.unwrap_or(now);
                if now < until {
                    return (Admission::WaitUntil(until), None);
                }
                self.probing = true;
                (Admission::Probe, Some(self.moved(State::HalfOpen)))
            }
            State::HalfOpen if self.probing => {
                // Checked again soon: the probe's outcome decides.
                (Admission::WaitUntil(now + 1000), None)
            }
            State::HalfOpen => {
                self.probing = true;
                (Admission::Probe, None)
            }
        }
    }

    /// Records an attempt's outcome at `now`.
    pub fn record(&mut self, success: bool, now: i64) -> Option<Transition> {
        self.probing = false;
        if success {
            let was = self.state;
            *self = Breaker {
                version: self.version,
                ..Breaker::default()
            };
            return (was != State::Closed).then_some(Transition {
                from: was,
                to: State::Closed,
            });
        }
        self.failing_since.get_or_insert(now);
        self.consecutive_failures = self.consecutive_failures.saturating_add(1);
        let trips = match self.state {
            State::HalfOpen => true,
            State::Closed => self.consecutive_failures >= TRIP_AFTER,
            // An attempt that was under way when the breaker opened.
            State::Open => false,
        };
        if !trips {
            return None;
        }
        let open_for = FIRST_OPEN_MS
            .saturating_mul(1 << self.trips.min(16))
            .min(MAX_OPEN_MS);
        self.trips = self.trips.saturating_add(1);
        self.open_until = Some(now + open_for);
        Some(self.moved(State::Open))
    }

    /// Whether every attempt has failed for [`DISABLE_AFTER_MS`].
    pub fn should_disable(&self, now: i64) -> bool {
        self.failing_since
            .is_some_and(|since| now - since >= DISABLE_AFTER_MS)
    }

    fn moved(&mut self, to: State) -> Transition {
        let from = self.state;
        self.state = to;
        Transition { from, to }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60 * 1000;

    #[test]
    fn what_it_would_hold_is_told_without_moving_it() {
        let mut b = Breaker::default();
        assert_eq!(b.holds_at(0), None);
        fail(&mut b, 10, 0);
        assert_eq!(b.state, State::Open);
        let until = b.open_until.unwrap();
        assert_eq!(b.holds_at(until - 1), Some(Some(until)));
        // Its time up, it would let the probe go, and is still open until asked.
        assert_eq!(b.holds_at(until), None);
        assert_eq!(b.state, State::Open);
        assert_eq!(b.admit(until).0, Admission::Probe);
        // Half-open with the probe out: held, until the probe's outcome.
        assert_eq!(b.holds_at(until), Some(None));
    }

    fn fail(b: &mut Breaker, times: u32, now: i64) -> Option<Transition> {
        (0..times).filter_map(|_| b.record(false, now)).last()
    }

    #[test]
    fn opens_after_ten_failures_probes_and_closes() {
        let mut b = Breaker::default();
        assert_eq!(fail(&mut b, TRIP_AFTER - 1, 0), None);
        assert_eq!(b.admit(0).0, Admission::Send);
        let opened = b.record(false, 0).unwrap();
        assert_eq!((opened.from, opened.to), (State::Closed, State::Open));
        assert_eq!(b.admit(4 * MIN).0, Admission::WaitUntil(5 * MIN));

        let (admission, moved) = b.admit(5 * MIN);
        assert_eq!(admission, Admission::Probe);
        assert_eq!(moved.unwrap().to, State::HalfOpen);
        // Only one probe at a time.
        assert!(matches!(b.admit(5 * MIN).0, Admission::WaitUntil(_)));
        let closed = b.record(true, 5 * MIN).unwrap();
        assert_eq!((closed.from, closed.to), (State::HalfOpen, State::Closed));
        assert_eq!(b, Breaker::default());
    }

    #[test]
    fn a_failed_probe_reopens_for_twice_as_long_up_to_an_hour() {
        let mut b = Breaker::default();
        fail(&mut b, TRIP_AFTER, 0);
        let mut now = 0;
        let mut open_for = Vec::new();
        for _ in 0..6 {
            now = b.open_until.unwrap();
            assert_eq!(b.admit(now).0, Admission::Probe);
            let moved = b.record(false, now).unwrap();
            assert_eq!((moved.from, moved.to), (State::HalfOpen, State::Open));
            open_for.push((b.open_until.unwrap() - now) / MIN);
        }
        assert_eq!(open_for, [10, 20, 40, 60, 60, 60]);
        assert!(!b.should_disable(now));
    }

    #[test]
    fn an_endpoint_failing_everything_for_five_days_is_disabled() {
        let mut b = Breaker::default();
        b.record(false, 1_000);
        assert!(!b.should_disable(1_000 + DISABLE_AFTER_MS - 1));
        assert!(b.should_disable(1_000 + DISABLE_AFTER_MS));
        b.record(true, 2_000);
        assert!(!b.should_disable(1_000 + DISABLE_AFTER_MS));
    }

    #[test]
    fn states_round_trip_their_names() {
        for state in [State::Closed, State::Open, State::HalfOpen] {
            assert_eq!(State::parse(state.as_str()), Some(state));
        }
        assert_eq!(State::parse("ajar"), None);
    }
}
