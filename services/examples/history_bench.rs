//! History at scale on both stores (printed; docs/PERFORMANCE.md keeps the figures):
//!
//! 1. Writes: `BENCH_COMPARE_ROWS` (default 1 M) synthetic events of one run written by the
//!    console's persistence task (`runtime::writer`) into a fresh SQLite file, then
//!    the same rows bulk-imported by the `sqlite3` command-line shell into a fresh file with the
//!    same schema and indexes (`.import` into a staging table, then one `INSERT … SELECT`, in
//!    one transaction), then the same rows into PostgreSQL.
//! 2. Reads at size: each store filled to `BENCH_EVENTS` (default 10 M) events of the run,
//!    then `BENCH_ROUNDS` (default 200) of each page query with p50 / p95: the overview's
//!    newest events, one entity's timeline (a resource location, a server, a site, a group),
//!    a history page filtered by engine, by engine and kind, a page deep in the past, and
//!    pages sorted by subject, engine and kind (both ends and mid-run), and one event's JSON
//!    read by its key (what a row's disclosure asks for).
//!
//! PostgreSQL is used when `BENCH_POSTGRES_URL` (a role that may create databases) is set:
//! `bench/history.sh` starts a throwaway cluster with fsync on for it.

use std::time::{Duration, Instant};

use engine::{EngineId, Event, SimTime};
use services::history::{self, Cursor, EventFilter, EventOrder, PageAt};
use services::Store;

type Outcome<T> = Result<T, Box<dyn std::error::Error>>;

/// Simulated time the synthetic run spans: 30 days.
const SPAN_MS: u64 = 30 * 86_400_000;

/// Events per batch handed to the persistence task, as the runtime hands them.
const CHUNK: usize = 2_000;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The `i`-th of `total` synthetic events: the demo's mix of engines, subjects at full scale
/// (100 resource locations, 1,000 servers, 1,056 sites, 50 groups), kinds per engine,
/// details of the size the engines write.
fn synthetic(i: u64, total: u64) -> Event {
    let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 16;
    // Independent draws for the engine, the subject and the kind.
    let (e, s, k) = (h % 10, (h >> 8) % 10_000, ((h >> 24) % 3) as usize);
    let t = SimTime(i * SPAN_MS / total.max(1));
    let (engine, subject, kind) = match e {
        0..=2 => (
            EngineId::Lms,
            format!("XA-{:04}", s % 1_000),
            ["load.sample", "placement", "session.ended"][k],
        ),
        3..=4 => (
            EngineId::Lhc,
            format!("rl-{:03}", s % 100),
            ["registrations", "rl.ha_state", "vda.registered"][k],
        ),
        5..=6 => (
            EngineId::Gslb,
            format!("site-{:04}", s % 1_056),
            ["mep.state", "site.health", "adoption.accepted"][k],
        ),
        7 => (
            EngineId::Autoscale,
            format!("asg-{:02}", s % 50),
            ["decision", "node.added", "node.drained"][k],
        ),
        _ => (EngineId::Core, "pulse".to_owned(), "heartbeat"),
    };
    let details = serde_json::json!({
        "why": "load index 4123 below 5000 of XA-0042, 7 candidates compared",
        "value": h % 10_000,
        "seq": i,
    });
    Event::new(t, engine, subject, kind, details)
}

fn percentiles(mut samples: Vec<Duration>) -> String {
    samples.sort();
    let at = |q: f64| {
        let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
        samples[i].as_secs_f64() * 1000.0
    };
    format!(
        "p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        at(0.5),
        at(0.95),
        at(1.0)
    )
}

/// Writes events `from..to` of the run through the console's persistence task (its own
/// connection, its transactions), handing it batches of [`CHUNK`] as the runtime does; returns
/// events stored per second, from the first batch to the last commit.
async fn write(store: &Store, run: i64, from: u64, to: u64, total: u64) -> Outcome<f64> {
    use services::runtime::writer::{self, Connections, Persist};
    let batches: Vec<Vec<Event>> = (from..to)
        .step_by(CHUNK)
        .map(|start| {
            (start..(start + CHUNK as u64).min(to))
                .map(|i| synthetic(i, total))
                .collect()
        })
        .collect();
    let (tx, rx) = tokio::sync::mpsc::channel(8);
    // No inputs: the journal side has no sender.
    let connections = Connections::open(store.clone(), tokio::sync::mpsc::channel(1).1).await?;
    let persisted = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    settle();
    let started = Instant::now();
    let task = tokio::spawn(writer::run(connections, run, from, rx, persisted.clone()));
    for batch in batches {
        tx.send(Persist::Events(batch)).await?;
    }
    drop(tx);
    task.await?;
    let stored = persisted.load(std::sync::atomic::Ordering::Relaxed);
    if stored != to - from {
        return Err(format!("{stored} of {} events stored", to - from).into());
    }
    Ok(stored as f64 / started.elapsed().as_secs_f64())
}

/// Writes the page cache's dirty pages out (`sync`), so that a measured write does not share
/// the disk and the kernel's writeback with the one measured before it.
fn settle() {
    // Without `sync` the figures are noisier, not wrong: a failure is not an error here.
    let _ = std::process::Command::new("sync").status();
}

/// The `sqlite3` shell's own bulk import of the same rows into the same schema; events/s.
fn sqlite3_import(dir: &std::path::Path, rows: u64, total: u64) -> Outcome<f64> {
    use std::io::Write;
    let csv_path = dir.join("events.csv");
    {
        let mut csv = csv_writer(&csv_path)?;
        for i in 0..rows {
            let e = synthetic(i, total);
            csv.write_record([
                "1",
                &i.to_string(),
                &e.t_ms.to_string(),
                e.engine.as_str(),
                &e.subject,
                &e.kind,
                &e.details.to_string(),
            ])?;
        }
        csv.flush()?;
    }
    let db = dir.join("sqlite3-import.db");
    // The schema of the console's migrations, applied by the console itself.
    let rt = tokio::runtime::Handle::current();
    let url = format!("sqlite://{}", db.display());
    tokio::task::block_in_place(|| {
        rt.block_on(async {
            let store = Store::connect(&url).await?;
            history::create_run(&store, "bench", 1, None).await?;
            if let Some(pool) = store.sqlite_pool() {
                pool.close().await;
            }
            Ok::<_, services::ServiceError>(())
        })
    })?;
    let script = format!(
        // The file is in WAL mode already (the console's migrations made it).
        ".timeout 10000\nPRAGMA synchronous = NORMAL;\n\
         CREATE TEMP TABLE staging (run_id, seq, t_ms, engine, subject, kind, details);\n\
         BEGIN;\n.import --csv {} staging\n\
         INSERT INTO events (run_id, seq, t_ms, engine, subject, kind, details) \
         SELECT run_id, seq, t_ms, engine, subject, kind, details FROM staging;\nCOMMIT;\n",
        csv_path.display()
    );
    settle();
    let started = Instant::now();
    let mut child = std::process::Command::new("sqlite3")
        .arg(&db)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(script.as_bytes())?;
    let status = child.wait()?;
    let elapsed = started.elapsed();
    if !status.success() {
        return Err(format!("sqlite3 failed: {status}").into());
    }
    Ok(rows as f64 / elapsed.as_secs_f64())
}

fn csv_writer(path: &std::path::Path) -> Outcome<csv::Writer<std::io::BufWriter<std::fs::File>>> {
    Ok(csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(std::io::BufWriter::new(std::fs::File::create(path)?)))
}

/// `rounds` of `query`, each with the round number; the percentiles.
async fn measure<F, Fut>(rounds: u64, mut query: F) -> Outcome<String>
where
    F: FnMut(u64) -> Fut,
    Fut: std::future::Future<Output = Result<usize, services::ServiceError>>,
{
    let mut samples = Vec::with_capacity(rounds as usize);
    for round in 0..rounds {
        let started = Instant::now();
        let rows = query(round).await?;
        samples.push(started.elapsed());
        if rows == 0 {
            return Err("a page query found nothing".into());
        }
    }
    Ok(percentiles(samples))
}

/// The page queries of the console at the store's size.
async fn reads(store: &Store, run: i64, total: u64, rounds: u64) -> Outcome<()> {
    let all = EventFilter {
        run_id: run,
        ..Default::default()
    };
    println!(
        "  overview, newest 20 events:          {}",
        measure(rounds, |_| async {
            Ok(history::recent_events(store, &all, 20).await?.len())
        })
        .await?
    );
    for (label, prefix, count) in [
        ("a resource location", "rl-", 100),
        ("a server", "XA-", 1_000),
        ("a site", "site-", 1_056),
        ("a group", "asg-", 50),
    ] {
        let line = measure(rounds, |round| {
            let subject = match prefix {
                "rl-" => format!("rl-{:03}", round * 7 % count),
                "XA-" => format!("XA-{:04}", round * 7 % count),
                "site-" => format!("site-{:04}", round * 7 % count),
                _ => format!("asg-{:02}", round * 7 % count),
            };
            let filter = EventFilter {
                run_id: run,
                subject: Some(subject),
                ..Default::default()
            };
            async move {
                Ok(history::page(store, &filter, PageAt::Newest, 50)
                    .await?
                    .rows
                    .len())
            }
        })
        .await?;
        println!("  timeline of {label:<20}    {line}");
    }
    for (label, engine, kind) in [
        ("engine = lms", "lms", None),
        ("engine = gslb, kind", "gslb", Some("site.health")),
        ("engine = core", "core", None),
    ] {
        let filter = EventFilter {
            run_id: run,
            engine: Some(engine.into()),
            kind: kind.map(str::to_owned),
            ..Default::default()
        };
        let line = measure(rounds, |_| async {
            Ok(history::page(store, &filter, PageAt::Newest, 50)
                .await?
                .rows
                .len())
        })
        .await?;
        println!("  history page, {label:<22} {line}");
    }
    // A page in the middle of the run, as "Older" links reach it.
    let middle = history::recent_events(
        store,
        &EventFilter {
            run_id: run,
            to_ms: Some(SPAN_MS / 2),
            ..Default::default()
        },
        1,
    )
    .await?;
    let cursor = middle.first().map(Cursor::of).ok_or("empty run")?;
    let filter = EventFilter {
        run_id: run,
        engine: Some("lhc".into()),
        ..Default::default()
    };
    let line = measure(rounds, |_| async {
        Ok(history::page(store, &filter, PageAt::Older(cursor), 50)
            .await?
            .rows
            .len())
    })
    .await?;
    println!("  history page, lhc, mid-run (older) {line}");
    // An event's JSON read by its key, as a row's disclosure asks for it when opened.
    let line = measure(rounds, |_| async {
        Ok(usize::from(
            history::event_details(store, run, cursor).await?.is_some(),
        ))
    })
    .await?;
    println!("  an event's JSON by its key, mid-run  {line}");
    // Sorted by a column (each then by time): both ends, and the page after the mid-run event.
    for (label, order, at) in [
        ("by subject, from Z", EventOrder::Subject, PageAt::Newest),
        ("by subject, from A", EventOrder::Subject, PageAt::Oldest),
        (
            "by subject, mid-run",
            EventOrder::Subject,
            PageAt::Older(cursor),
        ),
        ("by engine, from A", EventOrder::Engine, PageAt::Oldest),
        ("by kind, from Z", EventOrder::Kind, PageAt::Newest),
        ("by kind, mid-run", EventOrder::Kind, PageAt::Older(cursor)),
    ] {
        let line = measure(rounds, |_| async {
            Ok(history::sorted_page(store, &all, order, at, 50)
                .await?
                .rows
                .len())
        })
        .await?;
        println!("  history page, {label:<22} {line}");
    }
    // One server's events by kind: read through its subject index and sorted (its events only).
    let server = EventFilter {
        run_id: run,
        subject: Some("XA-0042".into()),
        ..Default::default()
    };
    let line = measure(rounds, |_| async {
        Ok(
            history::sorted_page(store, &server, EventOrder::Kind, PageAt::Newest, 50)
                .await?
                .rows
                .len(),
        )
    })
    .await?;
    println!("  history page, a server by kind      {line}");
    let _ = total;
    Ok(())
}

/// Fills `store` to `total` events (the first `written` are there) and measures the reads.
async fn at_size(
    label: &str,
    store: &Store,
    run: i64,
    written: u64,
    total: u64,
    rounds: u64,
) -> Outcome<()> {
    if total > written {
        let rate = write(store, run, written, total, total).await?;
        println!("{label}: filled to {total} events ({rate:.0} events/s)");
    }
    analyze(store).await?;
    println!("{label}: page queries at {total} stored events, {rounds} rounds each");
    reads(store, run, total, rounds).await
}

/// Fresh planner statistics, as autovacuum / `PRAGMA optimize` keep them in production.
async fn analyze(store: &Store) -> Outcome<()> {
    if let Some(pool) = store.sqlite_pool() {
        sqlx::query("ANALYZE").execute(pool).await?;
    }
    if let Some(pool) = store.postgres_pool() {
        sqlx::query("ANALYZE events").execute(pool).await?;
    }
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Outcome<()> {
    let total = env_number("BENCH_EVENTS", 10_000_000);
    let compare = env_number("BENCH_COMPARE_ROWS", 1_000_000).min(total);
    let rounds = env_number("BENCH_ROUNDS", 200);
    let dir = tempfile::tempdir()?;

    println!(
        "writes of {compare} events (batches of {CHUNK}; transactions of {} on SQLite, {} two at a time on PostgreSQL):",
        services::runtime::writer::Flush::LIVE.rows,
        services::runtime::writer::CHUNK_ROWS
    );
    let sqlite = Store::connect(&format!(
        "sqlite://{}",
        dir.path().join("bench.db").display()
    ))
    .await?;
    let sqlite_run = history::create_run(&sqlite, "bench", 1, None).await?.id;
    let ours = write(&sqlite, sqlite_run, 0, compare, total).await?;
    let shell = sqlite3_import(dir.path(), compare, total)?;
    println!(
        "  SQLite, the console's writer:       {ours:>10.0} events/s\n  SQLite, sqlite3 .import (same rows): {shell:>10.0} events/s\n  ratio:                               {:.2}",
        ours / shell
    );
    let postgres = match std::env::var("BENCH_POSTGRES_URL") {
        Ok(admin) => {
            let url = services::store::postgres::scratch_database(&admin, "bench").await?;
            let store = Store::connect(&url).await?;
            let run = history::create_run(&store, "bench", 1, None).await?.id;
            let rate = write(&store, run, 0, compare, total).await?;
            println!("  PostgreSQL, the console's writer:   {rate:>10.0} events/s");
            Some((store, run))
        }
        Err(_) => {
            println!(
                "  PostgreSQL: skipped (BENCH_POSTGRES_URL not set; bench/history.sh sets it)"
            );
            None
        }
    };

    at_size("SQLite", &sqlite, sqlite_run, compare, total, rounds).await?;
    if let Some((store, run)) = postgres {
        at_size("PostgreSQL", &store, run, compare, total, rounds).await?;
    }
    Ok(())
}
