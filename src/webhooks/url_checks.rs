//! Where a webhook URL leads, checked when it is registered or changed: before the request takes
//! a permit of the blocking pool, since a resolver that never answers would hold that permit for
//! as long as it waits, and a few such registrations would hold them all. At most [`AT_ONCE`]
//! lookups run at a time and one per account, so that a place is left to other accounts unless
//! as many accounts hold one; a lookup keeps its place until the resolver answers, even after its
//! client has left or stopped waiting, so abandoned lookups cannot pile up either.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use super::egress::{EgressPolicy, WebhookUrl};
use super::send::{Destination, resolve_and_check};

/// Lookups for registrations running at once, all accounts together (each waits on a thread of
/// its own; the system resolver cannot be cancelled).
pub const AT_ONCE: usize = 16;

/// Why a URL was not found to lead where webhooks may go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unchecked {
    /// Every place for a lookup is taken.
    Busy,
    /// The account's previous lookup has not been answered yet.
    AccountBusy,
    /// The resolver did not answer within the wait.
    TimedOut,
    /// The host does not resolve, or an address is not allowed.
    Refused(Destination),
}

/// The reason, as a log line's field says it.
impl std::fmt::Display for Unchecked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::webhooks::send::Destination;
        match self {
            Unchecked::Busy => f.write_str("every place for a lookup is taken"),
            Unchecked::AccountBusy => f.write_str("the account's previous lookup is unanswered"),
            Unchecked::TimedOut => f.write_str("the resolver did not answer in time"),
            Unchecked::Refused(Destination::Unresolved(why) | Destination::Denied(why)) => {
                f.write_str(why)
            }
        }
    }
}

pub struct UrlChecks {
    places: Arc<Semaphore>,
    accounts: Arc<Mutex<HashSet<i64>>>,
}

impl Default for UrlChecks {
    fn default() -> UrlChecks {
        UrlChecks {
            places: Arc::new(Semaphore::new(AT_ONCE)),
            accounts: Arc::default(),
        }
    }
}

impl UrlChecks {
    /// Resolves `url` and checks its addresses against `policy` for `account`, waiting at most
    /// `wait` for the answer.
    pub async fn check(
        &self,
        account: i64,
        url: WebhookUrl,
        policy: EgressPolicy,
        wait: Duration,
    ) -> Result<(), Unchecked> {
        let turn = AccountTurn::take(&self.accounts, account).ok_or(Unchecked::AccountBusy)?;
        let place = Arc::clone(&self.places)
            .try_acquire_owned()
            .map_err(|_| Unchecked::Busy)?;
        let lookup = tokio::spawn(async move {
            let _held = (turn, place);
            resolve_and_check(&url, &policy).await
        });
        match tokio::time::timeout(wait, lookup).await {
            Err(_) => Err(Unchecked::TimedOut),
            Ok(Err(join)) => std::panic::resume_unwind(join.into_panic()),
            Ok(Ok(checked)) => checked.map(|_| ()).map_err(Unchecked::Refused),
        }
    }
}

/// An account's one lookup in progress; its end frees the account's turn.
struct AccountTurn {
    accounts: Arc<Mutex<HashSet<i64>>>,
    account: i64,
}

impl AccountTurn {
    fn take(accounts: &Arc<Mutex<HashSet<i64>>>, account: i64) -> Option<AccountTurn> {
        let free = (accounts.lock().unwrap_or_else(|e| e.into_inner())).insert(account);
        free.then(|| AccountTurn {
            accounts: Arc::clone(accounts),
            account,
        })
    }
}

impl Drop for AccountTurn {
    fn drop(&mut self) {
        (self.accounts.lock().unwrap_or_else(|e| e.into_inner())).remove(&self.account);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::webhooks::resolve::Resolver;

    /// A resolver that answers only once released: each lookup waits on `release`.
    fn held_until(release: Arc<tokio::sync::Notify>, asked: Arc<AtomicUsize>) -> EgressPolicy {
        EgressPolicy {
            resolver: Resolver::given(move |_, _| {
                let (release, asked) = (Arc::clone(&release), Arc::clone(&asked));
                Box::pin(async move {
                    asked.fetch_add(1, Ordering::SeqCst);
                    release.notified().await;
                    Err("released".to_owned())
                })
            }),
            ..EgressPolicy::default()
        }
    }

    #[tokio::test]
    async fn lookups_are_bounded_at_once_and_per_account_until_the_resolver_answers() {
        let checks = Arc::new(UrlChecks::default());
        let release = Arc::new(tokio::sync::Notify::new());
        let asked = Arc::new(AtomicUsize::new(0));
        let policy = held_until(Arc::clone(&release), Arc::clone(&asked));
        let url = WebhookUrl::parse("https://hang.example/hook").unwrap();
        // Callers that stop waiting at once: their lookups still hold their places.
        for account in 0..AT_ONCE as i64 {
            let got = checks
                .check(account, url.clone(), policy.clone(), Duration::ZERO)
                .await;
            assert_eq!(got, Err(Unchecked::TimedOut));
        }
        while asked.load(Ordering::SeqCst) < AT_ONCE {
            tokio::task::yield_now().await;
        }
        let long = Duration::from_secs(600);
        let again = checks.check(0, url.clone(), policy.clone(), long).await;
        assert_eq!(again, Err(Unchecked::AccountBusy));
        let other = checks.check(99, url.clone(), policy.clone(), long).await;
        assert_eq!(other, Err(Unchecked::Busy));
        // Answered, the places and turns are free again.
        release.notify_waiters();
        while checks.places.available_permits() < AT_ONCE {
            tokio::task::yield_now().await;
        }
        let literal = WebhookUrl::parse("https://1.1.1.1/hook").unwrap();
        assert_eq!(checks.check(0, literal, policy, long).await, Ok(()));
    }
}
