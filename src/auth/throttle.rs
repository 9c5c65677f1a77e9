//! Failed logins: who waits before trying again. Failures are counted per email and client
//! address, and per email from everywhere. An address waits after a few failures of its own for
//! an email, or, once the email has failed many times from everywhere, after one; an address
//! that has not failed for an email never waits for it, so nobody can lock a user out from
//! elsewhere. Waits double from 1 s up to 15 minutes.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failures for one email from one address before that address waits.
const FREE_PER_ADDRESS: u32 = 5;
/// Failures for one email from all addresses together before every address that failed for it
/// waits after its first failure.
const FREE_PER_EMAIL: u32 = 100;
const MAX_WAIT_SECS: u64 = 15 * 60;
/// Entries kept at most: each is a few dozen bytes (emails are kept as keyed hashes).
const MAX_ENTRIES: usize = 10_000;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Counted {
    EmailFromAddress(u64, u128),
    Email(u64),
}

struct Failures {
    count: u32,
    last: Instant,
}

impl Failures {
    /// Seconds still to wait at `now` when `free` failures are allowed before waiting.
    fn wait(&self, free: u32, now: Instant) -> Option<u64> {
        let excess = self.count.checked_sub(free)?;
        let wait = 2u64.saturating_pow(excess).min(MAX_WAIT_SECS);
        let waited = now.saturating_duration_since(self.last).as_secs();
        (waited < wait).then(|| wait - waited)
    }
}

#[derive(Default)]
pub struct LoginThrottle {
    /// Keys the email hashes, so an attacker cannot choose colliding emails.
    hasher: RandomState,
    failures: Mutex<HashMap<Counted, Failures>>,
}

impl LoginThrottle {
    fn keys(&self, email: &str, client: u128) -> [Counted; 2] {
        let email = self.hasher.hash_one(email);
        [
            Counted::EmailFromAddress(email, client),
            Counted::Email(email),
        ]
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Counted, Failures>> {
        self.failures.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Seconds `client` must wait at `now` before trying `email` again, if it must.
    pub fn wait(&self, email: &str, client: u128, now: Instant) -> Option<u64> {
        let [mine, everyone] = self.keys(email, client);
        let failures = self.lock();
        let mine = failures.get(&mine)?;
        let own = mine.wait(FREE_PER_ADDRESS, now);
        let shared = failures
            .get(&everyone)
            .and_then(|all| all.wait(FREE_PER_EMAIL, now));
        own.max(shared)
    }

    pub fn failed(&self, email: &str, client: u128, now: Instant) {
        let keys = self.keys(email, client);
        let mut failures = self.lock();
        if failures.len() + keys.len() > MAX_ENTRIES {
            make_room(&mut failures, now);
        }
        for key in keys {
            let entry = failures.entry(key).or_insert(Failures {
                count: 0,
                last: now,
            });
            entry.count += 1;
            entry.last = now;
        }
    }

    pub fn succeeded(&self, email: &str, client: u128) {
        let keys = self.keys(email, client);
        let mut failures = self.lock();
        for key in keys {
            failures.remove(&key);
        }
    }

    /// Forgets failures older than the longest wait (the background task calls this).
    pub fn sweep(&self, now: Instant) {
        forget_old(&mut self.lock(), now);
    }
}

fn forget_old(failures: &mut HashMap<Counted, Failures>, now: Instant) {
    let cutoff = Duration::from_secs(MAX_WAIT_SECS);
    failures.retain(|_, f| now.saturating_duration_since(f.last) < cutoff);
}

/// Under a flood of recent failures: keep the half with the most failures.
fn make_room(failures: &mut HashMap<Counted, Failures>, now: Instant) {
    forget_old(failures, now);
    if failures.len() + 2 > MAX_ENTRIES {
        let mut counts: Vec<u32> = failures.values().map(|f| f.count).collect();
        let (_, &mut threshold, _) =
            counts.select_nth_unstable_by(MAX_ENTRIES / 2, |a, b| b.cmp(a));
        failures.retain(|_, f| f.count > threshold);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn an_address_waits_after_its_own_failures_and_others_do_not() {
        let t = LoginThrottle::default();
        let t0 = Instant::now();
        for _ in 0..FREE_PER_ADDRESS {
            assert_eq!(t.wait("a@x", 1, t0), None);
            t.failed("a@x", 1, t0);
        }
        assert_eq!(t.wait("a@x", 1, t0), Some(1));
        assert_eq!(t.wait("a@x", 2, t0), None, "another address");
        assert_eq!(t.wait("b@x", 1, t0), None, "another email");
    }

    /// 1, 2, 4 ... s after each further failure, never more than 15 minutes; the wait counts
    /// from the last failure, and a success forgets them all.
    #[test]
    fn waits_double_up_to_a_cap_and_a_success_resets_them() {
        let t = LoginThrottle::default();
        let mut now = Instant::now();
        for _ in 0..FREE_PER_ADDRESS {
            t.failed("a@x", 1, now);
        }
        for expected in [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900] {
            assert_eq!(t.wait("a@x", 1, now), Some(expected));
            assert_eq!(t.wait("a@x", 1, now + secs(expected - 1)), Some(1));
            now += secs(expected);
            assert_eq!(t.wait("a@x", 1, now), None, "waited {expected} s");
            t.failed("a@x", 1, now);
        }
        t.succeeded("a@x", 1);
        assert_eq!(t.wait("a@x", 1, now), None);
        t.failed("a@x", 1, now);
        assert_eq!(t.wait("a@x", 1, now), None, "counting starts again");
    }

    #[test]
    fn many_failures_from_everywhere_never_lock_out_an_address_that_did_not_fail() {
        let t = LoginThrottle::default();
        let now = Instant::now();
        for client in 0..=u128::from(FREE_PER_EMAIL) {
            t.failed("victim@x", 1000 + client, now);
        }
        assert!(
            t.wait("victim@x", 1000, now).is_some(),
            "an attacker's address waits after one failure"
        );
        assert_eq!(
            t.wait("victim@x", 7, now),
            None,
            "the victim's address does not"
        );
    }

    #[test]
    fn old_failures_are_forgotten_and_memory_is_bounded() {
        let t = LoginThrottle::default();
        let now = Instant::now();
        for client in 0..(MAX_ENTRIES as u128) {
            t.failed(&format!("{client}@x"), client, now);
        }
        assert!(t.lock().len() <= MAX_ENTRIES);
        t.sweep(now + secs(MAX_WAIT_SECS));
        assert!(t.lock().is_empty());
    }
}
