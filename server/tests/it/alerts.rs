//! Alert rules and alerts through the router: only an admin saves or deletes a rule, a
//! refused rule names its field and saves nothing, every change is audited; a rule fires on
//! the live run (history, needs-attention list, header counts, `/metrics`), an operator
//! acknowledges it once (audited, with who and when), and it resolves with its cause.

use crate::attention::flapping_link;
use crate::common::{app_with, body_text, TestApp};
use axum::http::StatusCode;
use serde_json::Value;

async fn call(app: &TestApp, path: &str, form: &str, cookie: &str) -> (StatusCode, Value) {
    let response = app.post_form(path, form, Some(cookie)).await;
    let status = response.status();
    let text = body_text(response).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// The audit rows of `action`, newest first.
async fn audited(app: &TestApp, admin: &str, action: &str) -> Vec<Value> {
    let (_, page) = call(app, "/api/audit", "page=1", admin).await;
    page["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["action"] == action)
        .cloned()
        .collect()
}

async fn rule_names(app: &TestApp, cookie: &str) -> Vec<String> {
    let (status, rules) = call(app, "/api/alert_rules", "", cookie).await;
    assert_eq!(status, StatusCode::OK, "{rules}");
    rules
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["name"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn only_admins_save_rules_and_a_refused_rule_names_its_field_and_saves_nothing() {
    let app = app_with(&flapping_link()).await;
    let admin = app.sign_in("admin").await;
    let operator = app.sign_in("operator").await;
    let viewer = app.sign_in("viewer").await;
    let good = "name=extended&severity=critical&kind=ha_state&state=extended_ha&for_min=10";

    for cookie in [&viewer, &operator] {
        let (status, body) = call(&app, "/api/save_alert_rule", good, cookie).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    }
    let refused = [
        // A threshold out of range.
        (
            "name=x&severity=warning&kind=ha_state&state=extended_ha&for_min=99999",
            "for_min",
            "between 0 and 10080",
        ),
        // A field of another kind.
        (
            "name=x&severity=warning&kind=child_orphaned&pct=5",
            "pct",
            "not a field of a child_orphaned rule",
        ),
        (
            "name=x&severity=warning&kind=vdas_unregistered&pct=100",
            "pct",
            "below 100",
        ),
        (
            "name=x&severity=warning&kind=vdas_unregistered&pct=lots",
            "pct",
            "must be a number",
        ),
        (
            "name=x&severity=warning&kind=server_load&load=10000",
            "samples",
            "is needed",
        ),
        (
            "name=x&severity=warning&kind=nothing",
            "kind",
            "must be one of",
        ),
        (
            "name=x&severity=urgent&kind=child_orphaned",
            "severity",
            "unknown variant",
        ),
        (
            "name=x&severity=warning&kind=ha_state&state=gone&for_min=1",
            "state",
            "unknown variant",
        ),
        (
            "name=x&severity=warning&kind=flapping&engine=core",
            "engine",
            "lhc, lms, gslb or autoscale",
        ),
        (
            "name=&severity=warning&kind=child_orphaned",
            "name",
            "1 to 64 characters",
        ),
    ];
    for (form, field, words) in refused {
        let (status, body) = call(&app, "/api/save_alert_rule", form, &admin).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{form}: {body}");
        let text = body.to_string();
        assert!(
            text.contains(field) && text.contains(words),
            "{form}: {text}"
        );
    }
    assert!(rule_names(&app, &viewer).await.is_empty(), "nothing saved");

    let (status, saved) = call(&app, "/api/save_alert_rule", good, &admin).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["kind"], "ha_state");
    assert_eq!(saved["saved_by"], "admin");
    // The same name replaces the rule.
    let (status, saved) = call(
        &app,
        "/api/save_alert_rule",
        "name=extended&severity=warning&kind=ha_state&state=extended_ha&for_min=5",
        &admin,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(rule_names(&app, &viewer).await, ["extended"]);
    let (_, rules) = call(&app, "/api/alert_rules", "", &viewer).await;
    assert_eq!(rules[0]["severity"], "warning");
    assert!(rules[0]["fields"].to_string().contains("\"5\""), "{rules}");

    let (status, _) = call(&app, "/api/delete_alert_rule", "name=extended", &operator).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = call(&app, "/api/delete_alert_rule", "name=nope", &admin).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, _) = call(&app, "/api/delete_alert_rule", "name=extended", &admin).await;
    assert_eq!(status, StatusCode::OK);
    assert!(rule_names(&app, &viewer).await.is_empty());

    let saves = audited(&app, &admin, "alerts.save_rule").await;
    let refusals = saves.iter().filter(|r| r["outcome"] != "ok").count();
    assert!(refusals >= 12, "each refusal is audited: {saves:?}");
    assert_eq!(saves.iter().filter(|r| r["outcome"] == "ok").count(), 2);
    assert!(saves.iter().any(|r| r["actor"] == "viewer"), "{saves:?}");
    let deletes = audited(&app, &admin, "alerts.delete_rule").await;
    assert_eq!(deletes.len(), 3, "{deletes:?}");
}

#[tokio::test]
async fn a_flapping_cloud_link_fires_an_alert_that_an_operator_acknowledges_once() {
    let app = app_with(&flapping_link()).await;
    let admin = app.sign_in("admin").await;
    let operator = app.sign_in("operator").await;
    let viewer = app.sign_in("viewer").await;
    let (status, body) = call(
        &app,
        "/api/save_alert_rule",
        "name=anything+flapping&severity=warning&kind=flapping",
        &admin,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, page) = call(&app, "/api/alerts", "", &viewer).await;
    assert_eq!(
        page["firing"],
        Value::Array(Vec::new()),
        "nothing fires at the start"
    );

    // Each step is answered with the alerts it fired already in the history.
    let mut fired = None;
    for _ in 0..400 {
        let (status, clock) = call(&app, "/api/step_clock", "", &operator).await;
        assert_eq!(status, StatusCode::OK, "{clock}");
        let (_, page) = call(&app, "/api/alerts", "", &viewer).await;
        if let Some(alert) = page["firing"].as_array().and_then(|f| f.first()).cloned() {
            fired = Some(alert);
            break;
        }
        assert_eq!(clock["alerts"]["warning"], 0, "{clock}");
    }
    let alert = fired.expect("the flapping link fires the rule");
    assert_eq!(alert["rule"], "anything flapping");
    assert_eq!(alert["subject"], "rl-lyon");
    assert_eq!(alert["severity"], "warning");
    assert!(
        alert["text"]
            .as_str()
            .is_some_and(|t| t.contains("is flapping")),
        "{alert}"
    );
    let (_, clock) = call(&app, "/api/clock_status", "", &viewer).await;
    assert_eq!(clock["alerts"]["warning"], 1, "the header's count: {clock}");
    let (_, attention) = call(&app, "/api/attention", "", &viewer).await;
    assert!(
        attention
            .as_array()
            .into_iter()
            .flatten()
            .any(|i| i["engine"] == "alert"
                && i["href"] == "/alerts"
                && i["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("Alert anything flapping"))),
        "{attention}"
    );
    let metrics = body_text(app.get("/metrics", None).await).await;
    assert!(
        metrics.contains("# HELP switchyard_alerts_firing "),
        "{metrics}"
    );
    assert!(
        metrics.contains("switchyard_alerts_firing{severity=\"warning\"}"),
        "{metrics}"
    );
    assert!(
        metrics.contains("switchyard_flapping_subjects{engine=\"lhc\"}"),
        "{metrics}"
    );

    let id = alert["id"].to_string();
    let (status, _) = call(&app, "/api/acknowledge_alert", &format!("id={id}"), &viewer).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = call(&app, "/api/acknowledge_alert", "id=999999", &operator).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, acked) = call(
        &app,
        "/api/acknowledge_alert",
        &format!("id={id}"),
        &operator,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{acked}");
    assert_eq!(acked["acked_by"], "operator");
    assert!(
        acked["acked_at"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{acked}"
    );
    let (status, again) = call(&app, "/api/acknowledge_alert", &format!("id={id}"), &admin).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    assert!(again.to_string().contains("by operator"), "{again}");
    let acks = audited(&app, &admin, "alerts.acknowledge").await;
    assert!(
        acks.iter()
            .any(|r| r["actor"] == "operator" && r["outcome"] == "ok"),
        "{acks:?}"
    );
    assert!(acks
        .iter()
        .any(|r| r["actor"] == "viewer" && r["outcome"] != "ok"));

    // The link settles (the last cut is restored at 56 min): the alert resolves, and the
    // history keeps who acknowledged it.
    let mut resolved = None;
    for _ in 0..2_000 {
        let (status, clock) = call(&app, "/api/step_clock", "", &operator).await;
        assert_eq!(status, StatusCode::OK, "{clock}");
        if clock["alerts"]["warning"] == 0 {
            let (_, page) = call(&app, "/api/alerts", "", &viewer).await;
            resolved = page["history"].as_array().and_then(|h| h.first()).cloned();
            break;
        }
    }
    let resolved = resolved.expect("the alert resolves once the link settles");
    assert_eq!(resolved["id"], alert["id"]);
    assert_eq!(resolved["acked_by"], "operator");
    assert!(resolved["resolved_ms"].as_u64().is_some(), "{resolved}");
    assert_eq!(resolved["resolved_reason"], "the condition no longer holds");
}
