//! Alert rules evaluated on the leader's run: the engine's [`AlertBook`] over the run as it
//! stands, at most every [`ALERT_EVERY`] of wall time while the clock moves, and at once after
//! an input or a change of the rules. What fires and resolves is written to the alert
//! history ([`crate::alerts`]); the counts go into the status (the header's badge) and the
//! `/metrics` gauges.
//!
//! Only the leader evaluates: followers read the history the leader writes. A new leader
//! restores the book from the alerts the store has firing, so a restart or a change of
//! leader neither fires them again nor forgets them.

use std::time::Duration;

use engine::alerts::{AlertBook, AlertRule};
use engine::Simulation;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::Command;
use crate::alerts::{self, AlertCounts, AlertRow};
use crate::error::Result;
use crate::store::Store;
use crate::telemetry;

/// Wall time between two evaluations while the clock moves at most: at 60x, a quarter of a
/// second is 15 simulated seconds, and an alert shows well within a second of its cause.
pub const ALERT_EVERY: Duration = Duration::from_millis(250);
/// How often the leader reads the stored rules, for rules saved on another console (a rule
/// saved on this one is handed over at once, [`super::RuntimeHandle::alert_rules_changed`]).
pub const RULES_EVERY: Duration = Duration::from_secs(1);

/// The leader's alert evaluation.
pub(super) struct Alerting {
    store: Store,
    run_id: i64,
    book: AlertBook,
    rules: Vec<AlertRule>,
    /// When the last evaluation ran (wall clock).
    last: Instant,
    /// The simulated instant of the last evaluation.
    last_t_ms: Option<u64>,
    /// The rules changed since the last evaluation.
    dirty: bool,
    counts: AlertCounts,
}

impl Alerting {
    /// Reads the rules and the alerts firing on `run_id`, and starts the poller that hands
    /// the leader's task rules saved on other consoles.
    pub(super) async fn open(
        store: Store,
        run_id: i64,
        commands: mpsc::WeakSender<Command>,
    ) -> Result<Alerting> {
        let rules = alerts::rule_set(&store).await?;
        let firing = alerts::firing(&store, run_id).await?;
        let book = AlertBook::restore(firing.iter().filter_map(AlertRow::active));
        let counts = AlertCounts::of(book.active());
        telemetry::set_alerts(&counts);
        tokio::spawn(poll_rules(store.clone(), rules.clone(), commands));
        Ok(Alerting {
            store,
            run_id,
            book,
            rules,
            last: Instant::now(),
            last_t_ms: None,
            dirty: true,
            counts,
        })
    }

    /// The alerts firing now, per severity.
    pub(super) fn counts(&self) -> AlertCounts {
        self.counts
    }

    /// Replaces the rules (evaluated at the next call).
    pub(super) fn set_rules(&mut self, rules: Vec<AlertRule>) {
        if rules != self.rules {
            self.rules = rules;
            self.dirty = true;
        }
    }

    /// Evaluates the rules on `sim` when due: `now` after an input or a change of rules,
    /// otherwise when [`ALERT_EVERY`] passed and the clock moved. Records what changed.
    pub(super) async fn evaluate(&mut self, sim: &Simulation, now: bool) {
        let t_ms = sim.now().as_millis();
        let moved = self.last_t_ms != Some(t_ms);
        if !(now || self.dirty || (moved && self.last.elapsed() >= ALERT_EVERY)) {
            return;
        }
        self.last = Instant::now();
        self.last_t_ms = Some(t_ms);
        self.dirty = false;
        telemetry::set_flapping(sim);
        if self.rules.is_empty() && self.book.active().next().is_none() {
            return;
        }
        let changes = self.book.evaluate(sim, &self.rules);
        if changes.is_empty() {
            return;
        }
        for change in &changes {
            match change {
                engine::alerts::AlertChange::Fired(a) => {
                    tracing::info!(rule = %a.rule, subject = %a.subject, severity = a.severity.as_str(), t_ms, "alert fired: {}", a.text);
                }
                engine::alerts::AlertChange::Resolved { alert, reason, .. } => {
                    tracing::info!(rule = %alert.rule, subject = %alert.subject, t_ms, "alert resolved: {reason}");
                }
            }
        }
        if let Err(e) = alerts::record(&self.store, self.run_id, &changes).await {
            tracing::warn!(error = %e, run = self.run_id, "the alert history could not be written");
        }
        self.counts = AlertCounts::of(self.book.active());
        telemetry::set_alerts(&self.counts);
    }
}

/// Reads the stored rules every [`RULES_EVERY`] and hands them to the leader's task when
/// they changed; ends with the task.
async fn poll_rules(store: Store, mut known: Vec<AlertRule>, commands: mpsc::WeakSender<Command>) {
    let mut every = tokio::time::interval(RULES_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Some(commands) = commands.upgrade() else {
            return;
        };
        match alerts::rule_set(&store).await {
            Ok(rules) if rules != known => {
                known.clone_from(&rules);
                let command = Command::AlertRules { rules, reply: None };
                if commands.send(command).await.is_err() {
                    return;
                }
            }
            Ok(_) => {}
            Err(e) => tracing::debug!(error = %e, "the alert rules could not be read"),
        }
    }
}
