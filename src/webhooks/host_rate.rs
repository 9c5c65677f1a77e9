//! How fast webhook attempts go to one destination: a receiver may be a third party's (an
//! account can name any public URL), and a replay can schedule a thousand deliveries at once.
//! The pace is that of the addresses the host resolved to (every one a connection may try, an
//! IPv6 one by its /64), so every name leading to one receiver (a wildcard zone, a trailing dot,
//! another spelling) shares it. Each account has its own budget
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
    /// Takes one attempt of `account`'s budget at each of `addresses` (those a connection may
    /// try) at `now` (unix ms), or none of them and tells when the next may go.
    pub fn admit(&self, addresses: &[IpAddr], account: i64, now: i64) -> Result<(), i64> {
        let mut arrivals = self.theoretical_arrival.lock().expect("host rates");
        if arrivals.len() >= KEPT {
            arrivals.retain(|_, at| *at > now);
        }
        let mut keys: Vec<(IpAddr, i64)> = addresses
            .iter()
            .map(|address| (receiver(*address), account))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let arrivals_now: Vec<i64> = keys
            .iter()
            .map(|key| arrivals.get(key).map_or(now, |at| (*at).max(now)))
            .collect();
        if let Some(latest) = arrivals_now.iter().copied().max()
            && latest - now > TOLERANCE_MS
        {
            return Err(latest - TOLERANCE_MS);
        }
        for (key, arrival) in keys.into_iter().zip(arrivals_now) {
            arrivals.insert(key, arrival + INTERVAL_MS);
        }
        Ok(())
    }
}

/// The receiver an address stands for: an IPv4 address however written (IPv4-mapped IPv6 is
/// the IPv4 address), an IPv6 address by its /64, which one host is given whole.
fn receiver(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let network = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(network.into())
        }
        v4 => v4,
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
            assert_eq!(rates.admit(&[hooks], 1, now), Ok(()));
        }
        let next = rates.admit(&[hooks], 1, now).unwrap_err();
        assert_eq!(next, now + INTERVAL_MS);
        assert_eq!(rates.admit(&[hooks], 2, now), Ok(()));
        assert_eq!(rates.admit(&[other], 1, now), Ok(()));
        assert_eq!(rates.admit(&[hooks], 1, next), Ok(()));
        assert!(rates.admit(&[hooks], 1, next).is_err());
        // A second later, a second's worth more.
        let later = next + 1000;
        for _ in 0..PER_SECOND {
            assert_eq!(rates.admit(&[hooks], 1, later), Ok(()));
        }
        assert!(rates.admit(&[hooks], 1, later).is_err());
    }

    /// Every address a connection may try is paced, as the receiver it stands for: an IPv4
    /// address written as IPv6 is the IPv4 one, an IPv6 /64 one receiver; one address over its
    /// pace holds the others back, without taking from them.
    #[test]
    fn every_address_is_paced_as_its_receiver() {
        let rates = HostRates::default();
        let v4: IpAddr = [192, 0, 2, 7].into();
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        let (one, same_64): (IpAddr, IpAddr) = (
            "2001:db8::1".parse().unwrap(),
            "2001:db8::ffff:1".parse().unwrap(),
        );
        let fresh: IpAddr = [198, 51, 100, 1].into();
        for i in 0..BURST {
            let address = if i % 2 == 0 { v4 } else { mapped };
            rates.admit(&[address, one], 1, 0).unwrap();
        }
        assert!(rates.admit(&[v4], 1, 0).is_err());
        assert!(rates.admit(&[same_64], 1, 0).is_err());
        assert!(rates.admit(&[fresh, one], 1, 0).is_err());
        assert_eq!(
            rates.admit(&[fresh], 1, 0),
            Ok(()),
            "untouched by the refusal"
        );
    }

    /// Budgets at rest are dropped once many are kept: the map stays bounded.
    #[test]
    fn budgets_at_rest_are_dropped() {
        let rates = HostRates::default();
        let address: IpAddr = [192, 0, 2, 7].into();
        for account in 0..KEPT as i64 {
            rates.admit(&[address], account, 0).unwrap();
        }
        rates.admit(&[address], -1, 10_000).unwrap();
        assert_eq!(rates.theoretical_arrival.lock().unwrap().len(), 1);
    }
}
