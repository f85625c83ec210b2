//! The live stream's budget: at most [`EVENTS_PER_WINDOW`] event messages per window, and a
//! `changed` message naming each engine whose changes were among the skipped events (pages
//! refresh on it, so none misses a change of its engine however fast the clock runs).

use std::time::Duration;

use crate::common::app;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use engine::{EngineId, Speed};
use http_body_util::BodyExt;
use server::live::{Budget, EVENTS_PER_WINDOW, WINDOW};
use tokio::time::Instant;

/// Fills the window's budget with heartbeats.
fn spent(now: Instant) -> Budget {
    let mut budget = Budget::new(now);
    for _ in 0..EVENTS_PER_WINDOW {
        assert!(budget.admit(now, EngineId::Core, "heartbeat"));
    }
    budget
}

#[test]
fn a_window_sends_its_budget_then_names_the_engines_of_the_changes_it_skipped() {
    let t0 = Instant::now();
    // (events over the budget as (engine, kind), engines named when the window ends)
    type Case = (
        &'static [(EngineId, &'static str)],
        Option<&'static [&'static str]>,
    );
    let cases: [Case; 4] = [
        (&[], None),
        // Heartbeats change nothing a page shows: skipping them is not news.
        (
            &[
                (EngineId::Core, "heartbeat"),
                (EngineId::Lhc, "heartbeat.paused"),
            ],
            None,
        ),
        (
            &[
                (EngineId::Lhc, "ha.state_changed"),
                (EngineId::Lhc, "vda.registered"),
            ],
            Some(&["lhc"]),
        ),
        (
            &[
                (EngineId::Gslb, "site.down"),
                (EngineId::Core, "heartbeat"),
                (EngineId::Autoscale, "scale.out"),
                (EngineId::Gslb, "site.up"),
            ],
            Some(&["gslb", "autoscale"]),
        ),
    ];
    for (over, named) in cases {
        let mut budget = spent(t0);
        for (engine, kind) in over {
            assert!(
                !budget.admit(t0, *engine, kind),
                "{kind} over the budget is skipped"
            );
        }
        assert_eq!(budget.deadline().is_some(), named.is_some(), "{over:?}");
        assert_eq!(
            budget.close_window(t0 + WINDOW / 2),
            None,
            "not before the window ends"
        );
        let closed = budget.close_window(t0 + WINDOW);
        assert_eq!(closed.as_deref(), named, "{over:?}");
        // The next window starts afresh: its budget is whole and nothing is pending.
        assert_eq!(budget.deadline(), None);
        assert!(budget.admit(t0 + WINDOW, EngineId::Lms, "session.placed"));
    }
}

#[test]
fn a_connection_that_fell_behind_names_every_engine() {
    let t0 = Instant::now();
    let mut budget = Budget::new(t0);
    budget.lost_unknown();
    let named = budget.close_window(t0 + WINDOW).expect("named");
    assert_eq!(named.len(), EngineId::ALL.len());
}

#[test]
fn an_event_after_a_quiet_window_starts_a_new_one() {
    let t0 = Instant::now();
    let mut budget = spent(t0);
    assert!(!budget.admit(t0, EngineId::Core, "heartbeat"));
    // Nothing was pending, so no one closed the window: the next event opens a new one.
    assert!(budget.admit(t0 + WINDOW * 3, EngineId::Lms, "session.placed"));
}

/// The SSE messages of one chunk of the stream, as (event name, data).
fn messages(chunk: &str) -> Vec<(String, String)> {
    chunk
        .split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = String::new();
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event:") {
                    name = Some(v.trim().to_owned());
                } else if let Some(v) = line.strip_prefix("data:") {
                    data.push_str(v.trim());
                }
            }
            name.map(|n| (n, data))
        })
        .collect()
}

#[tokio::test]
async fn at_speed_max_the_stream_keeps_its_budget_and_says_which_engines_changed() {
    let app = app().await;
    let viewer = app.sign_in("viewer").await;
    let request = Request::get("/api/stream")
        .header(header::COOKIE, &viewer)
        .header(header::ACCEPT, "text/event-stream")
        .body(Body::empty())
        .expect("request");
    let response = app.send(request).await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    app.services
        .runtime
        .set_speed(Speed::Max, "test")
        .await
        .expect("speed");

    let started = Instant::now();
    let deadline = started + Duration::from_secs(20);
    let (mut events, mut changed) = (0u64, Vec::<Vec<String>>::new());
    let mut pending = String::new();
    while changed.len() < 3 && Instant::now() < deadline {
        let Ok(Some(Ok(frame))) = tokio::time::timeout_at(deadline, body.frame()).await else {
            break;
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        pending.push_str(&String::from_utf8_lossy(&data));
        let Some(end) = pending.rfind("\n\n") else {
            continue;
        };
        let complete: String = pending.drain(..end + 2).collect();
        for (name, data) in messages(&complete) {
            match name.as_str() {
                "event" => events += 1,
                "changed" => changed.push(serde_json::from_str(&data).expect("engine names")),
                _ => {}
            }
        }
    }
    let windows = started.elapsed().as_millis() as u64 / WINDOW.as_millis() as u64 + 2;
    assert!(
        events <= windows * u64::from(EVENTS_PER_WINDOW),
        "{events} event messages in {windows} windows"
    );
    assert!(
        changed.len() >= 3,
        "the engines' changes over the budget are named ({} changed messages, {events} events)",
        changed.len()
    );
    let known: Vec<&str> = EngineId::ALL.iter().map(|e| e.as_str()).collect();
    for named in &changed {
        assert!(!named.is_empty());
        assert!(
            named.iter().all(|n| known.contains(&n.as_str())),
            "{named:?}"
        );
    }
}
