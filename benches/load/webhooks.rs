//! The webhook scenarios: 10,000 events committed through the API as fast as it takes them,
//! delivered to a receiver on loopback (deliveries per second, and the delay from an event's
//! commit to its arrival); then the profile load with and without a delivery backlog draining
//! on the same server, in the same run (the backlog is written into the outbox while the
//! endpoints are disabled, and drains when they are enabled).

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde::Serialize;

use super::analytics::Client;
use super::{Check, Ctx, HIGH_LIMITS, Target, check, parse_wrk, wrk};

const EVENTS: usize = 10_000;
/// Endpoints the events are spread over (the worker sends at most 4 at once to one endpoint).
const ENDPOINTS: usize = 8;
/// Connections committing events at once.
const PRODUCERS: usize = 16;
/// The backlog behind the profile load: this many seconds of delivery at the measured rate.
const BACKLOG_MARGIN_SECS: u64 = 15;
const MAX_BACKLOG: usize = 100_000;
const DRAIN_TIMEOUT: Duration = Duration::from_secs(600);

#[derive(Serialize)]
pub struct WebhookResult {
    events: usize,
    /// Events per second the API committed while the worker delivered.
    committed_per_s: f64,
    /// Deliveries per second, from the first commit to the last arrival.
    delivered_per_s: f64,
    delay_p50_ms: f64,
    delay_p99_ms: f64,
    backlog: usize,
    profile_req_per_s_alone: f64,
    profile_req_per_s_delivering: f64,
    /// Deliveries per second while the profile load ran.
    delivered_per_s_under_load: f64,
    /// delivering / alone.
    ratio: f64,
    invalid: Vec<String>,
}

/// What the receiver saw: each event's id, commit time (its `timestamp`) and arrival, unix ms.
type Arrivals = Arc<Mutex<Vec<(String, i64, i64)>>>;

pub fn run(ctx: &Ctx, api_key: &str, profile_paths: &[String]) -> Result<WebhookResult> {
    println!(
        "\n== webhooks: {EVENTS} events to a loopback receiver, and profiles while delivering"
    );
    let arrivals: Arrivals = Arc::default();
    let receiver = receiver(Arc::clone(&arrivals))?;
    let server = ctx.start("webhooks", &Target::Regintel(HIGH_LIMITS))?;
    let key = ("X-API-Key".to_owned(), api_key.to_owned());
    let endpoints = ctx.rt.block_on(register(server.addr, &key, receiver))?;

    // Live: events committed while the worker delivers them.
    let started = regintel::runtime::clock::now_ms();
    let committed = Instant::now();
    ctx.rt
        .block_on(produce(server.addr, &key, &endpoints, EVENTS))?;
    let committed_per_s = EVENTS as f64 / committed.elapsed().as_secs_f64();
    let live = wait_for(&arrivals, EVENTS)?;
    let last = live.iter().map(|a| a.2).max().unwrap_or(started);
    let delivered_per_s = EVENTS as f64 * 1000.0 / (last - started).max(1) as f64;
    let mut delays: Vec<i64> = live
        .iter()
        .map(|(_, commit, arrival)| arrival - commit)
        .collect();
    delays.sort_unstable();
    let at = |q: f64| delays[((delays.len() - 1) as f64 * q).round() as usize] as f64;
    let (delay_p50_ms, delay_p99_ms) = (at(0.5), at(0.99));
    println!(
        "{EVENTS} events committed at {committed_per_s:.0}/s, delivered at {delivered_per_s:.0}/s; \
         commit to arrival p50 {delay_p50_ms} ms, p99 {delay_p99_ms} ms"
    );

    // The same server's profile load alone (deliveries paused, a backlog waiting), then while
    // the backlog drains.
    let mut invalid = Vec::new();
    let backlog = ((delivered_per_s as u64
        * (ctx.warmup_secs + ctx.measure_secs + BACKLOG_MARGIN_SECS)) as usize)
        .clamp(EVENTS, MAX_BACKLOG);
    ctx.rt
        .block_on(set_status(server.addr, &key, &endpoints, "disabled"))?;
    arrivals.lock().unwrap().clear();
    queue_backlog(&ctx.data_dir.join("regintel.sqlite"), &endpoints, backlog)?;
    let script = ctx.tmp.join("webhooks-profile.lua");
    std::fs::write(&script, super::lua_script(profile_paths, &[]))?;
    wrk(ctx, server.addr, &script, ctx.warmup_secs, false)?;
    let alone = parse_wrk(&wrk(ctx, server.addr, &script, ctx.measure_secs, true)?)?;
    ensure!(
        arrivals.lock().unwrap().is_empty(),
        "deliveries were not paused"
    );
    ctx.rt
        .block_on(set_status(server.addr, &key, &endpoints, "enabled"))?;
    wrk(ctx, server.addr, &script, ctx.warmup_secs, false)?;
    let before = arrivals.lock().unwrap().len();
    let window = Instant::now();
    let delivering = parse_wrk(&wrk(ctx, server.addr, &script, ctx.measure_secs, true)?)?;
    let during = arrivals.lock().unwrap().len() - before;
    let delivered_per_s_under_load = during as f64 / window.elapsed().as_secs_f64();
    if before + during >= backlog {
        invalid.push("the backlog ran out before the profile load ended".to_owned());
    }
    if during == 0 {
        invalid.push("nothing was delivered during the profile load".to_owned());
    }
    for stats in [&alone, &delivering] {
        if stats.non_2xx > 0 || stats.requests == 0 {
            invalid.push(format!(
                "{} non-2xx of {} profile requests",
                stats.non_2xx, stats.requests
            ));
        }
    }
    wait_for(&arrivals, backlog)?;
    let ratio = delivering.req_per_s / alone.req_per_s;
    println!(
        "profiles: {:.0} req/s alone, {:.0} req/s while {delivered_per_s_under_load:.0} deliveries/s drain a backlog of {backlog} ({ratio:.2})",
        alone.req_per_s, delivering.req_per_s
    );
    Ok(WebhookResult {
        events: EVENTS,
        committed_per_s,
        delivered_per_s,
        delay_p50_ms,
        delay_p99_ms,
        backlog,
        profile_req_per_s_alone: alone.req_per_s,
        profile_req_per_s_delivering: delivering.req_per_s,
        delivered_per_s_under_load,
        ratio,
        invalid,
    })
}

pub fn checks(result: &WebhookResult) -> Vec<Check> {
    vec![check(
        "profile while delivering / alone",
        result.ratio,
        true,
        0.9,
        result.invalid.is_empty(),
    )]
}

pub fn print(result: &WebhookResult) {
    println!(
        "\nwebhooks: {} events, {:.0} committed/s, {:.0} delivered/s, commit to arrival p50 {} ms p99 {} ms; \
         profiles {:.0} req/s alone, {:.0} while delivering {:.0}/s ({:.2}){}",
        result.events,
        result.committed_per_s,
        result.delivered_per_s,
        result.delay_p50_ms,
        result.delay_p99_ms,
        result.profile_req_per_s_alone,
        result.profile_req_per_s_delivering,
        result.delivered_per_s_under_load,
        result.ratio,
        if result.invalid.is_empty() {
            String::new()
        } else {
            format!(" INVALID: {}", result.invalid.join("; "))
        }
    );
}

/// A receiver on loopback, on a thread of its own, answering 204 to everything and noting each
/// event's commit time and arrival.
fn receiver(arrivals: Arrivals) -> Result<SocketAddr> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            loop {
                let (stream, _) = listener.accept().await?;
                let arrivals = Arc::clone(&arrivals);
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(
                        move |req: hyper::Request<hyper::body::Incoming>| {
                            let arrivals = Arc::clone(&arrivals);
                            async move {
                                let body = req.into_body().collect().await?.to_bytes();
                                let arrival = regintel::runtime::clock::now_ms();
                                if let Ok(event) =
                                    serde_json::from_slice::<serde_json::Value>(&body)
                                {
                                    let commit = event["timestamp"]
                                        .as_str()
                                        .and_then(regintel::runtime::clock::parse_rfc3339)
                                        .unwrap_or(arrival);
                                    let id = event["id"].as_str().unwrap_or_default().to_owned();
                                    arrivals.lock().unwrap().push((id, commit, arrival));
                                }
                                Ok::<_, hyper::Error>(
                                    hyper::Response::builder()
                                        .status(204)
                                        .body(Full::new(Bytes::new()))
                                        .unwrap(),
                                )
                            }
                        },
                    );
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
            #[allow(unreachable_code)]
            Ok::<(), anyhow::Error>(())
        })
    });
    Ok(addr)
}

/// Endpoints of the bench account at the receiver, for `webhook.test`.
async fn register(
    addr: SocketAddr,
    key: &(String, String),
    receiver: SocketAddr,
) -> Result<Vec<String>> {
    let mut client = Client::connect(addr).await?;
    let mut ids = Vec::new();
    for i in 0..ENDPOINTS {
        let body = serde_json::json!({"url": format!("http://{receiver}/hook/{i}"), "event_types": ["webhook.test"]});
        let (status, answer) = client
            .send(
                "POST",
                "/api/v1/regional/webhooks",
                key,
                Some(body.to_string()),
            )
            .await?;
        ensure!(
            status == 201,
            "registering a webhook: {status} {}",
            String::from_utf8_lossy(&answer)
        );
        let answer: serde_json::Value = serde_json::from_slice(&answer)?;
        ids.push(
            answer["data"]["id"]
                .as_str()
                .context("no endpoint id")?
                .to_owned(),
        );
    }
    Ok(ids)
}

async fn set_status(
    addr: SocketAddr,
    key: &(String, String),
    endpoints: &[String],
    status: &str,
) -> Result<()> {
    let mut client = Client::connect(addr).await?;
    for id in endpoints {
        let body = serde_json::json!({ "status": status });
        let (code, _) = client
            .send(
                "PATCH",
                &format!("/api/v1/regional/webhooks/{id}"),
                key,
                Some(body.to_string()),
            )
            .await?;
        ensure!(code == 200, "setting {id} {status}: {code}");
    }
    Ok(())
}

/// Commits `count` test events through the API, spread over the endpoints, from
/// [`PRODUCERS`] connections at once.
async fn produce(
    addr: SocketAddr,
    key: &(String, String),
    endpoints: &[String],
    count: usize,
) -> Result<()> {
    let mut tasks = tokio::task::JoinSet::new();
    for p in 0..PRODUCERS {
        let (key, endpoints) = (key.clone(), endpoints.to_vec());
        tasks.spawn(async move {
            let mut client = Client::connect(addr).await?;
            for n in (p..count).step_by(PRODUCERS) {
                let id = &endpoints[n % endpoints.len()];
                let (status, _) = client
                    .send(
                        "POST",
                        &format!("/api/v1/regional/webhooks/{id}/test"),
                        &key,
                        None,
                    )
                    .await?;
                ensure!(status == 202, "a test event: {status}");
            }
            Ok::<(), anyhow::Error>(())
        });
    }
    while let Some(done) = tasks.join_next().await {
        done??;
    }
    Ok(())
}

/// Writes `count` test events and their deliveries straight into the outbox, spread over the
/// (disabled) endpoints: the API refuses tests to disabled endpoints, and committing them
/// through it while the endpoints are enabled would deliver them as fast as they come.
fn queue_backlog(db: &std::path::Path, endpoints: &[String], count: usize) -> Result<()> {
    let mut conn = rusqlite::Connection::open(db)?;
    conn.busy_timeout(Duration::from_secs(30))?;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let rows: Vec<(i64, i64)> = endpoints
        .iter()
        .map(|id| {
            tx.query_row(
                "SELECT id, account_id FROM webhook_endpoints WHERE public_id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .collect::<Result<_, _>>()?;
    let now = regintel::runtime::clock::now_ms();
    {
        let mut event = tx.prepare(
            "INSERT INTO webhook_events (public_id, type, occurred_at, payload, account_id)
             VALUES (?1, 'webhook.test', ?2, ?3, ?4)",
        )?;
        let mut delivery = tx.prepare(
            "INSERT INTO webhook_deliveries (public_id, event_id, endpoint_id, status, next_attempt_at)
             VALUES (?1, ?2, ?3, 'pending', ?4)",
        )?;
        for n in 0..count {
            let (endpoint, account) = rows[n % rows.len()];
            let id = format!("msg_backlog_{n}");
            let payload = regintel::webhooks::events::envelope(
                &id,
                "webhook.test",
                now,
                &serde_json::json!({ "backlog": n }),
            );
            event.execute(rusqlite::params![id, now, payload, account])?;
            let event_id = tx.last_insert_rowid();
            delivery.execute(rusqlite::params![
                format!("dlv_backlog_{n}"),
                event_id,
                endpoint,
                now
            ])?;
        }
    }
    tx.commit()?;
    Ok(())
}

/// Waits until `count` distinct events arrived; their arrivals.
fn wait_for(arrivals: &Arrivals, count: usize) -> Result<Vec<(String, i64, i64)>> {
    let deadline = Instant::now() + DRAIN_TIMEOUT;
    loop {
        let all = arrivals.lock().unwrap().clone();
        let distinct: HashSet<&str> = all.iter().map(|a| a.0.as_str()).collect();
        if distinct.len() >= count {
            return Ok(all);
        }
        ensure!(
            Instant::now() < deadline,
            "{} of {count} events arrived",
            distinct.len()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
