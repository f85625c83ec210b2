//! The runtime task: owns the simulation, ticks the clock, journals every input before
//! answering it, and hands events to the persistence task and to live views.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::store::Store;
use engine::{Event, SimTime, Simulation, Speed};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};

use super::alerting::Alerting;
use super::announce;
use super::inputs::{self, Played};
use super::pacing::Pacer;
use super::writer::{self, JournalWrite, Persist};
use super::{
    ClockStatus, Command, Input, ReplicaRole, RuntimeHandle, RuntimeOptions, Wiring, IDLE_JUMP,
    JOURNAL_QUEUE, MAX_SPEED_BUDGET, MAX_SPEED_EVENTS, PERSIST_QUEUE, SNAPSHOT_MIN_WALL, TICK,
};
use crate::activity::SharedActivity;
use crate::error::{Result, ServiceError};
use crate::history::Run;
use crate::journal::{AuditRow, Entry, Journaled};
use crate::replica::inbox::{Answer, Answered};
use crate::snapshots::SnapshotRow;
use crate::telemetry;

/// Where a resumed run stands (all zero for a new run).
#[derive(Debug, Default, Clone)]
pub(super) struct Resumed {
    /// Events the run has produced so far (the `seq` of the next one).
    pub events: u64,
    /// Events per engine so far.
    pub per_engine: BTreeMap<String, u64>,
    /// Journal entries so far (the `seq` of the next one).
    pub journal: u64,
}

/// Spawns the persistence task and the runtime task for `run` on `sim`.
pub(super) async fn spawn(
    store: Store,
    run: Run,
    sim: Simulation,
    speed: Speed,
    resumed: Resumed,
    options: RuntimeOptions,
) -> Result<RuntimeHandle> {
    let status = leader_status(&run, &sim, speed, &resumed);
    let (wiring, commands, handle) = super::wire(status, run.clone());
    let task = Task::lead(store, run, sim, speed, resumed, options, wiring).await?;
    tokio::spawn(task.run(commands));
    Ok(handle)
}

/// The status of a leader's task as it starts.
fn leader_status(run: &Run, sim: &Simulation, speed: Speed, resumed: &Resumed) -> ClockStatus {
    ClockStatus {
        run_id: run.id,
        scenario: run.scenario.clone(),
        t_ms: sim.now().as_millis(),
        speed,
        events_total: resumed.events,
        events_persisted: resumed.events,
        per_engine: resumed.per_engine.clone(),
        lag_ms: 0,
        next_due_ms: sim.next_due().map(SimTime::as_millis),
        role: ReplicaRole::Leader,
        journal_entries: resumed.journal,
        follower_lag_ms: 0,
        alerts: Default::default(),
    }
}

pub(super) struct Task {
    sim: Simulation,
    speed: Speed,
    pacer: Pacer,
    run_id: i64,
    /// Journal commits, made by the persistence task ahead of its events (see `writer`).
    journal: mpsc::Sender<JournalWrite>,
    journal_seq: u64,
    /// Set when a journal write failed: the simulation holds an input the journal does not,
    /// so the run stops taking inputs (a restart resumes from what was journaled).
    halted: Option<String>,
    /// DNS queries answered and not yet journaled (see `input`).
    dns_pending: Vec<Journaled>,
    /// Simulated milliseconds between snapshots.
    snapshot_every: u64,
    /// The simulated instant from which the next snapshot is due.
    next_snapshot_ms: u64,
    /// When the last snapshot was taken (wall clock; see [`SNAPSHOT_MIN_WALL`]).
    last_snapshot: Instant,
    persist: Option<mpsc::Sender<Persist>>,
    /// Events published and not handed on yet: an input's events wait here for room in the
    /// persistence queue, so that the next input is not kept waiting behind them.
    unsent: Vec<Event>,
    /// Events stored so far, counted by the persistence task.
    persisted: Arc<AtomicU64>,
    writer: Option<JoinHandle<()>>,
    live: broadcast::Sender<Arc<Event>>,
    /// Each engine's recent changes (the overview's sparklines).
    activity: SharedActivity,
    status: watch::Sender<ClockStatus>,
    snapshot: ClockStatus,
    /// The alert rules evaluated on the run ([`super::alerting`]).
    alerting: Alerting,
}

impl Task {
    /// The leader's task for `run` on `sim`, on the channels of `wiring`: opens the
    /// persistence task's connections and spawns it; on PostgreSQL also the clock marks for
    /// followers and the pump of their inputs ([`super::announce`]). Run it with [`Task::run`].
    pub(super) async fn lead(
        store: Store,
        run: Run,
        sim: Simulation,
        speed: Speed,
        resumed: Resumed,
        options: RuntimeOptions,
        wiring: Wiring,
    ) -> Result<Task> {
        let (journal, journal_rx) = mpsc::channel(JOURNAL_QUEUE);
        let connections = writer::Connections::open(store.clone(), journal_rx).await?;
        let sim_now = sim.now().as_millis();
        let (persist_tx, persist_rx) = mpsc::channel(PERSIST_QUEUE);
        // Everything before `resumed.events` is stored (a resume writes what was lost first).
        let persisted = Arc::new(AtomicU64::new(resumed.events));
        let writer = tokio::spawn(writer::run(
            connections,
            run.id,
            resumed.events,
            persist_rx,
            persisted.clone(),
        ));
        let alerting = Alerting::open(store.clone(), run.id, wiring.commands.clone()).await?;
        let mut status = leader_status(&run, &sim, speed, &resumed);
        status.alerts = alerting.counts();
        wiring.status.send_replace(status.clone());
        announce::start(&store, run.id, &wiring);
        tokio::spawn(super::upkeep::run(
            store.clone(),
            run.id,
            wiring.status.subscribe(),
            options.retention.clone(),
        ));
        metrics::gauge!(telemetry::LEADER).set(1.0);
        metrics::gauge!(telemetry::FOLLOWER_LAG_SECONDS).set(0.0);
        Ok(Task {
            sim,
            speed,
            pacer: Pacer::default(),
            run_id: run.id,
            journal,
            journal_seq: resumed.journal,
            halted: None,
            dns_pending: Vec::new(),
            snapshot_every: options.snapshot_every.as_millis().max(1),
            // A new run is snapshotted before its first input (t = 0); a resumed one after
            // the interval.
            next_snapshot_ms: if resumed.events == 0 && resumed.journal == 0 {
                0
            } else {
                sim_now.saturating_add(options.snapshot_every.as_millis())
            },
            last_snapshot: Instant::now(),
            persist: Some(persist_tx),
            unsent: Vec::new(),
            persisted,
            writer: Some(writer),
            live: wiring.live,
            activity: wiring.activity,
            status: wiring.status,
            snapshot: status,
            alerting,
        })
    }

    pub(super) async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        let mut ticker = tokio::time::interval(TICK);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut last = Instant::now();
        if self.next_snapshot_ms == 0 {
            // A new run: its start is snapshotted before any input.
            self.take_snapshot().await;
        }
        loop {
            // At `max`, the engines compute whenever the persistence queue has room; commands
            // go first, then the ticker (status, other speeds), then the next slice (and the
            // events of inputs waiting to be handed on, at any speed).
            let computing = self.speed == Speed::Max && self.halted.is_none();
            let room = self
                .persist
                .clone()
                .filter(|_| computing || !self.unsent.is_empty());
            tokio::select! {
                biased;
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
                    if self.halted.is_none() && self.speed != Speed::Max {
                        self.tick(wall).await;
                        self.snapshot_if_due().await;
                    }
                    self.alerting.evaluate(&self.sim, false).await;
                    self.snapshot.lag_ms = u64::try_from(lag.as_millis()).unwrap_or(u64::MAX);
                    metrics::gauge!(telemetry::CLOCK_LAG_SECONDS).set(lag.as_secs_f64());
                    self.publish_status();
                }
                Some(permit) = async {
                    match room {
                        Some(persist) => persist.reserve_owned().await.ok(),
                        None => None,
                    }
                } => {
                    if self.unsent.is_empty() && self.snapshot_due() {
                        // A due snapshot takes the free place ahead of the next slice: at
                        // `max` the queue is seldom free otherwise.
                        if self.flush_dns().await.is_ok() {
                            permit.send(Persist::Snapshot(Box::new(self.snapshot_row())));
                        }
                    } else {
                        let mut events = std::mem::take(&mut self.unsent);
                        if computing {
                            let fresh = compute(|| self.max_slice(&commands));
                            self.publish(&fresh);
                            events.extend(fresh);
                        }
                        if !events.is_empty() && self.flush_dns().await.is_ok() {
                            permit.send(Persist::Events(events));
                        }
                    }
                    self.publish_status();
                    // Let the persistence task run: woken by the send, it waits in this
                    // worker's queue, and the next slice would otherwise be ready at once.
                    tokio::task::yield_now().await;
                }
            }
        }
    }

    /// Whether a snapshot is due: the simulated interval has passed, and the least wall time
    /// between two ([`SNAPSHOT_MIN_WALL`]).
    fn snapshot_due(&self) -> bool {
        self.sim.now().as_millis() >= self.next_snapshot_ms
            && self.last_snapshot.elapsed() >= SNAPSHOT_MIN_WALL
    }

    /// At paced speeds, takes a snapshot when one is due and the persistence queue has room
    /// for it (at `max`, `run` gives a due snapshot the next free place instead).
    async fn snapshot_if_due(&mut self) {
        // Room for the snapshot, and for the events waiting to go before it.
        let needed = 1 + usize::from(!self.unsent.is_empty());
        let room = self
            .persist
            .as_ref()
            .is_some_and(|p| p.capacity() >= needed);
        if room && self.snapshot_due() {
            self.take_snapshot().await;
        }
    }

    /// One slice of work at `max`: until the budget is spent, enough events are made, or a
    /// command waits (an operator's input is not kept waiting by the engines).
    fn max_slice(&mut self, commands: &mpsc::Receiver<Command>) -> Vec<Event> {
        let started = Instant::now();
        let mut events = Vec::new();
        while started.elapsed() < MAX_SPEED_BUDGET
            && events.len() < MAX_SPEED_EVENTS
            && commands.is_empty()
        {
            let now = self.sim.now().as_millis();
            let target = self
                .sim
                .next_due()
                .map_or(now.saturating_add(IDLE_JUMP), SimTime::as_millis)
                .max(now.saturating_add(1));
            events.extend(self.sim.advance_to(SimTime(target)));
        }
        events
    }

    /// Advances the clock for one tick at a paced speed (or writes out work due while paused).
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
            // Computed by `max_slice` as the persistence queue makes room.
            Speed::Max => {}
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
            Command::Input {
                input,
                actor,
                audit,
                inbox,
                reply,
            } => {
                let (mut outcome, events) = self.input(input, actor, audit, inbox).await;
                if outcome.is_ok() {
                    // An operator's action is answered with the alerts it fired in the
                    // history already.
                    self.alerting.evaluate(&self.sim, true).await;
                    self.publish_status();
                    if let Ok((_, status)) = &mut outcome {
                        status.alerts = self.snapshot.alerts;
                    }
                }
                let _ = reply.send(outcome);
                // Handed on after the answer, when the queue has room (see `run`): neither
                // this answer nor the next input waits for the queue of events to store.
                self.unsent.extend(events);
            }
            Command::Query(job) => job(&self.sim),
            Command::AlertRules { rules, reply } => {
                self.alerting.set_rules(rules);
                self.alerting.evaluate(&self.sim, true).await;
                self.publish_status();
                if let Some(reply) = reply {
                    let _ = reply.send(());
                }
            }
            Command::Shutdown { reply } => {
                self.stop().await;
                let _ = reply.send(());
            }
        }
    }

    /// Plays an input, journals it (with the request's audit row, and the answer to the
    /// inbox row it came from) and only then publishes its events and answers: an answer
    /// means the input is durable. Returns the answer and the events to hand on to the
    /// persistence task.
    async fn input(
        &mut self,
        input: Input,
        actor: Option<String>,
        audit: Option<AuditRow>,
        inbox: Option<i64>,
    ) -> (Result<(Played, ClockStatus)>, Vec<Event>) {
        if let Some(why) = &self.halted {
            return (Err(ServiceError::Internal(why.clone())), Vec::new());
        }
        let entry = match input {
            Input::Action(action) => Entry::Action(action),
            Input::Speed(to) => Entry::Speed {
                from: self.speed,
                to,
            },
            Input::Step => Entry::Step,
            Input::Dns { domain, client } => Entry::Dns { domain, client },
        };
        // The instant it takes effect: where the clock stands (a step starts from there).
        let t_ms = self.sim.now().as_millis();
        let (mut events, outcome) = inputs::play(&mut self.sim, &entry, actor.as_deref());
        let played = match outcome {
            Ok(played) => played,
            Err(refused) => {
                // Nothing to journal; the work that was due still happened.
                self.publish(&events);
                return (Err(ServiceError::from(refused)), events);
            }
        };
        let row = Journaled {
            seq: self.journal_seq,
            t_ms,
            entry,
            actor,
        };
        self.journal_seq += 1;
        let speed = match row.entry {
            Entry::Speed { to, .. } => Some(to),
            _ => None,
        };
        let answered = match inbox.map(|id| answered(id, &played, row.seq)).transpose() {
            Ok(answered) => answered,
            Err(e) => return (Err(e), Vec::new()),
        };
        if matches!(row.entry, Entry::Dns { .. }) && answered.is_none() {
            // Group commit: a DNS answer does not wait for the disk. The queries are journaled
            // (in order) before any event that follows them is handed on, so a stored event
            // never depends on a query the journal lacks.
            self.dns_pending.push(row);
        } else {
            let mut rows = std::mem::take(&mut self.dns_pending);
            rows.push(row);
            if let Err(e) = self.write_journal(rows, audit.as_ref(), answered).await {
                return (Err(e), Vec::new());
            }
        }
        if let Some(to) = speed {
            self.speed = to;
            self.pacer.reset();
        }
        events.extend_from_slice(&played.events);
        self.publish(&events);
        self.publish_status();
        (Ok((played, self.snapshot.clone())), events)
    }

    /// Commits `rows` (and `audit`) to the journal. A failure halts the run: the simulation
    /// holds inputs the journal does not.
    async fn write_journal(
        &mut self,
        rows: Vec<Journaled>,
        audit: Option<&AuditRow>,
        answered: Option<Answered>,
    ) -> Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let (seq, count) = (rows[0].seq, rows.len() as u64);
        let (reply, outcome) = oneshot::channel();
        let write = JournalWrite {
            rows,
            audit: audit.cloned(),
            answered,
            reply,
        };
        let committed = match self.journal.send(write).await {
            Ok(()) => outcome.await.unwrap_or(Err(ServiceError::RuntimeGone)),
            Err(_) => Err(ServiceError::RuntimeGone),
        };
        if let Err(e) = committed {
            let why = format!(
                "the run's journal could not be written ({e}); the run takes no more inputs: restart the console to resume it from what was journaled"
            );
            tracing::error!(run = self.run_id, seq, "{why}");
            self.halted = Some(why);
            self.speed = Speed::Paused;
            self.persist = None;
            return Err(e);
        }
        metrics::counter!(telemetry::JOURNAL_ENTRIES).increment(count);
        Ok(())
    }

    /// Publishes `events` and hands them on to be stored.
    async fn emit(&mut self, events: Vec<Event>) {
        self.publish(&events);
        self.persist(events).await;
    }

    /// Counts `events` and sends them to the live views.
    fn publish(&mut self, events: &[Event]) {
        // Copies for the live views only when one listens (at `max`, thousands per slice).
        let listened = self.live.receiver_count() > 0;
        for e in events {
            let engine = e.engine.as_str();
            match self.snapshot.per_engine.get_mut(engine) {
                Some(count) => *count += 1,
                None => {
                    self.snapshot.per_engine.insert(engine.to_owned(), 1);
                }
            }
            if listened {
                // A view that went away meanwhile is fine: the result only says who listened.
                let _ = self.live.send(Arc::new(e.clone()));
            }
        }
        self.activity.record(events);
        self.snapshot.events_total += events.len() as u64;
        metrics::counter!(telemetry::EVENTS_EMITTED).increment(events.len() as u64);
    }

    /// Hands published `events` on to the persistence task, after those still waiting.
    async fn persist(&mut self, events: Vec<Event>) {
        self.unsent.extend(events);
        self.send_unsent().await;
    }

    /// Hands the events waiting in `unsent` on to the persistence task, after the DNS queries
    /// waiting for their group commit (an event is never stored before the inputs it depends
    /// on).
    async fn send_unsent(&mut self) {
        if self.unsent.is_empty() || self.flush_dns().await.is_err() {
            return;
        }
        let events = std::mem::take(&mut self.unsent);
        if let Some(persist) = &self.persist {
            // Awaiting here is the back-pressure that keeps the clock within what the
            // database can take (at `max`, `run` waits for room before computing instead).
            if persist.send(Persist::Events(events)).await.is_err() {
                tracing::error!("persistence task is gone; events are no longer stored");
            }
        }
    }

    /// Journals the DNS queries waiting for their group commit (before any event after them
    /// is handed on).
    async fn flush_dns(&mut self) -> Result<()> {
        let rows = std::mem::take(&mut self.dns_pending);
        self.write_journal(rows, None, None).await
    }

    fn publish_status(&mut self) {
        self.snapshot.t_ms = self.sim.now().as_millis();
        self.snapshot.speed = self.speed;
        self.snapshot.next_due_ms = self.sim.next_due().map(SimTime::as_millis);
        self.snapshot.events_persisted = self.persisted.load(Ordering::Relaxed);
        self.snapshot.journal_entries = self.journal_seq;
        self.snapshot.alerts = self.alerting.counts();
        metrics::gauge!(telemetry::SIM_TIME_SECONDS).set(self.snapshot.t_ms as f64 / 1000.0);
        self.status.send_replace(self.snapshot.clone());
    }

    /// Hands a snapshot of the simulation as it stands to the persistence task (stored after
    /// every event before it).
    async fn take_snapshot(&mut self) {
        self.send_unsent().await;
        if self.flush_dns().await.is_err() {
            return;
        }
        let row = self.snapshot_row();
        if let Some(persist) = &self.persist {
            if persist
                .send(Persist::Snapshot(Box::new(row)))
                .await
                .is_err()
            {
                tracing::error!("persistence task is gone; snapshots are no longer stored");
            }
        }
    }

    /// The simulation as it stands, as a snapshot row; the next one is due an interval later.
    /// Everything before it must be handed on first (the caller's duty).
    fn snapshot_row(&mut self) -> SnapshotRow {
        let row = SnapshotRow::take(
            &self.sim,
            self.journal_seq,
            self.snapshot.events_total,
            &self.snapshot.per_engine,
            self.speed,
        );
        self.next_snapshot_ms = row.t_ms.saturating_add(self.snapshot_every);
        self.last_snapshot = Instant::now();
        row
    }

    async fn stop(&mut self) {
        if self.halted.is_none() && self.persist.is_some() {
            // The speed it had, so that a resume goes on as it was (and the DNS queries not
            // journaled yet go first).
            self.take_snapshot().await;
        }
        self.speed = Speed::Paused;
        self.persist = None;
        if let Some(writer) = self.writer.take() {
            if let Err(e) = writer.await {
                tracing::error!(error = %e, "persistence task failed");
            }
        }
        // The last word: everything emitted, and now stored.
        self.publish_status();
    }
}

/// The answer to inbox row `id` for an input journaled as entry `seq` that `played`.
fn answered(id: i64, played: &Played, seq: u64) -> Result<Answered> {
    let answer = Answer::Applied {
        events: played.events.clone(),
        resolution: played.resolution.clone(),
        journal_seq: seq,
    };
    Ok(Answered {
        id,
        answer: answer.encode()?,
    })
}

/// Runs `work` (a slice of engine computation, a few milliseconds) without holding up the
/// other tasks of this worker: on the multi-threaded runtime the worker's queue moves to
/// another thread for the time of it, so the persistence task woken by the last slice, or a
/// request, never waits for the engines.
pub(super) fn compute<T>(work: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(work),
        _ => work(),
    }
}
