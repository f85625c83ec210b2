//! Flap detection and the formula audit through the router: a cloud link cut and restored
//! repeatedly puts its resource location on the needs-attention list with its why and in
//! the event history; the formula audit answers viewers, checks its fields and changes
//! nothing.

use crate::common::{app_with, body_text, TestApp};
use axum::http::StatusCode;
use serde_json::Value;

const DEMO: &str = include_str!("../../../scenarios/demo.toml");

/// One resource location without VDAs whose cloud link is cut every 10 minutes and
/// restored 5 minutes later, for an hour.
pub(crate) fn flapping_link() -> String {
    let mut src = String::from(
        r#"[scenario]
name = "flapping link"

[[lhc.resource_locations]]
id = "rl-lyon"
name = "Lyon"

[[lhc.resource_locations.connectors]]
fqdn = "cc01.lyon.example.com"

[[lhc.resource_locations.connectors]]
fqdn = "cc02.lyon.example.com"
"#,
    );
    for i in 0..6 {
        for (offset, up) in [(1, false), (6, true)] {
            src += &format!(
                "\n[[actions]]\nat = \"{}m\"\nkind = \"cloud_link\"\nresource_location = \"rl-lyon\"\nup = {up}\n",
                offset + 10 * i
            );
        }
    }
    src
}

async fn json(app: &TestApp, path: &str, form: &str, cookie: &str) -> (StatusCode, Value) {
    let response = app.post_form(path, form, Some(cookie)).await;
    let status = response.status();
    let text = body_text(response).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

#[tokio::test]
async fn a_flapping_cloud_link_is_on_the_attention_list_with_its_why() {
    let app = app_with(&flapping_link()).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    let is_flap = |item: &Value| {
        item["subject"] == "rl-lyon"
            && item["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("Resource location rl-lyon is flapping"))
    };
    let flapping = |list: &Value| list.as_array().into_iter().flatten().any(is_flap);
    let (_, before) = json(&app, "/api/attention", "", &viewer).await;
    assert!(!flapping(&before), "nothing flaps at the start: {before}");
    let mut seen = false;
    for _ in 0..400 {
        let (status, clock) = json(&app, "/api/step_clock", "", &operator).await;
        assert_eq!(status, StatusCode::OK, "{clock}");
        let (_, list) = json(&app, "/api/attention", "", &viewer).await;
        if flapping(&list) {
            let item = list
                .as_array()
                .and_then(|l| l.iter().find(|i| is_flap(i)))
                .cloned()
                .unwrap_or_default();
            assert_eq!(item["severity"], "Warning");
            assert_eq!(item["href"], "/lhc/rl-lyon");
            seen = true;
            break;
        }
        if clock["t_ms"].as_u64().is_some_and(|t| t > 70 * 60_000) {
            break;
        }
    }
    assert!(seen, "rl-lyon never flapped on the attention list");
    app.stored().await;
    let (status, events) = json(&app, "/api/recent_events", "limit=30&engine=lhc", &viewer).await;
    assert_eq!(status, StatusCode::OK);
    let started = events
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["kind"] == "flapping.started")
        .cloned()
        .unwrap_or_default();
    assert_eq!(started["subject"], "rl-lyon", "{events}");
    let details: Value = match &started["details"] {
        Value::String(s) => serde_json::from_str(s).unwrap_or_default(),
        other => other.clone(),
    };
    assert!(
        details["reason"].as_str().is_some_and(
            |r| r.contains("state changes in the last") && r.contains("a check every 1m")
        ),
        "{details}"
    );
}

#[tokio::test]
async fn the_formula_audit_answers_viewers_checks_its_fields_and_changes_nothing() {
    let app = app_with(DEMO).await;
    assert_eq!(
        app.post_form("/api/lms_formula_audit", "", None)
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
    let viewer = app.sign_in("viewer").await;
    let (_, farm_before) = json(&app, "/api/lms_farm", "", &viewer).await;

    let (status, audit) = json(&app, "/api/lms_formula_audit", "launches=50", &viewer).await;
    assert_eq!(status, StatusCode::OK, "{audit}");
    let servers = farm_before["farm"]["servers_total"].as_u64();
    assert_eq!(audit["rows"].as_array().map(|r| r.len() as u64), servers);
    assert_eq!(audit["launches"], 50);
    assert_eq!(audit["in_force"], "sum");
    for row in audit["rows"].as_array().into_iter().flatten() {
        assert!(
            row["sum"].as_u64().is_some() && row["average"].as_u64().is_some(),
            "{row}"
        );
    }
    let placed: u64 = audit["placements"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["sum"].as_u64())
        .sum();
    assert_eq!(placed + audit["rejected_sum"].as_u64().unwrap_or(0), 50);

    // The server page carries the same two indexes for its server.
    let first = &audit["rows"][0];
    let host = first["host"].as_str().unwrap_or_default();
    let (status, detail) = json(&app, "/api/lms_server", &format!("host={host}"), &viewer).await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    assert_eq!(detail["indexes"]["sum"], first["sum"]);
    assert_eq!(detail["indexes"]["average"], first["average"]);

    // Out of range or unknown: 422; not a number at all: 400 (the form's decoding); each
    // names the field.
    for (form, field, want) in [
        (
            "launches=1001",
            "launches",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        ("app=Nope", "app", StatusCode::UNPROCESSABLE_ENTITY),
        ("launches=-3", "launches", StatusCode::BAD_REQUEST),
    ] {
        let (status, answer) = json(&app, "/api/lms_formula_audit", form, &viewer).await;
        assert_eq!(status, want, "{form}: {answer}");
        assert!(answer.to_string().contains(field), "{form}: {answer}");
    }
    let (_, farm_after) = json(&app, "/api/lms_farm", "", &viewer).await;
    assert_eq!(farm_before, farm_after, "an audit changes nothing");
}
