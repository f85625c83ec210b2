//! The runtime against a real SQLite file: it advances at the chosen speed, steps on request,
//! applies operator actions, and every event it reports is persisted.

use std::time::Duration;

use engine::{CoreAction, Scenario, Speed};
use services::history::{self, EventFilter};
use services::runtime;

const SCENARIO: &str = r#"
[scenario]
name = "runtime test"
seed = 11

[[core.heartbeats]]
id = "hb-a"
interval = "5s"

[[core.heartbeats]]
id = "hb-b"
interval = "7s"
jitter = "1s"
"#;

async fn setup() -> (tempfile::TempDir, services::Store, Scenario) {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("rt.db").display());
    let pool = services::Store::connect(&url).await.expect("db");
    let scenario = Scenario::from_toml_str(SCENARIO, "rt.toml").expect("scenario");
    (dir, pool, scenario)
}

async fn persisted(pool: &services::Store, run_id: i64) -> i64 {
    let filter = EventFilter {
        run_id,
        ..Default::default()
    };
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM events WHERE run_id = $1")
        .bind(filter.run_id)
        .fetch_one(sqlite(pool))
        .await
        .expect("count");
    count
}

#[tokio::test]
async fn max_speed_runs_ahead_and_everything_reported_is_persisted() {
    let (_dir, pool, scenario) = setup().await;
    let rt = runtime::start(pool.clone(), &scenario, 11, Vec::new(), Speed::Max)
        .await
        .expect("start");
    tokio::time::sleep(Duration::from_millis(400)).await;
    rt.shutdown().await;
    let status = rt.status();
    assert!(
        status.t_ms > 3_600_000,
        "max speed covers hours in 0.4 s: {}",
        status.t_ms
    );
    assert!(status.events_total > 100);
    assert_eq!(
        persisted(&pool, rt.run().id).await as u64,
        status.events_total
    );
    assert_eq!(
        status.per_engine.get("core").copied(),
        Some(status.events_total)
    );
}

#[tokio::test]
async fn paused_clock_stays_still_and_step_jumps_to_the_next_due_instant() {
    let (_dir, pool, scenario) = setup().await;
    let rt = runtime::start(pool.clone(), &scenario, 11, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert_eq!(rt.status().t_ms, 0);

    let first = rt.step("tester").await.expect("step");
    let second = rt.step("tester").await.expect("step");
    assert!(
        second.t_ms > first.t_ms,
        "{} then {}",
        first.t_ms,
        second.t_ms
    );
    assert!(
        first.t_ms <= 8_000,
        "the first heartbeats are at most one interval (plus jitter) away: {}",
        first.t_ms
    );
    assert_eq!(
        Some(second.t_ms),
        first.next_due_ms,
        "a step jumps exactly to the next due instant"
    );
    rt.shutdown().await;

    let filter = EventFilter {
        run_id: rt.run().id,
        kind: Some("clock.stepped".into()),
        ..Default::default()
    };
    let rows = history::recent_events(&pool, &filter, 10)
        .await
        .expect("query");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].actor.as_deref(), Some("tester"));
}

#[tokio::test]
async fn speed_changes_and_actions_are_events_with_their_actor() {
    let (_dir, pool, scenario) = setup().await;
    let rt = runtime::start(pool.clone(), &scenario, 11, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    let status = rt.set_speed(Speed::X60, "alice").await.expect("speed");
    assert_eq!(status.speed, Speed::X60);
    let events = rt
        .apply(
            CoreAction::Note {
                text: "hello".into(),
            },
            "alice",
        )
        .await
        .expect("note");
    let note = events
        .iter()
        .find(|e| e.kind == "operator.note")
        .expect("note event");
    assert_eq!(note.actor.as_deref(), Some("alice"));
    let refused = rt
        .apply(
            CoreAction::HeartbeatPause {
                heartbeat: "nope".into(),
            },
            "alice",
        )
        .await;
    assert!(refused.is_err(), "an unknown heartbeat is refused");
    rt.shutdown().await;

    let filter = EventFilter {
        run_id: rt.run().id,
        ..Default::default()
    };
    let rows = history::events_after(&pool, &filter, None, 10_000)
        .await
        .expect("export");
    let speed = rows
        .iter()
        .find(|r| r.kind == "clock.speed_changed")
        .expect("speed event");
    assert_eq!(speed.actor.as_deref(), Some("alice"));
    assert!(speed.details.contains(r#""to":"x60""#), "{}", speed.details);
    assert!(rows
        .iter()
        .any(|r| r.kind == "operator.note" && r.details.contains("hello")));
}

#[tokio::test]
async fn the_status_tells_emitted_events_from_stored_ones() {
    let (_dir, pool, scenario) = setup().await;
    let rt = runtime::start(pool.clone(), &scenario, 11, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    let mut status = rt.step("tester").await.expect("step");
    for _ in 0..5 {
        status = rt.step("tester").await.expect("step");
    }
    assert!(
        status.events_persisted <= status.events_total,
        "never more stored than emitted: {} > {}",
        status.events_persisted,
        status.events_total
    );
    // The persistence task flushes within 200 ms; the next tick publishes its count.
    let mut watch = rt.watch_status();
    let stored = tokio::time::timeout(
        Duration::from_secs(5),
        watch.wait_for(|s| s.events_persisted == s.events_total),
    )
    .await
    .expect("stored within 5 s")
    .expect("status")
    .clone();
    assert_eq!(
        stored.events_persisted,
        persisted(&pool, rt.run().id).await as u64,
        "the stored count is the database's"
    );
    rt.shutdown().await;
}

/// The SQLite pool of a test's store, for looking at its tables directly.
fn sqlite(store: &services::Store) -> &sqlx::SqlitePool {
    store.sqlite_pool().expect("an SQLite store")
}
