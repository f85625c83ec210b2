//! Resuming an unfinished run: the latest snapshot of the run is restored (or, without one,
//! its start rebuilt from the scenario and seed), the journal after it replayed through the
//! same code path as the live inputs ([`super::inputs::play`]), then the clock is advanced
//! to the latest stored event. Events the replay produces again
//! are numbered as the first time; those not yet stored (the last moments before a crash,
//! from the first number missing: two transactions may have committed out of order) are
//! written, the others are not written twice.

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
    let rebuilt = rebuild(&store, scenario, &run).await?;
    let speed = speed.or(rebuilt.speed).unwrap_or(start_speed);
    task::spawn(store, run, rebuilt.sim, speed, rebuilt.resumed, options).await
}

/// A run rebuilt from the store, every event it produced stored.
pub(super) struct Rebuilt {
    pub sim: Simulation,
    pub resumed: Resumed,
    /// The speed the last speed change left (if any).
    pub speed: Option<Speed>,
}

/// Rebuilds `run` from its latest snapshot and journal, and writes the events the replay
/// produced that are not stored yet (the last moments before a crash).
pub(super) async fn rebuild(store: &Store, scenario: &Scenario, run: &Run) -> Result<Rebuilt> {
    let from = latest_snapshot(store, scenario, run).await?;
    let entries = journal::read(store, run.id, from.journal_seq).await?;
    let (_, stored_t) = history::stored_extent(store, run.id).await?;
    let first_missing = history::first_unstored(store, run.id).await?;
    let (rebuilt, replayed) = replay_off_thread(from, entries, first_missing, stored_t).await?;
    history::insert_events(store, run.id, replayed.first_missing, &replayed.missing).await?;
    tracing::info!(
        run = run.id,
        journal = rebuilt.resumed.journal,
        events = rebuilt.resumed.events,
        restored = replayed.missing.len(),
        t_ms = rebuilt.sim.now().as_millis(),
        "run resumed"
    );
    Ok(rebuilt)
}

/// [`replay`] on a blocking thread; the rebuilt run, and what was missing.
async fn replay_off_thread(
    from: Restored,
    entries: Vec<Journaled>,
    first_missing: u64,
    stored_t: Option<u64>,
) -> Result<(Rebuilt, Missing)> {
    let journaled = from.journal_seq + entries.len() as u64;
    let replayed = tokio::task::spawn_blocking(move || {
        replay(from, &entries, first_missing, stored_t.unwrap_or(0))
    })
    .await
    .map_err(|e| ServiceError::Internal(format!("replay failed: {e}")))??;
    let missing = Missing {
        first_missing: replayed.first_missing,
        missing: replayed.missing,
    };
    let rebuilt = Rebuilt {
        sim: replayed.sim,
        resumed: Resumed {
            events: replayed.events,
            per_engine: replayed.per_engine,
            journal: journaled,
        },
        speed: replayed.speed,
    };
    Ok((rebuilt, missing))
}

/// The events a replay produced that are not stored yet.
struct Missing {
    first_missing: u64,
    missing: Vec<Event>,
}

/// A follower's first copy of `run`: its latest snapshot, the journal after it, and the
/// clock advanced to the latest stored event (read before the journal, so that every entry
/// that took effect before that event is among those read). Nothing is written.
pub(super) async fn copy(store: &Store, scenario: &Scenario, run: &Run) -> Result<Rebuilt> {
    let (_, stored_t) = history::stored_extent(store, run.id).await?;
    let from = latest_snapshot(store, scenario, run).await?;
    let entries = journal::read(store, run.id, from.journal_seq).await?;
    let (rebuilt, _) = replay_off_thread(from, entries, u64::MAX, stored_t).await?;
    Ok(rebuilt)
}

/// The latest snapshot of `run`, or its start rebuilt from the scenario and seed.
async fn latest_snapshot(store: &Store, scenario: &Scenario, run: &Run) -> Result<Restored> {
    Ok(match snapshots::latest(store, run.id, None).await? {
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
    })
}

/// Replays `entries` (the journal after the snapshot `from`) and advances to `stored_t`;
/// keeps the events numbered from `first_missing` on (none with `u64::MAX`).
fn replay(
    from: Restored,
    entries: &[Journaled],
    first_missing: u64,
    stored_t: u64,
) -> Result<Replayed> {
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
