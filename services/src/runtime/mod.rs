//! The simulation runtime: one task owns the [`engine::Simulation`], advances it on the
//! simulated clock at the chosen speed, hands every event batch to the persistence task
//! ([`writer`]) and broadcasts it to live views. Requests talk to it through
//! [`RuntimeHandle`] only: commands over a channel, status through a `watch`, so nothing on a
//! request path waits for the engines to compute.

pub mod pacing;
pub mod writer;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use engine::{Action, EngineId, Event, Scenario, SimTime, Simulation, Speed, TimedAction};
use serde::Serialize;
use sqlx::SqlitePool;
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};

use crate::error::{Result, ServiceError};
use crate::history::{self, Run};
use crate::telemetry;
use pacing::Pacer;

/// Wall-clock period of the runtime's ticks.
pub const TICK: Duration = Duration::from_millis(100);
/// At speed `max`, wall time spent computing per tick before yielding.
const MAX_SPEED_BUDGET: Duration = Duration::from_millis(60);
/// At speed `max`, events produced per tick before handing them on.
const MAX_SPEED_EVENTS: usize = 20_000;
/// At speed `max`, how far the clock jumps when no engine has anything due.
const IDLE_JUMP: u64 = 60_000;
/// Batches that may wait for the persistence task before the runtime slows down.
const PERSIST_QUEUE: usize = 32;
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
    /// Events produced in this run.
    pub events_total: u64,
    /// Events produced in this run, per engine name.
    pub per_engine: BTreeMap<String, u64>,
    /// How late the last tick started, in wall-clock milliseconds.
    pub lag_ms: u64,
    /// When the next thing is due, if anything is.
    pub next_due_ms: Option<u64>,
}

enum Command {
    SetSpeed {
        speed: Speed,
        actor: String,
        reply: oneshot::Sender<ClockStatus>,
    },
    Step {
        actor: String,
        reply: oneshot::Sender<ClockStatus>,
    },
    Apply {
        action: Action,
        actor: String,
        reply: oneshot::Sender<std::result::Result<Vec<Event>, engine::ActionError>>,
    },
    Query(QueryJob),
    ResolveDns {
        domain: String,
        client: std::net::IpAddr,
        reply: oneshot::Sender<engine::gslb::views::ResolutionView>,
    },
    Shutdown {
        reply: oneshot::Sender<()>,
    },
}

/// A read-only look at the simulation, run on the runtime task between ticks.
type QueryJob = Box<dyn FnOnce(&Simulation) + Send>;

/// The handle requests use to talk to the runtime. Cheap to clone.
#[derive(Clone)]
pub struct RuntimeHandle {
    commands: mpsc::Sender<Command>,
    status: watch::Receiver<ClockStatus>,
    live: broadcast::Sender<Arc<Event>>,
    run: Arc<Run>,
    stopping: Arc<watch::Sender<bool>>,
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

    /// Changes the speed (recorded as a `clock.speed_changed` event by `actor`).
    pub async fn set_speed(&self, speed: Speed, actor: &str) -> Result<ClockStatus> {
        let actor = actor.to_owned();
        self.ask(|reply| Command::SetSpeed {
            speed,
            actor,
            reply,
        })
        .await
    }

    /// Advances to the next instant at which anything is due (recorded as `clock.stepped`).
    pub async fn step(&self, actor: &str) -> Result<ClockStatus> {
        let actor = actor.to_owned();
        self.ask(|reply| Command::Step { actor, reply }).await
    }

    /// Applies an operator action now. A refused action changes nothing and says why.
    pub async fn apply(&self, action: impl Into<Action>, actor: &str) -> Result<Vec<Event>> {
        let action = action.into();
        let actor = actor.to_owned();
        self.ask(|reply| Command::Apply {
            action,
            actor,
            reply,
        })
        .await?
        .map_err(ServiceError::from)
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
    /// advances its round robin and logs the answer; the `adns.answered` events reach the
    /// history at the next tick.
    pub async fn resolve_dns(
        &self,
        domain: &str,
        client: std::net::IpAddr,
    ) -> Result<engine::gslb::views::ResolutionView> {
        let domain = domain.to_owned();
        self.ask(|reply| Command::ResolveDns {
            domain,
            client,
            reply,
        })
        .await
    }

    /// Announces that the process is stopping: live streams ([`RuntimeHandle::stopping`])
    /// end so that connections can close. The clock keeps running until
    /// [`RuntimeHandle::shutdown`].
    pub fn begin_shutdown(&self) {
        self.stopping.send_replace(true);
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

/// Starts a new run of `scenario` with `seed`: records the run, spawns the runtime and the
/// persistence task, and returns the handle.
pub async fn start(
    pool: SqlitePool,
    scenario: &Scenario,
    seed: u64,
    actions: Vec<TimedAction>,
    speed: Speed,
) -> Result<RuntimeHandle> {
    let run = history::create_run(&pool, &scenario.scenario.name, seed).await?;
    let mut sim = Simulation::new(scenario, seed);
    sim.schedule(actions);

    let (persist_tx, persist_rx) = mpsc::channel(PERSIST_QUEUE);
    let writer = tokio::spawn(writer::run(pool, run.id, persist_rx));
    let (commands, command_rx) = mpsc::channel(64);
    let (live, _) = broadcast::channel(LIVE_BUFFER);
    let initial = ClockStatus {
        run_id: run.id,
        scenario: run.scenario.clone(),
        t_ms: 0,
        speed,
        events_total: 0,
        per_engine: BTreeMap::new(),
        lag_ms: 0,
        next_due_ms: None,
    };
    let (status_tx, status) = watch::channel(initial.clone());
    let task = Task {
        sim,
        speed,
        pacer: Pacer::default(),
        persist: Some(persist_tx),
        writer: Some(writer),
        live: live.clone(),
        status: status_tx,
        snapshot: initial,
    };
    tokio::spawn(task.run(command_rx));
    Ok(RuntimeHandle {
        commands,
        status,
        live,
        run: Arc::new(run),
        stopping: Arc::new(watch::channel(false).0),
    })
}

struct Task {
    sim: Simulation,
    speed: Speed,
    pacer: Pacer,
    persist: Option<mpsc::Sender<Vec<Event>>>,
    writer: Option<JoinHandle<()>>,
    live: broadcast::Sender<Arc<Event>>,
    status: watch::Sender<ClockStatus>,
    snapshot: ClockStatus,
}

impl Task {
    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        let mut ticker = tokio::time::interval(TICK);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut last = Instant::now();
        loop {
            tokio::select! {
                command = commands.recv() => match command {
                    Some(Command::Shutdown { reply }) => {
                        self.stop().await;
                        let _ = reply.send(());
                        return;
                    }
                    Some(command) => self.handle(command).await,
                    None => {
                        self.stop().await;
                        return;
                    }
                },
                scheduled = ticker.tick() => {
                    let now = Instant::now();
                    let lag = now.saturating_duration_since(scheduled);
                    let wall = now.saturating_duration_since(last);
                    last = now;
                    self.tick(wall).await;
                    self.snapshot.lag_ms = u64::try_from(lag.as_millis()).unwrap_or(u64::MAX);
                    metrics::gauge!(telemetry::CLOCK_LAG_MS).set(lag.as_secs_f64() * 1000.0);
                    self.publish_status();
                }
            }
        }
    }

    async fn tick(&mut self, wall: Duration) {
        match self.speed {
            // Work already due (e.g. DNS answers logged while paused) is still written out;
            // the clock does not move.
            Speed::Paused => {
                let now = self.sim.now();
                if self.sim.next_due().is_some_and(|t| t <= now) {
                    let events = self.sim.advance_to(now);
                    self.emit(events).await;
                }
            }
            Speed::Max => {
                let started = Instant::now();
                let mut events = Vec::new();
                while started.elapsed() < MAX_SPEED_BUDGET && events.len() < MAX_SPEED_EVENTS {
                    let now = self.sim.now().as_millis();
                    let target = self
                        .sim
                        .next_due()
                        .map_or(now.saturating_add(IDLE_JUMP), SimTime::as_millis)
                        .max(now.saturating_add(1));
                    events.extend(self.sim.advance_to(SimTime(target)));
                }
                self.emit(events).await;
            }
            speed => {
                let factor = speed.factor().unwrap_or(1);
                let ms = self.pacer.advance(wall, factor);
                if ms > 0 {
                    let target = self.sim.now().as_millis().saturating_add(ms);
                    let events = self.sim.advance_to(SimTime(target));
                    self.emit(events).await;
                }
            }
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::SetSpeed {
                speed,
                actor,
                reply,
            } => {
                let from = self.speed;
                self.speed = speed;
                self.pacer.reset();
                let event = self.clock_event(
                    "clock.speed_changed",
                    serde_json::json!({"from": from, "to": speed, "reason": "operator action"}),
                    &actor,
                );
                self.emit(vec![event]).await;
                self.publish_status();
                let _ = reply.send(self.snapshot.clone());
            }
            Command::Step { actor, reply } => {
                let from = self.sim.now().as_millis();
                let mut events = self.sim.step_to_next();
                let to = self.sim.now().as_millis();
                events.push(self.clock_event(
                    "clock.stepped",
                    serde_json::json!({"from_ms": from, "to_ms": to, "reason": "operator action"}),
                    &actor,
                ));
                self.emit(events).await;
                self.publish_status();
                let _ = reply.send(self.snapshot.clone());
            }
            Command::Apply {
                action,
                actor,
                reply,
            } => {
                let outcome = self.sim.apply_now(action, Some(actor));
                if let Ok(events) = &outcome {
                    self.emit(events.clone()).await;
                    self.publish_status();
                }
                let _ = reply.send(outcome);
            }
            Command::Query(job) => job(&self.sim),
            Command::ResolveDns {
                domain,
                client,
                reply,
            } => {
                let _ = reply.send(self.sim.resolve_dns(&domain, client));
            }
            Command::Shutdown { reply } => {
                self.stop().await;
                let _ = reply.send(());
            }
        }
    }

    fn clock_event(&self, kind: &str, details: serde_json::Value, actor: &str) -> Event {
        Event::new(self.sim.now(), EngineId::Core, "clock", kind, details)
            .with_actor(Some(actor.to_owned()))
    }

    async fn emit(&mut self, events: Vec<Event>) {
        if events.is_empty() {
            return;
        }
        for e in &events {
            *self
                .snapshot
                .per_engine
                .entry(e.engine.as_str().to_owned())
                .or_default() += 1;
            // No live subscriber is fine: the send result only says whether anyone listened.
            let _ = self.live.send(Arc::new(e.clone()));
        }
        self.snapshot.events_total += events.len() as u64;
        if let Some(persist) = &self.persist {
            // Awaiting here is the back-pressure that keeps `max` speed within what the
            // database can take.
            if persist.send(events).await.is_err() {
                tracing::error!("persistence task is gone; events are no longer stored");
            }
        }
    }

    fn publish_status(&mut self) {
        self.snapshot.t_ms = self.sim.now().as_millis();
        self.snapshot.speed = self.speed;
        self.snapshot.next_due_ms = self.sim.next_due().map(SimTime::as_millis);
        metrics::gauge!(telemetry::SIM_TIME_MS).set(self.snapshot.t_ms as f64);
        self.status.send_replace(self.snapshot.clone());
    }

    async fn stop(&mut self) {
        self.speed = Speed::Paused;
        self.persist = None;
        if let Some(writer) = self.writer.take() {
            if let Err(e) = writer.await {
                tracing::error!(error = %e, "persistence task failed");
            }
        }
    }
}
