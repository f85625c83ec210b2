//! The determinism proof, in-process, as a property: for any journal of mixed inputs and any
//! crash point (with any tail of unstored events lost, and the snapshots after it), the
//! resumed run stores exactly the event log of the uninterrupted run.

use engine::lhc::LhcAction;
use engine::{CoreAction, Scenario, SimDuration, Speed};
use proptest::prelude::*;
use services::runtime::{self, RuntimeHandle, RuntimeOptions};
use services::Store;

const DEMO: &str = include_str!("../../scenarios/demo.toml");

/// One operator input.
#[derive(Debug, Clone)]
enum Op {
    Step,
    Note(u8),
    Dns(u8),
    Outage { force: bool, rl: bool },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Step),
        1 => any::<u8>().prop_map(Op::Note),
        2 => any::<u8>().prop_map(Op::Dns),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(force, rl)| Op::Outage { force, rl }),
    ]
}

async fn play(rt: &RuntimeHandle, ops: &[Op]) {
    for op in ops {
        // A refused input (e.g. clearing an outage nobody forced) changes nothing in either
        // run; only what was acknowledged is journaled.
        let _ = match op {
            Op::Step => rt.step("olga").await.map(|_| ()),
            Op::Note(n) => rt
                .apply(
                    CoreAction::Note {
                        text: format!("note {n}"),
                    },
                    "olga",
                )
                .await
                .map(|_| ()),
            Op::Dns(n) => rt
                .resolve_dns("apps.example.com", std::net::IpAddr::from([10, 0, 1, *n]))
                .await
                .map(|_| ()),
            Op::Outage { force, rl } => {
                let resource_location = if *rl { "rl-paris" } else { "rl-tokyo" }.to_owned();
                let action = if *force {
                    LhcAction::ForceOutage {
                        resource_location,
                        connector: None,
                    }
                } else {
                    LhcAction::ClearOutage {
                        resource_location,
                        connector: None,
                    }
                };
                rt.apply(action, "olga").await.map(|_| ())
            }
        };
    }
}

async fn db(dir: &tempfile::TempDir, name: &str) -> Store {
    let url = format!("sqlite://{}", dir.path().join(name).display());
    services::Store::connect(&url).await.expect("db")
}

/// A stored event: seq, t_ms, engine, subject, kind, details, actor.
type EventRow = (i64, i64, String, String, String, String, Option<String>);

async fn log(pool: &Store, run_id: i64) -> Vec<String> {
    let rows: Vec<EventRow> = sqlx::query_as(
        "SELECT seq, t_ms, engine, subject, kind, details, actor FROM events WHERE run_id = ? ORDER BY seq",
    )
    .bind(run_id)
    .fetch_all(sqlite(pool))
    .await
    .expect("events");
    rows.into_iter().map(|r| format!("{r:?}")).collect()
}

/// Runs `ops` straight, and again with a crash after `kill` of them that loses the last
/// `lost` stored events (and the snapshots after them); returns both logs.
async fn straight_and_crashed(
    ops: Vec<Op>,
    kill: usize,
    lost: usize,
    snapshot_min: u64,
) -> (Vec<String>, Vec<String>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = Scenario::from_toml_str(DEMO, "demo.toml").expect("demo");
    let options = RuntimeOptions {
        snapshot_every: SimDuration::from_mins(snapshot_min),

        ..Default::default()
    };
    let start = |pool: Store| {
        runtime::start_with(
            pool,
            &scenario,
            11,
            Vec::new(),
            Speed::Paused,
            options.clone(),
        )
    };

    let straight = db(&dir, "straight.db").await;
    let rt = start(straight.clone()).await.expect("start");
    play(&rt, &ops).await;
    rt.shutdown().await;
    let want = log(&straight, rt.run().id).await;

    let crashed = db(&dir, "crashed.db").await;
    let rt = start(crashed.clone()).await.expect("start");
    let run_id = rt.run().id;
    let kill = kill.min(ops.len());
    play(&rt, &ops[..kill]).await;
    rt.shutdown().await;
    let stored = log(&crashed, run_id).await.len();
    let kept = stored.saturating_sub(lost) as i64;
    for sql in [
        "DELETE FROM events WHERE run_id = ? AND seq >= ?",
        "DELETE FROM snapshots WHERE run_id = ? AND event_seq > ?",
    ] {
        sqlx::query(sql)
            .bind(run_id)
            .bind(kept)
            .execute(sqlite(&crashed))
            .await
            .expect("crash");
    }
    let (run, _) = services::history::unfinished_run(&crashed)
        .await
        .expect("runs")
        .expect("unfinished");
    let rt = runtime::resume(
        crashed.clone(),
        &scenario,
        run,
        Speed::Paused,
        None,
        options.clone(),
    )
    .await
    .expect("resume");
    play(&rt, &ops[kill..]).await;
    rt.shutdown().await;
    (want, log(&crashed, run_id).await)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn any_journal_and_crash_point_resume_to_the_uninterrupted_log(
        ops in proptest::collection::vec(op(), 5..60),
        kill in 0usize..60,
        lost in 0usize..80,
        snapshot_min in 1u64..20,
    ) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("tokio");
        let (want, got) = rt.block_on(straight_and_crashed(ops, kill, lost, snapshot_min));
        prop_assert!(!want.is_empty());
        prop_assert_eq!(got, want);
    }
}

/// The SQLite pool of a test's store, for looking at its tables directly.
fn sqlite(store: &services::Store) -> &sqlx::SqlitePool {
    store.sqlite_pool().expect("an SQLite store")
}
