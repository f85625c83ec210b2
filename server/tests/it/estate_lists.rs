//! The estate-wide lists of the entities that pages otherwise show per parent: Cloud
//! Connectors (`/api/lhc_connectors`), MEP links (`/api/gslb_links`) and autoscale nodes
//! (`/api/autoscale_nodes`) on the demo estate: searched, filtered, sorted and paged on the
//! server, their refusals named, and each page rendered from its URL.

use crate::common::{app_with, body_text, TestApp};
use axum::http::StatusCode;
use serde_json::Value;

const DEMO: &str = include_str!("../../../scenarios/demo.toml");

/// The answer of list `endpoint` to `form`, as JSON (or the refusal's text as a string).
async fn list(app: &TestApp, endpoint: &str, form: &str, cookie: &str) -> (StatusCode, Value) {
    let response = app
        .post_form(&format!("/api/{endpoint}"), form, Some(cookie))
        .await;
    let status = response.status();
    let text = body_text(response).await;
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

/// The field `pointer` (a JSON pointer) of each row of a page.
fn column(page: &Value, pointer: &str) -> Vec<String> {
    page["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows in {page}"))
        .iter()
        .map(|row| {
            row.pointer(pointer)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        })
        .collect()
}

/// Checks each `(form, rows expected)` of `endpoint`; `total` rows in all.
async fn check_cases(
    app: &TestApp,
    cookie: &str,
    endpoint: &str,
    pointer: &str,
    total: u64,
    cases: &[(&str, Vec<&str>)],
) {
    for (form, want) in cases {
        let (status, page) = list(app, endpoint, form, cookie).await;
        assert_eq!(status, StatusCode::OK, "{endpoint} {form}: {page}");
        assert_eq!(column(&page, pointer), *want, "{endpoint} {form}");
        assert_eq!(page["total"], total, "{endpoint} {form}");
        assert_eq!(page["matching"], want.len(), "{endpoint} {form}");
    }
}

/// Checks that each `(form, field)` of `endpoint` is refused with 422, naming the field.
async fn check_refusals(app: &TestApp, cookie: &str, endpoint: &str, cases: &[(&str, &str)]) {
    for (form, field) in cases {
        let (status, answer) = list(app, endpoint, form, cookie).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{endpoint} {form}"
        );
        assert!(
            answer.to_string().contains(field),
            "{endpoint} {form}: {answer}"
        );
    }
}

/// The page at `path` as the server renders it for `cookie`.
async fn page(app: &TestApp, path: &str, cookie: &str) -> String {
    let response = app.get(path, Some(cookie)).await;
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    body_text(response).await
}

#[tokio::test]
async fn the_cloud_connectors_of_every_location_are_one_list() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    let anonymous = app.post_form("/api/lhc_connectors", "", None).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let forced = app
        .post_form(
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-paris",
            Some(&operator),
        )
        .await;
    assert_eq!(forced.status(), StatusCode::OK);
    app.post_form("/api/step_clock", "", Some(&operator)).await;

    let (p1, p2, p3) = (
        "cc01.paris.example.com",
        "cc02.paris.example.com",
        "cc03.paris.example.com",
    );
    let (t1, t2) = ("cc01.tokyo.example.com", "cc02.tokyo.example.com");
    check_cases(
        &app,
        &viewer,
        "lhc_connectors",
        "/fqdn",
        5,
        &[
            ("", vec![p1, p2, p3, t1, t2]),
            ("q=TOKYO", vec![t1, t2]),
            ("q=rl-paris", vec![p1, p2, p3]),
            // Paris's StoreFront-listed connectors saw the forced outage; cc03 and Tokyo's
            // are not in StoreFront: they perform no HA detection.
            ("state=pending_ha", vec![p1, p2]),
            ("state=no_detection", vec![p3, t1, t2]),
            ("state=working_normally", vec![]),
            ("role=elected", vec![p1, t1]),
            ("power=down", vec![]),
            ("sort=fqdn", vec![p1, t1, p2, t2, p3]),
            ("sort=fqdn&desc=true", vec![p3, t2, p2, t1, p1]),
            ("sort=state&q=paris", vec![p1, p2, p3]),
        ],
    )
    .await;
    let (_, beyond) = list(&app, "lhc_connectors", "page=2", &viewer).await;
    assert_eq!(
        (beyond["matching"].as_u64(), beyond["page"].as_u64()),
        (Some(5), Some(2))
    );
    assert_eq!(column(&beyond, "/fqdn"), Vec::<String>::new());
    check_refusals(
        &app,
        &viewer,
        "lhc_connectors",
        &[
            ("state=outage", "state"),
            ("power=off", "power"),
            ("role=leader", "role"),
            ("sort=health", "sort"),
            ("page=0", "page"),
        ],
    )
    .await;

    let html = page(&app, "/lhc/connectors?q=tokyo", &viewer).await;
    assert!(html.contains(&format!("data-connector=\"{t1}\"")), "{html}");
    assert!(!html.contains(&format!("data-connector=\"{p1}\"")));
    assert!(html.contains("2 of 5 Cloud Connectors match"));
    // The section's tabs lead to it from the resource locations page.
    assert!(page(&app, "/lhc", &viewer)
        .await
        .contains("href=\"/lhc/connectors\""));
}

#[tokio::test]
async fn the_mep_links_of_the_topology_are_one_list() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let ends = |a: &'static str, b: &'static str| (a, b);
    let mesh = [
        ends("SiteP1", "SiteP2"),
        ends("SiteP1", "SiteP3"),
        ends("SiteP2", "SiteP3"),
    ];
    let (status, all) = list(&app, "gslb_links", "", &viewer).await;
    assert_eq!(status, StatusCode::OK, "{all}");
    let a = column(&all, "/a");
    let b = column(&all, "/b");
    assert_eq!(
        all["total"], 7,
        "three parents' mesh and four children: {all}"
    );
    for (i, (x, y)) in mesh.iter().enumerate() {
        assert_eq!((a[i].as_str(), b[i].as_str()), (*x, *y));
    }
    check_cases(
        &app,
        &viewer,
        "gslb_links",
        "/a",
        7,
        &[
            ("kind=parent_parent", vec!["SiteP1", "SiteP1", "SiteP2"]),
            (
                "kind=parent_parent&sort=site&desc=true",
                vec!["SiteP2", "SiteP1", "SiteP1"],
            ),
            ("q=nowhere", vec![]),
            ("status=down", vec![]),
        ],
    )
    .await;
    let (_, child) = list(&app, "gslb_links", "q=child_site4", &viewer).await;
    assert_eq!(column(&child, "/b"), ["Child_Site4"]);
    assert_eq!(column(&child, "/kind"), ["parent_child"]);
    let (_, by_peer) = list(&app, "gslb_links", "sort=peer&desc=true", &viewer).await;
    let peers = column(&by_peer, "/b");
    let mut sorted = peers.clone();
    sorted.sort_by(|x, y| y.cmp(x));
    assert_eq!(peers, sorted);
    check_refusals(
        &app,
        &viewer,
        "gslb_links",
        &[
            ("kind=mesh", "kind"),
            ("status=DOWN", "status"),
            ("sort=latency", "sort"),
        ],
    )
    .await;

    let html = page(&app, "/gslb/links?kind=parent_parent", &viewer).await;
    assert!(html.contains("data-link=\"SiteP1-SiteP2\""), "{html}");
    assert!(!html.contains("data-link=\"SiteP1-Child_Site1\""));
    assert!(html.contains("3 of 7 MEP links match"));
    assert!(page(&app, "/gslb", &viewer)
        .await
        .contains("href=\"/gslb/links\""));
}

#[tokio::test]
async fn the_nodes_of_every_autoscale_group_are_one_list() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let (status, all) = list(&app, "autoscale_nodes", "", &viewer).await;
    assert_eq!(status, StatusCode::OK, "{all}");
    // asg_arn: one zone of at least one node; asg_web: two zones of at least two each.
    let groups = column(&all, "/group");
    let total = all["total"].as_u64().expect("total");
    assert!(total >= 5, "{all}");
    assert_eq!(groups.first().map(String::as_str), Some("asg_arn"));
    assert!(groups.is_sorted(), "{groups:?}");

    let (_, nlb) = list(&app, "autoscale_nodes", "mode=nlb", &viewer).await;
    let nlb_groups = column(&nlb, "/group");
    assert!(nlb_groups.len() >= 4 && nlb_groups.iter().all(|g| g == "asg_web"));
    let (_, arn) = list(&app, "autoscale_nodes", "q=ASG_ARN", &viewer).await;
    assert_eq!(
        arn["matching"].as_u64(),
        Some(total - nlb_groups.len() as u64)
    );
    let (_, in_service) = list(&app, "autoscale_nodes", "state=in_service", &viewer).await;
    assert!(column(&in_service, "/node/state")
        .iter()
        .all(|s| s == "in_service"));
    let (_, by_id) = list(&app, "autoscale_nodes", "sort=node&desc=true", &viewer).await;
    let ids = column(&by_id, "/node/id");
    let mut sorted = ids.clone();
    sorted.sort_by(|x, y| y.cmp(x));
    assert_eq!(ids, sorted);
    check_refusals(
        &app,
        &viewer,
        "autoscale_nodes",
        &[
            ("state=gone", "state"),
            ("mode=anycast", "mode"),
            ("sort=ip", "sort"),
            ("page=0", "page"),
        ],
    )
    .await;

    let html = page(&app, "/autoscale/nodes?mode=nlb", &viewer).await;
    assert!(html.contains("data-node=\"asg_web-"), "{html}");
    assert!(!html.contains("data-node=\"asg_arn-"));
    assert!(html.contains(&format!("{} of {total} nodes match", nlb_groups.len())));
    assert!(page(&app, "/autoscale", &viewer)
        .await
        .contains("href=\"/autoscale/nodes\""));
    // A group's own page is still reached under /autoscale/.
    assert!(page(&app, "/autoscale/asg_web", &viewer)
        .await
        .contains("asg_web"));
}
