//! The persistence task: gathers event batches from the runtime and writes them in one
//! transaction per flush (at most [`FLUSH_ROWS`] rows or every [`FLUSH_EVERY`]). It numbers
//! the events of the run in the order they arrive (`seq`), so that the same event produced
//! again by a resumed run is recognised and stored once. Snapshots travel on the same queue,
//! so one is stored only after every event that came before it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use engine::Event;
use sqlx::SqlitePool;
use tokio::sync::mpsc;
use tokio::time::{timeout_at, Instant};

use crate::history;
use crate::snapshots::{self, SnapshotRow};
use crate::telemetry;

/// A flush happens once this many rows are waiting...
pub const FLUSH_ROWS: usize = 5_000;
/// ...or this long after the first row of the flush arrived.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);

/// What the runtime hands the persistence task, in order.
#[derive(Debug)]
pub enum Persist {
    /// The next events of the run.
    Events(Vec<Event>),
    /// A snapshot taken after every event sent before it: written once they are.
    Snapshot(Box<SnapshotRow>),
}

/// Runs until every sender is dropped, then flushes what is left and returns. The first
/// event received is the run's event number `first_seq`; `persisted` counts the events
/// stored (for the clock status: emitted is not stored).
pub async fn run(
    pool: SqlitePool,
    run_id: i64,
    first_seq: u64,
    mut batches: mpsc::Receiver<Persist>,
    persisted: Arc<AtomicU64>,
) {
    let mut next_seq = first_seq;
    let mut pending: Vec<Event> = Vec::new();
    let mut snapshot = None;
    while let Some(first) = batches.recv().await {
        match first {
            Persist::Events(events) => pending.extend(events),
            Persist::Snapshot(row) => snapshot = Some(row),
        }
        let deadline = Instant::now() + FLUSH_EVERY;
        let mut closed = false;
        while pending.len() < FLUSH_ROWS && snapshot.is_none() {
            match timeout_at(deadline, batches.recv()).await {
                Ok(Some(Persist::Events(more))) => pending.extend(more),
                Ok(Some(Persist::Snapshot(row))) => snapshot = Some(row),
                Ok(None) => {
                    closed = true;
                    break;
                }
                Err(_elapsed) => break,
            }
        }
        flush(&pool, run_id, &mut next_seq, &mut pending, &persisted).await;
        if let Some(row) = snapshot.take() {
            store_snapshot(&pool, run_id, &row).await;
        }
        if closed {
            break;
        }
    }
    flush(&pool, run_id, &mut next_seq, &mut pending, &persisted).await;
}

async fn store_snapshot(pool: &SqlitePool, run_id: i64, row: &SnapshotRow) {
    let stored = async {
        let mut tx = pool.begin().await?;
        snapshots::insert(&mut tx, run_id, row).await?;
        tx.commit().await?;
        Ok::<(), crate::ServiceError>(())
    }
    .await;
    match stored {
        Ok(()) => metrics::counter!(telemetry::SNAPSHOTS_WRITTEN).increment(1),
        Err(e) => {
            metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
            tracing::error!(error = %e, t_ms = row.t_ms, "could not store a snapshot");
        }
    }
}

async fn flush(
    pool: &SqlitePool,
    run_id: i64,
    next_seq: &mut u64,
    pending: &mut Vec<Event>,
    persisted: &AtomicU64,
) {
    if pending.is_empty() {
        return;
    }
    let first = *next_seq;
    *next_seq += pending.len() as u64;
    match history::insert_events(pool, run_id, first, pending).await {
        Ok(()) => {
            persisted.fetch_add(pending.len() as u64, Ordering::Relaxed);
            metrics::counter!(telemetry::EVENTS_PERSISTED).increment(pending.len() as u64);
        }
        Err(e) => {
            metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
            tracing::error!(error = %e, rows = pending.len(), "could not persist events");
        }
    }
    pending.clear();
}
