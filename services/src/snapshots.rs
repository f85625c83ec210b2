//! Stored snapshots of a run's simulation: written by the persistence task in order with the
//! events (so every event before a snapshot is stored when it is), read back to resume a run
//! or to rebuild a past instant.

use std::collections::BTreeMap;

use engine::{SimTime, Simulation, SnapshotError, Speed};

use crate::error::{Result, ServiceError};
use crate::store::{now_text, on_conn, on_pool, to_i64, Conn, Store};

/// A snapshot and where it stands in its run.
#[derive(Debug, Clone)]
pub struct SnapshotRow {
    /// The simulated instant.
    pub t_ms: u64,
    /// Journal entries before it (the `seq` of the next one).
    pub journal_seq: u64,
    /// Events before it (the `seq` of the next one).
    pub event_seq: u64,
    /// Events before it, per engine.
    pub per_engine: BTreeMap<String, u64>,
    /// The clock's speed then.
    pub speed: Speed,
    /// `engine::Simulation::snapshot` bytes.
    pub bytes: Vec<u8>,
}

impl SnapshotRow {
    /// Takes a snapshot of `sim` with its counters.
    pub fn take(
        sim: &Simulation,
        journal_seq: u64,
        event_seq: u64,
        per_engine: &BTreeMap<String, u64>,
        speed: Speed,
    ) -> SnapshotRow {
        SnapshotRow {
            t_ms: sim.now().as_millis(),
            journal_seq,
            event_seq,
            per_engine: per_engine.clone(),
            speed,
            bytes: sim.snapshot().into_bytes(),
        }
    }
}

/// Stores `row` for run `run_id` on `conn` (the persistence task's).
pub async fn insert(conn: &mut Conn, run_id: i64, row: &SnapshotRow) -> Result<()> {
    let per_engine = serde_json::to_string(&row.per_engine)
        .map_err(|e| ServiceError::Internal(format!("snapshot counters: {e}")))?;
    on_conn!(conn, c => sqlx::query(
        "INSERT INTO snapshots (run_id, t_ms, journal_seq, event_seq, per_engine, speed, format, bytes, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(run_id)
    .bind(to_i64(row.t_ms))
    .bind(to_i64(row.journal_seq))
    .bind(to_i64(row.event_seq))
    .bind(per_engine)
    .bind(row.speed.to_string())
    .bind(i64::from(engine::SNAPSHOT_VERSION))
    .bind(&row.bytes)
    .bind(now_text())
    .execute(c)
    .await.map(|_| ()))?;
    Ok(())
}

/// A stored snapshot, decoded: the simulation and its counters.
#[derive(Debug)]
pub struct Restored {
    /// Row id (named in errors).
    pub id: i64,
    /// The simulation at the snapshot's instant.
    pub sim: Simulation,
    /// Journal entries before it.
    pub journal_seq: u64,
    /// Events before it.
    pub event_seq: u64,
    /// Events before it, per engine.
    pub per_engine: BTreeMap<String, u64>,
    /// The clock's speed then.
    pub speed: Option<Speed>,
}

type Row = (i64, i64, i64, String, String, Vec<u8>);

/// The latest snapshot of run `run_id` taken at or before `at` (any time when `None`),
/// decoded on the blocking pool. A snapshot that does not decode (another format, damage)
/// is an error naming the run and the row; nothing is deleted.
pub async fn latest(store: &Store, run_id: i64, at: Option<SimTime>) -> Result<Option<Restored>> {
    let row: Option<Row> = on_pool!(store, pool => sqlx::query_as(
        "SELECT id, journal_seq, event_seq, per_engine, speed, bytes FROM snapshots \
         WHERE run_id = $1 AND t_ms <= $2 ORDER BY t_ms DESC, id DESC LIMIT 1",
    )
    .bind(run_id)
    .bind(at.map_or(i64::MAX, |t| to_i64(t.as_millis())))
    .fetch_optional(pool)
    .await)?;
    let Some((id, journal_seq, event_seq, per_engine, speed, bytes)) = row else {
        return Ok(None);
    };
    let fail = |message: String| {
        ServiceError::invalid(
            "snapshot",
            format!("run {run_id}: snapshot {id} cannot be read: {message}"),
        )
    };
    let restored = tokio::task::spawn_blocking(move || Simulation::restore(&bytes))
        .await
        .map_err(|e| fail(e.to_string()))?;
    let sim = match restored {
        Ok(sim) => sim,
        // Written by a build whose state had another shape: the run is rebuilt from its
        // start and journal instead (slower, same result).
        Err(e @ SnapshotError::Version { .. }) => {
            tracing::warn!(
                run_id,
                snapshot = id,
                "snapshot skipped: {e}; replaying the run from its start"
            );
            return Ok(None);
        }
        Err(e) => return Err(fail(e.to_string())),
    };
    let per_engine = serde_json::from_str(&per_engine).map_err(|e| fail(e.to_string()))?;
    let (Ok(journal_seq), Ok(event_seq)) = (u64::try_from(journal_seq), u64::try_from(event_seq))
    else {
        return Err(fail("negative counters".into()));
    };
    Ok(Some(Restored {
        id,
        sim,
        journal_seq,
        event_seq,
        per_engine,
        speed: speed.parse().ok(),
    }))
}
