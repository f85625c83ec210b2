//! Time travel against a real SQLite file: a past instant of the live run, and of an earlier
//! run, rebuilt from a snapshot and the journal, shows exactly what the run showed then.

use std::sync::Arc;

use engine::lhc::{HaState, LhcAction, RlView};
use engine::{Scenario, SimTime, Speed};
use services::runtime::{self, RuntimeHandle, RuntimeOptions};
use services::time_travel::{Estate, PastInstant, TimeTravel};
use services::ServiceError;
use services::Store;

const DEMO: &str = include_str!("../../scenarios/demo.toml");

async fn db(dir: &tempfile::TempDir) -> Store {
    let url = format!("sqlite://{}", dir.path().join("tt.db").display());
    services::Store::connect(&url).await.expect("db")
}

fn demo() -> Arc<Scenario> {
    Arc::new(Scenario::from_toml_str(DEMO, "demo.toml").expect("demo"))
}

async fn rls(estate: &Estate) -> Vec<RlView> {
    estate
        .query(|sim| sim.lhc().resource_locations())
        .await
        .expect("view")
}

async fn steps(rt: &RuntimeHandle, n: usize) {
    for _ in 0..n {
        rt.step("olga").await.expect("step");
    }
}

/// What the live run showed at each instant it reached.
struct Seen {
    at: SimTime,
    rls: Vec<RlView>,
}

async fn seen(rt: &RuntimeHandle) -> Seen {
    Seen {
        at: SimTime(rt.status().t_ms),
        rls: rt
            .query(|sim| sim.lhc().resource_locations())
            .await
            .expect("live view"),
    }
}

#[tokio::test]
async fn a_past_instant_shows_what_the_run_showed_then_in_this_run_and_an_earlier_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pool = db(&dir).await;
    let scenario = demo();
    let options = RuntimeOptions {
        snapshot_every: engine::SimDuration::from_mins(5),

        ..Default::default()
    };
    let rt = runtime::start_with(
        pool.clone(),
        &scenario,
        42,
        Vec::new(),
        Speed::Paused,
        options,
    )
    .await
    .expect("start");
    let first_run = rt.run().id;
    let mut history = Vec::new();
    steps(&rt, 30).await;
    history.push(seen(&rt).await);
    // The outage at a later instant (an instant shows every input made at it).
    steps(&rt, 1).await;
    rt.apply(
        LhcAction::ForceOutage {
            resource_location: "rl-paris".into(),
            connector: None,
        },
        "olga",
    )
    .await
    .expect("force outage");
    history.push(seen(&rt).await);
    for _ in 0..4 {
        steps(&rt, 25).await;
        history.push(seen(&rt).await);
    }
    let before = &history[0];
    let paris = |rls: &[RlView]| {
        rls.iter()
            .find(|r| r.id == "rl-paris")
            .map(|r| r.ha_state)
            .expect("rl-paris")
    };
    assert_eq!(paris(&before.rls), HaState::WorkingNormally);
    assert_ne!(
        paris(&history.last().expect("seen").rls),
        HaState::WorkingNormally,
        "the outage changed the state"
    );

    let travel = TimeTravel::default();
    for then in &history {
        let past = travel
            .estate(
                &pool,
                &rt,
                &scenario,
                Some(PastInstant {
                    run_id: None,
                    at: then.at,
                }),
            )
            .await
            .expect("past");
        assert_eq!(past.past_instant(), Some(then.at));
        assert_eq!(rls(&past).await, then.rls, "at {}", then.at);
        assert_eq!(past.window().until_ms, Some(then.at.as_millis()));
    }

    // After the live clock: refused, with the range.
    let now = SimTime(rt.status().t_ms);
    let err = travel
        .estate(
            &pool,
            &rt,
            &scenario,
            Some(PastInstant {
                run_id: None,
                at: SimTime(now.as_millis() + 1),
            }),
        )
        .await
        .err();
    match err {
        Some(ServiceError::OutOfRange { field, message }) => {
            assert_eq!(field, "at");
            assert!(message.contains(&format!("to {now}")), "{message}");
        }
        other => panic!("expected out of range, got {other:?}"),
    }
    rt.shutdown().await;

    // A new run on the same database: the first one can still be viewed, from its own
    // stored scenario.
    services::history::end_unfinished_runs(&pool)
        .await
        .expect("end");
    let rt = runtime::start(pool.clone(), &scenario, 7, Vec::new(), Speed::Paused)
        .await
        .expect("second run");
    for then in [&history[0], &history[3]] {
        let past = travel
            .estate(
                &pool,
                &rt,
                &scenario,
                Some(PastInstant {
                    run_id: Some(first_run),
                    at: then.at,
                }),
            )
            .await
            .expect("earlier run");
        assert_eq!(past.run_id(), first_run);
        assert_eq!(rls(&past).await, then.rls, "run {first_run} at {}", then.at);
    }
    let missing = travel
        .estate(
            &pool,
            &rt,
            &scenario,
            Some(PastInstant {
                run_id: Some(999),
                at: SimTime::ZERO,
            }),
        )
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(missing, "run: there is no run 999");
    rt.shutdown().await;
}
