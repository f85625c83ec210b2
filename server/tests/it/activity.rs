//! The overview's sparklines: `/api/engine_activity` counts an engine's changes per
//! 10 simulated minutes, leaves heartbeats out, names the field of a bad engine, and needs a
//! signed-in user.

use crate::common::{app, body_text};
use axum::http::StatusCode;

/// The engine's counts, as the sparkline reads them.
async fn counts(app: &crate::common::TestApp, engine: &str, cookie: &str) -> Vec<u64> {
    let response = app
        .post_form(
            "/api/engine_activity",
            &format!("engine={engine}"),
            Some(cookie),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let view: serde_json::Value =
        serde_json::from_str(&body_text(response).await).expect("activity JSON");
    assert_eq!(view["engine"], engine);
    assert_eq!(view["bucket_ms"], 600_000);
    view["counts"]
        .as_array()
        .expect("counts")
        .iter()
        .map(|c| c.as_u64().expect("count"))
        .collect()
}

#[tokio::test]
async fn a_forced_outage_shows_in_the_lhc_sparkline_and_heartbeats_do_not() {
    let app = app().await;
    assert_eq!(
        app.post_form("/api/engine_activity", "engine=lhc", None)
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;

    let bad = app
        .post_form("/api/engine_activity", "engine=citrix", Some(&viewer))
        .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let message = body_text(bad).await;
    assert!(
        message.contains("engine") && message.contains("lhc, lms, gslb, autoscale"),
        "{message}"
    );

    // A paused clock, stepped: mostly heartbeats so far.
    for _ in 0..5 {
        app.post_form("/api/step_clock", "", Some(&operator)).await;
    }
    let core = counts(&app, "core", &viewer).await;
    assert!((1..=24).contains(&core.len()), "{core:?}");
    let lhc_before: u64 = counts(&app, "lhc", &viewer).await.iter().sum();

    let forced = app
        .post_form(
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-a",
            Some(&operator),
        )
        .await;
    assert_eq!(forced.status(), StatusCode::OK);
    let mut lhc = Vec::new();
    for _ in 0..50 {
        app.post_form("/api/step_clock", "", Some(&operator)).await;
        lhc = counts(&app, "lhc", &viewer).await;
        if lhc.iter().sum::<u64>() > lhc_before {
            break;
        }
    }
    assert!(
        lhc.iter().sum::<u64>() > lhc_before,
        "the outage's changes are counted: {lhc:?}"
    );
    assert!(
        *lhc.last().expect("current bucket") > 0,
        "in the current bucket: {lhc:?}"
    );
}
