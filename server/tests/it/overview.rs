//! The overview's answers on the demo estate: `/api/overview` agrees with the engines' own
//! answers and the attention list while carrying a fraction of their bytes, and
//! `/api/recent_events` filters by engine and heartbeats on the server; the page renders each
//! of its parts once.

use crate::common::{app_with, body_text, TestApp};
use axum::http::StatusCode;
use serde_json::Value;

const DEMO: &str = include_str!("../../../scenarios/demo.toml");

async fn answer(app: &TestApp, path: &str, form: &str, cookie: &str) -> String {
    let response = app.post_form(path, form, Some(cookie)).await;
    assert_eq!(response.status(), StatusCode::OK, "{path} {form}");
    body_text(response).await
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("JSON answer")
}

#[tokio::test]
async fn the_overview_answer_agrees_with_each_engine_and_is_a_fraction_of_their_size() {
    let app = app_with(DEMO).await;
    assert_eq!(
        app.post_form("/api/overview", "", None).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    for _ in 0..30 {
        app.post_form("/api/step_clock", "", Some(&operator)).await;
    }

    let text = answer(&app, "/api/overview", "", &viewer).await;
    let overview = json(&text);
    let attention = answer(&app, "/api/attention", "", &viewer).await;
    assert_eq!(overview["attention"], json(&attention));

    let count = |v: &Value| v.as_u64().expect("a count");
    let tiles = |v: &Value| -> Vec<(String, u64)> {
        v.as_array()
            .expect("tiles")
            .iter()
            .map(|t| {
                (
                    t["key"].as_str().expect("key").to_owned(),
                    count(&t["count"]),
                )
            })
            .collect()
    };
    let list = |v: &Value| v.as_array().expect("a list").clone();

    // Resource locations: one tile per HA state, counting what the engine's list says.
    let rls = answer(&app, "/api/lhc_overview", "", &viewer).await;
    let rl_list = list(&json(&rls));
    let by_state = tiles(&overview["lhc"]["by_state"]);
    assert_eq!(by_state.len(), 5);
    for (key, n) in &by_state {
        let want = rl_list.iter().filter(|rl| rl["ha_state"] == *key).count() as u64;
        assert_eq!(*n, want, "resource locations in {key}");
    }
    assert_eq!(count(&overview["lhc"]["total"]), rl_list.len() as u64);

    // Load management: the farm's totals, and every server in one load tile.
    let farm = answer(&app, "/api/lms_farm", "", &viewer).await;
    let farm_json = json(&farm);
    for key in ["servers_up", "servers_total", "placements", "rejected"] {
        assert_eq!(overview["lms"][key], farm_json["farm"][key], "lms {key}");
    }
    assert_eq!(
        count(&overview["lms"]["zones_total"]),
        list(&farm_json["farm"]["zones"]).len() as u64
    );
    let by_load = tiles(&overview["lms"]["by_load"]);
    assert_eq!(
        by_load.iter().map(|(_, n)| n).sum::<u64>(),
        count(&farm_json["farm"]["servers_total"])
    );
    let busiest = list(&overview["lms"]["busiest"]);
    assert!(!busiest.is_empty() && busiest.len() <= 10);
    let loads: Vec<u64> = busiest.iter().map(|s| count(&s["load"])).collect();
    assert!(
        loads.windows(2).all(|w| w[0] >= w[1]),
        "most loaded first: {loads:?}"
    );

    // GSLB: every site in one MEP status tile.
    let topology = answer(&app, "/api/gslb_topology", "", &viewer).await;
    let topology_json = json(&topology);
    let sites = list(&topology_json["topology"]["sites"]);
    for (key, n) in tiles(&overview["gslb"]["by_status"]) {
        let want = sites
            .iter()
            .filter(|s| s["mep_status"] == key.to_uppercase())
            .count() as u64;
        assert_eq!(n, want, "sites {key}");
    }
    assert_eq!(
        overview["gslb"]["parents_up"],
        topology_json["topology"]["parents_up"]
    );

    // Autoscale: every cluster in one state tile.
    let groups = answer(&app, "/api/autoscale_groups", "", &viewer).await;
    let group_list = list(&json(&groups)["groups"]);
    assert_eq!(
        count(&overview["autoscale"]["groups_total"]),
        group_list.len() as u64
    );
    let clusters: usize = group_list.iter().map(|g| list(&g["zones"]).len()).sum();
    assert_eq!(
        tiles(&overview["autoscale"]["by_state"])
            .iter()
            .map(|(_, n)| n)
            .sum::<u64>(),
        clusters as u64
    );

    let engines: Vec<&str> = overview["activity"]
        .as_array()
        .expect("activity")
        .iter()
        .map(|a| a["engine"].as_str().expect("engine"))
        .collect();
    assert_eq!(engines, ["core", "lhc", "lms", "gslb", "autoscale"]);

    // The cards' answer is what they print, not the engines' whole views.
    let separate = attention.len() + rls.len() + farm.len() + topology.len() + groups.len();
    assert!(
        text.len() * 3 < separate,
        "overview {} bytes against {separate} for the separate answers",
        text.len()
    );
}

#[tokio::test]
async fn recent_events_filter_by_engine_and_heartbeats_on_the_server() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    for _ in 0..30 {
        app.post_form("/api/step_clock", "", Some(&operator)).await;
    }
    app.stored().await;
    let rows = |text: String| -> Vec<Value> {
        serde_json::from_str::<Vec<Value>>(&text).expect("a JSON list of events")
    };
    let all = rows(answer(&app, "/api/recent_events", "limit=200", &viewer).await);
    assert!(
        all.iter()
            .any(|e| e["kind"].as_str().is_some_and(|k| k.contains("heartbeat"))),
        "the demo's first minutes have heartbeats: {all:?}"
    );

    let quiet = rows(
        answer(
            &app,
            "/api/recent_events",
            "limit=200&heartbeats=false",
            &viewer,
        )
        .await,
    );
    assert!(!quiet.is_empty());
    assert!(quiet
        .iter()
        .all(|e| !e["kind"].as_str().unwrap_or("").contains("heartbeat")));
    assert_eq!(
        quiet.len(),
        all.iter()
            .filter(|e| !e["kind"].as_str().unwrap_or("").contains("heartbeat"))
            .count()
    );

    // One engine's rows: every such row among the newest, up to the limit.
    let engine = quiet[0]["engine"].as_str().expect("engine").to_owned();
    let of_engine = rows(
        answer(
            &app,
            "/api/recent_events",
            &format!("limit=3&engine={engine}&heartbeats=false"),
            &viewer,
        )
        .await,
    );
    let expected: Vec<&Value> = quiet
        .iter()
        .filter(|e| e["engine"] == *engine)
        .take(3)
        .collect();
    assert_eq!(of_engine.iter().collect::<Vec<_>>(), expected, "{engine}");

    let bad = app
        .post_form("/api/recent_events", "limit=5&engine=citrix", Some(&viewer))
        .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let message = body_text(bad).await;
    assert!(
        message.contains("engine") && message.contains("lhc"),
        "{message}"
    );
}

/// The full-scale estate (1 M VDAs, 10,000 servers, 1,056 GSLB sites, 150 autoscale
/// clusters): the overview answer counts everything and lists at most ten items per card,
/// so it stays as small as the demo's; the farm and the dynamic store answer a page.
#[tokio::test]
async fn at_full_scale_the_overview_answer_counts_everything_in_a_few_kilobytes() {
    use server::generate::{scenario, Size};
    let app = app_with(&scenario(Size::Full)).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    for _ in 0..3 {
        app.post_form("/api/step_clock", "", Some(&operator)).await;
    }
    let text = answer(&app, "/api/overview", "", &viewer).await;
    assert!(
        text.len() < 32 * 1024,
        "the overview answer is {} bytes at full scale",
        text.len()
    );
    let overview = json(&text);
    let sum = |tiles: &Value| -> u64 {
        tiles
            .as_array()
            .expect("tiles")
            .iter()
            .map(|t| t["count"].as_u64().expect("count"))
            .sum()
    };
    assert_eq!(sum(&overview["lhc"]["by_state"]), 100);
    let vdas: u64 = ["on_cloud", "on_secondary", "unregistered"]
        .iter()
        .map(|k| overview["lhc"][k].as_u64().expect("a count"))
        .sum();
    assert_eq!(vdas, 1_000_000);
    assert_eq!(sum(&overview["lms"]["by_load"]), 10_000);
    assert_eq!(sum(&overview["gslb"]["by_status"]), 32 + 1024);
    assert_eq!(sum(&overview["autoscale"]["by_state"]), 150);
    for list in [
        &overview["attention"],
        &overview["lhc"]["worst"],
        &overview["lms"]["busiest"],
        &overview["gslb"]["worst"],
        &overview["autoscale"]["worst"],
    ] {
        assert!(list.as_array().expect("a list").len() <= 10, "{list}");
    }

    // The farm page's zones name five servers of their ranking of a hundred, and count the
    // rest; the dynamic store's load table is one page of 10,000 rows.
    let farm = json(&answer(&app, "/api/lms_farm", "", &viewer).await);
    let zones = farm["farm"]["zones"].as_array().expect("zones");
    assert_eq!(zones.len(), 100);
    let more = farm["ranking_more"].as_array().expect("ranking_more");
    assert_eq!(more.len(), 100);
    for (zone, more) in zones.iter().zip(more) {
        let ranking = zone["ranking"].as_array().expect("ranking");
        assert_eq!(ranking.len(), 5, "{zone}");
        assert!(ranking
            .iter()
            .all(|h| h.as_str().is_some_and(|h| h.starts_with("XA-"))));
        assert_eq!(more.as_u64(), Some(95), "{zone}");
    }

    // The evaluators answer names at most twelve servers per evaluator and counts them all,
    // and offers a hundred of the farm's hosts: a few kilobytes, not the 10,000 names.
    let text = answer(&app, "/api/lms_evaluators", "", &viewer).await;
    assert!(
        text.len() < 16 * 1024,
        "the evaluators answer is {} bytes",
        text.len()
    );
    let evaluators = json(&text);
    assert_eq!(evaluators["server_count"], 10_000);
    assert_eq!(evaluators["servers"].as_array().map(Vec::len), Some(100));
    let rows = evaluators["evaluators"].as_array().expect("evaluators");
    let counted: u64 = rows
        .iter()
        .map(|r| r["server_count"].as_u64().expect("a count"))
        .sum();
    assert_eq!(counted, 10_000);
    assert!(rows.iter().all(|r| r["evaluator"]["servers"]
        .as_array()
        .is_some_and(|s| s.len() <= 12)));

    // The servers table: searched and filtered by load band on the server.
    let servers = json(
        &answer(
            &app,
            "/api/lms_servers",
            "q=xa-042-&sort=load&desc=true",
            &viewer,
        )
        .await,
    );
    assert_eq!(servers["page"]["total"], 100);
    let mut banded = 0;
    for band in ["not_up", "band_0", "band_1", "band_2", "band_3", "band_4"] {
        let page = json(&answer(&app, "/api/lms_servers", &format!("band={band}"), &viewer).await);
        banded += page["page"]["total"].as_u64().expect("total");
    }
    assert_eq!(banded, 10_000, "every server is in one load band");
    let store = json(&answer(&app, "/api/lms_store", "q=XA-042-", &viewer).await);
    assert_eq!(store["load_table_matching"], 100);
    assert_eq!(store["load_table"].as_array().map(Vec::len), Some(50));

    // The GSLB page: 1,056 sites, a graph of at most 2,000 SVG elements with the children of
    // each parent collapsed into a badge, and a page of the sites table.
    let gslb = app.get("/gslb", Some(&viewer)).await;
    assert_eq!(gslb.status(), StatusCode::OK);
    let html = body_text(gslb).await;
    let svg = html
        .find("class=\"topology\"")
        .and_then(|at| html[..at].rfind("<svg"))
        .and_then(|start| {
            let rest = &html[start..];
            rest.find("</svg>").map(|end| &rest[..end])
        })
        .expect("the topology graph");
    let elements = svg.matches('<').count() - svg.matches("</").count();
    assert!(elements <= 2000, "{elements} SVG elements");
    assert_eq!(svg.matches("data-bundle=").count(), 32);
    assert!(html.contains("50 of 1056 sites") || html.contains("1056 sites"));
    assert_eq!(html.matches("<tr data-site=").count(), 50);

    // Every page rendered so far stays under the size a browser loads quickly.
    for path in ["/", "/lhc", "/lms", "/lms/store", "/gslb", "/autoscale"] {
        let page = app.get(path, Some(&viewer)).await;
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        let bytes = body_text(page).await.len();
        assert!(bytes <= 300 * 1024, "{path}: {bytes} bytes of HTML");
    }
}

/// Each part of the overview page is rendered once, whichever boundary it sits under, and the
/// controls that act are there for an operator only.
#[tokio::test]
async fn the_overview_page_renders_each_part_once_and_controls_for_operators_only() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    let once = [
        r#"id="header-clock""#,
        r#"id="header-alerts""#,
        r#"id="current-user""#,
        r#"id="attention""#,
        r#"id="clock-time""#,
        r#"id="engine-counts""#,
        r#"id="lhc-tiles""#,
        r#"id="lms-card""#,
        r#"id="gslb-card""#,
        r#"id="autoscale-card""#,
        r#"id="live-feed""#,
    ];
    for (cookie, user, operates) in [(&viewer, "viewer", false), (&operator, "operator", true)] {
        let html = app.page_html("/", Some(cookie)).await;
        for part in once {
            assert_eq!(html.matches(part).count(), 1, "{part} for the {user}");
        }
        assert!(
            html.contains(&format!(r#"class="username">{user}<"#)),
            "the user box names the {user}"
        );
        for control in [
            r#"<select id="header-speed""#,
            r#"id="clock-controls""#,
            r#"id="note-form""#,
        ] {
            assert_eq!(html.contains(control), operates, "{control} for the {user}");
        }
        // The cards' titles, each linking to its engine's page.
        for (href, title) in [
            ("/lhc", "Resource locations"),
            ("/lms", "Load management"),
            ("/gslb", "GSLB"),
            ("/autoscale", "Autoscale"),
        ] {
            assert!(
                html.contains(&format!(
                    r#"<h2 class="tile-head"><a href="{href}">{title}</a>"#
                )),
                "{title} card for the {user}"
            );
        }
    }
}

/// The feed's rows read as words; each row's disclosure carries the event's key
/// (`data-event="<t_ms>.<id>"`), and its JSON is read by that key when it opens: the page holds
/// no JSON at all. The key reads the event's JSON for a viewer; a key of no event is 404, a
/// key out of range 422 naming its field, and no session 401.
#[tokio::test]
async fn the_overview_feed_carries_keys_and_its_json_is_read_by_key() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let feed = |html: &str| {
        let start = html.find(r#"id="live-feed""#).unwrap_or(html.len());
        let end = html[start..]
            .find("</table>")
            .map_or(html.len(), |e| start + e);
        html[start..end].to_owned()
    };
    // The demo's first events are stored a moment after the start.
    let mut part = String::new();
    for _ in 0..200 {
        part = feed(&app.page_html("/", Some(&viewer)).await);
        if part.contains("data-event=") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let keys: Vec<&str> = part
        .split(r#"data-event=""#)
        .skip(1)
        .filter_map(|piece| piece.split_once('"').map(|(key, _)| key))
        .collect();
    assert!(!keys.is_empty(), "the feed shows stored events");
    assert_eq!(
        part.matches("<details ").count(),
        keys.len(),
        "every row's disclosure has its event's key"
    );
    assert_eq!(
        part.matches("></pre>").count(),
        keys.len(),
        "every row's disclosure is empty"
    );
    assert!(
        !part.contains("data-json") && !part.contains("&quot;") && !part.contains(r#"{""#),
        "no JSON in the feed"
    );

    let json = |form: String, cookie: Option<String>| {
        let app = &app;
        async move {
            let response = app
                .post_form("/api/event_json", &form, cookie.as_deref())
                .await;
            let status = response.status().as_u16();
            (status, body_text(response).await)
        }
    };
    for key in &keys {
        let Some((t_ms, id)) = key.split_once('.') else {
            panic!("a key is <t_ms>.<id>: {key}")
        };
        let (status, body) = json(format!("t_ms={t_ms}&id={id}"), Some(viewer.clone())).await;
        assert_eq!(status, 200, "{key}: {body}");
        // The answer is the stored text as a JSON string, and that text is an object.
        let text: String = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
        let details: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert!(details.is_object(), "{key}: {text}");
    }
    let (t_ms, id) = keys[0].split_once('.').unwrap_or_default();
    let cases = [
        (format!("t_ms={t_ms}&id={id}&run=999"), 404, None),
        (format!("t_ms={t_ms}1&id={id}"), 404, None),
        (format!("t_ms=-1&id={id}"), 422, Some("t_ms")),
        (format!("t_ms={t_ms}&id=-3"), 422, Some("id")),
        (format!("t_ms={t_ms}&id={id}&run=0"), 422, Some("run")),
        (format!("t_ms=soon&id={id}"), 400, None),
    ];
    for (form, want, field) in cases {
        let (status, body) = json(form.clone(), Some(viewer.clone())).await;
        assert_eq!(status, want, "{form}: {body}");
        if let Some(field) = field {
            assert!(body.contains(field), "{form}: {body} names {field}");
        }
    }
    let (status, _) = json(format!("t_ms={t_ms}&id={id}"), None).await;
    assert_eq!(status, 401, "signed out");
}
