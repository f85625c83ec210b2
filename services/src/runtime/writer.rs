//! The persistence task: gathers event batches from the runtime and writes them in one
//! transaction per flush (at most [`FLUSH_ROWS`] rows or every [`FLUSH_EVERY`]). It numbers
//! the events of the run in the order they arrive (`seq`), so that the same event produced
//! again by a resumed run is recognised and stored once.

use std::time::Duration;

use engine::Event;
use sqlx::SqlitePool;
use tokio::sync::mpsc;
use tokio::time::{timeout_at, Instant};

use crate::history;
use crate::telemetry;

/// A flush happens once this many rows are waiting...
pub const FLUSH_ROWS: usize = 5_000;
/// ...or this long after the first row of the flush arrived.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);

/// Runs until every sender is dropped, then flushes what is left and returns. The first
/// event received is the run's event number `first_seq`.
pub async fn run(
    pool: SqlitePool,
    run_id: i64,
    first_seq: u64,
    mut batches: mpsc::Receiver<Vec<Event>>,
) {
    let mut next_seq = first_seq;
    let mut pending: Vec<Event> = Vec::new();
    while let Some(first) = batches.recv().await {
        pending.extend(first);
        let deadline = Instant::now() + FLUSH_EVERY;
        let mut closed = false;
        while pending.len() < FLUSH_ROWS {
            match timeout_at(deadline, batches.recv()).await {
                Ok(Some(more)) => pending.extend(more),
                Ok(None) => {
                    closed = true;
                    break;
                }
                Err(_elapsed) => break,
            }
        }
        flush(&pool, run_id, &mut next_seq, &mut pending).await;
        if closed {
            break;
        }
    }
    flush(&pool, run_id, &mut next_seq, &mut pending).await;
}

async fn flush(pool: &SqlitePool, run_id: i64, next_seq: &mut u64, pending: &mut Vec<Event>) {
    if pending.is_empty() {
        return;
    }
    let first = *next_seq;
    *next_seq += pending.len() as u64;
    match history::insert_events(pool, run_id, first, pending).await {
        Ok(()) => metrics::counter!(telemetry::EVENTS_PERSISTED).increment(pending.len() as u64),
        Err(e) => {
            metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
            tracing::error!(error = %e, rows = pending.len(), "could not persist events");
        }
    }
    pending.clear();
}
