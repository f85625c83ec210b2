//! [`CoreAction`]: what an operator does to the core engine (notes, heartbeats), with its
//! check against `[core]` and against the state, side by side, then its application.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::config::{CoreConfig, HeartbeatConfig, MIN_HEARTBEAT_INTERVAL};
use super::engine::{event, CoreEngine};
use crate::action::error::ActionError;
use crate::clock::{SimDuration, SimTime};
use crate::event::Event;
use crate::scenario::check::list;
use crate::step::Apply;

/// The `reason` of events caused by an operator action.
const OPERATOR_ACTION: &str = "operator action";

/// An action of the core engine. Serialized flat with a `kind` tag in snake_case, like every
/// engine's actions (see [`Action`](crate::Action)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CoreAction {
    /// Writes a free-text note into the event log (`operator.note`).
    Note {
        /// The note.
        text: String,
    },
    /// Stops a heartbeat until it is resumed.
    HeartbeatPause {
        /// Id of the heartbeat (`core.heartbeats[].id`).
        heartbeat: String,
    },
    /// Restarts a paused heartbeat; its next beat is one interval (± jitter) later.
    HeartbeatResume {
        /// Id of the heartbeat.
        heartbeat: String,
    },
    /// Changes a heartbeat's interval; the next beat is rescheduled from now.
    HeartbeatInterval {
        /// Id of the heartbeat.
        heartbeat: String,
        /// The new interval (at least 1s, and longer than the heartbeat's jitter).
        interval: SimDuration,
    },
}

impl CoreAction {
    /// Every `kind` of this engine's actions, in declaration order.
    pub const KINDS: [&'static str; 4] = [
        "note",
        "heartbeat_pause",
        "heartbeat_resume",
        "heartbeat_interval",
    ];

    /// The `kind` tag, as written in files (`"heartbeat_pause"`).
    pub fn kind(&self) -> &'static str {
        match self {
            CoreAction::Note { .. } => "note",
            CoreAction::HeartbeatPause { .. } => "heartbeat_pause",
            CoreAction::HeartbeatResume { .. } => "heartbeat_resume",
            CoreAction::HeartbeatInterval { .. } => "heartbeat_interval",
        }
    }
}

impl CoreConfig {
    /// Checks that a core action fits this configuration (the heartbeat exists, a new
    /// interval is valid for it). Notes always pass.
    pub fn check_action(&self, action: &CoreAction) -> Result<(), ActionError> {
        match action {
            CoreAction::Note { .. } => Ok(()),
            CoreAction::HeartbeatPause { heartbeat }
            | CoreAction::HeartbeatResume { heartbeat } => self.require(heartbeat).map(|_| ()),
            CoreAction::HeartbeatInterval {
                heartbeat,
                interval,
            } => check_interval(self.require(heartbeat)?, *interval),
        }
    }

    fn require(&self, id: &str) -> Result<&HeartbeatConfig, ActionError> {
        self.heartbeat(id).ok_or_else(|| {
            let ids: Vec<&str> = self.heartbeats.iter().map(|h| h.id.as_str()).collect();
            ActionError::UnknownHeartbeat {
                heartbeat: id.to_owned(),
                known: list(&ids),
            }
        })
    }
}

/// Checks a new interval for heartbeat `hb`: at least 1s and longer than its jitter.
pub fn check_interval(hb: &HeartbeatConfig, interval: SimDuration) -> Result<(), ActionError> {
    if interval < MIN_HEARTBEAT_INTERVAL {
        return Err(ActionError::IntervalTooShort(interval));
    }
    if interval <= hb.jitter {
        return Err(ActionError::IntervalNotAboveJitter {
            heartbeat: hb.id.clone(),
            interval,
            jitter: hb.jitter,
        });
    }
    Ok(())
}

impl CoreEngine {
    /// State-dependent checks: pausing a paused heartbeat, resuming a running one.
    pub(crate) fn check_state(&self, action: &CoreAction) -> Result<(), ActionError> {
        match action {
            CoreAction::HeartbeatPause { heartbeat } => {
                if self.heartbeats[self.index(heartbeat)?].is_paused() {
                    return Err(ActionError::AlreadyPaused(heartbeat.clone()));
                }
            }
            CoreAction::HeartbeatResume { heartbeat } => {
                if !self.heartbeats[self.index(heartbeat)?].is_paused() {
                    return Err(ActionError::NotPaused(heartbeat.clone()));
                }
            }
            CoreAction::Note { .. } | CoreAction::HeartbeatInterval { .. } => {
                // Nothing depends on the state: a note is always written, and an interval
                // may be set again to the same value (the next beat is rescheduled).
            }
        }
        Ok(())
    }

    /// Applies a checked action at `now`, its events attributed to `actor`.
    pub(crate) fn apply_checked(
        &mut self,
        now: SimTime,
        action: &CoreAction,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) {
        match action {
            CoreAction::Note { text } => {
                let details = json!({ "text": text });
                out.push(event(now, "operator", "operator.note", details, actor));
            }
            CoreAction::HeartbeatPause { heartbeat } => {
                let Ok(i) = self.index(heartbeat) else {
                    return;
                };
                self.heartbeats[i].pause();
                let details = json!({ "reason": OPERATOR_ACTION });
                out.push(event(now, heartbeat, "heartbeat.paused", details, actor));
            }
            CoreAction::HeartbeatResume { heartbeat } => {
                let Ok(i) = self.index(heartbeat) else {
                    return;
                };
                let hb = &mut self.heartbeats[i];
                hb.schedule_from(now);
                let details = json!({
                    "next_due_ms": hb.next_due().map(SimTime::as_millis),
                    "reason": OPERATOR_ACTION,
                });
                out.push(event(now, heartbeat, "heartbeat.resumed", details, actor));
            }
            CoreAction::HeartbeatInterval {
                heartbeat,
                interval,
            } => {
                let Ok(i) = self.index(heartbeat) else {
                    return;
                };
                let hb = &mut self.heartbeats[i];
                let previous = hb.interval();
                hb.set_interval(*interval);
                if !hb.is_paused() {
                    hb.schedule_from(now);
                }
                let details = json!({
                    "interval_ms": interval.as_millis(),
                    "next_due_ms": hb.next_due().map(SimTime::as_millis),
                    "previous_interval_ms": previous.as_millis(),
                    "reason": OPERATOR_ACTION,
                });
                let kind = "heartbeat.interval_changed";
                out.push(event(now, heartbeat, kind, details, actor));
            }
        }
    }
}

impl Apply for CoreEngine {
    type Action = CoreAction;

    fn apply(
        &mut self,
        now: SimTime,
        action: &CoreAction,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.config.check_action(action)?;
        self.check_state(action)?;
        self.apply_checked(now, action, actor, out);
        Ok(())
    }
}
