//! A follower's runtime task: its own copy of the leader's run, rebuilt from the store and
//! kept level with the leader by replaying new journal entries and advancing to the leader's
//! clock marks ([`crate::replica::beacon`]). It answers queries and feeds live views exactly
//! as the leader's task does (same engines, same journal: same events), writes nothing, and
//! hands inputs to the leader through the inbox ([`crate::replica::inbox`]).
//!
//! When this console takes the lead (`promote`), the task rebuilds the run from the store
//! (what the old leader stored, plus the events it produced and did not store) and becomes
//! the leader's task on the same channels: every handle goes on working.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use engine::{Event, Scenario, SimTime, Simulation, Speed};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

use super::inputs::{self, Played};
use super::resume;
use super::task::{Resumed, Task};
use super::{ClockStatus, Command, Input, ReplicaRole, RuntimeHandle, RuntimeOptions, Wiring};
use crate::error::{Result, ServiceError};
use crate::history::{self, Run};
use crate::journal::{self, AuditRow, Entry};
use crate::replica::beacon::{self, ClockMark};
use crate::replica::inbox::{self, Answer};
use crate::replica::wall_ms;
use crate::store::Store;
use crate::telemetry;

/// Without a clock mark for this long, the follower reads the store instead (the journal and
/// the latest stored event): LISTEN lost, or the leader gone.
pub const FALLBACK_AFTER: Duration = Duration::from_secs(1);
/// How long a follower waits for the leader to take an input before withdrawing it.
pub const FORWARD_WAIT: Duration = Duration::from_secs(15);
/// How long it waits more for the answer to an input the leader took.
pub const CLAIMED_WAIT: Duration = Duration::from_secs(15);
/// How soon it looks for the answer first; each look waits twice as long as the one before,
/// up to [`ANSWER_POLL_MAX`] (an answer usually comes within a tick of the leader's clock).
const ANSWER_POLL: Duration = Duration::from_millis(10);
/// The longest wait between two looks for the answer.
const ANSWER_POLL_MAX: Duration = Duration::from_millis(200);
/// How long an answer waits for this copy to reach the input (read-your-writes).
const SEE_OWN_INPUT: Duration = Duration::from_secs(2);

/// Follows `run` of `scenario`, led by another console; takes the lead when `promote` fires
/// (the caller holds the lock by then). `start_speed` is the run's speed before any change.
pub async fn follow(
    store: Store,
    scenario: Arc<Scenario>,
    run: Run,
    start_speed: Speed,
    options: RuntimeOptions,
    promote: oneshot::Receiver<()>,
) -> Result<RuntimeHandle> {
    let pool = store.postgres_pool().cloned().ok_or_else(|| {
        ServiceError::Internal("only a PostgreSQL store has followers".to_owned())
    })?;
    let copy = resume::copy(&store, &scenario, &run).await?;
    let speed = copy.speed.unwrap_or(start_speed);
    let status = ClockStatus {
        run_id: run.id,
        scenario: run.scenario.clone(),
        t_ms: copy.sim.now().as_millis(),
        speed,
        events_total: copy.resumed.events,
        events_persisted: copy.resumed.events,
        per_engine: copy.resumed.per_engine.clone(),
        lag_ms: 0,
        next_due_ms: copy.sim.next_due().map(SimTime::as_millis),
        role: ReplicaRole::Follower,
        journal_entries: copy.resumed.journal,
        follower_lag_ms: 0,
        alerts: crate::alerts::counts(&store, run.id)
            .await
            .unwrap_or_default(),
    };
    let (wiring, commands, handle) = super::wire(status.clone(), run.clone());
    let (marks_tx, marks) = watch::channel(None);
    let run_id = run.id;
    tokio::spawn(beacon::listen(pool, beacon::CHANNEL, move |payload| {
        if let Ok(mark) = serde_json::from_str::<ClockMark>(&payload) {
            if mark.run == run_id {
                marks_tx.send_replace(Some(mark));
            }
        }
        !marks_tx.is_closed()
    }));
    metrics::gauge!(telemetry::LEADER).set(0.0);
    tracing::info!(
        run = run.id,
        t_ms = status.t_ms,
        journal = status.journal_entries,
        "following the leading console"
    );
    let follower = Follower {
        store,
        scenario,
        run,
        start_speed,
        options,
        sim: copy.sim,
        journal_seq: copy.resumed.journal,
        per_engine: copy.resumed.per_engine,
        events_total: copy.resumed.events,
        last_mark: None,
        last_heard: Instant::now(),
        status: status.clone(),
        wiring,
    };
    tokio::spawn(follower.run(commands, marks, promote));
    Ok(handle)
}

struct Follower {
    store: Store,
    scenario: Arc<Scenario>,
    run: Run,
    start_speed: Speed,
    options: RuntimeOptions,
    sim: Simulation,
    /// Journal entries replayed.
    journal_seq: u64,
    per_engine: BTreeMap<String, u64>,
    events_total: u64,
    /// The latest clock mark this copy reached.
    last_mark: Option<ClockMark>,
    /// When a mark (or the store, as a fallback) was last heard.
    last_heard: Instant,
    status: ClockStatus,
    wiring: Wiring,
}

impl Follower {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut marks: watch::Receiver<Option<ClockMark>>,
        promote: oneshot::Receiver<()>,
    ) {
        let mut promote = Some(promote);
        let mut fallback = tokio::time::interval(FALLBACK_AFTER / 4);
        fallback.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                biased;
                command = commands.recv() => match command {
                    Some(Command::Shutdown { reply }) => {
                        let _ = reply.send(());
                        return;
                    }
                    Some(Command::Query(job)) => job(&self.sim),
                    // The leader reads the stored rules itself.
                    Some(Command::AlertRules { reply, .. }) => {
                        if let Some(reply) = reply {
                            let _ = reply.send(());
                        }
                    }
                    Some(Command::Input { input, actor, audit, reply, .. }) => {
                        let store = self.store.clone();
                        let run_id = self.run.id;
                        let status = self.wiring.status.subscribe();
                        tokio::spawn(async move {
                            let outcome = forward(&store, run_id, input, actor, audit, status).await;
                            let _ = reply.send(outcome);
                        });
                    }
                    None => return,
                },
                taken = async {
                    match promote.as_mut() {
                        Some(promote) => promote.await,
                        None => std::future::pending().await,
                    }
                }, if promote.is_some() => {
                    promote = None;
                    if taken.is_ok() {
                        // The clock marks heard from now on are this console's own.
                        drop(marks);
                        return self.lead(commands).await;
                    }
                }
                changed = marks.changed() => {
                    if changed.is_err() {
                        // The listener is gone (the runtime is stopping): the store is read.
                        marks = watch::channel(None).1;
                        continue;
                    }
                    let mark = marks.borrow_and_update().clone();
                    if let Some(mark) = mark {
                        self.last_heard = Instant::now();
                        if let Err(e) = self.reach(mark).await {
                            tracing::warn!(error = %e, "the follower could not reach the leader's clock mark");
                        }
                    }
                }
                _ = fallback.tick() => {
                    if self.last_heard.elapsed() >= FALLBACK_AFTER {
                        if let Err(e) = self.reach_stored().await {
                            tracing::debug!(error = %e, "the follower could not read the store");
                        }
                    }
                    // The alerts the leader evaluates, as it wrote them.
                    if let Ok(counts) = crate::alerts::counts(&self.store, self.run.id).await {
                        self.status.alerts = counts;
                        crate::telemetry::set_alerts(&counts);
                    }
                    crate::telemetry::set_flapping(&self.sim);
                    self.publish_status();
                }
            }
        }
    }

    /// Replays the journal entries not replayed yet; returns how many there are now.
    async fn read_journal(&mut self) -> Result<u64> {
        let entries = journal::read(&self.store, self.run.id, self.journal_seq).await?;
        for entry in entries {
            let events = super::task::compute(|| inputs::replay(&mut self.sim, &entry))
                .map_err(|why| ServiceError::invalid("journal", why))?;
            self.publish(&events);
            self.journal_seq += 1;
            if let Entry::Speed { to, .. } = entry.entry {
                self.status.speed = to;
            }
        }
        Ok(self.journal_seq)
    }

    /// Advances this copy to `mark` once it has every journal entry the leader had played by
    /// then (otherwise to the last entry it has; the next mark will do).
    async fn reach(&mut self, mark: ClockMark) -> Result<()> {
        if mark.journal > self.journal_seq {
            self.read_journal().await?;
        }
        if self.journal_seq >= mark.journal {
            self.advance(mark.t_ms);
            self.status.speed = mark.speed;
            self.status.events_persisted = mark.events_persisted;
            self.last_mark = Some(mark);
        }
        self.publish_status();
        Ok(())
    }

    /// Without marks: advances to the latest stored event (read before the journal).
    async fn reach_stored(&mut self) -> Result<()> {
        let (stored_seq, stored_t) = history::stored_extent(&self.store, self.run.id).await?;
        self.read_journal().await?;
        if let Some(t) = stored_t {
            self.advance(t);
        }
        self.status.events_persisted = stored_seq.map_or(0, |s| s + 1);
        self.last_heard = Instant::now();
        Ok(())
    }

    fn advance(&mut self, t_ms: u64) {
        if t_ms <= self.sim.now().as_millis() {
            return;
        }
        let events = super::task::compute(|| self.sim.advance_to(SimTime(t_ms)));
        self.publish(&events);
    }

    /// Counts `events` and sends them to the live views (as the leader's task does).
    fn publish(&mut self, events: &[Event]) {
        let listened = self.wiring.live.receiver_count() > 0;
        for e in events {
            *self
                .per_engine
                .entry(e.engine.as_str().to_owned())
                .or_default() += 1;
            if listened {
                let _ = self.wiring.live.send(Arc::new(e.clone()));
            }
        }
        self.wiring.activity.record(events);
        self.events_total += events.len() as u64;
    }

    fn publish_status(&mut self) {
        let lag = self
            .last_mark
            .as_ref()
            .map_or(0, |m| wall_ms().saturating_sub(m.wall_ms));
        let status = &mut self.status;
        status.t_ms = self.sim.now().as_millis();
        status.events_total = self.events_total;
        status.per_engine.clone_from(&self.per_engine);
        status.next_due_ms = self.sim.next_due().map(SimTime::as_millis);
        status.journal_entries = self.journal_seq;
        status.follower_lag_ms = lag;
        metrics::gauge!(telemetry::FOLLOWER_LAG_SECONDS).set(lag as f64 / 1000.0);
        metrics::gauge!(telemetry::SIM_TIME_SECONDS).set(status.t_ms as f64 / 1000.0);
        self.wiring.status.send_replace(status.clone());
    }

    /// This console took the lead: rebuilds the run from the store and runs the leader's
    /// task on the same channels.
    async fn lead(self, commands: mpsc::Receiver<Command>) {
        tracing::info!(run = self.run.id, "this console takes the lead of the run");
        let started = Instant::now();
        let rebuilt = match resume::rebuild(&self.store, &self.scenario, &self.run).await {
            Ok(rebuilt) => rebuilt,
            Err(e) => {
                tracing::error!(error = %e, run = self.run.id, "the run cannot be resumed: this console stops following it");
                return;
            }
        };
        let speed = rebuilt.speed.unwrap_or(self.start_speed);
        let resumed: Resumed = rebuilt.resumed;
        let task = Task::lead(
            self.store,
            self.run.clone(),
            rebuilt.sim,
            speed,
            resumed,
            self.options,
            self.wiring,
        )
        .await;
        match task {
            Ok(task) => {
                tracing::info!(
                    run = self.run.id,
                    took_ms = started.elapsed().as_millis() as u64,
                    "this console leads the run"
                );
                task.run(commands).await;
            }
            Err(e) => {
                tracing::error!(error = %e, run = self.run.id, "the run cannot be led: this console stops following it");
            }
        }
    }
}

/// Hands `input` to the leader through the inbox and waits for its answer; an applied input
/// is answered once this copy has replayed it too (or after [`SEE_OWN_INPUT`]).
async fn forward(
    store: &Store,
    run_id: i64,
    input: Input,
    actor: Option<String>,
    audit: Option<AuditRow>,
    mut status: watch::Receiver<ClockStatus>,
) -> Result<(Played, ClockStatus)> {
    let entry = match input {
        Input::Action(action) => Entry::Action(action),
        // The leader fills `from` with its own speed.
        Input::Speed(to) => Entry::Speed { from: to, to },
        Input::Step => Entry::Step,
        Input::Dns { domain, client } => Entry::Dns { domain, client },
    };
    let id = inbox::post(store, run_id, &entry, actor.as_deref(), audit.as_ref()).await?;
    let posted = Instant::now();
    let mut poll = ANSWER_POLL;
    let answer = loop {
        tokio::time::sleep(poll).await;
        poll = (poll * 2).min(ANSWER_POLL_MAX);
        if let Some(answer) = inbox::answer_of(store, id).await? {
            break answer;
        }
        let waited = posted.elapsed();
        if waited >= FORWARD_WAIT && inbox::withdraw(store, id).await? {
            return Err(ServiceError::Unavailable(format!(
                "no leading console took the input within {} s; it was not applied",
                FORWARD_WAIT.as_secs()
            )));
        }
        if waited >= FORWARD_WAIT + CLAIMED_WAIT {
            return Err(ServiceError::Unavailable(
                "the leading console took the input and has not answered: look for it in the history before trying again".to_owned(),
            ));
        }
    };
    match answer {
        Answer::Applied {
            events,
            resolution,
            journal_seq,
        } => {
            let seen = status.wait_for(|s| s.journal_entries > journal_seq);
            let _ = tokio::time::timeout(SEE_OWN_INPUT, seen).await;
            let now = status.borrow().clone();
            Ok((Played { events, resolution }, now))
        }
        Answer::Refused { field, message } => Err(ServiceError::invalid(field, message)),
    }
}
