//! `[attention]`: flap detection settings, one table per engine (`[attention.lhc]`,
//! `[attention.lms]`, `[attention.gslb]`, `[attention.autoscale]`). Every default is assumed:
//! none is documented for the products simulated.

use serde::{Deserialize, Serialize};

use crate::clock::SimDuration;
use crate::event::EngineId;
use crate::flap::FlapSettings;
use crate::scenario::check::fail;
use crate::scenario::error::{ConfigError, FieldPath};

/// Shortest time between two checks.
pub const MIN_INTERVAL: SimDuration = SimDuration::from_secs(1);
/// Longest time between two checks (one day).
pub const MAX_INTERVAL: SimDuration = SimDuration::from_hours(24);

/// `[attention]`: flap detection per engine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AttentionConfig {
    /// `[attention.lhc]`: resource locations' HA states and connectors' health.
    pub lhc: FlapConfig,
    /// `[attention.lms]`: zone data collectors.
    pub lms: FlapConfig,
    /// `[attention.gslb]`: sites, parent-parent MEP links, children's parents.
    pub gslb: FlapConfig,
    /// `[attention.autoscale]`: each cluster's scaling direction.
    pub autoscale: FlapConfig,
}

/// One engine's flap detection: the detector's window and thresholds, and how often its
/// subjects are checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlapConfig {
    /// Whether the engine's subjects are watched. Default true.
    pub enabled: bool,
    /// Checks in the window, 3 to 100. Default 21 (assumed, as Nagios).
    pub checks: usize,
    /// Percentage under which a flapping subject stops flapping. Default 25 (assumed, as
    /// Icinga 2).
    pub low_pct: f64,
    /// Percentage over which a subject starts flapping, above `low_pct`. Default 30
    /// (assumed, as Icinga 2).
    pub high_pct: f64,
    /// Time between two checks, 1s to 24h. Default per engine (assumed): 1m for LHC and
    /// load management, 30s for GSLB, 5m for autoscale (whose scale events are at least a
    /// cooldown apart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<SimDuration>,
}

impl Default for FlapConfig {
    fn default() -> Self {
        let s = FlapSettings::default();
        FlapConfig {
            enabled: true,
            checks: s.checks,
            low_pct: s.low_pct,
            high_pct: s.high_pct,
            interval: None,
        }
    }
}

impl FlapConfig {
    /// The detector's settings.
    pub fn settings(&self) -> FlapSettings {
        FlapSettings {
            checks: self.checks,
            low_pct: self.low_pct,
            high_pct: self.high_pct,
        }
    }

    /// The time between two checks: the configured one, else the engine's default.
    pub fn interval_for(&self, engine: EngineId) -> SimDuration {
        self.interval.unwrap_or(default_interval(engine))
    }
}

/// The assumed default time between two checks of an engine's subjects.
pub const fn default_interval(engine: EngineId) -> SimDuration {
    match engine {
        EngineId::Gslb => SimDuration::from_secs(30),
        EngineId::Autoscale => SimDuration::from_mins(5),
        _ => SimDuration::from_mins(1),
    }
}

impl AttentionConfig {
    /// The table of `engine` (the core engine has none: the defaults).
    pub fn for_engine(&self, engine: EngineId) -> Option<&FlapConfig> {
        match engine {
            EngineId::Core => None,
            EngineId::Lhc => Some(&self.lhc),
            EngineId::Lms => Some(&self.lms),
            EngineId::Gslb => Some(&self.gslb),
            EngineId::Autoscale => Some(&self.autoscale),
        }
    }

    /// Checks each engine's table: the window, the thresholds and the interval.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for engine in EngineId::ALL {
            let Some(c) = self.for_engine(engine) else {
                continue;
            };
            let path = FieldPath::root("attention").key(engine.as_str());
            if let Err((field, message)) = c.settings().validate() {
                return fail(path.key(field), message);
            }
            if let Some(interval) = c.interval {
                if interval < MIN_INTERVAL || interval > MAX_INTERVAL {
                    return fail(
                        path.key("interval"),
                        format!(
                            "must be between {MIN_INTERVAL} and {MAX_INTERVAL}; got {interval}"
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bad_value_names_its_field_and_range() {
        type Edit = fn(&mut AttentionConfig);
        let cases: [(&str, Edit, &str); 6] = [
            ("window too short", |c| c.lhc.checks = 2, "attention.lhc.checks: must be 3 to 100, not 2"),
            ("window too long", |c| c.gslb.checks = 101, "attention.gslb.checks: must be 3 to 100, not 101"),
            ("low above 100", |c| c.lms.low_pct = 101.0, "attention.lms.low_pct: must be 0 to 100 %, not 101"),
            ("high not above low", |c| c.autoscale.high_pct = 20.0, "attention.autoscale.high_pct: must be above low_pct (25 %) and at most 100 %, not 20"),
            ("interval too short", |c| c.lhc.interval = Some(SimDuration::from_millis(500)), "attention.lhc.interval: must be between 1s and 1d; got 500ms"),
            ("interval too long", |c| c.gslb.interval = Some(SimDuration::from_hours(25)), "attention.gslb.interval: must be between 1s and 1d; got 1d1h"),
        ];
        for (name, edit, want) in cases {
            let mut c = AttentionConfig::default();
            edit(&mut c);
            let got = c.validate().map_err(|e| e.to_string());
            assert_eq!(got.err().as_deref(), Some(want), "{name}");
        }
        assert!(AttentionConfig::default().validate().is_ok());
    }

    #[test]
    fn the_default_intervals_are_per_engine() {
        let c = AttentionConfig::default();
        assert_eq!(c.lhc.interval_for(EngineId::Lhc), SimDuration::from_mins(1));
        assert_eq!(
            c.gslb.interval_for(EngineId::Gslb),
            SimDuration::from_secs(30)
        );
        assert_eq!(
            c.autoscale.interval_for(EngineId::Autoscale),
            SimDuration::from_mins(5)
        );
    }
}
