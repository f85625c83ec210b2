//! PostgreSQL: a flush stored as two streams of transactions at once, one per events
//! connection. A single stream is limited by the server process that stores it (routing
//! each row to its partition, the indexes, the WAL: nine tenths of the time, on one core);
//! two keep two server processes busy.
//!
//! The events are numbered before they are sent, so two transactions may commit out of
//! order: after a crash the store may hold the later of two and not the earlier. A resume
//! therefore starts from the first number missing among the latest events
//! ([`crate::history::first_unstored`]), not from the last one stored.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;

use engine::Event;
use sqlx::Acquire;

use super::{EventStore, JournalWriter, CHUNK_ROWS, COPY_ROWS};
use crate::error::{Result, ServiceError};
use crate::store::{on_conn, Conn, EventRows};
use crate::telemetry;

/// Consecutive events of the run, numbered from `seq`: one transaction.
#[derive(Clone, Copy)]
struct Segment<'a> {
    seq: u64,
    rows: &'a [Event],
}

impl EventStore {
    /// Stores `pending` in transactions of at most [`CHUNK_ROWS`] events, two at a time, one
    /// on each events connection; journal writes that arrive meanwhile are committed at once
    /// on their own connection. A transaction the database could not take (unavailable) is
    /// tried again once it answers, with the same numbers.
    pub(super) async fn flush_two(&mut self, pending: &[Event], journal: &mut JournalWriter) {
        if pending.is_empty() {
            return;
        }
        let first_seq = self.next_seq;
        self.next_seq += pending.len() as u64;
        if !self.prepare(pending, journal).await {
            return;
        }
        let mut queue: VecDeque<Segment> = pending
            .chunks(CHUNK_ROWS)
            .enumerate()
            .map(|(i, rows)| Segment {
                seq: first_seq + (i * CHUNK_ROWS) as u64,
                rows,
            })
            .collect();
        while let Some(first) = queue.pop_front() {
            journal.drain(self.run_id).await;
            let second = queue.pop_front();
            let (one, two) = self.store_pair(first, second, journal).await;
            let mut retry = Vec::new();
            for (segment, stored) in [(Some(first), Some(one)), (second, two)] {
                let (Some(segment), Some(stored)) = (segment, stored) else {
                    continue;
                };
                match stored {
                    Ok(()) => self.count_stored(segment.rows.len()),
                    Err(ServiceError::Unavailable(why)) => {
                        tracing::warn!(error = %why, rows = segment.rows.len(), "database unavailable: events wait for it");
                        retry.push(segment);
                    }
                    Err(e) => {
                        metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
                        tracing::error!(error = %e, rows = segment.rows.len(), "could not persist events");
                    }
                }
            }
            if !retry.is_empty() {
                metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
                for segment in retry.into_iter().rev() {
                    queue.push_front(segment);
                }
                self.reconnect(journal).await;
            }
        }
    }

    /// Makes sure the partitions of `pending` exist, on the first connection only (two
    /// connections creating the same partition at once would fail), waiting for the
    /// database while it is unavailable. False when the events cannot be stored.
    async fn prepare(&mut self, pending: &[Event], journal: &mut JournalWriter) -> bool {
        loop {
            let (partitions, run_id) = (self.db.partitions(), self.run_id);
            let prepared = on_conn!(&mut self.conn, conn => conn
                .prepare_events(partitions, run_id, pending)
                .await);
            match prepared {
                Ok(()) => return true,
                Err(ServiceError::Unavailable(why)) => {
                    metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
                    tracing::warn!(error = %why, rows = pending.len(), "database unavailable: events wait for it");
                    self.reconnect(journal).await;
                }
                Err(e) => {
                    metrics::counter!(telemetry::PERSIST_ERRORS).increment(1);
                    tracing::error!(error = %e, rows = pending.len(), "could not persist events");
                    return false;
                }
            }
        }
    }

    /// Stores `first` on the first connection and `second` on the other, at once; commits
    /// the journal writes that arrive until both are done.
    async fn store_pair(
        &mut self,
        first: Segment<'_>,
        second: Option<Segment<'_>>,
        journal: &mut JournalWriter,
    ) -> (Result<()>, Option<Result<()>>) {
        let run_id = self.run_id;
        let one = store_segment(&mut self.conn, run_id, first);
        let more = self.more.as_mut();
        let two = async move {
            match (more, second) {
                (Some(conn), Some(segment)) => Some(store_segment(conn, run_id, segment).await),
                (None, Some(_)) => Some(Err(ServiceError::Internal(
                    "no second events connection".into(),
                ))),
                (_, None) => None,
            }
        };
        let both = async { tokio::join!(one, two) };
        tokio::pin!(both);
        loop {
            tokio::select! {
                biased;
                Some(write) = journal.requests.recv() => journal.commit(run_id, write).await,
                done = &mut both => return done,
            }
        }
    }

    fn count_stored(&self, rows: usize) {
        self.persisted.fetch_add(rows as u64, Ordering::Relaxed);
        metrics::counter!(telemetry::EVENTS_PERSISTED).increment(rows as u64);
    }
}

/// `segment` in one transaction of `COPY`s of at most [`COPY_ROWS`] events.
async fn store_segment(conn: &mut Conn, run_id: i64, segment: Segment<'_>) -> Result<()> {
    on_conn!(conn, conn => async {
        let mut tx = conn.begin().await?;
        for (i, rows) in segment.rows.chunks(COPY_ROWS).enumerate() {
            let seq = segment.seq + (i * COPY_ROWS) as u64;
            tx.append_event_rows(run_id, seq, rows).await?;
        }
        tx.commit().await?;
        Ok(())
    }
    .await)
}
