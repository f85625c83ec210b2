//! The overview's answers on the demo estate: `/api/overview` agrees with the engines' own
//! answers and the attention list while carrying a fraction of their bytes, and
//! `/api/recent_events` filters by engine and heartbeats on the server.

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

    let rls = answer(&app, "/api/lhc_overview", "", &viewer).await;
    let ids = |list: &Value| -> Vec<String> {
        list.as_array()
            .expect("list")
            .iter()
            .map(|rl| rl["id"].as_str().expect("id").to_owned())
            .collect()
    };
    assert_eq!(ids(&overview["lhc"]["locations"]), ids(&json(&rls)));

    let farm = answer(&app, "/api/lms_farm", "", &viewer).await;
    let farm_json = json(&farm);
    for key in ["servers_up", "servers_total", "placements", "rejected"] {
        assert_eq!(overview["lms"][key], farm_json["farm"][key], "lms {key}");
    }
    assert_eq!(
        overview["lms"]["zones"].as_array().map(Vec::len),
        farm_json["farm"]["zones"].as_array().map(Vec::len)
    );

    let topology = answer(&app, "/api/gslb_topology", "", &viewer).await;
    let topology_json = json(&topology);
    let parents: Vec<&str> = topology_json["topology"]["sites"]
        .as_array()
        .expect("sites")
        .iter()
        .filter(|s| s["role"] == "parent")
        .map(|s| s["name"].as_str().expect("name"))
        .collect();
    let summarized: Vec<&str> = overview["gslb"]["parents"]
        .as_array()
        .expect("parents")
        .iter()
        .map(|p| p["name"].as_str().expect("name"))
        .collect();
    assert!(!parents.is_empty());
    assert_eq!(summarized, parents);
    assert_eq!(
        overview["gslb"]["parents_up"],
        topology_json["topology"]["parents_up"]
    );

    let groups = answer(&app, "/api/autoscale_groups", "", &viewer).await;
    let group_names = |list: &Value| -> Vec<String> {
        list.as_array()
            .expect("groups")
            .iter()
            .map(|g| g["name"].as_str().expect("name").to_owned())
            .collect()
    };
    assert_eq!(
        group_names(&overview["autoscale"]["groups"]),
        group_names(&json(&groups)["groups"])
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
