//! Time travel through the router: estate server functions and pages take `at` (and `run`),
//! show the past read-only, and refuse an instant outside the run with 400 and the range.

use axum::http::StatusCode;

use crate::common::{app, body_text};

#[tokio::test]
async fn estate_calls_show_the_past_read_only_and_refuse_instants_outside_the_run() {
    let app = app().await;
    let operator = app.sign_in("operator").await;
    let viewer = app.sign_in("viewer").await;
    for _ in 0..5 {
        let stepped = app.post_form("/api/step_clock", "", Some(&operator)).await;
        assert_eq!(stepped.status(), StatusCode::OK);
    }
    let before = engine::SimTime(app.services.runtime.status().t_ms).to_string();
    let stepped = app.post_form("/api/step_clock", "", Some(&operator)).await;
    assert_eq!(stepped.status(), StatusCode::OK);
    let forced = app
        .post_form(
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-a",
            Some(&operator),
        )
        .await;
    assert_eq!(forced.status(), StatusCode::OK);
    let at = before.replace('+', "%2B");

    let live = app
        .post_form("/api/lhc_location", "id=rl-a", Some(&viewer))
        .await;
    assert_eq!(live.status(), StatusCode::OK);
    assert!(body_text(live).await.contains("\"forced_outage\":true"));
    let past = app
        .post_form(
            "/api/lhc_location",
            &format!("id=rl-a&at={at}"),
            Some(&viewer),
        )
        .await;
    assert_eq!(past.status(), StatusCode::OK);
    let past = body_text(past).await;
    assert!(past.contains("\"forced_outage\":false"), "{past}");
    assert!(!past.contains("\"forced_outage\":true"), "{past}");

    // The page: banner and "back to live", no operator controls, even for an operator.
    let page = body_text(
        app.get(&format!("/lhc/rl-a?at={at}"), Some(&operator))
            .await,
    )
    .await;
    assert!(page.contains("id=\"as-of\""), "banner missing");
    assert!(page.contains(&format!("As of {before}")), "instant missing");
    assert!(page.contains("id=\"back-to-live\""));
    assert!(
        !page.contains("id=\"rl-actions\""),
        "controls shown in the past"
    );
    let live_page = body_text(app.get("/lhc/rl-a", Some(&operator)).await).await;
    assert!(live_page.contains("id=\"rl-actions\""));
    assert!(!live_page.contains("id=\"as-of\""));

    // Outside the run, or not an instant: 400 naming the field and the range.
    let now = engine::SimTime(app.services.runtime.status().t_ms);
    let later = app
        .post_form("/api/lhc_overview", "at=9%2B00:00:00", Some(&viewer))
        .await;
    assert_eq!(later.status(), StatusCode::BAD_REQUEST);
    let later = body_text(later).await;
    assert!(
        later.contains("can be viewed from 0+00:00:00.000 to")
            && later.contains(&now.to_string()[..4]),
        "{later}"
    );
    let garbage = app
        .post_form("/api/lhc_overview", "at=yesterday", Some(&viewer))
        .await;
    assert_eq!(garbage.status(), StatusCode::BAD_REQUEST);
    assert!(body_text(garbage).await.contains("D+HH:MM:SS"));
    let no_run = app
        .post_form(
            "/api/gslb_topology",
            "at=0%2B00:00:00&run=4242",
            Some(&viewer),
        )
        .await;
    assert_eq!(no_run.status(), StatusCode::BAD_REQUEST);
    assert!(body_text(no_run).await.contains("there is no run 4242"));

    // Every estate call takes the instant.
    for (path, args) in [
        ("/api/lhc_overview", ""),
        ("/api/lhc_vdas", "resource_location=rl-a&"),
        ("/api/lms_farm", ""),
        ("/api/lms_servers", ""),
        ("/api/lms_store", ""),
        ("/api/gslb_topology", ""),
        ("/api/autoscale_groups", ""),
    ] {
        let answer = app
            .post_form(path, &format!("{args}at={at}"), Some(&viewer))
            .await;
        assert_eq!(answer.status(), StatusCode::OK, "{path}");
    }
    let extent = app.post_form("/api/time_extent", "", Some(&viewer)).await;
    assert_eq!(extent.status(), StatusCode::OK);
    assert!(body_text(extent).await.contains("\"live\":true"));
}
