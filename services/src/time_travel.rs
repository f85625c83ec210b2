//! Time travel: the estate of a run as it was at a past instant, rebuilt from the nearest
//! earlier snapshot and the journal after it (the same replay as a resume, stopped at the
//! instant), on the blocking pool, never on the runtime task.
//!
//! Pages read an [`Estate`]: the live simulation through the runtime, or a rebuilt past one.
//! Both answer the same `query(|sim| ...)`, so a page shows the past with the code that shows
//! the present. Rebuilt states are kept in a small LRU ([`PAST_CACHE`] entries) and at most
//! [`PARALLEL_REBUILDS`] are built at once, so memory stays bounded whatever the traffic.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::store::Store;
use engine::{Scenario, SimTime, Simulation};
use tokio::sync::Semaphore;

use crate::charts::Window;
use crate::error::{Result, ServiceError};
use crate::history::{self, Run};
use crate::journal::{self, Entry, Journaled};
use crate::runtime::{inputs, RuntimeHandle};
use crate::snapshots;

/// Rebuilt past states kept for the next requests (a page and its parts ask several times).
pub const PAST_CACHE: usize = 4;
/// Past states built at the same time (each holds one whole simulation in memory).
pub const PARALLEL_REBUILDS: usize = 2;
/// How long a read of the runs list is reused (the time bar of every page asks for it; runs
/// are added only when a console starts a new one).
pub const RUNS_MAX_AGE: std::time::Duration = std::time::Duration::from_secs(1);

/// An instant of a run, as a page asks for it (`?at=D+HH:MM:SS&run=N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PastInstant {
    /// The run; `None` is the live one.
    pub run_id: Option<i64>,
    /// The simulated instant.
    pub at: SimTime,
}

/// A run's state rebuilt at an instant.
#[derive(Debug)]
pub struct PastEstate {
    /// The run.
    pub run: Run,
    /// The instant it shows.
    pub at: SimTime,
    /// The simulation at that instant.
    pub sim: Simulation,
    /// The scenario the run was started with.
    pub scenario: Arc<Scenario>,
}

/// What a page reads: the live run or a past instant of a run.
#[derive(Debug, Clone)]
pub enum Estate {
    /// The running simulation.
    Live {
        /// The runtime.
        runtime: RuntimeHandle,
        /// Its scenario.
        scenario: Arc<Scenario>,
    },
    /// A rebuilt past instant (read-only).
    Past(Arc<PastEstate>),
}

impl Estate {
    /// Reads the simulation with `look`: between two ticks of the runtime for the live run,
    /// on the blocking pool for a past instant.
    pub async fn query<T: Send + 'static>(
        &self,
        look: impl FnOnce(&Simulation) -> T + Send + 'static,
    ) -> Result<T> {
        match self {
            Estate::Live { runtime, .. } => runtime.query(look).await,
            Estate::Past(past) => {
                let past = past.clone();
                tokio::task::spawn_blocking(move || look(&past.sim))
                    .await
                    .map_err(|e| ServiceError::Internal(format!("past view failed: {e}")))
            }
        }
    }

    /// The run shown.
    pub fn run_id(&self) -> i64 {
        match self {
            Estate::Live { runtime, .. } => runtime.run().id,
            Estate::Past(past) => past.run.id,
        }
    }

    /// The scenario of the run shown.
    pub fn scenario(&self) -> &Scenario {
        match self {
            Estate::Live { scenario, .. } => scenario,
            Estate::Past(past) => &past.scenario,
        }
    }

    /// The instant shown when it is in the past (`None`: live).
    pub fn past_instant(&self) -> Option<SimTime> {
        match self {
            Estate::Live { .. } => None,
            Estate::Past(past) => Some(past.at),
        }
    }

    /// The stored history a page may chart and list: the run, up to the instant shown.
    pub fn window(&self) -> Window {
        Window {
            run_id: self.run_id(),
            until_ms: self.past_instant().map(SimTime::as_millis),
        }
    }
}

/// The time-travel service: rebuilds and caches past states. Cheap to clone.
#[derive(Debug, Clone)]
pub struct TimeTravel {
    cache: Arc<Mutex<VecDeque<Arc<PastEstate>>>>,
    rebuilds: Arc<Semaphore>,
    runs: Arc<Mutex<Option<RunsRead>>>,
}

/// A read of the runs list and when it was made ([`TimeTravel::runs`]).
type RunsRead = (std::time::Instant, Arc<Vec<Run>>);

impl Default for TimeTravel {
    fn default() -> Self {
        TimeTravel {
            cache: Arc::new(Mutex::new(VecDeque::with_capacity(PAST_CACHE))),
            rebuilds: Arc::new(Semaphore::new(PARALLEL_REBUILDS)),
            runs: Arc::new(Mutex::new(None)),
        }
    }
}

/// The instants of a run that can be viewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunExtent {
    /// The run.
    pub run_id: i64,
    /// The latest instant (the live clock for the running run).
    pub end: SimTime,
    /// Whether it is the running run.
    pub live: bool,
}

impl TimeTravel {
    /// Every run, newest first ([`history::list_runs`]), read at most once per
    /// [`RUNS_MAX_AGE`]: a run another console started shows within that time.
    pub async fn runs(&self, store: &Store) -> Result<Arc<Vec<Run>>> {
        let now = std::time::Instant::now();
        if let Ok(slot) = self.runs.lock() {
            if let Some((at, runs)) = slot.as_ref() {
                if now.duration_since(*at) < RUNS_MAX_AGE {
                    return Ok(runs.clone());
                }
            }
        }
        let runs = Arc::new(history::list_runs(store).await?);
        if let Ok(mut slot) = self.runs.lock() {
            *slot = Some((now, runs.clone()));
        }
        Ok(runs)
    }

    /// The estate at `instant`, or the live one when `instant` is `None`. An instant after
    /// the run's end, a run that does not exist or one recorded before snapshots were kept is
    /// refused ([`ServiceError::OutOfRange`] names the valid range).
    pub async fn estate(
        &self,
        store: &Store,
        runtime: &RuntimeHandle,
        live_scenario: &Arc<Scenario>,
        instant: Option<PastInstant>,
    ) -> Result<Estate> {
        let Some(instant) = instant else {
            return Ok(Estate::Live {
                runtime: runtime.clone(),
                scenario: live_scenario.clone(),
            });
        };
        let run_id = instant.run_id.unwrap_or(runtime.run().id);
        if let Some(hit) = self.cached(run_id, instant.at) {
            return Ok(Estate::Past(hit));
        }
        let (extent, run, text) = viewable(store, runtime, run_id).await?;
        if instant.at > extent.end {
            return Err(ServiceError::OutOfRange {
                field: "at".into(),
                message: format!(
                    "run {run_id} can be viewed from {} to {}",
                    SimTime::ZERO,
                    extent.end
                ),
            });
        }
        let _permit = self
            .rebuilds
            .acquire()
            .await
            .map_err(|_| ServiceError::Internal("time travel closed".into()))?;
        // Another request may have built it while this one waited.
        if let Some(hit) = self.cached(run_id, instant.at) {
            return Ok(Estate::Past(hit));
        }
        let scenario = if extent.live {
            live_scenario.clone()
        } else {
            stored_scenario(&run, text, live_scenario)?
        };
        let past = Arc::new(rebuild(store, run, instant.at, scenario).await?);
        self.remember(past.clone());
        Ok(Estate::Past(past))
    }

    fn cached(&self, run_id: i64, at: SimTime) -> Option<Arc<PastEstate>> {
        let mut cache = self.cache.lock().ok()?;
        let found = cache
            .iter()
            .position(|p| p.run.id == run_id && p.at == at)?;
        let hit = cache.remove(found)?;
        cache.push_front(hit.clone());
        Some(hit)
    }

    fn remember(&self, past: Arc<PastEstate>) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.push_front(past);
            cache.truncate(PAST_CACHE);
        }
    }
}

/// How far run `run_id` can be viewed: up to the live clock for the running run, up to the
/// latest stored event, journal entry or snapshot for an earlier one.
pub async fn extent(store: &Store, runtime: &RuntimeHandle, run_id: i64) -> Result<RunExtent> {
    Ok(viewable(store, runtime, run_id).await?.0)
}

/// Run `run_id`, how far it can be viewed, and the scenario text kept with it (one read of
/// the run row).
async fn viewable(
    store: &Store,
    runtime: &RuntimeHandle,
    run_id: i64,
) -> Result<(RunExtent, Run, Option<String>)> {
    if run_id == runtime.run().id {
        let extent = RunExtent {
            run_id,
            end: SimTime(runtime.status().t_ms),
            live: true,
        };
        return Ok((extent, runtime.run().clone(), None));
    }
    let Some((run, text)) = history::find_run(store, run_id).await? else {
        return Err(ServiceError::OutOfRange {
            field: "run".into(),
            message: format!("there is no run {run_id}"),
        });
    };
    let extent = RunExtent {
        run_id,
        end: SimTime(history::recorded_until(store, run_id).await?),
        live: false,
    };
    Ok((extent, run, text))
}

/// The scenario an earlier `run` was started with: its stored `text`, or (for a run recorded
/// before the text was kept) the live scenario when the names match.
fn stored_scenario(run: &Run, text: Option<String>, live: &Arc<Scenario>) -> Result<Arc<Scenario>> {
    let run_id = run.id;
    match text {
        Some(text) => Scenario::from_toml_str(&text, &format!("run {run_id}"))
            .map(Arc::new)
            .map_err(|e| {
                ServiceError::invalid("run", format!("run {run_id}: stored scenario: {e}"))
            }),
        None if run.scenario == live.scenario.name => Ok(live.clone()),
        None => Err(ServiceError::OutOfRange {
            field: "run".into(),
            message: format!(
                "run {run_id} (scenario `{}`) was recorded without its scenario; only runs of `{}` can be viewed",
                run.scenario, live.scenario.name
            ),
        }),
    }
}

/// Rebuilds `run` at `at`: the latest snapshot at or before it, then the journal entries up
/// to it, replayed on the blocking pool.
pub async fn rebuild(
    store: &Store,
    run: Run,
    at: SimTime,
    scenario: Arc<Scenario>,
) -> Result<PastEstate> {
    let run_id = run.id;
    let Some(from) = snapshots::latest(store, run_id, Some(at)).await? else {
        return Err(ServiceError::OutOfRange {
            field: "run".into(),
            message: format!(
                "run {run_id} has no snapshot this build can read (recorded before snapshots were kept, or by a build with another snapshot format): its past cannot be rebuilt"
            ),
        });
    };
    let entries = journal::read_until(store, run_id, from.journal_seq, Some(at)).await?;
    let sim = tokio::task::spawn_blocking(move || replay_until(from.sim, &entries, at))
        .await
        .map_err(|e| ServiceError::Internal(format!("time travel failed: {e}")))??;
    Ok(PastEstate {
        run,
        at,
        sim,
        scenario,
    })
}

/// Plays `entries` (all at or before `at`) on `sim`, then advances it to `at`. The events
/// are dropped: they are in the history already.
pub fn replay_until(mut sim: Simulation, entries: &[Journaled], at: SimTime) -> Result<Simulation> {
    for entry in entries {
        sim.advance_to(SimTime(entry.t_ms));
        // A step jumps to the next due instant: past `at`, the state at `at` is the one
        // reached by advancing to it (nothing is due in between).
        if matches!(entry.entry, Entry::Step) && sim.next_due().is_some_and(|due| due > at) {
            break;
        }
        inputs::replay(&mut sim, entry).map_err(|why| ServiceError::invalid("journal", why))?;
    }
    sim.advance_to(at);
    Ok(sim)
}
