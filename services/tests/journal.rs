//! Durable runs against a real SQLite file: every acknowledged input is in the journal (with
//! its audit row) before the answer, and a resumed run stores exactly the event log an
//! uninterrupted run stores.

use engine::{CoreAction, Scenario, Speed};
use services::history;
use services::journal::{self, AuditRow, Entry};
use services::runtime::{self, PendingAudit, RuntimeHandle};
use services::Store;

const DEMO: &str = include_str!("../../scenarios/demo.toml");

async fn db(dir: &tempfile::TempDir, name: &str) -> Store {
    let url = format!("sqlite://{}", dir.path().join(name).display());
    services::Store::connect(&url).await.expect("db")
}

fn demo() -> Scenario {
    Scenario::from_toml_str(DEMO, "demo.toml").expect("demo")
}

/// A stored event: seq, t_ms, engine, subject, kind, details, actor.
type EventRow = (i64, i64, String, String, String, String, Option<String>);

/// Every stored event of the run, in `seq` order, as comparable text.
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

/// DNS queries from a few clients (each one moves the GSLB round robin).
async fn queries(rt: &RuntimeHandle, n: u8) {
    for i in 0..n {
        rt.resolve_dns("apps.example.com", std::net::IpAddr::from([10, 0, 0, i]))
            .await
            .expect("answer");
    }
}

/// The first half of the inputs: steps, DNS queries, a note.
async fn first_half(rt: &RuntimeHandle) {
    for i in 0..40 {
        rt.step("olga").await.expect("step");
        if i % 10 == 3 {
            queries(rt, 5).await;
        }
    }
    rt.apply(
        CoreAction::Note {
            text: "before the crash".into(),
        },
        "olga",
    )
    .await
    .expect("note");
    for _ in 0..40 {
        rt.step("olga").await.expect("step");
    }
}

/// The second half: a note, DNS queries, more steps.
async fn second_half(rt: &RuntimeHandle) {
    queries(rt, 7).await;
    rt.apply(
        CoreAction::Note {
            text: "after the crash".into(),
        },
        "olga",
    )
    .await
    .expect("note");
    for _ in 0..60 {
        rt.step("olga").await.expect("step");
    }
}

#[tokio::test]
async fn an_acknowledged_input_is_journaled_with_its_audit_row_and_a_refused_one_is_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pool = db(&dir, "j.db").await;
    let rt = runtime::start(pool.clone(), &demo(), 42, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    let run = rt.run().id;
    let pending = PendingAudit::new(AuditRow {
        actor: "olga".into(),
        action: "timeline.note".into(),
        arguments: serde_json::json!({"text": "hello"}),
    });
    let scoped = rt.audited(pending.clone());
    rt.step("olga").await.expect("step");
    let refused = scoped
        .apply(
            CoreAction::HeartbeatPause {
                heartbeat: "no-such-heartbeat".into(),
            },
            "olga",
        )
        .await;
    assert!(refused.is_err());
    assert!(
        !pending.written(),
        "a refused input writes no audit row of its own"
    );
    scoped
        .apply(
            CoreAction::Note {
                text: "hello".into(),
            },
            "olga",
        )
        .await
        .expect("note");
    assert!(pending.written(), "the row went with the journal entry");

    // Answered, so already durable: read from the database, not from the runtime.
    let entries = journal::read(&pool, run, 0).await.expect("journal");
    let kinds: Vec<&str> = entries.iter().map(|e| e.entry.kind()).collect();
    assert_eq!(kinds, ["step", "action"]);
    assert_eq!(entries[1].actor.as_deref(), Some("olga"));
    assert_eq!(
        entries[1].entry,
        Entry::Action(
            CoreAction::Note {
                text: "hello".into()
            }
            .into()
        )
    );
    assert!(entries[1].t_ms >= entries[0].t_ms);
    let audit: Vec<(String, String, String)> =
        sqlx::query_as("SELECT actor, action, outcome FROM audit_log ORDER BY id")
            .fetch_all(sqlite(&pool))
            .await
            .expect("audit");
    assert_eq!(
        audit,
        [("olga".into(), "timeline.note".into(), "ok".into())],
        "one row, written with the entry"
    );
    rt.shutdown().await;
}

#[tokio::test]
async fn a_resumed_run_stores_the_log_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = demo();

    // Uninterrupted.
    let straight = db(&dir, "straight.db").await;
    let rt = runtime::start(straight.clone(), &scenario, 42, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    first_half(&rt).await;
    second_half(&rt).await;
    rt.shutdown().await;
    let want = log(&straight, rt.run().id).await;
    assert!(want.len() > 200, "a run worth comparing: {}", want.len());

    // Interrupted: the process stops after the first half and the last events it produced
    // never reached the disk; then the run is resumed and goes on.
    let crashed = db(&dir, "crashed.db").await;
    let rt = runtime::start(crashed.clone(), &scenario, 42, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    let run_id = rt.run().id;
    first_half(&rt).await;
    rt.shutdown().await;
    let stored = log(&crashed, run_id).await.len();
    // What a crash loses: the last events and the snapshots stored after them.
    let kept = i64::try_from(stored).expect("count") - 37;
    sqlx::query("DELETE FROM events WHERE run_id = ? AND seq >= ?")
        .bind(run_id)
        .bind(kept)
        .execute(sqlite(&crashed))
        .await
        .expect("lose the tail");
    sqlx::query("DELETE FROM snapshots WHERE run_id = ? AND event_seq > ?")
        .bind(run_id)
        .bind(kept)
        .execute(sqlite(&crashed))
        .await
        .expect("lose the later snapshots");

    let (run, start_speed) = history::unfinished_run(&crashed)
        .await
        .expect("runs")
        .expect("an unfinished run");
    assert_eq!(run.id, run_id);
    assert_eq!(start_speed.as_deref(), Some("paused"));
    let rt = runtime::resume(
        crashed.clone(),
        &scenario,
        run,
        Speed::Paused,
        None,
        Default::default(),
    )
    .await
    .expect("resume");
    assert_eq!(
        rt.status().events_total as usize,
        stored,
        "the lost tail is rebuilt"
    );
    second_half(&rt).await;
    rt.shutdown().await;
    assert_eq!(log(&crashed, run_id).await, want);
}

/// On PostgreSQL two transactions of events commit at once, so a crash may keep the later
/// and lose the earlier: the resume writes the hole, not only what follows the last event.
#[tokio::test]
async fn a_resumed_run_fills_a_hole_left_by_transactions_committed_out_of_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = demo();
    let straight = db(&dir, "straight.db").await;
    let rt = runtime::start(straight.clone(), &scenario, 42, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    first_half(&rt).await;
    rt.shutdown().await;
    let want = log(&straight, rt.run().id).await;

    let crashed = db(&dir, "crashed.db").await;
    let rt = runtime::start(crashed.clone(), &scenario, 42, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    let run_id = rt.run().id;
    first_half(&rt).await;
    rt.shutdown().await;
    let stored = i64::try_from(log(&crashed, run_id).await.len()).expect("count");
    let (from, to) = (stored - 60, stored - 20);
    sqlx::query("DELETE FROM events WHERE run_id = ? AND seq >= ? AND seq < ?")
        .bind(run_id)
        .bind(from)
        .bind(to)
        .execute(sqlite(&crashed))
        .await
        .expect("lose the earlier transaction");
    sqlx::query("DELETE FROM snapshots WHERE run_id = ? AND event_seq > ?")
        .bind(run_id)
        .bind(from)
        .execute(sqlite(&crashed))
        .await
        .expect("lose the later snapshots");
    assert_eq!(
        history::first_unstored(&crashed, run_id)
            .await
            .expect("gap"),
        u64::try_from(from).expect("seq")
    );

    let (run, _) = history::unfinished_run(&crashed)
        .await
        .expect("runs")
        .expect("an unfinished run");
    let rt = runtime::resume(
        crashed.clone(),
        &scenario,
        run,
        Speed::Paused,
        None,
        Default::default(),
    )
    .await
    .expect("resume");
    rt.shutdown().await;
    assert_eq!(
        log(&crashed, run_id).await,
        want,
        "the hole is written again"
    );
}

#[tokio::test]
async fn a_journal_row_that_does_not_decode_names_the_run_and_the_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pool = db(&dir, "bad.db").await;
    let rt = runtime::start(pool.clone(), &demo(), 42, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    let run_id = rt.run().id;
    rt.step("olga").await.expect("step");
    rt.apply(CoreAction::Note { text: "x".into() }, "olga")
        .await
        .expect("note");
    rt.shutdown().await;
    // Resume from the start's snapshot, so that the journal is read from its first entry.
    sqlx::query("DELETE FROM snapshots WHERE run_id = ? AND journal_seq > 0")
        .bind(run_id)
        .execute(sqlite(&pool))
        .await
        .expect("only the start's snapshot");
    sqlx::query("UPDATE journal SET entry = '{\"kind\":\"warp\"}' WHERE run_id = ? AND seq = 1")
        .bind(run_id)
        .execute(sqlite(&pool))
        .await
        .expect("hand edit");
    let (run, _) = history::unfinished_run(&pool)
        .await
        .expect("runs")
        .expect("unfinished");
    let err = runtime::resume(
        pool.clone(),
        &demo(),
        run,
        Speed::Paused,
        None,
        Default::default(),
    )
    .await
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(
        err.contains(&format!("run {run_id}: journal entry 1 cannot be read")),
        "{err}"
    );
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM journal WHERE run_id = ?")
        .bind(run_id)
        .fetch_one(sqlite(&pool))
        .await
        .expect("count");
    assert_eq!(rows, 2, "nothing is deleted");
}

#[tokio::test]
async fn a_run_resumes_from_its_latest_snapshot_and_the_journal_after_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = demo();
    let options = runtime::RuntimeOptions {
        snapshot_every: engine::SimDuration::from_mins(1),

        ..Default::default()
    };

    let straight = db(&dir, "straight.db").await;
    let rt = runtime::start_with(
        straight.clone(),
        &scenario,
        42,
        Vec::new(),
        Speed::Paused,
        options.clone(),
    )
    .await
    .expect("start");
    first_half(&rt).await;
    second_half(&rt).await;
    rt.shutdown().await;
    let want = log(&straight, rt.run().id).await;

    let crashed = db(&dir, "crashed.db").await;
    let rt = runtime::start_with(
        crashed.clone(),
        &scenario,
        42,
        Vec::new(),
        Speed::Paused,
        options.clone(),
    )
    .await
    .expect("start");
    let run_id = rt.run().id;
    first_half(&rt).await;
    // Let a tick or two take their snapshots, then stop.
    tokio::time::sleep(std::time::Duration::from_millis(350)).await;
    rt.shutdown().await;
    let snapshots: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM snapshots WHERE run_id = ?")
        .bind(run_id)
        .fetch_one(sqlite(&crashed))
        .await
        .expect("count");
    assert!(
        snapshots >= 2,
        "one at the start and one at shutdown: {snapshots}"
    );
    // The journal before the latest snapshot is not needed: without it, a resume that
    // started from the run's start instead of the snapshot would fail.
    sqlx::query(
        "DELETE FROM journal WHERE run_id = ?1 AND seq < (SELECT MAX(journal_seq) FROM snapshots WHERE run_id = ?1)",
    )
    .bind(run_id)
    .execute(sqlite(&crashed))
    .await
    .expect("drop the journal before the snapshot");
    let (run, _) = history::unfinished_run(&crashed)
        .await
        .expect("runs")
        .expect("unfinished");
    let rt = runtime::resume(
        crashed.clone(),
        &scenario,
        run,
        Speed::Paused,
        None,
        options,
    )
    .await
    .expect("resume");
    second_half(&rt).await;
    rt.shutdown().await;
    assert_eq!(log(&crashed, run_id).await, want);
}

#[tokio::test]
async fn a_snapshot_of_another_format_is_skipped_and_the_run_replayed_from_its_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pool = db(&dir, "format.db").await;
    let rt = runtime::start(pool.clone(), &demo(), 42, Vec::new(), Speed::Paused)
        .await
        .expect("start");
    let run_id = rt.run().id;
    for _ in 0..3 {
        rt.step("olga").await.expect("step");
    }
    let stepped = rt.status();
    rt.shutdown().await;
    // Another build's format (e.g. before an upgrade): the version bytes follow the 8-byte
    // magic.
    sqlx::query(
        "UPDATE snapshots SET bytes = substr(bytes, 1, 8) || x'63000000' || substr(bytes, 13) WHERE run_id = ?",
    )
    .bind(run_id)
    .execute(sqlite(&pool))
    .await
    .expect("hand edit");
    let (run, _) = history::unfinished_run(&pool)
        .await
        .expect("runs")
        .expect("unfinished");
    let resumed = runtime::resume(
        pool.clone(),
        &demo(),
        run,
        Speed::Paused,
        None,
        Default::default(),
    )
    .await
    .expect("the run is rebuilt from its start and journal");
    let status = resumed.status();
    assert_eq!(resumed.run().id, run_id);
    assert_eq!(status.t_ms, stepped.t_ms, "the same instant");
    assert_eq!(status.events_total, stepped.events_total, "the same events");
    resumed.shutdown().await;
}

/// The SQLite pool of a test's store, for looking at its tables directly.
fn sqlite(store: &services::Store) -> &sqlx::SqlitePool {
    store.sqlite_pool().expect("an SQLite store")
}
