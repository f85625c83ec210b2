//! [`ActionError`]: why an engine refuses an action. Every engine's checks return it, so it
//! lives apart from the action types (which name the engines) and imports no engine.

use crate::clock::SimDuration;

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
    /// The action names a resource location the scenario does not define.
    #[error("unknown resource location \"{resource_location}\" (known: {known})")]
    UnknownResourceLocation {
        /// The unknown id.
        resource_location: String,
        /// The defined ids, comma-separated (`(none)` if there are none).
        known: String,
    },
    /// The action names a connector the scenario does not define.
    #[error("unknown connector \"{connector}\" (known: {known})")]
    UnknownConnector {
        /// The unknown FQDN.
        connector: String,
        /// Some defined FQDNs, comma-separated.
        known: String,
    },
    /// The connector exists but belongs to another resource location.
    #[error("connector \"{connector}\" is not in resource location \"{resource_location}\" (it is in \"{actual}\")")]
    ConnectorNotInLocation {
        /// The connector's FQDN.
        connector: String,
        /// The resource location named by the action.
        resource_location: String,
        /// The resource location the connector belongs to.
        actual: String,
    },
    /// No VDA pool publishes the resource.
    #[error("unknown resource \"{resource}\" (published: {known})")]
    UnknownResource {
        /// The unknown resource.
        resource: String,
        /// Some published resources, comma-separated.
        known: String,
    },
    /// The name matches no VDA (`{prefix}{n:03}` with `n` in `1..=count`).
    #[error("unknown VDA \"{0}\" (names are a pool prefix followed by 001, 002, ...)")]
    UnknownVda(String),
    /// A text field of the action is blank.
    #[error("{0} must not be empty")]
    Blank(&'static str),
    /// The action would change nothing in the current state (e.g. forcing an outage that is
    /// already forced); the message says why.
    #[error("{0}")]
    NoChange(String),
    /// A field of the action is out of range or malformed; `message` names the allowed
    /// values (and, for nested fields such as an evaluator's rules, the exact path).
    #[error("{field}: {message}")]
    Invalid {
        /// The action field.
        field: &'static str,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// The action names something this engine does not know (a server, zone, application or
    /// evaluator).
    #[error("unknown {what} \"{name}\" (known: {known})")]
    Unknown {
        /// The action field.
        field: &'static str,
        /// What kind of thing (`server`).
        what: &'static str,
        /// The unknown name.
        name: String,
        /// Some known names, comma-separated.
        known: String,
    },
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
            ActionError::UnknownResourceLocation { .. } => Some("resource_location"),
            ActionError::UnknownConnector { .. } | ActionError::ConnectorNotInLocation { .. } => {
                Some("connector")
            }
            ActionError::UnknownResource { .. } => Some("resource"),
            ActionError::UnknownVda(_) => Some("vda"),
            ActionError::Blank(field)
            | ActionError::Invalid { field, .. }
            | ActionError::Unknown { field, .. } => Some(field),
            ActionError::NoChange(_) => None,
        }
    }
}
