//! The persistence task: gathers event batches from the runtime and writes them in one
//! transaction per flush (at most [`FLUSH_ROWS`] rows or every [`FLUSH_EVERY`]; a headless
//! recording, [`Flush::RECORDING`]). It numbers
//! the events of the run in the order they arrive (`seq`), so that the same event produced
//! again by a resumed run is recognised and stored once. Snapshots travel on the same queue,
//! so one is stored only after every event that came before it.
//!
//! It is also the one writer of the run's journal: a journal commit ([`JournalWrite`]) goes
//! before anything else it has waiting, on its own synced connection: a transaction of events
//! (at most a flush) ends early, after the statement of at most [`STATEMENT_ROWS`]
//! in progress, when a journal write waits. So an operator's input waits for one small
//! statement, never for a whole transaction or for SQLite's busy-wait against a long one.
//!
//! On PostgreSQL a flush goes out as two streams of transactions on two connections
//! ([`two_streams`]); on SQLite, with one writer per file, as one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use engine::Event;
use sqlx::{Acquire, SqlitePool};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{timeout_at, Instant};

use crate::error::{Result, ServiceError};
use crate::journal::{self, AuditRow, Journaled};
use crate::replica::inbox::Answered;
use crate::snapshots::{self, SnapshotRow};
use crate::store::{on_conn, Conn, EventRows, Store};
use crate::telemetry;

mod two_streams;

/// A flush happens once this many rows are waiting...
pub const FLUSH_ROWS: usize = 5_000;
/// ...or this long after the first row of the flush arrived.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);

/// When the persistence task writes what it has gathered: at `rows` events, or `every` after
/// the first of them arrived, whichever comes first. On SQLite a flush is one transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flush {
    /// Events gathered before a flush.
    pub rows: usize,
    /// The longest a gathered event waits for its flush.
    pub every: Duration,
}

impl Flush {
    /// A console's run: an event is visible to readers within [`FLUSH_EVERY`], and a request
    /// that writes to the database (a login, an audit row) waits for a short transaction. On
    /// SQLite its 5,000 rows rather than 2,000 per transaction store ~25 % more events per
    /// second: each commit writes every page it changed to the WAL, and the events' indexes by
    /// subject and by kind change a page per subject or kind in each. A journal write still
    /// waits for one statement only: it ends the transaction early.
    pub const LIVE: Flush = Flush {
        rows: FLUSH_ROWS,
        every: FLUSH_EVERY,
    };
    /// A headless recording (`simulate --database-url`): nobody waits for its events, so it
    /// writes them in few, large transactions. Each SQLite commit writes every page it changed
    /// to the WAL, and the index by subject (thousands of servers) changes most of its pages
    /// in any large batch: 50,000 rather than 5,000 events per transaction write the WAL
    /// about half as much (docs/PERFORMANCE.md).
    pub const RECORDING: Flush = Flush {
        rows: 50_000,
        every: Duration::from_secs(1),
    };
}
/// Events per transaction on PostgreSQL, at most: a flush of [`FLUSH_ROWS`] makes two or
/// three, stored two at a time ([`two_streams`]).
pub const CHUNK_ROWS: usize = 2_000;
pub use crate::store::sqlite::STATEMENT_ROWS;
/// Events per `COPY` on PostgreSQL, where the journal has a connection and locks of its own
/// and waits only for the persistence task to finish the statement in progress (~13 ms
/// here): larger statements write ~25 % faster than [`STATEMENT_ROWS`].
pub const COPY_ROWS: usize = 1_000;

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
    /// The answer to the inbox row the input came from (accepted by a follower).
    pub answered: Option<Answered>,
    /// Where the outcome goes.
    pub reply: oneshot::Sender<Result<()>>,
}

/// The journal side of the persistence task: the requests and the synced connection.
pub struct JournalWriter {
    /// Journal commits asked by the runtime.
    pub requests: mpsc::Receiver<JournalWrite>,
    /// The connection they are made on ([`Store::journal_connection`]).
    pub conn: Conn,
    /// The store, to open the connection again after the database came back.
    pub store: Store,
}

impl JournalWriter {
    async fn commit(&mut self, run_id: i64, write: JournalWrite) {
        let mut outcome = self.append(run_id, &write).await;
        // A connection lost (the database restarted, a network cut) is opened again once; if
        // the database still does not answer, the input is refused, never acknowledged.
        if matches!(outcome, Err(ServiceError::Unavailable(_))) {
            if let Ok(conn) = self.store.journal_connection().await {
                self.conn = conn;
                outcome = self.append(run_id, &write).await;
            }
        }
        // The runtime may be gone (stopping); nothing then waits for the outcome.
        let _ = write.reply.send(outcome);
    }

    async fn append(&mut self, run_id: i64, write: &JournalWrite) -> Result<()> {
        journal::append(
            &mut self.conn,
            run_id,
            &write.rows,
            write.audit.as_ref(),
            write.answered.as_ref(),
        )
        .await
    }

    /// Commits every journal write waiting now.
    async fn drain(&mut self, run_id: i64) {
        while let Ok(write) = self.requests.try_recv() {
            self.commit(run_id, write).await;
        }
    }
}

/// The persistence task's connections: its events and snapshots on one (on PostgreSQL, a
/// second for events), the journal on another, and the store (partitions, background
/// checkpoints of SQLite's WAL).
pub struct Connections {
    /// The store.
    pub store: Store,
    /// Events and snapshots ([`Store::events_connection`]).
    pub events: Conn,
    /// PostgreSQL: a second events connection, so that two transactions of events are
    /// stored at once (one server process each: the server's work, not the console's, is
    /// what limits a single stream). SQLite has one writer: none.
    pub more_events: Option<Conn>,
    /// Journal commits.
    pub journal: JournalWriter,
    /// When gathered events are written ([`Flush::LIVE`] unless [`Connections::recording`]).
    pub flush: Flush,
}

impl Connections {
    /// Opens the events and journal connections on `store`'s database; `requests` are the
    /// journal commits the runtime will ask for.
    pub async fn open(store: Store, requests: mpsc::Receiver<JournalWrite>) -> Result<Self> {
        let events = store.events_connection().await?;
        let more_events = match events {
            Conn::Postgres(_) => Some(store.events_connection().await?),
            Conn::Sqlite(_) => None,
        };
        Ok(Self {
            events,
            more_events,
            journal: JournalWriter {
                requests,
                conn: store.journal_connection().await?,
                store: store.clone(),
            },
            store,
            flush: Flush::LIVE,
        })
    }

    /// The same connections for a headless recording: events in [`Flush::RECORDING`]'s large
    /// transactions.
    pub fn recording(self) -> Self {
        Self {
            flush: Flush::RECORDING,
            ..self
        }
    }
}

/// Runs until every sender is dropped, then flushes what is left and returns. The first
/// event received is the run's event number `first_seq`; `persisted` counts the events
/// stored (for the clock status: emitted is not stored).
pub async fn run(
    connections: Connections,
    run_id: i64,
    first_seq: u64,
    mut batches: mpsc::Receiver<Persist>,
    persisted: Arc<AtomicU64>,
) {
    let Connections {
        store: db,
        events,
        more_events,
        mut journal,
        flush,
    } = connections;
    let wal = Arc::new(AtomicU64::new(0));
    let checkpoints = db
        .sqlite_pool()
        .map(|pool| tokio::spawn(checkpoint_often(pool.clone(), wal.clone())));
    let mut store = EventStore {
        db,
        conn: events,
        more: more_events,
        run_id,
        next_seq: first_seq,
        persisted,
        wal,
        chunk_rows: flush.rows,
    };
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
        let deadline = Instant::now() + flush.every;
        let mut closed = false;
        while pending.len() < flush.rows && snapshot.is_none() {
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
        store.flush(&mut pending, &mut journal).await;
        if let Some(row) = snapshot.take() {
            journal.drain(run_id).await;
            store.snapshot(&row).await;
        }
        store.restart_wal_if_long(&journal).await;
        if closed {
            break;
        }
    }
    store.flush(&mut pending, &mut journal).await;
    journal.drain(run_id).await;
    if let Some(checkpoints) = checkpoints {
        checkpoints.abort();
    }
}

/// How often the persistence task tries to reach a database that stopped answering.
pub const RECONNECT_EVERY: Duration = Duration::from_millis(500);

/// How often the write-ahead log is checkpointed while a run is being written.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(50);
/// WAL frames (pages) beyond which the persistence task checkpoints the last few itself, so
/// that the WAL starts over from its beginning (~64 MiB of 4 KiB pages).
pub const WAL_RESTART_FRAMES: u64 = 16_384;

/// Checkpoints the write-ahead log every [`CHECKPOINT_EVERY`], in the background (`PASSIVE`:
/// it never blocks a writer; often, so that each copies and syncs little), and keeps the WAL's length in frames in `wal`. The events are
/// written on a connection that never checkpoints (`db::events_connection`): otherwise the
/// commit that crosses SQLite's automatic threshold copies tens of megabytes into the
/// database file itself, and a journal commit queued behind it waits as long.
async fn checkpoint_often(pool: SqlitePool, wal: Arc<AtomicU64>) {
    let mut every = tokio::time::interval(CHECKPOINT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match checkpoint(&pool).await {
            Ok(frames) => wal.store(frames, Ordering::Relaxed),
            Err(e) => tracing::debug!(error = %e, "background checkpoint skipped"),
        }
    }
}

/// A `PASSIVE` checkpoint; returns the WAL's length in frames.
async fn checkpoint<'c>(conn: impl sqlx::SqliteExecutor<'c>) -> Result<u64> {
    // (busy, frames in the WAL, frames checkpointed)
    let (_, frames, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(conn)
        .await?;
    Ok(u64::try_from(frames).unwrap_or(0))
}

/// The events side of the persistence task: its connection and where the run's numbering
/// stands.
struct EventStore {
    db: Store,
    conn: Conn,
    /// A second events connection (PostgreSQL), for [`EventStore::flush_two`].
    more: Option<Conn>,
    run_id: i64,
    /// The number of the next event to store.
    next_seq: u64,
    /// Events stored so far (shared with the runtime's status).
    persisted: Arc<AtomicU64>,
    /// The WAL's length in frames, as the last checkpoint found it.
    wal: Arc<AtomicU64>,
    /// Events per transaction on SQLite, at most ([`Flush::rows`]).
    chunk_rows: usize,
}

impl EventStore {
    /// Stores `pending` in transactions of at most a flush's events, committing any
    /// journal write that arrives first: a transaction ends early, after the statement in
    /// progress, when one waits.
    async fn flush(&mut self, pending: &mut Vec<Event>, journal: &mut JournalWriter) {
        if self.more.is_some() {
            self.flush_two(pending, journal).await;
            pending.clear();
            return;
        }
        let mut rest = pending.as_slice();
        while !rest.is_empty() {
            journal.drain(self.run_id).await;
            let (taken, stored) = self.store_chunk(rest, journal).await;
            if let Err(ServiceError::Unavailable(why)) = &stored {
                // Nothing of the chunk was stored: keep it, wait for the database, try again.
                metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
                tracing::warn!(error = %why, rows = rest.len(), "database unavailable: events wait for it");
                self.reconnect(journal).await;
                continue;
            }
            self.next_seq += taken as u64;
            rest = &rest[taken..];
            match stored {
                Ok(()) => {
                    self.persisted.fetch_add(taken as u64, Ordering::Relaxed);
                    metrics::counter!(telemetry::EVENTS_PERSISTED).increment(taken as u64);
                }
                Err(e) => {
                    metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
                    tracing::error!(error = %e, rows = taken, "could not persist events");
                }
            }
        }
        pending.clear();
    }

    /// Stores the first events of `events` in one transaction of at most a flush's events, in
    /// statements of [`STATEMENT_ROWS`] ([`COPY_ROWS`] on PostgreSQL), stopping early when a
    /// journal write waits. Returns
    /// how many it took (stored, or lost with the error: their numbers stay unused; after an
    /// [`ServiceError::Unavailable`] nothing was stored and the caller tries them again).
    async fn store_chunk(
        &mut self,
        events: &[Event],
        journal: &JournalWriter,
    ) -> (usize, Result<()>) {
        let chunk = &events[..events.len().min(self.chunk_rows)];
        let (run_id, first_seq) = (self.run_id, self.next_seq);
        let mut taken = 0;
        let partitions = self.db.partitions();
        let statement_rows = match self.conn {
            Conn::Sqlite(_) => STATEMENT_ROWS,
            Conn::Postgres(_) => COPY_ROWS,
        };
        let stored = on_conn!(&mut self.conn, conn => async {
            conn.prepare_events(partitions, run_id, chunk).await?;
            let mut tx = conn.begin().await?;
            for rows in chunk.chunks(statement_rows) {
                if taken > 0 && !journal.requests.is_empty() {
                    break;
                }
                let seq = first_seq + taken as u64;
                taken += rows.len();
                tx.append_event_rows(run_id, seq, rows).await?;
            }
            tx.commit().await?;
            Ok(())
        }
        .await);
        let taken = if stored.is_ok() { taken } else { chunk.len() };
        (taken, stored)
    }

    /// Waits [`RECONNECT_EVERY`], then opens the events connection again, and so on until the
    /// database answers. Waiting first keeps a database that accepts connections but refuses
    /// writes (e.g. while it recovers) from being retried in a tight loop. Journal writes that
    /// arrive meanwhile are committed or refused at once (their inputs are not acknowledged),
    /// so a request never waits for the outage to end.
    async fn reconnect(&mut self, journal: &mut JournalWriter) {
        loop {
            let wait = tokio::time::sleep(RECONNECT_EVERY);
            tokio::pin!(wait);
            loop {
                tokio::select! {
                    () = &mut wait => break,
                    Some(write) = journal.requests.recv() => {
                        journal.commit(self.run_id, write).await;
                    }
                }
            }
            match self.reopen().await {
                Ok(()) => {
                    tracing::info!("database answers again: events are stored again");
                    return;
                }
                Err(e) => tracing::debug!(error = %e, "database still unavailable"),
            }
        }
    }

    /// Opens the events connection (and the second one, if any) again.
    async fn reopen(&mut self) -> Result<()> {
        let conn = self.db.events_connection().await?;
        if self.more.is_some() {
            self.more = Some(self.db.events_connection().await?);
        }
        self.conn = conn;
        Ok(())
    }

    async fn snapshot(&mut self, row: &SnapshotRow) {
        let stored = snapshots::insert(&mut self.conn, self.run_id, row).await;
        match stored {
            Ok(()) => metrics::counter!(telemetry::SNAPSHOTS_WRITTEN).increment(1),
            Err(e) => {
                metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
                tracing::error!(error = %e, t_ms = row.t_ms, "could not store a snapshot");
            }
        }
    }

    /// When the WAL has grown past [`WAL_RESTART_FRAMES`] and no journal write waits,
    /// checkpoints what the background has not copied yet. With no write in between, the
    /// checkpoint is complete, and the next transaction starts the WAL over from its
    /// beginning: a run at `max` writes without pause, so the background alone never sees a
    /// complete checkpoint and the file would grow without end.
    async fn restart_wal_if_long(&mut self, journal: &JournalWriter) {
        if self.wal.load(Ordering::Relaxed) < WAL_RESTART_FRAMES || !journal.requests.is_empty() {
            return;
        }
        let Conn::Sqlite(conn) = &mut self.conn else {
            return;
        };
        match checkpoint(conn).await {
            Ok(frames) => self.wal.store(frames, Ordering::Relaxed),
            Err(e) => tracing::debug!(error = %e, "checkpoint skipped"),
        }
    }
}
