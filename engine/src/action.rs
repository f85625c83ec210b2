//! Operator actions and injected faults: what an operator does from the console, or what a
//! scenario's `[[actions]]` timeline does at a given time.
//!
//! In files and JSON an action is one table: `at` (a duration since the start), optional
//! `actor`, `kind`, then the kind's own fields:
//!
//! ```toml
//! [[actions]]
//! at = "10m"
//! actor = "alice"
//! kind = "heartbeat_interval"
//! heartbeat = "hb-fast"
//! interval = "30s"
//! ```

use serde::{Deserialize, Serialize};

use crate::clock::{SimDuration, SimTime};
use crate::event::EngineId;

/// One operator action or injected fault. Serialized with a `kind` tag in snake_case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
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

impl Action {
    /// The `kind` tag, as written in files (`"heartbeat_pause"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Note { .. } => "note",
            Action::HeartbeatPause { .. } => "heartbeat_pause",
            Action::HeartbeatResume { .. } => "heartbeat_resume",
            Action::HeartbeatInterval { .. } => "heartbeat_interval",
        }
    }

    /// The engine that handles this action.
    pub fn engine(&self) -> EngineId {
        match self {
            Action::Note { .. }
            | Action::HeartbeatPause { .. }
            | Action::HeartbeatResume { .. }
            | Action::HeartbeatInterval { .. } => EngineId::Core,
        }
    }
}

/// An action scheduled at a simulated time, with the operator it is attributed to.
///
/// Serialized flat, like a file entry: `{"at": "5m", "actor": "alice", "kind": "note", ...}`
/// where `at` is the duration since the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimedAction {
    /// When the action happens.
    #[serde(with = "at_as_duration")]
    pub at: SimTime,
    /// Who did it (shown in the history), if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// What is done.
    #[serde(flatten)]
    pub action: Action,
}

/// (De)serializes an instant as the duration since the start (`"5m"`).
mod at_as_duration {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::clock::{SimDuration, SimTime};

    pub(super) fn serialize<S: Serializer>(at: &SimTime, s: S) -> Result<S::Ok, S::Error> {
        at.since_start().serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SimTime, D::Error> {
        SimDuration::deserialize(d).map(|since| SimTime::ZERO.saturating_add(since))
    }
}

/// Why an action cannot be applied. Applying a rejected action changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The action names a heartbeat the scenario does not define.
    #[error("unknown heartbeat \"{heartbeat}\" (known: {known})")]
    UnknownHeartbeat {
        /// The unknown id.
        heartbeat: String,
        /// The defined ids, comma-separated (`(none)` if there are none).
        known: String,
    },
    /// Pausing a heartbeat that is already paused.
    #[error("heartbeat \"{0}\" is already paused")]
    AlreadyPaused(String),
    /// Resuming a heartbeat that is running.
    #[error("heartbeat \"{0}\" is not paused")]
    NotPaused(String),
    /// A heartbeat interval under 1s.
    #[error("interval must be at least 1s; got {0}")]
    IntervalTooShort(SimDuration),
    /// A heartbeat interval not longer than the heartbeat's jitter.
    #[error("interval must be longer than the jitter of heartbeat \"{heartbeat}\" ({jitter}); got {interval}")]
    IntervalNotAboveJitter {
        /// The heartbeat.
        heartbeat: String,
        /// The rejected interval.
        interval: SimDuration,
        /// The heartbeat's jitter.
        jitter: SimDuration,
    },
    /// No engine of this simulation handles the action.
    #[error("no engine handles actions of kind `{0}`")]
    Unhandled(&'static str),
}

impl ActionError {
    /// The action field the error is about (used to point at it in a file), if any.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            ActionError::UnknownHeartbeat { .. }
            | ActionError::AlreadyPaused(_)
            | ActionError::NotPaused(_) => Some("heartbeat"),
            ActionError::IntervalTooShort(_) | ActionError::IntervalNotAboveJitter { .. } => {
                Some("interval")
            }
            ActionError::Unhandled(_) => Some("kind"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timed_action_json_is_flat() -> Result<(), serde_json::Error> {
        let a = TimedAction {
            at: SimTime::from_mins(5),
            actor: Some("alice".into()),
            action: Action::HeartbeatInterval {
                heartbeat: "hb".into(),
                interval: SimDuration::from_secs(30),
            },
        };
        let json = serde_json::to_string(&a)?;
        assert_eq!(
            json,
            r#"{"at":"5m","actor":"alice","kind":"heartbeat_interval","heartbeat":"hb","interval":"30s"}"#
        );
        assert_eq!(serde_json::from_str::<TimedAction>(&json)?, a);
        Ok(())
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let err = serde_json::from_str::<TimedAction>(r#"{"at":"1s","kind":"note","txt":"x"}"#)
            .map_err(|e| e.to_string());
        assert!(err.is_err_and(|e| e.contains("unknown field `txt`")));
    }

    #[test]
    fn kinds_and_fields() {
        let a = Action::HeartbeatPause {
            heartbeat: "x".into(),
        };
        assert_eq!(a.kind(), "heartbeat_pause");
        assert_eq!(a.engine(), EngineId::Core);
        assert_eq!(
            ActionError::IntervalTooShort(SimDuration(500)).to_string(),
            "interval must be at least 1s; got 500ms"
        );
        assert_eq!(
            ActionError::NotPaused("x".into()).field(),
            Some("heartbeat")
        );
    }
}
