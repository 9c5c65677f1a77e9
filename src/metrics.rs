//! Counters and histograms for `/metrics`, in the Prometheus text exposition format
//! (<https://prometheus.io/docs/instrumenting/exposition_formats/>). Labels come from fixed sets
//! (operation ids, status codes, bucket names, outcomes), never from what a client sends, so the
//! number of series stays bounded.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds (seconds) of the request-latency buckets: from a cached answer to a slow export.
const LATENCY_BOUNDS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0, 30.0,
];
/// Upper bounds (seconds) of waits for a blocking-pool permit.
const WAIT_BOUNDS: [f64; 8] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0];
/// Upper bounds (seconds) of imports: a small upload to a large bulk file.
const IMPORT_BOUNDS: [f64; 8] = [0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 120.0];

/// A histogram with fixed bucket bounds; counts are kept per bucket and summed on output.
#[derive(Debug, Clone)]
struct Histogram {
    bounds: &'static [f64],
    counts: Vec<u64>,
    sum: f64,
    count: u64,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Histogram {
        Histogram {
            bounds,
            counts: vec![0; bounds.len()],
            sum: 0.0,
            count: 0,
        }
    }

    fn observe(&mut self, seconds: f64) {
        if let Some(i) = self.bounds.iter().position(|b| seconds <= *b) {
            self.counts[i] += 1;
        }
        self.sum += seconds;
        self.count += 1;
    }

    /// The `_bucket`, `_sum` and `_count` lines of `name` with the labels `labels` (`a="b",`
    /// or empty).
    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let mut cumulative = 0;
        for (bound, count) in self.bounds.iter().zip(&self.counts) {
            cumulative += count;
            let _ = writeln!(out, "{name}_bucket{{{labels}le=\"{bound}\"}} {cumulative}");
        }
        let _ = writeln!(out, "{name}_bucket{{{labels}le=\"+Inf\"}} {}", self.count);
        let braces = labels.trim_end_matches(',');
        let braces = if braces.is_empty() {
            String::new()
        } else {
            format!("{{{braces}}}")
        };
        let _ = writeln!(out, "{name}_sum{braces} {}", self.sum);
        let _ = writeln!(out, "{name}_count{braces} {}", self.count);
    }
}

/// What one route answered.
#[derive(Debug, Clone)]
struct RouteStats {
    by_status: BTreeMap<u16, u64>,
    latency: Histogram,
}

/// How a webhook attempt ended, for `regintel_webhook_deliveries_total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DeliveryOutcome {
    Delivered,
    Retried,
    Failed,
    Deferred,
}

impl DeliveryOutcome {
    fn as_str(self) -> &'static str {
        match self {
            DeliveryOutcome::Delivered => "delivered",
            DeliveryOutcome::Retried => "retried",
            DeliveryOutcome::Failed => "failed",
            DeliveryOutcome::Deferred => "deferred",
        }
    }
}

/// The server's metrics: one per process, shared by the request path and the workers.
pub struct Metrics {
    routes: Mutex<BTreeMap<&'static str, RouteStats>>,
    refusals: Mutex<BTreeMap<&'static str, u64>>,
    cache_hits: AtomicU64,
    cache_misses: AtomicU64,
    deliveries: Mutex<BTreeMap<DeliveryOutcome, u64>>,
    /// Pending webhook deliveries, as last counted by the background task.
    queue_depth: AtomicI64,
    /// Rounds of the background task run to their end (a piece of work that failed is logged,
    /// and the round still counts).
    background_ticks: AtomicU64,
    /// Bytes of public rows held in memory, as last seen by the background task.
    public_data_bytes: AtomicU64,
    webhooks_paused: AtomicBool,
    pool_waits: Mutex<BTreeMap<&'static str, Histogram>>,
    /// Requests waiting now, by pool.
    waiting: Mutex<BTreeMap<&'static str, i64>>,
    imports: Mutex<Histogram>,
    /// Each dataset fetched from Eurostat: its last success and, where its last attempt failed,
    /// when (unix ms), as last read by the background task.
    eurostat: Mutex<Vec<FetchTimes>>,
}

/// A dataset fetched from Eurostat: its code, its last success and, where its last attempt
/// failed, when (unix ms).
pub type FetchTimes = (String, Option<i64>, Option<i64>);

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            routes: Mutex::default(),
            refusals: Mutex::default(),
            cache_hits: AtomicU64::new(0),
            webhooks_paused: AtomicBool::new(false),
            cache_misses: AtomicU64::new(0),
            deliveries: Mutex::default(),
            queue_depth: AtomicI64::new(0),
            background_ticks: AtomicU64::new(0),
            public_data_bytes: AtomicU64::new(0),
            pool_waits: Mutex::default(),
            waiting: Mutex::default(),
            imports: Mutex::new(Histogram::new(&IMPORT_BOUNDS)),
            eurostat: Mutex::default(),
        }
    }
}

/// A request counted as waiting for a pool while this lives.
pub struct Waiting<'a> {
    metrics: &'a Metrics,
    pool: &'static str,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        *lock(&self.metrics.waiting).entry(self.pool).or_default() -= 1;
    }
}

/// A poisoned lock still holds valid counters (each update is a few additions).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Metrics {
    /// One answered request of `route` (an operation id, or `unmatched`).
    pub fn request(&self, route: &'static str, status: u16, elapsed: Duration) {
        let mut routes = lock(&self.routes);
        let stats = routes.entry(route).or_insert_with(|| RouteStats {
            by_status: BTreeMap::new(),
            latency: Histogram::new(&LATENCY_BOUNDS),
        });
        *stats.by_status.entry(status).or_default() += 1;
        stats.latency.observe(elapsed.as_secs_f64());
    }

    /// A request refused (429) by the rate-limit buckets named.
    pub fn rate_limited(&self, buckets: &[&'static str]) {
        let mut refusals = lock(&self.refusals);
        for bucket in buckets {
            *refusals.entry(bucket).or_default() += 1;
        }
    }

    pub fn cache(&self, hit: bool) {
        let counter = if hit {
            &self.cache_hits
        } else {
            &self.cache_misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn delivery(&self, outcome: DeliveryOutcome) {
        *lock(&self.deliveries).entry(outcome).or_default() += 1;
    }

    pub fn set_webhooks_paused(&self, paused: bool) {
        self.webhooks_paused.store(paused, Ordering::Relaxed);
    }

    /// A round of the background task finished.
    pub fn background_tick(&self) {
        self.background_ticks.fetch_add(1, Ordering::Relaxed);
    }

    pub fn set_queue_depth(&self, pending: i64) {
        self.queue_depth.store(pending, Ordering::Relaxed);
    }

    /// The datasets fetched from Eurostat: (code, last success, time of a failed last attempt).
    pub fn set_eurostat(&self, fetched: Vec<FetchTimes>) {
        *lock(&self.eurostat) = fetched;
    }

    pub fn set_public_data_bytes(&self, bytes: u64) {
        self.public_data_bytes.store(bytes, Ordering::Relaxed);
    }

    /// A request starts waiting for `pool`; it is counted as waiting until the guard is
    /// dropped (also when the wait is given up, as when the client leaves).
    pub fn waiting_for(&self, pool: &'static str) -> Waiting<'_> {
        *lock(&self.waiting).entry(pool).or_default() += 1;
        Waiting {
            metrics: self,
            pool,
        }
    }

    /// A request that waited `waited` for a permit of the blocking pool `pool`.
    pub fn pool_wait(&self, pool: &'static str, waited: Duration) {
        lock(&self.pool_waits)
            .entry(pool)
            .or_insert_with(|| Histogram::new(&WAIT_BOUNDS))
            .observe(waited.as_secs_f64());
    }

    /// An upload imported (parsed, checked and written) in `took`.
    pub fn import(&self, took: Duration) {
        lock(&self.imports).observe(took.as_secs_f64());
    }

    /// Everything, in the Prometheus text format (version 0.0.4).
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(16 * 1024);
        // A copy, so that formatting never holds the lock every request takes.
        let routes = lock(&self.routes).clone();
        header(
            &mut out,
            "regintel_http_requests_total",
            "counter",
            "Requests answered, by route (operation id; unmatched for no route) and status.",
        );
        for (route, stats) in routes.iter() {
            for (status, n) in &stats.by_status {
                let _ = writeln!(
                    out,
                    "regintel_http_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}"
                );
            }
        }
        header(
            &mut out,
            "regintel_http_request_duration_seconds",
            "histogram",
            "Time from a request's headers to its answer's headers, by route.",
        );
        for (route, stats) in routes.iter() {
            stats.latency.write(
                &mut out,
                "regintel_http_request_duration_seconds",
                &format!("route=\"{route}\","),
            );
        }

        header(
            &mut out,
            "regintel_rate_limit_refusals_total",
            "counter",
            "Requests refused with 429, by the bucket that had no room.",
        );
        for (bucket, n) in lock(&self.refusals).iter() {
            let _ = writeln!(
                out,
                "regintel_rate_limit_refusals_total{{bucket=\"{bucket}\"}} {n}"
            );
        }

        header(
            &mut out,
            "regintel_cache_requests_total",
            "counter",
            "Cacheable requests, by whether the answer cache held their answer.",
        );
        for (result, counter) in [("hit", &self.cache_hits), ("miss", &self.cache_misses)] {
            let _ = writeln!(
                out,
                "regintel_cache_requests_total{{result=\"{result}\"}} {}",
                counter.load(Ordering::Relaxed)
            );
        }

        header(
            &mut out,
            "regintel_background_ticks_total",
            "counter",
            "Rounds of the background task run to their end (about one a second; a failed piece of work is logged and the round still counts): a count that stops rising means the task is stuck.",
        );
        let _ = writeln!(
            out,
            "regintel_background_ticks_total {}",
            self.background_ticks.load(Ordering::Relaxed)
        );
        gauge(
            &mut out,
            "regintel_webhook_queue_depth",
            "Webhook deliveries waiting to be sent (counted about once a second).",
            self.queue_depth.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "regintel_webhooks_paused",
            "1 while webhook deliveries are paused (--webhooks-paused): events are queued, nothing is sent.",
            u8::from(self.webhooks_paused.load(Ordering::Relaxed)),
        );
        gauge(
            &mut out,
            "regintel_public_data_bytes",
            "Bytes of current public rows held in memory for callers who see public data only (0: read from the database; checked about once a second).",
            self.public_data_bytes.load(Ordering::Relaxed),
        );
        for (name, help, which) in [
            (
                "regintel_eurostat_last_success_timestamp_seconds",
                "When each dataset from Eurostat (regintel fetch, sync, import --bundle) was last fetched with success, unix seconds: the time of the download (read about every 5 s).",
                0,
            ),
            (
                "regintel_eurostat_last_failure_timestamp_seconds",
                "When the last attempt at a dataset fetched from Eurostat failed, unix seconds; none while its last attempt succeeded (the error: regintel check).",
                1,
            ),
        ] {
            header(&mut out, name, "gauge", help);
            for (dataset, succeeded, failed) in lock(&self.eurostat).iter() {
                if let Some(at) = [succeeded, failed][which] {
                    let _ = writeln!(out, "{name}{{dataset=\"{dataset}\"}} {}", at / 1000);
                }
            }
        }
        header(
            &mut out,
            "regintel_webhook_deliveries_total",
            "counter",
            "Webhook attempts by outcome: delivered, retried (failed, tried again later), failed (given up), deferred (breaker open, no attempt spent).",
        );
        let deliveries = lock(&self.deliveries);
        for outcome in [
            DeliveryOutcome::Delivered,
            DeliveryOutcome::Retried,
            DeliveryOutcome::Failed,
            DeliveryOutcome::Deferred,
        ] {
            let _ = writeln!(
                out,
                "regintel_webhook_deliveries_total{{outcome=\"{}\"}} {}",
                outcome.as_str(),
                deliveries.get(&outcome).copied().unwrap_or(0)
            );
        }
        drop(deliveries);

        header(
            &mut out,
            "regintel_pool_wait_seconds",
            "histogram",
            "Waits for a permit of the blocking pool (reads: database reads and compression; blocking: writes and password hashing) or for a request's database connection (connections), by pool.",
        );
        for (pool, histogram) in lock(&self.pool_waits).iter() {
            histogram.write(
                &mut out,
                "regintel_pool_wait_seconds",
                &format!("pool=\"{pool}\","),
            );
        }

        header(
            &mut out,
            "regintel_pool_waiting",
            "gauge",
            "Requests waiting now for a permit of a blocking pool or for a request's database connection (connections), by pool (named as in regintel_pool_wait_seconds); above 0, every permit of the pool is taken.",
        );
        for (pool, n) in lock(&self.waiting).iter() {
            let _ = writeln!(out, "regintel_pool_waiting{{pool=\"{pool}\"}} {n}");
        }

        header(
            &mut out,
            "regintel_import_duration_seconds",
            "histogram",
            "Time to import an uploaded CSV (parse, check, write).",
        );
        lock(&self.imports).write(&mut out, "regintel_import_duration_seconds", "");
        out
    }
}

fn gauge(out: &mut String, name: &str, help: &str, value: impl std::fmt::Display) {
    header(out, name, "gauge", help);
    let _ = writeln!(out, "{name} {value}");
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_counts_until_its_guard_is_dropped() {
        let metrics = Metrics::default();
        let first = metrics.waiting_for("blocking");
        let second = metrics.waiting_for("blocking");
        assert!(
            metrics
                .render()
                .contains("regintel_pool_waiting{pool=\"blocking\"} 2\n")
        );
        drop(first);
        assert!(
            metrics
                .render()
                .contains("regintel_pool_waiting{pool=\"blocking\"} 1\n")
        );
        drop(second);
        assert!(
            metrics
                .render()
                .contains("regintel_pool_waiting{pool=\"blocking\"} 0\n")
        );
    }

    #[test]
    fn histograms_are_cumulative_and_count_everything() {
        let metrics = Metrics::default();
        metrics.request("getRegion", 200, Duration::from_micros(300));
        metrics.request("getRegion", 200, Duration::from_millis(3));
        metrics.request("getRegion", 404, Duration::from_secs(60));
        let text = metrics.render();
        assert!(
            text.contains("regintel_http_requests_total{route=\"getRegion\",status=\"200\"} 2")
        );
        assert!(
            text.contains("regintel_http_requests_total{route=\"getRegion\",status=\"404\"} 1")
        );
        assert!(text.contains(
            "regintel_http_request_duration_seconds_bucket{route=\"getRegion\",le=\"0.0005\"} 1"
        ));
        assert!(text.contains(
            "regintel_http_request_duration_seconds_bucket{route=\"getRegion\",le=\"0.005\"} 2"
        ));
        assert!(text.contains(
            "regintel_http_request_duration_seconds_bucket{route=\"getRegion\",le=\"30\"} 2"
        ));
        assert!(text.contains(
            "regintel_http_request_duration_seconds_bucket{route=\"getRegion\",le=\"+Inf\"} 3"
        ));
        assert!(
            text.contains("regintel_http_request_duration_seconds_count{route=\"getRegion\"} 3")
        );
        assert!(text.contains("regintel_import_duration_seconds_count 0"));
    }
}
