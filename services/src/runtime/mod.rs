//! The simulation runtime: one task owns the [`engine::Simulation`], advances it on the
//! simulated clock at the chosen speed, hands every event batch to the persistence task
//! ([`writer`]) and broadcasts it to live views. Requests talk to it through
//! [`RuntimeHandle`] only: commands over a channel, status through a `watch`, so nothing on a
//! request path waits for the engines to compute.

mod alerting;
mod announce;
mod follower;
pub mod inputs;
pub mod pacing;
mod resume;
mod task;
pub mod upkeep;
pub mod writer;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::store::Store;
use engine::{Action, Event, Scenario, SimDuration, Simulation, Speed, TimedAction};
use serde::Serialize;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::activity::{Series, SharedActivity};
use crate::error::{Result, ServiceError};
use crate::history::{self, Run};
use crate::journal::AuditRow;
pub use crate::replica::ReplicaRole;
use crate::retention::Retention;
pub use follower::follow;
use inputs::Played;
pub use resume::resume;

/// Wall-clock period of the runtime's ticks.
pub const TICK: Duration = Duration::from_millis(100);
/// At speed `max`, wall time spent computing per slice before handing the events on.
const MAX_SPEED_BUDGET: Duration = Duration::from_millis(5);
/// At speed `max`, events produced per slice before handing them on.
const MAX_SPEED_EVENTS: usize = 2_500;
/// At speed `max`, how far the clock jumps when no engine has anything due.
const IDLE_JUMP: u64 = 60_000;
/// Wall time between two snapshots at least: at `max` the demo estate runs hundreds of
/// simulated hours a second, and a snapshot every simulated hour would write hundreds of
/// snapshots a second. Ten a second at most cost ~1 % of the throughput and bound what a
/// resume or a time travel replays to a tenth of a second of computing at `max`.
const SNAPSHOT_MIN_WALL: Duration = Duration::from_millis(100);
/// Batches that may wait for the persistence task before the runtime slows down.
const PERSIST_QUEUE: usize = 64;
/// Journal commits that may wait for the persistence task (the runtime waits for each).
const JOURNAL_QUEUE: usize = 4;
/// Events kept for slow live subscribers before they are told they lagged.
const LIVE_BUFFER: usize = 4_096;

/// A snapshot of the clock and counters, published after every tick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClockStatus {
    /// The run these figures belong to.
    pub run_id: i64,
    /// Scenario name.
    pub scenario: String,
    /// Simulated milliseconds since the scenario start.
    pub t_ms: u64,
    /// Current speed.
    pub speed: Speed,
    /// Events the engines produced (emitted) in this run.
    pub events_total: u64,
    /// Events of this run stored in the database: at most `events_total`, the difference
    /// being on its way to the disk (a crash loses that part, and a resume rebuilds it).
    pub events_persisted: u64,
    /// Events produced in this run, per engine name.
    pub per_engine: BTreeMap<String, u64>,
    /// How late the last tick started, in wall-clock milliseconds.
    pub lag_ms: u64,
    /// When the next thing is due, if anything is.
    pub next_due_ms: Option<u64>,
    /// Whether this console leads the run or follows it.
    pub role: ReplicaRole,
    /// Journal entries played so far (by a follower: replayed).
    pub journal_entries: u64,
    /// A follower's lag: wall-clock milliseconds between the leader's sending the clock mark
    /// this copy has reached and now (0 on the leader).
    pub follower_lag_ms: u64,
    /// Alerts firing on the run, per severity (a follower reads them from the store).
    pub alerts: crate::alerts::AlertCounts,
}

/// An input that changes the run; the task journals it before answering.
enum Input {
    Action(Action),
    Speed(Speed),
    Step,
    Dns {
        domain: String,
        client: std::net::IpAddr,
    },
}

enum Command {
    Input {
        input: Input,
        actor: Option<String>,
        audit: Option<AuditRow>,
        /// The inbox row the input came from (accepted by a follower; see `announce`).
        inbox: Option<i64>,
        reply: oneshot::Sender<Result<(Played, ClockStatus)>>,
    },
    Query(QueryJob),
    /// The alert rules changed (saved on this console, or read from the store): the leader
    /// evaluates them at once; a follower has nothing to do.
    AlertRules {
        rules: Vec<engine::alerts::AlertRule>,
        reply: Option<oneshot::Sender<()>>,
    },
    Shutdown {
        reply: oneshot::Sender<()>,
    },
}

/// The audit row of the request being served, written by the runtime in the same transaction
/// as the journal entry of the first input the request makes (see [`RuntimeHandle::audited`]).
#[derive(Debug)]
pub struct PendingAudit {
    row: Mutex<Option<AuditRow>>,
}

impl PendingAudit {
    /// The row to write with the first journaled input.
    pub fn new(row: AuditRow) -> Arc<PendingAudit> {
        Arc::new(PendingAudit {
            row: Mutex::new(Some(row)),
        })
    }

    /// Whether the row was written already (with a journal entry).
    pub fn written(&self) -> bool {
        self.row.lock().map(|r| r.is_none()).unwrap_or(true)
    }

    fn take(&self) -> Option<AuditRow> {
        self.row.lock().ok().and_then(|mut r| r.take())
    }

    fn put_back(&self, row: AuditRow) {
        if let Ok(mut slot) = self.row.lock() {
            *slot = Some(row);
        }
    }
}

/// A read-only look at the simulation, run on the runtime task between ticks.
type QueryJob = Box<dyn FnOnce(&Simulation) + Send>;

/// The runtime task's ends of the channels its handles use. A follower's task hands them to
/// the leader's task it becomes when it takes the lead, so every handle goes on working.
pub(crate) struct Wiring {
    /// For the leader's inbox pump (weak: the task ends when the last handle goes).
    commands: mpsc::WeakSender<Command>,
    status: watch::Sender<ClockStatus>,
    live: broadcast::Sender<Arc<Event>>,
    /// Each engine's recent changes, counted as events are published.
    activity: SharedActivity,
}

/// Makes the channels of a new runtime task whose first status is `status`.
fn wire(status: ClockStatus, run: Run) -> (Wiring, mpsc::Receiver<Command>, RuntimeHandle) {
    let (commands, command_rx) = mpsc::channel(64);
    let (live, _) = broadcast::channel(LIVE_BUFFER);
    let (status_tx, status_rx) = watch::channel(status);
    let activity = SharedActivity::default();
    let wiring = Wiring {
        commands: commands.downgrade(),
        status: status_tx,
        live: live.clone(),
        activity: activity.clone(),
    };
    let handle = RuntimeHandle {
        commands,
        status: status_rx,
        live,
        activity,
        run: Arc::new(run),
        stopping: Arc::new(watch::channel(false).0),
        audit: None,
    };
    (wiring, command_rx, handle)
}

/// The handle requests use to talk to the runtime. Cheap to clone.
#[derive(Clone)]
pub struct RuntimeHandle {
    commands: mpsc::Sender<Command>,
    status: watch::Receiver<ClockStatus>,
    live: broadcast::Sender<Arc<Event>>,
    activity: SharedActivity,
    run: Arc<Run>,
    stopping: Arc<watch::Sender<bool>>,
    audit: Option<Arc<PendingAudit>>,
}

impl std::fmt::Debug for RuntimeHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuntimeHandle")
            .field("run", &self.run)
            .finish()
    }
}

impl RuntimeHandle {
    /// The latest status.
    pub fn status(&self) -> ClockStatus {
        self.status.borrow().clone()
    }

    /// A receiver that sees every new status.
    pub fn watch_status(&self) -> watch::Receiver<ClockStatus> {
        self.status.clone()
    }

    /// A receiver of every event from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Event>> {
        self.live.subscribe()
    }

    /// `engine`'s changes per 10 simulated minutes over the last 4 simulated hours, up to
    /// the run's current instant (counted since this console started or resumed the run).
    pub fn activity(&self, engine: engine::EngineId) -> Series {
        self.activity.series(engine, self.status.borrow().t_ms)
    }

    /// The run this runtime writes to.
    pub fn run(&self) -> &Run {
        &self.run
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Result<T> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(make(reply))
            .await
            .map_err(|_| ServiceError::RuntimeGone)?;
        answer.await.map_err(|_| ServiceError::RuntimeGone)
    }

    /// Hands the leader the alert rules just saved: it evaluates them at once, and the alerts
    /// they fire are in the history when this returns. (On a follower it returns at once; the
    /// leader reads the stored rules within [`alerting::RULES_EVERY`].)
    pub async fn alert_rules_changed(&self, rules: Vec<engine::alerts::AlertRule>) -> Result<()> {
        self.ask(|reply| Command::AlertRules {
            rules,
            reply: Some(reply),
        })
        .await
    }

    /// A handle whose inputs carry `audit`: the first input that changes the run writes that
    /// audit row in the same transaction as its journal entry, so an acknowledged action is
    /// both durable and accountable. The app's `audited` wrapper uses it.
    pub fn audited(&self, audit: Arc<PendingAudit>) -> RuntimeHandle {
        RuntimeHandle {
            audit: Some(audit),
            ..self.clone()
        }
    }

    async fn input(&self, input: Input, actor: Option<&str>) -> Result<(Played, ClockStatus)> {
        let audit = self.audit.as_ref().and_then(|a| a.take());
        let (reply, answer) = oneshot::channel();
        let command = Command::Input {
            input,
            actor: actor.map(str::to_owned),
            audit: audit.clone(),
            inbox: None,
            reply,
        };
        let outcome = match self.commands.send(command).await {
            Ok(()) => answer.await.unwrap_or(Err(ServiceError::RuntimeGone)),
            Err(_) => Err(ServiceError::RuntimeGone),
        };
        if let (Err(_), Some(row), Some(pending)) = (&outcome, audit, &self.audit) {
            // Not journaled: the request's own audit row (with the refusal) is still due.
            pending.put_back(row);
        }
        outcome
    }

    /// Changes the speed (recorded as a `clock.speed_changed` event by `actor`). Journaled
    /// before it returns.
    pub async fn set_speed(&self, speed: Speed, actor: &str) -> Result<ClockStatus> {
        Ok(self.input(Input::Speed(speed), Some(actor)).await?.1)
    }

    /// Advances to the next instant at which anything is due (recorded as `clock.stepped`).
    /// Journaled before it returns.
    pub async fn step(&self, actor: &str) -> Result<ClockStatus> {
        Ok(self.input(Input::Step, Some(actor)).await?.1)
    }

    /// Applies an operator action now. A refused action changes nothing and says why; an
    /// accepted one is journaled before this returns.
    pub async fn apply(&self, action: impl Into<Action>, actor: &str) -> Result<Vec<Event>> {
        let (played, _) = self
            .input(Input::Action(action.into()), Some(actor))
            .await?;
        Ok(played.events)
    }

    /// Reads the simulation's state with `look` (engine views, paged listings). It runs on the
    /// runtime task between two ticks, so it sees one consistent instant; keep it short.
    pub async fn query<T: Send + 'static>(
        &self,
        look: impl FnOnce(&Simulation) -> T + Send + 'static,
    ) -> Result<T> {
        self.ask(|reply| {
            Command::Query(Box::new(move |sim: &Simulation| {
                // The asker may have gone away; nothing to do then.
                let _ = reply.send(look(sim));
            }))
        })
        .await
    }

    /// Answers a DNS query from the live GSLB topology (the ADNS responder). The engine
    /// advances its round robin and logs the answer; the query is journaled (it changes the
    /// run) and the `adns.answered` events reach the history at the next tick.
    pub async fn resolve_dns(
        &self,
        domain: &str,
        client: std::net::IpAddr,
    ) -> Result<engine::gslb::views::ResolutionView> {
        let input = Input::Dns {
            domain: domain.to_owned(),
            client,
        };
        let (played, _) = self.input(input, None).await?;
        played
            .resolution
            .ok_or_else(|| ServiceError::Internal("a DNS query gave no answer".into()))
    }

    /// Announces that the process is stopping: live streams ([`RuntimeHandle::stopping`])
    /// end so that connections can close. The clock keeps running until
    /// [`RuntimeHandle::shutdown`].
    pub fn begin_shutdown(&self) {
        self.stopping.send_replace(true);
    }

    /// Completes when the runtime task has ended: after [`RuntimeHandle::shutdown`], or
    /// because it failed (e.g. a follower that took the lead could not rebuild the run).
    pub fn ended(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let commands = self.commands.clone();
        async move { commands.closed().await }
    }

    /// Completes once [`RuntimeHandle::begin_shutdown`] has been called (at once if it was).
    pub fn stopping(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut announced = self.stopping.subscribe();
        async move {
            // An error means the sender is gone, which only happens once every handle is
            // dropped: nothing is left to stop for.
            let _ = announced.wait_for(|stopping| *stopping).await;
        }
    }

    /// Stops the clock and waits until every produced event is persisted.
    pub async fn shutdown(&self) {
        if self.ask(|reply| Command::Shutdown { reply }).await.is_err() {
            tracing::debug!("runtime already stopped");
        }
    }
}

/// How the runtime keeps a run durable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeOptions {
    /// Simulated time between two snapshots (one is also taken at the start and at shutdown).
    pub snapshot_every: SimDuration,
    /// How long each engine's raw events are kept (the leader's upkeep, [`upkeep`]).
    pub retention: Retention,
}

impl Default for RuntimeOptions {
    fn default() -> Self {
        RuntimeOptions {
            snapshot_every: DEFAULT_SNAPSHOT_EVERY,
            retention: Retention::default(),
        }
    }
}

/// Default of [`RuntimeOptions::snapshot_every`]: one simulated hour.
pub const DEFAULT_SNAPSHOT_EVERY: SimDuration = SimDuration::from_mins(60);

/// [`start_with`] and the default options.
pub async fn start(
    store: Store,
    scenario: &Scenario,
    seed: u64,
    actions: Vec<TimedAction>,
    speed: Speed,
) -> Result<RuntimeHandle> {
    start_with(
        store,
        scenario,
        seed,
        actions,
        speed,
        RuntimeOptions::default(),
    )
    .await
}

/// Starts a new run of `scenario` with `seed`: records the run, spawns the runtime and the
/// persistence task, and returns the handle.
pub async fn start_with(
    store: Store,
    scenario: &Scenario,
    seed: u64,
    actions: Vec<TimedAction>,
    speed: Speed,
    options: RuntimeOptions,
) -> Result<RuntimeHandle> {
    // The scenario's text is kept with the run, so that it can be viewed in the past even
    // after the configured scenario changed (a scenario that cannot be written is not kept).
    let text = scenario.to_toml_string().ok();
    let run = history::create_run(&store, &scenario.scenario.name, seed, text.as_deref()).await?;
    history::set_start_speed(&store, run.id, speed).await?;
    let mut sim = Simulation::new(scenario, seed);
    sim.schedule(actions);
    task::spawn(store, run, sim, speed, task::Resumed::default(), options).await
}
