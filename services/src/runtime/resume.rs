//! Resuming an unfinished run: the latest snapshot of the run is restored (or, without one,
//! its start rebuilt from the scenario and seed), the journal after it replayed through the
//! same code path as the live inputs ([`super::inputs::play`]), then the clock is advanced
//! to the latest stored event. Events the replay produces again
//! are numbered as the first time; those not yet stored (the last moments before a crash)
//! are written, the others are not written twice.

use std::collections::BTreeMap;

use crate::store::Store;
use engine::{Event, Scenario, SimTime, Simulation, Speed};

use super::inputs;
use super::task::{self, Resumed};
use super::{RuntimeHandle, RuntimeOptions};
use crate::error::{Result, ServiceError};
use crate::history::{self, Run};
use crate::journal::{self, Entry, Journaled};
use crate::snapshots::{self, Restored};

/// What a replay rebuilt.
struct Replayed {
    sim: Simulation,
    /// Events produced in all (the `seq` of the next one).
    events: u64,
    per_engine: BTreeMap<String, u64>,
    /// Produced events not stored yet, from `first_missing` on.
    missing: Vec<Event>,
    first_missing: u64,
    /// The speed the last speed change left (if any).
    speed: Option<Speed>,
}

/// Resumes `run` of `scenario` (the scenario it was started with). The clock goes on at the
/// speed the run had, or at `speed` when given (`--resume paused`).
pub async fn resume(
    store: Store,
    scenario: &Scenario,
    run: Run,
    start_speed: Speed,
    speed: Option<Speed>,
    options: RuntimeOptions,
) -> Result<RuntimeHandle> {
    let from = match snapshots::latest(&store, run.id, None).await? {
        Some(restored) => restored,
        None => Restored {
            id: 0,
            // Seed stored by its bit pattern (see `history::create_run`).
            sim: Simulation::new(scenario, run.seed as u64),
            journal_seq: 0,
            event_seq: 0,
            per_engine: BTreeMap::new(),
            speed: None,
        },
    };
    let entries = journal::read(&store, run.id, from.journal_seq).await?;
    let (stored_seq, stored_t) = history::stored_extent(&store, run.id).await?;
    let journaled = from.journal_seq + entries.len() as u64;
    let replayed = tokio::task::spawn_blocking(move || {
        replay(from, &entries, stored_seq, stored_t.unwrap_or(0))
    })
    .await
    .map_err(|e| ServiceError::Internal(format!("replay failed: {e}")))??;
    history::insert_events(&store, run.id, replayed.first_missing, &replayed.missing).await?;
    tracing::info!(
        run = run.id,
        journal = journaled,
        events = replayed.events,
        restored = replayed.missing.len(),
        t_ms = replayed.sim.now().as_millis(),
        "run resumed"
    );
    let speed = speed.or(replayed.speed).unwrap_or(start_speed);
    let resumed = Resumed {
        events: replayed.events,
        per_engine: replayed.per_engine,
        journal: journaled,
    };
    task::spawn(store, run, replayed.sim, speed, resumed, options).await
}

/// Replays `entries` (the journal after the snapshot `from`) and advances to `stored_t`.
fn replay(
    from: Restored,
    entries: &[Journaled],
    stored_seq: Option<u64>,
    stored_t: u64,
) -> Result<Replayed> {
    let first_missing = stored_seq.map_or(0, |s| s + 1);
    let mut out = Replayed {
        sim: from.sim,
        events: from.event_seq,
        per_engine: from.per_engine,
        missing: Vec::new(),
        first_missing,
        speed: from.speed,
    };
    for entry in entries {
        let events = inputs::replay(&mut out.sim, entry).map_err(|why| {
            ServiceError::invalid("journal", format!("{why}; start with --new-run"))
        })?;
        out.take(events);
        if let Entry::Speed { to, .. } = entry.entry {
            out.speed = Some(to);
        }
    }
    let rest = out.sim.advance_to(SimTime(stored_t));
    out.take(rest);
    Ok(out)
}

impl Replayed {
    fn take(&mut self, events: Vec<Event>) {
        for e in events {
            *self
                .per_engine
                .entry(e.engine.as_str().to_owned())
                .or_default() += 1;
            if self.events >= self.first_missing {
                self.missing.push(e);
            }
            self.events += 1;
        }
    }
}
