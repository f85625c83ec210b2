//! The persistence task: gathers event batches from the runtime and writes them in one
//! transaction per flush (at most [`FLUSH_ROWS`] rows or every [`FLUSH_EVERY`]). It numbers
//! the events of the run in the order they arrive (`seq`), so that the same event produced
//! again by a resumed run is recognised and stored once. Snapshots travel on the same queue,
//! so one is stored only after every event that came before it.
//!
//! It is also the one writer of the run's journal: a journal commit ([`JournalWrite`]) goes
//! before anything else it has waiting, between two transactions of at most [`CHUNK_ROWS`]
//! events, on its own synced connection. So an operator's input waits for at most one small
//! transaction of events, never for SQLite's busy-wait against a long one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use engine::Event;
use sqlx::{SqliteConnection, SqlitePool};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{timeout_at, Instant};

use crate::error::Result;
use crate::history;
use crate::journal::{self, AuditRow, Journaled};
use crate::snapshots::{self, SnapshotRow};
use crate::telemetry;

/// A flush happens once this many rows are waiting...
pub const FLUSH_ROWS: usize = 5_000;
/// ...or this long after the first row of the flush arrived.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);
/// Events per transaction: a journal commit waits for at most one of these.
pub const CHUNK_ROWS: usize = 2_000;

/// What the runtime hands the persistence task, in order.
#[derive(Debug)]
pub enum Persist {
    /// The next events of the run.
    Events(Vec<Event>),
    /// A snapshot taken after every event sent before it: written once they are.
    Snapshot(Box<SnapshotRow>),
}

/// A journal commit: `rows` (and the request's `audit` row) in one synced transaction; the
/// outcome goes back on `reply`.
#[derive(Debug)]
pub struct JournalWrite {
    /// The entries, in order.
    pub rows: Vec<Journaled>,
    /// The audit row of the request that made the input.
    pub audit: Option<AuditRow>,
    /// Where the outcome goes.
    pub reply: oneshot::Sender<Result<()>>,
}

/// The journal side of the persistence task: the requests and the synced connection.
pub struct JournalWriter {
    /// Journal commits asked by the runtime.
    pub requests: mpsc::Receiver<JournalWrite>,
    /// The connection they are made on (`db::journal_connection`).
    pub conn: SqliteConnection,
}

impl JournalWriter {
    async fn commit(&mut self, run_id: i64, write: JournalWrite) {
        let outcome =
            journal::append(&mut self.conn, run_id, &write.rows, write.audit.as_ref()).await;
        // The runtime may be gone (stopping); nothing then waits for the outcome.
        let _ = write.reply.send(outcome);
    }

    /// Commits every journal write waiting now.
    async fn drain(&mut self, run_id: i64) {
        while let Ok(write) = self.requests.try_recv() {
            self.commit(run_id, write).await;
        }
    }
}

/// Runs until every sender is dropped, then flushes what is left and returns. The first
/// event received is the run's event number `first_seq`; `persisted` counts the events
/// stored (for the clock status: emitted is not stored).
pub async fn run(
    pool: SqlitePool,
    run_id: i64,
    first_seq: u64,
    mut batches: mpsc::Receiver<Persist>,
    mut journal: JournalWriter,
    persisted: Arc<AtomicU64>,
) {
    let checkpoints = tokio::spawn(checkpoint_often(pool.clone()));
    let mut next_seq = first_seq;
    let mut pending: Vec<Event> = Vec::new();
    let mut snapshot = None;
    loop {
        let first = tokio::select! {
            biased;
            Some(write) = journal.requests.recv() => {
                journal.commit(run_id, write).await;
                continue;
            }
            first = batches.recv() => first,
        };
        let Some(first) = first else { break };
        match first {
            Persist::Events(events) => pending.extend(events),
            Persist::Snapshot(row) => snapshot = Some(row),
        }
        let deadline = Instant::now() + FLUSH_EVERY;
        let mut closed = false;
        while pending.len() < FLUSH_ROWS && snapshot.is_none() {
            let more = tokio::select! {
                biased;
                Some(write) = journal.requests.recv() => {
                    journal.commit(run_id, write).await;
                    continue;
                }
                more = timeout_at(deadline, batches.recv()) => more,
            };
            match more {
                Ok(Some(Persist::Events(more))) => pending.extend(more),
                Ok(Some(Persist::Snapshot(row))) => snapshot = Some(row),
                Ok(None) => {
                    closed = true;
                    break;
                }
                Err(_elapsed) => break,
            }
        }
        flush(
            &pool,
            run_id,
            &mut next_seq,
            &mut pending,
            &persisted,
            &mut journal,
        )
        .await;
        if let Some(row) = snapshot.take() {
            journal.drain(run_id).await;
            store_snapshot(&pool, run_id, &row).await;
        }
        if closed {
            break;
        }
    }
    flush(
        &pool,
        run_id,
        &mut next_seq,
        &mut pending,
        &persisted,
        &mut journal,
    )
    .await;
    journal.drain(run_id).await;
    checkpoints.abort();
}

/// How often the write-ahead log is checkpointed while a run is being written.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

/// Checkpoints the write-ahead log every [`CHECKPOINT_EVERY`], in the background (`PASSIVE`:
/// it never blocks a writer). Without it, the commit that crosses SQLite's automatic
/// threshold copies tens of megabytes into the database file itself, and a journal commit
/// queued behind it waits as long.
async fn checkpoint_often(pool: SqlitePool) {
    let mut every = tokio::time::interval(CHECKPOINT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            tracing::debug!(error = %e, "background checkpoint skipped");
        }
    }
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

/// Stores `pending` in transactions of at most [`CHUNK_ROWS`] events, committing any
/// journal write that arrives between two of them first.
async fn flush(
    pool: &SqlitePool,
    run_id: i64,
    next_seq: &mut u64,
    pending: &mut Vec<Event>,
    persisted: &AtomicU64,
    journal: &mut JournalWriter,
) {
    for chunk in pending.chunks(CHUNK_ROWS) {
        journal.drain(run_id).await;
        let first = *next_seq;
        *next_seq += chunk.len() as u64;
        match history::insert_events(pool, run_id, first, chunk).await {
            Ok(()) => {
                persisted.fetch_add(chunk.len() as u64, Ordering::Relaxed);
                metrics::counter!(telemetry::EVENTS_PERSISTED).increment(chunk.len() as u64);
            }
            Err(e) => {
                metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
                tracing::error!(error = %e, rows = chunk.len(), "could not persist events");
            }
        }
    }
    pending.clear();
}
