//! The newest events of the live run, read from the store once per stored batch: the
//! overview's feed asks for them on every render, and at a few hundred renders a second the
//! same read of the same rows was most of a render's work.
//!
//! A read is reused while the run's count of stored events is unchanged and for at most
//! [`MAX_AGE`] of wall time (the bound for a follower, whose count moves with the leader's
//! clock marks rather than with each batch). Concurrent misses wait for one read.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

use crate::error::Result;
use crate::history::{recent_events, EventFilter, StoredEvent};
use crate::Store;

/// How long a read may be reused, at most.
pub const MAX_AGE: Duration = Duration::from_secs(1);

/// The reused read (see the module docs). Cheap to clone (one shared slot).
#[derive(Debug, Clone, Default)]
pub struct RecentEvents {
    slot: Arc<Mutex<Option<Read>>>,
}

/// One read and what it was read for.
#[derive(Debug)]
struct Read {
    run_id: i64,
    persisted: u64,
    limit: i64,
    at: Instant,
    rows: Arc<Vec<StoredEvent>>,
}

impl Read {
    fn serves(&self, run_id: i64, persisted: u64, limit: i64, now: Instant) -> bool {
        self.run_id == run_id
            && self.persisted == persisted
            && self.limit >= limit
            && now.duration_since(self.at) < MAX_AGE
    }
}

impl RecentEvents {
    /// The newest events of run `run_id`, newest first, as the store had them when the run
    /// counted `persisted` stored events (read again when that count moved, or after
    /// [`MAX_AGE`]): at least the newest `limit` when the run has that many (a reused read
    /// may hold more). Shared, not copied: callers take the rows they show.
    pub async fn newest(
        &self,
        store: &Store,
        run_id: i64,
        persisted: u64,
        limit: i64,
    ) -> Result<Arc<Vec<StoredEvent>>> {
        let mut slot = self.slot.lock().await;
        let now = Instant::now();
        if let Some(read) = slot
            .as_ref()
            .filter(|r| r.serves(run_id, persisted, limit, now))
        {
            return Ok(read.rows.clone());
        }
        let filter = EventFilter {
            run_id,
            ..Default::default()
        };
        let rows = Arc::new(recent_events(store, &filter, limit).await?);
        *slot = Some(Read {
            run_id,
            persisted,
            limit,
            at: now,
            rows: rows.clone(),
        });
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(run_id: i64, persisted: u64, limit: i64, at: Instant) -> Read {
        Read {
            run_id,
            persisted,
            limit,
            at,
            rows: Arc::new(Vec::new()),
        }
    }

    #[test]
    fn a_read_serves_the_same_run_and_count_for_a_while() {
        let t0 = Instant::now();
        let r = read(1, 100, 150, t0);
        // (run, persisted, limit, wall time after the read, served?)
        let cases = [
            (1, 100, 150, Duration::ZERO, true),
            (1, 100, 30, Duration::from_millis(999), true),
            (1, 101, 150, Duration::ZERO, false),
            (2, 100, 150, Duration::ZERO, false),
            (1, 100, 151, Duration::ZERO, false),
            (1, 100, 150, MAX_AGE, false),
        ];
        for (run, persisted, limit, after, served) in cases {
            assert_eq!(
                r.serves(run, persisted, limit, t0 + after),
                served,
                "run {run}, {persisted} stored, limit {limit}, {after:?} later"
            );
        }
    }
}
