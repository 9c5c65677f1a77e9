//! Rate limits: exact admission under concurrency, daily caps across restarts, honest headers,
//! what counts, client addresses behind proxies, bounded memory, the usage route.

use regintel::client_addr::ProxyHeader;
use regintel::rate_limiter::Scope;

use crate::support::{BASE, Options, TestServer, Tier};

fn limits(
    c: &mut regintel::config::ServerConfig,
    anonymous: (u64, u64, u64),
    account: (u64, u64, u64),
) {
    use regintel::config::Quotas;
    c.limits.anonymous = Quotas {
        minute: anonymous.0,
        hour: anonymous.1,
        day: anonymous.2,
    };
    let q = Quotas {
        minute: account.0,
        hour: account.1,
        day: account.2,
    };
    c.limits.professional = q;
    c.limits.institutional = q;
    c.limits.auth_fail_per_minute = 1000;
}

/// (The binding bucket is an hour's, 72 s a request: no slow run can see one come back.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_clients_on_one_key_get_exactly_the_limit() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (1000, 1000, 1000), (1_000_000, 50, 10_000))),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    let mut tasks = Vec::new();
    for _ in 0..200 {
        let client = s.client.clone();
        let key = a.api_key.clone();
        tasks.push(tokio::spawn(async move {
            client
                .get_with(&format!("{BASE}/regions/DE21"), &[("x-api-key", &key)])
                .await
                .status
        }));
    }
    let mut ok = 0;
    let mut limited = 0;
    for t in tasks {
        match t.await.unwrap() {
            200 => ok += 1,
            429 => limited += 1,
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!((ok, limited), (50, 150));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_describes_the_buckets_and_refusals_say_which_and_when() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (3, 100, 1000), (100, 1000, 1000))),
        ..Default::default()
    })
    .await;
    let r = s.get("/regions/DE21").await;
    assert_eq!(r.header("x-ratelimit-limit"), Some("3"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("2"));
    assert_eq!(r.header("x-ratelimit-used"), Some("1"));
    assert_eq!(r.header("x-ratelimit-resource"), Some("ip-minute"));
    let reset: i64 = r.header("x-ratelimit-reset").unwrap().parse().unwrap();
    let now = s.limits_clock.unix_secs();
    assert!((now..=now + 61).contains(&reset), "{reset} vs {now}");
    assert_eq!(
        r.header("ratelimit-policy"),
        Some("\"ip-minute\";q=3;w=60, \"ip-hour\";q=100;w=3600, \"ip-day\";q=1000;w=86400")
    );
    assert!(
        r.header("ratelimit")
            .unwrap()
            .starts_with("\"ip-minute\";r=2;t=")
    );
    // Errors carry them too, and count.
    let r = s.get("/nothing").await;
    assert_eq!(r.header("x-ratelimit-remaining"), Some("1"));
    s.get("/regions/DE21").await;
    let r = s.get("/regions/DE21").await;
    let e = r.error(429, "rate_limit_exceeded");
    assert_eq!(e["details"]["violated_policies"][0], "ip-minute");
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!(
        (1..=20).contains(&retry),
        "{retry}: one emission interval of 3/min"
    );
    assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
    // Operational routes are not counted but still described.
    let h = s.client.get("/healthz").await;
    assert_eq!(h.status, 200);
    assert_eq!(h.header("x-ratelimit-remaining"), Some("0"));
}

/// (The binding bucket is an hour's, 36 s a request: no slow run can see one come back and
/// blur what was counted.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_counts_against_the_limits() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (1000, 1000, 1000), (1_000_000, 100, 1000))),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    let key = a.key_header();
    let path = format!("{BASE}/regions/DE21");
    let first = s.client.get_with(&path, &[key]).await;
    assert_eq!(first.header("x-ratelimit-resource"), Some("key-hour"));
    assert_eq!(first.header("x-ratelimit-remaining"), Some("99"));
    let etag = first.header("etag").unwrap().to_owned();
    // An authenticated 304 is free.
    let not_modified = s
        .client
        .get_with(&path, &[key, ("if-none-match", &etag)])
        .await;
    assert_eq!(not_modified.status, 304);
    let after = s.client.get_with(&path, &[key]).await;
    assert_eq!(
        after.header("x-ratelimit-remaining"),
        Some("98"),
        "the 304 did not count"
    );
    // A 404 counts; a weighted route costs its weight.
    s.client
        .get_with(&format!("{BASE}/regions/XX99"), &[key])
        .await
        .error(404, "unknown_region");
    let export = s
        .client
        .get_with(&format!("{BASE}/export/bulk/tgs00042.csv"), &[key])
        .await;
    assert_eq!(export.status, 200);
    assert_eq!(
        export.header("x-ratelimit-remaining"),
        Some("77"),
        "export costs 20"
    );
    // A request refused for what it asked costs 1, not its route's weight.
    let refused = s
        .client
        .get_with(&format!("{BASE}/export/bulk/tgs00042.csv?level=9"), &[key])
        .await;
    refused.error(400, "invalid_parameter");
    assert_eq!(refused.header("x-ratelimit-remaining"), Some("76"));
    // A bad credential never touches the account's buckets.
    let bad = s
        .client
        .get_with(&path, &[("x-api-key", "sk_service_nope")])
        .await;
    bad.error(401, "invalid_credential");
    assert_eq!(bad.header("x-ratelimit-resource"), Some("auth-fail"));
    let usage = s
        .client
        .get_with(&format!("{BASE}/account/usage"), &[key])
        .await
        .json();
    assert_eq!(
        usage["data"]["today"]["used"],
        1 + 1 + 1 + 20 + 1 + 1,
        "the usage call counts itself"
    );
    assert_eq!(usage["data"]["days"].as_array().unwrap().len(), 90);
    assert_eq!(usage["data"]["daily_cap"], 1000);
    let buckets: Vec<&str> = usage["data"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["policy"].as_str().unwrap())
        .collect();
    assert_eq!(
        buckets,
        ["key-minute", "key-hour", "key-day", "account-day"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_authentication_is_capped_per_address() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            limits(c, (1000, 1000, 1000), (100, 1000, 1000));
            c.limits.auth_fail_per_minute = 3;
        }),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    for _ in 0..3 {
        s.client
            .get_with(
                &format!("{BASE}/regions/DE21"),
                &[("x-api-key", "sk_service_guess")],
            )
            .await
            .error(401, "invalid_credential");
    }
    // The address is now cut off, valid key or not, until the bucket refills.
    let r = s
        .client
        .get_with(&format!("{BASE}/regions/DE21"), &[a.key_header()])
        .await;
    let e = r.error(429, "rate_limit_exceeded");
    assert_eq!(e["details"]["violated_policies"][0], "auth-fail");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_does_not_reset_the_daily_cap() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (1000, 1000, 1000), (100, 1000, 5))),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    let path = format!("{BASE}/regions/DE21");
    for i in 0..5 {
        assert_eq!(
            s.client.get_with(&path, &[a.key_header()]).await.status,
            200,
            "request {i}"
        );
    }
    let e = s
        .client
        .get_with(&path, &[a.key_header()])
        .await
        .error(429, "rate_limit_exceeded");
    assert!(
        e["details"]["violated_policies"]
            .to_string()
            .contains("account-day"),
        "{e}"
    );
    // Stop (which flushes the counters), then start a new server on the same data dir, at the
    // same time of the same day.
    let clock = s.limits_clock.clone();
    let kept = s.stop_keeping_data().await;
    let again = TestServer::start_in(
        kept,
        Options {
            configure: Some(|c| limits(c, (1000, 1000, 1000), (100, 1000, 5))),
            limits_clock: Some(clock),
            ..Default::default()
        },
    )
    .await;
    let r = again.client.get_with(&path, &[a.key_header()]).await;
    let e = r.error(429, "rate_limit_exceeded");
    assert!(
        e["details"]["violated_policies"]
            .to_string()
            .contains("day"),
        "{e}"
    );
    assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
    // The next UTC day the cap starts again (from noon, half a day and a second on).
    again.limits_clock.advance(12 * 3600 * 1000 + 1000);
    let r = again.client.get_with(&path, &[a.key_header()]).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("4"));
}

/// Two requests a minute per address, behind a trusted proxy on loopback that sets `header`.
fn behind_proxy(c: &mut regintel::config::ServerConfig, header: ProxyHeader) {
    limits(c, (2, 100, 100), (100, 100, 100));
    c.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    c.limits.proxy_header = Some(header);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_only_through_trusted_proxies() {
    // Not trusted: a spoofed X-Forwarded-For does not buy a fresh bucket.
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (2, 100, 100), (100, 100, 100))),
        ..Default::default()
    })
    .await;
    let path = format!("{BASE}/regions/DE21");
    for ip in ["198.51.100.1", "198.51.100.2"] {
        assert_eq!(
            s.client
                .get_with(&path, &[("x-forwarded-for", ip)])
                .await
                .status,
            200
        );
    }
    s.client
        .get_with(&path, &[("x-forwarded-for", "198.51.100.3")])
        .await
        .error(429, "rate_limit_exceeded");

    // Trusted loopback proxy that sets X-Forwarded-For: each forwarded client has its own
    // bucket; IPv6 by /64.
    let s = TestServer::start_with(Options {
        configure: Some(|c| behind_proxy(c, ProxyHeader::XForwardedFor)),
        ..Default::default()
    })
    .await;
    for ip in ["198.51.100.1", "198.51.100.2", "2001:db8::1"] {
        for _ in 0..2 {
            assert_eq!(
                s.client
                    .get_with(&path, &[("x-forwarded-for", ip)])
                    .await
                    .status,
                200,
                "{ip}"
            );
        }
    }
    let same_64 = s
        .client
        .get_with(&path, &[("x-forwarded-for", "2001:db8::ffff")])
        .await;
    same_64.error(429, "rate_limit_exceeded");
    // The client is the right-most hop the proxy did not trust: what the client wrote to its
    // left (a spoofed address) changes nothing.
    let xff = |value: &'static str| [("x-forwarded-for", value)];
    s.client
        .get_with(&path, &xff("203.0.113.77, 198.51.100.1"))
        .await
        .error(429, "rate_limit_exceeded");
    assert_eq!(
        s.client
            .get_with(&path, &xff("198.51.100.1, 203.0.113.78"))
            .await
            .status,
        200,
        "the real client is the right-most"
    );
    // The proxy passes a client's own `Forwarded` through untouched: it is not read, so it buys
    // no fresh bucket (the address is the one in X-Forwarded-For, already used up).
    for spoof in ["for=192.0.2.1", "for=192.0.2.2"] {
        s.client
            .get_with(
                &path,
                &[("forwarded", spoof), ("x-forwarded-for", "198.51.100.1")],
            )
            .await
            .error(429, "rate_limit_exceeded");
    }

    // A proxy that sets `Forwarded`: that header is read (each client it names has its own
    // bucket; were it ignored, all would share the proxy's), and X-Forwarded-For is not.
    let s = TestServer::start_with(Options {
        configure: Some(|c| behind_proxy(c, ProxyHeader::Forwarded)),
        ..Default::default()
    })
    .await;
    let first = [("forwarded", "for=\"[2001:db8:0:1::5]:80\"")];
    for _ in 0..2 {
        assert_eq!(s.client.get_with(&path, &first).await.status, 200);
    }
    let second = [("forwarded", "for=192.0.2.44")];
    assert_eq!(
        s.client.get_with(&path, &second).await.status,
        200,
        "another client named by Forwarded has a bucket of its own"
    );
    s.client
        .get_with(&path, &first)
        .await
        .error(429, "rate_limit_exceeded");
    s.client
        .get_with(
            &path,
            &[
                ("forwarded", "for=\"[2001:db8:0:1::5]:80\""),
                ("x-forwarded-for", "198.51.100.9"),
            ],
        )
        .await
        .error(429, "rate_limit_exceeded");
}

#[test]
fn trusted_proxies_need_the_header_they_set() {
    let mut c = regintel::config::ServerConfig::new("/nonexistent".into());
    c.limits.trusted_proxies = vec!["10.0.0.0/8".parse().unwrap()];
    let e = c.validate().unwrap_err().to_string();
    assert!(e.contains("--trusted-proxy-header"), "{e}");
    c.limits.proxy_header = Some(ProxyHeader::Forwarded);
    c.validate().unwrap();
}

/// Two waves of 1,020 clients (1,000 addresses behind a trusted proxy and 20 keys each) keep
/// the limiter within its 400 entries, the only state the request path keeps per client:
/// counted by the server itself, not read from the memory of the test's whole process (whose
/// allocator moves by megabytes, more than these entries weigh).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_clients_and_keys_keeps_the_limiter_within_its_entries() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            limits(c, (1000, 1000, 1000), (1000, 1000, 1000));
            c.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
            c.limits.proxy_header = Some(ProxyHeader::XForwardedFor);
            c.limits.max_entries = 400;
        }),
        ..Default::default()
    })
    .await;
    let keys: Vec<String> = (0..20)
        .map(|i| {
            s.account(&format!("k{i}@example.org"), Tier::Professional)
                .api_key
        })
        .collect();
    let entries = |v: serde_json::Value| v["data"]["rate_limit_entries"].as_u64().unwrap();
    let mut conn = s.client.connect().await;
    let mut wave = async |offset: u32| {
        let mut most = 0;
        for i in 0..1500u32 {
            let n = offset + i;
            let ip = format!("10.{}.{}.{}", n >> 16 & 255, n >> 8 & 255, n & 255);
            let key = &keys[i as usize % keys.len()];
            let headers: Vec<(&str, &str)> = if i % 3 == 0 {
                vec![("x-api-key", key.as_str())]
            } else {
                vec![("x-forwarded-for", ip.as_str())]
            };
            let r = conn
                .send(crate::support::Request {
                    method: "GET",
                    path: &format!("{BASE}/regions/DE"),
                    headers: &headers,
                    body: Vec::new(),
                })
                .await;
            assert_eq!(r.status, 200);
            if i % 100 == 0 {
                let ready = conn
                    .send(crate::support::Request {
                        method: "GET",
                        path: "/readyz",
                        headers: &[],
                        body: Vec::new(),
                    })
                    .await;
                most = most.max(entries(ready.json()));
            }
        }
        most
    };
    let first = wave(0).await;
    let second = wave(100_000).await;
    assert!(
        first <= 400 && second <= 400,
        "bucket entries stay under the cap: {first}, {second}"
    );
    // Over the cap but for eviction: each wave alone brings 1,020 clients.
    assert!(first > 200, "the waves fill the limiter: {first}");
}

/// Only a refused credential counts as a failed authentication: missing credentials do not lock
/// an address out. 401s and 429s are refunded, so failed logins cost the address no quota.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_refused_credentials_count_as_failures_and_refusals_are_free() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            // The address's binding bucket is an hour's: refunds, not time, must explain it.
            limits(c, (1_000_000, 100, 1000), (100, 1000, 1000));
            c.limits.auth_fail_per_minute = 2;
        }),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    for _ in 0..3 {
        s.get("/export/bulk/tgs00042.csv")
            .await
            .error(401, "missing_credential");
    }
    let r = s
        .client
        .get_with(&format!("{BASE}/regions/DE21"), &[a.key_header()])
        .await;
    assert_eq!(
        r.status, 200,
        "missing credentials did not use up auth-fail"
    );
    let r = s.get("/regions/DE21").await;
    assert_eq!(
        r.header("x-ratelimit-remaining"),
        Some("99"),
        "the three 401s were refunded"
    );
}

/// The operator's `--route-weight` changes what a route costs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn route_weights_can_be_changed_by_the_operator() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            limits(c, (100, 1000, 1000), (100, 1000, 1000));
            c.limits.route_weights = vec![("exportDataset".into(), 5)];
        }),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    let r = s
        .client
        .get_with(
            &format!("{BASE}/export/bulk/tgs00042.csv"),
            &[a.key_header()],
        )
        .await;
    assert_eq!(r.header("x-ratelimit-used"), Some("5"));
    let doc = s.get("/openapi.json").await.json();
    let export = &doc["paths"]["/export/bulk/{dataset_code}.csv"]["get"];
    assert_eq!(export["x-ratelimit-weight"], 5);
}

/// A session token has its own minute and hour buckets and shares the account's daily cap;
/// `/account/usage` answers it too, with earlier days read back from `usage_daily`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_limited_and_usage_reads_earlier_days() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (100, 1000, 1000), (100, 1000, 1000))),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    let token = s.login(&a).await;
    let bearer = format!("Bearer {token}");
    let today = s.today();
    let store = regintel::store::Store::open(s.dir.path(), 1).unwrap();
    store
        .system()
        .unwrap()
        .write_usage(
            &[(
                Scope::Account(a.id).persisted_name().unwrap(),
                today - 3,
                42,
            )],
            None,
        )
        .unwrap();
    let r = s
        .client
        .get_with(
            &format!("{BASE}/account/usage"),
            &[("authorization", &bearer)],
        )
        .await;
    assert_eq!(r.header("x-ratelimit-resource"), Some("session-minute"));
    let usage = r.json();
    let buckets: Vec<&str> = usage["data"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["policy"].as_str().unwrap())
        .collect();
    assert_eq!(buckets, ["session-minute", "session-hour", "account-day"]);
    let days = usage["data"]["days"].as_array().unwrap();
    let written = regintel::store::usage::day_label(today - 3);
    let earlier = days.iter().find(|d| d["day"] == written.as_str());
    assert_eq!(
        earlier.map(|d| &d["used"]),
        Some(&serde_json::json!(42)),
        "three days ago, from usage_daily: {days:?}"
    );
    assert_eq!(days[89]["used"], 1, "today: this request");
}

/// A request the server fails on (here a stored row it cannot read: 500 every time) is given
/// back to the address's hour and day but not to its minute: a flood of them meets a 429 after
/// about the minute's limit, however fast it is sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_are_refunded_to_the_quotas_but_not_to_the_minute() {
    let dir = crate::support::bundled_data_dir();
    let broken = "cit_aaaaaaaaaaaaaaaaaaaa";
    rusqlite::Connection::open(dir.path().join(regintel::store::DB_FILE))
        .unwrap()
        .execute(
            "INSERT INTO observations (citation_id, series_id, region_code, period, value,
                                       value_text, src_line, snapshot_id, superseded_by)
             SELECT ?1, series_id, region_code, period, 'not a number', value_text, src_line,
                    snapshot_id, citation_id
             FROM observations LIMIT 1",
            [broken],
        )
        .unwrap();
    let s = TestServer::start_in(
        dir,
        Options {
            configure: Some(|c| limits(c, (5, 1000, 1000), (100, 1000, 1000))),
            ..Default::default()
        },
    )
    .await;
    let mut failed = Vec::new();
    let refused = loop {
        let r = s.get(&format!("/citations/{broken}")).await;
        match r.status {
            500 => failed.push(r),
            429 => break r,
            other => panic!("{other}: {}", String::from_utf8_lossy(&r.body)),
        }
        assert!(failed.len() < 60, "60 server errors and no 429");
    };
    // Five within the minute, and one more for each 12 s the flood took (a slow machine).
    assert!(failed.len() >= 5, "{}", failed.len());
    assert_eq!(
        refused.json()["error"]["details"]["violated_policies"],
        serde_json::json!(["ip-minute"])
    );
    // Each failure was given back to the hour and the day, and its headers say so.
    let last = failed
        .last()
        .unwrap()
        .header("ratelimit")
        .unwrap()
        .to_owned();
    assert!(
        last.contains("\"ip-hour\";r=1000") && last.contains("\"ip-day\";r=1000"),
        "{last}"
    );
    let healthy = s.get("/regions/DE21").await;
    assert_eq!(healthy.status, 429, "the minute is spent for every route");
}

/// A used-up minute comes back when its `Retry-After` says, on the limiter's clock: no test
/// waits a real minute for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_used_up_minute_refills_when_retry_after_says() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (3, 1000, 1000), (100, 1000, 1000))),
        ..Default::default()
    })
    .await;
    for _ in 0..3 {
        assert_eq!(s.get("/regions/DE21").await.status, 200);
    }
    let refused = s.get("/regions/DE21").await;
    refused.error(429, "rate_limit_exceeded");
    let retry: i64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry), "{retry}: one interval of 3/min");
    // Moved on by the wait it names, the bucket has room for one request (the next needs
    // another 20 s, a thousand times what two requests take).
    s.limits_clock.advance(retry * 1000);
    let r = s.get("/regions/DE21").await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    s.get("/regions/DE21")
        .await
        .error(429, "rate_limit_exceeded");
}

/// An explorer page costs what the answer it shows costs, from the same buckets: the map 5 (it
/// reads every region of its level), a region's page, a comparison, a citation and the home
/// page 1, the correlation matrix 5; `--route-weight` sets a page's cost by its operation id.
/// (The day's buckets bind: nothing refills them while the test runs.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_pages_cost_what_their_answers_cost() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (1000, 1000, 100), (1000, 1000, 100))),
        ..Default::default()
    })
    .await;
    let citation =
        s.get("/regions/DE21/profile").await.json()["data"]["indicators"][0]["latest"]["citation"]
            .as_str()
            .unwrap()
            .to_owned();
    let mut used = 1;
    for (page, cost) in [
        ("/explore/maps/tgs00010".to_owned(), 5),
        ("/explore/regions/DE21".to_owned(), 1),
        (
            "/explore/compare?regions=DE21,FR10&dataset=tgs00010".to_owned(),
            1,
        ),
        (format!("/explore/citations/{citation}"), 1),
        ("/explore".to_owned(), 1),
    ] {
        let r = s.client.get(&page).await;
        assert_eq!(r.status, 200, "{page}");
        used += cost;
        assert_eq!(r.header("x-ratelimit-resource"), Some("ip-day"), "{page}");
        assert_eq!(
            r.header("x-ratelimit-used"),
            Some(used.to_string().as_str()),
            "{page} costs {cost}"
        );
    }
    let a = s.account("a@example.org", Tier::Institutional);
    let r = s
        .client
        .get_with(
            "/explore/matrix?nuts_code=DE&level=2&datasets=tgs00010,tgs00007",
            &[a.key_header()],
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("x-ratelimit-used"), Some("5"), "the matrix page");
    s.stop().await.unwrap();

    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            limits(c, (1000, 1000, 100), (1000, 1000, 100));
            c.limits.route_weights = vec![("pageExploreMap".into(), 7)];
        }),
        ..Default::default()
    })
    .await;
    let r = s.client.get("/explore/maps/tgs00010").await;
    assert_eq!(
        r.header("x-ratelimit-used"),
        Some("7"),
        "the operator's weight"
    );
}

/// With the limits off (`--no-rate-limits`), nothing is counted or refused: limits of one a
/// minute, hour and day, one login and one key creation an hour, let every request, login and
/// key creation through, and no answer describes a bucket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_limits_off_nothing_is_counted_or_refused() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            limits(c, (1, 1, 1), (1, 1, 1));
            c.limits.logins_per_hour = 1;
            c.limits.key_creations_per_hour = 1;
            c.limits.enabled = false;
        }),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    for _ in 0..5 {
        for headers in [&[][..], &[a.key_header()][..]] {
            let r = s
                .client
                .get_with(&format!("{BASE}/regions/DE21"), headers)
                .await;
            assert_eq!(r.status, 200);
            for described in ["x-ratelimit-limit", "ratelimit", "ratelimit-policy"] {
                assert_eq!(r.header(described), None, "{described}");
            }
        }
    }
    let mut token = String::new();
    for _ in 0..3 {
        token = s.login(&a).await;
    }
    let bearer = format!("Bearer {token}");
    for n in 0..2 {
        let r = s
            .call(
                "POST",
                "/account/api-keys",
                &[
                    ("authorization", &bearer),
                    ("content-type", "application/json"),
                ],
                format!(r#"{{"name": "key {n}"}}"#).as_bytes(),
            )
            .await;
        assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    }
}

/// An account's keys share its daily cap (`account-day`): with a cap of 5, three calls with one
/// key and two with another use it up, and the second key's next call is refused for the
/// account's day though its own day has room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_keys_of_one_account_share_its_daily_cap() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| limits(c, (1000, 1000, 1000), (1000, 1000, 5))),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    // The second key made as the operator commands make one: a request through the account API
    // would count against the cap itself.
    let store = regintel::store::Store::open_with(
        &s.database,
        1,
        1,
        regintel::config::defaults::DATABASE_WAIT,
    )
    .unwrap();
    let auth = regintel::auth::Auth::open(s.dir.path(), "regintel").unwrap();
    let (_, second) = auth
        .create_key(&store, a.id, Tier::Institutional, "second")
        .unwrap();
    let path = format!("{BASE}/regions/DE21");
    for (key, calls) in [(a.api_key.as_str(), 3), (second.as_str(), 2)] {
        for _ in 0..calls {
            let r = s.client.get_with(&path, &[("x-api-key", key)]).await;
            assert_eq!(r.status, 200);
        }
    }
    let r = s
        .client
        .get_with(&path, &[("x-api-key", second.as_str())])
        .await;
    let e = r.error(429, "rate_limit_exceeded");
    assert_eq!(
        e["details"]["violated_policies"],
        serde_json::json!(["account-day"])
    );
}
