//! [`AutoscaleAction`]: what an operator does to an autoscale group (inject or release load,
//! deploy or remove the application, switch the distribution, edit the parameters), with its
//! check against `[autoscale]` ([`AutoscaleConfig::check_action`]) and against the state
//! (`AutoscaleEngine::check_state`) side by side, then its application. Each takes effect
//! from the next minute evaluated; a rejected action changes nothing.

use serde::{Deserialize, Serialize};

use super::config::{
    AutoscaleConfig, DistributionMode, GroupConfig, GroupParams, MAX_INJECT_LEVEL, MAX_INJECT_MIN,
};
use super::engine::AutoscaleEngine;
use super::operations::{deploy, load_inject, load_release, settings_change, switch};
use crate::action::error::ActionError;
use crate::clock::SimTime;
use crate::event::{attribute, Event};
use crate::scenario::check::some_of;
use crate::scenario::error::FieldPath;
use crate::step::Apply;

/// An action of the autoscale engine. Serialized flat with a `kind` tag in snake_case, like
/// every engine's actions (see [`Action`](crate::Action)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AutoscaleAction {
    /// Autoscale: offers extra demand to a group's clusters: a spike of `duration_min`
    /// minutes, or a lasting step when `duration_min` is absent.
    LoadInject {
        /// Group name.
        group: String,
        /// One availability zone; all of the group's zones when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
        /// Demand in percent of the capacity of `min_nodes` nodes, replacing the workload's
        /// own while it lasts.
        level: f64,
        /// Length of a spike in minutes; absent = a step that lasts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration_min: Option<u32>,
    },
    /// Autoscale: hands a group's clusters back to their workload model: any injected spike
    /// or step ends from the next minute.
    LoadRelease {
        /// Group name.
        group: String,
        /// One availability zone; all of the group's zones when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
    },
    /// Autoscale: deploys the group's application (IPSet per cluster, domain and IPs
    /// registered with DNS or the NLB).
    AppDeploy {
        /// Group name.
        group: String,
    },
    /// Autoscale: removes the group's application (records unregistered, IPSets deleted).
    AppRemove {
        /// Group name.
        group: String,
    },
    /// Autoscale: switches a group's traffic distribution between DNS and NLB.
    DistributionSwitch {
        /// Group name.
        group: String,
        /// The new mode.
        mode: DistributionMode,
    },
    /// Autoscale: replaces a group's parameters (limits, timings, node bounds).
    GroupSettings {
        /// Group name.
        group: String,
        /// The new parameters.
        settings: GroupParams,
    },
}

impl AutoscaleAction {
    /// Every `kind` of this engine's actions, in declaration order.
    pub const KINDS: [&'static str; 6] = [
        "load_inject",
        "load_release",
        "app_deploy",
        "app_remove",
        "distribution_switch",
        "group_settings",
    ];

    /// The `kind` tag, as written in files (`"load_inject"`).
    pub fn kind(&self) -> &'static str {
        match self {
            AutoscaleAction::LoadInject { .. } => "load_inject",
            AutoscaleAction::LoadRelease { .. } => "load_release",
            AutoscaleAction::AppDeploy { .. } => "app_deploy",
            AutoscaleAction::AppRemove { .. } => "app_remove",
            AutoscaleAction::DistributionSwitch { .. } => "distribution_switch",
            AutoscaleAction::GroupSettings { .. } => "group_settings",
        }
    }

    /// The group the action names.
    pub fn group(&self) -> &str {
        match self {
            AutoscaleAction::LoadInject { group, .. }
            | AutoscaleAction::LoadRelease { group, .. }
            | AutoscaleAction::AppDeploy { group }
            | AutoscaleAction::AppRemove { group }
            | AutoscaleAction::DistributionSwitch { group, .. }
            | AutoscaleAction::GroupSettings { group, .. } => group,
        }
    }
}

impl AutoscaleConfig {
    /// Checks an autoscale action against this configuration: the group (and zone) exist,
    /// `load_inject` levels and lengths are in range, a `load_release` zone is the group's, `group_settings` parameters are valid
    /// (field `settings`, the message naming the exact path, e.g.
    /// `settings.thresholds[0].max: ...`). What depends on the state (deploying an application
    /// that is deployed, switching to the mode in force) is checked when the action runs.
    pub fn check_action(&self, action: &AutoscaleAction) -> Result<(), ActionError> {
        let group = |name: &str| {
            self.group_index(name)
                .map(|i| &self.groups[i])
                .ok_or_else(|| self.unknown_group(name))
        };
        match action {
            AutoscaleAction::LoadInject {
                group: name,
                zone,
                level,
                duration_min,
            } => {
                check_zone(group(name)?, zone.as_deref())?;
                if !(level.is_finite() && (0.0..=MAX_INJECT_LEVEL).contains(level)) {
                    return Err(ActionError::Invalid {
                        field: "level",
                        message: format!(
                            "must be a finite number between 0 and {MAX_INJECT_LEVEL} (percent of \
                             the capacity of min_nodes nodes); got {level}"
                        ),
                    });
                }
                if let Some(d) = duration_min {
                    if !(1..=MAX_INJECT_MIN).contains(d) {
                        return Err(ActionError::Invalid {
                            field: "duration_min",
                            message: format!(
                                "must be between 1 and {MAX_INJECT_MIN} (minutes; leave it out \
                                 for a lasting step); got {d}"
                            ),
                        });
                    }
                }
                Ok(())
            }
            AutoscaleAction::LoadRelease { group: name, zone } => {
                check_zone(group(name)?, zone.as_deref())
            }
            AutoscaleAction::AppDeploy { group: name }
            | AutoscaleAction::AppRemove { group: name }
            | AutoscaleAction::DistributionSwitch { group: name, .. } => group(name).map(|_| ()),
            AutoscaleAction::GroupSettings {
                group: name,
                settings,
            } => {
                group(name)?;
                check_params(settings)
            }
        }
    }
}

/// An action's optional `zone` must be one of the group's availability zones.
fn check_zone(g: &GroupConfig, zone: Option<&str>) -> Result<(), ActionError> {
    match zone {
        Some(z) if !g.zones.iter().any(|known| known == z) => Err(ActionError::Unknown {
            field: "zone",
            what: "availability zone",
            name: z.to_owned(),
            known: some_of(g.zones.iter().map(String::as_str)),
        }),
        _ => Ok(()),
    }
}

/// Checks edited group parameters as an action or a what-if gives them: on error, field
/// `settings` and a message naming the exact path (`settings.thresholds[0].max: must be
/// greater than min (85); got 40`), like `evaluator_save` does for its rules.
pub fn check_params(params: &GroupParams) -> Result<(), ActionError> {
    params
        .validate(&FieldPath::root("settings"))
        .map_err(|e| ActionError::Invalid {
            field: "settings",
            message: e.to_string(),
        })
}

impl AutoscaleEngine {
    /// Checks what depends on the state; on `Err` nothing changes.
    pub(crate) fn check_state(&self, action: &AutoscaleAction) -> Result<(), ActionError> {
        match action {
            AutoscaleAction::AppDeploy { group } => {
                let g = &self.groups[self.group_of(group)?];
                if g.deployed {
                    return Err(ActionError::NoChange(format!(
                        "the application of group \"{group}\" is already deployed"
                    )));
                }
                Ok(())
            }
            AutoscaleAction::AppRemove { group } => {
                let g = &self.groups[self.group_of(group)?];
                if !g.deployed {
                    return Err(ActionError::NoChange(format!(
                        "the application of group \"{group}\" is not deployed"
                    )));
                }
                Ok(())
            }
            AutoscaleAction::DistributionSwitch { group, mode } => {
                let g = &self.groups[self.group_of(group)?];
                if g.mode == *mode {
                    return Err(ActionError::NoChange(format!(
                        "group \"{group}\" already distributes its traffic with {}",
                        mode.as_str().to_uppercase()
                    )));
                }
                Ok(())
            }
            AutoscaleAction::GroupSettings { group, settings } => {
                let g = &self.groups[self.group_of(group)?];
                if g.params == *settings {
                    return Err(ActionError::NoChange(format!(
                        "the settings of group \"{group}\" are unchanged"
                    )));
                }
                Ok(())
            }
            AutoscaleAction::LoadInject { group, .. } => self.group_of(group).map(|_| ()),
            AutoscaleAction::LoadRelease { group, zone } => {
                let g = &self.groups[self.group_of(group)?];
                let next = self.minute + 1;
                let injected = g
                    .clusters
                    .iter()
                    .filter(|c| zone.as_ref().is_none_or(|z| *z == c.zone))
                    .any(|c| c.injection(next).is_some());
                if !injected {
                    let whom = zone.as_ref().map_or_else(
                        || format!("group \"{group}\""),
                        |z| format!("zone {z} of group \"{group}\""),
                    );
                    return Err(ActionError::NoChange(format!(
                        "no injected load to release on {whom}: its demand already follows the \
                         workload model"
                    )));
                }
                Ok(())
            }
        }
    }

    /// Applies a checked action at `now` (ms).
    pub(crate) fn apply_checked(
        &mut self,
        now: u64,
        action: &AutoscaleAction,
        out: &mut Vec<Event>,
    ) {
        let from = self.minute + 1;
        let Ok(gi) = self.group_of(action.group()) else {
            return;
        };
        let ips = &mut self.ips;
        let g = &mut self.groups[gi];
        match action {
            AutoscaleAction::LoadInject {
                zone,
                level,
                duration_min,
                ..
            } => load_inject(g, zone.as_deref(), *level, *duration_min, from, now, out),
            AutoscaleAction::LoadRelease { zone, .. } => {
                load_release(g, zone.as_deref(), from, now, out)
            }
            AutoscaleAction::AppDeploy { .. } => deploy(g, true, from, now, out),
            AutoscaleAction::AppRemove { .. } => deploy(g, false, from, now, out),
            AutoscaleAction::DistributionSwitch { mode, .. } => {
                switch(g, *mode, ips, from, now, out)
            }
            AutoscaleAction::GroupSettings { settings, .. } => {
                settings_change(g, settings, from, now, out)
            }
        }
    }
}

impl Apply for AutoscaleEngine {
    type Action = AutoscaleAction;

    fn apply(
        &mut self,
        now: SimTime,
        action: &AutoscaleAction,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.cfg.check_action(action)?;
        self.check_state(action)?;
        if !self.groups.is_empty() {
            self.start(out);
        }
        let first = out.len();
        self.apply_checked(now.as_millis(), action, out);
        attribute(&mut out[first..], actor);
        Ok(())
    }
}
