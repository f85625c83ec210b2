//! The lists' search, filter, sort and paging, done on the server: `/api/lhc_locations` on the
//! demo estate during a forced outage, its refusals, and the page at `/lhc?state=…`.

use crate::common::{app_with, body_text, TestApp};
use axum::http::StatusCode;
use serde_json::Value;

const DEMO: &str = include_str!("../../../scenarios/demo.toml");

async fn locations(app: &TestApp, form: &str, cookie: &str) -> Value {
    let response = app
        .post_form("/api/lhc_locations", form, Some(cookie))
        .await;
    assert_eq!(response.status(), StatusCode::OK, "{form}");
    serde_json::from_str(&body_text(response).await).expect("JSON")
}

fn ids(page: &Value) -> Vec<String> {
    page["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|rl| rl["id"].as_str().expect("id").to_owned())
        .collect()
}

#[tokio::test]
async fn resource_locations_are_searched_filtered_and_sorted_on_the_server() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    assert_eq!(
        app.post_form("/api/lhc_locations", "", None).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let all = locations(&app, "", &viewer).await;
    assert_eq!(ids(&all), ["rl-paris", "rl-tokyo"]);
    assert_eq!(all["total"], 2);
    assert_eq!(all["matching"], 2);

    let forced = app
        .post_form(
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-paris",
            Some(&operator),
        )
        .await;
    assert_eq!(forced.status(), StatusCode::OK);
    app.post_form("/api/step_clock", "", Some(&operator)).await;

    let cases = [
        ("q=TOKYO", vec!["rl-tokyo"]),
        ("q=rl-", vec!["rl-paris", "rl-tokyo"]),
        ("q=nowhere", vec![]),
        ("state=working_normally", vec!["rl-tokyo"]),
        ("state=pending_ha", vec!["rl-paris"]),
        ("state=pending_ha&q=tokyo", vec![]),
        ("sort=name&desc=true", vec!["rl-tokyo", "rl-paris"]),
        ("sort=state", vec!["rl-paris", "rl-tokyo"]),
        ("page=2", vec![]),
    ];
    for (form, want) in cases {
        let page = locations(&app, form, &viewer).await;
        assert_eq!(ids(&page), want, "{form}");
        assert_eq!(page["total"], 2, "{form}");
    }
    let filtered = locations(&app, "state=pending_ha", &viewer).await;
    assert_eq!(filtered["matching"], 1);

    // A bad parameter is refused by name, with what is allowed: 422 for a value out of its
    // set, 400 for one that does not decode.
    let invalid = StatusCode::UNPROCESSABLE_ENTITY;
    for (form, status, field, allowed) in [
        ("state=broken", invalid, "state", "extended_ha"),
        ("sort=load", invalid, "sort", "unregistered"),
        ("page=0", invalid, "page", "1 or more"),
        ("desc=maybe", StatusCode::BAD_REQUEST, "desc", ""),
    ] {
        let response = app
            .post_form("/api/lhc_locations", form, Some(&viewer))
            .await;
        assert_eq!(response.status(), status, "{form}");
        let text = body_text(response).await;
        assert!(
            text.contains(field) && text.contains(allowed),
            "{form}: {text}"
        );
    }
    let long = format!("q={}", "a".repeat(101));
    let response = app
        .post_form("/api/lhc_locations", &long, Some(&viewer))
        .await;
    assert_eq!(response.status(), invalid);
    assert!(body_text(response).await.contains("at most 100 characters"));

    // The page itself, rendered on the server from its URL: only the filtered rows.
    let page = app.get("/lhc?state=pending_ha", Some(&viewer)).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = body_text(page).await;
    assert!(html.contains("data-rl=\"rl-paris\""), "{html}");
    assert!(!html.contains("data-rl=\"rl-tokyo\""));
    assert!(html.contains("1 of 2 resource locations match"));
}

#[tokio::test]
async fn the_load_table_is_searched_filtered_by_zone_and_paged_on_the_server() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let store = |form: &'static str| {
        let app = &app;
        let viewer = viewer.clone();
        async move {
            let response = app.post_form("/api/lms_store", form, Some(&viewer)).await;
            assert_eq!(response.status(), StatusCode::OK, "{form}");
            let page: Value = serde_json::from_str(&body_text(response).await).expect("JSON");
            let hosts: Vec<String> = page["load_table"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| r["host"].as_str().expect("host").to_owned())
                .collect();
            let qfarm: Vec<String> = page["qfarm"]
                .as_array()
                .expect("qfarm")
                .iter()
                .map(|r| r[0].as_str().expect("host").to_owned())
                .collect();
            assert_eq!(hosts, qfarm, "qfarm lists the table's page");
            (hosts, page["load_table_matching"].as_u64().expect("count"))
        }
    };
    let (all, n) = store("").await;
    assert_eq!((all.len(), n), (6, 6));
    let (lyon, n) = store("q=lyo").await;
    assert_eq!(lyon, ["XA-LYO-01", "XA-LYO-02", "XA-LYO-03"]);
    assert_eq!(n, 3);
    let (paris, _) = store("zone=z-paris&q=02").await;
    assert_eq!(paris, ["XA-PAR-02"]);
    let (beyond, n) = store("page=2").await;
    assert!(beyond.is_empty());
    assert_eq!(n, 6);
    let refused = app
        .post_form("/api/lms_store", "page=0", Some(&viewer))
        .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(refused).await.contains("page"));

    // Sorted by any column: the loads by their hex value, largest first; the zones either way.
    let column = |form: &'static str, key: &'static str| {
        let app = &app;
        let viewer = viewer.clone();
        async move {
            let response = app.post_form("/api/lms_store", form, Some(&viewer)).await;
            assert_eq!(response.status(), StatusCode::OK, "{form}");
            let page: Value = serde_json::from_str(&body_text(response).await).expect("JSON");
            page["load_table"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| r[key].as_str().expect("column").to_owned())
                .collect::<Vec<String>>()
        }
    };
    let loads: Vec<u64> = column("lsort=load&ldesc=true", "load")
        .await
        .iter()
        .map(|l| u64::from_str_radix(l, 16).expect("hex load"))
        .collect();
    assert_eq!(loads.len(), 6);
    assert!(loads.windows(2).all(|w| w[0] >= w[1]), "{loads:?}");
    let zones = column("lsort=zone", "zone").await;
    let mut sorted = zones.clone();
    sorted.sort();
    assert_eq!(zones, sorted);
    let mut zones_desc = column("lsort=zone&ldesc=true", "zone").await;
    zones_desc.reverse();
    assert_eq!(zones_desc, sorted);
    let (hosts_desc, _) = store("lsort=host&ldesc=true&q=lyo").await;
    assert_eq!(hosts_desc, ["XA-LYO-03", "XA-LYO-02", "XA-LYO-01"]);
    let refused = app
        .post_form("/api/lms_store", "lsort=colour", Some(&viewer))
        .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let text = body_text(refused).await;
    assert!(text.contains("lsort") && text.contains("ltload"), "{text}");
    // The page's headers: the column in force turns round, the others keep the search and
    // the session tables' view but start at the first page.
    let html = app
        .page_html(
            "/lms/store?lsort=load&ldesc=1&q=XA&page=2&user=u1",
            Some(&viewer),
        )
        .await;
    assert!(
        html.contains(r#"<th aria-sort="descending"><a href="/lms/store?lsort=load&ldesc=0&q=XA&user=u1" data-sort="load">"#),
        "{html}"
    );
    assert!(html.contains(r#"href="/lms/store?lsort=zone&ldesc=0&q=XA&user=u1""#));
    assert!(html.contains(r#"href="/lms/store?lsort=ltload&ldesc=1&q=XA&user=u1""#));

    // The farm page names the first servers of each zone's ranking and counts the rest.
    let farm = app.post_form("/api/lms_farm", "", Some(&viewer)).await;
    let farm: Value = serde_json::from_str(&body_text(farm).await).expect("JSON");
    for zone in farm["farm"]["zones"].as_array().expect("zones") {
        assert!(zone["ranking"].as_array().expect("ranking").len() <= 5);
    }
}

#[tokio::test]
async fn the_servers_table_is_searched_and_filtered_by_load_band_on_the_server_and_bad_filters_named(
) {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let hosts = |form: &'static str| {
        let app = &app;
        let viewer = viewer.clone();
        async move {
            let response = app.post_form("/api/lms_servers", form, Some(&viewer)).await;
            assert_eq!(response.status(), StatusCode::OK, "{form}");
            let page: Value = serde_json::from_str(&body_text(response).await).expect("JSON");
            let rows = page["page"]["rows"].as_array().expect("rows").clone();
            let hosts: Vec<String> = rows
                .iter()
                .map(|r| r["host"].as_str().expect("host").to_owned())
                .collect();
            (hosts, page["page"]["total"].as_u64().expect("total"))
        }
    };
    let (lyon, n) = hosts("q=LYO&sort=host").await;
    assert_eq!(
        (lyon, n),
        (
            vec![
                "XA-LYO-01".to_owned(),
                "XA-LYO-02".into(),
                "XA-LYO-03".into()
            ],
            3
        )
    );
    let (paris, _) = hosts("q=02&zone=z-paris").await;
    assert_eq!(paris, ["XA-PAR-02"]);
    // Every server is in exactly one band.
    let mut in_bands = 0;
    for form in [
        "band=not_up",
        "band=band_0",
        "band=band_1",
        "band=band_2",
        "band=band_3",
        "band=band_4",
    ] {
        in_bands += hosts(form).await.1;
    }
    assert_eq!(in_bands, 6);
    for (form, field) in [
        ("band=band_5", "band"),
        ("band=full", "band"),
        ("sort=fastest", "sort"),
    ] {
        let refused = app.post_form("/api/lms_servers", form, Some(&viewer)).await;
        assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY, "{form}");
        assert!(body_text(refused).await.contains(field), "{form}");
    }
}

#[tokio::test]
async fn an_evaluator_is_assigned_by_pattern_and_an_unknown_host_or_empty_pattern_changes_nothing()
{
    let app = app_with(DEMO).await;
    let admin = app.sign_in("admin").await;
    let servers_of = |name: &'static str| {
        let app = &app;
        let admin = admin.clone();
        async move {
            let response = app.post_form("/api/lms_evaluators", "", Some(&admin)).await;
            let page: Value = serde_json::from_str(&body_text(response).await).expect("JSON");
            let row = page["evaluators"]
                .as_array()
                .expect("evaluators")
                .iter()
                .find(|r| r["evaluator"]["name"] == name)
                .cloned()
                .expect("the evaluator");
            serde_json::from_value::<Vec<String>>(row["evaluator"]["servers"].clone())
                .expect("servers")
        }
    };
    assert_eq!(servers_of("Advanced").await, ["XA-LYO-01"]);
    for (servers, named) in [
        ("XA-ZZZ-*", "`XA-ZZZ-*` matches no server"),
        ("XA-LYO-02, XA-NOPE", "`XA-NOPE` is not a server"),
    ] {
        let form = format!(
            "evaluator=Advanced&servers={}",
            servers.replace(' ', "+").replace('*', "%2A")
        );
        let refused = app
            .post_form("/api/lms_evaluator_assign", &form, Some(&admin))
            .await;
        assert_eq!(
            refused.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{servers}"
        );
        let text = body_text(refused).await;
        assert!(text.contains("servers") && text.contains(named), "{text}");
        assert_eq!(
            servers_of("Advanced").await,
            ["XA-LYO-01"],
            "nothing assigned by {servers}"
        );
    }
    let done = app
        .post_form(
            "/api/lms_evaluator_assign",
            "evaluator=Advanced&servers=XA-LYO-0%2A",
            Some(&admin),
        )
        .await;
    assert_eq!(done.status(), StatusCode::OK);
    assert_eq!(
        servers_of("Advanced").await,
        ["XA-LYO-01", "XA-LYO-02", "XA-LYO-03"]
    );
}

#[tokio::test]
async fn gslb_sites_are_searched_and_filtered_on_the_server_and_bad_filters_named() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let console = |form: &'static str| {
        let app = &app;
        let viewer = viewer.clone();
        async move {
            let response = app
                .post_form("/api/gslb_console", form, Some(&viewer))
                .await;
            let status = response.status();
            (status, body_text(response).await)
        }
    };
    let names = |text: &str| -> Vec<String> {
        let page: Value = serde_json::from_str(text).expect("JSON");
        page["sites"]["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|s| s["name"].as_str().expect("name").to_owned())
            .collect()
    };
    let (status, all) = console("").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(names(&all).len(), 7);
    let (_, parents) = console("role=parent").await;
    assert_eq!(names(&parents), ["SiteP1", "SiteP2", "SiteP3"]);
    let (_, found) = console("q=site4").await;
    assert_eq!(names(&found), ["Child_Site4"]);
    let found: Value = serde_json::from_str(&found).expect("JSON");
    let marked: Vec<&str> = found["picture"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|n| {
            n["class"]
                .as_str()
                .is_some_and(|c| c.contains("highlighted"))
        })
        .map(|n| n["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        marked,
        ["Child_Site4"],
        "the searched site is marked in the graph"
    );
    let (_, down) = console("state=down").await;
    assert!(names(&down).is_empty());
    let (_, by_name) = console("sort=name&desc=true").await;
    let mut descending = names(&all);
    descending.sort_by(|a, b| b.cmp(a));
    assert_eq!(names(&by_name), descending);
    let (_, children_first) = console("sort=role&desc=true&role=child").await;
    assert_eq!(names(&children_first).len(), 4);
    for (form, field) in [
        ("role=grandparent", "role"),
        ("state=sideways", "state"),
        ("sort=size", "sort"),
        ("page=0", "page"),
    ] {
        let (status, text) = console(form).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{form}");
        assert!(text.contains(field), "{form}: {text}");
    }
}

#[tokio::test]
async fn a_locations_vdas_are_searched_by_name_on_the_server_and_a_long_search_refused() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let vdas = |form: String| {
        let app = &app;
        let viewer = viewer.clone();
        async move {
            let response = app.post_form("/api/lhc_vdas", &form, Some(&viewer)).await;
            let status = response.status();
            (status, body_text(response).await)
        }
    };
    let page = |text: &str| -> (u64, Vec<String>) {
        let page: Value = serde_json::from_str(text).expect("JSON");
        let names = page["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|v| v["name"].as_str().expect("name").to_owned())
            .collect();
        (page["total"].as_u64().expect("total"), names)
    };
    let (status, all) = vdas("resource_location=rl-paris".into()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page(&all).0, 160);
    // A name's start, in any case; combined with the other filters.
    let (_, multi) = vdas("resource_location=rl-paris&q=par-ms-".into()).await;
    let (total, names) = page(&multi);
    assert_eq!(total, 40);
    assert!(names.iter().all(|n| n.starts_with("PAR-MS-")), "{names:?}");
    let first = names.first().expect("a VDA").clone();
    let (_, one) = vdas(format!("resource_location=rl-paris&q={first}")).await;
    assert_eq!(page(&one), (1, vec![first]));
    let (_, none) = vdas("resource_location=rl-paris&q=PAR-MS-&kind=pooled_vdi".into()).await;
    assert_eq!(page(&none).0, 0);
    let long = format!("resource_location=rl-paris&q={}", "x".repeat(101));
    let (status, text) = vdas(long).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(text.contains("q") && text.contains("100"), "{text}");
    // Sorted on the server: by name backwards, and the other columns keep the name order
    // among ties (no sessions yet: by sessions is the name order).
    let (_, backwards) = vdas("resource_location=rl-paris&sort=name&desc=true".into()).await;
    let (_, names) = page(&backwards);
    assert_eq!(names.first().map(String::as_str), Some("PAR-VDI-120"));
    let (_, by_sessions) = vdas("resource_location=rl-paris&sort=sessions&desc=true".into()).await;
    assert_eq!(page(&by_sessions), page(&all));
    // By kind: Paris's 40 multi-session servers, then its pooled desktops (a page is 50);
    // the other way, the desktops alone fill the first page.
    let (_, by_kind) = vdas("resource_location=rl-paris&sort=kind".into()).await;
    let (_, names) = page(&by_kind);
    assert_eq!(names[39], "PAR-MS-040", "{names:?}");
    assert_eq!(names[40], "PAR-VDI-001", "{names:?}");
    let (_, by_kind) = vdas("resource_location=rl-paris&sort=kind&desc=true".into()).await;
    let (_, names) = page(&by_kind);
    assert!(names.iter().all(|n| n.starts_with("PAR-VDI-")), "{names:?}");
    for key in ["group", "maintenance"] {
        let (status, text) = vdas(format!("resource_location=rl-paris&sort={key}")).await;
        assert_eq!(status, StatusCode::OK, "{key}: {text}");
    }
    let (status, text) = vdas("resource_location=rl-paris&sort=size".into()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        text.contains("sort") && text.contains("sessions") && text.contains("group"),
        "{text}"
    );
}

#[tokio::test]
async fn autoscale_groups_are_searched_filtered_and_sorted_on_the_server_and_bad_filters_named() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let list = |form: &'static str| {
        let app = &app;
        let viewer = viewer.clone();
        async move {
            let response = app
                .post_form("/api/autoscale_list", form, Some(&viewer))
                .await;
            let status = response.status();
            (status, body_text(response).await)
        }
    };
    let page = |text: &str| -> (u64, Vec<Value>) {
        let page: Value = serde_json::from_str(text).expect("JSON");
        let groups = &page["groups"];
        (
            groups["matching"].as_u64().expect("matching"),
            groups["rows"].as_array().expect("rows").clone(),
        )
    };
    let name = |g: &Value| g["name"].as_str().expect("name").to_owned();
    let (status, all) = list("").await;
    assert_eq!(status, StatusCode::OK);
    let (total, rows) = page(&all);
    assert!(total >= 2, "{all}");
    let names: Vec<String> = rows.iter().map(name).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "by name when no sort is asked");

    let (_, web) = list("q=WEB").await;
    assert_eq!(
        page(&web).1.iter().map(name).collect::<Vec<_>>(),
        ["asg_web"]
    );
    let (_, dns) = list("mode=dns").await;
    let (found, rows) = page(&dns);
    assert!(found >= 1 && found < total);
    assert!(rows.iter().all(|g| g["mode"] == "dns"), "{dns}");
    let (_, evaluating) = list("state=evaluating").await;
    assert!(page(&evaluating).1.iter().all(|g| g["zones"]
        .as_array()
        .expect("zones")
        .iter()
        .any(|z| z["state"] == "evaluating")));
    let (_, by_nodes) = list("sort=nodes&desc=true").await;
    let nodes: Vec<u64> = page(&by_nodes)
        .1
        .iter()
        .map(|g| {
            g["zones"]
                .as_array()
                .expect("zones")
                .iter()
                .map(|z| z["nodes_in_service"].as_u64().expect("nodes"))
                .sum()
        })
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] >= w[1]), "{nodes:?}");

    for (form, field) in [
        ("state=sideways", "state"),
        ("mode=anycast", "mode"),
        ("sort=colour", "sort"),
        ("page=0", "page"),
    ] {
        let (status, text) = list(form).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{form}");
        assert!(text.contains(field), "{form}: {text}");
    }
}

#[tokio::test]
async fn sessions_are_searched_by_user_and_sorted_on_the_server_and_a_bad_order_named() {
    let app = app_with(DEMO).await;
    let operator = app.sign_in("operator").await;
    let storm = app
        .post_form(
            "/api/lms_act",
            "input[op]=logon_storm&input[count]=10&input[over]=0s&input[app]=Word",
            Some(&operator),
        )
        .await;
    assert_eq!(storm.status(), StatusCode::OK);
    app.services.runtime.step("test").await.expect("step");
    let viewer = app.sign_in("viewer").await;
    let sessions = |form: String| {
        let app = &app;
        let viewer = viewer.clone();
        async move {
            let response = app
                .post_form("/api/lms_sessions", &form, Some(&viewer))
                .await;
            let status = response.status();
            (status, body_text(response).await)
        }
    };
    let rows = |text: &str| -> Vec<(String, String, u64)> {
        let page: Value = serde_json::from_str(text).expect("JSON");
        page["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|s| {
                (
                    s["user"].as_str().expect("user").to_owned(),
                    s["server"].as_str().expect("server").to_owned(),
                    s["since_ms"].as_u64().expect("since"),
                )
            })
            .collect()
    };
    let (status, all) = sessions(String::new()).await;
    assert_eq!(status, StatusCode::OK);
    let all = rows(&all);
    assert!(all.len() >= 4, "{all:?}");
    assert!(all.windows(2).all(|w| w[0].0 <= w[1].0), "by user: {all:?}");
    let (_, by_server) = sessions("sort=server&desc=true".into()).await;
    let by_server = rows(&by_server);
    assert_eq!(by_server.len(), all.len());
    assert!(
        by_server.windows(2).all(|w| w[0].1 >= w[1].1),
        "{by_server:?}"
    );
    let (_, by_since) = sessions("sort=since".into()).await;
    assert!(rows(&by_since).windows(2).all(|w| w[0].2 <= w[1].2));
    // By client address, by its value, largest first.
    let (_, by_client) = sessions("sort=client&desc=true".into()).await;
    let page: Value = serde_json::from_str(&by_client).expect("JSON");
    let ips: Vec<std::net::Ipv4Addr> = page["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|s| {
            s["client_ip"]
                .as_str()
                .expect("client")
                .parse()
                .expect("an address")
        })
        .collect();
    assert_eq!(ips.len(), all.len());
    assert!(ips.windows(2).all(|w| w[0] >= w[1]), "{ips:?}");
    // A user's name, in capitals: that user's session alone.
    let user = all[0].0.clone();
    let (_, found) = sessions(format!("q={}", user.to_uppercase())).await;
    let found = rows(&found);
    assert!(!found.is_empty());
    assert!(found.iter().all(|s| s.0.contains(&user)), "{found:?}");

    let (status, text) = sessions("sort=colour".into()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(text.contains("sort") && text.contains("client"), "{text}");
    let refused = app
        .post_form("/api/lms_store", "ssort=colour", Some(&viewer))
        .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(refused).await.contains("ssort"));
    // The dynamic store's two session tables take the same search.
    let store = app
        .post_form(
            "/api/lms_store",
            &format!("user={user}&ssort=since&sdesc=true"),
            Some(&viewer),
        )
        .await;
    assert_eq!(store.status(), StatusCode::OK);
    let store: Value = serde_json::from_str(&body_text(store).await).expect("JSON");
    for table in ["connected", "disconnected"] {
        for row in store[table]["rows"].as_array().expect("rows") {
            assert!(row["user"].as_str().expect("user").contains(&user));
        }
    }
}

#[tokio::test]
async fn the_audit_log_is_filtered_by_user_action_and_outcome_on_the_server() {
    let app = app_with(DEMO).await;
    let admin = app.sign_in("admin").await;
    let operator = app.sign_in("operator").await;
    let viewer = app.sign_in("viewer").await;
    for (cookie, form) in [
        (&operator, "speed=x10"),
        (&viewer, "speed=x60"),
        (&operator, "speed=paused"),
    ] {
        app.post_form("/api/set_speed", form, Some(cookie)).await;
    }
    app.post_form("/api/step_clock", "", Some(&operator)).await;
    let audit = |form: &'static str| {
        let (app, admin) = (&app, admin.clone());
        async move {
            let response = app.post_form("/api/audit", form, Some(&admin)).await;
            let status = response.status();
            (status, body_text(response).await)
        }
    };
    let rows = |text: &str| -> Vec<(String, String)> {
        let page: Value = serde_json::from_str(text).expect("JSON");
        page["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                let field = |k: &str| r[k].as_str().unwrap_or_default().to_owned();
                (field("actor"), field("action"))
            })
            .collect()
    };
    let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    let (status, operator_speed) = audit("user=operator&action=clock.set").await;
    assert_eq!(status, StatusCode::OK, "{operator_speed}");
    assert_eq!(
        rows(&operator_speed),
        [
            pair("operator", "clock.set_speed"),
            pair("operator", "clock.set_speed")
        ]
    );
    let (_, refused) = audit("outcome=refused&action=clock.").await;
    assert_eq!(rows(&refused), [pair("viewer", "clock.set_speed")]);
    let (_, oldest) = audit("action=clock.&order=oldest").await;
    let (_, newest) = audit("action=clock.").await;
    let mut reversed = rows(&newest);
    reversed.reverse();
    assert_eq!(rows(&oldest), reversed);
    assert_eq!(rows(&oldest).last(), Some(&pair("operator", "clock.step")));
    let matching: Value = serde_json::from_str(&oldest).expect("JSON");
    assert_eq!(matching["matching"], 4);
    // Sorted by who, from A, then by the action from Z: each column in its order.
    let (_, by_actor) = audit("action=clock.&sort=actor&order=oldest").await;
    let actors: Vec<String> = rows(&by_actor).into_iter().map(|r| r.0).collect();
    let mut sorted = actors.clone();
    sorted.sort();
    assert_eq!(actors, sorted);
    assert_eq!(actors.len(), 4);
    let (_, by_action) = audit("sort=action").await;
    let actions: Vec<String> = rows(&by_action).into_iter().map(|r| r.1).collect();
    let mut sorted = actions.clone();
    sorted.sort();
    sorted.reverse();
    assert_eq!(actions, sorted);
    for (form, field) in [
        ("outcome=maybe", "outcome"),
        ("order=sideways", "order"),
        ("sort=arguments", "sort"),
        ("page=0", "page"),
    ] {
        let (status, text) = audit(form).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{form}");
        assert!(text.contains(field), "{form}: {text}");
    }
    // The page itself, rendered on the server from its URL.
    let page = app.get("/audit?user=viewer", Some(&admin)).await;
    let html = body_text(page).await;
    assert!(html.contains("id=\"audit-matching\""), "{html}");
    assert!(!html.contains(">operator</td>"), "only the viewer's rows");
    // Each row's disclosure carries its id, not its JSON; the id reads the arguments as
    // stored, for an admin only.
    let table = html
        .split_once(r#"id="audit-table""#)
        .and_then(|(_, rest)| rest.split_once("</table>"))
        .map_or("", |(table, _)| table);
    assert!(
        !table.contains("data-json") && !table.contains("{&quot;"),
        "{table}"
    );
    let ids: Vec<&str> = table
        .split(r#"data-audit=""#)
        .skip(1)
        .filter_map(|piece| piece.split_once('"').map(|(id, _)| id))
        .collect();
    let (_, listed) = audit("user=viewer").await;
    let listed: Value = serde_json::from_str(&listed).expect("JSON");
    let listed = listed["rows"].as_array().expect("rows");
    assert_eq!(ids.len(), listed.len(), "one key per row");
    for (id, row) in ids.iter().zip(listed) {
        assert_eq!(row["id"].to_string(), *id);
        let read = app
            .post_form("/api/audit_json", &format!("id={id}"), Some(&admin))
            .await;
        assert_eq!(read.status(), StatusCode::OK);
        let text: String = serde_json::from_str(&body_text(read).await).expect("a string");
        assert_eq!(text, row["arguments"].as_str().expect("arguments"));
    }
    for (cookie, form, want) in [
        (&viewer, format!("id={}", ids[0]), StatusCode::FORBIDDEN),
        (&admin, "id=987654".to_owned(), StatusCode::NOT_FOUND),
        (&admin, "id=one".to_owned(), StatusCode::BAD_REQUEST),
    ] {
        let read = app.post_form("/api/audit_json", &form, Some(cookie)).await;
        assert_eq!(read.status(), want, "{form}");
    }
    // Its headers sort, keeping the filters and starting at the first page.
    let html = app
        .page_html(
            "/audit?user=viewer&sort=actor&order=oldest&page=2",
            Some(&admin),
        )
        .await;
    assert!(
        html.contains(
            r#"<th aria-sort="ascending"><a href="/audit?sort=actor&order=newest&user=viewer""#
        ),
        "{html}"
    );
    assert!(html.contains(r#"<a href="/audit?sort=time&order=newest&user=viewer""#));
}

#[tokio::test]
async fn a_new_order_of_the_session_tables_keeps_their_search_but_neither_page() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let page = app
        .get(
            "/lms/store?cpage=2&dpage=3&user=u1&q=XA&zone=z-paris",
            Some(&viewer),
        )
        .await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = body_text(page).await;
    let sort_links: Vec<&str> = html
        .split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|href| href.contains("ssort="))
        .collect();
    // Five sortable columns in each of the two session tables.
    assert_eq!(sort_links.len(), 10, "{sort_links:?}");
    for href in sort_links {
        assert!(!href.contains("page="), "{href}");
        for kept in ["user=u1", "q=XA", "zone=z-paris"] {
            assert!(href.contains(kept), "{href} keeps {kept}");
        }
    }
}
