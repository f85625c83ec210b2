//! Durable-run figures, on a real SQLite file (printed; docs/PERFORMANCE.md keeps them):
//!
//! 1. Runtime throughput at speed `max` on the demo estate: events persisted per second with
//!    snapshots every simulated hour (the default) and with snapshots off, in the same run.
//! 2. Journal append + acknowledgement at speed `max` with the demo estate running: an
//!    operator note every 5 ms (with its audit row, as a request makes it), p50/p99/max.
//! 3. The demo estate run to 30 simulated days at `max` (and the cost of its snapshots), then
//!    a crash at the worst point (just before a snapshot: the latest one is an interval
//!    old): time to resume; then time travel to instants spread over the run (rebuild + one
//!    page read, no cache).
//! 4. The same after a long run holding `BENCH_EVENTS` (default 10 M; 0 skips it) stored events.
//! 5. The same for the 1 M-VDA estate (bench/scenarios/lhc-1m.toml) after 24 hours.
//!
//! `cargo run --release -p services --example durability_bench [seconds]` (bench/durability.sh);
//! `BENCH_PARTS=journal` (a comma-separated list of `throughput`, `month`, `journal`, `large`)
//! runs only those parts.

use std::time::{Duration, Instant};

use engine::{CoreAction, Scenario, SimDuration, SimTime, Speed};
use services::journal::AuditRow;
use services::runtime::{self, PendingAudit, RuntimeHandle, RuntimeOptions};
use services::time_travel::{PastInstant, TimeTravel};
use services::Store;

const DEMO: &str = include_str!("../../scenarios/demo.toml");
const LHC_1M: &str = include_str!("../../bench/scenarios/lhc-1m.toml");
const DAY_MS: u64 = 86_400_000;

type Outcome<T> = Result<T, Box<dyn std::error::Error>>;

async fn db(dir: &tempfile::TempDir, name: &str) -> Outcome<Store> {
    let url = format!("sqlite://{}", dir.path().join(name).display());
    Ok(services::Store::connect(&url).await?)
}

fn percentiles(mut samples: Vec<Duration>) -> String {
    samples.sort();
    let at = |q: f64| {
        let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
        samples[i].as_secs_f64() * 1000.0
    };
    format!(
        "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} samples)",
        at(0.5),
        at(0.99),
        at(1.0),
        samples.len()
    )
}

/// Events persisted per second over `seconds` of a fresh demo run at `max`.
async fn throughput(
    dir: &tempfile::TempDir,
    name: &str,
    every: SimDuration,
    seconds: u64,
) -> Outcome<f64> {
    let pool = db(dir, name).await?;
    let scenario = Scenario::from_toml_str(DEMO, "demo.toml")?;
    let options = RuntimeOptions {
        snapshot_every: every,

        ..Default::default()
    };
    let rt = runtime::start_with(pool, &scenario, 1, Vec::new(), Speed::Max, options).await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (e0, t0) = (rt.status().events_persisted, Instant::now());
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let rate = (rt.status().events_persisted - e0) as f64 / t0.elapsed().as_secs_f64();
    rt.shutdown().await;
    Ok(rate)
}

/// `notes` operator notes, one every 5 ms, each with its audit row: the time to the answer.
async fn journal_latency(rt: &RuntimeHandle, notes: usize) -> Outcome<Vec<Duration>> {
    let mut samples = Vec::with_capacity(notes);
    for i in 0..notes {
        let audited = rt.audited(PendingAudit::new(AuditRow {
            actor: "bench".into(),
            action: "timeline.note".into(),
            arguments: serde_json::json!({ "text": i }),
        }));
        let started = Instant::now();
        audited
            .apply(
                CoreAction::Note {
                    text: format!("note {i}"),
                },
                "bench",
            )
            .await?;
        samples.push(started.elapsed());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Ok(samples)
}

/// Waits until the clock of `rt` (running at `max`) reaches `until`.
async fn run_until(rt: &RuntimeHandle, until: SimTime) -> Duration {
    let started = Instant::now();
    while rt.status().t_ms < until.as_millis() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    started.elapsed()
}

/// Stops `rt`, removes its shutdown snapshot (a crash writes none), and times the resume.
async fn crash_and_resume(
    pool: &Store,
    scenario: &Scenario,
    rt: RuntimeHandle,
) -> Outcome<(Duration, RuntimeHandle)> {
    let run_id = rt.run().id;
    rt.shutdown().await;
    sqlx::query(
        "DELETE FROM snapshots WHERE id = (SELECT MAX(id) FROM snapshots WHERE run_id = ?)",
    )
    .bind(run_id)
    .execute(sqlite(pool))
    .await?;
    let (run, _) = services::history::unfinished_run(pool)
        .await?
        .ok_or("no unfinished run")?;
    let started = Instant::now();
    let rt = runtime::resume(
        pool.clone(),
        scenario,
        run,
        Speed::Paused,
        Some(Speed::Paused),
        RuntimeOptions::default(),
    )
    .await?;
    Ok((started.elapsed(), rt))
}

/// Rebuilds `instants` of the live run of `rt` (no cache between them) and reads the
/// resource locations page's data from each.
async fn time_travel(
    pool: &Store,
    rt: &RuntimeHandle,
    scenario: &Scenario,
    instants: &[SimTime],
) -> Outcome<Vec<Duration>> {
    let scenario = std::sync::Arc::new(scenario.clone());
    let mut samples = Vec::new();
    for at in instants {
        let travel = TimeTravel::default();
        let started = Instant::now();
        let instant = PastInstant {
            run_id: None,
            at: *at,
        };
        let past = travel.estate(pool, rt, &scenario, Some(instant)).await?;
        let rls = past
            .query(|sim| sim.lhc().resource_locations().len())
            .await?;
        samples.push(started.elapsed());
        if rls == 0 {
            return Err("a past estate without resource locations".into());
        }
    }
    Ok(samples)
}

/// `n` instants spread over `[0, end)`, each at an odd offset in its slice (deterministic).
fn instants(end: SimTime, n: u64) -> Vec<SimTime> {
    let slice = (end.as_millis() / n).max(1);
    (0..n)
        .map(|i| SimTime(slice * i + (i * 7_919_311 + 1_234_567) % slice))
        .collect()
}

/// Time to take a snapshot of the simulation `rt` runs, and its size.
async fn snapshot_cost(rt: &RuntimeHandle) -> Outcome<(Duration, usize)> {
    Ok(rt
        .query(|sim| {
            let started = Instant::now();
            let bytes = sim.snapshot().into_bytes().len();
            (started.elapsed(), bytes)
        })
        .await?)
}

/// Crashes `rt` just before a snapshot, resumes it, and rebuilds `n` instants of it.
async fn resume_and_travel(
    label: &str,
    pool: &Store,
    scenario: &Scenario,
    rt: RuntimeHandle,
    n: u64,
) -> Outcome<()> {
    let (t, stored) = (SimTime(rt.status().t_ms), rt.status().events_persisted);
    let (resume, rt) = crash_and_resume(pool, scenario, rt).await?;
    println!(
        "{label}: resume at {t} with {stored} events stored (crash just before a snapshot): {:.0} ms to serving",
        resume.as_secs_f64() * 1000.0
    );
    let end = SimTime(rt.status().t_ms);
    let samples = time_travel(pool, &rt, scenario, &instants(end, n)).await?;
    println!(
        "{label}: time travel to {n} instants: {}",
        percentiles(samples)
    );
    rt.shutdown().await;
    Ok(())
}

#[tokio::main(flavor = "multi_thread")]
async fn main() -> Outcome<()> {
    let seconds = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let stored_target: u64 = std::env::var("BENCH_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let parts = std::env::var("BENCH_PARTS").unwrap_or_default();
    let part = |name: &str| parts.is_empty() || parts.split(',').any(|p| p.trim() == name);
    let dir = tempfile::tempdir()?;
    let demo = Scenario::from_toml_str(DEMO, "demo.toml")?;

    if part("throughput") {
        throughput_figures(&dir, seconds).await?;
    }
    if part("month") {
        month(&dir, &demo).await?;
    }
    if part("journal") {
        journal(&dir, &demo, stored_target).await?;
    }
    if part("large") {
        large(&dir).await?;
    }
    Ok(())
}

/// Throughput at `max` with snapshots every simulated hour and with snapshots off.
async fn throughput_figures(dir: &tempfile::TempDir, seconds: u64) -> Outcome<()> {
    let never = SimDuration::from_mins(60 * 24 * 365 * 100);
    let off = throughput(dir, "off.db", never, seconds).await?;
    let on = throughput(dir, "on.db", runtime::DEFAULT_SNAPSHOT_EVERY, seconds).await?;
    println!(
        "runtime at max, demo estate: {on:.0} events persisted/s with a snapshot every simulated hour, {off:.0} with snapshots off ({:.1} %)",
        on / off * 100.0
    );
    Ok(())
}

/// The demo estate to 30 simulated days, its snapshots' cost, then a crash, resume and time
/// travel.
async fn month(dir: &tempfile::TempDir, demo: &Scenario) -> Outcome<()> {
    let options = RuntimeOptions::default();
    let pool = db(dir, "month.db").await?;
    let rt = runtime::start_with(pool.clone(), demo, 1, Vec::new(), Speed::Max, options).await?;
    let wall = run_until(&rt, SimTime(30 * DAY_MS)).await;
    let (encode, bytes) = snapshot_cost(&rt).await?;
    let taken: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM snapshots WHERE run_id = ?")
        .bind(rt.run().id)
        .fetch_one(sqlite(&pool))
        .await?;
    println!(
        "demo estate to 30 simulated days at max: {:.1} s wall; {taken} snapshots stored by then (at most one per slice of work), {:.2} ms and {} KB each: {:.2} % of the runtime's time",
        wall.as_secs_f64(),
        encode.as_secs_f64() * 1000.0,
        bytes / 1024,
        taken as f64 * encode.as_secs_f64() / wall.as_secs_f64() * 100.0
    );
    resume_and_travel("demo estate, 30 days", &pool, demo, rt, 40).await
}

/// Journal latency with the clock paused (the commit alone), then at `max`; then the run goes
/// on to `stored_target` stored events for resume and time travel at that size (0: skipped).
async fn journal(dir: &tempfile::TempDir, demo: &Scenario, stored_target: u64) -> Outcome<()> {
    let options = RuntimeOptions::default();
    let pool = db(dir, "paused.db").await?;
    let rt = runtime::start_with(
        pool.clone(),
        demo,
        1,
        Vec::new(),
        Speed::Paused,
        options.clone(),
    )
    .await?;
    let samples = journal_latency(&rt, 300).await?;
    println!(
        "journal append + acknowledgement, clock paused: {}",
        percentiles(samples)
    );
    rt.shutdown().await;

    let pool = db(dir, "large-history.db").await?;
    let rt = runtime::start_with(pool.clone(), demo, 1, Vec::new(), Speed::Max, options).await?;
    let samples = journal_latency(&rt, 1_000).await?;
    println!(
        "journal append + acknowledgement at max (demo estate running): {}",
        percentiles(samples)
    );
    if stored_target == 0 {
        rt.shutdown().await;
        return Ok(());
    }
    while rt.status().events_persisted < stored_target {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    resume_and_travel("demo estate, long run", &pool, demo, rt, 40).await
}

/// The 1 M-VDA estate to 24 simulated hours, its snapshot's cost, resume and time travel.
async fn large(dir: &tempfile::TempDir) -> Outcome<()> {
    let options = RuntimeOptions::default();
    let large = Scenario::from_toml_str(LHC_1M, "bench/scenarios/lhc-1m.toml")?;
    let pool = db(dir, "large.db").await?;
    let rt = runtime::start_with(pool.clone(), &large, 7, Vec::new(), Speed::Max, options).await?;
    let wall = run_until(&rt, SimTime(DAY_MS)).await;
    let (encode, bytes) = snapshot_cost(&rt).await?;
    println!(
        "1 M-VDA estate to 24 simulated hours at max: {:.1} s wall, {} events; a snapshot: {:.0} ms, {:.1} MiB",
        wall.as_secs_f64(),
        rt.status().events_total,
        encode.as_secs_f64() * 1000.0,
        bytes as f64 / 1_048_576.0
    );
    resume_and_travel("1 M-VDA estate, 24 h", &pool, &large, rt, 8).await
}

/// The SQLite pool of a test's store, for looking at its tables directly.
fn sqlite(store: &services::Store) -> &sqlx::SqlitePool {
    store.sqlite_pool().expect("an SQLite store")
}
