//! How fast webhook attempts go to one destination host: a receiver's host may be a third
//! party's (an account can name any public URL), and a replay can schedule a thousand
//! deliveries at once. Each account has its own budget at each host, so the sending one
//! account asked for never takes another account's place: a generic cell rate algorithm per
//! (host, account), on the outbox's clock.

use std::collections::HashMap;
use std::sync::Mutex;

/// Attempts a second to one host for one account, and how many may go at once.
pub const PER_SECOND: i64 = 10;
pub const BURST: i64 = 20;
/// Budgets kept before those at rest are dropped (one at rest is the same as a new one).
const KEPT: usize = 4096;

const INTERVAL_MS: i64 = 1000 / PER_SECOND;
const TOLERANCE_MS: i64 = (BURST - 1) * INTERVAL_MS;

#[derive(Default)]
pub struct HostRates {
    /// (host, account) → the time its budget is whole again at the current pace (unix ms).
    theoretical_arrival: Mutex<HashMap<(String, i64), i64>>,
}

impl HostRates {
    /// Takes one attempt of `account`'s budget at `host` at `now` (unix ms), or tells when the
    /// next may go.
    pub fn admit(&self, host: &str, account: i64, now: i64) -> Result<(), i64> {
        let mut arrivals = self.theoretical_arrival.lock().expect("host rates");
        if arrivals.len() >= KEPT {
            arrivals.retain(|_, at| *at > now);
        }
        let at = arrivals
            .entry((host.to_ascii_lowercase(), account))
            .or_insert(now);
        let arrival = (*at).max(now);
        if arrival - now > TOLERANCE_MS {
            return Err(arrival - TOLERANCE_MS);
        }
        *at = arrival + INTERVAL_MS;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A burst goes at once, then one attempt every interval; another account's budget at the
    /// same host, and the same account's at another host, are untouched.
    #[test]
    fn each_account_has_its_own_pace_at_each_host() {
        let rates = HostRates::default();
        let now = 1_000_000;
        for _ in 0..BURST {
            assert_eq!(rates.admit("hooks.example.org", 1, now), Ok(()));
        }
        let next = rates.admit("hooks.example.org", 1, now).unwrap_err();
        assert_eq!(next, now + INTERVAL_MS);
        assert_eq!(
            rates.admit("HOOKS.example.org", 1, now),
            Err(next),
            "hosts in any case"
        );
        assert_eq!(rates.admit("hooks.example.org", 2, now), Ok(()));
        assert_eq!(rates.admit("other.example.org", 1, now), Ok(()));
        assert_eq!(rates.admit("hooks.example.org", 1, next), Ok(()));
        assert!(rates.admit("hooks.example.org", 1, next).is_err());
        // A second later, a second's worth more.
        let later = next + 1000;
        for _ in 0..PER_SECOND {
            assert_eq!(rates.admit("hooks.example.org", 1, later), Ok(()));
        }
        assert!(rates.admit("hooks.example.org", 1, later).is_err());
    }

    /// Budgets at rest are dropped once many are kept: the map stays bounded.
    #[test]
    fn budgets_at_rest_are_dropped() {
        let rates = HostRates::default();
        for account in 0..KEPT as i64 {
            rates.admit("h", account, 0).unwrap();
        }
        rates.admit("h", -1, 10_000).unwrap();
        assert_eq!(rates.theoretical_arrival.lock().unwrap().len(), 1);
    }
}
