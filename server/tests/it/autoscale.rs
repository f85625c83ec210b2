//! Router tests of the autoscale console: roles on every mutating call (refusals audited),
//! server-side validation naming the field with nothing changed, the operator actions and
//! the what-if replay.

use crate::common::{app_with, body_text, TestApp};
use axum::http::StatusCode;
use engine::autoscale::config::GroupParams;

const SCENARIO: &str = r#"
[scenario]
name = "autoscale router test"
seed = 5

[[autoscale.groups]]
name = "asg_arn"
mode = "dns"
zones = ["eu-west-1a"]
min_nodes = 1
max_nodes = 4
watch_time_min = 3
cooldown_min = 10
drain_timeout_min = 10
ttl_s = 60

[[autoscale.groups.thresholds]]
parameter = "memory"
min = 40
max = 85

[autoscale.groups.workload]
profile = "trace"
values = [90, 90, 70, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90, 60]

[[autoscale.groups]]
name = "asg_web"
mode = "nlb"
zones = ["eu-west-1a", "eu-west-1b"]
min_nodes = 2
max_nodes = 6
watch_time_min = 2
cooldown_min = 5
drain_timeout_min = 5

[[autoscale.groups.thresholds]]
parameter = "cpu"
min = 25
max = 75

[autoscale.groups.workload]
profile = "constant"
level = 50
"#;

/// The editor's JSON of the seed example's parameters, with `edit` applied.
fn params_json(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v = serde_json::json!({
        "min_nodes": "1", "max_nodes": "4", "watch_time_min": "3", "cooldown_min": "10",
        "drain_timeout_min": "10", "ttl_s": "60",
        "thresholds": [{ "parameter": "memory", "min": "40", "max": "85" }],
    });
    edit(&mut v);
    v.to_string()
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A refusal as the console shows it: `field: message` (the JSON body of `AppError::Invalid`),
/// else the body as is.
async fn error_text(response: axum::response::Response) -> String {
    let text = body_text(response).await;
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) if v["Invalid"].is_object() => format!(
            "{}: {}",
            v["Invalid"]["field"].as_str().unwrap_or_default(),
            v["Invalid"]["message"].as_str().unwrap_or_default()
        ),
        _ => text,
    }
}

async fn params(app: &TestApp, group: &'static str) -> Option<GroupParams> {
    app.services
        .runtime
        .query(move |sim| sim.autoscale().group(group).map(|g| g.params))
        .await
        .expect("query")
}

/// Audit rows `(action, actor, outcome)`, newest first.
async fn audit(app: &TestApp) -> Vec<(String, String, String)> {
    let (rows, _) = services::audit::list(&app.services.store, 0, 100)
        .await
        .expect("audit");
    rows.into_iter()
        .map(|r| (r.action, r.actor, r.outcome))
        .collect()
}

/// Steps the paused clock until simulated minute `minute` (a step goes to the next instant
/// anything is due: the start, then every minute). Gives up if steps stop moving the clock.
async fn run_until_minute(app: &TestApp, minute: u64) {
    let target = minute * 60_000;
    let mut stuck = 0;
    while stuck < 3 {
        let before = app.services.runtime.status().t_ms;
        if before >= target {
            return;
        }
        let after = app.services.runtime.step("test").await.expect("step").t_ms;
        stuck = if after > before { 0 } else { stuck + 1 };
    }
    panic!("the clock stopped before minute {minute}");
}

#[tokio::test]
async fn only_an_admin_saves_group_settings_and_refusals_are_audited() {
    let app = app_with(SCENARIO).await;
    let before = params(&app, "asg_arn").await.expect("group");
    let body = format!(
        "group=asg_arn&params={}",
        urlencode(&params_json(|v| v["max_nodes"] = "6".into()))
    );
    for role in ["viewer", "operator"] {
        let cookie = app.sign_in(role).await;
        let response = app
            .post_form("/api/autoscale_save", &body, Some(&cookie))
            .await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{role}");
        assert!(body_text(response).await.contains("admin"), "{role}");
    }
    assert_eq!(params(&app, "asg_arn").await, Some(before));
    let rows = audit(&app).await;
    for role in ["viewer", "operator"] {
        assert!(
            rows.iter().any(
                |(action, actor, outcome)| action == "autoscale.group_settings"
                    && actor == role
                    && outcome.starts_with("refused")
            ),
            "{role}: {rows:?}"
        );
    }
}

#[tokio::test]
async fn an_invalid_value_names_the_field_and_nothing_changes() {
    let app = app_with(SCENARIO).await;
    let admin = app.sign_in("admin").await;
    let before = params(&app, "asg_arn").await.expect("group");
    let cases: Vec<(String, &str)> = vec![
        (
            params_json(|v| v["thresholds"][0]["max"] = "30".into()),
            "thresholds[0].max: must be greater than min (40); got 30",
        ),
        (params_json(|v| v["max_nodes"] = "x".into()), "max_nodes"),
        (
            params_json(|v| v["min_nodes"] = "5".into()),
            "max_nodes: must be at least min_nodes (5)",
        ),
        (
            params_json(|v| v["thresholds"][0]["parameter"] = "disk".into()),
            "thresholds[0].parameter",
        ),
        (
            params_json(|v| v["thresholds"] = serde_json::json!([])),
            "thresholds",
        ),
        ("not json".to_owned(), "params"),
    ];
    for (json, expected) in cases {
        let body = format!("group=asg_arn&params={}", urlencode(&json));
        let response = app
            .post_form("/api/autoscale_save", &body, Some(&admin))
            .await;
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{expected}"
        );
        let text = error_text(response).await;
        assert!(text.contains(expected), "{expected}: {text}");
    }
    assert_eq!(params(&app, "asg_arn").await, Some(before));
    // An unknown group is refused too, naming it.
    let body = format!("group=nope&params={}", urlencode(&params_json(|_| ())));
    let response = app
        .post_form("/api/autoscale_save", &body, Some(&admin))
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(response).await.contains("nope"));
    let rows = audit(&app).await;
    assert!(rows
        .iter()
        .filter(|(action, actor, _)| action == "autoscale.group_settings" && actor == "admin")
        .all(|(_, _, outcome)| outcome.starts_with("refused")));
}

#[tokio::test]
async fn an_admin_saves_valid_settings_and_it_is_audited() {
    let app = app_with(SCENARIO).await;
    let admin = app.sign_in("admin").await;
    let body = format!(
        "group=asg_arn&params={}",
        urlencode(&params_json(|v| {
            v["max_nodes"] = "6".into();
            v["cooldown_min"] = "5".into();
        }))
    );
    let response = app
        .post_form("/api/autoscale_save", &body, Some(&admin))
        .await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "{}",
        body_text(response).await
    );
    let now = params(&app, "asg_arn").await.expect("group");
    assert_eq!((now.max_nodes, now.cooldown_min), (6, 5));
    let rows = audit(&app).await;
    let row = rows
        .iter()
        .find(|(action, actor, _)| action == "autoscale.group_settings" && actor == "admin")
        .expect("audited");
    assert_eq!(row.2, "ok");
    // The settings event is in the history, attributed to the admin.
    let run_id = app.services.runtime.run().id;
    let filter = services::history::EventFilter {
        run_id,
        engine: Some("autoscale".into()),
        subject: Some("asg_arn".into()),
        ..Default::default()
    };
    app.stored().await;
    let events = services::history::recent_events(&app.services.store, &filter, 100)
        .await
        .expect("events");
    assert!(
        events.iter().any(|e| e.actor.as_deref() == Some("admin")),
        "{events:?}"
    );
}

#[tokio::test]
async fn an_operator_injects_load_and_a_viewer_is_refused() {
    let app = app_with(SCENARIO).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    let inject = "input[op]=load_inject&input[group]=asg_web&input[zone]=eu-west-1a&input[level]=300&input[duration_min]=30";
    let forged = app
        .post_form("/api/autoscale_act", inject, Some(&viewer))
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);

    for (form, field) in [
        (
            "input[op]=load_inject&input[group]=asg_web&input[level]=abc",
            "level",
        ),
        (
            "input[op]=load_inject&input[group]=asg_web&input[level]=5000",
            "level",
        ),
        (
            "input[op]=load_inject&input[group]=asg_web&input[level]=100&input[duration_min]=0",
            "duration_min",
        ),
        (
            "input[op]=load_inject&input[group]=asg_web&input[level]=100&input[zone]=mars-1",
            "mars-1",
        ),
        (
            "input[op]=distribution_switch&input[group]=asg_web&input[mode]=anycast",
            "mode",
        ),
        ("input[op]=explode&input[group]=asg_web", "op"),
        ("input[op]=app_deploy&input[group]=", "group"),
    ] {
        let response = app
            .post_form("/api/autoscale_act", form, Some(&operator))
            .await;
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{form}"
        );
        let text = error_text(response).await;
        assert!(text.contains(field), "{form}: {text}");
    }

    let response = app
        .post_form("/api/autoscale_act", inject, Some(&operator))
        .await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "{}",
        body_text(response).await
    );
    // Statistics every minute, watch time 2: the loaded zone scales out within minutes.
    run_until_minute(&app, 10).await;
    let zones = app
        .services
        .runtime
        .query(|sim| {
            sim.autoscale().group("asg_web").map(|g| {
                g.zones
                    .iter()
                    .map(|z| (z.zone.clone(), z.nodes.len()))
                    .collect::<Vec<_>>()
            })
        })
        .await
        .expect("query")
        .expect("group");
    assert!(zones[0].1 > 2, "eu-west-1a scaled out: {zones:?}");
    assert_eq!(zones[1].1, 2, "eu-west-1b was not loaded: {zones:?}");

    let detail = app
        .post_form(
            "/api/autoscale_group",
            "group=asg_web&minutes=60",
            Some(&viewer),
        )
        .await;
    assert_eq!(detail.status(), StatusCode::OK);
    let detail: serde_json::Value = serde_json::from_str(&body_text(detail).await).expect("json");
    assert!(
        detail["timelines"][0]["scale_outs"].as_u64() >= Some(1),
        "{detail}"
    );
    assert_eq!(detail["group"]["zones"][0]["injected"]["kind"], "spike");
    assert!(detail["group"]["zones"][1]["injected"].is_null());

    // Handing the zone back to its workload model; a second time there is nothing to hand back.
    let release = "input[op]=load_release&input[group]=asg_web&input[zone]=eu-west-1a";
    let response = app
        .post_form("/api/autoscale_act", release, Some(&operator))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let events: serde_json::Value = serde_json::from_str(&body_text(response).await).expect("json");
    assert_eq!(events[0]["kind"], "load.released", "{events}");
    let response = app
        .post_form("/api/autoscale_act", release, Some(&operator))
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_text(response).await.contains("no injected load"));
    let injected = app
        .services
        .runtime
        .query(|sim| {
            sim.autoscale()
                .group("asg_web")
                .map(|g| g.zones[0].injected.clone())
        })
        .await
        .expect("query");
    assert_eq!(injected, Some(None));

    let rows = audit(&app).await;
    assert!(rows.iter().any(|(a, actor, o)| a == "autoscale.load_inject"
        && actor == "viewer"
        && o.starts_with("refused")));
    assert!(rows
        .iter()
        .any(|(a, actor, o)| a == "autoscale.load_inject" && actor == "operator" && o == "ok"));
}

#[tokio::test]
async fn the_distribution_switch_and_application_actions_change_the_records() {
    let app = app_with(SCENARIO).await;
    let operator = app.sign_in("operator").await;
    run_until_minute(&app, 2).await;
    let switch = app
        .post_form(
            "/api/autoscale_act",
            "input[op]=distribution_switch&input[group]=asg_web&input[mode]=dns",
            Some(&operator),
        )
        .await;
    assert_eq!(
        switch.status(),
        StatusCode::OK,
        "{}",
        body_text(switch).await
    );
    let records = app
        .services
        .runtime
        .query(|sim| {
            sim.autoscale()
                .group("asg_web")
                .map(|g| (g.mode, g.zones[0].records.clone()))
        })
        .await
        .expect("query")
        .expect("group");
    assert_eq!(records.0, engine::autoscale::config::DistributionMode::Dns);
    assert!(
        records.1.dns.is_some() && records.1.nlb.is_none(),
        "{records:?}"
    );

    let again = app
        .post_form(
            "/api/autoscale_act",
            "input[op]=distribution_switch&input[group]=asg_web&input[mode]=dns",
            Some(&operator),
        )
        .await;
    assert_eq!(again.status(), StatusCode::UNPROCESSABLE_ENTITY);

    let remove = app
        .post_form(
            "/api/autoscale_act",
            "input[op]=app_remove&input[group]=asg_web",
            Some(&operator),
        )
        .await;
    assert_eq!(remove.status(), StatusCode::OK);
    let deployed = app
        .services
        .runtime
        .query(|sim| {
            sim.autoscale()
                .group("asg_web")
                .map(|g| (g.deployed, g.zones[0].records.ipset.clone()))
        })
        .await
        .expect("query")
        .expect("group");
    assert_eq!(deployed, (false, None));
}

#[tokio::test]
async fn the_what_if_returns_real_and_edited_timelines() {
    let app = app_with(SCENARIO).await;
    let admin = app.sign_in("admin").await;
    let operator = app.sign_in("operator").await;
    run_until_minute(&app, 90).await;
    // The seed example with a tighter maximum: more scale-outs, or the same at least.
    let edited = params_json(|v| v["thresholds"][0]["max"] = "60".into());
    let body = format!("group=asg_arn&params={}&hours=1", urlencode(&edited));

    let refused = app
        .post_form("/api/autoscale_what_if", &body, Some(&operator))
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);

    for hours in ["0", "169", "x"] {
        let bad = format!("group=asg_arn&params={}&hours={hours}", urlencode(&edited));
        let response = app
            .post_form("/api/autoscale_what_if", &bad, Some(&admin))
            .await;
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{hours}"
        );
        let text = error_text(response).await;
        assert!(
            text.starts_with("hours: must be a whole number between 1 and 168"),
            "{text}"
        );
    }
    let invalid = format!(
        "group=asg_arn&params={}&hours=1",
        urlencode(&params_json(|v| v["thresholds"][0]["max"] = "30".into()))
    );
    let response = app
        .post_form("/api/autoscale_what_if", &invalid, Some(&admin))
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(response).await.contains("thresholds[0].max"));

    let response = app
        .post_form("/api/autoscale_what_if", &body, Some(&admin))
        .await;
    let status = response.status();
    let text = body_text(response).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let result: serde_json::Value = serde_json::from_str(&text).expect("json");
    let zone = &result["zones"][0];
    assert_eq!(zone["zone"], "eu-west-1a");
    let points = |side: &str| {
        zone[side]["series"][0]["points"]
            .as_array()
            .map_or(0, Vec::len)
    };
    assert!(points("real") >= 50 && points("edited") >= 50, "{text}");
    assert_eq!(zone["real"]["series"][0]["max"], 85.0);
    assert_eq!(zone["edited"]["series"][0]["max"], 60.0);
    assert!(result["server_us"].as_u64().is_some());
    assert!(
        zone["edited"]["scale_outs"].as_u64() >= zone["real"]["scale_outs"].as_u64(),
        "{text}"
    );
    // Nothing changed.
    assert_eq!(
        params(&app, "asg_arn").await.map(|p| p.thresholds[0].max),
        Some(85.0)
    );
}

#[tokio::test]
async fn the_pages_render_for_a_viewer_without_forms() {
    let app = app_with(SCENARIO).await;
    let viewer = app.sign_in("viewer").await;
    for (path, text) in [
        ("/autoscale", "asg_web"),
        ("/autoscale/asg_arn", "asg_arn"),
        ("/autoscale/asg_arn/edit", "Only administrators"),
        ("/", "Autoscale"),
    ] {
        let response = app.get(path, Some(&viewer)).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let html = body_text(response).await;
        assert!(html.contains(text), "{path}");
        assert!(!html.contains("id=\"autoscale-actions\""), "{path}");
        assert!(!html.contains("id=\"autoscale-editor\""), "{path}");
    }
    let admin = app.sign_in("admin").await;
    let html = body_text(app.get("/autoscale/asg_arn/edit", Some(&admin)).await).await;
    assert!(html.contains("id=\"autoscale-editor\""));
    let missing = app
        .post_form("/api/autoscale_group", "group=nope", Some(&viewer))
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let window = app
        .post_form(
            "/api/autoscale_group",
            "group=asg_arn&minutes=5",
            Some(&viewer),
        )
        .await;
    assert_eq!(window.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(window).await.contains("minutes"));
}
