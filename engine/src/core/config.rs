//! `[core]`: the heartbeat engine's configuration.

use serde::{Deserialize, Serialize};

use crate::clock::SimDuration;
use crate::scenario::check::{fail, non_empty, unique};
use crate::scenario::error::{ConfigError, FieldPath};

/// The shortest heartbeat interval.
pub const MIN_HEARTBEAT_INTERVAL: SimDuration = SimDuration::from_secs(1);

/// `[core]`: periodic heartbeats, the simplest engine (it shows the clock is moving).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoreConfig {
    /// `[[core.heartbeats]]`, in file order.
    pub heartbeats: Vec<HeartbeatConfig>,
}

/// `[[core.heartbeats]]`: one periodic beat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeartbeatConfig {
    /// Unique id, the subject of its events.
    pub id: String,
    /// Nominal time between two beats (at least 1s).
    pub interval: SimDuration,
    /// Each gap is `interval` plus a uniform offset in `[-jitter, +jitter]`; must be shorter
    /// than `interval`. Default `0s`.
    #[serde(default)]
    pub jitter: SimDuration,
}

impl CoreConfig {
    /// The heartbeat with this id.
    pub fn heartbeat(&self, id: &str) -> Option<&HeartbeatConfig> {
        self.heartbeats.iter().find(|h| h.id == id)
    }

    /// Checks ids (present, unique) and each interval and jitter.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let path = |i: usize| FieldPath::root("core").key("heartbeats").index(i);
        for (i, hb) in self.heartbeats.iter().enumerate() {
            non_empty(&hb.id, path(i).key("id"))?;
            if hb.interval < MIN_HEARTBEAT_INTERVAL {
                return fail(
                    path(i).key("interval"),
                    format!("must be at least 1s; got {}", hb.interval),
                );
            }
            if hb.jitter >= hb.interval {
                return fail(
                    path(i).key("jitter"),
                    format!(
                        "must be shorter than the interval ({}); got {}",
                        hb.interval, hb.jitter
                    ),
                );
            }
        }
        unique(
            self.heartbeats.len(),
            "heartbeat id",
            |i| self.heartbeats[i].id.clone(),
            |i| path(i).key("id"),
        )
    }
}
