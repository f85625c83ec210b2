//! `[scenario]` (identity and seed) and `[clock]` (how the runtime starts the clock).

use serde::{Deserialize, Serialize};

use super::check::{fail, non_empty};
use super::error::{ConfigError, FieldPath};
use crate::clock::{SimDuration, Speed};

/// `[scenario]`: what the scenario is called and its default seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioMeta {
    /// Display name (required, not blank).
    pub name: String,
    /// Free text shown in the console.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Default seed of the random streams (a run may override it). Default 1.
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_seed() -> u64 {
    1
}

impl ScenarioMeta {
    /// Checks the name is not blank.
    pub fn validate(&self) -> Result<(), ConfigError> {
        non_empty(&self.name, FieldPath::root("scenario").key("name"))
    }
}

/// `[clock]`: how the runtime drives the simulated clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClockConfig {
    /// Speed when a run starts. Default `x60`.
    pub start_speed: Speed,
    /// Granularity hint for the runtime: how much simulated time it advances per step when
    /// running at a fixed speed. Must be positive. Default `1s`.
    pub tick: SimDuration,
}

impl Default for ClockConfig {
    fn default() -> Self {
        ClockConfig {
            start_speed: Speed::X60,
            tick: SimDuration::from_secs(1),
        }
    }
}

impl ClockConfig {
    /// Checks the tick is positive.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.tick.is_zero() {
            return fail(
                FieldPath::root("clock").key("tick"),
                "must be positive (e.g. 1s)",
            );
        }
        Ok(())
    }
}
