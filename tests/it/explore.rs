//! The explorer's pages over HTTP: what they show against the JSON answers they render, the
//! citations behind every value, errors as pages, caching and compression, and who sees what.

use std::collections::BTreeSet;

use serde_json::json;

use crate::browser::Browser;
use crate::support::{Resp, TestServer, Tier};

fn html(r: &Resp) -> String {
    assert_eq!(
        r.header("content-type"),
        Some("text/html; charset=utf-8"),
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    String::from_utf8(r.body.to_vec()).unwrap()
}

/// The values of `attribute` on every tag that has it, in page order.
fn attributes<'a>(page: &'a str, attribute: &str) -> Vec<&'a str> {
    let needle = format!(" {attribute}=\"");
    page.split(needle.as_str())
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect()
}

/// `(citation href, value)` of every linked value on the page.
fn linked_values(page: &str) -> Vec<(String, String)> {
    page.split("<a class=\"value\" href=\"")
        .skip(1)
        .map(|rest| {
            let href = rest.split('"').next().unwrap().to_owned();
            let value = rest
                .split("data-value=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .to_owned();
            (href, value)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_region_page_charts_each_headline_series_and_every_value_leads_to_its_row() {
    let s = TestServer::start().await;
    let page = html(&s.client.get("/explore/regions/DE21").await);
    let profile = s.get("/regions/DE21/profile").await.json();
    let indicators = profile["data"]["indicators"].as_array().unwrap();
    assert!(indicators.len() >= 5, "{}", indicators.len());

    // One chart per headline series, one point per period with a value.
    let charted: Vec<usize> = attributes(&page, "data-points")
        .iter()
        .map(|n| n.parse().unwrap())
        .collect();
    let published: Vec<usize> = indicators
        .iter()
        .map(|i| {
            i["history"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| !c["value"].is_null())
                .count()
        })
        .collect();
    assert_eq!(charted, published);
    assert_eq!(
        page.matches("<a class=\"point\"").count(),
        published.iter().sum::<usize>()
    );

    // Every value shown (latest and table) links to a citation page that shows the same value,
    // and the citations are the profile's own.
    let cited_in_profile: BTreeSet<String> = indicators
        .iter()
        .flat_map(|i| i["history"].as_array().unwrap().iter())
        .map(|c| format!("/explore/citations/{}", c["citation"].as_str().unwrap()))
        .collect();
    let linked = linked_values(&page);
    assert!(linked.len() > 50, "{}", linked.len());
    let mut checked = BTreeSet::new();
    for (href, value) in &linked {
        assert!(cited_in_profile.contains(href), "{href}");
        if !checked.insert(href.clone()) {
            continue;
        }
        let citation = html(&s.client.get(href).await);
        let shown = attributes(&citation, "data-value");
        assert_eq!(shown, [value.as_str()], "{href}");
        assert!(citation.contains("data-testid=\"how-to-verify\""));
        assert!(citation.contains("SHA-256"));
    }

    // Family, map and the API request it shows.
    assert!(page.contains("href=\"/explore/regions/DE2\""));
    assert!(page.contains("href=\"/explore/regions/DE212\""));
    assert!(page.contains("class=\"here\" data-code=\"DE21\""));
    assert!(page.contains("© EuroGeographics for the administrative boundaries"));
    assert!(page.contains("href=\"/api/v1/regional/regions/DE21/profile\""));
    // The page's policy holds: no inline script or style.
    for inline in ["<style", " style=", " onclick=", "<script>"] {
        assert!(!page.contains(inline), "{inline}");
    }
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_front_page_finds_regions_by_name_and_lists_the_countries() {
    let s = TestServer::start().await;
    let home = html(&s.client.get("/explore").await);
    assert!(home.contains("href=\"/explore/regions/DE\""));
    assert!(home.contains("href=\"/explore/regions/FR\""));
    let found = html(&s.client.get("/explore?q=oberbayern").await);
    assert!(found.contains("href=\"/explore/regions/DE21\""), "{found}");
    assert!(found.contains("value=\"oberbayern\""));
    assert!(found.contains("/api/v1/regional/regions?q=oberbayern"));
    let nothing = html(&s.client.get("/explore?q=%3Cscript%3E").await);
    assert!(nothing.contains("No region"));
    assert!(nothing.contains("&lt;script&gt;") && !nothing.contains("<script>"));
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_cannot_be_shown_says_why_as_a_page() {
    let s = TestServer::start().await;
    let r = s.client.get("/explore/regions/DE2X").await;
    assert_eq!(r.status, 404);
    let page = html(&r);
    assert!(page.contains("data-testid=\"error-message\""), "{page}");
    assert!(page.contains("DE2X"));
    let r = s.client.get("/explore/citations/nonsense").await;
    assert_eq!(r.status, 404);
    html(&r);
    let r = s.client.get("/explore/regions/DE21?colour=red").await;
    assert_eq!(r.status, 400);
    assert!(html(&r).contains("colour"));
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_carry_etags_and_are_compressed_for_browsers_that_take_it() {
    let s = TestServer::start().await;
    let r = s
        .client
        .get_with("/explore/regions/DE21", &[("accept-encoding", "gzip")])
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-encoding"), Some("gzip"));
    let etag = r.header("etag").expect("an ETag").to_owned();
    let again = s
        .client
        .get_with("/explore/regions/DE21", &[("if-none-match", &etag)])
        .await;
    assert_eq!(again.status, 304);
    // A shared cache keys a page by the session cookie too: a signed-in browser's page differs.
    for answer in [&r, &again] {
        assert!(
            answer.header("vary").is_some_and(|v| v.contains("Cookie")),
            "{:?}",
            answer.header("vary")
        );
    }
    // The browser keeps a 304's headers for the page: the page's policy, not the API's.
    assert_eq!(
        again.header("content-security-policy"),
        Some(regintel::pages::PAGE_CSP)
    );
    assert_eq!(
        r.header("content-security-policy"),
        Some(regintel::pages::PAGE_CSP)
    );
    s.stop().await.unwrap();
}

/// An account with a private dataset `my_harbour` ("Harbour throughput"), holding one value,
/// 5.5 for DE21 in 2023.
async fn with_harbour(s: &TestServer) -> crate::support::TestAccount {
    let owner = s.account("owner@example.org", Tier::Professional);
    let definition = json!({"code": "my_harbour", "title": "Harbour throughput", "unit": "T"});
    s.private_dataset(
        &owner,
        definition,
        "nuts_code,period,value\nDE21,2023,5.5\n",
    )
    .await;
    owner
}

/// A signed-in browser reads its account's private datasets on the pages with its cookie alone
/// (no CSRF header: a page is read, nothing changes); another account's browser, an anonymous
/// one and a stale cookie see public data only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_sees_its_own_private_data_on_the_pages_and_no_one_elses() {
    let s = TestServer::start().await;
    let owner = with_harbour(&s).await;
    let other = s.account("other@example.org", Tier::Professional);
    let owner_browser = Browser::sign_in(&s, &owner).await;
    let other_browser = Browser::sign_in(&s, &other).await;

    let read = |cookie: String| {
        let s = &s;
        async move {
            let r = s
                .client
                .get_with("/explore/regions/DE21", &[("cookie", &cookie)])
                .await;
            assert_eq!(r.status, 200);
            html(&r)
        }
    };
    let owners = read(owner_browser.cookie.clone()).await;
    assert!(owners.contains("data-dataset=\"my_harbour\""));
    assert!(owners.contains("Harbour throughput"));
    let (href, value) = linked_values(&owners)
        .into_iter()
        .find(|(_, v)| v == "5.5")
        .expect("the private value is linked");
    let citation = s
        .client
        .get_with(&href, &[("cookie", &owner_browser.cookie)])
        .await;
    assert_eq!(attributes(&html(&citation), "data-value"), [value.as_str()]);

    // The browser's own navigation, and this origin's links, read as the account; a page of a
    // sibling subdomain (same site, another origin) that makes the browser send the cookie does
    // not.
    for (site, sees) in [
        ("none", true),
        ("same-origin", true),
        ("same-site", false),
        ("cross-site", false),
    ] {
        let r = s
            .client
            .get_with(
                "/explore/regions/DE21",
                &[("cookie", &owner_browser.cookie), ("sec-fetch-site", site)],
            )
            .await;
        assert_eq!(html(&r).contains("my_harbour"), sees, "{site}");
    }
    for cookie in [
        other_browser.cookie.clone(),
        String::new(),
        "__Host-regintel_session=not.a.token".to_owned(),
    ] {
        let page = read(cookie.clone()).await;
        assert!(!page.contains("my_harbour"), "{cookie}");
        assert!(!page.contains("Harbour throughput"), "{cookie}");
        let r = s.client.get_with(&href, &[("cookie", &cookie)]).await;
        assert_eq!(r.status, 404, "{cookie}");
    }
    s.stop().await.unwrap();
}

/// A session cookie that has expired reads as no cookie: the pages answer 200 with public data
/// only (no 401, no private row), where the same session's current token shows the account's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_session_cookie_reads_as_anonymous() {
    let s = TestServer::start().await;
    let owner = with_harbour(&s).await;
    let signed_in = Browser::sign_in(&s, &owner).await;
    let claims = crate::auth::claims_of(signed_in.session_token());
    let sid = claims["sid"].as_str().unwrap();
    // Tokens of the same session, signed with the server's key: one current, one that expired
    // three quarters of an hour ago (far beyond the verifier's leeway).
    let ring =
        regintel::auth::jwt::KeyRing::load_or_create(&s.dir.path().join("secrets"), "regintel")
            .unwrap();
    let now = regintel::runtime::clock::now_ms() / 1000;
    let cookie = |issued: i64| {
        let token = ring.issue(owner.id, sid, issued, 900).unwrap();
        format!("__Host-regintel_session={token}")
    };
    let (current, expired) = (cookie(now), cookie(now - 3600));
    let page = |cookie: String| {
        let s = &s;
        async move {
            let r = s
                .client
                .get_with("/explore/regions/DE21", &[("cookie", &cookie)])
                .await;
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
            html(&r)
        }
    };
    let owners = page(current.clone()).await;
    assert!(
        owners.contains("my_harbour"),
        "the current token reads as the owner"
    );
    let (href, _) = linked_values(&owners)
        .into_iter()
        .find(|(_, v)| v == "5.5")
        .expect("the private value is linked");
    let anonymous = page(expired.clone()).await;
    assert!(!anonymous.contains("my_harbour"));
    assert!(
        anonymous.contains("data-dataset="),
        "public data still shown"
    );
    let r = s.client.get_with(&href, &[("cookie", &expired)]).await;
    assert_eq!(r.status, 404, "the private row is no one's to see");
    assert_eq!(
        s.client
            .get_with(&href, &[("cookie", &current)])
            .await
            .status,
        200
    );
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_comparison_page_draws_the_compare_answer_with_its_table_and_citations() {
    let s = TestServer::start().await;
    let query = "regions=DE21,FR10,ITC4&dataset=tgs00010";
    let page = html(&s.client.get(&format!("/explore/compare?{query}")).await);
    let answer = s.get(&format!("/compare?{query}")).await.json();
    let regions = answer["data"]["regions"].as_array().unwrap();
    let with_value: Vec<(String, String)> = regions
        .iter()
        .filter(|r| !r["value"]["value"].is_null())
        .map(|r| {
            (
                format!(
                    "/explore/citations/{}",
                    r["value"]["citation"].as_str().unwrap()
                ),
                r["value"]["value"].as_f64().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(with_value.len(), 3);
    assert_eq!(attributes(&page, "data-bars"), ["3"]);
    // The table links the same values to the same citations, in the answer's order, and each
    // citation page shows that value.
    assert_eq!(linked_values(&page), with_value);
    for (href, value) in &with_value {
        let citation = html(&s.client.get(href).await);
        assert_eq!(attributes(&citation, "data-value"), [value.as_str()]);
    }
    for rank in regions.iter().map(|r| r["rank"].to_string()) {
        assert!(page.contains(&format!("<tr><td>{rank}</td>")), "{rank}");
    }
    assert!(page.contains("minus DE21"));
    assert!(
        page.contains("/api/v1/regional/compare?dataset=tgs00010&amp;regions=DE21%2CFR10%2CITC4")
    );

    // A region's page links comparisons with its neighbours that answer.
    let region = html(&s.client.get("/explore/regions/DE21").await);
    let link = region
        .split("<a href=\"/explore/compare?")
        .nth(1)
        .expect("a comparison link")
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&");
    let r = s.client.get(&format!("/explore/compare?{link}")).await;
    assert_eq!(r.status, 200, "{link}");

    let r = s
        .client
        .get("/explore/compare?regions=DE21&dataset=tgs00010")
        .await;
    assert_eq!(r.status, 400);
    assert!(html(&r).contains("between 2 and 50"));
    s.stop().await.unwrap();
}

/// `(region code, class)` pairs.
type Classes = Vec<(String, String)>;

/// `(code, class)` of every shaded region on a map, and of every table row with a value.
fn map_classes(page: &str) -> (Classes, Classes) {
    let shaded = page
        .split("<a class=\"region ")
        .skip(1)
        .map(|rest| {
            let class = rest.split('"').next().unwrap().to_owned();
            let code = rest.split("data-code=\"").nth(1).unwrap();
            (code.split('"').next().unwrap().to_owned(), class)
        })
        .collect();
    let table = page.split("data-testid=\"map-table\"").nth(1).unwrap();
    let rows = table
        .split("<tr><th scope=\"row\">")
        .skip(1)
        .filter(|row| row.contains("class=\"value\""))
        .map(|row| {
            let code = row.split("<span class=\"code\">").nth(1).unwrap();
            let cells: Vec<&str> = row.split("<td>").collect();
            let class = cells[2].split('<').next().unwrap();
            (
                code.split('<').next().unwrap().to_owned(),
                format!("q{class}"),
            )
        })
        .collect();
    (shaded, rows)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_map_shades_each_region_by_its_class_and_tables_the_same_figures() {
    let s = TestServer::start().await;
    let r = s.client.get("/explore/maps/tgs00010").await;
    assert_eq!(r.status, 200);
    let page = html(&r);
    // NUTS 2 by default, at the latest period that covers 80 % of the regions with the series.
    assert!(page.contains("<strong aria-current=\"page\">NUTS 2</strong>"));
    let coverage = page.split("<p>").find(|p| p.contains(" of the ")).unwrap();
    let numbers: Vec<usize> = coverage
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .take(2)
        .collect();
    assert!(numbers[0] * 10 >= numbers[1] * 8, "{coverage}");

    let (shaded, rows) = map_classes(&page);
    assert!(shaded.len() > 200, "{}", shaded.len());
    let shaded_with_value: Vec<(String, String)> = shaded
        .iter()
        .filter(|(_, class)| class != "missing")
        .cloned()
        .collect();
    let unmapped = page
        .split("data-testid=\"unmapped\">")
        .nth(1)
        .map_or(String::new(), |u| {
            u.split("</ul>").next().unwrap().to_owned()
        });
    let rows_on_map: Vec<(String, String)> = rows
        .iter()
        .filter(|(code, _)| !unmapped.contains(&format!(">{code}<")))
        .cloned()
        .collect();
    assert_eq!(shaded_with_value, rows_on_map);
    // Five classes, each used, named in the legend with "no data".
    for class in ["q1", "q2", "q3", "q4", "q5"] {
        assert!(shaded.iter().any(|(_, c)| c == class), "{class}");
    }
    let legend = page.split("data-testid=\"legend\"").nth(1).unwrap();
    assert_eq!(
        legend
            .split("</ul>")
            .next()
            .unwrap()
            .matches("<li>")
            .count(),
        6
    );
    assert!(page.contains("© EuroGeographics for the administrative boundaries"));

    // The values are their rows'.
    for (href, value) in linked_values(&page).iter().step_by(40) {
        let citation = html(&s.client.get(href).await);
        assert_eq!(
            attributes(&citation, "data-value"),
            [value.as_str()],
            "{href}"
        );
    }
    // A region's link opens its page.
    let (code, _) = &shaded_with_value[0];
    assert!(page.contains(&format!(
        "href=\"/explore/regions/{code}\" data-code=\"{code}\""
    )));

    // Another level and period; bad ones are refused on a page.
    let r = s
        .client
        .get("/explore/maps/demo_r_d3dens?level=3&period=2020")
        .await;
    assert_eq!(r.status, 200);
    let nuts3 = html(&r);
    assert!(map_classes(&nuts3).0.len() > 1000);
    assert!(nuts3.contains("<option value=\"2020\" selected>"));
    // A period without values says so, and names the latest that has some.
    let empty = html(&s.client.get("/explore/maps/tgs00010?period=1990").await);
    assert!(empty.contains("data-code=\"no_values\""), "{empty}");
    assert!(empty.contains("the latest period with values is 2024"));
    assert_eq!(
        s.client.get("/explore/maps/tgs00010?level=7").await.status,
        400
    );
    assert_eq!(s.client.get("/explore/maps/no_such_data").await.status, 404);
    s.stop().await.unwrap();
}

/// The NUTS 3 map of Europe stays within 600 KB as browsers receive it (gzip).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_nuts_3_map_of_europe_is_at_most_600_kb_compressed() {
    let s = TestServer::start().await;
    let r = s
        .client
        .get_with(
            "/explore/maps/demo_r_d3dens?level=3",
            &[("accept-encoding", "gzip")],
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-encoding"), Some("gzip"));
    assert!(r.body.len() <= 600 * 1024, "{} bytes", r.body.len());
    s.stop().await.unwrap();
}

/// The matrix page is an account's (like the matrix): a signed-in browser reads it with its
/// cookie; a cell's link shows the scatter plot of exactly the cell's n pairs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_matrix_page_maps_r_and_a_cell_shows_its_pairs() {
    let s = TestServer::start().await;
    let who = s.account("analyst@example.org", Tier::Professional);
    let browser = Browser::sign_in(&s, &who).await;
    let query = "nuts_code=DE&level=2&datasets=tgs00010,tgs00007,tgs00109";
    let path = format!("/explore/matrix?{query}");

    let anonymous = s.client.get(&path).await;
    assert_eq!(anonymous.status, 401);
    assert!(html(&anonymous).contains("href=\"/account/login\""));

    let cookie = [("cookie", browser.cookie.as_str())];
    let r = s.client.get_with(&path, &cookie).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let page = html(&r);
    let answer = s
        .call(
            "GET",
            &format!("/intelligence/correlations/matrix?{query}"),
            &[who.key_header()],
            b"",
        )
        .await
        .json();
    let cells = answer["data"]["cells"].as_array().unwrap();
    assert_eq!(attributes(&page, "data-cells"), [cells.len().to_string()]);
    assert!(page.contains("n="));

    let cell = cells
        .iter()
        .find(|c| c["n"].as_u64().unwrap() >= 3)
        .expect("a cell with pairs");
    let (x, y) = (cell["x"].as_str().unwrap(), cell["y"].as_str().unwrap());
    let link = page
        .split("<a class=\"cell ")
        .find(|a| a.contains(&format!("data-x=\"{x}\" data-y=\"{y}\"")))
        .unwrap()
        .split("href=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&");
    assert!(link.contains(&format!("x={x}&y={y}")), "{link}");
    let chosen = html(&s.client.get_with(&link, &cookie).await);
    // The chosen cell's CSV is its pairs.
    let csv_link = format!("x={x}&amp;y={y}&amp;format=csv");
    assert!(chosen.contains(&csv_link), "{chosen}");
    assert_eq!(
        attributes(&chosen, "data-points"),
        [cell["n"].as_u64().unwrap().to_string()]
    );
    for (href, value) in linked_values(&chosen).iter().take(6) {
        let citation = html(&s.client.get_with(href, &cookie).await);
        assert_eq!(
            attributes(&citation, "data-value"),
            [value.as_str()],
            "{href}"
        );
    }
    let r = s
        .client
        .get_with(&format!("{path}&x={x}&y=nonsense"), &cookie)
        .await;
    assert_eq!(r.status, 400);
    s.stop().await.unwrap();
}

/// A briefing's page links every number of its text to its claim, and each claim to its rows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_briefing_page_links_each_number_to_its_claim_and_rows() {
    let s = TestServer::start().await;
    let owner = s.account("inst@example.org", Tier::Institutional);
    let created = s
        .call(
            "POST",
            "/briefings",
            &[owner.key_header(), ("content-type", "application/json")],
            json!({"region_nuts_code": "DE21", "briefing_type": "peer_comparison"})
                .to_string()
                .as_bytes(),
        )
        .await;
    assert_eq!(created.status, 201);
    let id = created.json()["data"]["id"].as_str().unwrap().to_owned();
    let path = format!("/explore/briefings/{id}");
    let browser = Browser::sign_in(&s, &owner).await;
    let page = html(
        &s.client
            .get_with(&path, &[("cookie", browser.cookie.as_str())])
            .await,
    );
    let claims = attributes(&page, "data-claim");
    assert!(claims.len() >= 3, "{page}");
    for claim in &claims {
        assert!(
            page.contains(&format!("<li id=\"claim-{claim}\"")),
            "{claim}"
        );
    }
    assert!(page.contains("data-kind=\"derived\""));
    assert!(page.contains("class=\"formula\""));
    for (href, value) in linked_values(&page).iter().take(8) {
        let citation = html(
            &s.client
                .get_with(href, &[("cookie", browser.cookie.as_str())])
                .await,
        );
        assert_eq!(
            attributes(&citation, "data-value"),
            [value.as_str()],
            "{href}"
        );
    }

    // Another institutional account finds no such briefing; a professional one may not read
    // briefings at all.
    for (email, tier, status) in [
        ("other@example.org", Tier::Institutional, 404),
        ("pro@example.org", Tier::Professional, 403),
    ] {
        let who = s.account(email, tier);
        let browser = Browser::sign_in(&s, &who).await;
        let r = s
            .client
            .get_with(&path, &[("cookie", browser.cookie.as_str())])
            .await;
        assert_eq!(r.status, status, "{email}");
        assert!(!html(&r).contains("claim-"));
    }
    s.stop().await.unwrap();
}

/// The explorer as a person uses it, in headless Chromium (tests/it/browser_py/explorer.py):
/// search and open a region; its charts, one point per period with a value, and its values each
/// leading to a citation page with the same value; the map's regions filled by class, named on
/// focus and pointing, a click opening the region; the compare, matrix (a cell's scatter plot
/// with its n points) and briefing pages; the citation page; no sideways scrolling on a narrow
/// screen; the owner's private dataset gone once signed out; another account's browser seeing its
/// own private dataset (on the region page and as a map) and nothing of the owner's (dataset,
/// map, briefing); no console errors throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_works_in_chromium() {
    let s = TestServer::start().await;
    let who = s.account("explorer@example.org", Tier::Institutional);
    let private_title = "Harbour throughput of the explorer";
    let definition = json!({"code": "my_harbour", "title": private_title, "unit": "T"});
    s.private_dataset(
        &who,
        definition,
        "nuts_code,period,value\nDE21,2022,4.5\nDE21,2023,5.5\n",
    )
    .await;
    let created = s
        .call(
            "POST",
            "/briefings",
            &[who.key_header(), ("content-type", "application/json")],
            json!({"region_nuts_code": "DE21", "briefing_type": "peer_comparison"})
                .to_string()
                .as_bytes(),
        )
        .await;
    assert_eq!(created.status, 201);
    let other = s.account("other-explorer@example.org", Tier::Institutional);
    let other_title = "Vineyards of another account";
    s.private_dataset(
        &other,
        json!({"code": "my_vineyards", "title": other_title, "unit": "HA"}),
        "nuts_code,period,value\nDE21,2023,12\nDE22,2023,7\n",
    )
    .await;
    let shots = crate::browser::screenshots();
    let given = json!({
        "origin": format!("http://127.0.0.1:{}", s.addr.port()),
        "base_path": crate::support::BASE,
        "email": who.email,
        "password": who.password,
        "briefing_id": created.json()["data"]["id"],
        "private_title": private_title,
        "private_code": "my_harbour",
        "screenshots": shots,
        "other": {
            "email": other.email,
            "password": other.password,
            "private_title": other_title,
            "private_code": "my_vineyards",
        },
    });
    let file = s.dir.path().join("explorer-test.json");
    std::fs::write(&file, given.to_string()).unwrap();
    let out = crate::support::run_script(
        "TEST_PYTHON",
        "tests/it/browser_py/explorer.py",
        file.clone(),
    )
    .await;
    assert!(
        out.status.success(),
        "{}\n{}\n(the page at the failure: {}/failure.png)",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        shots.display()
    );
    s.stop().await.unwrap();
}

/// Each view links its figures as CSV, which holds the same citations the page links.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_view_gives_its_figures_as_csv() {
    let s = TestServer::start().await;
    for path in [
        "/explore/regions/DE21",
        "/explore/maps/tgs00010",
        "/explore/compare?regions=DE21,FR10&dataset=tgs00010",
        "/explore?q=bayern",
    ] {
        let page = html(&s.client.get(path).await);
        let csv_href = page
            .split("data-testid=\"csv-link\"")
            .next()
            .unwrap()
            .rsplit("href=\"")
            .next()
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .replace("&amp;", "&");
        let r = s.client.get(&csv_href).await;
        assert_eq!(r.status, 200, "{csv_href}");
        assert_eq!(r.header("content-type"), Some("text/csv; charset=utf-8"));
        let mut reader = csv::Reader::from_reader(&r.body[..]);
        let header = reader.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert!(!rows.is_empty(), "{csv_href}");
        if let Some(at) = header.iter().position(|h| h == "citation") {
            for (href, _) in linked_values(&page) {
                let id = href.trim_start_matches("/explore/citations/");
                assert!(
                    rows.iter().any(|row| row.get(at) == Some(id)),
                    "{path}: {id} is not in its CSV"
                );
            }
        }
    }
    let r = s.client.get("/explore/regions/DE21?format=xml").await;
    assert_eq!(r.status, 400);
    s.stop().await.unwrap();
}
