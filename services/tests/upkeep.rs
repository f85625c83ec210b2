//! The leader's upkeep of a run's history on both stores: hourly rollups of the charted
//! series, retention of raw events per engine, and charts that read both.

use engine::{EngineId, Event, SimTime};
use services::history::{self, EventFilter};
use services::retention::Retention;
use services::rollups::{self, CHART_HOURS, HOUR_MS};
use services::runtime::upkeep;
use services::store::Dialect;
use services::Store;

mod common;
use common::stores;

const MINUTE: u64 = 60_000;
const DAY: u64 = 86_400_000;
/// Forty simulated days of registration counts, one every ten minutes.
const SAMPLES: u64 = 40 * 24 * 6;

fn registrations(i: u64) -> Event {
    Event::new(
        SimTime(i * 10 * MINUTE),
        EngineId::Lhc,
        "rl-a",
        "registrations",
        serde_json::json!({ "registered": i, "total": 10_000 }),
    )
}

/// A run with forty days of registration counts stored.
async fn forty_days(store: &Store) -> history::Run {
    let run = history::create_run(store, "demo", 1, None)
        .await
        .expect("run");
    let events: Vec<Event> = (0..SAMPLES).map(registrations).collect();
    history::insert_events(store, run.id, 0, &events)
        .await
        .expect("insert");
    run
}

async fn raw_count(store: &Store, run_id: i64) -> i64 {
    let filter = EventFilter {
        run_id,
        engine: Some("lhc".into()),
        ..Default::default()
    };
    history::events_after(store, &filter, None, 1_000_000)
        .await
        .expect("events")
        .len() as i64
}

fn chart_filter(run_id: i64) -> EventFilter {
    EventFilter {
        run_id,
        engine: Some("lhc".into()),
        subject: Some("rl-a".into()),
        kind: Some("registrations".into()),
        ..Default::default()
    }
}

#[tokio::test]
async fn hourly_rollups_feed_the_charts_and_retention_removes_only_what_is_rolled_up() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = forty_days(&store).await;
        let now = SAMPLES * 10 * MINUTE;

        // Retention of a week for the LHC engine; rounds as the leader runs them.
        let retention: Retention = "lhc=7".parse().expect("retention");
        for _ in 0..3 {
            upkeep::round(&store, run.id, now, &retention)
                .await
                .expect("round");
        }
        let hours = now / HOUR_MS;
        assert_eq!(
            rollups::rolled_until(&store, run.id, "lhc", "registrations")
                .await
                .expect("rolled"),
            hours,
            "{d:?}: every complete hour rolled up"
        );
        // Raw events before 33 days are gone; the last week is kept.
        let kept = raw_count(&store, run.id).await;
        assert_eq!(
            kept,
            (7 * DAY / (10 * MINUTE)) as i64,
            "{d:?}: the last week kept"
        );

        // The chart: 100 raw points, and hourly rollups before them (a month at most), in
        // time order; an hour's rollup is its last sample.
        let points = rollups::with_rollups(&store, &chart_filter(run.id), 100)
            .await
            .expect("chart");
        assert_eq!(points.len(), 100 + CHART_HOURS as usize, "{d:?}");
        assert!(
            points.windows(2).all(|w| w[0].t_ms < w[1].t_ms),
            "{d:?}: in time order"
        );
        let first_raw = &points[CHART_HOURS as usize];
        assert_eq!(first_raw.t_ms as u64, (SAMPLES - 100) * 10 * MINUTE);
        let last_rollup = &points[CHART_HOURS as usize - 1];
        let hour = last_rollup.t_ms as u64 / HOUR_MS;
        let details: serde_json::Value = serde_json::from_str(&last_rollup.details).expect("json");
        assert_eq!(
            details["registered"],
            hour * 6 + 5,
            "{d:?}: the hour's last count"
        );
        // A filter on the details is applied before the month's limit: the first hour's
        // rollup (its last sample: count 5, at 50 minutes) is found though 900 newer hours
        // precede it.
        let first_hour = EventFilter {
            details_contains: Some(r#""registered":5,"#.into()),
            ..chart_filter(run.id)
        };
        let points = rollups::with_rollups(&store, &first_hour, 100)
            .await
            .expect("chart");
        let found: Vec<i64> = points.iter().map(|p| p.t_ms).collect();
        assert_eq!(found, [(5 * 10 * MINUTE) as i64], "{d:?}: {points:?}");

        if d == Dialect::Postgres {
            let pool = store.postgres_pool().expect("pool");
            let spans: Vec<String> = sqlx::query_scalar(
                "SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid \
                 JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = $1 ORDER BY 1",
            )
            .bind(format!("ev_{}_lhc", run.id))
            .fetch_all(pool)
            .await
            .expect("partitions");
            assert_eq!(
                spans,
                [format!("ev_{}_lhc_1", run.id)],
                "the first 30 days' partition was dropped whole"
            );
        }
    }
}

#[tokio::test]
async fn retention_waits_for_the_rollups() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = forty_days(&store).await;
        // Nothing rolled up yet: a retention of one day removes nothing.
        let before = services::retention::cutoff(SAMPLES * 10 * MINUTE, 1, 0);
        let (deleted, dropped) = services::retention::expire(&store, run.id, "lhc", before)
            .await
            .expect("expire");
        assert_eq!((deleted, dropped), (0, 0), "{d:?}");
        assert_eq!(raw_count(&store, run.id).await, SAMPLES as i64, "{d:?}");
        // An unknown engine is refused, nothing removed.
        assert!(
            services::retention::expire(&store, run.id, "disk", u64::MAX)
                .await
                .is_err()
        );
    }
}
