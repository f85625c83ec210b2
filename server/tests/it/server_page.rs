//! The load-management server page's chart: `/api/lms_server` sends only the load samples of
//! the range the page's URL names (a preset, `all`, or `from` and `to`), at most
//! `CHART_SAMPLES`, so a long run does not make the page heavier.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::Value;

use crate::common::{app_with, body_text};

const DEMO: &str = include_str!("../../../scenarios/demo.toml");
const HOUR_MS: u64 = 3_600_000;

#[tokio::test]
async fn the_server_chart_carries_the_samples_of_its_range_only() {
    let app = app_with(DEMO).await;
    let operator = app.sign_in("operator").await;
    let viewer = app.sign_in("viewer").await;
    let speed = |s: &'static str| {
        let (app, operator) = (&app, operator.clone());
        async move {
            let r = app
                .post_form("/api/set_speed", &format!("speed={s}"), Some(&operator))
                .await;
            assert_eq!(r.status(), StatusCode::OK, "{s}");
        }
    };
    speed("max").await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while app.services.runtime.status().t_ms < 3 * HOUR_MS {
        assert!(
            Instant::now() < deadline,
            "three simulated hours in a minute"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    speed("paused").await;
    app.stored().await;
    let now = app.services.runtime.status().t_ms;

    let samples = |form: String| {
        let (app, viewer) = (&app, viewer.clone());
        async move {
            let r = app.post_form("/api/lms_server", &form, Some(&viewer)).await;
            assert_eq!(r.status(), StatusCode::OK, "{form}");
            let detail: Value = serde_json::from_str(&body_text(r).await).expect("JSON");
            detail["samples"]
                .as_array()
                .expect("samples")
                .iter()
                .map(|s| s["t_ms"].as_u64().expect("t_ms"))
                .collect::<Vec<u64>>()
        }
    };
    let host = "host=XA-LYO-01";
    let all = samples(format!("{host}&range=all")).await;
    let hour = samples(format!("{host}&range=1h")).await;
    let default = samples(host.to_owned()).await;
    assert!(
        all.len() > hour.len(),
        "all {} vs 1 h {}",
        all.len(),
        hour.len()
    );
    assert!(!hour.is_empty());
    assert!(
        hour.iter().all(|t| (now - HOUR_MS..=now).contains(t)),
        "{hour:?}"
    );
    assert_eq!(default, hour, "the page's default range is the last hour");
    assert!(all.len() <= 450, "{}", all.len());
    // A custom range, as the chart's drag-to-zoom writes it.
    let from = now - 2 * HOUR_MS;
    let to = now - HOUR_MS;
    let custom = samples(format!("{host}&from={from}&to={to}")).await;
    assert!(!custom.is_empty());
    assert!(custom.iter().all(|t| (from..=to).contains(t)), "{custom:?}");
    assert!(custom.windows(2).all(|w| w[0] <= w[1]), "oldest first");
}
