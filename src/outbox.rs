//! The webhook delivery worker: it claims due deliveries from the outbox under a lease, sends
//! each without holding a transaction, records every attempt, and keeps each endpoint's circuit
//! breaker. A delivery is marked done only after a 2xx, so a crash between sending and recording
//! sends it again: delivery is at least once, and receivers deduplicate on `webhook-id`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, Semaphore, oneshot};

use crate::auth::secrets::SealingKey;
use crate::metrics::{DeliveryOutcome, Metrics};
use crate::runtime::clock::Clock;
use crate::store::Store;
use crate::store::webhooks::{AttemptRecord, Claimed, EndpointChange, GONE_REASON, NextStep};
use crate::webhooks::breaker::{Admission, Breaker};
use crate::webhooks::egress::{EgressPolicy, WebhookUrl};
use crate::webhooks::host_rate::HostRates;
use crate::webhooks::schedule::{Verdict, next_delay, verdict};
use crate::webhooks::send::{ATTEMPT_TIMEOUT, Signed, send};
use crate::webhooks::signing::{Secret, signature_header};

/// Deliveries claimed at once.
const BATCH: usize = 64;
/// Attempts in flight at once, in all, to one endpoint, and of one account's endpoints (so
/// slow receivers of one account hold half the slots at most); a claim takes at most
/// [`PER_ACCOUNT`] deliveries of one account.
const IN_FLIGHT: usize = 16;
const PER_ENDPOINT: usize = 4;
const PER_ACCOUNT_IN_FLIGHT: usize = 8;
const PER_ACCOUNT: usize = 16;
/// How long a claim holds its deliveries: the worker finishes a batch before it claims again.
/// On SQLite a start frees every lease at once (one server delivers for a data directory), so
/// this only matters if a worker stalls; on PostgreSQL it is how long the deliveries of a node
/// that died wait before another node sends them.
/// Long enough for a batch sent [`IN_FLIGHT`] at a time, every attempt timing out, with a
/// minute to spare for the database.
const LEASE_MS: i64 = ATTEMPT_TIMEOUT.as_millis() as i64 * (BATCH / IN_FLIGHT) as i64 + 60_000;
/// A message not delivered this long after its schedule began is given up: the specification's
/// retry schedule spans 75.6 hours, 83.2 with the most jitter, so its last attempt is always
/// made; deferrals and `Retry-After` do not extend it.
pub const MAX_AGE_MS: i64 = 84 * 3600 * 1000;
/// A delivery whose secret cannot be opened (the sealing key file was replaced) waits this long
/// without spending an attempt.
const SECRET_RETRY_MS: i64 = 5 * 60 * 1000;
/// Finished deliveries, their attempts and their events are kept this long (pending ones
/// until they finish).
pub const RETENTION_MS: i64 = 30 * 24 * 3600 * 1000;
const PURGE_EVERY: Duration = Duration::from_secs(3600);
/// Polling when nothing wakes the worker (an event enqueued by another process).
const POLL: Duration = Duration::from_secs(1);
/// How much nicer than the server the worker runs: 10 steps give it about a tenth of a request
/// thread's share of a full processor; an idle processor it uses at full speed.
const NICER: i32 = 10;

pub struct Outbox {
    store: Store,
    sealing: Arc<SealingKey>,
    policy: EgressPolicy,
    tls: Arc<rustls::ClientConfig>,
    wake: Notify,
    breakers: Mutex<HashMap<i64, Breaker>>,
    /// Each account's pace at each destination host.
    host_rates: HostRates,
    /// Retry times, breaker periods, leases and ages are read from this clock.
    clock: Clock,
    metrics: Arc<Metrics>,
    /// Deliveries are queued and nothing is sent (`--webhooks-paused`).
    paused: bool,
}

impl Outbox {
    pub fn new(
        store: Store,
        sealing: Arc<SealingKey>,
        policy: EgressPolicy,
        tls: Arc<rustls::ClientConfig>,
        clock: Clock,
        metrics: Arc<Metrics>,
    ) -> Outbox {
        Outbox {
            store,
            sealing,
            policy,
            tls,
            clock,
            metrics,
            wake: Notify::new(),
            breakers: Mutex::new(HashMap::new()),
            host_rates: HostRates::default(),
            paused: false,
        }
    }

    /// Queues deliveries and sends nothing while `paused` (restore drills, staging copies of a
    /// production database): the metrics and `/readyz` say so.
    pub fn paused(mut self, paused: bool) -> Outbox {
        self.paused = paused;
        self.metrics.set_webhooks_paused(paused);
        self
    }

    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Tells the worker that deliveries were committed.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// The key that seals endpoints' signing secrets.
    pub fn sealing(&self) -> &SealingKey {
        &self.sealing
    }

    /// The operator's egress policy, which registration checks too.
    pub fn policy(&self) -> &EgressPolicy {
        &self.policy
    }

    /// Drops what the worker keeps of an endpoint (its breaker): it was changed or deleted.
    pub fn forget(&self, endpoint: i64) {
        self.breakers.lock().expect("breakers").remove(&endpoint);
    }

    /// Runs [`Outbox::run`] on a thread of its own at a lower CPU priority ([`NICER`]), so a
    /// backlog draining takes the processor only when answers to requests leave it idle.
    /// The worker's blocking threads (database, DNS) are started from it and inherit the
    /// priority. Sending on the returned channel stops the worker; the other end closes when
    /// it has stopped.
    pub fn start_background(
        self: Arc<Self>,
    ) -> std::io::Result<(oneshot::Sender<()>, oneshot::Receiver<()>)> {
        let (stop, stopped) = oneshot::channel::<()>();
        let (finished, done) = oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_name("webhooks-blocking")
            .build()?;
        std::thread::Builder::new()
            .name("webhooks".to_owned())
            .spawn(move || {
                if let Err(e) = crate::runtime::priority::lower_this_thread(NICER) {
                    tracing::warn!(error = %e, "webhook deliveries keep the normal CPU priority");
                }
                runtime.block_on(self.run(async {
                    let _ = stopped.await;
                }));
                // A DNS lookup may still run on a blocking thread; nothing waits for it.
                runtime.shutdown_background();
                drop(finished);
            })?;
        Ok((stop, done))
    }

    /// Delivers until `stop` resolves; a batch under way is finished first. Deliveries a
    /// previous run left leased are taken over first, and finished deliveries older than
    /// [`RETENTION_MS`] are purged about hourly.
    pub async fn run(self: Arc<Self>, stop: impl std::future::Future<Output = ()>) {
        tokio::pin!(stop);
        let store = self.store.clone();
        match tokio::task::spawn_blocking(move || store.system()?.release_leases()).await {
            Ok(Ok(0)) => {}
            Ok(Ok(n)) => tracing::info!(
                deliveries = n,
                "taking over webhook deliveries a previous run left unfinished"
            ),
            Ok(Err(e)) => tracing::error!(error = %e, "releasing webhook leases"),
            Err(e) => tracing::error!(error = %e, "releasing webhook leases"),
        }
        if self.paused {
            tracing::warn!(
                "webhook deliveries are paused (--webhooks-paused): events are queued and nothing is sent; a message not sent within 84 hours of its event is given up"
            );
        }
        let mut last_purge: Option<std::time::Instant> = None;
        loop {
            if last_purge.is_none_or(|at| at.elapsed() >= PURGE_EVERY) {
                last_purge = Some(std::time::Instant::now());
                self.purge().await;
            }
            let claimed = match self.deliver_due().await {
                Ok(n) => n,
                Err(e) => {
                    tracing::error!(error = %e, "webhook delivery");
                    0
                }
            };
            if claimed > 0 {
                continue;
            }
            tokio::select! {
                () = &mut stop => return,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(POLL) => {}
            }
        }
    }

    async fn purge(&self) {
        let store = self.store.clone();
        let before = self.clock.now_ms() - RETENTION_MS;
        match tokio::task::spawn_blocking(move || store.system()?.purge_webhooks(before)).await {
            Ok(Ok(0)) => {}
            Ok(Ok(events)) => {
                tracing::info!(events, "purged finished webhook events older than 30 days")
            }
            Ok(Err(e)) => tracing::error!(error = %e, "purging old webhook events"),
            Err(e) => tracing::error!(error = %e, "purging old webhook events"),
        }
    }

    /// Claims what is due now and sends it, at most [`IN_FLIGHT`] at once and
    /// [`PER_ENDPOINT`] to one endpoint. Returns how many deliveries it claimed: none while
    /// paused.
    pub async fn deliver_due(self: &Arc<Self>) -> anyhow::Result<usize> {
        if self.paused {
            return Ok(0);
        }
        let store = self.store.clone();
        let now = self.clock.now_ms();
        let claimed = tokio::task::spawn_blocking(move || {
            store
                .system()?
                .claim_due(now, LEASE_MS, BATCH, PER_ENDPOINT, PER_ACCOUNT)
        })
        .await??;
        let count = claimed.len();
        let all = Arc::new(Semaphore::new(IN_FLIGHT));
        let mut endpoints: HashMap<i64, Arc<Semaphore>> = HashMap::new();
        let mut accounts: HashMap<i64, Arc<Semaphore>> = HashMap::new();
        let mut tasks = tokio::task::JoinSet::new();
        for delivery in claimed {
            let endpoint = Arc::clone(
                endpoints
                    .entry(delivery.endpoint_id)
                    .or_insert_with(|| Arc::new(Semaphore::new(PER_ENDPOINT))),
            );
            let account = Arc::clone(
                accounts
                    .entry(delivery.account_id)
                    .or_insert_with(|| Arc::new(Semaphore::new(PER_ACCOUNT_IN_FLIGHT))),
            );
            let (all, this) = (Arc::clone(&all), Arc::clone(self));
            tasks.spawn(async move {
                let _endpoint = endpoint.acquire_owned().await;
                let _account = account.acquire_owned().await;
                let _slot = all.acquire_owned().await;
                this.deliver(delivery).await
            });
        }
        // Attempts are recorded in groups: whatever finished while the previous group was
        // written goes in the next transaction (one write per attempt cost more than sending).
        let mut finished = Vec::new();
        loop {
            let done = match tasks.try_join_next() {
                Some(done) => done,
                None if !finished.is_empty() => {
                    self.record(std::mem::take(&mut finished)).await;
                    continue;
                }
                None => match tasks.join_next().await {
                    Some(done) => done,
                    None => break,
                },
            };
            match done {
                Ok(Ok(record)) => finished.push(record),
                Ok(Err(e)) => tracing::error!(error = %e, "a webhook delivery"),
                Err(e) => tracing::error!(error = %e, "a webhook delivery task failed"),
            }
        }
        Ok(count)
    }

    /// One claimed delivery: admitted by its endpoint's breaker, signed and sent; the record
    /// of how it went.
    async fn deliver(&self, c: Claimed) -> anyhow::Result<AttemptRecord> {
        let now = self.clock.now_ms();
        if now - c.scheduled_at > MAX_AGE_MS {
            let expired = "expired: not delivered within 84 hours";
            return Ok(unsent(&c, now, NextStep::Failed, Some(expired)));
        }
        let admission = self.admit(c.endpoint_id, now).await?;
        if let Admission::WaitUntil(at) = admission {
            return Ok(unsent(&c, now, NextStep::DeferTo(at), None));
        }
        // However this attempt ends (a panic included), the half-open probe is freed; the
        // breaker learned its outcome first when there was one.
        let _probe = (admission == Admission::Probe).then(|| ProbeGuard {
            outbox: self,
            endpoint: c.endpoint_id,
        });
        let Some(secrets) = self.secrets(&c, now) else {
            tracing::error!(endpoint = %c.endpoint_public_id, "cannot open the webhook signing secret; is secrets/webhook_secrets_key the one it was sealed with?");
            let at = now + SECRET_RETRY_MS;
            return Ok(unsent(&c, now, NextStep::DeferTo(at), None));
        };
        let timestamp = now.div_euclid(1000);
        let signature = signature_header(&secrets, &c.event_public_id, timestamp, &c.payload);
        let attempt = match WebhookUrl::parse(&c.url) {
            Ok(url) => {
                let signed = Signed {
                    message_id: &c.event_public_id,
                    timestamp,
                    signature: &signature,
                    body: c.payload.clone().into(),
                };
                // Over the account's pace at the receiver's address: later, no attempt spent.
                let pace = |ips: &[_]| {
                    self.host_rates
                        .admit(ips, c.account_id, self.clock.now_ms())
                };
                match send(&url, &self.policy, &self.tls, signed, &pace).await {
                    Ok(attempt) => attempt,
                    Err(at) => return Ok(unsent(&c, now, NextStep::DeferTo(at), None)),
                }
            }
            Err(why) => crate::webhooks::send::Attempt {
                status: None,
                retry_after: None,
                error: Some(why),
                latency: Duration::ZERO,
            },
        };
        let done = self.clock.now_ms();
        let judged = verdict(attempt.status);
        if judged != Verdict::Delivered {
            tracing::warn!(
                endpoint = %c.endpoint_public_id,
                webhook_id = %c.event_public_id,
                attempt = c.attempts + 1,
                status = attempt.status,
                error = attempt.error.as_deref(),
                "a webhook delivery attempt failed"
            );
        }
        let next = match judged {
            Verdict::Delivered => NextStep::Delivered,
            Verdict::Gone => NextStep::Failed,
            Verdict::Failed => {
                let attempts = u32::try_from(c.attempts + 1).unwrap_or(u32::MAX);
                match next_delay(attempts, jitter(), attempt.retry_after) {
                    Some(delay) => NextStep::RetryAt(done + delay.as_millis() as i64),
                    None => NextStep::Failed,
                }
            }
        };
        Ok(AttemptRecord {
            delivery_id: c.delivery_id,
            at: done,
            status_code: attempt.status,
            latency_ms: attempt.latency.as_millis() as i64,
            error: attempt.error.map(|e| e.chars().take(500).collect()),
            next,
            endpoint: self.settle(&c, judged, done),
        })
    }

    /// The endpoint's breaker as it stands: the one the worker keeps, or the one saved.
    pub fn breaker(&self, endpoint: i64) -> anyhow::Result<Breaker> {
        if let Some(kept) = self.breakers.lock().expect("breakers").get(&endpoint) {
            return Ok(kept.clone());
        }
        Ok(self.store.system()?.breaker(endpoint)?)
    }

    /// The endpoint's breaker decides; loaded from the database the first time.
    async fn admit(&self, endpoint: i64, now: i64) -> anyhow::Result<Admission> {
        if !self
            .breakers
            .lock()
            .expect("breakers")
            .contains_key(&endpoint)
        {
            let store = self.store.clone();
            let saved =
                tokio::task::spawn_blocking(move || store.system()?.breaker(endpoint)).await??;
            self.breakers
                .lock()
                .expect("breakers")
                .entry(endpoint)
                .or_insert(saved);
        }
        let mut breakers = self.breakers.lock().expect("breakers");
        let breaker = breakers.entry(endpoint).or_default();
        let (admission, moved) = breaker.admit(now);
        if let Some(moved) = moved {
            tracing::info!(
                endpoint,
                from = moved.from.as_str(),
                to = moved.to.as_str(),
                "webhook breaker"
            );
        }
        Ok(admission)
    }

    /// A probe that was never sent frees the half-open breaker for the next one.
    fn release_probe(&self, endpoint: i64) {
        if let Some(b) = self.breakers.lock().expect("breakers").get_mut(&endpoint) {
            b.probing = false;
        }
    }

    /// The breaker learns the outcome (state changes are logged); what changed of the endpoint,
    /// to save with the attempt: its breaker, and whether it is disabled (it answered 410, or
    /// has failed for days). None when nothing changed.
    fn settle(&self, c: &Claimed, judged: Verdict, now: i64) -> Option<EndpointChange> {
        let mut breakers = self.breakers.lock().expect("breakers");
        let Some(breaker) = breakers.get_mut(&c.endpoint_id) else {
            // Forgotten while this attempt was under way (its owner changed or deleted it): the
            // next attempt loads the saved breaker; a 410 disables the endpoint if it still
            // names this URL, and holds the URL either way (the old version saves no breaker).
            return (judged == Verdict::Gone).then(|| EndpointChange {
                endpoint_id: c.endpoint_id,
                breaker: Breaker::default(),
                disable: Some(GONE_REASON),
                url: c.url.clone(),
                account_id: c.account_id,
            });
        };
        let before = breaker.clone();
        if let Some(moved) = breaker.record(judged == Verdict::Delivered, now) {
            tracing::info!(endpoint = %c.endpoint_public_id, from = moved.from.as_str(), to = moved.to.as_str(), "webhook breaker");
        }
        let disable = match judged {
            Verdict::Gone => Some(GONE_REASON),
            _ if breaker.should_disable(now) => Some("every attempt failed for 5 days"),
            _ => None,
        };
        if let Some(reason) = disable {
            tracing::warn!(endpoint = %c.endpoint_public_id, reason, "webhook endpoint disabled");
        }
        if disable.is_none() && *breaker == before {
            return None;
        }
        breaker.version += 1;
        Some(EndpointChange {
            endpoint_id: c.endpoint_id,
            breaker: breaker.clone(),
            disable,
            url: c.url.clone(),
            account_id: c.account_id,
        })
    }

    /// The secrets to sign with: the current one, and the previous one while its grace period
    /// lasts. None when the current one cannot be opened.
    fn secrets(&self, c: &Claimed, now: i64) -> Option<Vec<Secret>> {
        let open = |sealed: &str| {
            self.sealing
                .open(sealed, &c.endpoint_public_id)
                .and_then(|shown| Secret::parse(&shown))
        };
        let mut secrets = vec![open(&c.secret_sealed)?];
        if let (Some(previous), Some(until)) = (&c.previous_secret_sealed, c.previous_secret_until)
            && until > now
        {
            secrets.extend(open(previous));
        }
        Some(secrets)
    }

    /// Writes finished attempts. When that fails their deliveries stay leased, and are sent
    /// again when the lease runs out (at least once).
    async fn record(&self, records: Vec<AttemptRecord>) {
        for record in &records {
            self.metrics.delivery(match record.next {
                NextStep::Delivered => DeliveryOutcome::Delivered,
                NextStep::RetryAt(_) => DeliveryOutcome::Retried,
                NextStep::Failed => DeliveryOutcome::Failed,
                NextStep::DeferTo(_) => DeliveryOutcome::Deferred,
            });
        }
        let store = self.store.clone();
        let count = records.len();
        let written =
            tokio::task::spawn_blocking(move || store.system()?.record_attempts(&records)).await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::error!(error = %e, attempts = count, "recording webhook attempts")
            }
            Err(e) => tracing::error!(error = %e, attempts = count, "recording webhook attempts"),
        }
    }
}

/// The record of a delivery not sent at `at`: given up, or deferred.
fn unsent(c: &Claimed, at: i64, next: NextStep, error: Option<&str>) -> AttemptRecord {
    AttemptRecord {
        delivery_id: c.delivery_id,
        at,
        status_code: None,
        latency_ms: 0,
        error: error.map(str::to_owned),
        next,
        endpoint: None,
    }
}

/// Frees an endpoint's half-open probe when dropped.
struct ProbeGuard<'o> {
    outbox: &'o Outbox,
    endpoint: i64,
}

impl Drop for ProbeGuard<'_> {
    fn drop(&mut self) {
        self.outbox.release_probe(self.endpoint);
    }
}

/// A uniform number in [0, 1) for the retry schedule's jitter.
fn jitter() -> f64 {
    let mut bytes = [0u8; 4];
    crate::ids::fill_random(&mut bytes);
    f64::from(u32::from_le_bytes(bytes)) / (f64::from(u32::MAX) + 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::webhooks::Audience;
    use crate::store::webhooks::fixtures::{
        add_account, delivery_of, emit, every_delivery, only_delivery, register,
        store_with_accounts,
    };
    use crate::webhooks::test_receiver::receiver;

    struct Setup {
        _dir: tempfile::TempDir,
        store: Store,
        outbox: Arc<Outbox>,
        secret: Secret,
    }

    /// An outbox allowed to reach loopback, and one endpoint of account 1 at `port`, subscribed
    /// to `webhook.test`.
    fn setup(port: u16) -> Setup {
        let (dir, store) = store_with_accounts();
        let sealing = Arc::new(SealingKey::load_or_create(dir.path()).unwrap());
        let secret = Secret::generate();
        let sealed = sealing.seal(&secret.shown(), "whk_1");
        let url = format!("http://127.0.0.1:{port}/hook");
        register(&store, 1, "whk_1", r#"["webhook.test"]"#, &url, &sealed);
        let policy = EgressPolicy {
            allow_loopback: true,
            ..EgressPolicy::default()
        };
        let tls = crate::webhooks::send::client_tls_with(rustls::RootCertStore::empty());
        let outbox = Arc::new(Outbox::new(
            store.clone(),
            sealing,
            policy,
            tls,
            Clock::default(),
            Arc::new(Metrics::default()),
        ));
        Setup {
            _dir: dir,
            store,
            outbox,
            secret,
        }
    }

    fn emit_test(store: &Store) {
        let deliveries = emit(
            store,
            "msg_1",
            "webhook.test",
            Audience::Account(1),
            crate::runtime::clock::now_ms(),
        );
        assert_eq!(deliveries, 1);
    }

    #[tokio::test]
    async fn a_due_delivery_is_signed_sent_and_recorded() {
        let (port, mut seen) = receiver("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").await;
        let s = setup(port);
        emit_test(&s.store);
        assert_eq!(s.outbox.deliver_due().await.unwrap(), 1);
        let request = seen.recv().await.unwrap();
        let header = |name: &str| {
            request
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}: ")))
                .unwrap()
                .to_owned()
        };
        let timestamp: i64 = header("webhook-timestamp").parse().unwrap();
        assert_eq!(header("webhook-id"), "msg_1");
        assert_eq!(
            header("webhook-signature"),
            s.secret
                .sign("msg_1", timestamp, br#"{"type":"webhook.test"}"#)
        );
        let (status, attempts, _, codes) = only_delivery(&s.store);
        assert_eq!(
            (status.as_str(), attempts, codes),
            ("delivered", 1, vec![Some(200)])
        );
        assert_eq!(s.outbox.deliver_due().await.unwrap(), 0, "nothing left");
        assert_eq!(s.store.system().unwrap().pending_deliveries().unwrap(), 0);
        assert_outcome(&s.outbox, "delivered", 1);
        assert_outcome(&s.outbox, "retried", 0);
    }

    /// The metrics count `n` attempts that ended as `outcome`.
    fn assert_outcome(outbox: &Outbox, outcome: &str, n: u64) {
        let line = format!("regintel_webhook_deliveries_total{{outcome=\"{outcome}\"}} {n}\n");
        let metrics = outbox.metrics.render();
        assert!(metrics.contains(&line), "{line:?} not in {metrics}");
    }

    #[tokio::test]
    async fn a_failed_attempt_is_retried_on_the_schedule() {
        let (port, _seen) =
            receiver("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n").await;
        let s = setup(port);
        emit_test(&s.store);
        let before = crate::runtime::clock::now_ms();
        s.outbox.deliver_due().await.unwrap();
        let (status, attempts, next, codes) = only_delivery(&s.store);
        assert_eq!(
            (status.as_str(), attempts, codes),
            ("pending", 1, vec![Some(503)])
        );
        // 5 s ± 10 %, from the attempt's end.
        assert!(
            next >= before + 4_500 && next <= crate::runtime::clock::now_ms() + 5_500,
            "{next}"
        );
        assert_eq!(s.outbox.deliver_due().await.unwrap(), 0, "not due yet");
        assert_eq!(s.store.system().unwrap().pending_deliveries().unwrap(), 1);
        assert_outcome(&s.outbox, "retried", 1);
        assert_outcome(&s.outbox, "delivered", 0);
    }

    /// A failed attempt is logged at WARN with the endpoint, the status and the error, never
    /// the URL.
    #[tokio::test]
    async fn a_failed_attempt_is_logged_with_endpoint_status_and_error() {
        let (port, _seen) =
            receiver("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n").await;
        let s = setup(port);
        emit_test(&s.store);
        let logs = crate::runtime::test_logs::Captured::default();
        let _logging = logs.as_default();
        s.outbox.deliver_due().await.unwrap();
        let text = logs.text();
        let line = text
            .lines()
            .find(|l| l.contains("a webhook delivery attempt failed"))
            .unwrap_or_else(|| panic!("no failed attempt logged: {text}"));
        assert!(line.contains(" WARN "), "{line}");
        for field in [
            "endpoint=whk_1",
            "webhook_id=msg_1",
            "attempt=1",
            "status=503",
        ] {
            assert!(line.contains(field), "{field} not in {line}");
        }
        assert!(!line.contains("/hook"), "the URL is not logged: {line}");
    }

    /// Paused, the worker claims nothing: the delivery stays pending, unsent, its attempts
    /// unspent, and the metrics say the deliveries are paused.
    #[tokio::test]
    async fn paused_deliveries_are_queued_and_nothing_is_sent() {
        let (port, mut seen) = receiver("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").await;
        let mut s = setup(port);
        let outbox = Arc::into_inner(s.outbox).unwrap().paused(true);
        assert!(
            outbox
                .metrics
                .render()
                .contains("regintel_webhooks_paused 1\n")
        );
        s.outbox = Arc::new(outbox);
        emit_test(&s.store);
        assert_eq!(s.outbox.deliver_due().await.unwrap(), 0);
        let (status, attempts, _, codes) = only_delivery(&s.store);
        assert_eq!((status.as_str(), attempts, codes), ("pending", 0, vec![]));
        assert!(seen.try_recv().is_err(), "nothing was sent");
        assert_outcome(&s.outbox, "delivered", 0);
    }

    /// An account over its pace at a host waits, no attempt spent, while another account's
    /// delivery to the same host goes at once.
    #[tokio::test]
    async fn an_account_over_its_pace_at_a_host_waits_and_no_other_account_does() {
        let (port, mut seen) = receiver("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").await;
        let s = setup(port);
        let sealed = s
            .outbox
            .sealing()
            .seal(&Secret::generate().shown(), "whk_2");
        let url = format!("http://127.0.0.1:{port}/other");
        register(&s.store, 2, "whk_2", r#"["webhook.test"]"#, &url, &sealed);
        let now = crate::runtime::clock::now_ms();
        for (id, account) in [("msg_1", 1), ("msg_2", 2)] {
            emit(
                &s.store,
                id,
                "webhook.test",
                Audience::Account(account),
                now,
            );
        }
        // Account 1's budget at the receiver's address is spent an hour ahead.
        let later = now + 3_600_000;
        let receiver = [std::net::IpAddr::from([127, 0, 0, 1])];
        while s.outbox.host_rates.admit(&receiver, 1, later).is_ok() {}
        assert_eq!(s.outbox.deliver_due().await.unwrap(), 2);
        assert!(seen.recv().await.unwrap().contains("POST /other "));
        assert_eq!(delivery_of(&s.store, "msg_2").0, "delivered");
        let (status, attempts, next) = delivery_of(&s.store, "msg_1");
        assert_eq!((status.as_str(), attempts), ("pending", 0));
        assert!(next >= later, "{next}");
        assert_outcome(&s.outbox, "deferred", 1);
    }

    /// A receiver on loopback that counts the requests it has read whole and answers each (200)
    /// only once `release` says so.
    async fn holding_receiver(
        arrived: Arc<std::sync::atomic::AtomicUsize>,
        release: tokio::sync::watch::Receiver<bool>,
    ) -> u16 {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let (arrived, mut release) = (Arc::clone(&arrived), release.clone());
                tokio::spawn(async move {
                    let (mut seen, mut buf) = (Vec::new(), [0u8; 4096]);
                    while !seen.ends_with(br#"{"type":"webhook.test"}"#) {
                        match socket.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => seen.extend_from_slice(&buf[..n]),
                        }
                    }
                    arrived.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let _ = release.wait_for(|released| *released).await;
                    let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
                    let _ = socket.write_all(answer).await;
                });
            }
        });
        port
    }

    /// 24 deliveries due, of three accounts with two endpoints each, so that only the limit of
    /// all attempts at once holds them back (four to an endpoint and eight of an account let all
    /// 24 go): 16 reach a receiver that holds them, and no more until it answers; then the rest
    /// go, and all are delivered.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_16_attempts_are_in_flight_at_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        assert_eq!(IN_FLIGHT, 16, "docs/webhooks.md");
        let arrived = Arc::new(AtomicUsize::new(0));
        let (release, released) = tokio::sync::watch::channel(false);
        let port = holding_receiver(Arc::clone(&arrived), released).await;
        let s = setup(port);
        add_account(&s.store, 3, "c@example.org");
        let url = format!("http://127.0.0.1:{port}/hook");
        for (account, id) in [
            (1, "whk_1b"),
            (2, "whk_2"),
            (2, "whk_2b"),
            (3, "whk_3"),
            (3, "whk_3b"),
        ] {
            let sealed = s.outbox.sealing().seal(&Secret::generate().shown(), id);
            register(&s.store, account, id, r#"["webhook.test"]"#, &url, &sealed);
        }
        let now = crate::runtime::clock::now_ms();
        for account in 1..=3 {
            for i in 0..PER_ENDPOINT {
                let id = format!("msg_{account}_{i}");
                let audience = Audience::Account(account);
                assert_eq!(emit(&s.store, &id, "webhook.test", audience, now), 2);
            }
        }
        let due = 3 * 2 * PER_ENDPOINT;
        assert!(3 * PER_ACCOUNT_IN_FLIGHT.min(2 * PER_ENDPOINT) > IN_FLIGHT);
        let outbox = Arc::clone(&s.outbox);
        let worker = tokio::spawn(async move { outbox.deliver_due().await.unwrap() });
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            match arrived.load(Ordering::SeqCst) {
                IN_FLIGHT => break,
                n if n > IN_FLIGHT => panic!("{n} attempts in flight at once"),
                n => assert!(std::time::Instant::now() < deadline, "{n} arrived"),
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // A correct worker never sends a 17th while these are held: this wait only gives a
        // wrong one the time to show it.
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(arrived.load(Ordering::SeqCst), IN_FLIGHT);
        assert!(!worker.is_finished());
        release.send(true).unwrap();
        let claimed = tokio::time::timeout(Duration::from_secs(60), worker)
            .await
            .expect("every delivery answered")
            .unwrap();
        assert_eq!((claimed, arrived.load(Ordering::SeqCst)), (due, due));
        let settled = every_delivery(&s.store);
        assert_eq!(settled.len(), due);
        assert!(
            settled
                .iter()
                .all(|(status, attempts)| status == "delivered" && *attempts == 1),
            "{settled:?}"
        );
    }

    #[tokio::test]
    async fn gone_disables_the_endpoint() {
        let (port, _seen) = receiver("HTTP/1.1 410 Gone\r\ncontent-length: 0\r\n\r\n").await;
        let s = setup(port);
        emit_test(&s.store);
        s.outbox.deliver_due().await.unwrap();
        let (status, _, _, codes) = only_delivery(&s.store);
        assert_eq!((status.as_str(), codes), ("failed", vec![Some(410)]));
        let endpoint = &s.store.scoped(Some(1)).unwrap().my_endpoints().unwrap()[0];
        assert!(!endpoint.enabled);
        assert_eq!(
            endpoint.disabled_reason.as_deref(),
            Some("the receiver answered 410 Gone")
        );
    }

    #[tokio::test]
    async fn ten_failures_open_the_breaker_and_deliveries_wait_without_spending_attempts() {
        let (port, _seen) =
            receiver("HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n").await;
        let s = setup(port);
        let now = crate::runtime::clock::now_ms();
        for i in 0..crate::webhooks::breaker::TRIP_AFTER {
            emit(
                &s.store,
                &format!("msg_{i}"),
                "webhook.test",
                Audience::Account(1),
                now,
            );
        }
        // Four to an endpoint per claim: three claims take the ten, then none is due.
        while s.outbox.deliver_due().await.unwrap() > 0 {}
        let endpoint = &s.store.scoped(Some(1)).unwrap().my_endpoints().unwrap()[0];
        assert_eq!(endpoint.breaker_state, "open");
        assert_eq!(endpoint.consecutive_failures, 10);
        let open_until = endpoint.breaker_open_until.unwrap();
        assert!(open_until >= now + 5 * 60 * 1000);

        emit(
            &s.store,
            "msg_late",
            "webhook.test",
            Audience::Account(1),
            now,
        );
        assert_eq!(s.outbox.deliver_due().await.unwrap(), 1);
        assert_eq!(
            delivery_of(&s.store, "msg_late"),
            ("pending".to_owned(), 0, open_until),
            "deferred to the probe, no attempt spent"
        );
    }

    #[tokio::test]
    async fn a_message_older_than_84_hours_is_given_up_unsent() {
        let (port, mut seen) = receiver("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").await;
        let s = setup(port);
        let long_ago = crate::runtime::clock::now_ms() - MAX_AGE_MS - 1;
        emit(
            &s.store,
            "msg_old",
            "webhook.test",
            Audience::Account(1),
            long_ago,
        );
        s.outbox.deliver_due().await.unwrap();
        let (status, attempts, _) = delivery_of(&s.store, "msg_old");
        assert_eq!((status.as_str(), attempts), ("failed", 1));
        assert!(seen.try_recv().is_err(), "not sent");
    }
}
