//! Alert rules: what an admin asks the console to watch, and their checks.

use serde::{Deserialize, Serialize};

use crate::clock::SimDuration;
use crate::event::EngineId;
use crate::lhc::HaState;

/// Longest rule name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest `for_min` (one week of simulated time).
pub const MAX_FOR_MIN: u32 = 10_080;
/// Most consecutive load samples a `server_load` rule may ask for.
pub const MAX_SAMPLES: u32 = 1_000;
/// Most rules a console keeps.
pub const MAX_RULES: usize = 200;

/// How serious an alert of the rule is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertSeverity {
    /// Service is affected.
    Critical,
    /// Degraded or at a limit.
    Warning,
    /// Worth knowing.
    Info,
}

impl AlertSeverity {
    /// `critical`, `warning` or `info`.
    pub const fn as_str(self) -> &'static str {
        match self {
            AlertSeverity::Critical => "critical",
            AlertSeverity::Warning => "warning",
            AlertSeverity::Info => "info",
        }
    }
}

/// What a rule watches. Each fires per subject (a resource location, a child, a server, a
/// cluster, a flapping subject) and resolves when the condition no longer holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    /// A resource location in `state` for at least `for_min` simulated minutes
    /// (e.g. Extended HA for 10 minutes).
    HaState {
        /// The HA state.
        state: HaState,
        /// Minutes in it before the alert fires, `0..=10080`.
        for_min: u32,
    },
    /// More than `pct` percent of a resource location's VDAs unregistered.
    VdasUnregistered {
        /// Percentage, `0..100`.
        pct: f64,
    },
    /// A GSLB child held by no parent.
    ChildOrphaned {},
    /// A server's load index at or above `load` for `samples` consecutive load samples
    /// (`[lms].sample_interval` each).
    ServerLoad {
        /// Load index, `1..=10000`.
        load: u32,
        /// Consecutive samples, `1..=1000`.
        samples: u32,
    },
    /// An autoscale cluster at its group's maximum nodes.
    AtMaxNodes {},
    /// A subject flapping (flap detection), of one engine or of any.
    Flapping {
        /// `lhc`, `lms`, `gslb` or `autoscale`; any engine when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        engine: Option<EngineId>,
    },
}

/// One alert rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlertRule {
    /// Unique name, shown with its alerts (1 to 64 characters).
    pub name: String,
    /// Severity of its alerts.
    pub severity: AlertSeverity,
    /// What it watches.
    pub condition: Condition,
}

/// A refused rule: the field and what it may be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct RuleError {
    /// The field, e.g. `condition.for_min`.
    pub field: String,
    /// What is wrong and the allowed range.
    pub message: String,
}

fn refuse(field: &str, message: String) -> Result<(), RuleError> {
    Err(RuleError {
        field: field.to_owned(),
        message,
    })
}

impl Condition {
    /// The condition's kind, as in its `kind` field.
    pub const fn kind(&self) -> &'static str {
        match self {
            Condition::HaState { .. } => "ha_state",
            Condition::VdasUnregistered { .. } => "vdas_unregistered",
            Condition::ChildOrphaned {} => "child_orphaned",
            Condition::ServerLoad { .. } => "server_load",
            Condition::AtMaxNodes {} => "at_max_nodes",
            Condition::Flapping { .. } => "flapping",
        }
    }

    /// How long the condition must hold before the alert fires, given the farm's load
    /// sample interval.
    pub fn hold(&self, sample_interval: SimDuration) -> SimDuration {
        match self {
            Condition::HaState { for_min, .. } => SimDuration::from_mins(u64::from(*for_min)),
            Condition::ServerLoad { samples, .. } => {
                SimDuration(sample_interval.as_millis() * u64::from(*samples))
            }
            _ => SimDuration::ZERO,
        }
    }

    /// The condition in words.
    pub fn describe(&self) -> String {
        match self {
            Condition::HaState { state, for_min } => {
                format!(
                    "a resource location in {} for {for_min} min or more",
                    state.label()
                )
            }
            Condition::VdasUnregistered { pct } => {
                format!("more than {pct} % of a resource location's VDAs unregistered")
            }
            Condition::ChildOrphaned {} => "a GSLB child held by no parent".to_owned(),
            Condition::ServerLoad { load, samples } => {
                format!("a server at load {load} or more for {samples} load samples")
            }
            Condition::AtMaxNodes {} => "an autoscale cluster at its maximum nodes".to_owned(),
            Condition::Flapping { engine: None } => "anything flapping".to_owned(),
            Condition::Flapping { engine: Some(e) } => format!("anything of {e} flapping"),
        }
    }
}

impl AlertRule {
    /// Checks the name and the condition's values: the field and its allowed range.
    pub fn validate(&self) -> Result<(), RuleError> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name != self.name {
            return refuse(
                "name",
                format!(
                    "must be 1 to {MAX_NAME_CHARS} characters without surrounding spaces; got {:?}",
                    self.name
                ),
            );
        }
        match &self.condition {
            Condition::HaState { state, for_min } => {
                if *state == HaState::WorkingNormally {
                    return refuse(
                        "condition.state",
                        "must be a state out of Working Normally (pending_ha, ha_initial, extended_ha, pending_recovery)".to_owned(),
                    );
                }
                if *for_min > MAX_FOR_MIN {
                    return refuse(
                        "condition.for_min",
                        format!("must be between 0 and {MAX_FOR_MIN}; got {for_min}"),
                    );
                }
            }
            Condition::VdasUnregistered { pct } => {
                if !pct.is_finite() || !(0.0..100.0).contains(pct) {
                    return refuse(
                        "condition.pct",
                        format!("must be at least 0 and below 100; got {pct}"),
                    );
                }
            }
            Condition::ServerLoad { load, samples } => {
                if !(1..=10_000).contains(load) {
                    return refuse(
                        "condition.load",
                        format!("must be between 1 and 10000; got {load}"),
                    );
                }
                if !(1..=MAX_SAMPLES).contains(samples) {
                    return refuse(
                        "condition.samples",
                        format!("must be between 1 and {MAX_SAMPLES}; got {samples}"),
                    );
                }
            }
            Condition::Flapping {
                engine: Some(EngineId::Core),
            } => {
                return refuse(
                    "condition.engine",
                    "must be lhc, lms, gslb or autoscale (the core engine has nothing that flaps)"
                        .to_owned(),
                );
            }
            Condition::ChildOrphaned {} | Condition::AtMaxNodes {} | Condition::Flapping { .. } => {
            }
        }
        Ok(())
    }
}

/// Checks a whole rule set: each rule, then the names unique and the count.
pub fn validate_rules(rules: &[AlertRule]) -> Result<(), RuleError> {
    if rules.len() > MAX_RULES {
        return refuse(
            "rules",
            format!("at most {MAX_RULES} rules; got {}", rules.len()),
        );
    }
    for (i, rule) in rules.iter().enumerate() {
        rule.validate().map_err(|e| RuleError {
            field: format!("rules[{i}].{}", e.field),
            message: e.message,
        })?;
        if let Some(first) = rules[..i].iter().position(|r| r.name == rule.name) {
            return refuse(
                &format!("rules[{i}].name"),
                format!("duplicate name {:?} (first at rules[{first}])", rule.name),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<AlertRule, String> {
        let rule: AlertRule = serde_json::from_str(json).map_err(|e| e.to_string())?;
        rule.validate().map_err(|e| e.to_string())?;
        Ok(rule)
    }

    #[test]
    fn the_issue_examples_parse() {
        let cases = [
            r#"{"name":"RL in Extended HA","severity":"critical","condition":{"kind":"ha_state","state":"extended_ha","for_min":10}}"#,
            r#"{"name":"VDAs unregistered","severity":"warning","condition":{"kind":"vdas_unregistered","pct":5}}"#,
            r#"{"name":"Orphan","severity":"critical","condition":{"kind":"child_orphaned"}}"#,
            r#"{"name":"Full server","severity":"warning","condition":{"kind":"server_load","load":10000,"samples":2}}"#,
            r#"{"name":"At max","severity":"info","condition":{"kind":"at_max_nodes"}}"#,
            r#"{"name":"Anything flapping","severity":"warning","condition":{"kind":"flapping"}}"#,
            r#"{"name":"LHC flapping","severity":"warning","condition":{"kind":"flapping","engine":"lhc"}}"#,
        ];
        for json in cases {
            assert!(parse(json).is_ok(), "{json}: {:?}", parse(json));
        }
    }

    #[test]
    fn each_bad_rule_names_its_field_and_range() {
        let cases = [
            (
                r#"{"name":"","severity":"info","condition":{"kind":"child_orphaned"}}"#,
                "name: must be 1 to 64",
            ),
            (
                r#"{"name":"x","severity":"loud","condition":{"kind":"child_orphaned"}}"#,
                "unknown variant `loud`",
            ),
            (
                r#"{"name":"x","severity":"info","condition":{"kind":"child_orphaned","extra":1}}"#,
                "unknown field `extra`",
            ),
            (
                r#"{"name":"x","severity":"info","condition":{"kind":"nope"}}"#,
                "unknown variant `nope`",
            ),
            (
                r#"{"name":"x","severity":"info","condition":{"kind":"ha_state","state":"extended_ha","for_min":10081}}"#,
                "condition.for_min: must be between 0 and 10080; got 10081",
            ),
            (
                r#"{"name":"x","severity":"info","condition":{"kind":"ha_state","state":"working_normally","for_min":1}}"#,
                "condition.state: must be a state out of Working Normally",
            ),
            (
                r#"{"name":"x","severity":"info","condition":{"kind":"vdas_unregistered","pct":100}}"#,
                "condition.pct: must be at least 0 and below 100; got 100",
            ),
            (
                r#"{"name":"x","severity":"info","condition":{"kind":"server_load","load":0,"samples":2}}"#,
                "condition.load: must be between 1 and 10000; got 0",
            ),
            (
                r#"{"name":"x","severity":"info","condition":{"kind":"server_load","load":10000,"samples":0}}"#,
                "condition.samples: must be between 1 and 1000; got 0",
            ),
            (
                r#"{"name":"x","severity":"info","condition":{"kind":"flapping","engine":"core"}}"#,
                "condition.engine: must be lhc, lms, gslb or autoscale",
            ),
        ];
        for (json, want) in cases {
            let got = parse(json).err().unwrap_or_default();
            assert!(got.contains(want), "{json}: {got}");
        }
    }

    #[test]
    fn a_rule_set_refuses_duplicate_names_naming_both() {
        let rule = |name: &str| AlertRule {
            name: name.to_owned(),
            severity: AlertSeverity::Info,
            condition: Condition::ChildOrphaned {},
        };
        let err = validate_rules(&[rule("a"), rule("b"), rule("a")]).err();
        assert_eq!(
            err.map(|e| e.to_string()).as_deref(),
            Some("rules[2].name: duplicate name \"a\" (first at rules[0])")
        );
        assert!(validate_rules(&[rule("a"), rule("b")]).is_ok());
    }

    #[test]
    fn the_hold_time_follows_the_condition() {
        let five = SimDuration::from_mins(5);
        let ha = Condition::HaState {
            state: HaState::ExtendedHa,
            for_min: 10,
        };
        assert_eq!(ha.hold(five), SimDuration::from_mins(10));
        let load = Condition::ServerLoad {
            load: 10_000,
            samples: 2,
        };
        assert_eq!(load.hold(five), SimDuration::from_mins(10));
        assert_eq!(Condition::ChildOrphaned {}.hold(five), SimDuration::ZERO);
    }
}
