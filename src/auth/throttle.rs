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
    /// Seconds still to wait when `free` failures are allowed before waiting.
    fn wait(&self, free: u32) -> Option<u64> {
        let excess = self.count.checked_sub(free)?;
        let wait = 2u64.saturating_pow(excess).min(MAX_WAIT_SECS);
        let waited = self.last.elapsed().as_secs();
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

    /// Seconds `client` must wait before trying `email` again, if it must.
    pub fn wait(&self, email: &str, client: u128) -> Option<u64> {
        let [mine, everyone] = self.keys(email, client);
        let failures = self.lock();
        let mine = failures.get(&mine)?;
        let own = mine.wait(FREE_PER_ADDRESS);
        let shared = failures
            .get(&everyone)
            .and_then(|all| all.wait(FREE_PER_EMAIL));
        own.max(shared)
    }

    pub fn failed(&self, email: &str, client: u128) {
        let keys = self.keys(email, client);
        let mut failures = self.lock();
        if failures.len() + keys.len() > MAX_ENTRIES {
            make_room(&mut failures);
        }
        for key in keys {
            let entry = failures.entry(key).or_insert(Failures {
                count: 0,
                last: Instant::now(),
            });
            entry.count += 1;
            entry.last = Instant::now();
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
    pub fn sweep(&self) {
        forget_old(&mut self.lock());
    }
}

fn forget_old(failures: &mut HashMap<Counted, Failures>) {
    let cutoff = Duration::from_secs(MAX_WAIT_SECS);
    failures.retain(|_, f| f.last.elapsed() < cutoff);
}

/// Under a flood of recent failures: keep the half with the most failures.
fn make_room(failures: &mut HashMap<Counted, Failures>) {
    forget_old(failures);
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

    #[test]
    fn an_address_waits_after_its_own_failures_and_others_do_not() {
        let t = LoginThrottle::default();
        for _ in 0..FREE_PER_ADDRESS {
            assert_eq!(t.wait("a@x", 1), None);
            t.failed("a@x", 1);
        }
        assert_eq!(
            t.wait("a@x", 1),
            Some(1),
            "then 1 s, doubling with each failure"
        );
        t.failed("a@x", 1);
        assert_eq!(t.wait("a@x", 1), Some(2));
        assert_eq!(t.wait("a@x", 2), None, "another address");
        assert_eq!(t.wait("b@x", 1), None, "another email");
        t.succeeded("a@x", 1);
        assert_eq!(t.wait("a@x", 1), None);
    }

    #[test]
    fn many_failures_from_everywhere_never_lock_out_an_address_that_did_not_fail() {
        let t = LoginThrottle::default();
        for client in 0..=u128::from(FREE_PER_EMAIL) {
            t.failed("victim@x", 1000 + client);
        }
        assert!(
            t.wait("victim@x", 1000).is_some(),
            "an attacker's address waits after one failure"
        );
        assert_eq!(t.wait("victim@x", 7), None, "the victim's address does not");
    }

    #[test]
    fn memory_is_bounded() {
        let t = LoginThrottle::default();
        for client in 0..(MAX_ENTRIES as u128) {
            t.failed(&format!("{client}@x"), client);
        }
        assert!(t.lock().len() <= MAX_ENTRIES);
    }
}
