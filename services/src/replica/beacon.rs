//! The leader's clock, told to followers: a [`ClockMark`] `NOTIFY`ed on [`CHANNEL`] every
//! [`MARK_EVERY`] while the leader's status changes, and the listening side.
//!
//! A mark says "at simulated instant `t_ms` I had played `journal` journal entries". A
//! follower that holds those entries may advance its copy to `t_ms`: every entry that took
//! effect at or before `t_ms` is among them (the leader numbers its entries in time order).
//! A follower that lacks some of them (a DNS query's entry is committed a moment after it is
//! answered) waits for the next mark; it never advances past an entry it has not read.

use std::time::Duration;

use engine::Speed;
use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgListener, PgPool};

use crate::error::Result;

/// The `NOTIFY` channel of clock marks.
pub const CHANNEL: &str = "switchyard_clock";
/// How often the leader sends a mark (one per tick of the runtime).
pub const MARK_EVERY: Duration = Duration::from_millis(100);
/// How long a listener waits before it connects again after losing its connection.
const LISTEN_RETRY: Duration = Duration::from_millis(500);

/// Where the leader's run stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockMark {
    /// The run.
    pub run: i64,
    /// The leader's simulated instant.
    pub t_ms: u64,
    /// Journal entries the leader had played by then.
    pub journal: u64,
    /// Events of the run stored by then.
    pub events_persisted: u64,
    /// The leader's clock speed.
    pub speed: Speed,
    /// When the leader sent it (milliseconds since the Unix epoch, the leader's clock).
    pub wall_ms: u64,
}

/// Sends `mark` to every listening follower.
pub async fn send(pool: &PgPool, mark: &ClockMark) -> Result<()> {
    let payload = serde_json::to_string(mark)
        .map_err(|e| crate::ServiceError::Internal(format!("clock mark: {e}")))?;
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(payload)
        .execute(pool)
        .await?;
    Ok(())
}

/// Listens on `channel` and hands every payload to `heard` until it returns `false`. A lost
/// connection is opened again (notifications sent meanwhile are lost: the callers poll the
/// store as a fallback).
pub async fn listen(pool: PgPool, channel: &'static str, mut heard: impl FnMut(String) -> bool) {
    loop {
        let mut listener = match PgListener::connect_with(&pool).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::debug!(error = %e, channel, "cannot listen yet");
                tokio::time::sleep(LISTEN_RETRY).await;
                continue;
            }
        };
        if let Err(e) = listener.listen(channel).await {
            tracing::debug!(error = %e, channel, "cannot listen yet");
            tokio::time::sleep(LISTEN_RETRY).await;
            continue;
        }
        loop {
            match listener.try_recv().await {
                Ok(Some(note)) => {
                    if !heard(note.payload().to_owned()) {
                        return;
                    }
                }
                // The connection was lost; the next call connects again and listens anew.
                Ok(None) => {}
                Err(e) => {
                    tracing::debug!(error = %e, channel, "listening failed; connecting again");
                    tokio::time::sleep(LISTEN_RETRY).await;
                    break;
                }
            }
        }
    }
}
