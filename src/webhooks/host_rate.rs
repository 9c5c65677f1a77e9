//! How fast webhook attempts go to one destination: a receiver may be a third party's (an
//! account can name any public URL), and a replay can schedule a thousand deliveries at once.
//! The pace is the address's the host resolved to, so every name leading to one receiver (a
//! wildcard zone, a trailing dot, another spelling) shares it. Each account has its own budget
//! at each address, so the sending one account asked for never takes another account's place: a
//! generic cell rate algorithm per (address, account), on the outbox's clock.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

/// Attempts a second to one address for one account, and how many may go at once.
pub const PER_SECOND: i64 = 10;
pub const BURST: i64 = 20;
/// Budgets kept before those at rest are dropped (one at rest is the same as a new one).
const KEPT: usize = 4096;

const INTERVAL_MS: i64 = 1000 / PER_SECOND;
const TOLERANCE_MS: i64 = (BURST - 1) * INTERVAL_MS;

#[derive(Default)]
pub struct HostRates {
    /// (address, account) → the time its budget is whole again at the current pace (unix ms).
    theoretical_arrival: Mutex<HashMap<(IpAddr, i64), i64>>,
}

impl HostRates {
    /// Takes one attempt of `account`'s budget at `address` at `now` (unix ms), or tells when
    /// the next may go.
    pub fn admit(&self, address: IpAddr, account: i64, now: i64) -> Result<(), i64> {
        let mut arrivals = self.theoretical_arrival.lock().expect("host rates");
        if arrivals.len() >= KEPT {
            arrivals.retain(|_, at| *at > now);
        }
        let at = arrivals.entry((address, account)).or_insert(now);
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
    /// same address, and the same account's at another address, are untouched.
    #[test]
    fn each_account_has_its_own_pace_at_each_address() {
        let rates = HostRates::default();
        let (hooks, other): (IpAddr, IpAddr) = ([192, 0, 2, 7].into(), [192, 0, 2, 8].into());
        let now = 1_000_000;
        for _ in 0..BURST {
            assert_eq!(rates.admit(hooks, 1, now), Ok(()));
        }
        let next = rates.admit(hooks, 1, now).unwrap_err();
        assert_eq!(next, now + INTERVAL_MS);
        assert_eq!(rates.admit(hooks, 2, now), Ok(()));
        assert_eq!(rates.admit(other, 1, now), Ok(()));
        assert_eq!(rates.admit(hooks, 1, next), Ok(()));
        assert!(rates.admit(hooks, 1, next).is_err());
        // A second later, a second's worth more.
        let later = next + 1000;
        for _ in 0..PER_SECOND {
            assert_eq!(rates.admit(hooks, 1, later), Ok(()));
        }
        assert!(rates.admit(hooks, 1, later).is_err());
    }

    /// Budgets at rest are dropped once many are kept: the map stays bounded.
    #[test]
    fn budgets_at_rest_are_dropped() {
        let rates = HostRates::default();
        let address: IpAddr = [192, 0, 2, 7].into();
        for account in 0..KEPT as i64 {
            rates.admit(address, account, 0).unwrap();
        }
        rates.admit(address, -1, 10_000).unwrap();
        assert_eq!(rates.theoretical_arrival.lock().unwrap().len(), 1);
    }
}
