//! The leader's side of the replicas (PostgreSQL only): it announces its clock to followers
//! ([`beacon`]) and plays the inputs they accepted ([`inbox`]), each on a task of its own
//! that ends with the runtime task.

use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::{mpsc, oneshot, watch, Notify};

use super::{ClockStatus, Command, Input, Wiring};
use crate::error::ServiceError;
use crate::journal::Entry;
use crate::replica::beacon::{self, ClockMark, MARK_EVERY};
use crate::replica::inbox::{self, Answer};
use crate::replica::wall_ms;
use crate::store::Store;
use crate::telemetry;

/// How often the pump looks at the inbox when no follower woke it.
pub const PUMP_POLL: Duration = Duration::from_millis(500);

/// Starts the clock marks and the inbox pump of run `run_id` when the store is shared.
pub(super) fn start(store: &Store, run_id: i64, wiring: &Wiring) {
    let Some(pool) = store.postgres_pool() else {
        return;
    };
    tokio::spawn(clock_marks(pool.clone(), run_id, wiring.status.subscribe()));
    let woken = Arc::new(Notify::new());
    let wake = woken.clone();
    let commands = wiring.commands.clone();
    tokio::spawn(beacon::listen(pool.clone(), inbox::CHANNEL, move |run| {
        if run == run_id.to_string() {
            wake.notify_one();
        }
        // Listens for as long as the runtime task runs.
        commands.upgrade().is_some()
    }));
    tokio::spawn(pump(store.clone(), run_id, wiring.commands.clone(), woken));
}

/// Sends a clock mark every [`MARK_EVERY`] while the status changes; ends with the runtime.
async fn clock_marks(pool: PgPool, run_id: i64, mut status: watch::Receiver<ClockStatus>) {
    let mut every = tokio::time::interval(MARK_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match status.has_changed() {
            Err(_) => return,
            Ok(false) => continue,
            Ok(true) => {}
        }
        let mark = {
            let s = status.borrow_and_update();
            ClockMark {
                run: run_id,
                t_ms: s.t_ms,
                journal: s.journal_entries,
                events_persisted: s.events_persisted,
                speed: s.speed,
                wall_ms: wall_ms(),
            }
        };
        if let Err(e) = beacon::send(&pool, &mark).await {
            tracing::debug!(error = %e, "clock mark not sent");
        }
    }
}

/// Plays the inputs followers posted, in order, whenever woken and every [`PUMP_POLL`].
async fn pump(store: Store, run_id: i64, commands: mpsc::WeakSender<Command>, woken: Arc<Notify>) {
    loop {
        let Some(sender) = commands.upgrade() else {
            return;
        };
        if let Err(e) = pump_round(&store, run_id, &sender).await {
            tracing::debug!(error = %e, "inbox round stopped; trying again");
        }
        drop(sender);
        let _ = tokio::time::timeout(PUMP_POLL, woken.notified()).await;
    }
}

/// Plays every waiting input once; stops at the first that fails for a reason other than
/// the engines' refusal (it stays waiting for the next round).
async fn pump_round(
    store: &Store,
    run_id: i64,
    commands: &mpsc::Sender<Command>,
) -> crate::error::Result<()> {
    for waiting in inbox::waiting(store, run_id).await? {
        if !inbox::claim(store, waiting.id).await? {
            continue;
        }
        let input = match waiting.entry {
            Entry::Action(action) => Input::Action(action),
            Entry::Speed { to, .. } => Input::Speed(to),
            Entry::Step => Input::Step,
            Entry::Dns { domain, client } => Input::Dns { domain, client },
        };
        let (reply, answer) = oneshot::channel();
        let command = Command::Input {
            input,
            actor: waiting.actor,
            audit: waiting.audit,
            inbox: Some(waiting.id),
            reply,
        };
        commands
            .send(command)
            .await
            .map_err(|_| ServiceError::RuntimeGone)?;
        let outcome = answer.await.map_err(|_| ServiceError::RuntimeGone)?;
        metrics::counter!(telemetry::INBOX_INPUTS).increment(1);
        match outcome {
            // Answered in the journal's transaction.
            Ok(_) => {}
            Err(
                ServiceError::Invalid { field, message }
                | ServiceError::OutOfRange { field, message },
            ) => {
                inbox::answer(store, waiting.id, &Answer::Refused { field, message }).await?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
